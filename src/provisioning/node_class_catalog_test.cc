// CatalogCache::InstanceTypesFor with capacity reservations: the class's reservations become
// reserved offerings of their types, within the class's subnet zones.
#include "src/provisioning/node_class_catalog.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "src/api/ec2nodeclass_testing.h"

namespace karpenter::provisioning {
namespace {

const InstanceTypeView* FindView(const std::vector<InstanceTypeView>& views,
                                 const std::string& name) {
  for (const InstanceTypeView& view : views) {
    if (view.name == name) return &view;
  }
  return nullptr;
}

std::vector<const OfferingView*> ReservedOf(const InstanceTypeView& view) {
  std::vector<const OfferingView*> out;
  for (const OfferingView& offering : view.offerings) {
    if (offering.capacity_type == "reserved") out.push_back(&offering);
  }
  return out;
}

api::CapacityReservation Reservation(const std::string& id, const std::string& zone) {
  return api::CapacityReservation{.availability_zone = zone,
                                  .id = id,
                                  .instance_match_criteria = "targeted",
                                  .instance_type = "m5.large",
                                  .owner_id = "012345678901",
                                  .reservation_type = "default",
                                  .state = "active",
                                  .available_instance_count = 2};
}

TEST(CatalogCache, ReservationsBecomeReservedOfferingsInTheSubnetZones) {
  api::EC2NodeClass node_class = api::ValidEC2NodeClass();
  node_class.status.subnets = {api::Subnet{.id = "subnet-a", .zone = "us-east-1a"},
                               api::Subnet{.id = "subnet-b", .zone = "us-east-1b"}};
  node_class.status.capacity_reservations = {Reservation("cr-a", "us-east-1a"),
                                             Reservation("cr-c", "us-east-1c")};
  CatalogCache catalogs;
  absl::StatusOr<SharedVector<InstanceTypeView>> views = catalogs.InstanceTypesFor(node_class);
  ASSERT_TRUE(views.ok()) << views.status();
  const InstanceTypeView* m5 = FindView(views->vector(), "m5.large");
  ASSERT_NE(m5, nullptr);
  const std::vector<const OfferingView*> reserved = ReservedOf(*m5);
  // us-east-1c has no subnet of the class.
  ASSERT_EQ(reserved.size(), 1u);
  EXPECT_EQ(reserved[0]->reservation_id, "cr-a");
  EXPECT_EQ(reserved[0]->zone, "us-east-1a");
  EXPECT_EQ(reserved[0]->reservation_capacity, 2);
  EXPECT_TRUE(m5->requirements.Get("karpenter.sh/capacity-type").Has("reserved"));
  const InstanceTypeView* m5_xlarge = FindView(views->vector(), "m5.xlarge");
  ASSERT_NE(m5_xlarge, nullptr);
  EXPECT_TRUE(ReservedOf(*m5_xlarge).empty());
  EXPECT_FALSE(m5_xlarge->requirements.Get("karpenter.sh/capacity-type").Has("reserved"));

  // Same resolve options and zones, no reservations: a view list of its own.
  node_class.status.capacity_reservations.clear();
  absl::StatusOr<SharedVector<InstanceTypeView>> plain = catalogs.InstanceTypesFor(node_class);
  ASSERT_TRUE(plain.ok());
  EXPECT_TRUE(ReservedOf(*FindView(plain->vector(), "m5.large")).empty());
}

}  // namespace
}  // namespace karpenter::provisioning
