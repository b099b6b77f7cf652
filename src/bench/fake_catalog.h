// The instance-type set upstream Karpenter's scheduling benchmark runs against: the fake cloud
// provider's InstanceTypes(400). Type i is named fake-it-<i> and has i+1 vCPU, 2(i+1) GiB and
// 10(i+1) pods; every type has the same five offerings (spot in zones 1-2, on-demand in zones
// 1-3) at a price linear in size. Kept apart from the scheduler's own view type so benchmarks
// and lower bounds can be built and tested before (and independently of) the scheduler.
#pragma once

#include <string>
#include <vector>

#include "src/api/resource_list.h"
#include "src/scheduling/requirements.h"

namespace karpenter::bench {

// Labels the fake provider adds on top of the well-known ones (all well-known upstream).
inline constexpr char kLabelInstanceSize[] = "size";
inline constexpr char kLabelExotic[] = "special";
inline constexpr char kLabelInteger[] = "integer";

inline constexpr char kFakeZone1[] = "test-zone-1";
inline constexpr char kFakeZone2[] = "test-zone-2";
inline constexpr char kFakeZone3[] = "test-zone-3";

struct FakeOffering {
  std::string zone;
  std::string capacity_type;  // "spot" | "on-demand"
  double price = 0;           // per hour
  bool available = true;
  bool operator==(const FakeOffering&) const = default;
};

struct FakeInstanceType {
  std::string name;
  // instance-type, arch, os, zone, capacity-type, size, special, integer.
  scheduling::Requirements requirements;
  api::ResourceList capacity;     // cpu, memory, pods
  api::ResourceList allocatable;  // capacity minus kube-reserved (100m cpu, 10Mi memory)
  std::vector<FakeOffering> offerings;

  // Price of the cheapest available offering; 0 when none is available.
  double CheapestPrice() const;
};

// Upstream's fake.PriceFromResources: 0.1 per vCPU plus 0.1 per 1e9 bytes of memory (pods and
// other resources are free).
double FakePrice(double vcpu, double memory_bytes);

// One fake type with `vcpu` CPUs, `memory_gib` GiB and `pods` pods, as fake.NewInstanceType.
FakeInstanceType MakeFakeInstanceType(std::string name, int64_t vcpu, int64_t memory_gib,
                                      int64_t pods);

// fake.InstanceTypes(count): fake-it-0 … fake-it-<count-1>.
std::vector<FakeInstanceType> FakeInstanceTypes(int count);

// The benchmark's catalog: FakeInstanceTypes(400).
std::vector<FakeInstanceType> FakeCatalog400();

}  // namespace karpenter::bench
