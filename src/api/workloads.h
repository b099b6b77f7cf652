// Workload controllers the engine expands into pending pods (Deployment, ReplicaSet,
// StatefulSet, Job) or simulates per node (DaemonSet, P9): selector, pod template, desired
// scale and the minimal status needed to tell how many pods exist. Rollout strategy and
// history fields are skipped by the decoder.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/api/meta.h"
#include "src/api/pod_template.h"
#include "src/api/selector.h"
#include "src/api/storage.h"
#include "src/api/time.h"

namespace karpenter::api {

inline constexpr char kPodManagementOrderedReady[] = "OrderedReady";
inline constexpr char kPodManagementParallel[] = "Parallel";

// --- apps/v1 Deployment ---

struct DeploymentSpec {
  std::optional<int32_t> replicas;  // defaults to 1
  std::optional<LabelSelector> selector;
  PodTemplateSpec template_;
  bool paused = false;
  bool operator==(const DeploymentSpec&) const = default;
  template <class V>
  void Fields(V& v) {
    v("replicas", replicas);
    v("selector", selector);
    v("template", template_);
    for (const char* skipped : {"strategy", "minReadySeconds", "revisionHistoryLimit"}) {
      v.Ignore(skipped);
    }
    v("paused", paused);
    v.Ignore("progressDeadlineSeconds");
  }
};

struct DeploymentStatus {
  int64_t observed_generation = 0;
  int32_t replicas = 0;
  int32_t updated_replicas = 0;
  int32_t ready_replicas = 0;
  int32_t available_replicas = 0;
  int32_t unavailable_replicas = 0;
  bool operator==(const DeploymentStatus&) const = default;
  template <class V>
  void Fields(V& v) {
    v("observedGeneration", observed_generation);
    v("replicas", replicas);
    v("updatedReplicas", updated_replicas);
    v("readyReplicas", ready_replicas);
    v("availableReplicas", available_replicas);
    v("unavailableReplicas", unavailable_replicas);
    for (const char* skipped : {"terminatingReplicas", "conditions", "collisionCount"}) {
      v.Ignore(skipped);
    }
  }
};

struct Deployment {
  std::string api_version = "apps/v1";
  std::string kind = "Deployment";
  ObjectMeta metadata;
  DeploymentSpec spec;
  DeploymentStatus status;
  bool operator==(const Deployment&) const = default;
  template <class V>
  void Fields(V& v) {
    v("apiVersion", api_version);
    v("kind", kind);
    v("metadata", metadata);
    v("spec", spec);
    v("status", status);
  }
};

// --- apps/v1 ReplicaSet ---

struct ReplicaSetSpec {
  std::optional<int32_t> replicas;  // defaults to 1
  std::optional<LabelSelector> selector;
  PodTemplateSpec template_;
  bool operator==(const ReplicaSetSpec&) const = default;
  template <class V>
  void Fields(V& v) {
    v("replicas", replicas);
    v.Ignore("minReadySeconds");
    v("selector", selector);
    v("template", template_);
  }
};

struct ReplicaSetStatus {
  int32_t replicas = 0;
  int32_t fully_labeled_replicas = 0;
  int32_t ready_replicas = 0;
  int32_t available_replicas = 0;
  int64_t observed_generation = 0;
  bool operator==(const ReplicaSetStatus&) const = default;
  template <class V>
  void Fields(V& v) {
    v("replicas", replicas);
    v("fullyLabeledReplicas", fully_labeled_replicas);
    v("readyReplicas", ready_replicas);
    v("availableReplicas", available_replicas);
    v.Ignore("terminatingReplicas");
    v("observedGeneration", observed_generation);
    v.Ignore("conditions");
  }
};

struct ReplicaSet {
  std::string api_version = "apps/v1";
  std::string kind = "ReplicaSet";
  ObjectMeta metadata;
  ReplicaSetSpec spec;
  ReplicaSetStatus status;
  bool operator==(const ReplicaSet&) const = default;
  template <class V>
  void Fields(V& v) {
    v("apiVersion", api_version);
    v("kind", kind);
    v("metadata", metadata);
    v("spec", spec);
    v("status", status);
  }
};

// --- apps/v1 StatefulSet ---

struct StatefulSetOrdinals {
  int32_t start = 0;
  bool operator==(const StatefulSetOrdinals&) const = default;
  template <class V>
  void Fields(V& v) {
    v("start", start);
  }
};

struct StatefulSetSpec {
  std::optional<int32_t> replicas;  // defaults to 1
  std::optional<LabelSelector> selector;
  PodTemplateSpec template_;
  // Each replica gets one claim per template, named "<template>-<set>-<ordinal>".
  std::vector<PersistentVolumeClaim> volume_claim_templates;
  std::string service_name;
  std::string pod_management_policy;  // OrderedReady (default) | Parallel
  std::optional<StatefulSetOrdinals> ordinals;
  bool operator==(const StatefulSetSpec&) const = default;
  template <class V>
  void Fields(V& v) {
    v("replicas", replicas);
    v("selector", selector);
    v("template", template_);
    v("volumeClaimTemplates", volume_claim_templates);
    v("serviceName", service_name);
    v("podManagementPolicy", pod_management_policy);
    for (const char* skipped : {"updateStrategy", "revisionHistoryLimit", "minReadySeconds",
                                "persistentVolumeClaimRetentionPolicy"}) {
      v.Ignore(skipped);
    }
    v("ordinals", ordinals);
  }
};

struct StatefulSetStatus {
  int64_t observed_generation = 0;
  int32_t replicas = 0;
  int32_t ready_replicas = 0;
  int32_t current_replicas = 0;
  int32_t updated_replicas = 0;
  int32_t available_replicas = 0;
  bool operator==(const StatefulSetStatus&) const = default;
  template <class V>
  void Fields(V& v) {
    v("observedGeneration", observed_generation);
    v("replicas", replicas);
    v("readyReplicas", ready_replicas);
    v("currentReplicas", current_replicas);
    v("updatedReplicas", updated_replicas);
    for (const char* skipped :
         {"currentRevision", "updateRevision", "collisionCount", "conditions"}) {
      v.Ignore(skipped);
    }
    v("availableReplicas", available_replicas);
  }
};

struct StatefulSet {
  std::string api_version = "apps/v1";
  std::string kind = "StatefulSet";
  ObjectMeta metadata;
  StatefulSetSpec spec;
  StatefulSetStatus status;
  bool operator==(const StatefulSet&) const = default;
  template <class V>
  void Fields(V& v) {
    v("apiVersion", api_version);
    v("kind", kind);
    v("metadata", metadata);
    v("spec", spec);
    v("status", status);
  }
};

// --- apps/v1 DaemonSet ---

struct DaemonSetSpec {
  std::optional<LabelSelector> selector;
  PodTemplateSpec template_;
  bool operator==(const DaemonSetSpec&) const = default;
  template <class V>
  void Fields(V& v) {
    v("selector", selector);
    v("template", template_);
    for (const char* skipped : {"updateStrategy", "minReadySeconds", "revisionHistoryLimit"}) {
      v.Ignore(skipped);
    }
  }
};

struct DaemonSetStatus {
  int32_t current_number_scheduled = 0;
  int32_t number_misscheduled = 0;
  int32_t desired_number_scheduled = 0;
  int32_t number_ready = 0;
  int64_t observed_generation = 0;
  int32_t updated_number_scheduled = 0;
  int32_t number_available = 0;
  int32_t number_unavailable = 0;
  bool operator==(const DaemonSetStatus&) const = default;
  template <class V>
  void Fields(V& v) {
    v("currentNumberScheduled", current_number_scheduled);
    v("numberMisscheduled", number_misscheduled);
    v("desiredNumberScheduled", desired_number_scheduled);
    v("numberReady", number_ready);
    v("observedGeneration", observed_generation);
    v("updatedNumberScheduled", updated_number_scheduled);
    v("numberAvailable", number_available);
    v("numberUnavailable", number_unavailable);
    v.Ignore("collisionCount");
    v.Ignore("conditions");
  }
};

struct DaemonSet {
  std::string api_version = "apps/v1";
  std::string kind = "DaemonSet";
  ObjectMeta metadata;
  DaemonSetSpec spec;
  DaemonSetStatus status;
  bool operator==(const DaemonSet&) const = default;
  template <class V>
  void Fields(V& v) {
    v("apiVersion", api_version);
    v("kind", kind);
    v("metadata", metadata);
    v("spec", spec);
    v("status", status);
  }
};

// --- batch/v1 Job ---

struct JobSpec {
  std::optional<int32_t> parallelism;
  std::optional<int32_t> completions;
  std::optional<int64_t> active_deadline_seconds;
  std::optional<int32_t> backoff_limit;
  // The API server generates a controller-uid selector unless manualSelector is true, so a
  // user manifest usually has none.
  std::optional<LabelSelector> selector;
  std::optional<bool> manual_selector;
  PodTemplateSpec template_;
  std::optional<int32_t> ttl_seconds_after_finished;
  std::optional<std::string> completion_mode;  // NonIndexed (default) | Indexed
  std::optional<bool> suspend;
  bool operator==(const JobSpec&) const = default;
  template <class V>
  void Fields(V& v) {
    v("parallelism", parallelism);
    v("completions", completions);
    v("activeDeadlineSeconds", active_deadline_seconds);
    v.Ignore("podFailurePolicy");
    v.Ignore("successPolicy");
    v("backoffLimit", backoff_limit);
    v.Ignore("backoffLimitPerIndex");
    v.Ignore("maxFailedIndexes");
    v("selector", selector);
    v("manualSelector", manual_selector);
    v("template", template_);
    v("ttlSecondsAfterFinished", ttl_seconds_after_finished);
    v("completionMode", completion_mode);
    v("suspend", suspend);
    v.Ignore("podReplacementPolicy");
    v.Ignore("managedBy");
  }
};

struct JobCondition {
  std::string type;  // Complete | Failed | Suspended | FailureTarget | SuccessCriteriaMet
  std::string status;
  std::optional<Time> last_probe_time;
  std::optional<Time> last_transition_time;
  std::string reason;
  std::string message;
  bool operator==(const JobCondition&) const = default;
  template <class V>
  void Fields(V& v) {
    v("type", type);
    v("status", status);
    v("lastProbeTime", last_probe_time);
    v("lastTransitionTime", last_transition_time);
    v("reason", reason);
    v("message", message);
  }
};

struct JobStatus {
  std::vector<JobCondition> conditions;
  std::optional<Time> start_time;
  std::optional<Time> completion_time;
  int32_t active = 0;
  int32_t succeeded = 0;
  int32_t failed = 0;
  std::optional<int32_t> ready;
  bool operator==(const JobStatus&) const = default;
  template <class V>
  void Fields(V& v) {
    v("conditions", conditions);
    v("startTime", start_time);
    v("completionTime", completion_time);
    v("active", active);
    v("succeeded", succeeded);
    v("failed", failed);
    for (const char* skipped :
         {"terminating", "completedIndexes", "failedIndexes", "uncountedTerminatedPods"}) {
      v.Ignore(skipped);
    }
    v("ready", ready);
  }
};

struct Job {
  std::string api_version = "batch/v1";
  std::string kind = "Job";
  ObjectMeta metadata;
  JobSpec spec;
  JobStatus status;
  bool operator==(const Job&) const = default;
  template <class V>
  void Fields(V& v) {
    v("apiVersion", api_version);
    v("kind", kind);
    v("metadata", metadata);
    v("spec", spec);
    v("status", status);
  }
};

// API-server defaults (pkg/apis/apps/v1 and batch/v1 defaults.go), each also applying the
// PodSpec defaults to the template.
// Deployment, ReplicaSet: replicas 1.
void ApplyDefaults(Deployment& deployment);
void ApplyDefaults(ReplicaSet& replica_set);
// StatefulSet: replicas 1, podManagementPolicy OrderedReady; claim templates get PVC defaults.
void ApplyDefaults(StatefulSet& stateful_set);
// DaemonSet: template defaults only (the skipped update strategy is the only other default).
void ApplyDefaults(DaemonSet& daemon_set);
// Job: completions and parallelism 1 when both are unset, parallelism 1, backoffLimit 6,
// completionMode NonIndexed, suspend false, and metadata.labels copied from the template when
// the Job has none.
void ApplyDefaults(Job& job);

}  // namespace karpenter::api
