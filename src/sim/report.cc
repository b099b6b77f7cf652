#include "src/sim/report.h"

#include <cmath>
#include <functional>

#include "fmt/format.h"
#include "src/api/json_writer.h"

namespace karpenter::sim {
namespace {

std::string Fixed(double value, int decimals) {
  const double scale = std::pow(10.0, decimals);
  double rounded = std::round(value * scale) / scale;
  if (rounded == 0) rounded = 0;  // no "-0"
  std::string text = fmt::format("{:.{}f}", rounded, decimals);
  // Trailing zeros carry no information and would make equal values print differently.
  while (text.find('.') != std::string::npos && (text.back() == '0' || text.back() == '.')) {
    const bool dot = text.back() == '.';
    text.pop_back();
    if (dot) break;
  }
  return text;
}

void Number(api::JsonWriter& json, std::string_view key, double value, int decimals = 3) {
  json.Key(key);
  json.Raw(Fixed(value, decimals));
}

void EncodeRun(api::JsonWriter& json, const RunResult& run) {
  json.BeginObject();
  json.Key("podPendingSeconds");
  json.BeginObject();
  Number(json, "p50", run.pod_pending_seconds.p50);
  Number(json, "p95", run.pod_pending_seconds.p95);
  Number(json, "max", run.pod_pending_seconds.max);
  json.EndObject();
  json.Key("nodeReadySeconds");
  json.BeginObject();
  Number(json, "p50", run.node_ready_seconds.p50);
  Number(json, "p95", run.node_ready_seconds.p95);
  json.EndObject();
  json.Key("costPerHour");
  json.BeginObject();
  Number(json, "mean", run.cost_per_hour_mean, 4);
  Number(json, "final", run.cost_per_hour_final, 4);
  json.EndObject();
  json.Key("nodes");
  json.BeginObject();
  json.Key("max");
  json.Int(static_cast<int64_t>(run.nodes_max));
  json.Key("final");
  json.Int(static_cast<int64_t>(run.nodes_final));
  json.EndObject();
  json.Key("evictions");
  json.Int(run.evictions);
  json.Key("unschedulablePods");
  json.Int(static_cast<int64_t>(run.unschedulable_pods));
  json.EndObject();
}

}  // namespace

std::string EncodeReportJson(const SimReport& report, double wall_seconds) {
  api::JsonWriter json;
  json.BeginObject();
  json.Key("autoscalers");
  json.BeginObject();
  for (const RunResult& run : report.runs) {
    json.Key(AutoscalerName(run.autoscaler));
    EncodeRun(json, run);
  }
  json.EndObject();
  Number(json, "simulatedSeconds", report.simulated_seconds);
  Number(json, "wallSeconds", wall_seconds);
  json.Key("seed");
  json.Int(static_cast<int64_t>(report.seed));
  json.EndObject();
  return json.Take();
}

std::string RenderReportText(const SimReport& report, double wall_seconds) {
  std::string out =
      fmt::format("Scenario {} (seed {}), {} simulated seconds in {} s\n\n", report.scenario,
                  report.seed, Fixed(report.simulated_seconds, 0), Fixed(wall_seconds, 2));
  out += fmt::format("{:<28}", "");
  for (const RunResult& run : report.runs)
    out += fmt::format("{:>20}", AutoscalerName(run.autoscaler));
  out += "\n";
  auto row = [&](std::string_view label, const std::function<std::string(const RunResult&)>& cell) {
    out += fmt::format("{:<28}", label);
    for (const RunResult& run : report.runs) out += fmt::format("{:>20}", cell(run));
    out += "\n";
  };
  row("pod pending p50 / p95 (s)", [](const RunResult& r) {
    return fmt::format("{:.1f} / {:.1f}", r.pod_pending_seconds.p50, r.pod_pending_seconds.p95);
  });
  row("pod pending max (s)",
      [](const RunResult& r) { return fmt::format("{:.1f}", r.pod_pending_seconds.max); });
  row("pods measured", [](const RunResult& r) { return std::to_string(r.pods_measured); });
  row("node ready p50 / p95 (s)", [](const RunResult& r) {
    return fmt::format("{:.1f} / {:.1f}", r.node_ready_seconds.p50, r.node_ready_seconds.p95);
  });
  row("nodes launched / removed", [](const RunResult& r) {
    return fmt::format("{} / {}", r.nodes_launched, r.nodes_terminated);
  });
  row("cost $/h mean / final", [](const RunResult& r) {
    return fmt::format("{:.2f} / {:.2f}", r.cost_per_hour_mean, r.cost_per_hour_final);
  });
  row("nodes max / final",
      [](const RunResult& r) { return fmt::format("{} / {}", r.nodes_max, r.nodes_final); });
  row("evictions", [](const RunResult& r) { return std::to_string(r.evictions); });
  row("unschedulable at end",
      [](const RunResult& r) { return std::to_string(r.unschedulable_pods); });
  return out;
}

}  // namespace karpenter::sim
