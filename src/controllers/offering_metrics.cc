#include "src/controllers/offering_metrics.h"

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "src/api/karpenter_labels.h"

namespace karpenter::controllers {
namespace {

// (instance type, capacity type, zone), the gauges' labels.
using Dimensions = std::tuple<std::string, std::string, std::string>;

struct OfferingFacts {
  bool available = false;
  double price = 0;
};

MetricLabels LabelsOf(const Dimensions& dimensions) {
  return {{"instance_type", std::get<0>(dimensions)},
          {"capacity_type", std::get<1>(dimensions)},
          {"zone", std::get<2>(dimensions)}};
}

// A numeric label of the type (instance-cpu, instance-memory), if it has one.
std::optional<double> NumericLabel(const cloudprovider::InstanceType& type, std::string_view key) {
  auto it = type.labels.find(std::string(key));
  double value = 0;
  if (it == type.labels.end() || !absl::SimpleAtod(it->second, &value)) return std::nullopt;
  return value;
}

}  // namespace

OfferingMetrics::OfferingMetrics(Clock& clock, ClusterReader& reader, CloudProvider& cloud,
                                 Metrics& metrics, bool reserved_capacity)
    : reader_(reader),
      cloud_(cloud),
      metrics_(metrics),
      reserved_capacity_(reserved_capacity),
      loop_("cloudprovider.metrics", clock, [this] { return Reconcile(); }) {}

absl::StatusOr<ReconcileResult> OfferingMetrics::Reconcile() {
  std::map<Dimensions, OfferingFacts> offerings;
  std::map<std::string, std::pair<std::optional<double>, std::optional<double>>> sizes;
  absl::Status failed;
  for (const api::Object& object : reader_.List("NodePool")) {
    const auto& pool = std::get<api::NodePool>(object);
    auto types = cloud_.GetInstanceTypes(pool);
    if (const auto* error = std::get_if<CloudError>(&types)) {
      failed.Update(absl::UnavailableError(absl::StrCat("getting instance types, NodePool ",
                                                        pool.metadata.name, ": ", error->message)));
      continue;
    }
    for (const cloudprovider::InstanceType& type :
         std::get<std::vector<cloudprovider::InstanceType>>(types)) {
      sizes[type.name] = {NumericLabel(type, api::kLabelInstanceCPU),
                          NumericLabel(type, api::kLabelInstanceMemory)};
      std::set<std::string> zones;
      for (const cloudprovider::Offering& offering : type.offerings) {
        OfferingFacts& facts = offerings[{type.name, offering.capacity_type, offering.zone}];
        facts.available = facts.available || offering.available;
        facts.price = offering.price;
        zones.insert(offering.zone);
      }
      if (!reserved_capacity_) continue;
      for (const std::string& zone : zones) {
        offerings.try_emplace({type.name, std::string(api::kCapacityTypeReserved), zone});
      }
    }
  }
  for (const auto& [dimensions, facts] : offerings) {
    const MetricLabels labels = LabelsOf(dimensions);
    metrics_.Set("karpenter_cloudprovider_instance_type_offering_available", labels,
                 facts.available ? 1 : 0);
    metrics_.Set("karpenter_cloudprovider_instance_type_offering_price_estimate", labels,
                 facts.price);
  }
  for (const auto& [name, size] : sizes) {
    if (size.first) {
      metrics_.Set("karpenter_cloudprovider_instance_type_cpu_cores", {{"instance_type", name}},
                   *size.first);
    }
    if (size.second) {
      metrics_.Set("karpenter_cloudprovider_instance_type_memory_bytes", {{"instance_type", name}},
                   *size.second * 1024 * 1024);
    }
  }
  if (!failed.ok()) return failed;
  return ReconcileResult{.requeue_after_millis = kOfferingMetricsPeriodMillis};
}

}  // namespace karpenter::controllers
