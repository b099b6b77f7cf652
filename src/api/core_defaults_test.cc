#include <gtest/gtest.h>

#include <string>

#include "src/api/node.h"
#include "src/api/pod.h"
#include "src/api/pod_template.h"
#include "src/api/policy.h"
#include "src/api/storage.h"
#include "src/api/workloads.h"

namespace karpenter::api {
namespace {

Quantity Q(const std::string& text) { return Quantity::Parse(text).value_or(Quantity()); }

Container PortContainer() {
  Container container;
  container.name = "app";
  container.ports.push_back({.container_port = 8080});
  return container;
}

TEST(PodSpecDefaults, FillsRestartPolicyGracePeriodSchedulerAndPortProtocol) {
  PodSpec spec;
  spec.containers.push_back(PortContainer());
  spec.init_containers.push_back(PortContainer());
  ApplyPodSpecDefaults(spec);
  EXPECT_EQ(spec.restart_policy, "Always");
  EXPECT_EQ(spec.termination_grace_period_seconds, 30);
  EXPECT_EQ(spec.scheduler_name, "default-scheduler");
  EXPECT_EQ(spec.containers[0].ports[0].protocol, "TCP");
  EXPECT_EQ(spec.init_containers[0].ports[0].protocol, "TCP");
}

TEST(PodSpecDefaults, KeepsValuesThatAreSet) {
  PodSpec spec;
  spec.restart_policy = "Never";
  spec.termination_grace_period_seconds = 0;
  spec.scheduler_name = "custom";
  spec.containers.push_back(PortContainer());
  spec.containers[0].ports[0].protocol = "UDP";
  ApplyPodSpecDefaults(spec);
  EXPECT_EQ(spec.restart_policy, "Never");
  EXPECT_EQ(spec.termination_grace_period_seconds, 0);
  EXPECT_EQ(spec.scheduler_name, "custom");
  EXPECT_EQ(spec.containers[0].ports[0].protocol, "UDP");
}

TEST(PodSpecDefaults, DefaultsEphemeralClaimVolumeMode) {
  PodSpec spec;
  Volume volume;
  volume.name = "scratch";
  volume.ephemeral =
      EphemeralVolumeSource{.volume_claim_template = PersistentVolumeClaimTemplate{}};
  spec.volumes.push_back(volume);
  ApplyPodSpecDefaults(spec);
  EXPECT_EQ(spec.volumes[0].ephemeral->volume_claim_template->spec.volume_mode, "Filesystem");
}

TEST(PodDefaults, RequestsDefaultToLimitsOnlyWhereUnset) {
  Pod pod;
  Container container = PortContainer();
  container.resources.limits = {{"cpu", Q("2")}, {"memory", Q("1Gi")}};
  container.resources.requests = {{"cpu", Q("500m")}};
  pod.spec.containers.push_back(container);
  Container init;
  init.name = "init";
  init.resources.limits = {{"nvidia.com/gpu", Q("1")}};
  pod.spec.init_containers.push_back(init);
  ApplyDefaults(pod);
  const ResourceList& requests = pod.spec.containers[0].resources.requests;
  EXPECT_EQ(requests.at("cpu"), Q("500m"));
  EXPECT_EQ(requests.at("memory"), Q("1Gi"));
  EXPECT_EQ(pod.spec.init_containers[0].resources.requests.at("nvidia.com/gpu"), Q("1"));
}

TEST(PodTemplateDefaults, DoNotDefaultRequestsFromLimits) {
  PodTemplateSpec pod_template;
  Container container = PortContainer();
  container.resources.limits = {{"cpu", Q("2")}};
  pod_template.spec.containers.push_back(container);
  ApplyDefaults(pod_template);
  EXPECT_TRUE(pod_template.spec.containers[0].resources.requests.empty());
  EXPECT_EQ(pod_template.spec.restart_policy, "Always");
}

TEST(PodDefaults, HostNetworkPortsBecomeHostPorts) {
  Pod pod;
  pod.spec.host_network = true;
  pod.spec.containers.push_back(PortContainer());
  pod.spec.containers[0].ports.push_back({.host_port = 9000, .container_port = 9001});
  ApplyDefaults(pod);
  EXPECT_EQ(pod.spec.containers[0].ports[0].host_port, 8080);
  EXPECT_EQ(pod.spec.containers[0].ports[1].host_port, 9000);

  Pod no_host_network;
  no_host_network.spec.containers.push_back(PortContainer());
  ApplyDefaults(no_host_network);
  EXPECT_EQ(no_host_network.spec.containers[0].ports[0].host_port, 0);
}

TEST(PodDefaults, PodLevelRequestsComeFromContainersThenPodLimits) {
  Pod pod;
  Container container = PortContainer();
  container.resources.requests = {{"cpu", Q("1")}};
  pod.spec.containers.push_back(container);
  pod.spec.resources = ResourceRequirements{.limits = {{"cpu", Q("4")}, {"memory", Q("2Gi")}}};
  ApplyDefaults(pod);
  const ResourceList& requests = pod.spec.resources->requests;
  EXPECT_EQ(requests.at("cpu"), Q("1"));       // aggregate container request
  EXPECT_EQ(requests.at("memory"), Q("2Gi"));  // no container asks: the pod limit
}

TEST(PodDefaults, PodLevelRequestsUntouchedWithoutPodLimits) {
  Pod pod;
  pod.spec.containers.push_back(PortContainer());
  pod.spec.resources = ResourceRequirements{.requests = {{"cpu", Q("1")}}};
  ApplyDefaults(pod);
  EXPECT_EQ(pod.spec.resources->requests.size(), 1u);
}

TEST(NodeDefaults, AllocatableDefaultsToCapacityWhenAbsent) {
  Node node;
  node.status.capacity = {{"cpu", Q("4")}, {"pods", Q("110")}};
  ApplyDefaults(node);
  EXPECT_EQ(node.status.allocatable, node.status.capacity);

  Node reported;
  reported.status.capacity = {{"cpu", Q("4")}};
  reported.status.allocatable = {{"cpu", Q("3920m")}};
  ApplyDefaults(reported);
  EXPECT_EQ(reported.status.allocatable.at("cpu"), Q("3920m"));
}

TEST(WorkloadDefaults, ReplicasDefaultToOneAndTemplatesAreDefaulted) {
  Deployment deployment;
  deployment.spec.template_.spec.containers.push_back(PortContainer());
  ApplyDefaults(deployment);
  EXPECT_EQ(deployment.spec.replicas, 1);
  EXPECT_EQ(deployment.spec.template_.spec.containers[0].ports[0].protocol, "TCP");

  Deployment zero;
  zero.spec.replicas = 0;
  ApplyDefaults(zero);
  EXPECT_EQ(zero.spec.replicas, 0);

  ReplicaSet replica_set;
  ApplyDefaults(replica_set);
  EXPECT_EQ(replica_set.spec.replicas, 1);

  DaemonSet daemon_set;
  ApplyDefaults(daemon_set);
  EXPECT_EQ(daemon_set.spec.template_.spec.restart_policy, "Always");
}

TEST(WorkloadDefaults, StatefulSetPolicyAndClaimTemplates) {
  StatefulSet stateful_set;
  stateful_set.spec.volume_claim_templates.emplace_back();
  ApplyDefaults(stateful_set);
  EXPECT_EQ(stateful_set.spec.replicas, 1);
  EXPECT_EQ(stateful_set.spec.pod_management_policy, "OrderedReady");
  EXPECT_EQ(stateful_set.spec.volume_claim_templates[0].spec.volume_mode, "Filesystem");
  EXPECT_EQ(stateful_set.spec.volume_claim_templates[0].status.phase, "Pending");
}

TEST(WorkloadDefaults, JobCompletionsParallelismAndLabels) {
  Job job;
  job.spec.template_.metadata.labels = {{"app", "batch"}};
  ApplyDefaults(job);
  EXPECT_EQ(job.spec.completions, 1);
  EXPECT_EQ(job.spec.parallelism, 1);
  EXPECT_EQ(job.spec.backoff_limit, 6);
  EXPECT_EQ(job.spec.completion_mode, "NonIndexed");
  EXPECT_EQ(job.spec.suspend, false);
  EXPECT_EQ(job.metadata.labels.at("app"), "batch");
  EXPECT_EQ(job.spec.template_.spec.restart_policy, "Always");
}

TEST(WorkloadDefaults, WorkQueueJobKeepsCompletionsUnset) {
  Job job;
  job.spec.parallelism = 5;
  job.metadata.labels = {{"own", "label"}};
  job.spec.template_.metadata.labels = {{"app", "batch"}};
  ApplyDefaults(job);
  EXPECT_FALSE(job.spec.completions.has_value());
  EXPECT_EQ(job.spec.parallelism, 5);
  EXPECT_EQ(job.metadata.labels.count("app"), 0u);
}

TEST(StorageDefaults, ClaimVolumeAndClass) {
  PersistentVolumeClaim claim;
  ApplyDefaults(claim);
  EXPECT_EQ(claim.spec.volume_mode, "Filesystem");
  EXPECT_EQ(claim.status.phase, "Pending");

  PersistentVolume volume;
  ApplyDefaults(volume);
  EXPECT_EQ(volume.spec.persistent_volume_reclaim_policy, "Retain");
  EXPECT_EQ(volume.spec.volume_mode, "Filesystem");
  EXPECT_EQ(volume.status.phase, "Pending");

  StorageClass storage_class;
  ApplyDefaults(storage_class);
  EXPECT_EQ(storage_class.reclaim_policy, "Delete");
  EXPECT_EQ(storage_class.volume_binding_mode, "Immediate");

  StorageClass wait;
  wait.volume_binding_mode = "WaitForFirstConsumer";
  ApplyDefaults(wait);
  EXPECT_EQ(wait.volume_binding_mode, "WaitForFirstConsumer");
}

TEST(KindIdentity, EveryKindCarriesItsApiVersionAndKind) {
  EXPECT_EQ(Pod().api_version + "/" + Pod().kind, "v1/Pod");
  EXPECT_EQ(Node().kind, "Node");
  EXPECT_EQ(Deployment().api_version, "apps/v1");
  EXPECT_EQ(StatefulSet().kind, "StatefulSet");
  EXPECT_EQ(Job().api_version, "batch/v1");
  EXPECT_EQ(PodDisruptionBudget().api_version, "policy/v1");
  EXPECT_EQ(StorageClass().api_version, "storage.k8s.io/v1");
  EXPECT_EQ(CSINode().kind, "CSINode");
  EXPECT_EQ(PersistentVolumeClaim().kind, "PersistentVolumeClaim");
}

}  // namespace
}  // namespace karpenter::api
