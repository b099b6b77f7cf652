#include "cmd/karpenter/migrate_report.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <variant>

#include "absl/strings/str_join.h"
#include "cmd/karpenter/snapshot_region.h"
#include "fmt/format.h"
#include "src/migrate/cluster_snapshot.h"
#include "src/migrate/plan_output.h"
#include "src/sim/report_html.h"
#include "src/sim/runner.h"
#include "src/sim/snapshot_scenario.h"
#include "src/sim/svg_chart.h"

namespace karpenter::cli {
namespace {

constexpr double kSecondsPerDay = 86400;

const migrate::EksNodegroup* NodegroupNamed(const migrate::MigrationInputs& inputs,
                                            const std::string& name) {
  for (const migrate::EksNodegroup& group : inputs.nodegroups) {
    if (group.name == name) return &group;
  }
  return nullptr;
}

// The group an Auto Scaling group stands for: its managed node group, else itself.
std::string GroupOfAsg(const sim::AutoScalingGroupRecord& asg) {
  return asg.node_group.empty() ? asg.name : asg.node_group;
}

// The type Cluster Autoscaler builds a group's node template from: the first of the managed node
// group's instanceTypes or of the Auto Scaling group's overrides, else the type most of its nodes
// run (ties by name).
std::string TemplateType(const migrate::ObservedGroup& group,
                         const migrate::MigrationInputs& inputs,
                         const std::vector<sim::AutoScalingGroupRecord>& asgs,
                         const std::map<std::string, std::string>& type_of_node) {
  if (const migrate::EksNodegroup* eks = NodegroupNamed(inputs, group.name);
      eks != nullptr && !eks->instance_types.empty()) {
    return eks->instance_types.front();
  }
  for (const sim::AutoScalingGroupRecord& asg : asgs) {
    if (GroupOfAsg(asg) == group.name && !asg.overrides.empty()) {
      return asg.overrides.front().instance_type;
    }
  }
  std::map<std::string, int> counts;
  for (const std::string& node : group.nodes) ++counts[type_of_node.at(node)];
  return std::max_element(counts.begin(), counts.end(),
                          [](const auto& a, const auto& b) { return a.second < b.second; })
      ->first;
}

api::Node* NodeOf(api::Manifest& manifest) {
  return manifest.object ? std::get_if<api::Node>(&*manifest.object) : nullptr;
}

// The twin's node groups run one instance type and one capacity type: the nodes of a group with
// several are given its template type (and its most common capacity type), with a note.
absl::Status UniformGroups(const migrate::MigrationInputs& inputs,
                           const std::vector<sim::AutoScalingGroupRecord>& asgs,
                           std::vector<api::Manifest>& snapshot, std::vector<std::string>& notes) {
  KP_ASSIGN_OR_RETURN(const migrate::ClusterSnapshot observed,
                      migrate::ReadClusterSnapshot(inputs.snapshot, inputs.asgs));
  std::map<std::string, api::Node*> nodes;
  std::map<std::string, std::string> type_of_node;
  for (api::Manifest& manifest : snapshot) {
    if (api::Node* node = NodeOf(manifest)) {
      nodes[node->metadata.name] = node;
      type_of_node[node->metadata.name] = node->metadata.labels[migrate::kInstanceTypeLabel];
    }
  }
  for (const migrate::ObservedGroup& group : observed.groups) {
    if (group.instance_types.size() > 1) {
      const std::string type = TemplateType(group, inputs, asgs, type_of_node);
      for (const std::string& node : group.nodes) {
        nodes.at(node)->metadata.labels[migrate::kInstanceTypeLabel] = type;
      }
      notes.push_back(fmt::format(
          "{}: runs {}; the twin's node groups run one type, so its {} nodes run {}, the type "
          "Cluster Autoscaler builds the group's node template from",
          group.name, absl::StrJoin(group.instance_types, ", "), group.nodes.size(), type));
    }
    if (group.capacity_types.size() > 1) {
      for (const std::string& node : group.nodes) {
        nodes.at(node)->metadata.labels[migrate::kEksCapacityTypeLabel] = "ON_DEMAND";
        nodes.at(node)->metadata.labels.erase("karpenter.sh/capacity-type");
      }
      notes.push_back(
          fmt::format("{}: runs on-demand and spot nodes; the twin runs them all "
                      "on-demand",
                      group.name));
    }
  }
  return absl::OkStatus();
}

// The snapshot as the twin starts from it: its own NodePools and EC2NodeClasses are left out
// (the Karpenter run uses the plan's), and mixed groups are made uniform.
absl::StatusOr<std::vector<api::Manifest>> TwinSnapshot(
    const migrate::MigrationInputs& inputs, const std::vector<sim::AutoScalingGroupRecord>& asgs,
    std::vector<std::string>& notes) {
  std::vector<api::Manifest> snapshot;
  std::set<std::string> left_out;
  for (const api::Manifest& manifest : inputs.snapshot) {
    if (manifest.object && (std::holds_alternative<api::NodePool>(*manifest.object) ||
                            std::holds_alternative<api::EC2NodeClass>(*manifest.object))) {
      left_out.insert(manifest.Ref());
      continue;
    }
    snapshot.push_back(manifest);
  }
  if (!left_out.empty()) {
    notes.push_back(fmt::format("left out of both runs, the Karpenter run using the plan's: {}",
                                absl::StrJoin(left_out, ", ")));
  }
  KP_RETURN_IF_ERROR(UniformGroups(inputs, asgs, snapshot, notes));
  return snapshot;
}

std::optional<sim::Expander> ExpanderNamed(const std::string& name) {
  if (name == "least-waste") return sim::Expander::kLeastWaste;
  if (name == "most-pods") return sim::Expander::kMostPods;
  if (name == "random") return sim::Expander::kRandom;
  if (name == "priority") return sim::Expander::kPriority;
  return std::nullopt;
}

// The ASG names the priority expander matches for a group (its own name when none is known).
std::vector<std::string> AsgNames(const std::string& group, const migrate::MigrationInputs& inputs,
                                  const std::vector<sim::AutoScalingGroupRecord>& asgs) {
  std::set<std::string> names;
  if (const migrate::EksNodegroup* eks = NodegroupNamed(inputs, group)) {
    names.insert(eks->asg_names.begin(), eks->asg_names.end());
  }
  for (const sim::AutoScalingGroupRecord& asg : asgs) {
    if (GroupOfAsg(asg) == group) names.insert(asg.name);
  }
  if (names.empty()) names.insert(group);
  return std::vector<std::string>(names.begin(), names.end());
}

// Cluster Autoscaler's run with the Deployment's flags (its defaults without one).
void ApplyAutoscalerFlags(const migrate::MigrationInputs& inputs,
                          const std::vector<sim::AutoScalingGroupRecord>& asgs,
                          sim::Scenario& scenario, std::vector<std::string>& notes) {
  const migrate::ClusterAutoscalerConfig& config = inputs.autoscaler;
  if (!config.deployment_found) {
    notes.push_back(
        "Cluster Autoscaler: no Deployment given (--cluster-autoscaler): the twin's defaults "
        "(docs/sim.md)");
    return;
  }
  sim::ClusterAutoscalerOptions& options = scenario.cluster_autoscaler;
  const std::string& expander = config.expanders.front();
  if (std::optional<sim::Expander> known = ExpanderNamed(expander)) {
    options.expander = *known;
  } else {
    notes.push_back(fmt::format(
        "Cluster Autoscaler: --expander={}: not modelled by the twin; least-waste instead",
        expander));
  }
  options.balance_similar_node_groups = config.balance_similar_node_groups;
  options.scale_down_enabled = config.scale_down_enabled;
  options.scale_down_utilization_threshold = config.scale_down_utilization_threshold;
  const double unneeded = config.scale_down_unneeded_time.Seconds();
  const double delay = config.scale_down_delay_after_add.Seconds();
  scenario.latency.scale_down_unneeded_time = {unneeded, unneeded};
  scenario.latency.scale_down_delay_after_add = {delay, delay};
  std::string applied = fmt::format(
      "Cluster Autoscaler ({}/{}): --expander={} --balance-similar-node-groups={} "
      "--scale-down-enabled={} --scale-down-utilization-threshold={:g} "
      "--scale-down-unneeded-time={} --scale-down-delay-after-add={}",
      config.deployment_namespace, config.deployment_name, expander,
      config.balance_similar_node_groups, config.scale_down_enabled,
      config.scale_down_utilization_threshold, config.scale_down_unneeded_time.String(),
      config.scale_down_delay_after_add.String());
  if (options.expander == sim::Expander::kPriority) {
    std::vector<std::string> priorities;
    for (sim::NodeGroup& group : scenario.node_groups) {
      const std::optional<int64_t> priority =
          migrate::PriorityOf(config, AsgNames(group.name, inputs, asgs));
      group.priority = static_cast<int>(std::clamp<int64_t>(
          priority.value_or(0), std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
      priorities.push_back(fmt::format("{} {}", group.name, group.priority));
    }
    applied += "; priorities: " + absl::StrJoin(priorities, ", ");
  }
  notes.push_back(std::move(applied));
}

// Bounds of managed node groups from --nodegroups' scalingConfig, widened to the nodes the
// snapshot shows, where no Auto Scaling group gave them.
void ApplyNodegroupBounds(const migrate::MigrationInputs& inputs,
                          const std::vector<sim::AutoScalingGroupRecord>& asgs,
                          sim::Scenario& scenario) {
  for (sim::NodeGroup& group : scenario.node_groups) {
    const migrate::EksNodegroup* eks = NodegroupNamed(inputs, group.name);
    const bool asg_known = std::any_of(
        asgs.begin(), asgs.end(), [&](const auto& asg) { return GroupOfAsg(asg) == group.name; });
    if (eks == nullptr || asg_known || eks->max_size == 0) continue;
    group.min_size = std::min(static_cast<int>(eks->min_size), group.initial_size);
    group.max_size = std::max(static_cast<int>(eks->max_size), group.initial_size);
  }
}

// Cluster Autoscaler keeps a group its --nodes flag names within the flag's bounds.
void ApplyStaticNodeGroups(const migrate::MigrationInputs& inputs,
                           const std::vector<sim::AutoScalingGroupRecord>& asgs,
                           sim::Scenario& scenario, std::vector<std::string>& notes) {
  // The twin's groups are held to EKS' quota, as --asgs' are.
  const auto bounded = [](int64_t size) {
    return static_cast<int>(std::min<int64_t>(size, migrate::kMaxGroupSize));
  };
  for (const migrate::StaticNodeGroup& flag : inputs.autoscaler.static_node_groups) {
    for (sim::NodeGroup& group : scenario.node_groups) {
      const std::vector<std::string> names = AsgNames(group.name, inputs, asgs);
      if (std::find(names.begin(), names.end(), flag.name) == names.end()) continue;
      group.min_size = std::min(bounded(flag.min_size), group.initial_size);
      group.max_size = std::max(bounded(flag.max_size), group.initial_size);
      notes.push_back(
          fmt::format("{}: Cluster Autoscaler's {}: the today run keeps it within "
                      "{} to {} nodes",
                      group.name, flag.flag, group.min_size, group.max_size));
    }
  }
}

// Karpenter's run: the plan's manifests at t=0, then Phase 4's drains in the runbook's order.
absl::Status AddMigrationSteps(const migrate::MigrationPlan& plan, sim::Scenario& scenario) {
  KP_ASSIGN_OR_RETURN(std::vector<api::Manifest> manifests,
                      api::DecodeManifests(migrate::PlanYaml(plan), "<migrate>"));
  sim::Step apply;
  apply.only = sim::Autoscaler::kKarpenter;
  for (api::Manifest& manifest : manifests) {
    if (manifest.object) apply.objects.push_back(std::move(*manifest.object));
  }
  apply.note = fmt::format("Phases 1-3: the plan's {} EC2NodeClasses and {} NodePools applied",
                           plan.node_classes.size(), plan.node_pools.size());
  scenario.steps.push_back(std::move(apply));
  double at = kFirstDrainSeconds;
  for (const migrate::MigratedGroup& group : plan.migrated_groups) {
    const bool known =
        std::any_of(scenario.node_groups.begin(), scenario.node_groups.end(),
                    [&](const sim::NodeGroup& twin) { return twin.name == group.name; });
    if (!known) {
      return absl::InternalError("migrated group " + group.name + " is not a group of the twin");
    }
    sim::Step drain;
    drain.at_seconds = at;
    drain.kind = sim::StepKind::kDrainNodeGroup;
    drain.target = group.name;
    drain.only = sim::Autoscaler::kKarpenter;
    drain.note = fmt::format("Phase 4: cordon and drain {} ({} nodes) onto NodePool {}", group.name,
                             group.nodes, group.node_pool);
    scenario.steps.push_back(std::move(drain));
    at += kDrainSpacingSeconds;
  }
  scenario.duration_seconds =
      std::max(kMinReportSeconds, at - kDrainSpacingSeconds + kSettleSeconds);
  return absl::OkStatus();
}

const sim::RunResult& RunOf(const sim::SimReport& report, sim::Autoscaler autoscaler) {
  return *std::find_if(report.runs.begin(), report.runs.end(),
                       [&](const sim::RunResult& run) { return run.autoscaler == autoscaler; });
}

// "+1.2345 (+12%)": after minus today, and relative to today when today is not zero.
std::string Change(double today, double after, int decimals) {
  std::string change = fmt::format("{:+.{}f}", after - today, decimals);
  if (today != 0) change += fmt::format(" ({:+.0f}%)", 100 * (after - today) / today);
  return change;
}

// A row of the headline; a figure of a run without the pods it is about is std::nullopt.
struct Figure {
  std::string label;
  std::optional<double> today;
  std::optional<double> after;
  int decimals = 0;
};

const sim::PodSetResult& SetOf(const sim::RunResult& run, sim::PodSet set) {
  return run.pod_sets[static_cast<size_t>(set)];
}

// The pending-time rows of a pod set: p50 and p95 of its pods that bound.
void PendingFigures(const sim::RunResult& today, const sim::RunResult& after, sim::PodSet set,
                    const std::string& what, std::vector<Figure>& figures) {
  const auto percentile = [&](const sim::RunResult& run, double sim::Percentiles::*field) {
    const sim::PodSetResult& result = SetOf(run, set);
    return result.pods == 0 ? std::nullopt : std::optional<double>(result.pending_seconds.*field);
  };
  figures.push_back({"pending time of " + what + ", p50, s",
                     percentile(today, &sim::Percentiles::p50),
                     percentile(after, &sim::Percentiles::p50), 1});
  figures.push_back({"pending time of " + what + ", p95, s",
                     percentile(today, &sim::Percentiles::p95),
                     percentile(after, &sim::Percentiles::p95), 1});
}

// The page's headline: what the issue asks to compare, today against after the migration.
std::vector<Figure> Figures(const sim::SimReport& report) {
  const sim::RunResult& today = RunOf(report, sim::Autoscaler::kClusterAutoscaler);
  const sim::RunResult& after = RunOf(report, sim::Autoscaler::kKarpenter);
  const double days = report.simulated_seconds / kSecondsPerDay;
  const auto drained = [](const sim::RunResult& run) {
    return static_cast<double>(SetOf(run, sim::PodSet::kMigration).evictions);
  };
  const auto per_day = [&](const sim::RunResult& run) {
    return (static_cast<double>(run.evictions) - drained(run)) / days;
  };
  const auto count = [](size_t value) { return static_cast<double>(value); };
  std::vector<Figure> figures = {
      {"cost, mean $/h", today.cost_per_hour_mean, after.cost_per_hour_mean, 4},
      {"cost at the end, $/h", today.cost_per_hour_final, after.cost_per_hour_final, 4},
  };
  PendingFigures(today, after, sim::PodSet::kWorkload, "the workload's pods", figures);
  PendingFigures(today, after, sim::PodSet::kMigration, "the drained pods", figures);
  figures.push_back(
      {"evictions per day (the Phase 4 drain left out)", per_day(today), per_day(after), 1});
  figures.push_back({"evictions by the Phase 4 drain (once)", drained(today), drained(after), 0});
  figures.push_back({"nodes at the end", count(today.nodes_final), count(after.nodes_final), 0});
  figures.push_back({"nodes at the peak", count(today.nodes_max), count(after.nodes_max), 0});
  return figures;
}

std::string Cell(const std::optional<double>& value, int decimals) {
  return value ? fmt::format("{:.{}f}", *value, decimals) : "n/a";
}

std::string LeadSection(const sim::SimReport& report, const MigrationTwin& twin) {
  std::string html =
      "<section id=\"migration\"><h2>Today and after the migration</h2>\n"
      "<p class=\"description\">Both runs start from the snapshot's nodes and pods. "
      "<b>Today</b> is Cluster Autoscaler with the node groups as they are; <b>after</b> is "
      "Karpenter with the generated NodePools, the migrated groups drained one after another "
      "(below) and the static groups kept. Evictions per day leave out the drain, a one-off; "
      "the drained pods are those the drain evicted, rescheduled (n/a: a run without "
      "them).</p>\n"
      "<table id=\"migration-figures\">\n<tr><th></th><th>today: Cluster Autoscaler</th>"
      "<th>after: Karpenter</th><th>change</th></tr>\n";
  for (const Figure& figure : Figures(report)) {
    const std::string change =
        figure.today && figure.after ? Change(*figure.today, *figure.after, figure.decimals) : "";
    html += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                        sim::EscapeXml(figure.label), Cell(figure.today, figure.decimals),
                        Cell(figure.after, figure.decimals), sim::EscapeXml(change));
  }
  html += "</table>\n<h3>Phase 4 in the Karpenter run</h3>\n<ol id=\"migration-drain\">\n";
  for (const sim::Step& step : twin.scenario.steps) {
    if (step.kind != sim::StepKind::kDrainNodeGroup) continue;
    html += fmt::format("<li>at {:.0f} min: {}</li>\n", step.at_seconds / 60,
                        sim::EscapeXml(step.note));
  }
  html += "</ol>\n<h3>How the twin models this cluster</h3>\n<ul>\n";
  for (const std::string& note : twin.notes) html += "<li>" + sim::EscapeXml(note) + "</li>\n";
  html += "</ul></section>\n";
  return html;
}

}  // namespace

absl::StatusOr<MigrationTwin> BuildMigrationTwin(
    const migrate::MigrationInputs& inputs, const migrate::MigrationPlan& plan,
    const std::vector<sim::AutoScalingGroupRecord>& asgs) {
  MigrationTwin twin;
  KP_ASSIGN_OR_RETURN(const std::vector<api::Manifest> snapshot,
                      TwinSnapshot(inputs, asgs, twin.notes));
  KP_ASSIGN_OR_RETURN(const std::string region, SnapshotRegion(snapshot, ""));
  cloudprovider::CatalogOptions catalog_options;
  catalog_options.resolve.region = region;
  KP_ASSIGN_OR_RETURN(const cloudprovider::Catalog catalog,
                      cloudprovider::Catalog::LoadEmbedded(catalog_options));
  sim::Scenario trace;
  trace.name = "migration of " + plan.cluster;
  trace.description = fmt::format(
      "The cluster {} replayed twice from its snapshot: as it runs today, its node groups under "
      "Cluster Autoscaler, and after the migration, under Karpenter with the NodePools and "
      "EC2NodeClasses karpenter migrate generated, each migrated group cordoned and drained in "
      "the runbook's order. No workload trace: the snapshot's workloads only.",
      plan.cluster);
  trace.region = region;
  KP_ASSIGN_OR_RETURN(twin.scenario,
                      sim::ScenarioFromSnapshot(snapshot, std::move(trace), catalog, asgs));
  ApplyNodegroupBounds(inputs, asgs, twin.scenario);
  ApplyStaticNodeGroups(inputs, asgs, twin.scenario, twin.notes);
  ApplyAutoscalerFlags(inputs, asgs, twin.scenario, twin.notes);
  KP_RETURN_IF_ERROR(AddMigrationSteps(plan, twin.scenario));
  for (const migrate::StaticGroup& group : plan.static_groups) {
    twin.notes.push_back(fmt::format("{}: kept as a static group in the Karpenter run (runs {})",
                                     group.name, absl::StrJoin(group.addons, ", ")));
  }
  return twin;
}

absl::StatusOr<std::string> RenderMigrationReport(
    const migrate::MigrationInputs& inputs, const migrate::MigrationPlan& plan,
    const std::vector<sim::AutoScalingGroupRecord>& asgs, uint64_t seed) {
  KP_ASSIGN_OR_RETURN(const MigrationTwin twin, BuildMigrationTwin(inputs, plan, asgs));
  cloudprovider::CatalogOptions catalog_options;
  catalog_options.resolve.region = twin.scenario.region;
  catalog_options.spot = twin.scenario.spot_prices;
  KP_ASSIGN_OR_RETURN(const cloudprovider::Catalog catalog,
                      cloudprovider::Catalog::LoadEmbedded(catalog_options));
  sim::EventLog log(/*enabled=*/false);
  KP_ASSIGN_OR_RETURN(const sim::SimReport report,
                      sim::RunScenario(twin.scenario, seed, catalog, log));
  return sim::RenderReportHtml(
      report, {.command = "karpenter migrate", .lead_section = LeadSection(report, twin)});
}

}  // namespace karpenter::cli
