#include "src/sim/twin_cluster_writer.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "src/controllers/eviction_queue.h"
#include "src/sim/sim_test_util.h"

namespace karpenter::sim {
namespace {

using testing::MakeDeployment;
using testing::NodeGroupInstance;
using testing::World;

struct Fixture {
  World world;
  TwinClusterReader reader{world.cluster};
  TwinClusterWriter writer{world.cluster, reader};
};

api::NodeClaim Claim(std::string name, std::vector<std::string> finalizers = {}) {
  api::NodeClaim claim;
  claim.metadata.name = std::move(name);
  claim.metadata.finalizers = std::move(finalizers);
  claim.spec.node_class_ref = api::NodeClassReference{
      .kind = "EC2NodeClass", .name = "default", .group = "karpenter.k8s.aws"};
  api::NodeSelectorRequirementWithMinValues type;
  type.key = "node.kubernetes.io/instance-type";
  type.operator_ = "In";
  type.values = {"m6i.large"};
  claim.spec.requirements.push_back(type);
  return claim;
}

template <class T>
T Read(const TwinClusterReader& reader, const ObjectKey& key) {
  std::optional<api::Object> object = reader.Get(key);
  EXPECT_TRUE(object.has_value()) << key.kind << " " << key.name;
  return object ? std::get<T>(*object) : T{};
}

const ObjectKey kClaim{"NodeClaim", "", "default-x1"};

TEST(TwinClusterWriter, CreateNamesFromGenerateNameAndSetsTheServersFields) {
  Fixture f;
  f.world.queue.RunUntil(2000);
  api::NodeClaim generated = Claim("");
  generated.metadata.generate_name = "default-";
  absl::StatusOr<api::Object> created = f.writer.Create(generated);
  ASSERT_TRUE(created.ok()) << created.status();
  const api::ObjectMeta& meta = std::get<api::NodeClaim>(*created).metadata;
  EXPECT_TRUE(meta.name.starts_with("default-")) << meta.name;
  EXPECT_EQ(meta.name.size(), std::string("default-").size() + 5);
  EXPECT_FALSE(meta.uid.empty());
  EXPECT_FALSE(meta.resource_version.empty());
  EXPECT_EQ(meta.creation_timestamp, f.world.queue.Now());
  EXPECT_NE(f.world.cluster.FindNodeClaim(meta.name), nullptr) << "stored in the twin";

  ASSERT_TRUE(f.writer.Create(Claim("default-x1")).ok());
  EXPECT_EQ(f.writer.Create(Claim("default-x1")).status().code(), absl::StatusCode::kAlreadyExists);
  api::NodeClaim versioned = Claim("default-x2");
  versioned.metadata.resource_version = "7";
  EXPECT_EQ(f.writer.Create(versioned).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(f.writer.Create(Claim("")).status().code(), absl::StatusCode::kInvalidArgument)
      << "no name and no generateName";
}

TEST(TwinClusterWriter, WritesNeedTheVersionTheyReadAndWriteStatusApart) {
  Fixture f;
  ASSERT_TRUE(f.writer.Create(Claim("default-x1")).ok());
  api::NodeClaim read = Read<api::NodeClaim>(f.reader, kClaim);
  const std::string first = read.metadata.resource_version;

  api::NodeClaim with_status = read;
  with_status.status.provider_id = "aws:///us-east-1a/i-0000000000000042";
  with_status.metadata.labels["ignored"] = "by the status subresource";
  absl::StatusOr<api::Object> written = f.writer.UpdateStatus(with_status);
  ASSERT_TRUE(written.ok()) << written.status();
  const api::NodeClaim& after_status = std::get<api::NodeClaim>(*written);
  EXPECT_NE(after_status.metadata.resource_version, first);
  EXPECT_EQ(after_status.status.provider_id, with_status.status.provider_id);
  EXPECT_FALSE(after_status.metadata.labels.contains("ignored"));

  api::NodeClaim stale = read;  // still at the first version
  stale.metadata.labels["team"] = "a";
  EXPECT_EQ(f.writer.Update(stale).status().code(), absl::StatusCode::kAborted);
  api::NodeClaim fresh = after_status;
  fresh.metadata.labels["team"] = "a";
  fresh.status.provider_id.clear();  // the main resource does not write status
  written = f.writer.Update(fresh);
  ASSERT_TRUE(written.ok()) << written.status();
  EXPECT_EQ(std::get<api::NodeClaim>(*written).metadata.labels.at("team"), "a");
  EXPECT_EQ(f.world.cluster.FindNodeClaim("default-x1")->status.provider_id,
            with_status.status.provider_id);
  fresh.metadata.resource_version.clear();
  fresh.metadata.labels["team"] = "b";
  EXPECT_TRUE(f.writer.Update(fresh).ok()) << "no resourceVersion: unconditional";
  EXPECT_EQ(f.world.cluster.FindNodeClaim("default-x1")->metadata.labels.at("team"), "b");
}

TEST(TwinClusterWriter, TheTwinsOwnChangesMoveTheVersionToo) {
  Fixture f;
  const std::string id = f.world.cluster.LaunchInstance(NodeGroupInstance("m6i.large"));
  f.world.queue.RunUntil(35000);  // registered, not Ready yet
  const std::string node_name = f.world.cluster.instances().at(id).node.metadata.name;
  const ObjectKey key{"Node", "", node_name};
  api::Node read = Read<api::Node>(f.reader, key);
  f.world.queue.RunUntil(60000);  // the kubelet reports Ready
  read.metadata.labels["team"] = "a";
  EXPECT_EQ(f.writer.Update(read).status().code(), absl::StatusCode::kAborted)
      << "the kubelet's Ready came in between";
  EXPECT_EQ(f.writer
                .MergePatch(key, R"({"metadata":{"resourceVersion":")" +
                                     read.metadata.resource_version + R"(","labels":{"a":"b"}}})")
                .status()
                .code(),
            absl::StatusCode::kAborted);
  absl::StatusOr<api::Object> patched =
      f.writer.MergePatch(key, R"({"metadata":{"labels":{"team":"a"}}})");
  ASSERT_TRUE(patched.ok()) << patched.status();
  const api::Node& node = std::get<api::Node>(*patched);
  EXPECT_EQ(node.metadata.labels.at("team"), "a");
  EXPECT_FALSE(node.status.allocatable.empty()) << "the kubelet's status is kept";
  EXPECT_EQ(f.world.cluster.instances().at(id).node.metadata.labels.at("team"), "a");
}

