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
// Each source is seeded from kSeed, printed on stderr, so a run is
// reproducible: the same requests get the same answers.
#include <unistd.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <random>
#include <string>
#include <string_view>

#include "conformance/process/serve.hpp"
#include "conformance/protocol/respond.hpp"

namespace {

using acemq::conformance::SampleSource;

// Every drift's generator starts here: fixed, so a run is reproducible.
constexpr std::uint64_t kSeed = 20240601;

// A good 53-bit draw, the contract's resolution: the shape of Ruby's
// genrand_res53 on a 64-bit generator.
double res53(std::mt19937_64& g) { return static_cast<double>(g() >> 11) * 0x1p-53; }

struct Drift {
  std::string_view name;
  // The source, made from the fixed seed: a lambda with its state captured.
  SampleSource (*make)(std::uint64_t seed);
  std::string_view wrong;
  // What `stats` must name rejecting it: test names as its FAIL lines print
  // them, comma-separated, or its resolution verdict ("resolution B bits").
  std::string_view rejected_by;
  std::string_view why;
};

// The drifts: ONE TABLE. Deviations are of u = 2r - 1 (what the battery
// tests), the same in every cell up to u's rounding; the rows they are held
// against are `retry-policy stats`'s own power table (per-test alpha
// 3.47e-9, power 0.999 a cell), which the CTest registration quotes for the
// n it runs each drift at (conformance/CMakeLists.txt).
constexpr std::array<Drift, 8> kDrifts{{
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
}};

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
  std::cerr << "drifted_adapter: " << drift->name << ", seed " << kSeed << " (fixed)\n";
  // The protocol as `retry-policy serve` answers it, but for `sample`.
  return acemq::conformance::serve_lines(STDIN_FILENO, stdout, drift->make(kSeed));
}
