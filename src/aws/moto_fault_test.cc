// Fault tests against moto_server: faults injected in front of it by FaultInjectingTransport
// (throttling storms, capacity errors, expired credentials, the service going away), checking
// that the client retries within bounds, fails with a clear error and never spins.
#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "src/aws/ec2_client.h"
#include "src/aws/errors.h"
#include "src/aws/fault_transport.h"
#include "src/aws/ssm_client.h"
#include "src/aws/test_moto_server.h"

namespace karpenter::aws {
namespace {

class MotoFaults : public MotoTest {
 protected:
  AwsClient FaultyClient(const ServiceId& service) {
    auto endpoint = ResolveEndpoint(*env_, service, "us-west-2");
    EXPECT_TRUE(endpoint.ok()) << endpoint.status();
    return AwsClient(AwsContext{faults_, credentials_, clock_, random_, quota_}, *endpoint);
  }

  static int Count(const std::vector<std::string>& operations, const std::string& operation) {
    return static_cast<int>(std::count(operations.begin(), operations.end(), operation));
  }

  FaultInjectingTransport faults_{*transport_};
};

TEST_F(MotoFaults, ThrottlingStormStaysWithinAttemptsAndBudget) {
  AwsClient client = FaultyClient(Ec2Service());
  Ec2Client ec2(client, random_);
  faults_.AddRule({.operation = "DescribeSubnets", .kind = FaultKind::kThrottle, .times = 2});
  ASSERT_TRUE(ec2.DescribeSubnets({}).ok());
  EXPECT_EQ(Count(faults_.seen(), "DescribeSubnets"), 3);
  EXPECT_EQ(Count(faults_.passed(), "DescribeSubnets"), 1);
  EXPECT_EQ(clock_.sleeps().size(), 2u);

  faults_.AddRule({.operation = "DescribeSubnets", .kind = FaultKind::kThrottle});
  for (int call = 0; call < 10; ++call) {
    auto result = ec2.DescribeSubnets({});
    EXPECT_EQ(result.status().code(), absl::StatusCode::kUnavailable);
    EXPECT_EQ(AwsErrorCode(result.status()), "RequestLimitExceeded");
  }
  // At most 3 attempts per logical call, and none of the storm reached the service.
  EXPECT_EQ(Count(faults_.seen(), "DescribeSubnets"), 3 + 30);
  EXPECT_EQ(Count(faults_.passed(), "DescribeSubnets"), 1);
  EXPECT_EQ(quota_.available(), 500 - 5 - 10 * 2 * 5);
}

TEST_F(MotoFaults, JsonThrottlingAndServerErrorsAreRetried) {
  AwsClient client = FaultyClient(SsmService());
  faults_.AddRule({.operation = "GetParameter", .kind = FaultKind::kThrottle, .times = 1});
  faults_.AddRule({.operation = "GetParameter", .kind = FaultKind::kServerError, .times = 1});
  auto parameter = SsmClient(client).GetParameter(
      "/aws/service/ami-amazon-linux-latest/amzn2-ami-hvm-x86_64-gp2");
  ASSERT_TRUE(parameter.ok()) << parameter.status();
  EXPECT_EQ(Count(faults_.seen(), "GetParameter"), 3);
}

TEST_F(MotoFaults, CapacityErrorsOnEveryOfferingLaunchNothing) {
  AwsClient client = FaultyClient(Ec2Service());
  Ec2Client ec2(client, random_);
  std::string errors;
  for (const char* type : {"m5.large", "c5.large"}) {
    errors += std::string("<item><launchTemplateAndOverrides><overrides><instanceType>") + type +
              "</instanceType><availabilityZone>us-west-2a</availabilityZone></overrides>"
              "</launchTemplateAndOverrides><lifecycle>spot</lifecycle><errorCode>"
              "InsufficientInstanceCapacity</errorCode><errorMessage>none</errorMessage></item>";
  }
  faults_.AddRule({.operation = "CreateFleet",
                   .kind = FaultKind::kRespond,
                   .response = {.status = 200,
                                .body = "<CreateFleetResponse><fleetId>fleet-ice</fleetId>"
                                        "<errorSet>" +
                                        errors + "</errorSet></CreateFleetResponse>"}});
  auto fleet = ec2.CreateFleet({.launch_template_name = "lt",
                                .overrides = {{.instance_type = "m5.large", .zone = "us-west-2a"},
                                              {.instance_type = "c5.large", .zone = "us-west-2a"}},
                                .spot = true});
  ASSERT_TRUE(fleet.ok()) << fleet.status();
  EXPECT_TRUE(fleet->instances.empty());
  ASSERT_EQ(fleet->errors.size(), 2u);
  for (const FleetError& error : fleet->errors) {
    EXPECT_TRUE(IsUnfulfillableCapacityCode(error.code)) << error.code;
    EXPECT_EQ(error.failed_override.zone, "us-west-2a");
  }
  auto instances = ec2.DescribeInstances({}, {});
  ASSERT_TRUE(instances.ok()) << instances.status();
  EXPECT_TRUE(instances->empty());
}

TEST_F(MotoFaults, ExpiredCredentialsFailAtOnceWithoutRetry) {
  AwsClient client = FaultyClient(Ec2Service());
  Ec2Client ec2(client, random_);
  faults_.AddRule(
      {.operation = "DescribeInstances",
       .kind = FaultKind::kRespond,
       .times = 1,
       .response = {.status = 400,
                    .body = "<Response><Errors><Error><Code>RequestExpired</Code><Message>Request "
                            "has expired.</Message></Error></Errors></Response>"}});
  auto expired = ec2.DescribeInstances({}, {});
  EXPECT_EQ(expired.status().code(), absl::StatusCode::kUnauthenticated) << expired.status();
  EXPECT_EQ(Count(faults_.seen(), "DescribeInstances"), 1);
  EXPECT_TRUE(ec2.DescribeInstances({}, {}).ok());
}

TEST_F(MotoFaults, ServiceGoneMidRunIsAClearUnavailableError) {
  AwsClient client = FaultyClient(Ec2Service());
  Ec2Client ec2(client, random_);
  ASSERT_TRUE(ec2.DescribeSubnets({}).ok());
  moto_.reset();  // moto_server is killed; its port refuses connections
  auto result = ec2.DescribeSubnets({});
  EXPECT_EQ(result.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_TRUE(absl::StrContains(result.status().message(), "DescribeSubnets"));
  EXPECT_TRUE(absl::StrContains(result.status().message(), "after 3 attempts")) << result.status();
}

}  // namespace
}  // namespace karpenter::aws
