// InstanceProfiles against moto_server's IAM: an EC2NodeClass `role` becomes an instance profile
// of the provider's own (name, path, tags, role), kept while the role stays, replaced when it
// changes, and a role IAM does not know is an error that leaves no profile behind; garbage
// collection deletes this cluster's profiles nothing names, after their hour of protection.
#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "src/aws/errors.h"
#include "src/aws/iam_client.h"
#include "src/aws/instance_profiles.h"
#include "src/aws/test_moto_server.h"

namespace karpenter::aws {
namespace {

// Draws 0.1, 0.2, ...: every new profile gets a new name.
class CountingRandom final : public Random {
 public:
  double Uniform01() override { return (next_ = next_ >= 0.9 ? 0.05 : next_ + 0.1); }

 private:
  double next_ = 0;
};

class MotoInstanceProfiles : public MotoTest {
 protected:
  void SetUp() override {
    MotoTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    auto endpoint = ResolveEndpoint(*env_, IamService(), "us-west-2");
    ASSERT_TRUE(endpoint.ok()) << endpoint.status();
    client_ = std::make_unique<AwsClient>(
        AwsContext{*transport_, credentials_, clock_, random_, quota_}, *endpoint);
    iam_ = std::make_unique<IamClient>(*client_);
    profiles_ = std::make_unique<InstanceProfiles>(
        *iam_, clock_, counting_,
        InstanceProfileScope{.cluster_name = "demo", .region = "us-west-2"});
    MakeRole("KarpenterNodeRole-demo");
    MakeRole("OtherNodeRole");
    node_class_.metadata.name = "default";
    node_class_.metadata.uid = "3f1c2a9e-uid";
    node_class_.spec.role = "KarpenterNodeRole-demo";
    node_class_.spec.tags = {{"team", "platform"}};
  }

  void MakeRole(const std::string& name) {
    ASSERT_TRUE(client_
                    ->CallQuery(QueryRequest("CreateRole", IamClient::kApiVersion)
                                    .Set("RoleName", name)
                                    .Set("AssumeRolePolicyDocument",
                                         R"({"Version":"2012-10-17","Statement":[]})"))
                    .ok());
  }

