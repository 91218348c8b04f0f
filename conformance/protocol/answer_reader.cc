#include "conformance/protocol/answer_reader.hpp"

#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "conformance/protocol/wire.hpp"

namespace acemq::conformance {
namespace {

using nlohmann::json;
using Kind = AnswerFault::Kind;

// How much of a value a fault shows where a number or null was due.
constexpr std::size_t kFoundBytes = 60;

std::string found_of(std::string_view text) {
  if (text.front() == '{') return "an object";
  if (text.front() == '[') return "an array";
  if (text.size() <= kFoundBytes) return std::string(text);
  return std::string(text.substr(0, kFoundBytes)) + "...";
}

// A string token's text, escapes resolved. Only a token the pass has read
// (so valid, and bounded) is decoded, and only when it holds an escape.
std::string decoded(std::string_view token) {
  const std::string_view inside = token.substr(1, token.size() - 2);
  if (inside.find('\\') == std::string_view::npos) return std::string(inside);
  const json value = json::parse(token, nullptr, false);
  return value.is_string() ? value.get<std::string>() : std::string();
}

// Whether a string token's text is `text`, without a copy of a long one.
bool names(std::string_view token, std::string_view text) {
  const std::string_view inside = token.substr(1, token.size() - 2);
  if (inside.find('\\') == std::string_view::npos) return inside == text;
  return inside.size() <= 6 * text.size() && decoded(token) == text;
}

// The non-finite number a string token names, or nullopt.
std::optional<double> non_finite(std::string_view token) {
  for (const std::string_view name : {"Infinity", "-Infinity", "NaN"}) {
    if (names(token, name)) return non_finite_number(name);
  }
  return std::nullopt;
}

// The answer's own items, when the caller keeps none.
class OwnItems final : public ResultItems {
 public:
  explicit OwnItems(std::vector<std::optional<double>>& items) : items_(items) {}
  void restart() override { items_.clear(); }
  void add(std::optional<double> item) override { items_.push_back(item); }

 private:
  std::vector<std::optional<double>>& items_;
};

// The form nearly every answer takes, {"id":<integer>,"ok":true,"result":
// [<numbers>]}, read number by number with no bookkeeping: the pass costs
// several times what a fast port takes to draw. False, with some items
// perhaps given, for anything else.
bool read_common_form(std::string_view line, Answer& answer, ResultItems& items) {
  static constexpr std::string_view kHead = R"({"id":)";
  static constexpr std::string_view kOk = R"(,"ok":true,"result":[)";
  static constexpr std::string_view kEnd = "]}";
  if (!line.starts_with(kHead) || !line.ends_with(kEnd)) return false;
  const std::size_t id_end = line.find_first_not_of("-0123456789", kHead.size());
  if (id_end == std::string_view::npos || line.compare(id_end, kOk.size(), kOk) != 0) return false;
  const std::size_t from = id_end + kOk.size();
  if (from > line.size() - kEnd.size()) return false;
  json id = json::parse(line.substr(kHead.size(), id_end - kHead.size()), nullptr, false);
  if (!id.is_number()) return false;
  std::string_view rest = line.substr(from, line.size() - kEnd.size() - from);
  items.restart();
  // The object, its id and ok, and the array are four of the values.
  std::size_t values = 4;
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    const std::string_view piece = rest.substr(0, comma);
    std::optional<double> item;
    if (piece != "null") {
      item = wire_number_text(piece);
      if (!item) return false;
    }
    if (++values > kMaxAnswerValues) return false;
    items.add(item);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
    if (rest.empty()) return false;  // a comma before the end
  }
  answer.id = std::move(id);
  answer.ok = true;
  answer.is_array = true;
  return true;
}

// The pass: a JSON reader over the line that keeps positions, not values,
// and notes the members an answer is judged by, the last of each name
// winning as in any JSON object.
class Pass {
 public:
  Pass(std::string_view line, ResultItems& items) : line_(line), items_(items) {}

  // Reads the whole line; the fault of its bytes, if any.
  std::optional<AnswerFault> read() {
    skip_space();
    object_ = at_ < line_.size() && line_[at_] == '{';
    if (!value(0, Role::answer)) return fault_;
    skip_space();
    if (at_ < line_.size()) {
      unexpected();
      return fault_;
    }
    return std::nullopt;
  }

