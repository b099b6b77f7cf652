// Rules on spec.kubelet (the v1.14.1 typed KubeletConfiguration).
#include <array>
#include <string>
#include <string_view>

#include "absl/strings/match.h"
#include "src/api/ec2nodeclass_validation_internal.h"

namespace karpenter::api::ec2nodeclass_internal {
namespace {

constexpr std::array<std::string_view, 4> kReservedResources = {"cpu", "memory",
                                                                "ephemeral-storage", "pid"};
constexpr std::array<std::string_view, 6> kEvictionSignals = {
    "memory.available",  "nodefs.available",   "nodefs.inodesFree",
    "imagefs.available", "imagefs.inodesFree", "pid.available"};

template <size_t N>
bool OneOf(const std::array<std::string_view, N>& set, std::string_view value) {
  for (std::string_view member : set) {
    if (member == value) return true;
  }
  return false;
}

// systemReserved / kubeReserved: known resource keys, quantity values, never negative.
void ValidateReserved(const std::map<std::string, std::string>& reserved, std::string_view name,
                      const std::string& path, FieldErrors* errors) {
  const std::string bad_key_message =
      "valid keys for " + std::string(name) + " are ['cpu','memory','ephemeral-storage','pid']";
  const std::string negative_message =
      std::string(name) + " value cannot be a negative resource quantity";
  for (const auto& [key, value] : reserved) {
    const std::string key_path = KeyPath(path, key);
    if (!OneOf(kReservedResources, key)) CelFailure(key_path, kObject, bad_key_message, errors);
    CheckPattern(key_path, value, kQuantityPattern, errors);
    if (absl::StartsWith(value, "-")) CelFailure(key_path, kObject, negative_message, errors);
  }
}

template <class Value>
void ValidateSignalKeys(const std::map<std::string, Value>& signals, std::string_view name,
                        const std::string& path, FieldErrors* errors) {
  const std::string message =
      "valid keys for " + std::string(name) +
      " are ['memory.available','nodefs.available','nodefs.inodesFree','imagefs.available',"
      "'imagefs.inodesFree','pid.available']";
  for (const auto& entry : signals) {
    if (!OneOf(kEvictionSignals, entry.first)) {
      CelFailure(KeyPath(path, entry.first), kObject, message, errors);
    }
  }
}

void ValidateThresholds(const std::map<std::string, std::string>& thresholds, std::string_view name,
                        const std::string& path, FieldErrors* errors) {
  ValidateSignalKeys(thresholds, name, path, errors);
  for (const auto& [key, value] : thresholds) {
    CheckPattern(KeyPath(path, key), value, kEvictionThresholdPattern, errors);
  }
}

template <class A, class B>
bool KeysContained(const std::map<std::string, A>& subset, const std::map<std::string, B>& set) {
  for (const auto& entry : subset) {
    if (set.find(entry.first) == set.end()) return false;
  }
  return true;
}

}  // namespace

void ValidateKubelet(const KubeletConfiguration& kubelet, const std::string& path,
                     FieldErrors* errors) {
  if (kubelet.max_pods) CheckMinimum(ChildPath(path, "maxPods"), *kubelet.max_pods, 0, errors);
  if (kubelet.pods_per_core) {
    CheckMinimum(ChildPath(path, "podsPerCore"), *kubelet.pods_per_core, 0, errors);
  }
  ValidateReserved(kubelet.system_reserved, "systemReserved", ChildPath(path, "systemReserved"),
                   errors);
  ValidateReserved(kubelet.kube_reserved, "kubeReserved", ChildPath(path, "kubeReserved"), errors);
  ValidateThresholds(kubelet.eviction_hard, "evictionHard", ChildPath(path, "evictionHard"),
                     errors);
  ValidateThresholds(kubelet.eviction_soft, "evictionSoft", ChildPath(path, "evictionSoft"),
                     errors);
  ValidateSignalKeys(kubelet.eviction_soft_grace_period, "evictionSoftGracePeriod",
                     ChildPath(path, "evictionSoftGracePeriod"), errors);
  if (kubelet.image_gc_high_threshold_percent) {
    CheckRange(ChildPath(path, "imageGCHighThresholdPercent"),
               *kubelet.image_gc_high_threshold_percent, 0, 100, errors);
  }
  if (kubelet.image_gc_low_threshold_percent) {
    CheckRange(ChildPath(path, "imageGCLowThresholdPercent"),
               *kubelet.image_gc_low_threshold_percent, 0, 100, errors);
  }
  if (kubelet.image_gc_high_threshold_percent && kubelet.image_gc_low_threshold_percent &&
      *kubelet.image_gc_high_threshold_percent <= *kubelet.image_gc_low_threshold_percent) {
    CelFailure(path, kObject,
               "imageGCHighThresholdPercent must be greater than imageGCLowThresholdPercent",
               errors);
  }
  // Soft thresholds and their grace periods must name the same signals, both ways.
  if (!KeysContained(kubelet.eviction_soft, kubelet.eviction_soft_grace_period)) {
    CelFailure(path, kObject,
               "evictionSoft OwnerKey does not have a matching evictionSoftGracePeriod", errors);
  }
  if (!KeysContained(kubelet.eviction_soft_grace_period, kubelet.eviction_soft)) {
    CelFailure(path, kObject,
               "evictionSoftGracePeriod OwnerKey does not have a matching evictionSoft", errors);
  }
}

}  // namespace karpenter::api::ec2nodeclass_internal
