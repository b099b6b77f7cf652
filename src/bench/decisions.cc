#include "src/bench/decisions.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "nlohmann/json.hpp"
#include "src/bench/scheduling_solve.h"

namespace karpenter::bench {
namespace {

using Json = nlohmann::json;

absl::Status FieldError(const std::string& path, const std::string& problem) {
  return absl::InvalidArgumentError(absl::StrCat(path, ": ", problem));
}

absl::StatusOr<std::vector<std::string>> Strings(const Json& value, const std::string& path) {
  std::vector<std::string> out;
  if (value.is_null()) return out;  // Go writes an empty list as null.
  if (!value.is_array()) return FieldError(path, "want array");
  for (size_t i = 0; i < value.size(); ++i) {
    if (!value[i].is_string()) return FieldError(absl::StrCat(path, "[", i, "]"), "want string");
    out.push_back(value[i].get<std::string>());
  }
  return out;
}

absl::StatusOr<const Json*> Field(const Json& object, const std::string& path, const char* name) {
  auto found = object.find(name);
  if (found == object.end()) return FieldError(absl::StrCat(path, ".", name), "required");
  return &*found;
}

absl::StatusOr<ClaimDecision> ParseClaim(const Json& item, const std::string& path) {
  if (!item.is_object()) return FieldError(path, "want object");
  ClaimDecision claim;
  KP_ASSIGN_OR_RETURN(const Json* node_pool, Field(item, path, "nodePool"));
  KP_ASSIGN_OR_RETURN(const Json* pods, Field(item, path, "pods"));
  KP_ASSIGN_OR_RETURN(const Json* type, Field(item, path, "instanceType"));
  KP_ASSIGN_OR_RETURN(const Json* price, Field(item, path, "price"));
  KP_ASSIGN_OR_RETURN(const Json* zones, Field(item, path, "zones"));
  KP_ASSIGN_OR_RETURN(const Json* capacity_types, Field(item, path, "capacityTypes"));
  if (!node_pool->is_string()) return FieldError(absl::StrCat(path, ".nodePool"), "want string");
  if (!type->is_string()) return FieldError(absl::StrCat(path, ".instanceType"), "want string");
  if (!price->is_number()) return FieldError(absl::StrCat(path, ".price"), "want number");
  claim.node_pool = node_pool->get<std::string>();
  claim.instance_type = type->get<std::string>();
  claim.price = price->get<double>();
  KP_ASSIGN_OR_RETURN(claim.pods, Strings(*pods, absl::StrCat(path, ".pods")));
  KP_ASSIGN_OR_RETURN(claim.zones, Strings(*zones, absl::StrCat(path, ".zones")));
  KP_ASSIGN_OR_RETURN(claim.capacity_types,
                      Strings(*capacity_types, absl::StrCat(path, ".capacityTypes")));
  return claim;
}

// A claim as DiffDecisions compares it: its pods as a set.
ClaimDecision Canonical(ClaimDecision claim) {
  std::sort(claim.pods.begin(), claim.pods.end());
  std::sort(claim.zones.begin(), claim.zones.end());
  std::sort(claim.capacity_types.begin(), claim.capacity_types.end());
  return claim;
}

std::string Describe(const ClaimDecision& claim) {
  return absl::StrCat(claim.node_pool, " ", claim.instance_type, " $", claim.price, " zones [",
                      absl::StrJoin(claim.zones, " "), "] capacity types [",
                      absl::StrJoin(claim.capacity_types, " "), "] pods [",
                      absl::StrJoin(claim.pods, " "), "]");
}

bool SamePrice(double a, double b) {
  return std::fabs(a - b) <= 1e-9 * std::max({1.0, std::fabs(a), std::fabs(b)});
}

}  // namespace

Decisions DecisionsOf(const provisioning::SchedulerResult& result) {
  Decisions decisions;
  for (const provisioning::NewNodeClaim& claim : result.new_node_claims) {
    decisions.node_claims.push_back(
        {claim.node_pool, claim.pods,
         claim.instance_types.empty() ? std::string() : claim.instance_types[0],
         NodeClaimPrice(claim), claim.zones, claim.capacity_types});
  }
  decisions.existing_nodes = result.existing_node_pods;
  decisions.unschedulable = result.unschedulable;
  return decisions;
}

std::string EncodeDecisions(const Decisions& decisions) {
  nlohmann::ordered_json document;
  nlohmann::ordered_json claims = nlohmann::ordered_json::array();
  for (const ClaimDecision& claim : decisions.node_claims) {
    claims.push_back({{"nodePool", claim.node_pool},
                      {"pods", claim.pods},
                      {"instanceType", claim.instance_type},
                      {"price", claim.price},
                      {"zones", claim.zones},
                      {"capacityTypes", claim.capacity_types}});
  }
  document["nodeClaims"] = std::move(claims);
  document["existingNodes"] = decisions.existing_nodes;
  document["unschedulable"] = decisions.unschedulable;
  return document.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

absl::StatusOr<Decisions> ParseDecisions(std::string_view json) {
  const Json document = Json::parse(json.begin(), json.end(), nullptr, /*allow_exceptions=*/false);
  if (document.is_discarded()) return absl::InvalidArgumentError("decisions: not valid JSON");
  if (!document.is_object()) return FieldError("decisions", "want object");
  Decisions decisions;
  KP_ASSIGN_OR_RETURN(const Json* claims, Field(document, "decisions", "nodeClaims"));
  if (!claims->is_array() && !claims->is_null()) {
    return FieldError("decisions.nodeClaims", "want array");
  }
  for (size_t i = 0; claims->is_array() && i < claims->size(); ++i) {
    KP_ASSIGN_OR_RETURN(ClaimDecision claim,
                        ParseClaim((*claims)[i], absl::StrCat("decisions.nodeClaims[", i, "]")));
    decisions.node_claims.push_back(std::move(claim));
  }
  if (auto existing = document.find("existingNodes");
      existing != document.end() && !existing->is_null()) {
    if (!existing->is_object()) return FieldError("decisions.existingNodes", "want object");
    for (const auto& [node, pods] : existing->items()) {
      KP_ASSIGN_OR_RETURN(decisions.existing_nodes[node],
                          Strings(pods, absl::StrCat("decisions.existingNodes.", node)));
    }
  }
  if (auto unschedulable = document.find("unschedulable");
      unschedulable != document.end() && !unschedulable->is_null()) {
    if (!unschedulable->is_object()) return FieldError("decisions.unschedulable", "want object");
    for (const auto& [pod, reason] : unschedulable->items()) {
      if (!reason.is_string()) {
        return FieldError(absl::StrCat("decisions.unschedulable.", pod), "want string");
      }
      decisions.unschedulable[pod] = reason.get<std::string>();
    }
  }
  return decisions;
}

std::vector<std::string> DiffDecisions(const Decisions& expected, const Decisions& actual) {
  std::vector<std::string> out;
  // Claims keyed by their smallest pod: a partition has each pod in one claim.
  auto by_first_pod = [](const Decisions& decisions) {
    std::map<std::string, ClaimDecision> claims;
    for (const ClaimDecision& claim : decisions.node_claims) {
      ClaimDecision canonical = Canonical(claim);
      const std::string key = canonical.pods.empty() ? std::string() : canonical.pods[0];
      claims.emplace(key, std::move(canonical));
    }
    return claims;
  };
  const std::map<std::string, ClaimDecision> want = by_first_pod(expected);
  const std::map<std::string, ClaimDecision> got = by_first_pod(actual);
  if (expected.node_claims.size() != actual.node_claims.size()) {
    out.push_back(absl::StrCat("nodeClaims: want ", expected.node_claims.size(), ", got ",
                               actual.node_claims.size()));
  }
  for (const auto& [key, claim] : want) {
    auto found = got.find(key);
    if (found == got.end()) {
      out.push_back(absl::StrCat("missing claim: ", Describe(claim)));
      continue;
    }
    const ClaimDecision& other = found->second;
    if (claim.node_pool != other.node_pool || claim.pods != other.pods ||
        claim.instance_type != other.instance_type || !SamePrice(claim.price, other.price) ||
        claim.zones != other.zones || claim.capacity_types != other.capacity_types) {
      out.push_back(
          absl::StrCat("claim differs:\n  want ", Describe(claim), "\n  got  ", Describe(other)));
    }
  }
  for (const auto& [key, claim] : got) {
    if (!want.contains(key)) out.push_back(absl::StrCat("extra claim: ", Describe(claim)));
  }
  for (const auto& [node, pods] : expected.existing_nodes) {
    auto found = actual.existing_nodes.find(node);
    std::vector<std::string> want_pods = pods;
    std::vector<std::string> got_pods =
        found == actual.existing_nodes.end() ? std::vector<std::string>() : found->second;
    std::sort(want_pods.begin(), want_pods.end());
    std::sort(got_pods.begin(), got_pods.end());
    if (want_pods != got_pods) {
      out.push_back(absl::StrCat("node ", node, ": want [", absl::StrJoin(want_pods, " "),
                                 "], got [", absl::StrJoin(got_pods, " "), "]"));
    }
  }
  for (const auto& [node, pods] : actual.existing_nodes) {
    if (!expected.existing_nodes.contains(node) && !pods.empty()) {
      out.push_back(
          absl::StrCat("node ", node, ": want none, got [", absl::StrJoin(pods, " "), "]"));
    }
  }
  for (const auto& [pod, reason] : expected.unschedulable) {
    if (!actual.unschedulable.contains(pod)) {
      out.push_back(absl::StrCat("want ", pod, " unschedulable (", reason, "), got scheduled"));
    }
  }
  for (const auto& [pod, reason] : actual.unschedulable) {
    if (!expected.unschedulable.contains(pod)) {
      out.push_back(absl::StrCat("want ", pod, " scheduled, got unschedulable: ", reason));
    }
  }
  return out;
}

}  // namespace karpenter::bench
