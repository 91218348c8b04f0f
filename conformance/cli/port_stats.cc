#include "conformance/cli/port_stats.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <system_error>
#include <vector>

#include "conformance/process/adapter_process.hpp"
#include "conformance/protocol/limits.hpp"
#include "conformance/protocol/wire.hpp"
#include "stats/battery.hpp"
#include "stats/family.hpp"
#include "stats/fleet.hpp"
#include "stats/grid.hpp"
#include "stats/power.hpp"
#include "stats/progress.hpp"
#include "stats/report.hpp"
#include "stats/resolution.hpp"
#include "stats/runner.hpp"
#include "stats/runs.hpp"
#include "stats/verdict.hpp"

namespace acemq::conformance {
namespace {

namespace stats = acemq::stats;

constexpr int kFailedToTest = 2;

// At most kEchoBytes of an adapter's words, control bytes escaped, and how
// much there was when it was clipped.
std::string clip(std::string_view text) {
  std::string out;
  for (const char c : text.substr(0, kEchoBytes)) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
      out += escaped;
    } else {
      out += c;
    }
  }
  if (text.size() > kEchoBytes) {
    out += "... (" + std::to_string(text.size()) + " bytes, clipped to " +
           std::to_string(kEchoBytes) + ")";
  }
  return out;
}

// A sample request up to its count: a policy, and a delay (the jittered
// path) or an attempt (next_delay, whose unjittered delay is the same d;
// `check` proves the port computes it as the core does).
std::string request_prefix(const amqp::RetryPolicy::Options& o, bool jittered, double delay,
                           std::int64_t attempt, std::int64_t threads = 1) {
  std::string out = R"(,"op":"sample","policy":{"max_attempts":)";
  out += std::to_string(o.max_attempts);
  out += R"(,"initial_delay":)";
  append_number(out, o.initial_delay.count());
  out += R"(,"multiplier":)";
  append_number(out, o.multiplier);
  out += R"(,"max_delay":)";
  append_number(out, o.max_delay.count());
  out += R"(,"jitter_factor":)";
  append_number(out, o.jitter_factor);
  out += "},";
  if (jittered) {
    out += R"("delay":)";
    append_number(out, delay);
  } else {
    out += R"("attempt":)" + std::to_string(attempt);
  }
  if (threads > 1) out += R"(,"threads":)" + std::to_string(threads);
  out += R"(,"count":)";
  return out;
}

std::string request_prefix(const stats::Cell& cell) {
  const stats::Backoff b = cell.backoff();
  return request_prefix(b.options, cell.path == stats::Path::jittered, cell.delay_seconds(),
                        b.attempt);
}

// The exact cell (stats/resolution.hpp): jittered(1) at jitter factor 1,
// whose delay is 2r bit for bit, so the draws themselves come back; drawn by
// `threads` threads at once when above 1.
std::string exact_cell_prefix(std::int64_t threads = 1) {
  const amqp::RetryPolicy::Options o{.max_attempts = 2,
                                     .initial_delay = amqp::Seconds{stats::kExactDelay},
                                     .multiplier = 1.0,
                                     .max_delay = amqp::Seconds{0.0},
                                     .jitter_factor = stats::kExactFactor};
  return request_prefix(o, true, stats::kExactDelay, 1, threads);
}
constexpr const char* kExactCellName = "jittered/port/f1/exact (delay 1: the draws themselves)";
// A grid cell's kind of name, so that its FAIL line reads as theirs do.
std::string threads_cell_name(int threads) {
  return "jittered/port/f1/threads" + std::to_string(threads);
}

// Every draw of the run, in the order the adapter makes them: cell by cell
// (the exact cell first), each cell's n in chunks of kMaxSampleCount. A chunk
// never straddles a window (kSegmentSamples is a whole number of chunks).
static_assert(stats::kSegmentSamples % static_cast<std::uint64_t>(kMaxSampleCount) == 0);
struct ChunkPlan {
  std::vector<std::string> prefixes;  // one a cell
  std::uint64_t n = 0;                // draws a cell
  std::uint64_t chunks_per_cell() const {
    const auto chunk = static_cast<std::uint64_t>(kMaxSampleCount);
    return (n + chunk - 1) / chunk;
  }
  std::uint64_t chunks() const { return prefixes.size() * chunks_per_cell(); }
  std::size_t size(std::uint64_t k) const {
    const auto chunk = static_cast<std::uint64_t>(kMaxSampleCount);
    const std::uint64_t offset = (k % chunks_per_cell()) * chunk;
    return static_cast<std::size_t>(std::min(chunk, n - offset));
  }
  std::string request(std::uint64_t k) const {
    return "{\"id\":" + std::to_string(k + 1) + prefixes[k / chunks_per_cell()] +
           std::to_string(size(k)) + "}";
  }
};

// Reads an answer that the fast path did not, in one pass over the line's
// bytes, into `out`, with no JSON tree and no copy of any string: an answer
// can be 64 MiB of `[{},{},...]` (a tree of gigabytes) or one 63 MB error
// string (which a parser's token buffer would copy, twice while it grows).
// It checks the JSON grammar (RFC 8259) as it goes, keeps what the messages
// need (the id, ok, the error, the result's count, its first null or
// non-number) as views of the line, clipped when echoed, and stops at the
// first thing that makes the answer unusable.
class AnswerReader {
 public:
  // `answered`: how many sample answers the adapter gave before this one;
  // an error after some is a cell it cannot draw, not a missing op.
  AnswerReader(std::int64_t id, std::span<double> out, std::uint64_t answered = 0)
      : id_(id), answered_(answered), out_(out) {}

