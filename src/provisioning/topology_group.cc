// Upstream: pkg/controllers/provisioning/scheduling/topologygroup.go, topologynodefilter.go
#include "src/provisioning/topology_group.h"

#include <algorithm>
#include <limits>
#include <set>

#include "fmt/format.h"
#include "src/api/karpenter_labels.h"
#include "src/api/selector_match.h"
#include "src/api/taint_match.h"
#include "src/scheduling/selector_conversion.h"

namespace karpenter::provisioning {
namespace {

using scheduling::Requirement;

// This abseil build has its own string_view; heterogeneous lookups need it.
absl::string_view Key(std::string_view text) { return {text.data(), text.size()}; }

constexpr size_t kMaxPrintedDomains = 25;

bool IsHostname(std::string_view key) { return key == api::kLabelHostname; }

// The single value of a finite one-value set, or null.
const std::string* SingleValue(const Requirement& requirement) {
  if (requirement.is_complement() || requirement.Values().size() != 1) return nullptr;
  return &requirement.Values()[0];
}

// `key In [domain]`, as `node_domains` itself when it already is exactly that (a node's or
// claim's own hostname, a claim already in one zone): a copy then shares its storage instead of
// allocating a new requirement for every placement attempt.
Requirement OnlyDomain(std::string_view key, const Requirement& node_domains,
                       const std::string& domain) {
  const std::string* single = SingleValue(node_domains);
  if (single != nullptr && *single == domain && !node_domains.min_values()) return node_domains;
  return Requirement::In(key, {domain});
}

std::string SelectorSignature(const std::optional<api::LabelSelector>& selector) {
  if (!selector) return "null";
  std::string out = "{";
  for (const auto& [key, value] : selector->match_labels) out += key + "=" + value + ",";
  // Expressions are a conjunction: order and repeats do not change the selection.
  std::set<std::string> expressions;
  for (const api::LabelSelectorRequirement& expression : selector->match_expressions) {
    std::vector<std::string> values = expression.values;
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    std::string text = expression.key + " " + expression.operator_ + " [";
    for (const std::string& value : values) text += value + ",";
    expressions.insert(text + "]");
  }
  for (const std::string& expression : expressions) out += expression + ";";
  return out + "}";
}

}  // namespace

std::string_view TopologyTypeName(TopologyType type) {
  switch (type) {
    case TopologyType::kSpread:
      return "topology spread";
    case TopologyType::kPodAffinity:
      return "pod affinity";
    case TopologyType::kPodAntiAffinity:
      return "pod anti-affinity";
  }
  return "";
}

bool NamespaceSet::Has(std::string_view name_space) const {
  return all || std::binary_search(names.begin(), names.end(), name_space);
}

std::string NamespaceSet::Signature() const {
  if (all) return "*";
  std::string out;
  for (const std::string& name : names) out += name + ",";
  return out;
}

TopologyNodeFilter TopologyNodeFilter::ForSpread(const api::Pod& pod,
                                                 const api::Box<api::Affinity>& affinity,
                                                 bool honor_affinity, bool honor_taints) {
  TopologyNodeFilter filter;
  filter.honor_affinity_ = honor_affinity;
  filter.honor_taints_ = honor_taints;
  if (honor_taints) filter.tolerations_ = pod.spec.tolerations;
  if (!honor_affinity) return filter;
  const scheduling::Requirements selector = scheduling::FromLabels(pod.spec.node_selector);
  if (!affinity || !affinity->node_affinity ||
      !affinity->node_affinity->required_during_scheduling_ignored_during_execution) {
    filter.terms_.push_back(selector);
    return filter;
  }
  for (const api::NodeSelectorTerm& term :
       affinity->node_affinity->required_during_scheduling_ignored_during_execution
           ->node_selector_terms) {
    absl::StatusOr<scheduling::Requirements> requirements =
        scheduling::FromNodeSelectorRequirements(term.match_expressions);
    // A malformed term can match no node; the pod itself fails on it before counting matters.
    if (!requirements.ok()) continue;
    requirements->Add(selector);
    filter.terms_.push_back(*std::move(requirements));
  }
  return filter;
}

bool TopologyNodeFilter::Matches(const std::vector<api::Taint>& taints,
                                 const scheduling::Requirements& node,
                                 const scheduling::WellKnownLabels* allow_undefined) const {
  if (honor_taints_ &&
      !api::ToleratesAll(tolerations_, taints, /*ignore_prefer_no_schedule=*/false)) {
    return false;
  }
  if (!honor_affinity_ || terms_.empty()) return true;
  for (const scheduling::Requirements& term : terms_) {
    const bool compatible = allow_undefined != nullptr ? node.IsCompatible(term, *allow_undefined)
                                                       : node.IsCompatible(term);
    if (compatible) return true;
  }
  return false;
}

std::string TopologyNodeFilter::Signature() const {
  std::string out = fmt::format("a={} t={} [", honor_affinity_, honor_taints_);
  for (const scheduling::Requirements& term : terms_) out += term.ToString() + "|";
  out += "] [";
  for (const api::Toleration& toleration : tolerations_) {
    out += fmt::format("{}/{}/{}/{}|", toleration.key, toleration.operator_, toleration.value,
                       toleration.effect);
  }
  return out + "]";
}

std::string TopologyGroupSpec::Signature() const {
  return fmt::format("{}|{}|{}|{}|{}|{}|{}", static_cast<int>(type), key, namespaces.Signature(),
                     max_skew, min_domains ? std::to_string(*min_domains) : "-",
                     node_filter.Signature(), SelectorSignature(selector));
}

uint32_t HostIds::IdOf(std::string_view host) {
  auto [it, inserted] = ids_.try_emplace(Key(host), static_cast<uint32_t>(ids_.size()));
  return it->second;
}

void HostIds::MarkClaim(uint32_t id) {
  if (id >= is_claim_.size()) is_claim_.resize(id + 1, false);
  is_claim_[id] = true;
}

TopologyGroup::TopologyGroup(TopologyGroupSpec spec, HostIds* hosts)
    : spec_(std::move(spec)), hosts_(IsHostname(spec_.key) ? hosts : nullptr) {}

bool TopologyGroup::Selects(const api::Pod& pod) const {
  return spec_.namespaces.Has(pod.metadata.namespace_) &&
         api::Matches(spec_.selector, pod.metadata.labels);
}

void TopologyGroup::Register(std::string_view domain) { domains_.try_emplace(Key(domain), 0); }

void TopologyGroup::Record(std::string_view domain) {
  int32_t& count = domains_[Key(domain)];
  if (count == 0) ++populated_;
  ++count;
  if (hosts_ != nullptr) {
    const uint32_t id = hosts_->IdOf(domain);
    if (id >= host_counts_.size()) host_counts_.resize(id + 1, 0);
    host_counts_[id] = count;
    if (hosts_->IsClaim(id)) CountBlockedClaim(count);
  }
}

int32_t TopologyGroup::CountOf(std::string_view domain) const {
  auto it = domains_.find(Key(domain));
  return it == domains_.end() ? 0 : it->second;
}

Requirement TopologyGroup::Next(bool self_selecting, const Requirement& pod_domains,
                                const Requirement& node_domains) const {
  switch (spec_.type) {
    case TopologyType::kSpread:
      return NextSpread(self_selecting, pod_domains, node_domains);
    case TopologyType::kPodAffinity:
      return NextAffinity(self_selecting, pod_domains, node_domains);
    case TopologyType::kPodAntiAffinity:
      return NextAntiAffinity(pod_domains, node_domains);
  }
  return Requirement::DoesNotExist(spec_.key);
}

int32_t TopologyGroup::MinCount(const Requirement& pod_domains) const {
  // A new node is always a new, empty hostname domain.
  if (IsHostname(spec_.key)) return 0;
  int32_t min = std::numeric_limits<int32_t>::max();
  int32_t supported = 0;
  for (const auto& [domain, count] : domains_) {
    if (!pod_domains.Has(domain)) continue;
    ++supported;
    min = std::min(min, count);
  }
  if (spec_.min_domains && supported < *spec_.min_domains) min = 0;
  return min;
}

// kube-scheduler's rule: count + (1 if the pod matches itself) − global min ≤ maxSkew. Of the
// domains that pass, the least populated is chosen (the first by name among equals).
Requirement TopologyGroup::NextSpread(bool self_selecting, const Requirement& pod_domains,
                                      const Requirement& node_domains) const {
  const int32_t self = self_selecting ? 1 : 0;
  if (IsHostname(spec_.key)) {
    if (const std::string* host = SingleValue(node_domains)) {
      // A node not yet registered (a claim's placeholder) is a new domain with no pods.
      if (CountOf(*host) + self <= spec_.max_skew) {
        return OnlyDomain(spec_.key, node_domains, *host);
      }
      return Requirement::DoesNotExist(spec_.key);
    }
  }
  const int64_t min = MinCount(pod_domains);
  const std::string* best = nullptr;
  int64_t best_count = std::numeric_limits<int64_t>::max();
  auto consider = [&](const std::string& domain, int32_t count) {
    const int64_t total = int64_t{count} + self;
    if (total - min > spec_.max_skew) return;
    if (total < best_count || (total == best_count && domain < *best)) {
      best = &domain;
      best_count = total;
    }
  };
  if (!node_domains.is_complement()) {
    for (const std::string& domain : node_domains.Values()) {
      auto it = domains_.find(domain);
      if (it != domains_.end()) consider(it->first, it->second);
    }
  } else {
    for (const auto& [domain, count] : domains_) {
      if (node_domains.Has(domain)) consider(domain, count);
    }
  }
  if (best == nullptr) return Requirement::DoesNotExist(spec_.key);
  return OnlyDomain(spec_.key, node_domains, *best);
}

bool TopologyGroup::AnyPopulatedDomain(const Requirement& pod_domains) const {
  for (const auto& [domain, count] : domains_) {
    if (count > 0 && pod_domains.Has(domain)) return true;
  }
  return false;
}

// Domains that already hold a selected pod. When none does (or none the pod may use) and the
// pod selects itself, it may open one: the first by name the node allows, else the first the
// pod allows.
Requirement TopologyGroup::NextAffinity(bool self_selecting, const Requirement& pod_domains,
                                        const Requirement& node_domains) const {
  std::vector<std::string> options;
  auto can_bootstrap = [&] {
    return self_selecting && (populated_ == 0 || !AnyPopulatedDomain(pod_domains));
  };
  if (IsHostname(spec_.key)) {
    if (const std::string* host = SingleValue(node_domains)) {
      if (!pod_domains.Has(*host)) return Requirement::DoesNotExist(spec_.key);
      if (CountOf(*host) > 0 || can_bootstrap()) return OnlyDomain(spec_.key, node_domains, *host);
      return Requirement::DoesNotExist(spec_.key);
    }
  }
  if (!node_domains.is_complement()) {
    for (const std::string& domain : node_domains.Values()) {
      if (CountOf(domain) > 0 && pod_domains.Has(domain)) options.push_back(domain);
    }
  } else {
    for (const auto& [domain, count] : domains_) {
      if (count > 0 && pod_domains.Has(domain) && node_domains.Has(domain)) {
        options.push_back(domain);
      }
    }
  }
  if (options.empty() && can_bootstrap()) {
    const std::string* on_node = nullptr;
    const std::string* for_pod = nullptr;
    for (const auto& [domain, count] : domains_) {
      if (!pod_domains.Has(domain)) continue;
      if (for_pod == nullptr || domain < *for_pod) for_pod = &domain;
      if (node_domains.Has(domain) && (on_node == nullptr || domain < *on_node)) on_node = &domain;
    }
    if (on_node != nullptr) options.push_back(*on_node);
    if (for_pod != nullptr) options.push_back(*for_pod);
  }
  if (options.empty()) return Requirement::DoesNotExist(spec_.key);
  return Requirement::In(spec_.key, std::move(options));
}

// Only domains without a selected pod are allowed.
Requirement TopologyGroup::NextAntiAffinity(const Requirement& pod_domains,
                                            const Requirement& node_domains) const {
  if (IsHostname(spec_.key)) {
    if (const std::string* host = SingleValue(node_domains)) {
      if (CountOf(*host) == 0) return OnlyDomain(spec_.key, node_domains, *host);
      return Requirement::DoesNotExist(spec_.key);
    }
  }
  std::vector<std::string> options;
  const size_t empty = domains_.size() - populated_;
  if (!node_domains.is_complement() && node_domains.Values().size() < empty) {
    for (const std::string& domain : node_domains.Values()) {
      auto it = domains_.find(domain);
      if (it != domains_.end() && it->second == 0 && pod_domains.Has(domain)) {
        options.push_back(domain);
      }
    }
  } else {
    for (const auto& [domain, count] : domains_) {
      if (count == 0 && node_domains.Has(domain) && pod_domains.Has(domain)) {
        options.push_back(domain);
      }
    }
  }
  if (options.empty()) return Requirement::DoesNotExist(spec_.key);
  return Requirement::In(spec_.key, std::move(options));
}

// Called as a claim's count reaches `count`, one pod at a time, so each threshold is crossed
// once. A spread blocks the pods it selects at its skew (count + 1 > maxSkew) and others one pod
// later, as BlocksHost does.
void TopologyGroup::CountBlockedClaim(int32_t count) {
  switch (spec_.type) {
    case TopologyType::kPodAntiAffinity:
      if (count == 1) {
        ++blocked_claims_;
        ++blocked_claims_for_others_;
      }
      return;
    case TopologyType::kSpread:
      if (count == spec_.max_skew) ++blocked_claims_;
      if (count == spec_.max_skew + 1) ++blocked_claims_for_others_;
      return;
    case TopologyType::kPodAffinity:
      return;  // Depends on other hosts too.
  }
}

bool TopologyGroup::BlocksHost(bool self_selecting, uint32_t host_id) const {
  if (hosts_ == nullptr) return false;
  const int32_t count = host_id < host_counts_.size() ? host_counts_[host_id] : 0;
  switch (spec_.type) {
    case TopologyType::kSpread:
      return count + (self_selecting ? 1 : 0) > spec_.max_skew;
    case TopologyType::kPodAntiAffinity:
      return count > 0;
    case TopologyType::kPodAffinity:
      return false;  // Depends on other hosts too; Next decides.
  }
  return false;
}

std::string TopologyGroup::CountsString() const {
  // Failed placements build this message often (every claim a pod does not fit): past 25
  // domains (typically hostnames) only the number is worth its cost.
  if (domains_.size() > kMaxPrintedDomains) {
    return fmt::format("{{{} domains, {} with pods}}", domains_.size(), populated_);
  }
  std::vector<std::pair<std::string_view, int32_t>> sorted(domains_.begin(), domains_.end());
  std::sort(sorted.begin(), sorted.end());
  std::string out = "{";
  for (size_t i = 0; i < sorted.size(); ++i) {
    out += fmt::format("{}{}: {}", i == 0 ? "" : ", ", sorted[i].first, sorted[i].second);
  }
  return out + "}";
}

}  // namespace karpenter::provisioning
