#include "src/provisioning/scheduler.h"

#include <algorithm>
#include <cstddef>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <tuple>

#include "absl/numeric/int128.h"
#include "fmt/format.h"
#include "src/api/karpenter_labels.h"
#include "src/api/taint_match.h"
#include "src/provisioning/claim_order.h"
#include "src/provisioning/daemon_overhead.h"
#include "src/provisioning/existing_node.h"
#include "src/provisioning/launch.h"
#include "src/provisioning/node_claim_finalizer.h"
#include "src/provisioning/nodeclaim.h"
#include "src/provisioning/packing_order.h"
#include "src/provisioning/pod_queue.h"
#include "src/provisioning/preferences.h"
#include "src/provisioning/reservation_manager.h"
#include "src/provisioning/resources.h"
#include "src/provisioning/room_index.h"
#include "src/provisioning/solve_cache.h"
#include "src/provisioning/template_claim.h"
#include "src/provisioning/topology.h"
#include "src/scheduling/selector_conversion.h"

namespace karpenter::provisioning {
namespace {

// A pool as one solve uses it: the shared prototype and what this solve has left of its limits.
struct PoolState {
  const PoolPrototype* prototype;
  std::optional<api::ResourceList> remaining;  // Set when the pool has limits.
};

// A node as one solve uses it: the cache's, until this solve places a pod on it.
struct NodeSlot {
  const ExistingNode* shared;
  ExistingNode* own = nullptr;  // In Scheduler::owned_.
  bool removed = false;         // One of the input's removed_nodes.
  const ExistingNode& node() const { return own ? *own : *shared; }
};

class Scheduler {
 public:
  Scheduler(const SchedulerInput& input, const SolveCache& cache)
      : input_(input),
        cache_(cache),
        reservations_(cache.reservations()),
        claim_order_(input.options.claim_ties) {}

  SchedulerResult Run();

 private:
  void BuildPools();
  void BuildExistingNodes();
  // Places the pod of `first` (its unrelaxed attempt), relaxing a copy of it as needed.
  // `footprint` is FootprintOf(requests).
  absl::Status TrySchedule(const PodAttempt& first, const api::ResourceList& requests,
                           const ResourceFootprint& footprint);
  absl::Status Add(const PodAttempt& attempt, const api::ResourceList& requests,
                   const ResourceFootprint& footprint);
  // PackingPolicy::kCost: places the pod on a claim whose cheapest type still holds it, the
  // tightest first; false when none takes it.
  bool AddToFreeFit(const PodAttempt& attempt, const scheduling::Requirements& pod_requirements,
                    const api::ResourceList& requests, const scheduling::Requirements& strict,
                    const ResourceFootprint& footprint);
  // Keeps `free_fit_` and `claim_order_` in step with the claim at `index`, which gained a pod.
  void Grew(size_t index);
  PodAttempt MakeAttempt(const api::Pod& pod) const;

  // The pod just placed left the initialized nodes: a moving pod stops the solve when the input
  // asks for it.
  void PlacedOffInitialized(const PodAttempt& attempt, bool moving);

