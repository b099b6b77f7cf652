#include "src/provisioning/solve_cache.h"

#include <algorithm>

#include "src/api/karpenter_labels.h"
#include "src/api/pod_resources.h"
#include "src/api/taint_match.h"
#include "src/provisioning/daemon_overhead.h"
#include "src/provisioning/host_ports.h"
#include "src/provisioning/instance_filter.h"
#include "src/provisioning/resources.h"
#include "src/provisioning/scheduler.h"
#include "src/provisioning/template_claim.h"

namespace karpenter::provisioning {
namespace {

const std::string* NodePoolOf(const ExistingNodeView& node) {
  auto label = node.labels.find(api::KeyString<api::kNodePoolLabelKey>());
  return label == node.labels.end() ? nullptr : &label->second;
}

// What a node charges against its NodePool's limits: its capacity and one node.
api::ResourceList ChargeOf(const ExistingNodeView& node) {
  api::ResourceList charge = node.capacity.empty() ? node.allocatable : node.capacity;
  charge[kResourceNodes].Add(api::Quantity::FromInt(1, {}));
  return charge;
}

}  // namespace

SolveCache::SolveCache(const SchedulerInput& input)
    : input_(&input),
      reservations_(input.node_pools),
      bound_pod_facts_(input),
      finalizer_(std::make_unique<NodeClaimFinalizer>(input.options, kMaxInstanceTypes)) {
  BuildPools();
  BuildNodes();
}

void SolveCache::BuildPools() {
  std::vector<const NodePoolInstanceTypes*> ordered;
  for (const NodePoolInstanceTypes& pool : input_->node_pools) {
    // Deleting pools launch nothing more; static pools (replicas set) are provisioned by count,
    // not by pending pods.
    if (pool.node_pool.metadata.deletion_timestamp || pool.node_pool.spec.replicas) continue;
    ordered.push_back(&pool);
  }
  std::stable_sort(ordered.begin(), ordered.end(), [](const auto* a, const auto* b) {
    const int32_t wa = a->node_pool.spec.weight.value_or(0);
    const int32_t wb = b->node_pool.spec.weight.value_or(0);
    if (wa != wb) return wa > wb;
    return a->node_pool.metadata.name > b->node_pool.metadata.name;
  });
  const scheduling::WellKnownLabels& well_known = input_->options.well_known_labels;
  for (const NodePoolInstanceTypes* pool : ordered) {
    absl::StatusOr<scheduling::Requirements> requirements = TemplateRequirements(pool->node_pool);
    if (!requirements.ok()) continue;  // Admission rejects such pools; nothing can launch.
    PoolPrototype state;
    NodeClaimTemplate& tmpl = state.node_claim_template;
    tmpl.node_pool = pool->node_pool.metadata.name;
    tmpl.requirements = *std::move(requirements);
    tmpl.labels = pool->node_pool.spec.template_.metadata.labels;
    tmpl.labels[std::string(api::kNodePoolLabelKey)] = tmpl.node_pool;
    tmpl.taints = pool->node_pool.spec.template_.spec.taints;
    state.startup_taints = pool->node_pool.spec.template_.spec.startup_taints;
    for (const api::Taint& taint : tmpl.taints) {
      tolerate_prefer_no_schedule_ |= taint.effect == api::kTaintEffectPreferNoSchedule;
    }
    // Daemonsets compatible with the template; each type then keeps those it can also host.
    std::vector<std::pair<const api::Pod*, scheduling::Requirements>> daemons;
    for (const api::Pod& daemon : input_->daemonset_pods) {
      if (auto daemon_requirements =
              DaemonRequirementsOn(daemon, tmpl.requirements, tmpl.taints, &well_known)) {
        daemons.emplace_back(&daemon, *std::move(daemon_requirements));
        tmpl.daemon_overhead = Merge(tmpl.daemon_overhead, RequestsForPod(daemon));
        const std::vector<HostPort> ports = HostPortsOf(daemon);
        tmpl.daemon_host_ports.insert(tmpl.daemon_host_ports.end(), ports.begin(), ports.end());
      }
    }
    for (const InstanceTypeView& type : pool->instance_types) {
      if (!type.requirements.HasIntersection(tmpl.requirements)) continue;
      api::ResourceList overhead;
      for (const auto& [daemon, daemon_requirements] : daemons) {
        if (type.requirements.HasIntersection(daemon_requirements)) {
          overhead = Merge(overhead, RequestsForPod(*daemon));
        }
      }
      tmpl.candidates.push_back(MakeTypeCandidate(type, std::move(overhead)));
    }
    if (tmpl.candidates.empty()) continue;  // Upstream: NoCompatibleInstanceTypes event.
    if (!pool->node_pool.spec.limits.empty()) {
      state.limits = pool->node_pool.spec.limits;
      state.limit_charges.emplace(tmpl.candidates, *state.limits);
    }
    state.compatibility = std::make_unique<CompatibilityCache>(tmpl.candidates);
    pools_.push_back(std::move(state));
  }
}

void SolveCache::BuildNodes() {
  std::vector<const ExistingNodeView*> ordered;
  for (const ExistingNodeView& node : input_->existing_nodes) ordered.push_back(&node);
  std::stable_sort(ordered.begin(), ordered.end(), [](const auto* a, const auto* b) {
    if (a->initialized != b->initialized) return a->initialized;
    return a->name < b->name;
  });
  nodes_.reserve(ordered.size());
  for (const ExistingNodeView* node : ordered) {
    std::vector<api::Taint> startup_taints;
    if (const std::string* pool_name = NodePoolOf(*node)) {
      for (const NodePoolInstanceTypes& pool : input_->node_pools) {
        if (pool.node_pool.metadata.name == *pool_name) {
          startup_taints = pool.node_pool.spec.template_.spec.startup_taints;
        }
      }
    }
    nodes_.emplace_back(*node, EffectiveTaints(*node, startup_taints), input_->daemonset_pods);
    if (const std::string* pool_name = NodePoolOf(*node)) {
      api::ResourceList charge = ChargeOf(*node);
      api::AddResources(used_by_pool_[*pool_name], charge);
      charges_.emplace(node->name, std::make_pair(*pool_name, std::move(charge)));
    }
  }
  std::vector<ResourceFootprint> rooms;
  rooms.reserve(nodes_.size());
  by_name_.reserve(nodes_.size());
  for (size_t i = 0; i < nodes_.size(); ++i) {
    rooms.push_back(nodes_[i].headroom());
    by_name_.emplace_back(nodes_[i].name(), i);
  }
  rooms_ = RoomIndex(rooms);
  std::sort(by_name_.begin(), by_name_.end());
}

std::vector<size_t> SolveCache::NodesNamed(std::string_view name) const {
  std::vector<size_t> out;
  auto it = std::lower_bound(by_name_.begin(), by_name_.end(), std::pair(name, size_t{0}));
  for (; it != by_name_.end() && it->first == name; ++it) out.push_back(it->second);
  return out;
}

api::ResourceList SolveCache::UsedBy(const std::string& pool, const SchedulerInput& input) const {
  auto total = used_by_pool_.find(pool);
  if (total == used_by_pool_.end()) return {};
  api::ResourceList used = total->second;
  // Quantities add and subtract exactly, so this is the sum over the nodes that remain.
  for (const std::string& removed : input.removed_nodes) {
    auto [first, last] = charges_.equal_range(removed);
    for (auto charge = first; charge != last; ++charge) {
      if (charge->second.first != pool) continue;
      for (const auto& [name, quantity] : charge->second.second) used[name].Sub(quantity);
    }
  }
  return used;
}

}  // namespace karpenter::provisioning
