// CaseGenerator: the requests `check` and `vectors` send, from a seed.
//
// The same seed gives the same lines on every platform: the generator draws
// from std::mt19937_64 (whose output the standard fixes) and builds doubles
// from bits with ldexp, never through std:: distributions or libm, whose
// results vary by implementation.
//
// The cases cover the regimes a port gets wrong: multipliers 0, below 1, 1,
// 1 + 1e-9, 1 + 2^-52, 2 and large; caps below, at and above the initial
// delay, or none; delays 0, -0.0, subnormal, tiny, ordinary and near
// DBL_MAX; max_attempts 1, small, ~1000 (uncapped overflow) and huge; ages
// below, at and just past the limit, negative and infinite; jitter factors
// 0, 1 and between; draws 0, 2^-53, 0.5, 1 - 2^-53 and uniform; replays
// whose calls give up or land on a zero delay between jittered ones, so a
// port that spends a draw where no jitter applies shifts every later draw.
// The full profile adds invalid requests (about one in ten) and malformed
// lines, whose answer must be an error.
#pragma once

#include <cstdint>
#include <random>
#include <string>

#include <nlohmann/json.hpp>

namespace acemq::conformance {

enum class Profile {
  // Everything the protocol defines, invalid input included.
  full,
  // Only valid requests on which the contract and the Ruby reference agree:
  // no errors, none of the documented deviations (+Infinity jittered by a
  // factor that rounds to 0: jitter_factor 1 and r <= 2^-55), and attempts
  // of at most 5000, since the reference's loop has no early exit.
  reference,
};

struct GeneratedCase {
  std::string line;  // the request, one line of JSON (or deliberately not JSON)
  std::string kind;  // the regime, for the summary: "replay", "invalid", ...
};

// Whether a valid request's answer is one the Ruby reference gives too: the
// core answers it without error and it avoids the documented deviations.
// The reference profile sends only these.
bool reference_agrees(const std::string& line);

class CaseGenerator {
 public:
  CaseGenerator(std::uint64_t seed, Profile profile);

  GeneratedCase next(std::int64_t id);

 private:
  // Regimes of each value; see case_generator.cc.
  struct PolicyParameters;
  PolicyParameters policy_parameters(const std::string& op);
  nlohmann::ordered_json encode_policy(const PolicyParameters& p);
  nlohmann::ordered_json valid_request(std::int64_t id, const std::string& op);
  GeneratedCase invalid_case(std::int64_t id);
  GeneratedCase malformed_line(std::int64_t id);

  double uniform01();
  std::uint64_t below(std::uint64_t n);
  std::int64_t between(std::int64_t lo, std::int64_t hi);
  bool chance(double p);
  template <std::size_t N>
  std::size_t pick(const double (&weights)[N]);
  double with_exponent(int lo, int hi);
  double subnormal();
  double delay_value();
  double multiplier_value(bool for_replay);
  double draw_value();
  double jitter_factor_value();
  std::int64_t max_attempts_value(const std::string& op);
  std::int64_t attempt_value(std::int64_t max_attempts);
  double age_value(double max_message_age);

  std::mt19937_64 engine_;
  Profile profile_;
};

}  // namespace acemq::conformance
