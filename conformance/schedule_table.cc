#include "schedule_table.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "protocol.hpp"
#include "wire.hpp"

namespace acemq::conformance {
namespace {

using amqp::RetryPolicy;
using amqp::Seconds;

std::string number(double x) {
  std::string text = format_number(x);
  if (!text.empty() && text.front() == '"') text = text.substr(1, text.size() - 2);
  return text;
}

std::string describe(const RetryPolicy& p) {
  return "RetryPolicy(max_attempts: " + std::to_string(p.max_attempts()) +
         ", initial_delay: " + number(p.initial_delay().count()) +
         ", multiplier: " + number(p.multiplier()) +
         ", max_delay: " + number(p.max_delay().count()) +
         ", jitter_factor: " + number(p.jitter_factor()) +
         ", max_message_age: " + number(p.max_message_age().count()) + ")";
}

// The first attempt after which a message whose waits were those in
// `column` is at least `limit` old, so next_delay gives up; 0 if never.
std::int64_t gives_up_after(const std::vector<ScheduleRow>& rows, double limit,
                            double ScheduleRow::*column) {
  for (const ScheduleRow& row : rows) {
    if (row.*column >= limit) return row.attempt + 1;
  }
  return 0;
}

}  // namespace

std::vector<ScheduleRow> schedule_rows(const RetryPolicy& policy) {
  const amqp::DelayRange delays = policy.delays();
  if (delays.size() > kMaxScheduleEntries) {
    throw std::length_error("max_attempts " + std::to_string(policy.max_attempts()) + " makes " +
                            std::to_string(delays.size()) +
                            " rows, more than 65536; ask for fewer attempts");
  }
  std::vector<ScheduleRow> rows;
  rows.reserve(static_cast<std::size_t>(delays.size()));
  const double f = policy.jitter_factor();
  double waited_least = 0.0;
  double waited_nominal = 0.0;
  double waited_most = 0.0;
  std::int64_t attempt = 0;
  for (const Seconds entry : delays) {
    const double d = entry.count();
    // The bottom is a real jittered value (r = 0), the top the closed
    // range's bound the contract states; neither is below 0 for a valid
    // policy, so next_delay's clamp changes nothing.
    const double least = policy.jittered_with_draw(entry, 0.0).count();
    const double most = d * (1 + f);
    waited_least += least;
    waited_nominal += d;
    waited_most += most;
    rows.push_back({++attempt, d, least, most, waited_least, waited_nominal, waited_most});
  }
  return rows;
}

std::string schedule_table(const RetryPolicy& policy) {
  const std::vector<ScheduleRow> rows = schedule_rows(policy);
  constexpr std::size_t kColumns = 7;
  const std::array<std::string, kColumns> header = {
      "after attempt", "delay",          "jittered least", "jittered most",
      "waited least",  "waited nominal", "waited most"};
  std::vector<std::array<std::string, kColumns>> cells;
  cells.reserve(rows.size());
  for (const ScheduleRow& r : rows) {
    cells.push_back({std::to_string(r.attempt), number(r.delay), number(r.least), number(r.most),
                     number(r.waited_least), number(r.waited_nominal), number(r.waited_most)});
  }
  std::array<std::size_t, kColumns> width{};
  for (std::size_t c = 0; c < kColumns; ++c) {
    width[c] = header[c].size();
    for (const auto& row : cells) width[c] = std::max(width[c], row[c].size());
  }
  const auto line = [&](const std::array<std::string, kColumns>& row) {
    std::string out;
    for (std::size_t c = 0; c < kColumns; ++c) {
      if (c > 0) out += "  ";
      out += std::string(width[c] - row[c].size(), ' ') + row[c];  // numbers right-aligned
    }
    return out + "\n";
  };

  std::string out = describe(policy) + "\n";
  out +=
      "Delays in seconds. Row k is the wait after attempt k fails; jitter moves it "
      "within [d(1 - f), d(1 + f)].\n\n";
  out += line(header);
  for (const auto& row : cells) out += line(row);
  if (rows.empty()) out += "(no rows: max_attempts 1 means one delivery and no retry)\n";
  out += "\nAfter attempt " + std::to_string(policy.max_attempts()) +
         " next_delay gives up (max_attempts " + std::to_string(policy.max_attempts()) + ").\n";
  const double limit = policy.max_message_age().count();
  if (limit > 0.0) {
    const auto when = [&](double ScheduleRow::*column) {
      const std::int64_t k = gives_up_after(rows, limit, column);
      return k == 0 ? std::string("never, within max_attempts")
                    : "after attempt " + std::to_string(k);
    };
    out += "A message " + number(limit) +
           " s old gets no further attempt (max_message_age). Counting only the waits, "
           "that is " +
           when(&ScheduleRow::waited_most) + " if every wait is the most, " +
           when(&ScheduleRow::waited_nominal) + " if nominal, " + when(&ScheduleRow::waited_least) +
           " if the least.\n";
  }
  return out;
}

std::string schedule_json(const RetryPolicy& policy) {
  const std::vector<ScheduleRow> rows = schedule_rows(policy);
  std::string out = "{\"policy\":{\"max_attempts\":" + std::to_string(policy.max_attempts());
  const auto field = [&out](const char* name, double value) {
    out += ",\"";
    out += name;
    out += "\":";
    append_number(out, value);
  };
  field("initial_delay", policy.initial_delay().count());
  field("multiplier", policy.multiplier());
  field("max_delay", policy.max_delay().count());
  field("jitter_factor", policy.jitter_factor());
  field("max_message_age", policy.max_message_age().count());
  out += "},\"entries\":[";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const ScheduleRow& r = rows[i];
    if (i > 0) out += ",";
    out += "{\"attempt\":" + std::to_string(r.attempt) + ",\"delay\":";
    append_number(out, r.delay);
    out += ",\"jitter\":{\"least\":";
    append_number(out, r.least);
    out += ",\"most\":";
    append_number(out, r.most);
    out += "},\"waited\":{\"least\":";
    append_number(out, r.waited_least);
    out += ",\"nominal\":";
    append_number(out, r.waited_nominal);
    out += ",\"most\":";
    append_number(out, r.waited_most);
    out += "}}";
  }
  out += "]}";
  return out;
}

}  // namespace acemq::conformance
