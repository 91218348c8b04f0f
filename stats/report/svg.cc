#include "stats/report/svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace acemq::stats {
namespace {

constexpr int kWidth = 760;
constexpr int kHeight = 620;

std::string svg_number(double x, const char* format = "%.4g") {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, x);
  return buffer;
}

// One plotting area with its data ranges.
struct Panel {
  double left, top, width, height;
  double xmin, xmax, ymin, ymax;

  double x(double v) const { return left + (v - xmin) / (xmax - xmin) * width; }
  double y(double v) const { return top + (ymax - v) / (ymax - ymin) * height; }
};

class Svg {
 public:
  Svg() {
    out_ += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(kWidth) +
            "\" height=\"" + std::to_string(kHeight) + "\" viewBox=\"0 0 " +
            std::to_string(kWidth) + " " + std::to_string(kHeight) +
            "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\">\n"
            "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  }

  void text(double x, double y, const std::string& s, const char* anchor = "start",
            const char* extra = "") {
    out_ += "<text x=\"" + svg_number(x) + "\" y=\"" + svg_number(y) + "\" text-anchor=\"" +
            anchor + "\" " + extra + ">" + xml_escaped(s) + "</text>\n";
  }

  void line(double x1, double y1, double x2, double y2, const char* style) {
    out_ += "<line x1=\"" + svg_number(x1) + "\" y1=\"" + svg_number(y1) + "\" x2=\"" +
            svg_number(x2) + "\" y2=\"" + svg_number(y2) + "\" " + style + "/>\n";
  }

  void rect(double x, double y, double w, double h, const char* style) {
    out_ += "<rect x=\"" + svg_number(x) + "\" y=\"" + svg_number(y) + "\" width=\"" +
            svg_number(w) + "\" height=\"" + svg_number(h) + "\" " + style + "/>\n";
  }

  void polyline(const std::vector<std::pair<double, double>>& points, const char* style) {
    out_ += "<polyline fill=\"none\" " + std::string(style) + " points=\"";
    for (const auto& [px, py] : points)
      out_ += svg_number(px, "%.2f") + "," + svg_number(py, "%.2f") + " ";
    out_ += "\"/>\n";
  }

  void polygon(const std::vector<std::pair<double, double>>& points, const char* style) {
    out_ += "<polygon " + std::string(style) + " points=\"";
    for (const auto& [px, py] : points)
      out_ += svg_number(px, "%.2f") + "," + svg_number(py, "%.2f") + " ";
    out_ += "\"/>\n";
  }

  void circle(double x, double y, double r, const char* style) {
    out_ += "<circle cx=\"" + svg_number(x) + "\" cy=\"" + svg_number(y) + "\" r=\"" +
            svg_number(r) + "\" " + style + "/>\n";
  }

  // Frame, grid lines and tick labels for a panel.
  void axes(const Panel& p, const std::vector<double>& xticks, const std::vector<double>& yticks,
            const std::string& xlabel, const std::string& ylabel, const char* yformat = "%.3g") {
    for (const double t : xticks) {
      line(p.x(t), p.top, p.x(t), p.top + p.height, "stroke=\"#e4e4e4\"");
      text(p.x(t), p.top + p.height + 15, svg_number(t, "%.3g"), "middle");
    }
    for (const double t : yticks) {
      line(p.left, p.y(t), p.left + p.width, p.y(t), "stroke=\"#e4e4e4\"");
      text(p.left - 6, p.y(t) + 4, svg_number(t, yformat), "end");
    }
    rect(p.left, p.top, p.width, p.height, "fill=\"none\" stroke=\"#444\"");
    text(p.left + p.width / 2, p.top + p.height + 32, xlabel, "middle");
    out_ += "<text transform=\"translate(" + svg_number(p.left - 58) + "," +
            svg_number(p.top + p.height / 2) + ") rotate(-90)\" text-anchor=\"middle\">" +
            xml_escaped(ylabel) + "</text>\n";
  }

  void heading(const PictureCaption& caption) {
    text(kWidth / 2.0, 22, caption.title, "middle", "font-size=\"16\" font-weight=\"bold\"");
    text(kWidth / 2.0, 40, caption.subtitle, "middle", "fill=\"#333\"");
  }

  std::string finish() { return out_ + "</svg>\n"; }

 private:
  std::string out_;
};

std::vector<double> ticks(double lo, double hi, int count) {
  std::vector<double> out;
  for (int i = 0; i <= count; ++i) out.push_back(lo + (hi - lo) * i / count);
  return out;
}

// A symmetric axis limit that holds `need` with a round-ish number.
double round_up(double need) {
  const double magnitude = std::pow(10.0, std::floor(std::log10(need)));
  for (const double step : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (step * magnitude >= need) return step * magnitude;
  }
  return 10.0 * magnitude;
}

}  // namespace

