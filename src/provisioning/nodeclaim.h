// NodeClaims in the making (upstream scheduling/nodeclaim.go and nodeclaimtemplate.go): the
// per-NodePool template a claim starts from, and a claim that accumulates pods while narrowing
// its requirements and its list of still-possible instance types.
//
// Placement checks run in a fixed order: taints, host ports, node requirements, then the
// instance-type filter. Topology spread and pod (anti-)affinity will slot in between the
// requirement check and the instance-type filter, contributing extra requirements; until then
// pods that need them are rejected before they reach a claim.
#pragma once

#include <string>
#include <vector>

#include "karpenter/common/status.h"
#include "src/api/resource_list.h"
#include "src/api/taint.h"
#include "src/provisioning/host_ports.h"
#include "src/provisioning/instance_filter.h"
#include "src/provisioning/preferences.h"
#include "src/provisioning/types.h"
#include "src/scheduling/requirements.h"

namespace karpenter::provisioning {

struct NodeClaimTemplate {
  std::string node_pool;
  // Template requirements (with minValues) ∩ template labels ∩ karpenter.sh/nodepool.
  scheduling::Requirements requirements;
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
  InFlightNodeClaim(const NodeClaimTemplate& node_claim_template,
                    std::vector<TypeCandidate> candidates);

  // Places the pod when every check passes and at least one instance type remains (with
  // minValues met, or lowered under BestEffort); otherwise leaves the claim unchanged.
  absl::Status Add(const PodAttempt& attempt, const scheduling::Requirements& pod_requirements,
                   const api::ResourceList& pod_requests, const SchedulerOptions& options);

  const NodeClaimTemplate& node_claim_template() const { return *template_; }
  const scheduling::Requirements& requirements() const { return requirements_; }
  const std::vector<TypeCandidate>& candidates() const { return candidates_; }
  const api::ResourceList& pod_requests() const { return pod_requests_; }
  const std::vector<const api::Pod*>& pods() const { return pods_; }
  bool min_values_relaxed() const { return min_values_relaxed_; }

 private:
  const NodeClaimTemplate* template_;
  scheduling::Requirements requirements_;
  std::vector<TypeCandidate> candidates_;
  api::ResourceList pod_requests_;
  std::vector<const api::Pod*> pods_;
  HostPortUsage host_ports_;
  bool min_values_relaxed_ = false;
};

}  // namespace karpenter::provisioning
