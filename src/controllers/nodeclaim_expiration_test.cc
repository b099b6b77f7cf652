#include "src/controllers/nodeclaim_expiration.h"

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

constexpr int64_t kHour = 60 * 60 * 1000;

struct Fixture {
  fakes::FakeClock clock;
  fakes::FakeKubeCluster cluster{clock};
  fakes::FakeCloudProvider cloud;
  metrics::Registry metrics{metrics::KarpenterCatalog()};
  CleanupSeams seams{clock, cluster, cluster, cloud, metrics};

  Fixture() {
    cloudprovider::InstanceType type;
    type.name = "m5.large";
    type.offerings = {
        {.zone = "us-east-1a", .capacity_type = "spot", .price = 0.04, .available = true}};
    cloud.SetInstanceTypes({type});
  }

  // A registered NodeClaim named `name` with a running instance and node `name`-node.
  api::NodeClaim Launch(const std::string& name, std::optional<api::NillableDuration> expire) {
    api::NodeClaim claim;
    claim.metadata.name = name;
    claim.metadata.labels[std::string(api::kNodePoolLabelKey)] = "default";
    claim.metadata.finalizers = {std::string(api::kTerminationFinalizer)};
    claim.spec.node_class_ref =
        api::NodeClassReference{"EC2NodeClass", "default", std::string(api::kAwsGroup)};
    claim.spec.expire_after = std::move(expire);
    claim = std::get<api::NodeClaim>(cloud.Create(claim));
    claim = std::get<api::NodeClaim>(*cluster.Create(claim));
    claim.status.node_name = name + "-node";
    claim.status.conditions = {{.type = "Registered", .status = "True", .reason = "Registered"}};
    claim = std::get<api::NodeClaim>(*cluster.UpdateStatus(claim));
    api::Pod pod;
    pod.metadata.name = name + "-pod";
    pod.metadata.namespace_ = "default";
    pod.spec.node_name = claim.status.node_name;
    EXPECT_TRUE(cluster.Create(pod).ok());
    return claim;
  }
  bool Deleting(const std::string& name) const {
    std::optional<api::Object> object = cluster.Get({"NodeClaim", "", name});
    return object && std::get<api::NodeClaim>(*object).metadata.deletion_timestamp.has_value();
  }
  double Disrupted(const std::string& reason) const {
    return metrics.Value("karpenter_nodeclaims_disrupted_total",
                         {{"reason", reason},
                          {"nodepool", "default"},
                          {"capacity_type", "spot"},
                          {"consolidation_policy", ""},
                          {"termination_mode", "graceful"}});
  }
};

TEST(NodeClaimExpiration, DeletesOnlyOnceExpireAfterHasPassed) {
  Fixture f;
  NodeClaimExpiration expiration(f.seams);
  f.Launch("a", api::NillableDuration::Of(api::Duration::FromHours(2)));
  absl::StatusOr<ReconcileResult> result = expiration.Reconcile("a");
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->requeue_after_millis, std::optional<int64_t>(2 * kHour));
  f.clock.Advance(2 * kHour - 1);
  ASSERT_TRUE(expiration.Reconcile("a").ok());
  EXPECT_FALSE(f.Deleting("a"));
  f.clock.Advance(1);
  ASSERT_TRUE(expiration.Reconcile("a").ok());
  EXPECT_TRUE(f.Deleting("a"));
  EXPECT_EQ(f.Disrupted("expired"), 1);
  EXPECT_EQ(f.metrics.Value("karpenter_pods_disruption_initiated_total",
                            {{"reason", "expired"},
                             {"nodepool", "default"},
                             {"capacity_type", "spot"},
                             {"consolidation_policy", ""},
                             {"termination_mode", "graceful"}}),
            1);
}

TEST(NodeClaimExpiration, NeverAndNoExpireAfterNeverExpire) {
  Fixture f;
  NodeClaimExpiration expiration(f.seams);
  f.Launch("never", api::NillableDuration::Never());
  f.Launch("unset", std::nullopt);
  f.clock.Advance(10'000 * kHour);
  for (const char* name : {"never", "unset"}) {
    absl::StatusOr<ReconcileResult> result = expiration.Reconcile(name);
    ASSERT_TRUE(result.ok());
    EXPECT_FALSE(result->requeue_after_millis.has_value());
    EXPECT_FALSE(f.Deleting(name));
  }
}

TEST(NodeClaimGarbageCollection, DeletesRegisteredClaimsWhoseInstanceIsGoneUnlessTheNodeIsReady) {
  Fixture f;
  NodeClaimGarbageCollection gc(f.seams);
  const api::NodeClaim gone = f.Launch("gone", std::nullopt);
  const api::NodeClaim alive = f.Launch("alive", std::nullopt);
  const api::NodeClaim kubelet_up = f.Launch("kubelet-up", std::nullopt);
  api::Node node;
  node.metadata.name = "kubelet-up-node";
  node.spec.provider_id = kubelet_up.status.provider_id;
  node = std::get<api::Node>(*f.cluster.Create(node));
  node.status.conditions.push_back({"Ready", "True"});
  ASSERT_TRUE(f.cluster.UpdateStatus(node).ok());
  f.cloud.RemoveInstance(gone.status.provider_id);
  f.cloud.RemoveInstance(kubelet_up.status.provider_id);

  absl::StatusOr<ReconcileResult> result = gc.Reconcile();
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->requeue_after_millis, std::optional<int64_t>(2 * 60 * 1000));
  EXPECT_TRUE(f.Deleting("gone"));
  EXPECT_FALSE(f.Deleting("alive"));
  EXPECT_FALSE(f.Deleting("kubelet-up"));
  EXPECT_EQ(f.Disrupted("garbage_collected"), 1);
}

TEST(NodeClaimGarbageCollection, AnUnreachableCloudDeletesNothing) {
  Fixture f;
  NodeClaimGarbageCollection gc(f.seams);
  f.Launch("a", std::nullopt);
  f.cloud.FailNext(fakes::FakeCloudProvider::Method::kList,
                   CloudError{.kind = CloudErrorKind::kUnavailable, .message = "throttled"});
  EXPECT_FALSE(gc.Reconcile().ok());
  EXPECT_FALSE(f.Deleting("a"));
}

}  // namespace
}  // namespace karpenter::controllers
