#include "src/fakes/fake_cloud_provider.h"

#include <algorithm>
#include <optional>

#include "absl/strings/str_cat.h"
#include "src/api/karpenter_labels.h"
#include "src/api/selector_match.h"

namespace karpenter::fakes {

namespace {

// Whether a node of `type` launched in `offering` would satisfy every requirement. The node
// carries the claim's own labels too (karpenter.sh/nodepool, the template's labels).
bool Allows(const api::NodeClaim& node_claim, const cloudprovider::InstanceType& type,
            const cloudprovider::Offering& offering) {
  api::LabelMap labels(node_claim.metadata.labels.begin(), node_claim.metadata.labels.end());
  for (const auto& [key, value] : type.labels) labels[key] = value;
  labels[std::string(api::kLabelInstanceTypeStable)] = type.name;
  labels[std::string(api::kLabelTopologyZone)] = offering.zone;
  labels[std::string(api::kCapacityTypeLabelKey)] = offering.capacity_type;
  for (const api::NodeSelectorRequirementWithMinValues& requirement :
       node_claim.spec.requirements) {
    api::NodeSelectorRequirement plain{requirement.key, requirement.operator_, requirement.values};
    if (!api::Matches(plain, labels)) return false;
  }
  return true;
}

}  // namespace

bool FakeCloudProvider::TakeFailure(Method method, CloudError* error) {
  auto it = failures_.find(method);
  if (it == failures_.end() || it->second.empty()) return false;
  *error = std::move(it->second.front());
  it->second.pop_front();
  return true;
}

CloudOr<api::NodeClaim> FakeCloudProvider::Create(const api::NodeClaim& node_claim) {
  calls_.push_back(absl::StrCat("Create ", node_claim.metadata.name));
  if (CloudError error; TakeFailure(Method::kCreate, &error)) return error;
  struct Choice {
    const cloudprovider::InstanceType* type;
    const cloudprovider::Offering* offering;
  };
  std::vector<Choice> choices;
  for (const cloudprovider::InstanceType& type : instance_types_) {
    for (const cloudprovider::Offering& offering : type.offerings) {
      if (offering.available && Allows(node_claim, type, offering)) {
        choices.push_back({&type, &offering});
      }
    }
  }
  std::stable_sort(choices.begin(), choices.end(), [](const Choice& a, const Choice& b) {
    return a.offering->price < b.offering->price;
  });
  CloudError insufficient{.kind = CloudErrorKind::kInsufficientCapacity,
                          .reason = "InsufficientCapacity"};
  for (const Choice& choice : choices) {
    OfferingRef ref{choice.type->name, choice.offering->zone, choice.offering->capacity_type};
    if (exhausted_.contains(ref)) {
      insufficient.offerings.push_back(std::move(ref));
      continue;
    }
    api::NodeClaim launched = node_claim;
    const std::string id = absl::StrCat("i-", ++launched_);
    launched.status.provider_id = absl::StrCat("fake:///", ref.zone, "/", id);
    launched.status.image_id = "ami-fake";
    launched.status.capacity = choice.type->capacity;
    launched.status.allocatable = choice.type->Allocatable();
    for (const auto& [key, value] : choice.type->labels) launched.metadata.labels[key] = value;
    launched.metadata.labels[std::string(api::kLabelInstanceTypeStable)] = ref.instance_type;
    launched.metadata.labels[std::string(api::kLabelTopologyZone)] = ref.zone;
    launched.metadata.labels[std::string(api::kCapacityTypeLabelKey)] = ref.capacity_type;
    instances_[launched.status.provider_id] = launched;
    return launched;
  }
  if (insufficient.offerings.empty()) {
    return CloudError{.kind = CloudErrorKind::kCreateError,
                      .reason = "LaunchFailed",
                      .message = "no instance type satisfies the requirements"};
  }
  insufficient.message = "every offering tried is out of capacity";
  return insufficient;
}

std::variant<std::monostate, CloudError> FakeCloudProvider::Delete(
    const api::NodeClaim& node_claim) {
  const std::string& id = node_claim.status.provider_id;
  calls_.push_back(absl::StrCat("Delete ", id));
  if (CloudError error; TakeFailure(Method::kDelete, &error)) return error;
  if (!instances_.contains(id)) {
    return CloudError{.kind = CloudErrorKind::kNotFound, .message = "instance not found"};
  }
  terminating_.insert(id);
  return std::monostate{};
}

void FakeCloudProvider::FinishTerminations() {
  for (const std::string& id : terminating_) instances_.erase(id);
  terminating_.clear();
}

CloudOr<api::NodeClaim> FakeCloudProvider::Get(std::string_view provider_id) {
  calls_.push_back("Get " + std::string(provider_id));
  if (CloudError error; TakeFailure(Method::kGet, &error)) return error;
  auto it = instances_.find(std::string(provider_id));
  if (it == instances_.end()) {
    return CloudError{.kind = CloudErrorKind::kNotFound, .message = "instance not found"};
  }
  return it->second;
}

CloudOr<std::vector<api::NodeClaim>> FakeCloudProvider::List() {
  calls_.push_back("List");
  if (CloudError error; TakeFailure(Method::kList, &error)) return error;
  std::vector<api::NodeClaim> all;
  for (const auto& [id, claim] : instances_) {
    all.push_back(claim);
    // As the AWS provider marks a shutting-down instance (the mark, not its time, is read).
    if (terminating_.contains(id) && !claim.metadata.deletion_timestamp) {
      all.back().metadata.deletion_timestamp =
          claim.metadata.creation_timestamp.value_or(api::Time());
    }
  }
  return all;
}

CloudOr<std::vector<cloudprovider::InstanceType>> FakeCloudProvider::GetInstanceTypes(
    const api::NodePool& node_pool) {
  calls_.push_back(absl::StrCat("GetInstanceTypes ", node_pool.metadata.name));
  if (CloudError error; TakeFailure(Method::kGetInstanceTypes, &error)) return error;
  return instance_types_;
}

CloudOr<std::string> FakeCloudProvider::IsDrifted(const api::NodeClaim& node_claim) {
  calls_.push_back(absl::StrCat("IsDrifted ", node_claim.metadata.name));
  if (CloudError error; TakeFailure(Method::kIsDrifted, &error)) return error;
  auto it = drifted_.find(node_claim.status.provider_id);
  return it == drifted_.end() ? std::string() : it->second;
}

std::vector<RepairPolicy> FakeCloudProvider::RepairPolicies() const {
  // The AWS provider's: a node NotReady or Unknown for 30 minutes is repaired.
  return {{"Ready", "False", 30 * 60 * 1000}, {"Ready", "Unknown", 30 * 60 * 1000}};
}

}  // namespace karpenter::fakes
