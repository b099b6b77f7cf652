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
#include "src/provisioning/instance_filter.h"
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
  ExistingNode(const ExistingNodeView& view, std::vector<api::Taint> taints,
               std::span<const api::Pod> daemons);

  // What placing a pod changes, worked out by Check and applied by Place.
  struct Placement {
    scheduling::Requirements requirements;
    api::ResourceList requests;
    std::vector<HostPort> ports;
  };

  // Whether the pod can go here: taints, host ports, CSI volume limits, remaining resources, then
  // the node's labels against the pod's requirements (strictly: a label the node lacks is not
  // there), then, with a `topology`, topology spread and pod (anti-)affinity (with
  // `strict_pod_requirements`, or `pod_requirements` when null). No reason: a solve tries many
  // nodes per pod and only wants the first that takes it, and building a message for each refusal
  // was about half of what Check cost. Changes nothing but `placement`: a solve asks nodes it
  // shares with other solves (SolveCache) and copies one only to Place a pod on it.
  bool Check(const PodAttempt& attempt, const scheduling::Requirements& pod_requirements,
             const api::ResourceList& pod_requests,
             const scheduling::Requirements* strict_pod_requirements, const Topology* topology,
             Placement& placement) const;
  // Why Check refuses the pod, naming the check (taint, host port, volume limit, resources,
  // requirement, topology) and what failed; "" when Check accepts it. For explanations only: it
  // builds the messages Check skips.
  std::string Refusal(const PodAttempt& attempt, const scheduling::Requirements& pod_requirements,
                      const api::ResourceList& pod_requests,
                      const scheduling::Requirements* strict_pod_requirements,
                      const Topology* topology) const;
  // Places the pod Check accepted and, with a `topology`, records it there.
  void Place(const PodAttempt& attempt, Placement placement, Topology* topology);

  // False when the pod certainly does not fit what is left (cpu, memory or pod slots); true
  // says nothing. Lets a solve pass over full nodes without building merged resource lists.
  bool MayFit(const ResourceFootprint& pod) const {
    return pod.cpu <= headroom_.cpu && pod.memory <= headroom_.memory && pod.pods <= headroom_.pods;
  }

  // The upper bound MayFit compares against.
  const ResourceFootprint& headroom() const { return headroom_; }
  const std::string& name() const { return view_->name; }
  // The kubernetes.io/hostname topology knows the node by (its name when it has no such label).
  const std::string& hostname() const { return hostname_; }
  const ExistingNodeView& view() const { return *view_; }
  // The taints Check holds pods to (startup taints left out where they are expected to go).
  const std::vector<api::Taint>& taints() const { return taints_; }
  const std::vector<const api::Pod*>& pods() const { return pods_; }

 private:
  void UpdateHeadroom();

  const ExistingNodeView* view_;
  std::vector<api::Taint> taints_;
  api::ResourceList available_;  // allocatable − requested
  api::ResourceList requests_;   // daemonsets still to arrive + pods placed by this solve
  scheduling::Requirements requirements_;
  std::string hostname_;
  HostPortUsage host_ports_;
  state::VolumesByDriver volumes_;  // Mounted by bound pods and pods placed by this solve.
  std::vector<const api::Pod*> pods_;
  ResourceFootprint headroom_;  // An upper bound of available_ − requests_.
};

}  // namespace karpenter::provisioning
