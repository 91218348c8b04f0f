// drifted_adapter: `retry-policy serve` with a deliberately wrong default
// source, to prove that `retry-policy stats` rejects each kind of wrong
// source end to end, through the protocol, at native speed.
//
//     drifted_adapter <drift>            serve the protocol on stdin/stdout
//     drifted_adapter --rejected-by <drift>
//                                        what `stats` must name rejecting it
//     drifted_adapter --table            the table below, as markdown
//
// It reads lines as serve does (the same serve_lines, process/serve.hpp) and
// answers every line with answer_line, the core through the protocol
// library, exactly as serve does; the one difference is the SampleSource
// given to answer_line, so `sample` draws from the drift's source where serve
// draws from the core's DefaultSource. Every other op injects its draw (r,
// or a replay's seed), so `check` passes every drift: that is the point.
//
// The time-unit drifts (whole-millis, whole-micros, int-nanos) draw as serve
// does and then convert each `sample` delay to a whole number of their unit
// and back to seconds, as a port built on a library that counts in that unit
// does: the wrong is in the delays, not the source.
//
// Each process seeds its source as its row says and prints the seed on
// stderr; ACEMQ_DRIFT_SEED=<seed> replays one process. The drifts of one
// stream seed each process apart (kSeed and the process id, mixed), as a
// right port does, so that only their own wrong is judged; the fleet's
// drifts seed as the ports they stand for do. Every source but
// shared-unlocked and threads-alike is behind a lock, as a right port's is,
// so the threads cell judges only what the row is about.
#include <unistd.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <limits>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <variant>

#include "conformance/process/serve.hpp"
#include "conformance/protocol/respond.hpp"
#include "stats/battery/known_bad.hpp"

namespace {

using acemq::conformance::SampleSource;

// Every drift's generator starts from here, mixed with the process id for
// the drifts of one stream.
constexpr std::uint64_t kSeed = 20240601;

// How a process seeds its source: the fleet's drifts are these.
enum class Seeding {
  per_process,    // kSeed and the process id through splitmix64: a stream each
  constant,       // kSeed in every process: Go 1.19's package-level math/rand (seed 1)
  clock_seconds,  // the clock in seconds: random.seed(int(time.time())), srand(Time.now.to_i)
  clock_millis,   // the clock in milliseconds: new java.util.Random(System.currentTimeMillis())
  process_id,     // the process id: new java.util.Random(pid)
};

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15U;
  x = (x ^ (x >> 30U)) * 0xbf58476d1ce4e5b9U;
  x = (x ^ (x >> 27U)) * 0x94d049bb133111ebU;
  return x ^ (x >> 31U);
}

// A good 53-bit draw, the contract's resolution: the shape of Ruby's
// genrand_res53 on a 64-bit generator.
double res53(std::mt19937_64& g) { return static_cast<double>(g() >> 11) * 0x1p-53; }

// A good 53-bit stream, for the drifts whose wrong is their seeding.
SampleSource good_stream(std::uint64_t seed) {
  return [g = std::mt19937_64(seed)]() mutable { return res53(g); };
}

// A source stuck at 0, as a System.Random shared unlocked across threads
// sticks once a race zeroes its state.
SampleSource stuck_at_zero(std::uint64_t /*seed*/) {
  return [] { return 0.0; };
}

// The delay as a whole number of 1/per_second, truncated as Java's (long)
// cast truncates and saturates at Long.MAX_VALUE (google-http-java-client,
// resilience4j), back in seconds.
double whole_units_saturating(double seconds, double per_second) {
  const double count = std::trunc(seconds * per_second);
  constexpr double kLongMax = 0x1.0p63;  // 2^63 − 1 rounds to it
  return (count >= kLongMax ? kLongMax : count) / per_second;
}
double whole_millis(double seconds) { return whole_units_saturating(seconds, 1e3); }
double whole_micros(double seconds) { return whole_units_saturating(seconds, 1e6); }

