#include "coverage.hpp"

#include <cmath>
#include <limits>

#include <rapidcheck.h>
#include <boost/math/distributions/binomial.hpp>

#include "acemq/amqp/internal/walk.hpp"
#include "acemq/model/contract.hpp"

namespace acemq::props {
namespace {

struct RegimeRow {
  Regime regime;
  std::string_view name;
};

constexpr RegimeRow kRegimeNames[kRegimes] = {
    {Regime::cap_passed, "cap passed"},
    {Regime::multiplier_below_one, "multiplier below 1"},
    {Regime::negative_zero, "-0.0"},
    {Regime::overflow, "overflow"},
    {Regime::subnormal, "subnormal"},
    {Regime::age_at_limit, "age at the limit"},
    {Regime::past_remembered_prefix, "attempt past the remembered prefix"},
    {Regime::huge_attempt, "huge attempt"},
};

// Attempts from here on cost a walk no test can wait for without an exit.
constexpr std::int64_t kHugeAttempt = 1'000'000'000;

bool negative_zero(double x) { return x == 0.0 && std::signbit(x); }
bool subnormal(double x) { return std::fpclassify(x) == FP_SUBNORMAL; }

}  // namespace

std::string_view regime_name(Regime regime) {
  return kRegimeNames[static_cast<std::size_t>(regime)].name;
}

double share_upper_bound(std::int64_t hits, std::int64_t cases) {
  if (cases <= 0) return 1.0;
  return boost::math::binomial_distribution<>::find_upper_bound_on_p(
      static_cast<double>(cases), static_cast<double>(hits), kCoverageAlpha);
}

void Cases::flush() {
  if (!open_) return;
  ++cases_;
  for (std::size_t i = 0; i < kRegimes; ++i) {
    if (now_[i]) ++hits_[i];
    RC_CLASSIFY(now_[i], std::string(kRegimeNames[i].name));
    now_[i] = false;
  }
  open_ = false;
}

void Cases::begin() {
  flush();
  open_ = true;
}

void Cases::end() { flush(); }

void Cases::reach(Regime regime, bool reached) {
  if (reached) now_[static_cast<std::size_t>(regime)] = true;
}

void Cases::value(double x) {
  reach(Regime::negative_zero, negative_zero(x));
  reach(Regime::subnormal, subnormal(x));
}

void Cases::policy(const amqp::RetryPolicy::Options& o, std::int64_t attempt, double message_age,
                   std::int64_t walk_limit) {
  for (const double field : {o.initial_delay.count(), o.multiplier, o.max_delay.count(),
                             o.jitter_factor, o.max_message_age.count()}) {
    value(field);
  }
  reach(Regime::multiplier_below_one, o.multiplier < 1.0);
  const double limit = o.max_message_age.count();
  reach(Regime::age_at_limit, attempt > 0 && limit > 0.0 && message_age == limit);
  reach(Regime::past_remembered_prefix, attempt > amqp::internal::kRememberedRunningValues);
  reach(Regime::huge_attempt, attempt >= kHugeAttempt);
  // The running value: before entry `attempt`, or before the schedule's last.
  const std::int64_t entry = attempt > 0 ? attempt : o.max_attempts - 1;
  if (entry < 1 || entry > walk_limit) return;
  const double running = model::running_value(o, entry);
  value(running);
  const double cap = o.max_delay.count();
  reach(Regime::cap_passed, cap > 0.0 && running > cap);
  reach(Regime::overflow, std::isinf(running) && std::isfinite(o.initial_delay.count()));
}

}  // namespace acemq::props
