// BuildSchedulerInput: EC2NodeClass settings reach the instance types, nodes and in-flight
// NodeClaims become existing nodes with what is bound to them, deleting nodes give up their pods.
#include "src/provisioning/snapshot_input.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "src/state/state_test_util.h"

namespace karpenter::provisioning {
namespace {

using state::testing_util::SnapshotFromYaml;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr char kPool[] = R"(
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: default}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
---
)";

std::string NodeClass(const std::string& extra_spec, const std::string& status = "") {
  return R"(
apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata: {name: default}
spec:
  role: node-role
  subnetSelectorTerms: [{tags: {k: v}}]
  securityGroupSelectorTerms: [{tags: {k: v}}]
  amiSelectorTerms: [{alias: al2023@latest}]
)" + extra_spec +
         status + "\n---\n";
}

// The input's bound pods point into `snapshot`, which the caller keeps.
SnapshotSchedulerInput BuildFrom(state::ClusterSnapshot& snapshot, const std::string& yaml,
                                 api::Time now = {}) {
  absl::StatusOr<state::ClusterSnapshot> parsed = SnapshotFromYaml(yaml);
  EXPECT_TRUE(parsed.ok()) << parsed.status();
  if (parsed.ok()) snapshot = *std::move(parsed);
  CatalogCache catalogs;
  PlanOptions options;
  options.now = now;
  absl::StatusOr<SnapshotSchedulerInput> input = BuildSchedulerInput(snapshot, options, catalogs);
  EXPECT_TRUE(input.ok()) << input.status();
  return *std::move(input);
}

// For tests that do not look at bound pods (which would point into a snapshot gone by then).
SnapshotSchedulerInput Build(const std::string& yaml, api::Time now = {}) {
  state::ClusterSnapshot snapshot;
  SnapshotSchedulerInput input = BuildFrom(snapshot, yaml, now);
  input.input.bound_pods.clear();
  return input;
}

const InstanceTypeView* FindType(const SnapshotSchedulerInput& input, const std::string& name) {
  if (input.input.node_pools.empty()) return nullptr;
  for (const InstanceTypeView& type : input.input.node_pools[0].instance_types) {
    if (type.name == name) return &type;
  }
  return nullptr;
}

const ExistingNodeView* FindNode(const SnapshotSchedulerInput& input, const std::string& name) {
  for (const ExistingNodeView& node : input.input.existing_nodes) {
    if (node.name == name) return &node;
  }
  return nullptr;
}

std::string Keys(const std::vector<api::Pod>& pods) {
  std::string out;
  for (const api::Pod& pod : pods) out += pod.metadata.namespace_ + "/" + pod.metadata.name + ";";
  return out;
}

std::string Keys(const std::vector<const api::Pod*>& pods) {
  std::string out;
  for (const api::Pod* pod : pods) out += pod->metadata.namespace_ + "/" + pod->metadata.name + ";";
  return out;
}

TEST(BuildSchedulerInput, KubeletMaxPodsChangesAllocatablePods) {
  SnapshotSchedulerInput plain = Build(std::string(kPool) + NodeClass(""));
  SnapshotSchedulerInput capped =
      Build(std::string(kPool) + NodeClass("  kubelet: {maxPods: 8}\n"));
  const InstanceTypeView* plain_type = FindType(plain, "m5.large");
  const InstanceTypeView* capped_type = FindType(capped, "m5.large");
  ASSERT_NE(plain_type, nullptr);
  ASSERT_NE(capped_type, nullptr);
  EXPECT_EQ(plain_type->allocatable.at("pods").String(), "29");  // ENI-limited default
  EXPECT_EQ(capped_type->allocatable.at("pods").String(), "8");
}

