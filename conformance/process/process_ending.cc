#include "conformance/process/process_ending.hpp"

#include <cstring>

namespace acemq::conformance {

std::string ProcessEnding::text() const {
  std::string out;
  if (bytes_after_last_answer > 0) {
    out = "wrote a line after its last answer (" + std::to_string(bytes_after_last_answer) +
          " bytes), then ";
  }
  switch (how) {
    case How::exited: return out + "exit status " + std::to_string(code);
    case How::signalled:
      return out + "killed by signal " + std::to_string(code) + " (" + strsignal(code) + ")";
    case How::killed_at_grace:
      return out + "did not exit within " + std::to_string(grace.count()) + " ms; killed";
    case How::lost: break;
  }
  return out + "lost (waitid failed)";
}

}  // namespace acemq::conformance
