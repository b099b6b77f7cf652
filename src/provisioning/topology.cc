// Upstream: pkg/controllers/provisioning/scheduling/topology.go, topologydomaingroup.go
#include "src/provisioning/topology.h"

#include <algorithm>
#include <limits>
#include <string_view>

#include "fmt/format.h"
#include "src/api/karpenter_labels.h"
#include "src/api/selector_match.h"
#include "src/api/taint_match.h"
#include "src/scheduling/selector_conversion.h"

namespace karpenter::provisioning {
namespace {

using scheduling::Requirement;
using scheduling::Requirements;

constexpr char kHonor[] = "Honor";
constexpr char kIgnore[] = "Ignore";
constexpr char kNamespaceNameLabel[] = "kubernetes.io/metadata.name";
constexpr int32_t kNoSkewLimit = std::numeric_limits<int32_t>::max();

// Relaxation only ever removes terms (or adds a toleration), so an attempt with as many terms
// and tolerations as the first one has exactly its constraints.
size_t ConstraintCount(const PodAttempt& attempt) {
  size_t count = attempt.topology_spread_constraints.size() + attempt.tolerations.size();
  if (!attempt.affinity) return count;
  const api::Affinity& affinity = *attempt.affinity;
  for (const auto* terms : {&affinity.pod_affinity, &affinity.pod_anti_affinity}) {
    if (!*terms) continue;
    count += (*terms)->required_during_scheduling_ignored_during_execution.size() +
             (*terms)->preferred_during_scheduling_ignored_during_execution.size();
  }
  if (affinity.node_affinity &&
      affinity.node_affinity->required_during_scheduling_ignored_during_execution) {
    count += affinity.node_affinity->required_during_scheduling_ignored_during_execution
                 ->node_selector_terms.size();
  }
  return count;
}

// Spread or pod (anti-)affinity terms: what topology groups are made from.
bool HasTopologyTerms(const PodAttempt& attempt) {
  if (!attempt.topology_spread_constraints.empty()) return true;
  if (!attempt.affinity) return false;
  const api::Affinity& affinity = *attempt.affinity;
  for (const auto* terms : {&affinity.pod_affinity, &affinity.pod_anti_affinity}) {
    if (*terms && (!(*terms)->required_during_scheduling_ignored_during_execution.empty() ||
                   !(*terms)->preferred_during_scheduling_ignored_during_execution.empty())) {
      return true;
    }
  }
  return false;
}

const std::vector<api::PodAffinityTerm>* RequiredAntiAffinity(const api::Pod& pod) {
  const auto& affinity = pod.spec.affinity;
  if (!affinity || !affinity->pod_anti_affinity) return nullptr;
  const auto& terms =
      affinity->pod_anti_affinity->required_during_scheduling_ignored_during_execution;
  return terms.empty() ? nullptr : &terms;
}

// matchLabelKeys (and, for affinity terms, mismatchLabelKeys) folded into the selector with the
// pod's own values, as the API server does on admission.
std::optional<api::LabelSelector> MergeLabelKeys(std::optional<api::LabelSelector> selector,
                                                 const api::Pod& pod,
                                                 const std::vector<std::string>& match,
                                                 const std::vector<std::string>& mismatch) {
  if (!selector) return selector;  // A null selector selects nothing either way.
  for (const auto* keys : {&match, &mismatch}) {
    const char* op = keys == &match ? "In" : "NotIn";
    for (const std::string& key : *keys) {
      auto value = pod.metadata.labels.find(key);
      if (value == pod.metadata.labels.end()) continue;
      selector->match_expressions.push_back({key, op, {value->second}});
    }
  }
  return selector;
}

// The hostname domain of a node: its label, else its name (kubelet sets the label late).
std::string HostnameOf(const ExistingNodeView& node) {
  auto label = node.labels.find(api::KeyString<api::kLabelHostname>());
  return label == node.labels.end() ? node.name : label->second;
}

}  // namespace

std::string Topology::FormatHostname(int n) {
  return fmt::format("hostname-placeholder-{:04d}", n);
}

BoundPodFacts::BoundPodFacts(const SchedulerInput& input) {
  // Deduplicated through hash maps before sorting: a large cluster has tens of thousands of
  // bound pods in a handful of namespaces, on far fewer nodes.
  absl::flat_hash_map<std::string_view, absl::flat_hash_set<std::string_view>> nodes_by_namespace;
  // Inputs list bound pods node by node, sorted by namespace within a node, so most pods repeat
  // the last pair and need no hashing.
  const api::Pod* last = nullptr;
  for (const api::Pod* pod : input.bound_pods) {
    if (last == nullptr || last->metadata.namespace_ != pod->metadata.namespace_ ||
        last->spec.node_name != pod->spec.node_name) {
      nodes_by_namespace[pod->metadata.namespace_].insert(pod->spec.node_name);
      last = pod;
    }
    if (RequiredAntiAffinity(*pod) != nullptr) with_required_anti_affinity.push_back(pod);
  }
  namespaces.reserve(nodes_by_namespace.size());
  for (const auto& entry : nodes_by_namespace) {
    std::vector<std::string_view> nodes(entry.second.begin(), entry.second.end());
    std::sort(nodes.begin(), nodes.end());  // hash order must not reach any decision
    namespaces.emplace_back(entry.first, std::move(nodes));
  }
  std::sort(namespaces.begin(), namespaces.end());
}

Topology::Topology(const SchedulerInput& input, std::span<const PodAttempt> pending,
                   const BoundPodFacts& bound)
    : input_(input) {
  // Distinct namespaces, sorted: those of pods bound outside the removed nodes, then the
  // pending pods'.
  for (const auto& [name, nodes] : bound.namespaces) {
    const bool outside_removed = std::any_of(nodes.begin(), nodes.end(), [&](std::string_view n) {
      return !input.removed_nodes.contains(n);
    });
    if (outside_removed) namespaces_.emplace_back(name);
  }
  // Pending pods are many and their namespaces few: each distinct one is copied once.
  absl::flat_hash_set<std::string_view> pending_namespaces;
  for (const PodAttempt& attempt : pending) {
    pending_namespaces.insert(attempt.pod->metadata.namespace_);
  }
  const size_t bound_namespaces = namespaces_.size();
  for (std::string_view name : pending_namespaces) {
    if (!std::binary_search(namespaces_.begin(), namespaces_.begin() + bound_namespaces, name)) {
      namespaces_.emplace_back(name);
    }
  }
  std::sort(namespaces_.begin(), namespaces_.end());  // hash order must not reach any decision
  // Only bound pods are checked against the pending pods' uids.
  if (!input.bound_pods.empty()) {
    for (const PodAttempt& attempt : pending) {
      if (!attempt.pod->metadata.uid.empty()) excluded_uids_.insert(attempt.pod->metadata.uid);
    }
  }

  // Anti-affinity of bound pods blocks matching pods from the domains they occupy.
  for (const api::Pod* with_anti_affinity : bound.with_required_anti_affinity) {
    const api::Pod& pod = *with_anti_affinity;
    if (Ignored(pod)) continue;
    EnsureDomainsAndNodes();
    auto node = node_index_.find(pod.spec.node_name);
    if (node == node_index_.end()) continue;
    TrackInverse(pod, &nodes_[node->second], nullptr);
  }
  pods_.reserve(pending.size());
  for (const PodAttempt& attempt : pending) {
    TrackInverse(*attempt.pod, nullptr, &GroupsOf(*attempt.pod).inverse_owned);
  }
  keeps_placements_ = std::any_of(pending.begin(), pending.end(), HasTopologyTerms);
  for (const PodAttempt& attempt : pending) Update(attempt);
}

void Topology::EnsureDomainsAndNodes() {
  if (domains_and_nodes_built_) return;
  domains_and_nodes_built_ = true;
  BuildDomains(input_);
  BuildNodes(input_);
}

void Topology::AddDomain(const std::string& key, const std::string& domain,
                         const std::vector<api::Taint>& taints) {
  TaintSets& sets = domains_[key][domain];
  // An untainted pool offering the domain makes every pod eligible: no other set matters.
  if (!sets.empty() && sets.front().empty()) return;
  if (taints.empty()) {
    sets = {{}};
    return;
  }
  sets.push_back(taints);
}

void Topology::BuildDomains(const SchedulerInput& input) {
  for (const NodePoolInstanceTypes& pool : input.node_pools) {
    const api::NodePool& node_pool = pool.node_pool;
    if (node_pool.metadata.deletion_timestamp) continue;
    const std::vector<api::Taint>& taints = node_pool.spec.template_.spec.taints;
    Requirements pool_requirements =
        scheduling::FromLabels(node_pool.spec.template_.metadata.labels);
    for (const api::NodeSelectorRequirementWithMinValues& in :
         node_pool.spec.template_.spec.requirements) {
      auto requirement = scheduling::FromNodeSelectorRequirement({in.key, in.operator_, in.values});
      if (requirement.ok()) pool_requirements.Add(*std::move(requirement));
    }
    // An instance type's values count only where the pool allows them: its zones do not widen
    // the universe beyond the pool's.
    for (const InstanceTypeView& type : pool.instance_types) {
      for (const Requirement& offered : type.requirements) {
        const Requirement* allowed = pool_requirements.Find(offered.key());
        const Requirement domain = allowed ? offered.Intersection(*allowed) : offered;
        if (domain.is_complement()) continue;
        const std::string key(domain.key());
        for (const std::string& value : domain.Values()) AddDomain(key, value, taints);
      }
    }
    for (const Requirement& requirement : pool_requirements) {
      if (requirement.is_complement()) continue;
      const std::string key(requirement.key());
      for (const std::string& value : requirement.Values()) AddDomain(key, value, taints);
    }
  }
}

void Topology::BuildNodes(const SchedulerInput& input) {
  nodes_.reserve(input.existing_nodes.size());
  for (const ExistingNodeView& node : input.existing_nodes) {
    if (input.removed_nodes.contains(node.name)) continue;  // Its bound pods then match no node.
    NodeInfo info{&node, scheduling::FromLabels(node.labels)};
    if (!info.requirements.Has(api::kLabelHostname)) {
      info.requirements.Add(Requirement::In(api::kLabelHostname, {HostnameOf(node)}));
    }
    node_index_.emplace(node.name, nodes_.size());
    nodes_.push_back(std::move(info));
  }
}

bool Topology::Ignored(const api::Pod& pod) const {
  if (pod.spec.node_name.empty() || pod.metadata.deletion_timestamp) return true;
  if (pod.status.phase == "Succeeded" || pod.status.phase == "Failed") return true;
  return !pod.metadata.uid.empty() && excluded_uids_.contains(pod.metadata.uid);
}

NamespaceSet Topology::Namespaces(const api::Pod& pod, const api::PodAffinityTerm& term) const {
  NamespaceSet set;
  if (term.namespaces.empty() && !term.namespace_selector) {
    set.names = {pod.metadata.namespace_};
    return set;
  }
  set.names = term.namespaces;
  if (term.namespace_selector) {
    const api::LabelSelector& selector = *term.namespace_selector;
    if (selector.match_labels.empty() && selector.match_expressions.empty()) {
      set.all = true;
      return set;
    }
    // Namespace objects are not part of the input: a namespace is known by the pods in it,
    // labelled only with its name (which the API server always sets).
    for (const std::string& name : namespaces_) {
      if (api::Matches(selector, {{kNamespaceNameLabel, name}})) set.names.push_back(name);
    }
  }
  std::sort(set.names.begin(), set.names.end());
  set.names.erase(std::unique(set.names.begin(), set.names.end()), set.names.end());
  return set;
}

void Topology::TrackInverse(const api::Pod& pod, const NodeInfo* node,
                            absl::InlinedVector<size_t, 1>* owned) {
  const std::vector<api::PodAffinityTerm>* terms = RequiredAntiAffinity(pod);
  if (terms == nullptr) return;
  EnsureDomainsAndNodes();
  for (const api::PodAffinityTerm& term : *terms) {
    TopologyGroupSpec spec;
    spec.type = TopologyType::kPodAntiAffinity;
    spec.key = term.topology_key;
    spec.namespaces = Namespaces(pod, term);
    spec.selector =
        MergeLabelKeys(term.label_selector, pod, term.match_label_keys, term.mismatch_label_keys);
    spec.max_skew = kNoSkewLimit;
    std::string signature = spec.Signature();
    auto [it, inserted] = inverse_index_.try_emplace(std::move(signature), inverse_.size());
    if (inserted) {
      inverse_any_domain_.push_back(Requirement::Exists(spec.key));
      auto group = std::make_unique<TopologyGroup>(std::move(spec), &host_ids_);
      for (const auto& [domain, sets] : domains_[group->key()]) group->Register(domain);
      inverse_.push_back(std::move(group));
    }
    TopologyGroup& group = *inverse_[it->second];
    if (node != nullptr) {
      auto domain = node->view->labels.find(group.key());
      if (domain != node->view->labels.end()) group.Record(domain->second);
    }
    if (owned != nullptr) owned->push_back(it->second);
  }
}

std::vector<TopologyGroupSpec> Topology::SpecsFor(const PodAttempt& attempt) const {
  const api::Pod& pod = *attempt.pod;
  std::vector<TopologyGroupSpec> specs;
  for (const api::TopologySpreadConstraint& tsc : attempt.topology_spread_constraints) {
    TopologyGroupSpec spec;
    spec.type = TopologyType::kSpread;
    spec.key = tsc.topology_key;
    spec.namespaces.names = {pod.metadata.namespace_};
    spec.selector = MergeLabelKeys(tsc.label_selector, pod, tsc.match_label_keys, {});
    spec.max_skew = tsc.max_skew;
    spec.min_domains = tsc.min_domains;
    spec.node_filter = TopologyNodeFilter::ForSpread(
        pod, attempt.affinity, tsc.node_affinity_policy.value_or(kHonor) != kIgnore,
        tsc.node_taints_policy.value_or(kIgnore) == kHonor);
    specs.push_back(std::move(spec));
  }
  if (!attempt.affinity) return specs;
  auto add_terms = [&](const std::optional<api::PodAffinity>& affinity, TopologyType type) {
    if (!affinity) return;
    std::vector<const api::PodAffinityTerm*> terms;
    for (const api::PodAffinityTerm& term :
         affinity->required_during_scheduling_ignored_during_execution) {
      terms.push_back(&term);
    }
    for (const api::WeightedPodAffinityTerm& term :
         affinity->preferred_during_scheduling_ignored_during_execution) {
      terms.push_back(&term.pod_affinity_term);
    }
    for (const api::PodAffinityTerm* term : terms) {
      TopologyGroupSpec spec;
      spec.type = type;
      spec.key = term->topology_key;
      spec.namespaces = Namespaces(pod, *term);
      spec.selector = MergeLabelKeys(term->label_selector, pod, term->match_label_keys,
                                     term->mismatch_label_keys);
      spec.max_skew = kNoSkewLimit;
      specs.push_back(std::move(spec));
    }
  };
  add_terms(attempt.affinity->pod_affinity, TopologyType::kPodAffinity);
  add_terms(attempt.affinity->pod_anti_affinity, TopologyType::kPodAntiAffinity);
  return specs;
}

size_t Topology::GroupFor(TopologyGroupSpec spec, const api::Pod& pod) {
  std::string signature = spec.Signature();
  auto [it, inserted] = group_index_.try_emplace(std::move(signature), groups_.size());
  if (!inserted) return it->second;
  EnsureDomainsAndNodes();
  any_domain_.push_back(Requirement::Exists(spec.key));
  auto group = std::make_unique<TopologyGroup>(std::move(spec), &host_ids_);
  // nodeTaintsPolicy Honor: only domains some pool offers with taints the pod tolerates.
  const TopologyNodeFilter& filter = group->spec().node_filter;
  for (const auto& [domain, sets] : domains_[group->key()]) {
    const bool eligible =
        !filter.honor_taints() || std::any_of(sets.begin(), sets.end(), [&](const auto& taints) {
          return api::ToleratesAll(filter.tolerations(), taints, false);
        });
    if (eligible) group->Register(domain);
  }
  (void)pod;
  CountExisting(*group);
  // Groups created after relaxation still see what this solve has placed so far.
  if (group->key() == api::kLabelHostname) {
    for (std::string_view hostname : registered_nodes_) group->Register(hostname);
  }
  for (const auto& [key, domain] : registered_) {
    if (key == group->key()) group->Register(domain);
  }
  for (const Placement& placement : placements_) {
    if (group->Selects(*placement.pod)) {
      RecordIn(*group, *placement.taints, placement.requirements, placement.allow_undefined);
    }
  }
  groups_.push_back(std::move(group));
  return it->second;
}

// Domains of existing nodes the group's filter admits, and the bound pods it selects.
void Topology::CountExisting(TopologyGroup& group) const {
  const TopologyNodeFilter& filter = group.spec().node_filter;
  for (const NodeInfo& node : nodes_) {
    auto domain = node.view->labels.find(group.key());
    if (domain == node.view->labels.end()) continue;
    if (filter.Matches(node.view->taints, node.requirements, nullptr)) {
      group.Register(domain->second);
    }
  }
  for (const api::Pod* bound : input_.bound_pods) {
    const api::Pod& pod = *bound;
    if (Ignored(pod) || !group.Selects(pod)) continue;
    auto index = node_index_.find(pod.spec.node_name);
    if (index == node_index_.end()) continue;  // Its node is gone: the pod is not running.
    const NodeInfo& node = nodes_[index->second];
    auto label = node.view->labels.find(group.key());
    std::string domain;
    if (label != node.view->labels.end()) {
      domain = label->second;
    } else if (group.key() == api::kLabelHostname) {
      domain = node.view->name;
    } else {
      continue;  // A node without the key is in no domain.
    }
    if (!filter.Matches(node.view->taints, node.requirements, nullptr)) continue;
    group.Record(domain);
  }
}

Topology::PodGroups& Topology::GroupsOf(const api::Pod& pod) {
  auto [it, inserted] = pods_.try_emplace(&pod);
  if (inserted) it->second.label_set = label_sets_.IdOf(pod);
  return it->second;
}

void Topology::Update(const PodAttempt& attempt) {
  PodGroups& groups = GroupsOf(*attempt.pod);
  const size_t count = ConstraintCount(attempt);
  if (groups.built && groups.constraint_count == count) return;
  groups.built = true;
  groups.constraint_count = count;
  groups.owned.clear();
  for (TopologyGroupSpec& spec : SpecsFor(attempt)) {
    const size_t index = GroupFor(std::move(spec), *attempt.pod);
    groups.owned.push_back({index, groups_[index]->key() == api::kLabelHostname, false});
  }
  const std::vector<size_t>& selecting =
      group_selections_.Selecting(groups.label_set, label_sets_, groups_);
  for (OwnedGroup& owned : groups.owned) {
    owned.selects_self = std::binary_search(selecting.begin(), selecting.end(), owned.index);
  }
  // Inverse groups all exist by now: only the constructor makes them.
  const std::vector<size_t>& inverse_selecting =
      inverse_selections_.Selecting(groups.label_set, label_sets_, inverse_);
  groups.inverse_selecting.assign(inverse_selecting.begin(), inverse_selecting.end());
}

uint32_t Topology::ClaimHostId(std::string_view host) {
  const uint32_t id = host_ids_.IdOf(host);
  host_ids_.MarkClaim(id);
  return id;
}

bool Topology::BlockedOnEveryClaim(const PodAttempt& attempt, size_t claims) const {
  auto found = pods_.find(attempt.pod);
  if (found == pods_.end()) return false;
  const PodGroups& groups = found->second;
  for (const OwnedGroup& owned : groups.owned) {
    if (owned.on_hostname && groups_[owned.index]->BlockedClaims(owned.selects_self) >= claims) {
      return true;
    }
  }
  for (size_t index : groups.inverse_selecting) {
    if (inverse_[index]->BlockedClaims(/*self_selecting=*/false) >= claims) return true;
  }
  return false;
}

bool Topology::MayPlaceOnHost(const PodAttempt& attempt, uint32_t host_id) const {
  auto found = pods_.find(attempt.pod);
  if (found == pods_.end()) return true;
  const PodGroups& groups = found->second;
  for (const OwnedGroup& owned : groups.owned) {
    if (owned.on_hostname && groups_[owned.index]->BlocksHost(owned.selects_self, host_id)) {
      return false;
    }
  }
  for (size_t index : groups.inverse_selecting) {
    if (inverse_[index]->BlocksHost(/*self_selecting=*/false, host_id)) return false;
  }
  return true;
}

absl::Status Topology::AddRequirements(const PodAttempt& attempt,
                                       const Requirements& strict_pod_requirements,
                                       const std::vector<api::Taint>& taints,
                                       const scheduling::WellKnownLabels* allow_undefined,
                                       Requirements& node, bool explain) const {
  (void)taints;  // Inverse groups have no node filter; kept for upstream's signature.
  auto found = pods_.find(attempt.pod);
  if (found == pods_.end()) return absl::OkStatus();
  const PodGroups& groups = found->second;
  auto narrow = [&](const TopologyGroup& group, bool selects_self,
                    const Requirement& any) -> absl::Status {
    const Requirement* pod_domains = strict_pod_requirements.Find(group.key());
    const Requirement* node_domains = node.Find(group.key());
    Requirement domains = group.Next(selects_self, pod_domains ? *pod_domains : any,
                                     node_domains ? *node_domains : any);
    const bool defined = node_domains != nullptr ||
                         (allow_undefined != nullptr && allow_undefined->Contains(group.key()));
    if (domains.Len() == 0 || !defined ||
        (node_domains != nullptr && !node_domains->HasIntersection(domains))) {
      if (!explain) return absl::FailedPreconditionError("");
      return absl::FailedPreconditionError(fmt::format(
          "unsatisfiable topology constraint for {}, key={} (counts = {}, podDomains = {}, "
          "nodeDomains = {})",
          TopologyTypeName(group.type()), group.key(), group.CountsString(),
          (pod_domains ? *pod_domains : any).ToString(),
          (node_domains ? *node_domains : any).ToString()));
    }
    node.Add(std::move(domains));
    return absl::OkStatus();
  };
  for (const OwnedGroup& owned : groups.owned) {
    KP_RETURN_IF_ERROR(narrow(*groups_[owned.index], owned.selects_self, any_domain_[owned.index]));
  }
  for (size_t index : groups.inverse_selecting) {
    KP_RETURN_IF_ERROR(narrow(*inverse_[index], /*selects_self=*/true, inverse_any_domain_[index]));
  }
  return absl::OkStatus();
}

void Topology::RecordIn(TopologyGroup& group, const std::vector<api::Taint>& taints,
                        const Requirements& requirements,
                        const scheduling::WellKnownLabels* allow_undefined) const {
  if (!group.spec().node_filter.Matches(taints, requirements, allow_undefined)) return;
  const Requirement* domains = requirements.Find(group.key());
  if (domains == nullptr || domains->is_complement()) return;
  if (group.type() == TopologyType::kPodAntiAffinity) {
    // The pod may end up in any of them: each is blocked.
    for (const std::string& domain : domains->Values()) group.Record(domain);
  } else if (domains->Values().size() == 1) {
    // Spread and affinity count only a known domain.
    group.Record(domains->Values()[0]);
  }
}

void Topology::Record(const api::Pod& pod, const std::vector<api::Taint>& taints,
                      const Requirements& node,
                      const scheduling::WellKnownLabels* allow_undefined) {
  // The copy of the node's requirements is what a kept placement costs.
  if (keeps_placements_) placements_.push_back({&pod, &taints, node, allow_undefined});
  PodGroups& groups = GroupsOf(pod);
  for (size_t index : group_selections_.Selecting(groups.label_set, label_sets_, groups_)) {
    RecordIn(*groups_[index], taints, node, allow_undefined);
  }
  for (size_t index : groups.inverse_owned) {
    TopologyGroup& group = *inverse_[index];
    const Requirement* domains = node.Find(group.key());
    if (domains == nullptr || domains->is_complement()) continue;
    for (const std::string& domain : domains->Values()) group.Record(domain);
  }
}

void Topology::RegisterNode(std::string_view hostname) {
  registered_nodes_.push_back(hostname);
  for (const std::unique_ptr<TopologyGroup>& group : groups_) {
    if (group->key() == api::kLabelHostname) group->Register(hostname);
  }
  for (const std::unique_ptr<TopologyGroup>& group : inverse_) {
    if (group->key() == api::kLabelHostname) group->Register(hostname);
  }
}

void Topology::Register(std::string_view key, std::string_view domain) {
  registered_.emplace_back(std::string(key), std::string(domain));
  for (const std::unique_ptr<TopologyGroup>& group : groups_) {
    if (group->key() == key) group->Register(domain);
  }
  for (const std::unique_ptr<TopologyGroup>& group : inverse_) {
    if (group->key() == key) group->Register(domain);
  }
}

}  // namespace karpenter::provisioning
