#include "src/provisioning/compatibility_cache.h"

#include <functional>
#include <string_view>

#include "src/api/karpenter_labels.h"

namespace karpenter::provisioning {
namespace {

void Combine(size_t& hash, size_t value) {
  hash ^= value + 0x9e3779b97f4a7c15ULL + (hash << 6) + (hash >> 2);
}

// Reads only what Requirement::operator== compares, so equal sets hash equally.
size_t HashExceptHostname(const scheduling::Requirements& requirements) {
  size_t hash = 0;
  for (const scheduling::Requirement& requirement : requirements) {
    if (requirement.key() == api::kLabelHostname) continue;
    Combine(hash, std::hash<std::string_view>()(requirement.key()));
    Combine(hash, requirement.is_complement() ? 2 : 1);
    for (const std::string& value : requirement.Values()) {
      Combine(hash, std::hash<std::string_view>()(value));
    }
    Combine(hash, static_cast<size_t>(requirement.gte().value_or(0)));
    Combine(hash, static_cast<size_t>(requirement.lte().value_or(0)));
  }
  return hash;
}

// Whether `with_hostname` equals `without` once its kubernetes.io/hostname is set aside.
bool EqualExceptHostname(const scheduling::Requirements& with_hostname,
                         const scheduling::Requirements& without) {
  auto other = without.begin();
  for (const scheduling::Requirement& requirement : with_hostname) {
    if (requirement.key() == api::kLabelHostname) continue;
    if (other == without.end() || !(*other == requirement)) return false;
    ++other;
  }
  return other == without.end();
}

}  // namespace

CompatibilityCache::CompatibilityCache(std::span<const TypeCandidate> candidates)
    : candidates_(candidates) {
  for (const TypeCandidate& candidate : candidates_) {
    if (candidate.type->requirements.Has(api::kLabelHostname)) usable_ = false;
  }
}

bool CompatibilityCache::Covers(std::span<const TypeCandidate* const> candidates) const {
  if (!usable_) return false;
  const TypeCandidate* first = candidates_.data();
  const TypeCandidate* last = first + candidates_.size();
  for (const TypeCandidate* candidate : candidates) {
    if (candidate < first || candidate >= last) return false;
  }
  return true;
}

std::vector<bool> CompatibilityCache::Compute(const scheduling::Requirements& requirements) const {
  const OfferingFilter offerings(requirements);
  std::vector<bool> compatible(candidates_.size());
  for (size_t i = 0; i < candidates_.size(); ++i) {
    const InstanceTypeView& type = *candidates_[i].type;
    compatible[i] = offerings.AnyAvailable(type) && type.requirements.HasIntersection(requirements);
  }
  return compatible;
}

CandidateList CompatibilityCache::Filter(std::span<const TypeCandidate* const> candidates,
                                         const scheduling::Requirements& requirements,
                                         const api::ResourceList& requests) {
  const size_t hash = HashExceptHostname(requirements);
  const std::vector<bool>* compatible = nullptr;
  std::vector<bool> uncached;
  std::vector<size_t>& same_hash = index_[hash];
  for (size_t index : same_hash) {
    if (EqualExceptHostname(requirements, entries_[index].requirements)) {
      compatible = &entries_[index].compatible;
      break;
    }
  }
  if (compatible == nullptr && entries_.size() < kMaxEntries) {
    Entry entry{requirements, Compute(requirements)};
    entry.requirements.Remove(api::kLabelHostname);
    same_hash.push_back(entries_.size());
    entries_.push_back(std::move(entry));
    compatible = &entries_.back().compatible;
  } else if (compatible == nullptr) {
    uncached = Compute(requirements);
    compatible = &uncached;
  }
  const FitChecker fit(requests);
  CandidateList out;
  out.reserve(candidates.size());
  for (const TypeCandidate* candidate : candidates) {
    if ((*compatible)[static_cast<size_t>(candidate - candidates_.data())] &&
        fit.Fits(*candidate)) {
      out.push_back(candidate);
    }
  }
  return out;
}

}  // namespace karpenter::provisioning
