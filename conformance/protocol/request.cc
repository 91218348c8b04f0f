#include "conformance/protocol/request.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <span>
#include <string>

#include "conformance/protocol/limits.hpp"
#include "conformance/protocol/refusals.hpp"
#include "conformance/protocol/vector_line.hpp"
#include "conformance/protocol/wire.hpp"

namespace acemq::conformance {
namespace {

using nlohmann::json;

// Text quoted in an error message, cut short: the message must name the
// field, not repeat a megabyte of input.
std::string clipped(std::string text) {
  constexpr std::size_t kShown = 60;
  if (text.size() > kShown) {
    text.resize(kShown);
    text += "...";
  }
  return text;
}

std::string quote(const json& value) { return clipped(to_line(value)); }

// A member's name as an error message shows it: a JSON string, so that any
// key (control characters, a megabyte of it) reads back unambiguously.
std::string quoted_key(std::string_view key) {
  std::string text;
  append_json_string(text, key);
  return clipped(text);
}

std::string joined(std::span<const std::string_view> names) {
  std::string out;
  for (const std::string_view name : names) {
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out;
}

// The "a", "b" or "c" of a message listing names.
std::string one_of(std::span<const std::string_view> names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " or " : ", ";
    out.append("\"").append(names[i]).append("\"");
  }
  return out;
}

const json* member(const json& object, std::string_view key) {
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

const json& required(const json& object, std::string_view key, const std::string& field) {
  const json* value = member(object, key);
  if (value == nullptr) refuse(Refuse::missing, field);
  return *value;
}

double number_at(const json& value, const std::string& field) {
  const std::optional<double> number = wire_number(value);
  if (!number) {
    refuse(Refuse::not_a_number, field, {{"got", quote(value)}});
  }
  return *number;
}

// Integers are JSON integers: 5.0 and 5e0 are floats on the wire, and a
// count written as a float is a bug in the sender worth hearing about. An
// integer too long for 64 bits arrives as a float from the JSON reader, and
// is out of range either way.
std::int64_t integer_at(const json& value, const std::string& field, std::int64_t lowest,
                        std::int64_t highest) {
  // Appended piece by piece: "[" + std::to_string(...) trips GCC 12's
  // -Wrestrict false positive (PR 105651) at -O3.
  std::string range = "[";
  range.append(std::to_string(lowest)).append(", ").append(std::to_string(highest));
  range.push_back(']');
  if (value.is_number_unsigned()) {
    // nlohmann reads every non-negative integer as unsigned, 0 included, so
    // the lower bound is checked here too (count's is 1).
    const std::uint64_t n = value.get<std::uint64_t>();
    if (n <= static_cast<std::uint64_t>(highest) && static_cast<std::int64_t>(n) >= lowest) {
      return static_cast<std::int64_t>(n);
    }
  } else if (value.is_number_integer()) {
    const std::int64_t n = value.get<std::int64_t>();
    if (n >= lowest && n <= highest) return n;
  } else {
    refuse(Refuse::not_an_integer, field, {{"range", range}, {"got", quote(value)}});
  }
  refuse(Refuse::integer_out_of_range, field, {{"range", range}, {"got", quote(value)}});
}

double draw_at(const json& value, const std::string& field) {
  const double r = number_at(value, field);
  // Checked here, even when no draw is taken, so the rule is one sentence.
  if (!(r >= 0.0 && r < 1.0)) refuse(Refuse::draw_out_of_range, field, {{"got", format_number(r)}});
  return r;
}

// Every member of `object` is one of `allowed` (or of `also`); `what` says
// whose members they are in the message, which lists the allowed ones.
void only_members(const json& object, std::span<const std::string_view> allowed,
                  std::span<const std::string_view> also, std::string_view prefix,
                  std::string_view what) {
  const auto listed = [](std::span<const std::string_view> names, std::string_view key) {
    return std::find(names.begin(), names.end(), key) != names.end();
  };
  for (const auto& [key, value] : object.items()) {
    if (listed(allowed, key) || listed(also, key)) continue;
    refuse(Refuse::not_a_member, std::string(prefix) + quoted_key(key),
           {{"whose", what}, {"members", joined(allowed)}});
  }
}

// ---- policy --------------------------------------------------------------

// One member of the policy object into the spec, read as its table row says.
void read_member(const json& value, const PolicyMember& m, PolicySpec& spec) {
  const std::string field = "policy." + std::string(m.name);
  if (m.integer) {
    m.set(spec, integer_at(value, field, kInt64Min, kInt64Max));
  } else {
    m.set(spec, number_at(value, field));
  }
}

// The factories' names, from their table; the constructor has none.
std::string factory_names() {
  std::vector<std::string_view> names;
  for (const Factory& f : factories()) {
    if (f.form != Form::constructor) names.push_back(f.name);
  }
  return one_of(names);
}

PolicySpec policy_spec(const json& p) {
  if (!p.is_object()) refuse(Refuse::policy_not_an_object, "policy", {{"got", quote(p)}});
  const json* factory_member = member(p, "factory");
  const Factory* factory = &factory_of(Form::constructor);
  if (factory_member != nullptr) {
    const std::string name = factory_member->is_string() ? factory_member->get<std::string>() : "";
    factory = factory_named(name);
    if (factory == nullptr) {
      refuse(Refuse::unknown_factory, "policy.factory",
             {{"factories", factory_names()}, {"got", quote(*factory_member)}});
    }
  }
  // The members the form takes, as the error lists them.
  std::vector<std::string_view> allowed;
  if (factory->form != Form::constructor) allowed.emplace_back("factory");
  for (const FactoryField& field : factory->fields) allowed.push_back(field.member);
  allowed.insert(allowed.end(), std::begin(kCopyMembers), std::end(kCopyMembers));
  only_members(p, allowed, {}, "policy.",
               factory->form == Form::constructor
                   ? std::string("a constructor policy")
                   : "a policy of factory " + std::string(factory->name));

  PolicySpec spec;
  spec.form = factory->form;
  for (const FactoryField& field : factory->fields) {
    const json* value = member(p, field.member);
    if (value == nullptr) {
      if (field.required) refuse(Refuse::missing, "policy." + std::string(field.member));
      continue;
    }
    read_member(*value, *policy_member(field.member), spec);
  }
  for (const std::string_view copy : kCopyMembers) {
    if (const json* value = member(p, copy)) read_member(*value, *policy_member(copy), spec);
  }
  return spec;
}

// ---- ops -----------------------------------------------------------------

// Every member of every op, one row each (request.hpp, MemberRule). The
// readers below take each integer's range from its row, so the range a
// request is refused outside is the range the table states.
constexpr MemberRule kId{"id", MemberType::any, Presence::optional, 0, 0, "null"};
constexpr MemberRule kOpMember{"op", MemberType::string, Presence::required};
constexpr MemberRule kPolicy{"policy", MemberType::object, Presence::required};
constexpr MemberRule kAttempt{"attempt", MemberType::integer, Presence::required, kInt64Min,
                              kInt64Max};
constexpr MemberRule kMessageAge{"message_age", MemberType::number, Presence::optional, 0, 0, "0"};
constexpr MemberRule kJitter{"jitter", MemberType::boolean, Presence::optional, 0, 0, "true"};
constexpr MemberRule kJitterDraw{"r", MemberType::draw, Presence::with_jitter};
constexpr MemberRule kDelay{"delay", MemberType::number, Presence::required};
constexpr MemberRule kDraw{"r", MemberType::draw, Presence::required};
constexpr MemberRule kSeed{"seed", MemberType::integer, Presence::required, 0, kMaxSeed};
constexpr MemberRule kSkip{"skip", MemberType::integer, Presence::optional, 0, kMaxReplaySkip, "0"};
constexpr MemberRule kCalls{"calls", MemberType::calls, Presence::required, 0,
                            static_cast<std::int64_t>(kMaxReplayCalls)};
constexpr MemberRule kCount{"count", MemberType::integer, Presence::required, 1, kMaxSampleCount};
constexpr MemberRule kSampleDelay{"delay", MemberType::number, Presence::one_of_delay_attempt};
constexpr MemberRule kSampleAttempt{"attempt", MemberType::integer, Presence::one_of_delay_attempt,
                                    kInt64Min, kInt64Max};
constexpr MemberRule kThreads{"threads", MemberType::integer, Presence::optional,
                              1,         kMaxSampleThreads,   "1"};

std::int64_t integer_of(const json& value, const MemberRule& rule) {
  return integer_at(value, std::string(rule.name), rule.lowest, rule.highest);
}
const json& required(const json& request, const MemberRule& rule) {
  return required(request, rule.name, std::string(rule.name));
}

NextDelayCall next_delay_call(const json& request) {
  NextDelayCall call;
  call.attempt = integer_of(required(request, kAttempt), kAttempt);
  if (const json* age = member(request, kMessageAge.name)) {
    call.message_age = number_at(*age, "message_age");
  }
  if (const json* value = member(request, kJitter.name)) {
    if (!value->is_boolean()) refuse(Refuse::not_a_boolean, "jitter", {{"got", quote(*value)}});
    call.jitter = value->get<bool>();
  }
  // Without jitter `r` is not read at all: neither required nor checked.
  if (call.jitter) call.r = draw_at(required(request, kJitterDraw), "r");
  return call;
}

JitteredCall jittered_call(const json& request) {
  return {number_at(required(request, kDelay), "delay"), draw_at(required(request, kDraw), "r")};
}

ReplayCall replay_call(const json& request) {
  ReplayCall replay;
  replay.seed = static_cast<std::uint32_t>(integer_of(required(request, kSeed), kSeed));
  if (const json* skip = member(request, kSkip.name)) replay.skip = integer_of(*skip, kSkip);
  const json& calls = required(request, kCalls);
  if (!calls.is_array()) refuse(Refuse::calls_not_an_array, "calls", {{"got", quote(calls)}});
  if (calls.size() > static_cast<std::size_t>(kCalls.highest)) {
    refuse(Refuse::too_many_calls, "calls",
           {{"n", std::to_string(calls.size())}, {"limit", std::to_string(kCalls.highest)}});
  }
  replay.calls.reserve(calls.size());
  for (std::size_t i = 0; i < calls.size(); ++i) {
    const std::string field = "calls[" + std::to_string(i) + "]";
    const json& call = calls[i];
    if (!call.is_array() || call.size() != 2) {
      refuse(Refuse::call_not_a_pair, field, {{"got", quote(call)}});
    }
    replay.calls.push_back(
        {integer_at(call[0], field + "[0] (attempt)", kAttempt.lowest, kAttempt.highest),
         number_at(call[1], field + "[1] (message_age)")});
  }
  return replay;
}

SampleCall sample_call(const json& request) {
  SampleCall sample;
  // Read as any positive int64 first, so that a count past the limit is
  // told apart from one that is no count at all.
  sample.count = integer_at(required(request, kCount), "count", kCount.lowest, kInt64Max);
  if (sample.count > kCount.highest) {
    refuse(Refuse::too_many_draws, "count",
           {{"n", std::to_string(sample.count)}, {"limit", std::to_string(kCount.highest)}});
  }
  const json* delay = member(request, kSampleDelay.name);
  const json* attempt = member(request, kSampleAttempt.name);
  if ((delay == nullptr) == (attempt == nullptr)) {
    if (delay == nullptr) refuse(Refuse::neither_delay_nor_attempt, "delay");
    refuse(Refuse::both_delay_and_attempt, "attempt");
  }
  if (delay != nullptr) {
    sample.of = number_at(*delay, "delay");
  } else {
    sample.of = integer_of(*attempt, kSampleAttempt);
  }
  if (const json* threads = member(request, kThreads.name)) {
    sample.threads = integer_of(*threads, kThreads);
  }
  return sample;
}

constexpr MemberRule kScheduleMembers[] = {kId, kOpMember, kPolicy};
constexpr MemberRule kNextDelayMembers[] = {kId,         kOpMember, kPolicy,    kAttempt,
                                            kMessageAge, kJitter,   kJitterDraw};
constexpr MemberRule kJitteredMembers[] = {kId, kOpMember, kPolicy, kDelay, kDraw};
constexpr MemberRule kReplayMembers[] = {kId, kOpMember, kPolicy, kSeed, kSkip, kCalls};
constexpr MemberRule kSampleMembers[] = {kId,    kOpMember, kPolicy, kSampleDelay, kSampleAttempt,
                                         kCount, kThreads};
// A vector line is a request with its expected answer added; these ride
// along and are never read.
constexpr std::string_view kVectorLineMembers[] = {"expect", "expect_error"};

// In Op's order, so that op_name can index it; each row beside its reader.
constexpr OpSpec kOps[] = {
    {"schedule", kScheduleMembers, "array of max_attempts - 1 numbers"},
    {"next_delay", kNextDelayMembers, "number, or null for \"give up\""},
    {"jittered", kJitteredMembers, "number"},
    {"replay", kReplayMembers, "array of numbers and nulls, one per call"},
    {"sample", kSampleMembers, "array of count numbers (null where next_delay gives up)",
     "its answers are the port's own random draws, which check cannot compare; "
     "retry-policy stats sends it and judges them"},
};
using OpReader = Op (*)(const json& request);
constexpr OpReader kReaders[] = {
    [](const json&) -> Op { return ScheduleCall{}; },
    [](const json& r) -> Op { return next_delay_call(r); },
    [](const json& r) -> Op { return jittered_call(r); },
    [](const json& r) -> Op { return replay_call(r); },
    [](const json& r) -> Op { return sample_call(r); },
};
static_assert(std::size(kOps) == std::variant_size_v<Op> && std::size(kReaders) == std::size(kOps),
              "one row and one reader an op, in Op's order");

// The ops' names, from their table, as unknown_op lists them.
std::string op_names() {
  std::vector<std::string_view> names;
  for (const OpSpec& op : kOps) names.push_back(op.name);
  return one_of(names);
}

std::size_t op_of(const json& request) {
  const json& op = required(request, kOpMember);
  if (op.is_string()) {
    for (std::size_t i = 0; i < std::size(kOps); ++i) {
      if (op.get_ref<const std::string&>() == kOps[i].name) return i;
    }
  }
  refuse(Refuse::unknown_op, "op", {{"ops", op_names()}, {"got", quote(op)}});
}

std::vector<std::string_view> names_of(std::span<const MemberRule> members) {
  std::vector<std::string_view> names;
  names.reserve(members.size());
  for (const MemberRule& m : members) names.push_back(m.name);
  return names;
}

// ---- lines ---------------------------------------------------------------

Refusal too_long(std::size_t bytes) {
  return refusal(Refuse::line_too_long, "line",
                 {{"n", std::to_string(bytes)}, {"limit", std::to_string(kMaxLineBytes)}});
}

// Where the JSON reader stopped on a line that is not one JSON value: its
// error id and the bytes it had read (the byte it stopped at is the last),
// from a SAX pass that builds nothing. The token it reports is read only for
// a number beyond binary64, where it is the literal; elsewhere it holds what
// the lexer buffered, not the token alone.
struct JsonStop {
  int id = 0;
  std::size_t read = 0;
  std::string token;
};

class StopFinder final : public json::json_sax_t {
 public:
  bool null() override { return true; }
  bool boolean(bool /*value*/) override { return true; }
  bool number_integer(json::number_integer_t /*value*/) override { return true; }
  bool number_unsigned(json::number_unsigned_t /*value*/) override { return true; }
  bool number_float(json::number_float_t /*value*/, const json::string_t& /*text*/) override {
    return true;
  }
  bool string(json::string_t& /*value*/) override { return true; }
  bool binary(json::binary_t& /*value*/) override { return true; }
  bool start_object(std::size_t /*size*/) override { return true; }
  bool key(json::string_t& /*value*/) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t /*size*/) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t position, const std::string& last_token,
                   const json::exception& error) override {
    stop = {error.id, position, last_token};
    return false;
  }

