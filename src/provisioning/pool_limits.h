// Upstream: pkg/controllers/provisioning/scheduling/scheduler.go (subtractMax,
// filterByRemainingResources)
// A NodePool's limits as a solve charges them: which instance types a new NodeClaim may still
// take, and what it charges, namely the largest capacity among its remaining types, since it may
// launch as any of them. The template's capacities are ranked once per limited resource, so
// charging a claim compares small integers instead of looking resource names up in the
// capacity list of each of its (up to hundreds of) types.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/api/resource_list.h"
#include "src/provisioning/instance_filter.h"

namespace karpenter::provisioning {

// What a type charges against limits: its capacity, or its allocatable when that is unknown.
const api::ResourceList& CapacityOf(const InstanceTypeView& type);

class PoolLimits {
 public:
  // `candidates` (a template's) must outlive this object and stay in place.
  PoolLimits(const std::vector<TypeCandidate>& candidates, const api::ResourceList& limits);

  // Per limited resource, the largest capacity among the template's candidates.
  const api::ResourceList& largest() const { return largest_; }

  // The candidates that stay within `remaining`. Every launch is one more node, so a `nodes`
  // limit needs at least one node left. While `remaining` holds `largest()`, every candidate
  // stays within it and the per-type checks are skipped.
  CandidateList WithinLimits(const CandidateList& candidates,
                             const api::ResourceList& remaining) const;

  // remaining −= per limited resource, the largest capacity among `candidates` (which, when
  // they all come from the template, is read from the ranking).
  void SubtractLargest(api::ResourceList& remaining, const CandidateList& candidates) const;

 private:
  // One limited resource: each candidate's capacity as its rank among the distinct capacities
  // of the template (kAbsent when the type does not have the resource).
  struct Ranking {
    std::string name;
    std::vector<int32_t> rank_by_candidate;
    std::vector<api::Quantity> by_rank;  // Ascending.
  };
  static constexpr int32_t kAbsent = -1;

  const Ranking* RankingFor(const std::string& name) const;
  // WithinLimits for candidates of the template, by their ranks.
  CandidateList WithinLimitsByRank(const CandidateList& candidates,
                                   const api::ResourceList& remaining) const;
  bool FromTemplate(const CandidateList& candidates) const;

  const TypeCandidate* first_;
  size_t count_;
  std::vector<Ranking> rankings_;
  api::ResourceList largest_;
};

}  // namespace karpenter::provisioning
