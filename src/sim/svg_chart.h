// Inline SVG charts (HTML5 inline <svg>, so no namespace URL) for the `karpenter sim --report`
// page: line charts with ticked axes and a legend, and lane charts of instants. Output is a pure
// function of the input (fixed decimal formatting, no ids drawn from counters), so the page is
// byte-identical for the same run.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace karpenter::sim {

// Escapes &, <, >, " and ' so any text is safe inside SVG/HTML text and attribute values.
std::string EscapeXml(std::string_view text);

// Round tick values (steps of 1, 2 or 5 × 10^k, about `target` of them) from at or below `min`
// to at or above `max`; the chart's axis runs from the first to the last. An empty or inverted
// range is widened to [min, min + 1].
std::vector<double> NiceTicks(double min, double max, int target);

// Maps the domain [d0, d1] linearly onto the range [r0, r1] (r1 < r0 for SVG's downward y).
class LinearScale {
 public:
  LinearScale(double d0, double d1, double r0, double r1);
  double operator()(double value) const;

 private:
  double d0_, d1_, r0_, r1_;
};

struct ChartSeries {
  std::string name;
  std::string color;                              // a CSS colour, e.g. "#1f77b4"
  std::vector<std::pair<double, double>> points;  // (x, y), x ascending
  // A wide faint line under a narrow dashed one stays visible where two series coincide.
  double width = 2;
  double opacity = 1;
  std::string dash;  // an SVG stroke-dasharray, e.g. "6 3"; solid when empty
};

// A scenario step on a time chart: a dashed vertical line at `x`, its label along it and in its
// tooltip.
struct ChartMarker {
  double x = 0;
  std::string label;
};

// A window of the scenario (a fault) shaded on a time chart, labelled in its tooltip.
struct ChartBand {
  double from = 0;
  double to = 0;
  std::string label;
};

// The unit of a time axis: minutes up to two hours, hours beyond.
struct TimeUnit {
  double seconds = 60;
  std::string name = "min";
};
TimeUnit TimeUnitFor(double run_seconds);

// The ticks of an axis from 0 that ends at `end` exactly: NiceTicks(0, end) without those past
// it, so the last tick may fall short of the end.
std::vector<double> TicksUpTo(double end, int target);

struct LineChartSpec {
  std::string title;
  std::string x_label;
  std::string y_label;
  int width = 640;
  int height = 260;
  bool step = false;  // hold each value until the next point (counts, prices), not interpolate
  // When set, the x axis runs from 0 to exactly this (a run's end) rather than to a round tick.
  std::optional<double> x_end;
  std::vector<ChartMarker> markers;
  std::vector<ChartBand> bands;
};

// One line per series, x and y axes from NiceTicks (y from 0), grid lines and a legend.
std::string RenderLineChart(const LineChartSpec& spec, const std::vector<ChartSeries>& series);

struct LaneChartSpec {
  std::string title;
  std::vector<std::string> lanes;   // labels, top to bottom
  std::vector<std::string> colors;  // one per lane
  double x_max = 0;                 // the axis runs from 0 to exactly this
  std::string x_label;
  int width = 640;
  std::vector<ChartMarker> markers;
  std::vector<ChartBand> bands;
};

struct LaneMark {
  double x = 0;
  int lane = 0;
  std::string label;    // written beside the tick where the lane has room for it
  std::string tooltip;  // shown on hover
};

// A tick per mark in its lane's row, with the lane labels (and their counts of marks) on the
// left and an x axis below.
std::string RenderLaneChart(const LaneChartSpec& spec, const std::vector<LaneMark>& marks);

}  // namespace karpenter::sim
