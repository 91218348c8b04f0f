// Buffer borders: requests whose line, or whose answer, ends a byte either
// side of a power of two, where a port's fixed buffers end.
//
// A port that writes its answer into a buffer of 2^k bytes and grows it
// slips on its "room" arithmetic only where a piece of the answer (a
// string's opening quote, its last byte, an escape's 6 bytes, the final
// LF) starts or ends exactly at the buffer's end: an answer 30 bytes short
// of it or past it shows nothing. The answer check expects is the core's,
// so the generator places each piece exactly (kLandings in
// buffer_borders.cc), with an id of plain ASCII or of characters that are
// all escaped, and a result ([]) that every port writes alike.
//
// A port keeps its buffers from one line to the next, and they only grow,
// so a border is tested by the first answer (or line) of a conversation to
// cross it. The run therefore opens with kOpening: lines past 4 KiB and
// 64 KiB before any short line, and one answer across each border from
// 2^12 to 2^18 in ascending order, each with another piece on the border
// (at 2^18, three numbers: 1e-300 and 1e+300, whose room a writer may
// reserve short, or for the wrong notation).
// The whole table (every border from 2^12 to 2^16, every landing, both
// contents, and 12,000 escaped characters) then goes in turn, every
// kBorderEvery-th case: a port that makes a fresh buffer for each answer
// meets every one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "conformance/check/op_kind.hpp"

namespace acemq::conformance::generator {

// A request whose answer puts one of its pieces on a border (or, in the
// opening, a long line).
struct BorderCase {
  std::string line;
  OpKind op = OpKind::schedule;
  std::string_view name;     // what lands on the border, or the opening row's why
  std::string_view content;  // the filler's content: plain ASCII or all escaped
  std::size_t border = 0;    // the border's bytes, a power of two (0: a long line)
  // The answer byte where the filler string's closing quote is; ,"b"] and
  // ,"ok":true,"result":[]} follow it, and the LF 29 bytes on.
  std::size_t closing_quote = 0;
  std::size_t answer_bytes = 0;  // the core's answer, its LF included
};

// The run's k-th case (from 1), if it is one of the opening's: a line past
// 4 KiB, a line past 64 KiB, an answer across each border from 4 KiB to
// 256 KiB in ascending order. `id` is the case's number, for the line that
// holds a number id.
std::optional<BorderCase> opening_case(std::size_t k, std::int64_t id);
// How many cases the opening is.
std::size_t opening_cases();

// The turn-th case (from 0) of the whole table: every landing with each
// content, a ladder of the borders from 4 KiB to 64 KiB in ascending order
// each, then 12,000 escaped characters.
BorderCase border_case_in_turn(std::size_t turn);
// How many cases the whole table is (96): a run of this many turns sends each.
std::size_t border_case_count();

// After the opening, every kBorderEvery-th case is the table's next turn,
// put between the drawn cases, which stay as the seed gives them: 96 turns
// in a run of 5000 cases, the whole table at any seed.
inline constexpr std::size_t kBorderEvery = 52;

}  // namespace acemq::conformance::generator
