// The embedded catalog in regions other than us-east-1: zones, prices and the unknown-region error.
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "src/cloudprovider/catalog.h"
#include "src/cloudprovider/region_catalog.h"

namespace karpenter::cloudprovider {
namespace {

using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

Catalog MustLoadRegion(const std::string& region) {
  CatalogOptions options;
  options.resolve.region = region;
  absl::StatusOr<Catalog> catalog = Catalog::LoadEmbedded(options);
  EXPECT_TRUE(catalog.ok()) << catalog.status();
  return catalog.ok() ? *std::move(catalog) : Catalog();
}

// Types moto offers somewhere but for which the project knows no public price: left unpriced,
// and so unavailable, as upstream leaves a type its pricing cannot price (docs/catalog.md).
bool KnownUnpriced(const std::string& name) {
  for (std::string_view prefix : {"dl2q.", "hpc8a.", "p5e.", "trn2.", "x8aedz."}) {
    if (name.starts_with(prefix)) return true;
  }
  return false;
}

TEST(CatalogRegion, UsWest2HasItsOwnZonesLabelsAndPrices) {
  Catalog catalog = MustLoadRegion("us-west-2");
  EXPECT_EQ(catalog.region(), "us-west-2");
  EXPECT_THAT(catalog.zones(), ElementsAre("us-west-2a", "us-west-2b", "us-west-2c", "us-west-2d"));
  const InstanceType* m5 = catalog.Find("m5.large");
  ASSERT_NE(m5, nullptr);
  EXPECT_EQ(m5->labels.at("topology.kubernetes.io/region"), "us-west-2");
  for (const Offering& offering : m5->offerings) {
    EXPECT_TRUE(offering.zone.starts_with("us-west-2")) << offering.zone;
  }
  EXPECT_THAT(*catalog.OnDemandPrice("m5.large"), DoubleNear(0.096, 1e-9));
}

TEST(CatalogRegion, EuWest1PricesAtItsLevelAndListsOnlyItsTypes) {
  Catalog catalog = MustLoadRegion("eu-west-1");
  EXPECT_THAT(*catalog.OnDemandPrice("m5.large"), DoubleNear(0.107, 1e-9));
  // Scaled from us-east-1 by the region's level: c5.large is 0.085 there.
  EXPECT_THAT(*catalog.OnDemandPrice("c5.large"), DoubleNear(0.085 * 0.107 / 0.096, 1e-9));
  Catalog us_east_1 = MustLoadRegion("us-east-1");
  EXPECT_LT(catalog.Types().size(), us_east_1.Types().size());
  for (const InstanceType& type : catalog.Types()) {
    EXPECT_THAT(catalog.FindInfo(type.name)->zones, testing::Not(IsEmpty())) << type.name;
  }
}

TEST(CatalogRegion, PricesAloneAreTheFullCatalogsWithoutItsTypes) {
  for (const std::string region : {"us-east-1", "eu-west-1"}) {
    CatalogOptions options;
    options.resolve.region = region;
    options.spot.default_discount = 0.5;
    absl::StatusOr<Catalog> prices = Catalog::LoadEmbeddedPrices(options);
    ASSERT_TRUE(prices.ok()) << prices.status();
    absl::StatusOr<Catalog> full = Catalog::LoadEmbedded(options);
    ASSERT_TRUE(full.ok()) << full.status();
    EXPECT_THAT(prices->Types(), IsEmpty());
    EXPECT_EQ(prices->Find("m5.large"), nullptr);
    EXPECT_EQ(prices->region(), region);
    EXPECT_EQ(prices->zones(), full->zones());
    EXPECT_EQ(prices->spot_prices().default_discount, 0.5);
    size_t priced = 0;
    for (const InstanceType& type : full->Types()) {
      EXPECT_EQ(prices->OnDemandPrice(type.name), full->OnDemandPrice(type.name)) << type.name;
      if (full->OnDemandPrice(type.name)) ++priced;
    }
    EXPECT_GT(priced, 100u) << region;
  }
  CatalogOptions unknown;
  unknown.resolve.region = "moon-central-1";
  EXPECT_TRUE(absl::IsNotFound(Catalog::LoadEmbeddedPrices(unknown).status()));
}

TEST(CatalogRegion, EmptyRegionIsUsEast1) {
  CatalogOptions options;
  absl::StatusOr<Catalog> catalog = Catalog::LoadEmbedded(options);
  ASSERT_TRUE(catalog.ok()) << catalog.status();
  EXPECT_EQ(catalog->region(), std::string(kDefaultRegion));
  EXPECT_EQ(catalog->Types(), MustLoadRegion("us-east-1").Types());
}

TEST(CatalogRegion, UnknownRegionListsTheKnownOnes) {
  CatalogOptions options;
  options.resolve.region = "moon-central-1";
  absl::StatusOr<Catalog> catalog = Catalog::LoadEmbedded(options);
  ASSERT_EQ(catalog.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(catalog.status().message(), HasSubstr("unknown region \"moon-central-1\""));
  EXPECT_THAT(catalog.status().message(), HasSubstr("eu-west-1"));
  EXPECT_THAT(catalog.status().message(), HasSubstr("us-west-2"));
}

TEST(CatalogRegion, EveryTypeOfEveryRegionHasAnOnDemandPrice) {
  for (const std::string& region : EmbeddedRegions()) {
    Catalog catalog = MustLoadRegion(region);
    EXPECT_GT(catalog.Types().size(), 100u) << region;
    std::vector<std::string> unpriced;
    for (const InstanceType& type : catalog.Types()) {
      if (!catalog.FindInfo(type.name)->on_demand || KnownUnpriced(type.name)) continue;
      if (!catalog.OnDemandPrice(type.name)) unpriced.push_back(type.name);
    }
    EXPECT_THAT(unpriced, IsEmpty()) << region;
  }
}

}  // namespace
}  // namespace karpenter::cloudprovider
