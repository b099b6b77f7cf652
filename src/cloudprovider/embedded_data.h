// The catalog data files (data/catalog/) compiled into the binary. The definitions are generated
// at build time by embed_data.cmake, so the committed data files are the only source of truth.
#pragma once

#include <string_view>

namespace karpenter::cloudprovider {

// data/catalog/instance-types.json: the instance-type facts generated from moto's EC2 data (the
// same in every region).
std::string_view EmbeddedInstanceTypesJson();

// data/catalog/on-demand-prices.txt: the compact us-east-1 on-demand price table.
std::string_view EmbeddedOnDemandPrices();

// data/catalog/offerings.txt: per region, the zones offering each type (from moto's EC2 data).
std::string_view EmbeddedOfferings();

// data/catalog/region-prices.txt: each region's on-demand price level against us-east-1.
std::string_view EmbeddedRegionPrices();

}  // namespace karpenter::cloudprovider
