// Workload expansion: the pods (and volume claims) that workload controllers would create for a
// snapshot, so a snapshot holding only a Deployment plans capacity for its replicas
// (replicas minus the existing owned pods, named `<owner>-<suffix>`).
//
//  - Deployment: replicas minus its active pods. Its pods are those owned by a ReplicaSet the
//    Deployment owns; when the snapshot holds no such ReplicaSet, the active pods in its
//    namespace matching its selector that no other kind of controller claims. Pods owned by the
//    Deployment itself (an earlier expansion fed back in) count in both cases.
//  - ReplicaSet not owned by a Deployment present in the snapshot: replicas minus its active pods
//    (owned, or orphans matching its selector).
//  - StatefulSet: pod `<name>-<ordinal>` for every ordinal in [start, start + replicas) without a
//    pod of that name, plus claim `<template>-<name>-<ordinal>` for each volumeClaimTemplate when
//    absent (Pending, with the template's StorageClass or else the default one), and the pod's
//    volume of that template name pointing at it.
//  - Job (not suspended, not Complete/Failed): min(parallelism, completions − succeeded) minus
//    active pods; a work-queue Job (no completions) gets `parallelism` pods until one succeeds.
//    Succeeded/active are the larger of the Job's status and its pods in the snapshot.
//  - DaemonSet: never; its pods are per-node overhead (see daemonset_pods.h).
//  - Every pod with an ephemeral volume gets its claim `<pod>-<volume>` when absent, as the
//    ephemeral-volume controller would create it.
//
// Generated pods are named `<owner>-<suffix>` with a suffix hashed from (namespace, owner kind,
// owner name, attempt index), skipping names already taken; they carry the template's metadata,
// a controller owner reference, a derived uid, the owner's creationTimestamp (the Unix epoch when
// it has none) and status Pending / PodScheduled=False (Unschedulable).
#pragma once

#include <cstdint>
#include <vector>

#include "src/api/pod.h"
#include "src/api/storage.h"
#include "src/state/snapshot.h"

namespace karpenter::state {

struct ExpandedWorkloads {
  std::vector<api::Pod> pods;                      // sorted by (namespace, name)
  std::vector<api::PersistentVolumeClaim> claims;  // sorted by (namespace, name)
};

// What every controller of `snapshot` would add. Reads the snapshot's own objects only, so
// expanding the result of an expansion adds nothing more.
ExpandedWorkloads ExpandWorkloads(const ClusterSnapshot& snapshot);

// Active pods the controller already has (the rules above).
int32_t ExistingReplicas(const ClusterSnapshot& snapshot, const api::Deployment& deployment);
int32_t ExistingReplicas(const ClusterSnapshot& snapshot, const api::ReplicaSet& replica_set);

// The ReplicaSet is owned by a Deployment that the snapshot holds (which then speaks for it).
bool IsManagedByPresentDeployment(const ClusterSnapshot& snapshot,
                                  const api::ReplicaSet& replica_set);

// How many pods the Job controller would create now.
int32_t JobPodsToCreate(const ClusterSnapshot& snapshot, const api::Job& job);

// Ordinals of the StatefulSet's pods that do not exist, ascending.
std::vector<int32_t> MissingOrdinals(const ClusterSnapshot& snapshot,
                                     const api::StatefulSet& stateful_set);

}  // namespace karpenter::state
