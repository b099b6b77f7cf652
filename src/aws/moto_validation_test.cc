// The EC2NodeClass ValidationSucceeded condition against moto_server: moto answers the three
// dry runs with DryRunOperation (HTTP 412) as EC2 does, and an UnauthorizedOperation answer comes
// from FaultInjectingTransport's canned response, since moto evaluates no IAM policy.
#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "src/aws/iam_client.h"
#include "src/aws/node_class_validation.h"
#include "src/aws/test_moto_provider.h"

namespace karpenter::aws {
namespace {

class MotoValidation : public MotoProviderTest {
 protected:
  void SetUp() override {
    MotoProviderTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    // moto checks that the instance profile exists before it answers a dry run (NoSuchEntity).
    iam_client_ = NewClient(IamService());
    ASSERT_TRUE(IamClient(*iam_client_)
                    .CreateInstanceProfile("KarpenterNodeInstanceProfile", "/", {})
                    .ok());
    validator_ = std::make_unique<NodeClassValidator>(
        *ec2_, clock_,
        ClusterInfo{.name = kCluster, .endpoint = "https://demo.eks.example", .ca_bundle = "Q0E="});
  }

  // Every CreateFleet here is a dry run that launches nothing, so the fixture's per-launch check
  // (a NodePool and NodeClaim named on all it launches) does not apply; the dry runs carry
  // upstream's tags for a claim with no pool yet: cluster ownership, the keys with empty values.
  void TearDown() override {
    for (const auto& form : recorder_.Calls("CreateFleet")) {
      EXPECT_EQ(form.at("DryRun"), "true");
      auto tags = TagsFor(form, "TagSpecification", "instance");
      EXPECT_EQ(tags[absl::StrCat("kubernetes.io/cluster/", kCluster)], "owned");
      EXPECT_EQ(tags["karpenter.k8s.aws/ec2nodeclass"], "default");
      EXPECT_TRUE(tags.contains("karpenter.sh/nodepool"));
      EXPECT_TRUE(tags.contains("karpenter.sh/nodeclaim"));
    }
  }

  void Deny(const std::string& operation) {
    faults_.AddRule(
        {.operation = operation,
         .kind = FaultKind::kRespond,
         .response = {.status = 403,
                      .body = "<Response><Errors><Error><Code>UnauthorizedOperation"
                              "</Code><Message>You are not authorized to perform "
                              "this operation.</Message></Error></Errors></Response>"}});
  }

  std::unique_ptr<AwsClient> iam_client_;
  std::unique_ptr<NodeClassValidator> validator_;
};

TEST_F(MotoValidation, ThreeDryRunsSucceedAndCreateNothing) {
  auto condition = validator_->Validate(node_class_);
  ASSERT_TRUE(condition.ok()) << condition.status();
  EXPECT_EQ(condition->type, "ValidationSucceeded");
  EXPECT_EQ(condition->status, "True");
  EXPECT_EQ(condition->reason, "ValidationSucceeded");
  for (const char* action : {"CreateLaunchTemplate", "CreateFleet", "RunInstances"}) {
    const auto calls = recorder_.Calls(action);
    ASSERT_EQ(calls.size(), 1u) << action;
    EXPECT_EQ(calls[0].at("DryRun"), "true") << action;
  }
  const auto run = recorder_.Calls("RunInstances")[0];
  EXPECT_EQ(run.at("ImageId"), image_);
  EXPECT_EQ(run.at("InstanceType"), "m5.large");  // the image is x86_64
  EXPECT_EQ(run.at("IamInstanceProfile.Name"), "KarpenterNodeInstanceProfile");
  EXPECT_EQ(run.at("NetworkInterface.1.SecurityGroupId.1"), group_);
  EXPECT_EQ(TagsFor(run, "TagSpecification", "instance")["kubernetes.io/cluster/demo"], "owned");
  // Dry runs leave nothing behind.
  auto templates = ec2_->DescribeLaunchTemplates({}, {});
  ASSERT_TRUE(templates.ok()) << templates.status();
  EXPECT_TRUE(templates->empty());
  auto instances = ec2_->DescribeInstances({}, {});
  ASSERT_TRUE(instances.ok()) << instances.status();
  EXPECT_TRUE(instances->empty());
}

// The checks launch the standard image on m5.large even when an accelerated image is newer.
TEST_F(MotoValidation, TheChecksLaunchTheImageForTypesWithoutAccelerators) {
  api::EC2NodeClass accelerated = node_class_;
  accelerated.status.amis.insert(
      accelerated.status.amis.begin(),
      {.id = other_image_,
       .name = "nvidia",
       .requirements = {{.key = "kubernetes.io/arch", .operator_ = "In", .values = {"amd64"}},
                        {.key = "karpenter.k8s.aws/instance-gpu-count", .operator_ = "Exists"}}});
  auto condition = validator_->Validate(accelerated);
  ASSERT_TRUE(condition.ok()) << condition.status();
  EXPECT_EQ(condition->status, "True");
  const auto runs = recorder_.Calls("RunInstances");
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].at("ImageId"), image_);
  EXPECT_EQ(runs[0].at("InstanceType"), "m5.large");
}

