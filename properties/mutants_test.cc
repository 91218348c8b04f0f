// The test of the test: every property must reject the mutants it is listed
// against below, and pass on the unmutated copy of the core.
//
// Each (property, mutant) pair is its own CTest test, labelled `properties`:
//   TestOfTheTest.ScheduleMatchesModel_rejects_CapOnRunningValue
//   TestOfTheTest.ScheduleMatchesModel_passes_Unmutated
// A rejection is a RapidCheck run of the property against the mutant that
// fails within the configured case count (RC_PARAMS max_success, this
// suite's default otherwise), under the printed seed. Run matrix.cc to see
// every property against every mutant.
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "mutants.hpp"
#include "properties.hpp"
#include "runner.hpp"

namespace props = acemq::props;
using props::Mutation;

namespace {

struct Catch {
  Mutation mutation;
  std::vector<std::string_view> caught_by;
};

// Which properties reject which mutant: for each mutant, the properties
// whose claim it breaks. Every pair here failed under each of 5 to 30 seeds
// (matrix.cc), on average within 50 cases, so a budget of 1000 misses one
// with odds below 10^-9. README.md has the same table by property.
const std::vector<Catch>& catches() {
  static const std::vector<Catch> table = {
      {Mutation::cap_on_running_value, {"ScheduleMatchesModel", "FastPathMatchesPlainLoop"}},
      {Mutation::next_delay_ignores_cap,
       {"ScheduleRespectsCap", "JitterStaysInBand", "NextDelayMatchesSchedule",
        "NextDelayMatchesModel"}},
      {Mutation::closed_form_pow,
       {"NextDelayMatchesSchedule", "NextDelayMatchesModel", "FastPathMatchesPlainLoop",
        "HugeAttemptAnswersAtOnce"}},
      {Mutation::backoff_off_by_one,
       {"NextDelayMatchesSchedule", "NextDelayMatchesModel", "FastPathMatchesPlainLoop"}},
      {Mutation::fast_path_any_multiplier, {"FastPathMatchesPlainLoop"}},
      {Mutation::remembered_off_by_one, {"NextDelayMatchesSchedule", "NextDelayMatchesModel"}},
      {Mutation::zero_sign_not_settled, {"NextDelayMatchesSchedule"}},
      {Mutation::no_early_exit, {"HugeAttemptAnswersAtOnce"}},
      {Mutation::overflow_saturates,
       {"ScheduleMatchesModel", "FastPathMatchesPlainLoop", "HugeAttemptAnswersAtOnce"}},
      {Mutation::overflow_to_zero,
       {"ScheduleMatchesModel", "NextDelayMatchesSchedule",
        "NonDecreasingWhenMultiplierAtLeastOne"}},
      {Mutation::zero_cap_is_a_cap,
       {"ScheduleMatchesModel", "NextDelayMatchesModel", "FixedIsConstant"}},
      {Mutation::schedule_one_long, {"ScheduleLength", "ScheduleMatchesModel", "FixedIsConstant"}},
      {Mutation::lazy_range_caps_running, {"LazyRangeMatchesSchedule"}},
      {Mutation::lazy_range_one_short, {"LazyRangeMatchesSchedule"}},
      {Mutation::clamp_drops_negative_zero,
       {"NextDelayMatchesSchedule", "NextDelayMatchesModel", "FixedIsConstant"}},
      {Mutation::cap_after_jitter, {"NextDelayMatchesModel"}},
      {Mutation::one_sided_jitter, {"JitterIsTwoSided", "JitteredMatchesModel"}},
      {Mutation::half_width_jitter, {"JitteredMatchesModel", "NextDelayMatchesModel"}},
      {Mutation::flipped_jitter, {"JitterIsTwoSided", "JitteredMatchesModel"}},
      {Mutation::reassociated_jitter, {"JitteredMatchesModel", "NextDelayMatchesModel"}},
      {Mutation::fused_jitter, {"JitteredMatchesModel"}},
      {Mutation::jitter_without_one_plus,
       {"NeverNegativeNorNaN", "JitterStaysInBand", "JitterIsTwoSided", "JitteredMatchesModel"}},
      {Mutation::nan_guard_dropped,
       {"NeverNegativeNorNaN", "JitterIsTwoSided", "JitteredMatchesModel"}},
      {Mutation::draw_when_factor_zero,
       {"NoDrawWithoutJitter", "OneDrawPerJitter", "FixedIsConstant"}},
      {Mutation::draw_for_zero_delay, {"NoDrawWithoutJitter", "OneDrawPerJitter"}},
      {Mutation::draw_when_giving_up, {"NoDrawWithoutJitter", "OneDrawPerJitter"}},
      {Mutation::two_draws_per_jitter, {"OneDrawPerJitter"}},
      {Mutation::attempt_off_by_one,
       {"GivesUpAfterLastAttempt", "GivesUpAtAgeLimit", "NoDrawWithoutJitter"}},
      {Mutation::age_strict_comparison, {"GivesUpAtAgeLimit", "NextDelayMatchesModel"}},
      {Mutation::zero_age_is_a_limit,
       {"GivesUpAtAgeLimit", "GivesUpAfterLastAttempt", "NextDelayMatchesSchedule"}},
      {Mutation::age_uses_magnitude, {"GivesUpAtAgeLimit", "GivesUpAfterLastAttempt"}},
      {Mutation::nan_jitter_accepted, {"BadPolicyRejectedNamingField"}},
      {Mutation::negative_zero_rejected, {"ValidPoliciesAccepted", "CopiesChangeOneField"}},
      {Mutation::subnormal_rejected, {"ValidPoliciesAccepted"}},
      {Mutation::infinite_cap_accepted, {"BadPolicyRejectedNamingField"}},
      {Mutation::zero_attempts_accepted, {"BadPolicyRejectedNamingField"}},
      {Mutation::draw_of_one_accepted, {"BadCallRejectedNamingField"}},
      {Mutation::nan_age_accepted, {"BadCallRejectedNamingField"}},
      {Mutation::attempt_zero_accepted, {"BadCallRejectedNamingField"}},
      {Mutation::wrong_field_named, {"BadPolicyRejectedNamingField"}},
      {Mutation::value_loses_digits,
       {"BadPolicyRejectedNamingField", "BadCallRejectedNamingField"}},
      {Mutation::copies_unvalidated, {"BadPolicyRejectedNamingField"}},
      {Mutation::fixed_keeps_default_multiplier, {"FixedIsConstant", "FactoriesMatchDocPage"}},
      {Mutation::exponential_without_jitter, {"FactoriesMatchDocPage"}},
      {Mutation::give_up_after_resets_jitter, {"CopiesChangeOneField"}},
      {Mutation::with_jitter_drops_age, {"CopiesChangeOneField"}},
      {Mutation::shared_ruby_engine, {"RubyRandomReplays"}},
      {Mutation::res32_draw, {"RubyRandomMatchesGenrandRes53"}},
  };
  return table;
}

class MutantRun : public testing::Test {
 public:
  MutantRun(std::string_view property, Mutation mutation, bool expect_rejection)
      : property_(property), mutation_(mutation), expect_rejection_(expect_rejection) {}

