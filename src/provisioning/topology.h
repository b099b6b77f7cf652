// Upstream: pkg/controllers/provisioning/scheduling/topology.go, topologydomaingroup.go
// Topology spread constraints and pod (anti-)affinity for one solve (P11, P12). Built from the
// NodePools' and instance types' requirement values (the domains of every key), the existing
// nodes, the pods already bound to them and the pending pods. Placement targets (existing nodes
// and NodeClaims) ask it to narrow their requirements to the domains a pod may use, then tell
// it where the pod went, so later pods of the same solve see the new counts.
//
// Groups are shared by every pod with an equal constraint, and counted per domain in hash maps,
// so a placement costs O(groups) and never scans pods.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/container/inlined_vector.h"
#include "karpenter/common/status.h"
#include "src/api/pod.h"
#include "src/api/taint.h"
#include "src/provisioning/group_selections.h"
#include "src/provisioning/preferences.h"
#include "src/provisioning/topology_group.h"
#include "src/provisioning/types.h"
#include "src/scheduling/requirements.h"
#include "src/scheduling/well_known_labels.h"

namespace karpenter::provisioning {

// What a Topology reads from the input's bound pods before any group exists. Every solve of one
// input shares it (SolveCache): a consolidation poll's simulations would otherwise each walk the
// cluster's tens of thousands of bound pods. Valid while the input's bound pods are unchanged.
struct BoundPodFacts {
  explicit BoundPodFacts(const SchedulerInput& input);

  // Each namespace of a bound pod, sorted, with the nodes its pods are bound to (distinct).
  std::vector<std::pair<std::string_view, std::vector<std::string_view>>> namespaces;
  // The bound pods carrying a required pod anti-affinity term, in input order.
  std::vector<const api::Pod*> with_required_anti_affinity;
};

class Topology {
 public:
  // `pending` are the first attempts of the pods this solve places (preference policy already
  // applied); their constraints become groups, counted against the bound pods. Pending pods are
  // never counted as bound (their uid is excluded). `bound` must be built from `input`.
  Topology(const SchedulerInput& input, std::span<const PodAttempt> pending,
           const BoundPodFacts& bound);

  // Makes the attempt's constraints (after relaxation) the ones its pod must satisfy.
  void Update(const PodAttempt& attempt);

  // Narrows `node` (a node's or claim's requirements, already intersected with the pod's) to
  // the domains every constraint on the pod allows: its own groups and the anti-affinity of
  // other pods that select it. `strict_pod_requirements` (no preferred node affinity) bound
  // the pod's domains. `allow_undefined` is null for existing nodes (strict). On failure
  // `node` is left in an unspecified state and, with `explain`, the error says which
  // constraint failed; without, its message is empty (callers that only ask whether the pod
  // fits skip formatting the counts and domains, most of a rejected attempt's cost).
  absl::Status AddRequirements(const PodAttempt& attempt,
                               const scheduling::Requirements& strict_pod_requirements,
                               const std::vector<api::Taint>& taints,
                               const scheduling::WellKnownLabels* allow_undefined,
                               scheduling::Requirements& node, bool explain = true) const;

  // A cheap necessary condition for AddRequirements on a node or claim whose hostname has
  // `host_id` (HostId): false when a hostname-keyed constraint on the attempt already rules
  // the host out. True says nothing. Valid after Update(attempt).
  bool MayPlaceOnHost(const PodAttempt& attempt, uint32_t host_id) const;
  uint32_t HostId(std::string_view host) { return host_ids_.IdOf(host); }
  // The id of a new NodeClaim's placeholder hostname (see NewHostname).
  uint32_t ClaimHostId(std::string_view host);
  // Whether a hostname constraint on the attempt already closes each of the `claims` NodeClaims
  // of this solve: an anti-affinity (its own or another pod's that selects it) with a pod on
  // each, or a spread at its skew on each (a Deployment spread one per node), so none can take
  // it. Valid after Update(attempt).
  bool BlockedOnEveryClaim(const PodAttempt& attempt, size_t claims) const;

  // Counts `pod` in every group that selects it, now that it is placed on a node with these
  // taints and (narrowed) requirements. `taints` must outlive the Topology.
  void Record(const api::Pod& pod, const std::vector<api::Taint>& taints,
              const scheduling::Requirements& node,
              const scheduling::WellKnownLabels* allow_undefined);

  // Makes `domain` of `key` known to every group on that key (a new NodeClaim's hostname).
  void Register(std::string_view key, std::string_view domain);
  // Register(kubernetes.io/hostname, hostname) for an existing node, without a copy: `hostname`
  // must outlive the Topology. All of them come before any Register.
  void RegisterNode(std::string_view hostname);

