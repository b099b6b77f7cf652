#include "src/aws/sqs_interruption_queue.h"

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "src/aws/errors.h"
#include "src/aws/test_fakes.h"
#include "src/aws/test_harness.h"

namespace karpenter::aws {
namespace {

constexpr char kUrl[] = "http://127.0.0.1:1/123456789012/karpenter-demo";

struct Harness : FakeAwsHarness {
  Harness() : FakeAwsHarness("us-east-1", "sqs") {}
  SqsClient sqs{client};

  std::unique_ptr<SqsInterruptionQueue> Queue(SqsInterruptionQueueOptions options = {}) {
    transport.Push(200, nlohmann::json({{"QueueUrl", kUrl}}).dump());
    auto queue = SqsInterruptionQueue::Create(sqs, clock, "karpenter-demo", options);
    EXPECT_TRUE(queue.ok()) << queue.status();
    return queue.ok() ? *std::move(queue) : nullptr;
  }
  nlohmann::json Body(size_t i) const {
    return nlohmann::json::parse(transport.requests()[i].body);
  }
};

HttpResponse SqsError(int status, const std::string& type) {
  return {
      .status = status,
      .body = nlohmann::json({{"__type", "com.amazonaws.sqs#" + type}, {"message", "no"}}).dump()};
}

TEST(SqsInterruptionQueue, ResolvesTheUrlOnceAndReceivesAsUpstreamDoes) {
  Harness h;
  auto queue = h.Queue();
  ASSERT_NE(queue, nullptr);
  EXPECT_EQ(queue->Name(), "karpenter-demo");
  EXPECT_EQ(queue->url(), kUrl);
  EXPECT_EQ(h.transport.requests()[0].Header("X-Amz-Target"), "AmazonSQS.GetQueueUrl");
  EXPECT_EQ(h.Body(0)["QueueName"], "karpenter-demo");

  h.transport.Push(200, nlohmann::json({{"Messages",
                                         {{{"MessageId", "m-1"},
                                           {"ReceiptHandle", "r-1"},
                                           {"Body", "{}"},
                                           {"Attributes", {{"SentTimestamp", "1700000000123"}}}}}}})
                            .dump());
  auto messages = queue->Receive(25);
  ASSERT_TRUE(messages.ok()) << messages.status();
  ASSERT_EQ(messages->size(), 1u);
  EXPECT_EQ((*messages)[0].id, "m-1");
  EXPECT_EQ((*messages)[0].receipt_handle, "r-1");
  EXPECT_EQ((*messages)[0].body, "{}");
  EXPECT_EQ((*messages)[0].sent, api::Time::FromUnixNanos(1'700'000'000'123'000'000));

  ASSERT_EQ(h.transport.requests().size(), 2u) << "the URL is not looked up again";
  EXPECT_EQ(h.transport.requests()[1].Header("X-Amz-Target"), "AmazonSQS.ReceiveMessage");
  const nlohmann::json receive = h.Body(1);
  EXPECT_EQ(receive["QueueUrl"], kUrl);
  EXPECT_EQ(receive["MaxNumberOfMessages"], 10) << "SQS's maximum, whatever the caller asks";
  EXPECT_EQ(receive["WaitTimeSeconds"], 20);
  EXPECT_EQ(receive["VisibilityTimeout"], 20);
  EXPECT_EQ(receive["AttributeNames"], nlohmann::json::array({"SentTimestamp"}));

  h.transport.Push(200, "{}");
  ASSERT_TRUE(queue->Receive(3).ok());
  EXPECT_EQ(h.Body(2)["MaxNumberOfMessages"], 3);
  EXPECT_TRUE(queue->Receive(0)->empty());
  EXPECT_EQ(h.transport.requests().size(), 3u) << "asking for none sends nothing";
}

TEST(SqsInterruptionQueue, WaitIsConfigurableAndAMissingSentTimestampReadsAsNow) {
  Harness h;
  auto queue = h.Queue({.wait_seconds = 1, .visibility_timeout_seconds = 5});
  ASSERT_NE(queue, nullptr);
  h.transport.Push(200,
                   nlohmann::json({{"Messages",
                                    {{{"MessageId", "a"}, {"ReceiptHandle", "ra"}, {"Body", "x"}},
                                     {{"MessageId", "b"},
                                      {"ReceiptHandle", "rb"},
                                      {"Body", "y"},
                                      {"Attributes", {{"SentTimestamp", "soon"}}}}}}})
                       .dump());
  auto messages = queue->Receive(10);
  ASSERT_TRUE(messages.ok()) << messages.status();
  ASSERT_EQ(messages->size(), 2u);
  EXPECT_EQ((*messages)[0].sent, ToApiTime(h.clock.Now()));
  EXPECT_EQ((*messages)[1].sent, ToApiTime(h.clock.Now()));
  EXPECT_EQ(h.Body(1)["WaitTimeSeconds"], 1);
  EXPECT_EQ(h.Body(1)["VisibilityTimeout"], 5);
}

TEST(SqsInterruptionQueue, DeleteSendsTheReceiptHandle) {
  Harness h;
  auto queue = h.Queue();
  ASSERT_NE(queue, nullptr);
  h.transport.Push(200, "{}");
  ASSERT_TRUE(queue->Delete({.id = "m-1", .receipt_handle = "r-1"}).ok());
  EXPECT_EQ(h.transport.requests()[1].Header("X-Amz-Target"), "AmazonSQS.DeleteMessage");
  EXPECT_EQ(h.Body(1)["QueueUrl"], kUrl);
  EXPECT_EQ(h.Body(1)["ReceiptHandle"], "r-1");
}

TEST(SqsInterruptionQueue, AMissingQueueIsNotFoundNamingTheQueue) {
  Harness h;
  h.transport.SetHandler([](const HttpRequest&) { return SqsError(400, "QueueDoesNotExist"); });
  auto queue = SqsInterruptionQueue::Create(h.sqs, h.clock, "karpenter-demo");
  ASSERT_EQ(queue.status().code(), absl::StatusCode::kNotFound) << queue.status();
  EXPECT_TRUE(absl::StrContains(queue.status().message(), "karpenter-demo")) << queue.status();
  EXPECT_EQ(AwsErrorCode(queue.status()), "QueueDoesNotExist");
  EXPECT_EQ(h.transport.requests().size(), 1u) << "not found is not retried";
  EXPECT_EQ(SqsInterruptionQueue::Create(h.sqs, h.clock, "").status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(SqsInterruptionQueue, RetryableFailuresAreUnavailableAndNameTheQueue) {
  Harness h;
  auto queue = h.Queue();
  ASSERT_NE(queue, nullptr);
  h.transport.SetHandler([](const HttpRequest&) { return SqsError(503, "ServiceUnavailable"); });
  auto received = queue->Receive(10);
  EXPECT_EQ(received.status().code(), absl::StatusCode::kUnavailable) << received.status();
  EXPECT_TRUE(absl::StrContains(received.status().message(), "karpenter-demo"));
  EXPECT_GT(h.transport.requests().size(), 2u) << "the client retried before giving up";

  h.transport.SetHandler([](const HttpRequest&) -> absl::StatusOr<HttpResponse> {
    return absl::DeadlineExceededError("timed out");
  });
  EXPECT_EQ(queue->Delete({.id = "m", .receipt_handle = "r"}).code(),
            absl::StatusCode::kUnavailable);

  h.transport.SetHandler([](const HttpRequest&) { return SqsError(400, "QueueDoesNotExist"); });
  const absl::Status gone = queue->Receive(10).status();
  EXPECT_EQ(gone.code(), absl::StatusCode::kNotFound) << gone;
  EXPECT_TRUE(absl::StrContains(gone.message(), "karpenter-demo")) << gone;

  h.transport.SetHandler([](const HttpRequest&) { return SqsError(403, "AccessDenied"); });
  EXPECT_EQ(queue->Receive(10).status().code(), absl::StatusCode::kPermissionDenied);
}

TEST(SqsInterruptionQueue, ErrorMappingKeepsOkAndTheAwsCode) {
  EXPECT_TRUE(InterruptionQueueError(absl::OkStatus(), "q", "x").ok());
  absl::Status aborted = absl::AbortedError("conflict");
  EXPECT_EQ(InterruptionQueueError(aborted, "q", "x").code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(InterruptionQueueError(absl::InternalError("bad"), "q", "x").code(),
            absl::StatusCode::kInternal);
}

}  // namespace
}  // namespace karpenter::aws
