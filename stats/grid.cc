#include "grid.hpp"

#include <charconv>
#include <limits>
#include <memory>

#include "acemq/amqp/ruby_random.hpp"
#include "acemq/amqp/uniform_source.hpp"

namespace acemq::stats {
namespace {

using amqp::RetryPolicy;
using amqp::Seconds;

const char* delay_name(DelayKind kind) {
  switch (kind) {
    case DelayKind::tiny: return "tiny";
    case DelayKind::ordinary: return "ordinary";
    case DelayKind::huge: return "huge";
    case DelayKind::cap: return "cap";
  }
  return "?";
}

// Draws through the path of the cell, from a source it owns.
template <class Source>
JitterStream policy_stream(const Cell& cell, Source source) {
  const Backoff b = cell.backoff();
  auto state = std::make_shared<Source>(std::move(source));
  const RetryPolicy policy(b.options);
  const Seconds d{cell.delay_seconds()};
  if (cell.path == Path::jittered) {
    return [policy, d, state](std::span<double> out) {
      for (double& j : out) j = policy.jittered(d, *state).count();
    };
  }
  return [policy, attempt = b.attempt, state](std::span<double> out) {
    for (double& j : out) j = policy.next_delay(attempt, Seconds{0.0}, *state).value().count();
  };
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

Backoff Cell::backoff() const {
  RetryPolicy::Options o{.max_attempts = 10, .jitter_factor = factor};
  std::int64_t attempt = 1;
  switch (delay) {
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
  return {o, attempt};
}

double Cell::delay_seconds() const {
  const Backoff b = backoff();
  return RetryPolicy(b.options)
      .next_delay(b.attempt, Seconds{0.0}, amqp::Jitter::off)
      .value()
      .count();
}

std::vector<Cell> grid() {
  std::vector<Cell> cells;
  for (const Path path : {Path::jittered, Path::next_delay}) {
    for (const SourceKind source : {SourceKind::ruby, SourceKind::default_source}) {
      for (const double factor : kFactors) {
        for (const DelayKind delay : kDelayKinds) {
          cells.push_back(Cell{factor, delay, path, source});
        }
      }
    }
  }
  return cells;
}

JitterStream stream(const Cell& cell, std::uint64_t seed) {
  if (cell.source == SourceKind::ruby) {
    return policy_stream(cell, amqp::RubyRandom(static_cast<std::uint32_t>(seed)));
  }
  amqp::DefaultSource::seed_this_thread(seed);
  return policy_stream(cell, amqp::DefaultSource{});
}

std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t index) {
  std::uint64_t z = seed + 0x9e3779b97f4a7c15ULL * (index + 1);
  z = (z ^ (z >> 30U)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27U)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31U);
}

}  // namespace acemq::stats
