#include "src/interruption/message.h"

#include <gtest/gtest.h>

#include <string>

namespace karpenter::interruption {
namespace {

std::string Event(const std::string& source, const std::string& detail_type,
                  const std::string& detail, const std::string& version = "0") {
  return "{\"version\":\"" + version + "\",\"id\":\"e-1\",\"detail-type\":\"" + detail_type +
         "\",\"source\":\"" + source +
         "\",\"account\":\"123456789012\",\"time\":\"2026-12-03T10:00:00Z\",\"region\":"
         "\"us-east-1\",\"resources\":[\"arn:aws:ec2:us-east-1:123456789012:instance/"
         "i-0abc\"],\"detail\":" +
         detail + "}";
}

TEST(ParseMessage, SpotInterruptionWarningDeletesAndMarksTheOfferingUnavailable) {
  absl::StatusOr<Message> message =
      ParseMessage(Event("aws.ec2", "EC2 Spot Instance Interruption Warning",
                         R"({"instance-id":"i-0abc","instance-action":"terminate"})"));
  ASSERT_TRUE(message.ok()) << message.status();
  EXPECT_EQ(message->kind, Kind::kSpotInterrupted);
  EXPECT_EQ(message->id, "e-1");
  EXPECT_EQ(message->instance_ids, std::vector<std::string>{"i-0abc"});
  const Action action = ActionFor(message->kind);
  EXPECT_TRUE(action.delete_node_claim);
  EXPECT_TRUE(action.mark_offering_unavailable);
  EXPECT_EQ(action.event_reason, "SpotInterrupted");
  EXPECT_EQ(KindName(message->kind), "spot_interrupted");
}

TEST(ParseMessage, RebalanceRecommendationIsAnEventOnly) {
  absl::StatusOr<Message> message = ParseMessage(
      Event("aws.ec2", "EC2 Instance Rebalance Recommendation", R"({"instance-id":"i-0abc"})"));
  ASSERT_TRUE(message.ok()) << message.status();
  EXPECT_EQ(message->kind, Kind::kRebalanceRecommendation);
  EXPECT_FALSE(ActionFor(message->kind).delete_node_claim);
  EXPECT_EQ(ActionFor(message->kind).event_reason, "SpotRebalanceRecommendation");
}

TEST(ParseMessage, StateChangesMapToStoppedTerminatedOrNothing) {
  const std::string type = "EC2 Instance State-change Notification";
  auto kind = [&](const std::string& state) {
    return ParseMessage(
               Event("aws.ec2", type, R"({"instance-id":"i-0abc","state":")" + state + "\"}"))
        ->kind;
  };
  EXPECT_EQ(kind("stopping"), Kind::kInstanceStopped);
  EXPECT_EQ(kind("stopped"), Kind::kInstanceStopped);
  EXPECT_EQ(kind("shutting-down"), Kind::kInstanceTerminated);
  EXPECT_EQ(kind("terminated"), Kind::kInstanceTerminated);
  EXPECT_EQ(kind("running"), Kind::kNoOp);
  EXPECT_EQ(ActionFor(Kind::kInstanceStopped).event_reason, "InstanceStopping");
}

TEST(ParseMessage, HealthEventsActOnlyOnEc2ScheduledChanges) {
  const std::string scheduled =
      R"({"service":"EC2","eventTypeCategory":"scheduledChange","affectedEntities":[{"entityValue":"i-1"},{"entityValue":"i-2"}]})";
  absl::StatusOr<Message> message =
      ParseMessage(Event("aws.health", "AWS Health Event", scheduled));
  ASSERT_TRUE(message.ok()) << message.status();
  EXPECT_EQ(message->kind, Kind::kScheduledChange);
  EXPECT_EQ(message->instance_ids, (std::vector<std::string>{"i-1", "i-2"}));
  EXPECT_EQ(ActionFor(message->kind).event_reason, "InstanceUnhealthy");
  const std::string issue =
      R"({"service":"EC2","eventTypeCategory":"issue","affectedEntities":[{"entityValue":"i-1"}]})";
  EXPECT_EQ(ParseMessage(Event("aws.health", "AWS Health Event", issue))->kind, Kind::kNoOp);
}

TEST(ParseMessage, UnknownRoutesAndVersionsAreNoOps) {
  EXPECT_EQ(ParseMessage(Event("aws.s3", "Object Created", "{}"))->kind, Kind::kNoOp);
  EXPECT_EQ(ParseMessage(Event("aws.ec2", "EC2 Spot Instance Interruption Warning",
                               R"({"instance-id":"i-0abc"})", "1"))
                ->kind,
            Kind::kNoOp);
  EXPECT_FALSE(ActionFor(Kind::kNoOp).delete_node_claim);
}

TEST(ParseMessage, MalformedBodiesAreErrorsNamingTheField) {
  EXPECT_FALSE(ParseMessage("not json").ok());
  EXPECT_FALSE(ParseMessage("").ok());
  absl::StatusOr<Message> missing =
      ParseMessage(Event("aws.ec2", "EC2 Spot Instance Interruption Warning", "{}"));
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("detail.instance-id"), std::string::npos);
  absl::StatusOr<Message> wrong_type = ParseMessage(
      Event("aws.ec2", "EC2 Spot Instance Interruption Warning", R"({"instance-id":7})"));
  ASSERT_FALSE(wrong_type.ok());
  EXPECT_NE(wrong_type.status().message().find("instance-id"), std::string::npos);
}

}  // namespace
}  // namespace karpenter::interruption
