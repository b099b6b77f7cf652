#include "src/aws/aws_client.h"

#include <map>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "src/aws/errors.h"
#include "src/aws/test_fakes.h"
#include "src/fakes/recording_metrics.h"

namespace karpenter::aws {
namespace {

constexpr char kThrottled[] =
    "<Response><Errors><Error><Code>RequestLimitExceeded</Code><Message>slow down</Message>"
    "</Error></Errors></Response>";

struct Harness {
  FakeTransport transport;
  StaticCredentialsProvider credentials{
      Credentials{.access_key_id = "AK", .secret_access_key = "SK", .session_token = "TOKEN"}};
  FakeClock clock;
  FakeRandom random{0.5};
  RetryQuota quota{500};

  AwsClient Client(RetryOptions retry = {}, CallObserver observer = {}) {
    return AwsClient(AwsContext{transport, credentials, clock, random, quota, retry, observer},
                     {.url = "http://127.0.0.1:5000", .scope = {"us-west-2", "ec2"}});
  }
};

TEST(AwsClient, QueryCallSignsAndParses) {
  Harness h;
  h.transport.Push(200, "<DescribeRegionsResponse><regionInfo/></DescribeRegionsResponse>");
  AwsClient client = h.Client();
  auto doc = client.CallQuery(QueryRequest("DescribeRegions", "2016-11-15"));
  ASSERT_TRUE(doc.ok()) << doc.status();
  EXPECT_EQ(doc->Root().Name(), "DescribeRegionsResponse");
  ASSERT_EQ(h.transport.requests().size(), 1u);
  const HttpRequest& sent = h.transport.requests()[0];
  EXPECT_EQ(sent.url, "http://127.0.0.1:5000/");
  EXPECT_EQ(sent.body, "Action=DescribeRegions&Version=2016-11-15");
  EXPECT_EQ(sent.Header("X-Amz-Security-Token"), "TOKEN");
  EXPECT_NE(sent.Header("Authorization").find("/us-west-2/ec2/aws4_request"), std::string::npos);
}

TEST(AwsClient, ThrottlingIsRetriedWithJitteredBackoff) {
  Harness h;
  h.transport.Push(400, kThrottled);
  h.transport.Push(503, "");
  h.transport.Push(200, "<ok/>");
  AwsClient client = h.Client();
  ASSERT_TRUE(client.CallQuery(QueryRequest("DescribeInstances", "2016-11-15")).ok());
  EXPECT_EQ(client.attempts(), 3);
  // Full jitter at 0.5 of 1 s, then of 2 s.
  EXPECT_EQ(h.clock.sleeps(),
            (std::vector<absl::Duration>{absl::Milliseconds(500), absl::Seconds(1)}));
  // The successful retry returned its 5 tokens; the first retry's 5 stay spent.
  EXPECT_EQ(h.quota.available(), 495);
  // Each attempt is signed at its own time.
  EXPECT_NE(h.transport.requests()[0].Header("X-Amz-Date"),
            h.transport.requests()[2].Header("X-Amz-Date"));
}

TEST(AwsClient, GivesUpAfterMaxAttempts) {
  Harness h;
  h.transport.SetHandler([](const HttpRequest&) -> absl::StatusOr<HttpResponse> {
    return HttpResponse{.status = 400, .body = kThrottled};
  });
  AwsClient client = h.Client();
  auto result = client.CallQuery(QueryRequest("DescribeInstances", "2016-11-15"));
  EXPECT_EQ(result.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(AwsErrorCode(result.status()), "RequestLimitExceeded");
  EXPECT_NE(result.status().message().find("after 3 attempts"), absl::string_view::npos);
  EXPECT_EQ(client.attempts(), 3);
}

TEST(AwsClient, EmptyRetryQuotaFailsFast) {
  Harness h;
  h.transport.SetHandler([](const HttpRequest&) -> absl::StatusOr<HttpResponse> {
    return absl::DeadlineExceededError("timeout");
  });
  AwsClient client = h.Client({.max_attempts = 10});
  // 500 tokens at 10 per timed-out retry: 50 retries over the whole process, then none.
  for (int i = 0; i < 6; ++i) {
    (void)client.CallQuery(QueryRequest("DescribeInstances", "2016-11-15"));
  }
  EXPECT_EQ(h.quota.available(), 0);
  EXPECT_EQ(client.attempts(), 56);
  auto result = client.CallQuery(QueryRequest("DescribeInstances", "2016-11-15"));
  EXPECT_NE(result.status().message().find("retry quota exhausted"), absl::string_view::npos);
  EXPECT_EQ(client.attempts(), 57);
}

TEST(AwsClient, NonRetryableErrorsReturnAtOnce) {
  Harness h;
  h.transport.Push(400,
                   "<Response><Errors><Error><Code>InvalidLaunchTemplateName.NotFoundException"
                   "</Code></Error></Errors></Response>");
  AwsClient client = h.Client();
  auto result = client.CallQuery(QueryRequest("CreateFleet", "2016-11-15"));
  EXPECT_EQ(result.status().code(), absl::StatusCode::kNotFound);
  EXPECT_TRUE(IsLaunchTemplateNotFoundCode(*AwsErrorCode(result.status())));
  EXPECT_EQ(client.attempts(), 1);
  EXPECT_TRUE(h.clock.sleeps().empty());
}

TEST(AwsClient, JsonCallSetsTargetAndParses) {
  Harness h;
  h.transport.Push(200, R"({"Parameter":{"Value":"ami-1"}})");
  AwsClient client = h.Client();
  auto json =
      client.CallJson("AmazonSSM.GetParameter", {{"Name", "/x"}}, "application/x-amz-json-1.1");
  ASSERT_TRUE(json.ok()) << json.status();
  EXPECT_EQ((*json)["Parameter"]["Value"], "ami-1");
  EXPECT_EQ(h.transport.requests()[0].Header("X-Amz-Target"), "AmazonSSM.GetParameter");
  EXPECT_EQ(h.transport.requests()[0].body, R"({"Name":"/x"})");
}

TEST(AwsClient, InvalidUtf8InAJsonBodyIsReplacedNotThrown) {
  Harness h;
  h.transport.Push(200, "{}");
  AwsClient client = h.Client();
  ASSERT_TRUE(client
                  .CallJson("AmazonSQS.SendMessage", {{"MessageBody", "bad \xff byte"}},
                            "application/x-amz-json-1.0")
                  .ok());
  EXPECT_EQ(h.transport.requests()[0].body, "{\"MessageBody\":\"bad \xef\xbf\xbd byte\"}");
}

TEST(AwsClient, EveryCallIsReportedWithItsAttemptsToTheObserver) {
  Harness h;
  h.transport.Push(400, kThrottled);
  h.transport.Push(503, "");
  h.transport.Push(200, "<ok/>");
  std::vector<CallRecord> calls;
  AwsClient client = h.Client({}, [&calls](const CallRecord& call) { calls.push_back(call); });
  ASSERT_TRUE(client.CallQuery(QueryRequest("DescribeInstances", "2016-11-15")).ok());
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].service, "EC2");
  EXPECT_EQ(calls[0].action, "DescribeInstances");
  EXPECT_EQ(calls[0].status, 200);
  // The backoff between attempts (0.5 s, then 1 s on the fake clock) is part of the call.
  EXPECT_EQ(calls[0].seconds, 1.5);
  ASSERT_EQ(calls[0].attempts.size(), 3u);
  EXPECT_EQ(calls[0].attempts[0].status, 400);
  EXPECT_EQ(calls[0].attempts[1].status, 503);
  EXPECT_EQ(calls[0].attempts[2].status, 200);

