#include "conformance/cli/schedule_svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string_view>

#include "stats/report/svg.hpp"

namespace acemq::conformance {
namespace {

using stats::xml_escaped;

// The page, in SVG user units (pixels at 100%).
constexpr double kWidth = 960;
constexpr double kLeft = 90;  // room for the value axis' labels
constexpr double kRight = 30;
constexpr double kPanelHeight = 300;
constexpr double kTitleHeight = 64;
constexpr double kPanelGap = 96;  // the second panel's title, legend and the x labels
constexpr double kBottom = 150;   // the x axis' labels and up to five captions
// A logarithmic axis labels at most this many decades.
constexpr double kMostLogTicks = 8;
// Above this many attempts the jitter is drawn as one band, not a bar each.
constexpr std::size_t kMostBars = 120;

constexpr std::string_view kBand = "#9ecae1";
constexpr std::string_view kNominal = "#08519c";
constexpr std::string_view kLeast = "#31a354";
constexpr std::string_view kMost = "#de2d26";
constexpr std::string_view kLimit = "#636363";

std::string px(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", v);
  return buffer;
}

// The smallest of 1, 2, 5, 10, 20, 50, ... at least `raw`: a step between
// ticks a person reads at a glance.
std::int64_t round_step(double raw) {
  for (std::int64_t magnitude = 1;; magnitude *= 10) {
    for (const std::int64_t m : {1, 2, 5}) {
      if (static_cast<double>(m * magnitude) >= raw) return m * magnitude;
    }
  }
}

// A value axis: linear from 0, or logarithmic over whole decades; ticks at
// round values, labelled in the unit that suits the largest (s, min, h, d).
class ValueAxis {
 public:
  // `values` are the finite values to show; the axis starts at 0 (linear)
  // or at the smallest positive value's decade (logarithmic).
  explicit ValueAxis(const std::vector<double>& values, bool may_be_log = true) {
    double largest = 0.0;
    double smallest_positive = HUGE_VAL;
    for (const double v : values) {
      if (!std::isfinite(v)) continue;
      largest = std::max(largest, v);
      if (v > 0.0) smallest_positive = std::min(smallest_positive, v);
    }
    if (!(largest > 0.0)) largest = 1.0;
    log_ =
        may_be_log && smallest_positive < HUGE_VAL && largest / smallest_positive > kLogScaleRatio;
    if (log_) {
      lo_ = std::floor(std::log10(smallest_positive));
      hi_ = std::ceil(std::log10(largest));
      if (hi_ == lo_) hi_ += 1;
      return;
    }
    // Seconds up to 10 minutes, then minutes up to 5 hours, hours up to 3
    // days: ticks a person reads without converting.
    unit_ = largest >= 3 * 86400 ? 86400 : largest >= 5 * 3600 ? 3600 : largest >= 600 ? 60 : 1;
    const double in_units = largest / unit_;
    const double raw = in_units / 5;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
      step_ = m * magnitude;
      if (step_ >= raw) break;
    }
    // A step of headroom when the largest value is on a tick, so no mark
    // sits on the frame.
    hi_ = (std::floor(in_units / step_) + 1) * step_ * unit_;
  }

  bool log() const { return log_; }

  // The height above the axis' bottom, as a share of the panel's.
  double share(double v) const {
    if (!std::isfinite(v)) return v > 0 ? 1.0 : 0.0;
    if (log_) {
      if (!(v > 0.0)) return 0.0;
      return std::clamp((std::log10(v) - lo_) / (hi_ - lo_), 0.0, 1.0);
    }
    return std::clamp(v / hi_, 0.0, 1.0);
  }

  std::vector<double> ticks() const {
    std::vector<double> out;
    if (log_) {
      // At most kMostLogTicks labels: every decade, or every few.
      const double every = std::ceil((hi_ - lo_) / kMostLogTicks);
      for (double e = lo_; e <= hi_; e += every) out.push_back(std::pow(10.0, e));
      return out;
    }
    for (double t = 0; t <= hi_ / unit_ + step_ / 2; t += step_) out.push_back(t * unit_);
    return out;
  }

  std::string label(double v) const {
    if (log_) return human_number(v) + " s";
    const char* name = unit_ == 86400 ? " d" : unit_ == 3600 ? " h" : unit_ == 60 ? " min" : " s";
    return human_number(v / unit_) + name;
  }

