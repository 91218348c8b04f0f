#include "conformance/check/invalid_rules.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <random>
#include <span>
#include <utility>
#include <vector>

#include "acemq/model/edge_values.hpp"
#include "conformance/check/case_generator.hpp"
#include "conformance/check/doubles.hpp"
#include "conformance/check/valid_requests.hpp"
#include "conformance/protocol/limits.hpp"
#include "conformance/protocol/request.hpp"

namespace acemq::conformance {
namespace generator {
namespace {

using nlohmann::ordered_json;
namespace edges = model::edges;

constexpr std::int64_t kMaxStepsAnswered = kMaxSteps + 1;  // attempt 2^20 + 1 is always answered

// Each row breaks one rule of the protocol (docs/protocol.md, Errors)
// in a request of its op made to be valid, so both sides must answer with an
// error; `op` is the op the row needs, or any. (A far attempt the generator
// chose can make the request an error already, at the cost limit.)
constexpr std::optional<OpKind> kAnyOp = std::nullopt;

// Which variant of its rule an invalid case sends. A rule's discrete
// choices (which bad value, which member) are the digits of the variant's
// number, so a probe counts them, and the rules' variants are sent in turn:
// which ones a run reaches depends on the case count only, never on the
// seed or on the other rules. Continuous values (a negative delay's size)
// are still drawn.
class Variant {
 public:
  explicit Variant(std::size_t number) : rest_(number) {}

  template <typename T, std::size_t N>
  const T& one_of(const T (&values)[N]) {
    return values[digit(N)];
  }
  template <typename T>
  const T& one_of(std::span<const T> values) {
    return values[digit(values.size())];
  }
  bool either() { return digit(2) == 1; }
  // How many variants the choices made so far make: their product.
  std::size_t count() const { return count_; }

