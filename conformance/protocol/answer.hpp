// Answer: one answer of the conformance protocol, as a value: what the core
// answers (respond.hpp), what an adapter's answer line reads back as, and
// what a vector line expects, compared and formatted the same way.
//
// Two answers agree when both are errors (messages are prose and are never
// compared), or both are results of the same shape whose numbers have the same
// 64 bits. The wire has one NaN, so any NaN equals any NaN; -0.0 and 0.0
// differ. Ids are compared apart, by same_id: a wrong id is a broken
// adapter, not a wrong answer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace acemq::conformance {

// nlohmann::json's destructor may allocate (it destroys nested values
// iteratively, with a stack), which clang-tidy reports against this struct.
// NOLINTNEXTLINE(bugprone-exception-escape)
struct Answer {
  nlohmann::json id;
  bool ok = false;
  // The result when ok: a number or null is one item with is_array false;
  // null is nullopt.
  bool is_array = false;
  std::vector<std::optional<double>> items;
  std::string error;  // when not ok
};

// Reads an answer line with read_answer (answer_reader.hpp); nullopt, with
// the fault described in `why`, when the line holds no answer.
std::optional<Answer> parse_answer(std::string_view line, std::string& why);

// The answer line, without its newline: members in the protocol's order,
// numbers in wire form, ASCII.
std::string format_answer(const Answer& answer);
// The result alone, as JSON text: a number, null or an array.
std::string format_result(const Answer& answer);

// The answer a vector line expects: its "expect" member (a result) or its
// "expect_error" member (an error); nullopt when it has neither or the result
// is not in the grammar.
std::optional<Answer> expected_answer(const nlohmann::json& vector_line);

// Whether an answer's id is the request's (docs/protocol.md, Requests):
// equal as JSON values, numbers by value. An integer literal within int64
// stands for that integer; any other number (a fraction, an exponent, or an
// integer beyond int64) for the binary64 nearest its text; two numbers are
// equal when those values are, exactly. So 9007199254740993 is not
// 9007199254740992.0, which a double makes of it, and -0, 0 and -0.0 are one
// id (serve echoes -0 as 0). Arrays by position, objects by key, strings,
// booleans and null as themselves.
bool same_id(const nlohmann::json& sent, const nlohmann::json& echoed);

// Whether two ids that are both numbers read as the same binary64 double
// although same_id tells them apart: the mark of an id echoed through a
// double, for the report.
bool same_as_doubles(const nlohmann::json& sent, const nlohmann::json& echoed);

// Where `actual` departs from `expected`, as one line for a person; nullopt
// when they agree.
std::optional<std::string> difference(const Answer& expected, const Answer& actual);

// A number with its bits, for reports: 0.30000000000000004 (0x3fd3333333333334).
std::string describe_bits(double value);

}  // namespace acemq::conformance
