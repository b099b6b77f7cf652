// The per-region part of the embedded catalog: which zones of a region offer which instance type
// (data/catalog/offerings.txt, generated from moto's EC2 data) and how the region's on-demand
// prices relate to us-east-1's table (data/catalog/region-prices.txt). docs/catalog.md describes
// both formats.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace karpenter::cloudprovider {

// The region the offline hosts assume when their input names none.
inline constexpr std::string_view kDefaultRegion = "us-east-1";
// When the embedded us-east-1 on-demand table was checked against AWS's list prices (the date of
// upstream's generated initial-pricing table it agrees with).
inline constexpr std::string_view kOnDemandPricesDate = "2026-07-20";

struct RegionOfferings {
  std::string region;
  std::vector<std::string> zones;  // every zone of the region that offers some type, sorted
  // type name -> zones offering it, sorted
  std::map<std::string, std::vector<std::string>, std::less<>> zones_by_type;
};

// The regions the offerings text describes, sorted.
std::vector<std::string> OfferingRegions(std::string_view offerings_text);

// One region's offerings. NotFound, listing the known regions, when the text has no such region;
// InvalidArgument naming the line for malformed text.
absl::StatusOr<RegionOfferings> ParseRegionOfferings(std::string_view offerings_text,
                                                     std::string_view region);

// The factor by which `region`'s on-demand prices exceed us-east-1's: the region's price of its
// reference type over `us_east_1_prices` of that type. NotFound when the text has no line for the
// region; InvalidArgument for a malformed line or an unpriced reference type.
absl::StatusOr<double> RegionPriceFactor(std::string_view region_prices_text,
                                         std::string_view region,
                                         const std::map<std::string, double>& us_east_1_prices);

// The regions of the embedded catalog, sorted.
std::vector<std::string> EmbeddedRegions();

// Every zone of `region` in the embedded catalog, sorted (NotFound as ParseRegionOfferings).
absl::StatusOr<std::vector<std::string>> EmbeddedRegionZones(std::string_view region);

}  // namespace karpenter::cloudprovider
