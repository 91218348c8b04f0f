#include "properties/regime_coverage.hpp"

#include <rapidcheck.h>
#include <boost/math/distributions/binomial.hpp>

#include "acemq/amqp/internal/walk.hpp"
#include "acemq/model/regimes.hpp"

namespace acemq::props {

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
    RC_CLASSIFY(now_[i], std::string(model::kRegimeRows[i].name));
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

void Cases::reach(model::Regimes reached) {
  for (const model::RegimeRow& row : model::kRegimeRows) reach(row.regime, reached.has(row.regime));
}

void Cases::value(double x) { reach(model::regimes_of_value(x)); }

void Cases::policy(const amqp::RetryPolicy::Options& o, std::int64_t attempt, double message_age,
                   std::int64_t walk_limit) {
  reach(attempt > 0 ? model::regimes_of_call(o, attempt, message_age,
                                             amqp::internal::kRememberedRunningValues, walk_limit)
                    : model::regimes_of_schedule(o, walk_limit));
}

}  // namespace acemq::props
