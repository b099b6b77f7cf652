// Pod affinity and anti-affinity in Solve (P12): required and preferred terms, hostname and
// zone keys, self-affinity bootstrap, the inverse anti-affinity of bound and pending pods, and
// the namespaces a term selects from.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "src/provisioning/scheduler.h"
#include "src/provisioning/topology_test_util.h"

namespace karpenter::provisioning {
namespace {

using namespace ::karpenter::provisioning::testing;  // NOLINT: test fixtures
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Pair;
using ::testing::SizeIs;

const std::map<std::string, std::string> kWeb = {{"app", "web"}};
const std::map<std::string, std::string> kDb = {{"app", "db"}};

TEST(PodAntiAffinity, RequiredOnHostnameGivesEachPodItsOwnClaim) {
  SchedulerInput input = DefaultInput();
  for (int i = 0; i < 5; ++i) {
    api::Pod pod = Labeled("web-" + std::to_string(i), kWeb);
    RequireAntiAffinity(pod, AffinityTerm(kHostnameKey, kWeb));
    input.pending_pods.push_back(pod);
  }
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(result.unschedulable, IsEmpty());
  ASSERT_THAT(result.new_node_claims, SizeIs(5));
  for (const NewNodeClaim& claim : result.new_node_claims) EXPECT_THAT(claim.pods, SizeIs(1));
}

TEST(PodAntiAffinity, HostnameAntiAffinityKeepsPodOffANodeWithAMatchingPod) {
  SchedulerInput input = DefaultInput();
  input.existing_nodes = {MakeNode("node-1", "4", "16Gi")};
  const std::vector<api::Pod> bound = {Bound("db-0", "node-1", kDb)};
  input.bound_pods = PointersTo(bound);
  api::Pod pod = Labeled("web", kWeb);
  RequireAntiAffinity(pod, AffinityTerm(kHostnameKey, kDb));
  api::Pod free = Labeled("free", kWeb);
  input.pending_pods = {pod, free};
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(result.existing_node_pods.at("node-1"), ElementsAre("default/free"));
  EXPECT_THAT(ClaimedPods(result), ElementsAre("default/web"));
}

// Pods labelled security=s2 pinned to the given zones, larger than the anti-affinity pod so
// they are placed first.
std::vector<api::Pod> PinnedPods(const std::vector<std::string>& zones, bool with_anti) {
  std::vector<api::Pod> pods;
  for (const std::string& zone : zones) {
    api::Pod pod = Labeled("pinned-" + zone, {{"security", "s2"}}, "2");
    pod.spec.node_selector = {{kZoneKey, zone}};
    if (with_anti) RequireAntiAffinity(pod, AffinityTerm(kZoneKey, {{"security", "s2"}}));
    pods.push_back(pod);
  }
  return pods;
}

TEST(PodAntiAffinity, ZonalAntiAffinityAvoidsOccupiedZones) {
  SchedulerInput input = DefaultInput();
  input.pending_pods = PinnedPods({kZoneA, kZoneB}, false);
  api::Pod anti = Labeled("anti", {});
  RequireAntiAffinity(anti, AffinityTerm(kZoneKey, {{"security", "s2"}}));
  input.pending_pods.push_back(anti);
  SchedulerResult result = Solve(input);
  EXPECT_THAT(result.unschedulable, IsEmpty());
  EXPECT_EQ(ZoneOf(result.new_node_claims[*ClaimOf(result, "default/anti")]), kZoneC);

  input.pending_pods = PinnedPods({kZoneA, kZoneB, kZoneC}, false);
  input.pending_pods.push_back(anti);
  result = Solve(input);
  EXPECT_THAT(result.unschedulable, ElementsAre(Pair("default/anti", HasSubstr("anti-affinity"))));
}

TEST(PodAntiAffinity, PendingPodsAntiAffinityBlocksMatchingPods) {
  // The pinned pods carry the anti-affinity; the plain s2 pod has none but must avoid them.
  SchedulerInput input = DefaultInput();
  input.pending_pods = PinnedPods({kZoneA, kZoneB, kZoneC}, true);
  input.pending_pods.push_back(Labeled("plain", {{"security", "s2"}}));
  SchedulerResult result = Solve(input);
  EXPECT_THAT(result.unschedulable, ElementsAre(Pair("default/plain", HasSubstr("anti-affinity"))));

  input.pending_pods = PinnedPods({kZoneA, kZoneC}, true);
  input.pending_pods.push_back(Labeled("plain", {{"security", "s2"}}));
  result = Solve(input);
  EXPECT_THAT(result.unschedulable, IsEmpty());
  EXPECT_EQ(ZoneOf(result.new_node_claims[*ClaimOf(result, "default/plain")]), kZoneB);
}

TEST(PodAntiAffinity, UnpinnedAntiAffinityPodBlocksEveryZoneItMightLandIn) {
  SchedulerInput input = DefaultInput();
  api::Pod anywhere = Labeled("anywhere", {}, "2");
  RequireAntiAffinity(anywhere, AffinityTerm(kZoneKey, {{"security", "s2"}}));
  input.pending_pods = {anywhere, Labeled("s2", {{"security", "s2"}})};
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(ClaimedPods(result), ElementsAre("default/anywhere"));
  EXPECT_THAT(result.unschedulable, SizeIs(1));
}

TEST(PodAntiAffinity, BoundPodsAntiAffinityBlocksItsZone) {
  SchedulerInput input = DefaultInput();
  input.existing_nodes = {FullNode("node-a", kZoneA)};
  api::Pod guard = Bound("guard", "node-a", {});
  RequireAntiAffinity(guard, AffinityTerm(kZoneKey, kWeb));
  input.bound_pods = {&guard};
  input.pending_pods = {Labeled("web", kWeb)};
  for (int i = 0; i < 3; ++i) {
    input.pending_pods[0].metadata.name = input.pending_pods[0].metadata.uid =
        "web-" + std::to_string(i);
    const SchedulerResult result = Solve(input);
    ASSERT_THAT(result.new_node_claims, SizeIs(1));
    // Without a zone of its own the claim is narrowed to the zones the guard leaves free.
    EXPECT_THAT(result.new_node_claims[0].zones, ElementsAre(kZoneB, kZoneC));
  }
}

TEST(PodAntiAffinity, BoundPodsOfARemovedNodeNoLongerBlockTheirZone) {
  SchedulerInput input = DefaultInput();
  input.existing_nodes = {FullNode("node-a", kZoneA)};
  api::Pod guard = Bound("guard", "node-a", {});
  RequireAntiAffinity(guard, AffinityTerm(kZoneKey, kWeb));
  input.bound_pods = {&guard};
  input.pending_pods = {Labeled("web", kWeb)};
  input.removed_nodes = {"node-a"};
  const SchedulerResult result = Solve(input);
  ASSERT_THAT(result.new_node_claims, SizeIs(1));
  EXPECT_THAT(result.new_node_claims[0].zones, ElementsAre(kZoneA, kZoneB, kZoneC));
}

TEST(PodAntiAffinity, BoundPodsHostnameAntiAffinityKeepsMatchingPodsOffItsNode) {
  SchedulerInput input = DefaultInput();
  input.existing_nodes = {MakeNode("node-1", "4", "16Gi")};
  api::Pod guard = Bound("guard", "node-1", {});
  RequireAntiAffinity(guard, AffinityTerm(kHostnameKey, kWeb));
  input.bound_pods = {&guard};
  input.pending_pods = {Labeled("web", kWeb), Labeled("db", kDb)};
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(result.existing_node_pods.at("node-1"), ElementsAre("default/db"));
  EXPECT_THAT(ClaimedPods(result), ElementsAre("default/web"));
}

TEST(PodAntiAffinity, PreferredAntiAffinityIsRelaxed) {
  SchedulerInput input = DefaultInput();
  input.pending_pods = PinnedPods({kZoneA, kZoneB, kZoneC}, false);
  api::Pod anti = Labeled("anti", {});
  AntiAffinityOf(anti).preferred_during_scheduling_ignored_during_execution.push_back(
      {10, AffinityTerm(kZoneKey, {{"security", "s2"}})});
  input.pending_pods.push_back(anti);
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(result.unschedulable, IsEmpty());
}

TEST(PodAffinity, FollowsABoundPodToItsZone) {
  SchedulerInput input = DefaultInput();
  input.existing_nodes = {FullNode("node-b", kZoneB)};
  const std::vector<api::Pod> bound = {Bound("db-0", "node-b", kDb)};
  input.bound_pods = PointersTo(bound);
  for (int i = 0; i < 3; ++i) {
    api::Pod pod = Labeled("web-" + std::to_string(i), kWeb);
    RequireAffinity(pod, AffinityTerm(kZoneKey, kDb));
    input.pending_pods.push_back(pod);
  }
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(result.unschedulable, IsEmpty());
  EXPECT_THAT(PodsPerZone(result), ElementsAre(Pair(kZoneB, 3)));
}

TEST(PodAffinity, FollowsAPodPlacedEarlierInTheSameSolveToItsNode) {
  SchedulerInput input = DefaultInput();
  api::Pod db = Labeled("db", kDb, "2");  // Larger, so placed first.
  api::Pod web = Labeled("web", kWeb);
  RequireAffinity(web, AffinityTerm(kHostnameKey, kDb));
  input.pending_pods = {web, db};
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(result.unschedulable, IsEmpty());
  ASSERT_THAT(result.new_node_claims, SizeIs(1));
  EXPECT_THAT(result.new_node_claims[0].pods, ElementsAre("default/db", "default/web"));
}

TEST(PodAffinity, AffinityToAMissingPodIsUnschedulable) {
  SchedulerInput input = DefaultInput();
  api::Pod pod = Labeled("web", kWeb);
  RequireAffinity(pod, AffinityTerm(kZoneKey, kDb));
  input.pending_pods = {pod};
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(result.unschedulable,
              ElementsAre(Pair("default/web", HasSubstr("topology constraint for pod affinity"))));
}

TEST(PodAffinity, PreferredAffinityToAMissingPodIsRelaxed) {
  SchedulerInput input = DefaultInput();
  api::Pod pod = Labeled("web", kWeb);
  PodAffinityOf(pod).preferred_during_scheduling_ignored_during_execution.push_back(
      {5, AffinityTerm(kZoneKey, kDb)});
  input.pending_pods = {pod};
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(result.unschedulable, IsEmpty());
}

TEST(PodAffinity, SelfAffinityBootstrapsOneZone) {
  SchedulerInput input = DefaultInput();
  for (int i = 0; i < 4; ++i) {
    api::Pod pod = Labeled("web-" + std::to_string(i), kWeb, "3");  // One per claim.
    RequireAffinity(pod, AffinityTerm(kZoneKey, kWeb));
    input.pending_pods.push_back(pod);
  }
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(result.unschedulable, IsEmpty());
  const std::map<std::string, int> per_zone = PodsPerZone(result);
  ASSERT_THAT(per_zone, SizeIs(1));
  EXPECT_EQ(per_zone.begin()->second, 4);
  EXPECT_NE(per_zone.begin()->first, "");
}

TEST(PodAffinity, NamespacesListSelectsPodsElsewhere) {
  SchedulerInput input = DefaultInput();
  input.existing_nodes = {FullNode("node-c", kZoneC)};
  api::Pod db = Bound("db-0", "node-c", kDb);
  db.metadata.namespace_ = "data";
  input.bound_pods = {&db};
  api::Pod pod = Labeled("web", kWeb);
  RequireAffinity(pod, AffinityTerm(kZoneKey, kDb));
  input.pending_pods = {pod};
  // Own namespace only: nothing matches.
  EXPECT_THAT(Solve(input).unschedulable, SizeIs(1));

  input.pending_pods[0]
      .spec.affinity->pod_affinity->required_during_scheduling_ignored_during_execution[0]
      .namespaces = {"data"};
  SchedulerResult result = Solve(input);
  EXPECT_THAT(result.unschedulable, IsEmpty());
  EXPECT_THAT(PodsPerZone(result), ElementsAre(Pair(kZoneC, 1)));
}

TEST(PodAffinity, NamespaceSelectors) {
  SchedulerInput input = DefaultInput();
  input.existing_nodes = {FullNode("node-c", kZoneC)};
  api::Pod db = Bound("db-0", "node-c", kDb);
  db.metadata.namespace_ = "data";
  input.bound_pods = {&db};
  api::Pod pod = Labeled("web", kWeb);
  api::PodAffinityTerm term = AffinityTerm(kZoneKey, kDb);
  term.namespace_selector = api::LabelSelector{};  // {}: every namespace.
  RequireAffinity(pod, term);
  input.pending_pods = {pod};
  EXPECT_THAT(PodsPerZone(Solve(input)), ElementsAre(Pair(kZoneC, 1)));

  // By name (the label the API server puts on every namespace).
  auto& selector =
      *input.pending_pods[0]
           .spec.affinity->pod_affinity->required_during_scheduling_ignored_during_execution[0]
           .namespace_selector;
  selector.match_labels = {{"kubernetes.io/metadata.name", "data"}};
  EXPECT_THAT(PodsPerZone(Solve(input)), ElementsAre(Pair(kZoneC, 1)));

  selector.match_labels = {{"kubernetes.io/metadata.name", "elsewhere"}};
  EXPECT_THAT(Solve(input).unschedulable, SizeIs(1));
}

}  // namespace
}  // namespace karpenter::provisioning
