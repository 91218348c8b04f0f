// core_refusal: the core's std::invalid_argument, read back into its parts,
// so the protocol and the command can say the rule in their own words and
// name their own field (policy.delay, --jitter-factor) instead of
// repeating the core's message around it.
//
// The core says "<where>: <name> must be <rule>, got <value>"
// (src/acemq/amqp/retry_policy.cc, reject).
#pragma once

#include <optional>
#include <string_view>

namespace acemq::conformance {

struct CoreRefusal {
  std::string_view name;  // the parameter the core names: "jitter_factor"
  std::string_view rule;  // what it must be: "in [0, 1]"
};

// nullopt when the message is not in the core's form. The views point into
// `message`.
inline std::optional<CoreRefusal> read_refusal(std::string_view message) {
  const std::size_t colon = message.find(": ");
  const std::size_t rule_at = message.find(" must be ");
  const std::size_t value_at = message.rfind(", got ");
  if (colon == std::string_view::npos || rule_at == std::string_view::npos ||
      value_at == std::string_view::npos || rule_at < colon || value_at < rule_at) {
    return std::nullopt;
  }
  constexpr std::size_t kMustBe = std::string_view(" must be ").size();
  return CoreRefusal{message.substr(colon + 2, rule_at - colon - 2),
                     message.substr(rule_at + kMustBe, value_at - rule_at - kMustBe)};
}

}  // namespace acemq::conformance
