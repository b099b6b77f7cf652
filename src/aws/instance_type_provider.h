// Upstream: aws/karpenter-provider-aws pkg/providers/instancetype and pkg/providers/pricing.
// The instance types a node class can launch, from the account itself: DescribeInstanceTypes and
// DescribeInstanceTypeOfferings (read again after 5 minutes, as upstream), on-demand prices from
// the Pricing API and spot prices from DescribeSpotPriceHistory (after 12 hours, as upstream's
// pricing controller). Only the first read happens on the caller's thread; later ones run on a
// thread of the provider's own while the cached answer is served, so a launch never waits for
// EC2's catalog (against moto, DescribeInstanceTypes alone takes seconds). When a price source
// cannot be reached the embedded catalog's price stands in, as upstream starts from its generated
// static prices. The types are resolved with the formulas of src/cloudprovider, unchanged.
#pragma once

#include <map>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "src/aws/clock.h"
#include "src/aws/ec2_client.h"
#include "src/aws/pricing_client.h"
#include "src/cloudprovider/catalog.h"
#include "src/cloudprovider/instance_type.h"
#include "src/cloudprovider/unavailable_offerings.h"

namespace karpenter::aws {

// Where a price came from, for reports (`plan --cloud aws` says which source each fact had).
enum class PriceSource { kNone, kAws, kEmbeddedCatalog };

struct InstanceTypeProviderOptions {
  std::string region;
  // Upstream's InstanceTypesZonesAndOfferingsTTL.
  absl::Duration types_ttl = absl::Minutes(5);
  // Upstream's pricing controller period.
  absl::Duration prices_ttl = absl::Hours(12);
};

// EC2's facts translated into the catalog's shape (zones are the zones offering the type).
cloudprovider::InstanceTypeInfo ToCatalogInfo(const InstanceTypeInfo& info,
                                              std::vector<std::string> zones);

class InstanceTypeProvider {
 public:
  // `pricing` may be null (no Pricing endpoint: the catalog's on-demand prices are used).
  // `fallback` supplies prices when AWS cannot; it must outlive the provider.
  InstanceTypeProvider(Ec2Client& ec2, PricingClient* pricing, Clock& clock,
                       const cloudprovider::Catalog& fallback, InstanceTypeProviderOptions options)
      : ec2_(ec2),
        pricing_(pricing),
        clock_(clock),
        fallback_(fallback),
        options_(std::move(options)) {}
  // Waits for a background read in flight (at most one EC2 catalog read).
  ~InstanceTypeProvider();
  InstanceTypeProvider(const InstanceTypeProvider&) = delete;
  InstanceTypeProvider& operator=(const InstanceTypeProvider&) = delete;

  // Every type the region offers, resolved under `resolve`, with one offering per (zone of
  // `zones`, capacity type the type supports). An offering is available when EC2 offers the type
  // in the zone, a price is known, the AMI family can run the type and `unavailable` does not
  // hold it. Sorted by name. Fails only when EC2 cannot be read and nothing is cached. Stale
  // facts or prices are served as they are and read again in the background.
  absl::StatusOr<std::vector<cloudprovider::InstanceType>> List(
      const cloudprovider::ResolveOptions& resolve, const std::set<std::string>& zones,
      const cloudprovider::UnavailableOfferings& unavailable);

  // Reads the types, offerings and prices now where they are stale, as upstream's instance-type
  // and pricing controllers do at start, so that the first launch finds them cached (against
  // moto, DescribeInstanceTypes alone takes seconds). Fails as List does.
  absl::Status Refresh();
  // Returns once a background read started by List has finished (tests, shutdown).
  void WaitForBackgroundRefresh();

  PriceSource on_demand_source() const;
  PriceSource spot_source() const;

 private:
  struct Facts {
    std::vector<cloudprovider::InstanceTypeInfo> infos;  // sorted by name
    absl::Time fetched = absl::InfinitePast();
  };
  struct Prices {
    std::map<std::string, double> on_demand;
    std::map<std::pair<std::string, std::string>, double> spot;  // (type, zone)
    PriceSource on_demand_source = PriceSource::kNone;
    PriceSource spot_source = PriceSource::kNone;
    absl::Time fetched = absl::InfinitePast();
  };

  bool FactsStale() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  bool PricesStale() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // EC2's and Pricing's answers as of now, read without holding `mu_`.
  absl::StatusOr<Facts> FetchFacts() const;
  Prices FetchPrices(const std::vector<cloudprovider::InstanceTypeInfo>& infos) const;
  // Reads whatever is stale and swaps it in; one at a time.
  absl::Status RefreshStale() ABSL_LOCKS_EXCLUDED(mu_);
  void StartBackgroundRefresh() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  std::vector<cloudprovider::Offering> Offerings(
      const cloudprovider::InstanceTypeInfo& info, const cloudprovider::ResolveOptions& resolve,
      const std::set<std::string>& zones,
      const cloudprovider::UnavailableOfferings& unavailable) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  Ec2Client& ec2_;
  PricingClient* pricing_;
  Clock& clock_;
  const cloudprovider::Catalog& fallback_;
  const InstanceTypeProviderOptions options_;
  mutable absl::Mutex mu_;
  Facts facts_ ABSL_GUARDED_BY(mu_);
  Prices prices_ ABSL_GUARDED_BY(mu_);
  absl::Mutex refresh_mu_ ABSL_ACQUIRED_BEFORE(mu_);
  bool refreshing_ ABSL_GUARDED_BY(mu_) = false;
  std::thread refresher_ ABSL_GUARDED_BY(mu_);
};

}  // namespace karpenter::aws
