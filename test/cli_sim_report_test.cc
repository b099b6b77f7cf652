// `karpenter sim --report` as a browser paints it: every chart of the page draws something. Each
// chart is screenshot alone in headless Chromium, once as it is and once with its data (the
// elements of class "data": series lines, decision marks) taken out; a chart whose two pictures
// are the same pixels drew nothing.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "test/cli_runner.h"

namespace {

namespace fs = std::filesystem;

using karpenter::cli_test::ReadTextFile;

fs::path TempPath(const std::string& name) {
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  return fs::temp_directory_path() /
         ("kp_cli_sim_report_" + std::string(test ? test->name() : "none") + "_" + name);
}

bool HasChromium() { return std::system("command -v chromium >/dev/null 2>&1") == 0; }

// Every <svg>…</svg> of the page, in order.
std::vector<std::string> Charts(const std::string& html) {
  std::vector<std::string> charts;
  for (size_t at = html.find("<svg "); at != std::string::npos; at = html.find("<svg ", at)) {
    const size_t end = html.find("</svg>", at);
    if (end == std::string::npos) break;
    charts.push_back(html.substr(at, end + 6 - at));
    at = end;
  }
  return charts;
}

// The chart without its data: the test hook that makes an empty chart out of a full one.
std::string WithoutData(std::string svg) {
  for (const auto& [open, close] :
       {std::pair<std::string, std::string>{"<path class=\"data\"", "/>"},
        {"<g class=\"data\">", "</g>"}}) {
    for (size_t at = svg.find(open); at != std::string::npos; at = svg.find(open, at)) {
      svg.erase(at, svg.find(close, at) + close.size() - at);
    }
  }
  return svg;
}

// Chromium's PNG of a page holding just `svg`.
std::string Screenshot(const std::string& svg, const std::string& name) {
  const fs::path page = TempPath(name + ".html");
  const fs::path png = TempPath(name + ".png");
  {
    std::ofstream out(page);
    out << "<!DOCTYPE html><html><body style=\"margin:0\">" << svg << "</body></html>";
  }
  fs::remove(png);
  const std::string command =
      "timeout 120 chromium --headless --disable-gpu --no-sandbox --hide-scrollbars "
      "--window-size=1320,400 --screenshot=" +
      png.string() + " file://" + page.string() + " >/dev/null 2>&1";
  if (std::system(command.c_str()) != 0 || !fs::exists(png)) return "";
  return ReadTextFile(png.string());
}

// The indexes of the charts whose screenshot does not change when their data is taken out.
std::vector<size_t> ChartsThatDrawNothing(const std::vector<std::string>& charts) {
  std::vector<size_t> empty;
  for (size_t i = 0; i < charts.size(); ++i) {
    const std::string with = Screenshot(charts[i], "chart" + std::to_string(i));
    const std::string without = Screenshot(WithoutData(charts[i]), "bare" + std::to_string(i));
    EXPECT_FALSE(with.empty() || without.empty()) << "chromium failed on chart " << i;
    if (with == without) empty.push_back(i);
  }
  return empty;
}

std::string BuiltinReport() {
  const fs::path page = TempPath("report.html");
  const auto run =
      karpenter::cli_test::RunKarpenterCommandLine("sim --seed 1 --report " + page.string());
  EXPECT_EQ(run.exit_code, 0) << run.err;
  return ReadTextFile(page.string());
}

TEST(CliSimReport, EveryChartOfTheBuiltinScenarioDrawsSomething) {
  if (!HasChromium())
    GTEST_SKIP() << "chromium is not installed (scripts/setup.sh --with-chromium)";
  const std::vector<std::string> charts = Charts(BuiltinReport());
  ASSERT_EQ(charts.size(), 11u);
  EXPECT_EQ(ChartsThatDrawNothing(charts), std::vector<size_t>{});
}

// The check above can fail: a chart emptied of its data is caught, its full neighbour is not.
TEST(CliSimReport, AnEmptyChartIsCaught) {
  if (!HasChromium())
    GTEST_SKIP() << "chromium is not installed (scripts/setup.sh --with-chromium)";
  const std::vector<std::string> charts = Charts(BuiltinReport());
  ASSERT_GE(charts.size(), 4u);
  EXPECT_EQ(ChartsThatDrawNothing({charts[3], WithoutData(charts[4])}), std::vector<size_t>{1});
}

}  // namespace
