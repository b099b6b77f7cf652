// The disruption controller and the provisioner sharing upstream's MarkForDeletion, and the
// provisioner's node trigger.
#include "src/controllers/deletion_marks.h"

#include <string>
#include <variant>
#include <vector>

#include "gtest/gtest.h"
#include "src/api/karpenter_labels.h"
#include "src/controllers/disruption_controller.h"
#include "src/controllers/provisioner.h"
#include "src/disruption/disruption_test_util.h"
#include "src/fakes/fake_clock.h"
#include "src/fakes/fake_event_recorder.h"
#include "src/fakes/fake_kube_cluster.h"
#include "src/metrics/karpenter_metrics.h"
#include "src/metrics/registry.h"

namespace karpenter::controllers {
namespace {

using disruption::testing::NodeYaml;
using disruption::testing::PodYaml;

constexpr char kBigProviderId[] = "aws:///us-east-1a/i-big";

struct Fixture {
  fakes::FakeClock clock;
  fakes::FakeKubeCluster cluster{clock};
  fakes::FakeEventRecorder events;
  metrics::Registry metrics{metrics::KarpenterCatalog()};
  DeletionMarks marks;
  Provisioner provisioner{
      ProvisionerSeams{clock, cluster, cluster, events, metrics, nullptr, nullptr, &marks},
      ProvisionerOptions{}};
  DisruptionController disruption{
      DisruptionSeams{clock, cluster, cluster, events, metrics, nullptr, nullptr, &marks},
      DisruptionControllerOptions{}};

  // The m5 on-demand pool, consolidating at once with no budget in the way.
  Fixture() {
    Apply({disruption::testing::kNodeClass,
           disruption::testing::NodePoolYaml(
               "default",
               "{consolidationPolicy: WhenEmptyOrUnderutilized, consolidateAfter: 0s, "
               "budgets: [{nodes: '100%'}]}")});
  }

