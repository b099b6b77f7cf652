// Upstream: pkg/controllers/provisioning/scheduling/scheduler.go
#include "src/provisioning/pool_limits.h"

#include <algorithm>
#include <optional>

#include "src/provisioning/resources.h"

namespace karpenter::provisioning {
namespace {

// The largest capacity of `name` among `candidates`, scanning their capacity lists.
std::optional<api::Quantity> ScanLargest(const CandidateList& candidates, const std::string& name) {
  std::optional<api::Quantity> largest;
  for (const TypeCandidate* candidate : candidates) {
    const api::ResourceList& capacity = CapacityOf(*candidate->type);
    auto it = capacity.find(name);
    if (it != capacity.end() && (!largest || it->second > *largest)) largest = it->second;
  }
  return largest;
}

}  // namespace

const api::ResourceList& CapacityOf(const InstanceTypeView& type) {
  return type.capacity.empty() ? type.allocatable : type.capacity;
}

PoolLimits::PoolLimits(const std::vector<TypeCandidate>& candidates,
                       const api::ResourceList& limits)
    : first_(candidates.data()), count_(candidates.size()) {
  for (const auto& [name, limit] : limits) {
    if (name == kResourceNodes) continue;
    Ranking ranking{name, std::vector<int32_t>(candidates.size(), kAbsent), {}};
    for (const TypeCandidate& candidate : candidates) {
      const api::ResourceList& capacity = CapacityOf(*candidate.type);
      auto it = capacity.find(name);
      if (it != capacity.end()) ranking.by_rank.push_back(it->second);
    }
    std::stable_sort(ranking.by_rank.begin(), ranking.by_rank.end());
    ranking.by_rank.erase(std::unique(ranking.by_rank.begin(), ranking.by_rank.end()),
                          ranking.by_rank.end());
    for (size_t i = 0; i < candidates.size(); ++i) {
      const api::ResourceList& capacity = CapacityOf(*candidates[i].type);
      auto it = capacity.find(name);
      if (it == capacity.end()) continue;
      auto rank = std::lower_bound(ranking.by_rank.begin(), ranking.by_rank.end(), it->second);
      ranking.rank_by_candidate[i] = static_cast<int32_t>(rank - ranking.by_rank.begin());
    }
    if (!ranking.by_rank.empty()) largest_.emplace(name, ranking.by_rank.back());
    rankings_.push_back(std::move(ranking));
  }
}

const PoolLimits::Ranking* PoolLimits::RankingFor(const std::string& name) const {
  for (const Ranking& ranking : rankings_) {
    if (ranking.name == name) return &ranking;
  }
  return nullptr;
}

bool PoolLimits::FromTemplate(const CandidateList& candidates) const {
  return std::all_of(candidates.begin(), candidates.end(),
                     [this](const TypeCandidate* c) { return c >= first_ && c < first_ + count_; });
}

CandidateList PoolLimits::WithinLimits(const CandidateList& candidates,
                                       const api::ResourceList& remaining) const {
  auto nodes = remaining.find(kResourceNodes);
  if (nodes != remaining.end() && nodes->second < api::Quantity::FromInt(1, {})) return {};
  bool all_within = true;
  for (const auto& [name, left] : remaining) {
    if (name == kResourceNodes) continue;
    auto it = largest_.find(name);
    if (it != largest_.end() && it->second > left) all_within = false;
  }
  if (all_within) return candidates;
  if (FromTemplate(candidates)) return WithinLimitsByRank(candidates, remaining);
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

CandidateList PoolLimits::WithinLimitsByRank(const CandidateList& candidates,
                                             const api::ResourceList& remaining) const {
  // Per limited resource, the highest rank whose capacity still fits what is left: a pool at its
  // limit is asked again for every pod that does not fit elsewhere (100,000 pods of one
  // hostname spread), so each candidate costs integer comparisons instead of map lookups.
  std::vector<std::pair<const Ranking*, int32_t>> allowed;
  for (const auto& [name, left] : remaining) {
    if (name == kResourceNodes) continue;
    const Ranking* ranking = RankingFor(name);
    if (ranking == nullptr) continue;
    auto past = std::upper_bound(ranking->by_rank.begin(), ranking->by_rank.end(), left);
    allowed.emplace_back(ranking, static_cast<int32_t>(past - ranking->by_rank.begin()) - 1);
  }
  CandidateList out;
  for (const TypeCandidate* candidate : candidates) {
    const size_t index = static_cast<size_t>(candidate - first_);
    const bool within = std::all_of(allowed.begin(), allowed.end(), [index](const auto& entry) {
      return entry.first->rank_by_candidate[index] <= entry.second;
    });
    if (within) out.push_back(candidate);
  }
  return out;
}

void PoolLimits::SubtractLargest(api::ResourceList& remaining,
                                 const CandidateList& candidates) const {
  const bool from_template = FromTemplate(candidates);
  for (auto& [name, left] : remaining) {
    if (name == kResourceNodes) continue;
    const Ranking* ranking = from_template ? RankingFor(name) : nullptr;
    if (ranking == nullptr) {
      if (std::optional<api::Quantity> largest = ScanLargest(candidates, name)) left.Sub(*largest);
      continue;
    }
    int32_t top = kAbsent;
    for (const TypeCandidate* candidate : candidates) {
      top = std::max(top, ranking->rank_by_candidate[static_cast<size_t>(candidate - first_)]);
    }
    if (top != kAbsent) left.Sub(ranking->by_rank[static_cast<size_t>(top)]);
  }
}

}  // namespace karpenter::provisioning