// DISABLE_DRY_RUN: valid once the parts are resolved, with no call, even where EC2 would refuse.
TEST_F(MotoValidation, WithDryRunsOffNothingIsAskedButTheDependenciesStillCount) {
  for (const char* operation : {"CreateLaunchTemplate", "CreateFleet", "RunInstances"}) {
    Deny(operation);
  }
  NodeClassValidator validator(*ec2_, clock_, ClusterInfo{.name = kCluster},
                               NodeClassValidatorOptions{.dry_run = false});
  auto condition = validator.Validate(node_class_);
  ASSERT_TRUE(condition.ok()) << condition.status();
  EXPECT_EQ(condition->status, "True");
  EXPECT_EQ(condition->reason, "ValidationSucceeded");
  EXPECT_EQ(validator.dry_runs(), 0);
  for (const char* action : {"CreateLaunchTemplate", "CreateFleet", "RunInstances"}) {
    EXPECT_TRUE(recorder_.Calls(action).empty()) << action;
  }
  api::EC2NodeClass failed = node_class_;
  for (api::Condition& c : failed.status.conditions) {
    if (c.type == "SubnetsReady") c.status = "False";
  }
  condition = validator.Validate(failed);
  ASSERT_TRUE(condition.ok()) << condition.status();
  EXPECT_EQ(condition->status, "False");
  EXPECT_EQ(condition->reason, "DependenciesNotReady");
}

TEST_F(MotoValidation, TheOutcomeIsCachedForThirtyMinutes) {
  ASSERT_TRUE(validator_->Validate(node_class_).ok());
  ASSERT_TRUE(validator_->Validate(node_class_).ok());
  EXPECT_EQ(validator_->dry_runs(), 1);
  EXPECT_EQ(recorder_.Calls("RunInstances").size(), 1u);
  clock_.Advance(absl::Minutes(29));
  ASSERT_TRUE(validator_->Validate(node_class_).ok());
  EXPECT_EQ(validator_->dry_runs(), 1);
  clock_.Advance(absl::Minutes(2));
  ASSERT_TRUE(validator_->Validate(node_class_).ok());
  EXPECT_EQ(validator_->dry_runs(), 2);
  // A change the outcome depends on asks again at once.
  api::EC2NodeClass changed = node_class_;
  changed.status.security_groups.push_back({.id = "sg-other", .name = "other"});
  ASSERT_TRUE(validator_->Validate(changed).ok());
  EXPECT_EQ(validator_->dry_runs(), 3);
}

TEST_F(MotoValidation, EachDeniedCallHasUpstreamsReason) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"CreateLaunchTemplate", "CreateLaunchTemplateAuthCheckFailed"},
      {"CreateFleet", "CreateFleetAuthCheckFailed"},
      {"RunInstances", "RunInstancesAuthCheckFailed"}};
  for (const auto& [operation, reason] : cases) {
    faults_.ClearRules();
    Deny(operation);
    // A fresh validator: the cache would answer with the last outcome.
    NodeClassValidator validator(*ec2_, clock_, ClusterInfo{.name = kCluster});
    auto condition = validator.Validate(node_class_);
    ASSERT_TRUE(condition.ok()) << condition.status();
    EXPECT_EQ(condition->status, "False") << operation;
    EXPECT_EQ(condition->reason, reason);
    EXPECT_TRUE(absl::StartsWith(condition->message,
                                 "Controller isn't authorized to call ec2:" + operation + ": "))
        << condition->message;
    EXPECT_TRUE(absl::StrContains(condition->message, "UnauthorizedOperation"));
  }
}

// User data over EC2's 16 KiB (a long spec.userData) can never launch: a named reason, cached.
TEST_F(MotoValidation, UserDataEc2RefusesAsTooLargeIsNamed) {
  faults_.AddRule(
      {.operation = "CreateLaunchTemplate",
       .kind = FaultKind::kRespond,
       .times = 1,
       .response = {.status = 400,
                    .body = "<Response><Errors><Error><Code>InvalidUserData.Malformed</Code>"
                            "<Message>User data is limited to 16384 bytes</Message></Error>"
                            "</Errors></Response>"}});
  auto condition = validator_->Validate(node_class_);
  ASSERT_TRUE(condition.ok()) << condition.status();
  EXPECT_EQ(condition->status, "False");
  EXPECT_EQ(condition->reason, "UserDataSizeLimitExceeded");
  EXPECT_TRUE(absl::StrContains(condition->message, "16384")) << condition->message;
  EXPECT_TRUE(recorder_.Calls("CreateFleet").empty());
  EXPECT_EQ(validator_->Validate(node_class_)->reason, "UserDataSizeLimitExceeded");
  EXPECT_EQ(validator_->dry_runs(), 1);
}

