// support: what every property body needs to fail readably, and to feed
// jitter the draws it must be tried with.
//
// A property fails through require(...), never a bare RC_ASSERT, so that its
// message says which call, with which arguments, gave what, and what the
// contract wanted: each double printed exactly (show.hpp), a missing delay as
// "nullopt (give up)". The message is built only when the check fails, since
// many checks run once per schedule entry.
//
// Delays cross into the bodies as the double inside Seconds (count()): the
// contract is about those bits, and the model (acemq::model) speaks doubles.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <rapidcheck.h>

#include "acemq/amqp/invalid_parameter.hpp"
#include "acemq/amqp/retry_policy.hpp"
#include "properties/generators.hpp"
#include "properties/show.hpp"

namespace acemq::props {

using amqp::Jitter;
using amqp::RetryPolicy;
using amqp::Seconds;

inline constexpr double kInf = std::numeric_limits<double>::infinity();
inline constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();

// ---- The fields a body branches on -----------------------------------------

inline std::int64_t max_attempts(const Policy& p) { return p->max_attempts; }
inline double cap(const Policy& p) { return p->max_delay.count(); }
inline double age_limit(const Policy& p) { return p->max_message_age.count(); }

// ---- Delays as doubles ----------------------------------------------------

inline std::optional<double> count(const std::optional<Seconds>& delay) {
  if (!delay) return std::nullopt;
  return delay->count();
}
std::vector<double> counts(const std::vector<Seconds>& delays);

// ---- Failing with a readable message -------------------------------------

std::string text(double value);
std::string text(Real value);
std::string text(const std::optional<double>& delay);
std::string text(const std::string& s);
std::string text(std::string_view s);
std::string text(const char* s);
std::string text(std::int64_t n);
std::string text(std::size_t n);
std::string text(int n);
std::string text(bool b);
std::string text(amqp::Parameter parameter);
std::string text(const amqp::InvalidParameter::Value& value);

template <typename... Parts>
std::string cat(const Parts&... parts) {
  std::string out;
  (out.append(text(parts)), ...);
  return out;
}

template <typename... Parts>
void require(bool ok, const Parts&... what) {
  if (!ok) RC_FAIL(cat(what...));
}

// Delays are equal when their bits are: 0.0 is not -0.0, and a NaN is itself.
template <typename... Parts>
void require_same(double actual, double expected, const Parts&... what) {
  if (!same_bits(actual, expected)) {
    RC_FAIL(cat(what..., ": got ", actual, ", want ", expected));
  }
}

template <typename... Parts>
void require_same(const std::optional<double>& actual, const std::optional<double>& expected,
                  const Parts&... what) {
  const bool same =
      actual.has_value() == expected.has_value() && (!actual || same_bits(*actual, *expected));
  if (!same) RC_FAIL(cat(what..., ": got ", actual, ", want ", expected));
}

// All six fields, bit for bit.
void require_same_options(const Options& actual, const Options& expected, const char* what);

// A delay that is neither negative nor NaN (-0.0 is not negative).
template <typename... Parts>
void require_delay(double delay, const Parts&... what) {
  require(!std::isnan(delay) && !(delay < 0.0), what..., ": ", delay, " is negative or NaN");
}

// ---- Refusals, as values ---------------------------------------------------

// What a refusal must carry: the parameter the model names, the value that
// was passed (the same bits; a whole number for max_attempts and attempt),
// and the call that refused. what()'s text is the unit tests' to check
// (tests/retry_policy_test.cc), so a reworded message fails one test there,
// not every property here.
struct Refusal {
  amqp::Parameter parameter;
  amqp::InvalidParameter::Value value;
  std::string_view where;
};

// Fails unless `refusal` carries exactly `want`.
void require_carries(const amqp::InvalidParameter& refusal, const Refusal& want,
                     const std::string& what);

// Runs `call`, which must throw InvalidParameter carrying `want`.
template <typename Call>
void require_refusal(Call&& call, const Refusal& want, const std::string& what) {
  try {
    call();
  } catch (const amqp::InvalidParameter& refusal) {
    require_carries(refusal, want, what);
    return;
  } catch (const std::exception& e) {
    RC_FAIL(cat(what, ": threw something other than InvalidParameter: ", e.what()));
  }
  RC_FAIL(cat(what, ": accepted; want InvalidParameter naming ", want.parameter));
}

// ---- Sources ----------------------------------------------------------------

// A source that always yields `r` and counts how often it was asked: jitter
// must ask once where it applies and never elsewhere.
class CountingSource {
 public:
  CountingSource(double r, int& draws) : r_(r), draws_(&draws) {}
  double operator()() const {
    ++*draws_;
    return r_;
  }

 private:
  double r_;
  int* draws_;
};

// The generated draw, then the edge draws every jitter check tries.
std::vector<double> draws_with_edges(Real generated);

}  // namespace acemq::props
