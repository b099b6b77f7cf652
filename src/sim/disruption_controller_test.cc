#include "src/sim/disruption_controller.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "src/sim/karpenter_host.h"
#include "src/sim/sim_test_util.h"

namespace karpenter::sim {
namespace {

using testing::BoundPods;
using testing::MakeDeployment;
using testing::World;

api::NodePool Pool(std::vector<std::string> types, std::optional<std::string> budget) {
  api::NodePool pool = testing::MakeNodePool(std::move(types), {"on-demand"});
  api::Disruption disruption;
  disruption.consolidation_policy = "WhenEmptyOrUnderutilized";
  disruption.consolidate_after = api::NillableDuration::Of(api::Duration::FromSeconds(60));
  if (budget) disruption.budgets = std::vector<api::Budget>{{.nodes = *budget}};
  pool.spec.disruption = disruption;
  return pool;
}

void ApplyPool(World& world, const api::NodePool& pool) {
  ASSERT_TRUE(world.cluster.Apply(testing::MakeNodeClass(), true).ok());
  ASSERT_TRUE(world.cluster.Apply(pool, true).ok());
}

std::vector<std::string> Events(const EventLog& log, const std::string& event) {
  return testing::EventLines(log, event);
}

// The "t" of an event line, in seconds.
double TimeOf(const std::string& line) { return std::stod(line.substr(line.find("\"t\":") + 4)); }

std::vector<const Instance*> LiveInstances(const Cluster& cluster) {
  std::vector<const Instance*> out;
  for (const auto& [id, instance] : cluster.instances()) {
    if (instance.phase != NodePhase::kTerminated) out.push_back(&instance);
  }
  return out;
}

// Three 1-CPU pods on one node until 200 s, then one: the node is underutilized from then on.
void FillANodeThenScaleToOnePod(World& world) {
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("web", 3, "1", "1Gi"), false).ok());
  world.queue.RunUntil(200000);
  ASSERT_TRUE(world.cluster.ScaleDeployment("default/web", 1).ok());
}

// Three 1-CPU pods fill a c6i.xlarge; scaled to one at 200 s, the node is underutilized and a
// c6i.large holds the pod for half the price, once consolidateAfter (60 s) has passed since the
// last pod left.
TEST(DisruptionController, ReplacesAnUnderutilizedNodeWithACheaperOneAfterConsolidateAfter) {
  World world;
  ApplyPool(world, Pool({"c6i.xlarge", "c6i.large"}, std::nullopt));
  KarpenterHost host(world.cluster);
  host.Start();
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("web", 3, "1", "1Gi"), false).ok());
  world.queue.RunUntil(200000);
  ASSERT_EQ(LiveInstances(world.cluster).size(), 1u);
  ASSERT_EQ(LiveInstances(world.cluster)[0]->request.instance_type, "c6i.xlarge");
  const double xlarge_price = world.cluster.price_per_hour();
  EXPECT_TRUE(Events(world.log, "DisruptionCommandComputed").empty());
  ASSERT_TRUE(world.cluster.ScaleDeployment("default/web", 1).ok());
  world.queue.RunUntil(600000);

  const std::vector<std::string> computed = Events(world.log, "DisruptionCommandComputed");
  ASSERT_FALSE(computed.empty());
  EXPECT_GE(TimeOf(computed[0]), 260);  // the last pod left at 200 s
  EXPECT_LE(TimeOf(computed[0]), 270);  // the next 10 s poll
  EXPECT_NE(computed[0].find("SingleNodeConsolidation"), std::string::npos) << computed[0];
  const std::vector<std::string> tainted = Events(world.log, "DisruptionNodeTainted");
  ASSERT_EQ(tainted.size(), 1u);
  EXPECT_EQ(TimeOf(tainted[0]), TimeOf(computed[0]) + 15);  // after re-validation
  ASSERT_EQ(Events(world.log, "DisruptionNodeDeleted").size(), 1u);
  EXPECT_EQ(Events(world.log, "DisruptionCommandFinished").size(), 1u);

  const std::vector<const Instance*> live = LiveInstances(world.cluster);
  ASSERT_EQ(live.size(), 1u);
  EXPECT_EQ(live[0]->request.instance_type, "c6i.large");
  EXPECT_LT(world.cluster.price_per_hour(), xlarge_price);
  EXPECT_EQ(world.cluster.counters().evictions, 1);
  // One launch for the command's replacement and none for the candidate's pod while it drains:
  // the provisioner counts the replacement in flight instead of adding capacity of its own.
  EXPECT_EQ(world.cluster.instances().size(), 2u);
  EXPECT_EQ(world.cluster.counters().max_instances, 2u);
  EXPECT_EQ(BoundPods(world.cluster), 1u);
  EXPECT_TRUE(world.cluster.UnschedulablePods().empty());
  EXPECT_EQ(host.disruption_controller().commands_finished(), 1u);
  EXPECT_FALSE(host.disruption_controller().busy());
  // Counted as upstream's queue counts a candidate it deletes.
  const MetricLabels labels =
      testing::DefaultPoolDisruptedLabels("underutilized", "when_empty_or_underutilized");
  EXPECT_EQ(host.metrics().Value("karpenter_nodeclaims_disrupted_total", labels), 1);
  EXPECT_EQ(host.metrics().Value("karpenter_pods_disruption_initiated_total", labels), 1);
  // The candidate's Node terminated as the termination controller counts it: drained, and the
  // time from its deletion (the command's taint, 15 s after the decision) to the instance gone.
  EXPECT_EQ(host.metrics().Value("karpenter_nodes_drained_total", {{"nodepool", "default"}}), 1);
  EXPECT_EQ(host.metrics().Value("karpenter_nodes_termination_duration_seconds",
                                 {{"nodepool", "default"}}),
            1);
  EXPECT_EQ(
      host.metrics().Value("karpenter_nodes_lifetime_duration_seconds", {{"nodepool", "default"}}),
      1);
  // The gauges of the methods' last evaluation, as the production controller sets them.
  const std::string text = host.metrics().PrometheusText();
  EXPECT_NE(text.find(R"(karpenter_voluntary_disruption_eligible_nodes{reason="underutilized"})"),
            std::string::npos)
      << text;
  EXPECT_NE(
      text.find(
          R"(karpenter_nodepools_allowed_disruptions{nodepool="default",reason="Underutilized"})"),
      std::string::npos)
      << text;
}

