// RapidCheck properties of ComputeDisruption on random small clusters: no command takes more of a
// pool than its budget allows, evicts a pod protected by do-not-disrupt or a PDB, or replaces
// nodes with something that is not strictly cheaper (consolidation); every pod a command moves
// has a destination; and the result does not depend on anything but the snapshot. Fixed seed.
#include <map>
#include <set>
#include <sstream>

#include "gtest/gtest.h"
#include "rapidcheck.h"
#include "src/disruption/apply.h"
#include "src/disruption/disruption.h"
#include "src/disruption/disruption_test_util.h"
#include "src/disruption/report.h"
#include "src/provisioning/plan.h"
#include "src/state/pdb_limits.h"
#include "src/state/pod_predicates.h"
#include "test/property_check.h"

namespace karpenter::disruption {
namespace {

using namespace ::karpenter::disruption::testing;  // NOLINT: test fixtures

// RapidCheck scales gen::inRange by the run's size (up to max_size, out of 100): with a max_size
// of 20, 35 of 40 clusters had at most one pod.
constexpr property_test::PropertyOptions kProperty = {0x6469737275707421, 40, 100};

// Two pools (on-demand only / spot and on-demand) with random budgets, 2–6 nodes of random m5
// sizes, 0–4 pods per node, some protected by do-not-disrupt or behind a PDB allowing 0. With
// `mostly_movable`, budgets never hold a pool at 0 and few pods are protected, so more clusters
// get commands that move pods.
std::string ArbitraryCluster(bool mostly_movable = false) {
  std::vector<std::string> docs = {kNodeClass};
  const std::vector<std::string> budgets =
      mostly_movable ? std::vector<std::string>{"'2'", "'50%'", "'100%'"}
                     : std::vector<std::string>{"'0'", "'1'", "'2'", "'10%'", "'50%'", "'100%'"};
  for (const char* pool : {"a", "b"}) {
    const std::string budget = budgets[*rc::gen::inRange<size_t>(0, budgets.size())];
    docs.push_back(NodePoolYaml(pool, "{consolidateAfter: 0s, budgets: [{nodes: " + budget + "}]}",
                                pool[0] == 'a' ? "on-demand" : "spot, on-demand"));
  }
  const std::vector<std::pair<std::string, std::string>> sizes = {
      {"m5.large", "1930m"}, {"m5.xlarge", "3920m"}, {"m5.2xlarge", "7910m"}};
  const int nodes = *rc::gen::inRange(2, 7);
  for (int i = 0; i < nodes; ++i) {
    const auto& [type, cpu] = sizes[*rc::gen::inRange<size_t>(0, sizes.size())];
    const std::string name = "n" + std::to_string(i);
    const bool pool_b = *rc::gen::arbitrary<bool>();
    docs.push_back(
        NodeYaml({.name = name,
                  .pool = pool_b ? "b" : "a",
                  .instance_type = type,
                  .capacity_type = pool_b && *rc::gen::arbitrary<bool>() ? "spot" : "on-demand",
                  .cpu = cpu}));
    const int pods = *rc::gen::inRange(0, 5);
    int used = 0;
    for (int j = 0; j < pods; ++j) {
      const int milli = *rc::gen::inRange(50, 900);
      if (used + milli > 1900) break;
      used += milli;
      const int kind = *rc::gen::inRange(0, mostly_movable ? 24 : 8);
      docs.push_back(
          PodYaml({.name = name + "-p" + std::to_string(j),
                   .node = name,
                   .cpu = std::to_string(milli) + "m",
                   .labels = kind == 1 ? "{app: guarded}" : "{app: free}",
                   .annotations = kind == 0 ? "{karpenter.sh/do-not-disrupt: 'true'}" : "{}"}));
    }
  }
  docs.push_back(PdbYaml("guarded", "guarded", 0));
  return Join(docs);
}

// `after` (the cluster once the commands ran) with every pod the commands moved unbound and
// pending again, so the provisioner, not the simulation that chose the commands, places them.
state::ClusterSnapshot WithMovedPodsPending(const state::ClusterSnapshot& after,
                                            const std::vector<Command>& commands) {
  std::set<std::string> moved;
  for (const Command& command : commands) {
    for (const auto& [pod, node] : command.destinations) moved.insert(pod);
  }
  std::vector<state::SourcedObject> objects;
  for (const api::NodePool& pool : after.node_pools()) objects.push_back({pool, "after"});
  for (const api::EC2NodeClass& c : after.ec2_node_classes()) objects.push_back({c, "after"});
  for (const api::Node& node : after.nodes()) objects.push_back({node, "after"});
  for (const api::NodeClaim& claim : after.node_claims()) objects.push_back({claim, "after"});
  for (const api::PodDisruptionBudget& pdb : after.pod_disruption_budgets()) {
    objects.push_back({pdb, "after"});
  }
  for (const api::Pod& pod : after.pods()) {
    api::Pod copy = pod;
    if (moved.contains(pod.metadata.namespace_ + "/" + pod.metadata.name)) {
      copy.spec.node_name.clear();
      copy.status.phase = "Pending";
    }
    objects.push_back({std::move(copy), "after"});
  }
  state::SnapshotOptions options;
  options.expand_workloads = false;
  absl::StatusOr<state::ClusterSnapshot> snapshot =
      state::ClusterSnapshot::FromObjects(std::move(objects), options);
  RC_ASSERT(snapshot.ok());
  return *std::move(snapshot);
}

// Once the commands have run (candidates gone, replacements up), every pod they moved fits the
// nodes left and the replacements: placing them again launches nothing and leaves none pending.
TEST(ComputeDisruptionProperty, MovedPodsStillScheduleOnceTheCommandsRan) {
  const api::Time now = *api::Time::ParseRfc3339("2026-12-02T00:00:00Z");
  int moves_checked = 0;
  property_test::CheckProperty(kProperty, "moved pods reschedule", [&] {
    LoadedCluster cluster = LoadCluster({ArbitraryCluster(/*mostly_movable=*/true)}, now);
    const DisruptionResult result = ComputeDisruption(cluster.snapshot, cluster.input, now);
    absl::StatusOr<state::ClusterSnapshot> after =
        ApplyCommands(cluster.snapshot, result.commands, now);
    RC_ASSERT(after.ok());
    const state::ClusterSnapshot pending = WithMovedPodsPending(*after, result.commands);
    absl::StatusOr<provisioning::PlanResult> plan = provisioning::Plan(pending, {.now = now});
    RC_ASSERT(plan.ok());
    RC_ASSERT(plan->unschedulable.empty());
    RC_ASSERT(plan->node_claims.empty());
    for (const Command& command : result.commands) {
      moves_checked += command.destinations.empty() ? 0 : 1;
    }
  });
  EXPECT_GE(moves_checked, kProperty.runs / 4);  // commands that move pods, not only empty nodes
}

TEST(ComputeDisruptionProperty, CommandsRespectBudgetsProtectionAndPrices) {
  const api::Time now = *api::Time::ParseRfc3339("2026-12-02T00:00:00Z");
  int commands_seen = 0;
  int clusters_with_pods = 0;
  property_test::CheckProperty(kProperty, "disruption invariants", [&] {
    const std::string yaml = ArbitraryCluster();
    absl::StatusOr<state::ClusterSnapshot> snapshot = state::testing_util::SnapshotFromYaml(yaml);
    RC_ASSERT(snapshot.ok());
    if (snapshot->pods().size() > 1) ++clusters_with_pods;
    absl::StatusOr<DisruptionResult> result = ComputeDisruption(*snapshot, now);
    RC_ASSERT(result.ok());
    const state::PdbLimits pdbs(snapshot->pod_disruption_budgets());
    for (const Command& command : result->commands) {
      ++commands_seen;
      RC_ASSERT(command.method != Method::kExpiration);  // nothing is that old here
      const auto budgets = BuildBudgetMapping(*snapshot, now, command.reason);
      std::map<std::string, int> taken;
      for (const std::string& name : command.candidates) {
        const api::Node* node = snapshot->FindNode(name);
        RC_ASSERT(node != nullptr);
        const std::string pool = node->metadata.labels.at("karpenter.sh/nodepool");
        ++taken[pool];
        for (const api::Pod* pod : snapshot->PodsOnNode(name)) {
          RC_ASSERT(!state::IsDoNotDisruptActive(*pod, now));
          RC_ASSERT(
              pdbs.BlockingBudgets(*pod, now, state::PdbLimits::Blocker::kZeroDisruptions).empty());
          if (state::IsReschedulable(*pod)) {
            RC_ASSERT(
                command.destinations.contains(pod->metadata.namespace_ + "/" + pod->metadata.name));
          }
        }
      }
      for (const auto& [pool, count] : taken) RC_ASSERT(count <= budgets.at(pool).remaining);
      if (command.reason == Reason::kUnderutilized || command.reason == Reason::kEmpty) {
        RC_ASSERT(command.savings_per_hour > 0);
        RC_ASSERT(command.replacements.size() <= 1u);
      }
    }
    // Same snapshot, same decisions, byte for byte.
    absl::StatusOr<DisruptionResult> again = ComputeDisruption(*snapshot, now);
    RC_ASSERT(again.ok());
    RC_ASSERT(RenderDisruptionText(*result) == RenderDisruptionText(*again));
  });
  // The generator must reach the interesting cases, or the properties hold vacuously.
  EXPECT_GE(commands_seen, kProperty.runs / 3);
  EXPECT_GE(clusters_with_pods, kProperty.runs / 2);
}

}  // namespace
}  // namespace karpenter::disruption