// Go's time.Duration(seconds * 1e9), then Duration.Seconds(): a float64 to
// int64 conversion out of range is implementation-defined, and on amd64 it
// is 0x8000000000000000, a negative duration (grpc-go, cenkalti/backoff).
double int_nanos(double seconds) {
  const double count = std::trunc(seconds * 1e9);
  const auto nanos = count >= 0x1.0p63 || count < -0x1.0p63 || std::isnan(count)
                         ? std::numeric_limits<std::int64_t>::min()
                         : static_cast<std::int64_t>(count);
  // Duration.Seconds(): whole seconds plus the rest, in float64.
  const std::int64_t whole = nanos / 1'000'000'000;
  const std::int64_t rest = nanos % 1'000'000'000;
  return static_cast<double>(whole) + static_cast<double>(rest) / 1e9;
}

// java.util.Random, bit for bit, for the drifts that seed it as a port would.
SampleSource java_random(std::uint64_t seed) {
  return [random = acemq::stats::JavaRandom(seed)]() mutable { return random(); };
}

struct Drift {
  std::string_view name;
  // The source, made from the fixed seed: a lambda with its state captured.
  SampleSource (*make)(std::uint64_t seed);
  std::string_view wrong;
  // What `stats` must name rejecting it: test names as its FAIL lines print
  // them, comma-separated, or its resolution verdict ("resolution B bits").
  std::string_view rejected_by;
  std::string_view why;
  Seeding seeding = Seeding::per_process;
  // Whether the adapter puts a lock around the source, as a right port's
  // default source has; the threads' drifts have none.
  bool locked = true;
  // What the port does to each sampled delay after the core computed it:
  // nothing, or the conversion to a time unit and back.
  double (*convert)(double seconds) = nullptr;
};

