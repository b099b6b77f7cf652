#include "src/aws/reservation_availability.h"

#include "gtest/gtest.h"
#include "src/aws/test_fakes.h"

namespace karpenter::aws {
namespace {

api::CapacityReservation Reservation(const std::string& id, int64_t available) {
  return {.availability_zone = "us-west-2a",
          .id = id,
          .instance_type = "m5.large",
          .available_instance_count = available};
}

TEST(ReservationAvailability, StartsFromTheStatusAndCountsLaunchesDown) {
  FakeClock clock;
  ReservationAvailability availability(clock);
  EXPECT_EQ(availability.Available(Reservation("cr-1", 2)), 2);
  availability.MarkLaunched("cr-1");
  // The status has not been refreshed: its stale 2 does not undo the launch.
  EXPECT_EQ(availability.Available(Reservation("cr-1", 2)), 1);
  availability.MarkLaunched("cr-1");
  availability.MarkLaunched("cr-1");
  EXPECT_EQ(availability.Available(Reservation("cr-1", 2)), 0);
}

TEST(ReservationAvailability, ASyncResetsTheCountToEc2s) {
  FakeClock clock;
  ReservationAvailability availability(clock);
  EXPECT_EQ(availability.Available(Reservation("cr-1", 3)), 3);
  availability.MarkLaunched("cr-1");
  availability.Sync({Reservation("cr-1", 5)});
  EXPECT_EQ(availability.Available(Reservation("cr-1", 3)), 5);
  availability.MarkLaunched("cr-1");
  EXPECT_EQ(availability.Available(Reservation("cr-1", 3)), 4);
}

TEST(ReservationAvailability, MarkUnavailableEmptiesOnlyThatReservation) {
  FakeClock clock;
  ReservationAvailability availability(clock);
  availability.Sync({Reservation("cr-1", 3), Reservation("cr-2", 3)});
  availability.MarkUnavailable("cr-1");
  availability.MarkUnavailable("cr-unknown");
  EXPECT_EQ(availability.Available(Reservation("cr-1", 3)), 0);
  EXPECT_EQ(availability.Available(Reservation("cr-2", 3)), 3);
}

TEST(ReservationAvailability, ATerminatedInstanceGivesItsSlotBack) {
  FakeClock clock;
  ReservationAvailability availability(clock);
  availability.Sync({Reservation("cr-1", 1)});
  availability.MarkLaunched("cr-1");
  EXPECT_EQ(availability.Available(Reservation("cr-1", 1)), 0);
  availability.MarkTerminated("cr-1");
  EXPECT_EQ(availability.Available(Reservation("cr-1", 1)), 1);
  // One never described is not invented.
  availability.MarkTerminated("cr-unknown");
  EXPECT_EQ(availability.Available(Reservation("cr-unknown", 0)), 0);
}

}  // namespace
}  // namespace karpenter::aws
