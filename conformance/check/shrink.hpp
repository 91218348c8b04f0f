// shrink: the smallest request that still shows a difference.
//
// Greedy, in the QuickCheck manner: try simpler variants of the request
// (drop a replay call or an optional field, bring an integer towards 1, a
// number towards 0, 1 or fewer significant digits) and keep the first that
// still fails, until none does or the query budget runs out. A variant is
// only tried if it is strictly smaller, by (length of its line, sum of its
// integers' magnitudes), so the walk always ends. `still_fails` asks the
// port again: the shrunk request is one the port really answers wrongly.
#pragma once

#include <functional>

#include <nlohmann/json.hpp>

namespace acemq::conformance {

struct ShrinkResult {
  nlohmann::ordered_json request;
  int queries = 0;  // how many variants were put to the port
  int steps = 0;    // how many of them were kept
};

ShrinkResult shrink(const nlohmann::ordered_json& request,
                    const std::function<bool(const nlohmann::ordered_json&)>& still_fails,
                    int max_queries);

}  // namespace acemq::conformance
