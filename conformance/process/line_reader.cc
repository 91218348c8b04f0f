#include "conformance/process/line_reader.hpp"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace acemq::conformance {

LineReader::Status LineReader::next(std::string& line, std::size_t& dropped) {
  return read_line(line, dropped, nullptr);
}

LineReader::Status LineReader::next(std::string& line, std::size_t& dropped,
                                    std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  return read_line(line, dropped, &deadline);
}

LineReader::Status LineReader::read_line(std::string& line, std::size_t& dropped,
                                         const std::chrono::steady_clock::time_point* deadline) {
  line.clear();
  dropped = 0;
  bool overflowed = false;
  for (;;) {
    const char* first = buffer_.data() + begin_;
    const char* last = buffer_.data() + end_;
    const char* newline = std::find(first, last, '\n');
    const auto chunk = static_cast<std::size_t>(newline - first);
    if (!overflowed && line.size() + chunk > max_bytes_) {
      overflowed = true;
      dropped = line.size();
      line.clear();
      line.shrink_to_fit();
    }
    if (overflowed) {
      dropped += chunk;
    } else {
      // A long line jumps straight to the bound's capacity: pages are only
      // resident once written, and doubling would hold two copies at once
      // (a 60 MB line cost 90 MB on its way in).
      if (line.size() + chunk > line.capacity() && line.size() + chunk > kReserveAbove) {
        line.reserve(max_bytes_);
      }
      line.append(first, chunk);
    }
    if (newline != last) {
      begin_ += chunk + 1;
      return overflowed ? Status::too_long : Status::line;
    }
    begin_ = end_ = 0;
    if (!fill(deadline)) {
      if (stop_ != Status::end) return stop_;
      if (overflowed) return Status::too_long;
      return line.empty() ? Status::end : Status::line;
    }
  }
}

bool LineReader::fill(const std::chrono::steady_clock::time_point* deadline) {
  for (;;) {
    if (deadline != nullptr) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          *deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) {
        stop_ = Status::timeout;
        return false;
      }
      pollfd watch{.fd = fd_, .events = POLLIN, .revents = 0};
      const int ready =
          ::poll(&watch, 1, static_cast<int>(std::min<long long>(left.count(), 1 << 30)));
      if (ready < 0 && errno == EINTR) continue;
      if (ready < 0) {
        stop_ = Status::error;
        return false;
      }
      if (ready == 0) continue;  // the deadline check above decides
    }
    const ssize_t got = ::read(fd_, buffer_.data(), buffer_.size());
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      stop_ = Status::error;
      return false;
    }
    if (got == 0) {
      stop_ = Status::end;
      return false;
    }
    end_ = static_cast<std::size_t>(got);
    return true;
  }
}

}  // namespace acemq::conformance
