// Upstream: pkg/apis/v1/labels.go (WellKnownLabels, AllowUndefinedWellKnownLabels)
#include "src/scheduling/well_known_labels.h"

#include <algorithm>
#include <array>

#include "src/api/karpenter_labels.h"

namespace karpenter::scheduling {
namespace {

constexpr std::array<std::string_view, 8> kCoreWellKnown = {
    api::kNodePoolLabelKey,        api::kLabelTopologyZone, api::kLabelTopologyRegion,
    api::kLabelInstanceTypeStable, api::kLabelArchStable,   api::kLabelOSStable,
    api::kCapacityTypeLabelKey,    api::kLabelWindowsBuild,
};

}  // namespace

std::span<const std::string_view> CoreWellKnownLabelKeys() { return kCoreWellKnown; }

WellKnownLabels::WellKnownLabels(std::initializer_list<std::string_view> keys) {
  Insert(std::span<const std::string_view>(keys.begin(), keys.size()));
}

WellKnownLabels::WellKnownLabels(std::span<const std::string_view> keys) { Insert(keys); }

WellKnownLabels WellKnownLabels::Core() { return WellKnownLabels(CoreWellKnownLabelKeys()); }

WellKnownLabels WellKnownLabels::CoreAndAws() {
  // Built once and copied: every SchedulerOptions starts from this set, and a disruption poll
  // makes several, where sorting 37 keys in one by one cost more than copying them.
  static const WellKnownLabels* const kLabels = [] {
    auto* labels = new WellKnownLabels(CoreWellKnownLabelKeys());
    labels->Insert(api::WellKnownLabels());
    return labels;
  }();
  return *kLabels;
}

void WellKnownLabels::Insert(std::string_view key) {
  if (!set_.emplace(key.data(), key.size()).second) return;
  sorted_.insert(std::lower_bound(sorted_.begin(), sorted_.end(), key), std::string(key));
}

void WellKnownLabels::Insert(std::span<const std::string_view> keys) {
  for (std::string_view key : keys) Insert(key);
}

}  // namespace karpenter::scheduling
