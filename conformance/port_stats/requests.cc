#include "conformance/port_stats/requests.hpp"

#include "conformance/protocol/policy_spec.hpp"
#include "conformance/protocol/wire.hpp"
#include "stats/battery/resolution.hpp"

namespace acemq::conformance {

std::string request_prefix(const amqp::RetryPolicy::Options& o, bool jittered, double delay,
                           std::int64_t attempt, std::int64_t threads) {
  PolicySpec policy;
  policy.fields = o;
  std::string out = R"(,"op":"sample","policy":)" + policy_json(policy) + ",";
  if (jittered) {
    out += R"("delay":)";
    append_number(out, delay);
  } else {
    out += R"("attempt":)" + std::to_string(attempt);
  }
  if (threads > 1) out += R"(,"threads":)" + std::to_string(threads);
  out += R"(,"count":)";
  return out;
}

std::string request_prefix(const stats::Cell& cell) {
  const stats::Backoff b = cell.backoff();
  return request_prefix(b.options, cell.path == stats::Path::jittered, cell.delay_seconds(),
                        b.attempt);
}

std::string exact_cell_prefix(std::int64_t threads) {
  const amqp::RetryPolicy::Options o{.max_attempts = 2,
                                     .initial_delay = amqp::Seconds{stats::kExactDelay},
                                     .multiplier = 1.0,
                                     .max_delay = amqp::Seconds{0.0},
                                     .jitter_factor = stats::kExactFactor};
  return request_prefix(o, true, stats::kExactDelay, 1, threads);
}

std::string threads_cell_name(int threads) {
  return "jittered/port/f1/threads" + std::to_string(threads);
}

}  // namespace acemq::conformance
