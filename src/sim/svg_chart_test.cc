#include "src/sim/svg_chart.h"

#include <gtest/gtest.h>

namespace karpenter::sim {
namespace {

size_t Count(const std::string& text, const std::string& needle) {
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    ++count;
  }
  return count;
}

void ExpectTicks(const std::vector<double>& actual, const std::vector<double>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) EXPECT_NEAR(actual[i], expected[i], 1e-9) << i;
}

TEST(EscapeXml, EscapesEveryMarkupCharacter) {
  EXPECT_EQ(EscapeXml(R"(<a href="x">Tom & 'Jerry'</a>)"),
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;");
  EXPECT_EQ(EscapeXml("plain text"), "plain text");
}

TEST(NiceTicks, UsesRoundStepsCoveringTheRange) {
  EXPECT_EQ(NiceTicks(0, 2700, 8), (std::vector<double>{0, 500, 1000, 1500, 2000, 2500, 3000}));
  EXPECT_EQ(NiceTicks(0, 7.3, 5), (std::vector<double>{0, 2, 4, 6, 8}));
  EXPECT_EQ(NiceTicks(0, 100, 5), (std::vector<double>{0, 20, 40, 60, 80, 100}));
  ExpectTicks(NiceTicks(0, 0.9, 4), {0, 0.5, 1});
  ExpectTicks(NiceTicks(0, 0.35, 4), {0, 0.1, 0.2, 0.3, 0.4});
  // An empty range still gets an axis: [3, 4].
  ExpectTicks(NiceTicks(3, 3, 5), {3, 3.2, 3.4, 3.6, 3.8, 4});
}

TEST(LinearScale, MapsDomainOntoRangeIncludingInvertedRanges) {
  const LinearScale x(0, 100, 50, 250);
  EXPECT_DOUBLE_EQ(x(0), 50);
  EXPECT_DOUBLE_EQ(x(50), 150);
  EXPECT_DOUBLE_EQ(x(100), 250);
  const LinearScale y(0, 10, 200, 0);  // SVG y grows downwards
  EXPECT_DOUBLE_EQ(y(10), 0);
  EXPECT_DOUBLE_EQ(y(2.5), 150);
}

TEST(RenderLineChart, DrawsAxesTicksLegendAndEscapedText) {
  LineChartSpec spec{"Nodes <&>", "time (s)", "count"};
  spec.width = 400;
  spec.height = 200;
  const std::string svg = RenderLineChart(
      spec, {{"karpenter", "#1f77b4", {{0, 0}, {100, 4}}}, {"x<y", "#e8710a", {{0, 1}}}});
  EXPECT_EQ(svg.rfind("<svg ", 0), 0u);
  EXPECT_NE(svg.find("Nodes &lt;&amp;&gt;"), std::string::npos);
  EXPECT_EQ(svg.find("Nodes <&>"), std::string::npos);
  EXPECT_NE(svg.find(">x&lt;y</text>"), std::string::npos);
  EXPECT_NE(svg.find(">karpenter</text>"), std::string::npos);
  // x ticks 0..100 by 20 (6), y ticks 0..4 by 1 (5), each with a label.
  EXPECT_EQ(Count(svg, "class=\"tick\""), 11u);
  EXPECT_NE(svg.find(">100</text>"), std::string::npos);
  EXPECT_NE(svg.find(">4</text>"), std::string::npos);
  // Plot area: x 64..384, y 30..156. (0,0) is bottom left, (100,4) top right.
  EXPECT_NE(svg.find("d=\"M64.0 156.0L384.0 30.0\""), std::string::npos) << svg;
  EXPECT_EQ(svg.find("http"), std::string::npos);
}

// The report's pending-time chart has a long title and two series; its legend must start right of
// where the 14 px bold title ends (about 8 px per character from the left margin of 64 px).
TEST(RenderLineChart, LegendStaysClearOfALongTitle) {
  const std::string title = "Share of pods bound within t (CDF)";
  const std::string svg =
      RenderLineChart({title, "pending time t (s)", "% of measured pods"},
                      {{"karpenter", "#1f77b4", {{0, 0}, {60, 100}}},
                       {"cluster-autoscaler", "#ff7f0e", {{0, 0}, {120, 100}}}});
  const std::string marker = R"(<rect x=")";
  const size_t at = svg.find(marker);
  ASSERT_NE(at, std::string::npos) << svg;
  const double legend_x = std::stod(svg.substr(at + marker.size()));
  EXPECT_GT(legend_x, 64 + 8.0 * static_cast<double>(title.size())) << svg;
  EXPECT_LT(legend_x, 640) << svg;
}

