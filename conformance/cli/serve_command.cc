// retry-policy serve: the protocol on stdin/stdout, answered by the core.
#include <unistd.h>

#include <cstdio>

#include "conformance/cli/subcommand.hpp"
#include "conformance/process/serve.hpp"

namespace acemq::conformance::cli {
namespace {

class ServeCommand final : public Subcommand {
 public:
  explicit ServeCommand(CLI::App& parent)
      : Subcommand(parent.add_subcommand(
            "serve",
            "Answer the protocol: one JSON request a line on stdin, one answer a line on stdout, "
            "until end of input")) {}

  int run() override { return serve_lines(STDIN_FILENO, stdout); }
};

}  // namespace

std::unique_ptr<Subcommand> serve_command(CLI::App& app) {
  return std::make_unique<ServeCommand>(app);
}

}  // namespace acemq::conformance::cli