 private:
  std::size_t digit(std::size_t n) {
    count_ *= n;
    const std::size_t k = rest_ % n;
    rest_ /= n;
    return k;
  }
  std::size_t rest_;
  std::size_t count_ = 1;
};

struct InvalidRule {
  std::string_view rule;
  std::optional<OpKind> op;
  void (*make)(Dice&, Variant&, ordered_json& request);
  // For a row whose variants span ops: the op of its k-th variant.
  OpKind (*op_of_variant)(std::size_t k) = nullptr;
};

const ordered_json kNaN = "NaN";

// 2^63 and 2^64 - 1: integers one past int64 and at the end of uint64.
constexpr std::uint64_t kPastInt64[] = {std::uint64_t{1} << 63,
                                        std::numeric_limits<std::uint64_t>::max()};

// ---- the rows of the protocol's table, each broken ------------------------

// One way to break one member's row of the protocol's table (request.hpp,
// MemberRule) in a request of one op: a value its type refuses, an integer
// one past its range, too many calls, or a required member left out. The
// list is made from the table, so a member added to it is broken here with
// no row written by hand.
struct TableBreak {
  OpKind op;
  std::string_view member;
  enum class How : std::uint8_t { value, too_many_calls, missing } how;
  ordered_json value;
};

// Values of every JSON type that a member of each type refuses ("Infinity"
// and its kin are numbers on the wire, so no string among a number's is one).
std::vector<ordered_json> refused_by(MemberType type) {
  const ordered_json array = ordered_json::array({1});
  const ordered_json object = ordered_json::object({{"a", 1}});
  switch (type) {
    case MemberType::any: return {};
    case MemberType::string: return {1, nullptr, "sched"};
    case MemberType::object: return {array, "exponential", 7, nullptr};
    case MemberType::integer: return {1.5, 2.0, "1", true, nullptr, array, object};
    case MemberType::number: return {"x", true, nullptr, ordered_json::array({1.0}), object};
    case MemberType::draw: return {"x", nullptr, true, 1.0, -5e-324, ordered_json::array({0.5})};
    case MemberType::boolean: return {1, "true", nullptr};
    case MemberType::calls: return {object, "x", nullptr, 1};
  }
  return {};
}

// An integer one step outside [lowest, highest]; past int64, where the
// range is all of it, as the nearest numbers JSON can still write.
std::vector<ordered_json> outside(const MemberRule& rule) {
  std::vector<ordered_json> values;
  if (rule.lowest == std::numeric_limits<std::int64_t>::min()) {
    values.emplace_back(-9223372036854775809.0);
  } else {
    values.emplace_back(rule.lowest - 1);
  }
  if (rule.highest == kInt64Max) {
    values.emplace_back(std::uint64_t{1} << 63);
  } else {
    values.emplace_back(rule.highest + 1);
  }
  return values;
}

const std::vector<TableBreak>& table_breaks() {
  static const std::vector<TableBreak> breaks = [] {
    std::vector<TableBreak> out;
    bool first_op = true;
    for (const OpKind op : kOpKinds) {
      for (const MemberRule& rule : op_spec(op).members) {
        // id, op and policy are every op's, read before the op's own: broken
        // in the first op's requests only.
        if (!first_op && (rule.name == "id" || rule.name == "op" || rule.name == "policy")) {
          continue;
        }
        for (ordered_json& value : refused_by(rule.type)) {
          out.push_back({op, rule.name, TableBreak::How::value, std::move(value)});
        }
        if (rule.type == MemberType::integer) {
          for (ordered_json& value : outside(rule)) {
            out.push_back({op, rule.name, TableBreak::How::value, std::move(value)});
          }
        }
        if (rule.type == MemberType::calls) {
          out.push_back({op, rule.name, TableBreak::How::too_many_calls, nullptr});
        }
        if (rule.presence == Presence::required || rule.presence == Presence::with_jitter) {
          out.push_back({op, rule.name, TableBreak::How::missing, nullptr});
        }
      }
      first_op = false;
    }
    return out;
  }();
  return breaks;
}

void break_table_row(Dice&, Variant& v, ordered_json& r) {
  const TableBreak& b = v.one_of(std::span<const TableBreak>(table_breaks()));
  const std::string member(b.member);
  // r is read, and so refused, only where jitter is on.
  if (b.op == OpKind::next_delay && member == "r") r["jitter"] = true;
  switch (b.how) {
    case TableBreak::How::value: r[member] = b.value; break;
    case TableBreak::How::missing: r.erase(member); break;
    case TableBreak::How::too_many_calls: {
      ordered_json calls = ordered_json::array();
      for (std::size_t i = 0; i <= kMaxReplayCalls; ++i)
        calls.push_back(ordered_json::array({1, 0}));
      r[member] = std::move(calls);
      break;
    }
  }
}

OpKind op_of_table_break(std::size_t k) { return table_breaks()[k].op; }

const InvalidRule kInvalidRules[] = {
    // The policy.
    {"policy.max_attempts below 1", kAnyOp,
     [](Dice&, Variant& v, ordered_json& r) {
       r["policy"] = {{"max_attempts", v.either() ? 0 : -3}};
     }},
    {"policy.max_attempts written with a fraction", kAnyOp,
     [](Dice&, Variant& v, ordered_json& r) {
       r["policy"] = {{"max_attempts", v.either() ? 2.5 : 5.0}};
     }},
    {"policy.max_attempts past int64", kAnyOp,
     [](Dice&, Variant& v, ordered_json& r) {
       r["policy"] = {{"max_attempts", v.one_of(kPastInt64)}};
     }},
    {"policy.max_attempts not a number", kAnyOp,
     [](Dice&, Variant& v, ordered_json& r) {
       static const ordered_json kBad[] = {"5", true, nullptr};
       r["policy"] = {{"max_attempts", v.one_of(kBad)}};
     }},
    {"policy.initial_delay negative", kAnyOp,
     [](Dice& d, Variant&, ordered_json& r) {
       r["policy"] = {{"initial_delay", -d.with_exponent(-10, 3)}};
     }},
    {"policy.multiplier NaN", kAnyOp,
     [](Dice&, Variant&, ordered_json& r) {
       r["policy"] = {{"max_attempts", 3}, {"multiplier", kNaN}};
     }},
    {"policy.max_delay infinite", kAnyOp,
     [](Dice&, Variant&, ordered_json& r) {
       r["policy"] = {{"max_attempts", 3}, {"max_delay", "Infinity"}};
     }},
    {"policy.jitter_factor above 1", kAnyOp,
     [](Dice&, Variant&, ordered_json& r) {
       r["policy"] = {{"jitter_factor", next_up(1.0)}};
     }},
    // Below 0 too: a range test that starts lower than 0 passes it.
    {"policy.jitter_factor below 0", kAnyOp,
     [](Dice&, Variant&, ordered_json& r) {
       r["policy"] = {{"jitter_factor", -0.25}};
     }},
    {"policy.max_message_age negative", kAnyOp,
     [](Dice&, Variant&, ordered_json& r) {
       r["policy"] = {{"max_message_age", -1.0}};
     }},
    {"policy field null", kAnyOp,
     [](Dice&, Variant&, ordered_json& r) {
       r["policy"] = {{"max_attempts", 3}, {"initial_delay", nullptr}};
     }},
    {"policy.give_up_after negative or NaN", kAnyOp,
     [](Dice&, Variant& v, ordered_json& r) {
       static const ordered_json kBad[] = {-1.0, kNaN, "soon", nullptr};
       r["policy"]["give_up_after"] = v.one_of(kBad);
     }},
    {"policy.with_jitter outside [0, 1]", kAnyOp,
     [](Dice&, Variant& v, ordered_json& r) {
       static const ordered_json kBad[] = {1.5, -0.25, "half", nullptr};
       r["policy"]["with_jitter"] = v.one_of(kBad);
     }},
    {"the base policy is validated before its copies", kAnyOp,
     [](Dice&, Variant&, ordered_json& r) {
       r["policy"] = {{"max_attempts", 3}, {"jitter_factor", 1.5}, {"with_jitter", 0.5}};
     }},
    {"policy field misspelt", kAnyOp,
     [](Dice&, Variant&, ordered_json& r) { r["policy"]["max_atempts"] = 3; }},
    {"policy.factory unknown or null", kAnyOp,
     [](Dice&, Variant& v, ordered_json& r) {
       r["policy"] = {{"factory", v.either() ? ordered_json("linear") : ordered_json(nullptr)}};
     }},
    {"factory fixed without its delay", kAnyOp,
     [](Dice&, Variant&, ordered_json& r) {
       r["policy"] = {{"factory", "fixed"}, {"max_attempts", 3}};
     }},
    {"a factory's field out of range", kAnyOp,
     [](Dice&, Variant& v, ordered_json& r) {
       static const ordered_json kBad[] = {
           {{"factory", "fixed"}, {"max_attempts", 3}, {"delay", -1.0}},
           {{"factory", "fixed"}, {"max_attempts", 0}, {"delay", 1.0}},
           {{"factory", "fixed"}, {"max_attempts", 3}, {"delay", "Infinity"}},
           {{"factory", "exponential"}, {"max_attempts", 3}, {"initial_delay", -0.5}},
           {{"factory", "exponential"},
            {"max_attempts", 3},
            {"initial_delay", 1.0},
            {"max_delay", "NaN"}},
           {{"factory", "exponential"}, {"max_attempts", -1}, {"initial_delay", 1.0}},
       };
       r["policy"] = v.one_of(kBad);
     }},
    {"a factory's field not a number", kAnyOp,
     [](Dice&, Variant& v, ordered_json& r) {
       static const ordered_json kBad[] = {
           {{"factory", "fixed"}, {"max_attempts", 3}, {"delay", "soon"}},
           {{"factory", "exponential"}, {"max_attempts", 3}, {"initial_delay", nullptr}},
           {{"factory", "exponential"},
            {"max_attempts", 3},
            {"initial_delay", 1.0},
            {"max_delay", "none"}},
       };
       r["policy"] = v.one_of(kBad);
     }},
    // Each factory takes its own members only: another's is refused, not
    // ignored, or the policy would silently differ from the one written.
    {"a factory given another shape's member", kAnyOp,
     [](Dice&, Variant& v, ordered_json& r) {
       static const ordered_json kBad[] = {
           {{"factory", "exponential"},
            {"max_attempts", 3},
            {"initial_delay", 1.0},
            {"multiplier", 3.0}},
           {{"factory", "exponential"},
            {"max_attempts", 3},
            {"initial_delay", 1.0},
            {"delay", 1.0}},
           {{"factory", "fixed"}, {"max_attempts", 3}, {"delay", 1.0}, {"max_delay", 2.0}},
       };
       r["policy"] = v.one_of(kBad);
     }},
    {"factory none with max_attempts", kAnyOp,
     [](Dice&, Variant&, ordered_json& r) {
       r["policy"] = {{"factory", "none"}, {"max_attempts", 3}};
     }},
    {"policy not an object", kAnyOp,
     [](Dice&, Variant& v, ordered_json& r) {
       static const ordered_json kBad[] = {ordered_json::array(), "exponential", 7};
       if (v.either()) r.erase("id");  // an absent id is answered as null
       r["policy"] = v.one_of(kBad);
     }},
    // The request.
    {"unknown top-level member", kAnyOp,
     [](Dice&, Variant& v, ordered_json& r) {
       static constexpr const char* kMisspelt[] = {"messageAge", "Policy", "jiter", "comment",
                                                   "expected"};
       r[v.one_of(kMisspelt)] = 1;
     }},
    {"a member of another op", OpKind::schedule,
     [](Dice&, Variant&, ordered_json& r) { r["attempt"] = 1; }},
    {"a member of another op", OpKind::jittered,
     [](Dice&, Variant&, ordered_json& r) { r["message_age"] = 0.0; }},
    {"a member of another op", OpKind::replay,
     [](Dice&, Variant&, ordered_json& r) { r["r"] = 0.5; }},
    // next_delay.
    {"attempt below 1", OpKind::next_delay,
     [](Dice&, Variant& v, ordered_json& r) { r["attempt"] = v.either() ? 0 : -1; }},
    {"attempt checked before the give-up test", OpKind::next_delay,
     [](Dice&, Variant&, ordered_json& r) {
       r["policy"] = {{"max_attempts", 1}};
       r["attempt"] = 0;
     }},
    {"attempt past int64", OpKind::next_delay,
     [](Dice&, Variant& v, ordered_json& r) { r["attempt"] = v.one_of(kPastInt64); }},
    {"message_age NaN", OpKind::next_delay,
     [](Dice&, Variant&, ordered_json& r) {
       r["message_age"] = kNaN;
       r["jitter"] = false;
     }},
    {"r outside [0, 1) or not a number", OpKind::next_delay,
     [](Dice&, Variant& v, ordered_json& r) {
       static const ordered_json kBad[] = {1.0, -5e-324, "NaN", 1.5, nullptr};
       r.erase("jitter");
       r["r"] = v.one_of(kBad);
     }},
    // Out of range even where no jitter applies: a port that checks r only
    // when it draws answers these.
    {"r outside [0, 1) where no jitter applies", OpKind::next_delay,
     [](Dice&, Variant& v, ordered_json& r) {
       static const ordered_json kBad[] = {-5e-324, -0.5, 1.0};
       r["policy"] = {{"max_attempts", 5}, {"initial_delay", v.either() ? 0.0 : 1.0}};
       r["attempt"] = 2;
       r.erase("jitter");
       r["r"] = v.one_of(kBad);
     }},
    {"r missing where jitter is on", OpKind::next_delay,
     [](Dice&, Variant& v, ordered_json& r) {
       if (v.either()) {
         r.erase("jitter");
       } else {
         r["jitter"] = true;
       }
       r.erase("r");
     }},
    {"next_delay past the cost limit", OpKind::next_delay,
     [](Dice&, Variant& v, ordered_json& r) {
       // No cap and a multiplier that creeps: the running value does not
       // settle, so an attempt past 2^20 + 1 is beyond the cost limit.
       r["policy"] = {
           {"max_attempts", kInt64Max},
           {"initial_delay", 1.0},
           {"multiplier", v.either() ? edges::kCreepingMultiplier : edges::kOneUlpAboveOne}};
       r["attempt"] = v.either() ? kMaxStepsAnswered + 1 : std::int64_t{1} << 40;
       r["jitter"] = false;
     }},
    // jittered.
    {"delay NaN or not a number", OpKind::jittered,
     [](Dice&, Variant& v, ordered_json& r) {
       r["delay"] = v.either() ? kNaN : ordered_json("x");
     }},
    // replay.
    {"a replay call not two elements", OpKind::replay,
     [](Dice&, Variant& v, ordered_json& r) {
       static const ordered_json kBad[] = {ordered_json::array({1}), ordered_json::array({1, 0, 0}),
                                           "x", ordered_json::object({{"attempt", 1}})};
       r["calls"].push_back(v.one_of(kBad));
     }},
    // A bad age is refused by two different checks: a number that is NaN by
    // the contract's rule, anything else by the protocol's; a row each.
    {"a replay call with a bad attempt, or age NaN", OpKind::replay,
     [](Dice&, Variant& v, ordered_json& r) {
       static const ordered_json kBad[] = {ordered_json::array({1.5, 0}),
                                           ordered_json::array({0, 0}),
                                           ordered_json::array({1, "NaN"})};
       r["calls"].push_back(v.one_of(kBad));
     }},
    {"a replay call with an age not a number", OpKind::replay,
     [](Dice&, Variant& v, ordered_json& r) {
       static const ordered_json kBad[] = {ordered_json::array({1, "old"}),
                                           ordered_json::array({1, nullptr})};
       r["calls"].push_back(v.one_of(kBad));
     }},
    // Every member of every op check sends, each broken in every way its
    // row of the protocol's table refuses.
    {"a member breaks its row of the protocol's table", kAnyOp, break_table_row, op_of_table_break},
    // schedule.
    {"a schedule longer than 65,536 entries", OpKind::schedule,
     [](Dice&, Variant& v, ordered_json& r) {
       r["policy"] = {
           {"max_attempts", v.either() ? kMaxScheduleEntries + 2 : std::int64_t{1} << 40}};
     }},
};

// Each row of kInvalidRules: how many variants it has, counted by a probe,
// and where they start among the variants of the rules of its name.
struct VariantCount {
  std::size_t variants;
  std::size_t first_of_name;
};
const std::vector<VariantCount>& variant_counts() {
  static const std::vector<VariantCount> counts = [] {
    std::vector<VariantCount> out;
    std::mt19937_64 engine(0);
    Dice d(engine);
    for (const InvalidRule& rule : kInvalidRules) {
      const OpKind op =
          rule.op_of_variant != nullptr ? rule.op_of_variant(0) : rule.op.value_or(kOpKinds[0]);
      ordered_json request = valid_request(d, Profile::full, 0, op);
      Variant probe(0);
      rule.make(d, probe, request);
      std::size_t first = 0;
      for (std::size_t i = 0; i < out.size(); ++i) {
        if (kInvalidRules[i].rule == rule.rule) first += out[i].variants;
      }
      out.push_back({probe.count(), first});
    }
    return out;
  }();
  return counts;
}

std::size_t invalid_variant_total() {
  std::size_t total = 0;
  for (const VariantCount& count : variant_counts()) total += count.variants;
  return total;
}

}  // namespace

// The turn-th invalid case sends the turn-th variant of all the rules'
// variants, laid end to end in the table's order.
InvalidRequest invalid_request(Dice& d, Profile profile, std::int64_t id, std::size_t turn) {
  const std::vector<VariantCount>& counts = variant_counts();
  std::size_t k = turn % invalid_variant_total();
  std::size_t row = 0;
  while (k >= counts[row].variants) k -= counts[row++].variants;
  const InvalidRule& rule = kInvalidRules[row];
  // Any op is drawn only for a row that fits any: the draw moves the dice.
  const OpKind op = rule.op_of_variant != nullptr ? rule.op_of_variant(k)
                    : rule.op.has_value()         ? *rule.op
                                                  : d.one_of(kOpKinds);
  ordered_json request = valid_request(d, profile, id, op);
  Variant variant(k);
  rule.make(d, variant, request);
  return {std::move(request), op, rule.rule, counts[row].first_of_name + k};
}

}  // namespace generator

std::vector<InvalidRuleRow> invalid_rules() {
  std::vector<InvalidRuleRow> rows;
  for (std::size_t i = 0; i < std::size(generator::kInvalidRules); ++i) {
    const std::string_view name = generator::kInvalidRules[i].rule;
    const auto same = [&](const InvalidRuleRow& row) { return row.name == name; };
    auto it = std::find_if(rows.begin(), rows.end(), same);
    if (it == rows.end()) it = rows.insert(rows.end(), {name, 0});
    it->variants += generator::variant_counts()[i].variants;
  }
  return rows;
}

std::size_t invalid_variant_count() { return generator::invalid_variant_total(); }

}  // namespace acemq::conformance