TEST(RenderLineChart, WrapsALegendTooWideForTheTitleRowUnderTheTitle) {
  LineChartSpec spec{"Nodes by instance type: cluster-autoscaler", "x", "y"};
  spec.width = 640;
  spec.height = 300;
  std::vector<ChartSeries> series;
  for (const char* type : {"c6i.2xlarge", "r6i.2xlarge", "m6i.2xlarge", "c6i.4xlarge", "m6i.xlarge",
                           "c6g.16xlarge", "other"}) {
    series.push_back({type, "#000", {{0, 0}, {10, 1}}});
  }
  const std::string svg = RenderLineChart(spec, series);
  // Entries of 18 + 7 per character + 20 px from x 64; the fifth no longer fits in 624.
  EXPECT_NE(svg.find(R"(<rect x="64.0" y="28.0")"), std::string::npos) << svg;
  EXPECT_NE(svg.find(R"(<rect x="64.0" y="44.0")"), std::string::npos) << svg;
  EXPECT_EQ(svg.find(R"(y="10.0")"), std::string::npos);
  // The plot starts under the second row: y 60..256.
  EXPECT_NE(svg.find(R"(<line x1="64.0" y1="60.0" x2="64.0" y2="256.0")"), std::string::npos);
}

TEST(RenderLineChart, StepLinesHoldEachValueUntilTheNextPoint) {
  LineChartSpec spec{"t", "x", "y"};
  spec.width = 400;
  spec.height = 200;
  spec.step = true;
  const std::string svg = RenderLineChart(spec, {{"a", "#000", {{0, 0}, {100, 4}}}});
  EXPECT_NE(svg.find("d=\"M64.0 156.0H384.0V30.0\""), std::string::npos) << svg;
}