// The drifts: ONE TABLE. Deviations are of u = 2r - 1 (what the battery
// tests), the same in every cell up to u's rounding; the rows they are held
// against are `retry-policy stats`'s own power table (per-test alpha
// 3.33e-9, power 0.999 a cell), which the CTest registration quotes for the
// n it runs each drift at (conformance/CMakeLists.txt).
constexpr std::array<Drift, 18> kDrifts{{
    {"one-sided",
     [](std::uint64_t seed) -> SampleSource {
       return [g = std::mt19937_64(seed)]() mutable {
         return 0.5 + static_cast<double>(g() >> 12) * 0x1p-53;  // exact, below 1
       };
     },
     "r in [0.5, 1): every delay lengthened, never shortened",
     "ks_uniform, chi_square_1024, sign, mirror_ks, mean_t, variance, runs_about_0",
     "u in [0, 1): KS distance 0.5, half the bins empty (w = 1), P(u < 0) = 0 (sign off by "
     "0.5), no u < 0 to mirror (D = 1), E u = 0.5, Var u = 1/12 (off by 0.75), no change of "
     "side (runs off by 0.5); each at least 4.6 times its row at the battery's minimum n"},
    {"narrowed",
     [](std::uint64_t seed) -> SampleSource {
       return [g = std::mt19937_64(seed)]() mutable {
         return 0.25 + static_cast<double>(g() >> 12) * 0x1p-53;  // exact, below 0.75
       };
     },
     "r in [0.25, 0.75): half the spread promised, symmetric",
     "ks_uniform, chi_square_1024, variance",
     "u in [-0.5, 0.5): KS distance 0.25 (at u = -0.5), half the bins empty (w = 1), Var u = "
     "1/12 (off by 0.75); symmetric, so sign, mirror and mean see nothing"},
    {"biased-to-0",
     [](std::uint64_t seed) -> SampleSource {
       return [g = std::mt19937_64(seed)]() mutable { return std::pow(res53(g), 1.1); };
     },
     "r^1.1: shorter delays on average", "mean_t",
     "E u = 2/2.1 - 1 = -0.0476: the mean test sees it first (its row is 0.0469 at n 12288); "
     "KS (0.0351), sign (0.0325) and variance (0.0289) deviate less and need n 1.8e4, 1.9e4 "
     "and 7.8e4"},
    {"32-bit-repeats",
     [](std::uint64_t seed) -> SampleSource {
       return [g = std::mt19937_64(seed)]() mutable {
         return static_cast<double>(g() >> 32) * 0x1p-32;  // a fresh 32-bit integer / 2^32
       };
     },
     "a random 32-bit integer / 2^32: 32 bits, and values repeat by the birthday bound",
     "repeats_2^40",
     "marginals perfect to 2^-32, so only the repeats test sees it: C(w, 2)/2^32 repeats in a "
     "window of w draws, against C(w, 2)/2^40 by chance"},
    {"repeating",
     [](std::uint64_t seed) -> SampleSource {
       return [seed, g = std::mt19937_64(seed), calls = std::uint64_t{0}]() mutable {
         if (calls++ % 4096 == 0) g.seed(seed);  // one generator per batch, one seed
         return res53(g);
       };
     },
     "one seeded generator rebuilt every 4096 calls: the sequence comes round again",
     "repeats_2^40",
     "a cycle of 4096 draws repeats w - 4096 times in a window of w; the repeats row catches "
     "any cycle shorter than the window"},
    {"31-bit-non-dyadic",
     [](std::uint64_t seed) -> SampleSource {
       return [g = std::mt19937_64(seed)]() mutable {
         std::uint64_t i = 0;
         do {
           i = g() >> 33;  // uniform in [0, 2^31), the top value refused
         } while (i == 0x7fffffff);
         return static_cast<double>(i) * (1.0 / 2147483647.0);
       };
     },
     "Mono/.NET Framework System.Random.NextDouble: i/(2^31 - 1), i uniform in [0, 2^31 - 1): "
     "31 bits on a grid that is not dyadic",
     "resolution 31.0 bits",
     "2^31 - 1 values 2^-31 * (1 + 2^-31) apart, on no binary grid, so counting the grid's bits "
     "cannot see it; the spacing test (no two draws closer than 2^-T, where a 53-bit source "
     "has many) reads it as 31.0 bits once T reaches 31, from n 2.1e5 a cell; the repeats "
     "test from about 2.6e5"},
    {"32-bit-full-period",
     [](std::uint64_t seed) -> SampleSource {
       return [x = static_cast<std::uint32_t>(seed | 1U)]() mutable {
         x ^= x << 13U;  // Marsaglia's xorshift32 (13, 17, 5): period 2^32 - 1
         x ^= x >> 17U;
         x ^= x << 5U;
         return static_cast<double>(x) * 0x1p-32;
       };
     },
     "xorshift32 (13, 17, 5), x/2^32: 32 bits that never repeat within 2^32 - 1 draws",
     "resolution 32 bits",
     "on the binary grid of 2^-32, which the resolution's grid count reads at any n; no value "
     "repeats within a period, so the repeats test sees fewer repeats than chance at any n"},
    {"24-bit-float",
     [](std::uint64_t seed) -> SampleSource {
       return [g = std::mt19937_64(seed)]() mutable {
         return static_cast<double>(g() >> 40) * 0x1p-24;  // k/2^24, a float's mantissa
       };
     },
     "k/2^24: a float's 24 bits, as uniform_real_distribution<float> gives", "resolution 24 bits",
     "on the binary grid of 2^-24, which the resolution's grid count reads at any n; the "
     "repeats test sees it only from about 2e4 draws a cell"},
    {"constant-seed", good_stream,
     "every process seeded with one constant, as Go 1.19's package-level math/rand (seed 1) "
     "and new Random(42) are: one stream for the whole fleet",
     "fleet_shared_draws, fleet_clustered_draws",
     "the 16 processes draw the same 64 first draws: 7680 equal pairs where a 53-bit null "
     "expects 5.5e-11, and every k-th draw in an arc of length 0; at any n",
     Seeding::constant},
    {"clock-seconds", good_stream,
     "seeded with the clock in seconds at start, as random.seed(int(time.time())) and "
     "srand(Time.now.to_i) are: a fleet started in one second shares one stream",
     "fleet_shared_draws",
     "processes started in one second draw one stream (those either side of a second's edge, "
     "two): equal draws between processes, where a 53-bit null expects none; at any n",
     Seeding::clock_seconds},
    {"pid-java-random", java_random,
     "new java.util.Random(pid): 53 bits and a passable stream alone, but the first draws of "
     "neighbouring seeds lie about 9e-5 apart a unit of seed",
     "fleet_clustered_draws",
     "processes started at once get neighbouring PIDs, so their first draws lie within a few "
     "arcs of total length far below the 0.156 the test rejects (seeds up to 40 apart: 5000 of "
     "5000 fleets rejected, stats/README.md, \"The fleet\"); at any n",
     Seeding::process_id},
    {"millis-java-random", java_random,
     "new java.util.Random(System.currentTimeMillis()) once a process: processes started in one "
     "millisecond share a stream, a few apart draw side by side",
     "fleet_clustered_draws",
     "a fleet started at once spans a few milliseconds: the processes of one millisecond draw "
     "the same values, and neighbouring milliseconds start about 9e-5 apart a millisecond, so "
     "the first draws lie in a few short arcs; at any n",
     Seeding::clock_millis},
    {"shared-unlocked",
     [](std::uint64_t seed) -> SampleSource {
       // One state, read and written by every thread with no lock: the
       // yield between, off the thread that reads requests, is where a
       // thread is preempted in a real race.
       return [state = std::make_shared<std::atomic<std::uint64_t>>(seed),
               main = std::this_thread::get_id()] {
         const std::uint64_t x = state->load(std::memory_order_relaxed);
         if (std::this_thread::get_id() != main) std::this_thread::yield();
         const std::uint64_t next = splitmix64(x);
         state->store(next, std::memory_order_relaxed);
         return static_cast<double>(next >> 11U) * 0x1p-53;
       };
     },
     "one generator shared by the threads without its lock, as a java.util.Random or "
     "System.Random or *rand.Rand shared by a pool is: threads read the same state and draw "
     "the same value",
     "repeats_2^40",
     "in the threads cell the threads draw each other's values again and again; the repeats "
     "test sees one repeat in a window where a 53-bit source has 2^-13; one stream alone is "
     "right, so only the threads cell fails",
     Seeding::per_process, /*locked=*/false},
    {"threads-alike",
     [](std::uint64_t seed) -> SampleSource {
       return [seed] {
         // Each thread its own generator, all seeded alike.
         thread_local std::mt19937_64 g(seed);
         return res53(g);
       };
     },
     "each thread its own generator, every one seeded alike (a thread-local Random(seed)): the "
     "threads of a pool draw one stream each",
     "repeats_2^40",
     "the threads cell's 4 threads draw the same sequence, so each value comes 4 times within "
     "a window; one stream alone is right, so only the threads cell fails",
     Seeding::per_process, /*locked=*/false},
    {"stuck", stuck_at_zero,
     "a source stuck at 0, as a System.Random shared unlocked sticks once a race zeroes it",
     "resolution 0 bits, the source is stuck, repeats_2^40",
     "every draw is 0: u = -1 in every cell, the band's lower edge, so the range check passes "
     "at f = 1 and the repeats test (which counts equal values at the edge too) rejects; the "
     "exact cell's resolution reads 0 bits; at any n"},
    {"whole-millis", good_stream,
     "a right jitter, then the delay as whole milliseconds (a Java long, truncated and "
     "saturating), back to seconds: google-http-java-client, resilience4j",
     "resolution 11.0 bits, the draws sit on a 1 ms grid, cannot represent",
     "the exact cell's delays take 2000 values 1 ms apart (11.0 bits, the spacing test's p "
     "about exp(-2000)); cells of tiny and huge delays are cells a port in ms cannot "
     "represent, tallied apart from jitter failures; at any n from 10240",
     Seeding::per_process, /*locked=*/true, whole_millis},
    {"whole-micros", good_stream,
     "a right jitter, then the delay as whole microseconds, back to seconds",
     "resolution 20.9 bits, the draws sit on a 1 µs grid",
     "2,000,000 values 1 µs apart: about 52 adjacent pairs in 10240 draws, so the smallest "
     "gap is the grid's and the spacing test's p about exp(-52)",
     Seeding::per_process, /*locked=*/true, whole_micros},
    {"int-nanos", good_stream,
     "a right jitter, then time.Duration(delay * 1e9) and Duration.Seconds(), as Go's "
     "grpc-go and cenkalti/backoff do (out of range: amd64's minimum int64)",
     "resolution 30.9 bits, the draws sit on a 1 ns grid",
     "2e9 values 1 ns apart: the spacing test needs about 4.3e10 pairs of distinct draws to "
     "see a grid of 2^-30.9 (n 212992); the cells of huge delays go negative",
     Seeding::per_process, /*locked=*/true, int_nanos},
}};

