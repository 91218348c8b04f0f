// RubyRandom must replay Ruby's srand/rand bit for bit: these anchors were
// measured with Ruby 3.1 (`srand(42); 3.times.map { rand }`).
#include "acemq/amqp/ruby_random.hpp"

#include <bit>
#include <cstdint>

#include <gtest/gtest.h>

namespace acemq::amqp {
namespace {

std::uint64_t bits(double x) { return std::bit_cast<std::uint64_t>(x); }

TEST(RubyRandom, Seed42MatchesRuby) {
  RubyRandom rand(42);
  EXPECT_EQ(bits(rand()), bits(0.3745401188473625));
  EXPECT_EQ(bits(rand()), bits(0.9507143064099162));
  EXPECT_EQ(bits(rand()), bits(0.7319939418114051));
}

TEST(RubyRandom, Seed0AndTopSeedMatchRuby) {
  // ruby -e 'srand(0); p rand, rand' and srand(4294967295).
  RubyRandom zero(0);
  EXPECT_EQ(bits(zero()), bits(0.5488135039273248));
  EXPECT_EQ(bits(zero()), bits(0.7151893663724195));
  RubyRandom top(4294967295U);
  EXPECT_EQ(bits(top()), bits(0.0976320289940138));
}

TEST(RubyRandom, SameSeedSameSequence) {
  RubyRandom a(7);
  RubyRandom b(7);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(bits(a()), bits(b()));
}

TEST(RubyRandom, DrawsStayInUnitInterval) {
  RubyRandom rand(123);
  for (int i = 0; i < 100000; ++i) {
    const double r = rand();
    ASSERT_GE(r, 0.0);
    ASSERT_LT(r, 1.0);
  }
}

}  // namespace
}  // namespace acemq::amqp
