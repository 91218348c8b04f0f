// The core's exported cost model (internal/walk.hpp) against the model's
// plain walk of the protocol's cost rule: they must agree on every count the
// protocol's limit can see. Only below the remembered prefix may they differ,
// where the core has not looked at the exits yet (it starts walking at entry
// 16) and the count is far below any limit.
#include "acemq/amqp/internal/walk.hpp"

#include <cstdint>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "acemq/model/contract.hpp"
#include "acemq/model/edge_values.hpp"

namespace {

using acemq::amqp::RetryPolicy;
using acemq::amqp::Seconds;
using acemq::amqp::internal::kRememberedRunningValues;
using acemq::amqp::internal::walk_multiplications;
namespace model = acemq::model;

constexpr std::int64_t kForever = std::numeric_limits<std::int64_t>::max();

struct Case {
  const char* name;
  RetryPolicy::Options options;
};

// One policy per exit, and the ones that never settle.
const std::vector<Case>& cases() {
  static const std::vector<Case> table = {
      {"capped doubling: passes 30 after 6 steps",
       {.max_attempts = kForever, .initial_delay = Seconds{0.5}, .max_delay = Seconds{30}}},
      {"capped slow growth: passes the cap after 2,081 steps",
       {.max_attempts = kForever,
        .initial_delay = Seconds{1},
        .multiplier = 1.001,
        .max_delay = Seconds{8}}},
      {"halving: a zero after 1,075 steps",
       {.max_attempts = kForever, .initial_delay = Seconds{1}, .multiplier = 0.5}},
      {"multiplier -0.0: a zero after one step",
       {.max_attempts = kForever, .initial_delay = Seconds{7}, .multiplier = -0.0}},
      {"multiplier 1: a fixed point at once",
       {.max_attempts = kForever, .initial_delay = Seconds{3}, .multiplier = 1.0}},
      {"doubling with no cap: +Infinity after 1,024 steps, seen by the next",
       {.max_attempts = kForever, .initial_delay = Seconds{1}}},
      {"a subnormal times 0.75: a rounding fixed point at 2^-1074, seen after 105 steps",
       {.max_attempts = kForever, .initial_delay = Seconds{1e-310}, .multiplier = 0.75}},
      {"1 - 2^-53: creeps down, never settles in reach",
       {.max_attempts = kForever, .initial_delay = Seconds{1}, .multiplier = 1.0 - 0x1.0p-53}},
      {"0.9 below a cap: decays, the cap never final",
       {.max_attempts = kForever,
        .initial_delay = Seconds{100},
        .multiplier = 0.9,
        .max_delay = Seconds{30}}},
      {"creeping, no cap: never settles in reach",
       {.max_attempts = kForever,
        .initial_delay = Seconds{1},
        .multiplier = model::edges::kCreepingMultiplier}},
      {"one ulp above one: never settles in reach",
       {.max_attempts = kForever,
        .initial_delay = Seconds{1},
        .multiplier = model::edges::kOneUlpAboveOne}},
      {"zero initial delay",
       {.max_attempts = kForever, .initial_delay = Seconds{0.0}, .multiplier = 3}},
  };
  return table;
}

TEST(WalkMultiplications, MatchesThePlainWalkWhereTheLimitCanSeeIt) {
  for (const Case& c : cases()) {
    const RetryPolicy policy(c.options);
    for (const std::int64_t limit :
         {std::int64_t{0}, std::int64_t{5}, std::int64_t{104}, std::int64_t{1} << 12}) {
      for (const std::int64_t attempt :
           {std::int64_t{1}, std::int64_t{2}, std::int64_t{16}, std::int64_t{17}, std::int64_t{18},
            std::int64_t{105}, std::int64_t{106}, std::int64_t{1000}, std::int64_t{1076},
            std::int64_t{1077}, std::int64_t{2081}, std::int64_t{2082}, limit, limit + 1, limit + 2,
            limit + 3, std::int64_t{1} << 40, kForever - 1}) {
        if (attempt < 1) continue;
        const std::int64_t core = walk_multiplications(policy, attempt, 0.0, limit);
        const std::int64_t plain = model::protocol_cost(c.options, attempt, limit);
        if (plain >= kRememberedRunningValues) {
          EXPECT_EQ(core, plain) << c.name << ", attempt " << attempt << ", limit " << limit;
        } else {
          EXPECT_GE(core, plain) << c.name << ", attempt " << attempt << ", limit " << limit;
          EXPECT_LE(core, kRememberedRunningValues)
              << c.name << ", attempt " << attempt << ", limit " << limit;
        }
      }
    }
  }
}

TEST(WalkMultiplications, NothingToWalkWhereTheCallGivesUpOrRejects) {
  const RetryPolicy creeping({.max_attempts = 1'000'000,
                              .initial_delay = Seconds{1},
                              .multiplier = model::edges::kCreepingMultiplier,
                              .max_message_age = Seconds{60}});
  EXPECT_EQ(walk_multiplications(creeping, 1'000'000, 0.0, 10), 0);
  EXPECT_EQ(walk_multiplications(creeping, 999'999, 60.0, 10), 0);
  EXPECT_EQ(walk_multiplications(creeping, 0, 0.0, 10), 0);
  EXPECT_EQ(walk_multiplications(creeping, 999'999, std::numeric_limits<double>::quiet_NaN(), 10),
            0);
  EXPECT_EQ(walk_multiplications(creeping, 999'999, 59.0, 10), 11);
}

TEST(WalkMultiplications, TheRememberedPrefixIsWalkedWhenThePolicyIsMade) {
  // Up to the prefix, the answer rests on attempt - 1 multiplications even
  // where an exit came sooner: the table holds every one of them.
  const RetryPolicy capped(
      {.max_attempts = 100, .initial_delay = Seconds{0.5}, .max_delay = Seconds{30}});
  for (std::int64_t attempt = 1; attempt <= kRememberedRunningValues; ++attempt) {
    EXPECT_EQ(walk_multiplications(capped, attempt, 0.0, 1000), attempt - 1) << attempt;
  }
  EXPECT_EQ(walk_multiplications(capped, kRememberedRunningValues + 1, 0.0, 1000),
            kRememberedRunningValues - 1);
}

}  // namespace
