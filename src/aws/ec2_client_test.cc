#include "src/aws/ec2_client.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "src/aws/test_fakes.h"

namespace karpenter::aws {
namespace {

struct Harness {
  FakeTransport transport;
  StaticCredentialsProvider credentials{
      Credentials{.access_key_id = "AK", .secret_access_key = "SK"}};
  FakeClock clock;
  FakeRandom random;
  RetryQuota quota;
  AwsClient client{AwsContext{transport, credentials, clock, random, quota},
                   {.url = "http://127.0.0.1:1", .scope = {"us-west-2", "ec2"}}};
  Ec2Client ec2{client};
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

}  // namespace
}  // namespace karpenter::aws
