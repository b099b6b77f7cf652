// PackingPolicy::kCost's choice among the NodeClaims of a solve (types.h). A claim will launch as
// its cheapest remaining instance type and pays for all of it whatever its pods use, so a pod
// that fits in what that type has left adds nothing to the bill there. Under kCost the scheduler
// tries those claims first, the tightest fit first (the least idle capacity left, valued at the
// type's price), and only then upstream's order, which may grow a claim onto a pricier type. The
// order is a heuristic only: every placement still goes through InFlightNodeClaim::Add.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <vector>

#include "absl/functional/function_ref.h"
#include "src/api/pod.h"
#include "src/provisioning/instance_filter.h"
#include "src/provisioning/nodeclaim.h"

namespace karpenter::provisioning {

// Moves the pods with a required pod anti-affinity term ahead of the others, keeping the order
// within each part. They are the pods that force claims apart; placed first, they open the
// claims the other pods then fill, instead of opening underfilled ones at the end of the queue.
void AntiAffinityFirst(std::vector<const api::Pod*>& pods);

// Moves the pods that may go on any claim — no node selector, no affinity or anti-affinity of any
// kind, no topology spread — behind the others, keeping the order within each part. A pod with
// such a constraint may find no room in the zone or on the claims it is allowed, and then grows a
// claim there; placed first, those pods leave their gaps while the free pods, which fit
// wherever there is room, are still to come to fill them.
void UnconstrainedLast(std::vector<const api::Pod*>& pods);

// What a unit of memory weighs against a milli-cpu when pods are ranked by size: the summed cpu
// of the pools' types' rooms over their summed memory, so that filling a type's memory counts as
// much as filling its cpu. Types whose room is unbounded in either resource are skipped; 0 when
// none is left (pods then rank by cpu alone).
double MemoryWeight(const std::vector<std::span<const TypeCandidate>>& pools);

// Reorders `pods` largest first by cpu + memory_weight × memory, stably, so pods of equal size
// keep the order they came in (upstream's). Ranking by cpu alone, as upstream does, leaves the
// small memory-heavy pods to the end of the queue, when most claims' cpu is spoken for: they
// then fill the memory of claims whose cpu stays idle, and the claims holding them pay for cpu
// no pod uses. Ranked by both, the memory-heavy pods are placed while claims still have room of
// either kind, and the pods small in both come last, to fill what is left.
void LargestFirst(std::vector<const api::Pod*>& pods,
                  absl::FunctionRef<const ResourceFootprint&(const api::Pod&)> footprint,
                  double memory_weight);

// What a claim's cheapest remaining type offers its pods.
struct ClaimRoom {
  double price = 0;        // the type's cheapest available offering
  ResourceFootprint size;  // what pods may use on the type (allocatable − daemon overhead)
  ResourceFootprint left;  // `size` minus the requests of the claim's pods
};

// The room of `claim`'s cheapest remaining type (the first of equally cheap ones); nothing left
// when the claim has no candidates.
ClaimRoom RoomOf(const InFlightNodeClaim& claim);

// Whether `pod` fits in what the claim's cheapest type has left.
bool FitsRoom(const ClaimRoom& room, const ResourceFootprint& pod);

// The claims of a solve by what their cheapest type has left. Offer(pod, place) calls `place` on
// the claims whose room holds the pod, least cpu left first, then least memory left, then by
// index, until it accepts one; `place` says whether the claim took the pod. Filling the claim
// with the least to spare first is best fit, cpu first since pods' cpu requests are coarse and
// memory finer grained. Claims are bucketed by cpu left, each bucket sorted by memory left, so a
// pod skips a bucket without enough memory in one lookup rather than a scan of its claims.
class FreeFitIndex {
 public:
  // Records (or replaces) the room of the claim at `index`.
  void Update(size_t index, const ClaimRoom& room);
  std::optional<size_t> Offer(const ResourceFootprint& pod,
                              absl::FunctionRef<bool(size_t)> place) const;

 private:
  void Erase(size_t index);

  // cpu left -> (memory left, claim index).
  std::map<int64_t, std::set<std::pair<int64_t, size_t>>> buckets_;
  std::vector<ClaimRoom> rooms_;  // by claim index
};

}  // namespace karpenter::provisioning
