#include "src/migrate/preflight_checks.h"

#include <algorithm>
#include <variant>

#include "absl/strings/str_join.h"
#include "fmt/format.h"
#include "src/api/selector_match.h"

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
                                   const MigrationPlan& plan) {
  return {CriticalAddons(snapshot, plan), PdbCoverage(snapshot), BlockingPdbs(snapshot),
          DoNotDisrupt(snapshot), DiscoveryTags(inputs, plan)};
}

}  // namespace karpenter::migrate
