#include "conformance/check/malformations.hpp"

#include <vector>

#include "conformance/check/case_generator.hpp"
#include "conformance/check/line_edits.hpp"
#include "conformance/check/turns.hpp"
#include "conformance/protocol/limits.hpp"

namespace acemq::conformance {
namespace generator {
namespace {

struct Malformation {
  std::string_view name;
  // How many forms the kind has: malformed_line sends each of every kind in
  // turn, so a run reaches all of them, not the few its sends happen to hit.
  std::size_t variants;
  std::string (*make)(Dice&, const std::string& valid, std::size_t variant);
};

// The line up to the raw id's end (the first comma after it; the id holds
// none), so that it ends where the id does.
std::string cut_after_raw_id(const std::string& line) { return line.substr(0, line.find(',', 5)); }

// `number` as an id alone, or inside an array or an object, where a check
// of the top level alone misses it.
std::string beyond_binary64(std::size_t where, const std::string& number) {
  static constexpr std::string_view kWhere[] = {"", "[1, ", "{\"a\": 1, \"b\": "};
  static constexpr std::string_view kEnd[] = {"", "]", "}"};
  std::string id(kWhere[where]);
  id += number;
  id += kEnd[where];
  return id;
}

const Malformation kMalformations[] = {
    {"truncated", 1,
     [](Dice& d, const std::string& v, std::size_t) {
       return v.substr(
           0, static_cast<std::size_t>(d.between(0, static_cast<std::int64_t>(v.size()) - 1)));
     }},
    {"text after the value", 1, [](Dice&, const std::string& v, std::size_t) { return v + " x"; }},
    {"two values", 1, [](Dice&, const std::string& v, std::size_t) { return v + v; }},
    {"an array, not an object", 1,
     [](Dice&, const std::string& v, std::size_t) { return "[" + v + "]"; }},
    {"empty", 1, [](Dice&, const std::string&, std::size_t) { return std::string(); }},
    {"only whitespace", 1,
     [](Dice&, const std::string&, std::size_t) { return std::string("   \t "); }},
    {"a byte-order mark", 1,
     [](Dice&, const std::string& v, std::size_t) { return "\xEF\xBB\xBF" + v; }},
    // The request object is one level: an id nested 32 deep makes 33, one
    // past the protocol's 32 (the id form "nested 32 deep in all" is the
    // deepest answered); 40 deep is well past it.
    // Objects too: a reader that counts only arrays' depth lets 33 objects by.
    {"nested 33 deep, or 41", 5,
     [](Dice&, const std::string& v, std::size_t variant) {
       // After a string with escapes: a depth counter that misreads them
       // leaves the string late and misses the brackets. After 40 sibling
       // arrays: a counter that closes a level twice, or not at all, is off
       // by then.
       if (variant == 0) {
         std::string id = "[";
         for (int i = 0; i < 40; ++i) id += "[], {}, ";
         id.append(31, '[');
         id.append(31, ']');
         return with_raw_id(v, id + "]");
       }
       if (variant == 1) {
         std::string id = R"(["\"\\", )";
         id.append(31, '[');
         id.append(31, ']');
         return with_raw_id(v, id + "]");
       }
       if (variant == 4) {
         std::string id;
         for (int i = 0; i < 32; ++i) id += "{\"a\": ";
         return with_raw_id(v, id + "1" + std::string(32, '}'));
       }
       const std::size_t depth = variant == 2 ? 32 : 40;
       return with_raw_id(v, std::string(depth, '[') + std::string(depth, ']'));
     }},
    {"invalid UTF-8 in a string", 1,
     [](Dice&, const std::string& v, std::size_t) { return with_raw_id(v, "\"\xFF\xFE\""); }},
    // Lone surrogates in the id, each where a scanner that pairs them
    // carelessly would pass it; a row each, so that every run sends each.
    {"a lone high surrogate", 1,
     [](Dice&, const std::string& v, std::size_t) { return with_raw_id(v, R"("\ud800")"); }},
    {"a lone high surrogate, last in its string", 1,
     [](Dice&, const std::string& v, std::size_t) { return with_raw_id(v, R"("a\udbff")"); }},
    {"a high surrogate before a plain character", 2,
     [](Dice&, const std::string& v, std::size_t variant) {
       return with_raw_id(v, variant == 0 ? R"("\ud800x")" : R"("\ud800xudc00")");
     }},
    {"a high surrogate before an escape that is no low half", 2,
     [](Dice&, const std::string& v, std::size_t variant) {
       return with_raw_id(v, variant == 0 ? R"("\udbff\ue000")" : R"("\ud800\u0041")");
     }},
    {"a high surrogate before another high one, then a low half", 1,
     [](Dice&, const std::string& v, std::size_t) {
       return with_raw_id(v, R"("\ud83d\ud83d\ude00")");
     }},
    // 0xDBFF is one below the low halves: a scanner whose range starts
    // there takes this pair for a whole one.
    {"a high surrogate before the last high one, \\udbff", 1,
     [](Dice&, const std::string& v, std::size_t) { return with_raw_id(v, R"("\ud800\udbff")"); }},
    {"a lone high surrogate right after another escape", 1,
     [](Dice&, const std::string& v, std::size_t) { return with_raw_id(v, R"("\u00e9\ud800")"); }},
    // A line that ends inside an escape: a scanner that reads past the
    // line's end crashes on it. A row for the backslash that is the last
    // byte, where a scanner looks one byte ahead for the escape's letter.
    {"ends right after a backslash in a string", 2,
     [](Dice&, const std::string& v, std::size_t variant) {
       static constexpr std::string_view kEnds[] = {R"("x\)", R"("\\\)"};
       return cut_after_raw_id(with_raw_id(v, kEnds[variant]));
     }},
    {"ends in a \\u escape, or right after one", 4,
     [](Dice&, const std::string& v, std::size_t variant) {
       static constexpr std::string_view kEnds[] = {R"("\ud800\)", R"("\ud800)", R"("\ud800\u)",
                                                    R"("\u00)"};
       return cut_after_raw_id(with_raw_id(v, kEnds[variant]));
     }},
    {"a lone low surrogate right after a pair", 1,
     [](Dice&, const std::string& v, std::size_t) {
       return with_raw_id(v, R"("\ud83d\ude00\udc00")");
     }},
    {"a lone low surrogate, the last of the range", 1,
     [](Dice&, const std::string& v, std::size_t) { return with_raw_id(v, R"("x\udfff y")"); }},
    {"a lone surrogate inside an array or an object's key", 2,
     [](Dice&, const std::string& v, std::size_t variant) {
       return with_raw_id(v, variant == 0 ? R"([1, ["ok", "\ud800"]])" : R"({"\udc00": 1})");
     }},
    {"a control character in a string", 4,
     [](Dice&, const std::string& v, std::size_t variant) {
       static constexpr std::string_view kRaw[] = {"\"tab\there\"", "\"\x01\"",
                                                   "\"vertical\x0btab\"", "\"\x1f\""};
       return with_raw_id(v, kRaw[variant]);
     }},
    {"a bare NaN", 2,
     [](Dice&, const std::string& v, std::size_t variant) {
       return with_raw_id(v, variant == 0 ? "NaN" : "-Infinity");
     }},
    // A float, or an integer of 400 digits, which a reader of integers may
    // keep exact where the protocol calls it malformed.
    {"a float beyond binary64", 3,
     [](Dice&, const std::string& v, std::size_t variant) {
       return with_raw_id(v, beyond_binary64(variant, "1e400"));
     }},
    // An integer too, which a reader of integers may keep exact where the
    // protocol calls it malformed.
    {"an integer beyond binary64", 3,
     [](Dice&, const std::string& v, std::size_t variant) {
       std::string number = "1";
       number.append(400, '0');
       return with_raw_id(v, beyond_binary64(variant, number));
     }},
    // One byte past the limit, or two buffers past it: a reader whose buffer
    // is a byte short or long answers the first, or refuses a line it must
    // answer (the layout "padded to exactly 1 MiB"); the second is dropped
    // over more than one read.
    {"one byte longer than 1 MiB", 1,
     [](Dice&, const std::string& v, std::size_t) { return padded_to(v, kMaxLineBytes + 1); }},
    {"3 MiB long", 1,
     [](Dice&, const std::string& v, std::size_t) { return padded_to(v, 3 * kMaxLineBytes); }},
    // A NUL is not JSON, but a JSON reader may take it for the end of its
    // input and answer the bytes before it, as this kit's once did.
    {"a NUL byte after the object", 1,
     [](Dice&, const std::string& v, std::size_t) {
       return v + std::string(1, '\0') + "{\"garbage";
     }},
    {"a NUL byte in a string", 1,
     [](Dice&, const std::string& v, std::size_t) {
       return with_raw_id(v, "\"a" + std::string(1, '\0') + "b\"");
     }},
    {"a lone low surrogate, then another", 1,
     [](Dice&, const std::string& v, std::size_t) { return with_raw_id(v, R"("\udc00\udc00")"); }},
    // JSON's grammar, rule by rule, where a hand-written reader is lenient:
    // each is a line some JSON reader takes, and the protocol refuses.
    {"invalid UTF-8 after the object", 2,
     [](Dice&, const std::string& v, std::size_t variant) {
       return v + (variant == 0 ? "\xFF" : " \xC0\x80");
     }},
    {"a misspelled literal", 4,
     [](Dice&, const std::string& v, std::size_t variant) {
       static constexpr std::string_view kIds[] = {"tru", "nul1", "fals3", "nulll"};
       return with_raw_id(v, std::string(kIds[variant]));
     }},
    {"an escape JSON does not have", 4,
     [](Dice&, const std::string& v, std::size_t variant) {
       static constexpr std::string_view kIds[] = {R"("\q")", R"("\x41")", R"("\'")",
                                                   R"("\U00e9")"};
       return with_raw_id(v, std::string(kIds[variant]));
     }},
    {"a \\u escape with a digit that is no hex digit", 4,
     [](Dice&, const std::string& v, std::size_t variant) {
       static constexpr std::string_view kIds[] = {R"("\u00g0")", R"("\u0G00")", R"("\u+123")",
                                                   R"("\u 123")"};
       return with_raw_id(v, std::string(kIds[variant]));
     }},
    // Numbers as JavaScript, C or a lenient scanner writes them, which JSON
    // does not: a leading zero or plus, no digit before or after the point,
    // an exponent with no digits, hexadecimal.
    // An exponent's sign with no digit after it too: a reader that takes
    // the sign as the exponent's first digit reads 1E+ as 1.
    {"a number JSON does not write", 11,
     [](Dice&, const std::string& v, std::size_t variant) {
       static constexpr std::string_view kIds[] = {"01", "-01", "1.",  ".5",  "-.5", "1.e5",
                                                   "+1", "1e",  "1E+", "1e-", "0x10"};
       return with_raw_id(v, std::string(kIds[variant]));
     }},
    // A name opened by another character and closed by a quote: a reader
    // that takes any first character for the opening quote reads {'a": 1}.
    {"a member name that is no string, or a comma too many", 7,
     [](Dice&, const std::string& v, std::size_t variant) {
       static constexpr std::string_view kIds[] = {R"({1: 2})",   R"({a: 1})",    R"({'a': 1})",
                                                   R"({'a": 1})", R"({"a": 1,})", R"([1,])",
                                                   R"([1,,2])"};
       return with_raw_id(v, std::string(kIds[variant]));
     }},
    {"another character where a colon, a comma or a bracket belongs", 5,
     [](Dice&, const std::string& v, std::size_t variant) {
       static constexpr std::string_view kIds[] = {R"({"a" 1})", R"({"a"; 1})", R"([1 2])",
                                                   R"({"a": 1 "b": 2})", R"({"a": 1])"};
       return with_raw_id(v, std::string(kIds[variant]));
     }},
};

}  // namespace

MalformedLine malformed_line(Dice& d, const std::string& valid, std::size_t turn) {
  static const std::vector<Turn> kTurns = turns_of(kMalformations);
  const Turn& at = kTurns[turn % kTurns.size()];
  const Malformation& m = kMalformations[at.row];
  return {m.make(d, valid, at.variant), m.name, at.variant};
}

}  // namespace generator

std::vector<MalformationRow> malformation_rows() {
  std::vector<MalformationRow> rows;
  for (const generator::Malformation& m : generator::kMalformations)
    rows.push_back({m.name, m.variants});
  return rows;
}

std::size_t malformation_variant_count() {
  std::size_t variants = 0;
  for (const generator::Malformation& m : generator::kMalformations) variants += m.variants;
  return variants;
}

}  // namespace acemq::conformance
