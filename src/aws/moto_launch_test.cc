// Integration tests of Ec2Client's launch path against moto_server: launch templates, CreateFleet,
// tags, termination and spot prices.
#include <set>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "src/aws/ec2_client.h"
#include "src/aws/errors.h"
#include "src/aws/test_moto_server.h"

namespace karpenter::aws {
namespace {

using MotoLaunch = MotoTest;

const Tags kOwnership = {{"karpenter.sh/nodepool", "default"},
                         {"karpenter.sh/nodeclaim", "default-abcde"},
                         {"karpenter.k8s.aws/ec2nodeclass", "default"},
                         {"eks:eks-cluster-name", "demo"},
                         {"kubernetes.io/cluster/demo", "owned"}};

TEST_F(MotoLaunch, LaunchTemplateFleetTagsAndTerminate) {
  AwsClient client = Client(Ec2Service());
  Ec2Client ec2(client, random_);
  const std::string subnet = MakeVpcWithSubnet(client);
  ASSERT_FALSE(subnet.empty());
  auto images = ec2.DescribeImages({.owners = {"amazon"}});
  ASSERT_TRUE(images.ok() && !images->empty()) << images.status();

  auto created = ec2.CreateLaunchTemplate({.name = "karpenter.k8s.aws/1234567890",
                                           .image_id = (*images)[0].id,
                                           .user_data = "#!/bin/bash\necho hello\n",
                                           .block_devices = {{.volume_size_gib = 40}},
                                           .metadata_hop_limit = 2,
                                           .tags = kOwnership});
  ASSERT_TRUE(created.ok()) << created.status();
  EXPECT_EQ(created->name, "karpenter.k8s.aws/1234567890");
  // What EC2 stored: IMDSv2 required and an encrypted root volume.
  auto version = client.CallQuery(QueryRequest("DescribeLaunchTemplateVersions", "2016-11-15")
                                      .Set("LaunchTemplateId", created->id));
  ASSERT_TRUE(version.ok()) << version.status();
  const XmlNode data =
      version->Root().Path({"launchTemplateVersionSet", "item", "launchTemplateData"});
  EXPECT_EQ(data.Path({"metadataOptions", "httpTokens"}).Text(), "required");
  EXPECT_EQ(data.Path({"blockDeviceMappingSet", "item", "ebs", "encrypted"}).Text(), "true");
  auto listed = ec2.DescribeLaunchTemplates({"karpenter.k8s.aws/1234567890"}, {});
  ASSERT_TRUE(listed.ok()) << listed.status();
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ((*listed)[0].id, created->id);

  auto fleet = ec2.CreateFleet({.launch_template_name = created->name,
                                .overrides = {{.instance_type = "m5.large", .subnet_id = subnet},
                                              {.instance_type = "c5.large", .subnet_id = subnet}},
                                .spot = true,
                                .tags = kOwnership});
  ASSERT_TRUE(fleet.ok()) << fleet.status();
  ASSERT_EQ(fleet->instances.size(), 1u);
  EXPECT_TRUE(fleet->errors.empty());
  const FleetInstance& launched = fleet->instances[0];
  EXPECT_EQ(launched.instance_type, "m5.large");
  EXPECT_TRUE(launched.spot);

  auto owned =
      ec2.DescribeInstances({}, {{.name = "tag:karpenter.sh/nodepool", .values = {"default"}}});
  ASSERT_TRUE(owned.ok()) << owned.status();
  ASSERT_EQ(owned->size(), 1u);
  EXPECT_EQ((*owned)[0].id, launched.id);
  EXPECT_EQ((*owned)[0].zone, "us-west-2b");
  EXPECT_EQ((*owned)[0].lifecycle, "spot");
  for (const auto& [key, value] : kOwnership) EXPECT_EQ((*owned)[0].tags.at(key), value) << key;

  ASSERT_TRUE(ec2.CreateTags({launched.id}, {{"karpenter.sh/registered", "true"}}).ok());
  auto tagged = ec2.DescribeInstances({launched.id}, {});
  ASSERT_TRUE(tagged.ok()) << tagged.status();
  EXPECT_EQ((*tagged)[0].tags.at("karpenter.sh/registered"), "true");

  auto terminated = ec2.TerminateInstances({launched.id});
  ASSERT_TRUE(terminated.ok()) << terminated.status();
  EXPECT_EQ(terminated->at(launched.id), "shutting-down");

  ASSERT_TRUE(ec2.DeleteLaunchTemplate(created->name).ok());
  auto gone = ec2.DescribeLaunchTemplates({created->name}, {});
  EXPECT_FALSE(gone.ok() && !gone->empty());
}

TEST_F(MotoLaunch, TooManyOverridesAreRefusedBeforeTheCall) {
  AwsClient client = Client(Ec2Service());
  Ec2Client ec2(client, random_);
  FleetRequest request{.launch_template_name = "lt"};
  request.overrides.resize(Ec2Client::kMaxFleetOverrides + 1, {.instance_type = "m5.large"});
  EXPECT_EQ(ec2.CreateFleet(request).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(client.attempts(), 0);
}

TEST_F(MotoLaunch, SpotPriceHistory) {
  AwsClient client = Client(Ec2Service());
  Ec2Client ec2(client, random_);
  auto prices = ec2.DescribeSpotPriceHistory({"m5.large"}, clock_.Now() - absl::Hours(1));
  ASSERT_TRUE(prices.ok()) << prices.status();
  ASSERT_FALSE(prices->empty());
  for (const SpotPrice& price : *prices) {
    EXPECT_EQ(price.instance_type, "m5.large");
    EXPECT_GT(price.price, 0);
    EXPECT_TRUE(absl::StartsWith(price.zone, "us-west-2")) << price.zone;
  }
}

}  // namespace
}  // namespace karpenter::aws
