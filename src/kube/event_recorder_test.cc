#include "src/kube/event_recorder.h"

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "src/fakes/fake_clock.h"
#include "src/kube/live_cluster.h"

namespace karpenter::kube {
namespace {

// Answers every request 201, but only once the test opens the gate; records the paths and
// bodies in the order they were sent.
class GatedTransport : public Transport {
 public:
  absl::StatusOr<Response> Send(const Request& request, const Credential&) override {
    std::unique_lock<std::mutex> lock(mu_);
    ++waiting_;
    changed_.notify_all();
    changed_.wait(lock, [this] { return open_; });
    --waiting_;
    sent_.push_back(request.path + " " + request.body);
    return Response{201, "{}"};
  }
  absl::StatusOr<Response> Stream(const Request&, const Credential&,
                                  const std::function<bool(std::string_view)>&,
                                  const std::atomic<bool>&) override {
    return absl::UnavailableError("no watches here");
  }
  void Open() {
    std::lock_guard<std::mutex> lock(mu_);
    open_ = true;
    changed_.notify_all();
  }
  // Returns once a request waits at the closed gate.
  void AwaitWaiter() {
    std::unique_lock<std::mutex> lock(mu_);
    changed_.wait(lock, [this] { return waiting_ > 0; });
  }
  std::vector<std::string> sent() {
    std::lock_guard<std::mutex> lock(mu_);
    return sent_;
  }

 private:
  std::mutex mu_;
  std::condition_variable changed_;
  bool open_ = false;
  int waiting_ = 0;
  std::vector<std::string> sent_;
};

struct GatedFixture {
  fakes::FakeClock clock;
  GatedTransport* transport = nullptr;
  std::unique_ptr<Client> client;
  GatedFixture() {
    auto owned = std::make_unique<GatedTransport>();
    transport = owned.get();
    // No rate limit in the way: the test is about who waits for the POST.
    client = std::make_unique<Client>(RestConfig{.server = "https://k", .token = "t"},
                                      ClientLimits{.qps = 1e9, .burst = 1'000'000}, clock,
                                      std::move(owned));
  }
};

Event Nominated(const std::string& pod) {
  return Event{ObjectReference{"Pod", "ns", pod, "uid-" + pod}, EventType::kNormal, "Nominated",
               "Pod should schedule on: nodeclaim/x"};
}

// The provisioner publishes one Nominated event per pod on the controllers' thread: a burst of
// pods must not make that thread wait for as many POSTs.
TEST(ApiEventRecorder, PublishReturnsBeforeThePostWhichDrainWaitsFor) {
  GatedFixture f;
  ApiEventRecorder recorder(*f.client, f.clock, "karpenter");
  recorder.Publish(Nominated("web-0"));
  recorder.Publish(Nominated("web-1"));
  f.transport->AwaitWaiter();  // the first POST is under way and cannot finish
  EXPECT_TRUE(f.transport->sent().empty());
  f.transport->Open();
  recorder.Drain();
  const std::vector<std::string> sent = f.transport->sent();
  ASSERT_EQ(sent.size(), 2u);
  EXPECT_EQ(sent[0].substr(0, sent[0].find(' ')), "/api/v1/namespaces/ns/events");
  EXPECT_NE(sent[0].find("\"web-0\""), std::string::npos) << sent[0];
  EXPECT_NE(sent[1].find("\"web-1\""), std::string::npos) << sent[1];
  EXPECT_EQ(recorder.failed(), 0u);
  EXPECT_EQ(recorder.dropped(), 0u);
}

TEST(ApiEventRecorder, EventsBeyondTheQueueAreDroppedAndCounted) {
  GatedFixture f;
  ApiEventRecorder recorder(*f.client, f.clock, "karpenter");
  recorder.Publish(Nominated("in-flight"));
  f.transport->AwaitWaiter();  // taken off the queue: the queue is empty again
  for (size_t i = 0; i < ApiEventRecorder::kMaxQueuedEvents; ++i) {
    recorder.Publish(Nominated("queued-" + std::to_string(i)));
  }
  recorder.Publish(Nominated("dropped"));
  EXPECT_EQ(recorder.dropped(), 1u);
  f.transport->Open();
  recorder.Drain();
  const std::vector<std::string> sent = f.transport->sent();
  EXPECT_EQ(sent.size(), ApiEventRecorder::kMaxQueuedEvents + 1);
  EXPECT_NE(sent.back().find("queued-999"), std::string::npos);
}

TEST(ApiEventRecorder, EventJsonNamesTheObjectAndPutsClusterScopedOnesInDefault) {
  const Event event{ObjectReference{"NodeClaim", "", "default-x4", "uid-1"}, EventType::kWarning,
                    "InsufficientCapacityError", "every offering tried is out of capacity"};
  const nlohmann::json body = nlohmann::json::parse(ApiEventRecorder::EventJson(
      event, "karpenter", api::Time::FromUnixSeconds(1'800'000'000), 7));
  EXPECT_EQ(body["metadata"]["namespace"], "default");
  EXPECT_TRUE(body["metadata"]["name"].get<std::string>().starts_with("default-x4."));
  EXPECT_EQ(body["involvedObject"]["apiVersion"], "karpenter.sh/v1");
  EXPECT_EQ(body["involvedObject"]["kind"], "NodeClaim");
  EXPECT_EQ(body["involvedObject"]["uid"], "uid-1");
  EXPECT_FALSE(body["involvedObject"].contains("namespace"));
  EXPECT_EQ(body["type"], "Warning");
  EXPECT_EQ(body["reason"], "InsufficientCapacityError");
  EXPECT_EQ(body["source"]["component"], "karpenter");
  EXPECT_EQ(body["lastTimestamp"], "2027-01-15T08:00:00Z");
  // Two events of one object at one instant get different names.
  EXPECT_NE(
      nlohmann::json::parse(ApiEventRecorder::EventJson(
          event, "karpenter", api::Time::FromUnixSeconds(1'800'000'000), 8))["metadata"]["name"],
      body["metadata"]["name"]);
}

TEST(ApiEventRecorderIntegration, APublishedEventCanBeListed) {
  std::unique_ptr<testing::LiveCluster> live = testing::LiveCluster::Connect();
  if (!live) GTEST_SKIP() << testing::kSkipMessage;
  ApiEventRecorder recorder(live->client(), live->clock(), "karpenter");
  recorder.Publish(Event{ObjectReference{"Pod", live->ns(), "web-0", "uid-web"}, EventType::kNormal,
                         "Nominated", "Pod should schedule on: nodeclaim/x"});
  recorder.Drain();
  EXPECT_EQ(recorder.failed(), 0u);
  absl::StatusOr<std::string> listed =
      live->client().Call("GET", "/api/v1/namespaces/" + live->ns() + "/events");
  ASSERT_TRUE(listed.ok()) << listed.status();
  const nlohmann::json events = nlohmann::json::parse(*listed);
  ASSERT_EQ(events["items"].size(), 1u);
  EXPECT_EQ(events["items"][0]["reason"], "Nominated");
  EXPECT_EQ(events["items"][0]["involvedObject"]["name"], "web-0");
}

}  // namespace
}  // namespace karpenter::kube
