// The set of "well-known" label keys the scheduler is told about: keys a NodePool may leave
// undefined while a pod still selects on them (Requirements::Compatible in upstream's
// AllowUndefinedWellKnownLabels mode), and keys NodeClaim label resolution skips. The set is data
// the caller owns and passes by reference, so the scheduling library stays provider-agnostic;
// the key spellings, the beta-key aliases and admission's restricted-label rules live in
// src/api/karpenter_labels.h.
#pragma once

#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_set.h"

namespace karpenter::scheduling {

// The eight keys upstream core declares well known (v1.WellKnownLabels before a provider adds
// its own).
std::span<const std::string_view> CoreWellKnownLabelKeys();

// A set of label keys. Lookups are O(1) and allocation-free; `Sorted()` gives the deterministic
// order used for error hints.
class WellKnownLabels {
 public:
  // The empty set: nothing may be left undefined ("strict" compatibility).
  WellKnownLabels() = default;
  WellKnownLabels(std::initializer_list<std::string_view> keys);
  explicit WellKnownLabels(std::span<const std::string_view> keys);

  // Core keys only.
  static WellKnownLabels Core();
  // Core keys plus the AWS provider's (api::WellKnownLabels()), what the AWS build schedules with.
  static WellKnownLabels CoreAndAws();

  void Insert(std::string_view key);
  void Insert(std::span<const std::string_view> keys);
  // absl here has its own string_view type, hence the conversion.
  bool Contains(std::string_view key) const {
    return set_.contains(absl::string_view(key.data(), key.size()));
  }
  size_t size() const { return sorted_.size(); }
  const std::vector<std::string>& Sorted() const { return sorted_; }

  bool operator==(const WellKnownLabels& other) const { return sorted_ == other.sorted_; }

 private:
  absl::flat_hash_set<std::string> set_;
  std::vector<std::string> sorted_;
};

}  // namespace karpenter::scheduling