TEST(RenderLaneChart, PutsEachMarkInItsLaneRow) {
  LaneChartSpec spec;
  spec.title = "run";
  spec.lanes = {"up", "down"};
  spec.colors = {"#111", "#222"};
  spec.x_max = 100;
  spec.width = 416;  // plot x 96..400
  const std::string svg = RenderLaneChart(spec, {{50, 1}, {0, 0}, {10, 7}});
  // Lane 1 spans y 50..70; its tick is inset by 3 px; x 50 of 0..100 is 248.
  EXPECT_NE(svg.find(R"(x1="248.0" y1="53.0" x2="248.0" y2="67.0" stroke="#222")"),
            std::string::npos)
      << svg;
  EXPECT_NE(svg.find(R"(x1="96.0" y1="33.0" x2="96.0" y2="47.0" stroke="#111")"),
            std::string::npos);
  EXPECT_EQ(Count(svg, "stroke-opacity"), 2u);  // the lane-7 mark is dropped
  EXPECT_NE(svg.find(">down</text>"), std::string::npos);
}

TEST(TimeUnitFor, MinutesUpToTwoHoursThenHours) {
  EXPECT_EQ(TimeUnitFor(400).name, "min");
  EXPECT_EQ(TimeUnitFor(7200).seconds, 60);
  EXPECT_EQ(TimeUnitFor(7201).name, "h");
  EXPECT_EQ(TimeUnitFor(86400).seconds, 3600);
}

TEST(TicksUpTo, DropsTicksPastTheEnd) {
  EXPECT_EQ(TicksUpTo(45, 8), (std::vector<double>{0, 10, 20, 30, 40}));
  EXPECT_EQ(TicksUpTo(40, 8), (std::vector<double>{0, 5, 10, 15, 20, 25, 30, 35, 40}));
  ExpectTicks(TicksUpTo(6.6667, 8), {0, 1, 2, 3, 4, 5, 6});
}

TEST(RenderLineChart, TimeAxisEndsAtTheRunsEnd) {
  LineChartSpec spec{"t", "simulated time (min)", "y"};
  spec.width = 400;
  spec.height = 200;
  spec.x_end = 45;
  const std::string svg = RenderLineChart(spec, {{"a", "#000", {{0, 0}, {45, 4}}}});
  // The last point is at the right edge (384) though the round ticks would go on to 50.
  EXPECT_NE(svg.find("d=\"M64.0 156.0L384.0 30.0\""), std::string::npos) << svg;
  EXPECT_NE(svg.find(">40</text>"), std::string::npos);
  EXPECT_EQ(svg.find(">50</text>"), std::string::npos);
  EXPECT_NE(svg.find(">simulated time (min)</text>"), std::string::npos);
}

TEST(RenderLineChart, DrawsStepsAsLabelledMarkersAndFaultsAsShadedBands) {
  LineChartSpec spec{"t", "x", "y"};
  spec.width = 416;   // plot x 64..400, so x 0..100 maps at 3.36 px per unit
  spec.height = 400;  // plot y 30..356: room for 58 characters down a marker
  spec.x_end = 100;
  spec.markers = {{25, "Phase 4: cordon and drain legacy-workload-group"},
                  {26, "close <behind>"},
                  {150, "after the end"}};
  spec.bands = {{50, 75, "ICE: c6i.2xlarge spot"}, {90, 200, "clipped"}, {120, 130, "gone"}};
  const std::string svg = RenderLineChart(spec, {{"a", "#000", {{0, 1}, {100, 2}}}});
  EXPECT_NE(svg.find(R"(<line x1="148.0" y1="30.0" x2="148.0" y2="356.0" stroke="#555")"),
            std::string::npos)
      << svg;
  EXPECT_NE(svg.find(">Phase 4: cordon and drain legacy-workload-group</text>"), std::string::npos);
  // The second marker is too close for its text: the tooltip has it.
  EXPECT_NE(svg.find("<title>close &lt;behind&gt;</title>"), std::string::npos);
  EXPECT_EQ(svg.find(">close &lt;behind&gt;</text>"), std::string::npos);
  EXPECT_EQ(svg.find("after the end"), std::string::npos);
  EXPECT_EQ(Count(svg, "class=\"marker\""), 2u);
  EXPECT_NE(svg.find(R"(<rect class="band" x="232.0" y="30.0" width="84.0" height="326.0")"),
            std::string::npos);
  EXPECT_NE(svg.find(R"(x="366.4" y="30.0" width="33.6")"), std::string::npos);  // to the end
  EXPECT_NE(svg.find("<title>ICE: c6i.2xlarge spot</title>"), std::string::npos);
  EXPECT_EQ(svg.find("gone"), std::string::npos);
  // A lower chart has room for less: the label is cut, with an ellipsis.
  spec.height = 200;
  const std::string low = RenderLineChart(spec, {{"a", "#000", {{0, 1}, {100, 2}}}});
  EXPECT_NE(low.find(">Phase 4: cordon and dr\u2026</text>"), std::string::npos) << low;
}

TEST(RenderLineChart, KeepsCoincidingLinesApartByWidthAndDash) {
  ChartSeries wide{"karpenter", "#1f77b4", {{0, 1}, {10, 1}}};
  wide.width = 4;
  wide.opacity = 0.5;
  ChartSeries dashed{"cluster-autoscaler", "#e8710a", {{0, 1}, {10, 1}}};
  dashed.dash = "6 3";
  const std::string svg = RenderLineChart({"t", "x", "y"}, {wide, dashed});
  EXPECT_NE(svg.find(R"(stroke="#1f77b4" stroke-width="4" stroke-opacity="0.5"/>)"),
            std::string::npos)
      << svg;
  EXPECT_NE(svg.find(R"(stroke="#e8710a" stroke-width="2" stroke-dasharray="6 3"/>)"),
            std::string::npos);
}

TEST(RenderLaneChart, LabelsMarksWhereThereIsRoomAndGivesEachATooltip) {
  LaneChartSpec spec;
  spec.title = "run";
  spec.lanes = {"up"};
  spec.colors = {"#111"};
  spec.x_max = 90;  // ends at 90, not at the round 100
  spec.width = 416;
  spec.markers = {{30, "Phase 2"}};
  spec.bands = {{60, 90, "ICE"}};
  const std::string svg = RenderLaneChart(
      spec, {{0, 0, "ScaleUp", "ScaleUp at 0.0 s: nodes=2, pods=7"}, {1, 0, "ScaleUp", "second"}});
  EXPECT_NE(svg.find("<title>ScaleUp at 0.0 s: nodes=2, pods=7</title>"), std::string::npos);
  EXPECT_NE(svg.find("<title>second</title>"), std::string::npos);
  EXPECT_EQ(Count(svg, ">ScaleUp</text>"), 1u);  // the second would overwrite the first
  EXPECT_EQ(svg.find(">100</text>"), std::string::npos);
  // One 20 px lane leaves room for four bytes of the step's label; its tooltip has all of it.
  EXPECT_NE(svg.find(">Phas\u2026</text>"), std::string::npos);
  EXPECT_NE(svg.find("<title>Phase 2</title>"), std::string::npos);
  EXPECT_NE(svg.find("<title>ICE</title>"), std::string::npos);
  // x 30 of 0..90 on 96..400.
  EXPECT_NE(svg.find(R"(x1="197.3")"), std::string::npos) << svg;
}

}  // namespace
}  // namespace karpenter::sim
