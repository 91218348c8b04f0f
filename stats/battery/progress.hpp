// progress: what a long run says while it runs, on one line at a time:
//
//   [ 12/76 cells] 1.21e+10 of 6.40e+10 samples (18.9%), 7.43e+07 samples/s,
//   2m43s elapsed, about 11m53s left
//
// at every finished cell and at least every `interval` seconds between (or,
// with Lines::on_interval, only every `interval` seconds, and one last line
// at finish()). Safe to call from any thread; the rate and the estimate are
// over the whole run.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <ostream>
#include <string>

namespace acemq::stats {

class Progress {
 public:
  // every_cell: a line at each finished cell too (the nightly's, whose cells
  // take minutes); on_interval: only every interval, for a run whose cells
  // take a second and whose reader asked for a line every so many seconds.
  enum class Lines { every_cell, on_interval };

  Progress(std::ostream& out, std::size_t cells, std::uint64_t samples, double interval_seconds,
           Lines lines = Lines::every_cell);

  // Samples finished since the last call; prints when the interval is up.
  void add_samples(std::uint64_t count);
  // A cell (or a shard's part of one) finished: prints `what` and the status
  // (every_cell only).
  void cell_done(const std::string& what);
  // The last line: the status and `what`, whatever the interval.
  void finish(const std::string& what);
  // "[ 12/76 cells] ...", as above.
  std::string status() const;
  double elapsed_seconds() const;

 private:
  using Clock = std::chrono::steady_clock;
  std::string status_locked() const;

  std::ostream& out_;
  const std::size_t cells_;
  const std::uint64_t samples_;
  const double interval_;
  const Lines lines_;
  const Clock::time_point start_ = Clock::now();
  mutable std::mutex mutex_;
  Clock::time_point last_print_ = start_;
  std::size_t cells_done_ = 0;
  std::uint64_t samples_done_ = 0;
};

// 754 s as "12m34s", 5 s as "5s".
std::string duration_text(double seconds);

}  // namespace acemq::stats
