// Cluster Autoscaler's static node groups (`--nodes=MIN:MAX:NAME`) give a group's bounds when no
// other input does, and a disagreement with the Auto Scaling group's is noted; its
// auto-discovery tags are noted for Phase 4.
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "src/migrate/migration_plan.h"

namespace karpenter::migrate {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using Json = nlohmann::ordered_json;

const std::string kArticle = std::string(KP_SOURCE_DIR) + "/examples/migrate/article/";

const cloudprovider::Catalog& TestCatalog() {
  static const cloudprovider::Catalog* catalog =
      new cloudprovider::Catalog(*cloudprovider::Catalog::LoadEmbedded());
  return *catalog;
}

// The article's cluster from its snapshot alone, with Cluster Autoscaler's `flags`.
MigrationInputs ArticleWithFlags(std::vector<StaticNodeGroup> flags) {
  MigrationInputs inputs;
  inputs.cluster = "production-eks";
  inputs.snapshot = *api::LoadManifestFile(kArticle + "snapshot.json");
  inputs.autoscaler.deployment_found = true;
  inputs.autoscaler.deployment_namespace = "kube-system";
  inputs.autoscaler.deployment_name = "cluster-autoscaler";
  inputs.autoscaler.static_node_groups = std::move(flags);
  inputs.autoscaler_given = true;
  return inputs;
}

const Json& Limits(const MigrationPlan& plan, const std::string& pool) {
  static const Json kNone;
  for (const Json& node_pool : plan.node_pools) {
    if (node_pool["metadata"]["name"] != pool) continue;
    return node_pool["spec"].contains("limits") ? node_pool["spec"]["limits"] : kNone;
  }
  return kNone;
}

std::vector<std::string> Notes(const MigrationPlan& plan, const std::string& field) {
  std::vector<std::string> notes;
  for (const LossyMapping& loss : plan.lossy_mappings) {
    if (loss.field == field) notes.push_back(loss.group + ": " + loss.reason);
  }
  return notes;
}

TEST(StaticNodeGroups, GiveTheBoundsNoOtherInputGives) {
  absl::StatusOr<MigrationPlan> plan = PlanMigration(
      ArticleWithFlags({{0, 6, "general-workers", "--nodes=0:6:general-workers"}}), TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(Limits(*plan, "general-workers")["cpu"], "24");  // 6 x m5.xlarge's 4 vCPUs
  EXPECT_THAT(Notes(*plan, "--nodes"), IsEmpty());
  // Without the flag the group has no bounds, hence no limits.
  plan = PlanMigration(ArticleWithFlags({}), TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_TRUE(Limits(*plan, "general-workers").is_null());
}

TEST(StaticNodeGroups, ADisagreementWithTheAutoScalingGroupIsNotedAndTheSmallerMaxUsed) {
  const std::string asg = "eks-general-workers-0ac6f1d2";
  MigrationInputs inputs = ArticleWithFlags({{1, 3, asg, "--nodes=1:3:" + asg}});
  inputs.asgs = {{asg, "general-workers", 1, 5, {}}};
  inputs.asgs_given = true;
  absl::StatusOr<MigrationPlan> plan = PlanMigration(inputs, TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_THAT(Notes(*plan, "--nodes"),
              testing::ElementsAre(
                  "general-workers: Cluster Autoscaler's --nodes=1:3:" + asg +
                  " disagrees with Auto Scaling group " + asg +
                  " in --asgs (MinSize 1, MaxSize 5): the group grows to the smaller maximum, 3, "
                  "which the limits use"));
  EXPECT_EQ(Limits(*plan, "general-workers")["cpu"], "12");
  // Bounds that agree say nothing.
  inputs.autoscaler.static_node_groups[0] = {1, 5, asg, "--nodes=1:5:" + asg};
  plan = PlanMigration(inputs, TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_THAT(Notes(*plan, "--nodes"), IsEmpty());
  EXPECT_EQ(Limits(*plan, "general-workers")["cpu"], "20");
}

TEST(StaticNodeGroups, AutoDiscoveryTagsAreNotedForPhaseFour) {
  MigrationInputs inputs = ArticleWithFlags({});
  inputs.autoscaler.auto_discovery_tags = {
      {"k8s.io/cluster-autoscaler/enabled", "k8s.io/cluster-autoscaler/production-eks"}};
  absl::StatusOr<MigrationPlan> plan = PlanMigration(inputs, TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  const std::vector<std::string> notes = Notes(*plan, "--node-group-auto-discovery");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_THAT(notes[0], HasSubstr("cluster-autoscaler: Cluster Autoscaler finds the Auto Scaling "
                                  "groups tagged k8s.io/cluster-autoscaler/enabled, "
                                  "k8s.io/cluster-autoscaler/production-eks"));
  EXPECT_THAT(notes[0], HasSubstr("remove these tags"));
  EXPECT_THAT(
      Notes(*PlanMigration(ArticleWithFlags({}), TestCatalog()), "--node-group-auto-discovery"),
      IsEmpty());
}

}  // namespace
}  // namespace karpenter::migrate
