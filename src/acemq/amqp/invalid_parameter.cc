#include "acemq/amqp/invalid_parameter.hpp"

#include <charconv>
#include <string>

namespace acemq::amqp {
namespace {

// One row a parameter: its name, and how a message says it. The draw is
// "draw r" in a message, since "r must be" alone reads as a typo.
struct ParameterRow {
  std::string_view name;
  std::string_view in_message;
};

constexpr ParameterRow kParameters[] = {
    {"max_attempts", "max_attempts"},
    {"initial_delay", "initial_delay"},
    {"multiplier", "multiplier"},
    {"max_delay", "max_delay"},
    {"jitter_factor", "jitter_factor"},
    {"max_message_age", "max_message_age"},
    {"attempt", "attempt"},
    {"message_age", "message_age"},
    {"delay", "delay"},
    {"r", "draw r"},
};

constexpr std::string_view kRules[] = {
    "at least 1", "finite and >= 0", "in [0, 1]", "a number, not NaN", "in [0, 1)",
};

// Shortest round-trip form, so the value in a message is the value passed.
std::string shown(const InvalidParameter::Value& value) {
  if (const auto* whole = std::get_if<std::int64_t>(&value)) return std::to_string(*whole);
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, std::get<double>(value));
  return std::string(buffer, result.ptr);
}

std::string message(std::string_view where, Parameter parameter, Rule rule,
                    const InvalidParameter::Value& value) {
  std::string text;
  text.append(where).append(": ").append(
      kParameters[static_cast<std::size_t>(parameter)].in_message);
  text.append(" must be ").append(rule_text(rule)).append(", got ").append(shown(value));
  return text;
}

}  // namespace

std::string_view parameter_name(Parameter parameter) noexcept {
  return kParameters[static_cast<std::size_t>(parameter)].name;
}

std::string_view rule_text(Rule rule) noexcept { return kRules[static_cast<std::size_t>(rule)]; }

InvalidParameter::InvalidParameter(std::string_view where, Parameter parameter, Rule rule,
                                   Value value)
    : std::invalid_argument(message(where, parameter, rule, value)),
      where_(where),
      parameter_(parameter),
      rule_(rule),
      value_(value) {}

}  // namespace acemq::amqp
