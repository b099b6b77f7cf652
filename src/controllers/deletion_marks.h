// Upstream: kubernetes-sigs/karpenter pkg/controllers/state/cluster.go (MarkForDeletion,
// UnmarkForDeletion) and statenode.go (MarkedForDeletion), set by pkg/controllers/disruption
// queue.go once a command's replacements are created.
// The nodes a disruption command has started on, shared by the disruption controller and the
// provisioner as upstream's in-memory cluster state shares them. Marked nodes count as deleting:
// the provisioner plans for their pods (onto the replacements made for them) and offers their
// capacity to no other pod, and later disruption polls model those pods as needing a home.
// Marks live in memory only, as upstream's: a new leader starts with none and removes the
// disrupted taints no command holds. Every controller runs on the clock's one event loop, so
// there is no lock.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "karpenter/kube_cluster.h"

namespace karpenter::controllers {

class DeletionMarks {
 public:
  // Marks the nodes with these provider IDs. `replacements` names the NodeClaims created for
  // them: until the reader shows each (or a watch event names it), a solve would not see where
  // the marked nodes' pods are going and would launch for them a second time.
  void Mark(const std::vector<std::string>& provider_ids,
            const std::vector<std::string>& replacements);
  // A rolled-back command's nodes keep their capacity and their pods.
  void Unmark(const std::vector<std::string>& provider_ids);
  // A watch event named this NodeClaim.
  void Observed(const std::string& node_claim) { unobserved_.erase(node_claim); }
  // Whether every replacement of a marked node is in `reader`'s view (those it shows now are
  // remembered as observed).
  bool ReplacementsObserved(const ClusterReader& reader);
  // Forgets marks of nodes that neither a Node nor a NodeClaim of `reader` carries any more.
  void Prune(const ClusterReader& reader);

  const std::set<std::string>& provider_ids() const { return provider_ids_; }

 private:
  std::set<std::string> provider_ids_;
  std::set<std::string> unobserved_;
};

}  // namespace karpenter::controllers