TEST(BuildSchedulerInput, RootVolumeSizeSetsEphemeralStorage) {
  SnapshotSchedulerInput input = Build(std::string(kPool) + NodeClass(R"(  blockDeviceMappings:
    - deviceName: /dev/xvda
      ebs: {volumeSize: 50Gi}
)"));
  const InstanceTypeView* type = FindType(input, "m5.large");
  ASSERT_NE(type, nullptr);
  EXPECT_EQ(type->capacity.at("ephemeral-storage").String(), "50Gi");
}

TEST(BuildSchedulerInput, SubnetZonesRestrictOfferings) {
  SnapshotSchedulerInput input = Build(std::string(kPool) + NodeClass("", R"(status:
  subnets:
    - {id: subnet-1, zone: us-east-1b}
    - {id: subnet-2, zone: us-east-1a}
)"));
  const InstanceTypeView* type = FindType(input, "m5.large");
  ASSERT_NE(type, nullptr);
  for (const OfferingView& offering : type->offerings) {
    EXPECT_TRUE(offering.zone == "us-east-1a" || offering.zone == "us-east-1b") << offering.zone;
  }
  EXPECT_FALSE(type->requirements.Find("topology.kubernetes.io/zone")->Has("us-east-1c"));
  EXPECT_TRUE(type->requirements.Find("topology.kubernetes.io/zone")->Has("us-east-1a"));
}

TEST(BuildSchedulerInput, TypeRequirementsCarryLabelsAndCapacityTypes) {
  SnapshotSchedulerInput input = Build(std::string(kPool) + NodeClass(""));
  const InstanceTypeView* type = FindType(input, "m5.large");
  ASSERT_NE(type, nullptr);
  EXPECT_TRUE(type->requirements.Find("karpenter.k8s.aws/instance-category")->Has("m"));
  EXPECT_TRUE(type->requirements.Find("karpenter.sh/capacity-type")->Has("spot"));
  EXPECT_TRUE(type->requirements.Find("karpenter.sh/capacity-type")->Has("on-demand"));
  EXPECT_EQ(type->allocatable.at("cpu").String(), "1930m");
}

TEST(BuildSchedulerInput, NodePoolWithoutItsNodeClassIsLeftOutWithAWarning) {
  SnapshotSchedulerInput input = Build(kPool);
  EXPECT_THAT(input.input.node_pools, IsEmpty());
  EXPECT_THAT(input.warnings,
              ElementsAre("nodepool \"default\" is not ready: EC2NodeClass \"default\" not found"));
  EXPECT_EQ(input.not_ready_node_pools, input.warnings);
}

// The controllers take each pool's types from the cloud provider: the input leaves them empty
// rather than building (and caching) the embedded catalog's views only to have them replaced,
// and a pool that is not ready is still left out with its warning.
TEST(BuildSchedulerInput, AHostSupplyingTheTypesGetsEveryReadyPoolWithoutCatalogViews) {
  PlanOptions options;
  options.host_supplies_node_pool_types = true;
  for (const bool with_node_class : {true, false}) {
    absl::StatusOr<state::ClusterSnapshot> snapshot =
        SnapshotFromYaml(std::string(kPool) + (with_node_class ? NodeClass("") : ""));
    ASSERT_TRUE(snapshot.ok()) << snapshot.status();
    CatalogCache catalogs;
    absl::StatusOr<SnapshotSchedulerInput> input =
        BuildSchedulerInput(*snapshot, options, catalogs);
    ASSERT_TRUE(input.ok()) << input.status();
    if (!with_node_class) {
      EXPECT_THAT(input->input.node_pools, IsEmpty());
      EXPECT_THAT(input->warnings, ElementsAre(::testing::HasSubstr("is not ready")));
      continue;
    }
    ASSERT_EQ(input->input.node_pools.size(), 1u);
    EXPECT_EQ(input->input.node_pools[0].node_pool.metadata.name, "default");
    EXPECT_THAT(input->input.node_pools[0].instance_types, IsEmpty());
    EXPECT_THAT(input->warnings, IsEmpty());
  }
}

constexpr char kNodeWithPods[] = R"(
apiVersion: v1
kind: Node
metadata:
  name: node-a
  labels: {karpenter.sh/nodepool: default, topology.kubernetes.io/zone: us-east-1a}
spec: {providerID: "aws:///us-east-1a/i-a"}
status:
  allocatable: {cpu: "4", memory: 16Gi, pods: "58"}
---
apiVersion: v1
kind: Pod
metadata: {name: app, namespace: default}
spec:
  nodeName: node-a
  containers:
    - name: c
      image: x
      resources: {requests: {cpu: 500m, memory: 1Gi}}
      ports: [{containerPort: 80, hostPort: 8080}]
---
apiVersion: v1
kind: Pod
metadata:
  name: ds-pod
  namespace: kube-system
  ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: ds, uid: u1, controller: true}]
spec:
  nodeName: node-a
  containers:
    - name: c
      image: x
      resources: {requests: {cpu: 100m, memory: 128Mi}}
---
apiVersion: v1
kind: Pod
metadata: {name: done, namespace: default}
spec:
  nodeName: node-a
  containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]
status: {phase: Succeeded}
---
)";

