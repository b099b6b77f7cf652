// Upstream: k8s.io/kubectl/pkg/drain (filters.go: the DaemonSet, mirror, local-storage and
// unreplicated filters) and the eviction subresource's PDB check in kube-apiserver.
#include "src/state/drain.h"

#include <algorithm>
#include <optional>
#include <set>
#include <variant>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "src/api/selector_match.h"
#include "src/state/pdb_limits.h"
#include "src/state/pod_predicates.h"

namespace karpenter::state {
namespace {

std::string Key(const api::ObjectMeta& meta) {
  return absl::StrCat(meta.namespace_, "/", meta.name);
}

bool HasController(const api::Pod& pod) {
  return std::any_of(
      pod.metadata.owner_references.begin(), pod.metadata.owner_references.end(),
      [](const api::OwnerReference& owner) { return owner.controller.value_or(false); });
}

// The allowed disruptions each PDB has left as evictions go through, and the eviction API's
// answer for one pod.
class EvictionBudgets {
 public:
  explicit EvictionBudgets(std::span<const api::PodDisruptionBudget> budgets) {
    for (const api::PodDisruptionBudget& budget : budgets) {
      entries_.push_back({&budget, budget.status.disruptions_allowed});
    }
  }

  // Admits the eviction (using up one disruption of the pod's PDB) or says why not.
  std::optional<PdbRefusal> Evict(const api::Pod& pod) {
    std::vector<Entry*> covering;
    for (Entry& entry : entries_) {
      if (entry.pdb->metadata.namespace_ != pod.metadata.namespace_) continue;
      // A PDB without a selector selects nothing (policy/v1), an empty one everything.
      if (api::Matches(entry.pdb->spec.selector, pod.metadata.labels)) covering.push_back(&entry);
    }
    if (covering.empty()) return std::nullopt;
    PdbRefusal refusal{Key(pod.metadata), "", false, ""};
    if (covering.size() > 1) {
      std::vector<std::string> names;
      for (const Entry* entry : covering) names.push_back(Key(entry->pdb->metadata));
      refusal.pdb = absl::StrJoin(names, ", ");
      refusal.never = true;
      refusal.reason =
          "more than one PodDisruptionBudget covers the pod; the eviction API "
          "refuses it every time";
      return refusal;
    }
    Entry& entry = *covering.front();
    refusal.pdb = Key(entry.pdb->metadata);
    if (IsFullyBlockingBudget(*entry.pdb)) {
      refusal.never = true;
      refusal.reason =
          "the PDB never allows a disruption; kubectl drain retries until its --timeout and the "
          "node keeps the pod";
      return refusal;
    }
    if (entry.remaining <= 0) {
      refusal.reason = absl::StrCat(
          "the PDB allows no more disruptions now (", entry.pdb->status.disruptions_allowed,
          " at the start); kubectl drain retries every 5s and the eviction goes through once "
          "evicted pods run again elsewhere");
      return refusal;
    }
    --entry.remaining;
    return std::nullopt;
  }

 private:
  struct Entry {
    const api::PodDisruptionBudget* pdb;
    int64_t remaining;
  };
  std::vector<Entry> entries_;
};

// kubectl's filters for one node: what it would do with each pod, or the error that stops it.
DrainedNode Classify(const ClusterSnapshot& snapshot, const std::string& node_name) {
  DrainedNode node;
  node.name = node_name;
  std::vector<std::string> unreplicated;
  for (const api::Pod* pod : snapshot.PodsOnNode(node_name)) {
    const std::string key = Key(pod->metadata);
    if (IsMirrorPod(*pod)) {
      node.mirror_pods.push_back(key);
    } else if (IsTerminal(*pod)) {
      node.completed_pods.push_back(key);
    } else if (IsOwnedByDaemonSet(*pod)) {
      node.daemon_set_pods.push_back(key);
    } else if (!HasController(*pod)) {
      unreplicated.push_back(key);
    } else {
      node.evicted.push_back(key);
    }
  }
  if (!unreplicated.empty()) {
    node.error =
        absl::StrCat("cannot delete Pods that declare no controller (use --force to override): ",
                     absl::StrJoin(unreplicated, ", "), "; kubectl evicts nothing from this node");
    node.evicted.clear();
    node.completed_pods.clear();
  }
  return node;
}

bool MatchesAny(const api::Node& node, std::span<const DrainSelector> selectors) {
  return std::any_of(selectors.begin(), selectors.end(), [&](const DrainSelector& selector) {
    return api::Matches(selector.selector, node.metadata.labels);
  });
}

}  // namespace

DrainResult SimulateDrain(const ClusterSnapshot& snapshot,
                          std::span<const DrainSelector> selectors) {
  DrainResult result;
  for (const DrainSelector& selector : selectors) {
    result.selectors.push_back(selector.text);
    const bool matched =
        std::any_of(snapshot.nodes().begin(), snapshot.nodes().end(), [&](const api::Node& node) {
          return api::Matches(selector.selector, node.metadata.labels);
        });
    if (!matched) {
      result.warnings.push_back(absl::StrCat("--drain \"", selector.text, "\" matches no node"));
    }
  }
  EvictionBudgets budgets(snapshot.pod_disruption_budgets());
  for (const api::Node& node : snapshot.nodes()) {  // by name, as kubectl lists them
    if (!MatchesAny(node, selectors)) continue;
    DrainedNode drained = Classify(snapshot, node.metadata.name);
    std::vector<std::string> leaving;
    for (std::string& key : drained.evicted) {
      const size_t slash = key.find('/');
      const api::Pod* pod = snapshot.FindPod(key.substr(0, slash), key.substr(slash + 1));
      std::optional<PdbRefusal> refusal = pod ? budgets.Evict(*pod) : std::nullopt;
      const bool stuck = refusal && refusal->never;
      if (refusal) result.refusals.push_back(*std::move(refusal));
      (stuck ? drained.stuck : leaving).push_back(std::move(key));
    }
    drained.evicted = std::move(leaving);
    result.nodes.push_back(std::move(drained));
  }
  return result;
}

void ApplyDrain(const DrainResult& drain, std::vector<api::Manifest>& manifests) {
  std::set<std::string, std::less<>> cordoned;
  std::set<std::string, std::less<>> evicted;
  for (const DrainedNode& node : drain.nodes) {
    cordoned.insert(node.name);
    evicted.insert(node.evicted.begin(), node.evicted.end());
  }
  for (api::Manifest& manifest : manifests) {
    if (!manifest.object) continue;
    if (auto* node = std::get_if<api::Node>(&*manifest.object)) {
      if (!cordoned.contains(node->metadata.name)) continue;
      node->spec.unschedulable = true;
      const bool tainted =
          std::any_of(node->spec.taints.begin(), node->spec.taints.end(),
                      [](const api::Taint& taint) { return taint.key == kUnschedulableTaintKey; });
      if (!tainted) {
        node->spec.taints.push_back({std::string(kUnschedulableTaintKey), "", "NoSchedule", {}});
      }
    } else if (auto* pod = std::get_if<api::Pod>(&*manifest.object)) {
      // The snapshot puts namespace-less objects in "default", as `kubectl apply` does.
      const std::string namespace_ =
          pod->metadata.namespace_.empty() ? "default" : pod->metadata.namespace_;
      if (evicted.contains(absl::StrCat(namespace_, "/", pod->metadata.name))) {
        pod->spec.node_name.clear();
      }
    }
  }
}

}  // namespace karpenter::state
