#include "src/bench/scheduling_report.h"

#include "fmt/format.h"
#include "nlohmann/json.hpp"

namespace karpenter::bench {
namespace {

std::optional<double> PodsPerSecond(const SchedulingReport& report) {
  if (!report.solve || report.solve->seconds <= 0) return std::nullopt;
  return static_cast<double>(report.pods) / report.solve->seconds;
}

std::optional<double> CostRatio(const SchedulingReport& report, double bound) {
  // The bound covers every pod; against a partial placement the ratio would flatter it.
  if (!report.solve || report.solve->unschedulable > 0 || bound <= 0) return std::nullopt;
  return report.solve->price_per_hour / bound;
}

nlohmann::ordered_json GapJson(const GapBreakdown& gap) {
  nlohmann::ordered_json out;
  out["cost"] = gap.cost;
  out["bound"] = gap.bound;
  out["idleCpu"] = gap.idle_cpu;
  out["idleMemory"] = gap.idle_memory;
  out["idlePods"] = gap.idle_pods;
  out["premium"] = gap.premium;
  return out;
}

template <class T>
nlohmann::json OrNull(const std::optional<T>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

}  // namespace

std::string ReportJson(const SchedulingReport& report) {
  nlohmann::ordered_json out;
  const std::optional<SolveOutcome>& solve = report.solve;
  out["workload"] = report.workload;
  out["packing"] = report.packing;
  out["claimTies"] = report.claim_ties;
  out["pods"] = report.pods;
  out["instanceTypes"] = report.instance_types;
  out["nodes"] = solve ? nlohmann::json(solve->nodes) : nlohmann::json(nullptr);
  out["nodeFloor"] = report.node_floor;
  out["unschedulable"] = solve ? nlohmann::json(solve->unschedulable) : nlohmann::json(nullptr);
  out["seconds"] = solve ? nlohmann::json(solve->seconds) : nlohmann::json(nullptr);
  out["podsPerSecond"] = OrNull(PodsPerSecond(report));
  out["pricePerHour"] = solve ? nlohmann::json(solve->price_per_hour) : nlohmann::json(nullptr);
  out["lowerBoundPerHour"] = report.lower_bound_per_hour;
  out["costRatio"] = OrNull(CostRatio(report, report.lower_bound_per_hour));
  out["lowerBoundWithFloorPerHour"] = report.lower_bound_with_floor_per_hour;
  out["costRatioWithFloor"] = OrNull(CostRatio(report, report.lower_bound_with_floor_per_hour));
  out["decisionDigest"] = solve ? nlohmann::json(solve->decision_digest) : nlohmann::json(nullptr);
  out["peakRssMB"] = report.peak_rss_mb;
  if (report.gap) out["gap"] = GapJson(*report.gap);
  return out.dump();
}

std::string ReportText(const SchedulingReport& report) {
  std::string text = fmt::format(
      "{}{}: {} pods over {} instance types; node floor {}; fluid bound "
      "${:.4f}/h (${:.4f}/h with the node floor); peak RSS {:.1f} MB",
      report.workload,
      (report.packing == "upstream" ? "" : ", packing " + report.packing) +
          (report.claim_ties == "upstream" ? "" : ", claim ties " + report.claim_ties),
      report.pods, report.instance_types, report.node_floor, report.lower_bound_per_hour,
      report.lower_bound_with_floor_per_hour, report.peak_rss_mb);
  if (!report.solve) return text + "; solve not run";
  const SolveOutcome& solve = *report.solve;
  text += fmt::format("; solve {:.3f} s", solve.seconds);
  if (std::optional<double> rate = PodsPerSecond(report))
    text += fmt::format(" ({:.0f} pods/s)", *rate);
  text += fmt::format(" → {} nodes, {} unschedulable, ${:.4f}/h", solve.nodes, solve.unschedulable,
                      solve.price_per_hour);
  if (std::optional<double> ratio = CostRatio(report, report.lower_bound_per_hour)) {
    text += fmt::format(" ({:.3f}× bound", *ratio);
    if (std::optional<double> floor = CostRatio(report, report.lower_bound_with_floor_per_hour))
      text += fmt::format(", {:.3f}× with the floor", *floor);
    text += ")";
  }
  if (!solve.sample_unschedulable.empty()) {
    text += fmt::format("; e.g. {}", solve.sample_unschedulable);
  }
  if (report.gap) text += "\n" + GapBreakdownText(*report.gap);
  return text;
}

}  // namespace karpenter::bench
