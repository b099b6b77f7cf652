#include "src/provisioning/existing_node.h"

#include <algorithm>

#include "src/api/karpenter_labels.h"
#include "src/api/taint_match.h"
#include "src/provisioning/daemon_overhead.h"
#include "src/provisioning/nodeclaim.h"
#include "src/provisioning/resources.h"
#include "src/scheduling/selector_conversion.h"
#include "src/state/volume_usage.h"

namespace karpenter::provisioning {
namespace {

bool IsEphemeralTaint(const api::Taint& taint) {
  const std::string& key = taint.key;
  const std::string& effect = taint.effect;
  if (key == "node.kubernetes.io/not-ready") {
    return effect == api::kTaintEffectNoSchedule || effect == api::kTaintEffectNoExecute;
  }
  if (key == "node.kubernetes.io/unreachable") return effect == api::kTaintEffectNoSchedule;
  if (key == "node.cloudprovider.kubernetes.io/uninitialized") {
    return effect == api::kTaintEffectNoSchedule && taint.value == "true";
  }
  if (key == api::kUnregisteredTaintKey) return effect == api::kTaintEffectNoExecute;
  return key.starts_with("readiness.k8s.io/");
}

bool SameTaint(const api::Taint& a, const api::Taint& b) {
  return a.key == b.key && a.value == b.value && a.effect == b.effect;
}

}  // namespace

std::vector<api::Taint> EffectiveTaints(const ExistingNodeView& node,
                                        const std::vector<api::Taint>& startup_taints) {
  if (node.initialized || !node.managed) return node.taints;
  std::vector<api::Taint> out;
  for (const api::Taint& taint : node.taints) {
    if (IsEphemeralTaint(taint)) continue;
    if (std::any_of(startup_taints.begin(), startup_taints.end(),
                    [&](const api::Taint& startup) { return SameTaint(startup, taint); })) {
      continue;
    }
    out.push_back(taint);
  }
  return out;
}

ExistingNode::ExistingNode(const ExistingNodeView& view, std::vector<api::Taint> taints,
                           std::span<const api::Pod> daemons)
    : view_(&view),
      taints_(std::move(taints)),
      available_(Subtract(view.allocatable, view.requested)),
      requirements_(scheduling::FromLabels(view.labels)) {
  // Upstream: a node without a hostname label is known by its name.
  if (!requirements_.Has(api::kLabelHostname)) {
    requirements_.Add(scheduling::Requirement::In(api::kLabelHostname, {view.name}));
  }
  hostname_ = requirements_.Find(api::kLabelHostname)->Any();
  // Daemonsets that will land here but have not yet are reserved up front.
  requests_ = SubtractClamped(DaemonOverheadOn(daemons, requirements_, taints_, nullptr),
                              view.daemon_requested);
  host_ports_.Add(HostPortsOf(view.host_ports_used));
  volumes_ = view.volumes_in_use;
  UpdateHeadroom();
}

void ExistingNode::UpdateHeadroom() {
  const ResourceFootprint available = FootprintOf(available_);
  const ResourceFootprint used = FootprintOf(requests_);
  headroom_ = {RoomUpperBound(available.cpu, 0, used.cpu),
               RoomUpperBound(available.memory, 0, used.memory),
               RoomUpperBound(available.pods, 0, used.pods)};
}

bool ExistingNode::Check(const PodAttempt& attempt,
                         const scheduling::Requirements& pod_requirements,
                         const api::ResourceList& pod_requests,
                         const scheduling::Requirements* strict_pod_requirements,
                         const Topology* topology, Placement& placement) const {
  if (!api::ToleratesAll(attempt.tolerations, taints_, /*ignore_prefer_no_schedule=*/false)) {
    return false;
  }
  placement.ports = HostPortsOf(*attempt.pod);
  if (!host_ports_.Conflicts(placement.ports).ok()) return false;
  if (attempt.volumes != nullptr &&
      !state::ExceededVolumeLimit(view_->volume_limits, volumes_, *attempt.volumes).empty()) {
    return false;
  }
  // Resources first: the likeliest reason a pod does not fit an in-flight node.
  placement.requests = Merge(requests_, pod_requests);
  if (!Fits(placement.requests, available_)) return false;
  if (!requirements_.IsCompatible(pod_requirements)) return false;
  placement.requirements = requirements_;
  placement.requirements.Add(pod_requirements);
  return topology == nullptr ||
         topology
             ->AddRequirements(
                 attempt, strict_pod_requirements ? *strict_pod_requirements : pod_requirements,
                 taints_, nullptr, placement.requirements, /*explain=*/false)
             .ok();
}

std::string ExistingNode::Refusal(const PodAttempt& attempt,
                                  const scheduling::Requirements& pod_requirements,
                                  const api::ResourceList& pod_requests,
                                  const scheduling::Requirements* strict_pod_requirements,
                                  const Topology* topology) const {
  for (const api::Taint& taint : taints_) {
    if (!api::ToleratesAll(attempt.tolerations, {taint}, /*ignore_prefer_no_schedule=*/false)) {
      return "taint " + api::TaintToString(taint) + " is not tolerated";
    }
  }
  if (absl::Status ports = host_ports_.Conflicts(HostPortsOf(*attempt.pod)); !ports.ok()) {
    return "host port: " + std::string(ports.message());
  }
  if (attempt.volumes != nullptr) {
    std::string exceeded =
        state::ExceededVolumeLimit(view_->volume_limits, volumes_, *attempt.volumes);
    if (!exceeded.empty()) return "volume limit: " + exceeded;
  }
  const api::ResourceList requests = Merge(requests_, pod_requests);
  if (!Fits(requests, available_)) {
    return "resources: the pod requests " + ResourcesString(pod_requests) + ", the node has " +
           ResourcesString(SubtractClamped(available_, requests_)) + " left";
  }
  if (absl::Status compatible = requirements_.Compatible(pod_requirements); !compatible.ok()) {
    return "requirement: " + std::string(compatible.message());
  }
  if (topology == nullptr) return "";
  scheduling::Requirements merged = requirements_;
  merged.Add(pod_requirements);
  absl::Status spread = topology->AddRequirements(
      attempt, strict_pod_requirements ? *strict_pod_requirements : pod_requirements, taints_,
      nullptr, merged, /*explain=*/true);
  return spread.ok() ? "" : "topology: " + std::string(spread.message());
}

void ExistingNode::Place(const PodAttempt& attempt, Placement placement, Topology* topology) {
  if (topology != nullptr) topology->Record(*attempt.pod, taints_, placement.requirements, nullptr);
  requirements_ = std::move(placement.requirements);
  requests_ = std::move(placement.requests);
  host_ports_.Add(placement.ports);
  if (attempt.volumes != nullptr) state::AddVolumes(volumes_, *attempt.volumes);
  pods_.push_back(attempt.pod);
  UpdateHeadroom();
}

}  // namespace karpenter::provisioning
