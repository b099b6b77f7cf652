// Upstream: pkg/cloudprovider/drift.go, pkg/providers/amifamily/ami.go (MapToInstanceTypes).
#include "src/disruption/aws_drift.h"

#include <set>

#include "src/api/karpenter_labels.h"
#include "src/scheduling/selector_conversion.h"

namespace karpenter::disruption {
namespace {

const std::string* Find(const std::map<std::string, std::string>& map, std::string_view key) {
  auto it = map.find(std::string(key));
  return it == map.end() ? nullptr : &it->second;
}

bool StaticFieldsDrifted(const api::EC2NodeClass& node_class, const api::NodeClaim& claim) {
  const auto& class_annotations = node_class.metadata.annotations;
  const auto& claim_annotations = claim.metadata.annotations;
  const std::string* class_hash = Find(class_annotations, api::kEC2NodeClassHashAnnotationKey);
  const std::string* class_version =
      Find(class_annotations, api::kEC2NodeClassHashVersionAnnotationKey);
  const std::string* claim_hash = Find(claim_annotations, api::kEC2NodeClassHashAnnotationKey);
  const std::string* claim_version =
      Find(claim_annotations, api::kEC2NodeClassHashVersionAnnotationKey);
  if (!class_hash || !class_version || !claim_hash || !claim_version) return false;
  // A hash version bump changes how the hash is computed, not what the class says.
  if (*class_version != *claim_version) return false;
  return *class_hash != *claim_hash;
}

// The AMI the provider would launch the type with: the first of status.amis (which the AMI
// controller keeps newest first) whose requirements the type satisfies. "" when none.
std::string MappedAMI(const std::vector<api::AMI>& amis,
                      const provisioning::InstanceTypeView& instance_type) {
  for (const api::AMI& ami : amis) {
    absl::StatusOr<scheduling::Requirements> requirements =
        scheduling::FromNodeSelectorRequirements(ami.requirements);
    if (!requirements.ok()) continue;  // such an AMI cannot be matched upstream either
    if (instance_type.requirements.IsCompatible(*requirements)) return ami.id;
  }
  return "";
}

bool IsSpace(char c) { return c == ' ' || c == '\t'; }

// "sg-1, sg-2" -> {sg-1, sg-2}; blanks around IDs and empty entries are ignored.
std::set<std::string> SplitIds(std::string_view list) {
  std::set<std::string> ids;
  while (!list.empty()) {
    const size_t comma = list.find(',');
    std::string_view id = list.substr(0, comma);
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    while (!id.empty() && IsSpace(id.front())) id.remove_prefix(1);
    while (!id.empty() && IsSpace(id.back())) id.remove_suffix(1);
    if (!id.empty()) ids.insert(std::string(id));
  }
  return ids;
}

bool SecurityGroupsDrifted(const api::EC2NodeClass& node_class, const api::NodeClaim& claim) {
  const std::string* instance_groups =
      Find(claim.metadata.annotations, kInstanceSecurityGroupsAnnotationKey);
  if (instance_groups == nullptr) return false;
  std::set<std::string> resolved;
  for (const api::SecurityGroup& group : node_class.status.security_groups) {
    resolved.insert(group.id);
  }
  return resolved != SplitIds(*instance_groups);
}

bool SubnetDrifted(const api::EC2NodeClass& node_class, const api::NodeClaim& claim) {
  const std::string* instance_subnet =
      Find(claim.metadata.annotations, kInstanceSubnetAnnotationKey);
  if (instance_subnet == nullptr) return false;
  for (const api::Subnet& subnet : node_class.status.subnets) {
    if (subnet.id == *instance_subnet) return false;
  }
  return true;
}

// Only an instance launched into a reservation can drift from it; one that fell back to
// on-demand (capacity type no longer "reserved") has left the reservation.
bool CapacityReservationDrifted(const api::EC2NodeClass& node_class, const api::NodeClaim& claim) {
  const std::string* reservation = Find(claim.metadata.labels, api::kLabelCapacityReservationID);
  const std::string* capacity_type = Find(claim.metadata.labels, api::kCapacityTypeLabelKey);
  if (reservation == nullptr || reservation->empty() || capacity_type == nullptr ||
      *capacity_type != api::kCapacityTypeReserved) {
    return false;
  }
  for (const api::CapacityReservation& selected : node_class.status.capacity_reservations) {
    if (selected.id == *reservation) return false;
  }
  return true;
}

}  // namespace

std::string DetectNodeClassDrift(const api::EC2NodeClass& node_class,
                                 const api::NodeClaim& node_claim,
                                 const provisioning::InstanceTypeView* instance_type) {
  if (StaticFieldsDrifted(node_class, node_claim)) return std::string(kNodeClassDrift);
  // Upstream errors out (and leaves the NodeClaim's drift state unchanged) when any of these is
  // missing; every later check is skipped with it.
  if (instance_type == nullptr || node_class.status.amis.empty() ||
      node_claim.status.image_id.empty()) {
    return "";
  }
  if (MappedAMI(node_class.status.amis, *instance_type) != node_claim.status.image_id) {
    return std::string(kAMIDrift);
  }
  if (node_class.status.security_groups.empty() || node_class.status.subnets.empty()) return "";
  if (SecurityGroupsDrifted(node_class, node_claim)) return std::string(kSecurityGroupDrift);
  if (SubnetDrifted(node_class, node_claim)) return std::string(kSubnetDrift);
  if (CapacityReservationDrifted(node_class, node_claim)) {
    return std::string(kCapacityReservationDrift);
  }
  return "";
}

}  // namespace karpenter::disruption
