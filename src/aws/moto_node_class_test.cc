// EC2NodeClass resolution against moto_server: subnets, security groups and AMIs by selector
// terms, `alias` through the EKS AMI SSM parameters the test puts into moto, and the conditions.
#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "src/aws/test_moto_provider.h"

namespace karpenter::aws {
namespace {

using MotoNodeClass = MotoProviderTest;

std::string ConditionStatus(const api::EC2NodeClassStatus& status, std::string_view type) {
  for (const api::Condition& condition : status.conditions) {
    if (condition.type == type) return condition.status;
  }
  return "";
}

TEST_F(MotoNodeClass, ResolvesByTagsAndAliasAndIsReady) {
  const api::EC2NodeClassStatus& status = node_class_.status;
  ASSERT_EQ(status.subnets.size(), 3u);
  // Most free addresses first: the two /24s before the /26.
  EXPECT_EQ(status.subnets.back().id, small_subnet_a_);
  ASSERT_EQ(status.security_groups.size(), 1u);
  EXPECT_EQ(status.security_groups[0].id, group_);
  EXPECT_EQ(status.security_groups[0].name, "demo-nodes");
  // Only the x86_64 parameter exists, so only one AMI, for amd64.
  ASSERT_EQ(status.amis.size(), 1u);
  EXPECT_EQ(status.amis[0].id, image_);
  // The standard image: amd64 types without GPUs or accelerators, by key length then key.
  EXPECT_EQ(
      status.amis[0].requirements,
      (std::vector<api::NodeSelectorRequirement>{
          {.key = "kubernetes.io/arch", .operator_ = "In", .values = {"amd64"}},
          {.key = "karpenter.k8s.aws/instance-gpu-count", .operator_ = "DoesNotExist"},
          {.key = "karpenter.k8s.aws/instance-accelerator-count", .operator_ = "DoesNotExist"}}));
  EXPECT_EQ(status.instance_profile, "KarpenterNodeInstanceProfile");
  EXPECT_EQ(ConditionStatus(status, "Ready"), "True");
  EXPECT_TRUE(IsReady(node_class_));
}

TEST_F(MotoNodeClass, ResolvesByIdsNamesAndOwners) {
  api::EC2NodeClass by_id = node_class_;
  by_id.spec.subnet_selector_terms = {{.id = subnet_b_}};
  by_id.spec.security_group_selector_terms = {{.name = "demo-nodes"}};
  by_id.spec.ami_selector_terms = {{.id = other_image_}};
  by_id.spec.ami_family = "AL2023";
  auto status = resolver_->Resolve(by_id);
  ASSERT_TRUE(status.ok()) << status.status();
  ASSERT_EQ(status->subnets.size(), 1u);
  EXPECT_EQ(status->subnets[0].id, subnet_b_);
  EXPECT_EQ(status->subnets[0].zone, "us-west-2b");
  ASSERT_EQ(status->security_groups.size(), 1u);
  ASSERT_EQ(status->amis.size(), 1u);
  EXPECT_EQ(status->amis[0].id, other_image_);

  auto images = ec2_->DescribeImages({.image_ids = {other_image_}});
  ASSERT_TRUE(images.ok() && images->size() == 1u);
  by_id.spec.ami_selector_terms = {{.name = (*images)[0].name, .owner = (*images)[0].owner_id}};
  status = resolver_->Resolve(by_id);
  ASSERT_TRUE(status.ok()) << status.status();
  ASSERT_EQ(status->amis.size(), 1u);
  EXPECT_EQ(status->amis[0].id, other_image_);
}

// An ssmParameter term selects the image its parameter holds; a parameter that is missing or
// holds no image id selects nothing.
TEST_F(MotoNodeClass, AnSsmParameterTermSelectsTheImageItHolds) {
  PutParameter("/team/golden-ami", other_image_);
  PutParameter("/team/not-an-image", "latest");
  api::EC2NodeClass by_parameter = node_class_;
  by_parameter.spec.ami_family = "AL2023";
  by_parameter.spec.ami_selector_terms = {{.ssm_parameter = "/team/golden-ami"}};
  auto status = resolver_->Resolve(by_parameter);
  ASSERT_TRUE(status.ok()) << status.status();
  ASSERT_EQ(status->amis.size(), 1u);
  EXPECT_EQ(status->amis[0].id, other_image_);
  EXPECT_EQ(ConditionStatus(*status, "AMIsReady"), "True");
  // Deprecated images stay in EC2's answers; the resolver ranks them last (upstream asks so too).
  for (const auto& form : recorder_.Calls("DescribeImages")) {
    EXPECT_EQ(form.at("IncludeDeprecated"), "true");
  }
  for (const char* name : {"/team/not-an-image", "/team/missing"}) {
    by_parameter.spec.ami_selector_terms = {{.ssm_parameter = name}};
    status = resolver_->Resolve(by_parameter);
    ASSERT_TRUE(status.ok()) << status.status();
    EXPECT_TRUE(status->amis.empty()) << name;
    EXPECT_EQ(ConditionStatus(*status, "AMIsReady"), "False") << name;
  }
}

// An alias EKS publishes nothing for on the cluster's version says so in its own reason.
TEST_F(MotoNodeClass, AnAl2AliasOnANewClusterIsAnUnsupportedAlias) {
  NodeClassResolver resolver(*ec2_, *ssm_, clock_, {.kubernetes_version = "1.33"});
  api::EC2NodeClass al2 = node_class_;
  al2.spec.ami_selector_terms = {{.alias = "al2@latest"}};
  auto status = resolver.Resolve(al2);
  ASSERT_TRUE(status.ok()) << status.status();
  EXPECT_TRUE(status->amis.empty());
  for (const api::Condition& condition : status->conditions) {
    if (condition.type != "AMIsReady") continue;
    EXPECT_EQ(condition.status, "False");
    EXPECT_EQ(condition.reason, "UnsupportedAlias");
    EXPECT_TRUE(absl::StrContains(condition.message, "1.33")) << condition.message;
  }
}

TEST_F(MotoNodeClass, NothingSelectedMakesTheClassNotReady) {
  api::EC2NodeClass empty = node_class_;
  empty.spec.subnet_selector_terms = {{.tags = {{"karpenter.sh/discovery", "nobody"}}}};
  empty.spec.ami_selector_terms = {{.alias = "bottlerocket@latest"}};  // no parameter in moto
  auto status = resolver_->Resolve(empty);
  ASSERT_TRUE(status.ok()) << status.status();
  EXPECT_TRUE(status->subnets.empty());
  EXPECT_TRUE(status->amis.empty());
  EXPECT_EQ(ConditionStatus(*status, "SubnetsReady"), "False");
  EXPECT_EQ(ConditionStatus(*status, "AMIsReady"), "False");
  EXPECT_EQ(ConditionStatus(*status, "SecurityGroupsReady"), "True");
  EXPECT_EQ(ConditionStatus(*status, "Ready"), "False");
}

TEST_F(MotoNodeClass, ThrottlingIsAnErrorToRetryNotACondition) {
  faults_.AddRule({.operation = "DescribeSubnets", .kind = FaultKind::kThrottle});
  auto status = resolver_->Resolve(node_class_);
  EXPECT_EQ(status.status().code(), absl::StatusCode::kUnavailable) << status.status();
}

TEST_F(MotoNodeClass, ResolveSelectorsOnlyReadsAndSetsNoCondition) {
  api::EC2NodeClass with_role = node_class_;
  with_role.spec.instance_profile.reset();
  with_role.spec.role = "KarpenterNodeRole-demo";
  with_role.status = {};
  auto status = resolver_->ResolveSelectors(with_role);
  ASSERT_TRUE(status.ok()) << status.status();
  EXPECT_EQ(status->subnets.size(), 3u);
  EXPECT_EQ(status->security_groups.size(), 1u);
  EXPECT_EQ(status->amis.size(), 1u);
  EXPECT_TRUE(status->conditions.empty());
  EXPECT_TRUE(status->instance_profile.empty());
}

TEST_F(MotoNodeClass, ResolveSelectorsNamesTheFieldThatMatchesNothing) {
  api::EC2NodeClass empty = node_class_;
  empty.spec.security_group_selector_terms = {{.name = "nobody"}};
  auto status = resolver_->ResolveSelectors(empty);
  EXPECT_EQ(status.status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(status.status().message(),
            "spec.securityGroupSelectorTerms: no security group matches the selector terms");
  faults_.AddRule({.operation = "DescribeSubnets", .kind = FaultKind::kThrottle});
  status = resolver_->ResolveSelectors(node_class_);
  EXPECT_EQ(status.status().code(), absl::StatusCode::kUnavailable) << status.status();
  EXPECT_TRUE(absl::StartsWith(status.status().message(), "spec.subnetSelectorTerms: "))
      << status.status();
}

}  // namespace
}  // namespace karpenter::aws
