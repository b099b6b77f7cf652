#include "src/bench/scheduling_solve.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "fmt/format.h"
#include "src/api/quantity.h"
#include "src/bench/lower_bound.h"
#include "src/provisioning/resources.h"
#include "src/provisioning/scheduler.h"

namespace karpenter::bench {

api::NodePool BenchNodePool(int64_t pods) {
  constexpr int64_t kUpstreamLargestRun = 20'000;
  const int64_t scale =
      std::max<int64_t>(1, (pods + kUpstreamLargestRun - 1) / kUpstreamLargestRun);
  api::NodePool pool;
  pool.metadata.name = kBenchNodePoolName;
  pool.spec.template_.spec.node_class_ref =
      api::NodeClassReference{"EC2NodeClass", "default", "karpenter.k8s.aws"};
  pool.spec.limits = {
      {"cpu", api::Quantity::FromInt(10'000'000 * scale, api::Quantity::Format::kDecimalSI)},
      {"memory", api::Quantity::FromInt(int64_t{10'000'000} * scale << 30,
                                        api::Quantity::Format::kBinarySI)}};
  api::ApplyDefaults(pool);
  return pool;
}

provisioning::InstanceTypeView ToInstanceTypeView(const FakeInstanceType& type) {
  provisioning::InstanceTypeView view;
  view.name = type.name;
  view.requirements = type.requirements;
  view.allocatable = type.allocatable;
  view.capacity = type.capacity;
  view.offerings.reserve(type.offerings.size());
  for (const FakeOffering& offering : type.offerings) {
    view.offerings.push_back(
        {offering.zone, offering.capacity_type, offering.price, offering.available});
  }
  return view;
}

provisioning::InstanceTypeFile Fake400CatalogFile() {
  provisioning::InstanceTypeFile file;
  for (const FakeInstanceType& type : FakeCatalog400()) {
    file.instance_types.push_back(ToInstanceTypeView(type));
  }
  file.well_known_labels = {kLabelInstanceSize, kLabelExotic, kLabelInteger};
  return file;
}

provisioning::SchedulerInput BenchSchedulerInput(std::span<const FakeInstanceType> catalog,
                                                 std::vector<api::Pod> pods,
                                                 provisioning::PreferencePolicy policy,
                                                 provisioning::PackingPolicy packing) {
  provisioning::SchedulerInput input;
  provisioning::NodePoolInstanceTypes pool;
  pool.node_pool = BenchNodePool(static_cast<int64_t>(pods.size()));
  std::vector<provisioning::InstanceTypeView> types;
  types.reserve(catalog.size());
  for (const FakeInstanceType& type : catalog) types.push_back(ToInstanceTypeView(type));
  pool.instance_types = std::move(types);
  input.node_pools.push_back(std::move(pool));
  input.pending_pods = std::move(pods);
  input.options.preference_policy = policy;
  input.options.packing = packing;
  return input;
}

double NodeClaimPrice(const provisioning::NewNodeClaim& claim) {
  if (claim.instance_type_options.empty()) return 0;
  const auto allowed = [](const std::vector<std::string>& values, const std::string& value) {
    return values.empty() || std::find(values.begin(), values.end(), value) != values.end();
  };
  double best = std::numeric_limits<double>::infinity();
  for (const provisioning::OfferingView& offering : claim.instance_type_options[0]->offerings) {
    if (offering.available && allowed(claim.zones, offering.zone) &&
        allowed(claim.capacity_types, offering.capacity_type)) {
      best = std::min(best, offering.price);
    }
  }
  return best == std::numeric_limits<double>::infinity() ? 0 : best;
}

namespace {

class Fnv1a {
 public:
  // Each field is followed by a separator byte, so ("ab", "c") and ("a", "bc") differ.
  void Add(std::string_view text) {
    for (const char c : text) Byte(static_cast<uint8_t>(c));
    Byte(0xff);
  }
  std::string Hex() const { return fmt::format("{:016x}", hash_); }

 private:
  void Byte(uint8_t byte) {
    hash_ ^= byte;
    hash_ *= 0x100000001b3ULL;
  }
  uint64_t hash_ = 0xcbf29ce484222325ULL;
};

}  // namespace

std::string DecisionDigest(const provisioning::SchedulerResult& result) {
  Fnv1a hash;
  for (const provisioning::NewNodeClaim& claim : result.new_node_claims) {
    hash.Add("claim");
    hash.Add(claim.node_pool);
    hash.Add(claim.requirements.ToString());
    for (const std::string& type : claim.instance_types) hash.Add(type);
    hash.Add("zones");
    for (const std::string& zone : claim.zones) hash.Add(zone);
    hash.Add("capacity types");
    for (const std::string& capacity_type : claim.capacity_types) hash.Add(capacity_type);
    hash.Add("pods");
    for (const std::string& pod : claim.pods) hash.Add(pod);
    hash.Add("labels");
    for (const auto& [key, value] : claim.labels) {
      hash.Add(key);
      hash.Add(value);
    }
    hash.Add(provisioning::ResourcesString(claim.requests));
    hash.Add(claim.min_values_relaxed ? "relaxed" : "strict");
  }
  for (const auto& [node, pods] : result.existing_node_pods) {
    hash.Add("node");
    hash.Add(node);
    for (const std::string& pod : pods) hash.Add(pod);
  }
  for (const auto& [pod, reason] : result.unschedulable) {
    hash.Add("unschedulable");
    hash.Add(pod);
    hash.Add(reason);
  }
  return hash.Hex();
}

SolveOutcome Summarise(const provisioning::SchedulerResult& result, double seconds) {
  SolveOutcome outcome;
  outcome.seconds = seconds;
  outcome.decision_digest = DecisionDigest(result);
  outcome.nodes = static_cast<int64_t>(result.new_node_claims.size());
  outcome.unschedulable = static_cast<int64_t>(result.unschedulable.size());
  if (!result.unschedulable.empty()) {
    const auto& [pod, reason] = *result.unschedulable.begin();
    outcome.sample_unschedulable = pod + ": " + reason;
  }
  for (const provisioning::NewNodeClaim& claim : result.new_node_claims) {
    outcome.pods_scheduled += static_cast<int64_t>(claim.pods.size());
    outcome.price_per_hour += NodeClaimPrice(claim);
  }
  return outcome;
}

std::vector<PackedNode> PackedNodesOf(const provisioning::SchedulerResult& result,
                                      std::span<const api::Pod> pods) {
  std::map<std::string, const api::Pod*> by_key;
  for (const api::Pod& pod : pods) by_key[provisioning::PodKey(pod)] = &pod;
  std::vector<PackedNode> out;
  out.reserve(result.new_node_claims.size());
  for (const provisioning::NewNodeClaim& claim : result.new_node_claims) {
    if (claim.instance_type_options.empty()) continue;
    const provisioning::InstanceTypeView& type = *claim.instance_type_options[0];
    PackedNode node{.type = type.name,
                    .price = NodeClaimPrice(claim),
                    .capacity = ResourcesOf(type.allocatable)};
    for (const std::string& key : claim.pods) {
      auto found = by_key.find(key);
      if (found == by_key.end()) continue;
      const FluidDemand pod = DemandOf(std::span<const api::Pod>(found->second, 1));
      node.used.cpu_milli += pod.cpu_milli;
      node.used.memory_bytes += pod.memory_bytes;
      node.used.pods += pod.pods;
    }
    out.push_back(std::move(node));
  }
  return out;
}

}  // namespace karpenter::bench