  // Empty when the line is a usable answer of out.size() draws (now in
  // out); otherwise what is wrong, in words for "the adapter <what>".
  std::string read(std::string_view line) {
    text_ = line;
    if (const std::size_t nul = line.find('\0'); nul != std::string_view::npos) {
      return not_answer("holds a NUL byte at byte " + std::to_string(nul + 1));
    }
    // An answer nests one level deeper than the id it echoes, which nests at
    // most kMaxDepth; this bounds the recursion below.
    if (!nesting_within(line, kMaxDepth + 1)) return not_answer("nests deeper than any answer can");
    skip_space();
    if (at_ >= text_.size()) return not_answer("not JSON, at byte " + std::to_string(at_ + 1));
    if (text_[at_] != '{') return not_answer("not a JSON object");
    if (!top_level()) return stop_.empty() ? not_answer("not JSON") : stop_;
    skip_space();
    if (at_ != text_.size()) return not_answer("not JSON, at byte " + std::to_string(at_ + 1));
    if (!has_id_) return not_answer("no \"id\"");
    if (!ok_) return not_answer("no boolean \"ok\"");
    if (!id_matches_) {
      return "answered id " + clip(id_text_) + " to a request with id " + std::to_string(id_);
    }
    if (!*ok_) {
      if (!error_) return not_answer("\"ok\": false without a string \"error\"");
      if (answered_ > 0) {
        return "answered with an error, after " + std::to_string(answered_) +
               " sample answers it drew: " + clip(*error_);
      }
      return "answered with an error (does it implement the sample op?): " + clip(*error_);
    }
    if (!result_) return not_answer("\"ok\": true without \"result\"");
    if (*result_ == '{') return not_answer("result is an object, not a number, null or array");
    if (*result_ != '[') return "answered a single value to a request for " + count_text();
    if (items_ != out_.size()) {
      return "answered " +
             (items_ == 1 ? std::string("1 draw") : std::to_string(items_) + " draws") +
             " to a request for " + count_text();
    }
    if (first_null_) {
      // A give-up here is wrong arithmetic, which `check` is for; this can
      // only say the answer is unusable.
      return "answered null (give up) at draw " + std::to_string(*first_null_) +
             ", on a call that must be jittered";
    }
    return "";
  }

 private:
  std::string not_answer(const std::string& why) const {
    return "wrote a line that is not a protocol answer (" + why + ")";
  }
  std::string count_text() const { return std::to_string(out_.size()); }
  bool fail(std::string why) {
    if (stop_.empty()) stop_ = std::move(why);
    return false;
  }
  bool syntax() { return fail(not_answer("not JSON, at byte " + std::to_string(at_ + 1))); }

