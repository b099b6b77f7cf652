// Upstream: pkg/providers/instancetype/types.go (ephemeral storage size) and
// pkg/cloudprovider/cloudprovider.go (instance types per NodeClass) in aws/karpenter-provider-aws.
// From an EC2NodeClass to the instance types the scheduler sees: the class's AMI family, kubelet
// overrides and root volume become catalog resolve options; the embedded catalog is loaded once
// per distinct option set; each catalog type becomes an InstanceTypeView restricted to the zones
// of the class's subnets.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "karpenter/common/status.h"
#include "src/api/ec2nodeclass.h"
#include "src/cloudprovider/catalog.h"
#include "src/cloudprovider/instance_type.h"
#include "src/provisioning/types.h"

namespace karpenter::provisioning {

// What the catalog needs to know about the class. InvalidArgument for an unknown AMI family.
absl::StatusOr<cloudprovider::ResolveOptions> ResolveOptionsFor(
    const api::EC2NodeClass& node_class);

// The zones the class launches into: those of status.subnets, sorted and unique; empty when the
// status lists no subnet zone (every catalog zone is allowed then).
std::vector<std::string> SubnetZones(const api::EC2NodeClass& node_class);

// The scheduler's view of a catalog type: its labels plus the zones and capacity types of its
// available offerings in `zones` (all zones when empty). nullopt when no offering is left.
std::optional<InstanceTypeView> ToInstanceTypeView(const cloudprovider::InstanceType& type,
                                                   const std::vector<std::string>& zones);

// Embedded catalogs keyed by resolve options, so NodePools sharing a class (or classes that
// resolve alike) parse the catalog once.
class CatalogCache {
 public:
  // Every catalog it loads prices spot offerings with `spot` (a snapshot or scenario may override
  // the default discounts and pin exact prices).
  // `region` picks the embedded catalog of that region (empty: us-east-1) for options that name
  // none.
  explicit CatalogCache(cloudprovider::SpotPriceModel spot = cloudprovider::DefaultSpotPriceModel(),
                        std::string region = "")
      : spot_(std::move(spot)), region_(std::move(region)) {}

  absl::StatusOr<const cloudprovider::Catalog*> Get(const cloudprovider::ResolveOptions& options);

  // Every schedulable type of `node_class`, sorted by name; converted once per catalog and
  // subnet zones (a host that plans every few seconds pays for the conversion once), owned by
  // the cache.
  absl::StatusOr<SharedVector<InstanceTypeView>> InstanceTypesFor(
      const api::EC2NodeClass& node_class);

 private:
  cloudprovider::SpotPriceModel spot_;
  std::string region_;
  std::map<std::string, std::unique_ptr<cloudprovider::Catalog>> catalogs_;
  std::map<std::string, SharedVector<InstanceTypeView>> views_;
};

}  // namespace karpenter::provisioning
