// Flags: how retry-policy reads what a person types, and says what is wrong.
//
// Every value is read here, never by CLI11's converters: numbers with one
// correct rounding, as JSON numbers are (from_chars, never strtold then a
// cast, which rounds twice), whole numbers within int64, seconds within
// stated bounds. A bad value is a UsageError naming the flag and the text as
// typed; the command prints it as "retry-policy <command>: <flag>: <what is
// wrong>, got <text>" and exits 2.
#pragma once

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace CLI {
class App;
}  // namespace CLI

namespace acemq::conformance::cli {

inline constexpr int kUsageExit = 2;

// A usage error: "<flag>: <what is wrong>", printed after the command's name.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] void usage(std::string_view flag, std::string_view what);

double number_flag(std::string_view flag, const std::string& text);
std::int64_t integer_flag(std::string_view flag, const std::string& text);
// A whole number, 0 or more.
std::int64_t count_flag(std::string_view flag, const std::string& text);
// A generator seed: any 64-bit unsigned value.
std::uint64_t seed_flag(std::string_view flag, const std::string& text);
// Seconds to wait for each answer: at least kMinTimeoutSeconds (below it a
// healthy adapter would be blamed as hung by the scheduler's noise alone),
// at most a day.
inline constexpr double kMinTimeoutSeconds = 0.01;
std::chrono::milliseconds timeout_flag(std::string_view flag, const std::string& text);

// A default as a person would type it, from the options struct's own value,
// so that a flag's default and its help can never drift from the struct:
// 5000, 0.5, and a timeout in seconds (10).
std::string flag_text(std::int64_t value);
std::string flag_text(double value);
std::string flag_text(std::chrono::milliseconds value);

// A seed for a run that was given none, printed so it can be replayed.
std::uint64_t random_seed();

// Whether `flag` was given on `command`'s line.
bool given(const CLI::App& command, std::string_view flag);
// A flag that takes a value was given without one (or with an empty one):
// every option is declared to take zero or one value, so that this, not
// CLI11's own message, says so.
void require_value(const CLI::App& command, std::string_view flag, const std::string& value,
                   std::string_view what);

}  // namespace acemq::conformance::cli
