// Coverage: which regimes of the contract a request and its answer reached,
// for the tally `check` prints on a pass, so a port's author sees what the
// agreement was about, and a run that never reached a regime says so.
//
// The first rows are the model's regimes (model/regimes.hpp), judged as the
// properties judge them; two more are regimes only a protocol request can
// reach. Nothing here re-derives the contract's arithmetic: running values
// come from the model's walk, at most kCoverageWalk steps of it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "acemq/model/regimes.hpp"
#include "conformance/protocol/answer.hpp"
#include "conformance/protocol/request.hpp"

namespace acemq::conformance {

// The tally's rows, as the report prints them: the model's regimes in their
// order, then the protocol's own.
std::span<const std::string_view> coverage_rows();

// Long enough to tell a walk that settles one step past the cost limit from
// one that does not (model::kCostEdgeWalk): a few milliseconds for each far
// call, about 1 in 100 of the generated ones.
inline constexpr std::int64_t kCoverageWalk = model::kCostEdgeWalk;

// The rows (indices into coverage_rows()) a request reached, given the
// core's answer: a result's regimes, or for a refused far next_delay call
// the cost limit's. Never throws.
std::vector<std::size_t> regimes_of(const Request& request, const Answer& answer);

}  // namespace acemq::conformance
