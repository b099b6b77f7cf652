#include "src/api/nodeclaim_validation.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "src/api/nodepool_test_util.h"

namespace karpenter::api {
namespace {

using np_test::ArticleNodePool;
using np_test::Dump;
using np_test::HasError;
using np_test::MustDuration;
using np_test::MustNillable;

#define EXPECT_ERROR(errors, path, substring) \
  EXPECT_TRUE(HasError(errors, path, substring)) << "want " << (path) << Dump(errors)

// What the provisioner would create from the article's pool.
NodeClaim ValidNodeClaim() {
  NodeClaim claim = TemplateToNodeClaim(ArticleNodePool().spec.template_);
  claim.metadata.generate_name = "default-";
  claim.spec.requirements.push_back(
      {.key = "karpenter.sh/nodepool", .operator_ = "In", .values = {"default"}});
  claim.spec.resources.requests["cpu"] = *Quantity::Parse("500m");
  return claim;
}

FieldErrors Validate(const NodeClaim& claim) {
  FieldErrors errors;
  ValidateNodeClaim(claim, &errors);
  return errors;
}

NodeClaim WithRequirement(NodeSelectorRequirementWithMinValues requirement) {
  NodeClaim claim = ValidNodeClaim();
  claim.spec.requirements = {std::move(requirement)};
  return claim;
}

TEST(NodeClaimValidation, ClaimFromTheArticlePoolHasNoErrors) {
  FieldErrors errors = Validate(ValidNodeClaim());
  EXPECT_TRUE(errors.empty()) << Dump(errors);
}

TEST(NodeClaimValidation, NodePoolKeyIsAllowedButOtherRestrictedKeysAreNot) {
  EXPECT_TRUE(
      Validate(WithRequirement({.key = "karpenter.sh/nodepool", .operator_ = "Exists"})).empty());
  EXPECT_ERROR(Validate(WithRequirement({.key = "kubernetes.io/hostname", .operator_ = "Exists"})),
               "spec.requirements[0].key", "label \"kubernetes.io/hostname\" is restricted");
  EXPECT_ERROR(Validate(WithRequirement({.key = "karpenter.sh/foo", .operator_ = "Exists"})),
               "spec.requirements[0].key", "label domain \"karpenter.sh\" is restricted");
  EXPECT_ERROR(
      Validate(WithRequirement({.key = "karpenter.k8s.aws/not-allowed", .operator_ = "Exists"})),
      "spec.requirements[0].key", "label domain \"karpenter.k8s.aws\" is restricted");
}

TEST(NodeClaimValidation, RequirementCelRulesApply) {
  EXPECT_ERROR(Validate(WithRequirement({.key = "topology.kubernetes.io/zone", .operator_ = "In"})),
               "spec.requirements[0].values", "must have a value defined");
  EXPECT_ERROR(Validate(WithRequirement(
                   {.key = "topology.kubernetes.io/zone", .operator_ = "Gte", .values = {"-1"}})),
               "spec.requirements[0].values", "single positive integer value");
  EXPECT_ERROR(Validate(WithRequirement({.key = "node.kubernetes.io/instance-type",
                                         .operator_ = "In",
                                         .values = {"a"},
                                         .min_values = 2})),
               "spec.requirements[0].minValues", "at least that many values");
  EXPECT_ERROR(
      Validate(WithRequirement(
          {.key = "node.kubernetes.io/instance-type", .operator_ = "Exists", .min_values = 51})),
      "spec.requirements[0].minValues", "less than or equal to 50");
  EXPECT_ERROR(
      Validate(WithRequirement({.key = "topology.kubernetes.io/zone", .operator_ = "unknown"})),
      "spec.requirements[0].operator", "Unsupported value: \"unknown\"");
  EXPECT_ERROR(Validate(WithRequirement({.key = "Test.com/test", .operator_ = "Exists"})),
               "spec.requirements[0].key", "should match");
}

TEST(NodeClaimValidation, RuntimeOnlyRulesDoNotApply) {
  // Upstream re-validates NodePools at runtime, never NodeClaims.
  EXPECT_TRUE(
      Validate(WithRequirement(
                   {.key = "karpenter.sh/capacity-type", .operator_ = "In", .values = {"xspot"}}))
          .empty());
  EXPECT_TRUE(Validate(WithRequirement({.key = "karpenter.k8s.aws/ec2nodeclass",
                                        .operator_ = "In",
                                        .values = {"not a label value"}}))
                  .empty());
  NodeClaim claim = ValidNodeClaim();
  claim.spec.taints = {{.key = "a", .effect = "NoSchedule"}};
  claim.spec.startup_taints = {{.key = "a", .effect = "NoSchedule"}};
  EXPECT_TRUE(Validate(claim).empty()) << Dump(Validate(claim));
}

TEST(NodeClaimValidation, AtMostOneHundredRequirements) {
  NodeClaim claim = ValidNodeClaim();
  claim.spec.requirements.clear();
  for (int i = 0; i < 101; ++i) {
    claim.spec.requirements.push_back(
        {.key = "example.com/k" + std::to_string(i), .operator_ = "In", .values = {"v"}});
  }
  EXPECT_ERROR(Validate(claim), "spec.requirements", "Too many: 101");
}

TEST(NodeClaimValidation, TaintRulesApply) {
  NodeClaim claim = ValidNodeClaim();
  claim.spec.taints = {{.key = "???"}, {.key = "ok", .value = "???", .effect = "NoSchedule"}};
  claim.spec.startup_taints = {{.key = "invalid-effect", .effect = "???"}};
  FieldErrors errors = Validate(claim);
  EXPECT_ERROR(errors, "spec.taints[0].key", "Invalid value: \"???\"");
  EXPECT_ERROR(errors, "spec.taints[0].effect", "Required value");
  EXPECT_ERROR(errors, "spec.taints[1].value", "Invalid value: \"???\"");
  EXPECT_ERROR(errors, "spec.startupTaints[0].effect", "Unsupported value: \"???\"");
}

TEST(NodeClaimValidation, NodeClassRefRules) {
  NodeClaim claim = ValidNodeClaim();
  claim.spec.node_class_ref->group = "karpenter.test.sh/v1";
  EXPECT_ERROR(Validate(claim), "spec.nodeClassRef.group",
               "Invalid value: \"karpenter.test.sh/v1\"");
  claim.spec.node_class_ref.reset();
  EXPECT_ERROR(Validate(claim), "spec.nodeClassRef", "Required value");
}

TEST(NodeClaimValidation, DurationPatternsApply) {
  NodeClaim claim = ValidNodeClaim();
  claim.spec.expire_after = MustNillable("1.5h");
  claim.spec.termination_grace_period = MustDuration("100ms");
  FieldErrors errors = Validate(claim);
  EXPECT_ERROR(errors, "spec.expireAfter", "Invalid value: \"1.5h\"");
  EXPECT_ERROR(errors, "spec.terminationGracePeriod", "should match");
  claim.spec.expire_after = MustNillable("Never");
  claim.spec.termination_grace_period = MustDuration("30s");
  EXPECT_TRUE(Validate(claim).empty()) << Dump(Validate(claim));
}

TEST(NodeClaimValidation, ConditionReasonMayBeEmptyButMustMatchItsPattern) {
  NodeClaim claim = ValidNodeClaim();
  claim.status.conditions = {
      Condition{.type = "Launched", .status = "True", .last_transition_time = Time{}}};
  EXPECT_TRUE(Validate(claim).empty()) << Dump(Validate(claim));
  claim.status.conditions[0].reason = "1Bad";
  EXPECT_ERROR(Validate(claim), "status.conditions[0].reason",
               "should match '^([A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?|)$'");
  claim.status.conditions[0].reason = std::string(1025, 'a');
  EXPECT_ERROR(Validate(claim), "status.conditions[0].reason",
               "Too long: may not be longer than 1024");
}

TEST(NodeClaimValidation, NameOrGenerateNameIsRequired) {
  NodeClaim claim = ValidNodeClaim();
  claim.metadata.generate_name.clear();
  EXPECT_ERROR(Validate(claim), "metadata.name", "name or generateName is required");
  claim.metadata.generate_name = "Bad_";
  EXPECT_ERROR(Validate(claim), "metadata.generateName", "Invalid value: \"Bad_\"");
  claim.metadata.generate_name.clear();
  claim.metadata.name = "default-abcde";
  EXPECT_TRUE(Validate(claim).empty());
  claim.kind = "NodePool";
  EXPECT_ERROR(Validate(claim), "kind", "supported values: \"NodeClaim\"");
}

TEST(NodeClaimValidation, MetadataAnnotationsAreBounded) {
  NodeClaim claim = ValidNodeClaim();
  claim.metadata.annotations["a"] = std::string(256 * 1024, 'x');
  EXPECT_ERROR(Validate(claim), "metadata.annotations", "Too long");
  claim.metadata.annotations = {{"bad key!", "v"}};
  EXPECT_ERROR(Validate(claim), "metadata.annotations[bad key!]", "Invalid value");
}

TEST(NodeClaimValidation, RequirementRuntimeRuleMatchesUpstreamOnPodRequirements) {
  FieldErrors errors;
  ValidateRequirementRuntime({.key = "karpenter.sh/foo", .operator_ = "In", .values = {"x"}},
                             "pod.requirements[0]", &errors);
  EXPECT_ERROR(errors, "pod.requirements[0].key", "is not allowed");
  FieldErrors ok;
  ValidateRequirementRuntime(
      {.key = "karpenter.sh/nodepool", .operator_ = "In", .values = {"default"}},
      "pod.requirements[0]", &ok);
  ValidateRequirementRuntime(
      {.key = "beta.kubernetes.io/arch", .operator_ = "In", .values = {"amd64"}},
      "pod.requirements[1]", &ok);
  EXPECT_TRUE(ok.empty()) << Dump(ok);
  FieldErrors empty_op;
  ValidateRequirementRuntime({.key = "a"}, "r", &empty_op);
  EXPECT_ERROR(empty_op, "r.operator", "Unsupported value: \"\"");
}

}  // namespace
}  // namespace karpenter::api
