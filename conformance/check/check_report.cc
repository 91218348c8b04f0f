#include "conformance/check/check_report.hpp"

namespace acemq::conformance {

using nlohmann::ordered_json;

int CheckReport::exit_code() const {
  switch (verdict) {
    case CheckVerdict::agree: return 0;
    case CheckVerdict::different: return 1;
    case CheckVerdict::adapter_failed:
    case CheckVerdict::usage: return 2;
  }
  return 2;
}

std::string_view verdict_name(CheckVerdict verdict) {
  switch (verdict) {
    case CheckVerdict::agree: return "agree";
    case CheckVerdict::different: return "different";
    case CheckVerdict::adapter_failed: return "adapter failed";
    case CheckVerdict::usage: return "usage";
  }
  return "usage";
}

namespace {

template <typename T>
ordered_json optional_json(const std::optional<T>& value) {
  return value ? ordered_json(*value) : ordered_json(nullptr);
}

ordered_json rows_json(const std::vector<CheckReport::CoverageRow>& rows, bool with_variants) {
  ordered_json out = ordered_json::array();
  for (const CheckReport::CoverageRow& row : rows) {
    ordered_json r = {{"name", row.name}, {"count", row.count}};
    if (with_variants) {
      r["variants"] = row.variants;
      r["variants_reached"] = row.variants_reached;
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace

ordered_json to_json(const CheckReport& report) {
  ordered_json tallies = ordered_json::array();
  std::int64_t sent = 0;
  std::int64_t agreed = 0;
  for (const CheckReport::Tally& t : report.tallies) {
    tallies.push_back(
        {{"kind", t.kind}, {"sent", t.sent}, {"agreed", t.agreed}, {"skipped", t.skipped}});
    sent += t.sent;
    agreed += t.agreed;
  }
  ordered_json shown = ordered_json::array();
  for (const CheckReport::Mismatch& m : report.shown) {
    ordered_json shrunk = nullptr;
    if (m.shrunk) {
      shrunk = {{"request", m.shrunk->request},
                {"queries", m.shrunk->queries},
                {"differs", m.shrunk->differs},
                {"core", m.shrunk->core},
                {"adapter", m.shrunk->adapter}};
    }
    shown.push_back({{"where", m.where},
                     {"kind", m.kind},
                     {"differs", m.differs},
                     {"request", m.request},
                     {"shrunk", std::move(shrunk)},
                     {"same_as", optional_json(m.same_as)}});
  }
  return {
      {"format", "acemq-retry check 1"},
      {"verdict", verdict_name(report.verdict)},
      {"exit_code", report.exit_code()},
      {"adapter", report.adapter},
      {"profile", report.profile},
      // A string as well: a reader that takes numbers as doubles loses a
      // 64-bit seed's last digits, and the seed is what replays the run.
      {"seed", std::to_string(report.seed)},
      {"cases", report.cases},
      {"seconds", report.seconds},
      {"answers", {{"sent", sent}, {"agreed", agreed}, {"differ", report.mismatches}}},
      {"by_kind", std::move(tallies)},
      {"bursts",
       {{"at_once", report.bursts.at_once},
        {"lines_too_long", report.bursts.lines_too_long},
        {"answers_too_long", report.bursts.answers_too_long}}},
      {"shrunk", report.shrunk},
      {"distinct_smallest_requests", report.distinct_smallest},
      {"mismatches", std::move(shown)},
      {"core_disagrees_with_vectors", report.core_disagrees_with_vectors},
      {"adapter_failure", optional_json(report.adapter_failure)},
      {"usage_error", optional_json(report.usage_error)},
      {"coverage",
       {{"regimes", rows_json(report.regimes, false)},
        {"numeric_ids", rows_json(report.numeric_ids, false)},
        {"invalid_rules", rows_json(report.invalid_rules, true)},
        {"malformations", rows_json(report.malformations, true)}}},
  };
}

}  // namespace acemq::conformance