std::string ecdf_svg(const PictureCaption& caption, const Analysis& analysis, double critical) {
  const PictureData& data = analysis.picture;
  const double band = critical / std::sqrt(static_cast<double>(analysis.n));
  Svg svg;
  svg.heading(caption);

  // Upper panel: ECDF and CDF on the natural scale.
  const Panel top{80, 60, 640, 230, -1.0, 1.0, 0.0, 1.0};
  svg.axes(top, ticks(-1, 1, 8), ticks(0, 1, 4), "u = (jittered / d − 1) / f", "probability");
  std::vector<std::pair<double, double>> upper_band;
  std::vector<std::pair<double, double>> lower_band;
  std::vector<std::pair<double, double>> ecdf;
  for (std::size_t i = 0; i < data.ecdf_x.size(); ++i) {
    const double x = data.ecdf_x[i];
    const double f = (x + 1.0) / 2.0;
    upper_band.emplace_back(top.x(x), top.y(std::min(1.0, f + band)));
    lower_band.emplace_back(top.x(x), top.y(std::max(0.0, f - band)));
    ecdf.emplace_back(top.x(x), top.y(f + data.ecdf_minus_cdf[i]));
  }
  std::vector<std::pair<double, double>> band_shape = upper_band;
  band_shape.insert(band_shape.end(), lower_band.rbegin(), lower_band.rend());
  svg.polygon(band_shape, "fill=\"#9ecae1\" stroke=\"#6baed6\" stroke-width=\"0.5\"");
  svg.line(top.x(-1), top.y(0), top.x(1), top.y(1),
           "stroke=\"#555\" stroke-width=\"1.5\" stroke-dasharray=\"6,4\"");
  svg.polyline(ecdf, "stroke=\"#d62728\" stroke-width=\"1.5\"");
  svg.line(top.left + 12, top.top + 16, top.left + 40, top.top + 16,
           "stroke=\"#d62728\" stroke-width=\"2\"");
  svg.text(top.left + 46, top.top + 20, "ECDF of u");
  svg.line(top.left + 12, top.top + 34, top.left + 40, top.top + 34,
           "stroke=\"#555\" stroke-width=\"1.5\" stroke-dasharray=\"6,4\"");
  svg.text(top.left + 46, top.top + 38, "uniform CDF (x + 1) / 2");
  svg.rect(top.left + 12, top.top + 46, 28, 10, "fill=\"#9ecae1\"");
  svg.text(top.left + 46, top.top + 56, "KS acceptance band (too thin to see: below)");

  // Lower panel: the deviation, where the band has width.
  const double dmax = std::max(band, analysis.picture.ks_d);
  const double limit = round_up(1.15 * dmax);
  const Panel bottom{80, 350, 640, 200, -1.0, 1.0, -limit, limit};
  svg.axes(bottom, ticks(-1, 1, 8), ticks(-limit, limit, 4), "u", "ECDF − CDF", "%.2g");
  svg.rect(bottom.x(-1), bottom.y(band), bottom.width, bottom.y(-band) - bottom.y(band),
           "fill=\"#deebf7\"");
  svg.line(bottom.x(-1), bottom.y(band), bottom.x(1), bottom.y(band),
           "stroke=\"#3182bd\" stroke-dasharray=\"4,3\"");
  svg.line(bottom.x(-1), bottom.y(-band), bottom.x(1), bottom.y(-band),
           "stroke=\"#3182bd\" stroke-dasharray=\"4,3\"");
  svg.line(bottom.x(-1), bottom.y(0), bottom.x(1), bottom.y(0), "stroke=\"#555\"");
  std::vector<std::pair<double, double>> deviation;
  for (std::size_t i = 0; i < data.ecdf_x.size(); ++i) {
    deviation.emplace_back(bottom.x(data.ecdf_x[i]), bottom.y(data.ecdf_minus_cdf[i]));
  }
  svg.polyline(deviation, "stroke=\"#d62728\" stroke-width=\"1.2\"");
  // D is reached at an edge of the fine bins, between the points drawn.
  const double at = std::clamp(data.ks_at, -1.0, 1.0);
  std::size_t nearest = 0;
  for (std::size_t i = 0; i < data.ecdf_x.size(); ++i) {
    if (std::abs(data.ecdf_x[i] - at) < std::abs(data.ecdf_x[nearest] - at)) nearest = i;
  }
  const double sign = data.ecdf_minus_cdf[nearest] < 0 ? -1.0 : 1.0;
  svg.circle(bottom.x(at), bottom.y(sign * data.ks_d), 4,
             "fill=\"none\" stroke=\"#000\" stroke-width=\"1.5\"");
  const TestResult& ks = analysis.test(kKolmogorovSmirnov);
  svg.text(bottom.left + 8, bottom.top + 16,
           "D = " + svg_number(data.ks_d) + " at u = " + svg_number(at, "%.3f") +
               ",  sqrt(n)·D = " +
               svg_number(std::sqrt(static_cast<double>(analysis.n)) * data.ks_d, "%.3f") +
               ",  p = " + svg_number(ks.p_value, "%.3g"));
  svg.text(bottom.left + 8, bottom.top + bottom.height - 8,
           "band ±" + svg_number(critical, "%.3f") + "/sqrt(n) = ±" + svg_number(band, "%.3g") +
               " (shaded): the ECDF must stay inside it",
           "start", "fill=\"#3182bd\"");
  const double bins = std::ldexp(2.0, data.histogram_bits);
  svg.text(kWidth / 2.0, kHeight - 12,
           "n = " + std::to_string(analysis.n) + " samples; D over " + svg_number(bins, "%.0f") +
               " bins, within 1/" + svg_number(bins, "%.0f") + " of the exact D; curves at " +
               std::to_string(data.ecdf_x.size()) + " points",
           "middle", "fill=\"#666\" font-size=\"11\"");
  return svg.finish();
}

