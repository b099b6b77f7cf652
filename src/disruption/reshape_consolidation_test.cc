// Re-shapes (reshape_consolidation.h): two or three nodes into as many or fewer cheaper ones of a
// different mix, only in the extended search, validated by placing the pods again.
#include "src/disruption/reshape_consolidation.h"

#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rapidcheck.h"
#include "src/api/pod_resources.h"
#include "src/disruption/apply.h"
#include "src/disruption/disruption.h"
#include "src/disruption/disruption_test_util.h"
#include "src/disruption/validation.h"
#include "src/state/pod_predicates.h"
#include "test/property_check.h"

namespace karpenter::disruption {
namespace {

using namespace ::karpenter::disruption::testing;  // NOLINT: test fixtures

const api::Time kNow = *api::Time::ParseRfc3339("2026-12-02T00:00:00Z");
const DisruptionOptions kExtended = {.consolidation_search = ConsolidationSearch::kExtended};

// The test pool, allowed to launch c5 as well as m5.
std::string Pool(const std::string& budget = "'100%'") {
  std::string pool =
      NodePoolYaml("default", "{consolidateAfter: 0s, budgets: [{nodes: " + budget + "}]}");
  const std::string m5_only = "values: [m5]";
  pool.replace(pool.find(m5_only), m5_only.size(), "values: [m5, c5]");
  return pool;
}

std::string PodWithMemory(const std::string& name, const std::string& node, int milli,
                          int memory_mi, const std::string& annotations = "{}") {
  return fmt::format(R"(apiVersion: v1
kind: Pod
metadata: {{name: {}, namespace: default, annotations: {}}}
spec:
  containers:
  - {{name: app, image: pause, resources: {{requests: {{cpu: {}m, memory: {}Mi}}}}}}
  nodeName: {}
status: {{phase: Running, startTime: '2026-12-01T00:00:00Z'}}
)",
                     name, annotations, milli, memory_mi, node);
}

// x0 and x1 (m5.xlarge, $0.192/h) each with a lean pod (1900m, 512Mi) and a fat one (1900m,
// 7000Mi): no single type holds the four for less, a c5.xlarge and an m5.xlarge do.
std::vector<std::string> TwoMixedNodes(const std::string& budget = "'100%'") {
  std::vector<std::string> docs = {kNodeClass, Pool(budget)};
  for (const std::string name : {"x0", "x1"}) {
    docs.push_back(NodeYaml({.name = name}));
    docs.push_back(PodWithMemory(name + "-lean", name, 1900, 512));
    docs.push_back(PodWithMemory(name + "-fat", name, 1900, 7000));
  }
  return docs;
}

using Cluster = LoadedCluster;

Cluster Load(const std::vector<std::string>& docs) { return LoadCluster(docs, kNow); }

TEST(ReshapeConsolidation, TwoNodesBecomeACheaperMixOfTwo) {
  Cluster cluster = Load(TwoMixedNodes());
  EXPECT_TRUE(ComputeDisruption(cluster.snapshot, cluster.input, kNow).commands.empty());

  const DisruptionResult result =
      ComputeDisruption(cluster.snapshot, cluster.input, kNow, kExtended);
  ASSERT_EQ(result.commands.size(), 1u);
  const Command& command = result.commands.front();
  EXPECT_EQ(command.method, Method::kMultiNodeConsolidation);
  EXPECT_EQ(command.candidates, (std::vector<std::string>{"x0", "x1"}));
  ASSERT_EQ(command.replacements.size(), 2u);
  EXPECT_EQ(command.replacements[0].launch.instance_type, "c5.xlarge");
  EXPECT_EQ(command.replacements[1].launch.instance_type, "m5.xlarge");
  EXPECT_NEAR(command.savings_per_hour, 2 * 0.192 - 0.17 - 0.192, 1e-9);
  EXPECT_EQ(command.destinations,
            (std::map<std::string, std::string>{{"default/x0-lean", "new nodeclaim 1"},
                                                {"default/x1-lean", "new nodeclaim 1"},
                                                {"default/x0-fat", "new nodeclaim 2"},
                                                {"default/x1-fat", "new nodeclaim 2"}}));
  EXPECT_EQ(command.detail,
            "extended search: nodepool default, re-shape 2 nodes into c5.xlarge + m5.xlarge");
}

TEST(ReshapeConsolidation, ValidationKeepsTheCommandWhileThePodsStillFit) {
  Cluster before = Load(TwoMixedNodes());
  const DisruptionResult result = ComputeDisruption(before.snapshot, before.input, kNow, kExtended);
  ASSERT_EQ(result.commands.size(), 1u);
  Cluster after = Load(TwoMixedNodes());
  const ValidationResult validated =
      ValidateCommand(after.snapshot, after.input, result.commands.front(), kNow);
  ASSERT_TRUE(validated.command.has_value()) << validated.message;
  ASSERT_EQ(validated.command->replacements.size(), 2u);
  // The replacements now point into the fresh input, which outlives the one they came from.
  for (const provisioning::PlannedNodeClaim& planned : validated.command->replacements) {
    ASSERT_EQ(planned.claim.instance_type_options.size(), 1u);
    const auto& types = after.input.input.node_pools.front().instance_types;
    const provisioning::InstanceTypeView* type = planned.claim.instance_type_options.front();
    EXPECT_TRUE(type >= &*types.begin() && type < &*types.begin() + types.size());
    EXPECT_EQ(type->name, planned.launch.instance_type);
  }
}

TEST(ReshapeConsolidation, ValidationAbandonsWhenThePodsNoLongerFitTheReplacements) {
  Cluster before = Load(TwoMixedNodes());
  const DisruptionResult result = ComputeDisruption(before.snapshot, before.input, kNow, kExtended);
  ASSERT_EQ(result.commands.size(), 1u);
  // A third pod on x0 (100m, 6500Mi: x0 still holds it) fits neither replacement's free memory
  // (the m5.xlarge is full with the fat pods, the c5.xlarge has 8 GiB): it would need a third
  // node.
  std::vector<std::string> churned = TwoMixedNodes();
  churned.push_back(PodWithMemory("x0-late", "x0", 100, 6500));
  Cluster after = Load(churned);
  const ValidationResult validated =
      ValidateCommand(after.snapshot, after.input, result.commands.front(), kNow);
  EXPECT_FALSE(validated.command.has_value());
  EXPECT_EQ(validated.failure, ValidationFailure::kScheduling);
}

TEST(ReshapeConsolidation, HonoursTheNodePoolBudget) {
  Cluster cluster = Load(TwoMixedNodes("'1'"));
  EXPECT_TRUE(ComputeDisruption(cluster.snapshot, cluster.input, kNow, kExtended).commands.empty());
}

TEST(ReshapeConsolidation, SkipsANodeWithADoNotDisruptPod) {
  std::vector<std::string> docs = TwoMixedNodes();
  docs.push_back(PodWithMemory("x1-pinned", "x1", 10, 16, "{karpenter.sh/do-not-disrupt: 'true'}"));
  Cluster cluster = Load(docs);
  EXPECT_TRUE(ComputeDisruption(cluster.snapshot, cluster.input, kNow, kExtended).commands.empty());
}

constexpr property_test::PropertyOptions kProperty = {0x7265736861706521, 30, 100};

// 2–4 m5.xlarge, each with a lean and a fat pod of random sizes near the mix above, under a
// random budget; some pods are do-not-disrupt.
std::vector<std::string> MixedCluster() {
  const std::vector<std::string> budgets = {"'100%'", "'3'", "'2'", "'1'"};
  std::vector<std::string> docs = {kNodeClass,
                                   Pool(budgets[*rc::gen::inRange<size_t>(0, budgets.size())])};
  const int nodes = 4 - *rc::gen::inRange(0, 3);
  for (int i = 0; i < nodes; ++i) {
    const std::string name = "x" + std::to_string(i);
    docs.push_back(NodeYaml({.name = name}));
    const bool pinned = *rc::gen::inRange(0, 8) == 7;
    docs.push_back(PodWithMemory(name + "-lean", name, 1900 - *rc::gen::inRange(0, 400),
                                 512 + *rc::gen::inRange(0, 1024),
                                 pinned ? "{karpenter.sh/do-not-disrupt: 'true'}" : "{}"));
    docs.push_back(PodWithMemory(name + "-fat", name, 1900 - *rc::gen::inRange(0, 400),
                                 7000 - *rc::gen::inRange(0, 2000)));
  }
  return docs;
}

// Requests of the snapshot's pods on each node fit its allocatable, and every pod is on a node.
void CheckEveryPodPlaced(const state::ClusterSnapshot& snapshot) {
  for (const api::Pod& pod : snapshot.pods()) RC_ASSERT(snapshot.FindNode(pod.spec.node_name));
  for (const api::Node& node : snapshot.nodes()) {
    api::ResourceList used;
    for (const api::Pod* pod : snapshot.PodsOnNode(node.metadata.name)) {
      api::AddResources(used, api::PodRequests(*pod));
    }
    for (const char* resource : {"cpu", "memory"}) {
      auto want = used.find(resource);
      auto have = node.status.allocatable.find(resource);
      if (want == used.end()) continue;
      RC_ASSERT(have != node.status.allocatable.end());
      RC_ASSERT(want->second.MilliValue() <= have->second.MilliValue());
    }
  }
}

TEST(ReshapeConsolidationProperty, ReshapesAreCheaperWithinBudgetsAndEveryPodStillFits) {
  int reshapes = 0;
  property_test::CheckProperty(kProperty, "re-shape invariants", [&] {
    // The scheduler input stays alive: ApplyCommands sizes the replacement nodes from it.
    Cluster cluster = Load(MixedCluster());
    const state::ClusterSnapshot* snapshot = &cluster.snapshot;
    const std::optional<DisruptionResult> result =
        ComputeDisruption(cluster.snapshot, cluster.input, kNow, kExtended);
    for (const Command& command : result->commands) {
      if (command.replacements.size() < 2) continue;
      ++reshapes;
      RC_ASSERT(command.replacements.size() <= command.candidates.size());
      RC_ASSERT(std::abs(command.candidate_price_per_hour -
                         0.192 * static_cast<double>(command.candidates.size())) < 1e-9);
      double replacement_price = 0;
      for (const auto& planned : command.replacements) replacement_price += planned.launch.price;
      RC_ASSERT(replacement_price < command.candidate_price_per_hour);
      const auto budgets = BuildBudgetMapping(*snapshot, kNow, command.reason);
      RC_ASSERT(static_cast<int64_t>(command.candidates.size()) <= budgets.at("default").remaining);
      for (const std::string& name : command.candidates) {
        for (const api::Pod* pod : snapshot->PodsOnNode(name)) {
          RC_ASSERT(!state::IsDoNotDisruptActive(*pod, kNow));
          RC_ASSERT(
              command.destinations.contains(pod->metadata.namespace_ + "/" + pod->metadata.name));
        }
      }
    }
    absl::StatusOr<state::ClusterSnapshot> applied =
        ApplyCommands(*snapshot, result->commands, kNow);
    RC_ASSERT(applied.ok());
    CheckEveryPodPlaced(*applied);
  });
  // The generator must reach re-shapes, or the checks above hold vacuously.
  EXPECT_GE(reshapes, 3);
}

}  // namespace
}  // namespace karpenter::disruption
