#include "conformance/check/wire_variants.hpp"

#include <cctype>
#include <span>
#include <vector>

#include <nlohmann/json.hpp>

#include "conformance/check/case_generator.hpp"
#include "conformance/check/choice.hpp"
#include "conformance/check/line_edits.hpp"
#include "conformance/protocol/limits.hpp"

namespace acemq::conformance {
namespace generator {
namespace {

using nlohmann::ordered_json;

// A valid request's id, as the JSON text the line holds: a number mostly;
// sometimes any other JSON value, which the answer must echo as the same
// value (check compares ids as values), written as ASCII. The escapes are
// where a port's own string scanner (for lone surrogates, for nesting) can
// slip: an escaped pair, an escaped backslash before "u", brackets and
// quotes inside a string.
struct IdForm {
  std::string_view name;
  double weight;
  std::string (*make)(std::int64_t id);
};
const IdForm kIdForms[] = {
    {"a whole number", 92, [](std::int64_t id) { return std::to_string(id); }},
    {"non-ASCII text", 2,
     [](std::int64_t id) {
       return ordered_json("r\u00e9essai \u2713 " + std::to_string(id)).dump();
     }},
    {"escaped text: BMP, a surrogate pair", 1,
     [](std::int64_t id) {
       return R"("r\u00e9essai \u2713 \ud83d\ude00 )" + std::to_string(id) + "\"";
     }},
    // The first and last pairs, and the neighbours of the surrogate range.
    {"escaped text: surrogates at the edges of their range", 0.5,
     [](std::int64_t id) {
       return R"("\ud800\udc00\udbff\udfff\ud7ff\ue000\uffff )" + std::to_string(id) + "\"";
     }},
    {"brackets, quotes, backslashes and control escapes in a string", 1.5,
     [](std::int64_t id) {
       return R"("\\ud800 [{\"id\": \\ud800 \\\" \u0001\u001f\u007f\t\/ )" + std::to_string(id) +
              "}]\"";
     }},
    {"an array and an object, nested", 1,
     [](std::int64_t id) {
       std::string text = "[";
       text += std::to_string(id);
       text += R"(, {"b": [true, false, null], "a": "x", "c": {}}, [], -0.5, 1e5])";
       return text;
     }},
    {"80 sibling arrays and objects, nested 3 deep: more brackets than the depth limit", 0.5,
     [](std::int64_t id) {
       std::string text = "[";
       for (int i = 0; i < 40; ++i) text += "{\"a\": []}, ";
       text += std::to_string(id);
       return text + "]";
     }},
    {"nested 32 deep in all: the deepest answered", 0.3,
     [](std::int64_t id) {
       std::string text(31, '[');
       text += std::to_string(id);
       text.append(31, ']');
       return text;
     }},
    // Brackets inside strings are no nesting: 40 of them, after an escaped
    // quote and after an escaped backslash, where a depth counter that
    // misreads an escape leaves the string early and counts them.
    {"40 brackets inside strings, after escapes", 0.5,
     [](std::int64_t id) {
       return R"(["a\\", "\"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", ")" + std::to_string(id) +
              R"(\\", "{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{"])";
     }},
    {"true or false", 0.5,
     [](std::int64_t id) { return std::string(id % 2 == 0 ? "true" : "false"); }},
    {"a number with a fraction or an exponent", 0.5,
     [](std::int64_t id) { return std::to_string(id) + ".5e1"; }},
    {"null", 1, [](std::int64_t) { return std::string("null"); }},
    // Every escape JSON has, and \u with upper- and lower-case hex digits
    // (A-F and a-f both, the letters next to the digits): a reader that
    // knows only the escapes it writes itself reads these wrong.
    {"every escape JSON has, and hex digits in both cases", 1,
     [](std::int64_t id) {
       return R"("\b\f\n\r\t\"\\\/ \u00E9\u00e9 \uD83D\uDE00 \u00aA\u0aFf\u0Bcd )" +
              std::to_string(id) + "\"";
     }},
    // Ids longer than an adapter's first output buffer (4 KiB is common):
    // the answer echoes them, so a buffer that grows short of what it must
    // hold shows here, at every offset a string or an escape can start at.
    {"a string of 6,000 characters, one in five to escape", 0.5,
     [](std::int64_t id) {
       std::string text = "\"";
       for (int i = 0; i < 1200; ++i) text += i % 2 == 0 ? R"(abc\u00e9\t)" : R"(de\u0001\u2713f)";
       return text + std::to_string(id) + "\"";
     }},
    {"an array of 1,500 short strings", 0.5,
     [](std::int64_t id) {
       std::string text = "[";
       for (int i = 0; i < 1500; ++i) text += i % 3 == 0 ? "\"ab\", " : "\"c\", ";
       return text + std::to_string(id) + "]";
     }},
    // 9,002 characters for one number, the double 1.0: a reader that keeps
    // a number's text in a fixed buffer, or echoes it from one, breaks.
    {"a number written with 9,000 zeros after the point", 0.5,
     [](std::int64_t id) { return std::to_string(id) + "." + std::string(9000, '0'); }},
};

// Numeric ids a port mangles when its JSON reader holds a number as a
// binary64 double (JavaScript's JSON.parse, a Python float(id)) or as an
// int64, each with what it catches; check compares them by value
// (same_id, docs/protocol.md, Requests). Sent in turn, not by weight:
// a drawn id is a case number, nowhere near 2^53. Every kNumericIdEvery-th
// valid case takes the next row's text instead of its drawn id, after the
// draw, so every other case's dice are as they were.
const NumericId kNumericIds[] = {
    {"2^53", "9007199254740992",
     "the top of the integers every double holds: exact through a double, where 2^53 + 1 is not"},
    {"2^53 + 1", "9007199254740993",
     "the least positive integer no double holds: a double makes it 9007199254740992"},
    {"2^53 - 1", "9007199254740991",
     "JavaScript's Number.MAX_SAFE_INTEGER: exact through a double, where 2^53 + 1 is not"},
    {"2^54 + 1", "18014398509481985",
     "odd where doubles are 4 apart: a double makes it 18014398509481984"},
    {"int64 max", "9223372036854775807",
     "2^63 - 1: a double makes it 2^63, one past int64, written 9223372036854775808 or "
     "9.223372036854776e18"},
    {"int64 min", "-9223372036854775808",
     "-2^63: a reader that reads 2^63 and then negates it overflows int64"},
    {"int64 max + 1", "9223372036854775808",
     "2^63, beyond int64, so compared as a double: an int64 reader overflows or refuses it"},
    {"2^64", "18446744073709551616",
     "beyond uint64 too: a reader that falls back to uint64 wraps it to 0"},
    {"30 digits", "123456789012345678901234567890",
     "beyond every integer type: compared as the double nearest it, 1.2345678901234568e+29"},
    {"a fraction", "1.5", "an integer reader truncates it to 1"},
    {"an exponent", "1e5",
     "an integral double with an exponent: 100000.0 (Python) or 1e+05 (this port), one value"},
    {"a capital E and a plus sign", "1E+300",
     "as JSON allows: a scanner that knows only e stops at the E, and single precision "
     "overflows to infinity"},
    {"a negative exponent", "2.5e-3", "0.0025, a fraction written with an exponent"},
    {"the integer zero, written -0", "-0",
     "the integer zero: serve echoes 0, and -0, 0 and -0.0 are one id"},
    {"negative zero", "-0.0",
     "a double equal to 0 by value: echoed as -0.0, 0.0, 0 or -0, it is the same id"},
    {"a decimal no double holds", "0.1",
     "a port that holds ids in single precision echoes 0.10000000149011612"},
    {"the least subnormal", "5e-324", "2^-1074: a reader that flushes subnormals echoes 0"},
};

// A valid request's layout: compact mostly; sometimes with CRs, which are
// JSON whitespace, not line ends (a reader that splits on CR answers one
// request twice and falls out of step).
struct Layout {
  std::string_view name;
  double weight;
  std::string (*apply)(const std::string& line);
  bool full_only = false;
};

// The line with every number outside a string that is written as an
// integral double ("7.0", "-0.0") written another way, by `rewrite` (given
// the digits before ".0" and how many were rewritten before), but for the
// id, the line's first member: it is echoed, not read, and kNumericIds
// sends -0.0 and -0 as rows of their own.
std::string with_integral_numbers(const std::string& line,
                                  std::string (*rewrite)(std::string_view digits,
                                                         std::size_t before)) {
  return edit_numbers_past_id(
             line,
             [&](std::string_view number, std::size_t before) -> std::optional<std::string> {
               if (number.size() < 3 || !number.ends_with(".0")) return std::nullopt;
               const std::string_view digits = number.substr(0, number.size() - 2);
               const std::string_view magnitude =
                   digits.starts_with('-') ? digits.substr(1) : digits;
               if (magnitude.empty() ||
                   magnitude.find_first_not_of("0123456789") != std::string_view::npos) {
                 return std::nullopt;
               }
               return rewrite(digits, before);
             })
      .line;
}

// "7.0" as 7, "-0.0" as -0: an integer literal is a number too, and -0 is
// the integer zero, +0.0 (docs/protocol.md, Requests).
std::string integral_as_integers(const std::string& line) {
  return with_integral_numbers(
      line, [](std::string_view digits, std::size_t) { return std::string(digits); });
}

// "7.0" as 7e0, "-0.0" as -0E+0: still a double, so -0E+0 is -0.0, where the
// integer literal -0 is +0.0; a reader that takes every number without a
// point for an integer reads the sign away.
std::string integral_with_exponents(const std::string& line) {
  return with_integral_numbers(line, [](std::string_view digits, std::size_t before) {
    static constexpr std::string_view kExponent[] = {"e0", "E+0", "e-0"};
    return std::string(digits) + std::string(kExponent[before % std::size(kExponent)]);
  });
}

// A number's text moved three places right and its exponent with it, as
// "0.000" + its digits + "000E+n": the same decimal, so the same double when
// read correctly rounded, written as JSON allows and no writer here writes
// (leading zeros after the point, trailing zeros, a capital E, a plus sign).
std::string shifted_decimal(std::string_view number) {
  std::string sign;
  if (!number.empty() && number.front() == '-') {
    sign = "-";
    number.remove_prefix(1);
  }
  const std::size_t e = number.find_first_of("eE");
  long exponent = e == std::string_view::npos ? 0 : std::stol(std::string(number.substr(e + 1)));
  const std::string_view mantissa = number.substr(0, e);
  std::string digits;
  for (const char ch : mantissa) {
    if (ch == '.') continue;
    digits.push_back(ch);
  }
  const std::size_t point = mantissa.find('.');
  const long fraction =
      point == std::string_view::npos ? 0 : static_cast<long>(mantissa.size() - point - 1);
  // digits * 10^(exponent - fraction) = 0.000<digits> * 10^(that + 3 + digits)
  exponent += 3 + static_cast<long>(digits.size()) - fraction;
  return sign + "0.000" + digits + "000E" + (exponent >= 0 ? "+" : "") + std::to_string(exponent);
}

// The line with every number outside a string past the id that is not an
// integer literal (it has a point or an exponent) written by shifted_decimal.
std::string decimals_shifted(const std::string& line) {
  return edit_numbers_past_id(
             line,
             [](std::string_view number, std::size_t) -> std::optional<std::string> {
               if (number.find_first_of(".eE") == std::string_view::npos) {
                 return std::nullopt;
               }
               return shifted_decimal(number);
             })
      .line;
}

// The line with whitespace (a space, a tab, a CR, in turn) before and after
// every structural character outside strings, and before the object: JSON
// allows it at each, and a reader that skips it only where its own writer
// puts it refuses a valid request.
std::string spaced_out(const std::string& line) {
  static constexpr std::string_view kSpace[] = {" ", "\t", " \r "};
  std::string out(kSpace[0]);
  std::size_t k = 1;
  bool in_string = false;
  bool escaped = false;
  for (const char ch : line) {
    if (in_string) {
      out.push_back(ch);
      if (escaped) {
        escaped = false;  // the escape's letter, a quote included
      } else if (ch == '\\') {
        escaped = true;
      } else if (ch == '"') {
        in_string = false;
      }
      continue;
    }
    if (ch == '"') {
      in_string = true;
      out.push_back(ch);
      continue;
    }
    const bool structural =
        ch == '{' || ch == '}' || ch == '[' || ch == ']' || ch == ':' || ch == ',';
    if (structural) out += kSpace[k++ % std::size(kSpace)];
    out.push_back(ch);
    if (structural) out += kSpace[k++ % std::size(kSpace)];
  }
  return out;
}

const Layout kLayouts[] = {
    {"compact", 89, [](const std::string& line) { return line; }},
    {"a CR before the line's end", 2, [](const std::string& line) { return line + "\r"; }},
    {"a CR and spaces inside the object", 2,
     [](const std::string& line) { return std::string(line).insert(1, " \r\t "); }},
    // An integer literal is a number too, and -0 is the integer zero, +0.0
    // (docs/protocol.md, Requests). The reference profile keeps doubles: Ruby
    // would do integer arithmetic on integers.
    {"integral numbers as integers: 7.0 as 7, -0.0 as -0 (which is +0.0)", 2, integral_as_integers,
     true},
    {"whitespace before and after every bracket, colon and comma", 2, spaced_out},
    {"integral numbers with exponents: 7.0 as 7e0, -0.0 as -0E+0 (still -0.0)", 1.5,
     integral_with_exponents, true},
    {"numbers as 0.000<digits>000E+n: the same decimals, written otherwise", 1.5, decimals_shifted,
     true},
    {"padded with spaces to exactly 1 MiB: the longest line answered", 0.1,
     [](const std::string& line) { return padded_to(line, kMaxLineBytes); }},
    // kHardNumbers (hard_numbers.cc): halfway points written out, 800-digit
    // texts, the fast path's borders, 1e-400, 1e100000000..., its 43 turns
    // in turn. At 3, about 125 lines a run of 5000 (43 turns at 7 standard
    // deviations below), so every turn at any seed; full profile only, as
    // some of its texts change a line's meaning.
    {"numbers written the hard way, their rows in turn (kHardNumbers)", 3, hard_numbers_laid_out,
     true},
};

}  // namespace

std::string drawn_id_text(Dice& d, std::int64_t id) {
  return weighted<IdForm>(d, kIdForms).make(id);
}

const NumericId* numeric_id_in_turn(std::size_t valid) {
  return valid % kNumericIdEvery == 0
             ? &kNumericIds[(valid / kNumericIdEvery - 1) % std::size(kNumericIds)]
             : nullptr;
}

std::string laid_out(Dice& d, Profile profile, const std::string& line) {
  const Layout& layout =
      weighted<Layout>(d, std::span<const Layout>(kLayouts),
                       [&](const Layout& l) { return !l.full_only || profile == Profile::full; });
  return layout.apply(line);
}

}  // namespace generator

std::vector<NumericIdRow> numeric_id_rows() {
  std::vector<NumericIdRow> rows;
  for (const generator::NumericId& row : generator::kNumericIds)
    rows.push_back({row.name, row.text});
  return rows;
}

}  // namespace acemq::conformance