TEST(BuildSchedulerInput, BoundPodsAreChargedToTheirNode) {
  state::ClusterSnapshot snapshot;
  SnapshotSchedulerInput input =
      BuildFrom(snapshot, std::string(kPool) + NodeClass("") + kNodeWithPods);
  const ExistingNodeView* node = FindNode(input, "node-a");
  ASSERT_NE(node, nullptr);
  EXPECT_EQ(node->requested.at("cpu").String(), "600m");
  EXPECT_EQ(node->daemon_requested.at("cpu").String(), "100m");
  ASSERT_EQ(node->host_ports_used.size(), 1u);
  EXPECT_EQ(node->host_ports_used[0].host_port, 8080);
  EXPECT_TRUE(node->managed);
  EXPECT_TRUE(node->initialized);  // no NodeClaim: nothing to wait for
  EXPECT_EQ(Keys(input.input.bound_pods), "default/app;kube-system/ds-pod;");
  EXPECT_THAT(input.input.pending_pods, IsEmpty());
}

// A node's view reads the labels of the snapshot's Node without copying them, and they stay
// readable after the snapshot goes (the view keeps the snapshot's node list alive).
TEST(BuildSchedulerInput, NodeLabelsAreBorrowedFromTheSnapshot) {
  auto snapshot = std::make_unique<state::ClusterSnapshot>();
  SnapshotSchedulerInput input =
      BuildFrom(*snapshot, std::string(kPool) + NodeClass("") + kNodeWithPods);
  input.input.bound_pods.clear();
  const ExistingNodeView* node = FindNode(input, "node-a");
  ASSERT_NE(node, nullptr);
  const api::Node* live = snapshot->FindNode("node-a");
  ASSERT_NE(live, nullptr);
  EXPECT_TRUE(node->labels.SharesWith(live->metadata.labels));
  const SharedLabels::Map want = live->metadata.labels;
  ASSERT_FALSE(want.empty());
  snapshot.reset();
  EXPECT_EQ(node->labels.map(), want);
}

// The parts of a node's view that its bound pods decide, as text.
std::string ChargeText(const SnapshotSchedulerInput& input, const std::string& node_name) {
  const ExistingNodeView* node = FindNode(input, node_name);
  if (node == nullptr) return "absent";
  std::string text = Keys(input.input.bound_pods);
  for (const auto& [name, quantity] : node->requested) text += name + "=" + quantity.String() + ",";
  for (const auto& [name, quantity] : node->daemon_requested) {
    text += "daemon " + name + "=" + quantity.String() + ",";
  }
  for (const api::ContainerPort& port : node->host_ports_used) {
    text += "port " + std::to_string(port.host_port) + ",";
  }
  return text;
}

absl::StatusOr<SnapshotSchedulerInput> BuildWith(const state::ClusterSnapshot& snapshot,
                                                 BoundPodCharges* charges) {
  CatalogCache catalogs;
  return BuildSchedulerInput(snapshot, {.bound_pod_charges = charges}, catalogs);
}

// A host keeps the charges between inputs: a node whose pods are the same objects is charged
// from memory, one whose pods changed is summed again, and a node that left is forgotten. The
// inputs are the same as without the memory every time.
TEST(BuildSchedulerInput, RemembersChargesOfNodesWhosePodsDidNotChange) {
  absl::StatusOr<state::ClusterSnapshot> snapshot = SnapshotFromYaml(
      std::string(kPool) + NodeClass("") + kNodeWithPods, {.expand_workloads = false});
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  BoundPodCharges charges;
  auto expect_same_as_without = [&](const state::ClusterSnapshot& at) {
    absl::StatusOr<SnapshotSchedulerInput> remembered = BuildWith(at, &charges);
    absl::StatusOr<SnapshotSchedulerInput> summed = BuildWith(at, nullptr);
    ASSERT_TRUE(remembered.ok() && summed.ok());
    EXPECT_EQ(ChargeText(*remembered, "node-a"), ChargeText(*summed, "node-a"));
  };
  expect_same_as_without(*snapshot);
  ASSERT_EQ(charges.size(), 1u);
  const BoundPodCharges::Charge* first =
      charges.Find("node-a", snapshot->SharedPodsOnNode("node-a"));
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->requested.at("cpu").String(), "600m");
  expect_same_as_without(*snapshot);  // from memory

  // The next snapshot has a bigger "app": the memory no longer matches.
  state::ClusterSnapshot next = *snapshot;
  std::vector<state::SharedPod> pods;
  for (size_t i = 0; i < next.pods().size(); ++i) pods.push_back(next.pods().shared(i));
  api::Pod bigger = pods[0]->pod;  // default/app, first by (namespace, name)
  ASSERT_EQ(bigger.metadata.name, "app");
  bigger.spec.containers[0].resources.requests["cpu"] = *api::Quantity::Parse("2");
  pods[0] = std::make_shared<const state::SnapshotPod>(std::move(bigger));
  ASSERT_TRUE(next.ReplacePods(std::move(pods)).ok());
  EXPECT_EQ(charges.Find("node-a", next.SharedPodsOnNode("node-a")), nullptr);
  expect_same_as_without(next);
  EXPECT_EQ(charges.Find("node-a", next.SharedPodsOnNode("node-a"))->requested.at("cpu").String(),
            "2100m");

  // Without its node, the entry goes at the next input.
  absl::StatusOr<state::ClusterSnapshot> empty =
      SnapshotFromYaml(std::string(kPool) + NodeClass(""), {.expand_workloads = false});
  ASSERT_TRUE(empty.ok()) << empty.status();
  expect_same_as_without(*empty);
  EXPECT_EQ(charges.size(), 0u);
}

