#include "stats/battery/progress.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace acemq::stats {

Progress::Progress(std::ostream& out, std::size_t cells, std::uint64_t samples,
                   double interval_seconds, Lines lines)
    : out_(out), cells_(cells), samples_(samples), interval_(interval_seconds), lines_(lines) {}

double Progress::elapsed_seconds() const {
  return std::chrono::duration<double>(Clock::now() - start_).count();
}

void Progress::add_samples(std::uint64_t count) {
  const std::lock_guard<std::mutex> lock(mutex_);
  samples_done_ += count;
  const Clock::time_point now = Clock::now();
  if (std::chrono::duration<double>(now - last_print_).count() < interval_) return;
  last_print_ = now;
  out_ << status_locked() << "\n" << std::flush;
}

void Progress::cell_done(const std::string& what) {
  const std::lock_guard<std::mutex> lock(mutex_);
  ++cells_done_;
  if (lines_ != Lines::every_cell) return;
  last_print_ = Clock::now();
  out_ << status_locked() << "  " << what << "\n" << std::flush;
}

void Progress::finish(const std::string& what) {
  const std::lock_guard<std::mutex> lock(mutex_);
  last_print_ = Clock::now();
  out_ << status_locked() << (what.empty() ? "" : "  ") << what << "\n" << std::flush;
}

std::string Progress::status() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return status_locked();
}

std::string Progress::status_locked() const {
  const double elapsed = elapsed_seconds();
  const double done = static_cast<double>(samples_done_);
  const double rate = elapsed > 0.0 ? done / elapsed : 0.0;
  const double share = samples_ > 0 ? done / static_cast<double>(samples_) : 1.0;
  std::string left = "?";
  if (rate > 0.0) left = duration_text((static_cast<double>(samples_) - done) / rate);
  const int width = static_cast<int>(std::to_string(cells_).size());
  char line[256];
  std::snprintf(line, sizeof line,
                "[%*zu/%zu cells] %.3g of %.3g samples (%.1f%%), %.3g samples/s, %s elapsed, "
                "about %s left",
                width, cells_done_, cells_, done, static_cast<double>(samples_), 100.0 * share,
                rate, duration_text(elapsed).c_str(), left.c_str());
  return line;
}

std::string duration_text(double seconds) {
  const auto total = static_cast<long long>(std::llround(std::max(0.0, seconds)));
  const long long hours = total / 3600;
  const long long minutes = total / 60 % 60;
  const long long rest = total % 60;
  char text[64];
  if (hours > 0) {
    std::snprintf(text, sizeof text, "%lldh%02lldm%02llds", hours, minutes, rest);
  } else if (minutes > 0) {
    std::snprintf(text, sizeof text, "%lldm%02llds", minutes, rest);
  } else {
    std::snprintf(text, sizeof text, "%llds", rest);
  }
  return text;
}

}  // namespace acemq::stats