  // A fresh `hostname-placeholder-NNNN` for a new NodeClaim (never reaches the output).
  std::string NewHostname() { return FormatHostname(++hostnames_); }

 private:
  struct NodeInfo {
    const ExistingNodeView* view;
    scheduling::Requirements requirements;
  };
  // A placement made during this solve, replayed into groups created later.
  struct Placement {
    const api::Pod* pod;
    const std::vector<api::Taint>* taints;
    scheduling::Requirements requirements;
    const scheduling::WellKnownLabels* allow_undefined;
  };
  // A group whose constraint the pod carries, with what placements ask of it about the pod.
  struct OwnedGroup {
    size_t index;  // Into `groups_`.
    bool on_hostname;
    bool selects_self;
  };
  // A pod has a handful of groups at most: inline storage spares tens of thousands of pods an
  // allocation each.
  struct PodGroups {
    uint32_t label_set = 0;  // In `label_sets_`.
    bool built = false;
    size_t constraint_count = 0;  // Of the attempt `owned` was built for.
    absl::InlinedVector<OwnedGroup, 2> owned;
    // Inverse groups of the pod's required anti-affinity.
    absl::InlinedVector<size_t, 1> inverse_owned;
    absl::InlinedVector<size_t, 1> inverse_selecting;  // Inverse groups that select the pod.
  };
  using TaintSets = std::vector<std::vector<api::Taint>>;

  static std::string FormatHostname(int n);
  // Builds `domains_`, `nodes_` and `node_index_` on first use: only a pod with topology spread
  // or pod (anti-)affinity needs them, and most solves (a consolidation simulation of pods
  // without either) would otherwise pay O(existing nodes + offered domains) for nothing.
  void EnsureDomainsAndNodes();
  void BuildDomains(const SchedulerInput& input);
  void AddDomain(const std::string& key, const std::string& domain,
                 const std::vector<api::Taint>& taints);
  void BuildNodes(const SchedulerInput& input);
  void TrackInverse(const api::Pod& pod, const NodeInfo* node,
                    absl::InlinedVector<size_t, 1>* owned);
  std::vector<TopologyGroupSpec> SpecsFor(const PodAttempt& attempt) const;
  NamespaceSet Namespaces(const api::Pod& pod, const api::PodAffinityTerm& term) const;
  size_t GroupFor(TopologyGroupSpec spec, const api::Pod& pod);
  void CountExisting(TopologyGroup& group) const;
  // Counts a placement on a node of `taints` and `requirements` in `group`, which selects its pod,
  // if the group's node filter admits it.
  void RecordIn(TopologyGroup& group, const std::vector<api::Taint>& taints,
                const scheduling::Requirements& requirements,
                const scheduling::WellKnownLabels* allow_undefined) const;
  PodGroups& GroupsOf(const api::Pod& pod);
  bool Ignored(const api::Pod& pod) const;

  const SchedulerInput& input_;
  // Topology key -> domain -> the taint sets of the pools offering it (an empty set first).
  absl::flat_hash_map<std::string, absl::flat_hash_map<std::string, TaintSets>> domains_;
  std::vector<NodeInfo> nodes_;
  absl::flat_hash_map<std::string, size_t> node_index_;  // Node name -> nodes_ index.
  bool domains_and_nodes_built_ = false;
  std::vector<std::string> namespaces_;  // Every namespace seen, sorted.
  absl::flat_hash_set<std::string> excluded_uids_;

  HostIds host_ids_;  // Before the groups, which point at it.
  std::vector<std::unique_ptr<TopologyGroup>> groups_;
  std::vector<scheduling::Requirement> any_domain_;       // Per group: `key Exists`.
  absl::flat_hash_map<std::string, size_t> group_index_;  // Signature -> groups_ index.
  std::vector<std::unique_ptr<TopologyGroup>> inverse_;
  std::vector<scheduling::Requirement> inverse_any_domain_;
  absl::flat_hash_map<std::string, size_t> inverse_index_;
  absl::flat_hash_map<const api::Pod*, PodGroups> pods_;
  LabelSets label_sets_;                // Of the pods in `pods_`.
  GroupSelections group_selections_;    // Over `groups_`.
  GroupSelections inverse_selections_;  // Over `inverse_`.

  // Only a solve with a pod that has spread or pod (anti-)affinity terms can make groups after its
  // first placement (relaxing never adds terms): other solves keep no placements to replay.
  bool keeps_placements_ = false;
  std::vector<Placement> placements_;
  std::vector<std::string_view> registered_nodes_;               // Hostnames, in order.
  std::vector<std::pair<std::string, std::string>> registered_;  // (key, domain), in order.
  int hostnames_ = 0;
};

}  // namespace karpenter::provisioning
