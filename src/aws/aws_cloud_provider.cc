// Upstream: pkg/cloudprovider/cloudprovider.go (Create, GetInstanceTypes) and
// pkg/providers/instance/instance.go (launch: capacity type, overrides, subnets, ICE cache).
#include "src/aws/aws_cloud_provider.h"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "src/api/karpenter_labels.h"
#include "src/api/pod_resources.h"
#include "src/api/resource_names.h"
#include "src/api/selector_match.h"
#include "src/aws/errors.h"
#include "src/aws/launch_candidates.h"
#include "src/aws/node_class_resolver.h"
#include "src/cloudprovider/reserved_offerings.h"

namespace karpenter::aws {
namespace {

CloudError Unavailable(const absl::Status& status) {
  return {.kind = CloudErrorKind::kUnavailable, .message = std::string(status.message())};
}

api::LabelMap OfferingLabels(const cloudprovider::InstanceType& type,
                             const cloudprovider::Offering& offering) {
  api::LabelMap labels(type.labels.begin(), type.labels.end());
  labels[std::string(api::kLabelInstanceTypeStable)] = type.name;
  labels[std::string(api::kLabelTopologyZone)] = offering.zone;
  labels[std::string(api::kCapacityTypeLabelKey)] = offering.capacity_type;
  if (!offering.reservation_id.empty()) {
    labels[std::string(api::kLabelCapacityReservationID)] = offering.reservation_id;
    labels[std::string(api::kLabelCapacityReservationType)] = offering.reservation_type;
    labels[std::string(api::kLabelCapacityReservationInterruptible)] =
        offering.reservation_interruptible ? "true" : "false";
  }
  return labels;
}

bool Allows(const api::NodeClaim& node_claim, const api::LabelMap& labels) {
  for (const api::NodeSelectorRequirementWithMinValues& requirement :
       node_claim.spec.requirements) {
    if (!api::Matches({requirement.key, requirement.operator_, requirement.values}, labels)) {
      return false;
    }
  }
  return true;
}

// The first AMI of the status (newest first) whose requirements the type's labels meet.
std::string MappedImage(const std::vector<api::AMI>& amis, const api::LabelMap& labels) {
  for (const api::AMI& ami : amis) {
    bool matches = true;
    for (const api::NodeSelectorRequirement& requirement : ami.requirements) {
      matches = matches && api::Matches(requirement, labels);
    }
    if (matches) return ami.id;
  }
  return "";
}

cloudprovider::ResolveOptions ResolveOptionsOf(const api::EC2NodeClass& node_class) {
  cloudprovider::ResolveOptions options;
  auto family = cloudprovider::ParseAmiFamily(api::ResolvedAMIFamily(node_class.spec));
  if (family.ok()) options.ami_family = *family;
  if (const auto& kubelet = node_class.spec.kubelet) {
    options.kubelet = {.max_pods = kubelet->max_pods,
                       .pods_per_core = kubelet->pods_per_core,
                       .kube_reserved = kubelet->kube_reserved,
                       .system_reserved = kubelet->system_reserved,
                       .eviction_hard = kubelet->eviction_hard};
  }
  for (const api::BlockDeviceMapping& mapping : node_class.spec.block_device_mappings) {
    if (mapping.root_volume && mapping.ebs && mapping.ebs->volume_size) {
      options.ephemeral_volume_size = *mapping.ebs->volume_size;
    }
  }
  options.instance_store_raid0 = node_class.spec.instance_store_policy.value_or("") == "RAID0";
  return options;
}

// The zone of an override CreateFleet refused: EC2 names it only sometimes, its subnet always.
std::string FailedZone(const FleetError& error,
                       const std::map<std::string, std::string>& zone_of_subnet) {
  if (!error.failed_override.zone.empty()) return error.failed_override.zone;
  auto it = zone_of_subnet.find(error.failed_override.subnet_id);
  return it == zone_of_subnet.end() ? std::string() : it->second;
}

// Why a fleet launched nothing: the offerings EC2 had no capacity for, else its first error.
CloudError NothingLaunched(const FleetResult& result, std::vector<OfferingRef> exhausted) {
  if (!exhausted.empty()) {
    std::sort(exhausted.begin(), exhausted.end());
    std::vector<std::string> names;
    for (const OfferingRef& ref : exhausted) {
      names.push_back(absl::StrCat(ref.instance_type, "/", ref.zone, "/", ref.capacity_type));
    }
    return CloudError{
        .kind = CloudErrorKind::kInsufficientCapacity,
        .reason = "InsufficientCapacity",
        .message = absl::StrCat("insufficient capacity for ", absl::StrJoin(names, ", ")),
        .offerings = std::move(exhausted)};
  }
  if (result.errors.empty()) {
    return CloudError{.kind = CloudErrorKind::kCreateError,
                      .reason = "LaunchFailed",
                      .message = "CreateFleet launched nothing"};
  }
  const std::string first = result.errors.front().code + ": " + result.errors.front().message;
  return CloudError{.kind = CloudErrorKind::kCreateError,
                    .reason = ClassifyLaunchFailure(first).reason,
                    .message = first};
}

// Per zone, the addresses a launch is expected to take: the pods of its smallest candidate type
// there (upstream's minPods; one address per pod with the VPC CNI).
std::map<std::string, int64_t> PredictedAddressUse(const std::vector<Candidate>& candidates) {
  std::map<std::string, int64_t> out;
  for (const Candidate& c : candidates) {
    auto pods = c.type->capacity.find(std::string(api::kResourcePods));
    if (pods == c.type->capacity.end()) continue;
    auto [slot, added] = out.try_emplace(c.offering->zone, pods->second.Value());
    if (!added) slot->second = std::min(slot->second, pods->second.Value());
  }
  return out;
}

// The launch templates of one launch, built once per image and max-pods value: upstream's
// resolver makes one template per such group, since the kubelet must be told the pods its type
// was scheduled with (one template cannot serve a 29-pod and a 58-pod type).
class TemplateSet {
 public:
  TemplateSet(const ClusterInfo& cluster, const api::EC2NodeClass& node_class,
              const api::NodeClaim& node_claim, LaunchMode mode)
      : cluster_(cluster), node_class_(node_class), node_claim_(node_claim), mode_(mode) {}

