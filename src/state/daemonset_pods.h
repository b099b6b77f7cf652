// Upstream: pkg/utils/daemonset/daemonset.go, pkg/controllers/provisioning/provisioner.go
// (getDaemonSetPods) in kubernetes-sigs/karpenter.
// DaemonSet pods are never pending work: every node a DaemonSet selects gets one, so they are
// per-node overhead (P9). These functions give the one representative pod per DaemonSet whose
// requests, tolerations, affinity and host ports the scheduler charges to each node.
#pragma once

#include <vector>

#include "src/api/pod.h"
#include "src/api/workloads.h"
#include "src/state/snapshot.h"

namespace karpenter::state {

// The pod the DaemonSet would create, before the controller pins it to a node: named after the
// DaemonSet, in its namespace, with the template's labels, annotations and spec, an owner
// reference to the DaemonSet, and the pod defaults the API server would apply (requests from
// limits, which a template never gets).
api::Pod DaemonSetPodTemplate(const api::DaemonSet& daemon_set);

// The representative pod of `daemon_set`: its newest live pod in the snapshot when it has one
// (real requests after admission webhooks, e.g. injected sidecars), else the template pod. The
// template's required node affinity replaces the live pod's, since the controller rewrote it to
// pin that pod to its node.
api::Pod DaemonSetPod(const ClusterSnapshot& snapshot, const api::DaemonSet& daemon_set);

// DaemonSetPod for every DaemonSet, in snapshot order.
std::vector<api::Pod> DaemonSetPods(const ClusterSnapshot& snapshot);

}  // namespace karpenter::state
