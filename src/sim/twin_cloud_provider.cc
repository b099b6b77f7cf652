#include "src/sim/twin_cloud_provider.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "src/api/karpenter_labels.h"
#include "src/api/pod_resources.h"
#include "src/cloudprovider/aws_conventions.h"
#include "src/provisioning/launch.h"
#include "src/scheduling/selector_conversion.h"

namespace karpenter::sim {
namespace {

CloudError NodeClassNotReady(std::string message) {
  return {.kind = CloudErrorKind::kNodeClassNotReady,
          .reason = "NodeClassNotReady",
          .message = std::move(message)};
}

CloudError CreateError(std::string reason, const absl::Status& status) {
  return {.kind = CloudErrorKind::kCreateError,
          .reason = std::move(reason),
          .message = std::string(status.message())};
}

absl::StatusOr<scheduling::Requirements> RequirementsOf(const api::NodeClaim& node_claim) {
  scheduling::Requirements out;
  for (size_t i = 0; i < node_claim.spec.requirements.size(); ++i) {
    absl::StatusOr<scheduling::Requirement> converted =
        scheduling::FromRequirementWithMinValues(node_claim.spec.requirements[i]);
    if (!converted.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("spec.requirements[", i, "]: ", converted.status().message()));
    }
    out.Add(*std::move(converted));
  }
  return out;
}

// The type named `name` among types sorted by name, or null.
const provisioning::InstanceTypeView* FindType(
    const provisioning::SharedVector<provisioning::InstanceTypeView>& types,
    std::string_view name) {
  auto it = std::lower_bound(types.begin(), types.end(), name,
                             [](const provisioning::InstanceTypeView& type,
                                std::string_view wanted) { return type.name < wanted; });
  return it != types.end() && it->name == name ? &*it : nullptr;
}

}  // namespace

