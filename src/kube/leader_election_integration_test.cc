// Leader election on a real API server's Lease (see live_cluster.h; skipped without one).
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "src/kube/leader_election.h"
#include "src/kube/live_cluster.h"

namespace karpenter::kube {
namespace {

using testing::LiveCluster;

TEST(LeaderElectionIntegration, OneLeaderAtATimeAndReleaseHandsOver) {
  auto live = LiveCluster::Connect();
  if (!live) GTEST_SKIP() << testing::kSkipMessage;
  auto config = [&](const std::string& identity) {
    return LeaderElectionConfig{.namespace_ = live->ns(), .identity = identity};
  };
  LeaderElector a(live->client(), live->clock(), config("a"), nullptr, nullptr);
  LeaderElector b(live->client(), live->clock(), config("b"), nullptr, nullptr);
  absl::StatusOr<bool> a_leads = a.TryAcquireOrRenew();
  ASSERT_TRUE(a_leads.ok()) << a_leads.status();
  EXPECT_TRUE(*a_leads);
  absl::StatusOr<bool> b_leads = b.TryAcquireOrRenew();
  ASSERT_TRUE(b_leads.ok()) << b_leads.status();
  EXPECT_FALSE(*b_leads);
  EXPECT_TRUE(*a.TryAcquireOrRenew());  // renewing our own lease

  // Leadership comes through the loop, which Release then ends.
  a.Start();
  ASSERT_TRUE(live->WaitFor([&] { return a.IsLeader(); }));
  a.Stop();
  ASSERT_TRUE(a.Release().ok());
  nlohmann::json lease = nlohmann::json::parse(
      *live->client().Call("GET", "/apis/coordination.k8s.io/v1/namespaces/" + live->ns() +
                                      "/leases/karpenter-leader-election"));
  EXPECT_EQ(lease["spec"]["holderIdentity"], "");
  EXPECT_TRUE(*b.TryAcquireOrRenew());  // no need to wait out a's 15 s
  lease = nlohmann::json::parse(
      *live->client().Call("GET", "/apis/coordination.k8s.io/v1/namespaces/" + live->ns() +
                                      "/leases/karpenter-leader-election"));
  EXPECT_EQ(lease["spec"]["holderIdentity"], "b");
  EXPECT_EQ(lease["spec"]["leaseTransitions"], 1);
}

}  // namespace
}  // namespace karpenter::kube
