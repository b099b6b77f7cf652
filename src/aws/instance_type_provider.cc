// Upstream: pkg/providers/instancetype/instancetype.go, offering/base_resolver.go and
// pkg/providers/pricing/pricing.go.
#include "src/aws/instance_type_provider.h"

#include <algorithm>
#include <utility>

#include "absl/strings/match.h"
#include "karpenter/common/status.h"
#include "src/api/karpenter_labels.h"
#include "src/cloudprovider/spot_price_model.h"

namespace karpenter::aws {
namespace {

bool Contains(const std::vector<std::string>& values, std::string_view value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

}  // namespace

cloudprovider::InstanceTypeInfo ToCatalogInfo(const InstanceTypeInfo& info,
                                              std::vector<std::string> zones) {
  cloudprovider::InstanceTypeInfo out;
  out.name = info.name;
  out.vcpus = info.vcpus;
  out.memory_mib = info.memory_mib;
  out.architectures = info.architectures;
  out.cpu_manufacturer = info.cpu_manufacturer;
  if (info.clock_ghz > 0) out.clock_ghz = info.clock_ghz;
  out.hypervisor = info.hypervisor;
  out.bare_metal = info.bare_metal;
  out.enis =
      info.default_card_interfaces > 0 ? info.default_card_interfaces : info.max_network_interfaces;
  out.ipv4_per_eni = info.ipv4_per_interface;
  out.efa_interfaces = info.efa_interfaces;
  out.encryption_in_transit = info.encryption_in_transit;
  out.nitro_enclaves = info.nitro_enclaves;
  if (info.local_storage_gb > 0) {
    out.local_storage_gb = info.local_storage_gb;
    out.local_storage_nvme = info.local_storage_nvme;
  }
  if (info.network_baseline_mbps > 0) out.network_mbps = info.network_baseline_mbps;
  out.network_performance = info.network_performance;
  if (info.ebs_baseline_mbps > 0) out.ebs_mbps = info.ebs_baseline_mbps;
  for (const GpuDevice& gpu : info.gpus) {
    out.gpus.push_back({.name = gpu.name,
                        .manufacturer = gpu.manufacturer,
                        .count = gpu.count,
                        .memory_mib = gpu.memory_mib});
  }
  for (const NeuronDevice& device : info.neuron_devices) {
    out.neuron_devices.push_back({.name = device.name,
                                  .count = device.count,
                                  .cores_per_device = device.cores_per_device,
                                  .memory_mib = device.memory_mib});
  }
  out.on_demand = Contains(info.usage_classes, "on-demand");
  out.spot = Contains(info.usage_classes, "spot");
  std::sort(zones.begin(), zones.end());
  out.zones = std::move(zones);
  return out;
}

InstanceTypeProvider::~InstanceTypeProvider() { WaitForBackgroundRefresh(); }

bool InstanceTypeProvider::FactsStale() const {
  return clock_.Now() - facts_.fetched >= options_.types_ttl;
}

bool InstanceTypeProvider::PricesStale() const {
  // A source that failed is asked again after the types' TTL, not after the full 12 hours.
  const bool complete =
      prices_.on_demand_source == PriceSource::kAws && prices_.spot_source == PriceSource::kAws;
  const absl::Duration ttl = complete ? options_.prices_ttl : options_.types_ttl;
  return clock_.Now() - prices_.fetched >= ttl;
}

absl::StatusOr<InstanceTypeProvider::Facts> InstanceTypeProvider::FetchFacts() const {
  const absl::Time now = clock_.Now();
  KP_ASSIGN_OR_RETURN(std::vector<InstanceTypeInfo> types, ec2_.DescribeInstanceTypes());
  KP_ASSIGN_OR_RETURN(std::vector<InstanceTypeOffering> offerings,
                      ec2_.DescribeInstanceTypeOfferings());
  std::map<std::string, std::vector<std::string>> zones_by_type;
  for (const InstanceTypeOffering& offering : offerings) {
    zones_by_type[offering.instance_type].push_back(offering.location);
  }
  Facts facts{.fetched = now};
  for (const InstanceTypeInfo& info : types) {
    facts.infos.push_back(ToCatalogInfo(info, zones_by_type[info.name]));
  }
  std::sort(facts.infos.begin(), facts.infos.end(),
            [](const auto& a, const auto& b) { return a.name < b.name; });
  return facts;
}

InstanceTypeProvider::Prices InstanceTypeProvider::FetchPrices(
    const std::vector<cloudprovider::InstanceTypeInfo>& infos) const {
  const absl::Time now = clock_.Now();
  Prices prices{.fetched = now};
  absl::StatusOr<std::map<std::string, double>> on_demand =
      pricing_ != nullptr ? pricing_->OnDemandPrices(options_.region)
                          : absl::UnavailableError("no Pricing endpoint");
  if (on_demand.ok() && !on_demand->empty()) {
    prices.on_demand = std::move(*on_demand);
    prices.on_demand_source = PriceSource::kAws;
  } else {
    for (const auto& info : infos) {
      if (auto price = fallback_.OnDemandPrice(info.name)) prices.on_demand[info.name] = *price;
    }
    prices.on_demand_source = PriceSource::kEmbeddedCatalog;
  }
  // Upstream asks for the price history starting now: the current price of each (type, zone).
  auto spot = ec2_.DescribeSpotPriceHistory({}, now);
  if (spot.ok() && !spot->empty()) {
    for (const SpotPrice& price : *spot) {
      // EC2 answers newest first; the first price of a (type, zone) is the current one.
      prices.spot.emplace(std::make_pair(price.instance_type, price.zone), price.price);
    }
    prices.spot_source = PriceSource::kAws;
  } else {
    prices.spot_source = PriceSource::kEmbeddedCatalog;
  }
  return prices;
}

absl::Status InstanceTypeProvider::RefreshStale() {
  absl::MutexLock one_at_a_time(&refresh_mu_);
  bool facts_stale = false;
  {
    absl::MutexLock lock(&mu_);
    facts_stale = FactsStale();
  }
  if (facts_stale) {
    // EC2 is read without the lock: List goes on serving the cached facts meanwhile.
    absl::StatusOr<Facts> facts = FetchFacts();
    absl::MutexLock lock(&mu_);
    if (facts.ok()) {
      facts_ = *std::move(facts);
    } else if (facts_.infos.empty()) {
      return facts.status();
    }  // else a stale answer beats none: keep serving it, ask again when next asked
  }
  std::vector<cloudprovider::InstanceTypeInfo> infos;
  {
    absl::MutexLock lock(&mu_);
    if (!PricesStale()) return absl::OkStatus();
    infos = facts_.infos;
  }
  Prices prices = FetchPrices(infos);
  absl::MutexLock lock(&mu_);
  prices_ = std::move(prices);
  return absl::OkStatus();
}

void InstanceTypeProvider::StartBackgroundRefresh() {
  if (refreshing_) return;
  // Not refreshing: a thread left from an earlier refresh has set the flag and is returning.
  if (refresher_.joinable()) refresher_.join();
  refreshing_ = true;
  refresher_ = std::thread([this] {
    (void)RefreshStale();  // a failure keeps the cached answer; the next List asks again
    absl::MutexLock lock(&mu_);
    refreshing_ = false;
  });
}

void InstanceTypeProvider::WaitForBackgroundRefresh() {
  std::thread refresher;
  {
    absl::MutexLock lock(&mu_);
    refresher = std::move(refresher_);
  }
  if (refresher.joinable()) refresher.join();
}

std::vector<cloudprovider::Offering> InstanceTypeProvider::Offerings(
    const cloudprovider::InstanceTypeInfo& info, const cloudprovider::ResolveOptions& resolve,
    const std::set<std::string>& zones,
    const cloudprovider::UnavailableOfferings& unavailable) const {
  const bool runnable = cloudprovider::SupportsAmiFamily(info, resolve.ami_family);
  auto od = prices_.on_demand.find(info.name);
  const bool priced = od != prices_.on_demand.end();
  std::vector<cloudprovider::Offering> out;
  for (const std::string& zone : zones) {
    const bool offered = std::binary_search(info.zones.begin(), info.zones.end(), zone);
    auto add = [&](std::string_view capacity_type, double price) {
      out.push_back({.zone = zone,
                     .capacity_type = std::string(capacity_type),
                     .price = price,
                     .available = offered && runnable && priced && price > 0 &&
                                  !unavailable.IsUnavailable(info.name, zone, capacity_type)});
    };
    if (info.on_demand) add(api::kCapacityTypeOnDemand, priced ? od->second : 0);
    if (!info.spot) continue;
    auto spot = prices_.spot.find({info.name, zone});
    if (spot != prices_.spot.end()) {
      add(api::kCapacityTypeSpot, spot->second);
    } else {
      add(api::kCapacityTypeSpot,
          priced ? cloudprovider::SpotPrice(fallback_.spot_prices(), info.name, zone, od->second)
                 : 0);
    }
  }
  return out;
}

absl::StatusOr<std::vector<cloudprovider::InstanceType>> InstanceTypeProvider::List(
    const cloudprovider::ResolveOptions& resolve, const std::set<std::string>& zones,
    const cloudprovider::UnavailableOfferings& unavailable) {
  bool never_read = false;
  {
    absl::MutexLock lock(&mu_);
    never_read = facts_.infos.empty();
  }
  // Nothing to serve yet: the caller waits for the first read.
  if (never_read) KP_RETURN_IF_ERROR(RefreshStale());
  absl::MutexLock lock(&mu_);
  // Stale facts or prices are served now and read again on a thread of their own, as upstream's
  // instance-type and pricing controllers refresh them off the launch path.
  if (FactsStale() || PricesStale()) StartBackgroundRefresh();
  cloudprovider::ResolveOptions options = resolve;
  if (options.region.empty()) options.region = options_.region;
  std::vector<cloudprovider::InstanceType> out;
  out.reserve(facts_.infos.size());
  for (const cloudprovider::InstanceTypeInfo& info : facts_.infos) {
    KP_ASSIGN_OR_RETURN(cloudprovider::InstanceType type,
                        cloudprovider::NewInstanceType(info, options));
    type.offerings = Offerings(info, options, zones, unavailable);
    out.push_back(std::move(type));
  }
  return out;
}

absl::Status InstanceTypeProvider::Refresh() { return RefreshStale(); }

PriceSource InstanceTypeProvider::on_demand_source() const {
  absl::MutexLock lock(&mu_);
  return prices_.on_demand_source;
}

PriceSource InstanceTypeProvider::spot_source() const {
  absl::MutexLock lock(&mu_);
  return prices_.spot_source;
}

}  // namespace karpenter::aws
