// CaseGenerator: the requests `check` and `vectors` send, from a seed.
//
// The same seed gives the same lines on every platform: the generator draws
// from std::mt19937_64 (whose output the standard fixes) and builds doubles
// from bits with ldexp, never through std:: distributions or libm, whose
// results vary by implementation.
//
// Every choice it makes is a row of a table, with its name, its weight and
// how it is made side by side, in the file of its concern: the kind of case
// and the op here (case_generator.cc), each parameter's and each member's
// regimes (value_tables.cc), the far calls at the cost limit's edges
// (far_calls.cc), the malformed lines (malformations.cc), kInvalidRules,
// one row for each rule of the protocol an invalid request breaks
// (invalid_rules.cc), and the ids' forms and the layouts (wire_variants.cc).
// What is sent in turn rather than drawn (far calls, malformed lines, the
// invalid rules' variants, numeric ids, buffer borders, echoed numbers)
// depends on the case count only.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "conformance/check/hard_numbers.hpp"
#include "conformance/check/op_kind.hpp"
#include "conformance/check/reference_profile.hpp"
#include "conformance/protocol/request.hpp"

namespace acemq::conformance {

// What a generated case is: a valid request, one that breaks one rule of
// the protocol, or a line that is no JSON object at all.
enum class CaseKind { valid, invalid, malformed };

// Where a case comes from: drawn by the seed from the generator's tables
// (kOps, kSorts and the rest), or one of the turns that go between the drawn
// cases (buffer_borders.hpp, fixed_lines.hpp) or take a drawn case's place
// (far_calls.hpp). Those turns send every op on their own, so a test of
// what the tables reach counts the drawn cases alone.
enum class CaseSource { drawn, far_call, border, fixed_line };

struct GeneratedCase {
  std::string line;   // the request, one line of JSON (or deliberately not JSON)
  ParsedLine parsed;  // the line, parsed once: a Request, or why it is none
  CaseKind kind = CaseKind::valid;
  // A valid or invalid case's op; a malformed line, drawn as such, has none.
  std::optional<OpKind> op;
  std::string_view rule;  // for an invalid or malformed case, the rule it breaks
  // For an invalid case, which of its rule's variants (from 0); for a
  // valid case laid out by a row of kHardNumbers, which of the row's.
  std::size_t variant = 0;
  // For a valid case whose id is a row of kNumericIds, the row's name.
  std::string_view numeric_id = {};
  // For a valid case laid out by a row of kHardNumbers (hard_numbers.hpp),
  // the row's name: its numbers written the hard way, or a text of fixed
  // meaning in its first double, which the core may refuse.
  std::string_view hard_number = {};
  // For a fixed line (fixed_lines.hpp), the echoed number's text or the
  // form's name; `variant` is its turn in the tables.
  std::string_view fixed_line = {};
  CaseSource source = CaseSource::drawn;

  // The tally check counts it in: its op, "invalid" or "malformed line".
  std::string_view tally_name() const;
};

// The rules the full profile's invalid cases break, in the table's order,
// each with how many variants it sends (in turn: the k-th invalid case sends
// the k-th of all the rules' variants), for check's report of what was
// covered.
struct InvalidRuleRow {
  std::string_view name;
  std::size_t variants;
};
std::vector<InvalidRuleRow> invalid_rules();
// All the rules' variants: a run of at least this many invalid cases sends
// every one.
std::size_t invalid_variant_count();
// The numeric ids sent in turn (kNumericIds), each a row of check's report
// by its name, shown with its text.
struct NumericIdRow {
  std::string_view name;
  std::string_view text;
};
std::vector<NumericIdRow> numeric_id_rows();
// The kinds of malformed line, in the order they are sent, each with how
// many variants it sends (in turn: the first of every kind, then the second
// of those that have two, ...), for check's report of what was covered.
struct MalformationRow {
  std::string_view name;
  std::size_t variants;
};
std::vector<MalformationRow> malformation_rows();
// All the kinds' variants: a run of at least this many malformed lines
// sends every one.
std::size_t malformation_variant_count();

class CaseGenerator {
 public:
  CaseGenerator(std::uint64_t seed, Profile profile);

  GeneratedCase next(std::int64_t id);

 private:
  std::mt19937_64 engine_;
  Profile profile_;
  std::size_t made_ = 0;         // cases made so far: the opening's and the borders' turns
  std::size_t borders_ = 0;      // border cases sent after the opening: the table's next turn
  std::size_t fixed_lines_ = 0;  // fixed lines sent so far: the tables' next turn
  std::size_t malformed_ = 0;    // malformed lines sent so far: the next kind's turn
  std::size_t invalid_ = 0;      // invalid cases sent so far: the next variant's turn
  std::size_t cases_ = 0;        // cases made so far: every 150th of the full profile is far
  std::size_t far_calls_ = 0;    // far calls sent so far: the next row's turn
  std::size_t valid_ = 0;        // valid cases made so far: every 37th has a numeric id's turn
  generator::HardNumberTurns hard_numbers_;  // the hard-numbers layout's turns so far
};

}  // namespace acemq::conformance
