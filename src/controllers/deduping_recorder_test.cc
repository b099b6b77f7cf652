#include "src/controllers/deduping_recorder.h"

#include "gtest/gtest.h"
#include "src/fakes/fake_clock.h"
#include "src/fakes/fake_event_recorder.h"

namespace karpenter::controllers {
namespace {

Event Blocked(std::string node, std::string message = "pdb prevents pod evictions") {
  return Event{.object = {.kind = "Node", .name = std::move(node)},
               .type = EventType::kNormal,
               .reason = "DisruptionBlocked",
               .message = std::move(message)};
}

TEST(DedupingRecorder, DropsARepeatWithinTwoMinutes) {
  fakes::FakeClock clock;
  fakes::FakeEventRecorder sink;
  DedupingRecorder recorder(clock, sink);
  EXPECT_TRUE(recorder.Publish(Blocked("a")));
  clock.Advance(119'999);
  EXPECT_FALSE(recorder.Publish(Blocked("a")));
  clock.Advance(1);
  EXPECT_TRUE(recorder.Publish(Blocked("a")));
  EXPECT_EQ(sink.Count("DisruptionBlocked"), 2u);
  EXPECT_EQ(recorder.dropped(), 1u);
}

TEST(DedupingRecorder, DifferentObjectsOrMessagesAreDifferentEvents) {
  fakes::FakeClock clock;
  fakes::FakeEventRecorder sink;
  DedupingRecorder recorder(clock, sink);
  EXPECT_TRUE(recorder.Publish(Blocked("a")));
  EXPECT_TRUE(recorder.Publish(Blocked("b")));
  EXPECT_TRUE(recorder.Publish(Blocked("a", "do-not-disrupt")));
  EXPECT_EQ(sink.events().size(), 3u);
}

TEST(DedupingRecorder, DedupeValuesNameTheIdentity) {
  fakes::FakeClock clock;
  fakes::FakeEventRecorder sink;
  DedupingRecorder recorder(clock, sink);
  EXPECT_TRUE(recorder.Publish(Blocked("a", "first"), {"uid-1"}));
  EXPECT_FALSE(recorder.Publish(Blocked("a", "second wording"), {"uid-1"}));
  EXPECT_TRUE(recorder.Publish(Blocked("a", "first"), {"uid-1"}, /*timeout_millis=*/0));
}

}  // namespace
}  // namespace karpenter::controllers
