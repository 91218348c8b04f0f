// The `retry-policy schedule` report: a policy's delays, their jitter ranges
// and the cumulative wait, as a table for people or JSON for machines.
//
// Row k is the wait after attempt k has failed: the schedule's delay d, the
// range jitter may move it to, [d(1 - f), d(1 + f)], and the total waited
// since the first failure if every wait so far were the least, the nominal or
// the most. "Four numbers are easier to argue with than three parameters."
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "acemq/amqp/retry_policy.hpp"

namespace acemq::conformance {

struct ScheduleRow {
  std::int64_t attempt;  // the attempt that has just failed, from 1
  double delay;          // the schedule's entry, before jitter
  double least;          // d(1 - f), as the contract's jitter with r = 0 gives it
  double most;           // d(1 + f), the top of the range
  double waited_least;   // cumulative sums, in attempt order
  double waited_nominal;
  double waited_most;
};

// Throws std::length_error above kMaxScheduleEntries rows (see protocol.hpp).
std::vector<ScheduleRow> schedule_rows(const amqp::RetryPolicy& policy);

std::string schedule_table(const amqp::RetryPolicy& policy);
std::string schedule_json(const amqp::RetryPolicy& policy);

}  // namespace acemq::conformance