  // The line, one JSON value, judged as an answer.
  std::variant<Answer, AnswerFault> answer(Answer answer, bool own_items) const {
    if (!object_) return AnswerFault{.kind = Kind::not_object};
    if (!id_) return AnswerFault{.kind = Kind::no_id};
    if (!ok_) return AnswerFault{.kind = Kind::no_ok};
    answer.ok = *ok_;
    if (answer.ok) {
      if (result_ == Result::none) return AnswerFault{.kind = Kind::no_result};
      if (result_ == Result::not_item)
        return AnswerFault{.kind = Kind::result_not_item, .found = found_};
      if (bad_item_) return *bad_item_;
      answer.is_array = result_ == Result::array;
    } else {
      if (!error_) return AnswerFault{.kind = Kind::no_error};
      // Prose, never compared: a report shows its start.
      answer.error = decoded(*error_);
      if (answer.error.size() > kMaxErrorBytes) answer.error.resize(kMaxErrorBytes);
      if (own_items) answer.items.clear();
    }
    // The pass read it as the JSON reader would, and its strings and
    // values are bounded.
    answer.id = json::parse(*id_, nullptr, false);
    return answer;
  }

 private:
  // What a value is to the answer: the answer itself, one of its members
  // (by name), an item of its result array, or nothing.
  enum class Role : std::uint8_t { answer, id, ok, error, result, item, other };
  enum class Result : std::uint8_t { none, array, single, not_item };

  static Role role_of(std::string_view key) {
    if (names(key, "id")) return Role::id;
    if (names(key, "ok")) return Role::ok;
    if (names(key, "error")) return Role::error;
    if (names(key, "result")) return Role::result;
    return Role::other;
  }

  unsigned byte(std::size_t i) const { return static_cast<unsigned char>(line_[i]); }
  bool at_end() const { return at_ >= line_.size(); }

  bool fail(Kind kind, std::size_t i) {
    fault_ = AnswerFault{.kind = kind, .byte = i + 1};
    return false;
  }
  // A byte the grammar does not allow at i (or the line ended there).
  bool bad_byte(std::size_t i) {
    if (i >= line_.size()) return fail(Kind::not_json, i);
    if (byte(i) == 0) return fail(Kind::nul_byte, i);
    if (byte(i) >= 0x80) return fail(Kind::not_ascii, i);
    return fail(Kind::not_json, i);
  }
  // A token the grammar does not allow here: reported where the JSON
  // reader stops, at the token's last byte, unless the token is itself
  // broken.
  bool unexpected() {
    if (at_end()) return fail(Kind::not_json, at_);
    bool token = false;
    switch (line_[at_]) {
      case '"': token = string(); break;
      case 't': token = literal("true"); break;
      case 'f': token = literal("false"); break;
      case 'n': token = literal("null"); break;
      default:
        if (line_[at_] == '-' || (line_[at_] >= '0' && line_[at_] <= '9')) {
          token = number();
          break;
        }
        return bad_byte(at_);
    }
    return token && fail(Kind::not_json, at_ - 1);
  }

  void skip_space() {
    while (!at_end() &&
           (line_[at_] == ' ' || line_[at_] == '\t' || line_[at_] == '\n' || line_[at_] == '\r')) {
      ++at_;
    }
  }

  bool value(int depth, Role role) {
    skip_space();
    if (at_end()) return fail(Kind::not_json, at_);
    if (++values_ > kMaxAnswerValues) return fail(Kind::too_many_values, at_);
    if (role == Role::result) {
      result_ = Result::none;
      bad_item_.reset();
      index_ = 0;
      items_.restart();
    }
    const std::size_t begin = at_;
    bool read = false;
    switch (line_[at_]) {
      case '{': read = object(depth + 1, role == Role::answer); break;
      case '[': read = array(depth + 1, role == Role::result ? Role::item : Role::other); break;
      case '"': read = string(); break;
      case 't': read = literal("true"); break;
      case 'f': read = literal("false"); break;
      case 'n': read = literal("null"); break;
      default: {
        if (line_[at_] != '-' && (line_[at_] < '0' || line_[at_] > '9')) return unexpected();
        if (!number()) return false;
        // Every number, as the JSON reader refuses any beyond binary64.
        const std::optional<double> x = wire_number_text(line_.substr(begin, at_ - begin));
        if (!x) return fail(Kind::beyond_binary64, begin);
        number_ = *x;
        read = true;
      }
    }
    if (read) note(role, line_.substr(begin, at_ - begin));
    return read;
  }

