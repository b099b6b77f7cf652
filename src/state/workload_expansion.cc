// Upstream (behaviour, not code): kubernetes/kubernetes pkg/controller/replicaset and
// pkg/controller/job (how many pods each controller creates), pkg/controller/controller_utils.go
// (pods stamped from templates).
#include "src/state/workload_expansion.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "fmt/format.h"
#include "src/api/selector_match.h"
#include "src/state/controller_pods.h"
#include "src/state/expansion_internal.h"
#include "src/state/expansion_limit.h"
#include "src/state/generated_names.h"
#include "src/state/ownership.h"
#include "src/state/pod_predicates.h"

namespace karpenter::state {
namespace {

constexpr std::string_view kAppsV1 = "apps/v1";
constexpr std::string_view kBatchV1 = "batch/v1";
constexpr std::string_view kJobNameLabel = "batch.kubernetes.io/job-name";
constexpr std::string_view kLegacyJobNameLabel = "job-name";
constexpr std::string_view kControllerUidLabel = "batch.kubernetes.io/controller-uid";
constexpr std::string_view kLegacyControllerUidLabel = "controller-uid";

bool IsOwnedByAnyReplicaSet(const api::Pod& pod,
                            const std::vector<const api::ReplicaSet*>& replica_sets) {
  return std::any_of(replica_sets.begin(), replica_sets.end(), [&](const api::ReplicaSet* rs) {
    return IsOwnedByObject(pod.metadata, "ReplicaSet", rs->metadata);
  });
}

// In selector mode a Deployment adopts pods no controller claims, and pods of ReplicaSets that
// the snapshot left out (they are its own ReplicaSets' pods in a trimmed dump).
bool MayBelongToDeployment(const api::Pod& pod) {
  const api::OwnerReference* controller = ControllerOf(pod.metadata);
  return controller == nullptr || controller->kind == "ReplicaSet";
}

// `count` pods from `pod_template` named `<owner>-<suffix>`, each suffix hashed from the owner
// and an attempt index; names taken already are skipped, so a partly expanded snapshot gets the
// same remaining names as a fresh one.
void StampReplicas(const api::PodTemplateSpec& pod_template, std::string_view kind,
                   std::string_view api_version, const api::ObjectMeta& owner, int32_t count,
                   internal::TakenNames& pod_names, std::vector<api::Pod>& out) {
  const api::OwnerReference controller = ControllerReference(api_version, kind, owner);
  const api::Time created = owner.creation_timestamp.value_or(api::Time());
  const std::string base = owner.name + "-";
  int32_t made = 0;
  for (uint64_t index = 0; made < count; ++index) {
    const std::string name = GeneratedName(
        base, StableHash({owner.namespace_, kind, owner.name, std::to_string(index)}));
    if (!pod_names.Take(owner.namespace_, name)) continue;
    api::Pod pod = PodFromTemplate(pod_template, controller, owner.namespace_, name, created);
    MarkUnschedulable(pod, created);
    out.push_back(std::move(pod));
    ++made;
  }
}

bool HasTrueCondition(const api::Job& job, std::string_view type) {
  return std::any_of(
      job.status.conditions.begin(), job.status.conditions.end(),
      [&](const api::JobCondition& c) { return c.type == type && c.status == "True"; });
}

// The labels the Job API server defaulting puts on a Job's pod template.
api::PodTemplateSpec JobPodTemplate(const api::Job& job) {
  api::PodTemplateSpec pod_template = job.spec.template_;
  std::map<std::string, std::string>& labels = pod_template.metadata.labels;
  labels.emplace(kJobNameLabel, job.metadata.name);
  labels.emplace(kLegacyJobNameLabel, job.metadata.name);
  if (!job.metadata.uid.empty()) {
    labels.emplace(kControllerUidLabel, job.metadata.uid);
    labels.emplace(kLegacyControllerUidLabel, job.metadata.uid);
  }
  return pod_template;
}

}  // namespace

namespace internal {

PodSpan PodsInNamespace(const ClusterSnapshot& snapshot, std::string_view namespace_name) {
  const PodSpan pods = snapshot.pods();
  auto begin = std::lower_bound(
      pods.begin(), pods.end(), namespace_name,
      [](const api::Pod& pod, std::string_view ns) { return pod.metadata.namespace_ < ns; });
  auto end = std::upper_bound(
      begin, pods.end(), namespace_name,
      [](std::string_view ns, const api::Pod& pod) { return ns < pod.metadata.namespace_; });
  return PodSpan(begin, end);
}

std::optional<std::string> DefaultStorageClassName(const ClusterSnapshot& snapshot) {
  const api::StorageClass* storage_class = snapshot.DefaultStorageClass();
  if (storage_class == nullptr) return std::nullopt;
  return storage_class->metadata.name;
}

}  // namespace internal

int32_t ExistingReplicas(const ClusterSnapshot& snapshot, const api::Deployment& deployment) {
  std::vector<const api::ReplicaSet*> owned_sets;
  for (const api::ReplicaSet& rs : snapshot.replica_sets()) {
    if (IsOwnedByObject(rs.metadata, "Deployment", deployment.metadata)) owned_sets.push_back(&rs);
  }
  int32_t count = 0;
  for (const api::Pod& pod : internal::PodsInNamespace(snapshot, deployment.metadata.namespace_)) {
    if (!IsActive(pod)) continue;
    bool counted = IsOwnedByObject(pod.metadata, "Deployment", deployment.metadata);
    if (!counted && !owned_sets.empty()) counted = IsOwnedByAnyReplicaSet(pod, owned_sets);
    if (!counted && owned_sets.empty()) {
      counted =
          MayBelongToDeployment(pod) && api::Matches(deployment.spec.selector, pod.metadata.labels);
    }
    if (counted) ++count;
  }
  return count;
}

int32_t ExistingReplicas(const ClusterSnapshot& snapshot, const api::ReplicaSet& replica_set) {
  int32_t count = 0;
  for (const api::Pod& pod : internal::PodsInNamespace(snapshot, replica_set.metadata.namespace_)) {
    if (!IsActive(pod)) continue;
    if (IsOwnedByObject(pod.metadata, "ReplicaSet", replica_set.metadata) ||
        (ControllerOf(pod.metadata) == nullptr &&
         api::Matches(replica_set.spec.selector, pod.metadata.labels))) {
      ++count;
    }
  }
  return count;
}

bool IsManagedByPresentDeployment(const ClusterSnapshot& snapshot,
                                  const api::ReplicaSet& replica_set) {
  for (const api::OwnerReference& ref : replica_set.metadata.owner_references) {
    if (ref.kind != "Deployment") continue;
    const api::Deployment* deployment =
        snapshot.Find<api::Deployment>(replica_set.metadata.namespace_, ref.name);
    if (deployment != nullptr && RefersTo(ref, "Deployment", deployment->metadata)) return true;
  }
  return false;
}

int32_t JobPodsToCreate(const ClusterSnapshot& snapshot, const api::Job& job) {
  if (job.spec.suspend.value_or(false)) return 0;
  if (HasTrueCondition(job, "Complete") || HasTrueCondition(job, "Failed")) return 0;
  int32_t active_pods = 0;
  int32_t succeeded_pods = 0;
  for (const api::Pod& pod : internal::PodsInNamespace(snapshot, job.metadata.namespace_)) {
    if (!IsOwnedByObject(pod.metadata, "Job", job.metadata)) continue;
    if (IsActive(pod)) ++active_pods;
    if (pod.status.phase == kPodPhaseSucceeded) ++succeeded_pods;
  }
  // Finished pods may already be gone (status counts them) or the status may lag the pods.
  const int32_t active = std::max(job.status.active, active_pods);
  const int32_t succeeded = std::max(job.status.succeeded, succeeded_pods);
  const int32_t parallelism = std::max(job.spec.parallelism.value_or(1), 0);
  int32_t wanted = 0;
  if (job.spec.completions.has_value()) {
    wanted = std::min(parallelism, std::max(*job.spec.completions - succeeded, 0));
  } else {
    // Work queue: once any pod succeeded the queue is drained, so no new pods start.
    wanted = succeeded > 0 ? 0 : parallelism;
  }
  return std::max(wanted - active, 0);
}

namespace {

// Adds one workload's pods to the running total; an error names the workload and its field.
absl::Status AddToExpansion(std::string_view kind, const api::ObjectMeta& meta,
                            std::string_view field, int64_t count, int64_t& total) {
  total += std::max<int64_t>(count, 0);
  if (count <= kMaxExpandedPods && total <= kMaxExpandedPods) return absl::OkStatus();
  const std::string in_all = count == total ? "" : fmt::format(", {} in all", total);
  return absl::InvalidArgumentError(
      fmt::format("{}/{}/{}: {}: would add {} pods{}, more than the {} a snapshot expands to", kind,
                  meta.namespace_, meta.name, field, count, in_all, kMaxExpandedPods));
}

}  // namespace

absl::Status CheckExpansionSize(const ClusterSnapshot& snapshot) {
  int64_t total = 0;
  for (const api::StatefulSet& set : snapshot.stateful_sets()) {
    const int64_t replicas = set.spec.replicas.value_or(1);
    const int64_t start = set.spec.ordinals.has_value() ? set.spec.ordinals->start : 0;
    // Ordinals count up from `start` in int32, as in Kubernetes.
    if (start + replicas - 1 > std::numeric_limits<int32_t>::max()) {
      return absl::InvalidArgumentError(fmt::format(
          "StatefulSet/{}/{}: spec.ordinals.start: {} plus {} replicas passes the largest ordinal",
          set.metadata.namespace_, set.metadata.name, start, replicas));
    }
    KP_RETURN_IF_ERROR(
        AddToExpansion("StatefulSet", set.metadata, "spec.replicas", replicas, total));
  }
  for (const api::Deployment& deployment : snapshot.deployments()) {
    KP_RETURN_IF_ERROR(AddToExpansion(
        "Deployment", deployment.metadata, "spec.replicas",
        int64_t{deployment.spec.replicas.value_or(1)} - ExistingReplicas(snapshot, deployment),
        total));
  }
  for (const api::ReplicaSet& replica_set : snapshot.replica_sets()) {
    if (IsManagedByPresentDeployment(snapshot, replica_set)) continue;
    KP_RETURN_IF_ERROR(AddToExpansion(
        "ReplicaSet", replica_set.metadata, "spec.replicas",
        int64_t{replica_set.spec.replicas.value_or(1)} - ExistingReplicas(snapshot, replica_set),
        total));
  }
  for (const api::Job& job : snapshot.jobs()) {
    KP_RETURN_IF_ERROR(AddToExpansion("Job", job.metadata, "spec.parallelism",
                                      JobPodsToCreate(snapshot, job), total));
  }
  return absl::OkStatus();
}

ExpandedWorkloads ExpandWorkloads(const ClusterSnapshot& snapshot) {
  internal::TakenNames pod_names;
  for (const api::Pod& pod : snapshot.pods()) {
    pod_names.Take(pod.metadata.namespace_, pod.metadata.name);
  }
  internal::TakenNames claim_names;
  for (const api::PersistentVolumeClaim& claim : snapshot.persistent_volume_claims()) {
    claim_names.Take(claim.metadata.namespace_, claim.metadata.name);
  }
  const std::optional<std::string> default_storage_class =
      internal::DefaultStorageClassName(snapshot);

  ExpandedWorkloads out;
  // StatefulSet names are fixed (`<name>-<ordinal>`), so they go first and generated suffixes
  // steer around them rather than the other way round.
  for (const api::StatefulSet& stateful_set : snapshot.stateful_sets()) {
    internal::ExpandStatefulSet(snapshot, stateful_set, default_storage_class, pod_names,
                                claim_names, out);
  }
  for (const api::Deployment& deployment : snapshot.deployments()) {
    const int32_t missing =
        deployment.spec.replicas.value_or(1) - ExistingReplicas(snapshot, deployment);
    StampReplicas(deployment.spec.template_, "Deployment", kAppsV1, deployment.metadata, missing,
                  pod_names, out.pods);
  }
  for (const api::ReplicaSet& replica_set : snapshot.replica_sets()) {
    if (IsManagedByPresentDeployment(snapshot, replica_set)) continue;
    const int32_t missing =
        replica_set.spec.replicas.value_or(1) - ExistingReplicas(snapshot, replica_set);
    StampReplicas(replica_set.spec.template_, "ReplicaSet", kAppsV1, replica_set.metadata, missing,
                  pod_names, out.pods);
  }
  for (const api::Job& job : snapshot.jobs()) {
    StampReplicas(JobPodTemplate(job), "Job", kBatchV1, job.metadata,
                  JobPodsToCreate(snapshot, job), pod_names, out.pods);
  }

  for (const api::Pod& pod : snapshot.pods()) {
    internal::AddEphemeralClaims(pod, default_storage_class, claim_names, out);
  }
  const size_t generated = out.pods.size();
  for (size_t i = 0; i < generated; ++i) {
    internal::AddEphemeralClaims(out.pods[i], default_storage_class, claim_names, out);
  }
  std::sort(out.pods.begin(), out.pods.end(), ObjectKeyLess<api::Pod>);
  std::sort(out.claims.begin(), out.claims.end(), ObjectKeyLess<api::PersistentVolumeClaim>);
  return out;
}

}  // namespace karpenter::state