  CountingRandom counting_;
  std::unique_ptr<AwsClient> client_;
  std::unique_ptr<IamClient> iam_;
  std::unique_ptr<InstanceProfiles> profiles_;
  api::EC2NodeClass node_class_;
};

TEST_F(MotoInstanceProfiles, ARoleGetsAProfileOfTheProvidersOwn) {
  absl::StatusOr<std::string> name = profiles_->Reconcile(node_class_);
  ASSERT_TRUE(name.ok()) << name.status();
  EXPECT_TRUE(name->starts_with("demo_")) << *name;
  absl::StatusOr<InstanceProfile> made = iam_->GetInstanceProfile(*name);
  ASSERT_TRUE(made.ok()) << made.status();
  EXPECT_EQ(made->roles, std::vector<std::string>{"KarpenterNodeRole-demo"});
  EXPECT_EQ(made->path, "/karpenter/us-west-2/demo/3f1c2a9e-uid/");
  EXPECT_EQ(made->tags.at("kubernetes.io/cluster/demo"), "owned");
  EXPECT_EQ(made->tags.at("eks:eks-cluster-name"), "demo");
  EXPECT_EQ(made->tags.at("karpenter.k8s.aws/ec2nodeclass"), "default");
  EXPECT_EQ(made->tags.at("topology.kubernetes.io/region"), "us-west-2");
  EXPECT_EQ(made->tags.at("team"), "platform");

  // Kept while the role stays: once the status has it, and when the status write was lost.
  node_class_.status.instance_profile = *name;
  EXPECT_EQ(profiles_->Reconcile(node_class_).value_or(""), *name);
  node_class_.status.instance_profile.clear();
  EXPECT_EQ(profiles_->Reconcile(node_class_).value_or(""), *name);
}

TEST_F(MotoInstanceProfiles, AChangedRoleGetsANewProfile) {
  const std::string first = profiles_->Reconcile(node_class_).value_or("");
  ASSERT_FALSE(first.empty());
  node_class_.status.instance_profile = first;
  node_class_.spec.role = "OtherNodeRole";
  absl::StatusOr<std::string> second = profiles_->Reconcile(node_class_);
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_NE(*second, first);
  EXPECT_EQ(iam_->GetInstanceProfile(*second)->roles, std::vector<std::string>{"OtherNodeRole"});
  // The old one keeps its role until garbage collection: instances may still use it.
  EXPECT_EQ(iam_->GetInstanceProfile(first)->roles,
            std::vector<std::string>{"KarpenterNodeRole-demo"});
}

TEST_F(MotoInstanceProfiles, AGoingClassTakesEveryProfileMadeForIt) {
  const std::string first = profiles_->Reconcile(node_class_).value_or("");
  node_class_.status.instance_profile = first;
  node_class_.spec.role = "OtherNodeRole";
  const std::string second = profiles_->Reconcile(node_class_).value_or("");
  ASSERT_FALSE(first.empty() || second.empty());
  // Another class's profile is not touched.
  api::EC2NodeClass other = node_class_;
  other.metadata.uid = "other-uid";
  const std::string theirs = profiles_->Reconcile(other).value_or("");
  ASSERT_FALSE(theirs.empty());

  ASSERT_TRUE(profiles_->DeleteAll(node_class_).ok());
  EXPECT_EQ(iam_->GetInstanceProfile(first).status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(iam_->GetInstanceProfile(second).status().code(), absl::StatusCode::kNotFound);
  EXPECT_TRUE(iam_->GetInstanceProfile(theirs).ok());
  EXPECT_TRUE(profiles_->DeleteAll(node_class_).ok());
}

TEST_F(MotoInstanceProfiles, AChangedRolesProfileIsCollectedOnceNothingNamesIt) {
  const std::string first = profiles_->Reconcile(node_class_).value_or("");
  ASSERT_FALSE(first.empty());
  node_class_.status.instance_profile = first;
  node_class_.spec.role = "OtherNodeRole";
  const std::string second = profiles_->Reconcile(node_class_).value_or("");
  ASSERT_FALSE(second.empty());
  node_class_.status.instance_profile = second;

  // Within the hour after the class moved on, the old profile is protected.
  auto collected = profiles_->CollectGarbage({second});
  ASSERT_TRUE(collected.ok()) << collected.status();
  EXPECT_TRUE(collected->empty());
  EXPECT_TRUE(iam_->GetInstanceProfile(first).ok());
  clock_.Advance(kProtectedProfileTtl + absl::Seconds(1));
  // A NodeClaim launched with it still names it.
  collected = profiles_->CollectGarbage({second, first});
  ASSERT_TRUE(collected.ok()) << collected.status();
  EXPECT_TRUE(collected->empty());
  // Then nothing does: it goes, roles detached first; the class's current profile stays.
  collected = profiles_->CollectGarbage({second});
  ASSERT_TRUE(collected.ok()) << collected.status();
  EXPECT_EQ(*collected, std::vector<std::string>{first});
  EXPECT_EQ(iam_->GetInstanceProfile(first).status().code(), absl::StatusCode::kNotFound);
  EXPECT_TRUE(iam_->GetInstanceProfile(second).ok());
}

TEST_F(MotoInstanceProfiles, CollectionNeverTouchesOtherClustersOrHandMadeProfiles) {
  InstanceProfiles other_cluster(
      *iam_, clock_, counting_,
      InstanceProfileScope{.cluster_name = "other", .region = "us-west-2"});
  const std::string theirs = other_cluster.Reconcile(node_class_).value_or("");
  ASSERT_FALSE(theirs.empty());
  ASSERT_TRUE(iam_->CreateInstanceProfile("HandMade", "/", {}).ok());
  // Made by an earlier process (nothing protects it here) and named by nothing.
  const std::string ours = profiles_->NewProfileName(node_class_);
  ASSERT_TRUE(iam_->CreateInstanceProfile(
                      ours, InstanceProfiles::ProfilePath({"demo", "us-west-2"}, "gone-uid"), {})
                  .ok());
  auto collected = profiles_->CollectGarbage({});
  ASSERT_TRUE(collected.ok()) << collected.status();
  EXPECT_EQ(*collected, std::vector<std::string>{ours});
  EXPECT_TRUE(iam_->GetInstanceProfile(theirs).ok());
  EXPECT_TRUE(iam_->GetInstanceProfile("HandMade").ok());
}

TEST_F(MotoInstanceProfiles, AnUnknownRoleIsNotFoundAndLeavesNoProfile) {
  node_class_.spec.role = "NoSuchRole";
  absl::StatusOr<std::string> name = profiles_->Reconcile(node_class_);
  ASSERT_FALSE(name.ok());
  EXPECT_EQ(name.status().code(), absl::StatusCode::kNotFound) << name.status();
  EXPECT_TRUE(absl::StrContains(name.status().message(), "NoSuchRole")) << name.status();
  // The profile created before the role was refused was removed again. Its name was the one a
  // fresh provider with the same random draws gives first.
  CountingRandom replay;
  InstanceProfiles fresh(*iam_, clock_, replay,
                         InstanceProfileScope{.cluster_name = "demo", .region = "us-west-2"});
  const std::string attempted = fresh.NewProfileName(node_class_);
  EXPECT_EQ(iam_->GetInstanceProfile(attempted).status().code(), absl::StatusCode::kNotFound);
  // Asked again within the minute, IAM is not asked.
  const int attempts = client_->attempts();
  EXPECT_EQ(profiles_->Reconcile(node_class_).status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(client_->attempts(), attempts);
}

TEST_F(MotoInstanceProfiles, AnInstanceProfileInTheSpecIsUsedAsIs) {
  node_class_.spec.role.reset();
  node_class_.spec.instance_profile = "KarpenterNodeInstanceProfile";
  const int attempts = client_->attempts();
  EXPECT_EQ(profiles_->Reconcile(node_class_).value_or(""), "KarpenterNodeInstanceProfile");
  EXPECT_EQ(client_->attempts(), attempts);
}

}  // namespace
}  // namespace karpenter::aws