  bool object(int depth, bool answer) {
    if (depth > kMaxAnswerDepth) return fail(Kind::too_deep, at_);
    ++at_;
    skip_space();
    if (!at_end() && line_[at_] == '}') {
      ++at_;
      return true;
    }
    for (;;) {
      skip_space();
      if (at_end() || line_[at_] != '"') return unexpected();
      const std::size_t key = at_;
      if (!string()) return false;
      const Role role = answer ? role_of(line_.substr(key, at_ - key)) : Role::other;
      skip_space();
      if (at_end() || line_[at_] != ':') return unexpected();
      ++at_;
      if (!value(depth, role)) return false;
      skip_space();
      if (!at_end() && line_[at_] == ',') {
        ++at_;
        continue;
      }
      if (!at_end() && line_[at_] == '}') {
        ++at_;
        return true;
      }
      return unexpected();
    }
  }

  bool array(int depth, Role element) {
    if (depth > kMaxAnswerDepth) return fail(Kind::too_deep, at_);
    ++at_;
    skip_space();
    if (!at_end() && line_[at_] == ']') {
      ++at_;
      return true;
    }
    for (;;) {
      if (!value(depth, element)) return false;
      skip_space();
      if (!at_end() && line_[at_] == ',') {
        ++at_;
        continue;
      }
      if (!at_end() && line_[at_] == ']') {
        ++at_;
        return true;
      }
      return unexpected();
    }
  }

  // A string at its opening quote, bounded on its bytes as it goes.
  bool string() {
    const std::size_t begin = at_++;
    for (;;) {
      if (at_end()) return fail(Kind::not_json, at_);
      if (at_ - begin > kMaxAnswerStringBytes) return fail(Kind::string_too_long, at_);
      const unsigned c = byte(at_);
      if (c == '"') {
        ++at_;
        return true;
      }
      if (c == '\\') {
        if (!escape()) return false;
      } else if (c < 0x20 || c >= 0x80) {
        return bad_byte(at_);
      } else {
        ++at_;
      }
    }
  }

  // An escape at its backslash. A surrogate escape must be half of a pair,
  // as the JSON reader requires.
  bool escape() {
    ++at_;
    if (at_end()) return fail(Kind::not_json, at_);
    if (line_[at_] != 'u') {
      if (std::string_view("\"\\/bfnrt").find(line_[at_]) == std::string_view::npos) {
        return bad_byte(at_);
      }
      ++at_;
      return true;
    }
    const std::optional<unsigned> high = code_unit();
    if (!high) return false;
    if (*high >= 0xDC00 && *high <= 0xDFFF) return fail(Kind::not_json, at_ - 1);
    if (*high < 0xD800 || *high > 0xDBFF) return true;
    if (at_end() || line_[at_] != '\\') return bad_byte(at_);
    ++at_;
    if (at_end() || line_[at_] != 'u') return bad_byte(at_);
    const std::optional<unsigned> low = code_unit();
    if (!low) return false;
    if (*low < 0xDC00 || *low > 0xDFFF) return fail(Kind::not_json, at_ - 1);
    return true;
  }

  // The four hex digits after the 'u' at at_; at_ past them.
  std::optional<unsigned> code_unit() {
    unsigned unit = 0;
    for (int k = 0; k < 4; ++k) {
      ++at_;
      if (at_end()) {
        fail(Kind::not_json, at_);
        return std::nullopt;
      }
      const char h = line_[at_];
      unsigned digit = 0;
      if (h >= '0' && h <= '9') {
        digit = static_cast<unsigned>(h - '0');
      } else if (h >= 'a' && h <= 'f') {
        digit = static_cast<unsigned>(h - 'a' + 10);
      } else if (h >= 'A' && h <= 'F') {
        digit = static_cast<unsigned>(h - 'A' + 10);
      } else {
        bad_byte(at_);
        return std::nullopt;
      }
      unit = unit * 16 + digit;
    }
    ++at_;
    return unit;
  }

  // A number by JSON's grammar; its value is read by the caller.
  bool number() {
    const auto digits = [&] {
      const std::size_t from = at_;
      while (!at_end() && line_[at_] >= '0' && line_[at_] <= '9') ++at_;
      return at_ > from;
    };
    if (line_[at_] == '-') ++at_;
    if (!at_end() && line_[at_] == '0') {
      ++at_;
    } else if (!digits()) {
      return bad_byte(at_);
    }
    if (!at_end() && line_[at_] == '.') {
      ++at_;
      if (!digits()) return bad_byte(at_);
    }
    if (!at_end() && (line_[at_] == 'e' || line_[at_] == 'E')) {
      ++at_;
      if (!at_end() && (line_[at_] == '+' || line_[at_] == '-')) ++at_;
      if (!digits()) return bad_byte(at_);
    }
    return true;
  }