std::string histogram_svg(const PictureCaption& caption, const Analysis& analysis) {
  const PictureData& data = analysis.picture;
  const double bins = static_cast<double>(data.histogram.size());
  const double n = static_cast<double>(analysis.n);
  const double expected = n / bins;
  const double sigma = std::sqrt(n * (1.0 / bins) * (1.0 - 1.0 / bins));
  const double highest =
      static_cast<double>(*std::max_element(data.histogram.begin(), data.histogram.end()));
  Svg svg;
  svg.heading(caption);

  const double ymax = round_up(std::max(highest, expected) * 1.15);
  const Panel top{80, 60, 640, 260, -1.0, 1.0, 0.0, ymax};
  svg.axes(top, ticks(-1, 1, 8), ticks(0, ymax, 4), "u = (jittered / d − 1) / f", "samples per bin",
           "%.7g");
  const double width = top.width / bins;
  for (std::size_t i = 0; i < data.histogram.size(); ++i) {
    const double count = static_cast<double>(data.histogram[i]);
    svg.rect(top.left + width * static_cast<double>(i) + 0.5, top.y(count), width - 1.0,
             top.y(0) - top.y(count), "fill=\"#6baed6\"");
  }
  svg.line(top.x(-1), top.y(expected), top.x(1), top.y(expected),
           "stroke=\"#d62728\" stroke-width=\"1.5\" stroke-dasharray=\"6,4\"");
  svg.text(
      top.left + 8, top.y(expected) - 6,
      "expected n/" + std::to_string(data.histogram.size()) + " = " + svg_number(expected, "%.6g"),
      "start", "fill=\"#d62728\"");

  // Residuals: a bin of a uniform sample is within ±4 sigma with probability
  // 1 − 6e-5, so of a hundred or so bins one may graze it, none far beyond.
  double worst = 4.0;
  std::vector<double> residuals;
  for (const std::uint64_t c : data.histogram) {
    residuals.push_back((static_cast<double>(c) - expected) / sigma);
    worst = std::max(worst, std::abs(residuals.back()));
  }
  const double limit = round_up(1.1 * worst);
  const Panel bottom{80, 380, 640, 170, -1.0, 1.0, -limit, limit};
  svg.axes(bottom, ticks(-1, 1, 8), ticks(-limit, limit, 4), "u", "(count − expected) / σ", "%.3g");
  svg.rect(bottom.x(-1), bottom.y(4), bottom.width, bottom.y(-4) - bottom.y(4), "fill=\"#f0f0f0\"");
  svg.line(bottom.x(-1), bottom.y(0), bottom.x(1), bottom.y(0), "stroke=\"#555\"");
  for (std::size_t i = 0; i < residuals.size(); ++i) {
    const double r = residuals[i];
    const double x = bottom.left + width * (static_cast<double>(i) + 0.5);
    svg.line(x, bottom.y(0), x, bottom.y(r),
             std::abs(r) > 4 ? "stroke=\"#d62728\" stroke-width=\"3\""
                             : "stroke=\"#3182bd\" stroke-width=\"3\"");
  }
  svg.text(bottom.left + 8, bottom.top + 14,
           "grey: ±4σ, σ = " + svg_number(sigma, "%.4g") + " per bin", "start", "fill=\"#666\"");
  const TestResult& chi = analysis.test(kChiSquare);
  svg.text(kWidth / 2.0, kHeight - 12,
           std::to_string(data.histogram.size()) + " bins for the eye; the chi-square test uses " +
               std::to_string(kChiSquareBins) + ": statistic " + svg_number(chi.statistic, "%.1f") +
               ", p = " + svg_number(chi.p_value, "%.3g"),
           "middle", "fill=\"#666\" font-size=\"11\"");
  return svg.finish();
}

