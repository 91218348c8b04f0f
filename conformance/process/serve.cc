#include "conformance/process/serve.hpp"

#include <csignal>
#include <string>

#include "conformance/process/line_reader.hpp"
#include "conformance/protocol/limits.hpp"

namespace acemq::conformance {

int serve_lines(int in, std::FILE* out, const SampleSource& sample_source) {
  // A reader that goes away is the end of the conversation, not a crash.
  std::signal(SIGPIPE, SIG_IGN);
  LineReader reader(in, kMaxLineBytes);
  std::string line;
  std::size_t dropped = 0;
  for (;;) {
    const LineReader::Status status = reader.next(line, dropped);
    std::string answer;
    if (status == LineReader::Status::line) {
      answer = answer_line(line, sample_source);
    } else if (status == LineReader::Status::too_long) {
      answer = format_answer(respond(ParsedLine(line_too_long(dropped)), sample_source));
    } else {
      return status == LineReader::Status::end ? 0 : 1;
    }
    answer.push_back('\n');
    if (std::fwrite(answer.data(), 1, answer.size(), out) != answer.size() ||
        std::fflush(out) != 0) {
      return 1;
    }
  }
}

}  // namespace acemq::conformance
