// OpKind: the op of a generated request, as a type.
//
// A kind's value is its op's index in Op and in protocol_ops()
// (protocol/request.hpp), so its name on the wire (op_name) and its members
// (op_spec) come from the protocol's table alone. kOpKinds are the ops
// check sends, kOpsNotSentByCheck the rest; a static_assert holds the two
// to Op, so an op added to the protocol stops the build until it is put in
// one of them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string_view>
#include <type_traits>
#include <variant>

#include "conformance/protocol/request.hpp"

namespace acemq::conformance {

// The index of the call type Call among Op's alternatives.
template <typename Call, std::size_t I = 0>
consteval std::size_t op_index() {
  static_assert(I < std::variant_size_v<Op>, "not an alternative of Op");
  if constexpr (std::is_same_v<std::variant_alternative_t<I, Op>, Call>) {
    return I;
  } else {
    return op_index<Call, I + 1>();
  }
}

enum class OpKind : std::uint8_t {
  schedule = op_index<ScheduleCall>(),
  next_delay = op_index<NextDelayCall>(),
  jittered = op_index<JitteredCall>(),
  replay = op_index<ReplayCall>(),
};

// Every op check sends, in Op's order: an invalid rule that fits any op
// draws one of these.
inline constexpr OpKind kOpKinds[] = {OpKind::schedule, OpKind::next_delay, OpKind::jittered,
                                      OpKind::replay};

// The indices in Op of the ops check never sends (the table says why).
inline constexpr std::size_t kOpsNotSentByCheck[] = {op_index<SampleCall>()};

// Whether every alternative of Op is exactly one of the two lists.
consteval bool every_op_is_sent_or_not() {
  for (std::size_t i = 0; i < std::variant_size_v<Op>; ++i) {
    int lists = 0;
    for (const OpKind kind : kOpKinds) lists += static_cast<std::size_t>(kind) == i ? 1 : 0;
    for (const std::size_t not_sent : kOpsNotSentByCheck) lists += not_sent == i ? 1 : 0;
    if (lists != 1) return false;
  }
  return std::size(kOpKinds) + std::size(kOpsNotSentByCheck) == std::variant_size_v<Op>;
}
static_assert(every_op_is_sent_or_not(),
              "each op of the protocol is an OpKind check sends, or one it never sends");

// The op's row of the protocol's table.
inline const OpSpec& op_spec(OpKind op) { return protocol_ops()[static_cast<std::size_t>(op)]; }

// The op's name on the wire: "schedule", "next_delay", ...
inline std::string_view op_name(OpKind op) { return op_spec(op).name; }

}  // namespace acemq::conformance
