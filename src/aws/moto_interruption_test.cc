// The interruption path end to end against moto_server: EventBridge-shaped messages in a real SQS
// queue, drained by the production `controllers::InterruptionController` through
// `SqsInterruptionQueue`, over libcurl and SigV4 on 127.0.0.1 only.
#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "src/aws/sqs_interruption_queue.h"
#include "src/aws/test_moto_server.h"
#include "src/controllers/interruption.h"
#include "src/fakes/fake_clock.h"
#include "src/metrics/karpenter_metrics.h"

namespace karpenter::aws {
namespace {

using MotoInterruption = MotoTest;

std::string SpotWarning(const std::string& instance_id) {
  return R"({"version":"0","id":"e-1","detail-type":"EC2 Spot Instance Interruption Warning",)"
         R"("source":"aws.ec2","account":"123456789012","time":"2026-12-03T10:00:00Z",)"
         R"("region":"us-west-2","resources":[],"detail":{"instance-id":")" +
         instance_id + R"(","instance-action":"terminate"}})";
}

// Visibility 0: a message the controller failed to delete would be visible again at once, so an
// empty queue afterwards means deleted, not merely hidden.
constexpr SqsInterruptionQueueOptions kTestOptions = {.wait_seconds = 1,
                                                      .visibility_timeout_seconds = 0};

TEST_F(MotoInterruption, ReceiveCarriesSentTimestampAndDeleteRemoves) {
  AwsClient client = Client(SqsService());
  SqsClient sqs(client);
  auto url = sqs.CreateQueue("karpenter-demo");
  ASSERT_TRUE(url.ok()) << url.status();
  ASSERT_TRUE(sqs.SendMessage(*url, "hello").ok());
  auto queue = SqsInterruptionQueue::Create(sqs, clock_, "karpenter-demo", kTestOptions);
  ASSERT_TRUE(queue.ok()) << queue.status();
  EXPECT_EQ((*queue)->url(), *url);
  auto messages = (*queue)->Receive(10);
  ASSERT_TRUE(messages.ok()) << messages.status();
  ASSERT_EQ(messages->size(), 1u);
  EXPECT_EQ((*messages)[0].body, "hello");
  // moto stamps the real send time; the fake clock (2027) would be the fallback.
  EXPECT_GT((*messages)[0].sent, api::Time::FromUnixSeconds(1'600'000'000));
  EXPECT_NE((*messages)[0].sent, ToApiTime(clock_.Now()));
  ASSERT_TRUE((*queue)->Delete((*messages)[0]).ok());
  auto after = (*queue)->Receive(10);
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_TRUE(after->empty());
}

TEST_F(MotoInterruption, ControllerActsOnSpotWarningAndDeletesEveryMessage) {
  AwsClient client = Client(SqsService());
  SqsClient sqs(client);
  auto url = sqs.CreateQueue("karpenter-demo");
  ASSERT_TRUE(url.ok()) << url.status();
  ASSERT_TRUE(sqs.SendMessage(*url, SpotWarning("i-0123456789abcdef0")).ok());
  ASSERT_TRUE(sqs.SendMessage(*url, "{not json").ok());
  auto queue = SqsInterruptionQueue::Create(sqs, clock_, "karpenter-demo", kTestOptions);
  ASSERT_TRUE(queue.ok()) << queue.status();

  fakes::FakeClock clock;
  metrics::Registry registry(metrics::KarpenterCatalog());
  cloudprovider::UnavailableOfferings unavailable(clock, [] { return 180'000; });
  std::vector<std::string> deleted;
  std::vector<std::string> invalid;
  controllers::InterruptionController controller(
      unavailable, registry,
      controllers::InterruptionHooks{
          .find = [](const std::string& id) -> std::optional<controllers::InterruptedInstance> {
            if (id != "i-0123456789abcdef0") return std::nullopt;
            return controllers::InterruptedInstance{.instance_id = id,
                                                    .node_claim = "default-abc",
                                                    .node_pool = "default",
                                                    .offering = {"m5.large", "us-west-2a", "spot"}};
          },
          .received = [](const controllers::InterruptedInstance&, const interruption::Message&,
                         const interruption::Action&) {},
          .delete_node_claim =
              [&deleted](const controllers::InterruptedInstance& instance) {
                deleted.push_back(instance.node_claim);
              },
          .invalid = [&invalid](const QueueMessage& message,
                                const absl::Status&) { invalid.push_back(message.body); }});

  auto result = controller.Reconcile(**queue, clock);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(deleted, std::vector<std::string>{"default-abc"});
  EXPECT_EQ(invalid, std::vector<std::string>{"{not json"});
  EXPECT_TRUE(unavailable.IsUnavailable("m5.large", "us-west-2a", "spot"));
  EXPECT_EQ(registry.Value("karpenter_interruption_deleted_messages_total", {}), 2);

  // Read past our queue object, with the queue's own visibility default: nothing is left.
  auto left = sqs.ReceiveMessage(*url, 10, 1);
  ASSERT_TRUE(left.ok()) << left.status();
  EXPECT_TRUE(left->empty()) << left->size() << " message(s) left";
}

TEST_F(MotoInterruption, AMissingQueueIsNotFoundNamingIt) {
  AwsClient client = Client(SqsService());
  SqsClient sqs(client);
  auto queue = SqsInterruptionQueue::Create(sqs, clock_, "no-such-queue", kTestOptions);
  ASSERT_EQ(queue.status().code(), absl::StatusCode::kNotFound) << queue.status();
  EXPECT_TRUE(absl::StrContains(queue.status().message(), "\"no-such-queue\"")) << queue.status();
}

}  // namespace
}  // namespace karpenter::aws
