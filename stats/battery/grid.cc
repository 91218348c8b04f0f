#include "stats/battery/grid.hpp"

#include <charconv>
#include <limits>
#include <memory>
#include <stdexcept>

#include "acemq/amqp/ruby_random.hpp"
#include "acemq/amqp/uniform_source.hpp"
#include "stats/battery/battery.hpp"
#include "stats/battery/fleet.hpp"

namespace acemq::stats {
namespace {

using amqp::RetryPolicy;
using amqp::Seconds;

// The delays, each with the backoff whose unjittered next_delay is it (see
// grid.hpp for why each is there).
struct DelaySpec {
  DelayKind kind;
  const char* name;
  double initial_delay;
  double multiplier;
  double max_delay;  // 0: no cap
  std::int64_t attempt;
};
constexpr DelaySpec kDelaySpecs[] = {
    {DelayKind::tiny, "tiny", 2.6 * std::numeric_limits<double>::min(), 0.5, 0.0, 2},
    {DelayKind::ordinary, "ordinary", 0.3, 1.7, 0.0, 5},
    {DelayKind::huge, "huge", std::numeric_limits<double>::max() / 4, 2.0, 0.0, 2},
    {DelayKind::cap, "cap", 0.5, 2.0, 30.0, 8},
};

const DelaySpec& spec(DelayKind kind) {
  for (const DelaySpec& s : kDelaySpecs) {
    if (s.kind == kind) return s;
  }
  throw std::logic_error("grid: a delay kind without a row in kDelaySpecs");
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
  out += source == SourceKind::ruby             ? "/ruby"
         : source == SourceKind::default_source ? "/default"
                                                : "/port";
  out += "/f";
  out.append(f, end);
  out += "/";
  out += spec(delay).name;
  return out;
}

Backoff Cell::backoff() const {
  const DelaySpec& d = spec(delay);
  const RetryPolicy::Options o{.max_attempts = 10,
                               .initial_delay = Seconds{d.initial_delay},
                               .multiplier = d.multiplier,
                               .max_delay = Seconds{d.max_delay},
                               .jitter_factor = factor};
  return {o, d.attempt};
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

std::vector<Cell> port_grid() {
  std::vector<Cell> cells;
  for (const Path path : {Path::jittered, Path::next_delay}) {
    for (const double factor : kFactors) {
      for (const DelayKind delay : kDelayKinds)
        cells.push_back(Cell{factor, delay, path, SourceKind::port});
    }
  }
  return cells;
}

JitterStream stream(const Cell& cell, std::uint64_t seed) {
  if (cell.source == SourceKind::port) {
    throw std::logic_error("grid: a port's cell is drawn by the port, not by stream()");
  }
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

std::size_t port_family_size(bool threads_cell, bool fleet) {
  return (port_grid().size() + (threads_cell ? 1 : 0)) * kTestsPerSample + 1 +
         (fleet ? kFleetTests : 0);
}

}  // namespace acemq::stats
