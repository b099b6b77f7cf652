#include "src/migrate/preflight_checks.h"

#include <algorithm>
#include <set>
#include <variant>

#include "absl/strings/str_join.h"
#include "fmt/format.h"
#include "src/api/selector_match.h"
#include "src/disruption/consolidation.h"
#include "src/migrate/subnet_capacity_check.h"

namespace karpenter::migrate {
namespace {

Check Verdicted(std::string id, std::vector<std::string> objects, Verdict when_any,
                std::string pass, std::string otherwise) {
  std::sort(objects.begin(), objects.end());
  const bool any = !objects.empty();
  return {std::move(id), any ? when_any : Verdict::kPass, any ? otherwise : pass,
          std::move(objects)};
}

// Gotcha 1: the add-ons Karpenter depends on must run on nodes Karpenter never disrupts.
Check CriticalAddons(const ClusterSnapshot& snapshot, const MigrationPlan& plan) {
  if (!snapshot.unpinned_addons.empty()) {
    return Verdicted("critical-addons", snapshot.unpinned_addons, Verdict::kFail, "",
                     "critical add-ons run on nodes of no node group the plan keeps: move them "
                     "to the static group before Phase 4, or Karpenter may disrupt its own "
                     "controller or DNS");
  }
  if (plan.static_groups.empty()) {
    return {"critical-addons",
            Verdict::kWarn,
            "no critical add-on pod (coredns, aws-load-balancer-controller, karpenter) is in "
            "the snapshot: include `kubectl get pods -A`, or keep a static group for them",
            {}};
  }
  std::vector<std::string> thin;
  for (const StaticGroup& group : plan.static_groups) {
    if (group.nodes < 2 || group.zones.size() < 2) {
      thin.push_back(
          fmt::format("{} ({} nodes in {} zones)", group.name, group.nodes, group.zones.size()));
    }
  }
  return Verdicted("critical-addons", thin, Verdict::kWarn,
                   "critical add-ons run only on static groups the plan keeps",
                   "a static group for critical add-ons should have 2 to 3 nodes across zones");
}

const api::LabelMap* TemplateLabelsOf(const api::Object& object) {
  if (const auto* deployment = std::get_if<api::Deployment>(&object)) {
    return &deployment->spec.template_.metadata.labels;
  }
  if (const auto* set = std::get_if<api::StatefulSet>(&object)) {
    return &set->spec.template_.metadata.labels;
  }
  return nullptr;
}

// Gotcha 2: the drains of Phase 4 and consolidation evict; a workload with no PDB can lose
// every replica at once.
Check PdbCoverage(const ClusterSnapshot& snapshot) {
  std::vector<std::string> uncovered;
  for (const api::Manifest* workload : snapshot.workloads) {
    const api::LabelMap* labels = TemplateLabelsOf(*workload->object);
    const bool covered =
        std::any_of(snapshot.pdbs.begin(), snapshot.pdbs.end(), [&](const api::Manifest* pdb) {
          const auto& budget = std::get<api::PodDisruptionBudget>(*pdb->object);
          return pdb->namespace_ == workload->namespace_ &&
                 api::Matches(budget.spec.selector, *labels);
        });
    if (!covered) uncovered.push_back(workload->Ref());
  }
  return Verdicted("pdb-coverage", uncovered, Verdict::kWarn,
                   "every Deployment and StatefulSet has a PodDisruptionBudget",
                   "workloads without a PodDisruptionBudget: a drain or consolidation may evict "
                   "all their replicas at once");
}

bool AllowsNoDisruption(const api::PodDisruptionBudget& pdb) {
  const auto& max = pdb.spec.max_unavailable;
  if (max.has_value() && (max->is_int ? max->int_value == 0 : max->str_value == "0%")) {
    return true;
  }
  const auto& min = pdb.spec.min_available;
  if (min.has_value() && !min->is_int && min->str_value == "100%") return true;
  return pdb.status.expected_pods > 0 && pdb.status.disruptions_allowed == 0;
}

Check BlockingPdbs(const ClusterSnapshot& snapshot) {
  std::vector<std::string> blocking;
  for (const api::Manifest* pdb : snapshot.pdbs) {
    if (AllowsNoDisruption(std::get<api::PodDisruptionBudget>(*pdb->object))) {
      blocking.push_back(pdb->Ref());
    }
  }
  return Verdicted("pdb-blocking", blocking, Verdict::kFail,
                   "no PodDisruptionBudget blocks every eviction",
                   "PodDisruptionBudgets that allow no disruption: `kubectl drain` in Phase 4 "
                   "would hang on their pods");
}

Check DoNotDisrupt(const ClusterSnapshot& snapshot) {
  std::vector<std::string> pods;
  for (const api::Manifest* manifest : snapshot.pods) {
    const auto& annotations = std::get<api::Pod>(*manifest->object).metadata.annotations;
    auto it = annotations.find("karpenter.sh/do-not-disrupt");
    if (it != annotations.end() && it->second == "true") pods.push_back(manifest->Ref());
  }
  return Verdicted("do-not-disrupt", pods, Verdict::kWarn, "no pod opts out of disruption",
                   "pods with karpenter.sh/do-not-disrupt: Karpenter will not consolidate their "
                   "nodes once they move");
}

bool NamesMigratedGroup(const api::PodSpec& spec, const std::set<std::string>& migrated) {
  if (auto it = spec.node_selector.find(kNodeGroupLabel);
      it != spec.node_selector.end() && migrated.contains(it->second)) {
    return true;
  }
  if (!spec.affinity || !spec.affinity->node_affinity.has_value()) return false;
  const auto& required =
      spec.affinity->node_affinity->required_during_scheduling_ignored_during_execution;
  if (!required.has_value()) return false;
  for (const api::NodeSelectorTerm& term : required->node_selector_terms) {
    for (const api::NodeSelectorRequirement& requirement : term.match_expressions) {
      if (requirement.key != kNodeGroupLabel || requirement.operator_ != "In") continue;
      if (std::any_of(requirement.values.begin(), requirement.values.end(),
                      [&](const std::string& value) { return migrated.contains(value); })) {
        return true;
      }
    }
  }
  return false;
}

const api::PodSpec* TemplateSpecOf(const api::Object& object) {
  if (const auto* deployment = std::get_if<api::Deployment>(&object)) {
    return &deployment->spec.template_.spec;
  }
  if (const auto* set = std::get_if<api::StatefulSet>(&object)) return &set->spec.template_.spec;
  return nullptr;
}

// Karpenter's nodes carry no eks.amazonaws.com/nodegroup label: a workload that requires one of
// the drained groups has nowhere to go after Phase 4.
Check PinnedToGroup(const ClusterSnapshot& snapshot, const MigrationPlan& plan) {
  std::set<std::string> migrated;
  for (const MigratedGroup& group : plan.migrated_groups) migrated.insert(group.name);
  std::vector<std::string> pinned;
  for (const api::Manifest* workload : snapshot.workloads) {
    if (NamesMigratedGroup(*TemplateSpecOf(*workload->object), migrated)) {
      pinned.push_back(workload->Ref());
    }
  }
  return Verdicted("pinned-to-group", pinned, Verdict::kFail,
                   "no workload requires a node group the plan drains",
                   fmt::format("workloads that require {} of a group the plan drains: their pods "
                               "stay Pending once it is gone; select a NodePool label instead",
                               kNodeGroupLabel));
}

// `kubectl drain --delete-emptydir-data` in Phase 4 deletes the data of these volumes.
Check LocalStorage(const ClusterSnapshot& snapshot, const MigrationPlan& plan) {
  std::set<std::string> drained_nodes;
  for (const ObservedGroup& group : snapshot.groups) {
    const bool migrated =
        std::any_of(plan.migrated_groups.begin(), plan.migrated_groups.end(),
                    [&](const MigratedGroup& kept) { return kept.name == group.name; });
    if (migrated) drained_nodes.insert(group.nodes.begin(), group.nodes.end());
  }
  std::vector<std::string> pods;
  for (const api::Manifest* manifest : snapshot.pods) {
    const api::Pod& pod = std::get<api::Pod>(*manifest->object);
    if (!drained_nodes.contains(pod.spec.node_name)) continue;
    const bool local =
        std::any_of(pod.spec.volumes.begin(), pod.spec.volumes.end(),
                    [](const api::Volume& volume) { return volume.empty_dir || volume.host_path; });
    if (local) pods.push_back(manifest->Ref());
  }
  return Verdicted("local-storage", pods, Verdict::kWarn,
                   "no pod on a drained group keeps data on the node",
                   "pods on drained groups with emptyDir or hostPath volumes: the drain deletes "
                   "that data");
}

// Upstream only replaces a single spot node with a cheaper spot node when the NodePool allows at
// least this many types; fewer types also leave fewer spot pools to fall back on.
Check SpotDiversity(const MigrationPlan& plan) {
  std::vector<std::string> narrow;
  for (const nlohmann::ordered_json& pool : plan.node_pools) {
    size_t types = 0;
    bool spot = false;
    for (const MigratedGroup& group : plan.migrated_groups) {
      if (group.node_pool == pool["metadata"]["name"]) types = group.instance_types;
    }
    for (const auto& requirement : pool["spec"]["template"]["spec"]["requirements"]) {
      const auto& values = requirement["values"];
      if (requirement["key"] == "karpenter.sh/capacity-type") {
        spot = std::find(values.begin(), values.end(), "spot") != values.end();
      }
    }
    if (spot && types < disruption::kMinInstanceTypesForSpotToSpot) {
      narrow.push_back(fmt::format("NodePool/{} ({} types)",
                                   pool["metadata"]["name"].get<std::string>(), types));
    }
  }
  return Verdicted("spot-diversity", narrow, Verdict::kWarn,
                   "every spot NodePool allows enough instance types",
                   fmt::format("spot NodePools with fewer than {} instance types: Karpenter will "
                               "not consolidate one spot node onto a cheaper spot node, and "
                               "fewer spot pools are left when one is interrupted",
                               disruption::kMinInstanceTypesForSpotToSpot));
}

Check DiscoveryTags(const MigrationInputs& inputs, const MigrationPlan& plan) {
  if (!inputs.subnets_given) {
    return {"discovery-tags", Verdict::kWarn, "not checked: no --subnets given", {}};
  }
  std::vector<std::string> untagged;
  for (const Subnet& subnet : inputs.subnets) {
    auto it = subnet.tags.find(kDiscoveryTag);
    if (it == subnet.tags.end() || it->second != plan.cluster) {
      untagged.push_back(fmt::format("Subnet/{} ({})", subnet.id, subnet.zone));
    }
  }
  return Verdicted("discovery-tags", untagged, Verdict::kWarn,
                   fmt::format("every subnet carries {}: {}", kDiscoveryTag, plan.cluster),
                   fmt::format("subnets without {}: {}: Karpenter will not launch into them "
                               "until Phase 1 tags them",
                               kDiscoveryTag, plan.cluster));
}

}  // namespace

std::vector<Check> PreflightChecks(const ClusterSnapshot& snapshot, const MigrationInputs& inputs,
                                   const MigrationPlan& plan,
                                   const cloudprovider::Catalog& catalog) {
  return {CriticalAddons(snapshot, plan),
          PdbCoverage(snapshot),
          BlockingPdbs(snapshot),
          DoNotDisrupt(snapshot),
          PinnedToGroup(snapshot, plan),
          LocalStorage(snapshot, plan),
          SpotDiversity(plan),
          DiscoveryTags(inputs, plan),
          SubnetCapacity(snapshot, inputs, plan, catalog),
          TypeOfferings(snapshot, inputs, plan, catalog)};
}

}  // namespace karpenter::migrate
