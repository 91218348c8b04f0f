#include "conformance/protocol/wire.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <system_error>

namespace acemq::conformance {

void append_number(std::string& out, double value) {
  if (std::isnan(value)) {
    out += "\"NaN\"";
    return;
  }
  if (std::isinf(value)) {
    out += value > 0 ? "\"Infinity\"" : "\"-Infinity\"";
    return;
  }
  // 24 characters is the longest shortest form: -2.2250738585072014e-308.
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  const std::string_view text(buffer, static_cast<std::size_t>(result.ptr - buffer));
  out += text;
  if (text.find_first_not_of("-0123456789") == std::string_view::npos) out += ".0";
}

std::string format_number(double value) {
  std::string out;
  append_number(out, value);
  return out;
}

std::optional<double> non_finite_number(std::string_view text) {
  if (text == "Infinity") return HUGE_VAL;
  if (text == "-Infinity") return -HUGE_VAL;
  if (text == "NaN") return std::nan("");
  return std::nullopt;
}

Decimal read_decimal(std::string_view text) {
  if (text == "Infinity" || text == "inf" || text == "+Infinity") return {HUGE_VAL};
  if (text == "-Infinity" || text == "-inf") return {-HUGE_VAL};
  if (text == "NaN" || text == "nan") return {std::nan("")};
  // from_chars takes no leading '+'; a person may type one.
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  if (text.empty()) return {};
  double value = 0.0;
  const auto result =
      std::from_chars(text.data(), text.data() + text.size(), value, std::chars_format::general);
  if (result.ptr != text.data() + text.size()) return {};
  if (result.ec == std::errc::result_out_of_range) {
    // from_chars says so for underflow too, and leaves no value; strtod,
    // correctly rounded in glibc and in the C locale here, tells them apart
    // and gives underflow its value (0, or a subnormal).
    const std::string copy(text);
    const double rounded = std::strtod(copy.c_str(), nullptr);
    if (std::isinf(rounded)) return {std::nullopt, true};
    return {rounded};
  }
  if (result.ec != std::errc{}) return {};
  // from_chars also reads "inf" and "nan" spellings; keep only finite ones
  // from the digits path so "infinity" typed by mistake is not a number.
  if (!std::isfinite(value)) return {};
  return {value};
}

std::optional<double> parse_decimal(std::string_view text) { return read_decimal(text).value; }

std::optional<double> wire_number_text(std::string_view text) {
  if (text == "\"Infinity\"") return std::numeric_limits<double>::infinity();
  if (text == "\"-Infinity\"") return -std::numeric_limits<double>::infinity();
  if (text == "\"NaN\"") return std::numeric_limits<double>::quiet_NaN();
  // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, then one correct rounding.
  std::size_t i = 0;
  const auto digits = [&] {
    const std::size_t from = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    return i - from;
  };
  if (i < text.size() && text[i] == '-') ++i;
  if (i < text.size() && text[i] == '0') {
    ++i;
  } else if (digits() == 0) {
    return std::nullopt;
  }
  if (i < text.size() && text[i] == '.') {
    ++i;
    if (digits() == 0) return std::nullopt;
  }
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (digits() == 0) return std::nullopt;
  }
  if (i != text.size()) return std::nullopt;
  // An integer literal is an integer, as wire_number reads one: -0 is 0.
  if (text == "-0") return 0.0;
  // Overflow is malformed on the wire (a JSON reader refuses 1e400 too), so
  // out of range is nullopt; underflow reads as 0 or a subnormal.
  return read_decimal(text).value;
}

Integer read_integer(std::string_view text) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  std::int64_t value = 0;
  const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || result.ptr != text.data() + text.size()) return {};
  if (result.ec == std::errc::result_out_of_range) return {std::nullopt, true};
  if (result.ec != std::errc{}) return {};
  return {value};
}

void append_json_string(std::string& out, std::string_view text) {
  // ASCII out (\uXXXX escapes), so an answer line is ASCII whatever the
  // request held.
  out += nlohmann::json(std::string(text))
             .dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
}

}  // namespace acemq::conformance

