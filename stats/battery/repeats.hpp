// repeats: how many u land in a cell of width 2^-39 that an earlier u of the
// same window already holds.
//
// The windows are consecutive runs of at most kSegmentSamples draws, and the
// count of each is compared with the birthday bound C(w, 2)·p_cell, so the
// counts and the bounds of independent windows add: the total is bounded by
// a Poisson count of mean Σ C(w, 2)·p_cell (battery.cc derives p_cell).
//
// RepeatWindow is the scratch that finds them. It keeps a window's keys in
// arrival order (one sequential store a sample, the cheapest thing the
// sampling loop can do with them), then at flush() files them by their top
// bits (each side of zero is 128 buckets, so a full window puts about
// kSegmentSamples/256 in each: a scatter that stays in cache, where sorting
// the window would not), finds the repeats of each bucket with a small hash
// set, and meanwhile counts the keys into the histogram, one bucket's run of
// bins at a time.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <vector>

#include "stats/battery/histogram.hpp"

namespace acemq::stats {

struct RepeatCounts {
  std::uint64_t count = 0;  // samples whose cell was already taken
  std::uint64_t pairs = 0;  // Σ C(w, 2) over the windows
  std::uint64_t windows = 0;

  void merge(const RepeatCounts& other) {
    count += other.count;
    pairs += other.pairs;
    windows += other.windows;
  }
  bool operator==(const RepeatCounts&) const = default;
};

class RepeatWindow {
 public:
  RepeatWindow();

  std::uint64_t size() const { return size_; }

  // At most kSegmentSamples between flushes.
  void add(std::uint64_t key) { keys_[size_++] = key; }
  // A value whose key is outside (−1, 1) (kBelowKey or kAboveKey), kept
  // exactly: a source stuck on one value there (0 at f = 1 is u = −1, the
  // band's edge) repeats it, and those are repeats like any other.
  void add_outside(double u) { outside_.push_back(std::bit_cast<std::uint64_t>(u)); }

  // Counts the window's repeats, files its keys into `histogram`, and
  // empties it. Keys outside (−1, 1) are one cell each side, so their
  // repeats are counted on the exact values add_outside() kept instead: a
  // clamp to the bound is a repeat, values that differ are not.
  void flush(RepeatCounts& repeats, Histogram& histogram);

 private:
  static constexpr unsigned kLowBits = 32;
  static constexpr std::size_t kBuckets = (kAboveKey >> kLowBits) + 1;

  std::vector<std::uint64_t> keys_;  // the window, in arrival order
  std::uint64_t size_ = 0;
  std::vector<std::uint32_t> filed_;    // the low bits, bucket by bucket
  std::vector<std::uint32_t> table_;    // the hash set of one bucket
  std::vector<std::uint32_t> local_;    // one bucket's bins
  std::vector<std::uint64_t> outside_;  // add_outside()'s values, as bits
};

}  // namespace acemq::stats
