#include "src/sim/report_html.h"

#include <array>
#include <functional>

#include "fmt/format.h"
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
)";

constexpr std::array<std::string_view, 4> kRunColors = {"#1f77b4", "#e8710a", "#2ca02c", "#9467bd"};

std::string RunColor(size_t index) { return std::string(kRunColors[index % kRunColors.size()]); }

std::string RunName(const RunResult& run) { return std::string(AutoscalerName(run.autoscaler)); }

void HeadlineRow(std::string& html, std::string_view label, const SimReport& report,
                 const std::function<std::string(const RunResult&)>& value) {
  html += fmt::format("<tr><td>{}</td>", EscapeXml(label));
  for (const RunResult& run : report.runs) html += "<td>" + EscapeXml(value(run)) + "</td>";
  html += "</tr>\n";
}

std::string Seconds(double value) { return fmt::format("{:.1f} s", value); }
std::string Dollars(double value) { return fmt::format("${:.4f}/h", value); }

void Headline(std::string& html, const SimReport& report) {
  html += "<section id=\"headline\"><h2>Headline figures</h2><table>\n<tr><th></th>";
  for (size_t i = 0; i < report.runs.size(); ++i) {
    html += fmt::format(R"(<th><span class="swatch" style="background:{}"></span>{}</th>)",
                        RunColor(i), EscapeXml(RunName(report.runs[i])));
  }
  html += "</tr>\n";
  HeadlineRow(html, "pod pending p50", report,
              [](const RunResult& r) { return Seconds(r.pod_pending_seconds.p50); });
  HeadlineRow(html, "pod pending p95", report,
              [](const RunResult& r) { return Seconds(r.pod_pending_seconds.p95); });
  HeadlineRow(html, "pod pending max", report,
              [](const RunResult& r) { return Seconds(r.pod_pending_seconds.max); });
  HeadlineRow(html, "pods measured", report,
              [](const RunResult& r) { return std::to_string(r.pods_measured); });
  HeadlineRow(html, "node ready p50", report,
              [](const RunResult& r) { return Seconds(r.node_ready_seconds.p50); });
  HeadlineRow(html, "node ready p95", report,
              [](const RunResult& r) { return Seconds(r.node_ready_seconds.p95); });
  HeadlineRow(html, "$/hour mean", report,
              [](const RunResult& r) { return Dollars(r.cost_per_hour_mean); });
  HeadlineRow(html, "$/hour final", report,
              [](const RunResult& r) { return Dollars(r.cost_per_hour_final); });
  HeadlineRow(html, "nodes max", report,
              [](const RunResult& r) { return std::to_string(r.nodes_max); });
  HeadlineRow(html, "nodes final", report,
              [](const RunResult& r) { return std::to_string(r.nodes_final); });
  HeadlineRow(html, "evictions", report,
              [](const RunResult& r) { return std::to_string(r.evictions); });
  HeadlineRow(html, "unschedulable pods at the end", report,
              [](const RunResult& r) { return std::to_string(r.unschedulable_pods); });
  html += "</table></section>\n";
}

std::string SeriesChart(const SimReport& report, const std::string& title,
                        const std::string& y_label,
                        const std::function<double(const ClusterSample&)>& value) {
  std::vector<ChartSeries> series;
  for (size_t i = 0; i < report.runs.size(); ++i) {
    ChartSeries s{RunName(report.runs[i]), RunColor(i), {}};
    for (const ClusterSample& sample : report.runs[i].samples) {
      s.points.emplace_back(sample.seconds, value(sample));
    }
    series.push_back(std::move(s));
  }
  LineChartSpec spec{title, "simulated time (s)", y_label};
  spec.step = true;
  return RenderLineChart(spec, series);
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

// Empirical CDF as a step line: the share of measured pods bound within x seconds.
void PendingDistribution(std::string& html, const SimReport& report) {
  html += "<section id=\"pending-distribution\"><h2>Pod pending time</h2>\n";
  std::vector<ChartSeries> series;
  for (size_t i = 0; i < report.runs.size(); ++i) {
    const std::vector<double>& samples = report.runs[i].pod_pending_samples;
    ChartSeries s{RunName(report.runs[i]), RunColor(i), {}};
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

void Timeline(std::string& html, const SimReport& report) {
  html += "<section id=\"timeline\"><h2>Decisions</h2><div class=\"charts\">\n";
  for (const RunResult& run : report.runs) {
    LaneChartSpec spec;
    spec.title = RunName(run);
    spec.lanes = {"scale-up", "launch", "node ready", "scale-down", "ICE / fault"};
    spec.colors = {"#1f77b4", "#9467bd", "#2ca02c", "#7f7f7f", "#d62728"};
    spec.x_max = report.simulated_seconds;
    spec.x_label = "simulated time (s)";
    std::vector<LaneMark> marks;
    for (const TimelineMark& mark : run.timeline) {
      marks.push_back({MillisToSeconds(mark.at), static_cast<int>(mark.lane)});
    }
    html += RenderLaneChart(spec, marks);
    html += "\n";
  }
  html += "</div></section>\n";
}

}  // namespace

std::string RenderReportHtml(const SimReport& report) {
  std::string html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n";
  html += fmt::format("<title>karpenter sim: {}</title>\n<style>{}</style></head><body>\n",
                      EscapeXml(report.scenario), kStyle);
  html += fmt::format("<h1>karpenter sim: {}</h1>\n", EscapeXml(report.scenario));
  html += fmt::format(
      "<p class=\"meta\">scenario <b>{}</b> &middot; seed {} &middot; {} simulated seconds "
      "({:.1f} min)</p>\n",
      EscapeXml(report.scenario), report.seed, fmt::format("{:g}", report.simulated_seconds),
      report.simulated_seconds / 60);
  Headline(html, report);
  TimeSeries(html, report);
  PendingDistribution(html, report);
  Timeline(html, report);
  html +=
      "<footer>Generated by <code>karpenter sim</code>; the same scenario and seed give the same "
      "page.</footer>\n</body></html>\n";
  return html;
}

}  // namespace karpenter::sim
