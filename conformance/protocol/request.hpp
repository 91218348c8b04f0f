// Request: one line of the protocol, parsed once into a typed value.
//
// parse_request reads a line's bytes exactly once, and either every rule of
// the grammar holds (docs/protocol.md, Lines and Requests: one JSON
// object, the members of its op and nothing else, each of its type) and the
// line is a Request, or it is Unanswerable with the refusal that names the
// field. What the core then refuses (a policy it does not validate, an
// attempt below 1, the cost limit) is found by answering the Request
// (respond.hpp), not here: a Request holds what was asked, valid or not.
//
// The checker, the case generator and the shrinker carry the parsed request
// beside its text; a line that is no Request stays text.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "conformance/protocol/policy_spec.hpp"
#include "conformance/protocol/refusals.hpp"

namespace acemq::conformance {

// The ops, one alternative each (docs/protocol.md, Ops).
struct ScheduleCall {};
struct NextDelayCall {
  std::int64_t attempt = 1;
  double message_age = 0.0;
  bool jitter = true;
  double r = 0.0;  // read only with jitter, and then in [0, 1)
};
struct JitteredCall {
  double delay = 0.0;
  double r = 0.0;
};
struct ReplayCall {
  struct Call {
    std::int64_t attempt;
    double message_age;
  };
  std::uint32_t seed = 0;
  // Draws discarded after srand(seed), before the first call: a long skip
  // puts the compared draws past MT19937's refills of its 624 words.
  std::int64_t skip = 0;
  std::vector<Call> calls;
};
struct SampleCall {
  std::int64_t count = 1;
  // jittered(delay), or next_delay(attempt) at message age 0.
  std::variant<double, std::int64_t> of;
  // How many threads draw at once, as a pool of the port's users would;
  // 1 draws on the thread that reads the requests.
  std::int64_t threads = 1;
};
using Op = std::variant<ScheduleCall, NextDelayCall, JitteredCall, ReplayCall, SampleCall>;

// The op's name on the wire: "schedule", "next_delay", ...
std::string_view op_name(const Op& op);

// The protocol's one table of ops (conformance/protocol/protocol.json is
// its machine-readable form, description.hpp): each op with every member a
// request of it takes, id, op and policy included, as a row that says its
// JSON type, whether it must be there, its range and what its absence means.
// The request parser reads each member by its row, the case generator
// breaks each row's rules, and its tests hold the generator to reaching
// them all, so a member added here is parsed, sent and broken at once.
enum class MemberType : std::uint8_t {
  any,      // id: any JSON value, echoed
  string,   // op
  object,   // policy
  integer,  // a JSON integer, no fraction or exponent, in [lowest, highest]
  number,   // a JSON number, or "Infinity", "-Infinity", "NaN"
  draw,     // a number in [0, 1)
  boolean,
  calls,  // replay's array of [attempt, message_age], at most `highest` of them
};
enum class Presence : std::uint8_t {
  required,
  optional,
  // next_delay's r: read, and so required, only when jitter is true.
  with_jitter,
  // sample's delay and attempt: exactly one of the two.
  one_of_delay_attempt,
};
struct MemberRule {
  std::string_view name;
  MemberType type;
  Presence presence;
  // An integer's range; for calls, how many at most.
  std::int64_t lowest = 0;
  std::int64_t highest = 0;
  // What an absent optional member means, as JSON text ("0", "true").
  std::string_view absent_means = {};
};
struct OpSpec {
  std::string_view name;
  std::span<const MemberRule> members;
  std::string_view result;  // for a person: what a result answer holds
  // Why `retry-policy check` never sends this op, if it does not.
  std::string_view not_sent_by_check = {};
};
// In Op's order.
std::span<const OpSpec> protocol_ops();
// The members a vector line adds to its request (expect, expect_error):
// they ride along and are never read.
std::span<const std::string_view> vector_line_members();

// nlohmann::json's destructor may allocate (it destroys nested values
// iteratively, with a stack), which clang-tidy reports against this struct.
// NOLINTNEXTLINE(bugprone-exception-escape)
struct Request {
  nlohmann::json id;  // null when the line has none
  PolicySpec policy;
  Op op;
};

// A line that is no Request: the refusal, and the line's id where the line
// was an object that had one (otherwise null), for the error answer.
// NOLINTNEXTLINE(bugprone-exception-escape): as Request.
struct Unanswerable {
  nlohmann::json id;
  Refusal refusal;
};

using ParsedLine = std::variant<Request, Unanswerable>;

// One line (without its newline). Never throws but for memory: whatever the
// bytes, the result is a Request or an Unanswerable naming the field.
ParsedLine parse_request(std::string_view line);

// What a line longer than kMaxLineBytes, dropped unread by a reader, is.
Unanswerable line_too_long(std::size_t bytes);

}  // namespace acemq::conformance
