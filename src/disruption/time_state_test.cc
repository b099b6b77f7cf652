#include "src/disruption/time_state.h"

#include "gtest/gtest.h"
#include "src/disruption/disruption_test_util.h"

namespace karpenter::disruption {
namespace {

using namespace ::karpenter::disruption::testing;  // NOLINT: test fixtures

api::Time At(const char* rfc3339) { return *api::Time::ParseRfc3339(rfc3339); }

// Pods start at 2026-12-01T00:00:00Z (PodYaml). The key reads only the clock-dependent part, so
// it moves when "b"'s ten minutes of protection run out and at no other time in between.
TEST(TimeDependentState, MovesWhenADoNotDisruptDurationRunsOut) {
  absl::StatusOr<state::ClusterSnapshot> snapshot = state::testing_util::SnapshotFromYaml(Join(
      {NodeYaml({.name = "node-1"}), PodYaml({.name = "a", .node = "node-1"}),
       PodYaml(
           {.name = "b", .node = "node-1", .annotations = "{karpenter.sh/do-not-disrupt: 10m}"}),
       PodYaml({.name = "c",
                .node = "node-1",
                .annotations = "{karpenter.sh/do-not-disrupt: 'true'}"})}));
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  const std::string start = TimeDependentState(*snapshot, At("2026-12-01T00:01:00Z"));
  EXPECT_EQ(TimeDependentState(*snapshot, At("2026-12-01T00:09:59Z")), start);
  const std::string later = TimeDependentState(*snapshot, At("2026-12-01T00:10:01Z"));
  EXPECT_NE(later, start);
  EXPECT_EQ(TimeDependentState(*snapshot, At("2026-12-01T00:59:00Z")), later);
}

}  // namespace
}  // namespace karpenter::disruption
