// Refusals: every refusal the core answers with, as one table of words.
//
// A Refusal names the request's field and says what is wrong with it. What
// it says comes from one row of refusal_rows(): a short stable name
// (`integer_out_of_range`), the field it names, its words with named holes
// (`must be in {range}, got {got}`) and when it applies. The parser and the
// responder fill a row's holes and write nothing else, so every refusal the
// core answers with is a row, and `retry-policy protocol` prints the table
// (description.hpp). The words are the core's prose for people: check
// compares only that both answers are errors, never what they say.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace acemq::conformance {

// One row each, in kRefusals' order.
enum class Refuse : std::uint8_t {
  // The line as a whole (field "line").
  line_too_long,
  nul_byte,
  too_deep,
  byte_order_mark,
  empty_line,
  number_beyond_binary64,
  ends_inside_a_value,
  more_than_one_value,
  invalid_utf8,
  control_character,
  lone_surrogate,
  invalid_escape,
  bare_nan_or_infinity,
  malformed_number,
  not_json,
  not_an_object,
  vector_line_not_an_object,
  // The request's members.
  missing,
  not_a_member,
  unknown_op,
  policy_not_an_object,
  unknown_factory,
  not_a_number,
  not_an_integer,
  integer_out_of_range,
  draw_out_of_range,
  not_a_boolean,
  calls_not_an_array,
  too_many_calls,
  call_not_a_pair,
  too_many_draws,
  neither_delay_nor_attempt,
  both_delay_and_attempt,
  // Found by answering the request.
  core_rule,
  core_rule_nan,
  cost_limit,
  schedule_too_long,
};

struct RefusalRow {
  Refuse kind;
  std::string_view name;   // stable, for tests and the description
  std::string_view field;  // for a person: the field the refusal names
  std::string_view says;   // the words after "<field>: ", holes in braces
  std::string_view when;   // for a person: what the request did
};

// A hole of a row's words and what fills it, for the description.
struct RefusalHole {
  std::string_view name;
  std::string_view holds;
};

// Every row, in Refuse's order, and every hole a row's words may have.
std::span<const RefusalRow> refusal_rows();
std::span<const RefusalHole> refusal_holes();
const RefusalRow& refusal_row(Refuse kind);

// A refusal in the protocol's words: the field it names ("policy.delay",
// "calls[3][0] (attempt)", "line"), what is wrong with it, and the row it
// says that from. An error answer's message is "<field>: <what>".
struct Refusal {
  std::string field;
  std::string what;
  std::string_view name = {};  // its row's name

  std::string message() const { return field + ": " + what; }
};

// What fills one hole of a row's words.
struct Filled {
  std::string_view hole;
  std::string_view text;
};

// The row's words with each {hole} replaced by its text; a hole left
// unfilled stays as written, which the table's test reports.
std::string refusal_words(Refuse kind, std::initializer_list<Filled> holes = {});
Refusal refusal(Refuse kind, std::string field, std::initializer_list<Filled> holes = {});

// Thrown by the request parser and the responder from deep inside their
// readers, and caught once at each one's entry, where it becomes an answer.
struct Refused {
  Refusal refusal;
};

[[noreturn]] inline void refuse(Refuse kind, std::string field,
                                std::initializer_list<Filled> holes = {}) {
  throw Refused{refusal(kind, std::move(field), holes)};
}

}  // namespace acemq::conformance