TEST(TwinClusterWriter, FinalizersHoldADeletedObjectUntilTheLastGoes) {
  Fixture f;
  f.world.queue.RunUntil(3000);
  ASSERT_TRUE(f.writer.Create(Claim("default-x1", {"karpenter.sh/termination"})).ok());
  const api::NodeClaim created = Read<api::NodeClaim>(f.reader, kClaim);
  EXPECT_EQ(f.writer.Delete(kClaim, DeleteOptions{.uid = "another"}).code(),
            absl::StatusCode::kAborted);
  ASSERT_TRUE(f.writer.Delete(kClaim, DeleteOptions{.uid = created.metadata.uid}).ok());
  const api::NodeClaim deleting = Read<api::NodeClaim>(f.reader, kClaim);
  EXPECT_EQ(deleting.metadata.deletion_timestamp, f.world.queue.Now());
  f.world.queue.RunUntil(4000);
  ASSERT_TRUE(f.writer.Delete(kClaim).ok()) << "deleting again changes nothing";
  EXPECT_EQ(Read<api::NodeClaim>(f.reader, kClaim).metadata.deletion_timestamp,
            deleting.metadata.deletion_timestamp);
  api::NodeClaim reset = deleting;
  reset.metadata.deletion_timestamp.reset();
  ASSERT_TRUE(f.writer.Update(reset).ok());
  EXPECT_TRUE(Read<api::NodeClaim>(f.reader, kClaim).metadata.deletion_timestamp)
      << "an update cannot undo a deletion";

  ASSERT_TRUE(f.writer.MergePatch(kClaim, R"({"metadata":{"finalizers":null}})").ok());
  EXPECT_FALSE(f.reader.Get(kClaim).has_value());
  EXPECT_EQ(f.world.cluster.FindNodeClaim("default-x1"), nullptr);
  EXPECT_EQ(f.writer.Delete(kClaim).code(), absl::StatusCode::kNotFound);

  // The name again: a new object, at a version none of the old one's reads had.
  ASSERT_TRUE(f.writer.Create(Claim("default-x1")).ok());
  api::NodeClaim again = Read<api::NodeClaim>(f.reader, kClaim);
  EXPECT_NE(again.metadata.resource_version, created.metadata.resource_version);
  EXPECT_NE(again.metadata.resource_version, deleting.metadata.resource_version);
  EXPECT_NE(again.metadata.uid, created.metadata.uid);
  ASSERT_TRUE(f.writer.Delete(kClaim).ok());
  EXPECT_FALSE(f.reader.Get(kClaim).has_value()) << "no finalizers: gone at once";
}

