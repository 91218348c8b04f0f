#include "properties/properties.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <rapidcheck.h>

#include "acemq/amqp/internal/walk.hpp"
#include "acemq/model/contract.hpp"
#include "acemq/model/ruby_rand.hpp"
#include "properties/generators.hpp"
#include "properties/show.hpp"

namespace acemq::props {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
// The most multiplications a case may ask of next_delay: 10^6 costs about a
// millisecond.
constexpr std::int64_t kMaxWork = 1'000'000;

// ---- Failing with a readable message -------------------------------------

std::string text(double value) { return describe(value); }
std::string text(Real value) { return describe(value.value); }
std::string text(const std::optional<double>& delay) {
  return delay ? describe(*delay) : std::string("nullopt (give up)");
}
std::string text(const std::string& s) { return s; }
std::string text(std::string_view s) { return std::string(s); }
std::string text(const char* s) { return s; }
std::string text(std::int64_t n) { return std::to_string(n); }
std::string text(std::size_t n) { return std::to_string(n); }
std::string text(int n) { return std::to_string(n); }
std::string text(bool b) { return b ? "true" : "false"; }

template <typename... Parts>
std::string cat(const Parts&... parts) {
  std::string out;
  (out.append(text(parts)), ...);
  return out;
}

// The message is built only when the check fails: these run per entry.
template <typename... Parts>
void require(bool ok, const Parts&... what) {
  if (!ok) RC_FAIL(cat(what...));
}

template <typename... Parts>
void require_same(double actual, double expected, const Parts&... what) {
  if (!same_bits(actual, expected)) {
    RC_FAIL(cat(what..., ": got ", actual, ", want ", expected));
  }
}

template <typename... Parts>
void require_same(const std::optional<double>& actual, const std::optional<double>& expected,
                  const Parts&... what) {
  const bool same =
      actual.has_value() == expected.has_value() && (!actual || same_bits(*actual, *expected));
  if (!same) RC_FAIL(cat(what..., ": got ", actual, ", want ", expected));
}

void require_same_options(const Options& actual, const Options& expected, const char* what) {
  const bool same = actual.max_attempts == expected.max_attempts &&
                    same_bits(actual.initial_delay.count(), expected.initial_delay.count()) &&
                    same_bits(actual.multiplier, expected.multiplier) &&
                    same_bits(actual.max_delay.count(), expected.max_delay.count()) &&
                    same_bits(actual.jitter_factor, expected.jitter_factor) &&
                    same_bits(actual.max_message_age.count(), expected.max_message_age.count());
  if (!same) {
    RC_FAIL(cat(what, ":\n    got  ", describe(actual), "\n    want ", describe(expected)));
  }
}

// A delay that exists and is neither negative nor NaN (-0.0 is not negative).
template <typename... Parts>
void require_delay(double delay, const Parts&... what) {
  require(!std::isnan(delay) && !(delay < 0.0), what..., ": ", delay, " is negative or NaN");
}

// ---- Sources --------------------------------------------------------------

// A source that always yields `r` and counts how often it was asked.
Source counting(double r, int& draws) {
  return [r, &draws] {
    ++draws;
    return r;
  };
}

// The generated draw, then the edge draws every jitter check tries.
std::vector<double> draws_with_edges(Real generated) {
  std::vector<double> draws{generated.value};
  for (const double edge : kEdgeDraws) draws.push_back(edge);
  return draws;
}

// ---- Reading error messages -----------------------------------------------

bool identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Whether `message` contains `word` standing alone: "attempt" is not found
// in "max_attempts", nor "delay" in "initial_delay".
bool names(std::string_view message, std::string_view word) {
  for (std::size_t at = message.find(word); at != std::string_view::npos;
       at = message.find(word, at + 1)) {
    const bool starts = at == 0 || !identifier_char(message[at - 1]);
    const std::size_t end = at + word.size();
    const bool ends = end == message.size() || !identifier_char(message[end]);
    if (starts && ends) return true;
  }
  return false;
}

// Whether `message` contains the value exactly as written: "0.1" is not
// found in "0.100000".
bool shows_value(std::string_view message, const std::string& value) {
  for (std::size_t at = message.find(value); at != std::string_view::npos;
       at = message.find(value, at + 1)) {
    const std::size_t end = at + value.size();
    const bool starts = at == 0 || message[at - 1] == ' ';
    const bool ends =
        end == message.size() || !(identifier_char(message[end]) || message[end] == '.' ||
                                   message[end] == '+' || message[end] == '-');
    if (starts && ends) return true;
  }
  return false;
}

// Runs `call`, which must throw std::invalid_argument naming `field` and
// showing `value`.
template <typename Call>
void require_rejection(Call&& call, std::string_view field, const std::string& value,
                       const std::string& what, std::string_view where = {}) {
  try {
    call();
  } catch (const std::invalid_argument& e) {
    // The message opens with the call that refused: "give_up_after: ...".
    require(where.empty() || std::string_view(e.what()).starts_with(std::string(where) + ": "),
            what, ": the message does not begin with \"", where, ": \": \"", e.what(), "\"");
    require(names(e.what(), field), what, ": the message does not name ", field, ": \"", e.what(),
            "\"");
    require(shows_value(e.what(), value), what, ": the message does not show the value ", value,
            ": \"", e.what(), "\"");
    return;
  } catch (const std::exception& e) {
    RC_FAIL(cat(what, ": threw something other than std::invalid_argument: ", e.what()));
  }
  RC_FAIL(cat(what, ": accepted; want std::invalid_argument naming ", field));
}

std::string value_text(double value) { return shortest(value); }
std::string value_text(std::int64_t value) { return std::to_string(value); }

double field_value(const Options& o, std::string_view field) {
  if (field == "initial_delay") return o.initial_delay.count();
  if (field == "multiplier") return o.multiplier;
  if (field == "max_delay") return o.max_delay.count();
  if (field == "jitter_factor") return o.jitter_factor;
  return o.max_message_age.count();
}

std::int64_t max_attempts(const Policy& p) { return p->max_attempts; }
double cap(const Policy& p) { return p->max_delay.count(); }
double age_limit(const Policy& p) { return p->max_message_age.count(); }

}  // namespace

// ---- The properties --------------------------------------------------------