TEST(BuildSchedulerInput, DeletingNodesPodsArePendingAndTheNodeIsGone) {
  std::string yaml = std::string(kPool) + NodeClass("") + kNodeWithPods;
  const std::string marker = "  name: node-a\n";
  yaml.replace(yaml.find(marker), marker.size(),
               marker + "  deletionTimestamp: \"2024-05-01T00:00:00Z\"\n");
  state::ClusterSnapshot snapshot;
  SnapshotSchedulerInput input =
      BuildFrom(snapshot, yaml, api::Time::FromUnixNanos(1'717'000'000'000'000'000));
  EXPECT_EQ(FindNode(input, "node-a"), nullptr);
  EXPECT_THAT(input.input.bound_pods, IsEmpty());
  // The DaemonSet pod stays behind; the finished pod has nowhere to go.
  ASSERT_EQ(Keys(input.input.pending_pods), "default/app;");
  EXPECT_EQ(input.input.pending_pods[0].spec.node_name, "");
}

TEST(BuildSchedulerInput, InFlightNodeClaimBecomesAnUninitializedNode) {
  SnapshotSchedulerInput input = Build(std::string(kPool) + NodeClass("") + R"(
apiVersion: karpenter.sh/v1
kind: NodeClaim
metadata:
  name: default-abcde
  labels: {karpenter.sh/nodepool: default}
spec:
  nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
  requirements:
    - {key: node.kubernetes.io/instance-type, operator: In, values: [m5.large]}
    - {key: topology.kubernetes.io/zone, operator: In, values: [us-east-1c]}
    - {key: karpenter.sh/capacity-type, operator: In, values: [spot, on-demand]}
---
)");
  const ExistingNodeView* node = FindNode(input, "default-abcde");
  ASSERT_NE(node, nullptr);
  EXPECT_TRUE(node->managed);
  EXPECT_FALSE(node->initialized);
  EXPECT_EQ(node->allocatable.at("pods").String(), "29");
  EXPECT_EQ(node->allocatable.at("cpu").String(), "1930m");
  EXPECT_EQ(node->labels.at("topology.kubernetes.io/zone"), "us-east-1c");
  EXPECT_EQ(node->labels.at("karpenter.k8s.aws/instance-family"), "m5");
  EXPECT_EQ(node->labels.at("karpenter.sh/nodepool"), "default");
  EXPECT_FALSE(node->labels.contains("karpenter.sh/capacity-type"));  // not decided yet
}

TEST(BuildSchedulerInput, InFlightNodeClaimOfUnknownSizeIsLeftOutWithAWarning) {
  SnapshotSchedulerInput input = Build(std::string(kPool) + NodeClass("") + R"(
apiVersion: karpenter.sh/v1
kind: NodeClaim
metadata: {name: default-xyz}
spec:
  nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
  requirements:
    - {key: node.kubernetes.io/instance-type, operator: In, values: [m5.large, m5.xlarge]}
---
)");
  EXPECT_EQ(FindNode(input, "default-xyz"), nullptr);
  ASSERT_EQ(input.warnings.size(), 1u);
  EXPECT_THAT(input.warnings[0], ::testing::HasSubstr("nodeclaim \"default-xyz\" is left out"));
}

}  // namespace
}  // namespace karpenter::provisioning
