#include "conformance/protocol/answer.hpp"

#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>
#include <utility>
#include <variant>

#include "conformance/protocol/answer_reader.hpp"
#include "conformance/protocol/wire.hpp"

namespace acemq::conformance {
namespace {

using nlohmann::json;

bool same_bits(double a, double b) {
  if (std::isnan(a) && std::isnan(b)) return true;
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

std::optional<std::optional<double>> item(const json& value) {
  if (value.is_null()) return std::optional<double>{};
  const std::optional<double> number = wire_number(value);
  if (!number) return std::nullopt;
  return number;
}

bool read_result(const json& result, Answer& answer, std::string& why) {
  if (result.is_array()) {
    answer.is_array = true;
    for (const json& element : result) {
      const auto value = item(element);
      if (!value) {
        why = "result array holds " + element.dump() + ", not a number or null";
        return false;
      }
      answer.items.push_back(*value);
    }
    return true;
  }
  const auto value = item(result);
  if (!value) {
    why = "result is " + result.dump() + ", not a number, null or array";
    return false;
  }
  answer.items.push_back(*value);
  return true;
}

// A number of an id, as same_id reads it: an integer literal within int64 is
// held exactly; any other number is the double the JSON reader rounded its
// text to, once (nlohmann keeps an integer literal up to 2^64 - 1 as an
// unsigned, converted here with one correct rounding, and reads longer ones
// with strtod).
struct IdNumber {
  bool integer = false;
  std::int64_t whole = 0;
  double value = 0.0;
};

std::optional<IdNumber> id_number(const json& v) {
  switch (v.type()) {
    case json::value_t::number_integer: return IdNumber{true, v.get<std::int64_t>(), 0.0};
    case json::value_t::number_unsigned: {
      const auto u = v.get<std::uint64_t>();
      if (u <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
        return IdNumber{true, static_cast<std::int64_t>(u), 0.0};
      }
      return IdNumber{false, 0, static_cast<double>(u)};
    }
    case json::value_t::number_float: return IdNumber{false, 0, v.get<double>()};
    default: return std::nullopt;
  }
}

// An integer and a double are equal when the double is that integer exactly:
// integral and within [-2^63, 2^63), where the cast back is exact.
bool exactly(std::int64_t whole, double value) {
  return value >= -0x1p63 && value < 0x1p63 && std::trunc(value) == value &&
         static_cast<std::int64_t>(value) == whole;
}

bool same_number(const IdNumber& a, const IdNumber& b) {
  if (a.integer && b.integer) return a.whole == b.whole;
  if (a.integer) return exactly(a.whole, b.value);
  if (b.integer) return exactly(b.whole, a.value);
  return a.value == b.value;  // -0.0 == 0.0; an id is never NaN (the wire has no bare NaN)
}

double as_double(const IdNumber& n) { return n.integer ? static_cast<double>(n.whole) : n.value; }

std::string shape(const Answer& a) {
  if (!a.ok) return "an error (" + a.error + ")";
  if (a.is_array) return "an array of " + std::to_string(a.items.size());
  return a.items[0] ? "the number " + format_number(*a.items[0]) : "null";
}

std::string show(const std::optional<double>& value) {
  return value ? describe_bits(*value) : "null";
}

}  // namespace

std::string describe_bits(double value) {
  char hex[24];
  std::snprintf(hex, sizeof hex, "0x%016llx",
                static_cast<unsigned long long>(std::bit_cast<std::uint64_t>(value)));
  return format_number(value) + " (" + hex + ")";
}

std::optional<Answer> parse_answer(std::string_view line, std::string& why) {
  std::variant<Answer, AnswerFault> read = read_answer(line);
  if (const auto* fault = std::get_if<AnswerFault>(&read)) {
    why = describe(*fault);
    return std::nullopt;
  }
  return std::get<Answer>(std::move(read));
}

std::string format_result(const Answer& answer) {
  std::string out;
  const auto item = [&](const std::optional<double>& value) {
    if (value) {
      append_number(out, *value);
    } else {
      out += "null";
    }
  };
  if (!answer.is_array) {
    item(answer.items.empty() ? std::nullopt : answer.items.front());
    return out;
  }
  out.reserve(answer.items.size() * 20 + 2);
  out.push_back('[');
  for (std::size_t i = 0; i < answer.items.size(); ++i) {
    if (i > 0) out.push_back(',');
    item(answer.items[i]);
  }
  out.push_back(']');
  return out;
}

std::string format_answer(const Answer& answer) {
  std::string out = "{\"id\":";
  append_json(out, answer.id);
  if (answer.ok) {
    out += ",\"ok\":true,\"result\":";
    out += format_result(answer);
  } else {
    out += ",\"ok\":false,\"error\":";
    append_json_string(out, answer.error);
  }
  out.push_back('}');
  return out;
}

std::optional<Answer> expected_answer(const json& vector_line) {
  Answer answer;
  if (const auto id = vector_line.find("id"); id != vector_line.end()) answer.id = *id;
  if (const auto error = vector_line.find("expect_error"); error != vector_line.end()) {
    answer.ok = false;
    answer.error = error->is_string() ? error->get<std::string>() : error->dump();
    return answer;
  }
  const auto expect = vector_line.find("expect");
  if (expect == vector_line.end()) return std::nullopt;
  answer.ok = true;
  std::string why;
  if (!read_result(*expect, answer, why)) return std::nullopt;
  return answer;
}

bool same_id(const json& sent, const json& echoed) {
  if (const auto a = id_number(sent)) {
    const auto b = id_number(echoed);
    return b && same_number(*a, *b);
  }
  if (sent.is_array()) {
    if (!echoed.is_array() || echoed.size() != sent.size()) return false;
    for (std::size_t i = 0; i < sent.size(); ++i) {
      if (!same_id(sent[i], echoed[i])) return false;
    }
    return true;
  }
  if (sent.is_object()) {
    if (!echoed.is_object() || echoed.size() != sent.size()) return false;
    for (const auto& [key, value] : sent.items()) {
      const auto it = echoed.find(key);
      if (it == echoed.end() || !same_id(value, *it)) return false;
    }
    return true;
  }
  return sent == echoed;  // strings, booleans, null: nlohmann compares them as themselves
}

bool same_as_doubles(const json& sent, const json& echoed) {
  const auto a = id_number(sent);
  const auto b = id_number(echoed);
  return a && b && as_double(*a) == as_double(*b);
}

std::optional<std::string> difference(const Answer& expected, const Answer& actual) {
  if (expected.ok != actual.ok || expected.is_array != actual.is_array ||
      expected.items.size() != actual.items.size()) {
    if (expected.ok && actual.ok && expected.is_array && actual.is_array) {
      return "result: expected " + std::to_string(expected.items.size()) + " entries, got " +
             std::to_string(actual.items.size());
    }
    return "expected " + shape(expected) + ", got " + shape(actual);
  }
  if (!expected.ok) return std::nullopt;
  for (std::size_t i = 0; i < expected.items.size(); ++i) {
    const auto& e = expected.items[i];
    const auto& a = actual.items[i];
    const bool same = (!e && !a) || (e && a && same_bits(*e, *a));
    if (!same) {
      const std::string where = expected.is_array ? "result[" + std::to_string(i) + "]" : "result";
      return where + ": expected " + show(e) + ", got " + show(a);
    }
  }
  return std::nullopt;
}

}  // namespace acemq::conformance
