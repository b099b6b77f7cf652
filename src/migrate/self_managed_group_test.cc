// A self-managed Auto Scaling group (no EKS node group: its nodes are grouped by the ASG holding
// their instances) carries the launch template the ASG names, as a managed group carries its own;
// examples/migrate/mixed's `reporting-batch` is one.
#include <string>
#include <tuple>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "src/migrate/migration_plan.h"
#include "src/migrate/plan_output.h"
#include "src/migrate/plan_validation.h"

namespace karpenter::migrate {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using Json = nlohmann::ordered_json;

const std::string kMixed = std::string(KP_SOURCE_DIR) + "/examples/migrate/mixed/";

const cloudprovider::Catalog& TestCatalog() {
  static const cloudprovider::Catalog* catalog =
      new cloudprovider::Catalog(*cloudprovider::Catalog::LoadEmbedded());
  return *catalog;
}

// The mixed cluster with only its self-managed group's Auto Scaling group, launching from
// `reporting-batch-lt` (by `name` and `id`) at `version`.
MigrationInputs MixedInputs(const std::string& name, const std::string& id,
                            const std::string& version) {
  MigrationInputs inputs;
  inputs.cluster = "retail-eks";
  inputs.snapshot = *api::LoadManifestFile(kMixed + "snapshot.json");
  AsgBounds asg{"reporting-batch", "", 0, 6, {"i-0c000000000000040", "i-0c000000000000041"}};
  asg.launch_template_name = name;
  asg.launch_template_id = id;
  asg.launch_template_version = version;
  inputs.asgs = {asg};
  inputs.asgs_given = true;
  inputs.launch_templates = *LoadLaunchTemplateVersionsFile(kMixed + "launch-templates.json");
  inputs.launch_templates_given = true;
  return inputs;
}

const Json* ClassNamed(const MigrationPlan& plan, const std::string& name) {
  for (const Json& node_class : plan.node_classes) {
    if (node_class["metadata"]["name"] == name) return &node_class;
  }
  return nullptr;
}

std::vector<std::string> LaunchTemplateLosses(const MigrationPlan& plan) {
  std::vector<std::string> reasons;
  for (const LossyMapping& loss : plan.lossy_mappings) {
    if (loss.group == "reporting-batch" && loss.field == "launchTemplate") {
      reasons.push_back(loss.reason);
    }
  }
  return reasons;
}

TEST(SelfManagedGroup, CarriesTheVersionItsAutoScalingGroupNames) {
  for (const auto& [name, id, version, image, size] :
       {std::tuple{"reporting-batch-lt", "", "$Latest", "ami-0reporting000002", "80Gi"},
        std::tuple{"", "lt-0bb22cc33dd44ee55", "$Default", "ami-0reporting000001", "50Gi"},
        std::tuple{"reporting-batch-lt", "lt-0bb22cc33dd44ee55", "", "ami-0reporting000001",
                   "50Gi"},
        std::tuple{"", "lt-0bb22cc33dd44ee55", "2", "ami-0reporting000002", "80Gi"}}) {
    absl::StatusOr<MigrationPlan> plan =
        PlanMigration(MixedInputs(name, id, version), TestCatalog());
    ASSERT_TRUE(plan.ok()) << plan.status();
    const Json* node_class = ClassNamed(*plan, "reporting-batch");
    ASSERT_NE(node_class, nullptr) << version;
    const Json& spec = (*node_class)["spec"];
    EXPECT_EQ(spec["amiSelectorTerms"][0]["id"], image) << version;
    EXPECT_EQ(spec["blockDeviceMappings"][0]["ebs"]["volumeSize"], size) << version;
    EXPECT_EQ(spec["securityGroupSelectorTerms"][0]["id"], "sg-0reportingnodes");
    EXPECT_THAT(LaunchTemplateLosses(*plan), IsEmpty());
    EXPECT_TRUE(ValidatePlanManifests(*plan).ok()) << ValidatePlanManifests(*plan);
  }
}

TEST(SelfManagedGroup, SaysWhichAutoScalingGroupsTemplateIsNotCarried) {
  absl::StatusOr<MigrationPlan> plan =
      PlanMigration(MixedInputs("reporting-batch-lt", "", "7"), TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_THAT(LaunchTemplateLosses(*plan),
              testing::ElementsAre("Auto Scaling group reporting-batch's launch template "
                                   "reporting-batch-lt version 7 is not in --launch-templates: "
                                   "not carried"));
  const Json* node_class = ClassNamed(*plan, "default");
  ASSERT_NE(node_class, nullptr);
  EXPECT_EQ((*node_class)["spec"]["amiSelectorTerms"][0]["alias"], "al2023@latest");

  MigrationInputs without = MixedInputs("reporting-batch-lt", "", "$Latest");
  without.launch_templates.clear();
  without.launch_templates_given = false;
  plan = PlanMigration(without, TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  ASSERT_EQ(LaunchTemplateLosses(*plan).size(), 1u);
  EXPECT_THAT(LaunchTemplateLosses(*plan)[0],
              HasSubstr("Auto Scaling group reporting-batch's launch template reporting-batch-lt "
                        "is not carried: pass --launch-templates"));
}

// EKS launches a managed group from its own copy of the group's template: the ASG's is not read.
TEST(SelfManagedGroup, AManagedGroupsAutoScalingGroupTemplateIsNotRead) {
  MigrationInputs inputs = MixedInputs("", "", "");
  AsgBounds managed{"eks-od-general-1a2b", "od-general", 0, 10, {}};
  managed.launch_template_name = "eks-od-general-1a2b";
  managed.launch_template_version = "1";
  inputs.asgs.push_back(managed);
  absl::StatusOr<MigrationPlan> plan = PlanMigration(inputs, TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  for (const LossyMapping& loss : plan->lossy_mappings) {
    EXPECT_NE(loss.field, "launchTemplate") << loss.group << ": " << loss.reason;
  }
}

// Its nodes carry no eks.amazonaws.com/nodegroup label: Phase 4 names them.
TEST(SelfManagedGroup, PhaseFourCordonsAndDrainsItsNodesByName) {
  absl::StatusOr<MigrationPlan> plan =
      PlanMigration(MixedInputs("reporting-batch-lt", "", "$Latest"), TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  const std::string runbook = PlanRunbook(*plan);
  EXPECT_THAT(runbook,
              HasSubstr("  kubectl cordon ip-10-1-1-40.ec2.internal ip-10-1-3-41.ec2.internal\n"
                        "  kubectl drain ip-10-1-1-40.ec2.internal ip-10-1-3-41.ec2.internal "
                        "--ignore-daemonsets"));
  EXPECT_THAT(runbook, HasSubstr("kubectl cordon -l eks.amazonaws.com/nodegroup=od-general\n"));
}

}  // namespace
}  // namespace karpenter::migrate
