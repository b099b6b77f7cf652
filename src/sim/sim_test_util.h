// A small twin for tests: the embedded catalog (loaded once per test binary), a queue, a seeded
// Random, an event log and a cluster over three zones, with fixed latencies so tests can name
// exact instants. Builders for the Deployments tests apply.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "karpenter/metrics.h"
#include "src/api/quantity.h"
#include "src/cloudprovider/catalog.h"
#include "src/sim/cluster.h"

namespace karpenter::sim::testing {

inline const cloudprovider::Catalog& TestCatalog() {
  static const cloudprovider::Catalog* const kCatalog =
      new cloudprovider::Catalog(*cloudprovider::Catalog::LoadEmbedded());
  return *kCatalog;
}

// Every range collapsed to one value: boot 35 s, Ready 15 s, bind 1 s, recreate 1 s,
// CreateFleet 3 s, ASG launch 10 s, CA compute 5 s.
inline LatencyModel FixedLatency() {
  LatencyModel latency;
  latency.instance_boot_to_registered = {35, 35};
  latency.registered_to_ready = {15, 15};
  latency.kube_scheduler_bind = {1, 1};
  latency.controller_recreate = {1, 1};
  latency.create_fleet = {3, 3};
  latency.asg_launch_delay = {10, 10};
  latency.ca_loop_compute = {5, 5};
  return latency;
}

struct World {
  explicit World(std::vector<CapacityFault> faults = {}, LatencyModel model = FixedLatency())
      : latency(model),
        ec2(TestCatalog(), std::move(faults)),
        cluster(queue, random, latency, log, ec2, {"us-east-1a", "us-east-1b", "us-east-1c"}) {}

  EventQueue queue;
  Random random{7};
  EventLog log{true};
  LatencyModel latency;
  Ec2 ec2;
  Cluster cluster;
};

// An on-demand instance of node group "group" (no NodeClaim) in us-east-1a.
inline InstanceRequest NodeGroupInstance(const std::string& type) {
  InstanceRequest request;
  request.instance_type = type;
  request.zone = "us-east-1a";
  request.capacity_type = "on-demand";
  request.price = 0.19;
  request.node_group = "group";
  return request;
}

inline api::Deployment MakeDeployment(const std::string& name, int replicas, const std::string& cpu,
                                      const std::string& memory) {
  api::Deployment deployment;
  deployment.metadata.name = name;
  deployment.metadata.namespace_ = "default";
  deployment.spec.replicas = replicas;
  deployment.spec.template_.metadata.labels = {{"app", name}};
  api::Container container;
  container.name = "app";
  container.image = "app";
  container.resources.requests["cpu"] = *api::Quantity::Parse(cpu);
  container.resources.requests["memory"] = *api::Quantity::Parse(memory);
  deployment.spec.template_.spec.containers.push_back(std::move(container));
  return deployment;
}

// The "default" AL2023 EC2NodeClass the NodePools below refer to.
inline api::EC2NodeClass MakeNodeClass() {
  api::EC2NodeClass node_class;
  node_class.metadata.name = "default";
  node_class.spec.ami_family = "AL2023";
  return node_class;
}

// NodePool "default" on that class, limited to these instance types and capacity types, so the
// predicted launches are known.
inline api::NodePool MakeNodePool(std::vector<std::string> types,
                                  std::vector<std::string> capacity_types) {
  api::NodePool pool;
  pool.metadata.name = "default";
  api::NodeClassReference ref;
  ref.group = "karpenter.k8s.aws";
  ref.kind = "EC2NodeClass";
  ref.name = "default";
  pool.spec.template_.spec.node_class_ref = ref;
  api::NodeSelectorRequirementWithMinValues type;
  type.key = "node.kubernetes.io/instance-type";
  type.operator_ = "In";
  type.values = std::move(types);
  api::NodeSelectorRequirementWithMinValues capacity;
  capacity.key = "karpenter.sh/capacity-type";
  capacity.operator_ = "In";
  capacity.values = std::move(capacity_types);
  pool.spec.template_.spec.requirements = {type, capacity};
  return pool;
}

// The event lines of one event type, in order.
inline std::vector<std::string> EventLines(const EventLog& log, const std::string& event) {
  std::vector<std::string> out;
  for (const std::string& line : log.lines()) {
    if (line.find("\"event\":\"" + event + "\"") != std::string::npos) out.push_back(line);
  }
  return out;
}

// The labels of karpenter_nodeclaims_disrupted_total (and pods_disruption_initiated_total) for
// an on-demand claim of the "default" NodePool without a terminationGracePeriod.
inline MetricLabels DefaultPoolDisruptedLabels(const std::string& reason,
                                               const std::string& consolidation_policy = "") {
  return {{"reason", reason},
          {"nodepool", "default"},
          {"capacity_type", "on-demand"},
          {"consolidation_policy", consolidation_policy},
          {"termination_mode", "graceful"}};
}

inline size_t BoundPods(const Cluster& cluster) {
  size_t bound = 0;
  for (const auto& [key, record] : cluster.pods()) bound += !record.pod.spec.node_name.empty();
  // Every test that counts bound pods also checks the cluster's own count of the others.
  EXPECT_EQ(cluster.unbound_pod_count(), cluster.pods().size() - bound);
  return bound;
}

}  // namespace karpenter::sim::testing