// Once a command's replacement exists its candidate is marked for deletion (upstream's
// MarkForDeletion): a pod that arrives meanwhile is planned beside the candidate's pod, which
// needs the replacement's room, so it gets capacity of its own at once instead of taking that
// room and leaving the candidate's pod to wait for a launch after its eviction.
TEST(DisruptionController, APodArrivingWhileACommandWaitsLeavesItsReplacementsRoom) {
  World world;
  ApplyPool(world, Pool({"c6i.xlarge", "c6i.large"}, std::nullopt));
  KarpenterHost host(world.cluster);
  host.Start();
  FillANodeThenScaleToOnePod(world);
  world.queue.RunUntil(280000);
  const std::vector<std::string> started = Events(world.log, "DisruptionCommandStarted");
  ASSERT_EQ(started.size(), 1u);
  ASSERT_NE(started[0].find("c6i.large"), std::string::npos) << started[0];
  ASSERT_TRUE(Events(world.log, "DisruptionNodeDeleted").empty());
  // 1.5 CPU: it fits the c6i.large on its way, but not beside the candidate's 1-CPU pod.
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("extra", 1, "1500m", "1Gi"), false).ok());
  world.queue.RunUntil(600000);
  const std::vector<std::string> deleted = Events(world.log, "DisruptionNodeDeleted");
  ASSERT_EQ(deleted.size(), 1u);
  size_t created_before_the_deletion = 0;
  for (const std::string& line : Events(world.log, "NodeClaimCreated")) {
    if (TimeOf(line) < TimeOf(deleted[0])) ++created_before_the_deletion;
  }
  // The first node, the replacement, and the new pod's own.
  EXPECT_EQ(created_before_the_deletion, 3u);
  EXPECT_EQ(BoundPods(world.cluster), 2u);
  EXPECT_TRUE(world.cluster.UnschedulablePods().empty());
}

