// AdapterProcess: a port's adapter, started with `/bin/sh -c <command>`, asked
// one request line at a time over pipes.
//
// Nothing the adapter does can stop the checker: every write and read has a
// deadline (poll), an adapter that dies is reported with its exit status, and
// the adapter runs in its own process group so a hung one is killed along
// with anything it started. stderr is the checker's, so a port's traceback
// reaches the person reading the report.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "conformance/process/line_reader.hpp"
#include "conformance/process/process_ending.hpp"

namespace acemq::conformance {

class AdapterProcess {
 public:
  enum class Outcome { answered, died, timed_out, answer_too_long, write_failed };

  // nullptr, with the reason in `error`, if the command cannot be started.
  static std::unique_ptr<AdapterProcess> start(const std::string& command, std::string& error);

  // Sends one request line and waits for one answer line.
  Outcome ask(std::string_view request, std::string& answer, std::chrono::milliseconds timeout);
  // The two halves of ask, for a caller that keeps a request in flight while
  // it works on the last answer: send() returns answered once the line is
  // written; receive() waits for the oldest unanswered request's answer.
  Outcome send(std::string_view request, std::chrono::milliseconds timeout);
  Outcome receive(std::string& answer, std::chrono::milliseconds timeout);
  // Bytes as they are, no LF added: several request lines in one write, or
  // a last line without its LF (docs/protocol.md, Lines).
  Outcome write(std::string_view bytes, std::chrono::milliseconds timeout);
  // Waits until the adapter has read all that was written (the pipe holds
  // nothing), so that the next write reaches it in a read of its own.
  Outcome read_by_adapter(std::chrono::milliseconds timeout);
  // Closes the adapter's stdin, its end of input, before its last answer is
  // read; finish() then reads what it writes after that answer.
  void close_input();

  // Closes the adapter's stdin and waits for it to exit, killing it after
  // `grace`. Returns how it ended, with what it wrote past its last answer,
  // if anything: a line after the end of input answers no request.
  ProcessEnding finish(std::chrono::milliseconds grace);

  // What became of a process that stopped answering (died or timed out),
  // after killing it: for the report.
  ProcessEnding fate();

  // What went wrong, for a report, when ask() returned `outcome` (not
  // answered): "closed its output (died?): exit status 1", and so on. Kills
  // the adapter when it died or hung, as fate() does.
  std::string failure(Outcome outcome, std::chrono::milliseconds timeout);

  AdapterProcess(const AdapterProcess&) = delete;
  AdapterProcess& operator=(const AdapterProcess&) = delete;
  ~AdapterProcess();

 private:
  AdapterProcess(pid_t pid, int to_child, int from_child);
  bool write_all(std::string_view bytes, std::chrono::steady_clock::time_point deadline);
  void kill_group();
  ProcessEnding reap(std::chrono::milliseconds grace);

  pid_t pid_;
  int to_child_;
  int from_child_;
  LineReader reader_;
  bool reaped_ = false;
  ProcessEnding ending_;
};

// Answer lines longer than this are a misbehaving adapter: the longest
// answer the protocol allows, a 2^16-entry schedule, is about 1.6 MB.
inline constexpr std::size_t kMaxAnswerBytes = std::size_t{64} << 20;

}  // namespace acemq::conformance
