// Upstream: pkg/cloudprovider/cloudprovider.go (Delete, Get, List, IsDrifted, instanceToNodeClaim)
// and pkg/cloudprovider/drift.go. Only instances with this cluster's ownership tags are seen or
// touched: an instance of another cluster, or one launched by hand, is "not found".
#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"
#include "src/api/karpenter_labels.h"
#include "src/api/selector_match.h"
#include "src/aws/absl_view.h"
#include "src/aws/aws_cloud_provider.h"
#include "src/aws/node_class_resolver.h"

namespace karpenter::aws {
namespace {

CloudError NotFound(std::string_view what) {
  return {.kind = CloudErrorKind::kNotFound, .message = absl::StrCat(AbslView(what), " not found")};
}

CloudError Unavailable(const absl::Status& status) {
  return {.kind = CloudErrorKind::kUnavailable, .message = std::string(status.message())};
}

std::string TagOr(const Tags& tags, std::string_view key) {
  auto it = tags.find(std::string(key));
  return it == tags.end() ? std::string() : it->second;
}

// The states in which an instance still exists for Karpenter (upstream filters out terminated).
bool Live(const Instance& instance) { return instance.state != "terminated"; }

}  // namespace

CloudOr<Instance> AwsCloudProvider::OwnedInstance(const std::string& instance_id) {
  if (instance_id.empty()) return NotFound("instance");
  auto instances = ec2_.DescribeInstances({instance_id}, {});
  if (!instances.ok()) {
    if (absl::IsNotFound(instances.status())) return NotFound(instance_id);
    return Unavailable(instances.status());
  }
  for (const Instance& instance : *instances) {
    if (instance.id != instance_id || !Live(instance)) continue;
    // Never report (and so never terminate) an instance this cluster did not launch.
    if (TagOr(instance.tags, absl::StrCat("kubernetes.io/cluster/", info_.name)) != "owned" ||
        !instance.tags.contains(std::string(api::kNodePoolLabelKey))) {
      break;
    }
    return instance;
  }
  return NotFound(instance_id);
}

api::NodeClaim AwsCloudProvider::ToNodeClaim(
    const Instance& instance, const std::vector<cloudprovider::InstanceType>& types) const {
  api::NodeClaim out;
  out.metadata.name = TagOr(instance.tags, "karpenter.sh/nodeclaim");
  out.status.provider_id = cloudprovider::AwsProviderId(instance.zone, instance.id);
  out.status.image_id = instance.image_id;
  auto type = std::find_if(types.begin(), types.end(), [&](const cloudprovider::InstanceType& t) {
    return t.name == instance.instance_type;
  });
  if (type != types.end()) {
    for (const auto& [key, value] : type->labels) out.metadata.labels[key] = value;
    out.status.capacity = type->capacity;
    out.status.allocatable = type->Allocatable();
  }
  auto& labels = out.metadata.labels;
  labels[std::string(api::kLabelInstanceTypeStable)] = instance.instance_type;
  labels[std::string(api::kLabelTopologyZone)] = instance.zone;
  labels[std::string(api::kCapacityTypeLabelKey)] = std::string(
      instance.lifecycle == "spot" ? api::kCapacityTypeSpot : api::kCapacityTypeOnDemand);
  // Reserved only when launched targeting its reservation and with the ReservedCapacity gate on
  // (reservations tracked): an instance that fell into an open reservation stays on demand, as
  // upstream, or it would drift from the on-demand NodeClaim it was launched for.
  if (reservations_ != nullptr && instance.lifecycle != "spot" &&
      !instance.capacity_reservation_id.empty() &&
      instance.capacity_reservation_preference == "capacity-reservations-only") {
    labels[std::string(api::kCapacityTypeLabelKey)] = std::string(api::kCapacityTypeReserved);
    labels[std::string(api::kLabelCapacityReservationID)] = instance.capacity_reservation_id;
    labels[std::string(api::kLabelCapacityReservationType)] =
        instance.lifecycle == "capacity-block" ? "capacity-block" : "default";
    labels[std::string(api::kLabelCapacityReservationInterruptible)] =
        instance.lifecycle == "interruptible-capacity-reservation" ? "true" : "false";
  }
  // The instance's age is what instance garbage collection waits on (upstream: CreationTimestamp
  // is the launch time). An unparsable or missing time leaves it unset: never collected.
  if (absl::StatusOr<api::Time> launched = api::Time::ParseRfc3339(instance.launch_time);
      launched.ok()) {
    out.metadata.creation_timestamp = *launched;
  }
  // A terminating instance is marked as a deleting NodeClaim, as upstream does. Only the mark is
  // read; the provider has no clock, so the launch time stands in for upstream's "now".
  if (instance.state == "shutting-down") {
    out.metadata.deletion_timestamp = out.metadata.creation_timestamp.value_or(api::Time());
  }
  const std::string node_pool = TagOr(instance.tags, api::kNodePoolLabelKey);
  if (!node_pool.empty()) labels[std::string(api::kNodePoolLabelKey)] = node_pool;
  const std::string node_class = TagOr(instance.tags, api::kLabelNodeClass);
  if (!node_class.empty()) {
    out.spec.node_class_ref = api::NodeClassReference{
        .kind = "EC2NodeClass", .name = node_class, .group = "karpenter.k8s.aws"};
  }
  return out;
}

std::variant<std::monostate, CloudError> AwsCloudProvider::Delete(
    const api::NodeClaim& node_claim) {
  const std::string id = InstanceIdOf(node_claim.status.provider_id);
  auto instance = OwnedInstance(id);
  if (auto* error = std::get_if<CloudError>(&instance)) {
    // Gone: its reservation has room for one more (upstream MarkTerminated). EC2 frees the slot
    // some time between the terminate call and this answer, so counting it now may briefly
    // overstate what is left, which a failed launch corrects; understating would strand it.
    auto reservation =
        node_claim.metadata.labels.find(std::string(api::kLabelCapacityReservationID));
    if (error->kind == CloudErrorKind::kNotFound && reservations_ != nullptr &&
        reservation != node_claim.metadata.labels.end() && !reservation->second.empty()) {
      reservations_->MarkTerminated(reservation->second);
    }
    return *error;
  }
  // Already shutting down: asking again only spends request budget (upstream skips it too).
  if (std::get<Instance>(instance).state == "shutting-down") return std::monostate{};
  auto terminated = ec2_.TerminateInstances({id});
  if (!terminated.ok()) {
    if (absl::IsNotFound(terminated.status())) return NotFound(id);
    return Unavailable(terminated.status());
  }
  return std::monostate{};
}

CloudOr<api::NodeClaim> AwsCloudProvider::Get(std::string_view provider_id) {
  auto instance = OwnedInstance(InstanceIdOf(provider_id));
  if (auto* error = std::get_if<CloudError>(&instance)) return *error;
  const Instance& found = std::get<Instance>(instance);
  std::vector<cloudprovider::InstanceType> types;
  if (auto node_class = NodeClass(TagOr(found.tags, api::kLabelNodeClass));
      std::holds_alternative<api::EC2NodeClass>(node_class)) {
    auto listed = InstanceTypes(std::get<api::EC2NodeClass>(node_class));
    if (auto* all = std::get_if<std::vector<cloudprovider::InstanceType>>(&listed)) {
      types = std::move(*all);
    }
  }
  return ToNodeClaim(found, types);
}

CloudOr<std::vector<api::NodeClaim>> AwsCloudProvider::List() {
  auto instances = ec2_.DescribeInstances(
      {}, {{.name = "tag-key", .values = {std::string(api::kNodePoolLabelKey)}},
           {.name = absl::StrCat("tag:kubernetes.io/cluster/", info_.name), .values = {"owned"}},
           {.name = "instance-state-name",
            .values = {"pending", "running", "stopping", "stopped", "shutting-down"}}});
  if (!instances.ok()) return Unavailable(instances.status());
  std::vector<api::NodeClaim> out;
  for (const Instance& instance : *instances) {
    if (Live(instance)) out.push_back(ToNodeClaim(instance, {}));
  }
  std::sort(out.begin(), out.end(), [](const api::NodeClaim& a, const api::NodeClaim& b) {
    return a.status.provider_id < b.status.provider_id;
  });
  return out;
}

CloudOr<std::string> AwsCloudProvider::IsDrifted(const api::NodeClaim& node_claim) {
  if (!node_claim.spec.node_class_ref) return std::string();
  auto found = NodeClass(node_claim.spec.node_class_ref->name);
  if (auto* error = std::get_if<CloudError>(&found)) return *error;
  const api::EC2NodeClass& node_class = std::get<api::EC2NodeClass>(found);
  const auto& annotations = node_claim.metadata.annotations;
  auto hash = annotations.find(std::string(api::kEC2NodeClassHashAnnotationKey));
  auto version = annotations.find(std::string(api::kEC2NodeClassHashVersionAnnotationKey));
  if (hash != annotations.end() && version != annotations.end() &&
      version->second == kNodeClassHashVersion && hash->second != NodeClassHash(node_class.spec)) {
    return std::string(kNodeClassDrift);
  }
  auto instance = OwnedInstance(InstanceIdOf(node_claim.status.provider_id));
  if (auto* error = std::get_if<CloudError>(&instance)) return *error;
  const Instance& live = std::get<Instance>(instance);
  // AMI: the image the class would launch this node's architecture with now.
  api::LabelMap labels(node_claim.metadata.labels.begin(), node_claim.metadata.labels.end());
  bool image_current = node_class.status.amis.empty();
  for (const api::AMI& ami : node_class.status.amis) {
    bool matches = true;
    for (const auto& requirement : ami.requirements) {
      matches = matches && api::Matches(requirement, labels);
    }
    if (matches) {
      image_current = ami.id == live.image_id;
      break;
    }
  }
  if (!image_current) return std::string(kAmiDrift);
  const bool subnet_current =
      std::any_of(node_class.status.subnets.begin(), node_class.status.subnets.end(),
                  [&](const api::Subnet& subnet) { return subnet.id == live.subnet_id; });
  if (!node_class.status.subnets.empty() && !subnet_current) return std::string(kSubnetDrift);
  std::set<std::string> resolved;
  for (const api::SecurityGroup& group : node_class.status.security_groups) {
    resolved.insert(group.id);
  }
  const std::set<std::string> attached(live.security_group_ids.begin(),
                                       live.security_group_ids.end());
  if (!resolved.empty() && resolved != attached) return std::string(kSecurityGroupDrift);
  return std::string();
}

absl::StatusOr<bool> AwsCloudProvider::TagInstance(std::string_view provider_id, const Tags& tags) {
  const std::string id = InstanceIdOf(provider_id);
  if (id.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("status.providerID ", AbslView(provider_id), " names no EC2 instance"));
  }
  // Described afresh, not from a cache: tags written by hand (or by an earlier pass whose
  // annotation was lost) are kept as they are.
  auto instance = OwnedInstance(id);
  if (auto* error = std::get_if<CloudError>(&instance)) {
    if (error->kind == CloudErrorKind::kNotFound) return absl::NotFoundError(error->message);
    return absl::UnavailableError(error->message);
  }
  Tags missing;
  for (const auto& [key, value] : tags) {
    if (!std::get<Instance>(instance).tags.contains(key)) missing[key] = value;
  }
  if (missing.empty()) return false;
  if (absl::Status tagged = ec2_.CreateTags({id}, missing); !tagged.ok()) {
    if (absl::IsNotFound(tagged)) return tagged;
    return absl::UnavailableError(absl::StrCat("tagging instance ", id, ", ", tagged.message()));
  }
  return true;
}

std::vector<RepairPolicy> AwsCloudProvider::RepairPolicies() const {
  return cloudprovider::AwsRepairPolicies();
}

}  // namespace karpenter::aws
