// Test helpers for NodePool/NodeClaim tests: the migration article's NodePool built in code, and
// assertions on field errors.
#pragma once

#include <string>
#include <string_view>

#include "src/api/field_errors.h"
#include "src/api/nodepool.h"

namespace karpenter::api::np_test {

inline Duration MustDuration(std::string_view text) { return *Duration::Parse(text); }
inline NillableDuration MustNillable(std::string_view text) {
  return *NillableDuration::Parse(text);
}

// The article's NodePool (Phase 2 of the migration), as decoding would produce it, defaulted.
inline NodePool ArticleNodePool() {
  NodePool pool;
  pool.metadata.name = "default";
  NodeClaimTemplateSpec& spec = pool.spec.template_.spec;
  spec.node_class_ref =
      NodeClassReference{.kind = "EC2NodeClass", .name = "default", .group = "karpenter.k8s.aws"};
  spec.requirements = {
      {.key = "karpenter.k8s.aws/instance-category", .operator_ = "In", .values = {"c", "m", "r"}},
      {.key = "karpenter.k8s.aws/instance-generation", .operator_ = "Gt", .values = {"5"}},
      {.key = "kubernetes.io/arch", .operator_ = "In", .values = {"amd64", "arm64"}},
      {.key = "karpenter.sh/capacity-type", .operator_ = "In", .values = {"spot", "on-demand"}},
  };
  spec.expire_after = MustNillable("720h");
  pool.spec.limits = {{"cpu", *Quantity::Parse("1000")}, {"memory", *Quantity::Parse("2000Gi")}};
  Disruption disruption;
  disruption.consolidation_policy = "WhenEmptyOrUnderutilized";
  disruption.consolidate_after = MustNillable("1m");
  disruption.budgets = std::vector<Budget>{{.nodes = "10%"}};
  pool.spec.disruption = disruption;
  ApplyDefaults(pool);
  return pool;
}

// All errors, one per line, for failure messages.
inline std::string Dump(const FieldErrors& errors) {
  std::string out;
  for (const FieldError& e : errors.errors()) out += "\n  " + e.ToString();
  return out;
}

// True when some error has exactly `path` and a message containing `substring`.
inline bool HasError(const FieldErrors& errors, std::string_view path, std::string_view substring) {
  for (const FieldError& e : errors.errors()) {
    if (e.path == path && e.message.find(substring) != std::string::npos) return true;
  }
  return false;
}

}  // namespace karpenter::api::np_test
