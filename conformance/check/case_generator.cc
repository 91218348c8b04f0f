#include "conformance/check/case_generator.hpp"

#include <optional>
#include <span>
#include <utility>

#include <nlohmann/json.hpp>

#include "conformance/check/buffer_borders.hpp"
#include "conformance/check/choice.hpp"
#include "conformance/check/dice.hpp"
#include "conformance/check/far_calls.hpp"
#include "conformance/check/fixed_lines.hpp"
#include "conformance/check/hard_numbers.hpp"
#include "conformance/check/invalid_rules.hpp"
#include "conformance/check/line_edits.hpp"
#include "conformance/check/malformations.hpp"
#include "conformance/check/valid_requests.hpp"
#include "conformance/check/wire_variants.hpp"
#include "conformance/protocol/wire.hpp"

namespace acemq::conformance {
namespace {

using generator::Choice;
using generator::choose;
using generator::Context;
using generator::Dice;
using generator::drawn_id_text;
using generator::far_call_request;
using generator::invalid_request;
using generator::InvalidRequest;
using generator::kFarCallEvery;
using generator::laid_out;
using generator::malformed_line;
using generator::MalformedLine;
using generator::numeric_id_in_turn;
using generator::NumericId;
using generator::valid_request;
using generator::with_raw_id;

constexpr Choice<OpKind> kOps[] = {
    {"schedule", 25, [](Dice&, const Context&) { return OpKind::schedule; }},
    {"next_delay", 35, [](Dice&, const Context&) { return OpKind::next_delay; }},
    {"jittered", 15, [](Dice&, const Context&) { return OpKind::jittered; }},
    {"replay", 25, [](Dice&, const Context&) { return OpKind::replay; }},
};

// What a case is: valid, or (full profile only) invalid or malformed. About
// one request in ten breaks a rule.
enum class Sort { valid, invalid, malformed };
bool in_full(const Context& c) { return c.profile == Profile::full; }
constexpr Choice<Sort> kSorts[] = {
    {"valid", 88.5, [](Dice&, const Context&) { return Sort::valid; }},
    {"invalid: breaks one rule", 8.5, [](Dice&, const Context&) { return Sort::invalid; }, in_full},
    // About 180 malformed lines in a run of 5000: each of every kind's
    // variants at least once (malformation_variant_count()), at any seed.
    {"malformed: no JSON object", 3, [](Dice&, const Context&) { return Sort::malformed; },
     in_full},
};

GeneratedCase generated(std::string line, CaseKind kind, std::optional<OpKind> op,
                        std::string_view rule) {
  ParsedLine parsed = parse_request(line);
  return {std::move(line), std::move(parsed), kind, op, rule};
}

// A valid case's line that the core refuses is malformed, or breaks a
// rule, and counts there, under `rule`.
void counted_as_refused(GeneratedCase& c, std::string_view rule) {
  if (const auto* refused = std::get_if<Unanswerable>(&c.parsed)) {
    c.kind = refused->refusal.field == "line" ? CaseKind::malformed : CaseKind::invalid;
    c.rule = rule;
  }
}

}  // namespace

std::string_view GeneratedCase::tally_name() const {
  switch (kind) {
    case CaseKind::valid: return op_name(*op);
    case CaseKind::invalid: return "invalid";
    case CaseKind::malformed: return "malformed line";
  }
  return {};
}

CaseGenerator::CaseGenerator(std::uint64_t seed, Profile profile)
    : engine_(seed), profile_(profile) {}

GeneratedCase CaseGenerator::next(std::int64_t id) {
  // The opening, then every kBorderEvery-th case, goes between the drawn
  // cases and draws nothing: each drawn case is the one the seed gives.
  ++made_;
  std::optional<generator::BorderCase> border = generator::opening_case(made_, id);
  if (!border && made_ > generator::opening_cases() && made_ % generator::kBorderEvery == 0) {
    border = generator::border_case_in_turn(borders_++);
  }
  if (border) {
    GeneratedCase made = generated(std::move(border->line), CaseKind::valid, border->op, {});
    made.source = CaseSource::border;
    return made;
  }
  if (profile_ == Profile::full && made_ % generator::kFixedEvery == 0) {
    const std::size_t turn = fixed_lines_++ % generator::fixed_line_count();
    generator::FixedLine fixed = generator::fixed_line_in_turn(turn, id);
    GeneratedCase made = generated(std::move(fixed.line), CaseKind::valid, fixed.op, {});
    made.source = CaseSource::fixed_line;
    made.fixed_line = fixed.name;
    made.variant = turn;
    counted_as_refused(made, "a fixed line (fixed_lines.hpp)");
    return made;
  }
  Dice d(engine_);
  Context c;
  c.profile = profile_;
  const bool far = profile_ == Profile::full && ++cases_ % kFarCallEvery == 0;
  if (!far) {
    switch (choose<Sort>(d, kSorts, c)) {
      case Sort::invalid: {
        InvalidRequest invalid = invalid_request(d, profile_, id, invalid_++);
        GeneratedCase made =
            generated(to_line(invalid.request), CaseKind::invalid, invalid.op, invalid.rule);
        made.variant = invalid.variant;
        return made;
      }
      case Sort::malformed: {
        const std::string valid = to_line(valid_request(d, profile_, id, OpKind::schedule));
        MalformedLine malformed = malformed_line(d, valid, malformed_++);
        GeneratedCase made =
            generated(std::move(malformed.line), CaseKind::malformed, std::nullopt, malformed.kind);
        made.variant = malformed.variant;
        return made;
      }
      case Sort::valid: break;
    }
  }
  ++valid_;
  const NumericId* numeric = numeric_id_in_turn(valid_);
  for (;;) {
    const OpKind op = far ? OpKind::next_delay : choose<OpKind>(d, kOps, c);
    const nlohmann::ordered_json request =
        far ? far_call_request(d, id, far_calls_++) : valid_request(d, profile_, id, op);
    std::string id_text = drawn_id_text(d, id);
    if (numeric != nullptr) id_text = numeric->text;
    // A numeric id's line keeps its meaning: its id must come back.
    const generator::HardNumberScope hard_numbers(hard_numbers_, numeric == nullptr);
    GeneratedCase valid = generated(laid_out(d, profile_, with_raw_id(to_line(request), id_text)),
                                    CaseKind::valid, op, {});
    if (far) valid.source = CaseSource::far_call;
    if (numeric != nullptr) valid.numeric_id = numeric->name;
    if (const auto& taken = hard_numbers.taken()) {
      valid.hard_number = taken->row;
      valid.variant = taken->variant;
      // A text of fixed meaning may leave no request (1e100000000 is beyond
      // binary64, 1e22 no draw).
      counted_as_refused(valid, taken->row);
    }
    if (profile_ == Profile::full) return valid;
    // A valid request's line is always a Request: only the core can refuse it.
    if (reference_agrees(std::get<Request>(valid.parsed))) return valid;
  }
}

}  // namespace acemq::conformance
