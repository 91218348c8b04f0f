#include "conformance/check/hard_numbers.hpp"
#include "conformance/check/fixed_lines.hpp"
#include "conformance/check/line_edits.hpp"
#include "conformance/check/turns.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <vector>

#include "conformance/protocol/limits.hpp"

namespace acemq::conformance {
namespace generator {
namespace {

// A decimal: its digits as an integer, times 10^exponent.
struct Decimal {
  std::string digits;
  long exponent = 0;
};

// n * 2^b exactly, with integer arithmetic: n << b for b >= 0, and n * 5^-b
// times 10^b below. Base-10^9 limbs, least significant first; every step
// multiplies by at most 2^29 or 5^12, so a limb times it fits 64 bits.
Decimal exact(std::uint64_t n, int b) {
  constexpr std::uint64_t kBase = 1000000000;
  std::vector<std::uint64_t> limbs;
  for (std::uint64_t x = n; x != 0; x /= kBase) limbs.push_back(x % kBase);
  if (limbs.empty()) limbs.push_back(0);
  const auto times = [&limbs](std::uint64_t k) {
    std::uint64_t carry = 0;
    for (std::uint64_t& limb : limbs) {
      const std::uint64_t product = limb * k + carry;
      limb = product % kBase;
      carry = product / kBase;
    }
    for (; carry != 0; carry /= kBase) limbs.push_back(carry % kBase);
  };
  if (b >= 0) {
    for (int left = b; left > 0; left -= std::min(left, 29))
      times(std::uint64_t{1} << std::min(left, 29));
  } else {
    for (int left = -b; left > 0; left -= std::min(left, 12)) {
      std::uint64_t five = 1;
      for (int i = 0; i < std::min(left, 12); ++i) five *= 5;
      times(five);
    }
  }
  std::string digits = std::to_string(limbs.back());
  for (std::size_t i = limbs.size() - 1; i-- > 0;) {
    char nine[16];
    std::snprintf(nine, sizeof nine, "%09llu", static_cast<unsigned long long>(limbs[i]));
    digits += nine;
  }
  return {digits, b >= 0 ? 0L : static_cast<long>(b)};
}

// The pieces end to end (GCC 12 warns, wrongly, of "text" + a temporary).
std::string cat(std::initializer_list<std::string_view> pieces) {
  std::string out;
  for (const std::string_view piece : pieces) out.append(piece);
  return out;
}

// A non-negative finite double as m * 2^e, e the exponent of its ulp.
struct Binary {
  std::uint64_t m;
  int e;
};
Binary binary_of(double magnitude) {
  const auto bits = std::bit_cast<std::uint64_t>(magnitude);
  const std::uint64_t fraction = bits & ((std::uint64_t{1} << 52) - 1);
  const auto biased = static_cast<int>(bits >> 52);
  if (biased == 0) return {fraction, -1074};
  return {fraction | (std::uint64_t{1} << 52), biased - 1075};
}

// The point halfway to the next double up (to 2^1024 above DBL_MAX).
Decimal upper_halfway(double magnitude) {
  const Binary b = binary_of(magnitude);
  return exact(2 * b.m + 1, b.e - 1);
}

// The point halfway to the next double down, for a positive one: a quarter
// ulp below a power of two, whose lower neighbour is half an ulp away.
std::optional<Decimal> lower_halfway(double magnitude) {
  if (magnitude == 0.0) return std::nullopt;
  const Binary b = binary_of(magnitude);
  if (b.m == std::uint64_t{1} << 52 && b.e > -1074) return exact(4 * b.m - 1, b.e - 2);
  return exact(2 * b.m - 1, b.e - 1);
}

// The shortest digits that read back to the double (to_chars: the same on
// every platform).
Decimal shortest(double magnitude) {
  char text[64];
  const auto end =
      std::to_chars(text, text + sizeof text, magnitude, std::chars_format::scientific).ptr;
  const std::string_view written(text, static_cast<std::size_t>(end - text));
  const std::size_t e = written.find('e');
  Decimal d;
  for (const char ch : written.substr(0, e)) {
    if (ch != '.') d.digits.push_back(ch);
  }
  d.exponent = std::strtol(std::string(written.substr(e + 1)).c_str(), nullptr, 10) -
               static_cast<long>(d.digits.size() - 1);
  return d;
}

// The same value with zeros after its digits, to `count` digits in all.
Decimal padded(Decimal d, std::size_t count) {
  if (d.digits.size() < count) {
    d.exponent -= static_cast<long>(count - d.digits.size());
    d.digits.append(count - d.digits.size(), '0');
  }
  return d;
}

// One unit more, or less, in the last digit.
Decimal plus_unit(Decimal d) {
  std::size_t i = d.digits.size();
  while (i > 0 && d.digits[i - 1] == '9') d.digits[--i] = '0';
  if (i == 0) {
    d.digits = cat({"1", d.digits});
  } else {
    ++d.digits[i - 1];
  }
  return d;
}
Decimal minus_unit(Decimal d) {  // d is not zero
  std::size_t i = d.digits.size();
  while (d.digits[i - 1] == '0') d.digits[--i] = '9';
  --d.digits[i - 1];
  // 10^23 is a halfway point: 1000...0 less a unit is 0999...9.
  const std::size_t first = std::min(d.digits.find_first_not_of('0'), d.digits.size() - 1);
  d.digits.erase(0, first);
  return d;
}

// As JSON writes a double: positional near 1, with a point always (a JSON
// integer -0 is +0.0), and an exponent otherwise.
std::string written(const Decimal& d) {
  const auto n = static_cast<long>(d.digits.size());
  const long scientific = d.exponent + n - 1;
  if (scientific >= -7 && scientific <= 20) {
    if (d.exponent >= 0)
      return cat({d.digits, std::string(static_cast<std::size_t>(d.exponent), '0'), ".0"});
    if (n > -d.exponent) {
      const auto point = static_cast<std::size_t>(n + d.exponent);
      return cat({std::string_view(d.digits).substr(0, point), ".",
                  std::string_view(d.digits).substr(point)});
    }
    return cat({"0.", std::string(static_cast<std::size_t>(-d.exponent - n), '0'), d.digits});
  }
  std::string text = d.digits.substr(0, 1);
  if (n > 1) text = cat({text, ".", std::string_view(d.digits).substr(1)});
  return cat({text, "e", std::to_string(scientific)});
}

// A double's text past the id: what a number is written as, given its
// magnitude (positive or zero, finite) and the variant; none where the
// variant does not fit it.
using Writer = std::optional<std::string> (*)(double magnitude, std::size_t variant);

bool is_double_text(std::string_view number) {
  return !number.empty() && number.find_first_of(".eE") != std::string_view::npos;
}

// The line with each number outside a string past the id that is written as
// a double (a point or an exponent: integer fields hold integer literals)
// rewritten by `rewrite`, only the first if `first_only`; none when no
// number was rewritten. The id, the line's first member, is echoed, not
// read as a field.
template <typename Rewrite>
std::optional<std::string> with_doubles(const std::string& line, bool first_only,
                                        const Rewrite& rewrite) {
  const EditedNumbers edited = edit_numbers_past_id(
      line, [&](std::string_view number, std::size_t before) -> std::optional<std::string> {
        if (first_only && before > 0) return std::nullopt;
        if (!is_double_text(number)) return std::nullopt;
        return rewrite(number);
      });
  if (edited.replaced == 0) return std::nullopt;
  // Beyond the protocol's limit the line would be refused for its length.
  if (edited.line.size() > kMaxLineBytes) return std::nullopt;
  return edited.line;
}

// Every double past the id written by `write`, its sign kept in front.
std::optional<std::string> each_double(const std::string& line, std::size_t variant, Writer write) {
  return with_doubles(line, false, [&](std::string_view number) -> std::optional<std::string> {
    const double value = std::strtod(std::string(number).c_str(), nullptr);
    if (!std::isfinite(value)) return std::nullopt;
    const std::optional<std::string> text = write(std::fabs(value), variant);
    if (!text) return std::nullopt;
    std::string signed_text = cat({std::signbit(value) ? "-" : "", *text});
    // 5e-324 is its own integer times 10^k: no rewrite.
    if (signed_text == number) return std::nullopt;
    return signed_text;
  });
}

// The exact halfway point between the double and a neighbour, which ties to
// the even significand: written out in full (up to 767 significant digits),
// it is a number a reader must round exactly, where the first 17 or 19
// digits leave it undecided.
std::optional<std::string> tie_to_even(double magnitude, std::size_t variant) {
  if (binary_of(magnitude).m % 2 != 0) return std::nullopt;
  if (variant == 0) return written(upper_halfway(magnitude));
  const std::optional<Decimal> lower = lower_halfway(magnitude);
  if (!lower) return std::nullopt;
  return written(*lower);
}

// A halfway point moved toward the double by one unit in the last of
// `digits[variant]` digits: the upper one less a unit, the lower one plus
// one, so that every digit but the last is the tie's. The lower tie with a
// 1 at digit 801, past the 800 a reader keeps, only for an odd significand:
// read without that digit it is the tie, which rounds to the even
// neighbour below, so a reader that drops it reads the wrong double (for an
// even one, the tie rounds to it anyway).
std::optional<std::string> beside_a_tie(double magnitude, std::size_t variant) {
  static constexpr std::size_t kDigits[] = {800, 800, 801, 1000};
  const bool upper = variant == 0 || variant == 3;
  if (upper) return written(minus_unit(padded(upper_halfway(magnitude), kDigits[variant])));
  if (variant == 2 && binary_of(magnitude).m % 2 == 0) return std::nullopt;
  const std::optional<Decimal> lower = lower_halfway(magnitude);
  if (!lower) return std::nullopt;
  return written(plus_unit(padded(*lower, kDigits[variant])));
}

std::optional<std::string> zeros_after(double magnitude, std::size_t variant) {
  static constexpr std::size_t kDigits[] = {20, 800, 801};
  return written(padded(shortest(magnitude), kDigits[variant]));
}

// The digits behind zeros before them (after "0.") or after them, and an
// exponent that makes up for the zeros.
struct Behind {
  std::size_t leading;
  std::size_t trailing;
  std::string_view e;
};
constexpr Behind kBehind[] = {{400, 0, "e+"}, {0, 400, "e"}, {900, 0, "E+"}};

std::optional<std::string> behind_zeros(double magnitude, std::size_t variant) {
  const Behind& at = kBehind[variant];
  const Decimal d = shortest(magnitude);
  const auto n = static_cast<long>(d.digits.size());
  // 0 followed by zeros would be a leading zero, no JSON: 0.000...0e-400.
  const std::string digits = d.digits == "0" ? "0." : d.digits;
  if (at.leading > 0) {
    return cat({"0.", std::string(at.leading, '0'), d.digits, at.e,
                std::to_string(d.exponent + n + static_cast<long>(at.leading))});
  }
  return cat({digits, std::string(at.trailing, '0'), at.e,
              std::to_string(d.exponent - static_cast<long>(at.trailing))});
}

// The shortest digits as an integer times 10^k, as they are, or padded to
// 15 digits (the fast path's most) or 16 (one past it); not for zero, which
// padded would be a leading zero.
std::optional<std::string> integer_times_power(double magnitude, std::size_t variant) {
  static constexpr std::size_t kDigits[] = {0, 15, 16};
  const Decimal d = shortest(magnitude);
  if (variant > 0 && (d.digits.size() > kDigits[variant] || magnitude == 0.0)) return std::nullopt;
  const Decimal p = padded(d, kDigits[variant]);
  return cat({p.digits, "e", std::to_string(p.exponent)});
}

// The line's first double padded with zeros until the line is exactly the
// protocol's longest, 1 MiB: a number of about a million digits.
std::optional<std::string> million_digits(const std::string& line, std::size_t) {
  return with_doubles(line, true, [&](std::string_view number) -> std::optional<std::string> {
    const double value = std::strtod(std::string(number).c_str(), nullptr);
    if (!std::isfinite(value)) return std::nullopt;
    const Decimal d = shortest(std::fabs(value));
    const std::string sign = std::signbit(value) ? "-" : "";
    const std::string head = cat(
        {sign, std::string_view(d.digits).substr(0, 1), ".", std::string_view(d.digits).substr(1)});
    const std::string tail =
        cat({"e", std::to_string(d.exponent + static_cast<long>(d.digits.size()) - 1)});
    const std::size_t others = line.size() - number.size();
    if (others + head.size() + tail.size() >= kMaxLineBytes) return std::nullopt;
    return cat({head, std::string(kMaxLineBytes - others - head.size() - tail.size(), '0'), tail});
  });
}

struct HardNumber {
  std::string_view name;
  std::size_t variants;
  bool keeps_value;
  std::optional<std::string> (*make)(const std::string& line, std::size_t variant);
  std::string_view why;
};

const HardNumber kHardNumbers[] = {
    {"an exact halfway point that ties to the even double", 2, true,
     [](const std::string& line, std::size_t v) { return each_double(line, v, tie_to_even); },
     "the tie above or below the double, written out (1 + 2^-53 is "
     "1.00000000000000011102230246251565404236316680908203125, read as 1.0): a reader that "
     "rounds ties up, or decides on 19 digits, reads the neighbour"},
    {"a halfway point moved a unit toward the double at its 800th digit (or 801st, 1000th)", 4,
     true,
     [](const std::string& line, std::size_t v) { return each_double(line, v, beside_a_tie); },
     "the first 799 digits are a tie's: a reader that keeps 800 digits and drops the rest "
     "without a sticky digit reads the tie and rounds it to even, the wrong way half the time"},
    {"the shortest digits padded with zeros to 20, 800 and 801 digits", 3, true,
     [](const std::string& line, std::size_t v) { return each_double(line, v, zeros_after); },
     "past 19 digits no uint64 holds them, and past 800 a reader drops digits: zeros it must "
     "drop without a sticky digit"},
    {"the shortest digits behind 400 or 900 zeros and an exponent that brings them back", 3, true,
     [](const std::string& line, std::size_t v) { return each_double(line, v, behind_zeros); },
     "0.<400 zeros>15e+401 is 1.5: leading zeros are no digits (900 of them fill an 800-digit "
     "buffer), and an exponent past 308 is no overflow when zeros make up for it"},
    {"an integer times 10^k: the shortest digits, padded to 15 and to 16 digits", 3, true,
     [](const std::string& line, std::size_t v) {
       return each_double(line, v, integer_times_power);
     },
     "15e-1 is 1.5: up to 15 digits and 10^22 the fast path answers with one multiplication or "
     "division; 16 digits take the slow path, to the same double"},
    {"one number padded with zeros until the line is exactly 1 MiB", 1, true, million_digits,
     "about a million digits: a reader that keeps every digit (in a BigInteger, a buffer) "
     "takes seconds, or more memory than a line"},
    // The line then asks something else (or is refused), and the core's
    // answer is the one a port must give, whatever its parser makes of it.
    {"a text of fixed meaning in the first double: 1e22, 1e-400, 0e311, 1e100000000, ...",
     number_texts().size(), false,
     [](const std::string& line, std::size_t v) {
       return with_doubles(line, true, [&](std::string_view) {
         return std::optional<std::string>(number_texts()[v].text);
       });
     },
     "the fast path's borders (10^22, 15 digits), underflow to 0 and to 5e-324, zeros and "
     "exponents of 10^8 digits, doubles whose shortest digits are hard to find: the fixed "
     "lines' number texts (fixed_lines.hpp), here in a field that is not echoed"},
};

thread_local HardNumberScope* current_scope = nullptr;

}  // namespace

HardNumberScope::HardNumberScope(HardNumberTurns& turns, bool may_change_meaning)
    : turns_(turns), may_change_meaning_(may_change_meaning), outer_(current_scope) {
  current_scope = this;
}

HardNumberScope::~HardNumberScope() { current_scope = outer_; }

std::string hard_numbers_laid_out(const std::string& line) {
  static const std::vector<Turn> kTurns = turns_of(kHardNumbers);
  HardNumberTurns outside;  // no scope: the first turn, every time
  HardNumberTurns& turns = current_scope != nullptr ? current_scope->turns_ : outside;
  for (std::size_t k = 0; k < kTurns.size(); ++k) {
    const Turn& turn = kTurns[(turns.next + k) % kTurns.size()];
    const HardNumber& row = kHardNumbers[turn.row];
    if (!row.keeps_value && current_scope != nullptr && !current_scope->may_change_meaning_)
      continue;
    std::optional<std::string> out = row.make(line, turn.variant);
    if (!out) continue;
    if (k == 0) ++turns.next;
    if (current_scope != nullptr) current_scope->taken_ = HardNumberTaken{row.name, turn.variant};
    return std::move(*out);
  }
  return line;
}

}  // namespace generator

std::vector<HardNumberRow> hard_number_rows() {
  std::vector<HardNumberRow> rows;
  for (const generator::HardNumber& row : generator::kHardNumbers)
    rows.push_back({row.name, row.variants, row.keeps_value, row.why});
  return rows;
}

std::size_t hard_number_variant_count() {
  std::size_t variants = 0;
  for (const generator::HardNumber& row : generator::kHardNumbers) variants += row.variants;
  return variants;
}

std::optional<std::string> hard_numbers_written(const std::string& line, std::size_t row,
                                                std::size_t variant) {
  return generator::kHardNumbers[row].make(line, variant);
}

}  // namespace acemq::conformance
