#include "src/disruption/verdict_report.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "fmt/format.h"
#include "src/provisioning/drain_report.h"
#include "src/provisioning/plan.h"

namespace karpenter::disruption {
namespace {

void WriteNames(api::JsonWriter& json, const std::vector<std::string>& names) {
  json.BeginArray();
  for (const std::string& name : names) json.String(name);
  json.EndArray();
}

void WriteBudget(api::JsonWriter& json, const BudgetCount& count) {
  json.BeginObject();
  json.Key("nodePool");
  json.String(count.node_pool);
  json.Key("reason");
  json.String(ReasonName(count.reason));
  json.Key("allowed");
  json.Int(count.budget.allowed);
  json.Key("disrupting");
  json.Int(count.budget.disrupting);
  json.Key("nodes");
  json.Int(count.budget.nodes);
  json.Key("remaining");
  json.Int(count.budget.remaining);
  json.EndObject();
}

std::string LaunchText(const provisioning::LaunchPrediction& launch) {
  return fmt::format("{} {} in {} (${:.4f}/h)", launch.capacity_type, launch.instance_type,
                     launch.zone, launch.price);
}

std::string AllowedText(int allowed) {
  return allowed == kUnlimitedDisruptions ? "unlimited" : std::to_string(allowed);
}

}  // namespace

void WriteVerdictJson(api::JsonWriter& json, const MethodVerdict& verdict) {
  json.BeginObject();
  json.Key("method");
  json.String(MethodName(verdict.method));
  json.Key("acts");
  json.Bool(verdict.acts());
  json.Key("code");
  json.String(VerdictCodeName(verdict.code));
  json.Key("message");
  json.String(verdict.message);
  if (verdict.time_left) {
    json.Key("timeLeftSeconds");
    json.Double(verdict.time_left->Seconds());
  }
  if (verdict.budget) {
    json.Key("budget");
    WriteBudget(json, *verdict.budget);
  }
  json.Key("doNotDisrupt");
  json.Bool(verdict.do_not_disrupt);
  json.Key("blockingPdbs");
  WriteNames(json, verdict.blocking_pdbs);
  json.Key("blockingPods");
  WriteNames(json, verdict.blocking_pods);
  if (verdict.balanced) {
    json.Key("balanced");
    json.BeginObject();
    json.Key("score");
    // A move that disrupts nothing scores infinity, which JSON cannot hold.
    if (std::isfinite(verdict.balanced->score)) {
      json.Double(verdict.balanced->score);
    } else {
      json.Null();
    }
    json.Key("threshold");
    json.Double(verdict.balanced->threshold);
    json.EndObject();
  }
  json.Key("replacements");
  json.BeginArray();
  for (const provisioning::LaunchPrediction& launch : verdict.replacements) {
    json.BeginObject();
    json.Key("instanceType");
    json.String(launch.instance_type);
    json.Key("capacityType");
    json.String(launch.capacity_type);
    json.Key("zone");
    json.String(launch.zone);
    json.Key("pricePerHour");
    json.Double(provisioning::RoundPrice(launch.price));
    json.EndObject();
  }
  json.EndArray();
  json.EndObject();
}

std::string RenderVerdictText(const MethodVerdict& verdict) {
  std::string out =
      fmt::format("    {} {} [{}]: {}\n", verdict.acts() ? "+" : "-", MethodName(verdict.method),
                  VerdictCodeName(verdict.code), verdict.message);
  if (verdict.budget) {
    const PoolBudget& budget = verdict.budget->budget;
    out += fmt::format(
        "        budget for {} of nodepool {}: {} allowed, {} of {} nodes disrupting, {} left\n",
        ReasonName(verdict.budget->reason), verdict.budget->node_pool, AllowedText(budget.allowed),
        budget.disrupting, budget.nodes, AllowedText(budget.remaining));
  }
  if (verdict.do_not_disrupt) out += "        karpenter.sh/do-not-disrupt is set\n";
  if (!verdict.blocking_pdbs.empty()) {
    out += fmt::format("        blocking PDBs: {}\n", fmt::join(verdict.blocking_pdbs, ", "));
  }
  if (!verdict.blocking_pods.empty()) {
    out += fmt::format("        blocking pods: {}\n", fmt::join(verdict.blocking_pods, ", "));
  }
  if (verdict.balanced) {
    out += fmt::format("        Balanced score {:.3f} against threshold {:.3f}\n",
                       verdict.balanced->score, verdict.balanced->threshold);
  }
  for (const provisioning::LaunchPrediction& launch : verdict.replacements) {
    out += "        replacement: " + LaunchText(launch) + "\n";
  }
  return out;
}

void WriteNodeNotesJson(api::JsonWriter& json, const DisruptionResult& result) {
  std::set<std::string> acting;
  for (const Command& command : result.commands) {
    acting.insert(command.candidates.begin(), command.candidates.end());
  }
  std::set<std::string> not_candidates;
  json.BeginArray();
  for (const MethodVerdict& verdict : result.verdicts) {
    if (acting.contains(verdict.node) || verdict.code == VerdictCode::kNotEvaluated ||
        verdict.code == VerdictCode::kNotStaticPool) {
      continue;
    }
    const bool not_candidate = verdict.code == VerdictCode::kNotCandidate;
    if (not_candidate && !not_candidates.insert(verdict.node).second) continue;
    json.BeginObject();
    json.Key("node");
    json.String(verdict.node);
    json.Key("method");
    json.String(not_candidate ? "" : MethodName(verdict.method));
    json.Key("code");
    json.String(VerdictCodeName(verdict.code));
    json.Key("message");
    json.String(verdict.message);
    json.EndObject();
  }
  json.EndArray();
}

}  // namespace karpenter::disruption