  const SchedulerInput& input_;
  const SolveCache& cache_;
  std::optional<Topology> topology_;  // Topology spread and pod (anti-)affinity (P11, P12).
  std::vector<PoolState> pools_;      // Weight desc, then name desc.
  ReservationManager reservations_;   // Reserved capacity the solve's claims hold (P17).
  std::vector<NodeSlot> existing_;    // As the cache's nodes(); removed ones marked.
  std::deque<ExistingNode> owned_;  // Nodes this solve placed pods on (topology points into them).
  RoomIndex rooms_;                 // existing_'s headroom; removed nodes closed.
  std::vector<InFlightNodeClaim> claims_;  // Creation order.
  // The order upstream tries `claims_` in: fewest pods first, ties as options.claim_ties says.
  ClaimOrder claim_order_;
  // PackingPolicy::kCost: the claims by what their cheapest remaining type has left.
  FreeFitIndex free_fit_;
  std::string stopped_at_;  // SchedulerResult::stopped_at
};

void Scheduler::PlacedOffInitialized(const PodAttempt& attempt, bool moving) {
  if (moving && input_.stop_on_moving_pod_off_initialized) stopped_at_ = PodKey(*attempt.pod);
}

void Scheduler::BuildPools() {
  for (const PoolPrototype& prototype : cache_.pools()) {
    PoolState state{&prototype, std::nullopt};
    if (prototype.limits) {
      state.remaining = Subtract(*prototype.limits,
                                 cache_.UsedBy(prototype.node_claim_template.node_pool, input_));
    }
    pools_.push_back(std::move(state));
  }
}

void Scheduler::BuildExistingNodes() {
  const std::vector<ExistingNode>& nodes = cache_.nodes();
  existing_.reserve(nodes.size());
  for (const ExistingNode& node : nodes) existing_.push_back({&node});
  rooms_ = cache_.rooms();
  for (const std::string& name : input_.removed_nodes) {
    for (size_t index : cache_.NodesNamed(name)) {
      existing_[index].removed = true;
      rooms_.Close(index);
    }
  }
  for (const NodeSlot& slot : existing_) {
    if (!slot.removed) topology_->RegisterNode(slot.shared->hostname());
  }
}

void Scheduler::Grew(size_t index) {
  claim_order_.Grew(index);
  if (input_.options.packing == PackingPolicy::kCost)
    free_fit_.Update(index, RoomOf(claims_[index]));
}

bool Scheduler::AddToFreeFit(const PodAttempt& attempt,
                             const scheduling::Requirements& pod_requirements,
                             const api::ResourceList& requests,
                             const scheduling::Requirements& strict,
                             const ResourceFootprint& footprint) {
  const std::optional<size_t> placed = free_fit_.Offer(footprint, [&](size_t index) {
    InFlightNodeClaim& claim = claims_[index];
    return topology_->MayPlaceOnHost(attempt, claim.host_id()) &&
           claim
               .Add(attempt, pod_requirements, requests, input_.options, &strict,
                    /*explain=*/false)
               .ok();
  });
  if (!placed) return false;
  Grew(*placed);
  return true;
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

absl::Status Scheduler::TrySchedule(const PodAttempt& first, const api::ResourceList& requests,
                                    const ResourceFootprint& footprint) {
  topology_->Update(first);  // The attempt's constraints are the pod's own.
  absl::Status status = Add(first, requests, footprint);
  if (status.ok()) return status;
  // Reserved capacity may free up later in this solve or the next: relaxing now would give up
  // preferences the pod can still have.
  if (IsReservedOfferingError(status)) return status;
  // Most pods are placed unrelaxed: only these pay for a working copy to relax.
  PodAttempt attempt = first;
  while (Relax(attempt, cache_.tolerate_prefer_no_schedule())) {
    topology_->Update(attempt);
    status = Add(attempt, requests, footprint);
    if (status.ok() || IsReservedOfferingError(status)) return status;
  }
  return status;
}

absl::Status Scheduler::Add(const PodAttempt& attempt, const api::ResourceList& requests,
                            const ResourceFootprint& footprint) {
  KP_ASSIGN_OR_RETURN(scheduling::Requirements pod_requirements, attempt.Requirements());
  // Topology domains are bounded by required node selection only, never by preferences.
  KP_ASSIGN_OR_RETURN(const scheduling::Requirements strict, attempt.StrictRequirements());
  const bool moving =
      !input_.moving_pods.empty() && input_.moving_pods.contains(PodKey(*attempt.pod));
  ExistingNode::Placement placement;
  // First fit in the cache's order, skipping the nodes MayFit rules out (Check would fail on
  // resources) without visiting them.
  for (size_t index = rooms_.FirstFit(0, footprint); index < existing_.size();
       index = rooms_.FirstFit(index + 1, footprint)) {
    NodeSlot& slot = existing_[index];
    const ExistingNode& node = slot.node();
    if (moving && node.view().under_consolidate_after) continue;
    if (!node.Check(attempt, pod_requirements, requests, &strict, &*topology_, placement)) {
      continue;
    }
    if (slot.own == nullptr) slot.own = &owned_.emplace_back(*slot.shared);
    slot.own->Place(attempt, std::move(placement), &*topology_);
    rooms_.Set(index, slot.own->headroom());
    if (!node.view().initialized) PlacedOffInitialized(attempt, moving);
    return absl::OkStatus();
  }
  // Emptier claims first, so pods spread over what is already being launched.
  const bool all_blocked = topology_->BlockedOnEveryClaim(attempt, claims_.size());
  if (!all_blocked && input_.options.packing == PackingPolicy::kCost &&
      AddToFreeFit(attempt, pod_requirements, requests, strict, footprint)) {
    PlacedOffInitialized(attempt, moving);
    return absl::OkStatus();
  }
  for (size_t position = 0; !all_blocked && position < claim_order_.size(); ++position) {
    InFlightNodeClaim& claim = claims_[claim_order_[position]];
    // Cheap necessary conditions first: most claims are ruled out by them.
    if (!claim.MayFit(footprint) || !topology_->MayPlaceOnHost(attempt, claim.host_id())) {
      continue;
    }
    // A rejection here is not reported (the pod goes on to other claims, then a new one).
    if (claim.Add(attempt, pod_requirements, requests, input_.options, &strict, /*explain=*/false)
            .ok()) {
      Grew(claim_order_[position]);
      PlacedOffInitialized(attempt, moving);
      return absl::OkStatus();
    }
  }
  std::vector<std::string> errors;
  bool reserved_error = false;
  for (PoolState& pool : pools_) {
    const NodeClaimTemplate& tmpl = pool.prototype->node_claim_template;
    CandidateList candidates = AllCandidates(tmpl.candidates);
    if (pool.remaining) {
      candidates = pool.prototype->limit_charges->WithinLimits(candidates, *pool.remaining);
      if (candidates.empty()) {
        errors.push_back(fmt::format(
            "all available instance types exceed limits for nodepool: \"{}\"", tmpl.node_pool));
        continue;
      }
    }
    // Without reserved offerings the claim skips the reservation checks (the common case).
    InFlightNodeClaim claim(tmpl, std::move(candidates), &*topology_,
                            pool.prototype->compatibility.get(),
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
    if (pool.remaining) {
      pool.prototype->limit_charges->SubtractLargest(*pool.remaining, claim.candidates());
    }
    claims_.push_back(std::move(claim));
    claim_order_.Add(claims_.back().pods().size());
    if (input_.options.packing == PackingPolicy::kCost) {
      free_fit_.Update(claims_.size() - 1, RoomOf(claims_.back()));
    }
    PlacedOffInitialized(attempt, moving);
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
  // Requests (and their footprints) by index into `pods`, computed once for sorting and placing.
  std::vector<api::ResourceList> requests(pods.size());
  std::vector<ResourceFootprint> footprints(pods.size());
  for (const api::Pod* pod : schedulable) {
    const size_t index = static_cast<size_t>(pod - pods.data());
    requests[index] = RequestsForPod(*pod);
    footprints[index] = FootprintOf(requests[index]);
  }
  const auto requests_of = [&](const api::Pod& pod) -> const api::ResourceList& {
    return requests[&pod - pods.data()];
  };
  SortPodsForScheduling(schedulable, requests_of);
  if (input_.options.packing == PackingPolicy::kCost) {
    // Each step is stable over the one before, so the queue is: anti-affinity pods, then the other
    // constrained ones, then the free ones, each part largest first by cpu and memory, ties in
    // upstream's order (packing_order.h).
    std::vector<std::span<const TypeCandidate>> types;
    for (const PoolPrototype& pool : cache_.pools()) {
      types.emplace_back(pool.node_claim_template.candidates);
    }
    LargestFirst(
        schedulable,
        [&](const api::Pod& pod) -> const ResourceFootprint& {
          return footprints[&pod - pods.data()];
        },
        MemoryWeight(types));
    UnconstrainedLast(schedulable);
    AntiAffinityFirst(schedulable);
  }
  std::vector<PodAttempt> first_attempts;
  first_attempts.reserve(schedulable.size());
  for (const api::Pod* pod : schedulable) first_attempts.push_back(MakeAttempt(*pod));
  topology_.emplace(input_, first_attempts, cache_.bound_pod_facts());
  BuildExistingNodes();  // After the topology: nodes register their hostnames with it.
  std::vector<size_t> order(schedulable.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;

  std::map<size_t, std::string> errors;
  PodQueue queue(order);
  while (std::optional<size_t> next = queue.Pop()) {
    const size_t index = static_cast<size_t>(schedulable[*next] - pods.data());
    absl::Status status = TrySchedule(first_attempts[*next], requests[index], footprints[index]);
    if (!stopped_at_.empty()) {
      result.stopped_at = std::move(stopped_at_);
      return result;
    }
    if (status.ok()) {
      errors.erase(*next);
    } else {
      errors[*next] = std::string(status.message());
      queue.Push(*next);
    }
  }
  for (const auto& [index, error] : errors)
    result.unschedulable[PodKey(*schedulable[index])] = error;

  for (const NodeSlot& slot : existing_) {
    if (slot.own == nullptr) continue;  // No pod placed.
    for (const api::Pod* pod : slot.own->pods())
      result.existing_node_pods[slot.own->name()].push_back(PodKey(*pod));
  }
  NodeClaimFinalizer& finalizer = cache_.finalizer();
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

bool PodKeyLess(const api::ObjectMeta& a, const api::ObjectMeta& b) {
  // PodKey(a) < PodKey(b) without building them: within one namespace the names decide;
  // otherwise the first differing character of "namespace/name", compared as unsigned chars as
  // std::string does.
  if (a.namespace_ == b.namespace_) return a.name < b.name;
  auto at = [](const api::ObjectMeta& meta, size_t i) -> unsigned char {
    const std::string& ns = meta.namespace_;
    if (i < ns.size()) return static_cast<unsigned char>(ns[i]);
    return i == ns.size() ? '/' : static_cast<unsigned char>(meta.name[i - ns.size() - 1]);
  };
  const size_t a_size = a.namespace_.size() + 1 + a.name.size();
  const size_t b_size = b.namespace_.size() + 1 + b.name.size();
  for (size_t i = 0; i < std::min(a_size, b_size); ++i) {
    if (at(a, i) != at(b, i)) return at(a, i) < at(b, i);
  }
  return a_size < b_size;
}

void SortPodsForScheduling(std::vector<const api::Pod*>& pods) {
  std::map<const api::Pod*, api::ResourceList> requests;
  for (const api::Pod* pod : pods) requests[pod] = RequestsForPod(*pod);
  SortPodsForScheduling(
      pods, [&](const api::Pod& pod) -> const api::ResourceList& { return requests[&pod]; });
}

void SortPodsForScheduling(
    std::vector<const api::Pod*>& pods,
    absl::FunctionRef<const api::ResourceList&(const api::Pod&)> requests_for_pod) {
  // Exact values (Quantity compares them), read once per pod rather than once per comparison.
  auto nanos = [](const api::ResourceList& list, const char* name) {
    auto it = list.find(name);
    return it == list.end() ? absl::int128(0) : it->second.Nanos();
  };
  struct Keyed {
    const api::Pod* pod;
    absl::int128 cpu;
    absl::int128 memory;
    int64_t created;
    std::string_view uid;  // Held here: reaching into the pods would miss the cache.
  };
  std::vector<Keyed> keyed;
  keyed.reserve(pods.size());
  for (const api::Pod* pod : pods) {
    const api::ResourceList& requests = requests_for_pod(*pod);
    const auto& created = pod->metadata.creation_timestamp;
    keyed.push_back({pod, nanos(requests, "cpu"), nanos(requests, "memory"),
                     created ? created->UnixNanos() : 0, pod->metadata.uid});
  }
  std::stable_sort(keyed.begin(), keyed.end(), [](const Keyed& a, const Keyed& b) {
    if (a.cpu != b.cpu) return a.cpu > b.cpu;
    if (a.memory != b.memory) return a.memory > b.memory;
    if (a.created != b.created) return a.created < b.created;
    if (a.uid != b.uid) return a.uid < b.uid;
    return PodKeyLess(a.pod->metadata, b.pod->metadata);
  });
  for (size_t i = 0; i < keyed.size(); ++i) pods[i] = keyed[i].pod;
}

SchedulerResult Solve(const SchedulerInput& input) {
  const SolveCache cache(input);
  return Scheduler(input, cache).Run();
}

SchedulerResult Solve(const SchedulerInput& input, const SolveCache& cache) {
  if (!cache.BuiltFrom(input)) return Solve(input);
  return Scheduler(input, cache).Run();
}

}  // namespace karpenter::provisioning
