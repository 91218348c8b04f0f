#include "conformance/process/serve.hpp"

#include <csignal>
#include <string>

#include "conformance/process/line_reader.hpp"
#include "conformance/protocol/limits.hpp"

namespace acemq::conformance {

int serve_lines(int in, std::FILE* out, const SampleSource& sample_source) {
  return serve_lines(
      in, out, Responder([&](const ParsedLine& line) { return respond(line, sample_source); }));
}

int serve_lines(int in, std::FILE* out, const Responder& responder) {
  // A reader that goes away is the end of the conversation, not a crash.
  std::signal(SIGPIPE, SIG_IGN);
  LineReader reader(in, kMaxLineBytes);
  std::string line;
  std::size_t dropped = 0;
  for (;;) {
    const LineReader::Status status = reader.next(line, dropped);
    if (status != LineReader::Status::line && status != LineReader::Status::too_long) {
      return status == LineReader::Status::end ? 0 : 1;
    }
    std::string answer;
    try {
      answer = format_answer(responder(status == LineReader::Status::line
                                           ? parse_request(line)
                                           : ParsedLine(line_too_long(dropped))));
    } catch (...) {
      // Out of memory while answering, as answer_line: the shortest answer
      // that still says no.
      answer = "{\"ok\":false}";
    }
    answer.push_back('\n');
    if (std::fwrite(answer.data(), 1, answer.size(), out) != answer.size() ||
        std::fflush(out) != 0) {
      return 1;
    }
  }
}

}  // namespace acemq::conformance
