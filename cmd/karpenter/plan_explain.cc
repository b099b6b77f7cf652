#include "cmd/karpenter/plan_explain.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "fmt/format.h"
#include "src/api/json_writer.h"
#include "src/api/karpenter_labels.h"
#include "src/disruption/verdict_report.h"
#include "src/provisioning/existing_node_fit.h"
#include "src/provisioning/launch.h"
#include "src/provisioning/scheduler.h"

namespace karpenter::cli {
namespace {

std::string LaunchText(const provisioning::LaunchPrediction& launch) {
  return fmt::format("{} {} in {} (${:.4f}/h)", launch.capacity_type, launch.instance_type,
                     launch.zone, launch.price);
}

// Where the plan puts `key`, or empty when it does not mention the pod.
std::string PlannedPlace(const std::string& key, const provisioning::PlanResult& plan) {
  for (size_t i = 0; i < plan.node_claims.size(); ++i) {
    const provisioning::PlannedNodeClaim& planned = plan.node_claims[i];
    const std::vector<std::string>& pods = planned.claim.pods;
    if (std::find(pods.begin(), pods.end(), key) == pods.end()) continue;
    return fmt::format("lands on new NodeClaim #{} of nodepool {}: {}", i + 1,
                       planned.claim.node_pool, LaunchText(planned.launch));
  }
  for (const provisioning::PlannedExistingNode& node : plan.existing_nodes) {
    if (std::find(node.pods.begin(), node.pods.end(), key) != node.pods.end()) {
      return "lands on existing node " + node.name;
    }
  }
  for (const provisioning::UnschedulablePod& pod : plan.unschedulable) {
    if (pod.pod == key) return "unschedulable: " + pod.reason;
  }
  return "";
}

// One NodePool alone, with no existing node to fall back on: the scheduler's own answer.
ExplainItem TryPool(const provisioning::SchedulerInput& input, size_t pool, const api::Pod& pod) {
  provisioning::SchedulerInput alone = input;
  alone.node_pools = {input.node_pools[pool]};
  alone.existing_nodes.clear();
  alone.pending_pods = {pod};
  alone.moving_pods.clear();
  const std::string key = provisioning::PodKey(pod);
  ExplainItem item{input.node_pools[pool].node_pool.metadata.name, false, ""};
  const provisioning::SchedulerResult solved = provisioning::Solve(alone);
  if (auto it = solved.unschedulable.find(key); it != solved.unschedulable.end()) {
    item.reason = it->second;
    return item;
  }
  if (solved.new_node_claims.empty()) {
    item.reason = "the solve placed no NodeClaim for the pod";
    return item;
  }
  const provisioning::NewNodeClaim& claim = solved.new_node_claims.front();
  absl::StatusOr<provisioning::LaunchPrediction> launch = provisioning::PredictLaunch(claim);
  if (!launch.ok()) {
    item.reason = std::string(launch.status().message());
    return item;
  }
  item.acts = true;
  item.reason = fmt::format("fits: {} compatible instance type{}; would launch {}",
                            claim.instance_types.size(),
                            claim.instance_types.size() == 1 ? "" : "s", LaunchText(*launch));
  return item;
}

std::string CommandText(const disruption::Command& command) {
  std::string out =
      fmt::format("{} ({}): {} with {} replacement{}, saves ${:.4f}/h",
                  disruption::MethodName(command.method), disruption::ReasonName(command.reason),
                  command.replacements.empty() ? "delete" : "replace", command.replacements.size(),
                  command.replacements.size() == 1 ? "" : "s", command.savings_per_hour);
  if (!command.detail.empty()) out += "; " + command.detail;
  return out;
}

bool NoteConcerns(const std::string& note, const std::string& node, const std::string& pool) {
  if (note.rfind(node + ":", 0) == 0 || note.rfind(node + " ", 0) == 0) return true;
  if (note.find(" " + node + " ") != std::string::npos) return true;
  return !pool.empty() && note.rfind("nodepool " + pool + " ", 0) == 0;
}

}  // namespace

absl::StatusOr<ExplainTarget> ParseExplainTarget(const std::string& text) {
  const std::vector<std::string> parts = absl::StrSplit(text, '/');
  if (parts.size() == 3 && parts[0] == "pod" && !parts[1].empty() && !parts[2].empty()) {
    return ExplainTarget{"pod", parts[1], parts[2]};
  }
  if (parts.size() == 2 && parts[0] == "node" && !parts[1].empty()) {
    return ExplainTarget{"node", "", parts[1]};
  }
  return absl::InvalidArgumentError(
      absl::StrCat("--explain \"", text, "\": want pod/NAMESPACE/NAME or node/NAME"));
}

absl::StatusOr<Explanation> ExplainPod(const ExplainTarget& target,
                                       const state::ClusterSnapshot& snapshot,
                                       const provisioning::SnapshotSchedulerInput& input,
                                       const provisioning::PlanResult& plan) {
  const std::string key = absl::StrCat(target.namespace_, "/", target.name);
  const api::Pod* pod = snapshot.FindPod(target.namespace_, target.name);
  if (pod == nullptr) {
    return absl::NotFoundError(absl::StrCat("--explain: the input has no pod ", key));
  }
  Explanation out{absl::StrCat("pod/", key), PlannedPlace(key, plan), {}};
  // A bound pod is asked about as if it were pending: would the pools take it elsewhere?
  api::Pod pending = *pod;
  for (const api::Pod& candidate : input.input.pending_pods) {
    if (provisioning::PodKey(candidate) == key) pending = candidate;
  }
  if (out.verdict.empty()) {
    out.verdict =
        pod->spec.node_name.empty()
            ? "not planned: Karpenter does not provision for it (a DaemonSet or static "
              "pod, terminal, deleting, nominated or gated)"
            : absl::StrCat("bound to node ", pod->spec.node_name,
                           "; below, where the NodePools could put it if it were pending");
  }
  pending.spec.node_name.clear();
  // The solve tries the existing nodes and in-flight NodeClaims before any NodePool.
  for (const provisioning::ExistingNodeFit& fit :
       provisioning::ExplainExistingNodes(input.input, pending)) {
    if (fit.node == pod->spec.node_name) continue;  // its requests are already counted there
    out.items.push_back({absl::StrCat(fit.initialized ? "node " : "in-flight node ", fit.node),
                         fit.refusal.empty(),
                         fit.refusal.empty() ? "fits (the pod alone)" : fit.refusal});
  }
  for (size_t pool = 0; pool < input.input.node_pools.size(); ++pool) {
    out.items.push_back(TryPool(input.input, pool, pending));
  }
  for (const std::string& not_ready : input.not_ready_node_pools) {
    out.items.push_back({"(not ready)", false, not_ready});
  }
  if (snapshot.node_pools().empty()) {
    out.items.push_back({"(none)", false, "no NodePools in the input"});
  }
  return out;
}

absl::StatusOr<Explanation> ExplainNode(const ExplainTarget& target,
                                        const state::ClusterSnapshot& snapshot,
                                        const disruption::DisruptionResult& result) {
  const api::Node* node = snapshot.FindNode(target.name);
  if (node == nullptr) {
    return absl::NotFoundError(absl::StrCat("--explain: the input has no node ", target.name));
  }
  Explanation out{absl::StrCat("node/", target.name), "", {}};
  for (const disruption::Command& command : result.commands) {
    if (std::find(command.candidates.begin(), command.candidates.end(), target.name) ==
        command.candidates.end()) {
      continue;
    }
    out.items.push_back(
        {std::string(disruption::MethodName(command.method)), true, CommandText(command)});
    if (out.verdict.empty()) {
      out.verdict = "disrupted now by " + std::string(disruption::MethodName(command.method));
    }
  }
  for (const disruption::BlockedNode& blocked : result.blocked) {
    if (blocked.node == target.name)
      out.items.push_back({"not a candidate", false, blocked.reason});
  }
  auto pool = node->metadata.labels.find(std::string(api::kNodePoolLabelKey));
  const std::string pool_name = pool == node->metadata.labels.end() ? "" : pool->second;
  for (const std::string& note : result.notes) {
    if (NoteConcerns(note, target.name, pool_name)) out.items.push_back({"note", false, note});
  }
  for (const disruption::MethodVerdict& verdict : result.verdicts) {
    if (verdict.node == target.name) out.methods.push_back(verdict);
  }
  if (out.verdict.empty()) {
    out.verdict =
        out.items.empty() ? "left alone: no disruption method acts on it now" : "left alone now";
  }
  return out;
}

std::string EncodeExplanationJson(const Explanation& explanation) {
  api::JsonWriter json;
  json.BeginObject();
  json.Key("target");
  json.String(explanation.target);
  json.Key("verdict");
  json.String(explanation.verdict);
  json.Key("items");
  json.BeginArray();
  for (const ExplainItem& item : explanation.items) {
    json.BeginObject();
    json.Key("subject");
    json.String(item.subject);
    json.Key("acts");
    json.Bool(item.acts);
    json.Key("reason");
    json.String(item.reason);
    json.EndObject();
  }
  json.EndArray();
  if (explanation.target.rfind("node/", 0) == 0) {
    json.Key("methods");
    json.BeginArray();
    for (const disruption::MethodVerdict& verdict : explanation.methods) {
      disruption::WriteVerdictJson(json, verdict);
    }
    json.EndArray();
  }
  json.EndObject();
  return json.Take();
}

std::string RenderExplanationText(const Explanation& explanation) {
  std::string out = fmt::format("{}: {}\n", explanation.target, explanation.verdict);
  for (const ExplainItem& item : explanation.items) {
    out += fmt::format("  {} {}: {}\n", item.acts ? "+" : "-", item.subject, item.reason);
  }
  if (!explanation.methods.empty()) out += "  disruption methods, in the order they run:\n";
  for (const disruption::MethodVerdict& verdict : explanation.methods) {
    out += disruption::RenderVerdictText(verdict);
  }
  return out;
}

}  // namespace karpenter::cli
