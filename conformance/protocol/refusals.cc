#include "conformance/protocol/refusals.hpp"

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <utility>

#include "conformance/protocol/limits.hpp"

namespace acemq::conformance {
namespace {

// The cost limit's words say 2^20 outright, which reads better than a hole.
static_assert(kMaxSteps == std::int64_t{1} << 20, "cost_limit's words state kMaxSteps");

constexpr RefusalRow kRefusals[] = {
    {Refuse::line_too_long, "line_too_long", "line",
     "{n} bytes is longer than the protocol's {limit}", "the line is longer than max_line_bytes"},
    {Refuse::nul_byte, "nul_byte", "line", "holds a NUL byte at column {column}",
     "a NUL byte anywhere in the line"},
    {Refuse::too_deep, "too_deep", "line",
     "arrays and objects nest deeper than the protocol's {limit}",
     "arrays and objects nest deeper than max_depth, counted on the raw text"},
    {Refuse::byte_order_mark, "byte_order_mark", "line", "starts with a byte-order mark",
     "the line starts with EF BB BF"},
    {Refuse::empty_line, "empty_line", "line", "empty; a request is one JSON object",
     "the line is empty or JSON whitespace"},
    {Refuse::number_beyond_binary64, "number_beyond_binary64", "line",
     "the number {literal} is beyond binary64's range (write \"Infinity\" for an infinite value)",
     "a number literal overflows binary64"},
    {Refuse::ends_inside_a_value, "ends_inside_a_value", "line",
     "ends inside a JSON value (truncated?)", "the line ends before its JSON value does"},
    {Refuse::more_than_one_value, "more_than_one_value", "line",
     "more than one JSON value, at column {column}",
     "anything but JSON whitespace after the first value"},
    {Refuse::invalid_utf8, "invalid_utf8", "line",
     "a string holds invalid UTF-8, at column {column}", "a string holds bytes that are not UTF-8"},
    {Refuse::control_character, "control_character", "line",
     "a string holds an unescaped control character, at column {column}",
     "a string holds a byte below 0x20"},
    {Refuse::lone_surrogate, "lone_surrogate", "line",
     "a string holds a lone surrogate (\\ud800 to \\udfff), at column {column}",
     "a \\u escape names a surrogate without its pair"},
    {Refuse::invalid_escape, "invalid_escape", "line",
     "a string holds an invalid escape, at column {column}",
     "any other error inside a string: an escape JSON does not have"},
    {Refuse::bare_nan_or_infinity, "bare_nan_or_infinity", "line",
     "bare NaN or Infinity, at column {column}; write the strings \"NaN\", \"Infinity\"",
     "the bare tokens NaN, Infinity or -Infinity"},
    {Refuse::malformed_number, "malformed_number", "line", "a malformed number, at column {column}",
     "the reader stopped just after a number's byte"},
    {Refuse::not_json, "not_json", "line", "not JSON, at column {column}",
     "any other line that is not one JSON value"},
    {Refuse::not_an_object, "not_an_object", "line", "must be a JSON object, got {got}",
     "the line is one JSON value, but not an object"},
    {Refuse::vector_line_not_an_object, "vector_line_not_an_object", "line",
     "must be a JSON object",
     "a vector file's line is JSON but not an object (check --vectors, the vector tests; never "
     "serve)"},
    {Refuse::missing, "missing", "the member", "missing",
     "a required member is absent (op, policy, a factory's required field, an op's member)"},
    {Refuse::not_a_member, "not_a_member",
     "the member's name as a JSON string, after \"policy.\" in a policy",
     "not a member of {whose} (its members: {members})",
     "a member the request's op, or the policy's form, does not take"},
    {Refuse::unknown_op, "unknown_op", "op", "must be {ops}, got {got}",
     "op is not a string naming an op"},
    {Refuse::policy_not_an_object, "policy_not_an_object", "policy", "must be an object, got {got}",
     "policy is not an object"},
    {Refuse::unknown_factory, "unknown_factory", "policy.factory", "must be {factories}, got {got}",
     "factory is not a string naming a factory"},
    {Refuse::not_a_number, "not_a_number", "the member",
     "must be a number or \"Infinity\", \"-Infinity\", \"NaN\", got {got}",
     "a number member (a policy's number, message_age, delay, r) is neither a JSON number nor one "
     "of the three strings"},
    {Refuse::not_an_integer, "not_an_integer", "the member",
     "must be an integer in {range}, written without fraction or exponent, got {got}",
     "an integer member is not a JSON integer: a fraction, an exponent, another type, or an "
     "integer beyond 64 bits"},
    {Refuse::integer_out_of_range, "integer_out_of_range", "the member",
     "must be in {range}, got {got}", "an integer member is outside its row's range"},
    {Refuse::draw_out_of_range, "draw_out_of_range", "r", "must be in [0, 1), got {got}",
     "a draw r that is read is not in [0, 1)"},
    {Refuse::not_a_boolean, "not_a_boolean", "jitter", "must be true or false, got {got}",
     "jitter is not a boolean"},
    {Refuse::calls_not_an_array, "calls_not_an_array", "calls",
     "must be an array of [attempt, message_age], got {got}", "replay's calls is not an array"},
    {Refuse::too_many_calls, "too_many_calls", "calls",
     "{n} calls is more than the protocol's {limit}",
     "a replay holds more than max_replay_calls calls"},
    {Refuse::call_not_a_pair, "call_not_a_pair", "calls[i]",
     "must be [attempt, message_age], exactly two elements, got {got}",
     "a replay call is not an array of two elements"},
    {Refuse::too_many_draws, "too_many_draws", "count",
     "{n} draws is more than the protocol's {limit}", "a sample's count is above max_sample_count"},
    {Refuse::neither_delay_nor_attempt, "neither_delay_nor_attempt", "delay",
     "missing, and so is attempt: give exactly one", "a sample has neither delay nor attempt"},
    {Refuse::both_delay_and_attempt, "both_delay_and_attempt", "attempt",
     "not allowed with delay: give exactly one", "a sample has both delay and attempt"},
    {Refuse::core_rule, "core_rule", "the member that carries the value",
     "must be {rule}, got {got}",
     "the core refuses a value: the policy's (base or copy), or the call's (attempt, message_age, "
     "delay)"},
    {Refuse::core_rule_nan, "core_rule_nan", "the member that carries the value", "must be {rule}",
     "the core refuses a NaN by the rule that names NaN, so the value is not said twice"},
    {Refuse::cost_limit, "cost_limit", "attempt, or calls[i][0] (attempt)",
     "{attempt} needs more than 2^20 multiplications on this policy, which does not settle (no cap "
     "passed, no zero, no fixed point) within 2^20 steps: the protocol's cost limit",
     "a next_delay call's answer rests on more than max_steps multiplications"},
    {Refuse::schedule_too_long, "schedule_too_long", "policy.max_attempts",
     "a schedule of {n} entries is more than the protocol's {limit}",
     "a schedule's max_attempts - 1 is above max_schedule_entries"},
};

constexpr bool in_refuse_order() {
  for (std::size_t i = 0; i < std::size(kRefusals); ++i) {
    if (static_cast<std::size_t>(kRefusals[i].kind) != i) return false;
  }
  return true;
}
static_assert(in_refuse_order(), "one row a Refuse, in its order, so refusal_row can index");

constexpr RefusalHole kHoles[] = {
    {"got",
     "the value as sent, as one line of JSON, cut to 60 characters and \"...\"; a draw's "
     "or the core's value as a wire number"},
    {"range", "the member's range, [lowest, highest]"},
    {"n", "how many the request holds or asks for"},
    {"limit", "the protocol's limit it is more than (limits)"},
    {"column", "the 1-based byte where the JSON reader stopped"},
    {"literal", "the number as written, cut to 60 characters and \"...\""},
    {"whose",
     "whose members they are: \"a next_delay request\", \"a constructor policy\", \"a policy "
     "of factory fixed\""},
    {"members", "the members it takes, comma separated"},
    {"ops", "the op names, quoted: \"a\", \"b\" or \"c\""},
    {"factories", "the factory names, quoted: \"a\", \"b\" or \"c\""},
    {"rule", "the core's words for the rule (amqp::rule_text): \"at least 1\", \"in [0, 1]\", ..."},
    {"attempt", "the attempt asked for"},
};

}  // namespace

std::span<const RefusalRow> refusal_rows() { return kRefusals; }

std::span<const RefusalHole> refusal_holes() { return kHoles; }

const RefusalRow& refusal_row(Refuse kind) { return kRefusals[static_cast<std::size_t>(kind)]; }

std::string refusal_words(Refuse kind, std::initializer_list<Filled> holes) {
  const std::string_view says = refusal_row(kind).says;
  std::string out;
  out.reserve(says.size());
  std::size_t at = 0;
  // One pass over the row's words, so a hole's text (a value as sent, which
  // may hold braces) is never read for holes itself.
  while (at < says.size()) {
    const std::size_t open = says.find('{', at);
    const std::size_t close = open == std::string_view::npos ? open : says.find('}', open);
    if (close == std::string_view::npos) break;
    out.append(says.substr(at, open - at));
    const std::string_view name = says.substr(open + 1, close - open - 1);
    const Filled* filled = nullptr;
    for (const Filled& hole : holes) {
      if (hole.hole == name) filled = &hole;
    }
    out.append(filled != nullptr ? filled->text : says.substr(open, close - open + 1));
    at = close + 1;
  }
  out.append(says.substr(std::min(at, says.size())));
  return out;
}

Refusal refusal(Refuse kind, std::string field, std::initializer_list<Filled> holes) {
  return Refusal{std::move(field), refusal_words(kind, holes), refusal_row(kind).name};
}

}  // namespace acemq::conformance
