// retry-policy: look at a policy's schedule, and check ports against the core.
//
//   retry-policy schedule [--exponential|--fixed|--none] [--max-attempts N] ...
//   retry-policy serve                    answer the protocol on stdin/stdout
//   retry-policy check --impl "<command>" compare a port's adapter, bit for bit
//   retry-policy vectors --cases N        write requests with the core's answers
//   retry-policy stats --impl "<command>" the statistics battery on a port's own jitter
//   retry-policy protocol                 the protocol's table, as JSON
//
// Each command is a Subcommand in its own file. Usage errors exit 2 with one
// line on stderr in one style, "retry-policy <command>: <flag>: <what is
// wrong>, got <text>": the commands read every value themselves
// (flags.hpp), so CLI11 only splits the command line.
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "conformance/cli/flags.hpp"
#include "conformance/cli/subcommand.hpp"

namespace {

namespace cli = acemq::conformance::cli;

constexpr const char* kCommands = "schedule, serve, check, vectors, stats and protocol";

int run(int argc, char** argv) {
  CLI::App app{
      "retry-policy: the AceMQ retry policy's schedules, and the conformance "
      "protocol that checks other ports against this one bit for bit"};
  app.require_subcommand(0, 1);
  // Unknown arguments are collected and reported below, in order (CLI11's
  // own message lists them reversed); subcommands inherit this.
  app.allow_extras();
  const std::unique_ptr<cli::Subcommand> commands[] = {
      cli::schedule_command(app), cli::serve_command(app), cli::check_command(app),
      cli::vectors_command(app),  cli::stats_command(app), cli::protocol_command(app)};

  const auto chosen = [&]() -> cli::Subcommand* {
    for (const auto& command : commands) {
      if (command->app().parsed()) return command.get();
    }
    return nullptr;
  };
  const auto name_of = [&](const cli::Subcommand* command) {
    return command == nullptr ? std::string("retry-policy")
                              : "retry-policy " + command->app().get_name();
  };
  std::string name = "retry-policy";
  try {
    try {
      app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
      return app.exit(e);
    } catch (const CLI::ParseError& e) {
      // What the commands do not read themselves (a value given to a flag
      // that takes none, say): CLI11's own words, as they are.
      name = name_of(chosen());
      std::cerr << name << ": " << e.what() << " (" << name << " --help lists the flags)\n";
      return cli::kUsageExit;
    }
    cli::Subcommand* command = chosen();
    name = name_of(command);
    std::vector<const CLI::App*> apps = {&app};
    for (const auto& each : commands) apps.push_back(&each->app());
    for (const CLI::App* each : apps) {
      const std::vector<std::string> extras = each->remaining();
      if (extras.empty()) continue;
      if (command == nullptr && !extras.front().starts_with("-")) {
        cli::usage(extras.front(), std::string("not a command; the commands are ") + kCommands);
      }
      std::cerr << name << ": " << extras.front() << ": "
                << (extras.front().starts_with("-") ? "not a flag of this command"
                                                    : "not expected here")
                << " (" << name << " --help lists the flags)\n";
      return cli::kUsageExit;
    }
    if (command == nullptr) {
      std::cerr << name << ": a command is required: " << kCommands << " (" << name
                << " --help lists them)\n";
      return cli::kUsageExit;
    }
    return command->run();
  } catch (const cli::UsageError& e) {
    std::cerr << name << ": " << e.what() << "\n";
    return cli::kUsageExit;
  }
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
  return cli::kUsageExit;
}
