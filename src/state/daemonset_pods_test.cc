#include "src/state/daemonset_pods.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "src/state/state_test_util.h"

namespace karpenter::state {
namespace {

using ::testing::SizeIs;
using testing_util::SnapshotFromYaml;

constexpr std::string_view kDaemonSet = R"(
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: aws-node, namespace: kube-system, uid: ds-uid}
spec:
  selector: {matchLabels: {k8s-app: aws-node}}
  template:
    metadata: {labels: {k8s-app: aws-node}, annotations: {a: b}}
    spec:
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms:
            - matchExpressions: [{key: kubernetes.io/os, operator: In, values: [linux]}]
      containers:
      - name: c
        image: i
        resources: {limits: {cpu: 50m, memory: 64Mi}}
        ports: [{containerPort: 61678, hostPort: 61678}]
)";

TEST(DaemonSetPods, TemplatePodCarriesTemplateOwnerAndDefaults) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(kDaemonSet);
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  const api::Pod pod = DaemonSetPodTemplate(snapshot->daemon_sets()[0]);
  EXPECT_EQ(pod.metadata.name, "aws-node");
  EXPECT_EQ(pod.metadata.namespace_, "kube-system");
  EXPECT_EQ(pod.metadata.labels.at("k8s-app"), "aws-node");
  EXPECT_EQ(pod.metadata.annotations.at("a"), "b");
  ASSERT_THAT(pod.metadata.owner_references, SizeIs(1));
  EXPECT_EQ(pod.metadata.owner_references[0].kind, "DaemonSet");
  EXPECT_EQ(pod.metadata.owner_references[0].uid, "ds-uid");
  // Requests come from limits, as the API server would default the real pod.
  EXPECT_EQ(pod.spec.containers[0].resources.requests.at("cpu").String(), "50m");
  EXPECT_EQ(pod.spec.containers[0].ports[0].host_port, 61678);
  EXPECT_TRUE(pod.spec.node_name.empty());
}

TEST(DaemonSetPods, TemplatePodWhenNoLivePodExists) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(kDaemonSet);
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  const std::vector<api::Pod> pods = DaemonSetPods(*snapshot);
  ASSERT_THAT(pods, SizeIs(1));
  EXPECT_EQ(pods[0], DaemonSetPodTemplate(snapshot->daemon_sets()[0]));
}

TEST(DaemonSetPods, NewestLivePodWinsWithTemplateRequiredAffinity) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(std::string(kDaemonSet) + R"(
---
apiVersion: v1
kind: Pod
metadata:
  name: aws-node-old
  namespace: kube-system
  creationTimestamp: "2024-01-01T00:00:00Z"
  ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: aws-node, uid: ds-uid}]
spec:
  nodeName: n1
  containers: [{name: c, image: i, resources: {requests: {cpu: 10m}}}]
---
apiVersion: v1
kind: Pod
metadata:
  name: aws-node-new
  namespace: kube-system
  creationTimestamp: "2024-02-01T00:00:00Z"
  ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: aws-node, uid: ds-uid}]
spec:
  nodeName: n2
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
        - matchFields: [{key: metadata.name, operator: In, values: [n2]}]
  containers:
  - {name: c, image: i, resources: {requests: {cpu: 60m}}}
  - {name: injected-sidecar, image: i, resources: {requests: {cpu: 5m}}}
---
apiVersion: v1
kind: Pod
metadata:
  name: other-owner
  namespace: kube-system
  creationTimestamp: "2025-01-01T00:00:00Z"
  ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: kube-proxy}]
spec: {nodeName: n2, containers: [{name: c, image: i}]}
)");
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  const api::Pod pod = DaemonSetPod(*snapshot, snapshot->daemon_sets()[0]);
  EXPECT_EQ(pod.metadata.name, "aws-node-new");
  ASSERT_THAT(pod.spec.containers, SizeIs(2));
  EXPECT_EQ(pod.spec.containers[0].resources.requests.at("cpu").String(), "60m");
  const auto& terms =
      pod.spec.affinity->node_affinity->required_during_scheduling_ignored_during_execution
          ->node_selector_terms;
  ASSERT_THAT(terms, SizeIs(1));
  EXPECT_TRUE(terms[0].match_fields.empty());
  ASSERT_THAT(terms[0].match_expressions, SizeIs(1));
  EXPECT_EQ(terms[0].match_expressions[0].key, "kubernetes.io/os");
}

}  // namespace
}  // namespace karpenter::state
