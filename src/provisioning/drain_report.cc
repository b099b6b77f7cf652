#include "src/provisioning/drain_report.h"

#include <cmath>
#include <limits>
#include <utility>

#include "fmt/format.h"
#include "src/api/karpenter_labels.h"

namespace karpenter::provisioning {
namespace {

// EKS managed node groups label their nodes with the capacity type in upper case.
constexpr std::string_view kEksCapacityTypeLabel = "eks.amazonaws.com/capacityType";

std::string LabelOr(const api::Node& node, std::string_view key, std::string fallback) {
  auto it = node.metadata.labels.find(std::string(key));
  return it == node.metadata.labels.end() ? fallback : it->second;
}

std::string CapacityTypeOf(const api::Node& node) {
  std::string karpenter = LabelOr(node, api::kCapacityTypeLabelKey, "");
  if (!karpenter.empty()) return karpenter;
  const std::string eks = LabelOr(node, kEksCapacityTypeLabel, "");
  return eks == "SPOT" ? "spot" : "on-demand";
}

DrainedNodePrice PriceNode(const api::Node* node, const cloudprovider::Catalog& catalog) {
  DrainedNodePrice out;
  if (node == nullptr) return out;
  out.instance_type = LabelOr(*node, api::kLabelInstanceTypeStable, "");
  out.zone = LabelOr(*node, api::kLabelTopologyZone, "");
  out.capacity_type = CapacityTypeOf(*node);
  const cloudprovider::InstanceType* type = catalog.Find(out.instance_type);
  if (type == nullptr) return out;
  // Without a zone label the cheapest zone's price stands in.
  double best = std::numeric_limits<double>::infinity();
  for (const cloudprovider::Offering& offering : type->offerings) {
    if (offering.capacity_type != out.capacity_type || offering.price <= 0) continue;
    if (!out.zone.empty() && offering.zone != out.zone) continue;
    best = std::min(best, offering.price);
  }
  if (best == std::numeric_limits<double>::infinity()) return out;
  out.price = best;
  out.priced = true;
  return out;
}

void WriteStrings(api::JsonWriter& json, std::string_view key,
                  const std::vector<std::string>& values) {
  json.Key(key);
  json.BeginArray();
  for (const std::string& value : values) json.String(value);
  json.EndArray();
}

void WriteNode(api::JsonWriter& json, const state::DrainedNode& node,
               const DrainedNodePrice& price) {
  json.BeginObject();
  json.Key("name");
  json.String(node.name);
  json.Key("instanceType");
  json.String(price.instance_type);
  json.Key("zone");
  json.String(price.zone);
  json.Key("capacityType");
  json.String(price.capacity_type);
  json.Key("pricePerHour");
  if (price.priced) {
    json.Double(RoundPrice(price.price));
  } else {
    json.Null();
  }
  json.Key("completes");
  json.Bool(node.Completes());
  json.Key("error");
  json.String(node.error);
  WriteStrings(json, "evicted", node.evicted);
  WriteStrings(json, "stuck", node.stuck);
  WriteStrings(json, "daemonSetPods", node.daemon_set_pods);
  WriteStrings(json, "mirrorPods", node.mirror_pods);
  WriteStrings(json, "completedPods", node.completed_pods);
  json.EndObject();
}

std::string Count(size_t n, std::string_view what) {
  return fmt::format("{} {}{}", n, what, n == 1 ? "" : "s");
}

std::string Names(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) out += (i == 0 ? "" : ", ") + names[i];
  return out;
}

std::string NodeLine(const state::DrainedNode& node, const DrainedNodePrice& price) {
  std::string out = fmt::format(
      "  node {} ({} {} in {}, {}): cordoned", node.name, price.capacity_type,
      price.instance_type.empty() ? "?" : price.instance_type,
      price.zone.empty() ? "?" : price.zone,
      price.priced ? fmt::format("${:.4f}/h", price.price) : std::string("price unknown"));
  if (!node.error.empty()) return out + "; kubectl drain stops: " + node.error + "\n";
  out += node.evicted.empty() ? ", nothing to evict"
                              : fmt::format(", evicts {}: {}", Count(node.evicted.size(), "pod"),
                                            Names(node.evicted));
  if (!node.stuck.empty()) {
    out += fmt::format("; keeps {} a PDB never lets go: {}", Count(node.stuck.size(), "pod"),
                       Names(node.stuck));
  }
  if (!node.daemon_set_pods.empty()) {
    out += "; leaves " + Count(node.daemon_set_pods.size(), "DaemonSet pod");
  }
  if (!node.mirror_pods.empty()) out += "; leaves " + Count(node.mirror_pods.size(), "mirror pod");
  if (!node.completed_pods.empty()) {
    out += "; deletes " + Count(node.completed_pods.size(), "completed pod");
  }
  return out + "\n";
}

}  // namespace

