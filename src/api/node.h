// The Node kind (k8s.io/api core/v1) as the engine reads it: provider ID (to pair with a
// NodeClaim), taints and cordon state, capacity/allocatable for bin-packing, readiness
// conditions, and the kubelet-reported system info.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "src/api/meta.h"
#include "src/api/quantity.h"
#include "src/api/resource_list.h"
#include "src/api/taint.h"
#include "src/api/time.h"

namespace karpenter::api {

struct NodeSpec {
  std::string provider_id;
  bool unschedulable = false;
  std::vector<Taint> taints;
  bool operator==(const NodeSpec&) const = default;
  template <class V>
  void Fields(V& v) {
    v.Ignore("podCIDR");
    v.Ignore("podCIDRs");
    v("providerID", provider_id);
    v("unschedulable", unschedulable);
    v("taints", taints);
    v.Ignore("configSource");
    v.Ignore("externalID");
  }
};

// v1.NodeCondition (not metav1.Condition: it has heartbeats and no observedGeneration).
struct NodeCondition {
  std::string type;    // Ready | MemoryPressure | DiskPressure | PIDPressure | ...
  std::string status;  // True | False | Unknown
  std::optional<Time> last_heartbeat_time;
  std::optional<Time> last_transition_time;
  std::string reason;
  std::string message;
  bool operator==(const NodeCondition&) const = default;
  template <class V>
  void Fields(V& v) {
    v("type", type);
    v("status", status);
    v("lastHeartbeatTime", last_heartbeat_time);
    v("lastTransitionTime", last_transition_time);
    v("reason", reason);
    v("message", message);
  }
};

struct NodeAddress {
  std::string type;  // InternalIP | ExternalIP | Hostname | InternalDNS | ExternalDNS
  std::string address;
  bool operator==(const NodeAddress&) const = default;
  template <class V>
  void Fields(V& v) {
    v("type", type);
    v("address", address);
  }
};

struct NodeSystemInfo {
  std::string kernel_version;
  std::string os_image;
  std::string container_runtime_version;
  std::string kubelet_version;
  std::string operating_system;
  std::string architecture;
  bool operator==(const NodeSystemInfo&) const = default;
  template <class V>
  void Fields(V& v) {
    v.Ignore("machineID");
    v.Ignore("systemUUID");
    v.Ignore("bootID");
    v("kernelVersion", kernel_version);
    v("osImage", os_image);
    v("containerRuntimeVersion", container_runtime_version);
    v("kubeletVersion", kubelet_version);
    v.Ignore("kubeProxyVersion");
    v("operatingSystem", operating_system);
    v("architecture", architecture);
    v.Ignore("swap");
  }
};

struct NodeStatus {
  ResourceList capacity;
  ResourceList allocatable;
  std::vector<NodeCondition> conditions;
  std::vector<NodeAddress> addresses;
  NodeSystemInfo node_info;
  bool operator==(const NodeStatus&) const = default;
  template <class V>
  void Fields(V& v) {
    v("capacity", capacity);
    v("allocatable", allocatable);
    v.Ignore("phase");
    v("conditions", conditions);
    v("addresses", addresses);
    v.Ignore("daemonEndpoints");
    v("nodeInfo", node_info);
    for (const char* skipped : {"images", "volumesInUse", "volumesAttached", "config",
                                "runtimeHandlers", "features", "declaredFeatures"}) {
      v.Ignore(skipped);
    }
  }
};

// Cluster-scoped.
struct Node {
  std::string api_version = "v1";
  std::string kind = "Node";
  ObjectMeta metadata;
  NodeSpec spec;
  NodeStatus status;
  bool operator==(const Node&) const = default;
  template <class V>
  void Fields(V& v) {
    v("apiVersion", api_version);
    v("kind", kind);
    v("metadata", metadata);
    v("spec", spec);
    v("status", status);
  }
};

// SetDefaults_NodeStatus: a node that reports capacity but no allocatable gets
// allocatable = capacity.
void ApplyDefaults(Node& node);

}  // namespace karpenter::api
