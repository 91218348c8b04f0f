#include "conformance/cli/flags.hpp"

#include <charconv>
#include <cmath>
#include <random>

#include <CLI/CLI.hpp>

#include "conformance/protocol/wire.hpp"

namespace acemq::conformance::cli {

void usage(std::string_view flag, std::string_view what) {
  throw UsageError(std::string(flag) + ": " + std::string(what));
}

double number_flag(std::string_view flag, const std::string& text) {
  const Decimal d = read_decimal(text);
  if (d.out_of_range) {
    usage(flag, "out of range: beyond binary64's largest, 1.7976931348623157e+308, got " + text);
  }
  if (!d.value) usage(flag, "not a number, got " + text);
  return *d.value;
}

std::int64_t integer_flag(std::string_view flag, const std::string& text) {
  const Integer i = read_integer(text);
  if (i.out_of_range) usage(flag, "out of range: beyond a 64-bit integer, got " + text);
  if (!i.value) usage(flag, "must be a whole number, got " + text);
  return *i.value;
}

std::int64_t count_flag(std::string_view flag, const std::string& text) {
  const std::int64_t n = integer_flag(flag, text);
  if (n < 0) usage(flag, "must be 0 or more, got " + text);
  return n;
}

std::uint64_t seed_flag(std::string_view flag, const std::string& text) {
  std::uint64_t seed = 0;
  const auto result = std::from_chars(text.data(), text.data() + text.size(), seed);
  if (text.empty() || result.ptr != text.data() + text.size() || result.ec != std::errc{}) {
    usage(flag, "must be a whole number in [0, 2^64 - 1], got " + text);
  }
  return seed;
}

std::chrono::milliseconds timeout_flag(std::string_view flag, const std::string& text) {
  const double timeout = number_flag(flag, text);
  if (!(timeout >= kMinTimeoutSeconds) || timeout > 86400.0) {
    usage(flag, "must be seconds in [0.01, 86400], got " + text);
  }
  return std::chrono::milliseconds(std::llround(timeout * 1000.0));
}

std::string flag_text(std::int64_t value) { return std::to_string(value); }

std::string flag_text(double value) {
  char text[32];
  const auto result = std::to_chars(text, text + sizeof text, value);
  return {text, result.ptr};
}

std::string flag_text(std::chrono::milliseconds value) {
  return flag_text(static_cast<double>(value.count()) / 1000.0);
}

std::uint64_t random_seed() {
  std::random_device device;
  return (static_cast<std::uint64_t>(device()) << 32U) | device();
}

bool given(const CLI::App& command, std::string_view flag) {
  return command.count(std::string(flag)) > 0;
}

void require_value(const CLI::App& command, std::string_view flag, const std::string& value,
                   std::string_view what) {
  if (given(command, flag) && value.empty()) usage(flag, "needs a value: " + std::string(what));
}

}  // namespace acemq::conformance::cli
