// Upstream: pkg/providers/instancetype/offering/base_resolver.go (offerings and availability)
#include "src/cloudprovider/catalog.h"

#include <algorithm>
#include <utility>

#include "karpenter/common/status.h"
#include "src/api/karpenter_labels.h"
#include "src/cloudprovider/embedded_data.h"
#include "src/cloudprovider/on_demand_prices.h"
#include "src/cloudprovider/region_catalog.h"

namespace karpenter::cloudprovider {
namespace {

// Index of `name` in a vector sorted by name, or npos.
template <typename T>
size_t IndexOf(const std::vector<T>& sorted, std::string_view name) {
  auto it = std::lower_bound(sorted.begin(), sorted.end(), name,
                             [](const T& item, std::string_view key) { return item.name < key; });
  if (it == sorted.end() || it->name != name) return std::string_view::npos;
  return static_cast<size_t>(it - sorted.begin());
}

std::vector<Offering> Offerings(const InstanceTypeInfo& info, const std::vector<std::string>& zones,
                                std::optional<double> on_demand, const CatalogOptions& options) {
  bool runnable = SupportsAmiFamily(info, options.resolve.ami_family);
  std::vector<Offering> offerings;
  for (const std::string& zone : zones) {
    bool offered = std::binary_search(info.zones.begin(), info.zones.end(), zone);
    // Without an on-demand price the spot model has nothing to discount either.
    bool available = offered && runnable && on_demand.has_value();
    if (info.on_demand) {
      offerings.push_back({.zone = zone,
                           .capacity_type = std::string(api::kCapacityTypeOnDemand),
                           .price = on_demand.value_or(0),
                           .available = available});
    }
    if (info.spot) {
      double spot = on_demand ? SpotPrice(options.spot, info.name, zone, *on_demand) : 0;
      offerings.push_back({.zone = zone,
                           .capacity_type = std::string(api::kCapacityTypeSpot),
                           .price = spot,
                           .available = available});
    }
  }
  return offerings;
}

}  // namespace

absl::StatusOr<Catalog> Catalog::Load(std::string_view instance_types_json,
                                      std::string_view on_demand_prices,
                                      const CatalogOptions& options) {
  KP_ASSIGN_OR_RETURN(CatalogData data, ParseCatalogData(instance_types_json));
  KP_ASSIGN_OR_RETURN(OnDemandPriceTable table, OnDemandPriceTable::Parse(on_demand_prices));
  std::map<std::string, double> prices = table.PricesFor(data.instance_types);
  return Build(std::move(data), std::move(prices), options);
}

absl::StatusOr<Catalog> Catalog::LoadEmbeddedRegion(const CatalogOptions& options,
                                                    bool resolve_types) {
  const std::string region =
      options.resolve.region.empty() ? std::string(kDefaultRegion) : options.resolve.region;
  KP_ASSIGN_OR_RETURN(RegionOfferings offerings, ParseRegionOfferings(EmbeddedOfferings(), region));
  KP_ASSIGN_OR_RETURN(CatalogData data, ParseCatalogData(EmbeddedInstanceTypesJson()));
  KP_ASSIGN_OR_RETURN(OnDemandPriceTable table,
                      OnDemandPriceTable::Parse(EmbeddedOnDemandPrices()));
  // Priced over every type, not only the region's: a bare-metal size is priced from its family's
  // reference size, which a region may not sell.
  const std::map<std::string, double> us_east_1 = table.PricesFor(data.instance_types);
  KP_ASSIGN_OR_RETURN(double factor, RegionPriceFactor(EmbeddedRegionPrices(), region, us_east_1));
  std::vector<InstanceTypeInfo> offered;
  std::map<std::string, double> prices;
  for (InstanceTypeInfo& info : data.instance_types) {
    auto zones = offerings.zones_by_type.find(info.name);
    if (zones == offerings.zones_by_type.end()) continue;
    info.zones = zones->second;
    if (auto price = us_east_1.find(info.name); price != us_east_1.end()) {
      prices.emplace(info.name, price->second * factor);
    }
    // The prices are kept either way; without types Build resolves nothing.
    if (resolve_types) offered.push_back(std::move(info));
  }
  data.instance_types = std::move(offered);
  data.region = region;
  data.zones = std::move(offerings.zones);
  return Build(std::move(data), std::move(prices), options);
}

absl::StatusOr<Catalog> Catalog::LoadEmbedded(const CatalogOptions& options) {
  return LoadEmbeddedRegion(options, /*resolve_types=*/true);
}

absl::StatusOr<Catalog> Catalog::LoadEmbeddedPrices(const CatalogOptions& options) {
  return LoadEmbeddedRegion(options, /*resolve_types=*/false);
}

absl::StatusOr<Catalog> Catalog::Build(CatalogData data, std::map<std::string, double> prices,
                                       const CatalogOptions& options) {
  Catalog catalog;
  catalog.region_ = data.region;
  catalog.zones_ = std::move(data.zones);
  for (auto& [name, price] : prices) catalog.on_demand_prices_.emplace(name, price);
  ResolveOptions resolve = options.resolve;
  if (resolve.region.empty()) resolve.region = catalog.region_;
  catalog.types_.reserve(data.instance_types.size());
  for (const InstanceTypeInfo& info : data.instance_types) {
    KP_ASSIGN_OR_RETURN(InstanceType type, NewInstanceType(info, resolve));
    type.offerings = Offerings(info, catalog.zones_, catalog.OnDemandPrice(info.name), options);
    catalog.types_.push_back(std::move(type));
  }
  catalog.infos_ = std::move(data.instance_types);
  catalog.spot_prices_ = options.spot;
  return catalog;
}

const InstanceType* Catalog::Find(std::string_view name) const {
  size_t index = IndexOf(types_, name);
  return index == std::string_view::npos ? nullptr : &types_[index];
}

bool Catalog::OffersSpot(std::string_view type, std::string_view zone) const {
  const InstanceType* found = Find(type);
  if (found == nullptr) return false;
  return std::any_of(found->offerings.begin(), found->offerings.end(), [&](const Offering& o) {
    return o.zone == zone && o.capacity_type == api::kCapacityTypeSpot && o.available;
  });
}

const InstanceTypeInfo* Catalog::FindInfo(std::string_view name) const {
  size_t index = IndexOf(infos_, name);
  return index == std::string_view::npos ? nullptr : &infos_[index];
}

std::optional<double> Catalog::OnDemandPrice(std::string_view name) const {
  auto it = on_demand_prices_.find(name);
  if (it == on_demand_prices_.end()) return std::nullopt;
  return it->second;
}

}  // namespace karpenter::cloudprovider