CloudOr<api::NodeClaim> TwinCloudProvider::Create(const api::NodeClaim& node_claim) {
  const std::optional<api::NodeClassReference>& ref = node_claim.spec.node_class_ref;
  if (!ref) return NodeClassNotReady("spec.nodeClassRef: required");
  const api::EC2NodeClass* node_class = cluster_.FindNodeClass(ref->name);
  if (node_class == nullptr) {
    return NodeClassNotReady(absl::StrCat("EC2NodeClass ", ref->name, " not found"));
  }
  absl::StatusOr<provisioning::SharedVector<provisioning::InstanceTypeView>> types =
      catalogs_.InstanceTypesFor(*node_class);
  if (!types.ok()) return CreateError("InstanceTypesUnresolved", types.status());
  // The launch reads the claim as a solve's claim: its requirements and the types they allow.
  provisioning::NewNodeClaim claim;
  absl::StatusOr<scheduling::Requirements> requirements = RequirementsOf(node_claim);
  if (!requirements.ok()) return CreateError("InvalidRequirements", requirements.status());
  claim.requirements = *std::move(requirements);
  std::vector<const provisioning::InstanceTypeView*> options;
  auto consider = [&](const provisioning::InstanceTypeView& type) {
    if (type.requirements.HasIntersection(claim.requirements) &&
        api::FitsWithin(node_claim.spec.resources.requests, type.allocatable)) {
      options.push_back(&type);
    }
  };
  // A claim names its types (at most 60 of the class's hundreds): look those up by name in the
  // name-sorted types rather than testing every type.
  const scheduling::Requirement* named = claim.requirements.Find(api::kLabelInstanceTypeStable);
  if (named != nullptr && !named->is_complement()) {
    for (const std::string& name : named->Values()) {
      if (const provisioning::InstanceTypeView* type = FindType(*types, name)) consider(*type);
    }
  } else {
    for (const provisioning::InstanceTypeView& type : *types) consider(type);
  }
  claim.instance_type_options = std::move(options);
  unavailable_.Expire();
  absl::StatusOr<std::vector<provisioning::LaunchPrediction>> fleet =
      provisioning::PlanFleet(claim, [this](const provisioning::InstanceTypeView& type,
                                            const provisioning::OfferingView& offering) {
        return !unavailable_.IsUnavailable(type.name, offering.zone, offering.capacity_type);
      });
  if (!fleet.ok()) {
    return CloudError{.kind = CloudErrorKind::kInsufficientCapacity,
                      .reason = "InsufficientCapacity",
                      .message = std::string(fleet.status().message())};
  }
  const SimMillis now = cluster_.queue().now();
  std::vector<OfferingRef> refused;
  for (const provisioning::LaunchPrediction& offering : *fleet) {
    absl::StatusOr<double> price = cluster_.ec2().RunInstance(offering.instance_type, offering.zone,
                                                              offering.capacity_type, now);
    if (!price.ok()) {
      cluster_.log().Record(
          now, "InsufficientCapacity",
          {Str("nodeClaim", node_claim.metadata.name), Str("instanceType", offering.instance_type),
           Str("zone", offering.zone), Str("capacityType", offering.capacity_type)});
      refused.push_back({offering.instance_type, offering.zone, offering.capacity_type});
      unavailable_.Mark(refused.back());
      continue;
    }
    InstanceRequest request;
    request.instance_type = offering.instance_type;
    request.zone = offering.zone;
    request.capacity_type = offering.capacity_type;
    request.price = *price;
    request.node_claim = node_claim.metadata.name;
    request.labels = node_claim.metadata.labels;
    request.labels[std::string(api::kLabelInstanceTypeStable)] = offering.instance_type;
    request.labels[std::string(api::kCapacityTypeLabelKey)] = offering.capacity_type;
    // The kubelet registers with the taints the launch template's user data gives it: the
    // claim's taints and startup taints, and karpenter.sh/unregistered until Karpenter's
    // registration takes it off.
    request.taints = node_claim.spec.taints;
    request.taints.insert(request.taints.end(), node_claim.spec.startup_taints.begin(),
                          node_claim.spec.startup_taints.end());
    request.taints.push_back(
        api::Taint{.key = std::string(api::kUnregisteredTaintKey), .effect = "NoExecute"});
    // Node-ready time counts from the NodeClaim's creation, when Karpenter decided.
    const api::Time created =
        node_claim.metadata.creation_timestamp.value_or(cluster_.queue().Now());
    request.requested_at = now - std::max<int64_t>(0, (cluster_.queue().Now() - created).Nanos() /
                                                          api::Duration::kMillisecond);
    // The kubelet runs with the class's settings (maxPods, reservations), as the scheduler
    // planned for.
    request.allocatable = offering.allocatable;
    if (const provisioning::InstanceTypeView* type = FindType(*types, offering.instance_type)) {
      request.capacity = type->capacity;
    }
    const std::string id = cluster_.LaunchInstance(std::move(request));
    api::NodeClaim launched = Describe(cluster_.instances().at(id));
    for (auto& [key, value] : provisioning::LaunchLabels(offering)) {
      launched.metadata.labels[key] = value;
    }
    // The claim's own labels, annotations and spec are its caller's to keep (CopyLaunched
    // merges the answer under them), so the answer carries only what the launch decided.
    return launched;
  }
  return CloudError{.kind = CloudErrorKind::kInsufficientCapacity,
                    .reason = "InsufficientCapacity",
                    .message = absl::StrCat("all ", refused.size(),
                                            " offerings of the fleet were refused for capacity"),
                    .offerings = std::move(refused)};
}

