// BatchedEc2 against moto_server: concurrent launches become one CreateFleet, concurrent
// terminations one TerminateInstances, and a batch with a bad id falls back to single calls.
#include <set>
#include <thread>

#include "gtest/gtest.h"
#include "src/aws/ec2_batched.h"
#include "src/aws/errors.h"
#include "src/aws/fault_transport.h"
#include "src/aws/test_moto_server.h"

namespace karpenter::aws {
namespace {

class MotoBatched : public MotoTest {
 protected:
  AwsClient CountedClient() {
    auto endpoint = ResolveEndpoint(*env_, Ec2Service(), "us-west-2");
    EXPECT_TRUE(endpoint.ok()) << endpoint.status();
    return AwsClient(AwsContext{counter_, credentials_, clock_, random_, quota_}, *endpoint);
  }
  int Calls(const std::string& operation) const {
    const auto passed = counter_.passed();
    return static_cast<int>(std::count(passed.begin(), passed.end(), operation));
  }

  FaultInjectingTransport counter_{*transport_};  // no rules: it only counts
  ManualClock batch_clock_;
};

TEST_F(MotoBatched, ConcurrentLaunchesAndTerminationsShareCalls) {
  AwsClient client = CountedClient();
  Ec2Client ec2(client, random_);
  auto vpc = client.CallQuery(
      QueryRequest("CreateVpc", Ec2Client::kApiVersion).Set("CidrBlock", "10.3.0.0/16"));
  ASSERT_TRUE(vpc.ok()) << vpc.status();
  auto subnet = client.CallQuery(QueryRequest("CreateSubnet", Ec2Client::kApiVersion)
                                     .Set("VpcId", vpc->Root().Path({"vpc", "vpcId"}).Text())
                                     .Set("CidrBlock", "10.3.1.0/24")
                                     .Set("AvailabilityZone", "us-west-2c"));
  ASSERT_TRUE(subnet.ok()) << subnet.status();
  auto images = ec2.DescribeImages({.owners = {"amazon"}});
  ASSERT_TRUE(images.ok() && !images->empty());
  ASSERT_TRUE(ec2.CreateLaunchTemplate({.name = "batched", .image_id = (*images)[0].id}).ok());

  BatchedEc2 batched(ec2, batch_clock_);
  const FleetRequest request{
      .launch_template_name = "batched",
      .overrides = {{.instance_type = "m5.large",
                     .subnet_id = subnet->Root().Path({"subnet", "subnetId"}).Text()}},
      .tags = {{"karpenter.sh/nodepool", "default"}}};
  std::vector<absl::StatusOr<FleetResult>> launched(3);
  std::vector<std::thread> threads;
  for (int i = 0; i < 3; ++i) {
    threads.emplace_back([&, i] { launched[i] = batched.CreateFleet(request); });
  }
  WaitUntil([&] { return batched.waiting() == 3 && batch_clock_.sleepers() == 1; });
  batch_clock_.Advance(absl::Milliseconds(35));
  for (std::thread& t : threads) t.join();
  threads.clear();
  EXPECT_EQ(Calls("CreateFleet"), 1);
  std::set<std::string> ids;
  for (const auto& result : launched) {
    ASSERT_TRUE(result.ok()) << result.status();
    ASSERT_EQ(result->instances.size(), 1u);
    ids.insert(result->instances[0].id);
  }
  ASSERT_EQ(ids.size(), 3u);
  EXPECT_EQ(batched.surplus_terminated(), 0);

  // Three terminations and one of an instance that never existed: the batch fails as a whole on
  // the bad id, then each request is retried alone.
  std::vector<std::string> requested(ids.begin(), ids.end());
  requested.push_back("i-0123456789abcdef0");
  std::vector<absl::StatusOr<std::map<std::string, std::string>>> terminated(4);
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&, i] { terminated[i] = batched.TerminateInstances({requested[i]}); });
  }
  WaitUntil([&] { return batched.waiting() == 4 && batch_clock_.sleepers() == 1; });
  batch_clock_.Advance(absl::Milliseconds(100));
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(Calls("TerminateInstances"), 1 + 4);
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(terminated[i].ok()) << terminated[i].status();
    EXPECT_EQ(terminated[i]->at(requested[i]), "shutting-down");
  }
  EXPECT_EQ(terminated[3].status().code(), absl::StatusCode::kNotFound) << terminated[3].status();
}

TEST_F(MotoBatched, CreateFleetForMoreThanOneInstanceIsRefused) {
  AwsClient client = CountedClient();
  Ec2Client ec2(client, random_);
  BatchedEc2 batched(ec2, batch_clock_);
  FleetRequest request{.launch_template_name = "lt", .overrides = {{.instance_type = "m5.large"}}};
  request.count = 2;
  EXPECT_EQ(batched.CreateFleet(request).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Calls("CreateFleet"), 0);
}

}  // namespace
}  // namespace karpenter::aws
