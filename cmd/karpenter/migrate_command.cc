#include "cmd/karpenter/migrate_command.h"

#include <algorithm>
#include <iostream>

#include "absl/strings/str_cat.h"
#include "cmd/karpenter/input_files.h"
#include "cmd/karpenter/migrate_report.h"
#include "cmd/karpenter/output_file.h"
#include "cmd/karpenter/output_format.h"
#include "cmd/karpenter/seed_option.h"
#include "src/api/manifest.h"
#include "src/cloudprovider/catalog.h"
#include "src/migrate/cluster_autoscaler.h"
#include "src/migrate/kube_documents.h"
#include "src/migrate/migration_plan.h"
#include "src/migrate/plan_output.h"
#include "src/migrate/plan_validation.h"
#include "src/migrate/vpc_cni.h"
#include "src/sim/auto_scaling_group_file.h"

namespace karpenter::cli {
namespace {

// The objects of `file` the typed snapshot does not keep whole (the Cluster Autoscaler
// Deployment and ConfigMap), appended to `kept`.
absl::Status KeepRawDocuments(const std::string& file, std::vector<migrate::KubeDocument>& kept) {
  KP_ASSIGN_OR_RETURN(std::vector<migrate::KubeDocument> documents,
                      migrate::LoadKubeDocumentsFile(file));
  for (migrate::KubeDocument& document : documents) {
    if (migrate::IsClusterAutoscalerDocument(document) || migrate::IsAwsNodeDaemonSet(document)) {
      kept.push_back(std::move(document));
    }
  }
  return absl::OkStatus();
}

absl::Status ReadSnapshot(const MigrateOptions& options, migrate::MigrationInputs& inputs,
                          std::vector<migrate::KubeDocument>& raw) {
  KP_ASSIGN_OR_RETURN(std::vector<std::string> files,
                      ExpandFilenames(options.files, options.recursive));
  for (const std::string& file : files) {
    absl::StatusOr<std::vector<api::Manifest>> manifests = api::LoadManifestFile(file);
    if (!manifests.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(file, ": ", manifests.status().message()));
    }
    for (api::Manifest& manifest : *manifests) inputs.snapshot.push_back(std::move(manifest));
    KP_RETURN_IF_ERROR(KeepRawDocuments(file, raw));
  }
  return absl::OkStatus();
}

// --cluster-autoscaler files, and such objects found in the snapshot.
absl::Status ReadClusterAutoscaler(const MigrateOptions& options,
                                   std::vector<migrate::KubeDocument> raw,
                                   migrate::MigrationInputs& inputs) {
  KP_ASSIGN_OR_RETURN(std::vector<std::string> files,
                      ExpandFilenames(options.cluster_autoscaler, /*recursive=*/false));
  for (const std::string& file : files) {
    const size_t before = raw.size();
    KP_RETURN_IF_ERROR(KeepRawDocuments(file, raw));
    if (raw.size() == before) {
      return absl::InvalidArgumentError(
          absl::StrCat(file, ": neither a Deployment with a cluster-autoscaler container nor the ",
                       migrate::kPriorityExpanderConfigMap, " ConfigMap"));
    }
  }
  KP_RETURN_IF_ERROR(migrate::ReadVpcCni(raw, inputs.cni));
  inputs.autoscaler_given =
      std::any_of(raw.begin(), raw.end(), migrate::IsClusterAutoscalerDocument);
  return migrate::ReadClusterAutoscaler(raw, inputs.autoscaler);
}

// `records`: the --asgs file as read, for the twin of --report.
absl::Status ReadAwsInputs(const MigrateOptions& options, migrate::MigrationInputs& inputs,
                           std::vector<sim::AutoScalingGroupRecord>& records) {
  if (!options.asgs.empty()) {
    KP_ASSIGN_OR_RETURN(records, sim::LoadAutoScalingGroupsFile(options.asgs));
    for (const sim::AutoScalingGroupRecord& record : records) {
      migrate::AsgBounds asg{record.name, record.node_group, record.min_size, record.max_size,
                             record.instance_ids};
      for (const sim::InstanceOverride& entry : record.overrides) {
        asg.override_types.push_back(entry.instance_type);
        if (!entry.weighted_capacity.empty()) {
          asg.weights.push_back(entry.instance_type + "=" + entry.weighted_capacity);
        }
      }
      asg.on_demand_base = record.on_demand_base;
      asg.on_demand_percentage = record.on_demand_percentage;
      asg.launch_template_id = record.launch_template.id;
      asg.launch_template_name = record.launch_template.name;
      asg.launch_template_version = record.launch_template.version;
      inputs.asgs.push_back(std::move(asg));
    }
    inputs.asgs_given = true;
  }
  if (!options.nodegroups.empty()) {
    KP_ASSIGN_OR_RETURN(std::vector<std::string> files,
                        ExpandFilenames(options.nodegroups, /*recursive=*/false));
    for (const std::string& file : files) {
      KP_ASSIGN_OR_RETURN(migrate::EksNodegroup group, migrate::LoadEksNodegroupFile(file));
      inputs.nodegroups.push_back(std::move(group));
    }
    inputs.nodegroups_given = true;
  }
  if (!options.subnets.empty()) {
    KP_ASSIGN_OR_RETURN(inputs.subnets, migrate::LoadSubnetsFile(options.subnets));
    inputs.subnets_given = true;
  }
  if (!options.launch_templates.empty()) {
    KP_ASSIGN_OR_RETURN(inputs.launch_templates,
                        migrate::LoadLaunchTemplateVersionsFile(options.launch_templates));
    inputs.launch_templates_given = true;
  }
  return absl::OkStatus();
}

struct Planned {
  migrate::MigrationInputs inputs;
  std::vector<sim::AutoScalingGroupRecord> asgs;  // --asgs as read
  migrate::MigrationPlan plan;
};

absl::Status MakePlan(const MigrateOptions& options, Planned& planned) {
  migrate::MigrationInputs& inputs = planned.inputs;
  inputs.cluster = options.cluster;
  inputs.diversify = options.diversify;
  std::vector<migrate::KubeDocument> raw;
  KP_RETURN_IF_ERROR(ReadSnapshot(options, inputs, raw));
  KP_RETURN_IF_ERROR(ReadAwsInputs(options, inputs, planned.asgs));
  KP_RETURN_IF_ERROR(ReadClusterAutoscaler(options, std::move(raw), inputs));
  KP_ASSIGN_OR_RETURN(cloudprovider::Catalog catalog, cloudprovider::Catalog::LoadEmbedded());
  KP_ASSIGN_OR_RETURN(planned.plan, migrate::PlanMigration(inputs, catalog));
  if (absl::Status valid = migrate::ValidatePlanManifests(planned.plan); !valid.ok()) {
    return absl::InternalError(absl::StrCat(
        "the generated manifests fail validation (please report this):\n", valid.message()));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> Render(const MigrateOptions& options) {
  Planned planned;
  KP_RETURN_IF_ERROR(MakePlan(options, planned));
  if (!options.report.empty()) {
    absl::StatusOr<std::string> page =
        RenderMigrationReport(planned.inputs, planned.plan, planned.asgs, options.seed);
    if (!page.ok()) {
      return absl::Status(page.status().code(),
                          absl::StrCat("--report: ", page.status().message()));
    }
    if (!WriteFile(options.report, *page)) {
      return absl::UnavailableError(options.report + ": cannot write the report file");
    }
  }
  const migrate::MigrationPlan& plan = planned.plan;
  if (options.output == "json") return migrate::PlanJson(plan);
  if (options.output == "yaml") return migrate::PlanYaml(plan);
  return migrate::PlanRunbook(plan);  // text, and wide: the runbook has no wider form
}

}  // namespace

void AddMigrateCommand(CLI::App& app, MigrateOptions& options, int& exit_code) {
  CLI::App* cmd = app.add_subcommand(
      "migrate", "Plan the move from Cluster Autoscaler node groups to NodePools, offline");
  cmd->add_option("-f,--filename", options.files,
                  "The cluster snapshot: kubectl get nodes,pods,deployments,statefulsets,pdb "
                  "-A -o yaml (file, directory or comma list, as kubectl reads -f)")
      ->required();
  cmd->add_flag("-R,--recursive", options.recursive,
                "Read the directories -f names and their subdirectories");
  cmd->add_option("--asgs", options.asgs,
                  "aws autoscaling describe-auto-scaling-groups output (JSON)");
  cmd->add_option("--nodegroups", options.nodegroups,
                  "aws eks describe-nodegroup output, one group per file (files, a directory "
                  "or a comma list)");
  cmd->add_option("--subnets", options.subnets, "aws ec2 describe-subnets output (JSON)");
  cmd->add_option("--launch-templates", options.launch_templates,
                  "aws ec2 describe-launch-template-versions output (JSON) of the templates the "
                  "node groups use");
  cmd->add_option("--cluster-autoscaler", options.cluster_autoscaler,
                  "kubectl get -o yaml of the cluster-autoscaler Deployment and of the "
                  "cluster-autoscaler-priority-expander ConfigMap (files or a comma list; the "
                  "snapshot may hold them too)");
  cmd->add_flag("--diversify", options.diversify,
                "Widen each group's instance types to the families with the same vCPU counts, "
                "vCPU:memory ratio and architecture (default: the group's types only)");
  cmd->add_option("--cluster", options.cluster,
                  "The EKS cluster's name (default: clusterName of --nodegroups)");
  cmd->add_option("-o,--output", options.output,
                  "Output format: text (the runbook, also wide), yaml (the manifests) or json")
      ->check(CLI::IsMember(kOutputFormats))
      ->capture_default_str();
  cmd->add_option("--report", options.report,
                  "Write a self-contained HTML page: the cluster replayed in the twin as it runs "
                  "today under Cluster Autoscaler and after the migration under Karpenter (the "
                  "generated NodePools, Phase 4's drain), side by side");
  AddSeedOption(*cmd, options.seed, "Random seed of the --report runs");
  cmd->footer(
      "Examples:\n"
      "  kubectl get nodes,pods,daemonsets,deployments,statefulsets,pdb -A -o yaml > cluster.yaml\n"
      "  karpenter migrate -f cluster.yaml --cluster production-eks   # the runbook and checks\n"
      "  karpenter migrate -f cluster.yaml --nodegroups nodegroups/ --asgs asgs.json "
      "--subnets subnets.json -o yaml > karpenter.yaml\n"
      "  karpenter migrate -f examples/migrate/article/snapshot.json --cluster production-eks "
      "-o json\n"
      "  karpenter migrate -f cluster.yaml --nodegroups nodegroups/ --asgs asgs.json "
      "--report migration.html\n"
      "Exit codes: 0 a plan was printed (failed checks are in it); 1 an unreadable or invalid "
      "input (FILE: field.path: message) or bad flags");
  cmd->callback([&options, &exit_code] { exit_code = RunMigrate(options, std::cout, std::cerr); });
}

int RunMigrate(const MigrateOptions& options, std::ostream& out, std::ostream& err) {
  if (!options.report.empty() && !Writable(options.report)) {
    err << "error: " << options.report << ": cannot write the report file\n";
    return 1;
  }
  absl::StatusOr<std::string> rendered = Render(options);
  if (!rendered.ok()) {
    err << "error: " << rendered.status().message() << "\n";
    return 1;
  }
  out << *rendered;
  return 0;
}

}  // namespace karpenter::cli
