#include "conformance/port_stats/answer_reader.hpp"

#include <optional>

#include "conformance/port_stats/echo.hpp"
#include "conformance/protocol/limits.hpp"
#include "conformance/protocol/wire.hpp"

namespace acemq::conformance {
namespace {

// The reader behind read_sample_answer, in one pass over the line's
// bytes, into `out`, with no JSON tree and no copy of any string: an answer
// can be 64 MiB of `[{},{},...]` (a tree of gigabytes) or one 63 MB error
// string (which a parser's token buffer would copy, twice while it grows).
// It checks the JSON grammar (RFC 8259) as it goes, keeps what the messages
// need (the id, ok, the error, the result's count, its first null or
// non-number) as views of the line, clipped when echoed, and stops at the
// first thing that makes the answer unusable.
class AnswerReader {
 public:
  // `answered`: how many sample answers the adapter gave before this one;
  // an error after some is a cell it cannot draw, not a missing op.
  AnswerReader(std::int64_t id, std::span<double> out, std::uint64_t answered = 0)
      : id_(id), answered_(answered), out_(out) {}

  // Empty when the line is a usable answer of out.size() draws (now in
  // out); otherwise what is wrong, in words for "the adapter <what>".
  std::string read(std::string_view line) {
    text_ = line;
    if (const std::size_t nul = line.find('\0'); nul != std::string_view::npos) {
      return not_answer("holds a NUL byte at byte " + std::to_string(nul + 1));
    }
    // An answer nests one level deeper than the id it echoes, which nests at
    // most kMaxDepth; this bounds the recursion below.
    if (!nesting_within(line, kMaxDepth + 1)) return not_answer("nests deeper than any answer can");
    skip_space();
    if (at_ >= text_.size()) return not_answer("not JSON, at byte " + std::to_string(at_ + 1));
    if (text_[at_] != '{') return not_answer("not a JSON object");
    if (!top_level()) return stop_.empty() ? not_answer("not JSON") : stop_;
    skip_space();
    if (at_ != text_.size()) return not_answer("not JSON, at byte " + std::to_string(at_ + 1));
    if (!has_id_) return not_answer("no \"id\"");
    if (!ok_) return not_answer("no boolean \"ok\"");
    if (!id_matches_) {
      return "answered id " + clip(id_text_) + " to a request with id " + std::to_string(id_);
    }
    if (!*ok_) {
      if (!error_) return not_answer("\"ok\": false without a string \"error\"");
      if (answered_ > 0) {
        return "answered with an error, after " + std::to_string(answered_) +
               " sample answers it drew: " + clip(*error_);
      }
      return "answered with an error (does it implement the sample op?): " + clip(*error_);
    }
    if (!result_) return not_answer("\"ok\": true without \"result\"");
    if (*result_ == '{') return not_answer("result is an object, not a number, null or array");
    if (*result_ != '[') return "answered a single value to a request for " + count_text();
    if (items_ != out_.size()) {
      return "answered " +
             (items_ == 1 ? std::string("1 draw") : std::to_string(items_) + " draws") +
             " to a request for " + count_text();
    }
    if (first_null_) {
      // A give-up here is wrong arithmetic, which `check` is for; this can
      // only say the answer is unusable.
      return "answered null (give up) at draw " + std::to_string(*first_null_) +
             ", on a call that must be jittered";
    }
    return "";
  }

 private:
  std::string not_answer(const std::string& why) const {
    return "wrote a line that is not a protocol answer (" + why + ")";
  }
  std::string count_text() const { return std::to_string(out_.size()); }
  bool fail(std::string why) {
    if (stop_.empty()) stop_ = std::move(why);
    return false;
  }
  bool syntax() { return fail(not_answer("not JSON, at byte " + std::to_string(at_ + 1))); }

