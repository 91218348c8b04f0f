// read_answer: an adapter's answer line, read in one pass over its bytes,
// building no JSON tree and copying no string, within bounds that hold
// whatever an adapter writes: a line may be 64 MiB of `[{},{},...]` (a tree
// of gigabytes) or one 63 MB string (which a JSON reader's token buffer
// holds whole, and copies while it grows).
//
// The bytes are judged first, in the order they come: the first NUL, byte
// that is not ASCII, break of JSON's grammar (as the JSON reader that reads
// requests takes it: RFC 8259, surrogate escapes in pairs), number beyond
// binary64 or broken bound ends the read, at its byte. A line that is one
// JSON value within the bounds is then judged as an answer (an object, an
// id, a boolean ok, a result or a string error), so what is wrong with an
// answer never depends on the order of its members. Only then are its id and
// error, both bounded, made values.
//
// The form nearly every answer takes, {"id":<integer>,"ok":true,"result":
// [<numbers>]}, is read by a first step that takes that form alone, number
// by number; anything else, or anything wrong in it, goes to the pass, which
// alone says what is wrong.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "conformance/protocol/answer.hpp"
#include "conformance/protocol/limits.hpp"

namespace acemq::conformance {

// The most JSON values (numbers, strings, null, booleans, arrays, objects)
// an answer may hold: an id echoed from a 1 MiB request line holds fewer,
// and a result at most 65,536 entries. At about 50 bytes a value in memory,
// it bounds the id's tree, and a caller's items, to tens of MB.
inline constexpr std::size_t kMaxAnswerValues = std::size_t{1} << 20;
// The longest string an answer may hold: an id echoed from a request line
// is shorter than the line's 1 MiB, and an error message is a sentence.
inline constexpr std::size_t kMaxAnswerStringBytes = std::size_t{4} << 20;
// An answer nests one level deeper than the id it echoes.
inline constexpr int kMaxAnswerDepth = kMaxDepth + 1;
// An error message is kept to this many bytes: it is prose for a person,
// and a report shows only its start anyway.
inline constexpr std::size_t kMaxErrorBytes = 4096;

// Why a line is not an answer, and where.
struct AnswerFault {
  enum class Kind : std::uint8_t {
    // The bytes, at `byte`:
    nul_byte,
    not_ascii,
    not_json,
    beyond_binary64,
    // The bounds:
    too_deep,
    string_too_long,
    too_many_values,
    // The answer, once the line is one JSON value:
    not_object,
    no_id,
    no_ok,
    no_result,
    no_error,
    result_not_item,  // the result, `found`
    item_not_item,    // result[`index`], `found`
  };
  Kind kind = Kind::not_json;
  std::size_t byte = 0;  // from 1; one past the end when the line ends too soon
  std::size_t index = 0;
  std::string found = {};  // what stands where a number or null is due, clipped
};

// The fault in words: "not JSON, at byte 12".
std::string describe(const AnswerFault& fault);
// What the adapter did, for "the adapter <...>": "wrote a line that is not
// a protocol answer (<fault>)".
std::string not_an_answer(const AnswerFault& fault);

// Where the result's items go, in order, as the pass meets them, when the
// caller keeps them itself (stats' draws, straight into its buffer): the
// result's one value when it is not an array. `restart` comes before each
// result read, since a later duplicate member is an object's value.
class ResultItems {
 public:
  virtual void restart() = 0;
  virtual void add(std::optional<double> item) = 0;

 protected:
  ResultItems() = default;
  ResultItems(const ResultItems&) = default;
  ResultItems& operator=(const ResultItems&) = default;
  ~ResultItems() = default;
};

// The answer `line` holds, or why it holds none. The result's items go to
// `items` when given (and the Answer's own stay empty), else to the Answer.
// Numbers read as wire_number reads them (wire.hpp).
std::variant<Answer, AnswerFault> read_answer(std::string_view line, ResultItems* items = nullptr);

}  // namespace acemq::conformance
