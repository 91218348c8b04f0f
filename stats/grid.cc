#include "grid.hpp"

#include <charconv>
#include <chrono>
#include <limits>
#include <stdexcept>

#include "acemq/amqp/retry_policy.hpp"
#include "acemq/amqp/ruby_random.hpp"
#include "acemq/amqp/uniform_source.hpp"

namespace acemq::stats {
namespace {

using amqp::RetryPolicy;
using amqp::Seconds;

struct Backoff {
  RetryPolicy policy;
  std::int64_t attempt;
};

// The policy and attempt whose unjittered next_delay is the cell's delay.
Backoff backoff(const Cell& cell) {
  RetryPolicy::Options o{.max_attempts = 10, .jitter_factor = cell.factor};
  std::int64_t attempt = 1;
  switch (cell.delay) {
    case DelayKind::tiny:
      o.initial_delay = Seconds{2.6 * std::numeric_limits<double>::min()};
      o.multiplier = 0.5;
      attempt = 2;
      break;
    case DelayKind::ordinary:
      o.initial_delay = Seconds{0.3};
      o.multiplier = 1.7;
      attempt = 5;
      break;
    case DelayKind::huge:
      o.initial_delay = Seconds{std::numeric_limits<double>::max() / 4};
      o.multiplier = 2.0;
      attempt = 2;
      break;
    case DelayKind::cap:
      o.initial_delay = Seconds{0.5};
      o.multiplier = 2.0;
      o.max_delay = Seconds{30.0};
      attempt = 8;
      break;
  }
  return {RetryPolicy(o), attempt};
}

const char* delay_name(DelayKind kind) {
  switch (kind) {
    case DelayKind::tiny: return "tiny";
    case DelayKind::ordinary: return "ordinary";
    case DelayKind::huge: return "huge";
    case DelayKind::cap: return "cap";
  }
  return "?";
}

template <class Source>
JitterSample sample_with(const Cell& cell, std::size_t n, Source&& source) {
  const Backoff b = backoff(cell);
  const double d = cell.delay_seconds();
  if (cell.path == Path::jittered) {
    return collect(d, cell.factor, n,
                   [&] { return b.policy.jittered(Seconds{d}, source).count(); });
  }
  return collect(d, cell.factor, n, [&] {
    return b.policy.next_delay(b.attempt, Seconds{0.0}, source).value().count();
  });
}

}  // namespace

std::string Cell::name() const {
  char f[32];
  const auto end = std::to_chars(f, f + sizeof f, factor).ptr;
  std::string out = path == Path::jittered ? "jittered" : "next_delay";
  out += source == SourceKind::ruby ? "/ruby" : "/default";
  out += "/f";
  out.append(f, end);
  out += "/";
  out += delay_name(delay);
  return out;
}

double Cell::delay_seconds() const {
  const Backoff b = backoff(*this);
  return b.policy.next_delay(b.attempt, Seconds{0.0}, amqp::Jitter::off).value().count();
}

std::vector<Cell> grid() {
  std::vector<Cell> cells;
  for (const Path path : {Path::jittered, Path::next_delay}) {
    for (const SourceKind source : {SourceKind::ruby, SourceKind::default_source}) {
      for (const double factor : kFactors) {
        for (const DelayKind delay :
             {DelayKind::tiny, DelayKind::ordinary, DelayKind::huge, DelayKind::cap}) {
          cells.push_back(Cell{factor, delay, path, source});
        }
      }
    }
  }
  return cells;
}

JitterSample sample(const Cell& cell, std::size_t n, std::uint64_t seed) {
  if (cell.source == SourceKind::ruby) {
    amqp::RubyRandom ruby(static_cast<std::uint32_t>(seed));
    return sample_with(cell, n, ruby);
  }
  amqp::DefaultSource::seed_this_thread(seed);
  return sample_with(cell, n, amqp::DefaultSource{});
}

std::uint64_t cell_seed(std::uint64_t run_seed, std::size_t index) {
  std::uint64_t z = run_seed + 0x9e3779b97f4a7c15ULL * (static_cast<std::uint64_t>(index) + 1);
  z = (z ^ (z >> 30U)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27U)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31U);
}

}  // namespace acemq::stats