TEST(TwinClusterWriter, NodePoolsAndClassesTakeStatusAndFinalizers) {
  Fixture f;
  ASSERT_TRUE(f.world.cluster.Apply(testing::MakeNodeClass(), true).ok());
  ASSERT_TRUE(
      f.world.cluster.Apply(testing::MakeNodePool({"m6i.large"}, {"on-demand"}), true).ok());
  const ObjectKey pool_key{"NodePool", "", "default"};
  api::NodePool pool = Read<api::NodePool>(f.reader, pool_key);
  pool.status.resources["cpu"] = api::Quantity::Parse("4").value();
  ASSERT_TRUE(f.writer.UpdateStatus(pool).ok());
  EXPECT_EQ(f.world.cluster.FindNodePool("default")->status.resources.at("cpu"),
            api::Quantity::Parse("4").value());
  ASSERT_TRUE(f.writer
                  .MergePatch(pool_key,
                              R"({"metadata":{"annotations":{"karpenter.sh/nodepool-hash":"1"}}})")
                  .ok());
  EXPECT_EQ(f.world.cluster.FindNodePool("default")->metadata.annotations.at(
                "karpenter.sh/nodepool-hash"),
            "1");

  const ObjectKey class_key{"EC2NodeClass", "", "default"};
  ASSERT_TRUE(
      f.writer
          .MergePatch(class_key, R"({"metadata":{"finalizers":["karpenter.k8s.aws/termination"]}})")
          .ok());
  ASSERT_TRUE(f.writer.Delete(class_key).ok());
  EXPECT_TRUE(f.world.cluster.FindNodeClass("default")->metadata.deletion_timestamp);
  ASSERT_TRUE(f.writer.MergePatch(class_key, R"({"metadata":{"finalizers":[]}})").ok());
  EXPECT_EQ(f.world.cluster.FindNodeClass("default"), nullptr);
  ASSERT_TRUE(f.writer.Delete(pool_key).ok());
  EXPECT_EQ(f.world.cluster.FindNodePool("default"), nullptr);
}

TEST(TwinClusterWriter, ANodesTaintRemovedLetsKubeSchedulerBindItsPods) {
  Fixture f;
  InstanceRequest request = NodeGroupInstance("m6i.xlarge");
  request.taints.push_back(api::Taint{.key = "example.com/startup", .effect = "NoSchedule"});
  const std::string id = f.world.cluster.LaunchInstance(request, /*initial=*/true);
  ASSERT_TRUE(f.world.cluster.Apply(MakeDeployment("web", 1, "500m", "512Mi"), false).ok());
  f.world.queue.RunUntil(30000);
  EXPECT_EQ(testing::BoundPods(f.world.cluster), 0u) << "the taint keeps the pod off";

  const ObjectKey key{"Node", "", f.world.cluster.instances().at(id).node.metadata.name};
  api::Node node = Read<api::Node>(f.reader, key);
  std::erase_if(node.spec.taints,
                [](const api::Taint& taint) { return taint.key == "example.com/startup"; });
  ASSERT_TRUE(f.writer.Update(node).ok());
  f.world.queue.RunUntil(60000);
  EXPECT_EQ(testing::BoundPods(f.world.cluster), 1u);

  node = Read<api::Node>(f.reader, key);
  node.spec.unschedulable = true;
  ASSERT_TRUE(f.writer.Update(node).ok());
  const api::Node cordoned = Read<api::Node>(f.reader, key);
  EXPECT_TRUE(
      std::any_of(cordoned.spec.taints.begin(), cordoned.spec.taints.end(),
                  [](const api::Taint& taint) { return taint.key == kUnschedulableTaintKey; }))
      << "the node lifecycle controller taints a cordoned node";
}

