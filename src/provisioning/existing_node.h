// An existing node (or in-flight NodeClaim) as a placement target (upstream
// scheduling/existingnode.go): what is left of its allocatable after bound pods and the
// daemonsets still to arrive, its label requirements, taints and used host ports.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "karpenter/common/status.h"
#include "src/api/pod.h"
#include "src/provisioning/host_ports.h"
#include "src/provisioning/preferences.h"
#include "src/provisioning/topology.h"
#include "src/provisioning/types.h"
#include "src/scheduling/requirements.h"

namespace karpenter::provisioning {

// The taints pods must tolerate: on an uninitialized managed node the ephemeral taints
// (not-ready, unreachable, cloud-provider uninitialized, karpenter.sh/unregistered,
// readiness.k8s.io/*) and the NodePool's startup taints are expected to go away and are ignored.
std::vector<api::Taint> EffectiveTaints(const ExistingNodeView& node,
                                        const std::vector<api::Taint>& startup_taints);

class ExistingNode {
 public:
  // With a `topology`, the node registers its hostname there and placements honour and
  // record topology spread and pod (anti-)affinity.
  ExistingNode(const ExistingNodeView& view, std::vector<api::Taint> taints,
               std::span<const api::Pod> daemons, Topology* topology = nullptr);

  // Taints, host ports, CSI volume limits, remaining resources ("exceeds node resources"), then the
  // node's labels against the pod's requirements (strictly: a label the node lacks is not there),
  // then the topology (with `strict_pod_requirements`, or `pod_requirements` when null).
  absl::Status Add(const PodAttempt& attempt, const scheduling::Requirements& pod_requirements,
                   const api::ResourceList& pod_requests,
                   const scheduling::Requirements* strict_pod_requirements = nullptr);

  const std::string& name() const { return view_->name; }
  const ExistingNodeView& view() const { return *view_; }
  const std::vector<const api::Pod*>& pods() const { return pods_; }

 private:
  const ExistingNodeView* view_;
  std::vector<api::Taint> taints_;
  api::ResourceList available_;  // allocatable − requested
  api::ResourceList requests_;   // daemonsets still to arrive + pods placed by this solve
  scheduling::Requirements requirements_;
  HostPortUsage host_ports_;
  state::VolumesByDriver volumes_;  // Mounted by bound pods and pods placed by this solve.
  std::vector<const api::Pod*> pods_;
  Topology* topology_;
};

}  // namespace karpenter::provisioning