  // The name of the template `candidate` launches from.
  CloudOr<std::string> NameFor(const Candidate& candidate) {
    std::optional<int32_t> max_pods;
    if (auto pods = candidate.type->capacity.find(std::string(api::kResourcePods));
        pods != candidate.type->capacity.end()) {
      max_pods = static_cast<int32_t>(pods->second.Value());
    }
    // A reserved launch also makes one template per reservation (upstream's resolver).
    const cloudprovider::Offering* reserved =
        candidate.offering->reservation_id.empty() ? nullptr : candidate.offering;
    const auto key =
        std::make_tuple(candidate.image_id, max_pods, candidate.offering->reservation_id);
    if (auto known = names_.find(key); known != names_.end()) return known->second;
    auto spec = BuildLaunchTemplate(cluster_, node_class_, node_claim_, candidate.image_id,
                                    max_pods, reserved, mode_);
    if (!spec.ok()) {
      return CloudError{.kind = CloudErrorKind::kCreateError,
                        .reason = "LaunchTemplateCreationFailed",
                        .message = std::string(spec.status().message())};
    }
    names_[key] = spec->name;
    // Groups whose contents come out equal (Custom user data ignores max pods) share one.
    const bool built = std::any_of(specs_.begin(), specs_.end(), [&](const LaunchTemplateSpec& t) {
      return t.name == spec->name;
    });
    if (!built) specs_.push_back(*std::move(spec));
    return names_[key];
  }

  std::vector<LaunchTemplateSpec>& specs() { return specs_; }

