#include "src/controllers/cluster_snapshot.h"

#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace karpenter::controllers {

absl::StatusOr<state::ClusterSnapshot> SnapshotOf(const ClusterReader& reader) {
  std::vector<state::SourcedObject> objects;
  for (std::string_view kind :
       {"NodePool", "NodeClaim", "EC2NodeClass", "Pod", "Node", "DaemonSet", "PodDisruptionBudget",
        "PersistentVolume", "PersistentVolumeClaim", "StorageClass", "CSINode"}) {
    for (api::Object& object : reader.List(kind)) {
      objects.push_back(state::SourcedObject{std::move(object), std::string(kind)});
    }
  }
  return state::ClusterSnapshot::FromObjects(std::move(objects),
                                             state::SnapshotOptions{.expand_workloads = false});
}

bool ClusterStateSynced(const ClusterReader& reader) {
  if (!reader.Synced()) return false;
  // A deleting claim that never launched still counts, as upstream's does until it is gone: its
  // launch may be under way.
  for (const api::Object& object : reader.List("NodeClaim")) {
    if (std::get<api::NodeClaim>(object).status.provider_id.empty()) return false;
  }
  return true;
}

}  // namespace karpenter::controllers
