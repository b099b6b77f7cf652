// Faults on the wire, between the production HTTP transport (libcurl) and moto_server: the fault
// proxy (src/aws/testdata/fault_proxy.py) answers with throttling, 5xx and a load balancer's HTML
// page, answers late, closes connections before or after moto acted, and cuts answers short. The
// clients must retry what is worth retrying within their attempts and budget, fail with a clear
// error otherwise, and never launch twice when an answer is lost.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "src/aws/ec2_client.h"
#include "src/aws/errors.h"
#include "src/aws/ssm_client.h"
#include "src/aws/test_fault_proxy.h"
#include "src/aws/test_moto_server.h"

namespace karpenter::aws {
namespace {

// Long enough for a warmed-up moto on a loaded machine, short enough for a slow answer to run
// past it.
constexpr absl::Duration kTimeout = absl::Seconds(5);
constexpr double kSlowerThanTheTimeout = 12;
// A public parameter moto serves.
constexpr char kAmazonLinuxParameter[] =
    "/aws/service/ami-amazon-linux-latest/amzn2-ami-hvm-x86_64-gp2";

class MotoWireFaults : public MotoTest {
 protected:
  void SetUp() override {
    MotoTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    proxy_ = std::make_unique<FaultProxy>(moto_->url());
    ASSERT_FALSE(proxy_->url().empty()) << proxy_->error();
    // moto builds a service's backend on its first call (seconds for EC2 on a busy machine): done
    // here, straight and without a timeout to speak of, so no test's first call runs past kTimeout.
    AwsClient ec2 = Client(Ec2Service());
    ASSERT_TRUE(Ec2Client(ec2, random_).DescribeSubnets({}).ok());
    AwsClient ssm = Client(SsmService());
    ASSERT_TRUE(SsmClient(ssm).GetParameter(kAmazonLinuxParameter).ok());
  }

  // A client of `service` whose calls go through the proxy.
  AwsClient ProxiedClient(const ServiceId& service) {
    auto endpoint = ResolveEndpoint(MapEnvironment(std::map<std::string, std::string, std::less<>>{
                                        {"AWS_ENDPOINT_URL", proxy_->url()}}),
                                    service, "us-west-2");
    EXPECT_TRUE(endpoint.ok()) << endpoint.status();
    return AwsClient(AwsContext{*proxied_transport_, credentials_, clock_, random_, quota_},
                     *endpoint);
  }

  // The faults (or "" for none) that `operation`'s requests met, in order.
  std::vector<std::string> FaultsOf(const std::string& operation) {
    std::vector<std::string> faults;
    for (const ProxiedRequest& request : proxy_->Log()) {
      if (request.operation == operation) faults.push_back(request.fault);
    }
    return faults;
  }

  int Forwarded(const std::string& operation) {
    const std::vector<ProxiedRequest> log = proxy_->Log();
    return static_cast<int>(std::count_if(log.begin(), log.end(), [&](const auto& request) {
      return request.operation == operation && request.forwarded;
    }));
  }

