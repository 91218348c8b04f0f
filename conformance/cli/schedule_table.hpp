// The `retry-policy schedule` report: a policy's delays, their jitter ranges
// and the cumulative wait, as a table for people, JSON for machines, or a
// picture (schedule_svg.hpp).
//
// Row k is the wait after attempt k has failed: the schedule's delay d, the
// range jitter may move it to (the contract's jitter at the least and the
// largest draw, r = 0 and r = 1 - 2^-53, as the core computes it), and the
// total waited since the first failure if every wait so far were the least,
// the nominal or the most. "Four numbers are easier to argue with than three
// parameters."
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "acemq/amqp/retry_policy.hpp"

namespace acemq::conformance {

struct ScheduleRow {
  std::int64_t attempt;  // the attempt that has just failed, from 1
  double delay;          // the schedule's entry, before jitter
  double least;          // jittered at r = 0: d(1 - f)
  double most;           // jittered at r = 1 - 2^-53: the top of the range
  double waited_least;   // cumulative sums, in attempt order
  double waited_nominal;
  double waited_most;
};

// Throws std::length_error above kMaxScheduleEntries rows (protocol/limits.hpp).
std::vector<ScheduleRow> schedule_rows(const amqp::RetryPolicy& policy);

// When the age limit stops retries, for one column of waits: the first
// attempt at which the message, counting only the waits, is at least
// max_message_age old. next_delay gives up after it, so it is the last.
struct AgeLimitReached {
  std::int64_t attempt;  // the last attempt made
  double age;            // the message's age at it, by that column's waits
};
std::optional<AgeLimitReached> age_limit_reached(const std::vector<ScheduleRow>& rows, double limit,
                                                 double ScheduleRow::*waited);

// The age limit's effect in words, the same in the table's footnote and
// under the picture: "60 s old after the wait that follows attempt 7
// (61.5 s), so attempt 8 is the last". The picture circles that wait, at
// attempt 7 on its axis of attempts that failed.
std::string age_limit_words(const AgeLimitReached& reached, double limit);

// A number of seconds for people: at most 4 significant digits, no exponent
// between 0.001 and 10^6, "Infinity" spelt out. Never for machines.
std::string human_number(double seconds);

// A duration for people, in the unit that suits it: seconds below 10
// minutes, minutes below 5 hours, hours below 3 days, then days ("90 s",
// "12.5 min", "10 h").
std::string human_duration(double seconds);

std::string schedule_table(const amqp::RetryPolicy& policy);
std::string schedule_json(const amqp::RetryPolicy& policy);

}  // namespace acemq::conformance
