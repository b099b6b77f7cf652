// Test helpers for src/disruption: small cluster snapshots written as YAML (the same objects a
// `kubectl get -o yaml` dump holds), so tests read like the scenarios they pin down.
#pragma once

#include <string>
#include <vector>

#include "fmt/format.h"
#include "gtest/gtest.h"
#include "src/api/time.h"
#include "src/provisioning/snapshot_input.h"
#include "src/state/snapshot.h"
#include "src/state/state_test_util.h"

namespace karpenter::disruption::testing {

inline constexpr char kNodeClass[] = R"(apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata: {name: default}
spec:
  amiFamily: AL2023
  role: KarpenterNodeRole-test
  subnetSelectorTerms:
  - tags: {karpenter.sh/discovery: test}
  securityGroupSelectorTerms:
  - tags: {karpenter.sh/discovery: test}
  amiSelectorTerms:
  - {alias: al2023@latest}
)";

// A NodePool of the m5 family; `disruption` is the YAML body of spec.disruption.
inline std::string NodePoolYaml(const std::string& name, const std::string& disruption,
                                const std::string& capacity_types = "on-demand") {
  return fmt::format(R"(apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {{name: {}}}
spec:
  disruption: {}
  template:
    spec:
      nodeClassRef: {{group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}}
      requirements:
      - {{key: karpenter.k8s.aws/instance-family, operator: In, values: [m5]}}
      - {{key: karpenter.sh/capacity-type, operator: In, values: [{}]}}
)",
                     name, disruption, capacity_types);
}

struct NodeSpec {
  std::string name;
  std::string pool = "default";
  std::string instance_type = "m5.xlarge";
  std::string capacity_type = "on-demand";
  std::string cpu = "3920m";
  bool initialized = true;
  std::string node_annotations = "{}";
};

// A Node and its initialized NodeClaim, created 2026-12-01T00:00:00Z in us-east-1a.
inline std::string NodeYaml(const NodeSpec& n) {
  const std::string provider_id = "aws:///us-east-1a/i-" + n.name;
  const std::string labels = fmt::format(
      "{{karpenter.sh/nodepool: {}, node.kubernetes.io/instance-type: {}, "
      "topology.kubernetes.io/zone: us-east-1a, karpenter.sh/capacity-type: {}{}}}",
      n.pool, n.instance_type, n.capacity_type,
      n.initialized ? ", karpenter.sh/initialized: 'true'" : "");
  return fmt::format(R"(apiVersion: v1
kind: Node
metadata:
  name: {0}
  labels: {1}
  annotations: {5}
spec: {{providerID: '{2}'}}
status:
  allocatable: {{cpu: {3}, memory: 14162Mi, pods: '58'}}
  conditions: [{{type: Ready, status: 'True'}}]
---
apiVersion: karpenter.sh/v1
kind: NodeClaim
metadata:
  name: claim-{0}
  creationTimestamp: '2026-12-01T00:00:00Z'
  labels: {1}
spec:
  nodeClassRef: {{group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}}
  requirements: [{{key: node.kubernetes.io/instance-type, operator: In, values: [{4}]}}]
status:
  providerID: '{2}'
  nodeName: {0}
  allocatable: {{cpu: {3}, memory: 14162Mi, pods: '58'}}
  conditions: [{6}]
)",
                     n.name, labels, provider_id, n.cpu, n.instance_type, n.node_annotations,
                     n.initialized ? "{type: Initialized, status: 'True', lastTransitionTime: "
                                     "'2026-12-01T00:00:00Z'}"
                                   : "");
}

struct PodSpec {
  std::string name;
  std::string node;  // empty: pending
  std::string cpu = "100m";
  std::string labels = "{}";
  std::string annotations = "{}";
  std::string nominated_node;  // pending pods: status.nominatedNodeName
};

// The node a pod is bound to and its status, or its pending status.
inline std::string PodPlacementYaml(const PodSpec& p) {
  if (!p.node.empty()) {
    return fmt::format(
        "  nodeName: {}\nstatus: {{phase: Running, startTime: '2026-12-01T00:00:00Z'}}", p.node);
  }
  if (!p.nominated_node.empty()) {
    return fmt::format("status: {{phase: Pending, nominatedNodeName: {}}}", p.nominated_node);
  }
  return "status: {phase: Pending}";
}

inline std::string PodYaml(const PodSpec& p) {
  return fmt::format(R"(apiVersion: v1
kind: Pod
metadata: {{name: {}, namespace: default, labels: {}, annotations: {}}}
spec:
  containers:
  - {{name: app, image: pause, resources: {{requests: {{cpu: {}, memory: 128Mi}}}}}}
{}
)",
                     p.name, p.labels, p.annotations, p.cpu, PodPlacementYaml(p));
}

inline std::string PdbYaml(const std::string& name, const std::string& app, int allowed) {
  return fmt::format(R"(apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {{name: {}, namespace: default}}
spec:
  maxUnavailable: 1
  selector: {{matchLabels: {{app: {}}}}}
status: {{disruptionsAllowed: {}}}
)",
                     name, app, allowed);
}

inline std::string Join(const std::vector<std::string>& documents) {
  std::string out;
  for (const std::string& document : documents) out += document + "---\n";
  return out;
}

// A snapshot read from YAML documents and the scheduler input a host builds for it at `now`.
struct LoadedCluster {
  state::ClusterSnapshot snapshot;
  provisioning::SnapshotSchedulerInput input;
};

inline LoadedCluster LoadCluster(const std::vector<std::string>& documents, api::Time now) {
  absl::StatusOr<state::ClusterSnapshot> snapshot =
      state::testing_util::SnapshotFromYaml(Join(documents));
  EXPECT_TRUE(snapshot.ok()) << snapshot.status();
  LoadedCluster cluster{*std::move(snapshot), {}};
  provisioning::CatalogCache catalogs;
  absl::StatusOr<provisioning::SnapshotSchedulerInput> input =
      provisioning::BuildSchedulerInput(cluster.snapshot, {.now = now}, catalogs);
  EXPECT_TRUE(input.ok()) << input.status();
  cluster.input = *std::move(input);
  return cluster;
}

}  // namespace karpenter::disruption::testing