  JsonStop stop;
};

unsigned byte_at(std::string_view line, std::size_t i) {
  return static_cast<unsigned char>(line[i]);
}

// Whether line[i] is inside a string: after an opening quote not yet closed.
bool inside_string(std::string_view line, std::size_t i) {
  bool inside = false;
  for (std::size_t k = 0; k < i; ++k) {
    if (!inside) {
      inside = line[k] == '"';
    } else if (line[k] == '\\') {
      ++k;
    } else if (line[k] == '"') {
      inside = false;
    }
  }
  return inside;
}

// Whether the reader stopped on a byte of invalid UTF-8, or on the byte
// after a multi-byte sequence it cut short.
bool stopped_in_utf8(std::string_view line, std::size_t i) {
  if (byte_at(line, i) >= 0x80) return true;
  std::size_t continuation = 0;
  std::size_t lead = i;
  while (lead > 0 && (byte_at(line, lead - 1) & 0xC0U) == 0x80 && continuation < 3) {
    --lead;
    ++continuation;
  }
  if (lead == 0 || byte_at(line, lead - 1) < 0xC0) return false;
  const unsigned first = byte_at(line, lead - 1);
  const std::size_t needed = first >= 0xF0 ? 3 : first >= 0xE0 ? 2 : 1;
  return continuation < needed;
}

// Whether a \uXXXX escape naming a surrogate ends just before line[i].
bool after_surrogate_escape(std::string_view line, std::size_t i) {
  for (std::size_t at = i >= 7 ? i - 7 : 0; at + 6 <= i + 1 && at + 2 < line.size(); ++at) {
    if (line[at] != '\\' || line[at + 1] != 'u') continue;
    const char high = line[at + 2];
    const char next = at + 3 < line.size() ? line[at + 3] : ' ';
    if ((high == 'd' || high == 'D') &&
        std::string_view("89abcdefABCDEF").find(next) != std::string_view::npos) {
      return true;
    }
  }
  return false;
}

bool number_byte(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '+' || c == '.' ||
         c == 'e' || c == 'E';
}

// Why a line is not one JSON value, as a row of the refusal table, told
// apart by the reader's error id and the bytes where it stopped; none of the
// reader's own text reaches the answer.
Refusal malformed(std::string_view line) {
  if (line.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    return refusal(Refuse::empty_line, "line");
  }
  StopFinder finder;
  json::sax_parse(line.begin(), line.end(), &finder);
  const JsonStop& stop = finder.stop;
  if (stop.id == 406) {  // out_of_range.406: a number beyond binary64, the token its literal
    return refusal(Refuse::number_beyond_binary64, "line", {{"literal", clipped(stop.token)}});
  }
  // The reader read past the last byte: the line ends inside a value.
  if (stop.read == 0 || stop.read > line.size()) {
    return refusal(Refuse::ends_inside_a_value, "line");
  }
  const std::size_t i = stop.read - 1;  // the byte it stopped at
  const std::string column = std::to_string(stop.read);
  const auto at = [&](Refuse kind) { return refusal(kind, "line", {{"column", column}}); };
  if (i > 0 && json::accept(line.substr(0, i))) return at(Refuse::more_than_one_value);
  if (inside_string(line, i)) {
    if (stopped_in_utf8(line, i)) return at(Refuse::invalid_utf8);
    if (byte_at(line, i) < 0x20) return at(Refuse::control_character);
    if (after_surrogate_escape(line, i)) return at(Refuse::lone_surrogate);
    return at(Refuse::invalid_escape);
  }
  const std::string_view rest = line.substr(i);
  const bool after_minus = i > 0 && line[i - 1] == '-';
  if (rest.starts_with("NaN") || rest.starts_with("Infinity")) {
    return at(Refuse::bare_nan_or_infinity);
  }
  if (after_minus && rest.starts_with("Infinity")) return at(Refuse::bare_nan_or_infinity);
  if (i > 0 && number_byte(line[i - 1])) return at(Refuse::malformed_number);
  return at(Refuse::not_json);
}

json parse_json(std::string_view line) {
  if (line.size() > kMaxLineBytes) throw Refused{too_long(line.size())};
  // The JSON reader takes a NUL byte for the end of its input and would
  // answer the bytes before it; a NUL is never JSON (not whitespace, and
  // raw in a string it is a control character), so the line is malformed.
  if (const std::size_t nul = line.find('\0'); nul != std::string_view::npos) {
    refuse(Refuse::nul_byte, "line", {{"column", std::to_string(nul + 1)}});
  }
  if (!nesting_within(line, kMaxDepth)) {
    refuse(Refuse::too_deep, "line", {{"limit", std::to_string(kMaxDepth)}});
  }
  // nlohmann skips a byte-order mark; the protocol, like RFC 8259 for
  // network text, does not allow one.
  if (line.starts_with("\xEF\xBB\xBF")) refuse(Refuse::byte_order_mark, "line");
  try {
    return json::parse(line.begin(), line.end());
  } catch (const json::exception&) {
    throw Refused{malformed(line)};
  }
}

}  // namespace

