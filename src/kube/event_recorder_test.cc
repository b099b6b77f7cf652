#include "src/kube/event_recorder.h"

#include <string>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "src/kube/live_cluster.h"

namespace karpenter::kube {
namespace {

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
