#include "src/sim/events.h"

#include <gtest/gtest.h>

namespace karpenter::sim {
namespace {

// A record made later at a position taken earlier lands where it would have landed then, with
// its timeline mark, before everything recorded in between.
TEST(EventLog, RecordAtPutsALateRecordWhereItsPositionWas) {
  EventLog log(true);
  log.Record(1000, "Step", {});
  const EventLog::Position position = log.position();
  log.Record(2000, "NodeReady", {Str("node", "b")});
  log.RecordAt(position, 1000, "NodeReady", {Str("node", "a")});
  log.Record(3000, "Step", {});
  ASSERT_EQ(log.lines().size(), 4u);
  EXPECT_NE(log.lines()[1].find("\"node\":\"a\""), std::string::npos) << log.lines()[1];
  EXPECT_NE(log.lines()[2].find("\"node\":\"b\""), std::string::npos) << log.lines()[2];
  const std::vector<TimelineMark> marks = log.TakeMarks();
  ASSERT_EQ(marks.size(), 2u);
  EXPECT_EQ(marks[0].at, 1000);
  EXPECT_EQ(marks[1].at, 2000);
}

// Counts read as integers, measurements keep their three decimals.
TEST(EventLog, CountsAreIntegersAndMeasurementsDecimals) {
  EventLog log(true);
  log.Record(1000, "ScaleUp", {Count("nodes", 3), Num("seconds", 3)});
  ASSERT_EQ(log.lines().size(), 1u);
  EXPECT_NE(log.lines()[0].find("\"nodes\":3,\"seconds\":3.000"), std::string::npos)
      << log.lines()[0];
}

// Without lines (no --events) the marks still go in order.
TEST(EventLog, RecordAtOrdersMarksWithoutLines) {
  EventLog log(false);
  const EventLog::Position position = log.position();
  log.Record(2000, "NodeReady", {});
  log.RecordAt(position, 1000, "NodeClaimCreated", {});
  EXPECT_TRUE(log.lines().empty());
  const std::vector<TimelineMark> marks = log.TakeMarks();
  ASSERT_EQ(marks.size(), 2u);
  EXPECT_EQ(marks[0].at, 1000);
  EXPECT_EQ(marks[1].at, 2000);
}

}  // namespace
}  // namespace karpenter::sim
