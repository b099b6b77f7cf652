// Topology spread constraints in Solve (P11): zone, hostname and custom keys, maxSkew,
// minDomains, DoNotSchedule vs relaxed ScheduleAnyway, bound pods counted, matchLabelKeys and
// the node inclusion policies.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "src/provisioning/scheduler.h"
#include "src/provisioning/topology_test_util.h"

namespace karpenter::provisioning {
namespace {

using namespace ::karpenter::provisioning::testing;  // NOLINT: test fixtures
using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::Pair;
using ::testing::SizeIs;

const std::map<std::string, std::string> kWeb = {{"app", "web"}};

TEST(TopologySpread, ZoneSpreadOverThreeZonesBalances) {
  SchedulerInput input = DefaultInput();
  input.pending_pods = SpreadPods("web", 6, Spread(kZoneKey, 1, kWeb), kWeb);
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(result.unschedulable, IsEmpty());
  EXPECT_THAT(PodsPerZone(result), ElementsAre(Pair(kZoneA, 2), Pair(kZoneB, 2), Pair(kZoneC, 2)));
  // Every claim holding a spread pod is pinned to one zone.
  for (const NewNodeClaim& claim : result.new_node_claims) EXPECT_THAT(claim.zones, SizeIs(1));
}

TEST(TopologySpread, MaxSkewTwoAllowsUnevenZones) {
  SchedulerInput input = DefaultInput();
  // Only zone A can launch; zone B is known from a full node and holds no web pod.
  AddRequirement(input.node_pools[0].node_pool, kZoneKey, "In", {kZoneA});
  input.existing_nodes.push_back(FullNode("full-b", kZoneB));
  input.pending_pods = SpreadPods("web", 4, Spread(kZoneKey, 2, kWeb), kWeb);
  const SchedulerResult result = Solve(input);
  // count + 1 − 0 ≤ 2: two pods fit in zone A, the other two would skew it further.
  EXPECT_THAT(PodsPerZone(result), ElementsAre(Pair(kZoneA, 2)));
  EXPECT_THAT(result.unschedulable, SizeIs(2));
}

TEST(TopologySpread, HostnameSpreadPutsOnePodPerNode) {
  SchedulerInput input = DefaultInput();
  input.pending_pods = SpreadPods("web", 4, Spread(kHostnameKey, 1, kWeb), kWeb);
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(result.unschedulable, IsEmpty());
  ASSERT_THAT(result.new_node_claims, SizeIs(4));
  for (const NewNodeClaim& claim : result.new_node_claims) {
    EXPECT_THAT(claim.pods, SizeIs(1));
    // The placeholder hostname never reaches the output.
    EXPECT_FALSE(claim.requirements.Has(kHostnameKey));
    EXPECT_EQ(claim.labels.count(kHostnameKey), 0u);
  }
}

TEST(TopologySpread, HostnameSpreadMaxSkewTwoPairsPods) {
  SchedulerInput input = DefaultInput();
  input.pending_pods = SpreadPods("web", 4, Spread(kHostnameKey, 2, kWeb), kWeb);
  const SchedulerResult result = Solve(input);
  ASSERT_THAT(result.new_node_claims, SizeIs(2));
  for (const NewNodeClaim& claim : result.new_node_claims) EXPECT_THAT(claim.pods, SizeIs(2));
}

TEST(TopologySpread, CustomKeySpreadsOverPoolValues) {
  SchedulerInput input = DefaultInput();
  AddRequirement(input.node_pools[0].node_pool, "example.com/rack", "In", {"r1", "r2"});
  input.pending_pods = SpreadPods("web", 4, Spread("example.com/rack", 1, kWeb), kWeb);
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(result.unschedulable, IsEmpty());
  std::map<std::string, int> per_rack;
  for (const NewNodeClaim& claim : result.new_node_claims) {
    per_rack[claim.labels.at("example.com/rack")] += static_cast<int>(claim.pods.size());
  }
  EXPECT_THAT(per_rack, ElementsAre(Pair("r1", 2), Pair("r2", 2)));
}

TEST(TopologySpread, MinDomainsAboveDomainCountKeepsGlobalMinAtZero) {
  SchedulerInput input = DefaultInput();
  api::TopologySpreadConstraint tsc = Spread(kZoneKey, 1, kWeb);
  tsc.min_domains = 5;  // Only three zones exist: the global minimum counts as 0.
  input.pending_pods = SpreadPods("web", 6, tsc, kWeb);
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(PodsPerZone(result), ElementsAre(Pair(kZoneA, 1), Pair(kZoneB, 1), Pair(kZoneC, 1)));
  EXPECT_THAT(result.unschedulable, SizeIs(3));
}

// Zone B is known (a full node) but cannot take pods, so after one pod in zone A the skew
// rule forbids a second.
SchedulerInput SkewedInput(const char* when) {
  SchedulerInput input = DefaultInput();
  AddRequirement(input.node_pools[0].node_pool, kZoneKey, "In", {kZoneA});
  input.existing_nodes.push_back(FullNode("full-b", kZoneB));
  input.pending_pods = SpreadPods("web", 3, Spread(kZoneKey, 1, kWeb, when), kWeb);
  return input;
}

TEST(TopologySpread, DoNotScheduleLeavesPodsUnschedulableWhenSkewIsImpossible) {
  const SchedulerInput input = SkewedInput("DoNotSchedule");
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(PodsPerZone(result), ElementsAre(Pair(kZoneA, 1)));
  ASSERT_THAT(result.unschedulable, SizeIs(2));
  EXPECT_THAT(result.unschedulable.begin()->second,
              ::testing::HasSubstr("unsatisfiable topology constraint for topology spread"));
}

TEST(TopologySpread, ScheduleAnywayIsRelaxedWhenSkewIsImpossible) {
  const SchedulerInput input = SkewedInput("ScheduleAnyway");
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(result.unschedulable, IsEmpty());
  EXPECT_THAT(PodsPerZone(result), ElementsAre(Pair(kZoneA, 3)));
}

TEST(TopologySpread, ScheduleAnywayIsHonouredWhenPossible) {
  SchedulerInput input = DefaultInput();
  input.pending_pods = SpreadPods("web", 3, Spread(kZoneKey, 1, kWeb, "ScheduleAnyway"), kWeb);
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(PodsPerZone(result), ElementsAre(Pair(kZoneA, 1), Pair(kZoneB, 1), Pair(kZoneC, 1)));
}

TEST(TopologySpread, BoundPodsAreCountedButTerminatingOnesAreNot) {
  SchedulerInput input = DefaultInput();
  input.existing_nodes = {FullNode("node-a", kZoneA), FullNode("node-b", kZoneB)};
  std::vector<api::Pod> bound = {Bound("old-1", "node-a", kWeb), Bound("old-2", "node-a", kWeb),
                                 Bound("other", "node-b", {{"app", "other"}})};
  api::Pod terminating = Bound("leaving", "node-b", kWeb);
  terminating.metadata.deletion_timestamp = api::Time::FromUnixSeconds(1);
  api::Pod finished = Bound("done", "node-b", kWeb);
  finished.status.phase = "Succeeded";
  bound.push_back(terminating);
  bound.push_back(finished);
  input.bound_pods = PointersTo(bound);
  input.pending_pods = SpreadPods("web", 4, Spread(kZoneKey, 1, kWeb), kWeb);
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(result.unschedulable, IsEmpty());
  // Zone A already holds two: the new pods even out B and C first.
  EXPECT_THAT(PodsPerZone(result), ElementsAre(Pair(kZoneB, 2), Pair(kZoneC, 2)));
}

TEST(TopologySpread, BoundPodsInOtherNamespacesAreNotCounted) {
  SchedulerInput input = DefaultInput();
  input.existing_nodes = {FullNode("node-a", kZoneA)};
  api::Pod elsewhere = Bound("old", "node-a", kWeb);
  elsewhere.metadata.namespace_ = "other";
  std::vector<api::Pod> bound = {elsewhere, elsewhere};
  bound[1].metadata.name = "old-2";
  bound[1].metadata.uid = "old-2";
  input.bound_pods = PointersTo(bound);
  input.pending_pods = SpreadPods("web", 3, Spread(kZoneKey, 1, kWeb), kWeb);
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(PodsPerZone(result), ElementsAre(Pair(kZoneA, 1), Pair(kZoneB, 1), Pair(kZoneC, 1)));
}

TEST(TopologySpread, MatchLabelKeysCountsOnlyTheSameRevision) {
  SchedulerInput input = DefaultInput();
  input.existing_nodes = {FullNode("node-a", kZoneA)};
  std::vector<api::Pod> bound;
  for (int i = 0; i < 3; ++i) {
    bound.push_back(Bound("v1-" + std::to_string(i), "node-a", {{"app", "web"}, {"hash", "v1"}}));
  }
  input.bound_pods = PointersTo(bound);
  api::TopologySpreadConstraint tsc = Spread(kZoneKey, 1, kWeb);
  tsc.match_label_keys = {"hash"};
  input.pending_pods = SpreadPods("v2", 3, tsc, {{"app", "web"}, {"hash", "v2"}});
  SchedulerResult result = Solve(input);
  // The v1 pods in zone A do not count for v2: one v2 pod per zone.
  EXPECT_THAT(PodsPerZone(result), ElementsAre(Pair(kZoneA, 1), Pair(kZoneB, 1), Pair(kZoneC, 1)));

  // Without matchLabelKeys they do, and zone A gets none.
  for (api::Pod& pod : input.pending_pods)
    pod.spec.topology_spread_constraints[0].match_label_keys = {};
  result = Solve(input);
  EXPECT_EQ(PodsPerZone(result).count(kZoneA), 0u);
}

// Pool "default" launches in zones A and B; pool "tainted" (zone C) has a taint the pods do
// not tolerate.
SchedulerInput TaintedZoneInput(std::optional<std::string> taints_policy) {
  SchedulerInput input = DefaultInput();
  AddRequirement(input.node_pools[0].node_pool, kZoneKey, "In", {kZoneA, kZoneB});
  api::NodePool tainted = MakeNodePool("tainted");
  AddRequirement(tainted, kZoneKey, "In", {kZoneC});
  tainted.spec.template_.spec.taints.push_back({"dedicated", "x", "NoSchedule", std::nullopt});
  input.node_pools.push_back({tainted, Catalog()});
  api::TopologySpreadConstraint tsc = Spread(kZoneKey, 1, kWeb);
  tsc.node_taints_policy = taints_policy;
  input.pending_pods = SpreadPods("web", 4, tsc, kWeb);
  return input;
}

TEST(TopologySpread, NodeTaintsPolicyIgnoreCountsTaintedDomains) {
  const SchedulerInput input = TaintedZoneInput(std::nullopt);
  const SchedulerResult result = Solve(input);
  // Zone C stays at 0 pods, so A and B can hold one each.
  EXPECT_THAT(PodsPerZone(result), ElementsAre(Pair(kZoneA, 1), Pair(kZoneB, 1)));
  EXPECT_THAT(result.unschedulable, SizeIs(2));
}

TEST(TopologySpread, NodeTaintsPolicyHonorSkipsUntoleratedDomains) {
  const SchedulerInput input = TaintedZoneInput("Honor");
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(result.unschedulable, IsEmpty());
  EXPECT_THAT(PodsPerZone(result), ElementsAre(Pair(kZoneA, 2), Pair(kZoneB, 2)));
}

TEST(TopologySpread, NodeAffinityLimitsTheDomainsConsidered) {
  SchedulerInput input = DefaultInput();
  input.pending_pods = SpreadPods("web", 4, Spread(kZoneKey, 1, kWeb), kWeb);
  for (api::Pod& pod : input.pending_pods) {
    AddRequiredAffinity(pod, {Term(kZoneKey, "In", {kZoneA, kZoneB})});
  }
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(result.unschedulable, IsEmpty());
  EXPECT_THAT(PodsPerZone(result), ElementsAre(Pair(kZoneA, 2), Pair(kZoneB, 2)));
}

// Two "web" pods bigger than the spread pods (so placed first), without a spread constraint and
// pinned to zone A.
void AppendWebPodsPinnedToZoneA(std::vector<api::Pod>& pods) {
  for (const char* name : {"pinned-1", "pinned-2"}) {
    api::Pod pinned = Labeled(name, kWeb, "2");
    pinned.spec.node_selector = {{kZoneKey, kZoneA}};
    pods.push_back(std::move(pinned));
  }
}

TEST(TopologySpread, PodsNotSelectedBySpreadStillCountWhenTheyMatch) {
  SchedulerInput input = DefaultInput();
  // Bigger pods go first: the unconstrained "web" pods pinned to zone A are counted there.
  input.pending_pods = SpreadPods("web", 2, Spread(kZoneKey, 1, kWeb), kWeb);
  AppendWebPodsPinnedToZoneA(input.pending_pods);
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(result.unschedulable, IsEmpty());
  EXPECT_THAT(PodsPerZone(result, "default/web"), ElementsAre(Pair(kZoneB, 1), Pair(kZoneC, 1)));
}

TEST(TopologySpread, AGroupMadeByRelaxingCountsThePodsPlacedBeforeIt) {
  SchedulerInput input = DefaultInput();
  // The bigger unconstrained "web" pods go first, to zone A.
  // The spread pods' first required term names no zone there is: relaxing drops it, and their
  // spread then honours the second term alone, in a group the solve makes only after the pinned
  // pods landed.
  input.pending_pods = SpreadPods("web", 2, Spread(kZoneKey, 1, kWeb), kWeb);
  for (api::Pod& pod : input.pending_pods) {
    AddRequiredAffinity(
        pod, {Term(kZoneKey, "In", {"nowhere-1x"}), Term(kZoneKey, "In", {kZoneA, kZoneB})});
  }
  AppendWebPodsPinnedToZoneA(input.pending_pods);
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(result.unschedulable, IsEmpty());
  // With the pinned pods counted in zone A, both spread pods must go to zone B.
  EXPECT_THAT(PodsPerZone(result, "default/web"), ElementsAre(Pair(kZoneB, 2)));
}

// The smallest reproducer of upstream's tie order: 11 pods of 7 cpu fill one claim, which
// the first of 18 zone-spread pods then pins to zone A; the next two open a claim in zone B and
// one in zone C, and each gains a pod, B's first. Upstream re-sorts its claims by pod count with
// Go's sort before every pod, which leaves C (already ahead of B) ahead of it at two pods each, so
// the next pod free to go anywhere lands on C. Breaking ties by creation order lands it on B.
std::vector<api::Pod> TieReproducerPods() {
  std::vector<api::Pod> pods;
  const auto two_digits = [](int i) { return std::string(i < 10 ? "0" : "") + std::to_string(i); };
  for (int i = 0; i < 11; ++i) pods.push_back(MakePod("big-" + two_digits(i), "7", "256Mi", i));
  const std::map<std::string, std::string> spread = {{"app", "spread"}};
  for (int i = 0; i < 18; ++i) {
    api::Pod pod = MakePod("spread-" + two_digits(i), "750m", "64Mi", 100 + i);
    pod.metadata.labels = spread;
    pod.spec.topology_spread_constraints = {Spread(kZoneKey, 1, spread)};
    pods.push_back(std::move(pod));
  }
  return pods;
}

std::vector<std::string> PodsWith(const SchedulerResult& result, const std::string& key) {
  const std::optional<size_t> claim = ClaimOf(result, key);
  return claim ? result.new_node_claims[*claim].pods : std::vector<std::string>{};
}

TEST(TopologySpread, ClaimsWithAsManyPodsAreTriedInUpstreamsGoSortOrder) {
  SchedulerInput input = DefaultInput();
  input.pending_pods = TieReproducerPods();
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(result.unschedulable, IsEmpty());
  ASSERT_THAT(result.new_node_claims, SizeIs(3));
  EXPECT_THAT(PodsWith(result, "default/spread-01"),
              ElementsAre("default/spread-01", "default/spread-03", "default/spread-07",
                          "default/spread-09", "default/spread-13", "default/spread-15"));
  EXPECT_THAT(PodsWith(result, "default/spread-02"),
              ElementsAre("default/spread-02", "default/spread-04", "default/spread-06",
                          "default/spread-10", "default/spread-12", "default/spread-16"));
  EXPECT_EQ(ZoneOf(result.new_node_claims[*ClaimOf(result, "default/spread-06")]), kZoneC);
}

TEST(TopologySpread, CreationTiesAreAnOptInThatTriesTheOlderClaimFirst) {
  SchedulerInput input = DefaultInput();
  input.pending_pods = TieReproducerPods();
  input.options.claim_ties = ClaimTieOrder::kCreation;
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(result.unschedulable, IsEmpty());
  ASSERT_THAT(result.new_node_claims, SizeIs(3));
  EXPECT_THAT(PodsWith(result, "default/spread-01"),
              ElementsAre("default/spread-01", "default/spread-03", "default/spread-06",
                          "default/spread-09", "default/spread-12", "default/spread-15"));
  EXPECT_THAT(PodsWith(result, "default/spread-02"),
              ElementsAre("default/spread-02", "default/spread-04", "default/spread-07",
                          "default/spread-10", "default/spread-13", "default/spread-16"));
}

}  // namespace
}  // namespace karpenter::provisioning
