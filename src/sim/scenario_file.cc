#include "src/sim/scenario_file.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

#include "absl/strings/str_join.h"
#include "fmt/format.h"
#include "src/api/input_file.h"
#include "src/api/utf8.h"
#include "src/api/validation.h"
#include "src/api/yaml_document_scan.h"
#include "src/api/yaml_hang_guard.h"
#include "src/api/yaml_to_json.h"
#include "src/cloudprovider/region_catalog.h"
#include "src/sim/scenario_reader.h"
#include "src/sim/scenario_text.h"

namespace karpenter::sim {

std::string_view AutoscalerName(Autoscaler autoscaler) {
  return autoscaler == Autoscaler::kKarpenter ? "karpenter" : "cluster-autoscaler";
}

namespace {

std::optional<Autoscaler> ParseAutoscaler(ScenarioReader& reader, const YAML::Node& node,
                                          const std::string& path) {
  const std::string name = reader.String(node, path);
  if (name == "karpenter") return Autoscaler::kKarpenter;
  if (name == "cluster-autoscaler") return Autoscaler::kClusterAutoscaler;
  reader.Error(path,
               fmt::format("unsupported value \"{}\": karpenter or cluster-autoscaler", name));
  return std::nullopt;
}

void ParseLatency(ScenarioReader& reader, const YAML::Node& node, Scenario& scenario) {
  if (!node.IsMap()) {
    reader.Error("latency", "must be a mapping");
    return;
  }
  for (const auto& entry : node) {
    const std::string name = entry.first.as<std::string>("");
    const std::string path = ScenarioReader::Join("latency", name);
    Range range;
    if (entry.second.IsMap()) {
      reader.OnlyKeys(entry.second, path, {"min", "max"});
      range.min_seconds = reader.Seconds(entry.second["min"], path + ".min");
      range.max_seconds = reader.Seconds(entry.second["max"], path + ".max");
    } else {
      range.min_seconds = range.max_seconds = reader.Seconds(entry.second, path);
    }
    absl::Status status = OverrideLatency(scenario.latency, name, range);
    if (!status.ok()) reader.Error("latency", std::string(status.message()));
  }
}

void ParseClusterAutoscaler(ScenarioReader& reader, const YAML::Node& node, Scenario& scenario) {
  const std::string path = "clusterAutoscaler";
  reader.OnlyKeys(node, path,
                  {"expander", "scaleDownUtilizationThreshold", "scaleDownEnabled", "frequentLoops",
                   "maxEmptyBulkDelete", "balanceSimilarNodeGroups"});
  // yaml-cpp throws on a key lookup in a scalar; OnlyKeys has reported a non-mapping already.
  if (!node.IsMap()) return;
  ClusterAutoscalerOptions& options = scenario.cluster_autoscaler;
  if (node["expander"]) {
    const std::string expander = reader.String(node["expander"], path + ".expander");
    static const std::map<std::string, Expander> kExpanders = {
        {"least-waste", Expander::kLeastWaste},
        {"most-pods", Expander::kMostPods},
        {"random", Expander::kRandom},
        {"priority", Expander::kPriority}};
    auto it = kExpanders.find(expander);
    if (expander == "price") {
      // CA's price expander needs the cloud provider's Pricing(), which the AWS provider does not
      // implement (peers.md §1.2, autoscaler#1821): on EKS it is not an option.
      reader.Error(path + ".expander",
                   "\"price\" needs cloud provider pricing, which Cluster Autoscaler's AWS "
                   "provider does not implement; use least-waste, most-pods, random or priority");
    } else if (it == kExpanders.end()) {
      reader.Error(path + ".expander",
                   fmt::format("unsupported value \"{}\": least-waste, most-pods, random or "
                               "priority",
                               expander));
    } else {
      options.expander = it->second;
    }
  }
  if (node["scaleDownUtilizationThreshold"]) {
    options.scale_down_utilization_threshold = reader.Number(
        node["scaleDownUtilizationThreshold"], path + ".scaleDownUtilizationThreshold");
  }
  if (node["scaleDownEnabled"]) {
    options.scale_down_enabled = reader.Bool(node["scaleDownEnabled"], path + ".scaleDownEnabled");
  }
  if (node["frequentLoops"]) {
    options.frequent_loops = reader.Bool(node["frequentLoops"], path + ".frequentLoops");
  }
  if (node["balanceSimilarNodeGroups"]) {
    options.balance_similar_node_groups =
        reader.Bool(node["balanceSimilarNodeGroups"], path + ".balanceSimilarNodeGroups");
  }
  if (node["maxEmptyBulkDelete"]) {
    options.max_empty_bulk_delete =
        reader.Integer(node["maxEmptyBulkDelete"], path + ".maxEmptyBulkDelete");
  }
}

// A fraction off the on-demand price; the model caps discounts at 0.9 so spot stays positive.
double Discount(ScenarioReader& reader, const YAML::Node& node, const std::string& path) {
  const double discount = reader.Number(node, path);
  if (discount > 0.9) reader.Error(path, "must be at most 0.9");
  return discount;
}

void ParseDiscounts(ScenarioReader& reader, const YAML::Node& node, const std::string& path,
                    std::map<std::string, double, std::less<>>& out) {
  if (!node.IsMap()) {
    reader.Error(path, "must be a mapping of discounts");
    return;
  }
  for (const auto& entry : node) {
    const std::string key = entry.first.as<std::string>("");
    out[key] = Discount(reader, entry.second, ScenarioReader::Join(path, key));
  }
}

// Overrides of the spot price model (docs/catalog.md): discounts by category, family or type,
// the zone variation, and exact prices per (type, zone), which may exceed on-demand.
void ParseSpotPrices(ScenarioReader& reader, const YAML::Node& node, Scenario& scenario) {
  const std::string path = "spotPrices";
  reader.OnlyKeys(node, path,
                  {"defaultDiscount", "categoryDiscounts", "familyDiscounts", "typeDiscounts",
                   "zoneVariation", "prices"});
  if (!node.IsMap()) return;
  cloudprovider::SpotPriceModel& model = scenario.spot_prices;
  if (node["defaultDiscount"]) {
    model.default_discount = Discount(reader, node["defaultDiscount"], path + ".defaultDiscount");
  }
  if (node["categoryDiscounts"]) {
    ParseDiscounts(reader, node["categoryDiscounts"], path + ".categoryDiscounts",
                   model.category_discounts);
  }
  if (node["familyDiscounts"]) {
    ParseDiscounts(reader, node["familyDiscounts"], path + ".familyDiscounts",
                   model.family_discounts);
  }
  if (node["typeDiscounts"]) {
    ParseDiscounts(reader, node["typeDiscounts"], path + ".typeDiscounts", model.type_discounts);
  }
  if (node["zoneVariation"]) {
    model.zone_variation = reader.Number(node["zoneVariation"], path + ".zoneVariation");
    if (model.zone_variation > 0.5) reader.Error(path + ".zoneVariation", "must be at most 0.5");
  }
  const std::vector<YAML::Node> prices = reader.Items(node["prices"], path + ".prices");
  for (size_t i = 0; i < prices.size(); ++i) {
    const std::string item = fmt::format("{}.prices[{}]", path, i);
    reader.OnlyKeys(prices[i], item, {"instanceType", "zone", "pricePerHour"});
    if (!prices[i].IsMap()) continue;
    const std::string type = reader.String(prices[i]["instanceType"], item + ".instanceType");
    const std::string zone = reader.String(prices[i]["zone"], item + ".zone");
    const double price = reader.Number(prices[i]["pricePerHour"], item + ".pricePerHour");
    if (price <= 0) reader.Error(item + ".pricePerHour", "must be positive");
    model.prices[{type, zone}] = price;
  }
}

NodeGroup ParseNodeGroup(ScenarioReader& reader, const YAML::Node& node, const std::string& path,
                         const Scenario& scenario) {
  reader.OnlyKeys(node, path,
                  {"name", "instanceType", "capacityType", "zones", "minSize", "maxSize",
                   "initialSize", "autoscaled", "priority", "labels", "taints"});
  NodeGroup group;
  if (!node.IsMap()) return group;
  group.name = reader.String(node["name"], path + ".name");
  group.instance_type = reader.String(node["instanceType"], path + ".instanceType");
  if (node["capacityType"]) {
    group.capacity_type = reader.String(node["capacityType"], path + ".capacityType");
    if (group.capacity_type != "on-demand" && group.capacity_type != "spot") {
      reader.Error(path + ".capacityType", "must be on-demand or spot");
    }
  }
  group.zones = node["zones"] ? reader.Strings(node["zones"], path + ".zones") : scenario.zones;
  group.min_size =
      node["minSize"] ? reader.Count(node["minSize"], path + ".minSize", kMaxNodeGroupSize) : 0;
  group.max_size = reader.Count(node["maxSize"], path + ".maxSize", kMaxNodeGroupSize);
  group.initial_size = node["initialSize"] ? reader.Count(node["initialSize"],
                                                          path + ".initialSize", kMaxNodeGroupSize)
                                           : 0;
  if (group.min_size > group.max_size) reader.Error(path + ".minSize", "must not exceed maxSize");
  if (group.initial_size < group.min_size || group.initial_size > group.max_size) {
    reader.Error(path + ".initialSize", "must lie within [minSize, maxSize]");
  }
  if (group.zones.empty()) reader.Error(path + ".zones", "must name at least one zone");
  if (node["autoscaled"]) group.autoscaled = reader.Bool(node["autoscaled"], path + ".autoscaled");
  if (node["priority"]) group.priority = reader.Integer(node["priority"], path + ".priority");
  if (node["labels"]) group.labels = reader.StringMap(node["labels"], path + ".labels");
  const std::vector<YAML::Node> taints = reader.Items(node["taints"], path + ".taints");
  for (size_t i = 0; i < taints.size(); ++i) {
    const std::string taint_path = fmt::format("{}.taints[{}]", path, i);
    const YAML::Node& taint_node = taints[i];
    reader.OnlyKeys(taint_node, taint_path, {"key", "value", "effect"});
    if (!taint_node.IsMap()) continue;
    api::Taint taint;
    taint.key = reader.String(taint_node["key"], taint_path + ".key");
    if (taint_node["value"])
      taint.value = reader.String(taint_node["value"], taint_path + ".value");
    taint.effect = reader.String(taint_node["effect"], taint_path + ".effect");
    if (taint.effect != "NoSchedule" && taint.effect != "NoExecute" &&
        taint.effect != "PreferNoSchedule") {
      reader.Error(taint_path + ".effect", "must be NoSchedule, PreferNoSchedule or NoExecute");
    }
    group.taints.push_back(std::move(taint));
  }
  return group;
}

Step ParseStep(ScenarioReader& reader, const YAML::Node& node, const std::string& path) {
  reader.OnlyKeys(node, path, {"at", "apply", "scale", "delete", "drainNodeGroup", "only", "note"});
  Step step;
  if (!node.IsMap()) return step;
  step.at_seconds = reader.Seconds(node["at"], path + ".at");
  int actions = 0;
  if (node["apply"]) {
    ++actions;
    step.kind = StepKind::kApply;
    step.objects = reader.Manifests(node["apply"], path + ".apply");
  }
  if (node["scale"]) {
    ++actions;
    step.kind = StepKind::kScale;
    const std::string scale = path + ".scale";
    reader.OnlyKeys(node["scale"], scale, {"deployment", "statefulSet", "replicas"});
    if (node["scale"].IsMap()) {
      if (node["scale"]["statefulSet"]) {
        step.kind = StepKind::kScaleStatefulSet;
        step.target = reader.String(node["scale"]["statefulSet"], scale + ".statefulSet");
        if (node["scale"]["deployment"]) {
          reader.Error(scale, "needs exactly one of deployment, statefulSet");
        }
      } else {
        step.target = reader.String(node["scale"]["deployment"], scale + ".deployment");
      }
      step.replicas =
          reader.Count(node["scale"]["replicas"], scale + ".replicas", kMaxScenarioReplicas);
    }
  }
  if (node["delete"]) {
    ++actions;
    step.kind = StepKind::kDelete;
    step.target = reader.String(node["delete"], path + ".delete");
  }
  if (node["drainNodeGroup"]) {
    ++actions;
    step.kind = StepKind::kDrainNodeGroup;
    step.target = reader.String(node["drainNodeGroup"], path + ".drainNodeGroup");
  }
  if (actions != 1) {
    reader.Error(path, "needs exactly one of apply, scale, delete, drainNodeGroup");
  }
  if (node["only"]) step.only = ParseAutoscaler(reader, node["only"], path + ".only");
  if (node["note"]) step.note = reader.String(node["note"], path + ".note");
  return step;
}

// Faster, the interruptions' events would leave no simulated time between them.
constexpr double kMaxInterruptionsPerHour = 3600;

CapacityFault ParseFault(ScenarioReader& reader, const YAML::Node& node, const std::string& path) {
  reader.OnlyKeys(node, path, {"insufficientCapacity", "neverRegisters", "spotInterruptions"});
  CapacityFault fault;
  if (!node.IsMap()) return fault;
  std::string key = "insufficientCapacity";
  int kinds = static_cast<int>(static_cast<bool>(node["insufficientCapacity"])) +
              static_cast<int>(static_cast<bool>(node["neverRegisters"])) +
              static_cast<int>(static_cast<bool>(node["spotInterruptions"]));
  if (node["neverRegisters"]) {
    key = "neverRegisters";
    fault.kind = FaultKind::kNeverRegisters;
  } else if (node["spotInterruptions"]) {
    key = "spotInterruptions";
    fault.kind = FaultKind::kSpotInterruptions;
  }
  if (kinds > 1) {
    reader.Error(path,
                 "needs exactly one of insufficientCapacity, neverRegisters, spotInterruptions");
  }
  const std::string fault_path = path + "." + key;
  const YAML::Node body = node[key];
  if (fault.kind == FaultKind::kSpotInterruptions) {
    reader.OnlyKeys(body, fault_path, {"instanceType", "zones", "from", "to", "ratePerHour"});
  } else {
    reader.OnlyKeys(body, fault_path, {"instanceType", "capacityType", "zones", "from", "to"});
  }
  if (!body.IsMap()) return fault;
  if (fault.kind == FaultKind::kSpotInterruptions) {
    fault.capacity_type = "spot";
    if (body["instanceType"]) {
      fault.instance_type = reader.String(body["instanceType"], fault_path + ".instanceType");
    }
    fault.rate_per_hour = reader.Number(body["ratePerHour"], fault_path + ".ratePerHour");
    if (fault.rate_per_hour <= 0) reader.Error(fault_path + ".ratePerHour", "must be positive");
    if (fault.rate_per_hour > kMaxInterruptionsPerHour) {
      reader.Error(fault_path + ".ratePerHour",
                   fmt::format("must be at most {} (one a second)", kMaxInterruptionsPerHour));
    }
  } else {
    fault.instance_type = reader.String(body["instanceType"], fault_path + ".instanceType");
    fault.capacity_type = reader.String(body["capacityType"], fault_path + ".capacityType");
  }
  if (body["zones"]) fault.zones = reader.Strings(body["zones"], fault_path + ".zones");
  fault.from_seconds = reader.Seconds(body["from"], fault_path + ".from");
  fault.to_seconds = reader.Seconds(body["to"], fault_path + ".to");
  if (fault.to_seconds < fault.from_seconds)
    reader.Error(fault_path + ".to", "must not precede from");
  return fault;
}

// More would take the twin longer than any scenario is meant to run.
constexpr double kMaxArrivals = 100000;

JobArrivals ParseArrivals(ScenarioReader& reader, const YAML::Node& node, const std::string& path) {
  reader.OnlyKeys(node, path, {"from", "to", "ratePerHour", "job", "only"});
  JobArrivals arrivals;
  if (!node.IsMap()) return arrivals;
  arrivals.from_seconds = reader.Seconds(node["from"], path + ".from");
  arrivals.to_seconds = reader.Seconds(node["to"], path + ".to");
  if (arrivals.to_seconds <= arrivals.from_seconds) reader.Error(path + ".to", "must follow from");
  arrivals.rate_per_hour = reader.Number(node["ratePerHour"], path + ".ratePerHour");
  if (arrivals.rate_per_hour <= 0) {
    reader.Error(path + ".ratePerHour", "must be positive");
  } else if (arrivals.rate_per_hour * (arrivals.to_seconds - arrivals.from_seconds) / 3600 >
             kMaxArrivals) {
    reader.Error(path + ".ratePerHour",
                 fmt::format("expects more than {} Jobs in the window", kMaxArrivals));
  }
  const std::vector<api::Object> objects = reader.Manifests(node["job"], path + ".job");
  if (objects.size() == 1 && std::holds_alternative<api::Job>(objects[0])) {
    arrivals.job = std::get<api::Job>(objects[0]);
  } else if (node["job"] && !node["job"].IsNull()) {
    reader.Error(path + ".job", "must hold exactly one batch/v1 Job");
  }
  if (node["only"]) arrivals.only = ParseAutoscaler(reader, node["only"], path + ".only");
  return arrivals;
}

void ParseKarpenter(ScenarioReader& reader, const YAML::Node& node, Scenario& scenario) {
  const std::string path = "karpenter";
  reader.OnlyKeys(node, path, {"consolidationSearch"});
  if (!node.IsMap() || !node["consolidationSearch"]) return;
  const std::string search =
      reader.String(node["consolidationSearch"], path + ".consolidationSearch");
  std::optional<disruption::ConsolidationSearch> parsed =
      disruption::ParseConsolidationSearch(search);
  if (!parsed) {
    reader.Error(path + ".consolidationSearch",
                 fmt::format("unsupported value \"{}\": upstream or extended", search));
    return;
  }
  scenario.karpenter.consolidation_search = *parsed;
}

// Only regions the embedded catalog has: zones and prices of any other would be invented.
void ParseRegion(ScenarioReader& reader, const YAML::Node& node, Scenario& scenario) {
  const std::string region = reader.String(node, "region");
  const std::vector<std::string> known = cloudprovider::EmbeddedRegions();
  if (std::find(known.begin(), known.end(), region) == known.end()) {
    reader.Error("region", fmt::format("unknown region \"{}\": the embedded catalog has {}", region,
                                       absl::StrJoin(known, ", ")));
    return;
  }
  scenario.region = region;
}

void ParseRoot(ScenarioReader& reader, const YAML::Node& root, Scenario& scenario) {
  reader.OnlyKeys(root, "",
                  {"name", "description", "durationSeconds", "region", "zones", "autoscalers",
                   "latency", "clusterAutoscaler", "nodeGroups", "manifests", "steps", "faults",
                   "arrivals", "spotPrices", "karpenter"});
  if (!root.IsMap()) return;
  scenario.name = reader.String(root["name"], "name");
  if (root["description"]) scenario.description = reader.String(root["description"], "description");
  scenario.duration_seconds = reader.Seconds(root["durationSeconds"], "durationSeconds");
  if (root["region"]) ParseRegion(reader, root["region"], scenario);
  scenario.zones = reader.Strings(root["zones"], "zones");
  if (root["autoscalers"]) {
    scenario.autoscalers.clear();
    const std::vector<std::string> names = reader.Strings(root["autoscalers"], "autoscalers");
    for (size_t i = 0; i < names.size(); ++i) {
      std::optional<Autoscaler> autoscaler =
          ParseAutoscaler(reader, root["autoscalers"][i], fmt::format("autoscalers[{}]", i));
      if (!autoscaler) continue;
      // Each run is reported under its autoscaler's name: a second run would repeat a JSON key.
      if (std::find(scenario.autoscalers.begin(), scenario.autoscalers.end(), *autoscaler) !=
          scenario.autoscalers.end()) {
        reader.Error(fmt::format("autoscalers[{}]", i),
                     fmt::format("duplicate value \"{}\"", names[i]));
        continue;
      }
      scenario.autoscalers.push_back(*autoscaler);
    }
  }
  if (root["latency"]) ParseLatency(reader, root["latency"], scenario);
  if (root["clusterAutoscaler"])
    ParseClusterAutoscaler(reader, root["clusterAutoscaler"], scenario);
  std::set<std::string> names;
  const std::vector<YAML::Node> groups = reader.Items(root["nodeGroups"], "nodeGroups");
  for (size_t i = 0; i < groups.size(); ++i) {
    const std::string path = fmt::format("nodeGroups[{}]", i);
    scenario.node_groups.push_back(ParseNodeGroup(reader, groups[i], path, scenario));
    if (!names.insert(scenario.node_groups.back().name).second) {
      reader.Error(path + ".name", "duplicate node group name");
    }
  }
  if (root["spotPrices"]) ParseSpotPrices(reader, root["spotPrices"], scenario);
  if (root["karpenter"]) ParseKarpenter(reader, root["karpenter"], scenario);
  if (root["manifests"])
    scenario.initial_objects = reader.Manifests(root["manifests"], "manifests");
  const std::vector<YAML::Node> steps = reader.Items(root["steps"], "steps");
  for (size_t i = 0; i < steps.size(); ++i) {
    scenario.steps.push_back(ParseStep(reader, steps[i], fmt::format("steps[{}]", i)));
  }
  std::stable_sort(scenario.steps.begin(), scenario.steps.end(),
                   [](const Step& a, const Step& b) { return a.at_seconds < b.at_seconds; });
  const std::vector<YAML::Node> faults = reader.Items(root["faults"], "faults");
  for (size_t i = 0; i < faults.size(); ++i) {
    scenario.faults.push_back(ParseFault(reader, faults[i], fmt::format("faults[{}]", i)));
  }
  const std::vector<YAML::Node> arrivals = reader.Items(root["arrivals"], "arrivals");
  for (size_t i = 0; i < arrivals.size(); ++i) {
    scenario.arrivals.push_back(ParseArrivals(reader, arrivals[i], fmt::format("arrivals[{}]", i)));
  }
}

}  // namespace

absl::StatusOr<Scenario> ParseScenario(std::string_view yaml, std::string_view source) {
  ScenarioReader reader{std::string(source)};
  // The manifest reader's guards: input that hangs yaml-cpp, and the nesting limit (yaml-cpp's
  // own guard only says "bad file").
  // Invalid UTF-8 would reach the report's HTML and JSON (a name, a note, a description).
  for (absl::Status guard : {api::CheckUtf8(yaml), api::CheckNoTopLevelFlowEntry(yaml),
                             api::CheckYamlDocumentsAdvance(yaml)}) {
    if (!guard.ok()) {
      return absl::InvalidArgumentError(
          fmt::format("{}: {}", source, EscapeControlCharacters(std::string(guard.message()))));
    }
  }
  // yaml-cpp keeps the first of two equal keys without a word (`durationSeconds` given twice ran
  // the first) and reads `!!int` on any text; the manifests' YAML-to-JSON pass refuses both, as
  // kubectl does, with the line and column. Its JSON is dropped: the reader below works on the
  // YAML tree for its line numbers.
  if (absl::Status checked =
          api::ForEachYamlDocumentAsJson(yaml, [](api::JsonDocument&) { return absl::OkStatus(); });
      !checked.ok()) {
    return absl::InvalidArgumentError(
        fmt::format("{}: {}", source, EscapeControlCharacters(std::string(checked.message()))));
  }
  Scenario scenario;
  // yaml-cpp reports problems by throwing; they are turned into a Status here.
  try {
    // A scenario is one document; a second one after `---` was silently ignored.
    const std::vector<YAML::Node> documents = YAML::LoadAll(std::string(yaml));
    std::vector<YAML::Node> roots;
    for (const YAML::Node& document : documents) {
      if (!document.IsNull()) roots.push_back(document);
    }
    if (roots.size() > 1) {
      return absl::InvalidArgumentError(
          fmt::format("{}: line {}: a scenario file holds one YAML document; a second begins here",
                      source, roots[1].Mark().line + 1));
    }
    ParseRoot(reader, roots.empty() ? YAML::Node() : roots[0], scenario);
  } catch (const YAML::Exception& e) {
    // The message may quote a key from the file; keep it on one line.
    return absl::InvalidArgumentError(fmt::format("{}: line {}, column {}: {}", source,
                                                  e.mark.line + 1, e.mark.column + 1,
                                                  EscapeControlCharacters(e.msg)));
  }
  if (!reader.errors().empty()) {
    return absl::InvalidArgumentError(absl::StrJoin(reader.errors(), "\n"));
  }
  return scenario;
}

absl::StatusOr<Scenario> LoadScenarioFile(const std::string& path) {
  absl::StatusOr<std::string> text = api::ReadInputFile(path);
  if (!text.ok()) {
    return absl::Status(text.status().code(), fmt::format("{}: cannot read the file: {}", path,
                                                          std::string(text.status().message())));
  }
  return ParseScenario(*text, path);
}

}  // namespace karpenter::sim
