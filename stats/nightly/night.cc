#include "stats/nightly/night.hpp"

#include <algorithm>
#include <regex>
#include <tuple>

#include "stats/battery/jobs.hpp"
#include "stats/battery/known_bad.hpp"

namespace acemq::stats {

std::string NightPlan::describe() const {
  std::string out = "n " + std::to_string(n) + " a cell";
  out += with_known_bad ? ", known-bad doubles at n " + std::to_string(known_bad_n)
                        : ", no known-bad doubles";
  if (!only.empty()) out += ", only cells matching /" + only + "/";
  return out;
}

std::string NightPlan::arguments() const {
  std::string out = "--seed " + std::to_string(seed);
  if (n != kNightlySamples) out += " --n " + std::to_string(n);
  if (!only.empty()) out += " --only '" + only + "'";
  if (!with_known_bad) out += " --no-known-bad";
  return out;
}

namespace {

// The cells in the order the jobs run: each factor and delay through every
// path and source before the next, so that the contiguous shares shard()
// cuts hold the same mix of cheap and costly draws (a RubyRandom next_delay
// costs several DefaultSource jittered ones: bench/stats_bench.cc).
std::vector<std::size_t> balanced_order(const std::vector<Cell>& cells) {
  std::vector<std::size_t> order(cells.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  const auto rank = [&](std::size_t i) {
    const Cell& c = cells[i];
    return std::tuple(c.factor, static_cast<int>(c.delay), static_cast<int>(c.source),
                      static_cast<int>(c.path));
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return rank(a) < rank(b); });
  return order;
}

}  // namespace

std::vector<Job> jobs(const NightPlan& plan) {
  const std::vector<Cell> cells = grid();
  const std::regex filter(plan.only.empty() ? ".*" : plan.only);
  std::vector<Job> out;
  for (const std::size_t i : balanced_order(cells)) {
    if (std::regex_search(cells[i].name(), filter)) {
      out.push_back(grid_job(cells[i], i, plan.seed, plan.n));
    }
  }
  if (plan.with_known_bad) {
    std::size_t index = cells.size();
    for (const KnownBad& bad : known_bad()) {
      // The nightly runs the battery alone; a double only the resolution
      // test sees (its own exact cell) is known_bad_test.cc's.
      if (!battery_sees(bad)) continue;
      out.push_back(
          known_bad_job(bad, kKnownBadFactor, derive_seed(plan.seed, index++), plan.known_bad_n));
    }
  }
  return out;
}

}  // namespace acemq::stats
