// DelayRange: a policy's schedule as a lazy range, in O(1) memory.
//
// Yields exactly the entries of RetryPolicy::schedule(), with the same bits,
// for any length: the running value starts at initial_delay and is multiplied
// by the multiplier after each entry, and each entry is the running value
// capped at max_delay (when max_delay > 0). The cap applies to the entry,
// never to the running value. Obtain one from RetryPolicy::delays().
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <ranges>

namespace acemq::amqp {

// A view by std::ranges::view_base rather than view_interface: clang 14 with
// libstdc++ 12 rejects view_interface's constraints on an incomplete type.
class DelayRange : public std::ranges::view_base {
 public:
  using Seconds = std::chrono::duration<double>;

  class iterator {
   public:
    using value_type = Seconds;
    using difference_type = std::ptrdiff_t;
    using iterator_concept = std::forward_iterator_tag;

    iterator() = default;

    Seconds operator*() const noexcept {
      return Seconds{max_delay_ > 0.0 && running_ > max_delay_ ? max_delay_ : running_};
    }
    iterator& operator++() noexcept {
      // One multiplication, nothing to fuse: the bits do not depend on the
      // caller's -ffp-contract setting.
      running_ = running_ * multiplier_;
      --remaining_;
      return *this;
    }
    iterator operator++(int) noexcept {
      iterator before = *this;
      ++*this;
      return before;
    }
    // Iterators of one range are equal when they stand at the same entry.
    friend bool operator==(const iterator& a, const iterator& b) noexcept {
      return a.remaining_ == b.remaining_;
    }
    friend bool operator==(const iterator& it, std::default_sentinel_t) noexcept {
      return it.remaining_ == 0;
    }

   private:
    friend class DelayRange;
    iterator(double running, double multiplier, double max_delay, std::int64_t remaining) noexcept
        : running_(running),
          multiplier_(multiplier),
          max_delay_(max_delay),
          remaining_(remaining) {}

    double running_ = 0.0;
    double multiplier_ = 0.0;
    double max_delay_ = 0.0;
    std::int64_t remaining_ = 0;
  };

  DelayRange() = default;
  DelayRange(double initial_delay, double multiplier, double max_delay,
             std::int64_t length) noexcept
      : initial_delay_(initial_delay),
        multiplier_(multiplier),
        max_delay_(max_delay),
        length_(length) {}

  iterator begin() const noexcept {
    return iterator(initial_delay_, multiplier_, max_delay_, length_);
  }
  std::default_sentinel_t end() const noexcept { return {}; }
  std::int64_t size() const noexcept { return length_; }
  bool empty() const noexcept { return length_ == 0; }

 private:
  double initial_delay_ = 0.0;
  double multiplier_ = 0.0;
  double max_delay_ = 0.0;
  std::int64_t length_ = 0;
};

}  // namespace acemq::amqp

template <>
inline constexpr bool std::ranges::enable_borrowed_range<acemq::amqp::DelayRange> = true;
