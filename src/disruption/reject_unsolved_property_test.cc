// ComputeConsolidation rejects some spot moves without solving them, and stops the solve of others
// at the first moved pod that needs new capacity (ConsolidationOptions::reject_unsolved).
// RapidCheck properties on random clusters of spot and on-demand nodes (see ArbitraryCluster):
// every decision is the one the full simulation makes, a pod the Simulator says has no room on
// another initialized node does not land on one, and the pod a stopped simulation names ends on a
// new NodeClaim, an uninitialized node or nowhere in the full one. Fixed seed.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "rapidcheck.h"
#include "src/disruption/candidates.h"
#include "src/disruption/consolidation.h"
#include "src/disruption/disruption_test_util.h"
#include "src/disruption/simulation.h"
#include "test/property_check.h"

namespace karpenter::disruption {
namespace {

using namespace ::karpenter::disruption::testing;  // NOLINT: test fixtures

constexpr property_test::PropertyOptions kProperty = {0x72656a6563742121, 100, 100};

api::Time Now() { return *api::Time::ParseRfc3339("2026-12-02T00:00:00Z"); }

// A pod of `cpu`, on `node` (pending when empty), maybe pinned to a capacity type and maybe
// tolerating the `dedicated` taint.
std::string PodDoc(const std::string& name, const std::string& node, int milli,
                   const std::string& capacity_type, bool tolerates) {
  std::string spec = "  containers:\n  - {name: app, image: pause, resources: {requests: {cpu: " +
                     std::to_string(milli) + "m, memory: 128Mi}}}\n";
  if (!capacity_type.empty()) {
    spec += "  nodeSelector: {karpenter.sh/capacity-type: " + capacity_type + "}\n";
  }
  if (tolerates) spec += "  tolerations: [{key: dedicated, operator: Exists}]\n";
  if (!node.empty()) spec += "  nodeName: " + node + "\n";
  return "apiVersion: v1\nkind: Pod\nmetadata: {name: " + name + ", namespace: default}\nspec:\n" +
         spec +
         (node.empty() ? "status: {phase: Pending}\n"
                       : "status: {phase: Running, startTime: '2026-12-01T00:00:00Z'}\n");
}

// 2–6 nodes of random m5 sizes in a spot-and-on-demand pool and maybe an on-demand one, mostly
// spot; some uninitialized, tainted dedicated:NoSchedule, or with a recent pod event (inside the
// spot pool's consolidateAfter when it has one); 0–5 pods each and 0–3 pending pods of 50m–3.5
// cpu, a few pinned to a capacity type or tolerating the taint.
std::string ArbitraryCluster() {
  std::vector<std::string> docs = {kNodeClass};
  // Without the on-demand pool, no cheap on-demand replacement keeps the shortcut off.
  const bool on_demand_pool = *rc::gen::arbitrary<bool>();
  if (on_demand_pool) docs.push_back(NodePoolYaml("a", "{consolidateAfter: 0s}", "on-demand"));
  // With consolidateAfter 1h, the nodes with a pod event in the last hour take no moved pods.
  const bool waits = *rc::gen::arbitrary<bool>();
  docs.push_back(NodePoolYaml("b", waits ? "{consolidateAfter: 1h}" : "{consolidateAfter: 0s}",
                              "spot, on-demand"));
  const std::vector<std::pair<std::string, std::string>> sizes = {
      {"m5.large", "1930m"}, {"m5.xlarge", "3920m"}, {"m5.2xlarge", "7910m"}};
  const auto pod_shape = [] {
    const int kind = *rc::gen::inRange(0, 10);
    return std::pair(kind == 0 ? std::string("on-demand") : kind == 1 ? "spot" : "", kind == 2);
  };
  const int nodes = *rc::gen::inRange(2, 7);
  for (int i = 0; i < nodes; ++i) {
    const auto& [type, cpu] = sizes[*rc::gen::inRange<size_t>(0, sizes.size())];
    const std::string name = "n" + std::to_string(i);
    const bool spot = !on_demand_pool || *rc::gen::inRange(0, 4) != 0;
    std::string node = NodeYaml({.name = name,
                                 .pool = spot ? "b" : "a",
                                 .instance_type = type,
                                 .capacity_type = spot ? "spot" : "on-demand",
                                 .cpu = cpu,
                                 .initialized = *rc::gen::inRange(0, 5) != 0});
    if (*rc::gen::inRange(0, 2) == 0) {
      node = absl::StrReplaceAll(
          node, {{"  nodeName: " + name + "\n",
                  "  nodeName: " + name + "\n  lastPodEventTime: '2026-12-01T23:50:00Z'\n"}});
    }
    if (*rc::gen::inRange(0, 4) == 0) {
      node = absl::StrReplaceAll(
          node, {{"spec: {providerID:",
                  "spec: {taints: [{key: dedicated, value: x, effect: NoSchedule}], providerID:"}});
    }
    docs.push_back(node);
    const int pods = *rc::gen::inRange(0, 6);
    for (int j = 0; j < pods; ++j) {
      const auto [capacity_type, tolerates] = pod_shape();
      docs.push_back(PodDoc(name + "-p" + std::to_string(j), name, *rc::gen::inRange(50, 1800),
                            capacity_type, tolerates));
    }
  }
  const int pending = *rc::gen::inRange(0, 4);
  for (int j = 0; j < pending; ++j) {
    const auto [capacity_type, tolerates] = pod_shape();
    docs.push_back(PodDoc("pending-" + std::to_string(j), "", *rc::gen::inRange(50, 3500),
                          capacity_type, tolerates));
  }
  return Join(docs);
}

struct Cluster {
  state::ClusterSnapshot snapshot;
  provisioning::SnapshotSchedulerInput input;
  CandidateSet candidates;
};

std::unique_ptr<Cluster> ClusterFrom(const std::string& yaml) {
  absl::StatusOr<state::ClusterSnapshot> snapshot = state::testing_util::SnapshotFromYaml(yaml);
  RC_ASSERT(snapshot.ok());
  auto cluster = std::make_unique<Cluster>(Cluster{*std::move(snapshot), {}, {}});
  provisioning::CatalogCache catalogs;
  absl::StatusOr<provisioning::SnapshotSchedulerInput> input =
      provisioning::BuildSchedulerInput(cluster->snapshot, {.now = Now()}, catalogs);
  RC_ASSERT(input.ok());
  cluster->input = *std::move(input);
  cluster->candidates =
      BuildCandidates(cluster->snapshot, IndexInstanceTypes(cluster->input.input), Now());
  return cluster;
}

// What a decision amounts to: no command, or its candidates, replacement types and savings.
std::string Summary(const ConsolidationDecision& decision) {
  if (!decision.command) return "none";
  std::string out = absl::StrJoin(decision.command->candidates, ",") + " ->";
  for (const provisioning::PlannedNodeClaim& planned : decision.command->replacements) {
    out += " [" + absl::StrJoin(planned.claim.instance_types, ",") + " " +
           planned.launch.instance_type + "]";
  }
  return out + " " + std::to_string(decision.command->savings_per_hour);
}

TEST(RejectUnsolvedProperty, DecidesAsTheFullSimulationDoes) {
  int rejected_unsolved = 0;
  int without_room = 0;
  int stopped = 0;
  property_test::CheckProperty(kProperty, "reject unsolved", [&] {
    std::unique_ptr<Cluster> cluster = ClusterFrom(ArbitraryCluster());
    const Simulator simulator(cluster->snapshot, cluster->input);
    std::vector<std::vector<const Candidate*>> moves;
    const std::vector<Candidate>& all = cluster->candidates.candidates;
    for (size_t i = 0; i < all.size(); ++i) {
      moves.push_back({&all[i]});
      if (i + 1 < all.size()) moves.push_back({&all[i], &all[i + 1]});
    }
    for (const std::vector<const Candidate*>& move : moves) {
      if (std::optional<std::string> pod = simulator.PodWithoutInitializedRoom(move, Now())) {
        ++without_room;
        const SimulationResult result =
            simulator.Simulate(move, {.consolidation = true, .now = Now()});
        RC_ASSERT(!result.AllCandidatePodsScheduled() || !result.new_node_claims.empty());
        const auto destination = result.destinations.find(*pod);
        for (const provisioning::ExistingNodeView& node : cluster->input.input.existing_nodes) {
          if (destination != result.destinations.end() && node.name == destination->second) {
            RC_ASSERT(!node.initialized);
          }
        }
      }
      const SimulationResult stopping = simulator.Simulate(
          move, {.consolidation = true, .now = Now(), .stop_at_moved_pod_off_initialized = true});
      if (!stopping.stopped_at.empty()) {
        ++stopped;
        RC_ASSERT(stopping.failures.empty() && stopping.new_node_claims.empty());
        const SimulationResult result =
            simulator.Simulate(move, {.consolidation = true, .now = Now()});
        const auto destination = result.destinations.find(stopping.stopped_at);
        bool off_initialized = destination == result.destinations.end() ||
                               destination->second.starts_with("new nodeclaim");
        for (const provisioning::ExistingNodeView& node : cluster->input.input.existing_nodes) {
          if (destination != result.destinations.end() && node.name == destination->second) {
            off_initialized = !node.initialized;
          }
        }
        RC_ASSERT(off_initialized);
      }
      const ConsolidationDecision early =
          ComputeConsolidation(simulator, move, {.spot_to_spot = false, .now = Now()});
      const ConsolidationDecision full = ComputeConsolidation(
          simulator, move, {.spot_to_spot = false, .now = Now(), .reject_unsolved = false});
      RC_ASSERT(Summary(early) == Summary(full));
      if (early.rejection != full.rejection) ++rejected_unsolved;
    }
  });
  // The generator must reach the moves the shortcuts settle, or the properties hold vacuously.
  EXPECT_GE(rejected_unsolved, kProperty.runs / 4);
  EXPECT_GE(without_room + stopped, rejected_unsolved);
  EXPECT_GE(stopped, kProperty.runs / 4);
}

}  // namespace
}  // namespace karpenter::disruption
