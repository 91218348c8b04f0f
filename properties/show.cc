#include "properties/show.hpp"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>

namespace acemq::props {

std::string shortest(double value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

std::string describe(double value) {
  std::string text = shortest(value);
  // Eight characters covers "0.001", "1e+300" and "3600": values a reader
  // can trust at a glance. Longer mantissas are where two values that look
  // alike differ, and a sign bit is what tells -0 from 0 in a diff, so the
  // bits settle it.
  const bool telling = (value == 0.0 && std::signbit(value)) || std::isnan(value) ||
                       std::isinf(value) || std::fpclassify(value) == FP_SUBNORMAL ||
                       text.size() > 8;
  if (telling) {
    char hex[24];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(bits_of(value)));
    text.append(" [0x").append(hex).append("]");
  }
  return text;
}

std::string describe(const Options& o) {
  std::string text = "{.max_attempts = " + std::to_string(o.max_attempts);
  text += ", .initial_delay = " + describe(o.initial_delay.count());
  text += ", .multiplier = " + describe(o.multiplier);
  text += ", .max_delay = " + describe(o.max_delay.count());
  text += ", .jitter_factor = " + describe(o.jitter_factor);
  text += ", .max_message_age = " + describe(o.max_message_age.count());
  return text + "}";
}

}  // namespace acemq::props
