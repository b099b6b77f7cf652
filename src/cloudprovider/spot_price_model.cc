#include "src/cloudprovider/spot_price_model.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>

#include "absl/strings/numbers.h"
#include "src/cloudprovider/instance_type_name.h"

namespace karpenter::cloudprovider {
namespace {

// FNV-1a over "type\0zone": a stable hash, identical on every platform and run, so the zone
// multipliers never change between runs or builds.
uint64_t StableHash(std::string_view instance_type, std::string_view zone) {
  constexpr uint64_t kOffset = 14695981039346656037ULL;
  constexpr uint64_t kPrime = 1099511628211ULL;
  uint64_t hash = kOffset;
  auto mix = [&hash](unsigned char c) {
    hash ^= c;
    hash *= kPrime;
  };
  for (char c : instance_type) mix(static_cast<unsigned char>(c));
  mix(0);
  for (char c : zone) mix(static_cast<unsigned char>(c));
  return hash;
}

// A value in [-1, 1) fixed by (type, zone).
double ZoneOffset(std::string_view instance_type, std::string_view zone) {
  uint64_t hash = StableHash(instance_type, zone);
  double unit = static_cast<double>(hash >> 11) / static_cast<double>(uint64_t{1} << 53);
  return 2 * unit - 1;
}

double CategoryDiscount(const SpotPriceModel& model, const InstanceTypeName& name) {
  auto category = model.category_discounts.find(name.category);
  double discount =
      category == model.category_discounts.end() ? model.default_discount : category->second;
  int generation = 0;
  if (!absl::SimpleAtoi(name.generation, &generation)) return discount;
  auto adjustment = model.generation_adjustments.upper_bound(generation);
  if (adjustment == model.generation_adjustments.begin()) return discount;
  return discount + std::prev(adjustment)->second;
}

}  // namespace

SpotPriceModel DefaultSpotPriceModel() {
  SpotPriceModel model;
  model.category_discounts = {
      // General purpose, compute, memory and burstable families.
      {"a", 0.60},
      {"c", 0.62},
      {"m", 0.62},
      {"r", 0.66},
      {"t", 0.68},
      // High-memory and high-frequency families.
      {"x", 0.60},
      {"z", 0.60},
      {"u", 0.55},
      // Storage-optimized families.
      {"d", 0.66},
      {"h", 0.66},
      {"i", 0.68},
      {"im", 0.68},
      {"is", 0.68},
      // Accelerated and HPC families: scarcer spot capacity, smaller discounts.
      {"dl", 0.50},
      {"f", 0.50},
      {"g", 0.55},
      {"gr", 0.55},
      {"hpc", 0.50},
      {"inf", 0.55},
      {"p", 0.50},
      {"trn", 0.50},
      {"vt", 0.55}};
  model.generation_adjustments = {{0, 0.06}, {4, 0.04},  {5, 0.02},
                                  {6, 0.0},  {7, -0.04}, {8, -0.08}};
  return model;
}

double SpotDiscount(const SpotPriceModel& model, std::string_view instance_type) {
  double discount = model.default_discount;
  std::optional<InstanceTypeName> name = ParseInstanceTypeName(instance_type);
  if (auto exact = model.type_discounts.find(instance_type); exact != model.type_discounts.end()) {
    discount = exact->second;
  } else if (auto family =
                 name ? model.family_discounts.find(name->family) : model.family_discounts.end();
             family != model.family_discounts.end()) {
    discount = family->second;
  } else if (name) {
    discount = CategoryDiscount(model, *name);
  }
  return std::clamp(discount, 0.0, std::max(0.0, model.max_discount));
}

double SpotPrice(const SpotPriceModel& model, std::string_view instance_type, std::string_view zone,
                 double on_demand) {
  auto exact = model.prices.find({std::string(instance_type), std::string(zone)});
  if (exact != model.prices.end()) return exact->second;
  double multiplier = 1 + model.zone_variation * ZoneOffset(instance_type, zone);
  double price = on_demand * (1 - SpotDiscount(model, instance_type)) * multiplier;
  return std::clamp(price, 0.0, on_demand);
}

}  // namespace karpenter::cloudprovider