 private:
  const ClusterInfo& cluster_;
  const api::EC2NodeClass& node_class_;
  const api::NodeClaim& node_claim_;
  const LaunchMode mode_;
  std::map<std::tuple<std::string, std::optional<int32_t>, std::string>, std::string> names_;
  std::vector<LaunchTemplateSpec> specs_;
};

}  // namespace

struct AwsCloudProvider::Launch {
  // One per distinct (image, max pods, reservation) of the chosen types, in the order CreateFleet
  // lists them.
  std::vector<LaunchTemplateSpec> templates;
  std::string capacity_type;  // on-demand, spot or reserved
  bool spot = false;
  bool capacity_block = false;
  bool interruptible_reservation = false;
  // Reserved launches: the reservation of each "type/zone" override.
  std::map<std::string, std::string> reservation_of;
  std::vector<FleetOverride> overrides;  // each names its template
  std::map<std::string, std::string> zone_of_subnet;
  std::map<std::string, std::string> image_of_type;
  // The subnet of each zone and the addresses charged to it (SubnetAddresses).
  std::map<std::string, Subnet> subnet_of_zone;
  std::map<std::string, int64_t> predicted_address_use;
};

Tags OwnershipTags(const ClusterInfo& cluster, const api::NodeClaim& node_claim) {
  auto label = [&](std::string_view key) {
    auto it = node_claim.metadata.labels.find(std::string(key));
    return it == node_claim.metadata.labels.end() ? std::string() : it->second;
  };
  return {{std::string(api::kNodePoolLabelKey), label(api::kNodePoolLabelKey)},
          {"karpenter.sh/nodeclaim", node_claim.metadata.name},
          {std::string(api::kLabelNodeClass),
           node_claim.spec.node_class_ref ? node_claim.spec.node_class_ref->name : ""},
          {"eks:eks-cluster-name", cluster.name},
          {absl::StrCat("kubernetes.io/cluster/", cluster.name), "owned"}};
}

CloudOr<api::EC2NodeClass> AwsCloudProvider::NodeClass(const std::string& name) const {
  std::optional<api::Object> object = cluster_.Get({"EC2NodeClass", "", name});
  const auto* node_class = object ? std::get_if<api::EC2NodeClass>(&*object) : nullptr;
  if (node_class == nullptr) {
    return CloudError{.kind = CloudErrorKind::kNodeClassNotReady,
                      .reason = "NodeClassNotFound",
                      .message = absl::StrCat("EC2NodeClass ", name, " not found")};
  }
  return *node_class;
}

CloudOr<std::vector<cloudprovider::InstanceType>> AwsCloudProvider::InstanceTypes(
    const api::EC2NodeClass& node_class) {
  std::set<std::string> zones;
  for (const api::Subnet& subnet : node_class.status.subnets) zones.insert(subnet.zone);
  unavailable_.Expire();  // offerings whose 3 minutes are over are offered again
  auto types = instance_types_.List(ResolveOptionsOf(node_class), zones, unavailable_);
  if (!types.ok()) return Unavailable(types.status());
  if (reservations_ != nullptr) AddReservedOfferings(node_class, *types);
  return *std::move(types);
}

void AwsCloudProvider::AddReservedOfferings(const api::EC2NodeClass& node_class,
                                            std::vector<cloudprovider::InstanceType>& types) {
  if (node_class.status.capacity_reservations.empty()) return;
  // The status's counts as launches and refusals since its last refresh left them.
  std::vector<api::CapacityReservation> reservations = node_class.status.capacity_reservations;
  for (api::CapacityReservation& reservation : reservations) {
    reservation.available_instance_count = reservations_->Available(reservation);
  }
  // Priced as upstream: the on-demand price over 10,000,000.
  cloudprovider::AddReservedOfferings(reservations, types);
}

CloudOr<std::vector<cloudprovider::InstanceType>> AwsCloudProvider::GetInstanceTypes(
    const api::NodePool& node_pool) {
  const auto& ref = node_pool.spec.template_.spec.node_class_ref;
  auto node_class = NodeClass(ref ? ref->name : "");
  if (auto* error = std::get_if<CloudError>(&node_class)) return *error;
  return InstanceTypes(std::get<api::EC2NodeClass>(node_class));
}

CloudOr<AwsCloudProvider::Launch> AwsCloudProvider::Plan(
    const api::NodeClaim& node_claim, const api::EC2NodeClass& node_class,
    const std::vector<cloudprovider::InstanceType>& types) {
  std::vector<Candidate> candidates;
  for (const cloudprovider::InstanceType& type : types) {
    if (!api::FitsWithin(node_claim.spec.resources.requests, type.Allocatable())) continue;
    for (const cloudprovider::Offering& offering : type.offerings) {
      if (!offering.available) continue;
      // The node also carries the claim's own labels (karpenter.sh/nodepool, the template's
      // labels), which its requirements name too.
      api::LabelMap labels = OfferingLabels(type, offering);
      labels.insert(node_claim.metadata.labels.begin(), node_claim.metadata.labels.end());
      if (!Allows(node_claim, labels)) continue;
      std::string image = MappedImage(node_class.status.amis, labels);
      if (!image.empty()) candidates.push_back({&type, &offering, std::move(image)});
    }
  }
  if (candidates.empty()) {
    return CloudError{.kind = CloudErrorKind::kInsufficientCapacity,
                      .reason = "InsufficientCapacity",
                      .message = "no available offering satisfies the NodeClaim's requirements"};
  }
  const std::string_view capacity = ChooseLaunchCandidates(node_claim, candidates);

  std::vector<std::string> subnet_ids;
  for (const api::Subnet& subnet : node_class.status.subnets) subnet_ids.push_back(subnet.id);
  auto subnets = subnets_.Describe(std::move(subnet_ids));
  if (!subnets.ok()) return Unavailable(subnets.status());
  const std::map<std::string, int64_t> predicted = PredictedAddressUse(candidates);
  const std::map<std::string, Subnet> best = subnet_addresses_.ChooseForLaunch(*subnets, predicted);
  Launch launch{
      .capacity_type = std::string(capacity),
      .spot = capacity == api::kCapacityTypeSpot,
      .capacity_block = capacity == api::kCapacityTypeReserved &&
                        candidates.front().offering->reservation_type == "capacity-block",
      .interruptible_reservation = capacity == api::kCapacityTypeReserved &&
                                   candidates.front().offering->reservation_interruptible};
  // With reservations offered the provider launches as upstream's targeted mode does.
  TemplateSet templates(info_, node_class, node_claim,
                        reservations_ != nullptr ? LaunchMode::kTargeted : LaunchMode::kOpen);
  std::set<std::string> chosen_types;
  for (const Candidate& c : candidates) {
    auto subnet = best.find(c.offering->zone);
    if (subnet == best.end() || launch.overrides.size() == Ec2Client::kMaxFleetOverrides) continue;
    if (!chosen_types.contains(c.type->name) && chosen_types.size() == kMaxInstanceTypes) continue;
    chosen_types.insert(c.type->name);
    auto name = templates.NameFor(c);
    if (auto* error = std::get_if<CloudError>(&name)) return *error;
    launch.overrides.push_back({.instance_type = c.type->name,
                                .subnet_id = subnet->second.id,
                                .zone = subnet->second.zone,
                                .image_id = c.image_id,
                                .launch_template_name = std::get<std::string>(name)});
    launch.zone_of_subnet[subnet->second.id] = subnet->second.zone;
    launch.image_of_type[c.type->name] = c.image_id;
    if (!c.offering->reservation_id.empty()) {
      launch.reservation_of[absl::StrCat(c.type->name, "/", c.offering->zone)] =
          c.offering->reservation_id;
    }
  }
  launch.subnet_of_zone = best;
  launch.predicted_address_use = predicted;
  if (launch.overrides.empty()) {
    subnet_addresses_.Settle(best, predicted, {});
    return CloudError{.kind = CloudErrorKind::kCreateError,
                      .reason = "SubnetsNotFound",
                      .message = "no subnet of the node class is left in the offerings' zones"};
  }
  launch.templates = std::move(templates.specs());
  return launch;
}

absl::Status AwsCloudProvider::EnsureLaunchTemplate(const LaunchTemplateSpec& spec) {
  {
    absl::MutexLock lock(&mu_);
    if (known_templates_.contains(spec.name)) return absl::OkStatus();
  }
  auto existing = ec2_.DescribeLaunchTemplates({spec.name}, {});
  if (!existing.ok() || existing->empty()) {
    if (existing.ok() || absl::IsNotFound(existing.status())) {
      auto created = ec2_.CreateLaunchTemplate(spec);
      // Another launch may have created it since we looked.
      if (!created.ok() && !absl::IsAlreadyExists(created.status())) return created.status();
    } else {
      return existing.status();
    }
  }
  absl::MutexLock lock(&mu_);
  known_templates_.insert(spec.name);
  return absl::OkStatus();
}

absl::Status AwsCloudProvider::DeleteLaunchTemplates(const api::EC2NodeClass& node_class) {
  auto templates = ec2_.DescribeLaunchTemplates(
      {},
      {{.name = "tag:karpenter.k8s.aws/cluster", .values = {info_.name}},
       {.name = "tag:" + std::string(api::kLabelNodeClass), .values = {node_class.metadata.name}}});
  if (absl::IsNotFound(templates.status())) return absl::OkStatus();
  if (!templates.ok()) return templates.status();
  for (const LaunchTemplate& found : *templates) {
    absl::Status deleted = ec2_.DeleteLaunchTemplate(found.name);
    if (!deleted.ok() && !absl::IsNotFound(deleted)) return deleted;
    absl::MutexLock lock(&mu_);
    known_templates_.erase(found.name);
  }
  return absl::OkStatus();
}

void AwsCloudProvider::CountLaunchFailures(const Launch& launch,
                                           const std::vector<FleetError>& errors,
                                           const api::EC2NodeClass& node_class) {
  if (metrics_ == nullptr) return;
  std::map<std::string, std::string> zone_ids;
  for (const api::Subnet& subnet : node_class.status.subnets)
    zone_ids[subnet.zone] = subnet.zone_id;
  const std::string& capacity = launch.capacity_type;
  for (const FleetError& error : errors) {
    const std::string zone = FailedZone(error, launch.zone_of_subnet);
    auto zone_id = zone_ids.find(zone);
    metrics_->Add("karpenter_cloudprovider_instance_launch_failures_total",
                  {{"zone", zone},
                   {"zone_id", zone_id == zone_ids.end() ? std::string() : zone_id->second},
                   {"capacity_type", capacity},
                   {"reason", ClassifyLaunchFailure(error.code + ": " + error.message).reason}},
                  1);
  }
}

CloudOr<FleetResult> AwsCloudProvider::LaunchFleet(const Launch& launch,
                                                   const api::NodeClaim& node_claim,
                                                   const api::EC2NodeClass& node_class) {
  Tags tags = LaunchTemplateTags(info_, node_class);
  for (auto& [key, value] : OwnershipTags(info_, node_claim)) tags[key] = value;
  const FleetRequest request{.overrides = launch.overrides,
                             .spot = launch.spot,
                             .capacity_block = launch.capacity_block,
                             .interruptible_reservation = launch.interruptible_reservation,
                             .tags = tags};
  // A template deleted behind our back (by hand, or by another controller's cleanup) is
  // created again once, as upstream does.
  for (int attempt = 0;; ++attempt) {
    for (const LaunchTemplateSpec& spec : launch.templates) {
      if (absl::Status ensured = EnsureLaunchTemplate(spec); !ensured.ok()) {
        return CloudError{.kind = CloudErrorKind::kCreateError,
                          .reason = "LaunchTemplateCreationFailed",
                          .message = std::string(ensured.message())};
      }
    }
    auto fleet = ec2_.CreateFleet(request);
    bool template_missing = false;
    if (!fleet.ok()) {
      const std::optional<std::string> code = AwsErrorCode(fleet.status());
      template_missing = code && IsLaunchTemplateNotFoundCode(*code);
    } else if (fleet->instances.empty()) {
      template_missing =
          std::any_of(fleet->errors.begin(), fleet->errors.end(),
                      [](const FleetError& e) { return IsLaunchTemplateNotFoundCode(e.code); });
    }
    if (template_missing && attempt == 0) {
      // Which one went is not said reliably: look for each again (Describe finds the others).
      absl::MutexLock lock(&mu_);
      for (const LaunchTemplateSpec& spec : launch.templates) known_templates_.erase(spec.name);
      continue;
    }
    if (!fleet.ok()) {
      if (absl::IsUnavailable(fleet.status())) return Unavailable(fleet.status());
      std::string message(fleet.status().message());  // carries EC2's code and text
      return CloudError{.kind = CloudErrorKind::kCreateError,
                        .reason = ClassifyLaunchFailure(message).reason,
                        .message = std::move(message)};
    }
    return *std::move(fleet);
  }
}

std::vector<OfferingRef> AwsCloudProvider::MarkRefusedCapacity(const Launch& launch,
                                                               const FleetResult& result) {
  // Every offering EC2 said it has no capacity for is left out for a while, launched or not; a
  // reservation EC2 refused has nothing left until its count is described again.
  std::vector<OfferingRef> exhausted;
  for (const FleetError& error : result.errors) {
    if (error.code == "InsufficientFreeAddressesInSubnet" &&
        !error.failed_override.subnet_id.empty()) {
      subnet_addresses_.MarkFull(error.failed_override.subnet_id);
    }
    if (!IsUnfulfillableCapacityCode(error.code)) continue;
    OfferingRef ref{error.failed_override.instance_type, FailedZone(error, launch.zone_of_subnet),
                    launch.capacity_type};
    if (auto reservation =
            launch.reservation_of.find(absl::StrCat(ref.instance_type, "/", ref.zone));
        reservation != launch.reservation_of.end()) {
      if (reservations_ != nullptr) reservations_->MarkUnavailable(reservation->second);
    } else {
      unavailable_.Mark(ref);
    }
    exhausted.push_back(std::move(ref));
  }
  return exhausted;
}

CloudOr<api::NodeClaim> AwsCloudProvider::Create(const api::NodeClaim& node_claim) {
  if (!node_claim.spec.node_class_ref) {
    return CloudError{.kind = CloudErrorKind::kNodeClassNotReady,
                      .message = "spec.nodeClassRef: required"};
  }
  auto found = NodeClass(node_claim.spec.node_class_ref->name);
  if (auto* error = std::get_if<CloudError>(&found)) return *error;
  const api::EC2NodeClass& node_class = std::get<api::EC2NodeClass>(found);
  if (!IsReady(node_class)) {
    return CloudError{
        .kind = CloudErrorKind::kNodeClassNotReady,
        .reason = "NodeClassNotReady",
        .message = absl::StrCat("EC2NodeClass ", node_class.metadata.name, " is not Ready")};
  }
  auto types = InstanceTypes(node_class);
  if (auto* error = std::get_if<CloudError>(&types)) return *error;
  const auto& all_types = std::get<std::vector<cloudprovider::InstanceType>>(types);
  auto planned = Plan(node_claim, node_class, all_types);
  if (auto* error = std::get_if<CloudError>(&planned)) return *error;
  const Launch& launch = std::get<Launch>(planned);
  auto fleet = LaunchFleet(launch, node_claim, node_class);
  std::vector<std::string> launched_subnets;
  if (const auto* done = std::get_if<FleetResult>(&fleet)) {
    for (const FleetInstance& instance : done->instances) {
      launched_subnets.push_back(instance.subnet_id);
    }
  }
  subnet_addresses_.Settle(launch.subnet_of_zone, launch.predicted_address_use, launched_subnets);
  if (auto* error = std::get_if<CloudError>(&fleet)) return *error;
  const FleetResult& result = std::get<FleetResult>(fleet);

  CountLaunchFailures(launch, result.errors, node_class);
  std::vector<OfferingRef> exhausted = MarkRefusedCapacity(launch, result);
  if (result.instances.empty()) return NothingLaunched(result, std::move(exhausted));
  const FleetInstance& launched = result.instances.front();
  auto image = launch.image_of_type.find(launched.instance_type);
  Instance instance{.id = launched.id,
                    .instance_type = launched.instance_type,
                    .zone = launched.zone,
                    .image_id = image == launch.image_of_type.end() ? "" : image->second,
                    .subnet_id = launched.subnet_id,
                    .lifecycle = launch.spot ? "spot" : "",
                    .tags = OwnershipTags(info_, node_claim)};
  if (auto zone = launch.zone_of_subnet.find(launched.subnet_id);
      instance.zone.empty() && zone != launch.zone_of_subnet.end()) {
    instance.zone = zone->second;
  }
  // Described as EC2 will describe it, so ToNodeClaim labels a reserved launch as it labels a
  // reserved instance read back.
  if (auto reservation =
          launch.reservation_of.find(absl::StrCat(instance.instance_type, "/", instance.zone));
      reservation != launch.reservation_of.end()) {
    if (reservations_ != nullptr) reservations_->MarkLaunched(reservation->second);
    instance.capacity_reservation_id = reservation->second;
    instance.capacity_reservation_preference = "capacity-reservations-only";
    instance.lifecycle = launch.capacity_block              ? "capacity-block"
                         : launch.interruptible_reservation ? "interruptible-capacity-reservation"
                                                            : "";
  }
  api::NodeClaim out = ToNodeClaim(instance, all_types);
  for (const auto& [key, value] : node_claim.metadata.labels)
    out.metadata.labels.emplace(key, value);
  out.metadata.annotations = node_claim.metadata.annotations;
  out.spec = node_claim.spec;
  out.metadata.annotations[std::string(api::kEC2NodeClassHashAnnotationKey)] =
      NodeClassHash(node_class.spec);
  out.metadata.annotations[std::string(api::kEC2NodeClassHashVersionAnnotationKey)] =
      std::string(kNodeClassHashVersion);
  // Instance profile garbage collection keeps a profile while a NodeClaim launched with it.
  if (!node_class.status.instance_profile.empty()) {
    out.metadata.annotations[std::string(api::kInstanceProfileAnnotationKey)] =
        node_class.status.instance_profile;
  }
  return out;
}

}  // namespace karpenter::aws
