// The model's small helpers: bits, draws from 64 bits, Ruby's generator and
// the sequence source.
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <stdexcept>

#include <gtest/gtest.h>

#include "acemq/model/bits.hpp"
#include "acemq/model/edge_values.hpp"
#include "acemq/model/ruby_rand.hpp"
#include "acemq/model/sequence_source.hpp"
#include "acemq/model/unit_interval.hpp"

namespace {

namespace model = acemq::model;

TEST(ModelBits, SignsAndNaNsAreBits) {
  EXPECT_FALSE(model::same_bits(0.0, -0.0));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(model::same_bits(nan, nan));
  EXPECT_EQ(model::bits_of(-0.0), 0x8000000000000000U);
}

TEST(ModelUnitInterval, EndsOfTheInterval) {
  EXPECT_EQ(model::unit_interval_from_bits(0), 0.0);
  EXPECT_EQ(model::unit_interval_from_bits(~std::uint64_t{0}), model::edges::kLargestDraw);
  EXPECT_EQ(model::unit_interval_from_bits(std::uint64_t{1} << 11),
            model::edges::kSmallestPositiveDraw);
  // The low 11 bits are dropped, not rounded in.
  EXPECT_EQ(model::unit_interval_from_bits((std::uint64_t{1} << 11) - 1), 0.0);
}

TEST(ModelRubyRand, Seed42MatchesRuby) {
  model::RubyRand rand(42);
  EXPECT_EQ(rand(), 0.3745401188473625);
  EXPECT_EQ(rand(), 0.9507143064099162);
  EXPECT_EQ(rand(), 0.7319939418114051);
}

TEST(ModelRubyRand, GenrandRes53TakesTheTopBitsOfEach) {
  EXPECT_EQ(model::genrand_res53(0, 0), 0.0);
  EXPECT_EQ(model::genrand_res53(0xffffffffU, 0xffffffffU), model::edges::kLargestDraw);
  // a's low 5 bits and b's low 6 bits are not used.
  EXPECT_EQ(model::genrand_res53(0x1fU, 0x3fU), 0.0);
  EXPECT_EQ(model::genrand_res53(0, 0x40U), model::edges::kSmallestPositiveDraw);
}

TEST(ModelSequenceSource, YieldsInOrderAndCountsAcrossCopies) {
  const model::SequenceSource source{0.25, 0.75};
  // A harness that holds sources as std::function copies them.
  const std::function<double()> held = source;
  EXPECT_EQ(held(), 0.25);
  EXPECT_EQ(source(), 0.75);
  EXPECT_EQ(source.taken(), 2U);
  EXPECT_THROW((void)source(), std::out_of_range);
  const model::SequenceSource constant = model::SequenceSource::constant(0.5);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(constant(), 0.5);
  EXPECT_EQ(constant.taken(), 3U);
}

}  // namespace
