// Integration tests against moto_server: the EC2, STS, SSM and SQS clients and the web-identity
// credential source, over the real libcurl transport and SigV4, on 127.0.0.1 only.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "src/aws/credential_chain.h"
#include "src/aws/ec2_client.h"
#include "src/aws/errors.h"
#include "src/aws/sqs_client.h"
#include "src/aws/ssm_client.h"
#include "src/aws/sts_client.h"
#include "src/aws/test_moto_server.h"

namespace karpenter::aws {
namespace {

using MotoEc2 = MotoTest;
using MotoSts = MotoTest;
using MotoSsm = MotoTest;
using MotoSqs = MotoTest;

// Runs one raw EC2 query call (for seeding moto with what the clients only read) and returns the
// text of `field` anywhere one level under the root's first item, or of the root's child.
std::string Seed(AwsClient& ec2, QueryRequest request,
                 std::initializer_list<std::string_view> path) {
  auto doc = ec2.CallQuery(request);
  EXPECT_TRUE(doc.ok()) << doc.status();
  return doc.ok() ? doc->Root().Path(path).Text() : "";
}

TEST_F(MotoEc2, DescribeInstanceTypesAndOfferings) {
  AwsClient client = Client(Ec2Service());
  Ec2Client ec2(client, random_);
  auto types = ec2.DescribeInstanceTypes();
  ASSERT_TRUE(types.ok()) << types.status();
  EXPECT_GT(types->size(), 500u);
  const auto m5 = std::find_if(types->begin(), types->end(),
                               [](const InstanceTypeInfo& t) { return t.name == "m5.large"; });
  ASSERT_NE(m5, types->end());
  EXPECT_EQ(m5->vcpus, 2);
  EXPECT_EQ(m5->memory_mib, 8192);
  EXPECT_EQ(m5->architectures, std::vector<std::string>{"x86_64"});
  EXPECT_GT(m5->max_network_interfaces, 0);

  auto arm = ec2.DescribeInstanceTypes(
      {{.name = "processor-info.supported-architecture", .values = {"arm64"}}});
  ASSERT_TRUE(arm.ok()) << arm.status();
  EXPECT_FALSE(arm->empty());
  EXPECT_LT(arm->size(), types->size());
  for (const InstanceTypeInfo& t : *arm)
    EXPECT_EQ(t.architectures, std::vector<std::string>{"arm64"}) << t.name;

  auto offerings = ec2.DescribeInstanceTypeOfferings();
  ASSERT_TRUE(offerings.ok()) << offerings.status();
  EXPECT_GT(offerings->size(), 1000u);
  std::set<std::string> zones;
  for (const InstanceTypeOffering& o : *offerings) zones.insert(o.location);
  EXPECT_TRUE(zones.contains("us-west-2a"));
  for (const std::string& zone : zones) EXPECT_TRUE(absl::StartsWith(zone, "us-west-2")) << zone;
}

TEST_F(MotoEc2, DescribeSubnetsAndSecurityGroupsByDiscoveryTag) {
  AwsClient client = Client(Ec2Service());
  const std::string vpc = Seed(
      client, QueryRequest("CreateVpc", Ec2Client::kApiVersion).Set("CidrBlock", "10.1.0.0/16"),
      {"vpc", "vpcId"});
  ASSERT_FALSE(vpc.empty());
  std::vector<std::string> subnets;
  for (const auto& [cidr, zone] :
       {std::pair{"10.1.1.0/24", "us-west-2a"}, std::pair{"10.1.2.0/24", "us-west-2b"}}) {
    subnets.push_back(Seed(client,
                           QueryRequest("CreateSubnet", Ec2Client::kApiVersion)
                               .Set("VpcId", vpc)
                               .Set("CidrBlock", cidr)
                               .Set("AvailabilityZone", zone),
                           {"subnet", "subnetId"}));
  }
  const std::string group = Seed(client,
                                 QueryRequest("CreateSecurityGroup", Ec2Client::kApiVersion)
                                     .Set("GroupName", "nodes")
                                     .Set("GroupDescription", "karpenter nodes")
                                     .Set("VpcId", vpc),
                                 {"groupId"});
  QueryRequest tag("CreateTags", Ec2Client::kApiVersion);
  tag.SetList("ResourceId", {subnets[0], subnets[1], group})
      .Set("Tag.1.Key", "karpenter.sh/discovery")
      .Set("Tag.1.Value", "demo cluster");
  ASSERT_TRUE(client.CallQuery(tag).ok());

  Ec2Client ec2(client, random_);
  const std::vector<Filter> discovery = {
      {.name = "tag:karpenter.sh/discovery", .values = {"demo cluster"}}};
  auto found = ec2.DescribeSubnets(discovery);
  ASSERT_TRUE(found.ok()) << found.status();
  ASSERT_EQ(found->size(), 2u);
  std::set<std::string> ids;
  for (const Subnet& s : *found) {
    ids.insert(s.id);
    EXPECT_EQ(s.vpc_id, vpc);
    EXPECT_GT(s.available_ips, 200);
    EXPECT_EQ(s.tags.at("karpenter.sh/discovery"), "demo cluster");
  }
  EXPECT_EQ(ids, std::set<std::string>(subnets.begin(), subnets.end()));
  auto groups = ec2.DescribeSecurityGroups(discovery);
  ASSERT_TRUE(groups.ok()) << groups.status();
  ASSERT_EQ(groups->size(), 1u);
  EXPECT_EQ((*groups)[0].id, group);
  EXPECT_EQ((*groups)[0].name, "nodes");
  auto none = ec2.DescribeSubnets({{.name = "tag:karpenter.sh/discovery", .values = {"other"}}});
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

TEST_F(MotoEc2, DescribeImagesByOwnerNameAndId) {
  AwsClient client = Client(Ec2Service());
  Ec2Client ec2(client, random_);
  auto images = ec2.DescribeImages(
      {.owners = {"amazon"}, .filters = {{.name = "name", .values = {"amzn2-ami-*"}}}});
  ASSERT_TRUE(images.ok()) << images.status();
  ASSERT_FALSE(images->empty());
  for (const Image& image : *images) EXPECT_TRUE(absl::StartsWith(image.name, "amzn2-ami-"));
  auto by_id = ec2.DescribeImages({.image_ids = {(*images)[0].id}});
  ASSERT_TRUE(by_id.ok()) << by_id.status();
  ASSERT_EQ(by_id->size(), 1u);
  EXPECT_EQ((*by_id)[0].name, (*images)[0].name);
  EXPECT_FALSE((*by_id)[0].architecture.empty());
}

TEST_F(MotoEc2, DescribeInstancesFollowsNextToken) {
  AwsClient client = Client(Ec2Service());
  Ec2Client ec2(client, random_);
  auto images = ec2.DescribeImages({.owners = {"amazon"}});
  ASSERT_TRUE(images.ok() && !images->empty());
  for (int i = 0; i < 7; ++i) {
    ASSERT_TRUE(client
                    .CallQuery(QueryRequest("RunInstances", Ec2Client::kApiVersion)
                                   .Set("ImageId", (*images)[0].id)
                                   .Set("InstanceType", "m5.large")
                                   .Set("MinCount", "1")
                                   .Set("MaxCount", "1"))
                    .ok());
  }
  const int pages_before = ec2.pages();
  auto instances = ec2.DescribeInstances({}, {}, /*page_size=*/3);
  ASSERT_TRUE(instances.ok()) << instances.status();
  EXPECT_EQ(instances->size(), 7u);
  EXPECT_GE(ec2.pages() - pages_before, 3);
  std::set<std::string> ids;
  for (const Instance& instance : *instances) ids.insert(instance.id);
  EXPECT_EQ(ids.size(), 7u);
  auto missing = ec2.DescribeInstances({"i-0123456789abcdef0"}, {});
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound) << missing.status();
  EXPECT_EQ(AwsErrorCode(missing.status()), "InvalidInstanceID.NotFound");
}

TEST_F(MotoSts, GetCallerIdentity) {
  AwsClient client = Client(StsService());
  auto identity = StsClient(client).GetCallerIdentity();
  ASSERT_TRUE(identity.ok()) << identity.status();
  EXPECT_EQ(identity->account, "123456789012");
  EXPECT_FALSE(identity->arn.empty());
}

TEST_F(MotoSts, WebIdentityCredentialsComeFromSts) {
  const std::string token_file =
      absl::StrCat(testing::TempDir(), "/", getpid(), "_moto_web_identity_token");
  std::ofstream(token_file) << "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJrYXJwZW50ZXIifQ.c2ln";
  MapEnvironment env(std::map<std::string, std::string, std::less<>>{
      {"HOME", "/nonexistent"},
      {"AWS_EC2_METADATA_DISABLED", "true"},
      {"AWS_REGION", "us-west-2"},
      {"AWS_ENDPOINT_URL", moto_->url()},
      {"AWS_ROLE_ARN", "arn:aws:iam::123456789012:role/KarpenterController"},
      {"AWS_WEB_IDENTITY_TOKEN_FILE", token_file}});
  CredentialChain chain(*transport_, env, clock_);
  auto credentials = chain.Get();
  ASSERT_TRUE(credentials.ok()) << credentials.status();
  EXPECT_EQ(credentials->source, "web-identity");
  EXPECT_FALSE(credentials->access_key_id.empty());
  EXPECT_FALSE(credentials->session_token.empty());
  ASSERT_TRUE(credentials->expiration.has_value());

  auto endpoint = ResolveEndpoint(env, StsService(), "us-west-2");
  ASSERT_TRUE(endpoint.ok());
  AwsClient client(AwsContext{*transport_, chain, clock_, random_, quota_}, *endpoint);
  auto identity = StsClient(client).GetCallerIdentity();
  std::remove(token_file.c_str());
  ASSERT_TRUE(identity.ok()) << identity.status();
  EXPECT_TRUE(absl::StrContains(identity->arn, "assumed-role/KarpenterController"))
      << identity->arn;
}

TEST_F(MotoSsm, GetParameter) {
  AwsClient client = Client(SsmService());
  SsmClient ssm(client);
  auto parameter =
      ssm.GetParameter("/aws/service/ami-amazon-linux-latest/amzn2-ami-hvm-x86_64-gp2");
  ASSERT_TRUE(parameter.ok()) << parameter.status();
  EXPECT_TRUE(absl::StartsWith(parameter->value, "ami-")) << parameter->value;
  ASSERT_TRUE(client
                  .CallJson("AmazonSSM.PutParameter",
                            {{"Name", "/karpenter/test"}, {"Value", "v=1 & é"}, {"Type", "String"}},
                            "application/x-amz-json-1.1")
                  .ok());
  auto own = ssm.GetParameter("/karpenter/test");
  ASSERT_TRUE(own.ok()) << own.status();
  EXPECT_EQ(own->value, "v=1 & é");
  EXPECT_EQ(own->version, 1);
  auto missing = ssm.GetParameter("/karpenter/missing");
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound) << missing.status();
  EXPECT_EQ(AwsErrorCode(missing.status()), "ParameterNotFound");
}

TEST_F(MotoSqs, CreateSendReceiveDelete) {
  AwsClient client = Client(SqsService());
  SqsClient sqs(client);
  auto url = sqs.CreateQueue("karpenter-interruption");
  ASSERT_TRUE(url.ok()) << url.status();
  EXPECT_EQ(sqs.GetQueueUrl("karpenter-interruption").value_or(""), *url);
  const std::vector<std::string> bodies = {
      R"({"detail-type":"EC2 Spot Instance Interruption Warning"})",
      "plain text with spaces & symbols +=%", "é日本"};
  for (const std::string& body : bodies) ASSERT_TRUE(sqs.SendMessage(*url, body).ok());
  std::multiset<std::string> received;
  for (int round = 0; round < 5 && received.size() < bodies.size(); ++round) {
    auto messages = sqs.ReceiveMessage(*url, 10, 1);
    ASSERT_TRUE(messages.ok()) << messages.status();
    for (const SqsMessage& message : *messages) {
      received.insert(message.body);
      ASSERT_TRUE(sqs.DeleteMessage(*url, message.receipt_handle).ok());
    }
  }
  EXPECT_EQ(received, std::multiset<std::string>(bodies.begin(), bodies.end()));
  auto empty = sqs.ReceiveMessage(*url, 10, 0);
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_TRUE(empty->empty());
  auto missing = sqs.GetQueueUrl("no-such-queue");
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound) << missing.status();
}

}  // namespace
}  // namespace karpenter::aws
