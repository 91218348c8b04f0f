#include "conformance/check/malformations.hpp"

#include <vector>

#include "conformance/check/case_generator.hpp"
#include "conformance/check/line_edits.hpp"
#include "conformance/protocol/limits.hpp"

namespace acemq::conformance {
namespace generator {
namespace {

struct Malformation {
  std::string_view name;
  // `round`: how many lines of this kind were sent before; a kind's
  // variants go in turn by it, so a run's two or three send different ones.
  std::string (*make)(Dice&, const std::string& valid, std::size_t round);
};

// The line up to the raw id's end (the first comma after it; the id holds
// none), so that it ends where the id does.
std::string cut_after_raw_id(const std::string& line) { return line.substr(0, line.find(',', 5)); }

// `number` as an id alone, or inside an array or an object, where a check
// of the top level alone misses it.
std::string beyond_binary64(std::size_t round, const std::string& number) {
  static constexpr std::string_view kWhere[] = {"", "[1, ", "{\"a\": 1, \"b\": "};
  static constexpr std::string_view kEnd[] = {"", "]", "}"};
  const std::size_t where = round % std::size(kWhere);
  std::string id(kWhere[where]);
  id += number;
  id += kEnd[where];
  return id;
}

const Malformation kMalformations[] = {
    {"truncated",
     [](Dice& d, const std::string& v, std::size_t) {
       return v.substr(
           0, static_cast<std::size_t>(d.between(0, static_cast<std::int64_t>(v.size()) - 1)));
     }},
    {"text after the value", [](Dice&, const std::string& v, std::size_t) { return v + " x"; }},
    {"two values", [](Dice&, const std::string& v, std::size_t) { return v + v; }},
    {"an array, not an object",
     [](Dice&, const std::string& v, std::size_t) { return "[" + v + "]"; }},
    {"empty", [](Dice&, const std::string&, std::size_t) { return std::string(); }},
    {"only whitespace",
     [](Dice&, const std::string&, std::size_t) { return std::string("   \t "); }},
    {"a byte-order mark",
     [](Dice&, const std::string& v, std::size_t) { return "\xEF\xBB\xBF" + v; }},
    // The request object is one level: an id nested 32 deep makes 33, one
    // past the protocol's 32 (the id form "nested 32 deep in all" is the
    // deepest answered); 40 deep is well past it.
    {"nested 33 deep, or 41",
     [](Dice& d, const std::string& v, std::size_t round) {
       // After a string with escapes, sometimes: a depth counter that
       // misreads them leaves the string late and misses the brackets.
       // After 40 sibling arrays, sometimes: a counter that closes a level
       // twice, or not at all, is off by then.
       if (round % 3 == 0) {
         std::string id = "[";
         for (int i = 0; i < 40; ++i) id += "[], {}, ";
         id.append(31, '[');
         id.append(31, ']');
         return with_raw_id(v, id + "]");
       }
       if (round % 3 == 1) {
         std::string id = R"(["\"\\", )";
         id.append(31, '[');
         id.append(31, ']');
         return with_raw_id(v, id + "]");
       }
       const std::size_t depth = d.chance(0.5) ? 32 : 40;
       return with_raw_id(v, std::string(depth, '[') + std::string(depth, ']'));
     }},
    {"invalid UTF-8",
     [](Dice&, const std::string& v, std::size_t) { return with_raw_id(v, "\"\xFF\xFE\""); }},
    // Lone surrogates in the id, each where a scanner that pairs them
    // carelessly would pass it; a row each, so that every run sends each.
    {"a lone high surrogate",
     [](Dice&, const std::string& v, std::size_t) { return with_raw_id(v, R"("\ud800")"); }},
    {"a lone high surrogate, last in its string",
     [](Dice&, const std::string& v, std::size_t) { return with_raw_id(v, R"("a\udbff")"); }},
    {"a high surrogate before a plain character",
     [](Dice&, const std::string& v, std::size_t round) {
       return with_raw_id(v, round % 2 == 0 ? R"("\ud800x")" : R"("\ud800xudc00")");
     }},
    {"a high surrogate before an escape that is no low half",
     [](Dice&, const std::string& v, std::size_t round) {
       return with_raw_id(v, round % 2 == 0 ? R"("\udbff\ue000")" : R"("\ud800\u0041")");
     }},
    {"a high surrogate before another high one, then a low half",
     [](Dice&, const std::string& v, std::size_t) {
       return with_raw_id(v, R"("\ud83d\ud83d\ude00")");
     }},
    // 0xDBFF is one below the low halves: a scanner whose range starts
    // there takes this pair for a whole one.
    {"a high surrogate before the last high one, \\udbff",
     [](Dice&, const std::string& v, std::size_t) { return with_raw_id(v, R"("\ud800\udbff")"); }},
    {"a lone high surrogate right after another escape",
     [](Dice&, const std::string& v, std::size_t) { return with_raw_id(v, R"("\u00e9\ud800")"); }},
    // A line that ends inside an escape: a scanner that reads past the
    // line's end crashes on it. A row for the backslash that is the last
    // byte, where a scanner looks one byte ahead for the escape's letter.
    {"ends right after a backslash in a string",
     [](Dice&, const std::string& v, std::size_t round) {
       static constexpr std::string_view kEnds[] = {R"("x\)", R"("\\\)"};
       return cut_after_raw_id(with_raw_id(v, kEnds[round % std::size(kEnds)]));
     }},
    {"ends in a \\u escape, or right after one",
     [](Dice&, const std::string& v, std::size_t round) {
       static constexpr std::string_view kEnds[] = {R"("\ud800\)", R"("\ud800)", R"("\ud800\u)",
                                                    R"("\u00)"};
       return cut_after_raw_id(with_raw_id(v, kEnds[round % std::size(kEnds)]));
     }},
    {"a lone low surrogate right after a pair",
     [](Dice&, const std::string& v, std::size_t) {
       return with_raw_id(v, R"("\ud83d\ude00\udc00")");
     }},
    {"a lone low surrogate, the last of the range",
     [](Dice&, const std::string& v, std::size_t) { return with_raw_id(v, R"("x\udfff y")"); }},
    {"a lone surrogate inside an array or an object's key",
     [](Dice&, const std::string& v, std::size_t round) {
       return with_raw_id(v, round % 2 == 0 ? R"([1, ["ok", "\ud800"]])" : R"({"\udc00": 1})");
     }},
    {"a control character in a string",
     [](Dice&, const std::string& v, std::size_t round) {
       static constexpr std::string_view kRaw[] = {"\"tab\there\"", "\"\x01\"",
                                                   "\"vertical\x0btab\"", "\"\x1f\""};
       return with_raw_id(v, kRaw[round % std::size(kRaw)]);
     }},
    {"a bare NaN",
     [](Dice&, const std::string& v, std::size_t round) {
       return with_raw_id(v, round % 2 == 0 ? "NaN" : "-Infinity");
     }},
    // A float, or an integer of 400 digits, which a reader of integers may
    // keep exact where the protocol calls it malformed.
    {"a float beyond binary64",
     [](Dice&, const std::string& v, std::size_t round) {
       return with_raw_id(v, beyond_binary64(round, "1e400"));
     }},
    // An integer too, which a reader of integers may keep exact where the
    // protocol calls it malformed.
    {"an integer beyond binary64",
     [](Dice&, const std::string& v, std::size_t round) {
       std::string number = "1";
       number.append(400, '0');
       return with_raw_id(v, beyond_binary64(round, number));
     }},
    // One byte past the limit, or two buffers past it: a reader whose buffer
    // is a byte short or long answers the first, or refuses a line it must
    // answer (the layout "padded to exactly 1 MiB"); the second is dropped
    // over more than one read.
    {"one byte longer than 1 MiB",
     [](Dice&, const std::string& v, std::size_t) { return padded_to(v, kMaxLineBytes + 1); }},
    {"3 MiB long",
     [](Dice&, const std::string& v, std::size_t) { return padded_to(v, 3 * kMaxLineBytes); }},
    // A NUL is not JSON, but a JSON reader may take it for the end of its
    // input and answer the bytes before it, as this kit's once did.
    {"a NUL byte after the object",
     [](Dice&, const std::string& v,
        std::size_t) { return v + std::string(1, '\0') + "{\"garbage"; }},
    {"a NUL byte in a string",
     [](Dice&, const std::string& v,
        std::size_t) { return with_raw_id(v, "\"a" + std::string(1, '\0') + "b\""); }},
    {"a lone low surrogate, then another",
     [](Dice&, const std::string& v, std::size_t) { return with_raw_id(v, R"("\udc00\udc00")"); }},
};

}  // namespace

MalformedLine malformed_line(Dice& d, const std::string& valid, std::size_t turn) {
  const Malformation& m = kMalformations[turn % std::size(kMalformations)];
  return {m.make(d, valid, turn / std::size(kMalformations)), m.name};
}

}  // namespace generator

std::vector<std::string_view> malformation_names() {
  std::vector<std::string_view> names;
  for (const generator::Malformation& m : generator::kMalformations) names.push_back(m.name);
  return names;
}

}  // namespace acemq::conformance
