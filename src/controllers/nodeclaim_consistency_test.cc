#include "src/controllers/nodeclaim_consistency.h"

#include <variant>

#include "gtest/gtest.h"
#include "src/fakes/fake_clock.h"
#include "src/fakes/fake_event_recorder.h"
#include "src/fakes/fake_kube_cluster.h"

namespace karpenter::controllers {
namespace {

api::Quantity Q(const char* text) { return api::Quantity::Parse(text).value(); }

struct Fixture {
  fakes::FakeClock clock;
  fakes::FakeKubeCluster cluster{clock};
  fakes::FakeEventRecorder events;
  NodeClaimConsistency consistency{clock, cluster, cluster, events};

  // An initialized claim for an m5.large (2 cpu, 8Gi) and its Node reporting `node_memory`.
  void Launch(const std::string& node_memory) {
    api::NodeClaim claim;
    claim.metadata.name = "default-a";
    claim.spec.resources.requests = {{"cpu", Q("1")}, {"memory", Q("1Gi")}};
    claim = std::get<api::NodeClaim>(*cluster.Create(claim));
    claim.status.provider_id = "aws:///us-east-1a/i-0a";
    claim.status.capacity = {{"cpu", Q("2")}, {"memory", Q("8Gi")}, {"pods", Q("29")}};
    claim.status.conditions = {{.type = "Initialized", .status = "True", .reason = "Initialized"}};
    ASSERT_TRUE(cluster.UpdateStatus(claim).ok());
    api::Node node;
    node.metadata.name = "ip-10-0-0-1";
    node.spec.provider_id = claim.status.provider_id;
    node = std::get<api::Node>(*cluster.Create(node));
    node.status.capacity = {{"cpu", Q("2")}, {"memory", Q(node_memory.c_str())}, {"pods", Q("0")}};
    ASSERT_TRUE(cluster.UpdateStatus(node).ok());
  }
  const api::Condition* Consistent() {
    static api::NodeClaim stored;
    stored = std::get<api::NodeClaim>(*cluster.Get({"NodeClaim", "", "default-a"}));
    for (const api::Condition& condition : stored.status.conditions) {
      if (condition.type == api::kConditionTypeConsistentStateFound) return &condition;
    }
    return nullptr;
  }
  ReconcileResult Check() {
    absl::StatusOr<ReconcileResult> result = consistency.Reconcile("default-a");
    EXPECT_TRUE(result.ok()) << result.status();
    return result.ok() ? *result : ReconcileResult{};
  }
};

TEST(NodeClaimConsistency, ANodeAsBigAsPromisedIsConsistent) {
  Fixture f;
  f.Launch("7.5Gi");  // 93.75 %: within the 10 % upstream allows (pods are not requested)
  EXPECT_EQ(f.Check().requeue_after_millis, std::optional<int64_t>(kConsistencyScanPeriodMillis));
  ASSERT_NE(f.Consistent(), nullptr);
  EXPECT_EQ(f.Consistent()->status, "True");
  EXPECT_EQ(f.events.Count("FailedConsistencyCheck"), 0u);
}

TEST(NodeClaimConsistency, ANodeShortOfMemoryFailsTheCheckWithAnEventPerResource) {
  Fixture f;
  f.Launch("4Gi");
  f.Check();
  ASSERT_NE(f.Consistent(), nullptr);
  EXPECT_EQ(f.Consistent()->status, "False");
  EXPECT_EQ(f.Consistent()->reason, "ConsistencyCheckFailed");
  ASSERT_EQ(f.events.Count("FailedConsistencyCheck"), 1u);
  EXPECT_EQ(f.events.events()[0].message,
            "expected 8Gi of resource memory, but found 4Gi (50.0% of expected)");
  EXPECT_EQ(f.events.events()[0].type, EventType::kWarning);
}

TEST(NodeClaimConsistency, EachClaimIsScannedOncePerTenMinutes) {
  Fixture f;
  f.Launch("4Gi");
  f.Check();
  f.clock.Advance(60'000);
  // Another event for the claim a minute later: not scanned, requeued for the rest.
  EXPECT_EQ(f.Check().requeue_after_millis,
            std::optional<int64_t>(kConsistencyScanPeriodMillis - 60'000));
  EXPECT_EQ(f.events.Count("FailedConsistencyCheck"), 1u);
  f.clock.Advance(kConsistencyScanPeriodMillis - 60'000);
  f.Check();
  EXPECT_EQ(f.events.Count("FailedConsistencyCheck"), 2u);
}

TEST(NodeClaimConsistency, UninitializedOrDeletingClaimsHaveNoShapeIssues) {
  api::NodeClaim claim;
  claim.spec.resources.requests = {{"memory", Q("1Gi")}};
  claim.status.capacity = {{"memory", Q("8Gi")}};
  api::Node node;
  node.status.capacity = {{"memory", Q("1Gi")}};
  EXPECT_TRUE(NodeShapeIssues(node, claim).empty());  // not initialized
  claim.status.conditions = {{.type = "Initialized", .status = "True"}};
  EXPECT_EQ(NodeShapeIssues(node, claim).size(), 1u);
  claim.metadata.deletion_timestamp = api::Time();
  EXPECT_TRUE(NodeShapeIssues(node, claim).empty());
}

}  // namespace
}  // namespace karpenter::controllers
