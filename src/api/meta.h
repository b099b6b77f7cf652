// Object metadata shared by every kind (the subset of metav1.ObjectMeta the engine reads),
// plus status conditions. Field lists (`Fields`) drive both the JSON decoder and encoder,
// so a field declared here round-trips by construction.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "src/api/time.h"

namespace karpenter::api {

struct OwnerReference {
  std::string api_version;
  std::string kind;
  std::string name;
  std::string uid;
  std::optional<bool> controller;
  std::optional<bool> block_owner_deletion;
  bool operator==(const OwnerReference&) const = default;
  template <class V>
  void Fields(V& v) {
    v("apiVersion", api_version);
    v("kind", kind);
    v("name", name);
    v("uid", uid);
    v("controller", controller);
    v("blockOwnerDeletion", block_owner_deletion);
  }
};

struct ObjectMeta {
  std::string name;
  std::string generate_name;
  std::string namespace_;
  std::string uid;
  std::string resource_version;
  int64_t generation = 0;
  std::optional<Time> creation_timestamp;
  std::optional<Time> deletion_timestamp;
  std::optional<int64_t> deletion_grace_period_seconds;
  std::map<std::string, std::string> labels;
  std::map<std::string, std::string> annotations;
  std::vector<OwnerReference> owner_references;
  std::vector<std::string> finalizers;
  bool operator==(const ObjectMeta&) const = default;
  template <class V>
  void Fields(V& v) {
    v("name", name);
    v("generateName", generate_name);
    v("namespace", namespace_);
    v("uid", uid);
    v("resourceVersion", resource_version);
    v("generation", generation);
    v("creationTimestamp", creation_timestamp);
    v("deletionTimestamp", deletion_timestamp);
    v("deletionGracePeriodSeconds", deletion_grace_period_seconds);
    v("labels", labels);
    v("annotations", annotations);
    v("ownerReferences", owner_references);
    v("finalizers", finalizers);
    v.Ignore("managedFields");  // server bookkeeping, never read by the engine
    v.Ignore("selfLink");
  }
};

// metav1.Condition as used by Karpenter's status conditions.
struct Condition {
  std::string type;
  std::string status;  // "True" | "False" | "Unknown"
  int64_t observed_generation = 0;
  std::optional<Time> last_transition_time;
  std::string reason;
  std::string message;
  bool operator==(const Condition&) const = default;
  template <class V>
  void Fields(V& v) {
    v("type", type);
    v("status", status);
    v("observedGeneration", observed_generation);
    v("lastTransitionTime", last_transition_time);
    v("reason", reason);
    v("message", message);
  }
};

// IntOrString for PDB minAvailable/maxUnavailable and similar.
struct IntOrString {
  bool is_int = false;
  int32_t int_value = 0;
  std::string str_value;
  bool operator==(const IntOrString&) const = default;
  std::string ToString() const { return is_int ? std::to_string(int_value) : str_value; }
};

}  // namespace karpenter::api
