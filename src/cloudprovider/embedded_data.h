// The catalog data files (data/catalog/) compiled into the binary. The definitions are generated
// at build time by embed_data.cmake, so the committed data files are the only source of truth.
#pragma once

#include <string_view>

namespace karpenter::cloudprovider {

// data/catalog/instance-types.json: the instance-type facts generated from moto's EC2 data.
std::string_view EmbeddedInstanceTypesJson();

// data/catalog/on-demand-prices.txt: the compact us-east-1 on-demand price table.
std::string_view EmbeddedOnDemandPrices();

}  // namespace karpenter::cloudprovider
