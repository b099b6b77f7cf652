#include "src/sim/report_html.h"

#include <algorithm>
#include <array>
#include <functional>
#include <iterator>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/strip.h"
#include "fmt/format.h"
#include "src/sim/report.h"
#include "src/sim/svg_chart.h"

namespace karpenter::sim {
namespace {

constexpr std::string_view kStyle = R"(
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px auto;
max-width:1320px;color:#222;background:#fff}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px}
.meta{color:#555;margin:0 0 16px}
table{border-collapse:collapse;font-variant-numeric:tabular-nums}
th,td{padding:4px 14px;border-bottom:1px solid #ddd;text-align:right}
th:first-child,td:first-child{text-align:left}
.charts{display:flex;flex-wrap:wrap;gap:12px}
svg{background:#fff;border:1px solid #e4e4e4;border-radius:4px}
.title{font-size:14px;font-weight:600}.tick{font-size:11px;fill:#444}
.axis{font-size:12px;fill:#222}.legend{font-size:12px}
.swatch{display:inline-block;width:12px;height:12px;border-radius:2px;margin-right:6px}
footer{margin-top:32px;color:#777;font-size:12px}
.description{max-width:900px}.marker-label{font-size:10px;fill:#555}
.mark-label{font-size:9px;fill:#333}
.verdict{max-width:900px;font-weight:600}
tr.depth1 td:first-child{padding-left:30px}tr.depth2 td:first-child{padding-left:46px}
td.delta{color:#555}
)";

constexpr std::array<std::string_view, 4> kRunColors = {"#1f77b4", "#e8710a", "#2ca02c", "#9467bd"};

constexpr std::array<std::string_view, 8> kSeriesColors = {
    "#1f77b4", "#e8710a", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};

// Instance types drawn one line each; the others share one line.
constexpr size_t kInstanceTypeLines = 6;

std::string RunColor(size_t index) { return std::string(kRunColors[index % kRunColors.size()]); }

// The first run's line wide and faint, the others narrow and dashed on top of it: where two
// autoscalers coincide both stay visible.
ChartSeries RunSeries(const SimReport& report, size_t index, std::string name) {
  ChartSeries series{std::move(name), RunColor(index), {}};
  if (index == 0 && report.runs.size() > 1) {
    series.width = 4;
    series.opacity = 0.5;
  }
  if (index > 0) series.dash = "6 3";
  return series;
}

std::string RunName(const RunResult& run) { return std::string(AutoscalerName(run.autoscaler)); }

// The text report's side-by-side table (pod sets, capacity types, the delta column) and its
// verdict: the page compares the same pods as the terminal does.
void Headline(std::string& html, const SimReport& report) {
  html += "<section id=\"headline\"><h2>Headline figures</h2>\n";
  const std::string verdict = ReportVerdict(report);
  if (!verdict.empty()) {
    html += "<p class=\"verdict\">" + EscapeXml(std::string(absl::StripAsciiWhitespace(verdict))) +
            "</p>\n";
  }
  html += "<table>\n<tr><th></th>";
  for (size_t i = 0; i < report.runs.size(); ++i) {
    html += fmt::format(R"(<th><span class="swatch" style="background:{}"></span>{}</th>)",
                        RunColor(i), EscapeXml(RunName(report.runs[i])));
  }
  const bool delta = report.runs.size() == 2;
  if (delta) html += "<th>delta</th>";
  html += "</tr>\n";
  for (const ComparisonRow& row : ComparisonTable(report)) {
    // The text's indentation, as a depth the style sheet indents by.
    const size_t indent = row.label.find_first_not_of(' ');
    const size_t depth = indent == std::string::npos ? 0 : indent / 2;
    html += fmt::format("<tr class=\"depth{}\"><td>{}</td>", depth,
                        EscapeXml(row.label.substr(indent == std::string::npos ? 0 : indent)));
    for (const std::string& cell : row.cells) html += "<td>" + EscapeXml(cell) + "</td>";
    if (delta) html += "<td class=\"delta\">" + EscapeXml(row.delta) + "</td>";
    html += "</tr>\n";
  }
  html += "</table></section>\n";
}

// A time chart's frame: the axis in minutes or hours ending at the run's end, the scenario's
// steps as markers and its fault windows as bands.
LineChartSpec TimeChartSpec(const SimReport& report, std::string title, std::string y_label) {
  const TimeUnit unit = TimeUnitFor(report.simulated_seconds);
  LineChartSpec spec{std::move(title), "simulated time (" + unit.name + ")", std::move(y_label)};
  spec.step = true;
  spec.height = 300;  // room for a step's label down its marker
  spec.x_end = report.simulated_seconds / unit.seconds;
  for (const StepMarker& step : report.steps) {
    spec.markers.push_back({step.seconds / unit.seconds, step.label});
  }
  for (const FaultWindow& fault : report.faults) {
    spec.bands.push_back(
        {fault.from_seconds / unit.seconds, fault.to_seconds / unit.seconds, fault.label});
  }
  return spec;
}

double InUnit(const SimReport& report, double seconds) {
  return seconds / TimeUnitFor(report.simulated_seconds).seconds;
}

std::string SeriesChart(const SimReport& report, const std::string& title,
                        const std::string& y_label,
                        const std::function<double(const ClusterSample&)>& value) {
  std::vector<ChartSeries> series;
  for (size_t i = 0; i < report.runs.size(); ++i) {
    ChartSeries s = RunSeries(report, i, RunName(report.runs[i]));
    for (const ClusterSample& sample : report.runs[i].samples) {
      s.points.emplace_back(InUnit(report, sample.seconds), value(sample));
    }
    series.push_back(std::move(s));
  }
  return RenderLineChart(TimeChartSpec(report, title, y_label), series);
}

void TimeSeries(std::string& html, const SimReport& report) {
  html += "<section id=\"time-series\"><h2>Over simulated time</h2><div class=\"charts\">\n";
  html += SeriesChart(report, "Nodes", "nodes",
                      [](const ClusterSample& s) { return static_cast<double>(s.nodes); });
  html += "\n";
  html += SeriesChart(report, "Pending pods", "pods",
                      [](const ClusterSample& s) { return static_cast<double>(s.pending_pods); });
  html += "\n";
  html += SeriesChart(report, "Cost", "$ per hour",
                      [](const ClusterSample& s) { return s.cost_per_hour; });
  html += "\n</div></section>\n";
}

using Breakdown = std::map<std::string, size_t, std::less<>>;

// One line per key of a run's per-sample breakdown, `always` first (drawn even when zero), then
// the keys by peak count (ties by name) up to `max_lines` lines, the rest summed as "other".
std::vector<ChartSeries> BreakdownSeries(
    const SimReport& report, const RunResult& run,
    const std::function<const Breakdown&(const ClusterSample&)>& by,
    const std::vector<std::string>& always, size_t max_lines) {
  std::map<std::string, size_t, std::less<>> peak;
  for (const ClusterSample& sample : run.samples) {
    for (const auto& [key, count] : by(sample)) peak[key] = std::max(peak[key], count);
  }
  std::vector<std::string> keys = always;
  std::vector<std::pair<size_t, std::string>> ranked;
  for (const auto& [key, count] : peak) {
    if (std::find(always.begin(), always.end(), key) == always.end())
      ranked.emplace_back(count, key);
  }
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  const bool other = keys.size() + ranked.size() > max_lines;
  for (const auto& [count, key] : ranked) {
    if (keys.size() + (other ? 1 : 0) >= max_lines) break;
    keys.push_back(key);
  }
  std::vector<ChartSeries> series;
  for (size_t k = 0; k <= keys.size(); ++k) {
    if (k == keys.size() && !other) break;
    series.push_back({k < keys.size() ? keys[k] : "other",
                      std::string(kSeriesColors[k % kSeriesColors.size()]),
                      {}});
  }
  for (const ClusterSample& sample : run.samples) {
    const Breakdown& counts = by(sample);
    size_t listed = 0;
    for (size_t k = 0; k < keys.size(); ++k) {
      auto it = counts.find(keys[k]);
      const size_t count = it == counts.end() ? 0 : it->second;
      listed += count;
      series[k].points.emplace_back(InUnit(report, sample.seconds), static_cast<double>(count));
    }
    if (!other) continue;
    size_t total = 0;
    for (const auto& [key, count] : counts) total += count;
    series.back().points.emplace_back(InUnit(report, sample.seconds),
                                      static_cast<double>(total - listed));
  }
  return series;
}

double Percent(double part, double whole) { return whole > 0 ? 100 * part / whole : 0; }

// eks-node-viewer's and the Karpenter dashboards' views: nodes by capacity type and by instance
// type per autoscaler, and requests against allocatable for both.
void Breakdowns(std::string& html, const SimReport& report) {
  html += "<section id=\"breakdowns\"><h2>Nodes and utilisation</h2><div class=\"charts\">\n";
  const std::vector<std::string> capacity_types(kCapacityTypes.begin(), kCapacityTypes.end());
  for (const RunResult& run : report.runs) {
    html += RenderLineChart(
        TimeChartSpec(report, "Nodes by capacity type: " + RunName(run), "nodes"),
        BreakdownSeries(
            report, run,
            [](const ClusterSample& s) -> const Breakdown& { return s.nodes_by_capacity_type; },
            capacity_types, capacity_types.size() + 1));
    html += "\n";
    html += RenderLineChart(
        TimeChartSpec(report, "Nodes by instance type: " + RunName(run), "nodes"),
        BreakdownSeries(
            report, run,
            [](const ClusterSample& s) -> const Breakdown& { return s.nodes_by_instance_type; }, {},
            kInstanceTypeLines + 1));
    html += "\n";
  }
  std::vector<ChartSeries> utilisation;
  for (size_t i = 0; i < report.runs.size(); ++i) {
    ChartSeries cpu{RunName(report.runs[i]) + " cpu", RunColor(i), {}};
    ChartSeries memory{RunName(report.runs[i]) + " memory", RunColor(i), {}};
    memory.dash = "2 3";
    for (const ClusterSample& sample : report.runs[i].samples) {
      const double at = InUnit(report, sample.seconds);
      cpu.points.emplace_back(at, Percent(sample.cpu_requested, sample.cpu_allocatable));
      memory.points.emplace_back(at, Percent(sample.memory_requested, sample.memory_allocatable));
    }
    utilisation.push_back(std::move(cpu));
    utilisation.push_back(std::move(memory));
  }
  LineChartSpec spec = TimeChartSpec(report, "Requests / allocatable", "% of allocatable");
  spec.width = 1300;
  html += RenderLineChart(spec, utilisation);
  html += "\n</div></section>\n";
}

// The scenario's own words and its trace: the description, every marked step and fault window.
void ScenarioSection(std::string& html, const SimReport& report) {
  html += "<section id=\"scenario\"><h2>Scenario</h2>\n";
  if (!report.description.empty()) {
    html += "<p class=\"description\">" + EscapeXml(report.description) + "</p>\n";
  }
  const TimeUnit unit = TimeUnitFor(report.simulated_seconds);
  html += "<ul>\n";
  for (const StepMarker& step : report.steps) {
    html += fmt::format("<li>{:.1f} {}: {}</li>\n", step.seconds / unit.seconds, unit.name,
                        EscapeXml(step.label));
  }
  for (const FaultWindow& fault : report.faults) {
    html += fmt::format("<li>{:.1f}&ndash;{:.1f} {} (shaded): {}</li>\n",
                        fault.from_seconds / unit.seconds, fault.to_seconds / unit.seconds,
                        unit.name, EscapeXml(fault.label));
  }
  html += "</ul></section>\n";
}

// Empirical CDF as a step line: the share of measured pods bound within x seconds.
void PendingDistribution(std::string& html, const SimReport& report) {
  html += "<section id=\"pending-distribution\"><h2>Pod pending time</h2>\n";
  std::vector<ChartSeries> series;
  for (size_t i = 0; i < report.runs.size(); ++i) {
    const std::vector<double>& samples = report.runs[i].pod_pending_samples;
    ChartSeries s = RunSeries(report, i, RunName(report.runs[i]));
    if (!samples.empty()) s.points.emplace_back(0, 0);
    for (size_t k = 0; k < samples.size(); ++k) {
      s.points.emplace_back(
          samples[k], 100.0 * static_cast<double>(k + 1) / static_cast<double>(samples.size()));
    }
    series.push_back(std::move(s));
  }
  LineChartSpec spec{"Share of pods bound within t (CDF)", "pending time t (s)",
                     "% of measured pods"};
  spec.step = true;
  html += RenderLineChart(spec, series);
  html += "</section>\n";
}

// The run's $/hour at `seconds`: the last sample at or before it.
double CostAt(const RunResult& run, double seconds) {
  auto after = std::upper_bound(
      run.samples.begin(), run.samples.end(), seconds,
      [](double value, const ClusterSample& sample) { return value < sample.seconds; });
  return after == run.samples.begin() ? 0 : std::prev(after)->cost_per_hour;
}

void Timeline(std::string& html, const SimReport& report) {
  html += "<section id=\"timeline\"><h2>Decisions</h2><div class=\"charts\">\n";
  const LineChartSpec frame = TimeChartSpec(report, "", "");
  for (const RunResult& run : report.runs) {
    LaneChartSpec spec;
    spec.title = RunName(run);
    spec.lanes = {"scale-up", "launch", "node ready", "scale-down", "ICE / fault"};
    spec.colors = {"#1f77b4", "#9467bd", "#2ca02c", "#7f7f7f", "#d62728"};
    spec.x_max = *frame.x_end;
    spec.x_label = frame.x_label;
    spec.markers = frame.markers;
    spec.bands = frame.bands;
    std::vector<LaneMark> marks;
    for (const TimelineMark& mark : run.timeline) {
      const double seconds = MillisToSeconds(mark.at);
      std::string tooltip = fmt::format("{} at {:.1f} s", mark.event, seconds);
      if (!mark.detail.empty()) tooltip += ": " + mark.detail;
      tooltip += fmt::format("; cluster at ${:.4f}/h", CostAt(run, seconds));
      marks.push_back(
          {InUnit(report, seconds), static_cast<int>(mark.lane), mark.event, std::move(tooltip)});
    }
    html += RenderLaneChart(spec, marks);
    html += "\n";
  }
  html += "</div></section>\n";
}

}  // namespace

std::string RenderReportHtml(const SimReport& report, const ReportFrame& frame) {
  const std::string command = EscapeXml(frame.command);
  std::string html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n";
  html += fmt::format("<title>{}: {}</title>\n<style>{}</style></head><body>\n", command,
                      EscapeXml(report.scenario), kStyle);
  html += fmt::format("<h1>{}: {}</h1>\n", command, EscapeXml(report.scenario));
  html += fmt::format(
      "<p class=\"meta\">scenario <b>{}</b> &middot; seed {} &middot; {} simulated seconds "
      "({:.1f} min)</p>\n",
      EscapeXml(report.scenario), report.seed, fmt::format("{:g}", report.simulated_seconds),
      report.simulated_seconds / 60);
  html += frame.lead_section;
  ScenarioSection(html, report);
  Headline(html, report);
  TimeSeries(html, report);
  Breakdowns(html, report);
  PendingDistribution(html, report);
  Timeline(html, report);
  html += fmt::format(
      "<footer>Generated by <code>{}</code>; the same scenario and seed give the same "
      "page.</footer>\n</body></html>\n",
      command);
  return html;
}

}  // namespace karpenter::sim
