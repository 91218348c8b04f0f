// retry-policy: look at a policy's schedule, and check ports against the core.
//
//   retry-policy schedule [--exponential|--fixed|--none] [--max-attempts N] ...
//   retry-policy serve                    answer the protocol on stdin/stdout
//   retry-policy check --impl "<command>" compare a port's adapter, bit for bit
//   retry-policy vectors --cases N        write requests with the core's answers
//
// Usage errors exit 2 with a message on stderr (CLI11's own codes are mapped,
// since they run from 100 upwards).
#include <unistd.h>

#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "case_generator.hpp"
#include "check.hpp"
#include "line_reader.hpp"
#include "protocol.hpp"
#include "schedule_table.hpp"
#include "wire.hpp"

namespace {

using acemq::amqp::RetryPolicy;
using acemq::amqp::Seconds;
namespace conf = acemq::conformance;

constexpr int kUsage = 2;

// Thrown for a bad value CLI11 cannot see (a number it would round twice).
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

double decimal_flag(const std::string& flag, const std::string& text) {
  const std::optional<double> value = conf::parse_decimal(text);
  if (!value) throw UsageError(flag + ": not a number: " + text);
  return *value;
}

std::uint64_t random_seed() {
  std::random_device device;
  return (static_cast<std::uint64_t>(device()) << 32U) | device();
}

struct ScheduleFlags {
  std::int64_t max_attempts = 1;
  std::string initial_delay = "0";
  std::string multiplier = "2";
  std::string max_delay = "0";
  std::string jitter_factor = "0";
  std::string max_message_age = "0";
  bool exponential = false;
  bool fixed = false;
  bool none = false;
  bool json = false;
};

RetryPolicy policy_from_flags(const ScheduleFlags& f, const CLI::App& command) {
  const auto given = [&](const char* name) { return command.count(name) > 0; };
  const double initial = decimal_flag("--initial-delay", f.initial_delay);
  const double cap = decimal_flag("--max-delay", f.max_delay);
  RetryPolicy policy;
  if (f.exponential) {
    policy = RetryPolicy::exponential(f.max_attempts, Seconds{initial}, Seconds{cap});
  } else if (f.fixed) {
    policy = RetryPolicy::fixed(f.max_attempts, Seconds{initial});
  } else if (f.none) {
    policy = RetryPolicy::none();
  } else {
    policy = RetryPolicy(RetryPolicy::Options{
        .max_attempts = f.max_attempts,
        .initial_delay = Seconds{initial},
        .multiplier = decimal_flag("--multiplier", f.multiplier),
        .max_delay = Seconds{cap},
        .jitter_factor = decimal_flag("--jitter-factor", f.jitter_factor),
        .max_message_age = Seconds{decimal_flag("--max-message-age", f.max_message_age)}});
    return policy;
  }
  // The factories take the rest through the reference's copies.
  if (given("--max-message-age")) {
    policy = policy.give_up_after(Seconds{decimal_flag("--max-message-age", f.max_message_age)});
  }
  if (given("--jitter-factor")) {
    policy = policy.with_jitter(decimal_flag("--jitter-factor", f.jitter_factor));
  }
  return policy;
}

int run_schedule(const ScheduleFlags& flags, const CLI::App& command) {
  try {
    const RetryPolicy policy = policy_from_flags(flags, command);
    std::cout << (flags.json ? conf::schedule_json(policy) + "\n" : conf::schedule_table(policy));
    return 0;
  } catch (const UsageError& e) {
    std::cerr << "retry-policy schedule: " << e.what() << "\n";
  } catch (const std::invalid_argument& e) {
    std::cerr << "retry-policy schedule: " << e.what() << "\n";
  } catch (const std::length_error& e) {
    std::cerr << "retry-policy schedule: " << e.what() << "\n";
  }
  return kUsage;
}

int run_serve() {
  // A reader that goes away is the end of the conversation, not a crash.
  std::signal(SIGPIPE, SIG_IGN);
  conf::LineReader reader(STDIN_FILENO, conf::kMaxLineBytes);
  std::string line;
  std::size_t dropped = 0;
  for (;;) {
    const conf::LineReader::Status status = reader.next(line, dropped);
    std::string answer;
    if (status == conf::LineReader::Status::line) {
      answer = conf::answer_line(line);
    } else if (status == conf::LineReader::Status::too_long) {
      answer = conf::line_too_long_answer(dropped);
    } else {
      return status == conf::LineReader::Status::end ? 0 : 1;
    }
    answer.push_back('\n');
    if (std::fwrite(answer.data(), 1, answer.size(), stdout) != answer.size() ||
        std::fflush(stdout) != 0) {
      return 1;
    }
  }
}

// The directory `check` takes its vectors from when --vectors is not given:
// share/acemq_retry/vectors beside the executable's bin/ (installed), or the
// same place in the build tree, where CMake links it to the source vectors.
std::filesystem::path default_vector_directory() {
  std::error_code error;
  const std::filesystem::path executable = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) throw UsageError("cannot find this executable (/proc/self/exe): " + error.message());
  return (executable.parent_path() / ACEMQ_VECTORS_FROM_EXECUTABLE).lexically_normal();
}

