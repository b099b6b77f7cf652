#include "src/cloudprovider/spot_price_model.h"

#include <set>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace karpenter::cloudprovider {
namespace {

using ::testing::DoubleNear;

TEST(SpotDiscount, CategoryDiscountAdjustedByGeneration) {
  SpotPriceModel model = DefaultSpotPriceModel();
  EXPECT_THAT(SpotDiscount(model, "m5.large"), DoubleNear(0.62 + 0.02, 1e-12));
  EXPECT_THAT(SpotDiscount(model, "m6i.large"), DoubleNear(0.62, 1e-12));
  EXPECT_THAT(SpotDiscount(model, "c7i.large"), DoubleNear(0.62 - 0.04, 1e-12));
  EXPECT_THAT(SpotDiscount(model, "r8g.large"), DoubleNear(0.66 - 0.08, 1e-12));
  EXPECT_THAT(SpotDiscount(model, "c3.large"), DoubleNear(0.62 + 0.06, 1e-12));
  EXPECT_THAT(SpotDiscount(model, "p4d.24xlarge"), DoubleNear(0.50 + 0.04, 1e-12));
  EXPECT_THAT(SpotDiscount(model, "inf2.xlarge"), DoubleNear(0.55 + 0.06, 1e-12));
}

TEST(SpotDiscount, UnknownCategoryOrUnparsableNameUsesTheDefault) {
  SpotPriceModel model = DefaultSpotPriceModel();
  model.generation_adjustments.clear();
  EXPECT_THAT(SpotDiscount(model, "zz9.large"), DoubleNear(model.default_discount, 1e-12));
  EXPECT_THAT(SpotDiscount(model, "nonsense"), DoubleNear(model.default_discount, 1e-12));
}

TEST(SpotDiscount, TypeOverrideBeatsFamilyOverrideBeatsCategory) {
  SpotPriceModel model = DefaultSpotPriceModel();
  model.family_discounts["m5"] = 0.30;
  model.type_discounts["m5.large"] = 0.10;
  EXPECT_THAT(SpotDiscount(model, "m5.large"), DoubleNear(0.10, 1e-12));
  EXPECT_THAT(SpotDiscount(model, "m5.xlarge"), DoubleNear(0.30, 1e-12));
  EXPECT_THAT(SpotDiscount(model, "m6i.large"), DoubleNear(0.62, 1e-12));
}

TEST(SpotDiscount, ClampedToZeroAndMaxDiscount) {
  SpotPriceModel model = DefaultSpotPriceModel();
  model.type_discounts["a.large"] = 1.5;
  model.type_discounts["b.large"] = -0.2;
  model.max_discount = 0.8;
  EXPECT_THAT(SpotDiscount(model, "a.large"), DoubleNear(0.8, 1e-12));
  EXPECT_THAT(SpotDiscount(model, "b.large"), DoubleNear(0.0, 1e-12));
}

TEST(SpotPrice, DiscountsTheOnDemandPriceWithoutZoneVariation) {
  SpotPriceModel model = DefaultSpotPriceModel();
  model.zone_variation = 0;
  EXPECT_THAT(SpotPrice(model, "m5.large", "us-east-1a", 0.096),
              DoubleNear(0.096 * (1 - 0.64), 1e-12));
}

TEST(SpotPrice, ZoneVariationIsBoundedDeterministicAndZoneSpecific) {
  SpotPriceModel model = DefaultSpotPriceModel();
  double base = 0.096 * (1 - SpotDiscount(model, "m5.large"));
  std::set<double> seen;
  for (const char* zone : {"us-east-1a", "us-east-1b", "us-east-1c", "us-east-1d", "us-east-1f"}) {
    double price = SpotPrice(model, "m5.large", zone, 0.096);
    EXPECT_GE(price, base * (1 - model.zone_variation)) << zone;
    EXPECT_LE(price, base * (1 + model.zone_variation)) << zone;
    EXPECT_EQ(price, SpotPrice(model, "m5.large", zone, 0.096)) << zone;
    seen.insert(price);
  }
  EXPECT_GT(seen.size(), 1u);
}

TEST(SpotPrice, ExactPriceOverrideWins) {
  SpotPriceModel model = DefaultSpotPriceModel();
  model.prices[{"m5.large", "us-east-1a"}] = 0.0123;
  EXPECT_EQ(SpotPrice(model, "m5.large", "us-east-1a", 0.096), 0.0123);
  EXPECT_NE(SpotPrice(model, "m5.large", "us-east-1b", 0.096), 0.0123);
}

TEST(SpotPrice, NeverAboveOnDemand) {
  SpotPriceModel model = DefaultSpotPriceModel();
  model.type_discounts["m5.large"] = 0;
  model.zone_variation = 0.5;
  for (const char* zone : {"us-east-1a", "us-east-1b", "us-east-1c", "us-east-1d"}) {
    EXPECT_LE(SpotPrice(model, "m5.large", zone, 0.096), 0.096) << zone;
  }
}

}  // namespace
}  // namespace karpenter::cloudprovider
