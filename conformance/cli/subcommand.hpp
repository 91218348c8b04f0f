// Subcommand: one command of retry-policy (schedule, serve, check, vectors,
// stats, protocol), each in its own file with its own flags.
//
// A subcommand declares itself on the app when it is made, binding its flags
// to its own fields, and runs if it is the one the command line names. Every
// flag that takes a value is declared to take zero or one, so a missing
// value is found by the subcommand, which names the flag, rather than by
// CLI11's message.
#pragma once

#include <memory>

#include <CLI/CLI.hpp>

namespace acemq::conformance::cli {

class Subcommand {
 public:
  Subcommand(const Subcommand&) = delete;
  Subcommand& operator=(const Subcommand&) = delete;
  virtual ~Subcommand() = default;

  // The exit status: 0, 1, or kUsageExit (2). Throws UsageError.
  virtual int run() = 0;

  CLI::App& app() const { return *app_; }

 protected:
  explicit Subcommand(CLI::App* app) : app_(app) {}

  // An option of this subcommand that takes one value, read later.
  CLI::Option* value_option(const std::string& names, std::string& value,
                            const std::string& description) {
    return app_->add_option(names, value, description)->expected(0, 1);
  }

 private:
  CLI::App* app_;
};

std::unique_ptr<Subcommand> schedule_command(CLI::App& app);
std::unique_ptr<Subcommand> serve_command(CLI::App& app);
std::unique_ptr<Subcommand> check_command(CLI::App& app);
std::unique_ptr<Subcommand> vectors_command(CLI::App& app);
std::unique_ptr<Subcommand> stats_command(CLI::App& app);
std::unique_ptr<Subcommand> protocol_command(CLI::App& app);

}  // namespace acemq::conformance::cli
