// Coverage: which regimes of the contract a request and its answer reached,
// for the tally `check` prints on a pass, so a port's author sees what the
// agreement was about, and a run that never reached a regime says so.
//
// A regime is judged from the request, the core's answer, and the shared
// model (model/), never by re-deriving the contract's arithmetic here.
// Running values are walked only up to kCoverageWalk steps; past that a
// capped entry is counted only where the model can tell (multiplier >= 1
// and the cap already passed), never guessed.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "answer.hpp"

namespace acemq::conformance {

enum class Regime {
  capped,
  multiplier_below_one,
  negative_zero,
  overflow,
  subnormal,
  age_at_limit,
  past_remembered_prefix,
  huge_attempt,
  replay_skipped_draw,
  draw_at_edge,
};

struct RegimeName {
  Regime regime;
  std::string_view name;  // as the report prints it
};

// Every regime, in the report's order.
std::span<const RegimeName> regime_names();

inline constexpr std::int64_t kCoverageWalk = std::int64_t{1} << 16;

// The regimes a valid request reached; `answer` is the core's, which must
// be a result (ok). Never throws for a request the core answered.
std::vector<Regime> regimes_of(const nlohmann::json& request, const Answer& answer);

}  // namespace acemq::conformance
