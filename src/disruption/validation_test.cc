#include "src/disruption/validation.h"

#include "gtest/gtest.h"
#include "src/disruption/disruption_test_util.h"

namespace karpenter::disruption {
namespace {

using namespace ::karpenter::disruption::testing;  // NOLINT: test fixtures

api::Time Now() { return *api::Time::ParseRfc3339("2026-12-02T00:00:00Z"); }
api::Time Later() { return Now() + kCommandValidationDelay; }

using Cluster = LoadedCluster;

Cluster Load(const std::vector<std::string>& documents) { return LoadCluster(documents, Now()); }

const std::string kPool =
    NodePoolYaml("default", "{consolidateAfter: 0s, budgets: [{nodes: '1'}]}");

// n1 (one small pod) consolidates onto n2.
std::vector<std::string> Base() {
  return {kNodeClass,
          kPool,
          NodeYaml({.name = "n1"}),
          NodeYaml({.name = "n2"}),
          PodYaml({.name = "a", .node = "n1", .cpu = "1"}),
          PodYaml({.name = "b", .node = "n2", .cpu = "1"})};
}

Command Decide(Cluster& cluster) {
  DisruptionResult result = ComputeDisruption(cluster.snapshot, cluster.input, Now());
  EXPECT_EQ(result.commands.size(), 1u);
  return result.commands.empty() ? Command{} : result.commands.front();
}

TEST(ValidateCommand, UnchangedClusterKeepsTheCommand) {
  Cluster before = Load(Base());
  Command command = Decide(before);
  ASSERT_EQ(command.method, Method::kSingleNodeConsolidation);
  Cluster after = Load(Base());
  ValidationResult result = ValidateCommand(after.snapshot, after.input, command, Later());
  ASSERT_TRUE(result.command.has_value()) << result.message;
  EXPECT_EQ(result.command->candidates, command.candidates);
}

// A host validates against a snapshot and input taken 15 s later; the input the command was
// computed from may be gone by the time the replacement launches, so the validated command's
// instance type options must point into the input it was validated against.
TEST(ValidateCommand, ValidatedReplacementPointsIntoTheFreshInput) {
  const std::vector<std::string> documents = {
      kNodeClass, kPool, NodeYaml({.name = "n1", .instance_type = "m5.4xlarge", .cpu = "15890m"}),
      PodYaml({.name = "a", .node = "n1", .cpu = "1"})};
  Command command;
  {
    Cluster before = Load(documents);
    command = Decide(before);
  }  // `before.input` is gone: `command`'s option pointers dangle from here on
  ASSERT_EQ(command.method, Method::kSingleNodeConsolidation);
  ASSERT_EQ(command.replacements.size(), 1u);
  Cluster after = Load(documents);
  ValidationResult result = ValidateCommand(after.snapshot, after.input, command, Later());
  ASSERT_TRUE(result.command.has_value()) << result.message;
  const provisioning::NewNodeClaim& claim = result.command->replacements.front().claim;
  ASSERT_EQ(claim.instance_type_options.size(), claim.instance_types.size());
  for (size_t i = 0; i < claim.instance_types.size(); ++i) {
    const provisioning::InstanceTypeView* option = claim.instance_type_options[i];
    bool in_fresh_input = false;
    for (const provisioning::NodePoolInstanceTypes& pool : after.input.input.node_pools) {
      const auto& types = pool.instance_types;
      in_fresh_input |=
          !types.empty() && option >= types.data() && option < types.data() + types.size();
    }
    ASSERT_TRUE(in_fresh_input) << claim.instance_types[i];
    EXPECT_EQ(option->name, claim.instance_types[i]);
  }
}

TEST(ValidateCommand, PodChurnOnTheDestinationAbandonsWithScheduling) {
  Cluster before = Load(Base());
  Command command = Decide(before);
  ASSERT_EQ(command.candidates, std::vector<std::string>{"n1"});
  std::vector<std::string> docs = Base();
  docs.push_back(PodYaml({.name = "newcomer", .node = "n2", .cpu = "2500m"}));
  Cluster after = Load(docs);
  ValidationResult result = ValidateCommand(after.snapshot, after.input, command, Later());
  EXPECT_FALSE(result.command.has_value());
  EXPECT_EQ(result.failure, ValidationFailure::kScheduling);
}

TEST(ValidateCommand, DoNotDisruptAppearingAbandonsWithChurn) {
  Cluster before = Load(Base());
  Command command = Decide(before);
  std::vector<std::string> docs = Base();
  docs[4] = PodYaml({.name = "a",
                     .node = "n1",
                     .cpu = "1",
                     .annotations = "{karpenter.sh/do-not-disrupt: 'true'}"});
  Cluster after = Load(docs);
  ValidationResult result = ValidateCommand(after.snapshot, after.input, command, Later());
  EXPECT_FALSE(result.command.has_value());
  EXPECT_EQ(result.failure, ValidationFailure::kChurn);
}

TEST(ValidateCommand, APdbBlockingTheCandidateMeanwhileAbandonsWithChurn) {
  Cluster before = Load(Base());
  Command command = Decide(before);
  ASSERT_EQ(command.candidates, std::vector<std::string>{"n1"});
  std::vector<std::string> docs = Base();
  docs[4] = PodYaml({.name = "a", .node = "n1", .cpu = "1", .labels = "{app: web}"});
  docs.push_back(PdbYaml("web", "web", 0));
  Cluster after = Load(docs);
  ValidationResult result = ValidateCommand(after.snapshot, after.input, command, Later());
  EXPECT_FALSE(result.command.has_value());
  EXPECT_EQ(result.failure, ValidationFailure::kChurn) << result.message;
}

// Upstream's validation also refuses candidates that a pending pod was nominated to meanwhile
// (kube-scheduler preempting for it there): the node is about to get that pod.
TEST(ValidateCommand, APodNominatedToTheCandidateMeanwhileAbandonsWithChurn) {
  Cluster before = Load(Base());
  Command command = Decide(before);
  ASSERT_EQ(command.candidates, std::vector<std::string>{"n1"});
  std::vector<std::string> docs = Base();
  docs.push_back(PodYaml({.name = "preemptor", .cpu = "500m", .nominated_node = "n1"}));
  Cluster after = Load(docs);
  ValidationResult result = ValidateCommand(after.snapshot, after.input, command, Later());
  EXPECT_FALSE(result.command.has_value());
  EXPECT_EQ(result.failure, ValidationFailure::kChurn) << result.message;
}

// The candidate's pods grew while the command waited: the fresh simulation still replaces the
// node, but with larger types than the command chose, so upstream abandons rather than launch
// a replacement the pods no longer fit.
TEST(ValidateCommand, ReplacementNeedingOtherInstanceTypesAbandonsWithScheduling) {
  const std::string big = NodeYaml({.name = "n1", .instance_type = "m5.4xlarge", .cpu = "15890m"});
  Cluster before = Load({kNodeClass, kPool, big, PodYaml({.name = "a", .node = "n1", .cpu = "1"})});
  Command command = Decide(before);
  ASSERT_EQ(command.method, Method::kSingleNodeConsolidation);
  ASSERT_EQ(command.replacements.size(), 1u);
  Cluster after = Load({kNodeClass, kPool, big, PodYaml({.name = "a", .node = "n1", .cpu = "1"}),
                        PodYaml({.name = "grown", .node = "n1", .cpu = "6"})});
  ValidationResult result = ValidateCommand(after.snapshot, after.input, command, Later());
  EXPECT_FALSE(result.command.has_value());
  EXPECT_EQ(result.failure, ValidationFailure::kScheduling);
  EXPECT_NE(result.message.find("is no longer an option"), std::string::npos) << result.message;
}

TEST(ValidateCommand, BudgetUsedUpMeanwhileAbandonsWithBudget) {
  Cluster before = Load(Base());
  Command command = Decide(before);
  std::vector<std::string> docs = Base();
  docs.push_back(NodeYaml({.name = "n3", .node_annotations = "{}"}));
  // n3 is being disrupted by another command: tainted, it uses the budget of 1.
  docs.back().replace(docs.back().find("spec: {providerID"), 7,
                      "spec: {taints: [{key: karpenter.sh/disrupted, effect: NoSchedule}], ");
  Cluster after = Load(docs);
  ValidationResult result = ValidateCommand(after.snapshot, after.input, command, Later());
  EXPECT_FALSE(result.command.has_value());
  EXPECT_EQ(result.failure, ValidationFailure::kBudget) << result.message;
}

TEST(ValidateCommand, EmptinessKeepsTheStillEmptySubset) {
  const std::string pool =
      NodePoolYaml("default", "{consolidateAfter: 0s, budgets: [{nodes: '100%'}]}");
  Cluster before = Load({kNodeClass, pool, NodeYaml({.name = "e1"}), NodeYaml({.name = "e2"})});
  Command command = Decide(before);
  ASSERT_EQ(command.method, Method::kEmptiness);
  ASSERT_EQ(command.candidates.size(), 2u);
  Cluster after = Load({kNodeClass, pool, NodeYaml({.name = "e1"}), NodeYaml({.name = "e2"}),
                        PodYaml({.name = "arrived", .node = "e1"})});
  ValidationResult result = ValidateCommand(after.snapshot, after.input, command, Later());
  ASSERT_TRUE(result.command.has_value()) << result.message;
  EXPECT_EQ(result.command->candidates, std::vector<std::string>{"e2"});
}

}  // namespace
}  // namespace karpenter::disruption
