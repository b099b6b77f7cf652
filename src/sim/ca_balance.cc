#include "src/sim/ca_balance.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "src/api/karpenter_labels.h"
#include "src/sim/cluster.h"

namespace karpenter::sim {
namespace {

// Labels that differ between otherwise identical groups (CA's BasicIgnoredLabels plus the AWS
// provider's own).
bool IgnoredLabel(const std::string& key) {
  static const std::set<std::string> kIgnored = {
      std::string(api::kLabelTopologyZone),
      "topology.kubernetes.io/region",
      "failure-domain.beta.kubernetes.io/zone",
      "failure-domain.beta.kubernetes.io/region",
      std::string(api::kLabelHostname),
      kNodeGroupLabelKey,
      "alpha.eksctl.io/instance-id",
      "alpha.eksctl.io/nodegroup-name",
      "k8s.amazonaws.com/eniConfig",
      "lifecycle",
      "topology.ebs.csi.aws.com/zone",
      "topology.k8s.aws/zone-id",
  };
  return kIgnored.contains(key);
}

std::map<std::string, std::string> Compared(const std::map<std::string, std::string>& labels) {
  std::map<std::string, std::string> out;
  for (const auto& [key, value] : labels) {
    if (!IgnoredLabel(key)) out[key] = value;
  }
  return out;
}

double Value(const api::ResourceList& list, const std::string& name) {
  auto it = list.find(name);
  return it == list.end() ? 0 : static_cast<double>(it->second.MilliValue());
}

bool Within(double a, double b, double ratio) {
  const double larger = std::max(a, b);
  return larger == 0 || std::abs(a - b) / larger <= ratio;
}

// Every resource either list names, compared with `ratio` (memory with the memory ratio when
// `memory_ratio` applies).
bool ResourcesClose(const api::ResourceList& a, const api::ResourceList& b, double ratio,
                    bool memory_ratio) {
  std::set<std::string> names;
  for (const auto& [name, value] : a) names.insert(name);
  for (const auto& [name, value] : b) names.insert(name);
  for (const std::string& name : names) {
    const double limit = memory_ratio ? (name == "memory" ? kMaxMemoryDifferenceRatio : 0) : ratio;
    if (!Within(Value(a, name), Value(b, name), limit)) return false;
  }
  return true;
}

}  // namespace

bool SimilarNodeGroups(const provisioning::ExistingNodeView& a,
                       const provisioning::ExistingNodeView& b) {
  return ResourcesClose(a.capacity, b.capacity, 0, /*memory_ratio=*/true) &&
         ResourcesClose(a.allocatable, b.allocatable, kMaxAllocatableDifferenceRatio,
                        /*memory_ratio=*/false) &&
         Compared(a.labels) == Compared(b.labels) && a.taints == b.taints;
}

std::map<std::string, int> BalanceScaleUp(const std::vector<BalanceGroup>& groups, int nodes) {
  std::vector<int> sizes;
  for (const BalanceGroup& group : groups) sizes.push_back(group.size);
  std::map<std::string, int> added;
  for (int n = 0; n < nodes; ++n) {
    int smallest = -1;
    for (size_t i = 0; i < groups.size(); ++i) {
      if (sizes[i] >= groups[i].max_size) continue;
      if (smallest < 0 || sizes[i] < sizes[smallest]) smallest = static_cast<int>(i);
    }
    if (smallest < 0) break;  // every group is full
    ++sizes[smallest];
    ++added[groups[smallest].name];
  }
  return added;
}

}  // namespace karpenter::sim
