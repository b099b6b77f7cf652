#include "src/bench/fake_catalog.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "src/api/karpenter_labels.h"
#include "src/api/quantity.h"

namespace karpenter::bench {
namespace {

constexpr int64_t kGiB = int64_t{1} << 30;
constexpr int64_t kMiB = int64_t{1} << 20;
// kube-reserved of every fake type; no system-reserved and no eviction threshold.
constexpr int64_t kReservedCpuMilli = 100;
constexpr int64_t kReservedMemoryBytes = 10 * kMiB;

}  // namespace

double FakeInstanceType::CheapestPrice() const {
  double best = std::numeric_limits<double>::infinity();
  for (const FakeOffering& offering : offerings) {
    if (offering.available) best = std::min(best, offering.price);
  }
  return best == std::numeric_limits<double>::infinity() ? 0 : best;
}

double FakePrice(double vcpu, double memory_bytes) { return 0.1 * vcpu + 0.1 * memory_bytes / 1e9; }

FakeInstanceType MakeFakeInstanceType(std::string name, int64_t vcpu, int64_t memory_gib,
                                      int64_t pods) {
  using api::Quantity;
  FakeInstanceType type;
  type.name = std::move(name);
  const int64_t memory_bytes = memory_gib * kGiB;
  type.capacity = {
      {"cpu", Quantity::FromInt(vcpu, Quantity::Format::kDecimalSI)},
      {"memory", Quantity::FromInt(memory_bytes, Quantity::Format::kBinarySI)},
      {"pods", Quantity::FromInt(pods, Quantity::Format::kDecimalSI)},
  };
  type.allocatable = type.capacity;
  type.allocatable["cpu"].Sub(Quantity::FromMilli(kReservedCpuMilli, Quantity::Format::kDecimalSI));
  type.allocatable["memory"].Sub(
      Quantity::FromInt(kReservedMemoryBytes, Quantity::Format::kBinarySI));

  const double price = FakePrice(static_cast<double>(vcpu), static_cast<double>(memory_bytes));
  const std::string spot(api::kCapacityTypeSpot);
  const std::string on_demand(api::kCapacityTypeOnDemand);
  type.offerings = {
      {kFakeZone1, spot, price, true},      {kFakeZone2, spot, price, true},
      {kFakeZone1, on_demand, price, true}, {kFakeZone2, on_demand, price, true},
      {kFakeZone3, on_demand, price, true},
  };

  using scheduling::Requirement;
  // "large" needs strictly more than 4 vCPU and 8 GiB, as upstream's Cmp(...) > 0 checks.
  const bool large = vcpu > 4 && memory_bytes > 8 * kGiB;
  type.requirements = {
      Requirement::In(api::kLabelInstanceTypeStable, {std::string_view(type.name)}),
      Requirement::In(api::kLabelArchStable, {api::kArchitectureAmd64}),
      Requirement::In(api::kLabelOSStable, {"darwin", "linux", "windows"}),
      Requirement::In(api::kLabelTopologyZone, {kFakeZone1, kFakeZone2, kFakeZone3}),
      Requirement::In(api::kCapacityTypeLabelKey,
                      {api::kCapacityTypeSpot, api::kCapacityTypeOnDemand}),
      Requirement::In(kLabelInstanceSize, {large ? "large" : "small"}),
      large ? Requirement::In(kLabelExotic, {"optional"}) : Requirement::DoesNotExist(kLabelExotic),
      Requirement::In(kLabelInteger, {std::to_string(vcpu)}),
  };
  return type;
}

std::vector<FakeInstanceType> FakeInstanceTypes(int count) {
  std::vector<FakeInstanceType> types;
  types.reserve(static_cast<size_t>(std::max(count, 0)));
  for (int i = 0; i < count; ++i) {
    const int64_t n = i + 1;
    types.push_back(MakeFakeInstanceType("fake-it-" + std::to_string(i), n, 2 * n, 10 * n));
  }
  return types;
}

std::vector<FakeInstanceType> FakeCatalog400() { return FakeInstanceTypes(400); }

}  // namespace karpenter::bench