// Upstream's controller keeps polling while commands wait in its orchestration queue: their
// candidates are tainted and marked, so they count against the budget and are no candidates
// again, and other nodes may go meanwhile. Two pools, each with one underutilized node: the
// second command starts while the first still waits for its replacement.
TEST(DisruptionController, KeepsPollingWhileACommandWaitsForItsReplacement) {
  World world;
  ASSERT_TRUE(world.cluster.Apply(testing::MakeNodeClass(), true).ok());
  for (const std::string name : {"a", "b"}) {
    api::NodePool pool = Pool({"c6i.xlarge", "c6i.large"}, std::nullopt);
    pool.metadata.name = name;
    ASSERT_TRUE(world.cluster.Apply(pool, true).ok());
  }
  KarpenterHost host(world.cluster);
  host.Start();
  for (const std::string name : {"a", "b"}) {
    api::Deployment web = MakeDeployment("web-" + name, 3, "1", "1Gi");
    web.spec.template_.spec.node_selector = {{"karpenter.sh/nodepool", name}};
    ASSERT_TRUE(world.cluster.Apply(web, false).ok());
  }
  world.queue.RunUntil(200000);
  ASSERT_EQ(LiveInstances(world.cluster).size(), 2u);
  ASSERT_TRUE(world.cluster.ScaleDeployment("default/web-a", 1).ok());
  ASSERT_TRUE(world.cluster.ScaleDeployment("default/web-b", 1).ok());
  world.queue.RunUntil(600000);
  const std::vector<std::string> started = Events(world.log, "DisruptionCommandStarted");
  const std::vector<std::string> finished = Events(world.log, "DisruptionCommandFinished");
  ASSERT_EQ(started.size(), 2u);
  ASSERT_EQ(finished.size(), 2u);
  EXPECT_LT(TimeOf(started[1]), TimeOf(finished[0]));
  EXPECT_EQ(host.disruption_controller().commands_finished(), 2u);
  const std::vector<const Instance*> live = LiveInstances(world.cluster);
  ASSERT_EQ(live.size(), 2u);
  for (const Instance* instance : live) EXPECT_EQ(instance->request.instance_type, "c6i.large");
}

// What a run with background polls counted (DisruptionController's counters).
struct BackgroundCounts {
  uint64_t polls = 0;
  uint64_t run_ahead = 0;
  uint64_t after_same_state = 0;
};

// One world with churn, an underutilized node and empty nodes: scale-ups, a scale-down that
// leaves a node underutilized, Deployments deleted. Returns the run's event log; with
// `background`, polls go to the background and their counts there.
std::vector<std::string> ChurnRun(bool skip_idle_polls, uint64_t* skipped,
                                  uint64_t* snapshots_carried_over = nullptr,
                                  BackgroundCounts* background = nullptr) {
  World world;
  world.cluster.set_verify_snapshots(snapshots_carried_over != nullptr);
  ApplyPool(world, Pool({"c6i.xlarge", "c6i.large", "c6i.2xlarge"}, "1"));
  KarpenterHost host(world.cluster);
  host.disruption_controller().set_skip_idle_polls(skip_idle_polls);
  host.disruption_controller().set_background(background != nullptr);
  host.Start();
  EXPECT_TRUE(world.cluster.Apply(MakeDeployment("web", 5, "1", "1Gi"), false).ok());
  EXPECT_TRUE(world.cluster.Apply(MakeDeployment("batch", 3, "3", "2Gi"), false).ok());
  world.queue.RunUntil(150000);
  EXPECT_TRUE(world.cluster.ScaleDeployment("default/web", 1).ok());
  world.queue.RunUntil(400000);
  EXPECT_TRUE(world.cluster.DeleteDeployment("default/batch").ok());
  EXPECT_TRUE(world.cluster.Apply(MakeDeployment("late", 2, "2", "1Gi"), false).ok());
  world.queue.RunUntil(1500000);
  host.disruption_controller().Settle();
  if (background != nullptr) {
    background->polls = host.disruption_controller().polls_in_background();
    background->run_ahead = host.disruption_controller().polls_run_ahead();
    background->after_same_state = host.disruption_controller().polls_after_same_state();
  }
  if (skipped != nullptr) *skipped = host.disruption_controller().polls_skipped();
  if (snapshots_carried_over != nullptr) {
    *snapshots_carried_over = world.cluster.snapshots_carried_over();
  }
  EXPECT_GT(host.disruption_controller().commands_finished(), 1u);
  return world.log.lines();
}

