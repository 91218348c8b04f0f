// ProcessEnding: how an adapter process ended, as a value. Callers ask
// clean(); the words ("exit status 0", "killed by signal 9 (Killed)") are
// for the person reading the report, made once by text().
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace acemq::conformance {

struct ProcessEnding {
  enum class How {
    exited,           // `code` is its exit status
    signalled,        // `code` is the signal that ended it
    killed_at_grace,  // still running after `grace`: killed
    lost,             // waitid failed: nothing is known
  };
  How how = How::lost;
  int code = 0;
  std::chrono::milliseconds grace{0};
  // Bytes the adapter wrote after its last answer: a line that answers no
  // request breaks the protocol as surely as a bad exit status.
  std::size_t bytes_after_last_answer = 0;

  // Exit status 0 and nothing written after the last answer: what the
  // protocol asks of an adapter at the end of its input.
  bool clean() const { return how == How::exited && code == 0 && bytes_after_last_answer == 0; }
  // "exit status 0", "killed by signal 9 (Killed)", "did not exit within
  // 5000 ms; killed", led by "wrote a line after its last answer (N bytes),
  // then " when it did.
  std::string text() const;
};

}  // namespace acemq::conformance