namespace acemq::conformance {

JsonTextShape shape_of(std::string_view text) {
  JsonTextShape shape;
  int depth = 0;
  bool in_string = false;
  bool escaped = false;
  std::size_t length = 0;
  for (const char c : text) {
    if (in_string) {
      shape.longest_string = std::max(shape.longest_string, ++length);
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
      length = 0;
    } else if (c == '[' || c == '{') {
      shape.depth = std::max(shape.depth, ++depth);
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return shape;
}

bool nesting_within(std::string_view text, int max_depth) {
  return shape_of(text).depth <= max_depth;
}

namespace {

bool json_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::size_t skip_space(std::string_view text, std::size_t at) {
  while (at < text.size() && json_space(text[at])) ++at;
  return at;
}

// The end of the string that starts at `at` (a quote), past its closing
// quote; npos if it does not close.
std::size_t string_end(std::string_view text, std::size_t at) {
  for (std::size_t i = at + 1; i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
    } else if (text[i] == '"') {
      return i + 1;
    }
  }
  return std::string_view::npos;
}

// The end of the value that starts at `at`: a string, a bracketed value
// (strings inside skipped), or a literal up to the next , } or ].
std::size_t value_end(std::string_view text, std::size_t at) {
  if (at >= text.size()) return std::string_view::npos;
  if (text[at] == '"') return string_end(text, at);
  if (text[at] == '[' || text[at] == '{') {
    int depth = 0;
    for (std::size_t i = at; i < text.size(); ++i) {
      const char c = text[i];
      if (c == '"') {
        i = string_end(text, i);
        if (i == std::string_view::npos) return i;
        --i;
      } else if (c == '[' || c == '{') {
        ++depth;
      } else if ((c == ']' || c == '}') && --depth == 0) {
        return i + 1;
      }
    }
    return std::string_view::npos;
  }
  std::size_t i = at;
  while (i < text.size() && text[i] != ',' && text[i] != '}' && text[i] != ']' &&
         !json_space(text[i])) {
    ++i;
  }
  return i;
}

}  // namespace

namespace {

void append_clipped(std::string& out, const nlohmann::json& value, std::size_t max) {
  if (out.size() > max) return;
  if (value.is_string()) {
    const std::string& text = value.get_ref<const std::string&>();
    append_json_string(out, std::string_view(text).substr(0, max - out.size() + 1));
    return;
  }
  if (!value.is_structured()) {
    append_json(out, value);
    return;
  }
  const bool object = value.is_object();
  out.push_back(object ? '{' : '[');
  bool first = true;
  for (const auto& [key, member] : value.items()) {
    if (out.size() > max) return;
    if (!first) out.push_back(',');
    first = false;
    if (object) {
      append_json_string(out, std::string_view(key).substr(0, max));
      out.push_back(':');
    }
    append_clipped(out, member, max);
  }
  out.push_back(object ? '}' : ']');
}

}  // namespace

std::string clipped_json(const nlohmann::json& value, std::size_t max) {
  std::string out;
  append_clipped(out, value, max);
  if (out.size() > max) {
    out.resize(max);
    out += "... (clipped)";
  }
  return out;
}

std::string with_member(std::string_view object, std::string_view key, std::string_view value) {
  const std::size_t close = object.find_last_of('}');
  const std::string_view head = object.substr(0, close);
  const bool empty = head.find_last_not_of(" \t\r\n") == head.find('{');
  std::string out(head);
  if (!empty) out.push_back(',');
  append_json_string(out, key);
  out.push_back(':');
  out.append(value);
  out.push_back('}');
  return out;
}

std::optional<std::string> without_members(std::string_view object,
                                           std::span<const std::string_view> names) {
  std::size_t at = skip_space(object, 0);
  if (at >= object.size() || object[at] != '{') return std::nullopt;
  std::string out = "{";
  bool first = true;
  at = skip_space(object, at + 1);
  if (at < object.size() && object[at] == '}') {
    if (skip_space(object, at + 1) != object.size()) return std::nullopt;
    return std::string("{}");
  }
  for (;;) {
    if (at >= object.size() || object[at] != '"') return std::nullopt;
    const std::size_t key_end = string_end(object, at);
    if (key_end == std::string_view::npos) return std::nullopt;
    const std::string_view key = object.substr(at + 1, key_end - at - 2);
    const std::size_t colon = skip_space(object, key_end);
    if (colon >= object.size() || object[colon] != ':') return std::nullopt;
    const std::size_t value_at = skip_space(object, colon + 1);
    const std::size_t end = value_end(object, value_at);
    if (end == std::string_view::npos) return std::nullopt;
    if (std::find(names.begin(), names.end(), key) == names.end()) {
      if (!first) out.push_back(',');
      first = false;
      out.append(object.substr(at, end - at));
    }
    at = skip_space(object, end);
    if (at >= object.size()) return std::nullopt;
    if (object[at] == '}') break;
    if (object[at] != ',') return std::nullopt;
    at = skip_space(object, at + 1);
  }
  if (skip_space(object, at + 1) != object.size()) return std::nullopt;
  out.push_back('}');
  return out;
}

}  // namespace acemq::conformance
