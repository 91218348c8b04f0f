#include "stats/battery/repeats.hpp"

#include <algorithm>
#include <array>

#include "stats/battery/runs.hpp"

namespace acemq::stats {

namespace {

// Twice what a full window of a uniform sample puts in a bucket.
constexpr std::size_t kOrdinaryBucket = 2 * kSegmentSamples / 256;

}  // namespace

RepeatWindow::RepeatWindow() : keys_(kSegmentSamples), filed_(kSegmentSamples) {}

void RepeatWindow::flush(RepeatCounts& repeats, Histogram& histogram) {
  if (size_ == 0) return;
  repeats.pairs += size_ * (size_ - 1) / 2;
  ++repeats.windows;

  // File the keys by bucket: a count, then a scatter of their low bits.
  std::array<std::size_t, kBuckets + 1> start{};
  for (std::uint64_t i = 0; i < size_; ++i) ++start[(keys_[i] >> kLowBits) + 1];
  for (std::size_t b = 0; b < kBuckets; ++b) start[b + 1] += start[b];
  std::array<std::size_t, kBuckets> next{};
  std::copy(start.begin(), start.end() - 1, next.begin());
  for (std::uint64_t i = 0; i < size_; ++i) {
    filed_[next[keys_[i] >> kLowBits]++] = static_cast<std::uint32_t>(keys_[i]);
  }

  std::vector<std::uint32_t>& bins = histogram.counts();
  for (std::size_t b = 0; b < kBuckets; ++b) {
    const std::size_t count = start[b + 1] - start[b];
    if (count == 0) continue;
    const std::uint32_t* bucket = filed_.data() + start[b];
    const std::uint64_t high = static_cast<std::uint64_t>(b) << kLowBits;
    // The bucket's keys fall in a run of bins (a region starts at a bucket),
    // counted here first and then added to the histogram in one sweep: the
    // histogram is megabytes, and bumping its bins in the keys' random order
    // would miss the cache at nearly every one.
    const std::size_t first_bin = histogram.index_of(high);
    const unsigned shift = static_cast<unsigned>(kCellBits - histogram.bits());
    local_.assign((std::size_t{1} << (kLowBits - shift)), 0);
    // Open addressing at load <= 1/8 for a bucket of ordinary size (measured
    // the fastest: fewer probes that miss, for a table that still fits the
    // L2 cache) and <= 1/2 for one that a degenerate sample overfills, 0
    // marking an empty slot (so a key of low bits 0 is tracked on the side);
    // the multiplicative hash spreads keys whose low bits are all alike (a
    // 24-bit source's are).
    const std::size_t wanted = count <= kOrdinaryBucket ? 8 * count : 2 * count;
    unsigned log_slots = 4;
    while ((std::size_t{1} << log_slots) < wanted) ++log_slots;
    const std::size_t slots = std::size_t{1} << log_slots;
    if (table_.size() < slots) table_.resize(slots);
    std::fill(table_.begin(), table_.begin() + static_cast<std::ptrdiff_t>(slots), 0U);
    const std::size_t mask = slots - 1;
    bool zero_seen = false;
    for (std::size_t i = 0; i < count; ++i) {
      const std::uint32_t low = bucket[i];
      const std::uint64_t key = high | low;
      ++local_[low >> shift];
      if (key == kBelowKey || key == kAboveKey) continue;
      if (low == 0) {
        repeats.count += zero_seen;
        zero_seen = true;
        continue;
      }
      std::size_t slot =
          static_cast<std::size_t>((low * 0x9E3779B97F4A7C15ULL) >> (64U - log_slots));
      while (true) {
        std::uint32_t& entry = table_[slot];
        if (entry == 0) {
          entry = low;
          break;
        }
        if (entry == low) {
          ++repeats.count;
          break;
        }
        slot = (slot + 1) & mask;
      }
    }
    const std::size_t in_range = std::min(local_.size(), bins.size() - first_bin);
    for (std::size_t i = 0; i < in_range; ++i) bins[first_bin + i] += local_[i];
  }
  std::sort(outside_.begin(), outside_.end());
  repeats.count += static_cast<std::uint64_t>(
      outside_.size() - static_cast<std::size_t>(std::distance(
                            outside_.begin(), std::unique(outside_.begin(), outside_.end()))));
  outside_.clear();
  size_ = 0;
}

}  // namespace acemq::stats
