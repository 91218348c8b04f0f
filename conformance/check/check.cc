#include "conformance/check/check.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <variant>
#include <vector>

#include "conformance/check/coverage.hpp"
#include "conformance/check/line_edits.hpp"
#include "conformance/check/shrink.hpp"
#include "conformance/process/adapter_process.hpp"
#include "conformance/process/line_reader.hpp"
#include "conformance/protocol/answer.hpp"
#include "conformance/protocol/answer_reader.hpp"
#include "conformance/protocol/limits.hpp"
#include "conformance/protocol/respond.hpp"
#include "conformance/protocol/vector_line.hpp"
#include "conformance/protocol/wire.hpp"

namespace acemq::conformance {
namespace {

using nlohmann::ordered_json;

// Answers can be 1.6 MB, and an adapter may write up to the 64 MiB line
// cap: a report shows the start of every adapter's words and says what was
// cut, so no report echoes more than a few kB of them.
constexpr std::size_t kShown = 1500;
std::string clip(const std::string& text, std::size_t shown = kShown) {
  if (text.size() <= shown) return text;
  return text.substr(0, shown) + "... (" + std::to_string(text.size() - shown) + " more bytes)";
}

// The conversation's last request, sent without its LF before the
// adapter's input closes: a last line without LF is still a request
// (docs/protocol.md, Lines), answered once; a reader that drops it,
// or answers a stale byte after it, shows nowhere else.
constexpr std::string_view kLastLine =
    R"({"id":"the last line, without its LF","op":"schedule","policy":{"max_attempts":3,"initial_delay":0.5}})";

// A difference of the same sort is what a shrink must keep: a wrong number
// must not shrink into an unrelated error, or the report shows another bug.
enum class Sort { none, ok_ness, value };

Sort sort_of(const Answer& core, const Answer& port) {
  if (!difference(core, port)) return Sort::none;
  return core.ok != port.ok ? Sort::ok_ness : Sort::value;
}

using Tally = CheckReport::Tally;

class Checker {
 public:
  Checker(const CheckOptions& options, std::ostream& out, std::ostream& progress)
      : options_(options), out_(out), progress_(progress) {}

  CheckReport run();

 private:
  // What came of asking the adapter one request.
  struct Asked {
    bool answered = false;  // false: the adapter failed, already reported
    std::optional<Answer> port;
    std::string port_line;
  };

  // Where a request came from, for the report.
  struct Origin {
    std::string kind;                   // the tally it counts in: "vectors x.jsonl", "replay", ...
    std::string where;                  // "x.jsonl:12", "generated case 7"
    std::optional<CaseKind> generated;  // what a generated case is; none for a vector line
    std::string_view rule;              // the invalid rule a generated case breaks, if any
    std::size_t variant = 0;            // which of the rule's variants
    // A generated case's row of kNumericIds, if its id is one.
    std::string_view numeric_id = {};
  };

  bool start_adapter();
  Asked ask(const std::string& line, bool report_failure);
  // What came of an answer read (or not: `outcome`) for `line`.
  // `context` says how the request was sent, where that was not alone.
  Asked asked_of(AdapterProcess::Outcome outcome, std::string answer, const std::string& line,
                 bool report_failure, std::string_view context = {});
  // Compares one request, its line and the line parsed; false when the run
  // must stop (adapter failure).
  bool compare(const std::string& line, const ParsedLine& parsed, const Origin& origin,
               const std::optional<Answer>& expected_by_vector);
  // The core's answer to a request about to be sent, counted as sent; none
  // when the profile leaves it out.
  std::optional<Answer> prepare(const std::string& line, const ParsedLine& parsed,
                                const Origin& origin, const std::optional<Answer>& expected);
  // The adapter's answer against the core's; false when the run must stop.
  bool judge(const std::string& line, const ParsedLine& parsed, const Origin& origin,
             const Answer& core, const Asked& asked, std::string_view context = {});
  // Generated cases sent in one burst (see kBurstEvery), answers read after.
  bool compare_burst(std::vector<GeneratedCase>& cases, std::int64_t first);
  // The conversation's last request, without its LF, then the end of input.
  bool send_last_line();
  Origin generated_origin(const GeneratedCase& generated, std::int64_t number) const;
  void report_mismatch(const std::string& line, const Origin& origin, const Answer& core,
                       const Answer& port, const std::string& port_line, const std::string& diff);
  void count_coverage(const ParsedLine& parsed, const Origin& origin, const Answer& core);
  void report_coverage();
  // The report, with how the run ended and the counts kept as it went.
  CheckReport finished(CheckVerdict verdict);
  bool send_vector_file(const std::string& path);
  // A progress line, if progress_interval has passed since the last one.
  void report_progress(std::string_view stage);