  std::unique_ptr<FaultProxy> proxy_;
  std::unique_ptr<HttpTransport> proxied_transport_ =
      NewRealHttpTransport({.total_timeout = kTimeout, .no_proxy = "*"});
};

using Faults = std::vector<std::string>;

TEST_F(MotoWireFaults, ThrottledQueryAnswersAreRetriedUntilTheyStop) {
  AwsClient client = ProxiedClient(Ec2Service());
  Ec2Client ec2(client, random_);
  proxy_->Add({.operation = "DescribeSubnets", .kind = "throttle", .times = 2});
  auto subnets = ec2.DescribeSubnets({});
  ASSERT_TRUE(subnets.ok()) << subnets.status();
  EXPECT_EQ(FaultsOf("DescribeSubnets"), (Faults{"throttle", "throttle", ""}));
  EXPECT_EQ(clock_.sleeps().size(), 2u);
  // Two retries took 5 tokens each; the one that succeeded gives its tokens back.
  EXPECT_EQ(quota_.available(), 495);
}

TEST_F(MotoWireFaults, AJsonThrottlingStormEndsAfterThreeAttemptsWithTheServicesCode) {
  AwsClient client = ProxiedClient(SsmService());
  SsmClient ssm(client);
  proxy_->Add({.operation = "GetParameter", .kind = "throttle"});
  auto stormed = ssm.GetParameter(kAmazonLinuxParameter);
  EXPECT_EQ(stormed.status().code(), absl::StatusCode::kUnavailable) << stormed.status();
  EXPECT_EQ(AwsErrorCode(stormed.status()), "ThrottlingException");
  EXPECT_TRUE(absl::StrContains(stormed.status().message(), "after 3 attempts"))
      << stormed.status();
  EXPECT_EQ(FaultsOf("GetParameter").size(), 3u);
  EXPECT_EQ(Forwarded("GetParameter"), 0);

  proxy_->Clear();
  auto calm = ssm.GetParameter(kAmazonLinuxParameter);
  EXPECT_TRUE(calm.ok()) << calm.status();
  EXPECT_EQ(Forwarded("GetParameter"), 1);
}

TEST_F(MotoWireFaults, ServerErrorsAndALoadBalancersHtmlPageAreRetried) {
  AwsClient client = ProxiedClient(Ec2Service());
  Ec2Client ec2(client, random_);
  proxy_->Add({.operation = "DescribeSecurityGroups", .kind = "server_error", .times = 1});
  proxy_->Add({.operation = "DescribeSecurityGroups", .kind = "bad_gateway", .times = 1});
  auto groups = ec2.DescribeSecurityGroups({});
  ASSERT_TRUE(groups.ok()) << groups.status();
  EXPECT_EQ(FaultsOf("DescribeSecurityGroups"), (Faults{"server_error", "bad_gateway", ""}));

  // A gateway that keeps answering HTML: a short error naming the status, not the page.
  proxy_->Add({.operation = "DescribeSecurityGroups", .kind = "bad_gateway"});
  auto failed = ec2.DescribeSecurityGroups({});
  EXPECT_EQ(failed.status().code(), absl::StatusCode::kUnavailable) << failed.status();
  EXPECT_TRUE(absl::StrContains(failed.status().message(), "502")) << failed.status();
  EXPECT_TRUE(absl::StrContains(failed.status().message(), "after 3 attempts")) << failed.status();
  EXPECT_LT(failed.status().message().size(), 600u) << failed.status();
  EXPECT_EQ(FaultsOf("DescribeSecurityGroups").size(), 6u);
}

TEST_F(MotoWireFaults, AnAnswerSlowerThanTheTimeoutIsRetried) {
  AwsClient client = ProxiedClient(Ec2Service());
  Ec2Client ec2(client, random_);
  proxy_->Add({.operation = "DescribeSubnets",
               .kind = "slow",
               .times = 1,
               .delay_seconds = kSlowerThanTheTimeout});
  auto subnets = ec2.DescribeSubnets({});
  ASSERT_TRUE(subnets.ok()) << subnets.status();
  EXPECT_EQ(FaultsOf("DescribeSubnets"), (Faults{"slow", ""}));
  // A timeout costs more of the budget than a refusal, and is given back all the same.
  EXPECT_EQ(clock_.sleeps().size(), 1u);
  EXPECT_EQ(quota_.available(), 500);
}

TEST_F(MotoWireFaults, ConnectionsClosedWithoutAnAnswerOrCutShortAreRetried) {
  AwsClient client = ProxiedClient(Ec2Service());
  Ec2Client ec2(client, random_);
  proxy_->Add({.operation = "DescribeSubnets", .kind = "close", .times = 1});
  proxy_->Add({.operation = "DescribeSubnets", .kind = "truncate", .times = 1});
  auto subnets = ec2.DescribeSubnets({});
  ASSERT_TRUE(subnets.ok()) << subnets.status();
  EXPECT_EQ(FaultsOf("DescribeSubnets"), (Faults{"close", "truncate", ""}));

  // Every attempt cut: the call fails as unavailable, naming the operation.
  proxy_->Add({.operation = "DescribeSubnets", .kind = "truncate"});
  auto failed = ec2.DescribeSubnets({});
  EXPECT_EQ(failed.status().code(), absl::StatusCode::kUnavailable) << failed.status();
  EXPECT_TRUE(absl::StrContains(failed.status().message(), "DescribeSubnets")) << failed.status();
}

TEST_F(MotoWireFaults, ALostCreateFleetAnswerLaunchesOneInstance) {
  AwsClient direct = Client(Ec2Service());
  Ec2Client setup(direct, random_);
  const std::string subnet = MakeVpcWithSubnet(direct);
  ASSERT_FALSE(subnet.empty());
  auto images = setup.DescribeImages({.owners = {"amazon"}});
  ASSERT_TRUE(images.ok() && !images->empty()) << images.status();
  auto launch_template = setup.CreateLaunchTemplate(
      {.name = "karpenter.k8s.aws/wire-faults", .image_id = (*images)[0].id});
  ASSERT_TRUE(launch_template.ok()) << launch_template.status();

  AwsClient client = ProxiedClient(Ec2Service());
  Ec2Client ec2(client, random_);
  // moto launches, the answer never arrives; the retry must be the same request to EC2.
  proxy_->Add({.operation = "CreateFleet", .kind = "lose_answer", .times = 1});
  auto fleet = ec2.CreateFleet({.launch_template_name = launch_template->name,
                                .overrides = {{.instance_type = "m5.large", .subnet_id = subnet}},
                                .tags = {{"karpenter.sh/nodepool", "default"}}});
  ASSERT_TRUE(fleet.ok()) << fleet.status();
  ASSERT_EQ(fleet->instances.size(), 1u);
  EXPECT_EQ(FaultsOf("CreateFleet"), (Faults{"lose_answer", "replayed"}));
  EXPECT_EQ(Forwarded("CreateFleet"), 1);

  auto instances = setup.DescribeInstances({}, {});
  ASSERT_TRUE(instances.ok()) << instances.status();
  ASSERT_EQ(instances->size(), 1u);
  EXPECT_EQ((*instances)[0].id, fleet->instances[0].id);
}

}  // namespace
}  // namespace karpenter::aws
