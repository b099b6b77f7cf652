#include "src/state/workload_expansion.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <set>

#include "src/api/manifest.h"
#include "src/state/expansion_limit.h"
#include "src/state/pending.h"
#include "src/state/state_test_util.h"

namespace karpenter::state {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::SizeIs;
using testing_util::ExpandedPodNames;
using testing_util::ReadSourceFile;
using testing_util::SnapshotFromYaml;
using testing_util::StrictManifests;

std::string ArticleYaml() {
  return ReadSourceFile("examples/article/ec2nodeclass.yaml") + "\n---\n" +
         ReadSourceFile("examples/article/nodepool.yaml") + "\n---\n" +
         ReadSourceFile("examples/article/workload-sample.yaml");
}

std::vector<std::string> EncodedPods(const ClusterSnapshot& snapshot) {
  std::vector<std::string> encoded;
  for (const api::Pod& pod : snapshot.pods()) encoded.push_back(api::EncodeObject(pod));
  return encoded;
}

TEST(WorkloadExpansion, ArticleDeploymentExpandsToTenPendingPods) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(ArticleYaml());
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  PendingPods pending = SelectPendingPods(*snapshot);
  ASSERT_THAT(pending.pods, SizeIs(10));
  EXPECT_THAT(pending.ignored, IsEmpty());
  const std::regex name_pattern("workload-sample-[bcdfghjklmnpqrstvwxz2456789]{5}");
  std::set<std::string> names;
  std::set<std::string> uids;
  for (const api::Pod* pod : pending.pods) {
    EXPECT_TRUE(std::regex_match(pod->metadata.name, name_pattern)) << pod->metadata.name;
    names.insert(pod->metadata.name);
    uids.insert(pod->metadata.uid);
    EXPECT_EQ(pod->metadata.namespace_, "default");
    EXPECT_EQ(pod->metadata.labels.at("app"), "workload-sample");
    ASSERT_THAT(pod->metadata.owner_references, SizeIs(1));
    const api::OwnerReference& owner = pod->metadata.owner_references[0];
    EXPECT_EQ(owner.api_version, "apps/v1");
    EXPECT_EQ(owner.kind, "Deployment");
    EXPECT_EQ(owner.name, "workload-sample");
    EXPECT_EQ(owner.controller, true);
    EXPECT_EQ(pod->status.phase, "Pending");
    ASSERT_THAT(pod->status.conditions, SizeIs(1));
    EXPECT_EQ(pod->status.conditions[0].type, "PodScheduled");
    EXPECT_EQ(pod->status.conditions[0].status, "False");
    EXPECT_EQ(pod->status.conditions[0].reason, "Unschedulable");
    EXPECT_EQ(pod->metadata.creation_timestamp, api::Time());
    ASSERT_THAT(pod->spec.containers, SizeIs(1));
    EXPECT_EQ(pod->spec.containers[0].resources.requests.at("cpu").String(), "500m");
    ASSERT_THAT(pod->spec.topology_spread_constraints, SizeIs(1));
  }
  EXPECT_THAT(names, SizeIs(10));
  EXPECT_THAT(uids, SizeIs(10));
}

TEST(WorkloadExpansion, SameSnapshotExpandsToSameObjectsInEveryInputOrder) {
  absl::StatusOr<std::vector<api::Manifest>> manifests = StrictManifests(ArticleYaml() + R"(
---
apiVersion: v1
kind: Pod
metadata: {name: existing, namespace: default, labels: {app: other}}
spec: {containers: [{name: c, image: i}]}
---
apiVersion: batch/v1
kind: Job
metadata: {name: batch, namespace: jobs}
spec:
  parallelism: 2
  completions: 4
  template:
    spec: {restartPolicy: Never, containers: [{name: c, image: i}]}
)");
  ASSERT_TRUE(manifests.ok()) << manifests.status();
  absl::StatusOr<ClusterSnapshot> reference = ClusterSnapshot::FromManifests(*manifests);
  ASSERT_TRUE(reference.ok()) << reference.status();
  const std::vector<std::string> expected = EncodedPods(*reference);
  ASSERT_THAT(expected, SizeIs(13));
  for (size_t rotation = 1; rotation <= manifests->size(); ++rotation) {
    std::vector<api::Manifest> shuffled = *manifests;
    std::rotate(shuffled.begin(), shuffled.begin() + (rotation % shuffled.size()), shuffled.end());
    if (rotation % 2 == 0) std::reverse(shuffled.begin(), shuffled.end());
    absl::StatusOr<ClusterSnapshot> snapshot = ClusterSnapshot::FromManifests(shuffled);
    ASSERT_TRUE(snapshot.ok()) << snapshot.status();
    EXPECT_EQ(EncodedPods(*snapshot), expected) << "rotation " << rotation;
  }
}

