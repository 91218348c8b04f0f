// jitter: what the spread does to a delay.
//
// jittered is delay * (1 + ((r * 2 - 1) * jitter_factor)) for one draw r in
// [0, 1) (docs/contract.md §5), and next_delay clamps the result at zero.
// These properties hold it to what the doc page promises in words: within
// ±jitter_factor of the delay, in both directions, and never negative nor
// NaN. That the bits are the model's is matches_model.cc's; how many draws it
// takes is sources.cc's.
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include <rapidcheck.h>

#include "properties/generators.hpp"
#include "properties/properties.hpp"
#include "properties/support.hpp"

namespace acemq::props {
namespace {

using namespace std::chrono_literals;

// A jittered delay lies in [d(1 - f), d(1 + f)] and at most
// max_delay * (1 + f), each bound computed in binary64.
void jitter_stays_in_band(Cases& /*cases*/) {
  const Policy p = *valid_policy({.lengths = Lengths::any, .retries = true});
  const RetryPolicy policy(*p);
  const std::int64_t attempt = *retrying_attempt_for(max_attempts(p), 1'000'000);
  const Real age = *young_age_for(age_limit(p));
  const Real r = *draw();
  const std::optional<double> unjittered =
      count(policy.next_delay(attempt, Seconds{age}, Jitter::off));
  require(unjittered.has_value(), "next_delay(", attempt, ", ", age, ", Jitter::off) gave up");
  const double d = *unjittered;
  const double f = p->jitter_factor;
  // Rounding is monotonic, so (2r - 1) * f in [-f, f] keeps the computed
  // delay between the same bounds computed in binary64. 1 - f == 0 would
  // make inf * 0, and the port keeps an infinite delay there.
  const double upper = d * (1 + f);
  const double lower = (1 - f) == 0.0 ? 0.0 : d * (1 - f);
  const double cap_upper = cap(p) > 0.0 ? cap(p) * (1 + f) : kInf;
  for (const double each : draws_with_edges(r)) {
    int draws = 0;
    const std::optional<double> jittered =
        count(policy.next_delay(attempt, Seconds{age}, CountingSource(each, draws)));
    require(jittered.has_value(), "next_delay(", attempt, ", ", age, ") with r = ", each,
            " gave up");
    require(*jittered <= upper && *jittered >= lower, "next_delay(", attempt, ") with r = ", each,
            " is ", *jittered, ", outside [d(1 - f), d(1 + f)] = [", lower, ", ", upper,
            "] for d = ", d);
    require(*jittered <= cap_upper, "next_delay(", attempt, ") with r = ", each, " is ", *jittered,
            ", above max_delay * (1 + f) = ", cap_upper);
  }
}

// Jitter moves both ways: r < 1/2 never lengthens, r > 1/2 never shortens,
// r = 1/2 is the identity, and the extreme draws really move the delay, so
// a fleet that failed together does not come back together.
void jitter_is_two_sided(Cases& /*cases*/) {
  const Policy p = *valid_policy({.jitters = Jitters::positive});
  const RetryPolicy policy(*p);
  const Real d = *positive_delay_argument();
  const Real r = *draw();
  std::vector<double> draws = draws_with_edges(r);
  draws.push_back(std::nextafter(0.5, 0.0));
  draws.push_back(std::nextafter(0.5, 1.0));
  for (const double each : draws) {
    int asked = 0;
    const double j = policy.jittered(Seconds{d}, CountingSource(each, asked)).count();
    if (each < 0.5) require(j <= d, "jittered(", d, ") with r = ", each, " is ", j, ", above d");
    if (each > 0.5) require(j >= d, "jittered(", d, ") with r = ", each, " is ", j, ", below d");
    if (each == 0.5) require_same(j, d, "jittered(d) with r = 1/2");
  }
  // The extreme draws move an ordinary delay by a visible factor.
  if (p->jitter_factor >= 1e-3 && std::isnormal(d.value)) {
    int asked = 0;
    const double shortest_j = policy.jittered(Seconds{d}, CountingSource(0.0, asked)).count();
    const double longest_j =
        policy.jittered(Seconds{d}, CountingSource(std::nextafter(1.0, 0.0), asked)).count();
    require(shortest_j < d, "jittered(", d, ") with r = 0 is ", shortest_j, ", not below d");
    require(longest_j > d, "jittered(", d, ") with r = 1 - 2^-53 is ", longest_j, ", not above d");
  }
}

// No delay, jittered or not, from schedule(), next_delay or jittered, is
// negative or NaN: a consumer sleeps for it.
void never_negative_nor_nan(Cases& /*cases*/) {
  const Policy p = *valid_policy({.lengths = Lengths::any});
  const RetryPolicy policy(*p);
  if (max_attempts(p) <= 2000) {
    const std::vector<double> schedule = counts(policy.schedule());
    for (std::size_t i = 0; i < schedule.size(); ++i) {
      require_delay(schedule[i], "schedule()[", i, "]");
    }
  }
  const std::int64_t attempt = *attempt_for(max_attempts(p), 1'000'000);
  const Real age = *age_for(age_limit(p));
  const Real r = *draw();
  const std::optional<double> plain = count(policy.next_delay(attempt, Seconds{age}, Jitter::off));
  if (plain) require_delay(*plain, "next_delay(", attempt, ", ", age, ", Jitter::off)");
  const Real d = *delay_argument(false);
  for (const double each : draws_with_edges(r)) {
    int draws = 0;
    const CountingSource source(each, draws);
    const std::optional<double> jittered = count(policy.next_delay(attempt, Seconds{age}, source));
    if (jittered) require_delay(*jittered, "next_delay(", attempt, ", ", age, ") with r = ", each);
    require_delay(policy.jittered(Seconds{d}, source).count(), "jittered(", d, ") with r = ", each);
  }
}

const Property kJitterRows[] = {
    {"JitterStaysInBand",
     jitter_stays_in_band,
     {},
     {"retry_policy.cc | acemq::amqp::RetryPolicy::apply_draw(double, double) | constant 1 -> 0 | "
      "0",
      "retry_policy.cc | acemq::amqp::RetryPolicy::apply_draw(double, double) | constant 2 -> 3 | "
      "0"}},
    {"JitterIsTwoSided",
     jitter_is_two_sided,
     {},
     {"retry_policy.cc | acemq::amqp::RetryPolicy::apply_draw(double, double) | arithmetic - -> + "
      "| 0",
      "retry_policy.cc | acemq::amqp::RetryPolicy::apply_draw(double, double) | constant 2 -> 1 | "
      "0"}},
    {"NeverNegativeNorNaN",
     never_negative_nor_nan,
     {},
     {"retry_policy.cc | acemq::amqp::RetryPolicy::apply_draw(double, double) | ternary-arms c ? a "
      ": b -> c ? b : a | 0",
      "retry_policy.cc | acemq::amqp::RetryPolicy::apply_draw(double, double) | constant 1 -> 0 | "
      "0"}},
};

}  // namespace

std::span<const Property> jitter_properties() { return kJitterRows; }

}  // namespace acemq::props