// Every *.jsonl file in `directory`, sorted; empty when there are none.
std::vector<std::string> vector_files_in(const std::filesystem::path& directory) {
  std::vector<std::string> files;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
    if (entry.path().extension() == ".jsonl") files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The vector files to send: each --vectors argument (a file, or a directory
// meaning its *.jsonl files), or the default directory's. Finding none is a
// usage error that says where it looked: a check that silently sent no
// vectors would pass a port the vectors would have failed.
std::vector<std::string> vector_files(const std::vector<std::string>& given) {
  if (given.empty()) {
    const std::filesystem::path directory = default_vector_directory();
    std::vector<std::string> files = vector_files_in(directory);
    if (files.empty()) {
      throw UsageError("no vector files (*.jsonl) in " + directory.string() +
                       ", the place this executable looks for them (" ACEMQ_VECTORS_FROM_EXECUTABLE
                       " from its own directory); pass --vectors FILE or DIR, or --no-vectors "
                       "to send generated cases only");
    }
    return files;
  }
  std::vector<std::string> files;
  for (const std::string& path : given) {
    if (!std::filesystem::is_directory(path)) {
      files.push_back(path);  // a file that cannot be read is reported by check
      continue;
    }
    const std::vector<std::string> found = vector_files_in(path);
    if (found.empty()) throw UsageError("--vectors: no *.jsonl files in directory " + path);
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

int run_vectors(std::int64_t cases, std::optional<std::uint64_t> seed, bool reference) {
  const std::uint64_t s = seed ? *seed : random_seed();
  std::cerr << "retry-policy vectors: " << cases << " cases, seed " << s << "\n";
  conf::CaseGenerator generator(s, reference ? conf::Profile::reference : conf::Profile::full);
  std::int64_t written = 0;
  for (std::int64_t id = 1; written < cases; ++id) {
    const conf::GeneratedCase generated = generator.next(id);
    // A vector is a request object with its answer added; a line that is
    // not an object cannot carry one.
    if (generated.kind == "malformed line") continue;
    nlohmann::ordered_json vector = nlohmann::ordered_json::parse(generated.line);
    if (!vector.is_object()) continue;
    const nlohmann::ordered_json answer =
        nlohmann::ordered_json::parse(conf::answer_line(generated.line));
    if (answer["ok"].get<bool>()) {
      vector["expect"] = answer["result"];
    } else {
      vector["expect_error"] = answer["error"];
    }
    std::cout << conf::to_line(vector) << "\n";
    ++written;
  }
  return std::cout.flush() ? 0 : 1;
}

int run(int argc, char** argv) {
  CLI::App app{
      "retry-policy: the AceMQ retry policy's schedules, and the conformance "
      "protocol that checks other ports against this one bit for bit"};
  app.require_subcommand(1);

  ScheduleFlags schedule;
  CLI::App* schedule_command =
      app.add_subcommand("schedule", "Print a policy's delays, jitter ranges and cumulative waits");
  schedule_command->add_option("--max-attempts", schedule.max_attempts,
                               "total deliveries including the first (default 1)");
  CLI::Option* initial = schedule_command->add_option(
      "--initial-delay,--delay", schedule.initial_delay, "seconds before the second attempt (0)");
  CLI::Option* multiplier = schedule_command->add_option(
      "--multiplier", schedule.multiplier, "what the delay is multiplied by each time (2)");
  CLI::Option* cap = schedule_command->add_option("--max-delay", schedule.max_delay,
                                                  "the ceiling in seconds, or 0 for none (0)");
  schedule_command->add_option("--jitter-factor", schedule.jitter_factor,
                               "how far a delay may move either side, 0 to 1 (0)");
  schedule_command->add_option("--max-message-age", schedule.max_message_age,
                               "give up on anything older, or 0 for never (0)");
  CLI::Option* exponential = schedule_command->add_flag(
      "--exponential", schedule.exponential,
      "exponential(max_attempts, initial_delay, max_delay): doubling, 20% jitter");
  CLI::Option* fixed = schedule_command->add_flag(
      "--fixed", schedule.fixed, "fixed(max_attempts, delay): the same wait, no jitter");
  CLI::Option* none =
      schedule_command->add_flag("--none", schedule.none, "none(): one delivery, no second chance");
  schedule_command->add_flag("--json", schedule.json, "print JSON for machines");
  exponential->excludes(fixed)->excludes(none)->excludes(multiplier);
  fixed->excludes(none)->excludes(multiplier)->excludes(cap);
  none->excludes(initial)->excludes(multiplier)->excludes(cap)->excludes("--max-attempts");

  app.add_subcommand("serve",
                     "Answer the protocol: one JSON request a line on stdin, one answer a "
                     "line on stdout, until end of input");

  conf::CheckOptions check;
  std::optional<std::uint64_t> check_seed;
  std::vector<std::string> check_vectors;
  bool no_vectors = false;
  bool reference_profile = false;
  std::string timeout_seconds = "10";
  CLI::App* check_command = app.add_subcommand(
      "check",
      "Compare a port's adapter with the C++ core, bit for bit. Exit 0: all agree; "
      "1: an answer differs; 2: usage error, or the adapter died or misbehaved");
  check_command
      ->add_option("--impl", check.command, "the adapter, a shell command speaking the protocol")
      ->required();
  check_command->add_option("--cases", check.cases, "generated requests (default 5000)")
      ->check(CLI::NonNegativeNumber);
  check_command->add_option("--seed", check_seed, "generator seed (default: random, printed)");
  check_command->add_option("--vectors", check_vectors,
                            "vector files to send first (default: every .jsonl in the "
                            "repository's conformance/vectors)");
  check_command->add_flag("--no-vectors", no_vectors, "send no vector files");
  check_command->add_flag(
      "--reference-profile,--valid-only", reference_profile,
      "send only valid requests on which the contract and the Ruby reference agree "
      "(for checking the reference itself, which does not validate)");
  check_command->add_option("--timeout", timeout_seconds,
                            "seconds to wait for each answer (default 10)");
  check_command
      ->add_option("--show", check.shrink_shown,
                   "mismatches to shrink and show in full (default 3)")
      ->check(CLI::NonNegativeNumber);

  std::int64_t vector_cases = 1000;
  std::optional<std::uint64_t> vector_seed;
  bool vector_reference = false;
  CLI::App* vectors_command = app.add_subcommand(
      "vectors", "Write generated requests, each with the C++ core's answer, as JSON lines");
  vectors_command->add_option("--cases", vector_cases, "how many (default 1000)")
      ->check(CLI::NonNegativeNumber);
  vectors_command->add_option("--seed", vector_seed, "generator seed (default: random)");
  vectors_command->add_flag("--reference-profile,--valid-only", vector_reference,
                            "only requests the Ruby reference answers the same way");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : kUsage;
  }

  try {
    if (*schedule_command) return run_schedule(schedule, *schedule_command);
    if (app.got_subcommand("serve")) return run_serve();
    if (*vectors_command) return run_vectors(vector_cases, vector_seed, vector_reference);
    if (*check_command) {
      const std::optional<double> timeout = conf::parse_decimal(timeout_seconds);
      if (!timeout || !(*timeout > 0.0) || *timeout > 86400.0) {
        std::cerr << "retry-policy check: --timeout must be seconds in (0, 86400], got "
                  << timeout_seconds << "\n";
        return kUsage;
      }
      check.timeout = std::chrono::milliseconds(std::llround(*timeout * 1000.0));
      check.seed = check_seed ? *check_seed : random_seed();
      check.vectors = no_vectors ? std::vector<std::string>{} : vector_files(check_vectors);
      check.profile = reference_profile ? conf::Profile::reference : conf::Profile::full;
      return conf::run_check(check, std::cout);
    }
  } catch (const std::exception& e) {
    std::cerr << "retry-policy: " << e.what() << "\n";
    return kUsage;
  }
  return kUsage;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "retry-policy: %s\n", e.what());
  } catch (...) {
    std::fputs("retry-policy: unknown error\n", stderr);
  }
  return kUsage;
}
