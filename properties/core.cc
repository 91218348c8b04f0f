#include "properties/core.hpp"

#include <chrono>

#include "acemq/amqp/internal/walk.hpp"
#include "acemq/amqp/ruby_random.hpp"

namespace acemq::props {
namespace {

using amqp::Jitter;
using amqp::RetryPolicy;
using amqp::Seconds;

std::vector<double> to_doubles(const std::vector<Seconds>& delays) {
  std::vector<double> out;
  out.reserve(delays.size());
  for (const Seconds d : delays) out.push_back(d.count());
  return out;
}

std::optional<double> to_double(const std::optional<Seconds>& delay) {
  if (!delay) return std::nullopt;
  return delay->count();
}

Core make_library() {
  Core c;
  c.name = "library";
  c.construct = [](const Options& o) { return RetryPolicy(o).options(); };
  c.schedule = [](const Options& o) { return to_doubles(RetryPolicy(o).schedule()); };
  c.lazy_delays = [](const Options& o) {
    std::vector<double> out;
    for (const Seconds d : RetryPolicy(o).delays()) out.push_back(d.count());
    return out;
  };
  c.lazy_size = [](const Options& o) { return RetryPolicy(o).delays().size(); };
  c.next_delay_unjittered = [](const Options& o, std::int64_t attempt, double age) {
    return to_double(RetryPolicy(o).next_delay(attempt, Seconds{age}, Jitter::off));
  };
  c.next_delay = [](const Options& o, std::int64_t attempt, double age, Source& source) {
    return to_double(RetryPolicy(o).next_delay(attempt, Seconds{age}, source));
  };
  c.jittered = [](const Options& o, double delay, Source& source) {
    return RetryPolicy(o).jittered(Seconds{delay}, source).count();
  };
  c.jittered_with_draw = [](const Options& o, double delay, double r) {
    return RetryPolicy(o).jittered_with_draw(Seconds{delay}, r).count();
  };
  c.lazy_delays_postfix = [](const Options& o) {
    std::vector<double> out;
    const amqp::DelayRange range = RetryPolicy(o).delays();
    for (auto it = range.begin(); it != range.end();) out.push_back((*it++).count());
    return out;
  };
  c.lazy_positions_equal = [](const Options& o, std::int64_t i, std::int64_t j) {
    const amqp::DelayRange range = RetryPolicy(o).delays();
    auto a = range.begin();
    auto b = range.begin();
    for (std::int64_t k = 0; k < i; ++k) ++a;
    for (std::int64_t k = 0; k < j; ++k) ++b;
    return a == b;
  };
  c.lazy_empty = [](const Options& o) { return RetryPolicy(o).delays().empty(); };
  c.default_range_is_empty = [] {
    const amqp::DelayRange range;
    return range.size() == 0 && range.empty() && range.begin() == range.end();
  };
  c.next_delay_default = [](const Options& o, std::int64_t attempt, double age) {
    return to_double(RetryPolicy(o).next_delay(attempt, Seconds{age}));
  };
  c.jittered_default = [](const Options& o, double delay) {
    return RetryPolicy(o).jittered(Seconds{delay}).count();
  };
  c.seed_default_source = [](std::uint64_t seed) { amqp::DefaultSource::seed_this_thread(seed); };
  c.default_draw = [] { return amqp::DefaultSource{}(); };
  c.accessors = [](const Options& o) {
    const RetryPolicy p(o);
    return Options{.max_attempts = p.max_attempts(),
                   .initial_delay = p.initial_delay(),
                   .multiplier = p.multiplier(),
                   .max_delay = p.max_delay(),
                   .jitter_factor = p.jitter_factor(),
                   .max_message_age = p.max_message_age()};
  };
  c.equal = [](const Options& a, const Options& b) { return RetryPolicy(a) == RetryPolicy(b); };
  c.none = [] { return RetryPolicy::none().options(); };
  c.default_constructed = [] { return RetryPolicy().options(); };
  c.fixed = [](std::int64_t n, double delay) {
    return RetryPolicy::fixed(n, Seconds{delay}).options();
  };
  c.exponential = [](std::int64_t n, double delay) {
    return RetryPolicy::exponential(n, Seconds{delay}).options();
  };
  c.exponential_capped = [](std::int64_t n, double delay, double cap) {
    return RetryPolicy::exponential(n, Seconds{delay}, Seconds{cap}).options();
  };
  c.give_up_after = [](const Options& o, double age) {
    const RetryPolicy original(o);
    const RetryPolicy copy = original.give_up_after(Seconds{age});
    return std::pair{original.options(), copy.options()};
  };
  c.with_jitter = [](const Options& o, double factor) {
    const RetryPolicy original(o);
    const RetryPolicy copy = original.with_jitter(factor);
    return std::pair{original.options(), copy.options()};
  };
  c.walk_multiplications = [](const Options& o, std::int64_t attempt, double age,
                              std::int64_t limit) {
    return amqp::internal::walk_multiplications(RetryPolicy(o), attempt, age, limit);
  };
  c.ruby_random = [](std::uint32_t seed) -> Source {
    return [random = amqp::RubyRandom(seed)]() mutable { return random(); };
  };
  return c;
}

}  // namespace

const Core& library() {
  static const Core core = make_library();
  return core;
}

}  // namespace acemq::props
