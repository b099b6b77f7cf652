// Inline SVG charts (HTML5 inline <svg>, so no namespace URL) for the `karpenter sim --report`
// page: line charts with ticked axes and a legend, and lane charts of instants. Output is a pure
// function of the input (fixed decimal formatting, no ids drawn from counters), so the page is
// byte-identical for the same run.
#pragma once

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
};

struct LineChartSpec {
  std::string title;
  std::string x_label;
  std::string y_label;
  int width = 640;
  int height = 260;
  bool step = false;  // hold each value until the next point (counts, prices), not interpolate
};

// One line per series, x and y axes from NiceTicks (y from 0), grid lines and a legend.
std::string RenderLineChart(const LineChartSpec& spec, const std::vector<ChartSeries>& series);

struct LaneChartSpec {
  std::string title;
  std::vector<std::string> lanes;   // labels, top to bottom
  std::vector<std::string> colors;  // one per lane
  double x_max = 0;                 // the axis runs from 0 to at least this
  std::string x_label;
  int width = 640;
};

struct LaneMark {
  double x = 0;
  int lane = 0;
};

// A tick per mark in its lane's row, with the lane labels on the left and an x axis below.
std::string RenderLaneChart(const LaneChartSpec& spec, const std::vector<LaneMark>& marks);

}  // namespace karpenter::sim
