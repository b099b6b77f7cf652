#include "src/cloudprovider/catalog.h"

#include <algorithm>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "src/api/labels.h"

namespace karpenter::cloudprovider {
namespace {

using ::testing::DoubleNear;
using ::testing::HasSubstr;

Catalog MustLoad(const CatalogOptions& options = CatalogOptions()) {
  absl::StatusOr<Catalog> catalog = Catalog::LoadEmbedded(options);
  EXPECT_TRUE(catalog.ok()) << catalog.status();
  return catalog.ok() ? *std::move(catalog) : Catalog();
}

const Offering* FindOffering(const InstanceType& type, std::string_view zone,
                             std::string_view capacity_type) {
  for (const Offering& offering : type.offerings) {
    if (offering.zone == zone && offering.capacity_type == capacity_type) return &offering;
  }
  return nullptr;
}

TEST(Catalog, EmbeddedCatalogDescribesUsEast1) {
  Catalog catalog = MustLoad();
  EXPECT_EQ(catalog.region(), "us-east-1");
  EXPECT_EQ(catalog.zones(), (std::vector<std::string>{"us-east-1a", "us-east-1b", "us-east-1c",
                                                       "us-east-1d", "us-east-1e", "us-east-1f"}));
  EXPECT_GT(catalog.Types().size(), 1000u);
  EXPECT_TRUE(
      std::is_sorted(catalog.Types().begin(), catalog.Types().end(),
                     [](const InstanceType& a, const InstanceType& b) { return a.name < b.name; }));
}

TEST(Catalog, FindsTypesByName) {
  Catalog catalog = MustLoad();
  const InstanceType* m5 = catalog.Find("m5.large");
  ASSERT_NE(m5, nullptr);
  EXPECT_EQ(m5->name, "m5.large");
  EXPECT_EQ(m5->labels.at("topology.kubernetes.io/region"), "us-east-1");
  ASSERT_NE(catalog.FindInfo("m5.large"), nullptr);
  EXPECT_EQ(catalog.FindInfo("m5.large")->vcpus, 2);
  EXPECT_EQ(catalog.Find("m5.enormous"), nullptr);
  EXPECT_EQ(catalog.FindInfo(""), nullptr);
  EXPECT_FALSE(catalog.OnDemandPrice("m5.enormous").has_value());
}

TEST(Catalog, EveryTypeWithOnDemandUsageHasAPrice) {
  Catalog catalog = MustLoad();
  std::vector<std::string> unpriced;
  for (const InstanceType& type : catalog.Types()) {
    if (catalog.FindInfo(type.name)->on_demand && !catalog.OnDemandPrice(type.name)) {
      unpriced.push_back(type.name);
    }
  }
  EXPECT_THAT(unpriced, ::testing::IsEmpty());
}

TEST(Catalog, EveryLabelIsAValidKubernetesLabel) {
  Catalog catalog = MustLoad();
  for (const InstanceType& type : catalog.Types()) {
    EXPECT_EQ(type.labels.at("node.kubernetes.io/instance-type"), type.name);
    for (const auto& [key, value] : type.labels) {
      EXPECT_THAT(api::IsQualifiedName(key), ::testing::IsEmpty()) << type.name << " " << key;
      EXPECT_THAT(api::IsValidLabelValue(value), ::testing::IsEmpty())
          << type.name << " " << key << "=" << value;
    }
  }
}

TEST(Catalog, OfferingsCoverEveryZoneAndCapacityType) {
  Catalog catalog = MustLoad();
  const InstanceType* m5 = catalog.Find("m5.large");
  ASSERT_NE(m5, nullptr);
  EXPECT_EQ(m5->offerings.size(), 12u);  // 6 zones x {on-demand, spot}
  const Offering* on_demand = FindOffering(*m5, "us-east-1a", "on-demand");
  ASSERT_NE(on_demand, nullptr);
  EXPECT_TRUE(on_demand->available);
  EXPECT_THAT(on_demand->price, DoubleNear(0.096, 1e-9));
  const Offering* spot = FindOffering(*m5, "us-east-1a", "spot");
  ASSERT_NE(spot, nullptr);
  EXPECT_TRUE(spot->available);
  EXPECT_GT(spot->price, 0);
  EXPECT_LT(spot->price, on_demand->price);
  // us-east-1e does not offer m5.large.
  const Offering* missing_zone = FindOffering(*m5, "us-east-1e", "on-demand");
  ASSERT_NE(missing_zone, nullptr);
  EXPECT_FALSE(missing_zone->available);
}

TEST(Catalog, OnDemandOnlyTypesHaveNoSpotOfferings) {
  Catalog catalog = MustLoad();
  for (const InstanceType& type : catalog.Types()) {
    if (catalog.FindInfo(type.name)->spot) continue;
    for (const Offering& offering : type.offerings) {
      EXPECT_NE(offering.capacity_type, "spot") << type.name;
    }
  }
}

TEST(Catalog, LoadingTwiceGivesIdenticalTypes) {
  EXPECT_EQ(MustLoad().Types(), MustLoad().Types());
}

TEST(Catalog, AmiFamilyDecidesAvailabilityAndResources) {
  CatalogOptions al2;
  al2.resolve.ami_family = AmiFamily::kAL2;
  Catalog al2_catalog = MustLoad(al2);
  const Offering* al2_a1 = FindOffering(*al2_catalog.Find("a1.large"), "us-east-1a", "on-demand");
  ASSERT_NE(al2_a1, nullptr);
  EXPECT_TRUE(al2_a1->available);
  Catalog al2023 = MustLoad();
  const Offering* al2023_a1 = FindOffering(*al2023.Find("a1.large"), "us-east-1a", "on-demand");
  ASSERT_NE(al2023_a1, nullptr);
  EXPECT_FALSE(al2023_a1->available);

  CatalogOptions capped;
  capped.resolve.kubelet.max_pods = 58;
  EXPECT_EQ(MustLoad(capped).Find("m5.large")->capacity.at("pods").Value(), 58);
}

TEST(Catalog, SpotModelOverridesReachTheOfferings) {
  CatalogOptions options;
  options.spot.prices[{"m5.large", "us-east-1b"}] = 0.011;
  options.spot.family_discounts["c5"] = 0;
  options.spot.zone_variation = 0;
  Catalog catalog = MustLoad(options);
  EXPECT_EQ(FindOffering(*catalog.Find("m5.large"), "us-east-1b", "spot")->price, 0.011);
  EXPECT_THAT(FindOffering(*catalog.Find("c5.large"), "us-east-1a", "spot")->price,
              DoubleNear(0.085, 1e-9));
}

TEST(Catalog, LoadReportsBadDataFiles) {
  absl::StatusOr<Catalog> bad_json = Catalog::Load("not json", "", CatalogOptions());
  ASSERT_FALSE(bad_json.ok());
  absl::StatusOr<Catalog> bad_prices = Catalog::Load(
      R"({"region":"r","zones":[],"instanceTypes":[]})", "m5 large", CatalogOptions());
  ASSERT_FALSE(bad_prices.ok());
  EXPECT_THAT(bad_prices.status().message(), HasSubstr("line 1"));
  CatalogOptions options;
  options.resolve.kubelet.system_reserved = {{"memory", "much"}};
  EXPECT_FALSE(Catalog::LoadEmbedded(options).ok());
}

}  // namespace
}  // namespace karpenter::cloudprovider