// Consolidation computed on worker threads while the clock moves on, later polls running ahead
// of earlier ones, decides and logs exactly what the polls computed in turn do.
TEST(DisruptionController, BackgroundPollsChangeNoDecisionNorEvent) {
  BackgroundCounts counts;
  uint64_t skipped_in_background = 0;
  uint64_t skipped_in_turn = 0;
  const std::vector<std::string> background =
      ChurnRun(true, &skipped_in_background, nullptr, &counts);
  const std::vector<std::string> in_turn = ChurnRun(true, &skipped_in_turn);
  EXPECT_GT(counts.polls, 10u);
  EXPECT_GT(counts.run_ahead, 0u);
  EXPECT_GT(counts.after_same_state, 0u);
  // Polls that came while the ones before them decided count their skips as in turn.
  EXPECT_GT(skipped_in_turn, 10u);
  EXPECT_EQ(skipped_in_background, skipped_in_turn);
  EXPECT_GT(std::count_if(in_turn.begin(), in_turn.end(),
                          [](const std::string& line) {
                            return line.find("SingleNodeConsolidation") != std::string::npos;
                          }),
            0);
  EXPECT_EQ(background, in_turn);
}

// Without the idle-poll skip every poll after one still deciding at the same consolidation state
// runs its pass and learns that one's marks on the worker: the same decisions again.
TEST(DisruptionController, PollsThatLearnEarlierMarksOnTheWorkerDecideAsInTurn) {
  BackgroundCounts counts;
  const std::vector<std::string> background = ChurnRun(false, nullptr, nullptr, &counts);
  EXPECT_GT(counts.after_same_state, 0u);
  EXPECT_EQ(background, ChurnRun(false, nullptr));
}

// The poll at 260 s finds the underutilized c6i.xlarge's only cheaper replacement unavailable
// and marks single-node consolidation done for the consolidation state. The offering returns at
// 265 s without moving that state, so the poll at 270 s still skips the method; the command
// waits for the state's 5-minute refresh. A poll that ran ahead of the one at 260 s, without its
// mark, would find the command at 270 s.
std::vector<std::string> OfferingReturnsRun(bool background) {
  World world;
  ApplyPool(world, Pool({"c6i.xlarge", "c6i.large"}, std::nullopt));
  KarpenterHost host(world.cluster);
  host.disruption_controller().set_background(background);
  host.Start();
  const SimMillis returns_at = 265000;
  world.queue.At(returns_at - SecondsToMillis(world.latency.unavailable_offering_ttl.min_seconds),
                 [&] {
                   for (const char* zone : {"us-east-1a", "us-east-1b", "us-east-1c"}) {
                     host.MarkOfferingUnavailable("c6i.large", zone, "on-demand");
                   }
                 });
  FillANodeThenScaleToOnePod(world);
  world.queue.RunUntil(900000);
  host.disruption_controller().Settle();
  return world.log.lines();
}

TEST(DisruptionController, APollWaitsForTheOneBeforeItWhileTheConsolidationStateStands) {
  const std::vector<std::string> in_turn = OfferingReturnsRun(false);
  std::vector<std::string> computed;
  for (const std::string& line : in_turn) {
    if (line.find("DisruptionCommandComputed") != std::string::npos) computed.push_back(line);
  }
  ASSERT_FALSE(computed.empty());
  EXPECT_GE(TimeOf(computed[0]), 500);  // not at 270 s
  EXPECT_EQ(OfferingReturnsRun(true), in_turn);
}

TEST(DisruptionController, SkippingIdlePollsChangesNoDecision) {
  uint64_t skipped = 0;
  const std::vector<std::string> with_skips = ChurnRun(true, &skipped);
  const std::vector<std::string> without = ChurnRun(false, nullptr);
  EXPECT_GT(skipped, 10u);  // the optimisation is exercised
  ASSERT_EQ(with_skips.size(), without.size());
  for (size_t i = 0; i < without.size(); ++i) ASSERT_EQ(with_skips[i], without[i]) << i;
}

