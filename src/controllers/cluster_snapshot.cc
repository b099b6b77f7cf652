#include "src/controllers/cluster_snapshot.h"

#include <string>
#include <string_view>
#include <utility>
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

}  // namespace karpenter::controllers
