#include "src/migrate/plan_output.h"

#include <yaml-cpp/yaml.h>

#include "fmt/format.h"
#include "src/migrate/iam_runbook.h"

namespace karpenter::migrate {
namespace {

using Json = nlohmann::ordered_json;

// Values are quoted so that a label "true" or a limit "8" stays a string when read back.
void Emit(YAML::Emitter& out, const Json& value) {
  if (value.is_object()) {
    out << YAML::BeginMap;
    for (const auto& [key, item] : value.items()) {
      out << YAML::Key << key << YAML::Value;
      Emit(out, item);
    }
    out << YAML::EndMap;
  } else if (value.is_array()) {
    out << YAML::BeginSeq;
    for (const Json& item : value) Emit(out, item);
    out << YAML::EndSeq;
  } else if (value.is_string()) {
    out << YAML::DoubleQuoted << value.get<std::string>();
  } else {
    out << value.dump();
  }
}

std::string CheckLine(const Check& check) {
  std::string line =
      fmt::format("[{}] {}: {}", VerdictName(check.verdict), check.id, check.summary);
  for (const std::string& object : check.objects) line += "\n    - " + object;
  return line;
}

std::string Commented(const std::string& text) {
  std::string out = "# ";
  for (char c : text) {
    out += c;
    if (c == '\n') out += "# ";
  }
  return out + "\n";
}

}  // namespace

std::string PlanYaml(const MigrationPlan& plan) {
  std::string out = Commented(fmt::format("karpenter migrate: cluster {}", plan.cluster));
  out += "# Checks:\n";
  for (const Check& check : plan.checks) out += Commented("  " + CheckLine(check));
  out += "# Lossy mappings:\n";
  if (plan.lossy_mappings.empty()) out += "#   none\n";
  for (const LossyMapping& loss : plan.lossy_mappings) {
    out += Commented(fmt::format("  {}: {}: {}", loss.group, loss.field, loss.reason));
  }
  for (const std::string& widened : plan.widened) {
    out += Commented("Widened (--diversify): " + widened);
  }
  for (const StaticGroup& group : plan.static_groups) {
    out += Commented(fmt::format("Static group {} stays as it is (no NodePool): it runs {}",
                                 group.name, fmt::join(group.addons, ", ")));
  }
  for (const std::string& missing : plan.missing_inputs) {
    out += Commented("Missing input: " + missing);
  }
  auto document = [&out](const Json& manifest) {
    YAML::Emitter emitter;
    Emit(emitter, manifest);
    out += fmt::format("---\n{}\n", emitter.c_str());
  };
  for (const Json& node_class : plan.node_classes) document(node_class);
  for (const Json& node_pool : plan.node_pools) document(node_pool);
  return out;
}

std::string PlanJson(const MigrationPlan& plan) {
  Json statics = Json::array();
  for (const StaticGroup& group : plan.static_groups) {
    statics.push_back({{"name", group.name},
                       {"addons", group.addons},
                       {"zones", group.zones},
                       {"nodes", group.nodes}});
  }
  Json lossy = Json::array();
  for (const LossyMapping& loss : plan.lossy_mappings) {
    lossy.push_back({{"group", loss.group}, {"field", loss.field}, {"reason", loss.reason}});
  }
  Json checks = Json::array();
  for (const Check& check : plan.checks) {
    checks.push_back({{"id", check.id},
                      {"verdict", VerdictName(check.verdict)},
                      {"summary", check.summary},
                      {"objects", check.objects}});
  }
  Json out = {{"cluster", plan.cluster},
              {"nodePools", plan.node_pools},
              {"ec2NodeClasses", plan.node_classes},
              {"staticGroups", statics},
              {"lossyMappings", lossy},
              {"widened", plan.widened},
              {"checks", checks},
              {"missingInputs", plan.missing_inputs}};
  return out.dump(2) + "\n";
}

std::string PlanRunbook(const MigrationPlan& plan) {
  std::string out =
      fmt::format("Migration of cluster {} from Cluster Autoscaler to Karpenter\n\n", plan.cluster);
  out += "Checks:\n";
  for (const Check& check : plan.checks) out += "  " + CheckLine(check) + "\n";
  out += fmt::format(
      "\nPhase 1: deploy Karpenter next to the node groups\n"
      "  aws ec2 create-tags --resources <subnet and security group ids> --tags "
      "Key={0},Value={1}\n"
      "    rollback: aws ec2 delete-tags --resources <same ids> --tags Key={0}\n",
      kDiscoveryTag, plan.cluster);
  out += IamRunbookSteps(plan);
  out += fmt::format(
      "  helm upgrade --install karpenter oci://public.ecr.aws/karpenter/karpenter "
      "--namespace karpenter --create-namespace --set settings.clusterName={} --wait\n"
      "    rollback: helm uninstall karpenter -n karpenter\n",
      plan.cluster);
  out +=
      "\nPhase 2: apply the NodePools and EC2NodeClasses\n"
      "  karpenter migrate ... -o yaml > karpenter-migration.yaml\n"
      "  kubectl apply -f karpenter-migration.yaml\n"
      "  kubectl get ec2nodeclasses,nodepools\n"
      "    rollback: kubectl delete -f karpenter-migration.yaml\n";
  out +=
      "\nPhase 3: shift workloads: watch Karpenter launch for pending pods\n"
      "  kubectl logs -n karpenter -l app.kubernetes.io/name=karpenter -f\n";
  out += fmt::format(
      "\nPhase 4: stop Cluster Autoscaler, then cordon and drain each migrated group\n"
      "  kubectl scale deployment {0} -n {1} --replicas=0\n"
      "    rollback: kubectl scale deployment {0} -n {1} --replicas=1\n",
      plan.autoscaler_name, plan.autoscaler_namespace);
  for (const MigratedGroup& group : plan.migrated_groups) {
    // A self-managed group's nodes may carry no label of it: they are named instead.
    const std::string nodes = group.node_names.empty()
                                  ? "-l eks.amazonaws.com/nodegroup=" + group.name
                                  : fmt::format("{}", fmt::join(group.node_names, " "));
    out += fmt::format(
        "  # {0}: {1} nodes -> NodePool {2}\n"
        "  kubectl cordon {3}\n"
        "  kubectl drain {3} --ignore-daemonsets --delete-emptydir-data --force\n"
        "    rollback: kubectl uncordon {3}\n",
        group.name, group.nodes, group.node_pool, nodes);
  }
  for (const StaticGroup& group : plan.static_groups) {
    out += fmt::format("  # {}: kept as a static group (runs {}): not drained\n", group.name,
                       fmt::join(group.addons, ", "));
  }
  out += "  then delete the drained groups in your infrastructure code\n";
  if (!plan.widened.empty()) out += "\nWidened instance types (--diversify):\n";
  for (const std::string& widened : plan.widened) out += "  " + widened + "\n";
  if (!plan.lossy_mappings.empty()) out += "\nLossy mappings:\n";
  for (const LossyMapping& loss : plan.lossy_mappings) {
    out += fmt::format("  {}: {}: {}\n", loss.group, loss.field, loss.reason);
  }
  for (const std::string& missing : plan.missing_inputs) {
    out += "Missing input: " + missing + "\n";
  }
  return out;
}

}  // namespace karpenter::migrate
