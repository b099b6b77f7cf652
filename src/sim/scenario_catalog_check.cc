#include "src/sim/scenario_catalog_check.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "fmt/format.h"
#include "src/cloudprovider/region_catalog.h"

namespace karpenter::sim {
namespace {

class Problems {
 public:
  explicit Problems(const cloudprovider::Catalog& catalog) : catalog_(catalog) {}

  void Zones(const std::vector<std::string>& zones, const std::string& path) {
    for (size_t i = 0; i < zones.size(); ++i) {
      const std::vector<std::string>& known = catalog_.zones();
      if (std::find(known.begin(), known.end(), zones[i]) != known.end()) continue;
      lines_.push_back(fmt::format("{}[{}]: unknown zone \"{}\": the catalog's {} zones are {}",
                                   path, i, zones[i], catalog_.region(),
                                   absl::StrJoin(known, ", ")));
    }
  }

  void InstanceType(const std::string& name, const std::string& path) {
    if (name.empty() || catalog_.Find(name) != nullptr) return;
    lines_.push_back(
        fmt::format("{}: unknown instance type \"{}\": not in the catalog", path, name));
  }

  void Add(std::string line) { lines_.push_back(std::move(line)); }
  const std::vector<std::string>& lines() const { return lines_; }

 private:
  const cloudprovider::Catalog& catalog_;
  std::vector<std::string> lines_;
};

// Every EC2NodeClass a scenario defines, at the start or in a step (a pool applied before its
// class waits for it, as on a cluster).
std::set<std::string> NodeClassNames(const Scenario& scenario) {
  std::set<std::string> names;
  auto collect = [&names](const std::vector<api::Object>& objects) {
    for (const api::Object& object : objects) {
      if (const auto* node_class = std::get_if<api::EC2NodeClass>(&object)) {
        names.insert(node_class->metadata.name);
      }
    }
  };
  collect(scenario.initial_objects);
  for (const Step& step : scenario.steps) collect(step.objects);
  return names;
}

void CheckNodePools(const std::vector<api::Object>& objects, const std::string& path,
                    const std::set<std::string>& node_classes, Problems& problems) {
  for (const api::Object& object : objects) {
    const auto* pool = std::get_if<api::NodePool>(&object);
    if (pool == nullptr) continue;
    const std::optional<api::NodeClassReference>& ref = pool->spec.template_.spec.node_class_ref;
    if (!ref || node_classes.contains(ref->name)) continue;
    problems.Add(fmt::format(
        "{}: NodePool/{}: spec.template.spec.nodeClassRef.name: EC2NodeClass \"{}\" is defined "
        "by no manifest of the scenario, so the pool could launch nothing",
        path, pool->metadata.name, ref->name));
  }
}

}  // namespace

absl::Status CheckScenarioAgainstCatalog(const Scenario& scenario,
                                         const cloudprovider::Catalog& catalog) {
  Problems problems(catalog);
  // A host that loaded another region's catalog would run the scenario at the wrong prices.
  const std::string_view region =
      scenario.region.empty() ? cloudprovider::kDefaultRegion : std::string_view(scenario.region);
  if (catalog.region() != region) {
    problems.Add(fmt::format("region: the scenario is in {} but the catalog is {}'s", region,
                             catalog.region()));
  }
  problems.Zones(scenario.zones, "zones");
  for (size_t i = 0; i < scenario.node_groups.size(); ++i) {
    const NodeGroup& group = scenario.node_groups[i];
    const std::string path = fmt::format("nodeGroups[{}]", i);
    problems.InstanceType(group.instance_type, path + ".instanceType");
    // A group without zones of its own has the scenario's, reported above.
    if (group.zones != scenario.zones) problems.Zones(group.zones, path + ".zones");
  }
  for (size_t i = 0; i < scenario.faults.size(); ++i) {
    const CapacityFault& fault = scenario.faults[i];
    const std::string path = fmt::format("faults[{}]", i);
    problems.InstanceType(fault.instance_type, path + ".instanceType");
    problems.Zones(fault.zones, path + ".zones");
  }
  // A pinned price for an offering the catalog does not have would silently price nothing.
  for (const auto& [offering, price] : scenario.spot_prices.prices) {
    const auto& [type_name, zone] = offering;
    if (!catalog.OffersSpot(type_name, zone)) {
      problems.Add(fmt::format("spotPrices.prices: the catalog has no spot offering of {} in {}",
                               type_name, zone));
    }
  }
  const std::set<std::string> node_classes = NodeClassNames(scenario);
  CheckNodePools(scenario.initial_objects, "manifests", node_classes, problems);
  for (const Step& step : scenario.steps) {
    CheckNodePools(step.objects, fmt::format("steps (at {} s)", step.at_seconds), node_classes,
                   problems);
  }
  if (problems.lines().empty()) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrJoin(problems.lines(), "\n"));
}

}  // namespace karpenter::sim
