#include "src/fakes/fake_kube_cluster.h"

#include <variant>

#include "gtest/gtest.h"
#include "src/fakes/fake_clock.h"

namespace karpenter::fakes {
namespace {

api::Pod Pod(std::string name, std::map<std::string, std::string> labels = {}) {
  api::Pod pod;
  pod.metadata.name = std::move(name);
  pod.metadata.namespace_ = "default";
  pod.metadata.labels = std::move(labels);
  return pod;
}

api::PodDisruptionBudget Budget(int32_t allowed) {
  api::PodDisruptionBudget pdb;
  pdb.metadata.name = "web";
  pdb.metadata.namespace_ = "default";
  pdb.spec.selector = api::LabelSelector{.match_labels = {{"app", "web"}}};
  pdb.status.disruptions_allowed = allowed;
  return pdb;
}

struct Fixture {
  FakeClock clock;
  FakeKubeCluster cluster{clock};
};

TEST(FakeKubeCluster, CreateSetsServerFieldsAndRefusesATakenName) {
  Fixture f;
  absl::StatusOr<api::Object> created = f.cluster.Create(Pod("a"));
  ASSERT_TRUE(created.ok()) << created.status();
  const api::Pod& pod = std::get<api::Pod>(*created);
  EXPECT_FALSE(pod.metadata.uid.empty());
  EXPECT_FALSE(pod.metadata.resource_version.empty());
  EXPECT_EQ(pod.metadata.creation_timestamp, f.clock.Now());
  EXPECT_EQ(f.cluster.Create(Pod("a")).status().code(), absl::StatusCode::kAlreadyExists);
}

TEST(FakeKubeCluster, UpdateWithAStaleResourceVersionConflicts) {
  Fixture f;
  api::Pod pod = std::get<api::Pod>(*f.cluster.Create(Pod("a")));
  api::Pod first = pod;
  first.metadata.labels["x"] = "1";
  ASSERT_TRUE(f.cluster.Update(first).ok());
  api::Pod stale = pod;
  stale.metadata.labels["x"] = "2";
  EXPECT_EQ(f.cluster.Update(stale).status().code(), absl::StatusCode::kAborted);
  api::Pod latest = std::get<api::Pod>(*f.cluster.Get(KeyOf(pod)));
  EXPECT_EQ(latest.metadata.labels.at("x"), "1");
}

TEST(FakeKubeCluster, UpdateKeepsStatusAndUpdateStatusKeepsSpec) {
  Fixture f;
  api::Pod pod = Pod("a");
  pod.status.phase = "Running";
  pod = std::get<api::Pod>(*f.cluster.Create(pod));
  api::Pod changed = pod;
  changed.metadata.resource_version.clear();
  changed.spec.node_name = "node-1";
  changed.status.phase = "Failed";
  ASSERT_TRUE(f.cluster.Update(changed).ok());
  changed.spec.node_name = "node-2";
  ASSERT_TRUE(f.cluster.UpdateStatus(changed).ok());
  api::Pod stored = std::get<api::Pod>(*f.cluster.Get(KeyOf(pod)));
  EXPECT_EQ(stored.spec.node_name, "node-1");
  EXPECT_EQ(stored.status.phase, "Failed");
}

TEST(FakeKubeCluster, FinalizersHoldADeletedObjectUntilRemoved) {
  Fixture f;
  api::Pod pod = Pod("a");
  pod.metadata.finalizers = {"karpenter.sh/termination"};
  pod = std::get<api::Pod>(*f.cluster.Create(pod));
  ASSERT_TRUE(f.cluster.Delete(KeyOf(pod)).ok());
  std::optional<api::Object> held = f.cluster.Get(KeyOf(pod));
  ASSERT_TRUE(held);
  api::Pod terminating = std::get<api::Pod>(*held);
  EXPECT_TRUE(terminating.metadata.deletion_timestamp);
  terminating.metadata.finalizers.clear();
  ASSERT_TRUE(f.cluster.Update(terminating).ok());
  EXPECT_FALSE(f.cluster.Get(KeyOf(pod)));
  EXPECT_EQ(f.cluster.Delete(KeyOf(pod)).code(), absl::StatusCode::kNotFound);
}

TEST(FakeKubeCluster, MergePatchChangesOnlyWhatItNamesAndHonoursItsPrecondition) {
  Fixture f;
  api::Pod pod = std::get<api::Pod>(*f.cluster.Create(Pod("a", {{"app", "web"}})));
  absl::StatusOr<api::Object> patched =
      f.cluster.MergePatch(KeyOf(pod), R"({"metadata":{"labels":{"tier":"front"}}})");
  ASSERT_TRUE(patched.ok()) << patched.status();
  const api::Pod& after = std::get<api::Pod>(*patched);
  EXPECT_EQ(after.metadata.labels,
            (std::map<std::string, std::string>{{"app", "web"}, {"tier", "front"}}));
  EXPECT_EQ(after.metadata.uid, pod.metadata.uid);
  EXPECT_EQ(
      f.cluster.MergePatch(KeyOf(pod), R"({"metadata":{"resourceVersion":"1","labels":null}})")
          .status()
          .code(),
      absl::StatusCode::kAborted);
  EXPECT_EQ(f.cluster.MergePatch(KeyOf(pod), "[1]").status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(FakeKubeCluster, EvictionAnswersAsTheSubresourceDoes) {
  Fixture f;
  ASSERT_TRUE(f.cluster.Create(Budget(1)).ok());
  api::Pod a = std::get<api::Pod>(*f.cluster.Create(Pod("a", {{"app", "web"}})));
  api::Pod b = std::get<api::Pod>(*f.cluster.Create(Pod("b", {{"app", "web"}})));
  EXPECT_EQ(*f.cluster.Evict(KeyOf(a), "wrong-uid"), EvictionResult::kConflict);
  EXPECT_EQ(*f.cluster.Evict(KeyOf(a), a.metadata.uid), EvictionResult::kEvicted);
  EXPECT_EQ(*f.cluster.Evict(KeyOf(b), b.metadata.uid), EvictionResult::kTooManyRequests)
      << "the budget's one disruption is spent";
  f.cluster.ReapTerminatingPods();
  EXPECT_EQ(*f.cluster.Evict(KeyOf(a), a.metadata.uid), EvictionResult::kNotFound);
  ASSERT_TRUE(f.cluster.Create(Pod("c")).ok());
  EXPECT_EQ(*f.cluster.Evict({"Pod", "default", "c"}, ""), EvictionResult::kEvicted)
      << "no budget covers it";
}

TEST(FakeKubeCluster, InjectedFailuresAndConflictStormsComeFirst) {
  Fixture f;
  f.cluster.ConflictStorm(2);
  EXPECT_EQ(f.cluster.Create(Pod("a")).status().code(), absl::StatusCode::kAborted);
  EXPECT_EQ(f.cluster.Create(Pod("a")).status().code(), absl::StatusCode::kAborted);
  EXPECT_TRUE(f.cluster.Create(Pod("a")).ok());
  f.cluster.FailNext(FakeKubeCluster::Verb::kEvict, absl::UnavailableError("503"));
  EXPECT_EQ(f.cluster.Evict({"Pod", "default", "a"}, "").status().code(),
            absl::StatusCode::kUnavailable);
  EXPECT_EQ(f.cluster.writes().size(), 4u);
}

TEST(FakeKubeCluster, WatchSeesEveryChangeAndIndexesFindObjects) {
  Fixture f;
  std::vector<std::string> seen;
  f.cluster.Watch("Pod", [&](const ObjectKey& key) { seen.push_back(key.name); });
  api::Pod pod = Pod("a");
  pod.spec.node_name = "node-1";
  ASSERT_TRUE(f.cluster.Create(pod).ok());
  api::Node node;
  node.metadata.name = "node-1";
  node.spec.provider_id = "aws:///us-east-1a/i-1";
  ASSERT_TRUE(f.cluster.Create(node).ok());
  ASSERT_TRUE(f.cluster.Delete({"Pod", "default", "a"}).ok());
  EXPECT_EQ(seen, (std::vector<std::string>{"a", "a"}));
  // A bound pod terminates gracefully: it stays until its kubelet confirms.
  ASSERT_EQ(f.cluster.PodsOnNode("node-1").size(), 1u);
  EXPECT_EQ(f.cluster.PodsOnNode("node-1")[0].metadata.deletion_timestamp,
            f.clock.Now() + api::Duration::FromSeconds(30));
  f.cluster.ReapTerminatingPods();
  EXPECT_EQ(seen, (std::vector<std::string>{"a", "a", "a"}));
  EXPECT_TRUE(f.cluster.PodsOnNode("node-1").empty());
  EXPECT_TRUE(f.cluster.NodeByProviderId("aws:///us-east-1a/i-1"));
  EXPECT_FALSE(f.cluster.NodeClaimByProviderId("aws:///us-east-1a/i-1"));
}

TEST(FakeKubeCluster, APodsGracePeriodComesFromTheDeleteOrTheSpecAndZeroRemovesAtOnce) {
  Fixture f;
  api::Pod pod = Pod("a");
  pod.spec.node_name = "node-1";
  pod.spec.termination_grace_period_seconds = 120;
  ASSERT_TRUE(f.cluster.Create(pod).ok());
  ASSERT_TRUE(f.cluster.Delete({"Pod", "default", "a"}).ok());
  api::Pod stored = std::get<api::Pod>(*f.cluster.Get({"Pod", "default", "a"}));
  EXPECT_EQ(stored.metadata.deletion_timestamp, f.clock.Now() + api::Duration::FromSeconds(120));
  EXPECT_EQ(stored.metadata.deletion_grace_period_seconds, 120);
  // A shorter grace period shortens the deadline; a UID precondition must match.
  EXPECT_EQ(f.cluster.Delete({"Pod", "default", "a"}, {.uid = "other"}).code(),
            absl::StatusCode::kAborted);
  ASSERT_TRUE(f.cluster.Delete({"Pod", "default", "a"}, {.grace_period_seconds = 5}).ok());
  stored = std::get<api::Pod>(*f.cluster.Get({"Pod", "default", "a"}));
  EXPECT_EQ(stored.metadata.deletion_timestamp, f.clock.Now() + api::Duration::FromSeconds(5));
  ASSERT_TRUE(f.cluster.Delete({"Pod", "default", "a"}, {.grace_period_seconds = 0}).ok());
  EXPECT_FALSE(f.cluster.Get({"Pod", "default", "a"}).has_value());
}

}  // namespace
}  // namespace karpenter::fakes
