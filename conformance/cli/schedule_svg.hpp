// schedule_svg: `retry-policy schedule --svg FILE`, the schedule as a
// picture a maintainer can look at rather than read.
//
// Two panels over the attempts: each attempt's delay with its jitter band
// (least to most), and the cumulative least, nominal and most wait against
// the age limit, with the attempt each stops at marked. A delay axis that
// spans more than kLogScaleRatio goes logarithmic; infinite values are drawn
// at the top edge and said so in the caption.
#pragma once

#include <string>
#include <vector>

#include "acemq/amqp/retry_policy.hpp"
#include "conformance/cli/schedule_table.hpp"

namespace acemq::conformance {

inline constexpr double kLogScaleRatio = 1000.0;

std::string schedule_svg(const amqp::RetryPolicy& policy, const std::vector<ScheduleRow>& rows);

}  // namespace acemq::conformance