DrainReport PriceDrain(state::DrainResult drain, const state::ClusterSnapshot& snapshot,
                       const cloudprovider::Catalog& catalog, double added_price_per_hour) {
  DrainReport report;
  for (const state::DrainedNode& node : drain.nodes) {
    report.prices.push_back(PriceNode(snapshot.FindNode(node.name), catalog));
    if (node.Completes()) report.removed_price_per_hour += report.prices.back().price;
  }
  report.added_price_per_hour = added_price_per_hour;
  report.drain = std::move(drain);
  return report;
}

void WriteDrainJson(api::JsonWriter& json, const DrainReport& report) {
  json.Key("drain");
  json.BeginObject();
  WriteStrings(json, "selectors", report.drain.selectors);
  json.Key("nodes");
  json.BeginArray();
  for (size_t i = 0; i < report.drain.nodes.size(); ++i) {
    WriteNode(json, report.drain.nodes[i], report.prices[i]);
  }
  json.EndArray();
  json.Key("pdbRefusals");
  json.BeginArray();
  for (const state::PdbRefusal& refusal : report.drain.refusals) {
    json.BeginObject();
    json.Key("pod");
    json.String(refusal.pod);
    json.Key("pdb");
    json.String(refusal.pdb);
    json.Key("retried");
    json.Bool(!refusal.never);
    json.Key("reason");
    json.String(refusal.reason);
    json.EndObject();
  }
  json.EndArray();
  json.Key("removedPricePerHour");
  json.Double(RoundPrice(report.removed_price_per_hour));
  json.Key("addedPricePerHour");
  json.Double(RoundPrice(report.added_price_per_hour));
  json.Key("deltaPerHour");
  json.Double(RoundPrice(report.added_price_per_hour - report.removed_price_per_hour));
  json.EndObject();
}

std::string RenderDrainText(const DrainReport& report) {
  std::string out = "drain (as kubectl drain --ignore-daemonsets --delete-emptydir-data):\n";
  if (report.drain.nodes.empty()) out += "  no node matches\n";
  for (size_t i = 0; i < report.drain.nodes.size(); ++i) {
    out += NodeLine(report.drain.nodes[i], report.prices[i]);
  }
  for (const state::PdbRefusal& refusal : report.drain.refusals) {
    out +=
        fmt::format("  PDB {} refuses evicting {}: {}\n", refusal.pdb, refusal.pod, refusal.reason);
  }
  size_t removed = 0;
  for (const state::DrainedNode& node : report.drain.nodes) removed += node.Completes() ? 1 : 0;
  const double delta = report.added_price_per_hour - report.removed_price_per_hour;
  out += fmt::format(
      "  cost: removing the {} that drain{} empty saves ${:.4f}/h; the new nodeclaims above cost "
      "${:.4f}/h; delta {}${:.4f}/h\n",
      Count(removed, "node"), removed == 1 ? "s" : "", RoundPrice(report.removed_price_per_hour),
      RoundPrice(report.added_price_per_hour), delta < 0 ? "-" : "+", std::abs(RoundPrice(delta)));
  return out;
}

}  // namespace karpenter::provisioning
