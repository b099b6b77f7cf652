// NodeClaims in the making (upstream scheduling/nodeclaim.go and nodeclaimtemplate.go): the
// per-NodePool template a claim starts from, and a claim that accumulates pods while narrowing
// its requirements and its list of still-possible instance types.
//
// Placement checks run in a fixed order: taints, host ports, node requirements, topology spread
// and pod (anti-)affinity (which narrow the requirements, e.g. to one zone), then the
// instance-type filter.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "karpenter/common/status.h"
#include "src/api/resource_list.h"
#include "src/api/taint.h"
#include "src/provisioning/host_ports.h"
#include "src/provisioning/instance_filter.h"
#include "src/provisioning/preferences.h"
#include "src/provisioning/topology.h"
#include "src/provisioning/types.h"
#include "src/scheduling/requirements.h"

namespace karpenter::provisioning {

struct NodeClaimTemplate {
  std::string node_pool;
  // Template requirements (with minValues) ∩ template labels ∩ karpenter.sh/nodepool.
  scheduling::Requirements requirements;
  std::map<std::string, std::string> labels;  // Template labels plus karpenter.sh/nodepool.
  std::vector<api::Taint> taints;  // startupTaints are not listed: pods need not tolerate them.
  // Types whose requirements intersect the template's, with their daemonset overhead.
  std::vector<TypeCandidate> candidates;
  // Requests of the daemonsets compatible with the template (error messages).
  api::ResourceList daemon_overhead;
  std::vector<HostPort> daemon_host_ports;
};

// "did not tolerate key=value:Effect" for the first untolerated taint (PreferNoSchedule
// included: relaxation adds a toleration for those).
absl::Status CheckTaints(const std::vector<api::Taint>& taints,
                         const std::vector<api::Toleration>& tolerations);

class InFlightNodeClaim {
 public:
  // With a `topology`, the claim takes a placeholder hostname from it and placements honour
  // and record topology spread and pod (anti-)affinity.
  InFlightNodeClaim(const NodeClaimTemplate& node_claim_template,
                    std::vector<TypeCandidate> candidates, Topology* topology = nullptr);

  // Places the pod when every check passes and at least one instance type remains (with
  // minValues met, or lowered under BestEffort); otherwise leaves the claim unchanged.
  // `strict_pod_requirements` (no preferred node affinity; null: `pod_requirements`) bound the
  // domains topology constraints may pick.
  absl::Status Add(const PodAttempt& attempt, const scheduling::Requirements& pod_requirements,
                   const api::ResourceList& pod_requests, const SchedulerOptions& options,
                   const scheduling::Requirements* strict_pod_requirements = nullptr);

  const NodeClaimTemplate& node_claim_template() const { return *template_; }
  const scheduling::Requirements& requirements() const { return requirements_; }
  const std::vector<TypeCandidate>& candidates() const { return candidates_; }
  const api::ResourceList& pod_requests() const { return pod_requests_; }
  const std::vector<const api::Pod*>& pods() const { return pods_; }
  bool min_values_relaxed() const { return min_values_relaxed_; }

 private:
  const NodeClaimTemplate* template_;
  // Never holds kubernetes.io/hostname: the placeholder below is added only while topology is
  // consulted, so it cannot leak into the finalized NodeClaim.
  scheduling::Requirements requirements_;
  Topology* topology_;
  std::string hostname_;
  std::vector<TypeCandidate> candidates_;
  api::ResourceList pod_requests_;
  std::vector<const api::Pod*> pods_;
  HostPortUsage host_ports_;
  bool min_values_relaxed_ = false;
};

}  // namespace karpenter::provisioning