  void skip_space() {
    while (at_ < text_.size() &&
           (text_[at_] == ' ' || text_[at_] == '\t' || text_[at_] == '\n' || text_[at_] == '\r')) {
      ++at_;
    }
  }
  bool next_is(char c) {
    skip_space();
    if (at_ < text_.size() && text_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }

  // A string at at_ (its opening quote); `inside` is its text, escapes as
  // written.
  bool string(std::string_view& inside) {
    if (at_ >= text_.size() || text_[at_] != '"') return syntax();
    const std::size_t begin = ++at_;
    while (at_ < text_.size()) {
      const auto c = static_cast<unsigned char>(text_[at_]);
      if (c == '"') {
        inside = text_.substr(begin, at_ - begin);
        ++at_;
        return true;
      }
      if (c < 0x20) return syntax();
      if (c == '\\') {
        if (++at_ >= text_.size()) return syntax();
        const char e = text_[at_];
        if (e == 'u') {
          for (int k = 0; k < 4; ++k) {
            if (++at_ >= text_.size() || !std::isxdigit(static_cast<unsigned char>(text_[at_]))) {
              return syntax();
            }
          }
        } else if (std::string_view("\"\\/bfnrt").find(e) == std::string_view::npos) {
          return syntax();
        }
      }
      ++at_;
    }
    return syntax();
  }

  // A number at at_, by the JSON grammar; `literal` is its text.
  bool number(std::string_view& literal) {
    const std::size_t begin = at_;
    const auto digits = [&] {
      const std::size_t from = at_;
      while (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9') ++at_;
      return at_ > from;
    };
    if (at_ < text_.size() && text_[at_] == '-') ++at_;
    if (at_ < text_.size() && text_[at_] == '0') {
      ++at_;
    } else if (!digits()) {
      return syntax();
    }
    if (at_ < text_.size() && text_[at_] == '.') {
      ++at_;
      if (!digits()) return syntax();
    }
    if (at_ < text_.size() && (text_[at_] == 'e' || text_[at_] == 'E')) {
      ++at_;
      if (at_ < text_.size() && (text_[at_] == '+' || text_[at_] == '-')) ++at_;
      if (!digits()) return syntax();
    }
    literal = text_.substr(begin, at_ - begin);
    return true;
  }

  // Any value at at_, its extent in `extent`; `item` is set when it is an
  // item of the result array, whose numbers go to out.
  bool value(std::string_view& extent, bool item = false) {
    skip_space();
    if (at_ >= text_.size()) return syntax();
    const std::size_t begin = at_;
    const char c = text_[at_];
    if (c == '{' || c == '[') {
      if (item) {
        return fail(not_answer(std::string("result array holds ") +
                               (c == '{' ? "an object" : "an array") + " at draw " +
                               std::to_string(items_) + ", not a number or null"));
      }
      ++at_;
      const char close = c == '{' ? '}' : ']';
      if (!next_is(close)) {
        do {
          std::string_view ignored;
          if (c == '{') {
            skip_space();
            if (!string(ignored) || !next_is(':')) return syntax();
          }
          if (!value(ignored)) return false;
        } while (next_is(','));
        if (!next_is(close)) return syntax();
      }
    } else if (c == '"') {
      std::string_view inside;
      if (!string(inside)) return false;
      if (item) {
        const std::optional<double> x = non_finite_number(inside);
        if (!x) {
          return fail(not_answer("result array holds \"" + clip(inside) + "\" at draw " +
                                 std::to_string(items_) + ", not a number or null"));
        }
        return store(*x);
      }
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      std::string_view literal;
      if (!number(literal)) return false;
      if (item) {
        const std::optional<double> x = wire_number_text(literal);
        if (!x)
          return fail(not_answer("a number beyond binary64, at draw " + std::to_string(items_)));
        return store(*x);
      }
    } else {
      for (const std::string_view word : {"true", "false", "null"}) {
        if (text_.substr(at_, word.size()) == word) {
          at_ += word.size();
          extent = text_.substr(begin, at_ - begin);
          if (item && word != "null") {
            return fail(not_answer("result array holds " + std::string(word) + " at draw " +
                                   std::to_string(items_) + ", not a number or null"));
          }
          return item ? store(std::nullopt) : true;
        }
      }
      return syntax();
    }
    extent = text_.substr(begin, at_ - begin);
    return true;
  }

  bool store(std::optional<double> x) {
    if (items_ == out_.size()) {
      return fail("answered more than " + count_text() + " draws to a request for " + count_text());
    }
    if (x) {
      out_[items_] = *x;
    } else if (!first_null_) {
      first_null_ = items_;
    }
    ++items_;
    return true;
  }

  // The answer object: its members, the ones the protocol names read.
  bool top_level() {
    ++at_;  // '{'
    if (next_is('}')) return true;
    do {
      skip_space();
      std::string_view name;
      if (!string(name) || !next_is(':')) return syntax();
      skip_space();
      std::string_view extent;
      if (name == "result" && at_ < text_.size() && text_[at_] == '[') {
        // The draws, read into out as they come.
        result_ = '[';
        items_ = 0;
        first_null_.reset();
        ++at_;
        if (!next_is(']')) {
          do {
            std::string_view item;
            if (!value(item, true)) return false;
          } while (next_is(','));
          if (!next_is(']')) return syntax();
        }
        continue;
      }
      if (!value(extent)) return false;
      if (name == "id") {
        has_id_ = true;
        id_text_ = extent;
        id_matches_ = extent == std::to_string(id_);
      } else if (name == "ok") {
        ok_.reset();
        if (extent == "true" || extent == "false") ok_ = extent == "true";
      } else if (name == "error") {
        error_.reset();
        if (extent.front() == '"') error_ = extent.substr(1, extent.size() - 2);
      } else if (name == "result") {
        result_ = extent.front();
        items_ = 1;  // one value, not an array
      }
    } while (next_is(','));
    return next_is('}') || syntax();
  }

  const std::int64_t id_;
  const std::uint64_t answered_;
  const std::span<double> out_;
  std::string_view text_;
  std::size_t at_ = 0;
  bool has_id_ = false;
  bool id_matches_ = false;
  std::string_view id_text_;
  std::optional<bool> ok_;
  std::optional<std::string_view> error_;  // as written, escapes and all
  std::optional<char> result_;             // the first byte of the result
  std::size_t items_ = 0;
  std::optional<std::size_t> first_null_;
  std::string stop_;
};

// Asks the adapter for the plan's chunks in order, keeping the next request
// in flight while the last answer is read, so the port draws while this
// process parses (the two share the work about evenly for a fast port). The
// first failure is kept, and every later call refuses.
class Sampler {
 public:
  Sampler(AdapterProcess& adapter, std::chrono::milliseconds timeout, const ChunkPlan& plan)
      : adapter_(adapter), timeout_(timeout), plan_(plan) {}

  // Fills `out` with the next chunk's draws; out.size() is the chunk's size.
  bool draw(std::span<double> out) {
    if (!failure_.empty()) return false;
    while (sent_ < plan_.chunks() && sent_ < received_ + in_flight_) {
      const AdapterProcess::Outcome outcome = adapter_.send(plan_.request(sent_), timeout_);
      if (outcome != AdapterProcess::Outcome::answered) {
        return fail(adapter_.failure(outcome, timeout_), plan_.request(sent_));
      }
      ++sent_;
    }
    const std::uint64_t k = received_++;
    const std::string request = plan_.request(k);
    const AdapterProcess::Outcome outcome = adapter_.receive(line_, timeout_);
    if (outcome != AdapterProcess::Outcome::answered) {
      return fail(adapter_.failure(outcome, timeout_), request);
    }
    const auto id = static_cast<std::int64_t>(k + 1);
    bool ok = read_fast(line_, id, out);
    if (!ok) {
      // Anything else, an error or a form the fast path does not read, is
      // read by AnswerReader, which says what is wrong with it.
      AnswerReader reader(id, out, k);
      const std::string wrong = reader.read(line_);
      if (!wrong.empty()) return fail(wrong, request, line_);
      ok = true;
    }
    // A 64 MiB answer is not kept for the rest of the run.
    if (line_.capacity() > (std::size_t{4} << 20)) std::string().swap(line_);
    return ok;
  }

  const std::string& failure() const { return failure_; }

  // 1 while the threads cell is drawn: its threads then have the cores to
  // themselves, so a race between them happens as often as it can (a Go
  // *rand.Rand shared unlocked races far less while this process parses
  // beside it; stats/README.md, "The fleet", has the rates).
  void set_in_flight(std::uint64_t requests) { in_flight_ = requests; }

 private:
  // The answer in the form every adapter here writes, {"id":<id>,"ok":true,
  // "result":[<numbers>]}, read with one correct rounding a number and no
  // JSON tree: the tree costs several times what a fast port takes to draw.
  static bool read_fast(std::string_view line, std::int64_t id, std::span<double> out) {
    const std::string head = "{\"id\":" + std::to_string(id) + ",\"ok\":true,\"result\":[";
    if (!line.starts_with(head) || !line.ends_with("]}")) return false;
    std::string_view items = line.substr(head.size(), line.size() - head.size() - 2);
    for (double& x : out) {
      const std::size_t comma = items.find(',');
      const std::optional<double> value = wire_number_text(items.substr(0, comma));
      if (!value) return false;
      x = *value;
      items = comma == std::string_view::npos ? std::string_view() : items.substr(comma + 1);
      if (comma == std::string_view::npos) {
        return &x == &out.back();
      }
    }
    return false;  // more numbers than asked for
  }

  bool fail(const std::string& what, const std::string& request, const std::string& line = "") {
    failure_ = "the adapter " + what + "\n  request: " + clip(request);
    if (!line.empty()) failure_ += "\n  answer: " + clip(line);
    return false;
  }

  AdapterProcess& adapter_;
  const std::chrono::milliseconds timeout_;
  const ChunkPlan& plan_;
  std::uint64_t in_flight_ = 2;
  std::uint64_t sent_ = 0;
  std::uint64_t received_ = 0;
  std::string line_;
  std::string failure_;
};

// One cell's n draws, the plan's chunks of it, each window of
// kSegmentSamples consecutive calls a segment. `answered` runs after each
// chunk is in.
template <class Accumulate>
bool sample_cell(Sampler& sampler, std::uint64_t n, stats::Progress& progress,
                 std::vector<double>& buffer, Accumulate&& accumulate,
                 const std::function<void()>& answered) {
  for (std::uint64_t segment = 0; segment * stats::kSegmentSamples < n; ++segment) {
    const std::uint64_t start = segment * stats::kSegmentSamples;
    const std::uint64_t size = std::min(stats::kSegmentSamples, n - start);
    accumulate.begin(segment);
    for (std::uint64_t done = 0; done < size;) {
      const std::span<double> chunk(buffer.data(),
                                    std::min<std::uint64_t>(buffer.size(), size - done));
      if (!sampler.draw(chunk)) return false;
      answered();
      accumulate.add(chunk);
      done += chunk.size();
      progress.add_samples(chunk.size());
    }
    accumulate.end();
  }
  return true;
}

// How many of a cell's first delays a rejected cell shows.
constexpr std::size_t kFirstValuesShown = 4;

struct BatteryFeed {
  stats::Accumulator& accumulator;
  stats::BatteryState& state;
  std::vector<double>& first_values;
  void begin(std::uint64_t segment) { accumulator.begin(state, segment); }
  void add(std::span<const double> chunk) {
    for (std::size_t i = 0; i < chunk.size() && first_values.size() < kFirstValuesShown; ++i) {
      first_values.push_back(chunk[i]);
    }
    accumulator.add_jittered(chunk);
  }
  void end() { accumulator.end(); }
};

struct ResolutionFeed {
  stats::ResolutionAccumulator& accumulator;
  stats::ResolutionState& state;
  void begin(std::uint64_t segment) { accumulator.begin(state, segment); }
  void add(std::span<const double> chunk) { accumulator.add_jittered(chunk); }
  void end() { accumulator.end(); }
};

// The fleet: `processes` adapters started at once, as a fleet restarts
// together, each asked for its first stats::kFleetDraws draws of the exact
// cell (2r, so r comes back). The first process is kept for the run, whose
// stream then goes on; the others must end as an adapter ends. Empty when
// all answered; otherwise what went wrong, for exit 2.
struct Fleet {
  std::unique_ptr<AdapterProcess> first;  // goes on to draw the run
  stats::FleetOutcome outcome;
};

std::string start_fleet(const PortStatsOptions& options, Fleet& fleet) {
  const auto size = static_cast<std::size_t>(options.processes);
  std::vector<std::unique_ptr<AdapterProcess>> processes;
  const auto which = [&](std::size_t p) {
    return "process " + std::to_string(p + 1) + " of the " + std::to_string(size) +
           " started at once (a fleet restarts together; an adapter must run as many processes "
           "at once)";
  };
  const auto begun = std::chrono::steady_clock::now();
  for (std::size_t p = 0; p < size; ++p) {
    std::string error;
    processes.push_back(AdapterProcess::start(options.command, error));
    if (!processes.back()) return "cannot start " + which(p) + ": " + error;
  }
  const std::string request =
      "{\"id\":0" + exact_cell_prefix() + std::to_string(stats::kFleetDraws) + "}";
  for (std::size_t p = 0; p < size; ++p) {
    const AdapterProcess::Outcome sent = processes[p]->send(request, options.timeout);
    if (sent != AdapterProcess::Outcome::answered) {
      return which(p) + ": the adapter " + processes[p]->failure(sent, options.timeout) +
             "\n  request: " + clip(request);
    }
  }
  std::string line;
  fleet.outcome.draws.assign(size, std::vector<double>(stats::kFleetDraws));
  for (std::size_t p = 0; p < size; ++p) {
    const AdapterProcess::Outcome got = processes[p]->receive(line, options.timeout);
    if (got != AdapterProcess::Outcome::answered) {
      return which(p) + ": the adapter " + processes[p]->failure(got, options.timeout) +
             "\n  request: " + clip(request);
    }
    std::vector<double>& r = fleet.outcome.draws[p];
    AnswerReader reader(0, r);
    if (const std::string wrong = reader.read(line); !wrong.empty()) {
      return which(p) + ": the adapter " + wrong + "\n  request: " + clip(request) +
             "\n  answer: " + clip(line);
    }
    for (std::size_t k = 0; k < r.size(); ++k) {
      const double delay = r[k];
      r[k] = delay / 2;  // exact: the exact cell's delay is 2r
      if (!(delay >= 0.0 && delay < 2.0)) {
        if (fleet.outcome.outside++ < 3) {
          fleet.outcome.outside_shown +=
              std::string(fleet.outcome.outside_shown.empty() ? "" : ", ") + format_number(delay) +
              " (process " + std::to_string(p + 1) + ", draw " + std::to_string(k + 1) + ")";
        }
      }
    }
  }
  for (std::size_t p = 1; p < size; ++p) {
    const ProcessEnding ending = processes[p]->finish(std::chrono::milliseconds(5000));
    if (!ending.clean()) {
      return which(p) + ": at the end of its input it ended with " + ending.text() +
             ", not exit status 0";
    }
  }
  fleet.first = std::move(processes.front());
  fleet.outcome.result = stats::analyze_fleet(fleet.outcome.draws, options.min_bits);
  fleet.outcome.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begun).count();
  return "";
}

std::string plan_text(const PortStatsOptions& o, std::size_t cells) {
  std::string out = "n " + std::to_string(o.n) + " a cell" + (o.quick ? " (--quick)" : "") + ", " +
                    std::to_string(cells) +
                    " cells (jittered and next_delay, f 0.05 0.2 0.5 1, d tiny ordinary huge "
                    "cap) and the exact cell (delay 1, f 1) for the resolution";
  if (o.threads > 1) {
    out += "; the exact cell drawn by " + std::to_string(o.threads) + " threads at once";
  }
  if (o.processes > 1) {
    out += "; the first " + std::to_string(stats::kFleetDraws) + " draws of " +
           std::to_string(o.processes) + " processes started at once";
  }
  return out;
}

std::string rule_text(int min_bits) {
  const std::string contract = std::to_string(stats::kContractBits);
  if (min_bits == stats::kContractBits) {
    return "the rule: a default source's draws have at least " + contract +
           " bits of resolution (docs/contract.md §5)";
  }
  return "--min-bits " + std::to_string(min_bits) + ": a source of " + std::to_string(min_bits) +
         " bits or more is accepted, knowingly below the contract's " + contract +
         " (docs/contract.md §5)";
}

// Which tests rejected how many cells, in the battery's order (empty when
// none did): one line for a run that failed, so 32 FAIL lines end in what
// they add up to.
std::string tally(const stats::RunReport& run) {
  std::map<std::string, std::size_t> count;
  for (const stats::Outcome& o : run.cells) {
    if (o.unrepresentable != stats::Unrepresentable::no) continue;
    for (const std::string& name : o.rejected_names()) ++count[name];
  }
  std::vector<std::string> order = {stats::kRange};
  if (!run.cells.empty()) {
    for (const stats::TestResult& t : run.cells.front().analysis.tests) order.push_back(t.name);
  }
  std::string out;
  for (const std::string& name : order) {
    const auto it = count.find(name);
    if (it == count.end()) continue;
    out += (out.empty() ? "" : ", ") + name + " in " + std::to_string(it->second) + " of " +
           std::to_string(run.cells.size()) + " cells";
  }
  if (const std::size_t apart = run.unrepresentable_cells(); apart > 0) {
    out += (out.empty() ? "" : "; ") + std::to_string(apart) +
           (apart == 1 ? " cell" : " cells") + " a port on a " +
           run.time_unit_name + " grid cannot represent";
  }
  return out;
}

// The failing cells, worst first (the smallest p-value, a range failure
// before any), each with its first values; then the cells the port's time
// unit cannot represent, on one line, since they say nothing of its jitter.
void print_failing_cells(std::ostream& out, const stats::RunReport& run) {
  std::vector<const stats::Outcome*> judged;
  std::vector<const stats::Outcome*> apart;
  for (const stats::Outcome& o : run.cells) {
    if (!o.failed()) continue;
    (o.unrepresentable == stats::Unrepresentable::no ? judged : apart).push_back(&o);
  }
  std::stable_sort(judged.begin(), judged.end(), [](const stats::Outcome* a, const stats::Outcome* b) {
    return std::pair(a->range.ok(), a->smallest_p()) < std::pair(b->range.ok(), b->smallest_p());
  });
  for (const stats::Outcome* o : judged) {
    std::string names;
    for (const std::string& name : o->rejected_names()) names += (names.empty() ? "" : ", ") + name;
    out << "FAIL " << o->job.name << ": rejected by " << names;
    if (!o->range.ok()) {
      out << "; " << stats::outside_text(o->range);
    } else if (!o->first_values.empty()) {
      out << "; first delays " << stats::values_text(o->first_values);
    }
    out << "\n";
  }
  if (apart.empty()) return;
  out << "FAIL " << apart.size() << (apart.size() == 1 ? " cell" : " cells") << " a port on a "
      << run.time_unit_name
      << " grid cannot represent, whatever its jitter:";
  for (const stats::Unrepresentable why :
       {stats::Unrepresentable::below_unit, stats::Unrepresentable::beyond_long}) {
    std::string names;
    std::size_t count = 0;
    for (const stats::Outcome* o : apart) {
      if (o->unrepresentable != why) continue;
      names += (names.empty() ? "" : ", ") + o->job.name;
      ++count;
    }
    if (count == 0) continue;
    out << "\n  " << count << " with " << stats::unrepresentable_words(why, run.time_unit_name)
        << ": " << names;
  }
  out << "\n";
}

void print_power(std::ostream& out, const PortStatsOptions& options, double per_test) {
  std::vector<stats::PowerRow> power =
      stats::power_table(options.n, per_test, 0.05, options.min_bits);
  power.push_back(stats::resolution_power_row(options.n, per_test, options.min_bits));
  out << "Power at this n: each test detects the deviation below with probability " << stats::kPower
      << " in each cell (resolution: in the exact cell):\n\n"
      << stats::power_table_markdown(power) << "\n";
  if (options.processes > 1) {
    const auto processes = static_cast<std::size_t>(options.processes);
    char arc[32];
    std::snprintf(arc, sizeof arc, "%.3g",
                  stats::fleet_detectable_arc(processes, stats::kFleetDraws, 1, per_test));
    out << "The fleet (" << processes << " processes started at once, the first "
        << stats::kFleetDraws
        << " draws of each), with probability 1 when it is there: " << stats::kFleetShared
        << " rejects "
        << stats::fleet_detectable_equal_pairs(processes, stats::kFleetDraws, options.min_bits,
                                               per_test)
        << " or more equal draws between processes (one stream shared, or shifted); "
        << stats::kFleetClustered << " rejects the k-th draws of all " << processes
        << " within one arc of " << arc
        << " (or a few arcs; java.util.Random seeded by neighbouring PIDs or clocks)\n\n";
  }
  // The spacing test is what sees a source on no binary grid; say when this
  // n is too small for it to see a 32-bit one.
  const double certain = stats::spacing_certain_bits(stats::distinct_draw_pairs(options.n),
                                                     stats::kContractBits, per_test);
  if (certain < kLowResolutionBits) {
    char bits[16];
    std::snprintf(bits, sizeof bits, "%.1f", certain);
    out << "WARNING: at n " << options.n
        << " the resolution test sees a source on no binary grid only up to " << bits
        << " bits, so a 31-bit one like Mono's i/(2^31 - 1) may pass; --quick is n "
        << kPortStatsQuickSamples << "\n\n";
  }
  out << std::flush;
}

int run(const PortStatsOptions& options, std::ostream& out, std::ostream& progress_out) {
  const std::vector<stats::Cell> cells = stats::port_grid();
  const bool threaded = options.threads > 1;
  const bool fleet_judged = options.processes > 1;
  // The grid's tests, the threads cell's, the resolution test and the
  // fleet's share the budget.
  const std::size_t family = stats::port_family_size(threaded, fleet_judged);
  const double per_test = stats::per_test_alpha(family);

  out << "retry-policy stats: the battery on `" << options.command
      << "`'s own default source, through the sample op\n"
      << "  " << plan_text(options, cells.size()) << "; "
      << options.n * (cells.size() + 1 + (threaded ? 1 : 0)) +
             (fleet_judged ? static_cast<std::uint64_t>(options.processes) * stats::kFleetDraws : 0)
      << " draws\n"
      << "  " << rule_text(options.min_bits) << "\n";
  if (fleet_judged) {
    out << "  the rule: each process of a fleet draws its own stream, seeded from the operating "
           "system's entropy, and the source is safe to draw from many threads at once "
           "(docs/contract.md §5)\n";
  }
  out << "  family-wise alpha " << stats::kFamilyAlpha << " over " << family
      << " tests (Holm's step-down; its first step, Bonferroni, is p < " << per_test << ")\n"
      << "  no seed: the draws come from the port's own source, so this run cannot be "
         "replayed\n\n"
      << std::flush;

  std::unique_ptr<AdapterProcess> adapter;
  std::optional<stats::FleetOutcome> fleet_outcome;
  if (fleet_judged) {
    Fleet fleet;
    if (const std::string wrong = start_fleet(options, fleet); !wrong.empty()) {
      out << "ADAPTER FAILED: " << wrong << "\nFAILED TO TEST: the fleet\n";
      return kFailedToTest;
    }
    adapter = std::move(fleet.first);
    fleet_outcome = std::move(fleet.outcome);
  } else {
    std::string error;
    adapter = AdapterProcess::start(options.command, error);
    if (!adapter) {
      out << "ADAPTER FAILED: cannot start `" << options.command << "`: " << error << "\n";
      return kFailedToTest;
    }
  }
  ChunkPlan plan{{exact_cell_prefix()}, options.n};
  if (threaded) plan.prefixes.push_back(exact_cell_prefix(options.threads));
  for (const stats::Cell& cell : cells) plan.prefixes.push_back(request_prefix(cell));
  Sampler sampler(*adapter, options.timeout, plan);
  const std::size_t drawn_cells = plan.prefixes.size();
  stats::Progress progress(progress_out, drawn_cells, options.n * drawn_cells,
                           options.progress_interval, stats::Progress::Lines::on_interval);
  std::vector<double> buffer(static_cast<std::size_t>(kMaxSampleCount));
  // The power table, once the adapter has answered: a run that fails at its
  // first request has no use for it.
  bool power_printed = false;
  const std::function<void()> first_answer = [&] {
    if (power_printed) return;
    print_power(out, options, per_test);
    power_printed = true;
  };
  const std::string threads_name = threads_cell_name(options.threads);
  const auto failed = [&](const std::string& cell) {
    out << "ADAPTER FAILED: " << sampler.failure() << "\nFAILED TO TEST: in cell " << cell
        << " after " << stats::duration_text(progress.elapsed_seconds()) << "\n";
    if (cell == threads_name) {
      out << "  (does the adapter implement sample's \"threads\"? conformance/README.md, "
             "Ops; --threads 1 leaves the threads cell out)\n";
    }
    return kFailedToTest;
  };

  stats::ResolutionOutcome resolution;
  resolution.state = stats::ResolutionState(options.min_bits);
  {
    const auto begun = std::chrono::steady_clock::now();
    stats::ResolutionAccumulator accumulator;
    if (!sample_cell(sampler, options.n, progress, buffer,
                     ResolutionFeed{accumulator, resolution.state}, first_answer)) {
      return failed(kExactCellName);
    }
    resolution.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - begun).count();
    resolution.result = stats::analyze_resolution(resolution.state, per_test);
    progress.cell_done(kExactCellName);
  }
  if (fleet_outcome) {
    // Judged against the grid the exact cell measured, when coarser than the
    // rule's: equal draws that grid explains are the resolution's finding.
    const int bits = stats::fleet_null_bits(resolution.result, options.min_bits, per_test);
    if (bits != fleet_outcome->result.min_bits) {
      fleet_outcome->result = stats::analyze_fleet(fleet_outcome->draws, bits);
    }
  }

