#include <gtest/gtest.h>

#include <string>

#include "src/api/core_validation.h"
#include "src/api/core_validation_test_util.h"

namespace karpenter::api {
namespace {

using testing_util::HasError;
using testing_util::NoErrors;
using testing_util::Q;
using testing_util::ValidContainer;
using testing_util::ValidPod;

FieldErrors Validate(const Pod& pod) {
  FieldErrors errors;
  ValidatePod(pod, &errors);
  return errors;
}

TEST(ValidatePod, AcceptsAValidPod) { EXPECT_TRUE(NoErrors(Validate(ValidPod()))); }

TEST(ValidatePod, RequiresNameOrGenerateName) {
  Pod pod = ValidPod();
  pod.metadata.name.clear();
  EXPECT_TRUE(HasError(Validate(pod), "metadata.name", "name or generateName is required"));
  pod.metadata.generate_name = "web-";
  EXPECT_TRUE(NoErrors(Validate(pod)));
}

TEST(ValidatePod, RejectsNameThatIsNotADnsSubdomain) {
  Pod pod = ValidPod();
  pod.metadata.name = "Web_0";
  EXPECT_TRUE(HasError(Validate(pod), "metadata.name", "Invalid value: \"Web_0\""));
}

TEST(ValidatePod, RejectsNamespaceThatIsNotADnsLabel) {
  Pod pod = ValidPod();
  pod.metadata.namespace_ = "team.a";
  EXPECT_TRUE(HasError(Validate(pod), "metadata.namespace", "Invalid value: \"team.a\""));
}

TEST(ValidatePod, RejectsBadLabelKeyValueAndAnnotationKey) {
  Pod pod = ValidPod();
  pod.metadata.labels["bad key"] = "v";
  pod.metadata.labels["tier"] = "-front";
  pod.metadata.annotations["/no-name"] = "x";
  FieldErrors errors = Validate(pod);
  EXPECT_TRUE(HasError(errors, "metadata.labels", "Invalid value: \"bad key\""));
  EXPECT_TRUE(HasError(errors, "metadata.labels", "Invalid value: \"-front\""));
  EXPECT_TRUE(HasError(errors, "metadata.annotations", "Invalid value: \"/no-name\""));
}

TEST(ValidatePod, RejectsOversizedAnnotations) {
  Pod pod = ValidPod();
  pod.metadata.annotations["big"] = std::string(size_t{256} * 1024, 'x');
  EXPECT_TRUE(HasError(Validate(pod), "metadata.annotations", "Too long"));
}

TEST(ValidatePod, RejectsUnqualifiedFinalizer) {
  Pod pod = ValidPod();
  pod.metadata.finalizers = {"cleanup", "kubernetes", "example.com/cleanup"};
  FieldErrors errors = Validate(pod);
  EXPECT_TRUE(HasError(errors, "metadata.finalizers", "neither a standard finalizer name"));
  EXPECT_EQ(errors.size(), 1u) << testing_util::Dump(errors);
}

TEST(ValidatePod, RequiresAtLeastOneContainer) {
  Pod pod = ValidPod();
  pod.spec.containers.clear();
  EXPECT_TRUE(HasError(Validate(pod), "spec.containers", "Required value"));
}

TEST(ValidatePod, RequiresContainerNameAndImage) {
  Pod pod = ValidPod();
  pod.spec.containers[0].name.clear();
  pod.spec.containers[0].image.clear();
  FieldErrors errors = Validate(pod);
  EXPECT_TRUE(HasError(errors, "spec.containers[0].name", "Required value"));
  EXPECT_TRUE(HasError(errors, "spec.containers[0].image", "Required value"));
}

TEST(ValidatePod, RejectsImageWithSurroundingWhitespaceOnPodsOnly) {
  Pod pod = ValidPod();
  pod.spec.containers[0].image = " nginx";
  EXPECT_TRUE(HasError(Validate(pod), "spec.containers[0].image",
                       "must not have leading or trailing whitespace"));
  FieldErrors template_errors;
  ValidatePodSpec(pod.spec, "spec.template.spec", &template_errors);
  EXPECT_TRUE(NoErrors(template_errors));
}

TEST(ValidatePod, RejectsContainerNameThatIsNotADnsLabel) {
  Pod pod = ValidPod();
  pod.spec.containers[0].name = "App.Server";
  EXPECT_TRUE(HasError(Validate(pod), "spec.containers[0].name", "Invalid value: \"App.Server\""));
}

TEST(ValidatePod, RejectsDuplicateContainerNamesAcrossInitAndRegular) {
  Pod pod = ValidPod();
  pod.spec.containers.push_back(ValidContainer("app"));
  Container init = ValidContainer("app");
  init.ports.clear();
  pod.spec.init_containers.push_back(init);
  FieldErrors errors = Validate(pod);
  EXPECT_TRUE(HasError(errors, "spec.containers[1].name", "Duplicate value: \"app\""));
  EXPECT_TRUE(HasError(errors, "spec.initContainers[0].name", "Duplicate value: \"app\""));
}

TEST(ValidatePod, RejectsNegativeQuantities) {
  Pod pod = ValidPod();
  pod.spec.containers[0].resources.requests["cpu"] = Q("-1");
  pod.spec.containers[0].resources.limits["memory"] = Q("-1Gi");
  FieldErrors errors = Validate(pod);
  EXPECT_TRUE(HasError(errors, "spec.containers[0].resources.requests[cpu]",
                       "must be greater than or equal to 0"));
  EXPECT_TRUE(HasError(errors, "spec.containers[0].resources.limits[memory]",
                       "must be greater than or equal to 0"));
}

TEST(ValidatePod, RejectsRequestAboveLimit) {
  Pod pod = ValidPod();
  pod.spec.containers[0].resources.requests["cpu"] = Q("2");
  EXPECT_TRUE(HasError(Validate(pod), "spec.containers[0].resources.requests",
                       "Invalid value: \"2\": must be less than or equal to cpu limit of 1"));
}

TEST(ValidatePod, ExtendedResourcesMustBeWholeAndEqualToLimits) {
  Pod pod = ValidPod();
  ResourceRequirements& resources = pod.spec.containers[0].resources;
  resources.requests["nvidia.com/gpu"] = Q("500m");
  resources.limits["nvidia.com/gpu"] = Q("1");
  FieldErrors errors = Validate(pod);
  EXPECT_TRUE(HasError(errors, "spec.containers[0].resources.requests[nvidia.com/gpu]",
                       "must be an integer"));
  EXPECT_TRUE(HasError(errors, "spec.containers[0].resources.requests",
                       "must be equal to nvidia.com/gpu limit of 1"));
  resources.limits.erase("nvidia.com/gpu");
  resources.requests["nvidia.com/gpu"] = Q("1");
  EXPECT_TRUE(HasError(Validate(pod), "spec.containers[0].resources.limits",
                       "Limit must be set for non overcommitable resources"));
}

TEST(ValidatePod, RejectsNonStandardUnprefixedResourceName) {
  Pod pod = ValidPod();
  pod.spec.containers[0].resources.requests["gpu"] = Q("1");
  EXPECT_TRUE(HasError(Validate(pod), "spec.containers[0].resources.requests[gpu]",
                       "must be a standard resource for containers"));
}

TEST(ValidatePod, RejectsNegativeOverheadAtKubernetesPath) {
  Pod pod = ValidPod();
  pod.spec.overhead = {{"cpu", Q("-250m")}};
  EXPECT_TRUE(
      HasError(Validate(pod), "spec.overhead.limits[cpu]", "must be greater than or equal to 0"));
}

TEST(ValidatePod, RejectsPortOutOfRangeAndUnknownProtocol) {
  Pod pod = ValidPod();
  pod.spec.containers[0].ports.push_back(
      {.host_port = 70000, .container_port = 0, .protocol = "HTTP"});
  FieldErrors errors = Validate(pod);
  EXPECT_TRUE(HasError(errors, "spec.containers[0].ports[1].containerPort", "Required value"));
  EXPECT_TRUE(HasError(errors, "spec.containers[0].ports[1].hostPort",
                       "Invalid value: 70000: must be between 1 and 65535, inclusive"));
  EXPECT_TRUE(
      HasError(errors, "spec.containers[0].ports[1].protocol",
               "Unsupported value: \"HTTP\": supported values: \"SCTP\", \"TCP\", \"UDP\""));
}

TEST(ValidatePod, RejectsBadAndDuplicatePortNames) {
  Pod pod = ValidPod();
  pod.spec.containers[0].ports.push_back({.name = "http", .container_port = 81, .protocol = "TCP"});
  pod.spec.containers[0].ports.push_back(
      {.name = "metrics-endpoint-x", .container_port = 82, .protocol = "TCP"});
  FieldErrors errors = Validate(pod);
  EXPECT_TRUE(HasError(errors, "spec.containers[0].ports[1].name", "Duplicate value: \"http\""));
  EXPECT_TRUE(
      HasError(errors, "spec.containers[0].ports[2].name", "must be no more than 15 characters"));
}

TEST(ValidatePod, RejectsHostPortConflictsAcrossContainers) {
  Pod pod = ValidPod();
  pod.spec.containers[0].ports[0].host_port = 8080;
  Container second = ValidContainer("sidecar");
  second.ports[0] = {.host_port = 8080, .container_port = 9090, .protocol = "TCP"};
  pod.spec.containers.push_back(second);
  EXPECT_TRUE(HasError(Validate(pod), "spec.containers[1].ports[0].hostPort",
                       "Duplicate value: \"TCP//8080\""));
}

TEST(ValidatePod, HostNetworkPodPortsMustMatch) {
  Pod pod = ValidPod();
  pod.spec.host_network = true;
  pod.spec.containers[0].ports[0].host_port = 81;
  EXPECT_TRUE(HasError(Validate(pod), "spec.containers[0].ports[0].hostPort",
                       "must match `containerPort` when `hostNetwork` is true"));
}

TEST(ValidatePod, RestartPolicyRulesForContainers) {
  Pod pod = ValidPod();
  pod.spec.containers[0].restart_policy = "Always";
  Container init = ValidContainer("init");
  init.ports.clear();
  init.restart_policy = "OnFailure";
  pod.spec.init_containers.push_back(init);
  pod.spec.restart_policy = "Sometimes";
  FieldErrors errors = Validate(pod);
  EXPECT_TRUE(HasError(errors, "spec.containers[0].restartPolicy",
                       "may not be set for non-init containers"));
  EXPECT_TRUE(HasError(errors, "spec.initContainers[0].restartPolicy",
                       "Unsupported value: \"OnFailure\": supported values: \"Always\""));
  EXPECT_TRUE(HasError(errors, "spec.restartPolicy", "Unsupported value: \"Sometimes\""));
}

TEST(ValidatePod, RejectsResourceClaimReferencesToUnknownClaims) {
  Pod pod = ValidPod();
  pod.spec.containers[0].resources.claims = {{.name = "gpu"}};
  FieldErrors errors = Validate(pod);
  EXPECT_TRUE(HasError(errors, "spec.containers[0].resources.claims[0]",
                       "Not found: \"gpu\": must be one of the names in pod.spec.resourceClaims "
                       "which is empty"));
  pod.spec.resource_claims = {{.name = "gpu", .resource_claim_template_name = "gpu-template"}};
  EXPECT_TRUE(NoErrors(Validate(pod)));
  pod.spec.resource_claims[0].resource_claim_name = "shared";
  EXPECT_TRUE(HasError(Validate(pod), "spec.resourceClaims[0]", "at most one of"));
}

TEST(ValidatePod, VolumesNeedUniqueDnsLabelNamesAndOneSource) {
  Pod pod = ValidPod();
  Volume data;
  data.name = "data";
  data.persistent_volume_claim = PersistentVolumeClaimVolumeSource{};
  data.empty_dir = EmptyDirVolumeSource{};
  Volume duplicate;
  duplicate.name = "data";
  duplicate.config_map = ConfigMapVolumeSource{.name = "settings"};
  Volume upper;
  upper.name = "Cache";
  upper.empty_dir = EmptyDirVolumeSource{.size_limit = Q("-1Gi")};
  Volume unnamed_claim;
  unnamed_claim.name = "claim";
  unnamed_claim.persistent_volume_claim = PersistentVolumeClaimVolumeSource{};
  pod.spec.volumes = {data, duplicate, upper, unnamed_claim};
  FieldErrors errors = Validate(pod);
  // Sources are counted in Kubernetes' order (emptyDir before persistentVolumeClaim).
  EXPECT_TRUE(HasError(errors, "spec.volumes[0].persistentVolumeClaim",
                       "may not specify more than 1 volume type"));
  EXPECT_TRUE(
      HasError(errors, "spec.volumes[3].persistentVolumeClaim.claimName", "Required value"));
  EXPECT_TRUE(HasError(errors, "spec.volumes[1].name", "Duplicate value: \"data\""));
  EXPECT_TRUE(HasError(errors, "spec.volumes[2].name", "Invalid value: \"Cache\""));
  EXPECT_TRUE(HasError(errors, "spec.volumes[2].emptyDir.sizeLimit", "valid resource quantity"));
}

TEST(ValidatePod, ValidatesEphemeralVolumeClaimTemplates) {
  Pod pod = ValidPod();
  Volume scratch;
  scratch.name = "scratch";
  scratch.ephemeral = EphemeralVolumeSource{};
  pod.spec.volumes = {scratch};
  EXPECT_TRUE(
      HasError(Validate(pod), "spec.volumes[0].ephemeral.volumeClaimTemplate", "Required value"));
  pod.spec.volumes[0].ephemeral->volume_claim_template = PersistentVolumeClaimTemplate{};
  FieldErrors errors = Validate(pod);
  EXPECT_TRUE(HasError(errors, "spec.volumes[0].ephemeral.volumeClaimTemplate.spec.accessModes",
                       "at least 1 access mode is required"));
  EXPECT_TRUE(HasError(errors,
                       "spec.volumes[0].ephemeral.volumeClaimTemplate.spec.resources[storage]",
                       "Required value"));
}

TEST(ValidatePod, ValidatesScalarSpecFields) {
  Pod pod = ValidPod();
  pod.spec.active_deadline_seconds = 0;
  pod.spec.node_name = "Node_1";
  pod.spec.priority_class_name = "High";
  pod.spec.preemption_policy = "Always";
  pod.spec.os = PodOS{.name = "plan9"};
  pod.spec.node_selector = {{"bad key", "x"}};
  pod.spec.scheduling_gates = {{.name = "example.com/gate"}, {.name = "example.com/gate"}};
  FieldErrors errors = Validate(pod);
  EXPECT_TRUE(HasError(errors, "spec.activeDeadlineSeconds",
                       "must be between 1 and 2147483647, inclusive"));
  EXPECT_TRUE(HasError(errors, "spec.nodeName", "Invalid value: \"Node_1\""));
  EXPECT_TRUE(HasError(errors, "spec.priorityClassName", "Invalid value: \"High\""));
  EXPECT_TRUE(HasError(errors, "spec.preemptionPolicy", "Unsupported value: \"Always\""));
  EXPECT_TRUE(HasError(errors, "spec.os.name", "supported values: \"linux\", \"windows\""));
  EXPECT_TRUE(HasError(errors, "spec.nodeSelector", "Invalid value: \"bad key\""));
  EXPECT_TRUE(HasError(errors, "spec.schedulingGates[1]", "Duplicate value"));
}

TEST(ValidatePod, PodDeletionCostMustBeA32BitInteger) {
  Pod pod = ValidPod();
  pod.metadata.annotations["controller.kubernetes.io/pod-deletion-cost"] = "-100";
  EXPECT_TRUE(NoErrors(Validate(pod)));
  pod.metadata.annotations["controller.kubernetes.io/pod-deletion-cost"] = "3000000000";
  EXPECT_TRUE(HasError(Validate(pod),
                       "metadata.annotations[controller.kubernetes.io/pod-deletion-cost]",
                       "must be a 32bit integer"));
}

TEST(ValidatePod, PodLevelResourcesMustCoverContainers) {
  Pod pod = ValidPod();
  pod.spec.resources = ResourceRequirements{.requests = {{"cpu", Q("250m")}}, .claims = {}};
  pod.spec.resources->requests["ephemeral-storage"] = Q("1Gi");
  FieldErrors errors = Validate(pod);
  EXPECT_TRUE(HasError(errors, "spec.resources.requests[cpu]",
                       "must be greater than or equal to aggregate container requests of 500m"));
  EXPECT_TRUE(HasError(errors, "spec.resources.requests[ephemeral-storage]",
                       "Unsupported value: \"ephemeral-storage\""));
}

TEST(ValidatePodTemplateSpec, ReportsTemplateLabelsAtTemplatePath) {
  PodTemplateSpec pod_template = testing_util::ValidTemplate();
  pod_template.metadata.labels["bad key"] = "x";
  pod_template.spec.containers[0].resources.requests["cpu"] = Q("-1");
  FieldErrors errors;
  ValidatePodTemplateSpec(pod_template, "spec.template", &errors);
  EXPECT_TRUE(HasError(errors, "spec.template.labels", "Invalid value: \"bad key\""));
  EXPECT_TRUE(HasError(errors, "spec.template.spec.containers[0].resources.requests[cpu]",
                       "must be greater than or equal to 0"));
}

}  // namespace
}  // namespace karpenter::api
