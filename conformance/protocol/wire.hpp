// Wire form of the conformance protocol's values: numbers and JSON lines.
//
// A number on the wire is an IEEE-754 binary64 value. Finite values are
// written in shortest round-trip form (std::to_chars), with ".0" added to an
// integral value so it reads as a float (the reference writes 1.0, not 1);
// non-finite values are the strings "Infinity", "-Infinity" and "NaN", in
// both directions. Readers take any JSON number, correctly rounded, and
// compare values as bits, never text.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace acemq::conformance {

// Appends `value` in wire form: 0.5, 1.0, 1e-09, -0.0, "Infinity", "NaN".
void append_number(std::string& out, double value);
std::string format_number(double value);

// "Infinity", "-Infinity" or "NaN" (without quotes) as its double, or nullopt.
std::optional<double> non_finite_number(std::string_view text);

// A JSON value read as a wire number: any JSON number (an integer converts
// with one correct rounding) or one of the three non-finite strings. Anything
// else, booleans included, is nullopt. For nlohmann::json and ordered_json.
template <typename Json>
std::optional<double> wire_number(const Json& value) {
  switch (value.type()) {
    case Json::value_t::number_float: return value.template get<double>();
    case Json::value_t::number_integer:
      return static_cast<double>(value.template get<std::int64_t>());
    case Json::value_t::number_unsigned:
      return static_cast<double>(value.template get<std::uint64_t>());
    case Json::value_t::string:
      return non_finite_number(value.template get_ref<const std::string&>());
    default: return std::nullopt;
  }
}

// The same, read straight from the text of one value in an answer: a JSON
// number literal (RFC 8259's grammar, nothing more: no '+', no "1.", no
// "inf") correctly rounded, or "Infinity", "-Infinity", "NaN" with their
// quotes. For reading long arrays without building a JSON tree.
std::optional<double> wire_number_text(std::string_view text);

// A number typed by a person (command-line flags): decimal text, correctly
// rounded (std::from_chars, never strtold then a cast, which rounds twice), or
// Infinity/-Infinity/NaN. The whole text must be the number. Read as a JSON
// number is: underflow is fine (1e-400 is 0), overflow is out of range.
struct Decimal {
  std::optional<double> value;
  bool out_of_range = false;  // a number beyond binary64's largest, 1e400
};
Decimal read_decimal(std::string_view text);
std::optional<double> parse_decimal(std::string_view text);

// A whole number typed by a person: digits, an optional sign, within int64.
struct Integer {
  std::optional<std::int64_t> value;
  bool out_of_range = false;  // digits beyond int64
};
Integer read_integer(std::string_view text);

// Writes any nlohmann value on one line, with floats in wire form (nlohmann's
// own dump uses Grisu2, which round-trips but is not always shortest) and
// invalid UTF-8 replaced rather than thrown about.
template <typename Json>
void append_json(std::string& out, const Json& value);

template <typename Json>
std::string to_line(const Json& value) {
  std::string out;
  append_json(out, value);
  return out;
}

// What raw JSON text holds, counted on its bytes before any parser sees
// them: how deep arrays and objects nest (brackets in strings skipped), so
// no JSON walk (parse, copy, destroy, dump) recurses deeper; and the longest
// string literal as written, since a JSON reader accumulates a whole string
// (and its growing copies) before it can say anything about it.
struct JsonTextShape {
  int depth = 0;
  std::size_t longest_string = 0;  // bytes, the closing quote included
};
JsonTextShape shape_of(std::string_view text);

// Whether arrays and objects in JSON text nest at most `max_depth` deep.
bool nesting_within(std::string_view text, int max_depth);

// The text of a JSON object with the named top-level members left out and
// every other member kept byte for byte (a vector line without its
// "expect", as the port is to read it: "-0" and "1e5" stay as written,
// where a parse and dump would make them 0 and 100000.0). Keys are matched
// as written. nullopt when the text is not one JSON object.
std::optional<std::string> without_members(std::string_view object,
                                           std::span<const std::string_view> names);

// The text of a JSON object (one, as to_line writes it) with one member
// added at its end, its value already JSON text: a request line becomes a
// vector line without a parse that would rewrite its numbers.
std::string with_member(std::string_view object, std::string_view key, std::string_view value);

// JSON text of `value` cut to about `max` bytes, for reports: what an
// adapter wrote is shown, never copied whole, so a 52 MB id costs a report
// `max` bytes, not a second copy of itself.
std::string clipped_json(const nlohmann::json& value, std::size_t max);

// Escapes a string as ASCII JSON; invalid UTF-8 becomes U+FFFD instead of
// throwing.
void append_json_string(std::string& out, std::string_view text);

template <typename Json>
void append_json(std::string& out, const Json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::object: {
      out.push_back('{');
      bool first = true;
      for (const auto& [key, member] : value.items()) {
        if (!first) out.push_back(',');
        first = false;
        append_json_string(out, key);
        out.push_back(':');
        append_json(out, member);
      }
      out.push_back('}');
      return;
    }
    case nlohmann::json::value_t::array: {
      out.push_back('[');
      bool first = true;
      for (const auto& element : value) {
        if (!first) out.push_back(',');
        first = false;
        append_json(out, element);
      }
      out.push_back(']');
      return;
    }
    case nlohmann::json::value_t::string:
      append_json_string(out, value.template get_ref<const std::string&>());
      return;
    case nlohmann::json::value_t::number_float:
      append_number(out, value.template get<double>());
      return;
    default:
      // null, booleans and integers: nlohmann's text is already exact.
      out += value.dump();
      return;
  }
}

}  // namespace acemq::conformance