// A consolidation that a budget of zero holds back is found again on every poll: while nothing
// changes the polls are skipped, and a change (here the budget's NodePool) makes one compute.
TEST(DisruptionController, PollsHeldBackByABudgetAreSkippedWhileNothingChanges) {
  World world;
  ApplyPool(world, Pool({"c6i.xlarge", "c6i.large"}, "0"));
  KarpenterHost host(world.cluster);
  host.Start();
  FillANodeThenScaleToOnePod(world);
  world.queue.RunUntil(1200000);
  EXPECT_TRUE(Events(world.log, "DisruptionCommandComputed").empty());
  // 100 polls in the 1,000 s after the scale-down; all but the few after a change are skipped.
  EXPECT_GT(host.disruption_controller().polls_skipped(), 80u);

  ApplyPool(world, Pool({"c6i.xlarge", "c6i.large"}, "1"));
  world.queue.RunUntil(1300000);
  const std::vector<std::string> computed = Events(world.log, "DisruptionCommandComputed");
  ASSERT_EQ(computed.size(), 1u);
  EXPECT_NE(computed[0].find("SingleNodeConsolidation"), std::string::npos) << computed[0];
}

// The cluster carries each shared snapshot's pods over to the next, copying only the pods that
// changed: through binds, evictions, drains, node deletions and scale-downs every carried-over
// snapshot equals one built from scratch.
TEST(DisruptionController, CarriedOverSnapshotsEqualSnapshotsBuiltFromScratch) {
  uint64_t carried_over = 0;
  const std::vector<std::string> lines = ChurnRun(true, nullptr, &carried_over);
  EXPECT_GT(carried_over, 10u);
  for (const std::string& line : lines) {
    EXPECT_EQ(line.find("SnapshotMismatch"), std::string::npos) << line;
  }
}

// Three 3-CPU pods on three c6i.xlarge; two Deployments go at 200 s, leaving two empty nodes.
// The remaining pod is do-not-disrupt: otherwise its node, consolidatable since its pod bound,
// would be single-node consolidated onto an empty node at the first poll after 200 s, before
// the empty nodes' own consolidateAfter (counted from their pods' deletion) has passed.
// Returns the candidates of each started command.
std::vector<std::string> EmptinessCommands(std::optional<std::string> budget, World& world) {
  ApplyPool(world, Pool({"c6i.xlarge"}, std::move(budget)));
  KarpenterHost host(world.cluster);
  host.Start();
  for (const char* name : {"x", "y", "z"}) {
    api::Deployment deployment = MakeDeployment(name, 1, "3", "1Gi");
    if (std::string(name) == "x") {
      deployment.spec.template_.metadata.annotations["karpenter.sh/do-not-disrupt"] = "true";
    }
    EXPECT_TRUE(world.cluster.Apply(deployment, false).ok());
  }
  world.queue.RunUntil(200000);
  EXPECT_EQ(LiveInstances(world.cluster).size(), 3u);
  EXPECT_TRUE(world.cluster.DeleteDeployment("default/y").ok());
  EXPECT_TRUE(world.cluster.DeleteDeployment("default/z").ok());
  world.queue.RunUntil(900000);
  EXPECT_EQ(LiveInstances(world.cluster).size(), 1u);
  EXPECT_EQ(BoundPods(world.cluster), 1u);
  EXPECT_EQ(world.cluster.counters().evictions, 0);
  std::vector<std::string> candidates;
  for (const std::string& line : Events(world.log, "DisruptionCommandStarted")) {
    EXPECT_NE(line.find("\"Emptiness\""), std::string::npos) << line;
    const size_t start = line.find("\"candidates\":\"") + 14;
    candidates.push_back(line.substr(start, line.find('"', start) - start));
  }
  return candidates;
}

TEST(DisruptionController, EmptyNodesAreDeletedWithinTheBudget) {
  World one_at_a_time;
  const std::vector<std::string> budgeted = EmptinessCommands("1", one_at_a_time);
  ASSERT_EQ(budgeted.size(), 2u);
  for (const std::string& candidates : budgeted) {
    EXPECT_EQ(candidates.find(','), std::string::npos) << candidates;
  }
  World all_at_once;
  const std::vector<std::string> unbudgeted = EmptinessCommands("100%", all_at_once);
  ASSERT_EQ(unbudgeted.size(), 1u);
  EXPECT_NE(unbudgeted[0].find(','), std::string::npos) << unbudgeted[0];
}

