// retry-policy: look at a policy's schedule, and check ports against the core.
//
//   retry-policy schedule [--exponential|--fixed|--none] [--max-attempts N] ...
//   retry-policy serve                    answer the protocol on stdin/stdout
//   retry-policy check --impl "<command>" compare a port's adapter, bit for bit
//   retry-policy vectors --cases N        write requests with the core's answers
//   retry-policy stats --impl "<command>" the statistics battery on a port's own jitter
//
// Usage errors exit 2 with one line on stderr in one style,
// "retry-policy <command>: <flag>: <what is wrong>, got <text>": every value
// is read here (numbers with one correct rounding, as JSON numbers are), so
// CLI11 only splits the command line, and its few errors are rephrased.
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "conformance/check/case_generator.hpp"
#include "conformance/check/check.hpp"
#include "conformance/cli/port_stats.hpp"
#include "conformance/cli/schedule_svg.hpp"
#include "conformance/cli/schedule_table.hpp"
#include "conformance/process/line_reader.hpp"
#include "conformance/protocol/core_refusal.hpp"
#include "conformance/protocol/protocol.hpp"
#include "conformance/protocol/wire.hpp"
#include "stats/battery.hpp"
#include "stats/runs.hpp"

namespace {

using acemq::amqp::RetryPolicy;
using acemq::amqp::Seconds;
namespace conf = acemq::conformance;

constexpr int kUsage = 2;

// A usage error: "<flag>: <what is wrong>", printed after the command's name.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] void usage(std::string_view flag, std::string_view what) {
  throw UsageError(std::string(flag) + ": " + std::string(what));
}

double number_flag(std::string_view flag, const std::string& text) {
  const conf::Decimal d = conf::read_decimal(text);
  if (d.out_of_range) {
    usage(flag, "out of range: beyond binary64's largest, 1.7976931348623157e+308, got " + text);
  }
  if (!d.value) usage(flag, "not a number, got " + text);
  return *d.value;
}