TEST(TwinClusterWriter, ANodeGoesWithItsInstanceNotBefore) {
  Fixture f;
  const std::string id = f.world.cluster.LaunchInstance(NodeGroupInstance("m6i.large"), true);
  const ObjectKey key{"Node", "", f.world.cluster.instances().at(id).node.metadata.name};
  EXPECT_EQ(f.writer.Delete(key).code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(
      f.writer.MergePatch(key, R"({"metadata":{"finalizers":["karpenter.sh/termination"]}})").ok());
  ASSERT_TRUE(f.writer.Delete(key).ok());
  EXPECT_TRUE(Read<api::Node>(f.reader, key).metadata.deletion_timestamp);
  EXPECT_EQ(f.writer.MergePatch(key, R"({"metadata":{"finalizers":null}})").status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(f.reader.Get(key).has_value()) << "a refused write leaves the Node as it was";
  f.world.cluster.TerminateInstance(id);
  EXPECT_EQ(f.writer.MergePatch(key, R"({"metadata":{"finalizers":null}})").status().code(),
            absl::StatusCode::kNotFound);
}

api::PodDisruptionBudget Budget(std::string name, int32_t min_available) {
  api::PodDisruptionBudget pdb;
  pdb.metadata.name = std::move(name);
  pdb.metadata.namespace_ = "default";
  pdb.spec.selector = api::LabelSelector{.match_labels = {{"app", "web"}}};
  pdb.spec.min_available = api::IntOrString{.is_int = true, .int_value = min_available};
  return pdb;
}

std::vector<api::Pod> WebPods(const TwinClusterReader& reader) {
  std::vector<api::Pod> pods;
  for (const api::Object& object : reader.List("Pod")) pods.push_back(std::get<api::Pod>(object));
  return pods;
}

TEST(TwinClusterWriter, EvictionAnswersAsTheSubresourceDoes) {
  Fixture f;
  f.world.cluster.LaunchInstance(NodeGroupInstance("m6i.xlarge"), true);
  ASSERT_TRUE(f.world.cluster.Apply(Budget("web", 1), true).ok());
  ASSERT_TRUE(f.world.cluster.Apply(MakeDeployment("web", 2, "500m", "512Mi"), false).ok());
  f.world.queue.RunUntil(10000);
  std::vector<api::Pod> pods = WebPods(f.reader);
  ASSERT_EQ(pods.size(), 2u);
  const ObjectKey first{"Pod", "default", pods[0].metadata.name};
  const ObjectKey second{"Pod", "default", pods[1].metadata.name};
  EXPECT_EQ(*f.writer.Evict(first, "another"), EvictionResult::kConflict);
  EXPECT_EQ(*f.writer.Evict(first, pods[0].metadata.uid), EvictionResult::kEvicted);
  EXPECT_TRUE(Read<api::Pod>(f.reader, first).metadata.deletion_timestamp);
  EXPECT_EQ(*f.writer.Evict(second, pods[1].metadata.uid), EvictionResult::kTooManyRequests)
      << "one pod left healthy, the budget wants one";
  EXPECT_EQ(*f.writer.Evict(first, pods[0].metadata.uid), EvictionResult::kEvicted)
      << "already terminating";
  EXPECT_EQ(*f.writer.Evict(ObjectKey{"Pod", "default", "nothing"}, ""), EvictionResult::kNotFound);

  ASSERT_TRUE(f.world.cluster.Apply(Budget("web-2", 0), true).ok());
  absl::StatusOr<EvictionResult> two_budgets = f.writer.Evict(second, pods[1].metadata.uid);
  EXPECT_EQ(two_budgets.status().code(), absl::StatusCode::kInternal);
  EXPECT_EQ(std::string(two_budgets.status().message()), controllers::kMultiplePdbsMessage);
}

TEST(TwinClusterWriter, PodsAreDeletedGracefullyAndOnlyDeletedOrEvicted) {
  Fixture f;
  f.world.cluster.LaunchInstance(NodeGroupInstance("m6i.xlarge"), true);
  ASSERT_TRUE(f.world.cluster.Apply(MakeDeployment("web", 1, "500m", "512Mi"), false).ok());
  f.world.queue.RunUntil(10000);
  const api::Pod pod = WebPods(f.reader).at(0);
  const ObjectKey key{"Pod", "default", pod.metadata.name};
  ASSERT_TRUE(f.writer.Delete(key, DeleteOptions{.grace_period_seconds = 5}).ok());
  EXPECT_EQ(Read<api::Pod>(f.reader, key).metadata.deletion_timestamp,
            f.world.queue.Now() + api::Duration::FromSeconds(5));
  f.world.queue.RunUntil(15000);
  EXPECT_FALSE(f.reader.Get(key).has_value()) << "gone once its grace period ran out";

  EXPECT_EQ(f.writer.Create(pod).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(f.writer.MergePatch(ObjectKey{"Pod", "default", "x"}, "{}").status().code(),
            absl::StatusCode::kInvalidArgument);
  api::DaemonSet daemon_set;
  daemon_set.metadata.name = "agent";
  EXPECT_EQ(f.writer.Update(daemon_set).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace karpenter::sim