std::uint64_t seed_of(const Drift& drift) {
  if (const char* replay = std::getenv("ACEMQ_DRIFT_SEED"))
    return std::strtoull(replay, nullptr, 10);
  switch (drift.seeding) {
    case Seeding::per_process: return splitmix64(kSeed ^ static_cast<std::uint64_t>(getpid()));
    case Seeding::constant: return kSeed;
    case Seeding::clock_seconds: return static_cast<std::uint64_t>(std::time(nullptr));
    case Seeding::clock_millis:
      return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                            std::chrono::system_clock::now().time_since_epoch())
                                            .count());
    case Seeding::process_id: return static_cast<std::uint64_t>(getpid());
  }
  return kSeed;
}

// The drift's source behind a lock, as a right port's default source is.
SampleSource locked(SampleSource source) {
  return [source = std::move(source), lock = std::make_shared<std::mutex>()] {
    const std::scoped_lock held(*lock);
    return source();
  };
}

const Drift* find_drift(std::string_view name) {
  for (const Drift& d : kDrifts) {
    if (d.name == name) return &d;
  }
  return nullptr;
}

int usage(std::string_view why) {
  std::cerr << "drifted_adapter: " << why << "\nusage: drifted_adapter <drift> | --rejected-by "
            << "<drift> | --table\ndrifts:";
  for (const Drift& d : kDrifts) std::cerr << ' ' << d.name;
  std::cerr << '\n';
  return 2;
}

