// Benchmarks of the requirement checks the scheduler runs per pod × NodeClaim × instance type.
// Each reports `allocs/iter`, counted by the replacement operator new below, so a regression
// that starts allocating on a hot path shows up next to its time.
//
//   ./build/src/scheduling/kp_scheduling_bench
#include <atomic>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "src/scheduling/requirements.h"
#include "src/scheduling/well_known_labels.h"

namespace {

std::atomic<int64_t> allocations{0};

}  // namespace

void* operator new(std::size_t size) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  std::abort();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace karpenter::scheduling {
namespace {

// Reports allocations per iteration over the timed loop.
class AllocationCounter {
 public:
  explicit AllocationCounter(benchmark::State& state)
      : state_(state), start_(allocations.load(std::memory_order_relaxed)) {}
  ~AllocationCounter() {
    const int64_t total = allocations.load(std::memory_order_relaxed) - start_;
    state_.counters["allocs/iter"] =
        benchmark::Counter(static_cast<double>(total), benchmark::Counter::kAvgIterations);
  }

 private:
  benchmark::State& state_;
  int64_t start_;
};

std::vector<std::string> InstanceTypeNames(int count) {
  std::vector<std::string> names;
  names.reserve(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i)
    names.push_back("family" + std::to_string(i % 97) + ".size" + std::to_string(i));
  return names;
}

// A NodeClaim in flight: NodePool requirements narrowed by its first pod.
Requirements NodeClaimRequirements() {
  return {
      Requirement::In("node.kubernetes.io/instance-type", InstanceTypeNames(600)),
      Requirement::In("karpenter.sh/capacity-type", {"on-demand", "spot"}),
      Requirement::In("topology.kubernetes.io/zone", {"us-east-1a", "us-east-1b", "us-east-1c"}),
      Requirement::In("kubernetes.io/arch", {"amd64"}),
      Requirement::In("kubernetes.io/os", {"linux"}),
      Requirement::In("karpenter.sh/nodepool", {"default"}),
      Requirement::Gt("karpenter.k8s.aws/instance-cpu", 3),
      Requirement::NotIn("karpenter.k8s.aws/instance-category", {"t"}),
  };
}

// One instance type's requirements, as a provider publishes them.
Requirements InstanceTypeRequirements() {
  return {
      Requirement::In("node.kubernetes.io/instance-type", {"family43.size431"}),
      Requirement::In("karpenter.sh/capacity-type", {"on-demand", "reserved", "spot"}),
      Requirement::In("topology.kubernetes.io/zone",
                      {"us-east-1a", "us-east-1b", "us-east-1c", "us-east-1d"}),
      Requirement::In("kubernetes.io/arch", {"amd64"}),
      Requirement::In("kubernetes.io/os", {"linux"}),
      Requirement::In("karpenter.k8s.aws/instance-cpu", {"16"}),
      Requirement::In("karpenter.k8s.aws/instance-category", {"m"}),
      Requirement::In("karpenter.k8s.aws/instance-family", {"family43"}),
  };
}

void BenchRequirementHas(benchmark::State& state) {
  const Requirement types = Requirement::In("t", InstanceTypeNames(600));
  const std::string probe = "family43.size431";
  AllocationCounter counter(state);
  for (auto _ : state) benchmark::DoNotOptimize(types.Has(probe));
}
BENCHMARK(BenchRequirementHas);

void BenchRequirementHasWithBounds(benchmark::State& state) {
  const Requirement cpu = Requirement::Gt("cpu", 3).Intersection(Requirement::Lt("cpu", 65));
  AllocationCounter counter(state);
  for (auto _ : state) benchmark::DoNotOptimize(cpu.Has("16"));
}
BENCHMARK(BenchRequirementHasWithBounds);

void BenchRequirementsHasIntersection(benchmark::State& state) {
  const Requirements node_claim = NodeClaimRequirements();
  const Requirements instance_type = InstanceTypeRequirements();
  AllocationCounter counter(state);
  for (auto _ : state) benchmark::DoNotOptimize(node_claim.HasIntersection(instance_type));
}
BENCHMARK(BenchRequirementsHasIntersection);

void BenchRequirementsIsCompatible(benchmark::State& state) {
  const Requirements node_claim = NodeClaimRequirements();
  const Requirements instance_type = InstanceTypeRequirements();
  const WellKnownLabels well_known = WellKnownLabels::CoreAndAws();
  AllocationCounter counter(state);
  for (auto _ : state) {
    benchmark::DoNotOptimize(node_claim.IsCompatible(instance_type, well_known));
  }
}
BENCHMARK(BenchRequirementsIsCompatible);

void BenchRequirementsCopyAndAdd(benchmark::State& state) {
  const Requirements node_claim = NodeClaimRequirements();
  const Requirements pod = {Requirement::In("topology.kubernetes.io/zone", {"us-east-1b"})};
  AllocationCounter counter(state);
  for (auto _ : state) {
    Requirements copy = node_claim;
    copy.Add(pod);
    benchmark::DoNotOptimize(copy);
  }
}
BENCHMARK(BenchRequirementsCopyAndAdd);

// The small side is a subset of the large one, so the result shares its values.
void BenchRequirementIntersectionLargeWithSmall(benchmark::State& state) {
  const Requirement types = Requirement::In("t", InstanceTypeNames(600));
  const Requirement two = Requirement::In("t", {"family1.size1", "family43.size431"});
  AllocationCounter counter(state);
  for (auto _ : state) benchmark::DoNotOptimize(types.Intersection(two));
}
BENCHMARK(BenchRequirementIntersectionLargeWithSmall);

// Only part of the small side survives: one new value list.
void BenchRequirementIntersectionNewValues(benchmark::State& state) {
  const Requirement types = Requirement::In("t", InstanceTypeNames(600));
  const Requirement two = Requirement::In("t", {"family1.size1", "not-offered"});
  AllocationCounter counter(state);
  for (auto _ : state) benchmark::DoNotOptimize(types.Intersection(two));
}
BENCHMARK(BenchRequirementIntersectionNewValues);

}  // namespace
}  // namespace karpenter::scheduling

BENCHMARK_MAIN();
