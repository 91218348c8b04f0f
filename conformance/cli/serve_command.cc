// retry-policy serve: the protocol on stdin/stdout, answered by the core.
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <string>

#include "conformance/cli/subcommand.hpp"
#include "conformance/process/line_reader.hpp"
#include "conformance/protocol/limits.hpp"
#include "conformance/protocol/respond.hpp"

namespace acemq::conformance::cli {
namespace {

class ServeCommand final : public Subcommand {
 public:
  explicit ServeCommand(CLI::App& parent)
      : Subcommand(parent.add_subcommand(
            "serve",
            "Answer the protocol: one JSON request a line on stdin, one answer a line on stdout, "
            "until end of input")) {}

  int run() override {
    // A reader that goes away is the end of the conversation, not a crash.
    std::signal(SIGPIPE, SIG_IGN);
    LineReader reader(STDIN_FILENO, kMaxLineBytes);
    std::string line;
    std::size_t dropped = 0;
    for (;;) {
      const LineReader::Status status = reader.next(line, dropped);
      std::string answer;
      if (status == LineReader::Status::line) {
        answer = answer_line(line);
      } else if (status == LineReader::Status::too_long) {
        answer = format_answer(respond(ParsedLine(line_too_long(dropped))));
      } else {
        return status == LineReader::Status::end ? 0 : 1;
      }
      answer.push_back('\n');
      if (std::fwrite(answer.data(), 1, answer.size(), stdout) != answer.size() ||
          std::fflush(stdout) != 0) {
        return 1;
      }
    }
  }
};

}  // namespace

std::unique_ptr<Subcommand> serve_command(CLI::App& app) {
  return std::make_unique<ServeCommand>(app);
}

}  // namespace acemq::conformance::cli
