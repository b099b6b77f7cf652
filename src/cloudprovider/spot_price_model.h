// Spot prices for the twin and `karpenter plan`, which cannot ask DescribeSpotPriceHistory: a
// documented discount off the on-demand price by instance category and generation, with a small
// deterministic variation per zone. Every number is a field, so a scenario can override any of
// them, down to an exact price for one (type, zone). docs/catalog.md explains the defaults.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>

namespace karpenter::cloudprovider {

struct SpotPriceModel {
  // Fraction off the on-demand price, by instance category ("m", "c", "inf", ...).
  std::map<std::string, double, std::less<>> category_discounts;
  // Used for categories missing from `category_discounts`.
  double default_discount = 0.60;
  // Added to the category's discount, by generation: the entry with the greatest key not above
  // the type's generation applies. Older generations are less in demand and cheaper on spot.
  std::map<int, double> generation_adjustments;
  // Replace the category and generation rule for a whole family ("m5") or one type ("m5.large").
  std::map<std::string, double, std::less<>> family_discounts;
  std::map<std::string, double, std::less<>> type_discounts;
  // Exact prices, USD per hour, keyed by (instance type, zone); these win over every rule.
  std::map<std::pair<std::string, std::string>, double> prices;
  // Each (type, zone) gets a fixed multiplier in [1 - zone_variation, 1 + zone_variation].
  double zone_variation = 0.05;
  // Bounds every discount, so a spot price stays positive.
  double max_discount = 0.90;
};

// The defaults docs/catalog.md documents.
SpotPriceModel DefaultSpotPriceModel();

// The discount the model applies to `instance_type` before zone variation, in [0, max_discount].
double SpotDiscount(const SpotPriceModel& model, std::string_view instance_type);

// The spot price of `instance_type` in `zone`: the exact price if the model has one, otherwise
// on_demand × (1 − discount) × zone multiplier, never above `on_demand`.
double SpotPrice(const SpotPriceModel& model, std::string_view instance_type, std::string_view zone,
                 double on_demand);

}  // namespace karpenter::cloudprovider
