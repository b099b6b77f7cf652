#include "src/migrate/migration_plan.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "fmt/format.h"
#include "src/api/karpenter_labels.h"
#include "src/migrate/ami_alias.h"
#include "src/migrate/autoscaler_mapping.h"
#include "src/migrate/diversify.h"
#include "src/migrate/group_facts.h"
#include "src/migrate/preflight_checks.h"

namespace karpenter::migrate {
namespace {

using Json = nlohmann::ordered_json;

// A NodePool or EC2NodeClass name: EKS allows '_' and capitals in node group names, Kubernetes
// object names do not.
std::string ObjectName(const std::string& group) {
  std::string name;
  for (char c : group) {
    name += c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return name;
}

// `base`, or `base-2`, `base-3`... when taken: two groups can map to one object name
// ("Batch_1" and "batch-1"), and a group may be called "default".
std::string UniqueName(const std::string& base, std::set<std::string>& taken) {
  std::string name = base;
  for (int n = 2; taken.contains(name); ++n) name = fmt::format("{}-{}", base, n);
  taken.insert(name);
  return name;
}

std::string RoleName(const std::string& arn) {
  const size_t slash = arn.rfind('/');
  return slash == std::string::npos ? arn : arn.substr(slash + 1);
}

std::string TaintEffect(const std::string& eks_effect) {
  if (eks_effect == "NO_EXECUTE") return "NoExecute";
  if (eks_effect == "PREFER_NO_SCHEDULE") return "PreferNoSchedule";
  return "NoSchedule";
}

// Why a NodePool may not set the label `key` (Karpenter's runtime rule, then the CRD's CEL rules),
// or empty when it may.
std::string LabelRefusal(const std::string& key) {
  if (api::IsRestrictedLabel(key)) return api::RestrictedLabelMessage(key);
  std::vector<std::string_view> violations =
      api::CrdLabelKeyViolations(key, api::LabelKeyScope::kNodePool);
  return violations.empty() ? "" : std::string(violations.front());
}

struct NodeClassKey {
  std::string alias;
  std::string role;
  int64_t disk_gib = 0;
  std::string launch_template;  // "id@version" when its settings are carried
  auto operator<=>(const NodeClassKey&) const = default;
};

class Planner {
 public:
  Planner(const MigrationInputs& inputs, const cloudprovider::Catalog& catalog, MigrationPlan& plan)
      : inputs_(inputs), catalog_(catalog), plan_(plan) {}

  // Cluster Autoscaler's settings, read before the first group.
  void Autoscaler(const std::vector<GroupFacts>& groups);
  void Group(const GroupFacts& facts);

 private:
  void Lossy(const std::string& group, std::string field, std::string reason) {
    plan_.lossy_mappings.push_back({group, std::move(field), std::move(reason)});
  }
  std::string NodeClassFor(const GroupFacts& facts);
  // The launch template version a group names, when --launch-templates has it; what it loses.
  const LaunchTemplateVersion* LaunchTemplateOf(const GroupFacts& facts, const std::string& alias);
  Json Requirements(const GroupFacts& facts, const std::vector<std::string>& types);
  // The requirements with the instance types widened (--diversify); the count of types allowed.
  int Diversify(const std::string& group, const std::vector<std::string>& types,
                Json& requirements);
  Json Limits(const GroupFacts& facts, const std::vector<std::string>& types);
  // Cluster Autoscaler's --nodes bounds: the group's when no other input gives them, else the
  // smaller maximum of the two, with the disagreement noted.
  void StaticBounds(const GroupFacts& facts, const std::string& source, int64_t& min_nodes,
                    int64_t& max_nodes);
  Json TemplateLabels(const GroupFacts& facts);
  Json Taints(const GroupFacts& facts);
  void MixedInstancesLosses(const GroupFacts& facts);

  const MigrationInputs& inputs_;
  const cloudprovider::Catalog& catalog_;
  MigrationPlan& plan_;
  std::map<NodeClassKey, std::string> node_classes_;
  std::set<std::string> pool_names_;
  std::set<std::string> class_names_;
  DisruptionSettings disruption_;
  std::map<std::string, int> weights_;  // by group
};

// The volume EKS sizes with `diskSize`: Bottlerocket keeps containers and images on its second
// (data) volume, Windows boots from /dev/sda1, the Amazon Linux AMIs from /dev/xvda.
std::string DiskDeviceFor(const std::string& alias) {
  if (alias.starts_with("bottlerocket@")) return "/dev/xvdb";
  if (alias.starts_with("windows")) return "/dev/sda1";
  return "/dev/xvda";
}

// EC2NodeClass's amiFamily for an alias: required once the AMI is selected by id.
std::string AmiFamilyOf(const std::string& alias) {
  const std::string family = alias.substr(0, alias.find('@'));
  if (family == "al2023") return "AL2023";
  if (family == "al2") return "AL2";
  if (family == "bottlerocket") return "Bottlerocket";
  if (family == "windows2019") return "Windows2019";
  if (family == "windows2022") return "Windows2022";
  return "AL2023";
}

// What a launch template sets overrides the defaults; the rest of the class stays.
void ApplyLaunchTemplate(const LaunchTemplateVersion& template_version, const std::string& alias,
                         Json& spec) {
  if (!template_version.security_groups.empty()) {
    Json terms = Json::array();
    for (const std::string& id : template_version.security_groups) terms.push_back({{"id", id}});
    spec["securityGroupSelectorTerms"] = terms;
  }
  if (!template_version.image_id.empty()) {
    spec["amiFamily"] = AmiFamilyOf(alias);
    spec["amiSelectorTerms"] = Json::array({{{"id", template_version.image_id}}});
  }
  if (!template_version.block_device_mappings.empty()) {
    spec["blockDeviceMappings"] = template_version.block_device_mappings;
  }
  if (template_version.metadata_options.is_object()) {
    for (const auto& [field, value] : template_version.metadata_options.items()) {
      spec["metadataOptions"][field] = value;
    }
  }
}

Json NodeClassManifest(const std::string& name, const NodeClassKey& key, const std::string& cluster,
                       const LaunchTemplateVersion* template_version) {
  Json selector = Json::array({{{"tags", {{kDiscoveryTag, cluster}}}}});
  Json spec = {{"role", key.role},
               {"subnetSelectorTerms", selector},
               {"securityGroupSelectorTerms", selector},
               {"amiSelectorTerms", Json::array({{{"alias", key.alias}}})}};
  if (key.disk_gib > 0) {
    spec["blockDeviceMappings"] = Json::array({{{"deviceName", DiskDeviceFor(key.alias)},
                                                {"ebs",
                                                 {{"volumeSize", fmt::format("{}Gi", key.disk_gib)},
                                                  {"volumeType", "gp3"},
                                                  {"encrypted", true},
                                                  {"deleteOnTermination", true}}}}});
  }
  spec["metadataOptions"] = {{"httpEndpoint", "enabled"},
                             {"httpProtocolIPv6", "disabled"},
                             {"httpPutResponseHopLimit", 1},
                             {"httpTokens", "required"}};
  if (template_version != nullptr) ApplyLaunchTemplate(*template_version, key.alias, spec);
  return {{"apiVersion", "karpenter.k8s.aws/v1"},
          {"kind", "EC2NodeClass"},
          {"metadata", {{"name", name}}},
          {"spec", spec}};
}

const LaunchTemplateVersion* Planner::LaunchTemplateOf(const GroupFacts& facts,
                                                       const std::string& alias) {
  const std::string& group = facts.observed->name;
  const std::optional<TemplateRef> ref = TemplateRefOf(facts);
  if (!ref) return nullptr;
  const std::string& shown = ref->name.empty() ? ref->id : ref->name;
  if (!inputs_.launch_templates_given) {
    Lossy(group, "launchTemplate",
          fmt::format("{} {} is not carried: pass --launch-templates (aws ec2 "
                      "describe-launch-template-versions) for its AMI, block devices, IMDS "
                      "settings and security groups",
                      ref->source, shown));
    return nullptr;
  }
  const LaunchTemplateVersion* found =
      FindLaunchTemplate(inputs_.launch_templates, ref->name, ref->version);
  if (found == nullptr) {
    found = FindLaunchTemplate(inputs_.launch_templates, ref->id, ref->version);
  }
  if (found == nullptr) {
    Lossy(group, "launchTemplate",
          fmt::format("{} {} version {} is not in --launch-templates: not carried", ref->source,
                      shown, ref->version.empty() ? "$Default" : ref->version));
    return nullptr;
  }
  if (!found->image_id.empty()) {
    Lossy(group, "launchTemplate.ImageId",
          fmt::format("AMI {} is selected by id: an alias ({}) is preferable, so that Karpenter "
                      "follows new releases through drift",
                      found->image_id, alias));
  }
  if (found->has_user_data) {
    Lossy(group, "launchTemplate.UserData",
          "not carried: Karpenter writes the bootstrap of the AMI family itself; review the "
          "template's user data and move what is still needed into the EC2NodeClass's userData");
  }
  if (found->instance_metadata_tags) {
    Lossy(group, "launchTemplate.MetadataOptions.InstanceMetadataTags",
          "an EC2NodeClass cannot expose instance tags in IMDS: not carried");
  }
  return found;
}

std::string Planner::NodeClassFor(const GroupFacts& facts) {
  const std::string& group = facts.observed->name;
  const LaunchTemplateVersion* template_version = nullptr;
  NodeClassKey key;
  if (facts.eks != nullptr) {
    AmiChoice ami = AmiAliasFor(facts.eks->ami_type, facts.eks->release_version);
    key.alias = ami.alias;
    if (!ami.loss.empty()) Lossy(group, "amiType", ami.loss);
    key.role = RoleName(facts.eks->node_role);
    key.disk_gib = facts.eks->disk_size_gib;
    template_version = LaunchTemplateOf(facts, key.alias);
  } else {
    key.alias = "al2023@latest";
    template_version = LaunchTemplateOf(facts, key.alias);
  }
  if (template_version != nullptr) {
    key.launch_template = fmt::format("{}@{}", template_version->id, template_version->version);
  }
  if (key.role.empty()) key.role = "KarpenterNodeRole-" + plan_.cluster;
  auto [it, fresh] = node_classes_.try_emplace(key);
  if (!fresh) return it->second;
  it->second = UniqueName(node_classes_.size() == 1 ? "default" : ObjectName(group), class_names_);
  plan_.node_classes.push_back(NodeClassManifest(it->second, key, plan_.cluster, template_version));
  return it->second;
}

Json Planner::Requirements(const GroupFacts& facts, const std::vector<std::string>& types) {
  const ObservedGroup& observed = *facts.observed;
  std::set<std::string> capacity_types = observed.capacity_types;
  if (facts.asg != nullptr && facts.asg->on_demand_percentage < 100) {
    capacity_types.insert("spot");  // a mixed-instances split launches both
    if (facts.asg->on_demand_percentage > 0 || facts.asg->on_demand_base > 0) {
      capacity_types.insert("on-demand");
    }
  }
  if (facts.eks != nullptr && facts.eks->capacity_type == "SPOT") capacity_types = {"spot"};
  if (facts.eks != nullptr && facts.eks->capacity_type == "ON_DEMAND") {
    capacity_types = {"on-demand"};
  }
  if (facts.eks != nullptr && facts.eks->capacity_type == "CAPACITY_BLOCK") {
    capacity_types = {"reserved"};
    Lossy(observed.name, "capacityType",
          "a capacity block needs its reservation selected on the EC2NodeClass "
          "(capacityReservationSelectorTerms): not carried");
  }
  auto requirement = [](const char* key, const auto& values) {
    return Json{{"key", key},
                {"operator", "In"},
                {"values", std::vector<std::string>(values.begin(), values.end())}};
  };
  return Json::array({requirement(kInstanceTypeLabel, types),
                      requirement(kZoneLabel, observed.zones),
                      requirement("karpenter.sh/capacity-type", capacity_types)});
}

void Planner::StaticBounds(const GroupFacts& facts, const std::string& source, int64_t& min_nodes,
                           int64_t& max_nodes) {
  const StaticNodeGroup& flag = *facts.flag;
  if (max_nodes < 0) {
    min_nodes = flag.min_size;
    max_nodes = flag.max_size;
    return;
  }
  if (flag.min_size == min_nodes && flag.max_size == max_nodes) return;
  Lossy(facts.observed->name, "--nodes",
        fmt::format("Cluster Autoscaler's {} disagrees with {} (MinSize {}, MaxSize {}): the "
                    "group grows to the smaller maximum, {}, which the limits use",
                    flag.flag, source, min_nodes, max_nodes, std::min(flag.max_size, max_nodes)));
  max_nodes = std::min(flag.max_size, max_nodes);
}

Json Planner::Limits(const GroupFacts& facts, const std::vector<std::string>& types) {
  const std::string& group = facts.observed->name;
  int64_t max_nodes = -1;
  int64_t min_nodes = 0;
  std::string source;
  if (facts.eks != nullptr) {
    max_nodes = facts.eks->max_size;
    min_nodes = facts.eks->min_size;
    source = "--nodegroups' scalingConfig";
  } else if (facts.asg != nullptr) {
    max_nodes = facts.asg->max_size;
    min_nodes = facts.asg->min_size;
    source = fmt::format("Auto Scaling group {} in --asgs", facts.asg->name);
  }
  if (facts.flag != nullptr) StaticBounds(facts, source, min_nodes, max_nodes);
  if (min_nodes > 0) {
    Lossy(group, "minSize",
          fmt::format("a NodePool keeps no minimum: the group's {} standing nodes are not kept "
                      "warm; Karpenter launches for pending pods only",
                      min_nodes));
  }
  if (max_nodes < 0) {
    Lossy(group, "maxSize",
          "no describe-nodegroup or Auto Scaling group gives the maximum: "
          "the NodePool has no limits");
    return nullptr;
  }
  int64_t cpu = 0;
  int64_t memory_mib = 0;
  for (const std::string& type : types) {
    const cloudprovider::InstanceTypeInfo* info = catalog_.FindInfo(type);
    if (info == nullptr) {
      Lossy(group, "instanceTypes",
            fmt::format("{} is not in the catalog: the NodePool has no limits", type));
      return nullptr;
    }
    cpu = std::max(cpu, info->vcpus);
    memory_mib = std::max(memory_mib, info->memory_mib);
  }
  // The largest type times maxSize: never below what the group could reach.
  return {{"cpu", fmt::format("{}", cpu * max_nodes)},
          {"memory", fmt::format("{}Mi", memory_mib * max_nodes)}};
}

Json Planner::TemplateLabels(const GroupFacts& facts) {
  const std::map<std::string, std::string>& labels =
      facts.eks != nullptr ? facts.eks->labels : facts.observed->labels;
  Json out = Json::object();
  for (const auto& [key, value] : labels) {
    if (std::string refusal = LabelRefusal(key); !refusal.empty()) {
      Lossy(facts.observed->name, fmt::format("labels[{}]", key),
            "a NodePool cannot set it: " + refusal);
      continue;
    }
    out[key] = value;
  }
  return out;
}

Json Planner::Taints(const GroupFacts& facts) {
  Json out = Json::array();
  if (facts.eks != nullptr) {
    for (const EksTaint& taint : facts.eks->taints) {
      Json entry = {{"key", taint.key}};
      if (!taint.value.empty()) entry["value"] = taint.value;
      entry["effect"] = TaintEffect(taint.effect);
      out.push_back(entry);
    }
    return out;
  }
  for (const api::Taint& taint : facts.observed->taints) {
    Json entry = {{"key", taint.key}};
    if (!taint.value.empty()) entry["value"] = taint.value;
    entry["effect"] = taint.effect;
    out.push_back(entry);
  }
  return out;
}

// Weights only matter when they differ: EKS writes none, and all-equal weights count nodes.
bool WeightsDiffer(const std::vector<std::string>& weights) {
  auto weight = [](const std::string& entry) { return entry.substr(entry.rfind('=') + 1); };
  return std::any_of(weights.begin(), weights.end(), [&](const std::string& entry) {
    return weight(entry) != weight(weights.front());
  });
}

void Planner::MixedInstancesLosses(const GroupFacts& facts) {
  if (facts.asg == nullptr) return;
  const AsgBounds& asg = *facts.asg;
  if (WeightsDiffer(asg.weights)) {
    Lossy(facts.observed->name, "MixedInstancesPolicy.LaunchTemplate.Overrides[].WeightedCapacity",
          fmt::format("Karpenter chooses types by price and fit, not by weight: {} not carried",
                      fmt::join(asg.weights, ", ")));
  }
  const bool split = asg.on_demand_percentage > 0 && asg.on_demand_percentage < 100;
  if (split || (asg.on_demand_base > 0 && asg.on_demand_percentage < 100)) {
    Lossy(facts.observed->name, "MixedInstancesPolicy.InstancesDistribution",
          fmt::format("a NodePool has no on-demand base ({}) or percentage ({}%): it allows "
                      "both capacity types and prefers spot; split it into two NodePools with "
                      "weights and limits to keep a share",
                      asg.on_demand_base, asg.on_demand_percentage));
  }
}

void Planner::Group(const GroupFacts& facts) {
  const ObservedGroup& observed = *facts.observed;
  if (!observed.critical_addons.empty()) {
    plan_.static_groups.push_back(
        {observed.name, observed.critical_addons,
         std::vector<std::string>(observed.zones.begin(), observed.zones.end()),
         static_cast<int>(observed.nodes.size())});
    return;
  }
  std::set<std::string> type_set = observed.instance_types;
  if (facts.eks != nullptr)
    type_set.insert(facts.eks->instance_types.begin(), facts.eks->instance_types.end());
  if (facts.asg != nullptr) {
    type_set.insert(facts.asg->override_types.begin(), facts.asg->override_types.end());
  }
  const std::vector<std::string> types(type_set.begin(), type_set.end());
  MixedInstancesLosses(facts);
  const std::string node_class = NodeClassFor(facts);
  Json requirements = Requirements(facts, types);
  // Karpenter takes a node for Linux unless the NodePool says otherwise: a Windows AMI's pool
  // must require the OS so that only Windows pods are scheduled to its nodes.
  if (facts.eks != nullptr && facts.eks->ami_type.starts_with("WINDOWS")) {
    requirements.push_back(
        {{"key", "kubernetes.io/os"}, {"operator", "In"}, {"values", Json::array({"windows"})}});
  }
  const int type_count = inputs_.diversify ? Diversify(observed.name, types, requirements)
                                           : static_cast<int>(types.size());
  Json template_spec = {
      {"nodeClassRef",
       {{"group", "karpenter.k8s.aws"}, {"kind", "EC2NodeClass"}, {"name", node_class}}},
      {"requirements", requirements}};
  if (Json taints = Taints(facts); !taints.empty()) template_spec["taints"] = taints;
  template_spec["expireAfter"] = "720h";
  Json template_json = Json::object();
  if (Json labels = TemplateLabels(facts); !labels.empty()) {
    template_json["metadata"] = {{"labels", labels}};
  }
  template_json["spec"] = template_spec;
  Json spec = {{"template", template_json}};
  if (Json limits = Limits(facts, types); !limits.is_null()) spec["limits"] = limits;
  spec["disruption"] = {{"consolidationPolicy", disruption_.consolidation_policy},
                        {"consolidateAfter", disruption_.consolidate_after},
                        {"budgets", Json::array({{{"nodes", "10%"}}})}};
  if (auto weight = weights_.find(observed.name); weight != weights_.end()) {
    spec["weight"] = weight->second;
  }
  const std::string name = UniqueName(ObjectName(observed.name), pool_names_);
  plan_.node_pools.push_back({{"apiVersion", "karpenter.sh/v1"},
                              {"kind", "NodePool"},
                              {"metadata", {{"name", name}}},
                              {"spec", spec}});
  plan_.migrated_groups.push_back(
      {observed.name, name, node_class, static_cast<int>(observed.nodes.size()), type_count,
       observed.labelled ? std::vector<std::string>{} : observed.nodes});
}

int Planner::Diversify(const std::string& group, const std::vector<std::string>& types,
                       Json& requirements) {
  const Json& capacity_types = requirements[2]["values"];
  const bool spot = capacity_types.size() == 1 && capacity_types[0] == "spot";
  WideningOrRefusal result = Widen(group, types, spot, catalog_);
  if (!result.widening) {
    plan_.widened.push_back(
        fmt::format("{}: kept as {}: {}", group, fmt::join(types, ", "), result.refusal));
    return static_cast<int>(types.size());
  }
  const Widening& widening = *result.widening;
  Json widened = Json::array();
  for (Json& requirement : WidenedRequirements(widening)) widened.push_back(std::move(requirement));
  for (size_t i = 1; i < requirements.size(); ++i) widened.push_back(requirements[i]);
  requirements = widened;
  plan_.widened.push_back(fmt::format(
      "{}: {} -> {} types: families {} with {} vCPUs ({}), the same vCPU:memory ratio", group,
      fmt::join(types, ", "), widening.type_count, fmt::join(widening.families, ", "),
      fmt::join(widening.cpus, " or "), fmt::join(widening.architectures, ", ")));
  return widening.type_count;
}

void Planner::Autoscaler(const std::vector<GroupFacts>& groups) {
  const ClusterAutoscalerConfig& config = inputs_.autoscaler;
  if (config.deployment_found) {
    plan_.autoscaler_namespace = config.deployment_namespace;
    plan_.autoscaler_name = config.deployment_name;
  }
  disruption_ = DisruptionFromAutoscaler(config, plan_.lossy_mappings);
  for (const std::vector<std::string>& tags : config.auto_discovery_tags) {
    Lossy(kAutoscalerGroup, "--node-group-auto-discovery",
          fmt::format("Cluster Autoscaler finds the Auto Scaling groups tagged {}; Karpenter "
                      "selects no groups (NodePools launch instances themselves, in the subnets "
                      "and security groups tagged {}): once Phase 4 has drained a group, remove "
                      "these tags from it or delete it, so that nothing scales it up again",
                      fmt::join(tags, ", "), kDiscoveryTag));
  }
  std::vector<GroupIdentity> identities;
  for (const GroupFacts& facts : groups) {
    if (!facts.observed->critical_addons.empty()) continue;  // stays static: no NodePool
    identities.push_back({facts.observed->name, AsgNamesOf(facts)});
  }
  weights_ = WeightsFromPriorities(config, identities, plan_.lossy_mappings);
}

absl::StatusOr<std::string> ClusterName(const MigrationInputs& inputs) {
  if (!inputs.cluster.empty()) return inputs.cluster;
  for (const EksNodegroup& group : inputs.nodegroups) {
    if (!group.cluster.empty()) return group.cluster;
  }
  return absl::InvalidArgumentError(
      "--cluster: required: no describe-nodegroup output names the cluster, and the discovery "
      "tag karpenter.sh/discovery needs its name");
}

std::vector<std::string> MissingInputs(const MigrationInputs& inputs) {
  std::vector<std::string> missing;
  if (!inputs.nodegroups_given) {
    missing.push_back(
        "--nodegroups (aws eks describe-nodegroup): AMI family and release, node "
        "role, disk size and launch templates are not known; AL2023@latest and "
        "KarpenterNodeRole-<cluster> assumed");
  }
  if (!inputs.nodegroups_given && !inputs.asgs_given) {
    missing.push_back(
        "--asgs (aws autoscaling describe-auto-scaling-groups): group sizes are "
        "not known; NodePools get no limits");
  }
  if (!inputs.autoscaler_given) {
    missing.push_back(
        "--cluster-autoscaler (its Deployment and priority-expander ConfigMap): expander "
        "priorities and scale-down settings are not carried; the article's disruption "
        "settings are used");
  }
  if (!inputs.subnets_given) {
    missing.push_back(
        "--subnets (aws ec2 describe-subnets): the discovery tags and free IPs of "
        "the subnets are not checked");
  }
  return missing;
}

}  // namespace

std::string_view VerdictName(Verdict verdict) {
  switch (verdict) {
    case Verdict::kPass:
      return "pass";
    case Verdict::kWarn:
      return "warn";
    case Verdict::kFail:
      return "fail";
  }
  return "fail";
}

absl::StatusOr<MigrationPlan> PlanMigration(const MigrationInputs& inputs,
                                            const cloudprovider::Catalog& catalog) {
  KP_ASSIGN_OR_RETURN(ClusterSnapshot snapshot, ReadClusterSnapshot(inputs.snapshot, inputs.asgs));
  MigrationPlan plan;
  KP_ASSIGN_OR_RETURN(plan.cluster, ClusterName(inputs));
  plan.missing_inputs = MissingInputs(inputs);
  const std::vector<GroupFacts> groups = MatchGroupFacts(snapshot, inputs);
  Planner planner(inputs, catalog, plan);
  planner.Autoscaler(groups);
  for (const GroupFacts& facts : groups) planner.Group(facts);
  plan.checks = PreflightChecks(snapshot, inputs, plan, catalog);
  return plan;
}

}  // namespace karpenter::migrate
