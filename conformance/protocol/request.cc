#include "conformance/protocol/request.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <span>
#include <string>

#include "conformance/protocol/limits.hpp"
#include "conformance/protocol/vector_line.hpp"
#include "conformance/protocol/wire.hpp"

namespace acemq::conformance {
namespace {

using nlohmann::json;

constexpr std::int64_t kInt64Min = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();

// Thrown by the readers below, caught once in parse_request.
struct Refused {
  Refusal refusal;
};

[[noreturn]] void fail(std::string field, std::string what) {
  throw Refused{{std::move(field), std::move(what)}};
}

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

const json* member(const json& object, std::string_view key) {
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

const json& required(const json& object, std::string_view key, const std::string& field) {
  const json* value = member(object, key);
  if (value == nullptr) fail(field, "missing");
  return *value;
}

double number_at(const json& value, const std::string& field) {
  const std::optional<double> number = wire_number(value);
  if (!number) {
    fail(field, "must be a number or \"Infinity\", \"-Infinity\", \"NaN\", got " + quote(value));
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
    fail(field, "must be an integer in " + range + ", written without fraction or exponent, got " +
                    quote(value));
  }
  fail(field, "must be in " + range + ", got " + quote(value));
}

double draw_at(const json& value, const std::string& field) {
  const double r = number_at(value, field);
  // Checked here, even when no draw is taken, so the rule is one sentence.
  if (!(r >= 0.0 && r < 1.0)) fail(field, "must be in [0, 1), got " + format_number(r));
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
    fail(std::string(prefix) + quoted_key(key),
         "not a member of " + std::string(what) + " (its members: " + joined(allowed) + ")");
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

PolicySpec policy_spec(const json& p) {
  if (!p.is_object()) fail("policy", "must be an object, got " + quote(p));
  const json* factory_member = member(p, "factory");
  const Factory* factory = &factory_of(Form::constructor);
  if (factory_member != nullptr) {
    const std::string name = factory_member->is_string() ? factory_member->get<std::string>() : "";
    factory = factory_named(name);
    if (factory == nullptr) {
      fail("policy.factory",
           "must be \"none\", \"fixed\" or \"exponential\", got " + quote(*factory_member));
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
      if (field.required) fail("policy." + std::string(field.member), "missing");
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

NextDelayCall next_delay_call(const json& request) {
  NextDelayCall call;
  call.attempt =
      integer_at(required(request, "attempt", "attempt"), "attempt", kInt64Min, kInt64Max);
  if (const json* age = member(request, "message_age")) {
    call.message_age = number_at(*age, "message_age");
  }
  if (const json* value = member(request, "jitter")) {
    if (!value->is_boolean()) fail("jitter", "must be true or false, got " + quote(*value));
    call.jitter = value->get<bool>();
  }
  // Without jitter `r` is not read at all: neither required nor checked.
  if (call.jitter) call.r = draw_at(required(request, "r", "r"), "r");
  return call;
}

JitteredCall jittered_call(const json& request) {
  return {number_at(required(request, "delay", "delay"), "delay"),
          draw_at(required(request, "r", "r"), "r")};
}

ReplayCall replay_call(const json& request) {
  ReplayCall replay;
  replay.seed = static_cast<std::uint32_t>(
      integer_at(required(request, "seed", "seed"), "seed", 0, kMaxSeed));
  if (const json* skip = member(request, "skip")) {
    replay.skip = integer_at(*skip, "skip", 0, kMaxReplaySkip);
  }
  const json& calls = required(request, "calls", "calls");
  if (!calls.is_array())
    fail("calls", "must be an array of [attempt, message_age], got " + quote(calls));
  if (calls.size() > kMaxReplayCalls) {
    fail("calls", std::to_string(calls.size()) + " calls is more than the protocol's 256");
  }
  replay.calls.reserve(calls.size());
  for (std::size_t i = 0; i < calls.size(); ++i) {
    const std::string field = "calls[" + std::to_string(i) + "]";
    const json& call = calls[i];
    if (!call.is_array() || call.size() != 2) {
      fail(field, "must be [attempt, message_age], exactly two elements, got " + quote(call));
    }
    replay.calls.push_back({integer_at(call[0], field + "[0] (attempt)", kInt64Min, kInt64Max),
                            number_at(call[1], field + "[1] (message_age)")});
  }
  return replay;
}

SampleCall sample_call(const json& request) {
  SampleCall sample;
  sample.count = integer_at(required(request, "count", "count"), "count", 1, kInt64Max);
  if (sample.count > kMaxSampleCount) {
    fail("count", std::to_string(sample.count) + " draws is more than the protocol's 65536");
  }
  const json* delay = member(request, "delay");
  const json* attempt = member(request, "attempt");
  if ((delay == nullptr) == (attempt == nullptr)) {
    if (delay == nullptr) fail("delay", "missing, and so is attempt: give exactly one");
    fail("attempt", "not allowed with delay: give exactly one");
  }
  if (delay != nullptr) {
    sample.of = number_at(*delay, "delay");
  } else {
    sample.of = integer_at(*attempt, "attempt", kInt64Min, kInt64Max);
  }
  if (const json* threads = member(request, "threads")) {
    sample.threads = integer_at(*threads, "threads", 1, kMaxSampleThreads);
  }
  return sample;
}

// The ops, each with the members a request of it takes (id, op and policy
// included, as the error lists them) and how its own members are read.
constexpr std::string_view kScheduleMembers[] = {"id", "op", "policy"};
constexpr std::string_view kNextDelayMembers[] = {"id",          "op",     "policy", "attempt",
                                                  "message_age", "jitter", "r"};
constexpr std::string_view kJitteredMembers[] = {"id", "op", "policy", "delay", "r"};
constexpr std::string_view kReplayMembers[] = {"id", "op", "policy", "seed", "skip", "calls"};
constexpr std::string_view kSampleMembers[] = {"id",      "op",    "policy", "delay",
                                               "attempt", "count", "threads"};
// A vector line is a request with its expected answer added; these ride
// along and are never read.
constexpr std::string_view kVectorLineMembers[] = {"expect", "expect_error"};

struct OpRow {
  std::string_view name;
  std::span<const std::string_view> members;
  Op (*read)(const json& request);
  // Why `retry-policy check` never sends this op, if it does not.
  std::string_view not_sent_by_check = {};
};

// In Op's order, so that op_name can index it.
constexpr OpRow kOps[] = {
    {"schedule", kScheduleMembers, [](const json&) -> Op { return ScheduleCall{}; }},
    {"next_delay", kNextDelayMembers, [](const json& r) -> Op { return next_delay_call(r); }},
    {"jittered", kJitteredMembers, [](const json& r) -> Op { return jittered_call(r); }},
    {"replay", kReplayMembers, [](const json& r) -> Op { return replay_call(r); }},
    {"sample", kSampleMembers, [](const json& r) -> Op { return sample_call(r); },
     "its answers are the port's own random draws, which check cannot compare; "
     "retry-policy stats sends it and judges them"},
};

const OpRow& op_of(const json& request) {
  const json& op = required(request, "op", "op");
  if (op.is_string()) {
    for (const OpRow& row : kOps) {
      if (op.get_ref<const std::string&>() == row.name) return row;
    }
  }
  fail("op", "must be \"schedule\", \"next_delay\", \"jittered\", \"replay\" or \"sample\", got " +
                 quote(op));
}

// ---- lines ---------------------------------------------------------------

std::string too_long_message(std::size_t bytes) {
  return std::to_string(bytes) + " bytes is longer than the protocol's " +
         std::to_string(kMaxLineBytes);
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

// Why a line is not one JSON value, in the protocol's words, told apart by
// the reader's error id and the bytes where it stopped; none of the
// reader's own text reaches the answer.
std::string malformed(std::string_view line) {
  if (line.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    return "empty; a request is one JSON object";
  }
  StopFinder finder;
  json::sax_parse(line.begin(), line.end(), &finder);
  const JsonStop& stop = finder.stop;
  if (stop.id == 406) {  // out_of_range.406: a number beyond binary64, the token its literal
    return "the number " + clipped(stop.token) +
           " is beyond binary64's range (write \"Infinity\" for an infinite value)";
  }
  // The reader read past the last byte: the line ends inside a value.
  if (stop.read == 0 || stop.read > line.size()) return "ends inside a JSON value (truncated?)";
  const std::size_t i = stop.read - 1;  // the byte it stopped at
  const std::string at = " at column " + std::to_string(stop.read);
  if (i > 0 && json::accept(line.substr(0, i))) return "more than one JSON value," + at;
  if (inside_string(line, i)) {
    if (stopped_in_utf8(line, i)) return "a string holds invalid UTF-8," + at;
    if (byte_at(line, i) < 0x20) return "a string holds an unescaped control character," + at;
    if (after_surrogate_escape(line, i)) {
      return "a string holds a lone surrogate (\\ud800 to \\udfff)," + at;
    }
    return "a string holds an invalid escape," + at;
  }
  const std::string_view rest = line.substr(i);
  const bool after_minus = i > 0 && line[i - 1] == '-';
  if (rest.starts_with("NaN") || rest.starts_with("Infinity")) {
    return "bare NaN or Infinity," + at + "; write the strings \"NaN\", \"Infinity\"";
  }
  if (after_minus && rest.starts_with("Infinity")) {
    return "bare NaN or Infinity," + at + "; write the strings \"NaN\", \"Infinity\"";
  }
  if (i > 0 && number_byte(line[i - 1])) return "a malformed number," + at;
  return "not JSON," + at;
}

json parse_json(std::string_view line) {
  if (line.size() > kMaxLineBytes) fail("line", too_long_message(line.size()));
  // The JSON reader takes a NUL byte for the end of its input and would
  // answer the bytes before it; a NUL is never JSON (not whitespace, and
  // raw in a string it is a control character), so the line is malformed.
  if (const std::size_t nul = line.find('\0'); nul != std::string_view::npos) {
    fail("line", "holds a NUL byte at column " + std::to_string(nul + 1));
  }
  if (!nesting_within(line, kMaxDepth)) {
    fail("line", "arrays and objects nest deeper than the protocol's 32");
  }
  // nlohmann skips a byte-order mark; the protocol, like RFC 8259 for
  // network text, does not allow one.
  if (line.starts_with("\xEF\xBB\xBF")) fail("line", "starts with a byte-order mark");
  try {
    return json::parse(line.begin(), line.end());
  } catch (const json::exception&) {
    fail("line", malformed(line));
  }
}

}  // namespace

std::string_view op_name(const Op& op) { return kOps[op.index()].name; }

std::vector<OpMembers> protocol_ops() {
  std::vector<OpMembers> ops;
  for (const OpRow& row : kOps) ops.push_back({row.name, row.members, row.not_sent_by_check});
  return ops;
}

namespace {

// A request from a JSON value already read from its line.
ParsedLine request_of(const json& request) {
  json id;  // null until the request is known to have one
  try {
    if (!request.is_object()) fail("line", "must be a JSON object, got " + quote(request));
    if (const json* given = member(request, "id")) id = *given;
    const OpRow& op = op_of(request);
    only_members(request, op.members, kVectorLineMembers, "",
                 "a " + std::string(op.name) + " request");
    const PolicySpec policy = policy_spec(required(request, "policy", "policy"));
    Op call = op.read(request);
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
  if (!line.is_object() || !request) return Refusal{"line", "must be a JSON object"};
  return VectorLine{std::move(*request), request_of(line), expected_answer(line)};
}

Unanswerable line_too_long(std::size_t bytes) {
  return Unanswerable{json(), {"line", too_long_message(bytes)}};
}

}  // namespace acemq::conformance