TEST(WorkloadExpansion, RepeatedRunsGiveTheSameNames) {
  absl::StatusOr<ClusterSnapshot> first = SnapshotFromYaml(ArticleYaml());
  absl::StatusOr<ClusterSnapshot> second = SnapshotFromYaml(ArticleYaml());
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(ExpandedPodNames(*first), ExpandedPodNames(*second));
}

constexpr std::string_view kDeployment = R"(
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
  uid: 11111111-0000-0000-0000-000000000001
  creationTimestamp: "2024-05-01T10:00:00Z"
spec:
  replicas: 4
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}, annotations: {team: a}}
    spec:
      containers:
      - name: c
        image: i
        resources: {limits: {cpu: "1", memory: 1Gi}}
)";

std::string WithDeployment(std::string_view extra) {
  return std::string(kDeployment) + "---\n" + std::string(extra);
}

TEST(WorkloadExpansion, GeneratedPodsCopyTemplateAndOwnerTime) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(kDeployment);
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  ASSERT_THAT(snapshot->pods(), SizeIs(4));
  const api::Pod& pod = snapshot->pods()[0];
  EXPECT_EQ(pod.metadata.annotations.at("team"), "a");
  EXPECT_EQ(pod.metadata.owner_references[0].uid, "11111111-0000-0000-0000-000000000001");
  EXPECT_EQ(pod.metadata.creation_timestamp->Rfc3339(), "2024-05-01T10:00:00Z");
  // API-server pod defaults: requests default to limits.
  EXPECT_EQ(pod.spec.containers[0].resources.requests.at("cpu").String(), "1");
  EXPECT_EQ(pod.spec.containers[0].resources.requests.at("memory").String(), "1Gi");
}

TEST(WorkloadExpansion, DeploymentSubtractsActivePodsOfItsReplicaSets) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(WithDeployment(R"(
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: web-6d4b
  namespace: default
  ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: web, controller: true}]
spec:
  replicas: 4
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: i}]}
---
apiVersion: v1
kind: Pod
metadata:
  name: web-6d4b-aaaaa
  namespace: default
  labels: {app: web}
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-6d4b, controller: true}]
spec: {nodeName: n1, containers: [{name: c, image: i}]}
status: {phase: Running}
---
apiVersion: v1
kind: Pod
metadata:
  name: web-6d4b-bbbbb
  namespace: default
  labels: {app: web}
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-6d4b, controller: true}]
spec: {containers: [{name: c, image: i}]}
---
apiVersion: v1
kind: Pod
metadata:
  name: web-6d4b-done
  namespace: default
  labels: {app: web}
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-6d4b, controller: true}]
spec: {containers: [{name: c, image: i}]}
status: {phase: Failed}
---
apiVersion: v1
kind: Pod
metadata: {name: stray, namespace: default, labels: {app: web}}
spec: {containers: [{name: c, image: i}]}
)"));
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  // Two active pods of its ReplicaSet; with a ReplicaSet present, the stray selector match and
  // the failed pod do not count, and the ReplicaSet itself is not expanded a second time.
  EXPECT_EQ(snapshot->expanded_pod_count(), 2u);
  // Afterwards the expanded pods (owned by the Deployment) count too.
  EXPECT_EQ(ExistingReplicas(*snapshot, snapshot->deployments()[0]), 4);
  for (const std::string& name : ExpandedPodNames(*snapshot)) {
    EXPECT_EQ(name.rfind("web-", 0), 0u) << name;
    EXPECT_EQ(name.size(), 9u) << name;
  }
}

TEST(WorkloadExpansion, DeploymentWithoutReplicaSetsCountsSelectorMatches) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(WithDeployment(R"(
apiVersion: v1
kind: Pod
metadata: {name: match-orphan, namespace: default, labels: {app: web}}
spec: {containers: [{name: c, image: i}]}
---
apiVersion: v1
kind: Pod
metadata:
  name: match-rs-not-in-snapshot
  namespace: default
  labels: {app: web}
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-old, controller: true}]
spec: {containers: [{name: c, image: i}]}
---
apiVersion: v1
kind: Pod
metadata:
  name: match-but-job-pod
  namespace: default
  labels: {app: web}
  ownerReferences: [{apiVersion: batch/v1, kind: Job, name: j, controller: true}]
spec: {containers: [{name: c, image: i}]}
---
apiVersion: v1
kind: Pod
metadata:
  name: match-terminating
  namespace: default
  labels: {app: web}
  deletionTimestamp: "2024-05-01T10:00:00Z"
