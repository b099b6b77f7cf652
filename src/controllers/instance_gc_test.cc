#include "src/controllers/instance_gc.h"

#include <variant>

#include "gtest/gtest.h"
#include "src/api/karpenter_labels.h"
#include "src/fakes/fake_clock.h"
#include "src/fakes/fake_cloud_provider.h"
#include "src/fakes/fake_kube_cluster.h"
#include "src/metrics/karpenter_metrics.h"
#include "src/metrics/registry.h"

namespace karpenter::controllers {
namespace {

struct Fixture {
  fakes::FakeClock clock;
  fakes::FakeKubeCluster cluster{clock};
  fakes::FakeCloudProvider cloud;
  metrics::Registry metrics{metrics::KarpenterCatalog()};
  InstanceGarbageCollection gc{CleanupSeams{clock, cluster, cluster, cloud, metrics}};

  Fixture() {
    cloudprovider::InstanceType type;
    type.name = "m5.large";
    type.offerings = {
        {.zone = "us-east-1a", .capacity_type = "spot", .price = 0.04, .available = true}};
    cloud.SetInstanceTypes({type});
  }

  // An instance launched now for a NodeClaim named `name`, which the cluster keeps (with its
  // provider ID) only when `claimed`.
  std::string Launch(const std::string& name, bool claimed) {
    api::NodeClaim claim;
    claim.metadata.name = name;
    claim.metadata.creation_timestamp = clock.Now();
    claim = std::get<api::NodeClaim>(cloud.Create(claim));
    if (claimed) {
      api::NodeClaim stored = std::get<api::NodeClaim>(*cluster.Create(claim));
      stored.status = claim.status;
      EXPECT_TRUE(cluster.UpdateStatus(stored).ok());
    }
    return claim.status.provider_id;
  }
  // The Node a kubelet on that instance registered.
  void Register(const std::string& name, const std::string& provider_id) {
    api::Node node;
    node.metadata.name = name;
    node.spec.provider_id = provider_id;
    EXPECT_TRUE(cluster.Create(node).ok());
  }
  ReconcileResult Pass() {
    absl::StatusOr<ReconcileResult> result = gc.Reconcile();
    EXPECT_TRUE(result.ok()) << result.status();
    return result.ok() ? *result : ReconcileResult{};
  }
};

TEST(InstanceGarbageCollection, AnUnclaimedInstanceGoesOnlyAfterThirtySecondsWithItsNode) {
  Fixture f;
  const std::string leaked = f.Launch("deleted-while-launching", /*claimed=*/false);
  const std::string kept = f.Launch("kept", /*claimed=*/true);
  f.Register("leaked-node", leaked);
  f.Register("kept-node", kept);

  // Its NodeClaim's status write may still be on its way.
  f.clock.Advance(kInstanceGarbageCollectionMinAgeMillis);
  f.Pass();
  EXPECT_TRUE(f.cloud.terminating().empty());

  f.clock.Advance(1);
  f.Pass();
  EXPECT_EQ(f.cloud.terminating(), std::set<std::string>{leaked});
  EXPECT_FALSE(f.cluster.Get({"Node", "", "leaked-node"}).has_value());
  EXPECT_TRUE(f.cluster.Get({"Node", "", "kept-node"}).has_value());

  // Terminating now: not terminated again.
  const size_t calls = f.cloud.calls().size();
  f.Pass();
  EXPECT_EQ(f.cloud.calls().size(), calls + 1);  // the List alone
}

TEST(InstanceGarbageCollection, AnInstanceAlreadyGoneIsNotAnError) {
  Fixture f;
  f.Launch("gone", /*claimed=*/false);
  f.clock.Advance(kInstanceGarbageCollectionMinAgeMillis + 1);
  f.cloud.FailNext(fakes::FakeCloudProvider::Method::kDelete,
                   CloudError{.kind = CloudErrorKind::kNotFound, .message = "gone"});
  f.Pass();
  EXPECT_TRUE(f.cloud.terminating().empty());
}

TEST(InstanceGarbageCollection, AFailedTerminationIsRetriedAndAFailedListTouchesNothing) {
  Fixture f;
  const std::string leaked = f.Launch("leaked", /*claimed=*/false);
  f.clock.Advance(kInstanceGarbageCollectionMinAgeMillis + 1);
  f.cloud.FailNext(fakes::FakeCloudProvider::Method::kList,
                   CloudError{.kind = CloudErrorKind::kUnavailable, .message = "throttled"});
  EXPECT_FALSE(f.gc.Reconcile().ok());
  f.cloud.FailNext(fakes::FakeCloudProvider::Method::kDelete,
                   CloudError{.kind = CloudErrorKind::kUnavailable, .message = "throttled"});
  absl::StatusOr<ReconcileResult> failed = f.gc.Reconcile();
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.status().message().find(leaked), std::string_view::npos);
  EXPECT_TRUE(f.cloud.terminating().empty());
  f.Pass();
  EXPECT_EQ(f.cloud.terminating(), std::set<std::string>{leaked});
}

TEST(InstanceGarbageCollection, RunsEveryTenSecondsForTwentyPassesThenEveryTwoMinutes) {
  Fixture f;
  for (uint64_t pass = 1; pass <= kInstanceGarbageCollectionEarlyPasses; ++pass) {
    EXPECT_EQ(f.Pass().requeue_after_millis,
              std::optional<int64_t>(kInstanceGarbageCollectionEarlyPeriodMillis))
        << pass;
  }
  EXPECT_EQ(f.Pass().requeue_after_millis, std::optional<int64_t>(kGarbageCollectionPeriodMillis));
}

}  // namespace
}  // namespace karpenter::controllers