  const CheckOptions& options_;
  std::ostream& out_;
  std::ostream& progress_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_progress_ = started_;
  std::unique_ptr<AdapterProcess> adapter_;
  std::map<std::string, Tally> tallies_;
  // The run as a value, filled as it goes (check --json).
  CheckReport report_;
  std::int64_t mismatches_ = 0;
  // Mismatches shrunk so far, and the distinct smallest requests they came
  // to (without their ids), each with the number it was shown under.
  int shrunk_ = 0;
  std::map<std::string, int> shown_requests_;
  bool core_disagrees_with_vectors_ = false;
  bool adapter_failed_ = false;
  // The adapter's input is closed (its last line sent): no shrinking after.
  bool input_closed_ = false;
  // A burst has ended on a line of exactly 1 MiB (once a run).
  bool longest_sent_ = false;
  // A vector file that cannot be read (or, never yet, the core's own answer
  // unreadable): the run stops, and the adapter is not blamed.
  bool usage_error_ = false;
  // What the agreeing answers reached: regimes, and errors by rule.
  std::vector<std::int64_t> regimes_ = std::vector<std::int64_t>(coverage_rows().size());
  std::map<std::string_view, std::int64_t> rules_;
  std::map<std::string_view, std::set<std::size_t>> rule_variants_;
  std::map<std::string_view, std::set<std::size_t>> malformed_variants_;
  std::map<std::string_view, std::int64_t> malformed_;
  std::map<std::string_view, std::int64_t> numeric_ids_;
  std::int64_t vector_errors_ = 0;
  std::int64_t other_errors_ = 0;
};

bool Checker::start_adapter() {
  std::string error;
  adapter_ = AdapterProcess::start(options_.command, error);
  if (!adapter_) {
    out_ << "ADAPTER FAILED: cannot start `" << options_.command << "`: " << error << "\n";
    report_.adapter_failure = "cannot start: " + error;
    adapter_failed_ = true;
    return false;
  }
  return true;
}

Checker::Asked Checker::ask(const std::string& line, bool report_failure) {
  std::string answer;
  const AdapterProcess::Outcome outcome = adapter_->ask(line, answer, options_.timeout);
  return asked_of(outcome, std::move(answer), line, report_failure);
}

Checker::Asked Checker::asked_of(AdapterProcess::Outcome outcome, std::string answer,
                                 const std::string& line, bool report_failure,
                                 std::string_view context) {
  Asked asked;
  std::string failure;
  if (outcome == AdapterProcess::Outcome::answered) {
    std::variant<Answer, AnswerFault> read = read_answer(answer);
    if (auto* port = std::get_if<Answer>(&read)) {
      asked.port = std::move(*port);
      asked.port_line = std::move(answer);
      asked.answered = true;
      return asked;
    }
    failure = not_an_answer(std::get<AnswerFault>(read)) + ": " + clip(answer, 300);
  } else {
    failure = adapter_->failure(outcome, options_.timeout);
  }
  failure += context;
  if (report_failure) {
    out_ << "ADAPTER FAILED: the adapter " << failure << "\n  request: " << line.substr(0, 2000)
         << "\n";
    report_.adapter_failure = "the adapter " + failure;
    adapter_failed_ = true;
  } else {
    // During a shrink: the candidate is dropped and a fresh adapter takes
    // over, since requests share no state.
    out_ << "  (while shrinking, the adapter " << failure << "; restarted)\n";
    adapter_.reset();
    std::string error;
    adapter_ = AdapterProcess::start(options_.command, error);
    if (!adapter_) {
      out_ << "ADAPTER FAILED: cannot restart: " << error << "\n";
      report_.adapter_failure = "cannot restart: " + error;
      adapter_failed_ = true;
    }
  }
  return asked;
}

// The request a shrink ends on, as the core reads it: without its id, and
// with a valid policy as its six values, so that two mismatches that shrink
// to the same request, however spelt (jitter_factor or with_jitter), are
// one bug, shown once.
std::string identity(ordered_json request, const ParsedLine& parsed) {
  request.erase("id");
  if (const auto* valid = std::get_if<Request>(&parsed)) {
    try {
      const amqp::RetryPolicy::Options o = make_policy(valid->policy).options();
      request["policy"] = {
          std::to_string(o.max_attempts), format_number(o.initial_delay.count()),
          format_number(o.multiplier),    format_number(o.max_delay.count()),
          format_number(o.jitter_factor), format_number(o.max_message_age.count())};
    } catch (const PolicyRefused&) {
      // An invalid policy stays as written.
    }
  }
  return to_line(request);
}

// The line as a JSON object, the form the shrinker works on; nullopt for a
// line that is none (a malformed line is shown as it is, unshrunk).
std::optional<ordered_json> object_of(const std::string& line) {
  try {
    ordered_json document = ordered_json::parse(line);
    if (document.is_object()) return document;
  } catch (const ordered_json::exception&) {
  }
  return std::nullopt;
}

void Checker::report_mismatch(const std::string& line, const Origin& origin, const Answer& core,
                              const Answer& port, const std::string& port_line,
                              const std::string& diff) {
  ++mismatches_;
  const int shown = static_cast<int>(shown_requests_.size());
  // Shrinking costs adapter queries, so it stops once enough distinct
  // requests are shown, or after a few times that many shrinks.
  if (shown >= options_.shrink_shown || shrunk_ >= 4 * options_.shrink_shown) {
    if (mismatches_ <= shrunk_ + 20) {
      out_ << "MISMATCH (" << origin.where << "): " << diff << "\n  request: " << clip(line)
           << "\n";
      report_.shown.push_back({origin.where, origin.kind, diff, line, std::nullopt, std::nullopt});
    }
    return;
  }
  ++shrunk_;
  const Sort sort = sort_of(core, port);
  const std::optional<ordered_json> request = object_of(line);
  // The smallest request so far: its line and both answers.
  std::string shrunk_line = line;
  std::string shrunk_core = format_answer(core);
  std::string shrunk_port = port_line;
  std::string shrunk_diff = diff;
  int queries = 0;
  std::string key = line;
  if (request) {
    ShrinkResult result{*request, 0, 0};
    if (!adapter_failed_ && !input_closed_) {
      result = shrink(
          *request,
          [&](const ordered_json& candidate) {
            if (adapter_failed_ || !adapter_) return false;
            const std::string candidate_line = to_line(candidate);
            const Answer core_candidate = respond(parse_request(candidate_line));
            const Asked asked = ask(candidate_line, false);
            if (!asked.answered) return false;
            if (sort_of(core_candidate, *asked.port) != sort) return false;
            shrunk_line = candidate_line;
            shrunk_core = format_answer(core_candidate);
            shrunk_port = asked.port_line;
            shrunk_diff = *difference(core_candidate, *asked.port);
            return true;
          },
          options_.shrink_budget);
    }
    queries = result.queries;
    key = identity(result.request, parse_request(shrunk_line));
  }
  const auto [seen, added] = shown_requests_.try_emplace(key, shown + 1);
  if (!added) {
    out_ << "MISMATCH (" << origin.where << "): " << diff
         << "\n  shrinks to the same request as mismatch #" << seen->second << " above\n";
    report_.shown.push_back({origin.where, origin.kind, diff, line, std::nullopt, seen->second});
    return;
  }
  report_.shown.push_back(
      {origin.where, origin.kind, diff, line,
       CheckReport::Shrunk{shrunk_line, queries, shrunk_diff, shrunk_core, shrunk_port},
       std::nullopt});
  out_ << "MISMATCH #" << seen->second << " (" << origin.where << "): " << diff << "\n";
  out_ << "  request:  " << clip(line) << "\n";
  if (shrunk_line != line) {
    out_ << "  shrunk in " << queries << " queries to the smallest request that still differs:\n";
    out_ << "  request:  " << clip(shrunk_line) << "\n";
    out_ << "  differs:  " << shrunk_diff << "\n";
  } else if (request) {
    out_ << "  (no smaller request differs the same way; " << queries << " tried)\n";
  }
  out_ << "  core:     " << clip(shrunk_core) << "\n";
  out_ << "  adapter:  " << clip(shrunk_port) << "\n";
}

void Checker::count_coverage(const ParsedLine& parsed, const Origin& origin, const Answer& core) {
  if (!origin.numeric_id.empty()) ++numeric_ids_[origin.numeric_id];
  if (!core.ok) {
    if (origin.generated == CaseKind::malformed) {
      ++malformed_[origin.rule];
      malformed_variants_[origin.rule].insert(origin.variant);
    } else if (!origin.rule.empty()) {
      ++rules_[origin.rule];
      rule_variants_[origin.rule].insert(origin.variant);
    } else if (!origin.generated) {
      ++vector_errors_;
    } else {
      ++other_errors_;  // a valid-looking case past the cost limit
    }
  }
  // A result, or a refused far call, was given to a Request.
  if (const auto* request = std::get_if<Request>(&parsed)) {
    for (const std::size_t row : regimes_of(*request, core)) ++regimes_.at(row);
  }
}

// On a pass: what the agreement was about, so a run that never reached a
// regime (too few cases, a generator gone narrow) says so.
void Checker::report_coverage() {
  const auto row = [this](std::int64_t count, std::string_view name, bool whole = true) {
    char number[24];
    std::snprintf(number, sizeof number, "%8lld", static_cast<long long>(count));
    out_ << number << "  " << name
         << (count == 0 ? "   <- NOT REACHED"
             : whole    ? ""
                        : "   <- NOT EVERY VARIANT")
         << "\n";
  };
  out_ << "\nWhat the agreeing answers reached (a request may reach several):\n";
  for (std::size_t i = 0; i < coverage_rows().size(); ++i) {
    row(regimes_[i], coverage_rows()[i]);
    report_.regimes.push_back({std::string(coverage_rows()[i]), regimes_[i]});
  }
  out_ << "Numeric ids echoed by value, each sent in turn:\n";
  for (const NumericIdRow& id : numeric_id_rows()) {
    row(numeric_ids_[id.name], std::string(id.text) + " (" + std::string(id.name) + ")");
    report_.numeric_ids.push_back({std::string(id.name), numeric_ids_[id.name]});
  }
  if (options_.profile == Profile::reference) {
    out_ << "(no invalid input: the reference profile sends valid requests only)\n";
    return;
  }
  out_ << "Invalid input both answered with an error, by the rule it breaks (its variants "
          "sent in turn; a run of "
       << invalid_variant_count() << " invalid cases sends them all):\n";
  // A row of a table whose variants go in turn: its count, and how many of
  // its variants the run sent.
  const auto variant_row = [&row](std::vector<CheckReport::CoverageRow>& rows,
                                  std::string_view name, std::int64_t count, std::size_t variants,
                                  std::size_t reached) {
    row(count,
        std::string(name) + " (" + std::to_string(reached) + " of " + std::to_string(variants) +
            (variants == 1 ? " variant)" : " variants)"),
        reached == variants);
    rows.push_back({std::string(name), count, static_cast<std::int64_t>(variants),
                    static_cast<std::int64_t>(reached)});
  };
  for (const InvalidRuleRow& rule : invalid_rules()) {
    variant_row(report_.invalid_rules, rule.name, rules_[rule.name], rule.variants,
                rule_variants_[rule.name].size());
  }
  out_ << "Malformed lines both answered with an error, by what breaks them (their variants "
          "sent in turn; a run of "
       << malformation_variant_count() << " malformed lines sends them all):\n";
  for (const MalformationRow& kind : malformation_rows()) {
    variant_row(report_.malformations, kind.name, malformed_[kind.name], kind.variants,
                malformed_variants_[kind.name].size());
  }
  if (vector_errors_ > 0) row(vector_errors_, "vector lines that expect an error");
  if (other_errors_ > 0) row(other_errors_, "generated calls past the cost limit");
}

bool Checker::compare(const std::string& line, const ParsedLine& parsed, const Origin& origin,
                      const std::optional<Answer>& expected) {
  const std::optional<Answer> core = prepare(line, parsed, origin, expected);
  if (!core) return true;
  const Asked asked = ask(line, true);
  if (!asked.answered) return false;
  return judge(line, parsed, origin, *core, asked);
}

std::optional<Answer> Checker::prepare(const std::string& line, const ParsedLine& parsed,
                                       const Origin& origin,
                                       const std::optional<Answer>& expected) {
  Tally& tally = tallies_[origin.kind];
  if (options_.profile == Profile::reference) {
    const auto* request = std::get_if<Request>(&parsed);
    if (request == nullptr || !reference_agrees(*request)) {
      ++tally.skipped;
      return std::nullopt;
    }
  }
  Answer core = respond(parsed);
  if (expected) {
    if (const auto diff = difference(*expected, core)) {
      out_ << "CORE DISAGREES with the vector's expected answer (" << origin.where << "): " << *diff
           << "\n  request: " << clip(line) << "\n";
      report_.core_disagrees_with_vectors.push_back(origin.where + ": " + *diff);
      core_disagrees_with_vectors_ = true;
    }
  }
  ++tally.sent;
  return core;
}

bool Checker::judge(const std::string& line, const ParsedLine& parsed, const Origin& origin,
                    const Answer& core, const Asked& asked, std::string_view context) {
  Tally& tally = tallies_[origin.kind];
  if (!same_id(core.id, asked.port->id)) {
    // An id that reads as the same double is the adapter's JSON reader at
    // fault, not the conversation: 9007199254740993 comes back 9007199254740992.
    const char* hint = same_as_doubles(core.id, asked.port->id)
                           ? " (read through a binary64 double? A number id is echoed by value, "
                             "an integer within int64 exactly: docs/protocol.md, Requests)"
                           : " (out of step with its input?)";
    out_ << "ADAPTER FAILED: answered id " << clipped_json(asked.port->id, kShown)
         << " to a request with id " << clipped_json(core.id, kShown) << hint << context
         << "\n  request: " << clip(line) << "\n  adapter: " << clip(asked.port_line) << "\n";
    report_.adapter_failure = "answered id " + clipped_json(asked.port->id, kShown) +
                              " to a request with id " + clipped_json(core.id, kShown) + hint +
                              std::string(context);
    adapter_failed_ = true;
    return false;
  }
  if (const auto diff = difference(core, *asked.port)) {
    report_mismatch(line, origin, core, *asked.port, asked.port_line, *diff);
    return !adapter_failed_;
  }
  ++tally.agreed;
  count_coverage(parsed, origin, core);
  return true;
}

// A vector file, line by line. Every way it cannot be read is a usage
// error naming the file (and the line), found before its lines are
// trusted: a file read as empty would pass every port.
bool Checker::send_vector_file(const std::string& path) {
  const auto usage = [&](const std::string& what) {
    out_ << "USAGE: " << what << "\n";
    report_.usage_error = what;
    usage_error_ = true;
    return false;
  };
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return usage("cannot read vector file " + path + ": " + std::strerror(errno));
  const std::unique_ptr<const int, void (*)(const int*)> closer(&fd,
                                                                [](const int* f) { ::close(*f); });
  struct stat status {};
  if (::fstat(fd, &status) != 0 || !S_ISREG(status.st_mode)) {
    return usage("vector file " + path + " is not a regular file");
  }
  const std::string name = path.substr(path.find_last_of('/') + 1);
  LineReader reader(fd, kMaxLineBytes);
  std::string text;
  std::size_t dropped = 0;
  for (std::int64_t number = 1;; ++number) {
    const std::string where = path + ":" + std::to_string(number);
    const LineReader::Status read = reader.next(text, dropped);
    if (read == LineReader::Status::end) return true;
    if (read == LineReader::Status::too_long) {
      return usage(where + " is " + std::to_string(dropped) +
                   " bytes, longer than the protocol's " + std::to_string(kMaxLineBytes));
    }
    if (read != LineReader::Status::line) {
      return usage("cannot read vector file " + where + ": " + std::strerror(errno));
    }
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    // Read once; the expected answer stays here, and a port is asked the
    // request alone, as written.
    const std::variant<VectorLine, Refusal> once = read_vector_line(text);
    if (const auto* refusal = std::get_if<Refusal>(&once))
      return usage(where + ": " + refusal->what);
    const VectorLine& vector = std::get<VectorLine>(once);
    if (!compare(vector.request_line, vector.request,
                 {"vectors " + name, name + ":" + std::to_string(number), std::nullopt, {}},
                 vector.expected)) {
      return false;
    }
  }
}

Checker::Origin Checker::generated_origin(const GeneratedCase& generated,
                                          std::int64_t number) const {
  return {std::string(generated.tally_name()),
          "generated case " + std::to_string(number),
          generated.kind,
          generated.rule,
          generated.variant,
          generated.numeric_id};
}

bool Checker::compare_burst(std::vector<GeneratedCase>& cases, std::int64_t first) {
  // The long one: past a 16 KiB line buffer, and far enough into the
  // burst's one read that the lines after it start past 24 KiB of it.
  for (std::size_t i = 0; i + 1 < cases.size(); ++i) {
    if (cases[i].kind != CaseKind::valid) continue;
    cases[i].line = generator::padded_to(cases[i].line, kBurstLongLine);
    cases[i].parsed = parse_request(cases[i].line);
    break;
  }
  std::size_t bytes = 0;
  for (const GeneratedCase& c : cases) bytes += c.line.size() + 1;
  std::size_t answer_bytes = 0;
  for (std::size_t i = 0; i + 1 < cases.size(); ++i)
    answer_bytes += format_answer(respond(cases[i].parsed)).size() + 1;
  if (bytes > kBurstBytes || answer_bytes > kBurstAnswerBytes) {
    // Too long for one write the adapter need not read, or for the pipe
    // back while it is written: one at a time.
    ++(bytes > kBurstBytes ? report_.bursts.lines_too_long : report_.bursts.answers_too_long);
    for (std::size_t i = 0; i < cases.size(); ++i) {
      if (!compare(cases[i].line, cases[i].parsed,
                   generated_origin(cases[i], first + static_cast<std::int64_t>(i)),
                   std::nullopt)) {
        return false;
      }
    }
    return true;
  }
  struct Sent {
    const GeneratedCase* generated;
    Origin origin;
    Answer core;
  };
  ++report_.bursts.at_once;
  std::vector<Sent> sent;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    Origin origin = generated_origin(cases[i], first + static_cast<std::int64_t>(i));
    if (std::optional<Answer> core = prepare(cases[i].line, cases[i].parsed, origin, std::nullopt))
      sent.push_back({&cases[i], std::move(origin), std::move(*core)});
  }
  if (sent.empty()) return true;
  // Once a run (the first burst that ends on a valid case), the last line
  // is exactly 1 MiB, starting a byte into its read: a reader that counts a
  // line's length from the read's start, not the line's, refuses it. Its
  // write is the adapter's to read as it comes; the answers before it (at
  // most kBurstAnswerBytes) wait in the pipe meanwhile.
  Sent& last = sent.back();
  std::string last_line = last.generated->line;
  ParsedLine last_parsed;
  const bool longest = !longest_sent_ && last.generated->kind == CaseKind::valid;
  if (longest) {
    longest_sent_ = true;
    last_line = generator::padded_to(last_line, kMaxLineBytes);
    last_parsed = parse_request(last_line);
    last.core = respond(last_parsed);
  }
  // All but the last line's LF in one write, read by the adapter before the
  // rest: that LF then opens a read, and the last line follows it there.
  std::string head;
  for (std::size_t i = 0; i + 1 < sent.size(); ++i) {
    if (i > 0) head.push_back('\n');
    head += sent[i].generated->line;
  }
  const std::string tail = (sent.size() > 1 ? "\n" : "") + last_line + "\n";
  AdapterProcess::Outcome outcome = adapter_->write(head, options_.timeout);
  if (outcome == AdapterProcess::Outcome::answered)
    outcome = adapter_->read_by_adapter(options_.timeout);
  if (outcome == AdapterProcess::Outcome::answered)
    outcome = adapter_->write(tail, options_.timeout);
  const std::string burst = " (a burst: " + std::to_string(sent.size()) +
                            " lines written at once, their answers read after)";
  if (outcome != AdapterProcess::Outcome::answered) {
    asked_of(outcome, {}, sent.front().generated->line, true, burst);
    return false;
  }
  std::vector<Asked> answers;
  for (const Sent& one : sent) {
    std::string answer;
    const AdapterProcess::Outcome got = adapter_->receive(answer, options_.timeout);
    const std::string& line = &one == &last ? last_line : one.generated->line;
    answers.push_back(asked_of(got, std::move(answer), line, true, burst));
    if (!answers.back().answered) return false;
  }
  // Judged once every answer is read: a shrink asks the adapter again.
  for (std::size_t i = 0; i < sent.size(); ++i) {
    const bool is_last = i + 1 == sent.size();
    if (!judge(is_last ? last_line : sent[i].generated->line,
               is_last && longest ? last_parsed : sent[i].generated->parsed, sent[i].origin,
               sent[i].core, answers[i], burst)) {
      return false;
    }
  }
  return true;
}

bool Checker::send_last_line() {
  const std::string line(kLastLine);
  const ParsedLine parsed = parse_request(line);
  const Origin origin{"last line, no LF", "the last line, sent without its LF", std::nullopt, {}};
  const std::optional<Answer> core = prepare(line, parsed, origin, std::nullopt);
  if (!core) return true;
  AdapterProcess::Outcome outcome = adapter_->write(line, options_.timeout);
  adapter_->close_input();
  input_closed_ = true;
  std::string answer;
  if (outcome == AdapterProcess::Outcome::answered)
    outcome = adapter_->receive(answer, options_.timeout);
  const Asked asked =
      asked_of(outcome, std::move(answer), line, true,
               " (to the last request, sent without its LF before the end of input: a last line "
               "without LF is still a request)");
  if (!asked.answered) return false;
  return judge(line, parsed, origin, *core, asked);
}

void Checker::report_progress(std::string_view stage) {
  const auto now = std::chrono::steady_clock::now();
  if (std::chrono::duration<double>(now - last_progress_).count() < options_.progress_interval) {
    return;
  }
  last_progress_ = now;
  std::int64_t sent = 0;
  for (const auto& [kind, tally] : tallies_) sent += tally.sent;
  char elapsed[32];
  std::snprintf(elapsed, sizeof elapsed, "%.0f",
                std::chrono::duration<double>(now - started_).count());
  progress_ << "check: " << sent << " requests answered, " << mismatches_ << " differ; " << stage
            << "; " << elapsed << " s\n"
            << std::flush;
}

CheckReport Checker::run() {
  report_.adapter = options_.command;
  report_.profile = options_.profile == Profile::full ? "full" : "reference";
  report_.seed = options_.seed;
  report_.cases = options_.cases;
  out_ << "retry-policy check: adapter `" << options_.command << "`, profile "
       << (options_.profile == Profile::full ? "full" : "reference") << ", " << options_.cases
       << " generated cases, seed " << options_.seed << " (replay with --seed " << options_.seed
       << ")\n"
       << std::flush;
  if (!start_adapter()) return finished(CheckVerdict::adapter_failed);

  bool going = true;
  // With fail_fast, the first mismatch ends the run: the verdict is known.
  const auto still_going = [this] { return !(options_.fail_fast && mismatches_ > 0); };
  for (const std::string& path : options_.vectors) {
    if (!(going = send_vector_file(path) && still_going())) break;
    report_progress("vectors " + path.substr(path.find_last_of('/') + 1) + " sent");
  }
  CaseGenerator generator(options_.seed, options_.profile);
  std::size_t bursts = 0;
  for (std::int64_t i = 0; going && i < options_.cases;) {
    if ((i + 1) % kBurstEvery == 0) {
      // 2 to 8 cases, in turn, in one burst.
      const std::int64_t size =
          std::min<std::int64_t>(2 + static_cast<std::int64_t>(bursts % 7), options_.cases - i);
      std::vector<GeneratedCase> burst;
      for (std::int64_t k = 0; k < size; ++k) burst.push_back(generator.next(i + k + 1));
      ++bursts;
      going = compare_burst(burst, i + 1) && still_going();
      i += size;
    } else {
      const GeneratedCase generated = generator.next(i + 1);
      going = compare(generated.line, generated.parsed, generated_origin(generated, i + 1),
                      std::nullopt) &&
              still_going();
      ++i;
    }
    report_progress("generated case " + std::to_string(i) + " of " +
                    std::to_string(options_.cases));
  }
  if (going && !adapter_failed_ && adapter_) going = send_last_line();

  if (!adapter_failed_ && adapter_) {
    const ProcessEnding ending = adapter_->finish(std::chrono::milliseconds(5000));
    if (!ending.clean()) {
      out_ << "ADAPTER FAILED: at the end of its input the adapter did not exit with status 0: "
           << ending.text() << "\n";
      report_.adapter_failure =
          "did not exit with status 0 at the end of its input: " + ending.text();
      adapter_failed_ = true;
    }
  }
  adapter_.reset();

  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  std::int64_t sent = 0;
  std::int64_t agreed = 0;
  out_ << "\n";
  for (const auto& [kind, tally] : tallies_) {
    report_.tallies.push_back(tally);
    report_.tallies.back().kind = kind;
    out_ << "  " << kind << ": " << tally.sent << " sent, " << tally.agreed << " agree";
    if (tally.skipped > 0) out_ << ", " << tally.skipped << " skipped (outside the profile)";
    out_ << "\n";
    sent += tally.sent;
    agreed += tally.agreed;
  }
  char elapsed[32];
  std::snprintf(elapsed, sizeof elapsed, "%.1f", seconds);
  if (usage_error_) {
    out_ << "FAILED TO CHECK: see USAGE (or INTERNAL) above; after " << sent << " requests, "
         << elapsed << " s; seed " << options_.seed << "\n";
    return finished(CheckVerdict::usage);
  }
  if (adapter_failed_) {
    out_ << "FAILED TO CHECK: the adapter failed (see ADAPTER FAILED above) after " << sent
         << " requests, " << elapsed << " s; seed " << options_.seed << "\n";
    return finished(CheckVerdict::adapter_failed);
  }
  if (mismatches_ > 0 || core_disagrees_with_vectors_) {
    out_ << "DIFFERENT: " << mismatches_ << " of " << sent << " answers differ";
    if (shrunk_ > 0) {
      out_ << " (" << shrunk_ << " shrunk, to " << shown_requests_.size()
           << " distinct smallest requests)";
    }
    out_ << (core_disagrees_with_vectors_ ? ", and the core disagrees with a vector file" : "")
         << " (" << elapsed << " s; seed " << options_.seed << ")\n";
    return finished(CheckVerdict::different);
  }
  report_coverage();
  out_ << "AGREE: all " << agreed << " answers agree, bit for bit (" << elapsed << " s; seed "
       << options_.seed << ")\n";
  return finished(CheckVerdict::agree);
}

CheckReport Checker::finished(CheckVerdict verdict) {
  report_.verdict = verdict;
  report_.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  report_.mismatches = mismatches_;
  report_.shrunk = shrunk_;
  report_.distinct_smallest = static_cast<int>(shown_requests_.size());
  return std::move(report_);
}

}  // namespace

CheckReport run_check(const CheckOptions& options, std::ostream& out, std::ostream& progress) {
  Checker checker(options, out, progress);
  return checker.run();
}

}  // namespace acemq::conformance
