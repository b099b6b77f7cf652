#include "src/provisioning/scheduler.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <tuple>

#include "fmt/format.h"
#include "src/api/karpenter_labels.h"
#include "src/api/taint_match.h"
#include "src/provisioning/daemon_overhead.h"
#include "src/provisioning/existing_node.h"
#include "src/provisioning/launch.h"
#include "src/provisioning/node_claim_finalizer.h"
#include "src/provisioning/nodeclaim.h"
#include "src/provisioning/pod_queue.h"
#include "src/provisioning/preferences.h"
#include "src/provisioning/reservation_manager.h"
#include "src/provisioning/resources.h"
#include "src/provisioning/template_claim.h"
#include "src/provisioning/topology.h"
#include "src/scheduling/selector_conversion.h"

namespace karpenter::provisioning {
namespace {

const api::ResourceList& CapacityOf(const InstanceTypeView& type) {
  return type.capacity.empty() ? type.allocatable : type.capacity;
}

struct PoolState {
  NodeClaimTemplate node_claim_template;
  std::vector<api::Taint> startup_taints;
  std::optional<api::ResourceList> remaining;  // Set when the pool has limits.
  // Per limited resource, the largest capacity among the template's candidates: while the
  // remaining limits hold it, they hold every candidate.
  api::ResourceList largest_capacity;
  // Over the template's candidates; the vector's buffer stays put when the state moves.
  std::unique_ptr<CompatibilityCache> compatibility;
};

// Per resource of `limits`, the largest capacity among the candidates that have it.
api::ResourceList LargestCapacity(const std::vector<TypeCandidate>& candidates,
                                  const api::ResourceList& limits) {
  api::ResourceList largest;
  for (const TypeCandidate& candidate : candidates) {
    const api::ResourceList& capacity = CapacityOf(*candidate.type);
    for (const auto& [name, limit] : limits) {
      auto it = capacity.find(name);
      if (it == capacity.end()) continue;
      auto [entry, inserted] = largest.try_emplace(name, it->second);
      if (!inserted && it->second > entry->second) entry->second = it->second;
    }
  }
  return largest;
}

// Types that stay within the pool's remaining limits. Every launch is one more node, so a
// `nodes` limit needs at least one node left. `largest` (LargestCapacity of the candidates)
// lets the common case, limits far from reached, skip the per-type checks.
CandidateList WithinLimits(const CandidateList& candidates, const api::ResourceList& remaining,
                           const api::ResourceList& largest) {
  auto nodes = remaining.find(kResourceNodes);
  if (nodes != remaining.end() && nodes->second < api::Quantity::FromInt(1, {})) return {};
  bool all_within = true;
  for (const auto& [name, left] : remaining) {
    if (name == kResourceNodes) continue;
    auto it = largest.find(name);
    if (it != largest.end() && it->second > left) all_within = false;
  }
  if (all_within) return candidates;
  CandidateList out;
  for (const TypeCandidate* candidate : candidates) {
    const api::ResourceList& capacity = CapacityOf(*candidate->type);
    bool within = true;
    for (const auto& [name, left] : remaining) {
      if (name == kResourceNodes) continue;
      auto it = capacity.find(name);
      if (it != capacity.end() && it->second > left) within = false;
    }
    if (within) out.push_back(candidate);
  }
  return out;
}

// remaining −= the largest capacity among the claim's types: the claim may become any of them.
void SubtractMax(api::ResourceList& remaining, const CandidateList& candidates) {
  for (auto& [name, left] : remaining) {
    if (name == kResourceNodes) continue;
    std::optional<api::Quantity> largest;
    for (const TypeCandidate* candidate : candidates) {
      const api::ResourceList& capacity = CapacityOf(*candidate->type);
      auto it = capacity.find(name);
      if (it != capacity.end() && (!largest || it->second > *largest)) largest = it->second;
    }
    if (largest) left.Sub(*largest);
  }
}

class Scheduler {
 public:
  explicit Scheduler(const SchedulerInput& input)
      : input_(input), reservations_(input.node_pools) {}

  SchedulerResult Run();

 private:
  void BuildPools();
  void BuildExistingNodes();
  absl::Status TrySchedule(const api::Pod& pod, const api::ResourceList& requests);
  absl::Status Add(const PodAttempt& attempt, const api::ResourceList& requests);
  PodAttempt MakeAttempt(const api::Pod& pod) const;