  void skip_space() {
    while (at_ < text_.size() &&
           (text_[at_] == ' ' || text_[at_] == '\t' || text_[at_] == '\n' || text_[at_] == '\r')) {
      ++at_;
    }
  }
  bool next_is(char c) {
    skip_space();
    if (at_ < text_.size() && text_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }

  // A string at at_ (its opening quote); `inside` is its text, escapes as
  // written.
  bool string(std::string_view& inside) {
    if (at_ >= text_.size() || text_[at_] != '"') return syntax();
    const std::size_t begin = ++at_;
    while (at_ < text_.size()) {
      const auto c = static_cast<unsigned char>(text_[at_]);
      if (c == '"') {
        inside = text_.substr(begin, at_ - begin);
        ++at_;
        return true;
      }
      if (c < 0x20) return syntax();
      if (c == '\\') {
        if (++at_ >= text_.size()) return syntax();
        const char e = text_[at_];
        if (e == 'u') {
          for (int k = 0; k < 4; ++k) {
            if (++at_ >= text_.size() || !std::isxdigit(static_cast<unsigned char>(text_[at_]))) {
              return syntax();
            }
          }
        } else if (std::string_view("\"\\/bfnrt").find(e) == std::string_view::npos) {
          return syntax();
        }
      }
      ++at_;
    }
    return syntax();
  }

  // A number at at_, by the JSON grammar; `literal` is its text.
  bool number(std::string_view& literal) {
    const std::size_t begin = at_;
    const auto digits = [&] {
      const std::size_t from = at_;
      while (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9') ++at_;
      return at_ > from;
    };
    if (at_ < text_.size() && text_[at_] == '-') ++at_;
    if (at_ < text_.size() && text_[at_] == '0') {
      ++at_;
    } else if (!digits()) {
      return syntax();
    }
    if (at_ < text_.size() && text_[at_] == '.') {
      ++at_;
      if (!digits()) return syntax();
    }
    if (at_ < text_.size() && (text_[at_] == 'e' || text_[at_] == 'E')) {
      ++at_;
      if (at_ < text_.size() && (text_[at_] == '+' || text_[at_] == '-')) ++at_;
      if (!digits()) return syntax();
    }
    literal = text_.substr(begin, at_ - begin);
    return true;
  }

  // Any value at at_, its extent in `extent`; `item` is set when it is an
  // item of the result array, whose numbers go to out.
  bool value(std::string_view& extent, bool item = false) {
    skip_space();
    if (at_ >= text_.size()) return syntax();
    const std::size_t begin = at_;
    const char c = text_[at_];
    if (c == '{' || c == '[') {
      if (item) {
        return fail(not_answer(std::string("result array holds ") +
                               (c == '{' ? "an object" : "an array") + " at draw " +
                               std::to_string(items_) + ", not a number or null"));
      }
      ++at_;
      const char close = c == '{' ? '}' : ']';
      if (!next_is(close)) {
        do {
          std::string_view ignored;
          if (c == '{') {
            skip_space();
            if (!string(ignored) || !next_is(':')) return syntax();
          }
          if (!value(ignored)) return false;
        } while (next_is(','));
        if (!next_is(close)) return syntax();
      }
    } else if (c == '"') {
      std::string_view inside;
      if (!string(inside)) return false;
      if (item) {
        const std::optional<double> x = non_finite_number(inside);
        if (!x) {
          return fail(not_answer("result array holds \"" + clip(inside) + "\" at draw " +
                                 std::to_string(items_) + ", not a number or null"));
        }
        return store(*x);
      }
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      std::string_view literal;
      if (!number(literal)) return false;
      if (item) {
        const std::optional<double> x = wire_number_text(literal);
        if (!x)
          return fail(not_answer("a number beyond binary64, at draw " + std::to_string(items_)));
        return store(*x);
      }
    } else {
      for (const std::string_view word : {"true", "false", "null"}) {
        if (text_.substr(at_, word.size()) == word) {
          at_ += word.size();
          extent = text_.substr(begin, at_ - begin);
          if (item && word != "null") {
            return fail(not_answer("result array holds " + std::string(word) + " at draw " +
                                   std::to_string(items_) + ", not a number or null"));
          }
          return item ? store(std::nullopt) : true;
        }
      }
      return syntax();
    }
    extent = text_.substr(begin, at_ - begin);
    return true;
  }

  bool store(std::optional<double> x) {
    if (items_ == out_.size()) {
      return fail("answered more than " + count_text() + " draws to a request for " + count_text());
    }
    if (x) {
      out_[items_] = *x;
    } else if (!first_null_) {
      first_null_ = items_;
    }
    ++items_;
    return true;
  }

  // The answer object: its members, the ones the protocol names read.
  bool top_level() {
    ++at_;  // '{'
    if (next_is('}')) return true;
    do {
      skip_space();
      std::string_view name;
      if (!string(name) || !next_is(':')) return syntax();
      skip_space();
      std::string_view extent;
      if (name == "result" && at_ < text_.size() && text_[at_] == '[') {
        // The draws, read into out as they come.
        result_ = '[';
        items_ = 0;
        first_null_.reset();
        ++at_;
        if (!next_is(']')) {
          do {
            std::string_view item;
            if (!value(item, true)) return false;
          } while (next_is(','));
          if (!next_is(']')) return syntax();
        }
        continue;
      }
      if (!value(extent)) return false;
      if (name == "id") {
        has_id_ = true;
        id_text_ = extent;
        id_matches_ = extent == std::to_string(id_);
      } else if (name == "ok") {
        ok_.reset();
        if (extent == "true" || extent == "false") ok_ = extent == "true";
      } else if (name == "error") {
        error_.reset();
        if (extent.front() == '"') error_ = extent.substr(1, extent.size() - 2);
      } else if (name == "result") {
        result_ = extent.front();
        items_ = 1;  // one value, not an array
      }
    } while (next_is(','));
    return next_is('}') || syntax();
  }

  const std::int64_t id_;
  const std::uint64_t answered_;
  const std::span<double> out_;
  std::string_view text_;
  std::size_t at_ = 0;
  bool has_id_ = false;
  bool id_matches_ = false;
  std::string_view id_text_;
  std::optional<bool> ok_;
  std::optional<std::string_view> error_;  // as written, escapes and all
  std::optional<char> result_;             // the first byte of the result
  std::size_t items_ = 0;
  std::optional<std::size_t> first_null_;
  std::string stop_;
};

}  // namespace

std::string read_sample_answer(std::string_view line, std::int64_t id, std::span<double> out,
                               std::uint64_t answered) {
  return AnswerReader(id, out, answered).read(line);
}

}  // namespace acemq::conformance
