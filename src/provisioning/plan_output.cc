// EncodePlanJson and RenderPlanText (declared in plan.h): the two faces of a PlanResult.
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "fmt/format.h"
#include "src/api/json_writer.h"
#include "src/provisioning/plan.h"

namespace karpenter::provisioning {
namespace {

void WriteStrings(api::JsonWriter& json, std::string_view key,
                  const std::vector<std::string>& values) {
  json.Key(key);
  json.BeginArray();
  for (const std::string& value : values) json.String(value);
  json.EndArray();
}

void WriteLaunch(api::JsonWriter& json, const LaunchPrediction& launch) {
  json.Key("launch");
  json.BeginObject();
  json.Key("instanceType");
  json.String(launch.instance_type);
  json.Key("zone");
  json.String(launch.zone);
  json.Key("capacityType");
  json.String(launch.capacity_type);
  json.Key("pricePerHour");
  json.Double(RoundPrice(launch.price));
  json.EndObject();
}

}  // namespace

void WriteNodeClaimJson(api::JsonWriter& json, const PlannedNodeClaim& planned) {
  const NewNodeClaim& claim = planned.claim;
  json.BeginObject();
  json.Key("nodePool");
  json.String(claim.node_pool);
  WriteStrings(json, "instanceTypes", claim.instance_types.vector());
  WriteStrings(json, "capacityTypes", claim.capacity_types);
  WriteStrings(json, "zones", claim.zones);
  WriteLaunch(json, planned.launch);
  WriteStrings(json, "pods", claim.pods);
  json.Key("requests");
  json.BeginObject();
  for (const auto& [name, quantity] : claim.requests) {  // std::map: sorted
    json.Key(name);
    json.String(quantity.String());
  }
  json.EndObject();
  // The launch's own labels (a reservation's) join the claim's, as on the launched NodeClaim;
  // merged here so every producer of replacements (plan, disruption) reports them.
  std::map<std::string, std::string> labels = claim.labels;
  for (auto& [key, value] : LaunchLabels(planned.launch)) labels[key] = std::move(value);
  json.Key("labels");
  json.BeginObject();
  for (const auto& [key, value] : labels) {
    json.Key(key);
    json.String(value);
  }
  json.EndObject();
  // Why this claim: how many types could take its pods, and what the launched one offers against
  // `requests`.
  json.Key("instanceTypeCount");
  json.Int(static_cast<int64_t>(claim.instance_types.size()));
  json.Key("allocatable");
  json.BeginObject();
  for (const auto& [name, quantity] : planned.launch.allocatable) {
    json.Key(name);
    json.String(quantity.String());
  }
  json.EndObject();
  json.EndObject();
}

namespace {

void WriteSummary(api::JsonWriter& json, const PlanSummary& summary) {
  json.Key("summary");
  json.BeginObject();
  json.Key("pendingPods");
  json.Int(static_cast<int64_t>(summary.pending_pods));
  json.Key("scheduledPods");
  json.Int(static_cast<int64_t>(summary.scheduled_pods));
  json.Key("newNodeClaims");
  json.Int(static_cast<int64_t>(summary.new_node_claims));
  json.Key("pricePerHour");
  json.Double(RoundPrice(summary.price_per_hour));
  json.Key("solveMillis");
  json.Int(summary.solve_millis);
  json.EndObject();
}

std::string PodList(const std::vector<std::string>& pods, size_t max_listed) {
  std::string out;
  for (size_t i = 0; i < pods.size() && i < max_listed; ++i) {
    out += (i == 0 ? "" : ", ") + pods[i];
  }
  if (pods.size() > max_listed) out += fmt::format(", ... ({} more)", pods.size() - max_listed);
  return out;
}

}  // namespace

// Prices are sums of model prices; six decimals keep float noise (0.30000000000000004) out of
// the report while staying far below a cent.
double RoundPrice(double price) { return std::round(price * 1e6) / 1e6; }

std::string EncodePlanJson(const PlanResult& plan) {
  api::JsonWriter json;
  json.BeginObject();
  WritePlanFields(json, plan);
  json.EndObject();
  return json.Take();
}

void WritePlanFields(api::JsonWriter& json, const PlanResult& plan) {
  json.Key("nodeClaims");
  json.BeginArray();
  for (const PlannedNodeClaim& claim : plan.node_claims) WriteNodeClaimJson(json, claim);
  json.EndArray();
  json.Key("existingNodes");
  json.BeginArray();
  for (const PlannedExistingNode& node : plan.existing_nodes) {
    json.BeginObject();
    json.Key("name");
    json.String(node.name);
    WriteStrings(json, "pods", node.pods);
    json.EndObject();
  }
  json.EndArray();
  json.Key("unschedulable");
  json.BeginArray();
  for (const UnschedulablePod& pod : plan.unschedulable) {
    json.BeginObject();
    json.Key("pod");
    json.String(pod.pod);
    json.Key("reason");
    json.String(pod.reason);
    json.EndObject();
  }
  json.EndArray();
  WriteSummary(json, plan.summary);
  WriteStrings(json, "warnings", plan.warnings);
  if (plan.assumptions) WriteAssumptionsJson(json, *plan.assumptions);
  if (plan.drain) WriteDrainJson(json, *plan.drain);
}

std::string RenderPlanText(const PlanResult& plan, size_t max_pods_listed) {
  std::string out;
  if (!plan.node_claims.empty()) {
    out += fmt::format("{:<4} {:<16} {:<16} {:<12} {:<10} {:>9} {:>5}  {}\n", "#", "NODEPOOL",
                       "INSTANCE TYPE", "ZONE", "CAPACITY", "$/HOUR", "PODS", "POD NAMES");
  }
  for (size_t i = 0; i < plan.node_claims.size(); ++i) {
    const PlannedNodeClaim& planned = plan.node_claims[i];
    out += fmt::format("{:<4} {:<16} {:<16} {:<12} {:<10} {:>9.4f} {:>5}  {}\n", i + 1,
                       planned.claim.node_pool, planned.launch.instance_type, planned.launch.zone,
                       planned.launch.capacity_type, planned.launch.price,
                       planned.claim.pods.size(), PodList(planned.claim.pods, max_pods_listed));
  }
  for (const PlannedExistingNode& node : plan.existing_nodes) {
    out += fmt::format("existing node {}: {} pod(s): {}\n", node.name, node.pods.size(),
                       PodList(node.pods, max_pods_listed));
  }
  if (!plan.unschedulable.empty()) out += "unschedulable:\n";
  for (const UnschedulablePod& pod : plan.unschedulable) {
    out += fmt::format("  {}: {}\n", pod.pod, pod.reason);
  }
  const PlanSummary& summary = plan.summary;
  out += fmt::format(
      "summary: {} pending pod(s), {} scheduled, {} unschedulable, {} new nodeclaim(s), "
      "${:.4f}/hour, solved in {} ms\n",
      summary.pending_pods, summary.scheduled_pods, plan.unschedulable.size(),
      summary.new_node_claims, RoundPrice(summary.price_per_hour), summary.solve_millis);
  if (plan.drain) out += RenderDrainText(*plan.drain);
  if (plan.assumptions) out += RenderAssumptionsText(*plan.assumptions);
  return out;
}

}  // namespace karpenter::provisioning
