// Integration tests of IamClient's instance-profile calls against moto_server.
#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "src/aws/errors.h"
#include "src/aws/iam_client.h"
#include "src/aws/test_moto_server.h"

namespace karpenter::aws {
namespace {

using MotoIam = MotoTest;

TEST_F(MotoIam, InstanceProfileLifecycle) {
  AwsClient client = Client(IamService());
  ASSERT_TRUE(client
                  .CallQuery(QueryRequest("CreateRole", IamClient::kApiVersion)
                                 .Set("RoleName", "KarpenterNodeRole-demo")
                                 .Set("AssumeRolePolicyDocument",
                                      R"({"Version":"2012-10-17","Statement":[]})"))
                  .ok());
  IamClient iam(client);
  const std::map<std::string, std::string> tags = {{"karpenter.k8s.aws/ec2nodeclass", "default"},
                                                   {"eks:eks-cluster-name", "demo"}};
  auto created = iam.CreateInstanceProfile("demo_1234567890", "/karpenter/us-west-2/demo/", tags);
  ASSERT_TRUE(created.ok()) << created.status();
  EXPECT_EQ(created->path, "/karpenter/us-west-2/demo/");
  EXPECT_TRUE(absl::StrContains(created->arn, ":instance-profile/karpenter/us-west-2/demo/"))
      << created->arn;
  auto again = iam.CreateInstanceProfile("demo_1234567890", "/", {});
  EXPECT_EQ(again.status().code(), absl::StatusCode::kAlreadyExists) << again.status();

  ASSERT_TRUE(iam.AddRoleToInstanceProfile("demo_1234567890", "KarpenterNodeRole-demo").ok());
  ASSERT_TRUE(
      iam.TagInstanceProfile("demo_1234567890", {{"karpenter.sh/managed-by", "demo"}}).ok());
  auto got = iam.GetInstanceProfile("demo_1234567890");
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got->roles, std::vector<std::string>{"KarpenterNodeRole-demo"});
  EXPECT_EQ(got->tags.at("karpenter.sh/managed-by"), "demo");
  EXPECT_EQ(got->tags.at("eks:eks-cluster-name"), "demo");

  ASSERT_TRUE(iam.RemoveRoleFromInstanceProfile("demo_1234567890", "KarpenterNodeRole-demo").ok());
  ASSERT_TRUE(iam.DeleteInstanceProfile("demo_1234567890").ok());
  auto gone = iam.GetInstanceProfile("demo_1234567890");
  EXPECT_EQ(gone.status().code(), absl::StatusCode::kNotFound) << gone.status();
  EXPECT_EQ(AwsErrorCode(gone.status()), "NoSuchEntity");
}

}  // namespace
}  // namespace karpenter::aws
