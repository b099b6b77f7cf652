// The decision of `karpenter migrate`: for each node group of a cluster running Cluster
// Autoscaler, either a NodePool (with an EC2NodeClass, shared where groups agree) that keeps the
// group's constraints, or a static group kept as it is because critical add-ons run on it; every
// mapping that loses something, with why; and the pre-flight checks of the article's gotchas.
#pragma once

#include <string>
#include <vector>

#include "karpenter/common/status.h"
#include "nlohmann/json.hpp"
#include "src/api/manifest.h"
#include "src/cloudprovider/catalog.h"
#include "src/migrate/aws_inputs.h"
#include "src/migrate/cluster_autoscaler.h"
#include "src/migrate/cluster_snapshot.h"
#include "src/migrate/launch_templates.h"
#include "src/migrate/vpc_cni.h"

namespace karpenter::migrate {

// The tag the article has subnets and security groups carry for Karpenter to find them.
inline constexpr char kDiscoveryTag[] = "karpenter.sh/discovery";

struct MigrationInputs {
  std::string cluster;  // --cluster; else the nodegroups' clusterName
  std::vector<api::Manifest> snapshot;
  std::vector<AsgBounds> asgs;
  bool asgs_given = false;
  std::vector<EksNodegroup> nodegroups;
  bool nodegroups_given = false;
  std::vector<Subnet> subnets;
  bool subnets_given = false;
  std::vector<LaunchTemplateVersion> launch_templates;  // --launch-templates
  bool launch_templates_given = false;
  VpcCniSettings cni;                  // from the snapshot's aws-node DaemonSet
  bool diversify = false;              // --diversify: widen instance types (see diversify.h)
  ClusterAutoscalerConfig autoscaler;  // --cluster-autoscaler, or such objects in the snapshot
  bool autoscaler_given = false;
};

enum class Verdict { kPass, kWarn, kFail };
std::string_view VerdictName(Verdict verdict);  // "pass" | "warn" | "fail"

struct Check {
  std::string id;  // "critical-addons", "pdb-coverage", ...
  Verdict verdict = Verdict::kPass;
  std::string summary;
  std::vector<std::string> objects;  // what the verdict is about, by Kind/namespace/name
};

struct LossyMapping {
  std::string group;
  std::string field;  // what the group had: "scalingConfig.minSize", "launchTemplate"...
  std::string reason;
};

struct StaticGroup {
  std::string name;
  std::vector<std::string> addons;  // why it stays
  std::vector<std::string> zones;
  int nodes = 0;
};

// A group the plan hands to Karpenter, for the runbook's Phase 4.
struct MigratedGroup {
  std::string name;
  std::string node_pool;
  std::string node_class;
  int nodes = 0;
  int instance_types = 0;  // how many types its NodePool allows
  // Its nodes by name, when they carry no `eks.amazonaws.com/nodegroup` label to select them by.
  std::vector<std::string> node_names;
};

struct MigrationPlan {
  std::string cluster;
  std::string autoscaler_namespace = "kube-system";  // of the Deployment Phase 4 scales to 0
  std::string autoscaler_name = "cluster-autoscaler";
  std::vector<nlohmann::ordered_json> node_pools;
  std::vector<nlohmann::ordered_json> node_classes;
  std::vector<MigratedGroup> migrated_groups;
  std::vector<StaticGroup> static_groups;
  std::vector<LossyMapping> lossy_mappings;
  // --diversify: per group, what its types were widened to, or why they were not.
  std::vector<std::string> widened;
  std::vector<Check> checks;
  std::vector<std::string> missing_inputs;
};

// InvalidArgument for a snapshot that does not decode (every object's field paths) or a cluster
// whose name no input gives.
absl::StatusOr<MigrationPlan> PlanMigration(const MigrationInputs& inputs,
                                            const cloudprovider::Catalog& catalog);

}  // namespace karpenter::migrate
