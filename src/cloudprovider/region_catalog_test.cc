#include "src/cloudprovider/region_catalog.h"

#include <map>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace karpenter::cloudprovider {
namespace {

using ::testing::Contains;
using ::testing::DoubleEq;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kOfferings[] = R"(# comment
region eu-west-1 a b c
ab m5.large,xlarge c6g.medium   # trailing comment
c x2.metal
region us-east-1 a b
a m5.large
)";

TEST(RegionOfferings, ListsTheRegionsOfTheText) {
  EXPECT_THAT(OfferingRegions(kOfferings), ElementsAre("eu-west-1", "us-east-1"));
}

TEST(RegionOfferings, ReadsOneRegionsZonesAndTypes) {
  absl::StatusOr<RegionOfferings> parsed = ParseRegionOfferings(kOfferings, "eu-west-1");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->region, "eu-west-1");
  EXPECT_THAT(parsed->zones, ElementsAre("eu-west-1a", "eu-west-1b", "eu-west-1c"));
  EXPECT_EQ(parsed->zones_by_type.size(), 4u);
  EXPECT_THAT(parsed->zones_by_type.at("m5.xlarge"), ElementsAre("eu-west-1a", "eu-west-1b"));
  EXPECT_THAT(parsed->zones_by_type.at("c6g.medium"), ElementsAre("eu-west-1a", "eu-west-1b"));
  EXPECT_THAT(parsed->zones_by_type.at("x2.metal"), ElementsAre("eu-west-1c"));
}

TEST(RegionOfferings, StopsAtTheNextRegion) {
  absl::StatusOr<RegionOfferings> parsed = ParseRegionOfferings(kOfferings, "us-east-1");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_THAT(parsed->zones, ElementsAre("us-east-1a", "us-east-1b"));
  ASSERT_EQ(parsed->zones_by_type.size(), 1u);
  EXPECT_THAT(parsed->zones_by_type.at("m5.large"), ElementsAre("us-east-1a"));
}

TEST(RegionOfferings, UnknownRegionIsNotFoundAndListsTheKnownOnes) {
  absl::StatusOr<RegionOfferings> parsed = ParseRegionOfferings(kOfferings, "mars-north-1");
  ASSERT_EQ(parsed.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(parsed.status().message(), HasSubstr("unknown region \"mars-north-1\""));
  EXPECT_THAT(parsed.status().message(), HasSubstr("known regions: eu-west-1, us-east-1"));
}

TEST(RegionOfferings, MalformedLinesNameTheLine) {
  absl::StatusOr<RegionOfferings> zone = ParseRegionOfferings("region r-1 a\nb m5.large\n", "r-1");
  EXPECT_THAT(zone.status().message(), HasSubstr("line 2: zone r-1b is not in the region line"));
  absl::StatusOr<RegionOfferings> type = ParseRegionOfferings("region r-1 a\na m5\n", "r-1");
  EXPECT_THAT(type.status().message(), HasSubstr("line 2: \"m5\" is not <family>.<sizes>"));
  absl::StatusOr<RegionOfferings> header = ParseRegionOfferings("region r-1\n", "r-1");
  EXPECT_THAT(header.status().message(), HasSubstr("line 1: expected `region <name> <zones>`"));
}

TEST(RegionPriceFactor, IsTheRegionsReferencePriceOverUsEast1s) {
  const std::map<std::string, double> base{{"m5.large", 0.096}};
  constexpr char kText[] = "# c\neu-west-1 m5.large 0.12  # note\nus-east-1 m5.large 0.096\n";
  absl::StatusOr<double> eu = RegionPriceFactor(kText, "eu-west-1", base);
  ASSERT_TRUE(eu.ok()) << eu.status();
  EXPECT_THAT(*eu, DoubleEq(1.25));
  EXPECT_THAT(*RegionPriceFactor(kText, "us-east-1", base), DoubleEq(1.0));
  EXPECT_EQ(RegionPriceFactor(kText, "sa-east-1", base).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_THAT(RegionPriceFactor("x-1 m9.large 1\n", "x-1", base).status().message(),
              HasSubstr("line 1: m9.large has no us-east-1 price"));
  EXPECT_THAT(RegionPriceFactor("x-1 m5.large\n", "x-1", base).status().message(),
              HasSubstr("line 1: expected `<region> <instance-type> <price>`"));
}

TEST(EmbeddedRegions, AreTheCommercialRegionsOfMotosData) {
  std::vector<std::string> regions = EmbeddedRegions();
  EXPECT_EQ(regions.size(), 30u);
  EXPECT_THAT(regions, Contains("us-east-1"));
  EXPECT_THAT(regions, Contains("us-west-2"));
  EXPECT_THAT(regions, Contains("eu-west-1"));
  EXPECT_THAT(regions, Contains("ap-southeast-5"));
  EXPECT_THAT(regions, Not(Contains("us-gov-west-1")));
  EXPECT_THAT(regions, Not(Contains("cn-north-1")));
}

}  // namespace
}  // namespace karpenter::cloudprovider