// The cheaper type is out of capacity when the replacement launches: its NodeClaim fails, the
// command rolls back and the candidate is untainted and keeps its pod.
TEST(DisruptionController, AFailedReplacementRollsTheCommandBack) {
  CapacityFault fault;
  fault.instance_type = "c6i.large";
  fault.capacity_type = "on-demand";
  fault.from_seconds = 250;
  fault.to_seconds = 100000;
  World world({fault});
  ApplyPool(world, Pool({"c6i.xlarge", "c6i.large"}, std::nullopt));
  KarpenterHost host(world.cluster);
  host.Start();
  FillANodeThenScaleToOnePod(world);
  // Marked through the cluster seam as upstream's queue marks a candidate: the taint on its Node
  // and the DisruptionReason condition on its NodeClaim.
  for (SimMillis t = 200000; t < 400000 && Events(world.log, "DisruptionNodeTainted").empty();
       t += 1000) {
    world.queue.RunUntil(t);
  }
  ASSERT_EQ(LiveInstances(world.cluster).size(), 1u);
  const std::string claim = LiveInstances(world.cluster)[0]->request.node_claim;
  const auto disruption_reason = [&]() -> const api::Condition* {
    for (const api::Condition& condition : world.cluster.FindNodeClaim(claim)->status.conditions) {
      if (condition.type == api::kConditionTypeDisruptionReason) return &condition;
    }
    return nullptr;
  };
  ASSERT_NE(disruption_reason(), nullptr);
  EXPECT_EQ(disruption_reason()->status, "True");
  EXPECT_EQ(disruption_reason()->reason, "Underutilized");
  world.queue.RunUntil(400000);
  EXPECT_EQ(disruption_reason(), nullptr) << "unmarked with the rollback";
  EXPECT_FALSE(Events(world.log, "DisruptionRolledBack").empty());
  EXPECT_FALSE(Events(world.log, "DisruptionNodeUntainted").empty());
  EXPECT_TRUE(Events(world.log, "DisruptionNodeDeleted").empty());
  const std::vector<const Instance*> live = LiveInstances(world.cluster);
  ASSERT_EQ(live.size(), 1u);
  EXPECT_EQ(live[0]->request.instance_type, "c6i.xlarge");
  for (const api::Taint& taint : live[0]->node.spec.taints) {
    EXPECT_NE(taint.key, "karpenter.sh/disrupted");
  }
  EXPECT_EQ(world.cluster.counters().evictions, 0);
  EXPECT_EQ(BoundPods(world.cluster), 1u);
  // A command rolled back disrupted no candidate: upstream counts candidates as it deletes
  // them. Its replacement counts, deleted for insufficient capacity.
  const std::vector<std::string> lines = absl::StrSplit(host.metrics().PrometheusText(), '\n');
  for (const std::string& line : lines) {
    if (!line.starts_with("karpenter_nodeclaims_disrupted_total{")) continue;
    EXPECT_NE(line.find("reason=\"insufficient_capacity\""), std::string::npos) << line;
  }
}

// kube-scheduler keeps new pods off a node tainted karpenter.sh/disrupted, and places them once
// the taint is gone.
TEST(DisruptionController, TheDisruptedTaintKeepsKubeSchedulerAway) {
  World world;
  InstanceRequest request;
  request.instance_type = "c6i.xlarge";
  request.zone = "us-east-1a";
  request.capacity_type = "on-demand";
  const std::string id = world.cluster.LaunchInstance(request, /*initial=*/true);
  const std::string node = world.cluster.instances().at(id).node.metadata.name;
  ASSERT_TRUE(world.cluster.TaintNode(node, "karpenter.sh/disrupted"));
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("web", 1, "1", "1Gi"), false).ok());
  world.queue.RunUntil(10000);
  EXPECT_EQ(BoundPods(world.cluster), 0u);
  EXPECT_EQ(world.cluster.UnschedulablePods().size(), 1u);
  api::Node untainted = world.cluster.instances().at(id).node;
  std::erase_if(untainted.spec.taints,
                [](const api::Taint& taint) { return taint.key == "karpenter.sh/disrupted"; });
  ASSERT_TRUE(world.cluster.PutNode(untainted));
  world.queue.RunUntil(20000);
  EXPECT_EQ(BoundPods(world.cluster), 1u);
  EXPECT_FALSE(world.cluster.TaintNode("no-such-node", "karpenter.sh/disrupted"));
}

}  // namespace
}  // namespace karpenter::sim
