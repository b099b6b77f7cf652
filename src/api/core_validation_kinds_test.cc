#include <gtest/gtest.h>

#include <string>

#include "src/api/core_validation.h"
#include "src/api/core_validation_test_util.h"

namespace karpenter::api {
namespace {

using testing_util::AppSelector;
using testing_util::HasError;
using testing_util::NoErrors;
using testing_util::Q;
using testing_util::ValidClaimSpec;
using testing_util::ValidDeployment;
using testing_util::ValidTemplate;

template <class T>
FieldErrors Validate(const T& object) {
  FieldErrors errors;
  ValidateCoreObject(object, &errors);
  return errors;
}

TEST(ValidateDeployment, AcceptsAValidDeployment) {
  EXPECT_TRUE(NoErrors(Validate(ValidDeployment())));
}

TEST(ValidateDeployment, RejectsNegativeReplicas) {
  Deployment deployment = ValidDeployment();
  deployment.spec.replicas = -1;
  EXPECT_TRUE(HasError(Validate(deployment), "spec.replicas",
                       "Invalid value: -1: must be greater than or equal to 0"));
}

TEST(ValidateDeployment, SelectorRequiredNonEmptyAndMatchingTemplate) {
  Deployment deployment = ValidDeployment();
  deployment.spec.selector.reset();
  EXPECT_TRUE(HasError(Validate(deployment), "spec.selector", "Required value"));

  deployment.spec.selector = LabelSelector{};
  EXPECT_TRUE(
      HasError(Validate(deployment), "spec.selector", "empty selector is invalid for deployment"));

  deployment.spec.selector = LabelSelector{.match_labels = {{"app", "api"}}};
  EXPECT_TRUE(HasError(Validate(deployment), "spec.template.metadata.labels",
                       "`selector` does not match template `labels`"));
}

TEST(ValidateDeployment, TemplateMustRestartAlwaysWithoutDeadline) {
  Deployment deployment = ValidDeployment();
  deployment.spec.template_.spec.restart_policy = "OnFailure";
  deployment.spec.template_.spec.active_deadline_seconds = 60;
  FieldErrors errors = Validate(deployment);
  EXPECT_TRUE(HasError(errors, "spec.template.spec.restartPolicy",
                       "Unsupported value: \"OnFailure\": supported values: \"Always\""));
  EXPECT_TRUE(HasError(errors, "spec.template.spec.activeDeadlineSeconds",
                       "activeDeadlineSeconds in ReplicaSet is not Supported"));
}

TEST(ValidateDeployment, ValidatesTheTemplatePodSpec) {
  Deployment deployment = ValidDeployment();
  deployment.spec.template_.spec.containers[0].ports[0].container_port = 70000;
  EXPECT_TRUE(HasError(Validate(deployment),
                       "spec.template.spec.containers[0].ports[0].containerPort",
                       "must be between 1 and 65535, inclusive"));
}

TEST(ValidateReplicaSet, SharesTheDeploymentRules) {
  ReplicaSet replica_set;
  replica_set.metadata.name = "web-5d4f";
  replica_set.spec.replicas = -2;
  replica_set.spec.selector = AppSelector();
  replica_set.spec.template_ = ValidTemplate();
  EXPECT_TRUE(
      HasError(Validate(replica_set), "spec.replicas", "must be greater than or equal to 0"));
}

StatefulSet ValidStatefulSet() {
  StatefulSet stateful_set;
  stateful_set.metadata.name = "db";
  stateful_set.spec.selector = AppSelector();
  stateful_set.spec.template_ = ValidTemplate();
  stateful_set.spec.service_name = "db";
  PersistentVolumeClaim claim;
  claim.metadata.name = "data";
  claim.spec = ValidClaimSpec();
  stateful_set.spec.volume_claim_templates.push_back(claim);
  ApplyDefaults(stateful_set);
  return stateful_set;
}

TEST(ValidateStatefulSet, AcceptsAValidStatefulSet) {
  EXPECT_TRUE(NoErrors(Validate(ValidStatefulSet())));
}

TEST(ValidateStatefulSet, NameMustBeADnsLabel) {
  StatefulSet stateful_set = ValidStatefulSet();
  stateful_set.metadata.name = "db.primary";
  EXPECT_TRUE(HasError(Validate(stateful_set), "metadata.name", "Invalid value: \"db.primary\""));
}

TEST(ValidateStatefulSet, PolicyOrdinalsAndClaimTemplates) {
  StatefulSet stateful_set = ValidStatefulSet();
  stateful_set.spec.pod_management_policy = "Random";
  stateful_set.spec.ordinals = StatefulSetOrdinals{.start = -1};
  stateful_set.spec.volume_claim_templates[0].spec.access_modes = {"ReadWriteSometimes"};
  FieldErrors errors = Validate(stateful_set);
  EXPECT_TRUE(HasError(errors, "spec.podManagementPolicy", "must be 'OrderedReady' or 'Parallel'"));
  EXPECT_TRUE(HasError(errors, "spec.ordinals.start", "must be greater than or equal to 0"));
  EXPECT_TRUE(HasError(errors, "spec.volumeClaimTemplates[0].spec.accessModes",
                       "Unsupported value: \"ReadWriteSometimes\""));
}

TEST(ValidateDaemonSet, NullSelectorNeverMatchesTheTemplate) {
  DaemonSet daemon_set;
  daemon_set.metadata.name = "node-exporter";
  daemon_set.spec.template_ = ValidTemplate();
  EXPECT_TRUE(HasError(Validate(daemon_set), "spec.template.metadata.labels",
                       "`selector` does not match template `labels`"));
  daemon_set.spec.selector = AppSelector();
  EXPECT_TRUE(NoErrors(Validate(daemon_set)));
  daemon_set.spec.selector = LabelSelector{};
  EXPECT_TRUE(
      HasError(Validate(daemon_set), "spec.selector", "empty selector is invalid for daemonset"));
}

Job ValidJob() {
  Job job;
  job.metadata.name = "migrate";
  job.spec.template_ = ValidTemplate();
  job.spec.template_.spec.restart_policy = "Never";
  ApplyDefaults(job);
  return job;
}

TEST(ValidateJob, AcceptsAJobWithoutSelector) { EXPECT_TRUE(NoErrors(Validate(ValidJob()))); }

TEST(ValidateJob, RejectsNegativeCountsAndAlwaysRestart) {
  Job job = ValidJob();
  job.spec.parallelism = -1;
  job.spec.completions = -1;
  job.spec.backoff_limit = -1;
  job.spec.active_deadline_seconds = -5;
  job.spec.template_.spec.restart_policy = "Always";
  FieldErrors errors = Validate(job);
  EXPECT_TRUE(HasError(errors, "spec.parallelism", "must be greater than or equal to 0"));
  EXPECT_TRUE(HasError(errors, "spec.completions", "must be greater than or equal to 0"));
  EXPECT_TRUE(HasError(errors, "spec.backoffLimit", "must be greater than or equal to 0"));
  EXPECT_TRUE(HasError(errors, "spec.activeDeadlineSeconds", "must be greater than or equal to 0"));
  EXPECT_TRUE(
      HasError(errors, "spec.template.spec.restartPolicy",
               "Unsupported value: \"Always\": supported values: \"OnFailure\", \"Never\""));
}

TEST(ValidateJob, IndexedNeedsCompletionsAndManualSelectorNeedsSelector) {
  Job job = ValidJob();
  job.spec.completion_mode = "Indexed";
  job.spec.completions.reset();
  job.spec.manual_selector = true;
  FieldErrors errors = Validate(job);
  EXPECT_TRUE(HasError(errors, "spec.completions", "when completion mode is Indexed"));
  EXPECT_TRUE(HasError(errors, "spec.selector", "Required value"));
  job.spec.selector = LabelSelector{.match_labels = {{"job", "other"}}};
  EXPECT_TRUE(HasError(Validate(job), "spec.template.metadata.labels",
                       "`selector` does not match template `labels`"));
}

PodDisruptionBudget ValidPdb() {
  PodDisruptionBudget pdb;
  pdb.metadata.name = "web";
  pdb.spec.selector = AppSelector();
  pdb.spec.min_available = IntOrString{.is_int = false, .str_value = "50%"};
  return pdb;
}

TEST(ValidatePodDisruptionBudget, AcceptsAValidBudget) {
  EXPECT_TRUE(NoErrors(Validate(ValidPdb())));
}

TEST(ValidatePodDisruptionBudget, RejectsBothMinAvailableAndMaxUnavailable) {
  PodDisruptionBudget pdb = ValidPdb();
  pdb.spec.max_unavailable = IntOrString{.is_int = true, .int_value = 1};
  EXPECT_TRUE(
      HasError(Validate(pdb), "spec", "minAvailable and maxUnavailable cannot be both set"));
}

TEST(ValidatePodDisruptionBudget, ValidatesIntOrPercentAndPolicy) {
  PodDisruptionBudget pdb = ValidPdb();
  pdb.spec.min_available = IntOrString{.is_int = false, .str_value = "150%"};
  pdb.spec.unhealthy_pod_eviction_policy = "Sometimes";
  FieldErrors errors = Validate(pdb);
  EXPECT_TRUE(HasError(errors, "spec.minAvailable", "must not be greater than 100%"));
  EXPECT_TRUE(HasError(errors, "spec.unhealthyPodEvictionPolicy",
                       "supported values: \"AlwaysAllow\", \"IfHealthyBudget\""));
  pdb.spec.min_available = IntOrString{.is_int = false, .str_value = "half"};
  EXPECT_TRUE(HasError(Validate(pdb), "spec.minAvailable", "a valid percent string"));
  pdb.spec.min_available = IntOrString{.is_int = true, .int_value = -1};
  EXPECT_TRUE(HasError(Validate(pdb), "spec.minAvailable", "must be greater than or equal to 0"));
}

TEST(ValidateNode, ClusterScopedWithValidTaintsAndQuantities) {
  Node node;
  node.metadata.name = "ip-10-0-1-5.ec2.internal";
  node.status.capacity = {{"cpu", Q("2")}};
  node.status.allocatable = {{"cpu", Q("-1")}};
  node.spec.taints = {{.key = "dedicated", .value = "gpu", .effect = "NoSchedule"},
                      {.key = "dedicated", .value = "other", .effect = "NoSchedule"},
                      {.key = "spot", .effect = ""},
                      {.key = "", .effect = "Sometimes"}};
  node.metadata.namespace_ = "default";
  FieldErrors errors = Validate(node);
  EXPECT_TRUE(HasError(errors, "metadata.namespace", "not allowed on this type"));
  EXPECT_TRUE(HasError(errors, "status.allocatable.cpu", "must be greater than or equal to 0"));
  EXPECT_TRUE(HasError(errors, "spec.taints[1]", "taints must be unique by key and effect pair"));
  EXPECT_TRUE(HasError(errors, "spec.taints[2].effect", "Required value"));
  EXPECT_TRUE(HasError(errors, "spec.taints[3].effect", "Unsupported value: \"Sometimes\""));
  EXPECT_TRUE(HasError(errors, "spec.taints[3].key", "Invalid value: \"\""));
}

TEST(ValidateTolerations, ShapeRules) {
  std::vector<Toleration> tolerations = {
      {.key = "", .operator_ = "Equal"},
      {.key = "a", .operator_ = "Exists", .value = "x"},
      {.key = "b", .operator_ = "In"},
      {.key = "c", .effect = "NoSchedule", .toleration_seconds = 30},
      {.key = "d", .value = "-bad"},
      {.operator_ = "Exists"},
  };
  FieldErrors errors;
  ValidateTolerations(tolerations, "spec.tolerations", &errors);
  EXPECT_TRUE(HasError(errors, "spec.tolerations[0].operator",
                       "operator must be Exists when `key` is empty"));
  EXPECT_TRUE(HasError(errors, "spec.tolerations[1].operator",
                       "value must be empty when `operator` is 'Exists'"));
  EXPECT_TRUE(HasError(errors, "spec.tolerations[2].operator",
                       "Unsupported value: \"In\": supported values: \"Equal\", \"Exists\""));
  EXPECT_TRUE(HasError(errors, "spec.tolerations[3].effect",
                       "effect must be 'NoExecute' when `tolerationSeconds` is set"));
  EXPECT_TRUE(HasError(errors, "spec.tolerations[4].operator", "Invalid value: \"-bad\""));
  EXPECT_EQ(errors.size(), 5u) << testing_util::Dump(errors);
}

TEST(ValidateTopologySpreadConstraints, SkewActionDomainsPoliciesAndDuplicates) {
  std::vector<TopologySpreadConstraint> constraints(3);
  constraints[0] = {.max_skew = 0,
                    .topology_key = "topology.kubernetes.io/zone",
                    .when_unsatisfiable = "DoNotSchedule",
                    .label_selector = AppSelector()};
  constraints[1] = {.max_skew = 1,
                    .topology_key = "topology.kubernetes.io/zone",
                    .when_unsatisfiable = "DoNotSchedule",
                    .node_affinity_policy = "Maybe"};
  constraints[2] = {.max_skew = 1,
                    .topology_key = "",
                    .when_unsatisfiable = "Later",
                    .min_domains = 0,
                    .match_label_keys = {"app"}};
  FieldErrors errors;
  ValidateTopologySpreadConstraints(constraints, "spec.topologySpreadConstraints", &errors);
  const std::string p = "spec.topologySpreadConstraints";
  EXPECT_TRUE(HasError(errors, p + "[0].maxSkew", "Invalid value: 0: must be greater than zero"));
  EXPECT_TRUE(HasError(errors, p + "[0].{topologyKey, whenUnsatisfiable}",
                       "Duplicate value: \"{topology.kubernetes.io/zone, DoNotSchedule}\""));
  EXPECT_TRUE(
      HasError(errors, p + "[1].nodeAffinityPolicy", "supported values: \"Honor\", \"Ignore\""));
  EXPECT_TRUE(HasError(errors, p + "[2].topologyKey", "can not be empty"));
  EXPECT_TRUE(HasError(errors, p + "[2].whenUnsatisfiable",
                       "supported values: \"DoNotSchedule\", \"ScheduleAnyway\""));
  EXPECT_TRUE(HasError(errors, p + "[2].minDomains", "must be greater than zero"));
  EXPECT_TRUE(HasError(errors, p + "[2].minDomains",
                       "can only use minDomains if whenUnsatisfiable=DoNotSchedule"));
  EXPECT_TRUE(HasError(errors, p + "[2].matchLabelKeys",
                       "must not be specified when labelSelector is not set"));
}

TEST(ValidateAffinity, NodeSelectorOperatorsWeightsAndTopologyKeys) {
  NodeSelectorTerm term;
  term.match_expressions = {{.key = "zone", .operator_ = "In"},
                            {.key = "gen", .operator_ = "Gt", .values = {"1", "2"}},
                            {.key = "arch", .operator_ = "Exists", .values = {"amd64"}},
                            {.key = "os", .operator_ = "Like", .values = {"linux"}}};
  term.match_fields = {{.key = "metadata.labels", .operator_ = "In", .values = {"x"}}};
  Affinity affinity;
  affinity.node_affinity =
      NodeAffinity{.required_during_scheduling_ignored_during_execution =
                       NodeSelector{.node_selector_terms = {term}},
                   .preferred_during_scheduling_ignored_during_execution = {{.weight = 101}}};
  affinity.pod_anti_affinity = PodAffinity{
      .required_during_scheduling_ignored_during_execution = {{.label_selector = AppSelector()}}};
  FieldErrors errors;
  ValidateAffinity(affinity, "spec.affinity", &errors);
  const std::string req =
      "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms["
      "0]";
  EXPECT_TRUE(HasError(errors, req + ".matchExpressions[0].values",
                       "must be specified when `operator` is 'In' or 'NotIn'"));
  EXPECT_TRUE(HasError(errors, req + ".matchExpressions[1].values", "single value"));
  EXPECT_TRUE(HasError(errors, req + ".matchExpressions[2].values", "may not be specified"));
  EXPECT_TRUE(
      HasError(errors, req + ".matchExpressions[3].operator", "not a valid selector operator"));
  EXPECT_TRUE(HasError(errors, req + ".matchFields[0].key", "not a valid field selector key"));
  EXPECT_TRUE(HasError(
      errors,
      "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight",
      "must be in the range 1-100"));
  EXPECT_TRUE(
      HasError(errors,
               "spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]."
               "topologyKey",
               "can not be empty"));
  FieldErrors empty;
  ValidateNodeSelector(NodeSelector{}, "spec.required", &empty);
  EXPECT_TRUE(HasError(empty, "spec.required.nodeSelectorTerms",
                       "must have at least one node selector term"));
}

TEST(ValidatePersistentVolumeClaim, AccessModesStorageAndVolumeMode) {
  PersistentVolumeClaim claim;
  claim.metadata.name = "data";
  claim.spec = ValidClaimSpec();
  EXPECT_TRUE(NoErrors(Validate(claim)));
  claim.spec.access_modes = {"ReadWriteOncePod", "ReadWriteOnce"};
  claim.spec.resources.requests["storage"] = Q("0");
  claim.spec.volume_mode = "Raw";
  FieldErrors errors = Validate(claim);
  EXPECT_TRUE(
      HasError(errors, "spec.accessModes", "may not use ReadWriteOncePod with other access modes"));
  EXPECT_TRUE(HasError(errors, "spec.resources[storage]", "must be greater than zero"));
  EXPECT_TRUE(HasError(errors, "spec.volumeMode", "supported values: \"Block\", \"Filesystem\""));
  claim.spec.access_modes.clear();
  EXPECT_TRUE(HasError(Validate(claim), "spec.accessModes", "at least 1 access mode is required"));
}

TEST(ValidatePersistentVolume, CapacitySourcesAndNodeAffinity) {
  PersistentVolume volume;
  volume.metadata.name = "pv-1";
  volume.spec.capacity = {{"storage", Q("10Gi")}};
  volume.spec.access_modes = {"ReadWriteOnce"};
  volume.spec.csi =
      CSIPersistentVolumeSource{.driver = "ebs.csi.aws.com", .volume_handle = "vol-1"};
  ApplyDefaults(volume);
  EXPECT_TRUE(NoErrors(Validate(volume)));

  volume.spec.capacity["cpu"] = Q("1");
  volume.spec.local = LocalVolumeSource{.path = "/mnt/disks/ssd1"};
  volume.spec.persistent_volume_reclaim_policy = "Keep";
  volume.spec.node_affinity = VolumeNodeAffinity{};
  FieldErrors errors = Validate(volume);
  EXPECT_TRUE(HasError(errors, "spec.capacity", "supported values: \"storage\""));
  // Kubernetes counts local before csi, so the CSI source is the extra one.
  EXPECT_TRUE(HasError(errors, "spec.csi", "may not specify more than 1 volume type"));
  EXPECT_TRUE(
      HasError(errors, "spec.persistentVolumeReclaimPolicy", "Unsupported value: \"Keep\""));
  EXPECT_TRUE(
      HasError(errors, "spec.nodeAffinity.required", "must specify required node constraints"));
}

TEST(ValidatePersistentVolume, LocalVolumeNeedsNodeAffinity) {
  PersistentVolume volume;
  volume.metadata.name = "local-pv";
  volume.spec.capacity = {{"storage", Q("100Gi")}};
  volume.spec.access_modes = {"ReadWriteOnce"};
  volume.spec.local = LocalVolumeSource{.path = "/mnt/disks/ssd1"};
  EXPECT_TRUE(
      HasError(Validate(volume), "spec.nodeAffinity", "Local volume requires node affinity"));
}

TEST(ValidateStorageClass, ProvisionerPoliciesAndTopologies) {
  StorageClass storage_class;
  storage_class.metadata.name = "gp3";
  storage_class.provisioner = "ebs.csi.aws.com";
  storage_class.allowed_topologies = {
      {.match_label_expressions = {
           {.key = "topology.kubernetes.io/zone", .values = {"us-east-1a"}}}}};
  ApplyDefaults(storage_class);
  EXPECT_TRUE(NoErrors(Validate(storage_class)));

  storage_class.provisioner.clear();
  storage_class.reclaim_policy = "Recycle";
  storage_class.volume_binding_mode = "Later";
  storage_class.allowed_topologies.push_back(storage_class.allowed_topologies[0]);
  storage_class.allowed_topologies.push_back(
      {.match_label_expressions = {{.key = "zone", .values = {"a", "a"}},
                                   {.key = "zone", .values = {}}}});
  FieldErrors errors = Validate(storage_class);
  EXPECT_TRUE(HasError(errors, "provisioner", "Required value"));
  EXPECT_TRUE(HasError(errors, "reclaimPolicy", "supported values: \"Delete\", \"Retain\""));
  EXPECT_TRUE(HasError(errors, "volumeBindingMode", "Unsupported value: \"Later\""));
  EXPECT_TRUE(HasError(errors, "allowedTopologies[1].matchLabelExpressions", "Duplicate value"));
  EXPECT_TRUE(HasError(errors, "allowedTopologies[2].matchLabelExpressions[0].values[1]",
                       "Duplicate value: \"a\""));
  EXPECT_TRUE(HasError(errors, "allowedTopologies[2].matchLabelExpressions[1].values",
                       "must specify as least one value"));
  EXPECT_TRUE(HasError(errors, "allowedTopologies[2].matchLabelExpressions[1].key",
                       "Duplicate value: \"zone\""));
}

TEST(ValidateCSINode, DriversNodeIdsCountsAndTopologyKeys) {
  CSINode csi_node;
  csi_node.metadata.name = "ip-10-0-1-5.ec2.internal";
  csi_node.spec.drivers = {{.name = "ebs.csi.aws.com",
                            .node_id = "i-0123",
                            .topology_keys = {"topology.ebs.csi.aws.com/zone"},
                            .allocatable = VolumeNodeResources{.count = 25}}};
  EXPECT_TRUE(NoErrors(Validate(csi_node)));
  csi_node.spec.drivers.push_back({.name = "ebs.csi.aws.com",
                                   .node_id = "",
                                   .topology_keys = {"k", "k"},
                                   .allocatable = VolumeNodeResources{.count = -1}});
  FieldErrors errors = Validate(csi_node);
  EXPECT_TRUE(HasError(errors, "spec.drivers[1].name", "Duplicate value: \"ebs.csi.aws.com\""));
  EXPECT_TRUE(HasError(errors, "spec.drivers[1].nodeID", "Required value"));
  EXPECT_TRUE(
      HasError(errors, "spec.drivers[1].allocatable.count", "must be greater than or equal to 0"));
  EXPECT_TRUE(HasError(errors, "spec.drivers[1]", "Duplicate value: \"k\""));
}

}  // namespace
}  // namespace karpenter::api