std::string fleet_svg(const PictureCaption& caption, const std::vector<std::vector<double>>& draws,
                      std::size_t marked_draw) {
  Svg svg;
  svg.heading(caption);
  // One row a process; a fleet that draws apart is scattered, a herd is
  // the same row again, or a column of red first draws.
  const double rows = static_cast<double>(std::max<std::size_t>(draws.size(), 1));
  const Panel panel{80, 60, 640, 480, 0.0, 1.0, 0.5, rows + 0.5};
  svg.axes(panel, ticks(0, 1, 10), {}, "draw r (the exact cell's delay / 2)", "process");
  for (std::size_t p = 0; p < draws.size(); ++p) {
    const double row = rows - static_cast<double>(p);
    svg.text(panel.left - 6, panel.y(row) + 4, std::to_string(p + 1), "end");
    svg.line(panel.left, panel.y(row), panel.left + panel.width, panel.y(row),
             "stroke=\"#eeeeee\"");
    for (std::size_t k = 0; k < draws[p].size(); ++k) {
      const double r = draws[p][k];
      if (!(r >= 0.0 && r < 1.0)) continue;
      if (k == marked_draw) continue;  // drawn last, on top
      svg.circle(panel.x(r), panel.y(row), 2.2, "fill=\"#6baed6\" fill-opacity=\"0.7\"");
    }
  }
  for (std::size_t p = 0; p < draws.size(); ++p) {
    if (marked_draw >= draws[p].size()) continue;
    const double r = draws[p][marked_draw];
    if (!(r >= 0.0 && r < 1.0)) continue;
    svg.circle(panel.x(r), panel.y(rows - static_cast<double>(p)), 4.5, "fill=\"#d62728\"");
  }
  svg.text(kWidth / 2.0, kHeight - 30,
           "blue: each process's first " +
               std::to_string(draws.empty() ? 0 : draws.front().size()) + " draws; red: draw " +
               std::to_string(marked_draw + 1) + ", the one whose values cluster most",
           "middle", "fill=\"#666\" font-size=\"11\"");
  svg.text(kWidth / 2.0, kHeight - 14,
           "a fleet that draws apart is scattered; one stream shared repeats a row, seeds "
           "alike line the red dots up",
           "middle", "fill=\"#666\" font-size=\"11\"");
  return svg.finish();
}

std::string xml_escaped(std::string_view text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace acemq::stats