spec: {containers: [{name: c, image: i}]}
---
apiVersion: v1
kind: Pod
metadata: {name: match-other-namespace, namespace: other, labels: {app: web}}
spec: {containers: [{name: c, image: i}]}
---
apiVersion: v1
kind: Pod
metadata: {name: no-match, namespace: default, labels: {app: api}}
spec: {containers: [{name: c, image: i}]}
)"));
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  EXPECT_EQ(snapshot->expanded_pod_count(), 2u);
}

TEST(WorkloadExpansion, DeploymentDefaultsToOneReplica) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(R"(
apiVersion: apps/v1
kind: Deployment
metadata: {name: one}
spec:
  selector: {matchLabels: {app: one}}
  template:
    metadata: {labels: {app: one}}
    spec: {containers: [{name: c, image: i}]}
)");
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  EXPECT_EQ(snapshot->expanded_pod_count(), 1u);
}

TEST(WorkloadExpansion, DeploymentScaledToZeroOrOverProvisionedAddsNothing) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(R"(
apiVersion: apps/v1
kind: Deployment
metadata: {name: zero}
spec:
  replicas: 0
  selector: {matchLabels: {app: zero}}
  template:
    metadata: {labels: {app: zero}}
    spec: {containers: [{name: c, image: i}]}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: over}
spec:
  replicas: 1
  selector: {matchLabels: {app: over}}
  template:
    metadata: {labels: {app: over}}
    spec: {containers: [{name: c, image: i}]}
---
apiVersion: v1
kind: Pod
metadata: {name: over-1, labels: {app: over}}
spec: {containers: [{name: c, image: i}]}
---
apiVersion: v1
kind: Pod
metadata: {name: over-2, labels: {app: over}}
spec: {containers: [{name: c, image: i}]}
)");
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  EXPECT_EQ(snapshot->expanded_pod_count(), 0u);
}

TEST(WorkloadExpansion, FeedingExpandedPodsBackAddsNothingAndKeepsNames) {
  absl::StatusOr<ClusterSnapshot> first = SnapshotFromYaml(kDeployment);
  ASSERT_TRUE(first.ok()) << first.status();
  std::vector<SourcedObject> objects;
  for (const api::Deployment& d : first->deployments()) objects.push_back({d, "deployment"});
  for (const api::Pod& pod : first->pods()) objects.push_back({pod, pod.metadata.name});
  absl::StatusOr<ClusterSnapshot> second = ClusterSnapshot::FromObjects(objects);
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(second->expanded_pod_count(), 0u);
  EXPECT_EQ(EncodedPods(*second), EncodedPods(*first));
}

TEST(WorkloadExpansion, PartlyExpandedSnapshotGetsTheRemainingNames) {
  absl::StatusOr<ClusterSnapshot> full = SnapshotFromYaml(kDeployment);
  ASSERT_TRUE(full.ok()) << full.status();
  std::vector<SourcedObject> objects;
  objects.push_back({full->deployments()[0], "deployment"});
  objects.push_back({full->pods()[1], "kept pod"});
  absl::StatusOr<ClusterSnapshot> partial = ClusterSnapshot::FromObjects(objects);
  ASSERT_TRUE(partial.ok()) << partial.status();
  EXPECT_EQ(partial->expanded_pod_count(), 3u);
  EXPECT_EQ(EncodedPods(*partial), EncodedPods(*full));
}

TEST(WorkloadExpansion, GeneratedNamesAvoidExistingPods) {
  absl::StatusOr<ClusterSnapshot> plain = SnapshotFromYaml(kDeployment);
  ASSERT_TRUE(plain.ok()) << plain.status();
  const std::string taken = plain->pods()[0].metadata.name;
  // An unrelated pod (not owned, not matching) already holds one of the names expansion picks.
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(
      WithDeployment("apiVersion: v1\nkind: Pod\nmetadata: {name: " + taken +
                     ", labels: {app: unrelated}}\nspec: {containers: [{name: c, image: i}]}\n"));
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  EXPECT_EQ(snapshot->expanded_pod_count(), 4u);
  const api::Pod* holder = snapshot->FindPod("default", taken);
  ASSERT_NE(holder, nullptr);
  EXPECT_FALSE(snapshot->IsExpanded(*holder));
}

constexpr std::string_view kReplicaSets = R"(
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: i}]}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: web-abc
  namespace: default
  ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: web, controller: true}]
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: i}]}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: lone
  namespace: default
  ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: deleted-deployment}]
spec:
  replicas: 2
  selector: {matchLabels: {app: lone}}
  template:
    metadata: {labels: {app: lone}}
    spec: {containers: [{name: c, image: i}]}
---
apiVersion: v1
kind: Pod
metadata: {name: lone-orphan, namespace: default, labels: {app: lone}}
spec: {containers: [{name: c, image: i}]}
)";

