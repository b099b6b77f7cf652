#include "src/cloudprovider/on_demand_prices.h"

#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "src/cloudprovider/embedded_data.h"

namespace karpenter::cloudprovider {
namespace {

using ::testing::DoubleNear;
using ::testing::HasSubstr;
using ::testing::Pair;
using ::testing::UnorderedElementsAre;

InstanceTypeInfo Type(std::string name, int64_t vcpus) {
  return {.name = std::move(name), .vcpus = vcpus, .memory_mib = 1024};
}

OnDemandPriceTable MustParse(std::string_view text) {
  absl::StatusOr<OnDemandPriceTable> table = OnDemandPriceTable::Parse(text);
  EXPECT_TRUE(table.ok()) << table.status();
  return table.ok() ? *std::move(table) : OnDemandPriceTable();
}

TEST(SizeUnits, FollowsAwsNormalizationFactors) {
  EXPECT_EQ(SizeUnits("nano"), 0.25);
  EXPECT_EQ(SizeUnits("micro"), 0.5);
  EXPECT_EQ(SizeUnits("small"), 1);
  EXPECT_EQ(SizeUnits("medium"), 2);
  EXPECT_EQ(SizeUnits("large"), 4);
  EXPECT_EQ(SizeUnits("xlarge"), 8);
  EXPECT_EQ(SizeUnits("2xlarge"), 16);
  EXPECT_EQ(SizeUnits("112xlarge"), 896);
  EXPECT_FALSE(SizeUnits("metal").has_value());
  EXPECT_FALSE(SizeUnits("metal-24xl").has_value());
  EXPECT_FALSE(SizeUnits("0xlarge").has_value());
  EXPECT_FALSE(SizeUnits("bigxlarge").has_value());
}

TEST(OnDemandPriceTable, ScalesTheFamilyPriceBySizeUnits) {
  OnDemandPriceTable table = MustParse("# comment\n\nm5 large 0.096  # trailing comment\n");
  EXPECT_EQ(table.family_count(), 1u);
  std::map<std::string, double> prices =
      table.PricesFor({Type("m5.large", 2), Type("m5.xlarge", 4), Type("m5.24xlarge", 96)});
  EXPECT_THAT(prices, UnorderedElementsAre(Pair("m5.large", DoubleNear(0.096, 1e-12)),
                                           Pair("m5.xlarge", DoubleNear(0.192, 1e-12)),
                                           Pair("m5.24xlarge", DoubleNear(4.608, 1e-12))));
}

TEST(OnDemandPriceTable, PricesBareMetalLikeTheSizeWithTheSameVcpus) {
  OnDemandPriceTable table = MustParse("m5 large 0.096\nc6g medium 0.034 metal=1.06\n");
  std::map<std::string, double> prices = table.PricesFor(
      {Type("m5.large", 2), Type("m5.metal", 96), Type("c6g.medium", 1), Type("c6g.metal", 64)});
  EXPECT_THAT(prices.at("m5.metal"), DoubleNear(4.608, 1e-12));
  EXPECT_THAT(prices.at("c6g.metal"), DoubleNear(0.034 * 64 * 1.06, 1e-12));
}

TEST(OnDemandPriceTable, BareMetalNeedsTheReferenceTypeForItsVcpus) {
  OnDemandPriceTable table = MustParse("m5 large 0.096\n");
  EXPECT_TRUE(table.PricesFor({Type("m5.metal", 96)}).empty());
}

TEST(OnDemandPriceTable, ExactPriceWinsOverTheFamilyLine) {
  OnDemandPriceTable table = MustParse("g5 48xlarge 16.288\ng5.xlarge 1.006\n");
  EXPECT_EQ(table.override_count(), 1u);
  std::map<std::string, double> prices =
      table.PricesFor({Type("g5.xlarge", 4), Type("g5.24xlarge", 96)});
  EXPECT_THAT(prices.at("g5.xlarge"), DoubleNear(1.006, 1e-12));
  EXPECT_THAT(prices.at("g5.24xlarge"), DoubleNear(8.144, 1e-12));
}

TEST(OnDemandPriceTable, LeavesOutTypesItCannotPrice) {
  OnDemandPriceTable table = MustParse("m5 large 0.096\n");
  EXPECT_TRUE(table.PricesFor({Type("c5.large", 2), Type("m5.weird", 2), Type("odd", 1)}).empty());
}

TEST(OnDemandPriceTable, RejectsMalformedLinesWithTheirNumber) {
  struct Case {
    const char* text;
    const char* message;
  };
  const Case cases[] = {
      {"m5 large", "line 1: expected `<family> <size> <price> [metal=<factor>]`"},
      {"\nm5 large 0.1 metal=1 extra", "line 2: expected `<family>"},
      {"m5 metal 0.1", "reference size metal has no units"},
      {"m5 large free", "\"free\" is not a positive number"},
      {"m5 large -1", "\"-1\" is not a positive number"},
      {"m5 large 0.1 gpu=2", "unknown option gpu=2"},
      {"m5 large 0.1 metal=0", "\"0\" is not a positive number"},
      {"m5 large 0.1\nm5 xlarge 0.2", "line 2: duplicate family m5"},
      {"m5.large 0.1 0.2", "expected `<instance-type> <price>`"},
      {"m5. 0.1", "expected `<instance-type> <price>`"},
      {"m5.large 0.1\nm5.large 0.2", "line 2: duplicate type m5.large"},
  };
  for (const Case& c : cases) {
    absl::StatusOr<OnDemandPriceTable> table = OnDemandPriceTable::Parse(c.text);
    ASSERT_FALSE(table.ok()) << c.text;
    EXPECT_THAT(table.status().message(), HasSubstr(c.message)) << c.text;
  }
}

TEST(OnDemandPriceTable, EmbeddedTableParses) {
  absl::StatusOr<OnDemandPriceTable> table = OnDemandPriceTable::Parse(EmbeddedOnDemandPrices());
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_GT(table->family_count(), 100u);
}

}  // namespace
}  // namespace karpenter::cloudprovider
