// Fixed lines: requests of fixed meaning, each a form a port's reader or
// writer slips on, sent in turn between the drawn cases.
//
// Two tables (fixed_lines.cc). kNumberTexts echoes a number: jittered,
// under a policy without jitter and with r = 0.5, answers its delay
// unchanged (a negative one too, and -0.0 keeps its sign), so
//   {"id":N,"op":"jittered","policy":{},"delay":TEXT,"r":0.5}
// puts TEXT through the port's number reader and the double it reads
// through its writer, with no arithmetic between: the answer shows the
// bits the reader made, in the digits the writer chose. Its texts are hard
// to read (the fast path's borders, ties past 16 digits, underflow to 0 and
// to 5e-324, overflow just past DBL_MAX, exponents of 10^8) or their
// doubles hard to write (integral doubles from 2^64 to 2^110 beside short
// decimals, where Ryu's trailing-zero and power-of-5 tests decide the
// digits). kForms holds whole lines in forms the drawn requests never take:
// blanks inside an empty [ ] or { }, -0 where an integer may be 0, integers
// past int64 in every integer field, the vector-line members a request may
// carry and a port must ignore. A line the core refuses is answered with
// its refusal, and that is the answer a port owes.
//
// After the opening, every kFixedEvery-th case of the full profile is the
// tables' next turn (the numbers', then the forms'), between the drawn
// cases, which stay as the seed gives them: both tables in a run of 5000
// cases, at any seed. The hard-numbers layout puts the same number texts
// in other requests' first double (hard_numbers.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "conformance/check/op_kind.hpp"

namespace acemq::conformance::generator {

// A number's text of fixed meaning, and what makes a port slip on it.
struct NumberText {
  std::string_view text;
  std::string_view why;
};

// Every number text, readers' first, then writers'.
std::span<const NumberText> number_texts();

// The turn-th fixed line (from 0; the tables wrap), its id `id`, and what
// it is: a row of number_texts() echoed, or a form's name.
struct FixedLine {
  std::string line;
  std::string_view name;  // the echoed text, or the form's name
  OpKind op = OpKind::jittered;
  bool echo = false;
  std::size_t row = 0;  // in its table
};
FixedLine fixed_line_in_turn(std::size_t turn, std::int64_t id);
// Both tables' rows: a run of this many turns sends each.
std::size_t fixed_line_count();

// About 67 turns in a run of 5000 cases: more than both tables' rows.
inline constexpr std::size_t kFixedEvery = 73;

}  // namespace acemq::conformance::generator
