#include "src/bench/workload_file.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "src/bench/scheduling_solve.h"

namespace karpenter::bench {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

std::vector<api::Manifest> Decode(std::string_view yaml) {
  absl::StatusOr<std::vector<api::Manifest>> manifests = api::DecodeManifests(yaml, "test.yaml");
  EXPECT_TRUE(manifests.ok()) << manifests.status();
  return manifests.ok() ? *manifests : std::vector<api::Manifest>();
}

constexpr char kPod[] = R"(
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default, uid: u1}
spec:
  containers:
  - name: main
    resources: {requests: {cpu: 500m, memory: 512Mi}}
)";

TEST(WorkloadFile, PendingPodsGetTheBenchmarkPoolAndTheCheapestType) {
  absl::StatusOr<Decisions> decisions =
      SolveWorkload(Decode(kPod), Fake400CatalogFile(), provisioning::SchedulerOptions{});
  ASSERT_TRUE(decisions.ok()) << decisions.status();
  ASSERT_EQ(decisions->node_claims.size(), 1u);
  const ClaimDecision& claim = decisions->node_claims[0];
  EXPECT_EQ(claim.node_pool, "default");
  EXPECT_THAT(claim.pods, ElementsAre("default/web"));
  EXPECT_EQ(claim.instance_type, "fake-it-0");
  EXPECT_DOUBLE_EQ(claim.price, 0.3147483648);
  EXPECT_THAT(claim.zones, ElementsAre("test-zone-1", "test-zone-2", "test-zone-3"));
  EXPECT_THAT(claim.capacity_types, ElementsAre("on-demand", "spot"));
  EXPECT_THAT(decisions->unschedulable, IsEmpty());
}

// `size` is no label of the pool, yet a pod may select it: the catalog declares it well-known.
TEST(WorkloadFile, CatalogLabelsAreWellKnown) {
  const std::string workload = std::string(kPod) + R"(  nodeSelector: {size: large}
)";
  absl::StatusOr<Decisions> decisions =
      SolveWorkload(Decode(workload), Fake400CatalogFile(), provisioning::SchedulerOptions{});
  ASSERT_TRUE(decisions.ok()) << decisions.status();
  ASSERT_EQ(decisions->node_claims.size(), 1u);
  EXPECT_EQ(decisions->node_claims[0].instance_type, "fake-it-4");  // 5 vCPU, 10 GiB: large

  provisioning::InstanceTypeFile undeclared = Fake400CatalogFile();
  undeclared.well_known_labels.clear();
  decisions = SolveWorkload(Decode(workload), undeclared, provisioning::SchedulerOptions{});
  ASSERT_TRUE(decisions.ok()) << decisions.status();
  EXPECT_THAT(decisions->node_claims, IsEmpty());
  EXPECT_THAT(decisions->unschedulable.at("default/web"), HasSubstr("size"));
}

TEST(WorkloadFile, PoolsDaemonSetsAndNodesComeFromTheFile) {
  const std::string workload = std::string(kPod) + R"(---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: capped}
spec:
  limits: {cpu: "100"}
  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
      requirements:
      - {key: karpenter.sh/capacity-type, operator: In, values: [spot]}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: kube-system}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers:
      - name: agent
        resources: {requests: {cpu: "1", memory: 1Gi}}
---
apiVersion: v1
kind: Node
metadata: {name: full, labels: {kubernetes.io/hostname: full}}
status:
  allocatable: {cpu: "1", memory: 1Gi, pods: "10"}
  capacity: {cpu: "1", memory: 1Gi, pods: "10"}
---
apiVersion: v1
kind: Pod
metadata: {name: resident, namespace: default, uid: u0}
spec:
  nodeName: full
  containers:
  - name: main
    resources: {requests: {cpu: 700m}}
)";
  absl::StatusOr<Decisions> decisions =
      SolveWorkload(Decode(workload), Fake400CatalogFile(), provisioning::SchedulerOptions{});
  ASSERT_TRUE(decisions.ok()) << decisions.status();
  // The node has 300m left, so the pod needs a claim: spot only, and big enough for the
  // daemonset's 1 cpu beside the pod's 500m (plus 100m kube-reserved).
  EXPECT_THAT(decisions->existing_nodes, IsEmpty());
  ASSERT_EQ(decisions->node_claims.size(), 1u);
  EXPECT_EQ(decisions->node_claims[0].node_pool, "capped");
  EXPECT_EQ(decisions->node_claims[0].instance_type, "fake-it-1");
  EXPECT_THAT(decisions->node_claims[0].capacity_types, ElementsAre("spot"));
}

TEST(WorkloadFile, PodsFitOnExistingNodes) {
  const std::string workload = std::string(kPod) + R"(---
apiVersion: v1
kind: Node
metadata: {name: roomy, labels: {kubernetes.io/hostname: roomy}}
status:
  allocatable: {cpu: "4", memory: 8Gi, pods: "10"}
)";
  absl::StatusOr<Decisions> decisions =
      SolveWorkload(Decode(workload), Fake400CatalogFile(), provisioning::SchedulerOptions{});
  ASSERT_TRUE(decisions.ok()) << decisions.status();
  EXPECT_THAT(decisions->node_claims, IsEmpty());
  EXPECT_THAT(decisions->existing_nodes.at("roomy"), ElementsAre("default/web"));
}

TEST(WorkloadFile, RefusesWhatItCannotModel) {
  const std::pair<std::string, const char*> cases[] = {
      {R"(
apiVersion: apps/v1
kind: Deployment
metadata: {name: d, namespace: default}
spec: {selector: {}, template: {spec: {containers: []}}}
)",
       "test.yaml: Deployment/default/d: a workload holds Pods, NodePools, DaemonSets and Nodes"},
      {std::string(kPod) + R"(---
apiVersion: v1
kind: Pod
metadata: {name: bound, namespace: default}
spec: {nodeName: ghost, containers: []}
)",
       "Pod/default/bound: spec.nodeName: no Node \"ghost\""},
      {std::string(kPod) + "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n",
       "is not modelled"},
      {R"(
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: empty}
spec: {template: {spec: {nodeClassRef: {group: g, kind: k, name: n}}}}
)",
       "workload: no pending pod"},
  };
  for (const auto& [yaml, want] : cases) {
    absl::StatusOr<Decisions> decisions =
        SolveWorkload(Decode(yaml), Fake400CatalogFile(), provisioning::SchedulerOptions{});
    ASSERT_FALSE(decisions.ok()) << yaml;
    EXPECT_EQ(decisions.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(decisions.status().message(), HasSubstr(want));
  }
}

}  // namespace
}  // namespace karpenter::bench