  bool literal(std::string_view word) {
    for (const char w : word) {
      if (at_end() || line_[at_] != w) return bad_byte(at_);
      ++at_;
    }
    return true;
  }

  // A value read whole: what the answer makes of it, by its role.
  void note(Role role, std::string_view text) {
    switch (role) {
      case Role::id: id_ = text; return;
      case Role::ok:
        ok_.reset();
        if (text == "true" || text == "false") ok_ = text == "true";
        return;
      case Role::error:
        error_.reset();
        if (text.front() == '"') error_ = text;
        return;
      case Role::result:
        if (text.front() == '[') {
          result_ = Result::array;
        } else if (const auto x = item(text)) {
          result_ = Result::single;
          items_.add(*x);
        } else {
          result_ = Result::not_item;
          found_ = found_of(text);
        }
        return;
      case Role::item:
        if (const auto x = item(text)) {
          items_.add(*x);
        } else if (!bad_item_) {
          bad_item_ =
              AnswerFault{.kind = Kind::item_not_item, .index = index_, .found = found_of(text)};
        }
        ++index_;
        return;
      case Role::answer:
      case Role::other: return;
    }
  }

  // What a value is as an item: a number, null (nullopt inside), or none.
  std::optional<std::optional<double>> item(std::string_view text) const {
    if (text == "null") return std::optional<double>();
    if (text.front() == '"') {
      if (const auto x = non_finite(text)) return x;
      return std::nullopt;
    }
    if (text.front() == '-' || (text.front() >= '0' && text.front() <= '9')) {
      return std::optional<double>(number_);
    }
    return std::nullopt;
  }

  std::string_view line_;
  ResultItems& items_;
  std::size_t at_ = 0;
  std::size_t values_ = 0;
  double number_ = 0.0;  // the last number read
  std::optional<AnswerFault> fault_;

  bool object_ = false;
  std::optional<std::string_view> id_;     // its text
  std::optional<bool> ok_;                 // when a boolean
  std::optional<std::string_view> error_;  // when a string: its token
  Result result_ = Result::none;
  std::string found_;  // a result that is no item
  std::size_t index_ = 0;
  std::optional<AnswerFault> bad_item_;  // the result array's first
};

}  // namespace

std::string describe(const AnswerFault& fault) {
  const std::string at = std::to_string(fault.byte);
  switch (fault.kind) {
    case Kind::nul_byte: return "holds a NUL byte at byte " + at;
    case Kind::not_ascii:
      return "holds a byte that is not ASCII, at byte " + at + " (answers escape it as \\uXXXX)";
    case Kind::not_json: return "not JSON, at byte " + at;
    case Kind::beyond_binary64: return "a number beyond binary64, at byte " + at;
    case Kind::too_deep: return "nests deeper than any answer can";
    case Kind::string_too_long:
      return "holds a string of more than " + std::to_string(kMaxAnswerStringBytes) +
             " bytes, longer than any answer needs";
    case Kind::too_many_values:
      return "holds more than " + std::to_string(kMaxAnswerValues) +
             " JSON values, more than any answer can";
    case Kind::not_object: return "not a JSON object";
    case Kind::no_id: return "no \"id\"";
    case Kind::no_ok: return "no boolean \"ok\"";
    case Kind::no_result: return "\"ok\": true without \"result\"";
    case Kind::no_error: return "\"ok\": false without a string \"error\"";
    case Kind::result_not_item: return "result is " + fault.found + ", not a number, null or array";
    case Kind::item_not_item:
      return "result[" + std::to_string(fault.index) + "] is " + fault.found +
             ", not a number or null";
  }
  return "";
}

std::string not_an_answer(const AnswerFault& fault) {
  return "wrote a line that is not a protocol answer (" + describe(fault) + ")";
}

std::variant<Answer, AnswerFault> read_answer(std::string_view line, ResultItems* items) {
  Answer answer;
  OwnItems own(answer.items);
  ResultItems& into = items != nullptr ? *items : own;
  if (read_common_form(line, answer, into)) return answer;
  into.restart();
  Pass pass(line, into);
  if (std::optional<AnswerFault> fault = pass.read()) return *std::move(fault);
  return pass.answer(std::move(answer), items == nullptr);
}

}  // namespace acemq::conformance
