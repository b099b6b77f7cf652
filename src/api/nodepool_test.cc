#include "src/api/nodepool.h"

#include <gtest/gtest.h>

#include "src/api/nodeclaim.h"
#include "src/api/nodepool_test_util.h"
#include "src/api/nodepool_validation.h"

namespace karpenter::api {
namespace {

using np_test::ArticleNodePool;
using np_test::Dump;
using np_test::HasError;
using np_test::MustDuration;
using np_test::MustNillable;

NodePool MinimalPool() {
  NodePool pool;
  pool.metadata.name = "minimal";
  pool.spec.template_.spec.node_class_ref =
      NodeClassReference{.kind = "EC2NodeClass", .name = "default", .group = "karpenter.k8s.aws"};
  return pool;
}

TEST(NodePoolDefaults, AbsentDisruptionGetsEveryDefault) {
  NodePool pool = MinimalPool();
  ApplyDefaults(pool);
  ASSERT_TRUE(pool.spec.disruption.has_value());
  EXPECT_EQ(pool.spec.disruption->consolidate_after, MustNillable("0s"));
  EXPECT_EQ(pool.spec.disruption->consolidation_policy, "WhenEmptyOrUnderutilized");
  ASSERT_TRUE(pool.spec.disruption->budgets.has_value());
  EXPECT_EQ(*pool.spec.disruption->budgets, std::vector<Budget>{Budget{.nodes = "10%"}});
  EXPECT_EQ(pool.spec.template_.spec.expire_after, MustNillable("720h"));
  FieldErrors errors;
  ValidateNodePool(pool, &errors);
  EXPECT_TRUE(errors.empty()) << Dump(errors);
}

TEST(NodePoolDefaults, PresentDisruptionKeepsConsolidateAfterRequired) {
  NodePool pool = MinimalPool();
  pool.spec.disruption.emplace().consolidation_policy = "WhenEmpty";
  ApplyDefaults(pool);
  EXPECT_FALSE(pool.spec.disruption->consolidate_after.has_value());
  EXPECT_EQ(pool.spec.disruption->consolidation_policy, "WhenEmpty");
  EXPECT_EQ(*pool.spec.disruption->budgets, std::vector<Budget>{Budget{.nodes = "10%"}});
  FieldErrors errors;
  ValidateNodePool(pool, &errors);
  EXPECT_TRUE(HasError(errors, "spec.disruption.consolidateAfter", "Required value"))
      << Dump(errors);
}

TEST(NodePoolDefaults, PresentDisruptionGetsPolicyAndBudgetDefaults) {
  NodePool pool = MinimalPool();
  pool.spec.disruption.emplace().consolidate_after = MustNillable("5m");
  ApplyDefaults(pool);
  EXPECT_EQ(pool.spec.disruption->consolidate_after, MustNillable("5m"));
  EXPECT_EQ(pool.spec.disruption->consolidation_policy, "WhenEmptyOrUnderutilized");
  EXPECT_EQ(pool.spec.disruption->budgets->size(), 1u);
}

TEST(NodePoolDefaults, BudgetWithoutNodesGetsTenPercent) {
  NodePool pool = MinimalPool();
  Disruption& disruption = pool.spec.disruption.emplace();
  disruption.consolidate_after = MustNillable("0s");
  disruption.budgets =
      std::vector<Budget>{{.reasons = {"Drifted"}},
                          {.nodes = "5", .schedule = "@daily", .duration = MustDuration("1h")}};
  ApplyDefaults(pool);
  EXPECT_EQ((*disruption.budgets)[0].nodes, "10%");
  EXPECT_EQ((*disruption.budgets)[1].nodes, "5");
}

TEST(NodePoolDefaults, ExplicitEmptyBudgetListIsKept) {
  NodePool pool = MinimalPool();
  Disruption& disruption = pool.spec.disruption.emplace();
  disruption.consolidate_after = MustNillable("0s");
  disruption.budgets = std::vector<Budget>{};
  ApplyDefaults(pool);
  ASSERT_TRUE(disruption.budgets.has_value());
  EXPECT_TRUE(disruption.budgets->empty());
}

TEST(NodePoolDefaults, DefaultsPrintAsWritten) {
  NodePool pool = MinimalPool();
  ApplyDefaults(pool);
  EXPECT_EQ(pool.spec.template_.spec.expire_after->ToString(), "720h");
  EXPECT_EQ(pool.spec.disruption->consolidate_after->ToString(), "0s");
}

TEST(NodePoolDefaults, NeverExpireAfterIsKept) {
  NodePool pool = MinimalPool();
  pool.spec.template_.spec.expire_after = MustNillable("Never");
  ApplyDefaults(pool);
  EXPECT_EQ(pool.spec.template_.spec.expire_after, MustNillable("Never"));
}

TEST(NodePoolDefaults, ApplyingTwiceChangesNothing) {
  NodePool once = MinimalPool();
  ApplyDefaults(once);
  NodePool twice = once;
  ApplyDefaults(twice);
  EXPECT_EQ(once, twice);
  EXPECT_EQ(ArticleNodePool().spec.disruption->consolidate_after, MustNillable("1m"));
}

TEST(NodeClaimDefaults, ExpireAfterDefaultsTo720h) {
  NodeClaim claim;
  ApplyDefaults(claim);
  EXPECT_EQ(claim.spec.expire_after, MustNillable("720h"));
  claim.spec.expire_after = MustNillable("Never");
  ApplyDefaults(claim);
  EXPECT_EQ(claim.spec.expire_after, MustNillable("Never"));
}

TEST(NodePoolTemplate, ConvertsToANodeClaimWithTheTemplateSpec) {
  NodePool pool = ArticleNodePool();
  pool.spec.template_.metadata.labels["team"] = "a";
  pool.spec.template_.metadata.annotations["note"] = "b";
  pool.spec.template_.spec.taints = {{.key = "gpu", .effect = "NoSchedule"}};
  pool.spec.template_.spec.startup_taints = {{.key = "init", .effect = "NoExecute"}};
  pool.spec.template_.spec.termination_grace_period = MustDuration("1h");
  NodeClaim claim = TemplateToNodeClaim(pool.spec.template_);
  EXPECT_EQ(claim.metadata.labels, pool.spec.template_.metadata.labels);
  EXPECT_EQ(claim.metadata.annotations, pool.spec.template_.metadata.annotations);
  EXPECT_EQ(claim.spec.taints, pool.spec.template_.spec.taints);
  EXPECT_EQ(claim.spec.startup_taints, pool.spec.template_.spec.startup_taints);
  EXPECT_EQ(claim.spec.requirements, pool.spec.template_.spec.requirements);
  EXPECT_EQ(claim.spec.node_class_ref, pool.spec.template_.spec.node_class_ref);
  EXPECT_EQ(claim.spec.termination_grace_period, pool.spec.template_.spec.termination_grace_period);
  EXPECT_EQ(claim.spec.expire_after, pool.spec.template_.spec.expire_after);
  EXPECT_TRUE(claim.spec.resources.requests.empty());
  EXPECT_EQ(claim.kind, "NodeClaim");
}

}  // namespace
}  // namespace karpenter::api