 private:
  bool log_ = false;
  double lo_ = 0.0;  // log: decades
  double hi_ = 1.0;
  double unit_ = 1.0;  // linear: seconds per labelled unit
  double step_ = 1.0;  // linear: between ticks, in units
};

// One panel: a frame, the attempt axis, a value axis, and the marks.
class Panel {
 public:
  Panel(double top, std::size_t attempts, ValueAxis axis)
      : top_(top), attempts_(std::max<std::size_t>(attempts, 1)), axis_(axis) {}

  // Each attempt has a slot of the width; its marks are at the slot's middle.
  double x(double attempt) const {
    const double span = kWidth - kLeft - kRight;
    return kLeft + span * (attempt - 0.5) / static_cast<double>(attempts_);
  }
  double y(double value) const { return top_ + kPanelHeight * (1.0 - axis_.share(value)); }
  double slot() const {  // the width of one attempt's bar
    return std::min(28.0, (kWidth - kLeft - kRight) / static_cast<double>(attempts_) * 0.6);
  }
  const ValueAxis& axis() const { return axis_; }

  void frame(std::string& out, std::string_view title, std::string_view legend,
             std::string_view x_label) const {
    out += "<text x='" + px(kLeft) + "' y='" + px(top_ - 34) +
           "' font-size='15' font-weight='bold'>" + xml_escaped(title) + "</text>\n";
    out += std::string(legend);
    out += "<rect x='" + px(kLeft) + "' y='" + px(top_) + "' width='" +
           px(kWidth - kLeft - kRight) + "' height='" + px(kPanelHeight) +
           "' fill='white' stroke='#bdbdbd'/>\n";
    for (const double t : axis_.ticks()) {
      const std::string at = px(y(t));
      out.append("<line x1='").append(px(kLeft)).append("' x2='").append(px(kWidth - kRight));
      out.append("' y1='").append(at).append("' y2='").append(at).append("' stroke='#eeeeee'/>\n");
      out += "<text x='" + px(kLeft - 8) + "' y='" + px(y(t) + 4) +
             "' font-size='12' text-anchor='end'>" + xml_escaped(axis_.label(t)) + "</text>\n";
    }
    if (axis_.log()) {
      out += "<text x='" + px(kLeft - 8) + "' y='" + px(top_ + kPanelHeight + 30) +
             "' font-size='11' text-anchor='end' fill='#636363'>log scale</text>\n";
    }
    // Attempt ticks: the first, then about ten at round numbers.
    const auto last = static_cast<std::int64_t>(attempts_);
    const std::int64_t step = round_step(static_cast<double>(attempts_) / 10);
    for (std::int64_t a = 1; a <= last; a = (a == 1 && step > 1) ? step : a + step) {
      out += "<text x='" + px(x(static_cast<double>(a))) + "' y='" + px(top_ + kPanelHeight + 18) +
             "' font-size='12' text-anchor='middle'>" + std::to_string(a) + "</text>\n";
    }
    out += "<text x='" + px((kLeft + kWidth - kRight) / 2) + "' y='" +
           px(top_ + kPanelHeight + 38) + "' font-size='12' text-anchor='middle'>" +
           xml_escaped(x_label) + "</text>\n";
  }

  std::string polyline(const std::vector<ScheduleRow>& rows, double ScheduleRow::*column,
                       std::string_view color, std::string_view extra = "") const {
    std::string points;
    for (const ScheduleRow& r : rows) {
      points += px(x(static_cast<double>(r.attempt))) + "," + px(y(r.*column)) + " ";
    }
    return "<polyline fill='none' stroke='" + std::string(color) + "' stroke-width='2' " +
           std::string(extra) + " points='" + points + "'/>\n";
  }

  std::string band(const std::vector<ScheduleRow>& rows, double ScheduleRow::*low,
                   double ScheduleRow::*high, std::string_view color, double opacity) const {
    std::string points;
    for (const ScheduleRow& r : rows) {
      points += px(x(static_cast<double>(r.attempt))) + "," + px(y(r.*high)) + " ";
    }
    // Back along the low edge (std::views::reverse is beyond clang-tidy 14
    // with libstdc++ 12).
    std::for_each(rows.rbegin(), rows.rend(), [&](const ScheduleRow& r) {
      points += px(x(static_cast<double>(r.attempt))) + "," + px(y(r.*low)) + " ";
    });
    return "<polygon fill='" + std::string(color) + "' fill-opacity='" + px(opacity) +
           "' stroke='none' points='" + points + "'/>\n";
  }

