// Which of a NodeClaim template's instance types meet a claim's requirements and have an
// available offering they allow, remembered per distinct requirements. A solve asks this for
// every pod it tries on a claim, yet claims' requirements take few distinct values (a NodePool's
// template narrowed to a zone or two, a few node selectors), so the per-type checks run once per
// distinct set and each attempt then tests a bit and the type's resources.
//
// kubernetes.io/hostname is set aside in the key: claims carry a placeholder hostname each, and
// instance types never have that label (when a type does, the cache declines to help).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "src/api/resource_list.h"
#include "src/provisioning/instance_filter.h"
#include "src/scheduling/requirements.h"

namespace karpenter::provisioning {

class CompatibilityCache {
 public:
  // At most this many distinct requirement sets are remembered; beyond, answers are computed
  // afresh, so a pathological workload cannot grow the cache without bound.
  static constexpr size_t kMaxEntries = 4096;

  // `candidates` (a template's) must outlive the cache and stay in place.
  explicit CompatibilityCache(std::span<const TypeCandidate> candidates);

  // Whether Filter may be asked about `candidates`: they are all the template's and the cache
  // is usable at all.
  bool Covers(std::span<const TypeCandidate* const> candidates) const;

  // FilterInstanceTypes(candidates, requirements, requests, /*explain=*/false).remaining for
  // candidates the cache covers.
  CandidateList Filter(std::span<const TypeCandidate* const> candidates,
                       const scheduling::Requirements& requirements,
                       const api::ResourceList& requests);

  size_t entries() const { return entries_.size(); }

 private:
  struct Entry {
    scheduling::Requirements requirements;  // Without kubernetes.io/hostname.
    std::vector<bool> compatible;           // By index into `candidates_`.
  };

  std::vector<bool> Compute(const scheduling::Requirements& requirements) const;

  std::span<const TypeCandidate> candidates_;
  bool usable_ = true;  // False when some type carries a hostname requirement.
  std::vector<Entry> entries_;
  absl::flat_hash_map<size_t, std::vector<size_t>> index_;  // Key hash -> `entries_` indices.
};

}  // namespace karpenter::provisioning
