#include "src/provisioning/node_class_catalog.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "src/api/karpenter_labels.h"
#include "src/cloudprovider/reserved_offerings.h"
#include "src/scheduling/requirement.h"

namespace karpenter::provisioning {
namespace {

// The device the family's AMI boots from, whose mapping sizes ephemeral storage.
std::string_view RootDeviceName(cloudprovider::AmiFamily family) {
  switch (family) {
    case cloudprovider::AmiFamily::kBottlerocket:
      return "/dev/xvdb";
    case cloudprovider::AmiFamily::kWindows2019:
    case cloudprovider::AmiFamily::kWindows2022:
    case cloudprovider::AmiFamily::kWindows2025:
      return "/dev/sda1";
    default:
      return "/dev/xvda";
  }
}

std::optional<api::Quantity> VolumeSizeOf(const api::BlockDeviceMapping& mapping) {
  if (!mapping.ebs) return std::nullopt;
  return mapping.ebs->volume_size;
}

// The root volume size: the mapping marked rootVolume, else (Custom) the last mapping, else the
// mapping of the family's boot device; nullopt leaves the family's default volume.
std::optional<api::Quantity> EphemeralVolumeSize(const api::EC2NodeClassSpec& spec,
                                                 cloudprovider::AmiFamily family) {
  const std::vector<api::BlockDeviceMapping>& mappings = spec.block_device_mappings;
  if (mappings.empty()) return std::nullopt;
  for (const api::BlockDeviceMapping& mapping : mappings) {
    if (mapping.root_volume && VolumeSizeOf(mapping)) return VolumeSizeOf(mapping);
  }
  if (family == cloudprovider::AmiFamily::kCustom) return VolumeSizeOf(mappings.back());
  for (const api::BlockDeviceMapping& mapping : mappings) {
    if (mapping.device_name.value_or("") == RootDeviceName(family) && VolumeSizeOf(mapping)) {
      return VolumeSizeOf(mapping);
    }
  }
  return std::nullopt;
}

std::string MapKey(const std::map<std::string, std::string>& map) {
  return absl::StrJoin(map, ",", absl::PairFormatter("="));
}

// Distinct options give distinct keys; equal options give equal keys.
std::string CacheKey(const cloudprovider::ResolveOptions& options) {
  const cloudprovider::KubeletOverrides& kubelet = options.kubelet;
  return absl::StrCat(
      static_cast<int>(options.ami_family), "|", kubelet.max_pods.value_or(-1), "|",
      kubelet.pods_per_core.value_or(-1), "|", MapKey(kubelet.kube_reserved), "|",
      MapKey(kubelet.system_reserved), "|", MapKey(kubelet.eviction_hard), "|",
      options.vm_memory_overhead_percent, "|", options.reserved_enis, "|",
      options.ephemeral_volume_size ? options.ephemeral_volume_size->CanonicalString() : "-", "|",
      options.instance_store_raid0, "|", options.region);
}

// The status reservations that shape reserved offerings, in order.
std::string ReservationsKey(const api::EC2NodeClass& node_class) {
  std::string key;
  for (const api::CapacityReservation& reservation : node_class.status.capacity_reservations) {
    absl::StrAppend(&key, "|", reservation.id, ",", reservation.instance_type, ",",
                    reservation.availability_zone, ",", reservation.reservation_type, ",",
                    reservation.interruptible, ",", reservation.state, ",",
                    reservation.available_instance_count.value_or(-1));
  }
  return key;
}

}  // namespace

absl::StatusOr<cloudprovider::ResolveOptions> ResolveOptionsFor(
    const api::EC2NodeClass& node_class) {
  const api::EC2NodeClassSpec& spec = node_class.spec;
  cloudprovider::ResolveOptions options;
  KP_ASSIGN_OR_RETURN(options.ami_family,
                      cloudprovider::ParseAmiFamily(api::ResolvedAMIFamily(spec)));
  if (spec.kubelet) {
    options.kubelet.max_pods = spec.kubelet->max_pods;
    options.kubelet.pods_per_core = spec.kubelet->pods_per_core;
    options.kubelet.kube_reserved = spec.kubelet->kube_reserved;
    options.kubelet.system_reserved = spec.kubelet->system_reserved;
    options.kubelet.eviction_hard = spec.kubelet->eviction_hard;
  }
  options.ephemeral_volume_size = EphemeralVolumeSize(spec, options.ami_family);
  options.instance_store_raid0 = spec.instance_store_policy.value_or("") == "RAID0";
  return options;
}

std::vector<std::string> SubnetZones(const api::EC2NodeClass& node_class) {
  std::vector<std::string> zones;
  for (const api::Subnet& subnet : node_class.status.subnets) {
    if (!subnet.zone.empty()) zones.push_back(subnet.zone);
  }
  std::sort(zones.begin(), zones.end());
  zones.erase(std::unique(zones.begin(), zones.end()), zones.end());
  return zones;
}

std::optional<InstanceTypeView> ToInstanceTypeView(const cloudprovider::InstanceType& type,
                                                   const std::vector<std::string>& zones) {
  InstanceTypeView view;
  view.name = type.name;
  std::vector<std::string> offered_zones;
  std::vector<std::string> capacity_types;
  for (const cloudprovider::Offering& offering : type.offerings) {
    if (!offering.available) continue;
    if (!zones.empty() && !std::binary_search(zones.begin(), zones.end(), offering.zone)) continue;
    view.offerings.push_back({.zone = offering.zone,
                              .capacity_type = offering.capacity_type,
                              .price = offering.price,
                              .available = true,
                              .reservation_id = offering.reservation_id,
                              .reservation_type = offering.reservation_type,
                              .reservation_interruptible = offering.reservation_interruptible,
                              .reservation_capacity = offering.reservation_capacity});
    offered_zones.push_back(offering.zone);
    capacity_types.push_back(offering.capacity_type);
  }
  if (view.offerings.empty()) return std::nullopt;
  for (const auto& [key, value] : type.labels) {
    view.requirements.Add(scheduling::Requirement::In(key, std::vector<std::string>{value}));
  }
  view.requirements.Add(
      scheduling::Requirement::In(api::kLabelTopologyZone, std::move(offered_zones)));
  view.requirements.Add(
      scheduling::Requirement::In(api::kCapacityTypeLabelKey, std::move(capacity_types)));
  view.allocatable = type.Allocatable();
  view.capacity = type.capacity;
  return view;
}

absl::StatusOr<const cloudprovider::Catalog*> CatalogCache::Get(
    const cloudprovider::ResolveOptions& requested) {
  cloudprovider::ResolveOptions options = requested;
  if (options.region.empty()) options.region = region_;
  std::string key = CacheKey(options);
  auto it = catalogs_.find(key);
  if (it != catalogs_.end()) return it->second.get();
  cloudprovider::CatalogOptions catalog_options;
  catalog_options.resolve = options;
  catalog_options.spot = spot_;
  KP_ASSIGN_OR_RETURN(cloudprovider::Catalog catalog,
                      cloudprovider::Catalog::LoadEmbedded(catalog_options));
  auto owned = std::make_unique<cloudprovider::Catalog>(std::move(catalog));
  const cloudprovider::Catalog* out = owned.get();
  catalogs_.emplace(std::move(key), std::move(owned));
  return out;
}

absl::StatusOr<SharedVector<InstanceTypeView>> CatalogCache::InstanceTypesFor(
    const api::EC2NodeClass& node_class) {
  KP_ASSIGN_OR_RETURN(cloudprovider::ResolveOptions options, ResolveOptionsFor(node_class));
  KP_ASSIGN_OR_RETURN(const cloudprovider::Catalog* catalog, Get(options));
  const std::vector<std::string> zones = SubnetZones(node_class);
  const std::vector<api::CapacityReservation>& reservations =
      node_class.status.capacity_reservations;
  std::string key =
      absl::StrCat(CacheKey(options), "|", absl::StrJoin(zones, ","), ReservationsKey(node_class));
  auto cached = views_.find(key);
  if (cached != views_.end()) return cached->second;
  std::vector<InstanceTypeView> views;
  for (const cloudprovider::InstanceType& type : catalog->Types()) {
    std::optional<InstanceTypeView> view;
    if (cloudprovider::HasReservationFor(type.name, reservations)) {
      cloudprovider::InstanceType reserved = type;
      for (cloudprovider::Offering& offering :
           cloudprovider::ReservedOfferings(*catalog, type, reservations)) {
        reserved.offerings.push_back(std::move(offering));
      }
      view = ToInstanceTypeView(reserved, zones);
    } else {
      view = ToInstanceTypeView(type, zones);
    }
    if (view) views.push_back(*std::move(view));
  }
  return views_.emplace(std::move(key), std::move(views)).first->second;
}

}  // namespace karpenter::provisioning
