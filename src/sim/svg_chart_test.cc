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

}  // namespace
}  // namespace karpenter::sim
