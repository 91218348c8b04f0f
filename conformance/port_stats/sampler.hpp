// Sampler: the adapter asked for a run's draws, chunk by chunk, the next
// request in flight while the last answer is read; sample_cell feeds one
// cell's draws, window by window, into a battery or resolution state.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "conformance/port_stats/echo.hpp"
#include "conformance/port_stats/requests.hpp"
#include "conformance/port_stats/sample_answer.hpp"
#include "conformance/process/adapter_process.hpp"
#include "stats/battery/battery.hpp"
#include "stats/battery/progress.hpp"
#include "stats/battery/resolution.hpp"
#include "stats/battery/runs.hpp"

namespace acemq::conformance {

namespace stats = acemq::stats;

// Asks the adapter for the plan's chunks in order, keeping the next request
// in flight while the last answer is read, so the port draws while this
// process parses (the two share the work about evenly for a fast port). The
// first failure is kept, and every later call refuses.
class Sampler {
 public:
  Sampler(AdapterProcess& adapter, std::chrono::milliseconds timeout, const ChunkPlan& plan)
      : adapter_(adapter), timeout_(timeout), plan_(plan) {}

  // Fills `out` with the next chunk's draws; out.size() is the chunk's size.
  bool draw(std::span<double> out) {
    if (!failure_.empty()) return false;
    while (sent_ < plan_.chunks() && sent_ < received_ + in_flight_) {
      const AdapterProcess::Outcome outcome = adapter_.send(plan_.request(sent_), timeout_);
      if (outcome != AdapterProcess::Outcome::answered) {
        return fail(adapter_.failure(outcome, timeout_), plan_.request(sent_));
      }
      ++sent_;
    }
    const std::uint64_t k = received_++;
    const std::string request = plan_.request(k);
    const AdapterProcess::Outcome outcome = adapter_.receive(line_, timeout_);
    if (outcome != AdapterProcess::Outcome::answered) {
      return fail(adapter_.failure(outcome, timeout_), request);
    }
    const std::string wrong = read_sample_answer(line_, static_cast<std::int64_t>(k + 1), out, k);
    if (!wrong.empty()) return fail(wrong, request, line_);
    // A 64 MiB answer is not kept for the rest of the run.
    if (line_.capacity() > (std::size_t{4} << 20)) std::string().swap(line_);
    return true;
  }

  const std::string& failure() const { return failure_; }

  // 1 while the threads cell is drawn: its threads then have the cores to
  // themselves, so a race between them happens as often as it can (a Go
  // *rand.Rand shared unlocked races far less while this process parses
  // beside it; stats/README.md, "The fleet", has the rates).
  void set_in_flight(std::uint64_t requests) { in_flight_ = requests; }

 private:
  bool fail(const std::string& what, const std::string& request, const std::string& line = "") {
    failure_ = "the adapter " + what + "\n  request: " + clip(request);
    if (!line.empty()) failure_ += "\n  answer: " + clip(line);
    return false;
  }

  AdapterProcess& adapter_;
  const std::chrono::milliseconds timeout_;
  const ChunkPlan& plan_;
  std::uint64_t in_flight_ = 2;
  std::uint64_t sent_ = 0;
  std::uint64_t received_ = 0;
  std::string line_;
  std::string failure_;
};

// One cell's n draws, the plan's chunks of it, each window of
// kSegmentSamples consecutive calls a segment. `answered` runs after each
// chunk is in.
template <class Accumulate>
bool sample_cell(Sampler& sampler, std::uint64_t n, stats::Progress& progress,
                 std::vector<double>& buffer, Accumulate&& accumulate,
                 const std::function<void()>& answered) {
  for (std::uint64_t segment = 0; segment * stats::kSegmentSamples < n; ++segment) {
    const std::uint64_t start = segment * stats::kSegmentSamples;
    const std::uint64_t size = std::min(stats::kSegmentSamples, n - start);
    accumulate.begin(segment);
    for (std::uint64_t done = 0; done < size;) {
      const std::span<double> chunk(buffer.data(),
                                    std::min<std::uint64_t>(buffer.size(), size - done));
      if (!sampler.draw(chunk)) return false;
      answered();
      accumulate.add(chunk);
      done += chunk.size();
      progress.add_samples(chunk.size());
    }
    accumulate.end();
  }
  return true;
}

// How many of a cell's first delays a rejected cell shows.
constexpr std::size_t kFirstValuesShown = 4;

struct BatteryFeed {
  stats::Accumulator& accumulator;
  stats::BatteryState& state;
  std::vector<double>& first_values;
  void begin(std::uint64_t segment) { accumulator.begin(state, segment); }
  void add(std::span<const double> chunk) {
    for (std::size_t i = 0; i < chunk.size() && first_values.size() < kFirstValuesShown; ++i) {
      first_values.push_back(chunk[i]);
    }
    accumulator.add_jittered(chunk);
  }
  void end() { accumulator.end(); }
};

struct ResolutionFeed {
  stats::ResolutionAccumulator& accumulator;
  stats::ResolutionState& state;
  void begin(std::uint64_t segment) { accumulator.begin(state, segment); }
  void add(std::span<const double> chunk) { accumulator.add_jittered(chunk); }
  void end() { accumulator.end(); }
};

}  // namespace acemq::conformance
