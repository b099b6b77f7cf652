// The Pod kind (k8s.io/api core/v1) as the scheduler and disruption engine read it: containers
// and their requests (P6), placement constraints (P3, P9-P12), volumes (P13/P14), host ports
// (P15), priority and grace periods (D3/D13) and the status fields that decide whether a pod
// is pending. Fields the engine never reads are skipped by the decoder (listed via Ignore).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "src/api/box.h"
#include "src/api/meta.h"
#include "src/api/quantity.h"
#include "src/api/resource_list.h"
#include "src/api/selector.h"
#include "src/api/taint.h"
#include "src/api/time.h"
#include "src/api/volume.h"

namespace karpenter::api {

inline constexpr char kProtocolTcp[] = "TCP";
inline constexpr char kProtocolUdp[] = "UDP";
inline constexpr char kProtocolSctp[] = "SCTP";
inline constexpr char kRestartPolicyAlways[] = "Always";
inline constexpr char kRestartPolicyOnFailure[] = "OnFailure";
inline constexpr char kRestartPolicyNever[] = "Never";
inline constexpr char kDefaultSchedulerName[] = "default-scheduler";
inline constexpr int64_t kDefaultTerminationGracePeriodSeconds = 30;

struct ContainerPort {
  std::string name;
  int32_t host_port = 0;
  int32_t container_port = 0;
  std::string protocol;  // TCP (default) | UDP | SCTP
  std::string host_ip;
  bool operator==(const ContainerPort&) const = default;
  template <class V>
  void Fields(V& v) {
    v("name", name);
    v("hostPort", host_port);
    v("containerPort", container_port);
    v("protocol", protocol);
    v("hostIP", host_ip);
  }
};

// v1.ResourceClaim: a container's reference to one of the pod's DRA claims.
struct ContainerResourceClaim {
  std::string name;
  std::string request;
  bool operator==(const ContainerResourceClaim&) const = default;
  template <class V>
  void Fields(V& v) {
    v("name", name);
    v("request", request);
  }
};

struct ResourceRequirements {
  ResourceList limits;
  ResourceList requests;
  std::vector<ContainerResourceClaim> claims;
  bool operator==(const ResourceRequirements&) const = default;
  template <class V>
  void Fields(V& v) {
    v("limits", limits);
    v("requests", requests);
    v("claims", claims);
  }
};

struct Container {
  std::string name;
  std::string image;
  std::vector<ContainerPort> ports;
  ResourceRequirements resources;
  // Only valid on init containers; "Always" makes the init container a sidecar that keeps
  // running next to the regular containers (and so adds to the pod's steady-state requests).
  std::optional<std::string> restart_policy;
  bool operator==(const Container&) const = default;
  template <class V>
  void Fields(V& v) {
    v("name", name);
    v("image", image);
    for (const char* skipped : {"command", "args", "workingDir"}) v.Ignore(skipped);
    v("ports", ports);
    for (const char* skipped : {"envFrom", "env"}) v.Ignore(skipped);
    v("resources", resources);
    v.Ignore("resizePolicy");
    v("restartPolicy", restart_policy);
    for (const char* skipped :
         {"restartPolicyRules", "volumeMounts", "volumeDevices", "livenessProbe", "readinessProbe",
          "startupProbe", "lifecycle", "terminationMessagePath", "terminationMessagePolicy",
          "imagePullPolicy", "securityContext", "stdin", "stdinOnce", "tty"}) {
      v.Ignore(skipped);
    }
  }
};

struct TopologySpreadConstraint {
  int32_t max_skew = 0;
  std::string topology_key;
  std::string when_unsatisfiable;  // DoNotSchedule | ScheduleAnyway
  std::optional<LabelSelector> label_selector;
  std::optional<int32_t> min_domains;
  std::optional<std::string> node_affinity_policy;  // Honor (when unset) | Ignore
  std::optional<std::string> node_taints_policy;    // Ignore (when unset) | Honor
  std::vector<std::string> match_label_keys;
  bool operator==(const TopologySpreadConstraint&) const = default;
  template <class V>
  void Fields(V& v) {
    v("maxSkew", max_skew);
    v("topologyKey", topology_key);
    v("whenUnsatisfiable", when_unsatisfiable);
    v("labelSelector", label_selector);
    v("minDomains", min_domains);
    v("nodeAffinityPolicy", node_affinity_policy);
    v("nodeTaintsPolicy", node_taints_policy);
    v("matchLabelKeys", match_label_keys);
  }
};

struct PodOS {
  std::string name;  // linux | windows
  bool operator==(const PodOS&) const = default;
  template <class V>
  void Fields(V& v) {
    v("name", name);
  }
};

// A pod with scheduling gates is held back by kube-scheduler and is never provisionable.
struct PodSchedulingGate {
  std::string name;
  bool operator==(const PodSchedulingGate&) const = default;
  template <class V>
  void Fields(V& v) {
    v("name", name);
  }
};

// v1.PodResourceClaim: DRA claims (pods using them are skipped while DRA is ignored).
struct PodResourceClaim {
  std::string name;
  std::optional<std::string> resource_claim_name;
  std::optional<std::string> resource_claim_template_name;
  bool operator==(const PodResourceClaim&) const = default;
  template <class V>
  void Fields(V& v) {
    v("name", name);
    v("resourceClaimName", resource_claim_name);
    v("resourceClaimTemplateName", resource_claim_template_name);
  }
};

// Rarely set structs (affinity, os, pod-level resources) are boxed so that the thousands of
// pods in a cluster snapshot do not each carry room for them.
struct PodSpec {
  std::vector<Volume> volumes;
  std::vector<Container> init_containers;
  std::vector<Container> containers;
  std::string restart_policy;  // Always (default) | OnFailure | Never
  std::optional<int64_t> termination_grace_period_seconds;
  std::optional<int64_t> active_deadline_seconds;
  std::map<std::string, std::string> node_selector;
  std::string service_account_name;
  std::string node_name;
  bool host_network = false;
  Box<Affinity> affinity;
  std::string scheduler_name;
  std::vector<Toleration> tolerations;
  std::string priority_class_name;
  std::optional<int32_t> priority;
  std::optional<std::string> runtime_class_name;
  std::optional<std::string> preemption_policy;  // PreemptLowerPriority | Never
  ResourceList overhead;
  std::vector<TopologySpreadConstraint> topology_spread_constraints;
  Box<PodOS> os;
  std::vector<PodSchedulingGate> scheduling_gates;
  std::vector<PodResourceClaim> resource_claims;
  // Pod-level resources (PodLevelResources): when set, cpu/memory/hugepages requests here
  // replace the aggregate of the containers'.
  Box<ResourceRequirements> resources;
  bool operator==(const PodSpec&) const = default;
  template <class V>
  void Fields(V& v) {
    v("volumes", volumes);
    v("initContainers", init_containers);
    v("containers", containers);
    v.Ignore("ephemeralContainers");
    v("restartPolicy", restart_policy);
    v("terminationGracePeriodSeconds", termination_grace_period_seconds);
    v("activeDeadlineSeconds", active_deadline_seconds);
    v.Ignore("dnsPolicy");
    v("nodeSelector", node_selector);
    v("serviceAccountName", service_account_name);
    for (const char* skipped : {"serviceAccount", "automountServiceAccountToken"}) {
      v.Ignore(skipped);
    }
    v("nodeName", node_name);
    v("hostNetwork", host_network);
    for (const char* skipped : {"hostPID", "hostIPC", "shareProcessNamespace", "securityContext",
                                "imagePullSecrets", "hostname", "subdomain"}) {
      v.Ignore(skipped);
    }
    v("affinity", affinity);
    v("schedulerName", scheduler_name);
    v("tolerations", tolerations);
    v.Ignore("hostAliases");
    v("priorityClassName", priority_class_name);
    v("priority", priority);
    for (const char* skipped : {"dnsConfig", "readinessGates"}) v.Ignore(skipped);
    v("runtimeClassName", runtime_class_name);
    v.Ignore("enableServiceLinks");
    v("preemptionPolicy", preemption_policy);
    v("overhead", overhead);
    v("topologySpreadConstraints", topology_spread_constraints);
    v.Ignore("setHostnameAsFQDN");
    v("os", os);
    v.Ignore("hostUsers");
    v("schedulingGates", scheduling_gates);
    v("resourceClaims", resource_claims);
    v("resources", resources);
    v.Ignore("hostnameOverride");
  }
};

struct PodCondition {
  std::string type;    // PodScheduled | Ready | Initialized | ContainersReady | ...
  std::string status;  // True | False | Unknown
  std::optional<Time> last_probe_time;
  std::optional<Time> last_transition_time;
  std::string reason;  // e.g. Unschedulable on PodScheduled
  std::string message;
  bool operator==(const PodCondition&) const = default;
  template <class V>
  void Fields(V& v) {
    v("type", type);
    v.Ignore("observedGeneration");
    v("status", status);
    v("lastProbeTime", last_probe_time);
    v("lastTransitionTime", last_transition_time);
    v("reason", reason);
    v("message", message);
  }
};

struct PodStatus {
  std::string phase;  // Pending | Running | Succeeded | Failed | Unknown
  std::vector<PodCondition> conditions;
  std::string message;
  std::string reason;
  std::string nominated_node_name;
  std::string host_ip;
  std::string pod_ip;
  std::optional<Time> start_time;
  std::string qos_class;  // Guaranteed | Burstable | BestEffort
  bool operator==(const PodStatus&) const = default;
  template <class V>
  void Fields(V& v) {
    v.Ignore("observedGeneration");
    v("phase", phase);
    v("conditions", conditions);
    v("message", message);
    v("reason", reason);
    v("nominatedNodeName", nominated_node_name);
    v("hostIP", host_ip);
    v.Ignore("hostIPs");
    v("podIP", pod_ip);
    v.Ignore("podIPs");
    v("startTime", start_time);
    for (const char* skipped : {"initContainerStatuses", "containerStatuses"}) v.Ignore(skipped);
    v("qosClass", qos_class);
    for (const char* skipped : {"ephemeralContainerStatuses", "resize", "resourceClaimStatuses",
                                "extendedResourceClaimStatus", "allocatedResources", "resources"}) {
      v.Ignore(skipped);
    }
  }
};

struct Pod {
  std::string api_version = "v1";
  std::string kind = "Pod";
  ObjectMeta metadata;
  PodSpec spec;
  PodStatus status;
  bool operator==(const Pod&) const = default;
  template <class V>
  void Fields(V& v) {
    v("apiVersion", api_version);
    v("kind", kind);
    v("metadata", metadata);
    v("spec", spec);
    v("status", status);
  }
};

// Defaults every PodSpec gets from the API server, including those embedded in workload
// templates (SetDefaults_PodSpec plus the declarative and per-field defaults underneath it):
// restartPolicy Always, terminationGracePeriodSeconds 30, schedulerName default-scheduler,
// container port protocol TCP, PVC template volumeMode Filesystem.
void ApplyPodSpecDefaults(PodSpec& spec);

// Pod defaults (SetDefaults_Pod on top of the PodSpec ones). Only real Pods get these, never
// templates: container (and init container) requests default to their limits for every
// resource with a limit but no request; with hostNetwork, ports' hostPort defaults to the
// containerPort; pod-level requests default from the containers' aggregate requests or the
// pod-level limits when pod-level limits are set.
void ApplyDefaults(Pod& pod);

}  // namespace karpenter::api