  stats::Accumulator accumulator;
  std::vector<stats::Outcome> outcomes;
  if (threaded) {
    // The exact cell again, drawn by threads at once: a source shared
    // without its lock repeats or sticks, and threads seeded alike repeat
    // one another; the battery's repeats test sees both.
    const stats::JobInfo info{threads_name,        "", stats::kExactDelay,
                              stats::kExactFactor, 0,  options.n,
                              /*in_family=*/true};
    stats::BatteryConfig config = info.config();
    config.min_bits = options.min_bits;
    stats::BatteryState state(config);
    const auto begun = std::chrono::steady_clock::now();
    std::vector<double> first_values;
    sampler.set_in_flight(1);
    if (!sample_cell(sampler, options.n, progress, buffer,
                     BatteryFeed{accumulator, state, first_values}, first_answer)) {
      return failed(info.name);
    }
    sampler.set_in_flight(2);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - begun).count();
    outcomes.push_back(stats::outcome_of(info, state, seconds));
    outcomes.back().first_values = std::move(first_values);
    progress.cell_done(outcomes.back().one_line());
  }
  // A cell the adapter answers with an error (a port that throws on a huge
  // delay) ends the drawing, but not the run: the cells drawn so far are
  // judged and reported, and the verdict names the cell that stopped it.
  std::string stopped_in;
  for (const stats::Cell& cell : cells) {
    const stats::JobInfo info{cell.name(), "",        cell.delay_seconds(), cell.factor,
                              0,           options.n, /*in_family=*/true};
    stats::BatteryConfig config = info.config();
    config.min_bits = options.min_bits;
    stats::BatteryState state(config);
    const auto begun = std::chrono::steady_clock::now();
    std::vector<double> first_values;
    if (!sample_cell(sampler, options.n, progress, buffer,
                     BatteryFeed{accumulator, state, first_values}, first_answer)) {
      stopped_in = info.name;
      break;
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - begun).count();
    outcomes.push_back(stats::outcome_of(info, state, seconds));
    outcomes.back().first_values = std::move(first_values);
    progress.cell_done(outcomes.back().one_line());
  }
  const std::size_t cells_drawn = outcomes.size() - (threaded ? 1 : 0);
  if (!stopped_in.empty()) {
    progress.finish(std::to_string(cells_drawn) + " of " + std::to_string(cells.size()) +
                    " cells drawn");
    (void)adapter->finish(std::chrono::milliseconds(5000));
    out << "ADAPTER FAILED: " << sampler.failure() << "\nFAILED TO TEST: cell " << stopped_in
        << " and the " << cells.size() - cells_drawn - 1 << " after it (of " << cells.size()
        << "), after " << stats::duration_text(progress.elapsed_seconds()) << "; the "
        << cells_drawn << " cells drawn before it are judged below\n";
  } else {
    progress.finish("all " + std::to_string(drawn_cells) + " cells drawn");
    const ProcessEnding ending = adapter->finish(std::chrono::milliseconds(5000));
    if (!ending.clean()) {
      out << "ADAPTER FAILED: at the end of its input it ended with " << ending.text()
          << ", not exit status 0\nFAILED TO TEST\n";
      return kFailedToTest;
    }
  }

  stats::RunReport run =
      stats::judge(std::move(outcomes), family, std::move(resolution), std::move(fleet_outcome));
  run.unseeded_source = "`" + options.command + "`, through the sample op";
  if (!stopped_in.empty()) {
    run.stopped_by = "the adapter answered an error in cell " + stopped_in + ", so it and the " +
                     std::to_string(cells.size() - cells_drawn - 1) +
                     " cells after it were not drawn (" +
                     clip(sampler.failure().substr(0, sampler.failure().find('\n'))) + ")";
  }
  run.plan = plan_text(options, cells.size());
  // The whole run, the fleet's start-up included (processes of a JVM take
  // seconds to start, which a port's CI pays).
  const double elapsed = progress.elapsed_seconds() + (run.fleet ? run.fleet->seconds : 0.0);
  const auto failing = static_cast<std::size_t>(std::count_if(
      run.cells.begin(), run.cells.end(), [](const stats::Outcome& o) { return o.failed(); }));
  const stats::ResolutionOutcome& r = *run.resolution;
  out << (r.rejected ? "FAIL " : "") << "exact cell (delay 1, f 1), " << r.state.n()
      << " draws: " << r.verdict << "\n  estimate: " << r.result.estimate << "\n";
  if (!r.state.range.ok()) out << "  delays: " << stats::outside_text(r.state.range) << "\n";
  if (run.fleet) {
    const stats::FleetOutcome& f = *run.fleet;
    out << (f.failed() ? "FAIL " : "") << "fleet (" << f.draws.size()
        << " processes started at once, the first " << f.result.draws << " draws of each): "
        << (f.failed() ? "the processes do not draw their own streams"
                       : "each draws its own stream")
        << "\n  " << (f.shared_rejected ? "REJECTED " : "") << stats::kFleetShared << ": "
        << f.result.shared_words << " (p " << f.result.shared.p_value << ")\n  "
        << (f.clustered_rejected ? "REJECTED " : "") << stats::kFleetClustered << ": "
        << f.result.clustered_words << " (p " << f.result.clustered.p_value << ")\n";
    if (f.outside > 0) {
      out << "  " << f.outside
          << " of the fleet's delays outside [0, 2) (2r for r in [0, 1)): " << f.outside_shown
          << "\n";
    }
  }
  print_failing_cells(out, run);
  if (!run.passed()) {
    const std::string cells_rejected = tally(run);
    std::string what =
        cells_rejected.empty() ? std::string("every cell passes the battery") : cells_rejected;
    if (r.rejected) what += "; the resolution";
    if (run.fleet && run.fleet->failed()) {
      what += "; the fleet (";
      what += run.fleet->shared_rejected ? stats::kFleetShared : "";
      if (run.fleet->clustered_rejected) {
        what += std::string(run.fleet->shared_rejected ? ", " : "") + stats::kFleetClustered;
      }
      if (run.fleet->outside > 0) what += "draws out of range";
      what += ")";
    }
    out << "Rejected: " << what << "\n";
  }

  std::string report;
  bool report_written = true;
  try {
    report = stats::write_report(options.report_dir, run).string();
  } catch (const std::exception& e) {
    report_written = false;
    report = "NOT WRITTEN (" + std::string(e.what()) + ")";
  }
  char rate[64];
  std::snprintf(rate, sizeof rate, "%.3g", static_cast<double>(options.n * drawn_cells) / elapsed);
  const bool complete = stopped_in.empty();
  out << (run.passed() ? (complete ? "PASS" : "NOT ALL TESTED") : "FAIL") << ": "
      << run.cells.size() - failing << " of " << run.cells.size() << " cells pass"
      << (complete ? "" : " (of those drawn; the adapter answered an error in " + stopped_in + ")")
      << " at n " << options.n << " a cell, family-wise alpha "
      << stats::kFamilyAlpha << "; " << r.verdict
      << (run.fleet
              ? (run.fleet->failed() ? "; the fleet shares its streams" : "; the fleet draws apart")
              : "")
      << "; " << stats::duration_text(elapsed) << ", " << rate
      << " draws/s; the port's own source, not replayable; report " << report << "\n";
  if (!report_written) return kFailedToTest;
  if (!run.passed()) return 1;
  return complete ? 0 : kFailedToTest;
}

}  // namespace

std::optional<std::string> report_dir_problem(const std::string& dir) {
  std::error_code error;
  const std::filesystem::path path(dir);
  std::filesystem::create_directories(path / "svg", error);
  if (error) return "cannot create it (" + error.message() + ")";
  const std::filesystem::path probe = path / ".retry-policy-stats-probe";
  {
    std::ofstream file(probe, std::ios::binary);
    file << "probe\n";
    if (!file) return "cannot write in it";
  }
  std::filesystem::remove(probe, error);
  return std::nullopt;
}

int run_port_stats(const PortStatsOptions& options, std::ostream& out, std::ostream& progress) {
  // Whatever the adapter wrote, a library's exception must not stand in for
  // a verdict; the battery answers degenerate data itself
  // (stats/degenerate_test.cc), so reaching this is a bug of this command.
  try {
    return run(options, out, progress);
  } catch (const std::exception& e) {
    out << "FAILED TO TEST: internal error in retry-policy stats: " << clip(e.what()) << "\n";
    return kFailedToTest;
  }
}

}  // namespace acemq::conformance
