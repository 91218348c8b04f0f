#include "conformance/cli/schedule_table.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string_view>

#include "acemq/model/edge_values.hpp"
#include "conformance/protocol/limits.hpp"
#include "conformance/protocol/wire.hpp"

namespace acemq::conformance {
namespace {

using amqp::RetryPolicy;
using amqp::Seconds;

std::string number(double x) {
  std::string text = format_number(x);
  if (!text.empty() && text.front() == '"') text = text.substr(1, text.size() - 2);
  return text;
}

std::string heading_of(const RetryPolicy& p) {
  return "RetryPolicy(max_attempts: " + std::to_string(p.max_attempts()) +
         ", initial_delay: " + number(p.initial_delay().count()) +
         ", multiplier: " + number(p.multiplier()) +
         ", max_delay: " + number(p.max_delay().count()) +
         ", jitter_factor: " + number(p.jitter_factor()) +
         ", max_message_age: " + number(p.max_message_age().count()) + ")";
}

// How the age limit ends one column of waits, as a line of the footnote.
std::string age_limit_line(const std::vector<ScheduleRow>& rows, const RetryPolicy& policy,
                           double ScheduleRow::*waited, const char* which) {
  std::string out = "  if every wait is ";
  out += which;
  out.append(std::string(12 - std::string_view(which).size(), ' '));
  const double limit = policy.max_message_age().count();
  if (const auto reached = age_limit_reached(rows, limit, waited)) {
    out += age_limit_words(*reached, limit);
  } else {
    const double age = rows.empty() ? 0.0 : rows.back().*waited;
    out += "only " + human_duration(age) + " old at attempt " +
           std::to_string(policy.max_attempts()) + ", so max_attempts ends it";
  }
  return out + "\n";
}

}  // namespace

std::string age_limit_words(const AgeLimitReached& reached, double limit) {
  return human_duration(limit) + " old after the wait that follows attempt " +
         std::to_string(reached.attempt - 1) + " (" + human_duration(reached.age) +
         "), so attempt " + std::to_string(reached.attempt) + " is the last";
}

std::string human_number(double x) {
  if (std::isnan(x)) return "NaN";
  if (std::isinf(x)) return x > 0 ? "Infinity" : "-Infinity";
  if (x == 0.0) return std::signbit(x) ? "-0" : "0";
  constexpr int kDigits = 4;
  char buffer[48];
  const double magnitude = std::fabs(x);
  if (magnitude < 1e-3 || magnitude >= 1e6) {
    std::snprintf(buffer, sizeof buffer, "%.*e", kDigits - 1, x);
  } else {
    // Decimals for kDigits significant digits, none below 1.
    const int exponent = static_cast<int>(std::floor(std::log10(magnitude)));
    std::snprintf(buffer, sizeof buffer, "%.*f", std::max(0, kDigits - 1 - exponent), x);
  }
  std::string text(buffer);
  // Trailing zeros of the fraction say nothing to a person: 1.800 is 1.8.
  const std::size_t e = text.find('e');
  std::string mantissa = text.substr(0, e);
  const std::string exponent_part = e == std::string::npos ? "" : text.substr(e);
  if (mantissa.find('.') != std::string::npos) {
    mantissa.erase(mantissa.find_last_not_of('0') + 1);
    if (mantissa.back() == '.') mantissa.pop_back();
  }
  return mantissa + exponent_part;
}

std::string human_duration(double seconds) {
  const double magnitude = std::fabs(seconds);
  if (!std::isfinite(seconds) || magnitude < 600) return human_number(seconds) + " s";
  if (magnitude < 5 * 3600) return human_number(seconds / 60) + " min";
  if (magnitude < 3 * 86400) return human_number(seconds / 3600) + " h";
  return human_number(seconds / 86400) + " d";
}

std::vector<ScheduleRow> schedule_rows(const RetryPolicy& policy) {
  const amqp::DelayRange delays = policy.delays();
  if (delays.size() > kMaxScheduleEntries) {
    throw std::length_error("max_attempts " + std::to_string(policy.max_attempts()) + " makes " +
                            std::to_string(delays.size()) +
                            " rows, more than 65536; ask for fewer attempts");
  }
  std::vector<ScheduleRow> rows;
  rows.reserve(static_cast<std::size_t>(delays.size()));
  double waited_least = 0.0;
  double waited_nominal = 0.0;
  double waited_most = 0.0;
  std::int64_t attempt = 0;
  for (const Seconds entry : delays) {
    const double d = entry.count();
    // Both ends are real jittered values, the least and the largest draw's,
    // as the core computes them; neither is below 0 for a valid policy, so
    // next_delay's clamp changes nothing.
    const double least = policy.jittered_with_draw(entry, 0.0).count();
    const double most = policy.jittered_with_draw(entry, model::edges::kLargestDraw).count();
    waited_least += least;
    waited_nominal += d;
    waited_most += most;
    rows.push_back({++attempt, d, least, most, waited_least, waited_nominal, waited_most});
  }
  return rows;
}

std::optional<AgeLimitReached> age_limit_reached(const std::vector<ScheduleRow>& rows, double limit,
                                                 double ScheduleRow::*waited) {
  if (!(limit > 0.0)) return std::nullopt;
  for (const ScheduleRow& row : rows) {
    // After row k's wait the message is this old at attempt k + 1.
    if (row.*waited >= limit) return AgeLimitReached{row.attempt + 1, row.*waited};
  }
  return std::nullopt;
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
    cells.push_back({std::to_string(r.attempt), human_number(r.delay), human_number(r.least),
                     human_number(r.most), human_number(r.waited_least),
                     human_number(r.waited_nominal), human_number(r.waited_most)});
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

  std::string out = heading_of(policy) + "\n";
  out +=
      "Seconds, to 4 significant digits (--json gives every value exact). Row k is the wait "
      "after attempt k fails;\njitter moves it anywhere from least to most, d(1 - f) to "
      "d(1 + f).\n\n";
  out += line(header);
  for (const auto& row : cells) out += line(row);
  if (rows.empty()) out += "(no rows: max_attempts 1 means one delivery and no retry)\n";
  const std::string n = std::to_string(policy.max_attempts());
  const double limit = policy.max_message_age().count();
  if (!(limit > 0.0)) {
    out += "\nRetries stop after attempt " + n + " (max_attempts " + n +
           "); there is no age limit (max_message_age 0).\n";
    return out;
  }
  out += "\nRetries stop after attempt " + n + " (max_attempts " + n +
         "), or once the message is " + human_duration(limit) +
         " old (max_message_age).\nCounting only the waits, not the time each delivery "
         "takes:\n";
  out += age_limit_line(rows, policy, &ScheduleRow::waited_most, "the most:");
  out += age_limit_line(rows, policy, &ScheduleRow::waited_nominal, "nominal:");
  out += age_limit_line(rows, policy, &ScheduleRow::waited_least, "the least:");
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
