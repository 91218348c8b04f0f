// Hard numbers: a valid request's numbers written where a port's own
// number parser slips, its rows (kHardNumbers in hard_numbers.cc) sent in
// turn by one layout of kLayouts (wire_variants.cc).
//
// Two kinds of row. Most keep every number's value: each double past the id
// is written as a text that correct rounding reads back to the same bits,
// but that is hard to round (an exact halfway point between two doubles
// that ties to the even one, 800 and more significant digits, the shortest
// digits behind a huge exponent and 400 zeros, the fast path's forms). The
// others put a text of fixed meaning in the line's first double (1e22,
// 1e-400, 0e311, 1e100000000, ...): the line then means something else, or
// nothing the protocol answers, and the core's answer is still the one a
// port must give.
//
// The rows' variants go in turn, as the malformations' do: the first of
// every row, then the second of those that have one, and so on. The count
// of turns taken is the CaseGenerator's, lent to the layout while it lays a
// line out (HardNumberScope), since a layout is a function of the line
// alone: so a seed means the same lines, whatever else the process
// generates. A turn whose row fits no number of the line (no double in it,
// or only odd significands for a halfway that ties to even) waits for the
// next line, which goes out with the first later row that fits it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace acemq::conformance {
namespace generator {

// What a run's hard-numbers layout has taken: the next turn, and the row
// and variant of the line last laid out under the scope.
struct HardNumberTurns {
  std::size_t next = 0;
};

struct HardNumberTaken {
  std::string_view row;
  std::size_t variant = 0;
};

// While alive, hard_numbers_laid_out takes its turns from `turns`, and
// taken() says which row and variant it wrote, if it ran; without
// `may_change_meaning`, only rows that keep every number's value (the
// others' turns wait). One at a time on a thread.
class HardNumberScope {
 public:
  HardNumberScope(HardNumberTurns& turns, bool may_change_meaning);
  ~HardNumberScope();
  HardNumberScope(const HardNumberScope&) = delete;
  HardNumberScope& operator=(const HardNumberScope&) = delete;

  const std::optional<HardNumberTaken>& taken() const { return taken_; }

 private:
  friend std::string hard_numbers_laid_out(const std::string& line);
  HardNumberTurns& turns_;
  bool may_change_meaning_;
  std::optional<HardNumberTaken> taken_;
  HardNumberScope* outer_;
};

// The layout: `line` with its numbers written by the next turn's row (the
// first that fits). Outside a scope, always the first turn's.
std::string hard_numbers_laid_out(const std::string& line);

}  // namespace generator

// The rows of kHardNumbers, each with how many variants it sends and
// whether it keeps every number's value, for tests and check's report.
struct HardNumberRow {
  std::string_view name;
  std::size_t variants;
  bool keeps_value;
  std::string_view why;
};
std::vector<HardNumberRow> hard_number_rows();
// All the rows' variants: a run that lays out at least this many lines
// with the row sends every one.
std::size_t hard_number_variant_count();
// The line with its numbers written by one row's variant, or none when the
// row fits no number of it.
std::optional<std::string> hard_numbers_written(const std::string& line, std::size_t row,
                                                std::size_t variant);

}  // namespace acemq::conformance
