// TemplateNodeClaim: the claim a static pool launches from its template alone.
#include "src/provisioning/template_claim.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "src/provisioning/launch.h"
#include "src/provisioning/scheduler_test_util.h"

namespace karpenter::provisioning {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using namespace ::karpenter::provisioning::testing;  // NOLINT: test fixtures

TEST(TemplateNodeClaim, TypesTheTemplateAllowsCheapestFirst) {
  NodePoolInstanceTypes pool{MakeNodePool("static"), Catalog()};
  pool.node_pool.spec.replicas = 2;
  AddRequirement(pool.node_pool, kInstanceFamily, "In", {"m"});
  AddRequirement(pool.node_pool, "karpenter.sh/capacity-type", "In", {"on-demand"});
  pool.node_pool.spec.template_.metadata.labels = {{"team", "a"}};
  absl::StatusOr<NewNodeClaim> claim = TemplateNodeClaim(pool, SchedulerOptions{});
  ASSERT_TRUE(claim.ok()) << claim.status();
  EXPECT_EQ(claim->node_pool, "static");
  EXPECT_THAT(claim->instance_types, ElementsAre("m.large", "m.xlarge", "m.2xlarge", "m.4xlarge"));
  EXPECT_THAT(claim->capacity_types, ElementsAre("on-demand"));
  EXPECT_TRUE(claim->pods.empty());
  EXPECT_EQ(claim->labels.at("team"), "a");
  EXPECT_EQ(claim->labels.at("karpenter.sh/nodepool"), "static");
  absl::StatusOr<LaunchPrediction> launch = PredictLaunch(*claim);
  ASSERT_TRUE(launch.ok()) << launch.status();
  EXPECT_EQ(launch->instance_type, "m.large");
  EXPECT_EQ(launch->capacity_type, "on-demand");
}

TEST(TemplateNodeClaim, NoAllowedTypeIsNotFound) {
  NodePoolInstanceTypes pool{MakeNodePool("static"), Catalog()};
  AddRequirement(pool.node_pool, kInstanceFamily, "In", {"x"});
  absl::StatusOr<NewNodeClaim> claim = TemplateNodeClaim(pool, SchedulerOptions{});
  EXPECT_EQ(claim.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(claim.status().message(), HasSubstr("nodepool static"));
}

TEST(TemplateRequirements, TemplateLabelsAndPoolNameBecomeRequirements) {
  api::NodePool pool = MakeNodePool("p");
  pool.spec.template_.metadata.labels = {{"team", "a"}};
  AddRequirement(pool, "kubernetes.io/arch", "In", {"arm64"});
  absl::StatusOr<scheduling::Requirements> requirements = TemplateRequirements(pool);
  ASSERT_TRUE(requirements.ok());
  EXPECT_TRUE(requirements->Has("team"));
  EXPECT_TRUE(requirements->Has("kubernetes.io/arch"));
  EXPECT_TRUE(requirements->Get("karpenter.sh/nodepool").Has("p"));
  AddRequirement(pool, "k", "Gt", {"a"});
  EXPECT_FALSE(TemplateRequirements(pool).ok());
}

}  // namespace
}  // namespace karpenter::provisioning
