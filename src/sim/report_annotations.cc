#include "src/sim/report_annotations.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <variant>

#include "fmt/format.h"

namespace karpenter::sim {
namespace {

std::string ObjectName(const api::Object& object) {
  return std::visit([](const auto& typed) { return typed.metadata.name; }, object);
}

std::string StepAction(const Step& step) {
  switch (step.kind) {
    case StepKind::kApply:
      if (step.objects.empty()) return "apply";
      return "apply " + ObjectName(step.objects.front()) +
             (step.objects.size() > 1 ? fmt::format(" and {} more", step.objects.size() - 1) : "");
    case StepKind::kScale:
    case StepKind::kScaleStatefulSet:
      return fmt::format("scale {} to {}", step.target, step.replicas);
    case StepKind::kDelete:
      return "delete " + step.target;
    case StepKind::kDrainNodeGroup:
      return "cordon and drain " + step.target;
  }
  return "";
}

// Adds `label` unless one already there starts with it; replaces those it starts.
void AddDistinct(std::vector<std::string>& labels, const std::string& label) {
  for (const std::string& present : labels) {
    if (present.starts_with(label)) return;
  }
  std::erase_if(labels, [&](const std::string& present) { return label.starts_with(present); });
  labels.push_back(label);
}

std::string FaultLabel(const CapacityFault& fault) {
  std::string what;
  switch (fault.kind) {
    case FaultKind::kInsufficientCapacity:
      what = "ICE";
      break;
    case FaultKind::kNeverRegisters:
      what = "never registers";
      break;
    case FaultKind::kSpotInterruptions:
      what = fmt::format("spot interruptions {:g}/h", fault.rate_per_hour);
      break;
  }
  std::string offering = fault.instance_type;
  if (!fault.capacity_type.empty()) {
    offering += (offering.empty() ? "" : " ") + fault.capacity_type;
  }
  for (const std::string& zone : fault.zones) offering += " " + zone;
  return offering.empty() ? what : what + ": " + offering;
}

}  // namespace

std::vector<StepMarker> StepMarkers(const Scenario& scenario, double end_seconds) {
  struct Instant {
    std::vector<std::string> labels;
    std::optional<Autoscaler> only;
    bool mixed = false;  // steps of different runs, or of both
  };
  std::map<double, Instant> instants;
  for (const Step& step : scenario.steps) {
    if (step.at_seconds < 0 || step.at_seconds > end_seconds) continue;
    auto [it, fresh] = instants.try_emplace(step.at_seconds);
    Instant& instant = it->second;
    if (fresh) instant.only = step.only;
    instant.mixed = instant.mixed || !step.only || step.only != instant.only;
    AddDistinct(instant.labels, step.note.empty() ? StepAction(step) : step.note);
  }
  std::vector<StepMarker> markers;
  for (const auto& [at, instant] : instants) {
    std::string label;
    for (const std::string& part : instant.labels) label += (label.empty() ? "" : "; ") + part;
    if (!instant.mixed && instant.only) {
      label += fmt::format(" [{} only]", AutoscalerName(*instant.only));
    }
    markers.push_back({at, std::move(label)});
  }
  return markers;
}

std::vector<FaultWindow> FaultWindows(const Scenario& scenario, double end_seconds) {
  std::map<std::pair<double, double>, std::vector<std::string>> windows;
  for (const CapacityFault& fault : scenario.faults) {
    const double from = std::max(0.0, fault.from_seconds);
    const double to = std::min(end_seconds, fault.to_seconds);
    if (!(to > from)) continue;
    std::vector<std::string>& labels = windows[{from, to}];
    const std::string label = FaultLabel(fault);
    if (std::find(labels.begin(), labels.end(), label) == labels.end()) labels.push_back(label);
  }
  std::vector<FaultWindow> out;
  for (const auto& [range, labels] : windows) {
    std::string label;
    for (const std::string& part : labels) label += (label.empty() ? "" : "; ") + part;
    out.push_back({range.first, range.second, std::move(label)});
  }
  return out;
}

}  // namespace karpenter::sim
