// InvalidParameter: what RetryPolicy throws for a value it refuses.
//
// The port validates where the Ruby reference does not (docs/contract.md,
// Decisions), and each refusal says three things a caller may need apart:
// which parameter, which rule it broke, and the value. So they travel as
// values, not only as text: a consumer that maps a bad setting back to its
// own configuration key, the conformance protocol that names its own field,
// and the command line that names its own flag all read parameter() instead
// of parsing what(). The text is still there, and still the same bytes:
//   "<where>: <name> must be <rule>, got <value>"
// e.g. "RetryPolicy: jitter_factor must be in [0, 1], got 1.5". Derived from
// std::invalid_argument, so every existing catch keeps working.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string_view>
#include <variant>

namespace acemq::amqp {

// Everything the policy validates: the six parameters of a policy, then the
// arguments of its calls.
enum class Parameter : std::uint8_t {
  max_attempts,
  initial_delay,
  multiplier,
  max_delay,
  jitter_factor,
  max_message_age,
  attempt,      // next_delay's
  message_age,  // next_delay's
  delay,        // jittered's
  draw,         // r, what a UniformSource returned
};

// The rules a value can break.
enum class Rule : std::uint8_t {
  at_least_one,         // max_attempts, attempt
  finite_non_negative,  // the durations and the multiplier; -0.0 passes
  unit_interval,        // the jitter factor: [0, 1]
  not_nan,              // a message age or a delay to jitter
  draw_interval,        // a draw: [0, 1), never 1
};

// The name the reference gives the parameter: "max_attempts", ..., "r".
std::string_view parameter_name(Parameter parameter) noexcept;
// The rule as a message says it after "must be": "in [0, 1]".
std::string_view rule_text(Rule rule) noexcept;

class InvalidParameter : public std::invalid_argument {
 public:
  // max_attempts and attempt are whole numbers; every other value a double.
  using Value = std::variant<std::int64_t, double>;

  // `where` names the call that refused ("RetryPolicy", "give_up_after",
  // "next_delay", ...) and must outlive the exception: a string literal.
  InvalidParameter(std::string_view where, Parameter parameter, Rule rule, Value value);

  std::string_view where() const noexcept { return where_; }
  Parameter parameter() const noexcept { return parameter_; }
  Rule rule() const noexcept { return rule_; }
  Value value() const noexcept { return value_; }

 private:
  std::string_view where_;
  Parameter parameter_;
  Rule rule_;
  Value value_;
};

}  // namespace acemq::amqp
