// The compact on-demand price table (data/catalog/on-demand-prices.txt): one reference price per
// instance family, scaled by AWS's size normalization units, plus exact prices for the types
// whose family is irregular. The file's header comment is the format's specification.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "src/cloudprovider/instance_type_info.h"

namespace karpenter::cloudprovider {

// AWS's normalization units for a named size: nano 0.25, micro 0.5, small 1, medium 2, large 4,
// xlarge 8, Nxlarge 8N. nullopt for bare-metal and unknown sizes.
std::optional<double> SizeUnits(std::string_view size);

class OnDemandPriceTable {
 public:
  struct FamilyPrice {
    std::string size;  // reference size, e.g. "large"
    double price = 0;  // USD per hour of the reference size
    double metal_factor = 1;
  };

  // Rejects malformed lines with "line N: ..." messages.
  static absl::StatusOr<OnDemandPriceTable> Parse(std::string_view text);

  // The on-demand price of every type in `types` that the table prices, by type name. Types the
  // table does not cover are absent (Karpenter treats them as unavailable). Bare-metal sizes need
  // their family's reference type in `types` to know its vCPUs.
  std::map<std::string, double> PricesFor(const std::vector<InstanceTypeInfo>& types) const;

  size_t family_count() const { return families_.size(); }
  size_t override_count() const { return overrides_.size(); }

 private:
  std::map<std::string, FamilyPrice, std::less<>> families_;
  std::map<std::string, double, std::less<>> overrides_;
};

}  // namespace karpenter::cloudprovider
