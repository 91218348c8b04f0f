// read_vector_line: a line of a vector file (conformance/vectors/README.md),
// a request with the answer it expects added, read once by the parser that
// reads request lines (request.cc), so a vector is the request a port reads.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "conformance/protocol/answer.hpp"
#include "conformance/protocol/request.hpp"

namespace acemq::conformance {

// NOLINTNEXTLINE(bugprone-exception-escape): holds JSON values, as Request.
struct VectorLine {
  // The line without its expected answer, every other member byte for byte
  // ("-0" and "1e5" stay as written): what a port is asked.
  std::string request_line;
  ParsedLine request;
  std::optional<Answer> expected;  // nullopt when the line expects nothing readable
};

// The vector line, or why it is no JSON object by a request line's rules (a
// vector file that cannot be trusted, not a request to send).
std::variant<VectorLine, Refusal> read_vector_line(std::string_view text);

}  // namespace acemq::conformance
