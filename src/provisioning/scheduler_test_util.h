// Test fixtures for the provisioning scheduler: a fake catalog of ten instance types (with
// spot and on-demand offerings in three zones), NodePools, pods, daemonsets and existing nodes.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "src/api/nodepool.h"
#include "src/api/pod.h"
#include "src/api/quantity.h"
#include "src/api/time.h"
#include "src/provisioning/types.h"
#include "src/scheduling/requirement.h"

namespace karpenter::provisioning::testing {

inline constexpr char kZoneA[] = "test-zone-a";
inline constexpr char kZoneB[] = "test-zone-b";
inline constexpr char kZoneC[] = "test-zone-c";
inline constexpr char kInstanceCpu[] = "karpenter.k8s.aws/instance-cpu";
inline constexpr char kInstanceFamily[] = "karpenter.k8s.aws/instance-family";
inline constexpr char kInstanceSize[] = "karpenter.k8s.aws/instance-size";

inline api::Quantity Q(const char* text) { return *api::Quantity::Parse(text); }

inline api::ResourceList Resources(
    std::initializer_list<std::pair<const char*, const char*>> entries) {
  api::ResourceList list;
  for (const auto& [name, value] : entries) list[name] = Q(value);
  return list;
}

struct TypeSpec {
  std::string name;
  std::string family;
  std::string size;
  int cpu = 0;
  int memory_gi = 0;
  int pods = 0;
  std::string arch = "amd64";
  double on_demand_price = 0;
  int gpus = 0;
};

// Offerings: on-demand at the given price and spot at 30% of it, in zones A, B and C.
inline InstanceTypeView MakeInstanceType(const TypeSpec& spec) {
  using scheduling::Requirement;
  InstanceTypeView type;
  type.name = spec.name;
  type.requirements.Add(Requirement::In("node.kubernetes.io/instance-type", {spec.name}));
  type.requirements.Add(Requirement::In("kubernetes.io/arch", {spec.arch}));
  type.requirements.Add(Requirement::In("kubernetes.io/os", {"linux"}));
  type.requirements.Add(Requirement::In("topology.kubernetes.io/zone", {kZoneA, kZoneB, kZoneC}));
  type.requirements.Add(Requirement::In("karpenter.sh/capacity-type", {"spot", "on-demand"}));
  type.requirements.Add(Requirement::In(kInstanceCpu, {std::to_string(spec.cpu)}));
  type.requirements.Add(Requirement::In(kInstanceFamily, {spec.family}));
  type.requirements.Add(Requirement::In(kInstanceSize, {spec.size}));
  type.allocatable["cpu"] = api::Quantity::FromInt(spec.cpu, api::Quantity::Format::kDecimalSI);
  type.allocatable["memory"] = Q((std::to_string(spec.memory_gi) + "Gi").c_str());
  type.allocatable["pods"] = api::Quantity::FromInt(spec.pods, api::Quantity::Format::kDecimalSI);
  if (spec.gpus > 0) {
    type.allocatable["nvidia.com/gpu"] =
        api::Quantity::FromInt(spec.gpus, api::Quantity::Format::kDecimalSI);
  }
  for (const char* zone : {kZoneA, kZoneB, kZoneC}) {
    type.offerings.push_back({zone, "on-demand", spec.on_demand_price, true});
    type.offerings.push_back({zone, "spot", spec.on_demand_price * 0.3, true});
  }
  return type;
}

// t.small (1 cpu, 4 pods), c.large, c.xlarge, m.large, m.xlarge, m.2xlarge, m.4xlarge,
// g.large and g.xlarge (arm64), p.metal (GPU, metal).
inline std::vector<InstanceTypeView> Catalog() {
  const std::vector<TypeSpec> specs = {
      {"t.small", "t", "small", 1, 2, 4, "amd64", 0.01},
      {"c.large", "c", "large", 2, 4, 29, "amd64", 0.085},
      {"c.xlarge", "c", "xlarge", 4, 8, 58, "amd64", 0.17},
      {"m.large", "m", "large", 2, 8, 29, "amd64", 0.096},
      {"m.xlarge", "m", "xlarge", 4, 16, 58, "amd64", 0.192},
      {"m.2xlarge", "m", "2xlarge", 8, 32, 58, "amd64", 0.384},
      {"m.4xlarge", "m", "4xlarge", 16, 64, 234, "amd64", 0.768},
      {"g.large", "g", "large", 2, 8, 29, "arm64", 0.077},
      {"g.xlarge", "g", "xlarge", 4, 16, 58, "arm64", 0.154},
      {"p.metal", "p", "metal", 96, 768, 737, "amd64", 32.0, 8},
  };
  std::vector<InstanceTypeView> out;
  for (const TypeSpec& spec : specs) out.push_back(MakeInstanceType(spec));
  return out;
}

inline api::NodePool MakeNodePool(const std::string& name,
                                  std::optional<int32_t> weight = std::nullopt) {
  api::NodePool pool;
  pool.metadata.name = name;
  pool.spec.weight = weight;
  pool.spec.template_.spec.node_class_ref =
      api::NodeClassReference{"EC2NodeClass", "default", "karpenter.k8s.aws"};
  return pool;
}

inline void AddRequirement(api::NodePool& pool, const std::string& key, const std::string& op,
                           std::vector<std::string> values,
                           std::optional<int64_t> min_values = std::nullopt) {
  pool.spec.template_.spec.requirements.push_back({key, op, std::move(values), min_values});
}

// A pod with one container requesting `cpu` and `memory`; uid = name, created at `created` s.
inline api::Pod MakePod(const std::string& name, const char* cpu = "100m",
                        const char* memory = "128Mi", int64_t created = 0) {
  api::Pod pod;
  pod.metadata.name = name;
  pod.metadata.namespace_ = "default";
  pod.metadata.uid = name;
  pod.metadata.creation_timestamp = api::Time::FromUnixSeconds(created);
  api::Container container;
  container.name = "main";
  container.resources.requests = Resources({{"cpu", cpu}, {"memory", memory}});
  pod.spec.containers.push_back(std::move(container));
  return pod;
}

inline api::NodeSelectorTerm Term(const std::string& key, const std::string& op,
                                  std::vector<std::string> values) {
  api::NodeSelectorTerm term;
  term.match_expressions.push_back({key, op, std::move(values)});
  return term;
}

inline api::NodeAffinity& NodeAffinityOf(api::Pod& pod) {
  if (!pod.spec.affinity) pod.spec.affinity.emplace();
  if (!pod.spec.affinity->node_affinity) pod.spec.affinity->node_affinity.emplace();
  return *pod.spec.affinity->node_affinity;
}

inline void AddRequiredAffinity(api::Pod& pod, std::vector<api::NodeSelectorTerm> terms) {
  NodeAffinityOf(pod).required_during_scheduling_ignored_during_execution =
      api::NodeSelector{std::move(terms)};
}

inline void AddPreferredAffinity(api::Pod& pod, int32_t weight, api::NodeSelectorTerm term) {
  NodeAffinityOf(pod).preferred_during_scheduling_ignored_during_execution.push_back(
      {weight, std::move(term)});
}

inline void AddHostPort(api::Pod& pod, int32_t port) {
  api::ContainerPort container_port;
  container_port.host_port = port;
  container_port.container_port = port;
  pod.spec.containers.front().ports.push_back(container_port);
}

inline ExistingNodeView MakeNode(const std::string& name, const char* cpu, const char* memory,
                                 const char* pods = "110") {
  ExistingNodeView node;
  node.name = name;
  node.labels = {{"kubernetes.io/hostname", name},
                 {"kubernetes.io/arch", "amd64"},
                 {"kubernetes.io/os", "linux"},
                 {"topology.kubernetes.io/zone", kZoneA}};
  node.allocatable = Resources({{"cpu", cpu}, {"memory", memory}, {"pods", pods}});
  return node;
}

// One NodePool "default" with the full catalog.
inline SchedulerInput DefaultInput() {
  SchedulerInput input;
  input.node_pools.push_back({MakeNodePool("default"), Catalog()});
  return input;
}

// Pod keys of every claim, flattened.
inline std::vector<std::string> ClaimedPods(const SchedulerResult& result) {
  std::vector<std::string> out;
  for (const NewNodeClaim& claim : result.new_node_claims) {
    out.insert(out.end(), claim.pods.begin(), claim.pods.end());
  }
  return out;
}

}  // namespace karpenter::provisioning::testing
