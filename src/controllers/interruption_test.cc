#include "src/controllers/interruption.h"

#include <map>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "src/fakes/fake_clock.h"
#include "src/fakes/fake_interruption_queue.h"
#include "src/metrics/karpenter_metrics.h"

namespace karpenter::controllers {
namespace {

std::string SpotWarning(const std::string& instance_id) {
  return R"({"version":"0","id":"e-1","detail-type":"EC2 Spot Instance Interruption Warning",)"
         R"("source":"aws.ec2","account":"123456789012","time":"2026-12-03T10:00:00Z",)"
         R"("region":"us-east-1","resources":[],"detail":{"instance-id":")" +
         instance_id + R"(","instance-action":"terminate"}})";
}

std::string Rebalance(const std::string& instance_id) {
  return R"({"version":"0","id":"e-2","detail-type":"EC2 Instance Rebalance Recommendation",)"
         R"("source":"aws.ec2","account":"123456789012","time":"2026-12-03T10:00:00Z",)"
         R"("region":"us-east-1","resources":[],"detail":{"instance-id":")" +
         instance_id + R"("}})";
}

struct Fixture {
  fakes::FakeClock clock;
  metrics::Registry metrics{metrics::KarpenterCatalog()};
  cloudprovider::UnavailableOfferings unavailable{clock, [] { return 180'000; }};
  std::vector<std::string> received;
  std::vector<std::string> deleted;
  std::vector<std::string> invalid;
  InterruptionController controller{
      unavailable, metrics,
      InterruptionHooks{
          .find = [](const std::string& id) -> std::optional<InterruptedInstance> {
            if (id != "i-ours") return std::nullopt;
            return InterruptedInstance{.instance_id = id,
                                       .node_claim = "default-abc",
                                       .node_pool = "default",
                                       .offering = {"m5.large", "us-east-1a", "spot"}};
          },
          .received =
              [this](const InterruptedInstance& instance, const interruption::Message&,
                     const interruption::Action& action) {
                received.push_back(instance.node_claim + " " + std::string(action.event_reason));
              },
          .delete_node_claim =
              [this](const InterruptedInstance& instance) {
                deleted.push_back(instance.node_claim);
              },
          .invalid = [this](const QueueMessage& message,
                            const absl::Status&) { invalid.push_back(message.id); }}};
};

TEST(InterruptionController, SpotWarningMarksTheOfferingAndDeletesTheNodeClaimOnce) {
  Fixture f;
  ASSERT_TRUE(f.controller.Handle(SpotWarning("i-ours")).ok());
  ASSERT_TRUE(f.controller.Handle(SpotWarning("i-ours")).ok());
  EXPECT_TRUE(f.unavailable.IsUnavailable("m5.large", "us-east-1a", "spot"));
  EXPECT_EQ(f.received.size(), 2u);
  EXPECT_EQ(f.deleted, (std::vector<std::string>{"default-abc"})) << "a repeat deletes nothing";
  EXPECT_EQ(f.metrics.Value("karpenter_nodeclaims_disrupted_total", {{"reason", "spot_interrupted"},
                                                                     {"nodepool", "default"},
                                                                     {"capacity_type", "spot"}}),
            1);
}

TEST(InterruptionController, RebalanceRecommendationOnlyRecordsAndOtherInstancesAreIgnored) {
  Fixture f;
  ASSERT_TRUE(f.controller.Handle(Rebalance("i-ours")).ok());
  ASSERT_TRUE(f.controller.Handle(SpotWarning("i-someone-elses")).ok());
  EXPECT_EQ(f.received.size(), 1u);
  EXPECT_TRUE(f.deleted.empty());
  EXPECT_TRUE(f.unavailable.empty());
  EXPECT_EQ(f.metrics.Value("karpenter_interruption_received_messages_total",
                            {{"message_type", "rebalance_recommendation"}}),
            1);
}

TEST(InterruptionController, ReconcileDeletesEveryMessageParsedOrNot) {
  Fixture f;
  fakes::FakeInterruptionQueue queue;
  queue.Send(SpotWarning("i-ours"), f.clock.Now());
  queue.Send("{not json", f.clock.Now());
  f.clock.Advance(2500);
  absl::StatusOr<ReconcileResult> result = f.controller.Reconcile(queue, f.clock);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(queue.size(), 0u);
  EXPECT_EQ(f.deleted, (std::vector<std::string>{"default-abc"}));
  EXPECT_EQ(f.invalid, (std::vector<std::string>{"message-2"}));
  EXPECT_EQ(f.metrics.Value("karpenter_interruption_deleted_messages_total", {}), 2);
  EXPECT_EQ(f.metrics.Value("karpenter_interruption_message_queue_duration_seconds", {}), 2)
      << "one observation per message";
  EXPECT_EQ(result->requeue_after_millis, 1000);
}

TEST(InterruptionController, ReconcileRequeuesAtOnceAfterAFullBatchAndFailsWhenUnreachable) {
  Fixture f;
  fakes::FakeInterruptionQueue queue;
  for (size_t i = 0; i < kInterruptionBatch + 1; ++i) queue.Send(Rebalance("i-other"));
  absl::StatusOr<ReconcileResult> full = f.controller.Reconcile(queue, f.clock);
  ASSERT_TRUE(full.ok());
  EXPECT_EQ(full->requeue_after_millis, 0);
  EXPECT_EQ(queue.size(), 1u);
  queue.FailReceives(1);
  EXPECT_EQ(f.controller.Reconcile(queue, f.clock).status().code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(queue.size(), 1u);
}

}  // namespace
}  // namespace karpenter::controllers
