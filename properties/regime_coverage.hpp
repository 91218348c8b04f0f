// regime_coverage: which regimes a property's cases reach, and the check that
// each regime keeps its share, as QuickCheck's checkCoverage does. (The
// coverage retry-policy check reports, conformance/check/coverage.hpp, tallies
// the same regimes for a port's answers; this is the suite's own.)
//
// A property tags each case with the regimes its inputs fall in (Cases::
// reach), which RapidCheck prints as the run's distribution (RC_CLASSIFY).
// After a passing run, every regime the property's table row names must have
// kept its minimum share: the check fails when the one-sided Clopper-Pearson
// upper bound on the regime's true share, at confidence 1 - kCoverageAlpha,
// is below that minimum. So a generator that still has the designed share
// fails with probability below kCoverageAlpha, and one that stopped reaching
// the regime fails at once: with 1000 cases and none in the regime the bound
// is 2.05%, below every minimum in the table (each is at least 3%).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "acemq/amqp/retry_policy.hpp"
#include "acemq/model/regimes.hpp"

namespace acemq::props {

// The regimes where retry-policy arithmetic breaks, defined in the shared
// model so that check's tally speaks of the same ones (model/regimes.hpp).
using model::Regime;
using model::regime_name;
inline constexpr std::size_t kRegimes = model::kRegimeCount;

// A false alarm's odds per regime check, as QuickCheck's default certainty.
inline constexpr double kCoverageAlpha = 1e-9;

// The upper confidence bound on a share seen in `hits` of `cases`.
double share_upper_bound(std::int64_t hits, std::int64_t cases);

class Cases {
 public:
  // A new case begins: the regimes of the last one are counted.
  void begin();
  // The run is over: the last case is counted.
  void end();

  // This case reaches `regime` when `reached`.
  void reach(Regime regime, bool reached);
  // Tags every regime a next_delay(attempt, message_age) call of policy `o`
  // reaches (attempt 0: the schedule). The running value is walked by the
  // model only up to `walk_limit` multiplications.
  void policy(const amqp::RetryPolicy::Options& o, std::int64_t attempt = 0,
              double message_age = 0.0, std::int64_t walk_limit = 200'000);
  // Tags the regimes of one double: -0.0 or a subnormal.
  void value(double x);
  // Tags each regime in `reached`.
  void reach(model::Regimes reached);

  std::int64_t cases() const noexcept { return cases_; }
  std::int64_t hits(Regime regime) const noexcept {
    return hits_[static_cast<std::size_t>(regime)];
  }

 private:
  void flush();
  std::array<bool, kRegimes> now_{};
  std::array<std::int64_t, kRegimes> hits_{};
  std::int64_t cases_ = 0;
  bool open_ = false;
};

}  // namespace acemq::props