TEST_F(MotoValidation, ADeniedCallIsCachedToo) {
  Deny("CreateFleet");
  ASSERT_EQ(validator_->Validate(node_class_)->status, "False");
  faults_.ClearRules();
  EXPECT_EQ(validator_->Validate(node_class_)->status, "False");
  EXPECT_EQ(validator_->dry_runs(), 1);
}

TEST_F(MotoValidation, ThrottlingIsAnErrorToRetryAndNotCached) {
  faults_.AddRule({.operation = "RunInstances", .kind = FaultKind::kThrottle});
  auto condition = validator_->Validate(node_class_);
  EXPECT_EQ(condition.status().code(), absl::StatusCode::kUnavailable) << condition.status();
  faults_.ClearRules();
  condition = validator_->Validate(node_class_);
  ASSERT_TRUE(condition.ok()) << condition.status();
  EXPECT_EQ(condition->status, "True");
}

TEST_F(MotoValidation, UnresolvedPartsWaitWithoutCalling) {
  api::EC2NodeClass failed = node_class_;
  for (api::Condition& condition : failed.status.conditions) {
    if (condition.type == "SubnetsReady") condition.status = "False";
  }
  auto condition = validator_->Validate(failed);
  ASSERT_TRUE(condition.ok());
  EXPECT_EQ(condition->status, "False");
  EXPECT_EQ(condition->reason, "DependenciesNotReady");
  api::EC2NodeClass pending = node_class_;
  pending.status.conditions.clear();
  condition = validator_->Validate(pending);
  ASSERT_TRUE(condition.ok());
  EXPECT_EQ(condition->status, "Unknown");
  EXPECT_EQ(condition->reason, "DependenciesNotReady");
  EXPECT_EQ(validator_->dry_runs(), 0);
  EXPECT_TRUE(recorder_.Calls("RunInstances").empty());
}

// EC2's answer for a profile IAM does not know (moto says NoSuchEntity instead).
void ProfileNotFound(FaultInjectingTransport& faults) {
  faults.AddRule(
      {.operation = "RunInstances",
       .kind = FaultKind::kRespond,
       .response = {.status = 400,
                    .body = "<Response><Errors><Error><Code>InvalidParameterValue</Code>"
                            "<Message>Value (KarpenterNodeInstanceProfile) for parameter "
                            "iamInstanceProfile.name is invalid. Invalid IAM Instance "
                            "Profile name</Message></Error></Errors></Response>"}});
}

TEST_F(MotoValidation, AMissingSpecInstanceProfileIsNamedAndNotCached) {
  ProfileNotFound(faults_);
  auto condition = validator_->Validate(node_class_);
  ASSERT_TRUE(condition.ok()) << condition.status();
  EXPECT_EQ(condition->status, "False");
  EXPECT_EQ(condition->reason, "InstanceProfileNotFound");
  EXPECT_EQ(condition->message, "Instance profile \"KarpenterNodeInstanceProfile\" not found");
  faults_.ClearRules();
  condition = validator_->Validate(node_class_);
  ASSERT_TRUE(condition.ok()) << condition.status();
  EXPECT_EQ(condition->status, "True");
}

TEST_F(MotoValidation, AMissingProfileMadeForTheRoleIsRetried) {
  ProfileNotFound(faults_);
  api::EC2NodeClass with_role = node_class_;
  with_role.spec.instance_profile.reset();
  with_role.spec.role = "KarpenterNodeRole-demo";
  EXPECT_EQ(validator_->Validate(with_role).status().code(), absl::StatusCode::kUnavailable);
}

TEST_F(MotoValidation, ReadyRestsOnValidation) {
  NodeClassResolver resolver(*ec2_, *ssm_, clock_, NodeClassResolverOptions{}, nullptr,
                             validator_.get());
  auto status = resolver.Resolve(node_class_);
  ASSERT_TRUE(status.ok()) << status.status();
  EXPECT_TRUE(IsReady(api::EC2NodeClass{.status = *status}));

  Deny("RunInstances");
  NodeClassValidator denied(*ec2_, clock_, ClusterInfo{.name = kCluster});
  NodeClassResolver refused(*ec2_, *ssm_, clock_, NodeClassResolverOptions{}, nullptr, &denied);
  status = refused.Resolve(node_class_);
  ASSERT_TRUE(status.ok()) << status.status();
  EXPECT_FALSE(IsReady(api::EC2NodeClass{.status = *status}));
  const api::Condition& ready = status->conditions.back();
  EXPECT_EQ(ready.type, "Ready");
  EXPECT_EQ(ready.message, "ValidationSucceeded=False");
}

}  // namespace
}  // namespace karpenter::aws