  // A call that got no answer at all is reported with code 0.
  h.transport.Push(absl::InvalidArgumentError("bad URL"));
  EXPECT_FALSE(client.CallJson("AmazonSSM.GetParameter", {}, "application/x-amz-json-1.1").ok());
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[1].action, "GetParameter");
  EXPECT_EQ(calls[1].status, 0);
}

TEST(CallMetrics, UpstreamsSeriesPerCallAndPerAttempt) {
  fakes::RecordingMetrics metrics;
  MetricsObserver(metrics)(
      CallRecord{.service = "EC2",
                 .action = "CreateFleet",
                 .status = 200,
                 .seconds = 2.5007,  // observed in whole milliseconds, as the middleware does
                 .attempts = {{.status = 503, .seconds = 1}, {.status = 200, .seconds = 0.5009}}});
  const std::string call = " service=EC2 action=CreateFleet code=200";
  EXPECT_EQ(metrics.counters["aws_sdk_go_request_total" + call], 1);
  EXPECT_EQ(metrics.observed["aws_sdk_go_request_duration_seconds" + call],
            std::vector<double>{2.5});
  EXPECT_EQ(metrics.observed["aws_sdk_go_request_retry_count" + call], std::vector<double>{1});
  EXPECT_EQ(metrics.counters["aws_sdk_go_request_attempt_total service=EC2 action=CreateFleet "
                             "code=503"],
            1);
  EXPECT_EQ(metrics.counters["aws_sdk_go_request_attempt_total" + call], 1);
  EXPECT_EQ(metrics.observed["aws_sdk_go_request_attempt_duration_seconds" + call],
            (std::vector<double>{1, 0.5}));
  EXPECT_EQ(SdkServiceId("pricing"), "Pricing");
  EXPECT_EQ(SdkServiceId("sqs"), "SQS");
}

TEST(AwsRetry, BackoffIsCappedFullJitter) {
  FakeRandom random(0.999);
  const RetryOptions options;
  EXPECT_LT(RetryBackoff(1, random, options), absl::Seconds(1));
  EXPECT_GT(RetryBackoff(3, random, options), absl::Seconds(3));
  EXPECT_LT(RetryBackoff(30, random, options), absl::Seconds(20));
  EXPECT_GT(RetryBackoff(30, random, options), absl::Seconds(19));
  FakeRandom zero(0);
  EXPECT_EQ(RetryBackoff(5, zero, options), absl::ZeroDuration());
}

}  // namespace
}  // namespace karpenter::aws