api::NodeClaim TwinCloudProvider::Describe(const Instance& instance) const {
  const InstanceRequest& request = instance.request;
  api::NodeClaim out;
  out.metadata.name = request.node_claim;
  out.status.provider_id = cloudprovider::AwsProviderId(request.zone, instance.id);
  if (const cloudprovider::InstanceType* type =
          cluster_.ec2().catalog().Find(request.instance_type)) {
    out.status.capacity = type->capacity;
    out.status.allocatable = type->Allocatable();
  }
  if (!request.allocatable.empty()) out.status.allocatable = request.allocatable;
  if (!request.capacity.empty()) out.status.capacity = request.capacity;
  auto& labels = out.metadata.labels;
  labels[std::string(api::kLabelInstanceTypeStable)] = request.instance_type;
  labels[std::string(api::kLabelTopologyZone)] = request.zone;
  labels[std::string(api::kCapacityTypeLabelKey)] = request.capacity_type;
  if (auto pool = request.labels.find(std::string(api::kNodePoolLabelKey));
      pool != request.labels.end()) {
    labels.insert(*pool);
  }
  return out;
}

std::variant<std::monostate, CloudError> TwinCloudProvider::Delete(
    const api::NodeClaim& node_claim) {
  const std::string id = cloudprovider::InstanceIdOf(node_claim.status.provider_id);
  auto it = cluster_.instances().find(id);
  if (id.empty() || it == cluster_.instances().end() ||
      it->second.phase == NodePhase::kTerminated) {
    return CloudError{.kind = CloudErrorKind::kNotFound,
                      .message = absl::StrCat("instance ", id, " not found")};
  }
  cluster_.TerminateInstance(id);
  return std::monostate{};
}

CloudOr<api::NodeClaim> TwinCloudProvider::Get(std::string_view provider_id) {
  const std::string id = cloudprovider::InstanceIdOf(provider_id);
  auto it = cluster_.instances().find(id);
  if (id.empty() || it == cluster_.instances().end() ||
      it->second.phase == NodePhase::kTerminated || it->second.request.node_claim.empty()) {
    return CloudError{.kind = CloudErrorKind::kNotFound,
                      .message = absl::StrCat("instance ", id, " not found")};
  }
  return Describe(it->second);
}

CloudOr<std::vector<api::NodeClaim>> TwinCloudProvider::List() {
  std::vector<api::NodeClaim> out;
  for (const auto& [id, instance] : cluster_.instances()) {
    // Only what Karpenter launched carries its tags (node groups' instances are not listed).
    if (instance.phase == NodePhase::kTerminated || instance.request.node_claim.empty()) continue;
    out.push_back(Describe(instance));
  }
  return out;
}

CloudOr<std::vector<cloudprovider::InstanceType>> TwinCloudProvider::GetInstanceTypes(
    const api::NodePool& node_pool) {
  const std::optional<api::NodeClassReference>& ref = node_pool.spec.template_.spec.node_class_ref;
  const api::EC2NodeClass* node_class = ref ? cluster_.FindNodeClass(ref->name) : nullptr;
  if (node_class == nullptr) {
    return NodeClassNotReady(absl::StrCat("EC2NodeClass ", ref ? ref->name : "", " not found"));
  }
  absl::StatusOr<cloudprovider::ResolveOptions> options =
      provisioning::ResolveOptionsFor(*node_class);
  if (!options.ok()) return CreateError("InstanceTypesUnresolved", options.status());
  absl::StatusOr<const cloudprovider::Catalog*> catalog = catalogs_.Get(*options);
  if (!catalog.ok()) return CreateError("InstanceTypesUnresolved", catalog.status());
  const std::vector<std::string> zones = provisioning::SubnetZones(*node_class);
  unavailable_.Expire();
  std::vector<cloudprovider::InstanceType> out = (*catalog)->Types();
  for (cloudprovider::InstanceType& type : out) {
    // Only the zones the class's subnets reach are offered.
    std::erase_if(type.offerings, [&](const cloudprovider::Offering& offering) {
      return !zones.empty() && !std::binary_search(zones.begin(), zones.end(), offering.zone);
    });
    for (cloudprovider::Offering& offering : type.offerings) {
      if (unavailable_.IsUnavailable(type.name, offering.zone, offering.capacity_type)) {
        offering.available = false;
      }
    }
  }
  return out;
}

std::vector<RepairPolicy> TwinCloudProvider::RepairPolicies() const {
  return cloudprovider::AwsRepairPolicies();
}

}  // namespace karpenter::sim