 private:
  double top_;
  std::size_t attempts_;
  ValueAxis axis_;
};

// A legend entry: a swatch and its words, laid out left to right.
class Legend {
 public:
  explicit Legend(double y) : y_(y) {}
  void add(std::string_view color, std::string_view words, bool dashed = false) {
    out_ += "<line x1='" + px(x_) + "' x2='" + px(x_ + 22) + "' y1='" + px(y_ - 4) + "' y2='" +
            px(y_ - 4) + "' stroke='" + std::string(color) + "' stroke-width='" +
            (dashed ? "2' stroke-dasharray='6 4'" : "8'") + "/>\n";
    out_ += "<text x='" + px(x_ + 28) + "' y='" + px(y_) + "' font-size='12'>" +
            xml_escaped(words) + "</text>\n";
    x_ += 40 + 6.6 * static_cast<double>(words.size());
  }
  const std::string& text() const { return out_; }

 private:
  double y_;
  double x_ = kLeft;
  std::string out_;
};

std::string caption_of(const amqp::RetryPolicy& p) {
  return "max_attempts " + std::to_string(p.max_attempts()) + " · initial_delay " +
         human_number(p.initial_delay().count()) + " s · multiplier " +
         human_number(p.multiplier()) + " · max_delay " + human_number(p.max_delay().count()) +
         " s · jitter_factor " + human_number(p.jitter_factor()) + " · max_message_age " +
         human_number(p.max_message_age().count()) + " s";
}

// The first attempt whose value in `column` is infinite, if any.
std::optional<std::int64_t> first_infinite(const std::vector<ScheduleRow>& rows,
                                           double ScheduleRow::*column) {
  for (const ScheduleRow& r : rows) {
    if (std::isinf(r.*column)) return r.attempt;
  }
  return std::nullopt;
}

}  // namespace

