#include "src/controllers/nodepool_status.h"

#include <string>
#include <variant>
#include <vector>

#include "gtest/gtest.h"
#include "src/api/karpenter_labels.h"
#include "src/api/manifest.h"
#include "src/api/nodeclaim.h"
#include "src/fakes/fake_clock.h"
#include "src/fakes/fake_kube_cluster.h"

namespace karpenter::controllers {
namespace {

api::NodePool PoolFromYaml(const std::string& yaml) {
  absl::StatusOr<std::vector<api::Manifest>> manifests = api::DecodeManifests(yaml, "pool.yaml");
  EXPECT_TRUE(manifests.ok()) << manifests.status();
  return std::get<api::NodePool>(*(*manifests)[0].object);
}

std::string PoolYaml(const std::string& template_spec, const std::string& labels = "{}") {
  return R"(apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: default}
spec:
  template:
    metadata: {labels: )" +
         labels + R"(}
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
      requirements: [{key: karpenter.sh/capacity-type, operator: In, values: [spot]}]
)" + template_spec;
}

TEST(NodePoolHash, IgnoresTaintOrderDurationSpellingAndRequirements) {
  const std::string a = NodePoolHash(PoolFromYaml(PoolYaml(R"(      expireAfter: 1h
      taints: [{key: a, effect: NoSchedule}, {key: b, effect: NoSchedule}]
)")));
  const std::string b = NodePoolHash(PoolFromYaml(PoolYaml(R"(      expireAfter: 60m
      taints: [{key: b, effect: NoSchedule}, {key: a, effect: NoSchedule}]
)")));
  EXPECT_EQ(a, b);
  api::NodePool other_requirements = PoolFromYaml(PoolYaml(R"(      expireAfter: 1h
      taints: [{key: a, effect: NoSchedule}, {key: b, effect: NoSchedule}]
)"));
  other_requirements.spec.template_.spec.requirements.clear();
  EXPECT_EQ(NodePoolHash(other_requirements), a);
  EXPECT_FALSE(a.empty());
  EXPECT_TRUE(std::all_of(a.begin(), a.end(), [](char c) { return std::isdigit(c); }));
}

TEST(NodePoolHash, ChangesWithEveryDriftingField) {
  const std::string base = NodePoolHash(PoolFromYaml(PoolYaml("      expireAfter: 1h\n")));
  EXPECT_NE(NodePoolHash(PoolFromYaml(PoolYaml("      expireAfter: 2h\n"))), base);
  EXPECT_NE(NodePoolHash(PoolFromYaml(PoolYaml("      expireAfter: Never\n"))), base);
  EXPECT_NE(NodePoolHash(PoolFromYaml(PoolYaml("      expireAfter: 1h\n", "{team: a}"))), base);
  EXPECT_NE(NodePoolHash(PoolFromYaml(PoolYaml(
                "      expireAfter: 1h\n      startupTaints: [{key: s, effect: NoSchedule}]\n"))),
            base);
  EXPECT_NE(NodePoolHash(PoolFromYaml(
                PoolYaml("      expireAfter: 1h\n      terminationGracePeriod: 30m\n"))),
            base);
}

struct Fixture {
  fakes::FakeClock clock;
  fakes::FakeKubeCluster cluster{clock};
  NodePoolSeams seams{clock, cluster, cluster};

  api::NodePool CreatePool(const std::string& yaml) {
    return std::get<api::NodePool>(*cluster.Create(PoolFromYaml(yaml)));
  }
  // A launched NodeClaim of pool "default"; `node` registers a Node for it.
  void AddClaim(const std::string& name, std::map<std::string, std::string> annotations,
                bool drifted, const std::string& cpu, bool node, bool initialized) {
    api::NodeClaim claim;
    claim.metadata.name = name;
    claim.metadata.labels[std::string(api::kNodePoolLabelKey)] = "default";
    claim.metadata.annotations = std::move(annotations);
    claim = std::get<api::NodeClaim>(*cluster.Create(claim));
    claim.status.provider_id = "aws:///us-east-1a/i-" + name;
    claim.status.capacity["cpu"] = api::Quantity::Parse(cpu).value();
    claim.status.capacity["pods"] = api::Quantity::Parse("29").value();
    if (drifted) {
      claim.status.conditions.push_back(
          {.type = std::string(api::kConditionTypeDrifted), .status = "True"});
    }
    ASSERT_TRUE(cluster.UpdateStatus(claim).ok());
    if (!node) return;
    api::Node registered;
    registered.metadata.name = name + "-node";
    registered.metadata.labels[std::string(api::kNodePoolLabelKey)] = "default";
    if (initialized) {
      registered.metadata.labels[std::string(api::kNodeInitializedLabelKey)] = "true";
    }
    registered.spec.provider_id = claim.status.provider_id;
    registered = std::get<api::Node>(*cluster.Create(registered));
    // The kubelet reports a little less cpu than the type's nominal figure.
    registered.status.capacity["cpu"] = api::Quantity::Parse("1900m").value();
    ASSERT_TRUE(cluster.UpdateStatus(registered).ok());
  }
  std::map<std::string, std::string> Annotations(const std::string& kind,
                                                 const std::string& name) const {
    return std::visit([](const auto& typed) { return typed.metadata.annotations; },
                      *cluster.Get({kind, "", name}));
  }
};

TEST(NodePoolHashController, StampsThePoolAndRestampsClaimsOfAnotherHashVersion) {
  Fixture f;
  const api::NodePool pool = f.CreatePool(PoolYaml("      expireAfter: 1h\n"));
  const std::string hash = NodePoolHash(pool);
  const std::string hash_key(api::kNodePoolHashAnnotationKey);
  const std::string version_key(api::kNodePoolHashVersionAnnotationKey);
  // Launched by upstream Karpenter: its own hash value and version.
  f.AddClaim("upstream", {{hash_key, "1234"}, {version_key, "v3"}}, false, "2", false, false);
  f.AddClaim("drifted", {{hash_key, "1234"}, {version_key, "v3"}}, true, "2", false, false);
  f.AddClaim("ours", {{hash_key, "999"}, {version_key, std::string(kNodePoolHashVersion)}}, false,
             "2", false, false);
  NodePoolHashController controller(f.seams);
  ASSERT_TRUE(controller.Reconcile("default").ok());

  EXPECT_EQ(f.Annotations("NodePool", "default").at(hash_key), hash);
  EXPECT_EQ(f.Annotations("NodePool", "default").at(version_key), kNodePoolHashVersion);
  // Switching implementations drifts nothing...
  EXPECT_EQ(f.Annotations("NodeClaim", "upstream").at(hash_key), hash);
  EXPECT_EQ(f.Annotations("NodeClaim", "upstream").at(version_key), kNodePoolHashVersion);
  // ...a claim already drifted stays drifted...
  EXPECT_EQ(f.Annotations("NodeClaim", "drifted").at(hash_key), "1234");
  EXPECT_EQ(f.Annotations("NodeClaim", "drifted").at(version_key), kNodePoolHashVersion);
  // ...and a claim of our version keeps the hash it was launched with.
  EXPECT_EQ(f.Annotations("NodeClaim", "ours").at(hash_key), "999");

  // Once stamped, a template change moves the pool's hash only: its claims now differ (drift).
  api::NodePool changed = std::get<api::NodePool>(*f.cluster.Get({"NodePool", "", "default"}));
  changed.spec.template_.metadata.labels["team"] = "b";
  ASSERT_TRUE(f.cluster.Update(changed).ok());
  ASSERT_TRUE(controller.Reconcile("default").ok());
  EXPECT_EQ(f.Annotations("NodePool", "default").at(hash_key), NodePoolHash(changed));
  EXPECT_NE(NodePoolHash(changed), hash);
  EXPECT_EQ(f.Annotations("NodeClaim", "upstream").at(hash_key), hash);
}

TEST(NodePoolCounter, CountsNodesAndLaunchedClaimsOfThePool) {
  Fixture f;
  f.CreatePool(PoolYaml(""));
  // Initialized: the Node's capacity. Registered, not initialized: the claim fills the Node's
  // gaps. Launched only: the claim's capacity.
  f.AddClaim("a", {}, false, "2", true, true);
  f.AddClaim("b", {}, false, "2", true, false);
  f.AddClaim("c", {}, false, "4", false, false);
  api::NodeClaim other;
  other.metadata.name = "other-pool";
  other.metadata.labels[std::string(api::kNodePoolLabelKey)] = "other";
  other = std::get<api::NodeClaim>(*f.cluster.Create(other));
  other.status.provider_id = "aws:///us-east-1a/i-other";
  other.status.capacity["cpu"] = api::Quantity::Parse("64").value();
  ASSERT_TRUE(f.cluster.UpdateStatus(other).ok());

  NodePoolCounter counter(f.seams);
  absl::StatusOr<ReconcileResult> result = counter.Reconcile("default");
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->requeue_after_millis, std::optional<int64_t>(kNodePoolCounterPeriodMillis));
  const api::NodePool pool = std::get<api::NodePool>(*f.cluster.Get({"NodePool", "", "default"}));
  EXPECT_EQ(pool.status.nodes, 3);
  // 1900m + 1900m + 4
  EXPECT_EQ(pool.status.resources.at("cpu"), api::Quantity::Parse("7800m").value());
  // Node a reports no pods; b's gap is filled by its claim; c is the claim's.
  EXPECT_EQ(pool.status.resources.at("pods"), api::Quantity::Parse("58").value());
  EXPECT_EQ(pool.status.resources.at("memory"), api::Quantity());
  EXPECT_EQ(pool.status.resources.at("nodes"), api::Quantity::Parse("3").value());
}

TEST(NodePoolCounter, WaitsForTheClusterViewBeforeWriting) {
  Fixture f;
  f.CreatePool(PoolYaml(""));
  f.AddClaim("a", {}, false, "2", true, true);
  f.cluster.set_synced(false);
  const size_t writes = f.cluster.writes().size();
  NodePoolCounter counter(f.seams);
  absl::StatusOr<ReconcileResult> result = counter.Reconcile("default");
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->requeue_after_millis, std::optional<int64_t>(1000));
  EXPECT_EQ(f.cluster.writes().size(), writes);
}

}  // namespace
}  // namespace karpenter::controllers
