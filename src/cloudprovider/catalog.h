// The embedded AWS instance-type catalog that `karpenter plan` and the twin use instead of
// DescribeInstanceTypes, the Pricing API and DescribeSpotPriceHistory: every type of the
// generated data file, resolved with upstream's formulas under one set of NodeClass options,
// with on-demand prices from the compact price table and spot prices from the spot model.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "src/cloudprovider/instance_type.h"
#include "src/cloudprovider/instance_type_info.h"
#include "src/cloudprovider/spot_price_model.h"

namespace karpenter::cloudprovider {

struct CatalogOptions {
  // How types resolve (AMI family, kubelet overrides, ...). An empty region means the catalog's
  // (for LoadEmbedded: kDefaultRegion, us-east-1).
  ResolveOptions resolve;
  SpotPriceModel spot = DefaultSpotPriceModel();
};

class Catalog {
 public:
  // From the data files' contents (data/catalog/instance-types.json, on-demand-prices.txt).
  static absl::StatusOr<Catalog> Load(std::string_view instance_types_json,
                                      std::string_view on_demand_prices,
                                      const CatalogOptions& options);
  // From the copies compiled into the binary, for the region `options.resolve.region` (us-east-1
  // when empty): the types and zones moto's data offers there, priced at the region's level.
  // NotFound, listing the known regions, for a region the catalog does not have.
  static absl::StatusOr<Catalog> LoadEmbedded(const CatalogOptions& options);
  static absl::StatusOr<Catalog> LoadEmbedded() { return LoadEmbedded(CatalogOptions()); }
  // The region's prices alone, as LoadEmbedded gives them (region, zones, on-demand prices, the
  // spot model), with no type resolved: Types() is empty and Find() finds nothing. For a host that
  // prices the cloud's own types and keeps the catalog only for prices the cloud cannot give (the
  // resolved types are most of a catalog's several megabytes).
  static absl::StatusOr<Catalog> LoadEmbeddedPrices(const CatalogOptions& options);

  const std::string& region() const { return region_; }
  // Every zone of the region in which some type is offered, sorted.
  const std::vector<std::string>& zones() const { return zones_; }

  // All types, sorted by name. Each has one offering per (zone of the region, capacity type the
  // type supports); offerings in zones that do not offer the type are unavailable.
  const std::vector<InstanceType>& Types() const { return types_; }
  // nullptr when the catalog has no such type.
  const InstanceType* Find(std::string_view name) const;
  const InstanceTypeInfo* FindInfo(std::string_view name) const;
  // The table's on-demand price; nullopt for a type the table does not price.
  std::optional<double> OnDemandPrice(std::string_view name) const;
  // Whether `type` has an available spot offering in `zone` (what a pinned spot price may name).
  bool OffersSpot(std::string_view type, std::string_view zone) const;
  // The model that priced the spot offerings (hosts that load more catalogs reuse it).
  const SpotPriceModel& spot_prices() const { return spot_prices_; }

 private:
  // The embedded catalog of `options.resolve.region` (us-east-1 when empty): the types the region
  // offers with their on-demand prices at the region's level; the types left out (the prices
  // kept) unless `resolve_types`.
  static absl::StatusOr<Catalog> LoadEmbeddedRegion(const CatalogOptions& options,
                                                    bool resolve_types);
  // `data` carries the region, its zones and each type's zones; `prices` the on-demand prices.
  static absl::StatusOr<Catalog> Build(CatalogData data, std::map<std::string, double> prices,
                                       const CatalogOptions& options);

  std::string region_;
  std::vector<std::string> zones_;
  std::vector<InstanceTypeInfo> infos_;  // parallel to types_
  std::vector<InstanceType> types_;
  std::map<std::string, double, std::less<>> on_demand_prices_;
  SpotPriceModel spot_prices_;
};

}  // namespace karpenter::cloudprovider
