#include "src/aws/ec2_client.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "src/aws/test_fakes.h"
#include "src/aws/test_harness.h"

namespace karpenter::aws {
namespace {

struct Harness : FakeAwsHarness {
  Harness() : FakeAwsHarness("us-west-2", "ec2") {}
  Ec2Client ec2{client, random};
};

std::string SubnetPage(const std::string& id, const std::string& next_token) {
  return absl::StrCat(
      "<DescribeSubnetsResponse xmlns=\"http://ec2.amazonaws.com/doc/2016-11-15/\"><subnetSet>"
      "<item><subnetId>",
      id,
      "</subnetId><availabilityZone>us-west-2a</availabilityZone>"
      "<availableIpAddressCount>42</availableIpAddressCount><tagSet><item><key>Name</key>"
      "<value>n</value></item></tagSet></item></subnetSet>",
      next_token.empty() ? "" : absl::StrCat("<nextToken>", next_token, "</nextToken>"),
      "</DescribeSubnetsResponse>");
}

TEST(AwsEc2, DescribeFollowsNextTokenAndKeepsFilters) {
  Harness h;
  h.transport.Push(200, SubnetPage("subnet-1", "page two"));
  h.transport.Push(200, SubnetPage("subnet-2", ""));
  auto subnets = h.ec2.DescribeSubnets({{.name = "tag:karpenter.sh/discovery", .values = {"c"}}});
  ASSERT_TRUE(subnets.ok()) << subnets.status();
  ASSERT_EQ(subnets->size(), 2u);
  EXPECT_EQ((*subnets)[1].id, "subnet-2");
  EXPECT_EQ((*subnets)[0].available_ips, 42);
  EXPECT_EQ((*subnets)[0].tags.at("Name"), "n");
  ASSERT_EQ(h.transport.requests().size(), 2u);
  EXPECT_FALSE(absl::StrContains(h.transport.requests()[0].body, "NextToken"));
  EXPECT_TRUE(absl::StrContains(h.transport.requests()[1].body, "NextToken=page%20two"));
  EXPECT_TRUE(absl::StrContains(h.transport.requests()[1].body, "Filter.1.Value.1=c"));
}

TEST(AwsEc2, RepeatedNextTokenStops) {
  Harness h;
  h.transport.SetHandler([](const HttpRequest&) -> absl::StatusOr<HttpResponse> {
    return HttpResponse{.status = 200, .body = SubnetPage("subnet-1", "same")};
  });
  auto subnets = h.ec2.DescribeSubnets({});
  EXPECT_EQ(subnets.status().code(), absl::StatusCode::kInternal);
  EXPECT_EQ(h.transport.requests().size(), 2u);
}

TEST(AwsEc2, EndlessPaginationIsCapped) {
  Harness h;
  int page = 0;
  h.transport.SetHandler([&](const HttpRequest&) -> absl::StatusOr<HttpResponse> {
    return HttpResponse{.status = 200, .body = SubnetPage("s", absl::StrCat("t", ++page))};
  });
  EXPECT_EQ(h.ec2.DescribeSubnets({}).status().code(), absl::StatusCode::kInternal);
  EXPECT_EQ(h.ec2.pages(), Ec2Client::kMaxPages);
}

TEST(AwsEc2, ReadsInstanceTypeFields) {
  Harness h;
  h.transport.Push(
      200,
      "<DescribeInstanceTypesResponse><instanceTypeSet><item><instanceType>g5.xlarge</instanceType>"
      "<currentGeneration>true</currentGeneration><bareMetal>false</bareMetal>"
      "<hypervisor>nitro</hypervisor><supportedUsageClasses><item>on-demand</item><item>spot</item>"
      "</supportedUsageClasses><processorInfo><supportedArchitectures><item>x86_64</item>"
      "</supportedArchitectures></processorInfo><vCpuInfo><defaultVCpus>4</defaultVCpus>"
      "</vCpuInfo><memoryInfo><sizeInMiB>16384</sizeInMiB></memoryInfo><networkInfo>"
      "<maximumNetworkInterfaces>4</maximumNetworkInterfaces><ipv4AddressesPerInterface>15"
      "</ipv4AddressesPerInterface></networkInfo><gpuInfo><gpus><item><count>1</count></item>"
      "</gpus></gpuInfo></item></instanceTypeSet></DescribeInstanceTypesResponse>");
  auto types = h.ec2.DescribeInstanceTypes();
  ASSERT_TRUE(types.ok()) << types.status();
  ASSERT_EQ(types->size(), 1u);
  const InstanceTypeInfo& t = (*types)[0];
  EXPECT_EQ(t.name, "g5.xlarge");
  EXPECT_EQ(t.vcpus, 4);
  EXPECT_EQ(t.memory_mib, 16384);
  EXPECT_EQ(t.usage_classes, (std::vector<std::string>{"on-demand", "spot"}));
  EXPECT_EQ(t.max_network_interfaces, 4);
  EXPECT_EQ(t.ipv4_per_interface, 15);
  EXPECT_EQ(t.gpu_count, 1);
  EXPECT_TRUE(t.current_generation);
}

TEST(AwsEc2, CreateFleetReadsInstancesAndCapacityErrors) {
  Harness h;
  h.transport.Push(
      200,
      "<CreateFleetResponse><fleetId>fleet-1</fleetId><errorSet><item>"
      "<launchTemplateAndOverrides><overrides><instanceType>c5.large</instanceType>"
      "<subnetId>subnet-a</subnetId><availabilityZone>us-west-2a</availabilityZone></overrides>"
      "</launchTemplateAndOverrides><lifecycle>spot</lifecycle>"
      "<errorCode>InsufficientInstanceCapacity</errorCode><errorMessage>none left</errorMessage>"
      "</item></errorSet><fleetInstanceSet><item><launchTemplateAndOverrides><overrides>"
      "<instanceType>m5.large</instanceType><subnetId>subnet-b</subnetId>"
      "<availabilityZone>us-west-2b</availabilityZone></overrides></launchTemplateAndOverrides>"
      "<lifecycle>spot</lifecycle><instanceIds><item>i-1</item></instanceIds>"
      "<instanceType>m5.large</instanceType></item></fleetInstanceSet></CreateFleetResponse>");
  auto fleet = h.ec2.CreateFleet(
      {.launch_template_name = "lt",
       .overrides = {{.instance_type = "c5.large"}, {.instance_type = "m5.large"}},
       .spot = true});
  ASSERT_TRUE(fleet.ok()) << fleet.status();
  ASSERT_EQ(fleet->errors.size(), 1u);
  EXPECT_EQ(fleet->errors[0].code, "InsufficientInstanceCapacity");
  EXPECT_EQ(fleet->errors[0].failed_override.zone, "us-west-2a");
  ASSERT_EQ(fleet->instances.size(), 1u);
  EXPECT_EQ(fleet->instances[0].id, "i-1");
  EXPECT_EQ(fleet->instances[0].zone, "us-west-2b");
  EXPECT_TRUE(fleet->instances[0].spot);
  const std::string& body = h.transport.requests()[0].body;
  EXPECT_TRUE(absl::StrContains(body, "SpotOptions.AllocationStrategy=price-capacity-optimized"));
  EXPECT_TRUE(absl::StrContains(body, "Type=instant"));
  EXPECT_TRUE(absl::StrContains(body, "ClientToken=kp-"));
}

TEST(AwsEc2, CreateFleetTokenIsStableAcrossRetriesAndOnDemandIsLowestPrice) {
  Harness h;
  h.transport.Push(503, "");
  h.transport.Push(200, "<CreateFleetResponse><fleetId>f</fleetId></CreateFleetResponse>");
  ASSERT_TRUE(
      h.ec2
          .CreateFleet({.launch_template_name = "lt", .overrides = {{.instance_type = "m5.large"}}})
          .ok());
  ASSERT_EQ(h.transport.requests().size(), 2u);
  // The retry is the same request: EC2 sees the same ClientToken and launches nothing twice.
  EXPECT_EQ(h.transport.requests()[0].body, h.transport.requests()[1].body);
  EXPECT_TRUE(absl::StrContains(h.transport.requests()[0].body,
                                "OnDemandOptions.AllocationStrategy=lowest-price"));
}

TEST(AwsEc2, CreateFleetGroupsOverridesByTheirLaunchTemplate) {
  Harness h;
  h.transport.Push(
      200,
      "<CreateFleetResponse><fleetId>f</fleetId><fleetInstanceSet><item>"
      "<launchTemplateAndOverrides><launchTemplateSpecification>"
      "<launchTemplateName>lt-b</launchTemplateName></launchTemplateSpecification><overrides>"
      "<instanceType>m5.xlarge</instanceType></overrides></launchTemplateAndOverrides>"
      "<instanceIds><item>i-1</item></instanceIds><instanceType>m5.xlarge</instanceType>"
      "</item></fleetInstanceSet></CreateFleetResponse>");
  auto fleet = h.ec2.CreateFleet(
      {.launch_template_name = "lt-a",
       .overrides = {
           {.instance_type = "m5.large"},
           {.instance_type = "m5.xlarge", .image_id = "ami-b", .launch_template_name = "lt-b"},
           {.instance_type = "c5.large", .launch_template_name = "lt-a"},
           {.instance_type = "c5.xlarge", .launch_template_name = "lt-b"}}});
  ASSERT_TRUE(fleet.ok()) << fleet.status();
  const std::string& body = h.transport.requests()[0].body;
  // Templates in the order the overrides first name them, each with its own overrides.
  for (const char* part :
       {"LaunchTemplateConfigs.1.LaunchTemplateSpecification.LaunchTemplateName=lt-a",
        "LaunchTemplateConfigs.1.Overrides.1.InstanceType=m5.large",
        "LaunchTemplateConfigs.1.Overrides.2.InstanceType=c5.large",
        "LaunchTemplateConfigs.2.LaunchTemplateSpecification.LaunchTemplateName=lt-b",
        "LaunchTemplateConfigs.2.LaunchTemplateSpecification.Version=%24Latest",
        "LaunchTemplateConfigs.2.Overrides.1.InstanceType=m5.xlarge",
        "LaunchTemplateConfigs.2.Overrides.1.ImageId=ami-b",
        "LaunchTemplateConfigs.2.Overrides.2.InstanceType=c5.xlarge"}) {
    EXPECT_TRUE(absl::StrContains(body, part)) << part << " not in " << body;
  }
  EXPECT_FALSE(absl::StrContains(body, "LaunchTemplateConfigs.3")) << body;
  ASSERT_EQ(fleet->instances.size(), 1u);
  EXPECT_EQ(fleet->instances[0].instance_type, "m5.xlarge");
}

TEST(AwsEc2, CreateFleetRefusesAnOverrideWithoutATemplate) {
  Harness h;
  auto fleet = h.ec2.CreateFleet({.overrides = {{.instance_type = "m5.large"}}});
  EXPECT_EQ(fleet.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(h.transport.requests().empty());
}

TEST(AwsEc2, LaunchTemplatesAlwaysEncryptAndRequireImdsV2) {
  Harness h;
  h.transport.Push(200,
                   "<CreateLaunchTemplateResponse><launchTemplate><launchTemplateId>lt-1"
                   "</launchTemplateId></launchTemplate></CreateLaunchTemplateResponse>");
  ASSERT_TRUE(h.ec2
                  .CreateLaunchTemplate({.name = "n",
                                         .image_id = "ami-1",
                                         .user_data = "hi",
                                         .block_devices = {{}, {.device_name = "/dev/xvdb"}},
                                         .tags = {{"k", "v"}}})
                  .ok());
  const std::string& body = h.transport.requests()[0].body;
  EXPECT_TRUE(absl::StrContains(body, "MetadataOptions.HttpTokens=required"));
  EXPECT_TRUE(absl::StrContains(body, "BlockDeviceMapping.1.Ebs.Encrypted=true"));
  EXPECT_TRUE(absl::StrContains(body, "BlockDeviceMapping.2.Ebs.Encrypted=true"));
  EXPECT_TRUE(absl::StrContains(body, "LaunchTemplateData.UserData=aGk%3D"));
  EXPECT_TRUE(absl::StrContains(body, "TagSpecification.1.ResourceType=launch-template"));
}

TEST(AwsEc2, ATemplateOutsideReservationsSaysSoWithoutATarget) {
  Harness h;
  h.transport.Push(200,
                   "<CreateLaunchTemplateResponse><launchTemplate><launchTemplateId>lt-1"
                   "</launchTemplateId></launchTemplate></CreateLaunchTemplateResponse>");
  ASSERT_TRUE(h.ec2
                  .CreateLaunchTemplate(
                      {.name = "n", .image_id = "ami-1", .capacity_reservation_preference = "none"})
                  .ok());
  const std::string& lt = h.transport.requests()[0].body;
  EXPECT_TRUE(absl::StrContains(
      lt, "LaunchTemplateData.CapacityReservationSpecification.CapacityReservationPreference=none"))
      << lt;
  EXPECT_FALSE(absl::StrContains(lt, "CapacityReservationTarget")) << lt;
}

TEST(AwsEc2, ACapacityBlockLaunchTargetsTheReservationInItsMarket) {
  Harness h;
  h.transport.Push(200,
                   "<CreateLaunchTemplateResponse><launchTemplate><launchTemplateId>lt-1"
                   "</launchTemplateId></launchTemplate></CreateLaunchTemplateResponse>");
  h.transport.Push(200, "<CreateFleetResponse><fleetId>f</fleetId></CreateFleetResponse>");
  ASSERT_TRUE(h.ec2
                  .CreateLaunchTemplate({.name = "n",
                                         .image_id = "ami-1",
                                         .capacity_reservation_id = "cr-9",
                                         .market_type = "capacity-block"})
                  .ok());
  ASSERT_TRUE(h.ec2
                  .CreateFleet({.launch_template_name = "n",
                                .overrides = {{.instance_type = "p5.48xlarge"}},
                                .capacity_block = true})
                  .ok());
  const std::string& lt = h.transport.requests()[0].body;
  EXPECT_TRUE(absl::StrContains(lt,
                                "CapacityReservationSpecification.CapacityReservationPreference="
                                "capacity-reservations-only"))
      << lt;
  EXPECT_TRUE(absl::StrContains(
      lt, "CapacityReservationSpecification.CapacityReservationTarget.CapacityReservationId=cr-9"))
      << lt;
  EXPECT_TRUE(absl::StrContains(lt, "InstanceMarketOptions.MarketType=capacity-block")) << lt;
  const std::string& fleet = h.transport.requests()[1].body;
  EXPECT_TRUE(absl::StrContains(
      fleet, "TargetCapacitySpecification.DefaultTargetCapacityType=capacity-block"))
      << fleet;
  EXPECT_FALSE(absl::StrContains(fleet, "OnDemandOptions")) << fleet;
  EXPECT_FALSE(absl::StrContains(fleet, "SpotOptions")) << fleet;
}

}  // namespace
}  // namespace karpenter::aws