  // Keeps `claim_order_` sorted by (pods, creation) after the claim at `position` gained one.
  void MoveUpAfterAdd(size_t position);
  void InsertNewClaim(size_t index);
  bool ClaimBefore(size_t a, size_t b) const;

  const SchedulerInput& input_;
  std::optional<Topology> topology_;  // Topology spread and pod (anti-)affinity (P11, P12).
  std::vector<PoolState> pools_;      // Weight desc, then name desc.
  ReservationManager reservations_;   // Reserved capacity the solve's claims hold (P17).
  std::vector<ExistingNode> existing_;
  std::vector<InFlightNodeClaim> claims_;  // Creation order.
  // Indices into `claims_` by (number of pods, creation order): the order upstream tries them
  // in, kept up to date incrementally rather than sorted for every pod.
  std::vector<size_t> claim_order_;
  bool tolerate_prefer_no_schedule_ = false;
};

void Scheduler::BuildPools() {
  std::vector<const NodePoolInstanceTypes*> ordered;
  for (const NodePoolInstanceTypes& pool : input_.node_pools) {
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
  const scheduling::WellKnownLabels& well_known = input_.options.well_known_labels;
  for (const NodePoolInstanceTypes* pool : ordered) {
    absl::StatusOr<scheduling::Requirements> requirements = TemplateRequirements(pool->node_pool);
    if (!requirements.ok()) continue;  // Admission rejects such pools; nothing can launch.
    PoolState state;
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
    for (const api::Pod& daemon : input_.daemonset_pods) {
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
      api::ResourceList used;
      for (const ExistingNodeView& node : input_.existing_nodes) {
        if (input_.removed_nodes.contains(node.name)) continue;
        auto label = node.labels.find(std::string(api::kNodePoolLabelKey));
        if (label == node.labels.end() || label->second != tmpl.node_pool) continue;
        used = Merge(used, node.capacity.empty() ? node.allocatable : node.capacity);
        used[kResourceNodes].Add(api::Quantity::FromInt(1, {}));
      }
      state.remaining = Subtract(pool->node_pool.spec.limits, used);
      state.largest_capacity = LargestCapacity(tmpl.candidates, *state.remaining);
    }
    state.compatibility = std::make_unique<CompatibilityCache>(tmpl.candidates);
    pools_.push_back(std::move(state));
  }
}

void Scheduler::BuildExistingNodes() {
  std::vector<const ExistingNodeView*> ordered;
  for (const ExistingNodeView& node : input_.existing_nodes) {
    if (!input_.removed_nodes.contains(node.name)) ordered.push_back(&node);
  }
  std::stable_sort(ordered.begin(), ordered.end(), [](const auto* a, const auto* b) {
    if (a->initialized != b->initialized) return a->initialized;
    return a->name < b->name;
  });
  for (const ExistingNodeView* node : ordered) {
    std::vector<api::Taint> startup_taints;
    auto label = node->labels.find(std::string(api::kNodePoolLabelKey));
    if (label != node->labels.end()) {
      for (const NodePoolInstanceTypes& pool : input_.node_pools) {
        if (pool.node_pool.metadata.name == label->second) {
          startup_taints = pool.node_pool.spec.template_.spec.startup_taints;
        }
      }
    }
    existing_.emplace_back(*node, EffectiveTaints(*node, startup_taints), input_.daemonset_pods,
                           &*topology_);
  }
}

bool Scheduler::ClaimBefore(size_t a, size_t b) const {
  const size_t pods_a = claims_[a].pods().size();
  const size_t pods_b = claims_[b].pods().size();
  return pods_a != pods_b ? pods_a < pods_b : a < b;
}

void Scheduler::MoveUpAfterAdd(size_t position) {
  while (position + 1 < claim_order_.size() &&
         ClaimBefore(claim_order_[position + 1], claim_order_[position])) {
    std::swap(claim_order_[position], claim_order_[position + 1]);
    ++position;
  }
}

void Scheduler::InsertNewClaim(size_t index) {
  auto at = std::upper_bound(claim_order_.begin(), claim_order_.end(), index,
                             [this](size_t a, size_t b) { return ClaimBefore(a, b); });
  claim_order_.insert(at, index);
}

PodAttempt Scheduler::MakeAttempt(const api::Pod& pod) const {
  PodAttempt attempt(pod);
  if (!input_.pod_volumes.empty()) {
    auto volumes = input_.pod_volumes.find(PodKey(pod));
    if (volumes != input_.pod_volumes.end()) attempt.volumes = &volumes->second;
  }
  if (input_.options.preference_policy == PreferencePolicy::kIgnore) IgnorePreferences(attempt);
  return attempt;
}

absl::Status Scheduler::TrySchedule(const api::Pod& pod, const api::ResourceList& requests) {
  PodAttempt attempt = MakeAttempt(pod);
  while (true) {
    topology_->Update(attempt);  // The attempt's (relaxed) constraints are the pod's own.
    absl::Status status = Add(attempt, requests);
    if (status.ok()) return status;
    // Reserved capacity may free up later in this solve or the next: relaxing now would give
    // up preferences the pod can still have.
    if (IsReservedOfferingError(status)) return status;
    if (!Relax(attempt, tolerate_prefer_no_schedule_)) return status;
  }
}

absl::Status Scheduler::Add(const PodAttempt& attempt, const api::ResourceList& requests) {
  KP_ASSIGN_OR_RETURN(scheduling::Requirements pod_requirements, attempt.Requirements());
  // Topology domains are bounded by required node selection only, never by preferences.
  KP_ASSIGN_OR_RETURN(const scheduling::Requirements strict, attempt.StrictRequirements());
  const bool moving =
      !input_.moving_pods.empty() && input_.moving_pods.contains(PodKey(*attempt.pod));
  for (ExistingNode& node : existing_) {
    if (moving && node.view().under_consolidate_after) continue;
    if (node.Add(attempt, pod_requirements, requests, &strict).ok()) return absl::OkStatus();
  }
  // Emptier claims first, so pods spread over what is already being launched.
  const ResourceFootprint footprint = FootprintOf(requests);
  const bool all_blocked = topology_->BlockedOnEveryClaim(attempt, claims_.size());
  for (size_t position = 0; !all_blocked && position < claim_order_.size(); ++position) {
    InFlightNodeClaim& claim = claims_[claim_order_[position]];
    // Cheap necessary conditions first: most claims are ruled out by them.
    if (!claim.MayFit(footprint) || !topology_->MayPlaceOnHost(attempt, claim.host_id())) {
      continue;
    }
    if (claim.Add(attempt, pod_requirements, requests, input_.options, &strict).ok()) {
      MoveUpAfterAdd(position);
      return absl::OkStatus();
    }
  }
  std::vector<std::string> errors;
  bool reserved_error = false;
  for (PoolState& pool : pools_) {
    const NodeClaimTemplate& tmpl = pool.node_claim_template;
    CandidateList candidates = AllCandidates(tmpl.candidates);
    if (pool.remaining) {
      candidates = WithinLimits(candidates, *pool.remaining, pool.largest_capacity);
      if (candidates.empty()) {
        errors.push_back(fmt::format(
            "all available instance types exceed limits for nodepool: \"{}\"", tmpl.node_pool));
        continue;
      }
    }
    // Without reserved offerings the claim skips the reservation checks (the common case).
    InFlightNodeClaim claim(tmpl, std::move(candidates), &*topology_, pool.compatibility.get(),
                            reservations_.empty() ? nullptr : &reservations_);
    if (absl::Status status =
            claim.Add(attempt, pod_requirements, requests, input_.options, &strict);
        !status.ok()) {
      errors.push_back(fmt::format("incompatible with nodepool \"{}\", daemonset overhead={}, {}",
                                   tmpl.node_pool, ResourcesString(tmpl.daemon_overhead),
                                   std::string(status.message())));
      // The pod could use this pool's reserved capacity: it waits for it rather than landing in
      // a lower-weight pool.
      if (IsReservedOfferingError(status)) {
        reserved_error = true;
        break;
      }
      continue;
    }
    if (pool.remaining) SubtractMax(*pool.remaining, claim.candidates());
    claims_.push_back(std::move(claim));
    InsertNewClaim(claims_.size() - 1);
    return absl::OkStatus();
  }
  if (pools_.empty()) {
    errors.push_back("no nodepool has an instance type compatible with its requirements");
  }
  std::string joined;
  for (const std::string& error : errors) joined += (joined.empty() ? "" : "; ") + error;
  if (reserved_error) return ReservedOfferingError(joined);
  return absl::FailedPreconditionError(joined);
}

SchedulerResult Scheduler::Run() {
  SchedulerResult result;
  BuildPools();

  const std::vector<api::Pod>& pods = input_.pending_pods;
  std::vector<const api::Pod*> schedulable;
  for (const api::Pod& pod : pods) {
    if (auto restricted = RestrictedLabelViolation(pod)) {
      result.unschedulable[PodKey(pod)] = *restricted;
    } else {
      schedulable.push_back(&pod);
    }
  }
  SortPodsForScheduling(schedulable);
  std::vector<PodAttempt> first_attempts;
  first_attempts.reserve(schedulable.size());
  for (const api::Pod* pod : schedulable) first_attempts.push_back(MakeAttempt(*pod));
  topology_.emplace(input_, first_attempts);
  BuildExistingNodes();  // After the topology: nodes register their hostnames with it.
  std::vector<api::ResourceList> requests;
  std::vector<size_t> order;
  for (size_t i = 0; i < schedulable.size(); ++i) {
    requests.push_back(RequestsForPod(*schedulable[i]));
    order.push_back(i);
  }

  std::map<size_t, std::string> errors;
  PodQueue queue(order);
  while (std::optional<size_t> next = queue.Pop()) {
    absl::Status status = TrySchedule(*schedulable[*next], requests[*next]);
    if (status.ok()) {
      errors.erase(*next);
    } else {
      errors[*next] = std::string(status.message());
      queue.Push(*next);
    }
  }
  for (const auto& [index, error] : errors)
    result.unschedulable[PodKey(*schedulable[index])] = error;

  for (const ExistingNode& node : existing_) {
    for (const api::Pod* pod : node.pods())
      result.existing_node_pods[node.name()].push_back(PodKey(*pod));
  }
  NodeClaimFinalizer finalizer(input_.options, kMaxInstanceTypes);
  result.new_node_claims.reserve(claims_.size());
  for (InFlightNodeClaim& claim : claims_) {
    claim.NarrowToReservations();
    absl::StatusOr<NewNodeClaim> finalized = finalizer.Finalize(claim);
    if (finalized.ok()) {
      result.new_node_claims.push_back(*std::move(finalized));
      continue;
    }
    for (const api::Pod* pod : claim.pods()) {
      result.unschedulable[PodKey(*pod)] = std::string(finalized.status().message());
    }
  }
  return result;
}

}  // namespace

std::string PodKey(const api::Pod& pod) {
  return pod.metadata.namespace_ + "/" + pod.metadata.name;
}

void SortPodsForScheduling(std::vector<const api::Pod*>& pods) {
  auto quantity = [](const api::ResourceList& list, const char* name) {
    auto it = list.find(name);
    return it == list.end() ? api::Quantity() : it->second;
  };
  struct Keyed {
    const api::Pod* pod;
    api::Quantity cpu;
    api::Quantity memory;
  };
  std::vector<Keyed> keyed;
  for (const api::Pod* pod : pods) {
    const api::ResourceList requests = RequestsForPod(*pod);
    keyed.push_back({pod, quantity(requests, "cpu"), quantity(requests, "memory")});
  }
  std::stable_sort(keyed.begin(), keyed.end(), [](const Keyed& a, const Keyed& b) {
    if (a.cpu != b.cpu) return a.cpu > b.cpu;
    if (a.memory != b.memory) return a.memory > b.memory;
    const int64_t ta =
        a.pod->metadata.creation_timestamp ? a.pod->metadata.creation_timestamp->UnixNanos() : 0;
    const int64_t tb =
        b.pod->metadata.creation_timestamp ? b.pod->metadata.creation_timestamp->UnixNanos() : 0;
    if (ta != tb) return ta < tb;
    if (a.pod->metadata.uid != b.pod->metadata.uid)
      return a.pod->metadata.uid < b.pod->metadata.uid;
    return PodKey(*a.pod) < PodKey(*b.pod);
  });
  for (size_t i = 0; i < keyed.size(); ++i) pods[i] = keyed[i].pod;
}

SchedulerResult Solve(const SchedulerInput& input) { return Scheduler(input).Run(); }

}  // namespace karpenter::provisioning
