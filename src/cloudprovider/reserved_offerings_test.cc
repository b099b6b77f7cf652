#include "src/cloudprovider/reserved_offerings.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace karpenter::cloudprovider {
namespace {

api::CapacityReservation Reservation(std::string id, std::string type, std::string zone,
                                     std::optional<int64_t> count) {
  return api::CapacityReservation{.availability_zone = std::move(zone),
                                  .id = std::move(id),
                                  .instance_match_criteria = "targeted",
                                  .instance_type = std::move(type),
                                  .owner_id = "012345678901",
                                  .reservation_type = "default",
                                  .state = "active",
                                  .available_instance_count = count};
}

class ReservedOfferingsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<Catalog> loaded = Catalog::LoadEmbedded();
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    catalog_ = *std::move(loaded);
    m5_ = catalog_.Find("m5.large");
    ASSERT_NE(m5_, nullptr);
  }
  Catalog catalog_;
  const InstanceType* m5_ = nullptr;
};

TEST_F(ReservedOfferingsTest, OneOfferingPerReservationOfTheTypeWithItsLabelsAndCapacity) {
  std::vector<api::CapacityReservation> reservations = {
      Reservation("cr-a", "m5.large", "us-east-1a", 2),
      Reservation("cr-other", "c5.large", "us-east-1a", 5),
      Reservation("cr-b", "m5.large", "us-east-1b", 1)};
  reservations[2].reservation_type = "capacity-block";
  reservations[2].interruptible = true;
  const std::vector<Offering> offerings = ReservedOfferings(catalog_, *m5_, reservations);
  ASSERT_EQ(offerings.size(), 2u);
  EXPECT_EQ(offerings[0].reservation_id, "cr-a");
  EXPECT_EQ(offerings[0].zone, "us-east-1a");
  EXPECT_EQ(offerings[0].capacity_type, "reserved");
  EXPECT_EQ(offerings[0].reservation_type, "default");
  EXPECT_FALSE(offerings[0].reservation_interruptible);
  EXPECT_EQ(offerings[0].reservation_capacity, 2);
  EXPECT_TRUE(offerings[0].available);
  EXPECT_EQ(offerings[1].reservation_id, "cr-b");
  EXPECT_EQ(offerings[1].reservation_type, "capacity-block");
  EXPECT_TRUE(offerings[1].reservation_interruptible);
  EXPECT_TRUE(HasReservationFor("m5.large", reservations));
  EXPECT_FALSE(HasReservationFor("m5.xlarge", reservations));
}

TEST_F(ReservedOfferingsTest, PricedAsTheOnDemandPriceOverTenMillion) {
  const std::vector<api::CapacityReservation> reservations = {
      Reservation("cr-a", "m5.large", "us-east-1a", 1)};
  const std::vector<Offering> offerings = ReservedOfferings(catalog_, *m5_, reservations);
  ASSERT_EQ(offerings.size(), 1u);
  const double on_demand = catalog_.OnDemandPrice("m5.large").value();
  EXPECT_DOUBLE_EQ(offerings[0].price, on_demand / 10'000'000.0);
  EXPECT_GT(offerings[0].price, 0);
}

TEST_F(ReservedOfferingsTest, UnavailableWhenExhaustedUnknownExpiringOrZoneLacksTheType) {
  std::vector<api::CapacityReservation> reservations = {
      Reservation("cr-zero", "m5.large", "us-east-1a", 0),
      Reservation("cr-unknown", "m5.large", "us-east-1a", std::nullopt),
      Reservation("cr-expiring", "m5.large", "us-east-1a", 3),
      // The catalog does not offer m5.large in us-east-1e.
      Reservation("cr-nozone", "m5.large", "us-east-1e", 3)};
  reservations[2].state = "expiring";
  const std::vector<Offering> offerings = ReservedOfferings(catalog_, *m5_, reservations);
  ASSERT_EQ(offerings.size(), 4u);
  for (const Offering& offering : offerings) {
    EXPECT_FALSE(offering.available) << offering.reservation_id;
  }
}

}  // namespace
}  // namespace karpenter::cloudprovider
