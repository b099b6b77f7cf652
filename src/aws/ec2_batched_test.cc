#include "src/aws/ec2_batched.h"

#include <thread>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "src/aws/fault_transport.h"
#include "src/aws/test_fakes.h"
#include "src/aws/test_harness.h"

namespace karpenter::aws {
namespace {

struct Harness : FakeAwsHarness {
  Harness() : FakeAwsHarness("us-west-2", "ec2") {}
  Ec2Client ec2{client, random};
  ManualClock batch_clock;
};

TEST(AwsBatchedEc2, SurplusInstancesAreTerminated) {
  Harness h;
  h.transport.SetHandler([](const HttpRequest& r) -> absl::StatusOr<HttpResponse> {
    if (FaultInjectingTransport::OperationOf(r) == "TerminateInstances") {
      return HttpResponse{.status = 200,
                          .body =
                              "<TerminateInstancesResponse><instancesSet><item><instanceId>i-2"
                              "</instanceId><currentState><name>shutting-down</name>"
                              "</currentState></item></instancesSet>"
                              "</TerminateInstancesResponse>"};
    }
    return HttpResponse{
        .status = 200,
        .body =
            "<CreateFleetResponse><fleetId>f</fleetId><fleetInstanceSet><item><instanceIds>"
            "<item>i-1</item><item>i-2</item></instanceIds><instanceType>m5.large"
            "</instanceType></item></fleetInstanceSet></CreateFleetResponse>"};
  });
  BatchedEc2 batched(h.ec2, h.batch_clock);
  absl::StatusOr<FleetResult> result;
  std::thread caller([&] {
    result = batched.CreateFleet(
        {.launch_template_name = "lt", .overrides = {{.instance_type = "m5.large"}}});
  });
  WaitUntil([&] { return batched.waiting() == 1 && h.batch_clock.sleepers() == 1; });
  h.batch_clock.Advance(absl::Milliseconds(35));
  caller.join();
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->instances[0].id, "i-1");
  EXPECT_EQ(batched.surplus_terminated(), 1);
  ASSERT_EQ(h.transport.requests().size(), 2u);
  EXPECT_TRUE(absl::StrContains(h.transport.requests()[0].body,
                                "TargetCapacitySpecification.TotalTargetCapacity=1"));
  EXPECT_TRUE(absl::StrContains(h.transport.requests()[1].body, "InstanceId.1=i-2"));
}

TEST(AwsBatchedEc2, DescribeAnswersEachCallerWithItsOwnInstances) {
  Harness h;
  h.transport.Push(200,
                   "<DescribeInstancesResponse><reservationSet><item><instancesSet>"
                   "<item><instanceId>i-1</instanceId></item><item><instanceId>i-2</instanceId>"
                   "</item></instancesSet></item></reservationSet></DescribeInstancesResponse>");
  BatchedEc2 batched(h.ec2, h.batch_clock);
  absl::StatusOr<std::vector<Instance>> first, second;
  std::thread a([&] { first = batched.DescribeInstances({"i-1"}); });
  std::thread b([&] { second = batched.DescribeInstances({"i-2", "i-1"}); });
  WaitUntil([&] { return batched.waiting() == 2 && h.batch_clock.sleepers() == 1; });
  h.batch_clock.Advance(absl::Milliseconds(100));
  a.join();
  b.join();
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(first->size(), 1u);
  EXPECT_EQ(second->size(), 2u);
  ASSERT_EQ(h.transport.requests().size(), 1u);
  EXPECT_TRUE(
      absl::StrContains(h.transport.requests()[0].body, "InstanceId.1=i-1&InstanceId.2=i-2"));
}

}  // namespace
}  // namespace karpenter::aws
