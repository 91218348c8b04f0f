#include "properties/support.hpp"

#include <string>
#include <variant>

namespace acemq::props {

std::vector<double> counts(const std::vector<Seconds>& delays) {
  std::vector<double> out;
  out.reserve(delays.size());
  for (const Seconds d : delays) out.push_back(d.count());
  return out;
}

std::string text(double value) { return describe(value); }
std::string text(Real value) { return describe(value.value); }
std::string text(const std::optional<double>& delay) {
  return delay ? describe(*delay) : std::string("nullopt (give up)");
}
std::string text(const std::string& s) { return s; }
std::string text(std::string_view s) { return std::string(s); }
std::string text(const char* s) { return s; }
std::string text(std::int64_t n) { return std::to_string(n); }
std::string text(std::size_t n) { return std::to_string(n); }
std::string text(int n) { return std::to_string(n); }
std::string text(bool b) { return b ? "true" : "false"; }
std::string text(amqp::Parameter parameter) { return std::string(amqp::parameter_name(parameter)); }
std::string text(const amqp::InvalidParameter::Value& value) {
  if (const auto* whole = std::get_if<std::int64_t>(&value)) return std::to_string(*whole);
  return describe(std::get<double>(value));
}

void require_same_options(const Options& actual, const Options& expected, const char* what) {
  const bool same = actual.max_attempts == expected.max_attempts &&
                    same_bits(actual.initial_delay.count(), expected.initial_delay.count()) &&
                    same_bits(actual.multiplier, expected.multiplier) &&
                    same_bits(actual.max_delay.count(), expected.max_delay.count()) &&
                    same_bits(actual.jitter_factor, expected.jitter_factor) &&
                    same_bits(actual.max_message_age.count(), expected.max_message_age.count());
  if (!same) {
    RC_FAIL(cat(what, ":\n    got  ", describe(actual), "\n    want ", describe(expected)));
  }
}

namespace {

// A whole number against a whole number, a double against a double by its
// bits: 1 is not 1.0, and -0.0 is not 0.0.
bool same_value(const amqp::InvalidParameter::Value& a, const amqp::InvalidParameter::Value& b) {
  if (a.index() != b.index()) return false;
  if (const auto* whole = std::get_if<std::int64_t>(&a)) return *whole == std::get<std::int64_t>(b);
  return same_bits(std::get<double>(a), std::get<double>(b));
}

}  // namespace

void require_carries(const amqp::InvalidParameter& refusal, const Refusal& want,
                     const std::string& what) {
  require(refusal.parameter() == want.parameter, what, ": refused ", refusal.parameter(), ", want ",
          want.parameter);
  require(same_value(refusal.value(), want.value), what, ": refused the value ", refusal.value(),
          ", want ", want.value);
  require(refusal.where() == want.where, what, ": refused in ", refusal.where(), ", want ",
          want.where);
}

std::vector<double> draws_with_edges(Real generated) {
  std::vector<double> draws{generated.value};
  for (const double edge : kEdgeDraws) draws.push_back(edge);
  return draws;
}

}  // namespace acemq::props
