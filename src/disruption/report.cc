#include "src/disruption/report.h"

#include <map>
#include <set>
#include <vector>

#include "fmt/format.h"
#include "src/api/json_writer.h"
#include "src/disruption/verdict_report.h"

namespace karpenter::disruption {
namespace {

void WriteCommand(api::JsonWriter& json, const Command& command) {
  json.BeginObject();
  json.Key("method");
  json.String(MethodName(command.method));
  json.Key("reason");
  json.String(ReasonName(command.reason));
  json.Key("candidates");
  json.BeginArray();
  for (const std::string& node : command.candidates) json.String(node);
  json.EndArray();
  json.Key("replacements");
  json.BeginArray();
  for (const provisioning::PlannedNodeClaim& claim : command.replacements) {
    provisioning::WriteNodeClaimJson(json, claim);
  }
  json.EndArray();
  json.Key("savingsPerHour");
  json.Double(provisioning::RoundPrice(command.savings_per_hour));
  // Why these nodes (the upstream drift reason, the expiry instant), when the method says.
  if (!command.detail.empty()) {
    json.Key("detail");
    json.String(command.detail);
  }
  json.EndObject();
}

std::string JoinNames(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " and " : ", ";
    out += names[i];
  }
  return out;
}

std::string Verb(const Command& command) {
  if (command.method == Method::kExpiration) return "expire";
  return command.replacements.empty() ? "delete" : "replace";
}

std::string Explain(const Command& command) {
  const std::string nodes = JoinNames(command.candidates);
  std::string out =
      fmt::format("{} node{} {}", Verb(command), command.candidates.size() == 1 ? "" : "s", nodes);
  if (!command.replacements.empty()) {
    std::vector<std::string> launches;
    for (const auto& claim : command.replacements) {
      launches.push_back(fmt::format("{} {} in {} (${:.4f}/h)", claim.launch.capacity_type,
                                     claim.launch.instance_type, claim.launch.zone,
                                     claim.launch.price));
    }
    out += " with " + JoinNames(launches);
  }
  std::set<std::string> targets;
  for (const auto& [pod, destination] : command.destinations) targets.insert(destination);
  if (command.method == Method::kStaticDrift) {
    // Upstream simulates nothing here: the evicted pods go pending and the scheduler places them.
    out += ", its pods are evicted and rescheduled";
  } else if (command.destinations.empty()) {
    out += ", no pods to move";
  } else {
    out += fmt::format(", {} {} move{} to {}", command.candidates.size() == 1 ? "its" : "their",
                       command.destinations.size() == 1
                           ? "1 pod"
                           : fmt::format("{} pods", command.destinations.size()),
                       command.destinations.size() == 1 ? "s" : "",
                       JoinNames(std::vector<std::string>(targets.begin(), targets.end())));
  }
  if (command.savings_per_hour >= 0) {
    out += fmt::format(", saves ${:.4f}/h", command.savings_per_hour);
  } else {
    out += fmt::format(", costs ${:.4f}/h more", -command.savings_per_hour);
  }
  out += fmt::format(" [{}, {}", MethodName(command.method), ReasonName(command.reason));
  if (!command.detail.empty()) out += ": " + command.detail;
  return out + "]\n";
}

}  // namespace

std::string EncodeDisruptionJson(const provisioning::PlanResult& plan,
                                 const DisruptionResult& result) {
  api::JsonWriter json;
  json.BeginObject();
  provisioning::WritePlanFields(json, plan);
  json.Key("commands");
  json.BeginArray();
  for (const Command& command : result.commands) WriteCommand(json, command);
  json.EndArray();
  json.Key("blocked");
  json.BeginArray();
  for (const BlockedNode& blocked : result.blocked) {
    json.BeginObject();
    json.Key("node");
    json.String(blocked.node);
    json.Key("reason");
    json.String(blocked.reason);
    json.EndObject();
  }
  json.EndArray();
  // Why the methods left eligible nodes alone (budgets, failed simulations), as the text says.
  json.Key("notes");
  json.BeginArray();
  for (const std::string& note : result.notes) json.String(note);
  json.EndArray();
  // The same "why", per node and method with a stable code, from the engine's verdicts (empty
  // unless the host asked for them).
  json.Key("nodeNotes");
  WriteNodeNotesJson(json, result);
  json.EndObject();
  return json.Take();
}

std::string RenderDisruptionText(const DisruptionResult& result) {
  std::string out = "disruption:\n";
  if (result.commands.empty()) out += "  no disruption command now\n";
  for (const Command& command : result.commands) out += "  " + Explain(command);
  for (const BlockedNode& blocked : result.blocked) {
    out += fmt::format("  node {} blocked: {}\n", blocked.node, blocked.reason);
  }
  for (const std::string& note : result.notes) out += "  note: " + note + "\n";
  return out;
}

}  // namespace karpenter::disruption