std::string schedule_svg(const amqp::RetryPolicy& policy, const std::vector<ScheduleRow>& rows) {
  const double top1 = kTitleHeight + 56;
  const double top2 = top1 + kPanelHeight + kPanelGap;
  // An empty schedule gets one line of words, not two empty panels.
  const double height = rows.empty() ? top1 + 40 : top2 + kPanelHeight + kBottom;
  const double limit = policy.max_message_age().count();

  std::vector<double> delays;
  std::vector<double> waits;
  for (const ScheduleRow& r : rows) {
    delays.insert(delays.end(), {r.least, r.delay, r.most});
    waits.insert(waits.end(), {r.waited_least, r.waited_nominal, r.waited_most});
  }
  if (limit > 0.0) waits.push_back(limit * 1.1);
  const Panel first(top1, rows.size(), ValueAxis(delays));
  // The waits against the age limit read on a linear axis, where a limit
  // is; without one, a range of decades may go logarithmic.
  const Panel second(top2, rows.size(), ValueAxis(waits, !(limit > 0.0)));

  std::string out = "<svg xmlns='http://www.w3.org/2000/svg' width='" + px(kWidth) + "' height='" +
                    px(height) + "' viewBox='0 0 " + px(kWidth) + " " + px(height) +
                    "' font-family='DejaVu Sans, Helvetica, Arial, sans-serif'>\n";
  out += "<rect width='100%' height='100%' fill='#fafafa'/>\n";
  out += "<text x='" + px(kLeft) + "' y='28' font-size='17' font-weight='bold'>Retry schedule: " +
         std::to_string(rows.size()) + " retries after the first delivery, " +
         (limit > 0.0 ? "none once the message is " + human_duration(limit) + " old"
                      : "no age limit") +
         "</text>\n";
  out += "<text x='" + px(kLeft) + "' y='50' font-size='13' fill='#424242'>" +
         xml_escaped(caption_of(policy)) + "</text>\n";
  if (rows.empty()) {
    out += "<text x='" + px(kLeft) + "' y='" + px(top1) +
           "' font-size='16'>No retries: max_attempts " + std::to_string(policy.max_attempts()) +
           " is one delivery and no second chance.</text>\n</svg>\n";
    return out;
  }

  // Panel 1: each delay and its jitter band.
  Legend legend1(top1 - 12);
  legend1.add(kBand, "jitter: least to most, d(1 - f) to d(1 + f)");
  legend1.add(kNominal, "the schedule's delay d");
  first.frame(out, "The wait after each failed attempt", legend1.text(),
              "attempt that failed (the bar is the wait before the next)");
  if (rows.size() <= kMostBars) {
    const double w = first.slot();
    for (const ScheduleRow& r : rows) {
      const double cx = first.x(static_cast<double>(r.attempt));
      const double top = first.y(r.most);
      const double bottom = first.y(r.least);
      out += "<rect x='" + px(cx - w / 2) + "' y='" + px(top) + "' width='" + px(w) + "' height='" +
             px(std::max(1.0, bottom - top)) + "' fill='" + std::string(kBand) + "'/>\n";
      out += "<line x1='" + px(cx - w / 2) + "' x2='" + px(cx + w / 2) + "' y1='" +
             px(first.y(r.delay)) + "' y2='" + px(first.y(r.delay)) + "' stroke='" +
             std::string(kNominal) + "' stroke-width='3'/>\n";
    }
  } else {
    out += first.band(rows, &ScheduleRow::least, &ScheduleRow::most, kBand, 1.0);
    out += first.polyline(rows, &ScheduleRow::delay, kNominal);
  }

  // Panel 2: the cumulative waits, and where each reaches the age limit.
  Legend legend2(top2 - 12);
  legend2.add(kMost, "waited, every wait the most");
  legend2.add(kNominal, "nominal");
  legend2.add(kLeast, "the least");
  if (limit > 0.0) legend2.add(kLimit, "max_message_age", true);
  second.frame(out, "Time waited since the first failure", legend2.text(),
               "attempt that failed (the total waited by the next delivery)");
  out += second.band(rows, &ScheduleRow::waited_least, &ScheduleRow::waited_most, kBand, 0.35);
  out += second.polyline(rows, &ScheduleRow::waited_most, kMost);
  out += second.polyline(rows, &ScheduleRow::waited_nominal, kNominal);
  out += second.polyline(rows, &ScheduleRow::waited_least, kLeast);
  std::vector<std::string> captions = {
      "Rounded for reading: retry-policy schedule --json gives every value exact."};
  if (limit > 0.0) {
    const std::string at = px(second.y(limit));
    out += "<line x1='" + px(kLeft) + "' x2='" + px(kWidth - kRight) + "' y1='" + at + "' y2='" +
           at + "' stroke='" + std::string(kLimit) +
           "' stroke-width='2' stroke-dasharray='6 4'/>\n";
    // Labelled at the left, where the waits are still short, below it.
    out += "<text x='" + px(kLeft + 6) + "' y='" + px(second.y(limit) - 6) +
           "' font-size='12' fill='" + std::string(kLimit) + "'>max_message_age " +
           human_duration(limit) + "</text>\n";
    struct Column {
      double ScheduleRow::*waited;
      std::string_view color;
      const char* name;
    };
    const Column columns[] = {{&ScheduleRow::waited_most, kMost, "the most"},
                              {&ScheduleRow::waited_nominal, kNominal, "nominal"},
                              {&ScheduleRow::waited_least, kLeast, "the least"}};
    bool circled = false;
    for (const Column& c : columns) {
      if (const auto stop = age_limit_reached(rows, limit, c.waited)) {
        const ScheduleRow& row = rows[static_cast<std::size_t>(stop->attempt - 2)];
        out += "<circle cx='" + px(second.x(static_cast<double>(row.attempt))) + "' cy='" +
               px(second.y(row.*c.waited)) + "' r='6' fill='none' stroke='" + std::string(c.color) +
               "' stroke-width='2.5'/>\n";
        circled = true;
        captions.push_back("If every wait is " + std::string(c.name) + ": " +
                           age_limit_words(*stop, limit) + ".");
      } else {
        captions.push_back("If every wait is " + std::string(c.name) + ": only " +
                           human_duration(rows.back().*c.waited) + " old at attempt " +
                           std::to_string(policy.max_attempts()) + "; max_attempts ends it.");
      }
    }
    if (circled) {
      captions.emplace_back(
          "Circled: the wait after which the message is too old, counting only the waits.");
    }
  }
  // The band's top (the largest draw) overflows first: 2^1023 is finite,
  // 2^1023 * 1.2 is not. Each is said apart, as the table shows them.
  const std::optional<std::int64_t> delay_overflows = first_infinite(rows, &ScheduleRow::delay);
  const std::optional<std::int64_t> top_overflows = first_infinite(rows, &ScheduleRow::most);
  if (top_overflows && top_overflows != delay_overflows) {
    captions.push_back("From attempt " + std::to_string(*top_overflows) +
                       " the top of the jitter range overflows to +Infinity, drawn at the top "
                       "edge; the delay itself is finite there.");
  }
  if (delay_overflows) {
    captions.push_back("From attempt " + std::to_string(*delay_overflows) +
                       " the delay overflows to +Infinity, drawn at the top edge.");
  }
  double caption_y = top2 + kPanelHeight + 62;
  for (const std::string& caption : captions) {
    out += "<text x='" + px(kLeft) + "' y='" + px(caption_y) + "' font-size='12' fill='#424242'>" +
           xml_escaped(caption) + "</text>\n";
    caption_y += 18;
  }
  out += "</svg>\n";
  return out;
}

}  // namespace acemq::conformance
