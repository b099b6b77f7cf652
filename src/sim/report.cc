#include "src/sim/report.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>
#include <vector>

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

void EncodePercentiles(api::JsonWriter& json, std::string_view key, const Percentiles& value) {
  json.Key(key);
  json.BeginObject();
  Number(json, "p50", value.p50);
  Number(json, "p95", value.p95);
  Number(json, "max", value.max);
  json.EndObject();
}

void EncodeRun(api::JsonWriter& json, const RunResult& run) {
  json.BeginObject();
  EncodePercentiles(json, "podPendingSeconds", run.pod_pending_seconds);
  json.Key("nodeReadySeconds");
  json.BeginObject();
  Number(json, "p50", run.node_ready_seconds.p50);
  Number(json, "p95", run.node_ready_seconds.p95);
  json.EndObject();
  json.Key("costPerHour");
  json.BeginObject();
  Number(json, "mean", run.cost_per_hour_mean, 4);
  Number(json, "final", run.cost_per_hour_final, 4);
  json.Key("byCapacityType");
  json.BeginObject();
  for (const auto& [capacity_type, by_type] : run.by_capacity_type) {
    json.Key(capacity_type);
    json.BeginObject();
    Number(json, "mean", by_type.cost_per_hour_mean, 4);
    Number(json, "final", by_type.cost_per_hour_final, 4);
    json.EndObject();
  }
  json.EndObject();
  json.EndObject();
  json.Key("nodes");
  json.BeginObject();
  json.Key("max");
  json.Int(static_cast<int64_t>(run.nodes_max));
  json.Key("final");
  json.Int(static_cast<int64_t>(run.nodes_final));
  json.Key("byCapacityType");
  json.BeginObject();
  for (const auto& [capacity_type, by_type] : run.by_capacity_type) {
    json.Key(capacity_type);
    json.BeginObject();
    json.Key("max");
    json.Int(static_cast<int64_t>(by_type.nodes_max));
    json.Key("final");
    json.Int(static_cast<int64_t>(by_type.nodes_final));
    json.EndObject();
  }
  json.EndObject();
  json.EndObject();
  json.Key("evictions");
  json.Int(run.evictions);
  json.Key("unschedulablePods");
  json.Int(static_cast<int64_t>(run.unschedulable_pods));
  json.Key("podSets");
  json.BeginObject();
  for (PodSet set : kPodSets) {
    const PodSetResult& figures = run.pod_sets[static_cast<size_t>(set)];
    json.Key(PodSetName(set));
    json.BeginObject();
    json.Key("pods");
    json.Int(static_cast<int64_t>(figures.pods));
    EncodePercentiles(json, "pendingSeconds", figures.pending_seconds);
    json.Key("evictions");
    json.Int(figures.evictions);
    json.Key("waitedForCapacity");
    json.BeginObject();
    json.Key("pods");
    json.Int(static_cast<int64_t>(figures.waited_pods));
    EncodePercentiles(json, "pendingSeconds", figures.waited_pending_seconds);
    json.EndObject();
    json.EndObject();
  }
  json.EndObject();
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

namespace {

// A table row: per run, one or two figures printed "a / b" with `decimals`.
struct Row {
  std::string label;
  int decimals = 0;
  std::function<std::vector<double>(const RunResult&)> figures;
};

std::string Cell(const std::vector<double>& figures, int decimals, bool sign) {
  std::string cell;
  for (double figure : figures) {
    if (!cell.empty()) cell += " / ";
    if (figure == 0) figure = 0;  // no "-0"
    cell +=
        sign ? fmt::format("{:+.{}f}", figure, decimals) : fmt::format("{:.{}f}", figure, decimals);
  }
  return cell;
}

std::vector<Row> Rows(const SimReport& report) {
  auto size = [](size_t value) { return static_cast<double>(value); };
  std::vector<Row> rows = {
      {"pod pending p50 / p95 (s)", 1,
       [](const RunResult& r) {
         return std::vector{r.pod_pending_seconds.p50, r.pod_pending_seconds.p95};
       }},
      {"pod pending max (s)", 1,
       [](const RunResult& r) { return std::vector{r.pod_pending_seconds.max}; }},
      {"pods measured", 0, [&](const RunResult& r) { return std::vector{size(r.pods_measured)}; }},
  };
  for (PodSet set : kPodSets) {
    const size_t index = static_cast<size_t>(set);
    // The workload set always; the others when some run has them.
    const bool any = std::any_of(report.runs.begin(), report.runs.end(), [&](const RunResult& r) {
      return r.pod_sets[index].pods > 0 || r.pod_sets[index].evictions > 0;
    });
    if (set != PodSet::kWorkload && !any) continue;
    const std::string name(PodSetName(set));
    rows.push_back({name + " pods / evictions", 0, [=](const RunResult& r) {
                      return std::vector{size(r.pod_sets[index].pods),
                                         static_cast<double>(r.pod_sets[index].evictions)};
                    }});
    rows.push_back({"  pending p50 / p95 (s)", 1, [=](const RunResult& r) {
                      const Percentiles& pending = r.pod_sets[index].pending_seconds;
                      return std::vector{pending.p50, pending.p95};
                    }});
    rows.push_back({"  waited for capacity", 0, [=](const RunResult& r) {
                      return std::vector{size(r.pod_sets[index].waited_pods)};
                    }});
    rows.push_back({"    their pending p50 / p95 (s)", 1, [=](const RunResult& r) {
                      const Percentiles& pending = r.pod_sets[index].waited_pending_seconds;
                      return std::vector{pending.p50, pending.p95};
                    }});
  }
  rows.push_back({"node ready p50 / p95 (s)", 1, [](const RunResult& r) {
                    return std::vector{r.node_ready_seconds.p50, r.node_ready_seconds.p95};
                  }});
  rows.push_back(
      {"nodes launched / removed", 0, [&](const RunResult& r) {
         return std::vector{size(r.nodes_launched), static_cast<double>(r.nodes_terminated)};
       }});
  rows.push_back({"cost $/h mean / final", 2, [](const RunResult& r) {
                    return std::vector{r.cost_per_hour_mean, r.cost_per_hour_final};
                  }});
  auto by_type = [](const RunResult& r, const std::string& capacity_type) {
    auto it = r.by_capacity_type.find(capacity_type);
    return it == r.by_capacity_type.end() ? CapacityTypeResult{} : it->second;
  };
  std::set<std::string> capacity_types;
  for (const RunResult& run : report.runs) {
    for (const auto& [capacity_type, figures] : run.by_capacity_type) {
      capacity_types.insert(capacity_type);
    }
  }
  for (const std::string& capacity_type : capacity_types) {
    rows.push_back({"  " + capacity_type, 2, [=](const RunResult& r) {
                      const CapacityTypeResult figures = by_type(r, capacity_type);
                      return std::vector{figures.cost_per_hour_mean, figures.cost_per_hour_final};
                    }});
  }
  rows.push_back({"nodes max / final", 0, [&](const RunResult& r) {
                    return std::vector{size(r.nodes_max), size(r.nodes_final)};
                  }});
  for (const std::string& capacity_type : capacity_types) {
    rows.push_back({"  " + capacity_type, 0, [=](const RunResult& r) {
                      const CapacityTypeResult figures = by_type(r, capacity_type);
                      return std::vector{size(figures.nodes_max), size(figures.nodes_final)};
                    }});
  }
  rows.push_back({"evictions (API or drain)", 0, [](const RunResult& r) {
                    return std::vector{static_cast<double>(r.evictions)};
                  }});
  rows.push_back({"unschedulable at end", 0,
                  [&](const RunResult& r) { return std::vector{size(r.unschedulable_pods)}; }});
  return rows;
}

// "3.1x faster" / "2.0x slower" / "as fast": how `ours` compares with `theirs` (less is better).
std::string Ratio(double ours, double theirs, std::string_view better, std::string_view worse,
                  std::string_view equal) {
  if (ours == theirs) return std::string(equal);
  if (ours <= 0 || theirs <= 0) return std::string(ours < theirs ? better : worse);
  return ours < theirs ? fmt::format("{:.1f}x {}", theirs / ours, better)
                       : fmt::format("{:.1f}x {}", ours / theirs, worse);
}

}  // namespace

std::string ReportVerdict(const SimReport& report) {
  if (report.runs.size() != 2) return "";
  const RunResult& first = report.runs[0];
  const RunResult& second = report.runs[1];
  const std::string first_name(AutoscalerName(first.autoscaler));
  const std::string second_name(AutoscalerName(second.autoscaler));
  const PodSetResult& ours = first.pod_sets[static_cast<size_t>(PodSet::kWorkload)];
  const PodSetResult& theirs = second.pod_sets[static_cast<size_t>(PodSet::kWorkload)];
  std::string verdict = "Verdict: " + first_name;
  // Most workload pods usually land on capacity already there; the pods that had to wait
  // for an autoscaler are where the two differ.
  if (ours.waited_pods > 0 && theirs.waited_pods > 0) {
    verdict += fmt::format(
        "'s workload pods that waited for capacity ({} of {}) waited p50 {:.1f} s against "
        "{:.1f} s ({} of {}) under {} ({}),",
        ours.waited_pods, ours.pods, ours.waited_pending_seconds.p50,
        theirs.waited_pending_seconds.p50, theirs.waited_pods, theirs.pods, second_name,
        Ratio(ours.waited_pending_seconds.p50, theirs.waited_pending_seconds.p50, "faster",
              "slower", "as fast"));
  } else {
    verdict += fmt::format(" ran {} workload pods against {} under {},", ours.pods, theirs.pods,
                           second_name);
  }
  verdict += fmt::format(" at a mean ${:.2f}/h against ${:.2f}/h ({}).", first.cost_per_hour_mean,
                         second.cost_per_hour_mean,
                         Ratio(first.cost_per_hour_mean, second.cost_per_hour_mean, "cheaper",
                               "dearer", "the same cost"));
  return verdict + "\n";
}

std::vector<ComparisonRow> ComparisonTable(const SimReport& report) {
  const bool delta = report.runs.size() == 2;
  std::vector<ComparisonRow> table;
  for (const Row& row : Rows(report)) {
    ComparisonRow out{.label = row.label, .cells = {}, .delta = ""};
    std::vector<std::vector<double>> figures;
    for (const RunResult& run : report.runs) {
      figures.push_back(row.figures(run));
      out.cells.push_back(Cell(figures.back(), row.decimals, false));
    }
    if (delta) {
      std::vector<double> difference;
      for (size_t i = 0; i < figures[0].size(); ++i) {
        difference.push_back(figures[0][i] - figures[1][i]);
      }
      out.delta = Cell(difference, row.decimals, true);
    }
    table.push_back(std::move(out));
  }
  return table;
}

std::string RenderReportText(const SimReport& report, double wall_seconds) {
  constexpr int kLabelWidth = 30;
  constexpr int kColumnWidth = 20;
  std::string out =
      fmt::format("Scenario {} (seed {}), {} simulated seconds in {} s\n\n", report.scenario,
                  report.seed, Fixed(report.simulated_seconds, 0), Fixed(wall_seconds, 2));
  const bool delta = report.runs.size() == 2;
  out += fmt::format("{:<{}}", "", kLabelWidth);
  for (const RunResult& run : report.runs) {
    out += fmt::format("{:>{}}", AutoscalerName(run.autoscaler), kColumnWidth);
  }
  if (delta) out += fmt::format("{:>{}}", "delta", kColumnWidth);
  out += "\n";
  for (const ComparisonRow& row : ComparisonTable(report)) {
    out += fmt::format("{:<{}}", row.label, kLabelWidth);
    for (const std::string& cell : row.cells) out += fmt::format("{:>{}}", cell, kColumnWidth);
    if (delta) out += fmt::format("{:>{}}", row.delta, kColumnWidth);
    out += "\n";
  }
  if (delta) out += "\n" + ReportVerdict(report);
  return out;
}

}  // namespace karpenter::sim
