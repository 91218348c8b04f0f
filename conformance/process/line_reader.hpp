// LineReader: newline-terminated lines from a file descriptor, bounded in
// length and, optionally, in time.
//
// A line longer than the bound is consumed and dropped without being stored,
// so an endless line costs the bound in memory, not the line. With a
// deadline, the reader waits with poll() and reports a timeout instead of
// blocking forever on a hung writer. The newline is not part of the line; a
// last line without one still counts.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace acemq::conformance {

class LineReader {
 public:
  enum class Status { line, too_long, end, timeout, error };

  LineReader(int fd, std::size_t max_bytes) : fd_(fd), max_bytes_(max_bytes) {}

  // Blocks until a line, end of input, or (with a timeout) the deadline. On
  // too_long, `line` holds nothing and `dropped` says how many bytes went.
  Status next(std::string& line, std::size_t& dropped);
  Status next(std::string& line, std::size_t& dropped, std::chrono::milliseconds timeout);

 private:
  Status read_line(std::string& line, std::size_t& dropped,
                   const std::chrono::steady_clock::time_point* deadline);
  // Refills the buffer; false at end of input, on a read error, or past the
  // deadline, with which one in stop_.
  bool fill(const std::chrono::steady_clock::time_point* deadline);

  static constexpr std::size_t kReserveAbove = std::size_t{1} << 20;

  int fd_;
  std::size_t max_bytes_;
  std::vector<char> buffer_ = std::vector<char>(std::size_t{1} << 16);
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
  Status stop_ = Status::end;
};

}  // namespace acemq::conformance