void print_table() {
  std::cout
      << "| drift | what it gets wrong | `stats` must name | why |\n| --- | --- | --- | --- |\n";
  for (const Drift& d : kDrifts) {
    std::cout << "| " << d.name << " | " << d.wrong << " | " << d.rejected_by << " | " << d.why
              << " |\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::string_view first = argc > 1 ? std::string_view(argv[1]) : std::string_view();
  if (argc == 2 && first == "--table") {
    print_table();
    return 0;
  }
  if (argc == 3 && first == "--rejected-by") {
    const Drift* drift = find_drift(argv[2]);
    if (drift == nullptr) return usage("unknown drift '" + std::string(argv[2]) + "'");
    std::cout << drift->rejected_by << '\n';
    return 0;
  }
  if (argc != 2) return usage("one argument, the drift");
  const Drift* drift = find_drift(first);
  if (drift == nullptr) return usage("unknown drift '" + std::string(first) + "'");
  const std::uint64_t seed = seed_of(*drift);
  std::cerr << "drifted_adapter: " << drift->name << ", seed " << seed
            << " (ACEMQ_DRIFT_SEED=" << seed << " replays this process)\n";
  SampleSource source = drift->make(seed);
  if (drift->locked) source = locked(std::move(source));
  // The protocol as `retry-policy serve` answers it, but for `sample`.
  if (drift->convert == nullptr)
    return acemq::conformance::serve_lines(STDIN_FILENO, stdout, source);
  namespace conformance = acemq::conformance;
  return conformance::serve_lines(
      STDIN_FILENO, stdout, conformance::Responder([&](const conformance::ParsedLine& line) {
        conformance::Answer answer = conformance::respond(line, source);
        const auto* request = std::get_if<conformance::Request>(&line);
        if (answer.ok && request != nullptr &&
            std::holds_alternative<conformance::SampleCall>(request->op)) {
          for (std::optional<double>& item : answer.items) {
            if (item) *item = drift->convert(*item);
          }
        }
        return answer;
      }));
}
