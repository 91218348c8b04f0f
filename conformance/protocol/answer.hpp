// Answer: one answer line of the conformance protocol, read back for comparing.
//
// Two answers agree when both are errors (messages are prose and are never
// compared), or both are results of the same shape whose numbers have the same
// 64 bits. The wire has one NaN, so any NaN equals any NaN; -0.0 and 0.0
// differ. Ids are compared by the caller: a wrong id is a broken adapter, not
// a wrong answer.
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

// Reads an answer line; nullopt, with the reason in `why`, when the line is
// not an answer in the protocol's grammar.
std::optional<Answer> parse_answer(std::string_view line, std::string& why);

// The answer a vector line expects: its "expect" member (a result) or its
// "expect_error" member (an error); nullopt when it has neither or the result
// is not in the grammar.
std::optional<Answer> expected_answer(const nlohmann::json& vector_line);

// Where `actual` departs from `expected`, as one line for a person; nullopt
// when they agree.
std::optional<std::string> difference(const Answer& expected, const Answer& actual);

// A number with its bits, for reports: 0.30000000000000004 (0x3fd3333333333334).
std::string describe_bits(double value);

}  // namespace acemq::conformance