std::string_view op_name(const Op& op) { return kOps[op.index()].name; }

std::span<const OpSpec> protocol_ops() { return kOps; }

std::span<const std::string_view> vector_line_members() { return kVectorLineMembers; }

namespace {

// A request from a JSON value already read from its line.
ParsedLine request_of(const json& request) {
  json id;  // null until the request is known to have one
  try {
    if (!request.is_object()) refuse(Refuse::not_an_object, "line", {{"got", quote(request)}});
    if (const json* given = member(request, "id")) id = *given;
    const std::size_t op = op_of(request);
    only_members(request, names_of(kOps[op].members), kVectorLineMembers, "",
                 "a " + std::string(kOps[op].name) + " request");
    const PolicySpec policy = policy_spec(required(request, "policy", "policy"));
    Op call = kReaders[op](request);
    // The id moves last: a refusal above still answers with it.
    return Request{std::move(id), policy, std::move(call)};
  } catch (const Refused& refused) {
    return Unanswerable{std::move(id), refused.refusal};
  }
}

}  // namespace

ParsedLine parse_request(std::string_view line) {
  json request;
  try {
    request = parse_json(line);
  } catch (const Refused& refused) {
    return Unanswerable{json(), refused.refusal};
  }
  return request_of(request);
}

std::variant<VectorLine, Refusal> read_vector_line(std::string_view text) {
  json line;
  try {
    line = parse_json(text);
  } catch (const Refused& refused) {
    return refused.refusal;
  }
  std::optional<std::string> request = without_members(text, kVectorLineMembers);
  if (!line.is_object() || !request) return refusal(Refuse::vector_line_not_an_object, "line");
  return VectorLine{std::move(*request), request_of(line), expected_answer(line)};
}

Unanswerable line_too_long(std::size_t bytes) { return Unanswerable{json(), too_long(bytes)}; }

}  // namespace acemq::conformance
