#include "src/provisioning/packing_order.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>

namespace karpenter::provisioning {
namespace {

double CheapestAvailablePrice(const InstanceTypeView& type) {
  double best = std::numeric_limits<double>::infinity();
  for (const OfferingView& offering : type.offerings) {
    if (offering.available) best = std::min(best, offering.price);
  }
  return best;
}

bool HasRequiredAntiAffinity(const api::Pod* pod) {
  const auto& affinity = pod->spec.affinity;
  return affinity && affinity->pod_anti_affinity &&
         !affinity->pod_anti_affinity->required_during_scheduling_ignored_during_execution.empty();
}

bool Constrained(const api::Pod* pod) {
  const api::PodSpec& spec = pod->spec;
  return !spec.node_selector.empty() || !spec.topology_spread_constraints.empty() ||
         (spec.affinity && (spec.affinity->node_affinity || spec.affinity->pod_affinity ||
                            spec.affinity->pod_anti_affinity));
}

}  // namespace

void UnconstrainedLast(std::vector<const api::Pod*>& pods) {
  std::stable_partition(pods.begin(), pods.end(), Constrained);
}

void AntiAffinityFirst(std::vector<const api::Pod*>& pods) {
  std::stable_partition(pods.begin(), pods.end(), HasRequiredAntiAffinity);
}

double MemoryWeight(const std::vector<std::span<const TypeCandidate>>& pools) {
  double cpu = 0;
  double memory = 0;
  for (std::span<const TypeCandidate> types : pools) {
    for (const TypeCandidate& type : types) {
      const ResourceFootprint& room = type.exact_room ? *type.exact_room : type.room;
      if (room.cpu == INT64_MAX || room.memory == INT64_MAX || room.cpu <= 0 || room.memory <= 0) {
        continue;
      }
      cpu += static_cast<double>(room.cpu);
      memory += static_cast<double>(room.memory);
    }
  }
  return memory > 0 ? cpu / memory : 0;
}

void LargestFirst(std::vector<const api::Pod*>& pods,
                  absl::FunctionRef<const ResourceFootprint&(const api::Pod&)> footprint,
                  double memory_weight) {
  std::vector<std::pair<double, const api::Pod*>> sized;
  sized.reserve(pods.size());
  for (const api::Pod* pod : pods) {
    const ResourceFootprint& size = footprint(*pod);
    sized.emplace_back(
        static_cast<double>(size.cpu) + memory_weight * static_cast<double>(size.memory), pod);
  }
  std::stable_sort(sized.begin(), sized.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (size_t i = 0; i < sized.size(); ++i) pods[i] = sized[i].second;
}

ClaimRoom RoomOf(const InFlightNodeClaim& claim) {
  const TypeCandidate* cheapest = nullptr;
  double price = std::numeric_limits<double>::infinity();
  for (const TypeCandidate* candidate : claim.candidates()) {
    const double candidate_price = CheapestAvailablePrice(*candidate->type);
    if (cheapest == nullptr || candidate_price < price) {
      cheapest = candidate;
      price = candidate_price;
    }
  }
  if (cheapest == nullptr) return {};
  ClaimRoom room;
  room.price = price == std::numeric_limits<double>::infinity() ? 0 : price;
  room.size = cheapest->exact_room ? *cheapest->exact_room : cheapest->room;
  const ResourceFootprint used = FootprintOf(claim.pod_requests());
  room.left = {room.size.cpu == INT64_MAX ? INT64_MAX : room.size.cpu - used.cpu,
               room.size.memory == INT64_MAX ? INT64_MAX : room.size.memory - used.memory,
               room.size.pods == INT64_MAX ? INT64_MAX : room.size.pods - used.pods};
  return room;
}

bool FitsRoom(const ClaimRoom& room, const ResourceFootprint& pod) {
  return pod.cpu <= room.left.cpu && pod.memory <= room.left.memory && pod.pods <= room.left.pods;
}

void FreeFitIndex::Erase(size_t index) {
  const ResourceFootprint& left = rooms_[index].left;
  auto bucket = buckets_.find(left.cpu);
  if (bucket == buckets_.end()) return;
  bucket->second.erase({left.memory, index});
  if (bucket->second.empty()) buckets_.erase(bucket);
}

void FreeFitIndex::Update(size_t index, const ClaimRoom& room) {
  if (index < rooms_.size()) {
    Erase(index);
  } else {
    rooms_.resize(index + 1);
  }
  rooms_[index] = room;
  buckets_[room.left.cpu].insert({room.left.memory, index});
}

std::optional<size_t> FreeFitIndex::Offer(const ResourceFootprint& pod,
                                          absl::FunctionRef<bool(size_t)> place) const {
  for (auto bucket = buckets_.lower_bound(pod.cpu); bucket != buckets_.end(); ++bucket) {
    for (auto it = bucket->second.lower_bound({pod.memory, 0}); it != bucket->second.end(); ++it) {
      if (rooms_[it->second].left.pods < pod.pods) continue;
      if (place(it->second)) return it->second;
    }
  }
  return std::nullopt;
}

}  // namespace karpenter::provisioning
