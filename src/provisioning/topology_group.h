// Upstream: pkg/controllers/provisioning/scheduling/topologygroup.go, topologynodefilter.go
// One topology the scheduler tracks: a topology spread constraint, a pod (anti-)affinity term,
// or the inverse of an existing pod's anti-affinity term. It counts, per domain of its topology
// key, the pods its selector picks, and answers which domains a pod may go to.
//
// Pods sharing a constraint (a deployment's replicas) share one group; `Signature()` is the
// identity used to find it. Counts live in a hash map keyed by domain; answers never depend on
// its iteration order (ties are broken by domain name).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "src/api/pod.h"
#include "src/api/selector.h"
#include "src/api/taint.h"
#include "src/scheduling/requirement.h"
#include "src/scheduling/requirements.h"
#include "src/scheduling/well_known_labels.h"

namespace karpenter::provisioning {

enum class TopologyType { kSpread, kPodAffinity, kPodAntiAffinity };

// "topology spread", "pod affinity", "pod anti-affinity" (error messages).
std::string_view TopologyTypeName(TopologyType type);

// The namespaces a term selects pods from: every namespace, or the listed ones (sorted).
struct NamespaceSet {
  bool all = false;
  std::vector<std::string> names;
  bool Has(std::string_view name_space) const;
  std::string Signature() const;
};

// Which nodes take part in a spread constraint (nodeAffinityPolicy / nodeTaintsPolicy). The
// default-constructed filter (pod affinity terms) lets every node take part.
class TopologyNodeFilter {
 public:
  TopologyNodeFilter() = default;
  // Honor affinity: the node must satisfy the pod's nodeSelector and one of its required
  // node-affinity terms (ORed). Honor taints: the pod must tolerate the node's taints.
  static TopologyNodeFilter ForSpread(const api::Pod& pod, const api::Box<api::Affinity>& affinity,
                                      bool honor_affinity, bool honor_taints);

  // `allow_undefined` as for Requirements::Compatible (claims allow undefined well-known keys).
  bool Matches(const std::vector<api::Taint>& taints, const scheduling::Requirements& node,
               const scheduling::WellKnownLabels* allow_undefined) const;
  bool honor_taints() const { return honor_taints_; }
  const std::vector<api::Toleration>& tolerations() const { return tolerations_; }
  std::string Signature() const;

 private:
  std::vector<scheduling::Requirements> terms_;  // ORed; empty: every node.
  bool honor_affinity_ = false;
  bool honor_taints_ = false;
  std::vector<api::Toleration> tolerations_;
};

// What defines a group; two pods with equal specs share one group.
struct TopologyGroupSpec {
  TopologyType type = TopologyType::kSpread;
  std::string key;
  NamespaceSet namespaces;
  std::optional<api::LabelSelector> selector;  // Null selects nothing.
  int32_t max_skew = 0;
  std::optional<int32_t> min_domains;
  TopologyNodeFilter node_filter;

  std::string Signature() const;
};

// Dense ids for hostnames, shared by the groups of one solve, so that hostname-keyed groups can
// also count by index: the per-claim checks of a solve then never hash a string.
class HostIds {
 public:
  // The host's id, assigning the next one to a host not seen before.
  uint32_t IdOf(std::string_view host);
  // Marks the id as a NodeClaim placeholder of this solve (not an existing node).
  void MarkClaim(uint32_t id);
  bool IsClaim(uint32_t id) const { return id < is_claim_.size() && is_claim_[id]; }

 private:
  absl::flat_hash_map<std::string, uint32_t> ids_;
  std::vector<bool> is_claim_;
};

class TopologyGroup {
 public:
  // `hosts` (outliving the group; may be null) indexes the counts of a hostname-keyed group.
  explicit TopologyGroup(TopologyGroupSpec spec, HostIds* hosts = nullptr);

  const TopologyGroupSpec& spec() const { return spec_; }
  TopologyType type() const { return spec_.type; }
  const std::string& key() const { return spec_.key; }

  // Whether the group's selector picks `pod` (namespace and labels).
  bool Selects(const api::Pod& pod) const;

  // Makes `domain` known with no pods (no-op when known).
  void Register(std::string_view domain);
  // One more counted pod in `domain`.
  void Record(std::string_view domain);

  // The domains a pod may go to: `In` the allowed ones, or `DoesNotExist` when none is.
  // `self_selecting`: the pod is picked by this group's own selector. `pod_domains` are what
  // the pod's required node selection allows, `node_domains` what the node (or claim) allows.
  scheduling::Requirement Next(bool self_selecting, const scheduling::Requirement& pod_domains,
                               const scheduling::Requirement& node_domains) const;

  // For a group on kubernetes.io/hostname: whether `host` is already closed to the pod (a
  // spread at its skew, an anti-affinity with a pod there). Exactly when Next would refuse a
  // node known only by that hostname; false for groups on other keys.
  bool BlocksHost(bool self_selecting, uint32_t host_id) const;
  // For a group on the hostname: how many NodeClaim placeholders are closed to a pod
  // (`self_selecting` as for BlocksHost) by their counts alone: an anti-affinity's claims with a
  // pod, a spread's claims at its skew. Never more than BlocksHost refuses; 0 for other groups.
  size_t BlockedClaims(bool self_selecting) const {
    return self_selecting ? blocked_claims_ : blocked_claims_for_others_;
  }

  // "{a: 1, b: 0}" in name order, or only the totals past 25 domains (error messages).
  std::string CountsString() const;

 private:
  scheduling::Requirement NextSpread(bool self_selecting,
                                     const scheduling::Requirement& pod_domains,
                                     const scheduling::Requirement& node_domains) const;
  scheduling::Requirement NextAffinity(bool self_selecting,
                                       const scheduling::Requirement& pod_domains,
                                       const scheduling::Requirement& node_domains) const;
  scheduling::Requirement NextAntiAffinity(const scheduling::Requirement& pod_domains,
                                           const scheduling::Requirement& node_domains) const;
  int32_t MinCount(const scheduling::Requirement& pod_domains) const;
  int32_t CountOf(std::string_view domain) const;
  void CountBlockedClaim(int32_t count);
  bool AnyPopulatedDomain(const scheduling::Requirement& pod_domains) const;

  TopologyGroupSpec spec_;
  absl::flat_hash_map<std::string, int32_t> domains_;
  HostIds* hosts_ = nullptr;              // Set for hostname-keyed groups only.
  std::vector<int32_t> host_counts_;      // By host id, mirroring `domains_`.
  size_t blocked_claims_ = 0;             // for pods the group's selector picks
  size_t blocked_claims_for_others_ = 0;  // for pods it does not (a spread counts them no more)
  size_t populated_ = 0;                  // Domains with a count above zero.
};

}  // namespace karpenter::provisioning