  void TestBody() override {
    props::RunParams params = props::configured_params();
    // 10^9 multiplications per case: one slow case says enough.
    if (mutation_ == Mutation::no_early_exit) params.shrink = false;
    const props::MutationInfo& info = props::info(mutation_);
    const std::string id =
        std::string(testing::UnitTest::GetInstance()->current_test_info()->test_suite_name()) +
        "/" + testing::UnitTest::GetInstance()->current_test_info()->name();
    const props::RunResult result =
        props::run(props::property_named(property_), props::mutant(mutation_), params, id);
    if (result.skipped) GTEST_SKIP() << "RC_PARAMS reproduces another test";
    if (expect_rejection_) {
      EXPECT_TRUE(result.failed) << property_ << " let the mutant " << info.name << " ("
                                 << info.what << ") through: " << result.cases
                                 << " cases passed with seed=" << params.seed << "\n"
                                 << result.report;
      if (result.failed) {
        std::cout << property_ << " rejected " << info.name << " (" << info.what << ") after "
                  << result.cases << " case(s):\n"
                  << result.report << std::endl;
      }
    } else {
      EXPECT_FALSE(result.failed) << property_ << " failed on the unmutated copy of the core "
                                  << "with seed=" << params.seed << "\n"
                                  << result.report;
    }
  }

 private:
  std::string_view property_;
  Mutation mutation_;
  bool expect_rejection_;
};

void register_runs() {
  for (const Catch& c : catches()) {
    for (const std::string_view property : c.caught_by) {
      const std::string name =
          std::string(property) + "_rejects_" + std::string(props::info(c.mutation).name);
      testing::RegisterTest("TestOfTheTest", name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                            [property, mutation = c.mutation]() -> testing::Test* {
                              return new MutantRun(property, mutation, true);
                            });
    }
  }
  for (const props::Property& property : props::all_properties()) {
    const std::string name = std::string(property.name) + "_passes_Unmutated";
    testing::RegisterTest("TestOfTheTest", name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                          [name = property.name]() -> testing::Test* {
                            return new MutantRun(name, Mutation::none, false);
                          });
  }
}

}  // namespace

// Every property must be listed against at least one mutant, and every
// mutant against at least one property: a property no plausible bug breaks
// cannot fail, and a mutant nothing catches is a hole in the suite.
TEST(TestOfTheTest, EveryPropertyAndEveryMutantIsCovered) {
  for (const props::Property& property : props::all_properties()) {
    bool listed = false;
    for (const Catch& c : catches()) {
      for (const std::string_view name : c.caught_by) listed = listed || name == property.name;
    }
    EXPECT_TRUE(listed) << property.name << " is listed against no mutant";
  }
  for (const props::MutationInfo& info : props::all_mutations()) {
    if (info.mutation == Mutation::none) continue;
    bool listed = false;
    for (const Catch& c : catches()) {
      listed = listed || (c.mutation == info.mutation && !c.caught_by.empty());
    }
    EXPECT_TRUE(listed) << info.name << " is rejected by no listed property";
  }
  for (const Catch& c : catches()) {
    for (const std::string_view name : c.caught_by) {
      EXPECT_NO_THROW((void)props::property_named(name)) << name;
    }
  }
}

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  props::default_max_success(ACEMQ_PROPS_DEFAULT_CASES);
  props::print_seed_before_each_test();
  register_runs();
  return RUN_ALL_TESTS();
}
