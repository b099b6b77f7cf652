#include "src/provisioning/topology_group.h"

#include <gtest/gtest.h>

namespace karpenter::provisioning {
namespace {

TopologyGroup HostnameGroup(TopologyType type, int32_t max_skew, HostIds& hosts) {
  TopologyGroupSpec spec;
  spec.type = type;
  spec.key = "kubernetes.io/hostname";
  spec.max_skew = max_skew;
  return TopologyGroup(std::move(spec), &hosts);
}

void RecordOnClaim(TopologyGroup& group, HostIds& hosts, const std::string& claim) {
  hosts.MarkClaim(hosts.IdOf(claim));
  group.Record(claim);
}

// A Deployment spread one pod per node tried every earlier claim for every pod (100,000 replicas
// did not plan in 60 s): a spread's claims at its skew now count as closed, as anti-affinity's
// did, so the scheduler can skip them all at once.
TEST(TopologyGroup, SpreadCountsClaimsAtItsSkewAsBlocked) {
  HostIds hosts;
  TopologyGroup spread = HostnameGroup(TopologyType::kSpread, 2, hosts);
  RecordOnClaim(spread, hosts, "claim-a");
  EXPECT_EQ(spread.BlockedClaims(/*self_selecting=*/true), 0u);
  RecordOnClaim(spread, hosts, "claim-a");
  RecordOnClaim(spread, hosts, "claim-b");
  // claim-a holds 2 = maxSkew: a selected pod would make it 3, over the skew.
  EXPECT_EQ(spread.BlockedClaims(/*self_selecting=*/true), 1u);
  EXPECT_EQ(spread.BlockedClaims(/*self_selecting=*/false), 0u);
  RecordOnClaim(spread, hosts, "claim-a");
  EXPECT_EQ(spread.BlockedClaims(/*self_selecting=*/false), 1u);
  // The counts agree with the per-host answer.
  EXPECT_TRUE(spread.BlocksHost(true, hosts.IdOf("claim-a")));
  EXPECT_FALSE(spread.BlocksHost(true, hosts.IdOf("claim-b")));
}

TEST(TopologyGroup, ExistingNodesAreNotCountedAsBlockedClaims) {
  HostIds hosts;
  TopologyGroup spread = HostnameGroup(TopologyType::kSpread, 1, hosts);
  spread.Record("node-1");  // a bound pod on an existing node, not a claim of this solve
  EXPECT_EQ(spread.BlockedClaims(/*self_selecting=*/true), 0u);
  EXPECT_TRUE(spread.BlocksHost(true, hosts.IdOf("node-1")));
}

TEST(TopologyGroup, AntiAffinityBlocksAClaimWithOnePodForEveryPod) {
  HostIds hosts;
  TopologyGroup anti = HostnameGroup(TopologyType::kPodAntiAffinity, 0, hosts);
  RecordOnClaim(anti, hosts, "claim-a");
  RecordOnClaim(anti, hosts, "claim-a");
  EXPECT_EQ(anti.BlockedClaims(/*self_selecting=*/true), 1u);
  EXPECT_EQ(anti.BlockedClaims(/*self_selecting=*/false), 1u);
  TopologyGroup affinity = HostnameGroup(TopologyType::kPodAffinity, 0, hosts);
  RecordOnClaim(affinity, hosts, "claim-a");
  EXPECT_EQ(affinity.BlockedClaims(/*self_selecting=*/true), 0u);
}

}  // namespace
}  // namespace karpenter::provisioning
