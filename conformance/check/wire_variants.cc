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
};

// Numeric ids a port mangles when its JSON reader holds a number as a
// binary64 double (JavaScript's JSON.parse, a Python float(id)) or as an
// int64, each with what it catches; check compares them by value
// (same_id, conformance/README.md, Requests). Sent in turn, not by weight:
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

// 37 valid cases apart, the 17 rows come round every 629 valid cases, about
// 700 cases (9 in 10 are valid): a run of 5000 sends each row about 7
// times, and any 2000 cases (about 1800 valid, 48 of them numeric ids) send
// each at least twice.
constexpr std::size_t kNumericIdEvery = 37;

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
// integral double ("7.0", "-0.0") written as an integer ("7", "-0"), but
// for the id, the line's first member: it is echoed, not read, and
// kNumericIds sends -0.0 and -0 as rows of their own.
std::string integral_as_integers(const std::string& line) {
  std::string out;
  bool in_string = false;
  bool escaped = false;
  int depth = 0;
  bool past_id = false;  // at the id's end, the first comma inside the line's own object
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    out.push_back(ch);
    if (in_string) {
      escaped = !escaped && ch == '\\';
      if (!escaped && ch == '"') in_string = false;
      continue;
    }
    if (ch == '"') in_string = true;
    if (ch == '{' || ch == '[') ++depth;
    if (ch == '}' || ch == ']') --depth;
    if (ch == ',' && depth == 1) past_id = true;
    if (!past_id || (ch != ':' && ch != ',' && ch != '[')) continue;
    std::size_t end = i + 1;
    if (end < line.size() && line[end] == '-') ++end;
    while (end < line.size() && std::isdigit(static_cast<unsigned char>(line[end])) != 0) ++end;
    if (end > i + 1 && line.compare(end, 2, ".0") == 0 && end + 2 < line.size() &&
        (line[end + 2] == ',' || line[end + 2] == '}' || line[end + 2] == ']')) {
      out.append(line, i + 1, end - i - 1);
      i = end + 1;
    }
  }
  return out;
}

const Layout kLayouts[] = {
    {"compact", 94, [](const std::string& line) { return line; }},
    {"a CR before the line's end", 2, [](const std::string& line) { return line + "\r"; }},
    {"a CR and spaces inside the object", 2,
     [](const std::string& line) { return std::string(line).insert(1, " \r\t "); }},
    // An integer literal is a number too, and -0 is the integer zero, +0.0
    // (conformance/README.md). The reference profile keeps doubles: Ruby
    // would do integer arithmetic on integers.
    {"integral numbers as integers: 7.0 as 7, -0.0 as -0 (which is +0.0)", 2, integral_as_integers,
     true},
    {"padded with spaces to exactly 1 MiB: the longest line answered", 0.1,
     [](const std::string& line) { return padded_to(line, kMaxLineBytes); }},
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
