// Pictures of one sample of u, as standalone SVG (any browser opens them; no
// plotting dependency).
//
// Both are drawn from the cell's histogram (battery.hpp's PictureData), so a
// merged night has the same pictures as one process.
//
// ecdf_svg: the ECDF of u against the uniform CDF with the KS acceptance
// band F ± c/sqrt(n) on top, and below it the same on a readable scale, the
// deviation ECDF − F against ±c/sqrt(n): for n above a few thousand the band
// is thinner than the line of the upper panel.
// histogram_svg: the counts in kHistogramBins equal bins of [−1, 1) against
// the expected count, and below each bin's standardized residual against ±4.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "stats/battery/battery.hpp"

namespace acemq::stats {

struct PictureCaption {
  std::string title;     // the cell's name
  std::string subtitle;  // n, seed, verdict
};

// `critical` is c, the KS acceptance bound on sqrt(n)·D at the run's alpha.
std::string ecdf_svg(const PictureCaption& caption, const Analysis& analysis, double critical);
std::string histogram_svg(const PictureCaption& caption, const Analysis& analysis);

// The fleet's first draws (fleet.hpp), a row a process, `marked_draw`
// (the k-th draw the clustered test found tightest) in red: a herd at a
// glance.
std::string fleet_svg(const PictureCaption& caption, const std::vector<std::vector<double>>& draws,
                      std::size_t marked_draw);

// Text made safe for SVG's character data: &, < and > as entities. Also
// used by `retry-policy schedule --svg`, so the project escapes in one place.
std::string xml_escaped(std::string_view text);

}  // namespace acemq::stats