void schedule_length(const Core& core, [[maybe_unused]] Cases& cases) {
  const Policy p = *valid_policy();
  const std::int64_t want = max_attempts(p) - 1;
  const std::size_t entries = core.schedule(*p).size();
  require(entries == static_cast<std::size_t>(want), "schedule() has ", entries, " entries, want ",
          want);
  const std::int64_t size = core.lazy_size(*p);
  require(size == want, "delays().size() is ", size, ", want ", want);
  require(core.lazy_empty(*p) == (want == 0), "delays().empty() for ", want, " entries");
  // Exactly 2^24 entries are allowed: 128 MiB, so one case in a hundred.
  if (*rc::gen::resize(rc::kNominalSize, rc::gen::inRange(0, 100)) == 0) {
    Options at_limit = *p;
    at_limit.max_attempts = amqp::RetryPolicy::kMaxScheduleLength + 1;
    const std::size_t length = core.schedule(at_limit).size();
    require(length == std::size_t{1} << 24, "schedule() at the limit has ", length, " entries");
  }
  // Past 2^24 entries delays() still counts, and schedule() refuses before
  // allocating: 2^24 doubles are 128 MiB.
  for (const std::int64_t huge :
       {(std::int64_t{1} << 24) + 2, std::int64_t{1'000'000'000}, kInt64Max}) {
    Options longer = *p;
    longer.max_attempts = huge;
    const std::int64_t longer_size = core.lazy_size(longer);
    require(longer_size == huge - 1, "delays().size() for max_attempts ", huge, " is ",
            longer_size);
    bool refused = false;
    try {
      (void)core.schedule(longer);
    } catch (const std::length_error&) {
      refused = true;
    }
    require(refused, "schedule() with max_attempts ", huge, " did not throw std::length_error");
  }
}

void schedule_respects_cap(const Core& core, [[maybe_unused]] Cases& cases) {
  const Policy p =
      *valid_policy({.lengths = Lengths::any, .caps = Caps::positive, .retries = true});
  const double max_delay = cap(p);
  if (max_attempts(p) <= 2000) {
    const std::vector<double> schedule = core.schedule(*p);
    for (std::size_t i = 0; i < schedule.size(); ++i) {
      require(schedule[i] <= max_delay, "schedule()[", i, "] = ", schedule[i],
              " is above max_delay ", max_delay);
    }
    const std::vector<double> lazy = core.lazy_delays(*p);
    for (std::size_t i = 0; i < lazy.size(); ++i) {
      require(lazy[i] <= max_delay, "delays()[", i, "] = ", lazy[i], " is above max_delay");
    }
  }
  const std::int64_t attempt = *retrying_attempt_for(max_attempts(p), 1'000'000);
  const std::optional<double> delay = core.next_delay_unjittered(*p, attempt, 0.0);
  require(delay.has_value(), "next_delay(", attempt, ", 0, Jitter::off) gave up");
  require(*delay <= max_delay, "next_delay(", attempt, ", 0, Jitter::off) = ", *delay,
          " is above max_delay ", max_delay);
}

void jitter_stays_in_band(const Core& core, [[maybe_unused]] Cases& cases) {
  const Policy p = *valid_policy({.lengths = Lengths::any, .retries = true});
  const std::int64_t attempt = *retrying_attempt_for(max_attempts(p), 1'000'000);
  const Real age = *young_age_for(age_limit(p));
  const Real r = *draw();
  const std::optional<double> unjittered = core.next_delay_unjittered(*p, attempt, age);
  require(unjittered.has_value(), "next_delay(", attempt, ", ", age, ", Jitter::off) gave up");
  const double d = *unjittered;
  const double f = p->jitter_factor;
  // Rounding is monotonic, so (2r - 1) * f in [-f, f] keeps the computed
  // delay between the same bounds computed in binary64. 1 - f == 0 would
  // make inf * 0, and the port keeps an infinite delay there.
  const double upper = d * (1 + f);
  const double lower = (1 - f) == 0.0 ? 0.0 : d * (1 - f);
  const double cap_upper = cap(p) > 0.0 ? cap(p) * (1 + f) : kInf;
  for (const double each : draws_with_edges(r)) {
    int draws = 0;
    Source source = counting(each, draws);
    const std::optional<double> jittered = core.next_delay(*p, attempt, age, source);
    require(jittered.has_value(), "next_delay(", attempt, ", ", age, ") with r = ", each,
            " gave up");
    require(*jittered <= upper && *jittered >= lower, "next_delay(", attempt, ") with r = ", each,
            " is ", *jittered, ", outside [d(1 - f), d(1 + f)] = [", lower, ", ", upper,
            "] for d = ", d);
    require(*jittered <= cap_upper, "next_delay(", attempt, ") with r = ", each, " is ", *jittered,
            ", above max_delay * (1 + f) = ", cap_upper);
  }
}

void jitter_is_two_sided(const Core& core, [[maybe_unused]] Cases& cases) {
  const Policy p = *valid_policy({.jitters = Jitters::positive});
  const Real d = *positive_delay_argument();
  const Real r = *draw();
  std::vector<double> draws = draws_with_edges(r);
  draws.push_back(std::nextafter(0.5, 0.0));
  draws.push_back(std::nextafter(0.5, 1.0));
  for (const double each : draws) {
    int count = 0;
    Source source = counting(each, count);
    const double j = core.jittered(*p, d, source);
    if (each < 0.5) require(j <= d, "jittered(", d, ") with r = ", each, " is ", j, ", above d");
    if (each > 0.5) require(j >= d, "jittered(", d, ") with r = ", each, " is ", j, ", below d");
    if (each == 0.5) require_same(j, d, "jittered(d) with r = 1/2");
  }
  // The extreme draws move an ordinary delay by a visible factor.
  if (p->jitter_factor >= 1e-3 && std::isnormal(d.value)) {
    int count = 0;
    Source lowest = counting(0.0, count);
    Source highest = counting(std::nextafter(1.0, 0.0), count);
    const double shortest_j = core.jittered(*p, d, lowest);
    const double longest_j = core.jittered(*p, d, highest);
    require(shortest_j < d, "jittered(", d, ") with r = 0 is ", shortest_j, ", not below d");
    require(longest_j > d, "jittered(", d, ") with r = 1 - 2^-53 is ", longest_j, ", not above d");
  }
}

void gives_up_at_age_limit(const Core& core, [[maybe_unused]] Cases& cases) {
  const Policy p = *valid_policy({.lengths = Lengths::any});
  const std::int64_t attempt = *attempt_for(max_attempts(p), 1'000'000);
  const Real age = *age_for(age_limit(p));
  cases.policy(*p, attempt, age, 0);
  const Real r = *draw();
  const bool out_of_attempts = attempt >= max_attempts(p);
  const bool too_old = age_limit(p) > 0.0 && age >= age_limit(p);
  const bool want_nothing = out_of_attempts || too_old;
  const std::optional<double> plain = core.next_delay_unjittered(*p, attempt, age);
  int draws = 0;
  Source source = counting(r, draws);
  const std::optional<double> jittered = core.next_delay(*p, attempt, age, source);
  const char* want = want_nothing ? "nullopt" : "a delay";
  require(plain.has_value() != want_nothing, "next_delay(", attempt, ", ", age,
          ", Jitter::off) = ", plain, ", want ", want);
  require(jittered.has_value() != want_nothing, "next_delay(", attempt, ", ", age,
          ") with jitter = ", jittered, ", want ", want);
}

void gives_up_after_last_attempt(const Core& core, [[maybe_unused]] Cases& cases) {
  const Policy p = *valid_policy({.lengths = Lengths::any});
  const std::int64_t attempt = *final_attempt_for(max_attempts(p));
  const Real age = *age_for(age_limit(p));
  const Real r = *draw();
  int draws = 0;
  Source source = counting(r, draws);
  require(!core.next_delay_unjittered(*p, attempt, age).has_value(), "next_delay(", attempt, ", ",
          age, ", Jitter::off) did not give up at max_attempts ", max_attempts(p));
  require(!core.next_delay(*p, attempt, age, source).has_value(), "next_delay(", attempt, ", ", age,
          ") with jitter did not give up at max_attempts ", max_attempts(p));
  if (max_attempts(p) >= 2) {
    const std::int64_t retry = *retrying_attempt_for(max_attempts(p), 1'000'000);
    const Real young = *young_age_for(age_limit(p));
    require(core.next_delay_unjittered(*p, retry, young).has_value(), "next_delay(", retry, ", ",
            young, ", Jitter::off) gave up before max_attempts ", max_attempts(p));
    require(core.next_delay(*p, retry, young, source).has_value(), "next_delay(", retry, ", ",
            young, ") with jitter gave up before max_attempts ", max_attempts(p));
  }
}

void never_negative_nor_nan(const Core& core, [[maybe_unused]] Cases& cases) {
  const Policy p = *valid_policy({.lengths = Lengths::any});
  if (max_attempts(p) <= 2000) {
    const std::vector<double> schedule = core.schedule(*p);
    for (std::size_t i = 0; i < schedule.size(); ++i) {
      require_delay(schedule[i], "schedule()[", i, "]");
    }
  }
  const std::int64_t attempt = *attempt_for(max_attempts(p), 1'000'000);
  const Real age = *age_for(age_limit(p));
  const Real r = *draw();
  const std::optional<double> plain = core.next_delay_unjittered(*p, attempt, age);
  if (plain) require_delay(*plain, "next_delay(", attempt, ", ", age, ", Jitter::off)");
  const Real d = *delay_argument(false);
  for (const double each : draws_with_edges(r)) {
    int draws = 0;
    Source source = counting(each, draws);
    const std::optional<double> jittered = core.next_delay(*p, attempt, age, source);
    if (jittered) require_delay(*jittered, "next_delay(", attempt, ", ", age, ") with r = ", each);
    require_delay(core.jittered(*p, d, source), "jittered(", d, ") with r = ", each);
  }
}

void next_delay_matches_schedule(const Core& core, [[maybe_unused]] Cases& cases) {
  const Policy p = *valid_policy();
  const std::vector<double> schedule = core.schedule(*p);
  for (std::int64_t k = 1; k < max_attempts(p); ++k) {
    const std::optional<double> delay = core.next_delay_unjittered(*p, k, 0.0);
    require(delay.has_value(), "next_delay(", k, ", 0, Jitter::off) gave up");
    require_same(*delay, schedule[static_cast<std::size_t>(k - 1)], "next_delay(", k,
                 ", 0, Jitter::off) against schedule()[", k - 1, "]");
  }
}

void lazy_range_matches_schedule(const Core& core, [[maybe_unused]] Cases& cases) {
  const Policy p = *valid_policy();
  const std::vector<double> schedule = core.schedule(*p);
  const std::vector<double> lazy = core.lazy_delays(*p);
  require(lazy.size() == schedule.size(), "delays() has ", lazy.size(), " entries, schedule() has ",
          schedule.size());
  for (std::size_t i = 0; i < lazy.size(); ++i) {
    require_same(lazy[i], schedule[i], "delays()[", i, "] against schedule()[", i, "]");
  }
  const std::vector<double> postfix = core.lazy_delays_postfix(*p);
  require(postfix.size() == schedule.size(), "delays() walked with it++ has ", postfix.size(),
          " entries, schedule() has ", schedule.size());
  for (std::size_t i = 0; i < postfix.size(); ++i) {
    require_same(postfix[i], schedule[i], "delays() walked with it++, entry ", i);
  }
  require(core.lazy_empty(*p) == schedule.empty(), "delays().empty() is ", core.lazy_empty(*p),
          " for ", schedule.size(), " entries");
  if (!schedule.empty()) {
    const auto last = static_cast<std::int64_t>(schedule.size()) - 1;
    const std::int64_t i =
        *rc::gen::resize(rc::kNominalSize, rc::gen::inRange<std::int64_t>(0, last + 1));
    const std::int64_t j =
        *rc::gen::resize(rc::kNominalSize, rc::gen::inRange<std::int64_t>(0, last + 1));
    require(core.lazy_positions_equal(*p, i, j) == (i == j), "delays(): begin() advanced ", i,
            " times == begin() advanced ", j, " times is ", core.lazy_positions_equal(*p, i, j));
  }
}

void schedule_matches_model(const Core& core, [[maybe_unused]] Cases& cases) {
  const Policy p = *valid_policy();
  cases.policy(*p);
  const std::vector<double> got = core.schedule(*p);
  const std::vector<double> want = model::schedule(*p);
  require(got.size() == want.size(), "schedule() has ", got.size(), " entries, the model ",
          want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    require_same(got[i], want[i], "schedule()[", i, "] against the model");
  }
}

void next_delay_matches_model(const Core& core, [[maybe_unused]] Cases& cases) {
  const Policy p = *valid_policy({.lengths = Lengths::any});
  // 2 * 10^5: the model walks every step, four times a case.
  const std::int64_t attempt = *attempt_for(max_attempts(p), 200'000);
  const Real age = *age_for(age_limit(p));
  const Real r = *draw();
  cases.policy(*p, attempt, age);
  require_same(core.next_delay_unjittered(*p, attempt, age), model::next_delay(*p, attempt, age),
               "next_delay(", attempt, ", ", age, ", Jitter::off) against the model");
  for (const double each : draws_with_edges(r)) {
    int draws = 0;
    Source source = counting(each, draws);
    require_same(core.next_delay(*p, attempt, age, source),
                 model::next_delay(*p, attempt, age, each).delay, "next_delay(", attempt, ", ", age,
                 ") with r = ", each, " against the model");
  }
}

void jittered_matches_model(const Core& core, [[maybe_unused]] Cases& cases) {
  // Factor 0 is the identity, which no_draw_without_jitter checks; here every
  // case does the arithmetic.
  const Policy p = *valid_policy({.jitters = Jitters::positive});
  const Real d = *delay_argument(true);
  const Real r = *draw();
  for (const double each : draws_with_edges(r)) {
    const double want = model::jittered(*p, d, each);
    cases.value(d);
    int draws = 0;
    Source source = counting(each, draws);
    require_same(core.jittered(*p, d, source), want, "jittered(", d, ") with r = ", each,
                 " against the model");
    require_same(core.jittered_with_draw(*p, d, each), want, "jittered_with_draw(", d, ", ", each,
                 ") against the model");
  }
}

void fast_path_matches_plain_loop(const Core& core, [[maybe_unused]] Cases& cases) {
  // Half the cases walk slowly to a cap they cross past entry 16, where the
  // early exits decide; the other half are any policy at all.
  const Policy p =
      *rc::gen::mapcat(rc::gen::resize(rc::kNominalSize, rc::gen::inRange(0, 2)), [](int slow) {
        return slow == 0 ? valid_policy({.lengths = Lengths::unbounded})
                         : valid_policy({.lengths = Lengths::unbounded,
                                         .multipliers = Multipliers::near_one,
                                         .caps = Caps::crossing});
      });
  // Where the plain loop's entries change regime: the running value crosses
  // the cap (either way), or maps to itself. The early exits start there,
  // and past the library's table of 16 values, so the attempts around those
  // points are where an off-by-one in them shows.
  std::int64_t crosses = kMaxWork;
  std::int64_t settles = kMaxWork;
  double running = p->initial_delay.count();
  const auto above_cap = [&p](double x) { return cap(p) > 0.0 && x > cap(p); };
  for (std::int64_t k = 1; k < kMaxWork; ++k) {
    const double next = running * p->multiplier;
    if (crosses == kMaxWork && above_cap(next) != above_cap(running)) crosses = k + 1;
    if (same_bits(next, running)) {
      settles = k;
      break;
    }
    running = next;
  }
  const auto near = [](std::int64_t k, std::int64_t offset) {
    return rc::gen::just(std::clamp<std::int64_t>(k + offset, 1, kMaxWork));
  };
  const std::int64_t attempt = *rc::gen::mapcat(
      rc::gen::resize(rc::kNominalSize, rc::gen::inRange(0, 10)),
      // By value: RapidCheck keeps this generator to shrink the attempt after
      // this frame is gone.
      [crosses, settles, near](int which) -> rc::Gen<std::int64_t> {
        switch (which) {
          case 0: return near(crosses, -1);
          case 1: return near(crosses, 0);
          case 2: return near(crosses, 1);
          case 3: return near(settles, -1);
          case 4: return near(settles, 0);
          case 5: return near(settles, 1);
          case 6: return near(settles, 2);
          case 7: return rc::gen::just(kMaxWork);
          case 8: return rc::gen::resize(rc::kNominalSize, rc::gen::inRange<std::int64_t>(16, 19));
          default:
            return rc::gen::resize(rc::kNominalSize,
                                   rc::gen::inRange<std::int64_t>(1, kMaxWork + 1));
        }
      });
  cases.policy(*p, attempt, 0.0, kMaxWork);
  require_same(core.next_delay_unjittered(*p, attempt, 0.0), model::next_delay(*p, attempt, 0.0),
               "next_delay(", attempt,
               ", 0, Jitter::off) against the plain loop (crosses the cap"
               " at ",
               crosses, ", settles at ", settles, ")");
}

void huge_attempt_answers_at_once(const Core& core, Cases& cases) {
  // 2 * 10^4 steps settle every Multipliers::settling policy from any start
  // (1.5^3600 spans 2^-1074 to DBL_MAX; 0.9^13800 the way back).
  constexpr std::int64_t kSettled = 20'000;
  // Not timed: speed is asserted in bench/, never in a test. Attempt ~10^12
  // makes a lost early exit a hang instead, 10^12 multiplications or about
  // 12 minutes a call, which the test's timeout turns into a failure.
  Policy p = *valid_policy({.lengths = Lengths::unbounded, .multipliers = Multipliers::settling});
  // One case in four: multiplier -0.0, whose zero flips sign every step, so
  // the answer is settled by the parity of the attempt, up to INT64_MAX - 1.
  const bool flips = *rc::gen::resize(rc::kNominalSize, rc::gen::inRange(0, 4)) == 0;
  if (flips) p.options.multiplier = -0.0;
  const std::int64_t attempt =
      flips ? *rc::gen::resize(rc::kNominalSize,
                               rc::gen::inRange<std::int64_t>(kInt64Max - 1000, kInt64Max))
            : *rc::gen::resize(rc::kNominalSize, rc::gen::inRange<std::int64_t>(1'000'000'000'000,
                                                                                1'000'000'001'000));
  cases.policy(*p, attempt, 0.0, 0);
  // The model at an attempt past kSettled with the same parity.
  const std::int64_t same_parity = kSettled + (attempt - kSettled) % 2;
  const std::optional<double> settled = model::next_delay(*p, same_parity, 0.0);
  const std::optional<double> later = model::next_delay(*p, same_parity + 2, 0.0);
  require_same(later, settled, "the model has not settled by attempt ", same_parity,
               ": a generator bug, not a core one");
  const std::optional<double> got = core.next_delay_unjittered(*p, attempt, 0.0);
  require_same(got, settled, "next_delay(", attempt, ", 0, Jitter::off) against the settled value");
}

void non_decreasing_when_multiplier_at_least_one(const Core& core, [[maybe_unused]] Cases& cases) {
  const Policy p = *valid_policy({.multipliers = Multipliers::at_least_one});
  const std::vector<double> schedule = core.schedule(*p);
  for (std::size_t i = 1; i < schedule.size(); ++i) {
    require(schedule[i - 1] <= schedule[i], "schedule()[", i - 1, "] = ", schedule[i - 1],
            " > schedule()[", i, "] = ", schedule[i]);
  }
  if (max_attempts(p) >= 3) {
    const std::int64_t k = *retrying_attempt_for(max_attempts(p) - 1, 1'000'000);
    const std::optional<double> now = core.next_delay_unjittered(*p, k, 0.0);
    const std::optional<double> next = core.next_delay_unjittered(*p, k + 1, 0.0);
    require(now && next && *now <= *next, "next_delay(", k, ") = ", now, " > next_delay(", k + 1,
            ") = ", next);
  }
}

void fixed_is_constant(const Core& core, [[maybe_unused]] Cases& cases) {
  const std::int64_t n = *schedulable_max_attempts();
  const Real d = *valid_delay();
  const Options o = core.fixed(n, d);
  const std::vector<double> schedule = core.schedule(o);
  require(schedule.size() == static_cast<std::size_t>(n - 1), "fixed(", n, ", ", d,
          ").schedule() has ", schedule.size(), " entries");
  for (std::size_t i = 0; i < schedule.size(); ++i) {
    require_same(schedule[i], d, "fixed(", n, ", ", d, ").schedule()[", i, "]");
  }
  if (n >= 2) {
    int draws = 0;
    Source source = counting(0.0, draws);
    const std::int64_t k = *retrying_attempt_for(n, 1'000'000);
    require_same(core.next_delay(o, k, 0.0, source), std::optional<double>(d), "fixed(", n, ", ", d,
                 ").next_delay(", k, ") with jitter on");
    require(draws == 0, "fixed(", n, ", ", d, ").next_delay(", k, ") took ", draws, " draws");
  }
}

void factories_match_doc_page(const Core& core, [[maybe_unused]] Cases& cases) {
  const std::int64_t n = *schedulable_max_attempts();
  const Real d = *valid_delay();
  const Real max_delay = *valid_delay();
  const auto options = [](std::int64_t attempts, double delay, double multiplier, double cap_,
                          double jitter) {
    return Options{.max_attempts = attempts,
                   .initial_delay = amqp::Seconds{delay},
                   .multiplier = multiplier,
                   .max_delay = amqp::Seconds{cap_},
                   .jitter_factor = jitter,
                   .max_message_age = amqp::Seconds{0.0}};
  };
  // The doc page: new(max_attempts: 1, initial_delay: 0.0, multiplier: 2.0,
  // max_delay: 0.0, jitter_factor: 0.0, max_message_age: 0.0); none is
  // new(max_attempts: 1); fixed sets multiplier 1.0; exponential sets 2.0 and
  // jitter 0.2.
  require_same_options(core.none(), options(1, 0.0, 2.0, 0.0, 0.0), "none()");
  require(core.default_range_is_empty(),
          "a default-constructed DelayRange is not empty, or its begin() is not its end()");
  require_same_options(core.default_constructed(), options(1, 0.0, 2.0, 0.0, 0.0), "RetryPolicy()");
  require_same_options(core.fixed(n, d), options(n, d, 1.0, 0.0, 0.0), "fixed(n, d)");
  require_same_options(core.exponential(n, d), options(n, d, 2.0, 0.0, 0.2), "exponential(n, d)");
  require_same_options(core.exponential_capped(n, d, max_delay), options(n, d, 2.0, max_delay, 0.2),
                       "exponential(n, d, max_delay)");
}

void copies_change_one_field(const Core& core, [[maybe_unused]] Cases& cases) {
  const Policy p = *valid_policy({.lengths = Lengths::any});
  const Real age = *valid_age_limit();
  const Real factor = *valid_jitter_factor();
  Options aged = *p;
  aged.max_message_age = amqp::Seconds{age};
  Options spread = *p;
  spread.jitter_factor = factor;
  Options both = aged;
  both.jitter_factor = factor;

  const auto [original, copy] = core.give_up_after(*p, age);
  require_same_options(original, *p, "the original after give_up_after");
  require_same_options(copy, aged, "give_up_after(age)");
  const auto [original2, copy2] = core.with_jitter(*p, factor);
  require_same_options(original2, *p, "the original after with_jitter");
  require_same_options(copy2, spread, "with_jitter(factor)");
  require_same_options(core.with_jitter(copy, factor).second, both,
                       "give_up_after(age).with_jitter(factor)");
}

void no_draw_without_jitter(const Core& core, [[maybe_unused]] Cases& cases) {
  // Factor 0: jittered() is the identity and nothing draws, for any delay.
  const Policy still = *valid_policy({.lengths = Lengths::any, .jitters = Jitters::zero});
  const Real d = *delay_argument(true);
  const std::int64_t attempt = *attempt_for(max_attempts(still), 100'000);
  const Real age = *age_for(age_limit(still));
  int draws = 0;
  Source source = counting(0.5, draws);
  require_same(core.jittered(*still, d, source), d, "jittered(d) with factor ",
               still->jitter_factor);
  require(draws == 0, "jittered(", d, ") with factor 0 took ", draws, " draws");
  (void)core.next_delay(*still, attempt, age, source);
  require(draws == 0, "next_delay(", attempt, ", ", age, ") with factor 0 took ", draws, " draws");

  // A delay at or below zero: the identity, no draw, for any factor.
  const Policy p = *valid_policy({.lengths = Lengths::any, .jitters = Jitters::positive});
  const Real zero_or_less = *non_positive_delay_argument();
  require_same(core.jittered(*p, zero_or_less, source), zero_or_less, "jittered(d <= 0)");
  require(draws == 0, "jittered(", zero_or_less, ") took ", draws, " draws");

  // Giving up draws nothing, and nor does a zero delay from the schedule.
  const std::int64_t last = *final_attempt_for(max_attempts(p));
  (void)core.next_delay(*p, last, 0.0, source);
  require(draws == 0, "next_delay(", last, ") at max_attempts ", max_attempts(p), " took ", draws,
          " draws");
  if (age_limit(p) > 0.0) {
    const Real old = *old_age_for(age_limit(p));
    (void)core.next_delay(*p, 1, old, source);
    require(draws == 0, "next_delay(1, ", old, ") past the age limit took ", draws, " draws");
  }
  if (max_attempts(p) >= 2) {
    const std::int64_t k = *retrying_attempt_for(max_attempts(p), 100'000);
    const std::optional<double> plain = core.next_delay_unjittered(*p, k, 0.0);
    if (plain && *plain == 0.0) {
      (void)core.next_delay(*p, k, 0.0, source);
      require(draws == 0, "next_delay(", k, ") of a zero delay took ", draws, " draws");
    }
  }
}

void one_draw_per_jitter(const Core& core, [[maybe_unused]] Cases& cases) {
  const Policy p = *valid_policy({.lengths = Lengths::any, .jitters = Jitters::positive});
  const Real d = *positive_delay_argument();
  const Real r = *draw();
  int draws = 0;
  Source source = counting(r, draws);
  (void)core.jittered(*p, d, source);
  require(draws == 1, "jittered(", d, ") took ", draws, " draws, want 1");

  // A run of next_delay calls takes one draw for each call that jitters.
  const auto calls = *rc::gen::container<std::vector<std::pair<std::int64_t, Real>>>(
      static_cast<std::size_t>(*rc::gen::resize(rc::kNominalSize, rc::gen::inRange(1, 9))),
      rc::gen::pair(attempt_for(max_attempts(p), 10'000), age_for(age_limit(p))));
  for (const auto& [attempt, age] : calls) {
    const std::optional<double> plain = core.next_delay_unjittered(*p, attempt, age);
    const int want = plain && *plain > 0.0 ? 1 : 0;
    draws = 0;
    (void)core.next_delay(*p, attempt, age, source);
    require(draws == want, "next_delay(", attempt, ", ", age, ") took ", draws, " draws, want ",
            want, " (the delay without jitter is ", plain, ")");
  }
}

void ruby_random_replays(const Core& core, [[maybe_unused]] Cases& cases) {
  const std::uint32_t s = *seed();
  const int n = *rc::gen::resize(rc::kNominalSize, rc::gen::inRange(1, 65));
  Source first = core.ruby_random(s);
  Source second = core.ruby_random(s);
  for (int i = 0; i < n; ++i) {
    const double a = first();
    const double b = second();
    require_same(b, a, "draw ", i, " of the second RubyRandom(", static_cast<std::int64_t>(s),
                 "), taken in turn with the first");
    require(a >= 0.0 && a < 1.0, "draw ", i, " of RubyRandom(", static_cast<std::int64_t>(s),
            ") is ", a, ", outside [0, 1)");
  }
  // A replay: the same calls with the same seed give the same bits.
  const Policy p = *valid_policy({.lengths = Lengths::any, .jitters = Jitters::positive});
  const auto calls = *rc::gen::container<std::vector<std::pair<std::int64_t, Real>>>(
      static_cast<std::size_t>(*rc::gen::resize(rc::kNominalSize, rc::gen::inRange(1, 9))),
      rc::gen::pair(attempt_for(max_attempts(p), 10'000), age_for(age_limit(p))));
  Source once = core.ruby_random(s);
  std::vector<std::optional<double>> answers;
  answers.reserve(calls.size());
  for (const auto& [attempt, age] : calls)
    answers.push_back(core.next_delay(*p, attempt, age, once));
  Source again = core.ruby_random(s);
  for (std::size_t i = 0; i < calls.size(); ++i) {
    require_same(core.next_delay(*p, calls[i].first, calls[i].second, again), answers[i], "call ",
                 i, " replayed with RubyRandom(", static_cast<std::int64_t>(s), ")");
  }
}

void ruby_random_matches_genrand_res53(const Core& core, [[maybe_unused]] Cases& cases) {
  const std::uint32_t s = *seed();
  const int n = *rc::gen::resize(rc::kNominalSize, rc::gen::inRange(1, 65));
  Source source = core.ruby_random(s);
  model::RubyRand reference(s);
  for (int i = 0; i < n; ++i) {
    require_same(source(), reference(), "draw ", i, " of RubyRandom(", static_cast<std::int64_t>(s),
                 ") against genrand_res53");
  }
}

void bad_policy_rejected_naming_field(const Core& core, [[maybe_unused]] Cases& cases) {
  const InvalidPolicy bad = *invalid_policy();
  const std::string value = bad.first_bad == "max_attempts"
                                ? value_text(bad.options.max_attempts)
                                : value_text(field_value(bad.options, bad.first_bad));
  require_rejection([&] { (void)core.construct(bad.options); }, bad.first_bad, value,
                    "RetryPolicy(" + describe(bad.options) + ")", "RetryPolicy");

  const Policy p = *valid_policy({.lengths = Lengths::any});
  const Real age = *bad_duration();
  require_rejection([&] { (void)core.give_up_after(*p, age); }, "max_message_age", value_text(age),
                    cat("give_up_after(", age, ")"), "give_up_after");
  const Real factor = *bad_jitter_factor();
  require_rejection([&] { (void)core.with_jitter(*p, factor); }, "jitter_factor",
                    value_text(factor), cat("with_jitter(", factor, ")"), "with_jitter");
  const std::int64_t attempts = *bad_attempt();
  require_rejection([&] { (void)core.fixed(attempts, 1.0); }, "max_attempts", value_text(attempts),
                    cat("fixed(", attempts, ", 1)"));
  const Real delay = *bad_duration();
  require_rejection([&] { (void)core.exponential(3, delay); }, "initial_delay", value_text(delay),
                    cat("exponential(3, ", delay, ")"));
}

void bad_call_rejected_naming_field(const Core& core, [[maybe_unused]] Cases& cases) {
  const Policy p = *valid_policy({.lengths = Lengths::any});
  int draws = 0;
  Source half = counting(0.5, draws);

  const std::int64_t attempt = *bad_attempt();
  require_rejection([&] { (void)core.next_delay_unjittered(*p, attempt, 0.0); }, "attempt",
                    value_text(attempt), cat("next_delay(", attempt, ", 0, Jitter::off)"));
  require_rejection([&] { (void)core.next_delay(*p, attempt, 0.0, half); }, "attempt",
                    value_text(attempt), cat("next_delay(", attempt, ", 0, source)"));

  const std::int64_t k = *attempt_for(max_attempts(p), 100'000);
  const Real nan_age = *nan();
  require_rejection([&] { (void)core.next_delay_unjittered(*p, k, nan_age); }, "message_age",
                    value_text(nan_age), cat("next_delay(", k, ", NaN, Jitter::off)"));
  require_rejection([&] { (void)core.next_delay(*p, k, nan_age, half); }, "message_age",
                    value_text(nan_age), cat("next_delay(", k, ", NaN, source)"));

  const Real nan_delay = *nan();
  require_rejection([&] { (void)core.jittered(*p, nan_delay, half); }, "delay",
                    value_text(nan_delay), "jittered(NaN)");
  require_rejection([&] { (void)core.jittered_with_draw(*p, nan_delay, 0.5); }, "delay",
                    value_text(nan_delay), "jittered_with_draw(NaN, 0.5)");

  // A bad r is refused only where a draw is taken; elsewhere nothing reads
  // it. The model says which.
  const Real r = *bad_draw();
  const Real d = *delay_argument(true);
  const Real young = *young_age_for(age_limit(p));
  const auto expect = [&](auto&& model_call, auto&& core_call, const std::string& what) {
    std::optional<double> want;
    bool rejected = false;
    try {
      want = model_call();
    } catch (const model::Rejected&) {
      rejected = true;
    }
    if (rejected) {
      require_rejection(core_call, "r", value_text(r), what);
    } else {
      require_same(core_call(), want, what, " (jitter does not apply, so r is never read)");
    }
  };
  expect([&] { return std::optional<double>(model::jittered(*p, d, r)); },
         [&] { return std::optional<double>(core.jittered_with_draw(*p, d, r)); },
         cat("jittered_with_draw(", d, ", ", r, ")"));
  Source bad_source = counting(r, draws);
  expect([&] { return std::optional<double>(model::jittered(*p, d, r)); },
         [&] { return std::optional<double>(core.jittered(*p, d, bad_source)); },
         cat("jittered(", d, ") with r = ", r));
  expect([&] { return model::next_delay(*p, k, young, r).delay; },
         [&] { return core.next_delay(*p, k, young, bad_source); },
         cat("next_delay(", k, ", ", young, ") with r = ", r));
}

void valid_policies_accepted(const Core& core, [[maybe_unused]] Cases& cases) {
  const Policy p = *valid_policy({.lengths = Lengths::any});
  require_same_options(core.construct(*p), *p, "RetryPolicy(options).options()");
  require_same_options(core.accessors(*p), *p, "max_attempts() ... max_message_age()");
  const Real age = *valid_age_limit();
  const Real factor = *valid_jitter_factor();
  (void)core.give_up_after(*p, age);
  (void)core.with_jitter(*p, factor);
  (void)core.fixed(p->max_attempts, p->initial_delay.count());
  (void)core.exponential_capped(p->max_attempts, p->initial_delay.count(), p->max_delay.count());
}

void walk_matches_plain_walk(const Core& core, Cases& cases) {
  const Policy p = *valid_policy({.lengths = Lengths::any});
  // Below 1 and NaN are the arguments next_delay rejects: nothing to walk.
  const std::int64_t attempt =
      *rc::gen::mapcat(rc::gen::resize(rc::kNominalSize, rc::gen::inRange(0, 10)),
                       [m = max_attempts(p)](int which) -> rc::Gen<std::int64_t> {
                         return which == 0 ? bad_attempt() : attempt_for(m, kInt64Max);
                       });
  const Real age = *rc::gen::mapcat(
      rc::gen::resize(rc::kNominalSize, rc::gen::inRange(0, 10)),
      [limit = age_limit(p)](int which) { return which == 0 ? nan() : age_for(limit); });
  // A negative limit counts as 0.
  const std::int64_t drawn_limit = *rc::gen::mapcat(
      rc::gen::resize(rc::kNominalSize, rc::gen::inRange(0, 7)),
      [](int which) -> rc::Gen<std::int64_t> {
        switch (which) {
          case 0: return rc::gen::just(std::int64_t{0});
          case 1: return rc::gen::resize(rc::kNominalSize, rc::gen::inRange<std::int64_t>(1, 40));
          case 2: return rc::gen::just(std::int64_t{1} << 12);
          case 3: return rc::gen::resize(rc::kNominalSize, rc::gen::inRange<std::int64_t>(-5, 0));
          case 4:
            return rc::gen::resize(rc::kNominalSize,
                                   rc::gen::inRange<std::int64_t>(kInt64Max - 3, kInt64Max));
          default:
            return rc::gen::resize(rc::kNominalSize, rc::gen::inRange<std::int64_t>(1, 100'000));
        }
      });
  // Both walks cost up to min(limit, attempt - 1) steps, and a policy whose
  // running value creeps by an ulp never settles: a limit above 10^5 keeps
  // only an attempt within 10^5, or the case hangs (1 in about 10^4 did).
  const std::int64_t limit =
      drawn_limit > 100'000 && !(attempt >= 1 && attempt <= 100'000) ? 100'000 : drawn_limit;
  cases.policy(*p, attempt, age, 0);
  const std::int64_t got = core.walk_multiplications(*p, attempt, age, limit);
  const auto what = [&] {
    return cat("walk_multiplications(", attempt, ", ", age, ", ", limit, ")");
  };
  if (attempt < 1 || std::isnan(age) || model::gives_up(*p, attempt, age)) {
    require(got == 0, what(), " = ", got, " for a call that gives up or is rejected; want 0");
    return;
  }
  const std::int64_t counted = std::max<std::int64_t>(limit, 0);
  // limit + 1, "needs more than limit", saturating.
  const std::int64_t more = counted == kInt64Max ? kInt64Max : counted + 1;
  require(got >= 0 && got <= attempt - 1 && got <= more, what(), " = ", got,
          ": below 0, or more than attempt - 1 or limit + 1");
  const std::int64_t prefix = amqp::internal::kRememberedRunningValues;
  if (attempt <= prefix) {
    require(got == std::min(attempt - 1, more), what(), " = ", got,
            "; within the remembered prefix the answer rests on attempt - 1 multiplications");
  }
  const std::int64_t plain = model::protocol_cost(*p, attempt, std::min(counted, kInt64Max - 1));
  if (plain >= prefix) {
    require(got == plain, what(), " = ", got, ", the plain walk counts ", plain);
  } else {
    require(got >= plain && got <= prefix, what(), " = ", got, ", outside [", plain, ", ", prefix,
            "]: the plain walk counts ", plain, " and the core walks only past the prefix");
  }
}

void default_source_draws_only_when_jitter_applies(const Core& core, Cases& cases) {
  const Policy p = *valid_policy({.lengths = Lengths::any});
  const auto seed = static_cast<std::uint64_t>(
      *rc::gen::resize(rc::kNominalSize, rc::gen::inRange<std::int64_t>(0, kInt64Max)));
  // The draws this thread's engine gives after the seed, taken once, then
  // replayed: each call that jitters must take the next one, and no other.
  constexpr int kDraws = 64;
  core.seed_default_source(seed);
  std::vector<double> draws;
  bool low = false;
  bool high = false;
  for (int i = 0; i < kDraws; ++i) {
    const double r = core.default_draw();
    require(r >= 0.0 && r < 1.0 && r * 0x1p53 == std::floor(r * 0x1p53), "DefaultSource drew ", r,
            ": not a multiple of 2^-53 in [0, 1)");
    low = low || r < 0.5;
    high = high || r >= 0.5;
    draws.push_back(r);
  }
  // 64 fair draws on one side of 1/2 have odds 2^-63.
  require(low && high, "64 draws of DefaultSource after seed ", static_cast<std::int64_t>(seed),
          " all lie on one side of 1/2");
  const auto calls = *rc::gen::container<std::vector<std::tuple<int, std::int64_t, Real, Real>>>(
      static_cast<std::size_t>(*rc::gen::resize(rc::kNominalSize, rc::gen::inRange(1, 9))),
      rc::gen::tuple(rc::gen::resize(rc::kNominalSize, rc::gen::inRange(0, 3)),
                     attempt_for(max_attempts(p), 10'000), age_for(age_limit(p)),
                     delay_argument(true)));
  core.seed_default_source(seed);
  std::size_t next = 0;
  for (const auto& [kind, attempt, age, d] : calls) {
    cases.policy(*p, attempt, age, 0);
    if (kind == 0) {
      const model::Jittered want = model::next_delay(*p, attempt, age, draws[next]);
      require_same(core.next_delay_default(*p, attempt, age), want.delay, "next_delay(", attempt,
                   ", ", age, ") with DefaultSource, its draw ", next, " being ", draws[next]);
      next += want.drew ? 1U : 0U;
    } else if (kind == 1) {
      require_same(core.next_delay_unjittered(*p, attempt, age),
                   model::next_delay(*p, attempt, age), "next_delay(", attempt, ", ", age,
                   ", Jitter::off)");
    } else {
      require_same(core.jittered_default(*p, d), model::jittered(*p, d, draws[next]), "jittered(",
                   d, ") with DefaultSource, its draw ", next, " being ", draws[next]);
      next += model::jitter_applies(*p, d) ? 1U : 0U;
    }
  }
  require_same(core.default_draw(), draws[next], "the draw after the calls: they took ", next,
               " draws, or some other number");
}

void equality_compares_the_six_values(const Core& core, Cases& cases) {
  const Policy p = *valid_policy({.lengths = Lengths::any});
  const Policy other = *valid_policy({.lengths = Lengths::any});
  cases.policy(*p);
  // q is p with one field (or none, 6) taken from another policy.
  const int field = *rc::gen::resize(rc::kNominalSize, rc::gen::inRange(0, 7));
  Options q = *p;
  if (field == 0) q.max_attempts = other->max_attempts;
  if (field == 1) q.initial_delay = other->initial_delay;
  if (field == 2) q.multiplier = other->multiplier;
  if (field == 3) q.max_delay = other->max_delay;
  if (field == 4) q.jitter_factor = other->jitter_factor;
  if (field == 5) q.max_message_age = other->max_message_age;
  // As values: 0.0 == -0.0 here, though their schedules differ in sign bits.
  const bool want = p->max_attempts == q.max_attempts &&
                    p->initial_delay.count() == q.initial_delay.count() &&
                    p->multiplier == q.multiplier && p->max_delay.count() == q.max_delay.count() &&
                    p->jitter_factor == q.jitter_factor &&
                    p->max_message_age.count() == q.max_message_age.count();
  require(core.equal(*p, q) == want, "RetryPolicy(", describe(*p), ") == RetryPolicy(", describe(q),
          ") is ", core.equal(*p, q), ", want ", want);
  require(core.equal(q, *p) == want, "equality is not symmetric for ", describe(q));
}

namespace {

// One row per property: name, body, {regime, minimum share}..., and the
// mutants of the real core it must reject, by their mutation/ keys
// (file | function | operator | occurrence; `scripts/mutate --list`). The
// minimum shares are about half those seen at 10^4 cases; each rejection was
// seen, and scripts/mutate checks it still holds on every CI run.
const Property kProperties[] = {
    {"ScheduleLength",
     schedule_length,
     {},
     {"retry_policy.cc | acemq::amqp::RetryPolicy::schedule() | relational > -> >= | 0",
      "retry_policy.cc | acemq::amqp::RetryPolicy::delays() | constant 1 -> 0 | 0"}},
    {"ScheduleRespectsCap",
     schedule_respects_cap,
     {},
     {"retry_policy.cc | acemq::amqp::RetryPolicy::unjittered_inline(std::int64_t, double) | "
      "ternary-arms c ? a : b -> c ? b : a | 0",
      "retry_policy.cc | acemq::amqp::RetryPolicy::unjittered_inline(std::int64_t, double) | "
      "ternary-arms c ? a : b -> c ? b : a | 1"}},
    {"JitterStaysInBand",
     jitter_stays_in_band,
     {},
     {"retry_policy.cc | acemq::amqp::RetryPolicy::apply_draw(double, double) | constant 1 -> 0 | "
      "0",
      "retry_policy.cc | acemq::amqp::RetryPolicy::apply_draw(double, double) | constant 2 -> 3 | "
      "0"}},
    {"JitterIsTwoSided",
     jitter_is_two_sided,
     {},
     {"retry_policy.cc | acemq::amqp::RetryPolicy::apply_draw(double, double) | arithmetic - -> + "
      "| 0",
      "retry_policy.cc | acemq::amqp::RetryPolicy::apply_draw(double, double) | constant 2 -> 1 | "
      "0"}},
    {"GivesUpAtAgeLimit",
     gives_up_at_age_limit,
     {{Regime::age_at_limit, 0.05}, {Regime::huge_attempt, 0.1}},
     {"retry_policy.hpp | acemq::amqp::RetryPolicy::gives_up(std::int64_t, double) | relational >= "
      "-> > | 1",
      "retry_policy.hpp | acemq::amqp::RetryPolicy::gives_up(std::int64_t, double) | relational > "
      "-> >= | 0"}},
    {"GivesUpAfterLastAttempt",
     gives_up_after_last_attempt,
     {},
     {"retry_policy.hpp | acemq::amqp::RetryPolicy::gives_up(std::int64_t, double) | relational >= "
      "-> > | 0",
      "retry_policy.hpp | acemq::amqp::RetryPolicy::gives_up(std::int64_t, double) | logical || -> "
      "&& | 0"}},
    {"NeverNegativeNorNaN",
     never_negative_nor_nan,
     {},
     {"retry_policy.cc | acemq::amqp::RetryPolicy::apply_draw(double, double) | ternary-arms c ? a "
      ": b -> c ? b : a | 0",
      "retry_policy.cc | acemq::amqp::RetryPolicy::apply_draw(double, double) | constant 1 -> 0 | "
      "0"}},
    {"NextDelayMatchesSchedule",
     next_delay_matches_schedule,
     {},
     {"retry_policy.cc | acemq::amqp::RetryPolicy::unjittered_inline(std::int64_t, double) | "
      "index-off-by-one [i] -> [i + 1] | 0",
      "retry_policy.cc | acemq::amqp::(anonymous)::walk(double, std::int64_t, std::int64_t, "
      "double, double) | negation-removed -x -> x | 0"}},
    {"LazyRangeMatchesSchedule",
     lazy_range_matches_schedule,
     {},
     {"delay_range.hpp | acemq::amqp::DelayRange::iterator::operator++(int) | statement-deleted "
      "statement -> nothing | 0",
      "delay_range.hpp | acemq::amqp::DelayRange::iterator::operator++(int) | return-default "
      "return x -> return {} | 0"}},
    {"ScheduleMatchesModel",
     schedule_matches_model,
     {{Regime::cap_passed, 0.12},
      {Regime::multiplier_below_one, 0.2},
      {Regime::negative_zero, 0.15},
      {Regime::overflow, 0.07},
      {Regime::subnormal, 0.15}},
     {"delay_range.hpp | acemq::amqp::DelayRange::iterator::operator++() | cap-on-running-value "
      "running * m -> capped(running) * m | 0",
      "retry_policy.cc | acemq::amqp::RetryPolicy::delays() | constant 1 -> 0 | 0"}},
    {"NextDelayMatchesModel",
     next_delay_matches_model,
     {{Regime::cap_passed, 0.06},
      {Regime::multiplier_below_one, 0.05},
      {Regime::negative_zero, 0.15},
      {Regime::overflow, 0.03},
      {Regime::subnormal, 0.15},
      {Regime::age_at_limit, 0.05},
      {Regime::past_remembered_prefix, 0.35},
      {Regime::huge_attempt, 0.1}},
     {"retry_policy.cc | acemq::amqp::RetryPolicy::unjittered_inline(std::int64_t, double) | "
      "closed-form-pow walk(...) -> running * pow(m, attempt - entry) | 0",
      "retry_policy.cc | acemq::amqp::RetryPolicy::apply_draw(double, double) | jitter-regrouped d "
      "* (1 + t) -> d + d * t | 0",
      "retry_policy.hpp | acemq::amqp::RetryPolicy::clamp_at_zero(double) | relational < -> <= | "
      "0"}},
    {"JitteredMatchesModel",
     jittered_matches_model,
     {{Regime::negative_zero, 0.03}, {Regime::subnormal, 0.07}},
     {"retry_policy.cc | acemq::amqp::RetryPolicy::apply_draw(double, double) | jitter-fused d * "
      "(1 + t) -> fma(d, t, d) | 0",
      "retry_policy.cc | acemq::amqp::RetryPolicy::apply_draw(double, double) | jitter-regrouped d "
      "* (1 + (2r - 1) f) -> d (1 - f) + d 2f r | 0"}},
    {"FastPathMatchesPlainLoop",
     fast_path_matches_plain_loop,
     {{Regime::cap_passed, 0.15},
      {Regime::multiplier_below_one, 0.25},
      {Regime::overflow, 0.09},
      {Regime::past_remembered_prefix, 0.5}},
     {"retry_policy.cc | acemq::amqp::(anonymous)::walk(double, std::int64_t, std::int64_t, "
      "double, double) | cap-on-running-value running * m -> capped(running) * m | 0",
      "retry_policy.cc | acemq::amqp::(anonymous)::walk(double, std::int64_t, std::int64_t, "
      "double, double) | constant 1.0 -> 0.0 | 0",
      "retry_policy.cc | acemq::amqp::RetryPolicy::unjittered_inline(std::int64_t, double) | "
      "closed-form-pow walk(...) -> running * pow(m, attempt - entry) | 0"}},
    {"HugeAttemptAnswersAtOnce",
     huge_attempt_answers_at_once,
     {{Regime::huge_attempt, 0.9}, {Regime::multiplier_below_one, 0.12}},
     {"retry_policy.cc | acemq::amqp::(anonymous)::walk(double, std::int64_t, std::int64_t, "
      "double, double) | statement-deleted statement -> nothing | 6",
      "retry_policy.cc | acemq::amqp::(anonymous)::walk(double, std::int64_t, std::int64_t, "
      "double, double) | negation-removed -x -> x | 0"}},
    {"NonDecreasingWhenMultiplierAtLeastOne",
     non_decreasing_when_multiplier_at_least_one,
     {},
     {"retry_policy.cc | acemq::amqp::(anonymous)::walk(double, std::int64_t, std::int64_t, "
      "double, double) | return-default return x -> return {} | 1"}},
    {"FixedIsConstant",
     fixed_is_constant,
     {},
     {"retry_policy.cc | acemq::amqp::RetryPolicy::fixed(std::int64_t, acemq::amqp::Seconds) | "
      "constant 1.0 -> 2.0 | 0"}},
    {"FactoriesMatchDocPage",
     factories_match_doc_page,
     {},
     {"retry_policy.cc | acemq::amqp::RetryPolicy::fixed(std::int64_t, acemq::amqp::Seconds) | "
      "constant 1.0 -> 2.0 | 0",
      "retry_policy.cc | acemq::amqp::RetryPolicy::exponential(std::int64_t, acemq::amqp::Seconds, "
      "acemq::amqp::Seconds) | constant 0.2 -> 1.2 | 0"}},
    {"CopiesChangeOneField",
     copies_change_one_field,
     {},
     {"retry_policy.cc | acemq::amqp::RetryPolicy::give_up_after(acemq::amqp::Seconds) | "
      "statement-deleted statement -> nothing | 1",
      "retry_policy.cc | acemq::amqp::RetryPolicy::with_jitter(double) | statement-deleted "
      "statement -> nothing | 1"}},
    {"NoDrawWithoutJitter",
     no_draw_without_jitter,
     {},
     {"retry_policy.hpp | acemq::amqp::RetryPolicy::next_delay(std::int64_t, acemq::amqp::Seconds, "
      "Source &&) | extra-draw return x -> draw; return x | 0",
      "retry_policy.hpp | acemq::amqp::RetryPolicy::jitter_applies(double) | relational > -> >= | "
      "1"}},
    {"OneDrawPerJitter",
     one_draw_per_jitter,
     {},
     {"retry_policy.hpp | acemq::amqp::RetryPolicy::next_delay(std::int64_t, acemq::amqp::Seconds, "
      "Source &&) | extra-draw return x -> draw; return x | 2",
      "retry_policy.hpp | acemq::amqp::RetryPolicy::next_delay(std::int64_t, acemq::amqp::Seconds, "
      "Source &&) | extra-draw return x -> draw; return x | 1"}},
    {"RubyRandomReplays",
     ruby_random_replays,
     {},
     {"ruby_random.hpp | acemq::amqp::RubyRandom::operator()() | constant 5U -> 4U | 0",
      "ruby_random.hpp | acemq::amqp::RubyRandom::operator()() | arithmetic / -> * | 0"}},
    {"RubyRandomMatchesGenrandRes53",
     ruby_random_matches_genrand_res53,
     {},
     {"ruby_random.hpp | acemq::amqp::RubyRandom::operator()() | constant 6U -> 5U | 0",
      "ruby_random.hpp | acemq::amqp::RubyRandom::operator()() | constant 67108864.0 -> 67108865.0 "
      "| 0"}},
    {"BadPolicyRejectedNamingField",
     bad_policy_rejected_naming_field,
     {},
     {"retry_policy.cc | acemq::amqp::(anonymous)::require_jitter_factor(std::string_view, double) "
      "| negation-removed !x -> x | 0",
      "retry_policy.cc | acemq::amqp::(anonymous)::validate(const RetryPolicy::Options &) | "
      "constant 1 -> 0 | 0",
      "retry_policy.cc | acemq::amqp::RetryPolicy::give_up_after(acemq::amqp::Seconds) | "
      "statement-deleted statement -> nothing | 0"}},
    {"BadCallRejectedNamingField",
     bad_call_rejected_naming_field,
     {},
     {"retry_policy.cc | acemq::amqp::RetryPolicy::apply_draw(double, double) | relational < -> <= "
      "| 0",
      "retry_policy.cc | acemq::amqp::RetryPolicy::unjittered_inline(std::int64_t, double) | "
      "statement-deleted statement -> nothing | 2",
      "retry_policy.cc | acemq::amqp::RetryPolicy::unjittered_inline(std::int64_t, double) | "
      "constant 1 -> 0 | 0"}},
    {"ValidPoliciesAccepted",
     valid_policies_accepted,
     {},
     {"retry_policy.cc | acemq::amqp::(anonymous)::require_finite_non_negative(std::string_view, "
      "std::string_view, double) | relational < -> <= | 0",
      "retry_policy.hpp | acemq::amqp::RetryPolicy::max_message_age() | return-default return x -> "
      "return {} | 0"}},
    {"DefaultSourceDrawsOnlyWhenJitterApplies",
     default_source_draws_only_when_jitter_applies,
     {},
     {"retry_policy.cc | acemq::amqp::RetryPolicy::next_delay(std::int64_t, acemq::amqp::Seconds, "
      "acemq::amqp::Jitter) | extra-draw return x -> draw; return x | 0",
      "retry_policy.cc | acemq::amqp::RetryPolicy::next_delay(std::int64_t, acemq::amqp::Seconds, "
      "acemq::amqp::Jitter) | extra-draw return x -> draw; return x | 3",
      "thread_engine.hpp | acemq::amqp::internal::draw_from_thread_engine() | constant 11U -> 12U "
      "| 0"}},
    {"EqualityComparesTheSixValues",
     equality_compares_the_six_values,
     {},
     {"retry_policy.hpp | acemq::amqp::operator==(const acemq::amqp::RetryPolicy &, const "
      "acemq::amqp::RetryPolicy &) | logical && -> || | 0",
      "retry_policy.hpp | acemq::amqp::operator==(const acemq::amqp::RetryPolicy &, const "
      "acemq::amqp::RetryPolicy &) | equality == -> != | 3"}},
    {"WalkMatchesPlainWalk",
     walk_matches_plain_walk,
     {{Regime::past_remembered_prefix, 0.35},
      {Regime::huge_attempt, 0.12},
      {Regime::multiplier_below_one, 0.06},
      {Regime::negative_zero, 0.15}},
     {"retry_policy.cc | acemq::amqp::internal::walk_multiplications(const "
      "acemq::amqp::RetryPolicy &, std::int64_t, double, std::int64_t) | constant 0 -> 1 | 0",
      "retry_policy.cc | acemq::amqp::internal::walk_multiplications(const "
      "acemq::amqp::RetryPolicy &, std::int64_t, double, std::int64_t) | closed-form-pow walk(...) "
      "-> running * pow(m, attempt - entry) | 0",
      "retry_policy.cc | acemq::amqp::(anonymous)::walk(double, std::int64_t, std::int64_t, "
      "double, double) | return-default return x -> return {} | 0"}},
};

}  // namespace

std::span<const Property> all_properties() { return kProperties; }

}  // namespace acemq::props