TEST(WorkloadExpansion, ReplicaSetOfPresentDeploymentIsExpandedOnlyThroughIt) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(kReplicaSets);
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  const api::ReplicaSet* managed = snapshot->Find<api::ReplicaSet>("default", "web-abc");
  const api::ReplicaSet* lone = snapshot->Find<api::ReplicaSet>("default", "lone");
  ASSERT_NE(managed, nullptr);
  ASSERT_NE(lone, nullptr);
  EXPECT_TRUE(IsManagedByPresentDeployment(*snapshot, *managed));
  EXPECT_FALSE(IsManagedByPresentDeployment(*snapshot, *lone));
  std::map<std::string, int> by_owner;
  for (const api::Pod& pod : snapshot->pods()) {
    if (!snapshot->IsExpanded(pod)) continue;
    const api::OwnerReference& owner = pod.metadata.owner_references[0];
    ++by_owner[owner.kind + "/" + owner.name];
  }
  // The lone ReplicaSet adopts the orphan matching its selector, so it misses one pod.
  EXPECT_THAT(by_owner, ElementsAre(std::pair<const std::string, int>("Deployment/web", 3),
                                    std::pair<const std::string, int>("ReplicaSet/lone", 1)));
  absl::StatusOr<ClusterSnapshot> raw =
      SnapshotFromYaml(kReplicaSets, SnapshotOptions{.expand_workloads = false});
  ASSERT_TRUE(raw.ok()) << raw.status();
  EXPECT_EQ(ExistingReplicas(*raw, raw->replica_sets()[0]), 1);
  EXPECT_EQ(ExistingReplicas(*raw, raw->deployments()[0]), 0);
}

TEST(WorkloadExpansion, DaemonSetsAreNeverExpanded) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(R"(
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: aws-node, namespace: kube-system}
spec:
  selector: {matchLabels: {k8s-app: aws-node}}
  template:
    metadata: {labels: {k8s-app: aws-node}}
    spec: {containers: [{name: c, image: i}]}
)");
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  EXPECT_THAT(snapshot->pods(), IsEmpty());
}

TEST(WorkloadExpansion, ExpandWorkloadsOnItsOwnMatchesSnapshotConstruction) {
  absl::StatusOr<ClusterSnapshot> raw =
      SnapshotFromYaml(kReplicaSets, SnapshotOptions{.expand_workloads = false});
  absl::StatusOr<ClusterSnapshot> expanded = SnapshotFromYaml(kReplicaSets);
  ASSERT_TRUE(raw.ok() && expanded.ok());
  ExpandedWorkloads workloads = ExpandWorkloads(*raw);
  EXPECT_THAT(workloads.pods, SizeIs(4));
  EXPECT_TRUE(
      std::is_sorted(workloads.pods.begin(), workloads.pods.end(), ObjectKeyLess<api::Pod>));
  EXPECT_EQ(workloads.pods.size(), expanded->expanded_pod_count());
}

// 2^31-1 replicas aborted with std::bad_alloc; a million ran for minutes. The limit is checked
// before anything is allocated and names the workload and its field.
TEST(WorkloadExpansion, HugeCountsAreRefusedBeforeAllocating) {
  const std::string deployment = R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: REPLICAS
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: i}]}
)";
  auto with_replicas = [&](const std::string& replicas) {
    std::string yaml = deployment;
    yaml.replace(yaml.find("REPLICAS"), 8, replicas);
    return yaml;
  };
  absl::StatusOr<ClusterSnapshot> huge = SnapshotFromYaml(with_replicas("2147483647"));
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.status().message(),
            "Deployment/default/web: spec.replicas: would add 2147483647 pods, more than the "
            "200000 a snapshot expands to");
  // Together over the limit, each under it.
  std::string two = with_replicas("150000") + "---\n" + with_replicas("150000");
  two.replace(two.rfind("name: web"), 9, "name: api");
  absl::StatusOr<ClusterSnapshot> both = SnapshotFromYaml(two);
  ASSERT_FALSE(both.ok());
  EXPECT_EQ(both.status().message(),
            "Deployment/default/web: spec.replicas: would add 150000 pods, 300000 in all, more "
            "than the 200000 a snapshot expands to");
  const std::string job = R"(apiVersion: batch/v1
kind: Job
metadata: {name: batch, namespace: default}
spec:
  parallelism: 1000000
  completions: 1000000
  template:
    spec: {restartPolicy: Never, containers: [{name: c, image: i}]}
)";
  absl::StatusOr<ClusterSnapshot> jobs = SnapshotFromYaml(job);
  ASSERT_FALSE(jobs.ok());
  EXPECT_NE(
      jobs.status().message().find("Job/default/batch: spec.parallelism: would add 1000000 pods"),
      std::string::npos)
      << jobs.status();
  EXPECT_TRUE(SnapshotFromYaml(with_replicas("1000")).ok());
}

}  // namespace
}  // namespace karpenter::state