  void Apply(const std::vector<std::string>& documents) {
    absl::Status created = fakes::CreateWithStatus(cluster, disruption::testing::Join(documents));
    ASSERT_TRUE(created.ok()) << created;
  }
  std::vector<std::string> ClaimNames() const {
    std::vector<std::string> names;
    for (const api::Object& object : cluster.List("NodeClaim")) names.push_back(KeyOf(object).name);
    return names;
  }
  // Consolidation of the m5.xlarge "big", holding one pod of `cpu`, onto a cheaper m5: the
  // poll, the validation 15 s later, and the replacement's launch as an m5.large.
  std::string ReplaceBig(const std::string& cpu) {
    Apply({NodeYaml({.name = "big"}), PodYaml({.name = "p", .node = "big", .cpu = cpu})});
    EXPECT_TRUE(disruption.Reconcile().ok());
    clock.Advance(15'000);
    EXPECT_TRUE(disruption.Reconcile().ok());
    std::string replacement;
    for (const std::string& name : ClaimNames()) {
      if (name != "claim-big") replacement = name;
    }
    EXPECT_FALSE(replacement.empty()) << "no replacement was created";
    if (replacement.empty()) return replacement;
    auto claim = std::get<api::NodeClaim>(*cluster.Get({"NodeClaim", "", replacement}));
    claim.metadata.labels[std::string(api::kLabelInstanceTypeStable)] = "m5.large";
    claim.metadata.labels[std::string(api::kLabelTopologyZone)] = "us-east-1a";
    claim = std::get<api::NodeClaim>(*cluster.Update(claim));
    claim.status.provider_id = "aws:///us-east-1a/i-replacement";
    EXPECT_TRUE(cluster.UpdateStatus(claim).ok());
    return replacement;
  }
};

TEST(DeletionMarks, TrackReplacementsUntilTheReaderShowsThemAndForgetGoneNodes) {
  fakes::FakeClock clock;
  fakes::FakeKubeCluster cluster{clock};
  ASSERT_TRUE(fakes::CreateWithStatus(cluster, NodeYaml({.name = "a"})).ok());
  DeletionMarks marks;
  marks.Mark({"aws:///us-east-1a/i-a", "aws:///us-east-1a/i-gone"}, {"claim-a", "unseen"});
  EXPECT_FALSE(marks.ReplacementsObserved(cluster));  // "unseen" is in no view yet
  marks.Observed("unseen");                           // a watch event named it
  EXPECT_TRUE(marks.ReplacementsObserved(cluster));
  marks.Prune(cluster);
  EXPECT_EQ(marks.provider_ids(), std::set<std::string>{"aws:///us-east-1a/i-a"});
  marks.Unmark({"aws:///us-east-1a/i-a"});
  EXPECT_TRUE(marks.provider_ids().empty());
}

// Upstream marks a command's candidates only once their replacements exist, and a command
// rolled back gives its candidates their capacity back.
TEST(DeletionMarks, AStartedCommandMarksItsCandidatesAndARollbackUnmarksThem) {
  Fixture f;
  const std::string replacement = f.ReplaceBig("100m");
  ASSERT_FALSE(replacement.empty());
  EXPECT_EQ(f.marks.provider_ids(), std::set<std::string>{kBigProviderId});
  f.clock.Advance(1'000);  // the queue sees the replacement once
  ASSERT_TRUE(f.cluster.Delete({"NodeClaim", "", replacement}).ok());
  f.clock.Advance(1'000);
  EXPECT_EQ(f.disruption.commands_rolled_back(), 1u);
  EXPECT_TRUE(f.marks.provider_ids().empty());
}

// While a consolidation's replacement launches, its room belongs to the candidate's pods: a pod
// arriving meanwhile gets capacity of its own instead of being nominated onto the replacement
// (which would leave the candidate's pod without a home once it is evicted).
TEST(DeletionMarks, AMarkedNodesPodsGoToItsReplacementAheadOfNewPods) {
  Fixture f;
  const std::string replacement = f.ReplaceBig("1800m");
  ASSERT_FALSE(replacement.empty());
  ASSERT_TRUE(fakes::CreateUnschedulablePod(f.cluster, "q", "500m", "512Mi").ok());

  absl::StatusOr<ProvisionOutcome> outcome = f.provisioner.Provision();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  ASSERT_TRUE(outcome->synced);
  EXPECT_EQ(outcome->created.size(), 1u) << "pod q should not take the replacement's room";
  EXPECT_EQ(f.events.Count("Nominated"), 2u);  // p onto the replacement, q onto its own claim

  // Unmarked (the cluster as the provisioner saw it before), q would fit on the empty
  // replacement and nothing would be launched for it.
  Fixture unmarked;
  unmarked.ReplaceBig("1800m");
  unmarked.marks.Unmark({kBigProviderId});
  ASSERT_TRUE(fakes::CreateUnschedulablePod(unmarked.cluster, "q", "500m", "512Mi").ok());
  outcome = unmarked.provisioner.Provision();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_TRUE(outcome->created.empty());
}

TEST(DeletionMarks, AReplacementTheReaderHasNotShownHoldsTheSolve) {
  Fixture f;
  ASSERT_TRUE(fakes::CreateUnschedulablePod(f.cluster, "q", "500m", "512Mi").ok());
  f.marks.Mark({kBigProviderId}, {"replacement-not-in-view"});
  absl::StatusOr<ProvisionOutcome> outcome = f.provisioner.Provision();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_FALSE(outcome->synced);
  EXPECT_TRUE(f.ClaimNames().empty());
  f.marks.Observed("replacement-not-in-view");
  outcome = f.provisioner.Provision();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_TRUE(outcome->synced);
  EXPECT_EQ(outcome->created.size(), 1u);
}

// Upstream's provisioner.trigger.node: a node being drained has pods that will need a home, and
// capacity is planned for them before they are evicted, not after they turn up pending.
TEST(DeletionMarks, ANodeBeingDrainedTriggersProvisioningForItsPods) {
  Fixture f;
  f.Apply({NodeYaml({.name = "big"}), PodYaml({.name = "p", .node = "big", .cpu = "3"})});
  f.provisioner.Start();
  auto claim = std::get<api::NodeClaim>(*f.cluster.Get({"NodeClaim", "", "claim-big"}));
  claim.metadata.finalizers.push_back("karpenter.sh/termination");
  ASSERT_TRUE(f.cluster.Update(claim).ok());
  ASSERT_TRUE(f.cluster.Delete({"NodeClaim", "", "claim-big"}).ok());
  f.clock.Advance(30'000);
  // Deleting but not yet tainted: nothing asks the provisioner, as upstream.
  ASSERT_EQ(f.ClaimNames(), std::vector<std::string>{"claim-big"});

  // The termination controller taints the node: one idle second later a claim exists for p.
  ASSERT_TRUE(f.cluster
                  .MergePatch({"Node", "", "big"},
                              R"({"spec":{"taints":[{"key":"karpenter.sh/disrupted",)"
                              R"("effect":"NoSchedule"}]}})")
                  .ok());
  f.clock.Advance(1'000);
  EXPECT_EQ(f.ClaimNames().size(), 2u);
}

}  // namespace
}  // namespace karpenter::controllers
