#include "src/controllers/instance_profile_gc.h"

#include <utility>
#include <variant>

#include "src/api/ec2nodeclass.h"
#include "src/api/karpenter_labels.h"
#include "src/api/nodeclaim.h"

namespace karpenter::controllers {

std::set<std::string> InstanceProfilesInUse(const ClusterReader& reader) {
  std::set<std::string> in_use;
  for (const api::Object& object : reader.List("EC2NodeClass")) {
    const auto& node_class = std::get<api::EC2NodeClass>(object);
    if (!node_class.status.instance_profile.empty()) {
      in_use.insert(node_class.status.instance_profile);
    }
  }
  for (const api::Object& object : reader.List("NodeClaim")) {
    const auto& annotations = std::get<api::NodeClaim>(object).metadata.annotations;
    auto it = annotations.find(std::string(api::kInstanceProfileAnnotationKey));
    if (it != annotations.end() && !it->second.empty()) in_use.insert(it->second);
  }
  return in_use;
}

InstanceProfileGarbageCollection::InstanceProfileGarbageCollection(Clock& clock,
                                                                   ClusterReader& reader,
                                                                   Collect collect)
    : reader_(reader),
      collect_(std::move(collect)),
      loop_("instanceprofile.garbagecollection", clock, [this] { return Reconcile(); }) {}

absl::StatusOr<ReconcileResult> InstanceProfileGarbageCollection::Reconcile() {
  if (absl::Status collected = collect_(InstanceProfilesInUse(reader_)); !collected.ok()) {
    return collected;
  }
  return ReconcileResult{kInstanceProfileGarbageCollectionPeriodMillis, false};
}

}  // namespace karpenter::controllers