std::int64_t integer_flag(std::string_view flag, const std::string& text) {
  const conf::Integer i = conf::read_integer(text);
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

// --timeout: seconds an answer, at most a day.
std::chrono::milliseconds timeout_flag(const std::string& text) {
  const double timeout = number_flag("--timeout", text);
  if (!(timeout > 0.0) || timeout > 86400.0) {
    usage("--timeout", "must be seconds in (0, 86400], got " + text);
  }
  return std::chrono::milliseconds(std::llround(timeout * 1000.0));
}

std::uint64_t random_seed() {
  std::random_device device;
  return (static_cast<std::uint64_t>(device()) << 32U) | device();
}

// ---- schedule -------------------------------------------------------------

struct ScheduleFlags {
  std::string max_attempts = "1";
  std::string initial_delay = "0";
  std::string multiplier = "2";
  std::string max_delay = "0";
  std::string jitter_factor = "0";
  std::string max_message_age = "0";
  bool exponential = false;
  bool fixed = false;
  bool none = false;
  bool json = false;
  std::string svg;
};

// The policy the flags describe, validated as the protocol's policies are:
// a factory takes what its signature takes and needs what it needs, and a
// value the core refuses is reported against the flag that gave it.
RetryPolicy policy_from_flags(const ScheduleFlags& f, const CLI::App& command) {
  const auto given = [&](const char* flag) { return command.count(flag) > 0; };
  std::vector<std::string_view> factories;
  if (f.exponential) factories.emplace_back("--exponential");
  if (f.fixed) factories.emplace_back("--fixed");
  if (f.none) factories.emplace_back("--none");
  if (factories.size() > 1) {
    usage(factories[0],
          std::string("cannot be used with ") + std::string(factories[1]) + ": pick one factory");
  }
  struct Factory {
    std::string_view flag;
    std::string_view signature;
    std::vector<const char*> needs;
    std::vector<const char*> refuses;
  };
  const std::string_view delay_flag = f.fixed ? "--delay" : "--initial-delay";
  const Factory factory =
      f.exponential ? Factory{"--exponential",
                              "exponential(max_attempts, initial_delay, max_delay = 0), "
                              "multiplier 2, jitter 0.2",
                              {"--max-attempts", "--initial-delay"},
                              {"--multiplier"}}
      : f.fixed     ? Factory{"--fixed",
                          "fixed(max_attempts, delay), multiplier 1",
                          {"--max-attempts", "--delay"},
                          {"--multiplier", "--max-delay"}}
      : f.none      ? Factory{"--none",
                         "none(): max_attempts 1",
                         {},
                         {"--max-attempts", "--initial-delay", "--multiplier", "--max-delay"}}
                    : Factory{};
  for (const char* flag : factory.refuses) {
    if (given(flag))
      usage(flag, "not taken by " + std::string(factory.flag) + ", which is " +
                      std::string(factory.signature));
  }
  for (const char* flag : factory.needs) {
    if (!given(flag))
      usage(factory.flag, std::string("needs ") + flag + ": " + std::string(factory.signature));
  }
  const double initial = number_flag(delay_flag, f.initial_delay);
  const double cap = number_flag("--max-delay", f.max_delay);
  const std::int64_t max_attempts = integer_flag("--max-attempts", f.max_attempts);
  try {
    RetryPolicy policy;
    if (f.exponential) {
      policy = RetryPolicy::exponential(max_attempts, Seconds{initial}, Seconds{cap});
    } else if (f.fixed) {
      policy = RetryPolicy::fixed(max_attempts, Seconds{initial});
    } else if (f.none) {
      policy = RetryPolicy::none();
    } else {
      return RetryPolicy(RetryPolicy::Options{
          .max_attempts = max_attempts,
          .initial_delay = Seconds{initial},
          .multiplier = number_flag("--multiplier", f.multiplier),
          .max_delay = Seconds{cap},
          .jitter_factor = number_flag("--jitter-factor", f.jitter_factor),
          .max_message_age = Seconds{number_flag("--max-message-age", f.max_message_age)}});
    }
    // The factories take the rest through the reference's copies.
    if (given("--max-message-age")) {
      policy = policy.give_up_after(Seconds{number_flag("--max-message-age", f.max_message_age)});
    }
    if (given("--jitter-factor")) {
      policy = policy.with_jitter(number_flag("--jitter-factor", f.jitter_factor));
    }
    return policy;
  } catch (const std::invalid_argument& e) {
    // The core names its parameter; the message names the flag and the
    // text as typed.
    struct Flag {
      std::string_view name;
      std::string_view flag;
      const std::string& text;
    };
    const Flag flags[] = {{"max_attempts", "--max-attempts", f.max_attempts},
                          {"initial_delay", delay_flag, f.initial_delay},
                          {"multiplier", "--multiplier", f.multiplier},
                          {"max_delay", "--max-delay", f.max_delay},
                          {"jitter_factor", "--jitter-factor", f.jitter_factor},
                          {"max_message_age", "--max-message-age", f.max_message_age}};
    const std::optional<conf::CoreRefusal> refusal = conf::read_refusal(e.what());
    for (const Flag& flag : flags) {
      if (refusal && refusal->name == flag.name) {
        usage(flag.flag, "must be " + std::string(refusal->rule) + ", got " + flag.text);
      }
    }
    throw UsageError(e.what());
  }
}

int run_schedule(const ScheduleFlags& flags, const CLI::App& command) {
  const RetryPolicy policy = policy_from_flags(flags, command);
  std::vector<conf::ScheduleRow> rows;
  try {
    rows = conf::schedule_rows(policy);
  } catch (const std::length_error&) {
    usage("--max-attempts", "at most 65537, a table of 65,536 rows, got " + flags.max_attempts);
  }
  if (!flags.svg.empty()) {
    std::ofstream svg(flags.svg);
    svg << conf::schedule_svg(policy, rows);
    if (!svg.flush()) usage("--svg", "cannot write " + flags.svg + ": " + std::strerror(errno));
  }
  std::cout << (flags.json ? conf::schedule_json(policy) + "\n" : conf::schedule_table(policy));
  return 0;
}

// ---- serve, check, vectors ---------------------------------------------------

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
  if (error)
    usage("--vectors", "not given, and this executable cannot be found: " + error.message());
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
      usage("--vectors",
            "not given, and no vector files (*.jsonl) are in " + directory.string() +
                ", where this executable looks for them (" ACEMQ_VECTORS_FROM_EXECUTABLE
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
    if (found.empty()) usage("--vectors", "no *.jsonl files in the directory " + path);
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

int run_vectors(std::int64_t cases, std::uint64_t s, bool reference) {
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

// CLI11's own parse errors, in the same style as ours; `first` is the
// first argument, which names the command.
std::string rephrased(const CLI::ParseError& e, std::string_view first) {
  std::string what = e.what();
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) != nullptr) {
    return what.substr(0, what.find(':')) + ": needs a value";
  }
  if (dynamic_cast<const CLI::RequiredError*>(&e) != nullptr) {
    if (what.find("subcommand") != std::string::npos) {
      if (!first.empty() && !first.starts_with("-")) {
        return std::string(first) +
               ": not a command; the commands are schedule, serve, check, "
               "vectors and stats";
      }
      return "a command is required: schedule, serve, check, vectors or stats";
    }
    return what.substr(0, what.find(' ')) + ": required";
  }
  return what;
}

int run(int argc, char** argv) {
  CLI::App app{
      "retry-policy: the AceMQ retry policy's schedules, and the conformance "
      "protocol that checks other ports against this one bit for bit"};
  app.require_subcommand(1);
  // Unknown arguments are collected and reported here, in order (CLI11's
  // own message lists them reversed).
  app.allow_extras();

  ScheduleFlags schedule;
  CLI::App* schedule_command =
      app.add_subcommand("schedule", "Print a policy's delays, jitter ranges and cumulative waits");
  schedule_command->add_option("--max-attempts", schedule.max_attempts,
                               "total deliveries including the first (default 1)");
  schedule_command->add_option("--initial-delay,--delay", schedule.initial_delay,
                               "seconds before the second attempt (0)");
  schedule_command->add_option("--multiplier", schedule.multiplier,
                               "what the delay is multiplied by each time (2)");
  schedule_command->add_option("--max-delay", schedule.max_delay,
                               "the ceiling in seconds, or 0 for none (0)");
  schedule_command->add_option("--jitter-factor", schedule.jitter_factor,
                               "how far a delay may move either side, 0 to 1 (0)");
  schedule_command->add_option("--max-message-age", schedule.max_message_age,
                               "give up on anything older, or 0 for never (0)");
  schedule_command->add_flag(
      "--exponential", schedule.exponential,
      "exponential(max_attempts, initial_delay, max_delay = 0): doubling, 20% jitter");
  schedule_command->add_flag("--fixed", schedule.fixed,
                             "fixed(max_attempts, delay): the same wait, no jitter");
  schedule_command->add_flag("--none", schedule.none, "none(): one delivery, no second chance");
  schedule_command->add_flag("--json", schedule.json, "print JSON for machines, every value exact");
  schedule_command->add_option("--svg", schedule.svg,
                               "also draw the schedule to FILE: delays with their jitter, "
                               "and the waits against the age limit");

  CLI::App* serve_command =
      app.add_subcommand("serve",
                         "Answer the protocol: one JSON request a line on stdin, one answer a "
                         "line on stdout, until end of input");

  conf::CheckOptions check;
  std::string check_cases = "5000";
  std::string check_seed;
  std::vector<std::string> check_vectors;
  bool no_vectors = false;
  bool reference_profile = false;
  std::string timeout_seconds = "10";
  std::string show = "3";
  CLI::App* check_command = app.add_subcommand(
      "check",
      "Compare a port's adapter with the C++ core, bit for bit. Exit 0: all agree; "
      "1: an answer differs; 2: a usage error, or the adapter died or misbehaved");
  check_command
      ->add_option("--impl", check.command, "the adapter, a shell command speaking the protocol")
      ->required();
  check_command->add_option("--cases", check_cases, "generated requests (default 5000)");
  check_command->add_option("--seed", check_seed, "generator seed (default: random, printed)");
  check_command->add_option("--vectors", check_vectors,
                            "vector files, or directories of them, to send first (default: "
                            "every .jsonl in ../share/acemq_retry/vectors beside this "
                            "executable)");
  check_command->add_flag("--no-vectors", no_vectors, "send no vector files");
  check_command->add_flag(
      "--reference-profile,--valid-only", reference_profile,
      "send only valid requests on which the contract and the Ruby reference agree "
      "(for checking the reference itself, which does not validate)");
  check_command->add_option("--timeout", timeout_seconds,
                            "seconds to wait for each answer (default 10)");
  check_command->add_option("--show", show,
                            "distinct mismatches to shrink and show in full (default 3)");

  std::string vector_cases = "1000";
  std::string vector_seed;
  bool vector_reference = false;
  CLI::App* vectors_command = app.add_subcommand(
      "vectors", "Write generated requests, each with the C++ core's answer, as JSON lines");
  vectors_command->add_option("--cases", vector_cases, "how many (default 1000)");
  vectors_command->add_option("--seed", vector_seed, "generator seed (default: random)");
  vectors_command->add_flag("--reference-profile,--valid-only", vector_reference,
                            "only requests the Ruby reference answers the same way");

  conf::PortStatsOptions port_stats;
  std::string stats_n;
  bool stats_quick = false;
  std::string stats_timeout = "60";
  std::string stats_interval = "10";
  CLI::App* stats_command = app.add_subcommand(
      "stats",
      "Run the statistics battery on a port's own jitter, drawn by its adapter's sample op. "
      "Exit 0: every cell passes; 1: a test rejects; 2: a usage error, or the adapter failed");
  stats_command
      ->add_option("--impl", port_stats.command,
                   "the adapter, a shell command speaking the protocol (with the sample op)")
      ->required();
  stats_command->add_option("--n", stats_n, "draws a cell (default 1000000)");
  stats_command->add_flag("--quick", stats_quick,
                          "n 524288 a cell: a size for a port's CI that still sees a 32-bit "
                          "source");
  stats_command->add_option("--report-dir", port_stats.report_dir,
                            "where the report goes (default stats-report)");
  stats_command->add_option("--timeout", stats_timeout,
                            "seconds to wait for each answer of up to 65536 draws (default 60)");
  stats_command->add_option("--progress-every", stats_interval,
                            "seconds between progress lines on stderr (default 10)");

  std::string name = "retry-policy";
  const auto command_name = [&] {
    for (const CLI::App* sub :
         {schedule_command, serve_command, check_command, vectors_command, stats_command}) {
      if (sub->parsed()) return "retry-policy " + sub->get_name();
    }
    return std::string("retry-policy");
  };
  try {
    try {
      app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
      return app.exit(e);
    } catch (const CLI::ParseError& e) {
      name = command_name();
      std::cerr << name << ": " << rephrased(e, argc > 1 ? argv[1] : "") << " (" << name
                << " --help lists the flags)\n";
      return kUsage;
    }
    name = command_name();
    for (const CLI::App* command :
         {&app, schedule_command, serve_command, check_command, vectors_command, stats_command}) {
      const std::vector<std::string> extras = command->remaining();
      if (extras.empty()) continue;
      std::cerr << name << ": " << extras.front() << ": "
                << (extras.front().starts_with("-") ? "not a flag of this command"
                                                    : "not expected here")
                << " (" << name << " --help lists the flags)\n";
      return kUsage;
    }

    if (*schedule_command) return run_schedule(schedule, *schedule_command);
    if (*serve_command) return run_serve();
    if (*vectors_command) {
      return run_vectors(count_flag("--cases", vector_cases),
                         vector_seed.empty() ? random_seed() : seed_flag("--seed", vector_seed),
                         vector_reference);
    }
    if (*stats_command) {
      if (stats_quick && !stats_n.empty()) usage("--quick", "cannot be used with --n: pick one");
      port_stats.quick = stats_quick;
      port_stats.n = stats_quick ? conf::kPortStatsQuickSamples : conf::kPortStatsSamples;
      if (!stats_n.empty()) {
        const std::int64_t n = count_flag("--n", stats_n);
        if (n < static_cast<std::int64_t>(acemq::stats::kMinimumSamples) ||
            n > static_cast<std::int64_t>(acemq::stats::kMaxSamples)) {
          usage("--n", "must be in [" + std::to_string(acemq::stats::kMinimumSamples) + ", " +
                           std::to_string(acemq::stats::kMaxSamples) +
                           "], the battery's least and most a cell, got " + stats_n);
        }
        port_stats.n = static_cast<std::uint64_t>(n);
      }
      port_stats.timeout = timeout_flag(stats_timeout);
      port_stats.progress_interval = number_flag("--progress-every", stats_interval);
      if (!(port_stats.progress_interval > 0.0)) {
        usage("--progress-every", "must be seconds above 0, got " + stats_interval);
      }
      return conf::run_port_stats(port_stats, std::cout, std::cerr);
    }
    if (*check_command) {
      check.timeout = timeout_flag(timeout_seconds);
      check.cases = count_flag("--cases", check_cases);
      check.shrink_shown =
          static_cast<int>(std::min<std::int64_t>(count_flag("--show", show), 1000));
      check.seed = check_seed.empty() ? random_seed() : seed_flag("--seed", check_seed);
      check.vectors = no_vectors ? std::vector<std::string>{} : vector_files(check_vectors);
      check.profile = reference_profile ? conf::Profile::reference : conf::Profile::full;
      return conf::run_check(check, std::cout);
    }
  } catch (const UsageError& e) {
    std::cerr << name << ": " << e.what() << "\n";
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
