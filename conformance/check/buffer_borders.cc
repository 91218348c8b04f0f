#include "conformance/check/buffer_borders.hpp"

#include <array>
#include <iterator>
#include <vector>

#include "conformance/check/line_edits.hpp"

namespace acemq::conformance::generator {
namespace {

// Every border is a power of two from 4 KiB, the smallest first buffer a
// port here has (Java's answer and line buffers), to 64 KiB, the largest
// (.NET's answer buffer, both ports' read chunks).
constexpr std::array<std::size_t, 5> kBorders = {std::size_t{1} << 12, std::size_t{1} << 13,
                                                 std::size_t{1} << 14, std::size_t{1} << 15,
                                                 std::size_t{1} << 16};

// The request and its answer, around the id [P, F, "b"]:
//   {"id":["P","F","b"],"op":"schedule","policy":{}}
//   {"id":["P","F","b"],"ok":true,"result":[]}<LF>
// F, the filler, sizes the answer; P, a few ASCII letters, shifts F by the
// bytes an escape's 6 cannot; "b" is a string short enough that a writer
// which reserves room for the whole string up front (n + 2 bytes, or 6n +
// 2) reserves almost nothing. F's closing quote is answer byte 11 + |P| +
// |F|, and everything after it is fixed: ,"b"] then the 23 bytes of
// ,"ok":true,"result":[]} and the LF, 29 bytes on.
constexpr std::size_t kBeforeFiller = 11;  // {"id":[" P "," : 8 + 3 bytes besides P
constexpr std::size_t kQuoteToLf = 29;

// Where F's closing quote lands, relative to the border B (answer byte B is
// the first past a buffer of B bytes): each row puts one piece of the
// answer exactly there, with an ASCII F, an escaped F, or either.
struct Landing {
  std::string_view name;
  long quote_from_border;  // F's closing quote at B + this
  bool ascii;
  bool escaped;
};
constexpr Landing kLandings[] = {
    // A writer that reserves no byte for the LF (Room(0), or none) writes
    // it past the buffer; an answer a byte shorter fills the buffer to its
    // last byte, the border's other side.
    {"the LF first past the border", -static_cast<long>(kQuoteToLf), true, true},
    {"the LF the border's last byte", -static_cast<long>(kQuoteToLf) - 1, true, true},
    // A string whose room is reserved short (n - 2, none) writes its opening
    // quote past a full buffer; "b" needs a short reservation to show it.
    {"a 1-character string's opening quote first past the border", -2, true, true},
    {"a 1-character string's closing quote first past the border", -4, true, true},
    // A long string's room reserved 1 to 3 bytes short (6n + 1, 6n - 2)
    // puts its closing quote past the buffer.
    {"a long string's closing quote first past the border", 0, true, true},
    {"a long string's closing quote the border's last byte", -1, true, true},
    {"a long string's last character first past the border", 1, true, false},
    // An escape's room reserved short (5 for 6) writes its last bytes past
    // the buffer: the border at each of its 6 bytes.
    {"an escape's sixth byte first past the border", 1, false, true},
    {"an escape's fifth byte first past the border", 2, false, true},
    {"an escape's fourth byte first past the border", 3, false, true},
    {"an escape's third byte first past the border", 4, false, true},
    {"an escape's second byte first past the border", 5, false, true},
    {"an escape's first byte first past the border", 6, false, true},
};

// The filler: letters and digits, or characters every one of which an
// answer must escape (answers are ASCII) as \uXXXX: raw UTF-8 of 2, 3 and
// 4 bytes (the last a surrogate pair, two escapes) and control characters
// (escaped in the request too: a raw one is malformed). No \b \f \n \r \t,
// which a writer may escape in 2 bytes, and no DEL, which some escape and
// some do not, so every port's answer has the core's length.
enum class Content { ascii, escaped };
struct ContentRow {
  std::string_view name;
  Content content;
};
constexpr ContentRow kContents[] = {
    {"plain ASCII", Content::ascii},
    {"all escaped: raw UTF-8 and control characters", Content::escaped},
};

struct Unit {
  std::string_view request;  // as the line holds it
  std::size_t answer_bytes;  // as the answer holds it
};
constexpr Unit kEscaped[] = {
    {"\xc3\xa9", 6},           // U+00E9, 2 bytes of UTF-8
    {"\\u0001", 6},            // a control character
    {"\xe2\x9c\x93", 6},       // U+2713, 3 bytes
    {"\\u001f", 6},            // the last control character
    {"\xf0\x9f\x98\x80", 12},  // U+1F600, 4 bytes: a surrogate pair, two escapes
};

// F's request text, for an answer of exactly `bytes` bytes between its quotes.
std::string filler(Content content, std::size_t bytes) {
  std::string text;
  if (content == Content::ascii) {
    static constexpr std::string_view kLetters = "abcdefghijklmnopqrstuvwxyz0123456789";
    for (std::size_t i = 0; i < bytes; ++i) text.push_back(kLetters[i % kLetters.size()]);
    return text;
  }
  // bytes is a multiple of 6 here.
  for (std::size_t i = 0, left = bytes; left > 0; ++i) {
    const Unit& unit = kEscaped[i % std::size(kEscaped)];
    const Unit& used = unit.answer_bytes <= left ? unit : kEscaped[0];
    text += used.request;
    left -= used.answer_bytes;
  }
  return text;
}

// The id [P, F, "b"] whose F's closing quote is answer byte `quote`.
std::string filled_id(std::size_t quote, const ContentRow& content) {
  // An escaped F is 6 bytes an escape: P takes the rest.
  std::size_t pad = 0;
  if (content.content == Content::escaped) pad = (quote - kBeforeFiller) % 6;
  const std::size_t bytes = quote - kBeforeFiller - pad;
  return "[\"" + std::string(pad, 'p') + "\",\"" + filler(content.content, bytes) + "\",\"b\"]";
}

BorderCase across(std::size_t border, long quote_from_border, std::string_view name,
                  const ContentRow& content) {
  const std::size_t quote = static_cast<std::size_t>(static_cast<long>(border) + quote_from_border);
  BorderCase made;
  made.line = "{\"id\":" + filled_id(quote, content) + ",\"op\":\"schedule\",\"policy\":{}}";
  made.name = name;
  made.content = content.name;
  made.border = border;
  made.closing_quote = quote;
  made.answer_bytes = quote + kQuoteToLf + 1;
  return made;
}

// The answer {"id":[P, F, "b"],"ok":true,"result":NUMBER}: its number's
// first byte at B + number_from_border. jittered answers its delay as is
// (fixed_lines.hpp), and the number is written as the core writes it.
constexpr std::size_t kQuoteToResult = 26;  // ,"b"],"ok":true,"result": and one
BorderCase number_across(std::size_t border, long number_from_border, std::string_view number,
                         std::string_view name, const ContentRow& content) {
  const std::size_t quote =
      static_cast<std::size_t>(static_cast<long>(border) + number_from_border) - kQuoteToResult;
  BorderCase made;
  made.line = "{\"id\":" + filled_id(quote, content) + R"(,"op":"jittered","policy":{},"delay":)" +
              std::string(number) + R"(,"r":0.5})";
  made.op = OpKind::jittered;
  made.name = name;
  made.content = content.name;
  made.border = border;
  made.closing_quote = quote;
  made.answer_bytes = quote + kQuoteToResult + number.size() + 2;  // the } and the LF
  return made;
}

// 12,000 characters to escape: 72,000 bytes of answer from a 51 KB line,
// past a 64 KiB buffer by 6,464 bytes, where a writer that reserves 5
// bytes a character (60,000) grows too little, and one that reserves by
// the request's bytes, or by the string's length, much too little.
BorderCase twelve_thousand_escaped() {
  constexpr std::size_t kCharacters = 12000;
  BorderCase made;
  std::string text;
  for (std::size_t i = 0; i < kCharacters; ++i) text += kEscaped[i % 4].request;
  made.line = "{\"id\":[\"\",\"" + text + "\",\"b\"],\"op\":\"schedule\",\"policy\":{}}";
  made.name = "12,000 escaped characters: 72,000 bytes of answer from a 51 KB line";
  made.content = kContents[1].name;
  made.border = std::size_t{1} << 16;
  made.closing_quote = kBeforeFiller + 6 * kCharacters;
  made.answer_bytes = made.closing_quote + kQuoteToLf + 1;
  return made;
}

// The run's first cases. A port's buffers only grow and are kept, so each
// border is tested by the first line or answer of a conversation to cross
// it: the opening crosses them in ascending order, before any drawn case
// (a schedule of 1,000 to 2,000 entries, 20 to 40 KB, comes about every
// 30 cases), each
// answer with another piece on its border, so that a buffer that starts at
// any power of two from 4 KiB to 64 KiB and doubles meets at least two
// pieces, and one of 4 KiB meets nine.
struct Opening {
  std::string_view why;
  std::size_t border;      // 0: a long line
  long quote_from_border;  // as in kLandings; for a number, its first byte's
  Content content;
  std::string_view number = {};  // the result, as the core writes it: a number's landing
};
constexpr Opening kOpening[] = {
    // 4,129 bytes: a line buffer of 4 KiB (Java's, .NET's) that grows
    // wrongly fails on the first line past it, before short lines grew it.
    {"the first line past 4 KiB; a short string opening on a 4 KiB answer's border", 1 << 12, -2,
     Content::ascii},
    // 64 KiB + 1: past a line buffer grown to 64 KiB, and past a 64 KiB
    // read chunk, so the line arrives in two reads.
    {"a line of 64 KiB + 1 bytes", 0, 0, Content::ascii},
    {"an escape's last byte on an 8 KiB answer's border", 1 << 13, 1, Content::escaped},
    // Escaped from here on: a writer that reserves 6 bytes a character for
    // a string (.NET's) grows its buffer at an ASCII string's start, so an
    // ASCII id of 32 KiB would take its 64 KiB buffer past 128 KiB unseen.
    {"the LF on a 16 KiB answer's border", 1 << 14, -static_cast<long>(kQuoteToLf),
     Content::escaped},
    {"a closing quote on a 32 KiB answer's border", 1 << 15, 0, Content::escaped},
    // .NET's 64 KiB buffer: its LF, then (after it doubled) a string's end.
    {"the LF on a 64 KiB answer's border", 1 << 16, -static_cast<long>(kQuoteToLf),
     Content::escaped},
    {"a closing quote on a 128 KiB answer's border", 1 << 17, 0, Content::escaped},
    // A writer that picks the wrong notation writes 1e-300's or 1e+300's
    // 301 digits where it reserved room for 6 and some: 30 bytes before a
    // border that a buffer doubled from 4 KiB (Java's) has reached, and
    // that neither answer crosses.
    {"1e-300 30 bytes before a 256 KiB answer's border", 1 << 18, -30, Content::escaped, "1e-300"},
    {"1e+300 30 bytes before a 256 KiB answer's border", 1 << 18, -30, Content::escaped, "1e+300"},
    // A number's room reserved short, or not at all, writes its first
    // bytes past a full buffer.
    {"a number a byte before a 256 KiB answer's border", 1 << 18, -1, Content::escaped, "1e+300"},
};

// The table's ladders: each landing with each content it takes.
struct Ladder {
  const Landing* landing;
  const ContentRow* content;
};
std::vector<Ladder> ladders() {
  std::vector<Ladder> all;
  for (const ContentRow& content : kContents) {
    for (const Landing& landing : kLandings) {
      if (content.content == Content::ascii ? landing.ascii : landing.escaped)
        all.push_back({&landing, &content});
    }
  }
  return all;
}

}  // namespace

std::optional<BorderCase> opening_case(std::size_t k, std::int64_t id) {
  if (k < 1 || k > std::size(kOpening)) return std::nullopt;
  const Opening& row = kOpening[k - 1];
  if (row.border == 0) {
    BorderCase made;
    made.line = padded_to("{\"id\":" + std::to_string(id) +
                              ",\"op\":\"schedule\",\"policy\":{\"max_attempts\":3,"
                              "\"initial_delay\":1}}",
                          (std::size_t{1} << 16) + 1);
    made.name = row.why;
    return made;
  }
  const ContentRow& content = kContents[row.content == Content::ascii ? 0 : 1];
  if (!row.number.empty())
    return number_across(row.border, row.quote_from_border, row.number, row.why, content);
  return across(row.border, row.quote_from_border, row.why, content);
}

std::size_t opening_cases() { return std::size(kOpening); }

BorderCase border_case_in_turn(std::size_t turn) {
  static const std::vector<Ladder> kLadders = ladders();
  turn %= border_case_count();
  if (turn == border_case_count() - 1) return twelve_thousand_escaped();
  // A ladder's borders in ascending order.
  const Ladder& ladder = kLadders[turn / kBorders.size()];
  return across(kBorders[turn % kBorders.size()], ladder.landing->quote_from_border,
                ladder.landing->name, *ladder.content);
}

std::size_t border_case_count() {
  static const std::size_t kCount = ladders().size() * kBorders.size() + 1;
  return kCount;
}

}  // namespace acemq::conformance::generator
