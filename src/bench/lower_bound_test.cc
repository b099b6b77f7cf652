#include "src/bench/lower_bound.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "src/api/karpenter_labels.h"
#include "src/api/quantity.h"
#include "src/bench/benchmark_pods.h"

namespace karpenter::bench {
namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

void ExpectBound(const absl::StatusOr<double>& bound, double expected) {
  ASSERT_TRUE(bound.ok()) << bound.status();
  EXPECT_LE(*bound, expected);
  EXPECT_NEAR(*bound, expected, 1e-8 * std::max(1.0, expected));
}

api::Pod PodWith(int64_t cpu_milli, int64_t memory_mi, std::string ns = "default") {
  api::Pod pod;
  pod.metadata.namespace_ = std::move(ns);
  api::Container container;
  container.resources.requests = {
      {"cpu", api::Quantity::FromMilli(cpu_milli, api::Quantity::Format::kDecimalSI)},
      {"memory", api::Quantity::FromInt(memory_mi << 20, api::Quantity::Format::kBinarySI)}};
  pod.spec.containers.push_back(container);
  return pod;
}

api::Pod AntiAffinityPod(std::map<std::string, std::string> labels,
                         std::map<std::string, std::string> selector, std::string ns = "default") {
  api::Pod pod = PodWith(100, 100, std::move(ns));
  pod.metadata.labels = std::move(labels);
  api::PodAffinityTerm term;
  term.label_selector.emplace().match_labels = std::move(selector);
  term.topology_key = std::string(api::kLabelHostname);
  pod.spec.affinity.emplace()
      .pod_anti_affinity.emplace()
      .required_during_scheduling_ignored_during_execution.push_back(term);
  return pod;
}

TEST(FluidLowerBound, OneResourceTwoTypesBuysTheCheaperPerUnit) {
  // 2 cores for $1 ($0.50/core) against 4 cores for $1.50 ($0.375/core): 10 cores cost $3.75.
  const std::vector<FluidNodeType> types = {{1.0, 2000, 0, 0}, {1.5, 4000, 0, 0}};
  ExpectBound(FluidLowerBound(FluidDemand{10000, 0, 0}, types), 3.75);
}

TEST(FluidLowerBound, TwoResourcesMixTypes) {
  // min a+b s.t. 4a+b ≥ 5 (cpu), a+4b ≥ 5 (GiB): a = b = 1, cost 2 (either type alone costs 5).
  const std::vector<FluidNodeType> types = {{1.0, 4000, 1 * kGiB, 0}, {1.0, 1000, 4 * kGiB, 0}};
  absl::StatusOr<double> bound = FluidLowerBound(FluidDemand{5000, 5 * kGiB, 0}, types);
  ASSERT_TRUE(bound.ok()) << bound.status();
  EXPECT_NEAR(*bound, 2.0, 1e-6);
  EXPECT_LE(*bound, 2.0);
}

TEST(FluidLowerBound, PodCountCanBind) {
  // 100 tiny pods, 10 pod slots per $1 node: pods, not cpu, set the price.
  const std::vector<FluidNodeType> types = {{1.0, 64000, 64 * kGiB, 10}};
  ExpectBound(FluidLowerBound(FluidDemand{1000, 1 * kGiB, 100}, types), 10.0);
}

TEST(FluidLowerBound, RoundsDownNeverAboveTheOptimum) {
  // The bound sits a hair below the LP optimum, never on or above it.
  const std::vector<FluidNodeType> types = {{1.0 / 3.0, 1000, 0, 0}};
  absl::StatusOr<double> bound = FluidLowerBound(FluidDemand{1000, 0, 0}, types);
  ASSERT_TRUE(bound.ok());
  EXPECT_LT(*bound, 1.0 / 3.0);
  EXPECT_GT(*bound, 1.0 / 3.0 - 1e-8);
}

TEST(FluidLowerBound, ZeroDemandCostsNothing) {
  ExpectBound(FluidLowerBound(FluidDemand{}, std::vector<FluidNodeType>{}), 0.0);
}

TEST(FluidLowerBound, UncoverableDemandIsFailedPrecondition) {
  const std::vector<FluidNodeType> types = {{1.0, 4000, 0, 10}};
  EXPECT_EQ(FluidLowerBound(FluidDemand{1000, kGiB, 1}, types).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(FluidLowerBound(FluidDemand{1000, 0, 1}, std::vector<FluidNodeType>{}).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST(FluidLowerBound, NegativePriceIsInvalidArgument) {
  const std::vector<FluidNodeType> types = {{-1.0, 4000, 0, 10}};
  EXPECT_EQ(FluidLowerBound(FluidDemand{1000, 0, 1}, types).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(FluidLowerBound, FakeCatalogBuysTheLargestTypeForCpuBoundPods) {
  // 1,000 pods of 1 core and 1Gi: cpu binds, and fake-it-399 (399.9 allocatable cores for
  // 400 × $0.3147483648) has the lowest price per usable core.
  std::vector<api::Pod> pods(1000, PodWith(1000, 1024));
  const double optimum = 400 * 0.3147483648 * 1000 / 399.9;
  absl::StatusOr<double> bound = FluidLowerBound(pods, FakeCatalog400());
  ASSERT_TRUE(bound.ok()) << bound.status();
  EXPECT_LE(*bound, optimum);
  EXPECT_NEAR(*bound, optimum, 1e-5);
}

TEST(FluidLowerBound, SameInputsSameBound) {
  const std::vector<api::Pod> pods = MakeDiversePods(500);
  const std::vector<FakeInstanceType> types = FakeCatalog400();
  absl::StatusOr<double> first = FluidLowerBound(pods, types);
  ASSERT_TRUE(first.ok());
  EXPECT_GT(*first, 0);
  absl::StatusOr<double> second = FluidLowerBound(pods, types);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(*second, *first);
}

TEST(NodeTypesOf, SkipsTypesWithoutAvailableOfferings) {
  std::vector<FakeInstanceType> types = FakeInstanceTypes(3);
  for (FakeOffering& offering : types[1].offerings) offering.available = false;
  const std::vector<FluidNodeType> node_types = NodeTypesOf(types);
  ASSERT_EQ(node_types.size(), 2u);
  EXPECT_DOUBLE_EQ(node_types[1].cpu_milli, 2900);
  EXPECT_DOUBLE_EQ(node_types[1].pods, 30);
}

TEST(DemandOf, SumsRequestsAndCountsPods) {
  const std::vector<api::Pod> pods = {PodWith(250, 100), PodWith(1500, 4096)};
  const FluidDemand demand = DemandOf(pods);
  EXPECT_DOUBLE_EQ(demand.cpu_milli, 1750);
  EXPECT_DOUBLE_EQ(demand.memory_bytes, 4196.0 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(demand.pods, 2);
}

TEST(AntiAffinityNodeFloor, EmptyIsZeroAndUnconstrainedIsOne) {
  EXPECT_EQ(AntiAffinityNodeFloor({}), 0);
  const std::vector<api::Pod> pods(5, PodWith(100, 100));
  EXPECT_EQ(AntiAffinityNodeFloor(pods), 1);
}

TEST(AntiAffinityNodeFloor, SelfAntiAffinityPodsNeedOneNodeEach) {
  const std::vector<api::Pod> pods(7, AntiAffinityPod({{"app", "nginx"}}, {{"app", "nginx"}}));
  EXPECT_EQ(AntiAffinityNodeFloor(pods), 7);
}

TEST(AntiAffinityNodeFloor, TermNotMatchingItsCarrierForcesNothing) {
  const std::vector<api::Pod> pods(4, AntiAffinityPod({{"app", "web"}}, {{"app", "db"}}));
  EXPECT_EQ(AntiAffinityNodeFloor(pods), 1);
}

TEST(AntiAffinityNodeFloor, NamespacesSplitTheGroups) {
  std::vector<api::Pod> pods(3, AntiAffinityPod({{"app", "x"}}, {{"app", "x"}}, "a"));
  pods.insert(pods.end(), 2, AntiAffinityPod({{"app", "x"}}, {{"app", "x"}}, "b"));
  EXPECT_EQ(AntiAffinityNodeFloor(pods), 3);
}

TEST(AntiAffinityNodeFloor, ZoneAntiAffinityAndNamespaceSelectorsAreSkipped) {
  api::Pod zone = AntiAffinityPod({{"app", "x"}}, {{"app", "x"}});
  zone.spec.affinity->pod_anti_affinity->required_during_scheduling_ignored_during_execution[0]
      .topology_key = std::string(api::kLabelTopologyZone);
  api::Pod ns_selector = AntiAffinityPod({{"app", "y"}}, {{"app", "y"}});
  ns_selector.spec.affinity->pod_anti_affinity
      ->required_during_scheduling_ignored_during_execution[0]
      .namespace_selector.emplace();
  std::vector<api::Pod> pods(4, zone);
  pods.insert(pods.end(), 4, ns_selector);
  EXPECT_EQ(AntiAffinityNodeFloor(pods), 1);
}

TEST(AntiAffinityNodeFloor, DiverseMixFloorIsItsAntiAffinityGroup) {
  EXPECT_EQ(AntiAffinityNodeFloor(MakeDiversePods(50)), 10);
  EXPECT_EQ(AntiAffinityNodeFloor(MakeDiversePods(20000)), 4000);
  EXPECT_EQ(AntiAffinityNodeFloor(MakeDiversePods(1)), 1);
}

TEST(FluidLowerBoundWithFloor, ForcedNodesCostAtLeastTheirCount) {
  // $1 for 1 core / 10 pods, $3.50 for 4 cores / 40 pods. Four pods of 100m that must be apart:
  // the fluid packer buys a tenth of the big type ($0.35), but any placement opens 4 nodes, the
  // cheapest being 4 small ones ($4), which the floor row finds exactly.
  const std::vector<FluidNodeType> types = {{1.0, 1000, 0, 10}, {3.5, 4000, 0, 40}};
  const FluidDemand demand{400, 0, 4};
  ExpectBound(FluidLowerBound(demand, types), 0.35);
  ExpectBound(FluidLowerBoundWithFloor(demand, types, {.nodes = 4, .eligible = {true, true}}), 4);
}

TEST(FluidLowerBoundWithFloor, OnlyTypesHoldingACliquePodCount) {
  // Two 1500m pods apart fit only the big type: 2 of them ($7) is both the bound and the optimum.
  const std::vector<FluidNodeType> types = {{1.0, 1000, 0, 10}, {3.5, 4000, 0, 40}};
  const FluidDemand demand{3000, 0, 2};
  ExpectBound(FluidLowerBound(demand, types), 2.625);
  ExpectBound(FluidLowerBoundWithFloor(demand, types, {.nodes = 2, .eligible = {false, true}}), 7);
}

TEST(FluidLowerBoundWithFloor, EligibilityNeedsOneFlagPerType) {
  const std::vector<FluidNodeType> types = {{1.0, 1000, 0, 10}};
  EXPECT_EQ(FluidLowerBoundWithFloor(FluidDemand{100, 0, 1}, types, {.nodes = 1, .eligible = {}})
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(FluidLowerBoundWithFloor, PodsAntiAffinityCliqueOpensOneNodeEach) {
  // Three 100m pods apart on fake-it-0 (0.9 allocatable cores): 3 nodes, the integer optimum.
  const std::vector<api::Pod> pods(3, AntiAffinityPod({{"app", "x"}}, {{"app", "x"}}));
  const std::vector<FakeInstanceType> types = FakeInstanceTypes(1);
  ExpectBound(FluidLowerBoundWithFloor(pods, types), 3 * types[0].CheapestPrice());
  ExpectBound(FluidLowerBound(pods, types), types[0].CheapestPrice() / 3);
}

TEST(FluidLowerBoundWithFloor, WithoutACliqueIsThePlainBound) {
  const std::vector<api::Pod> pods(10, PodWith(500, 512));
  const std::vector<FakeInstanceType> types = FakeCatalog400();
  absl::StatusOr<double> plain = FluidLowerBound(pods, types);
  ASSERT_TRUE(plain.ok());
  ExpectBound(FluidLowerBoundWithFloor(pods, types), *plain);
}

TEST(FluidLowerBoundWithFloor, NeverBelowThePlainBoundOnTheDiverseMix) {
  for (int n : {50, 500, 2000}) {
    const std::vector<api::Pod> pods = MakeDiversePods(n);
    absl::StatusOr<double> plain = FluidLowerBound(pods, FakeCatalog400());
    absl::StatusOr<double> floor = FluidLowerBoundWithFloor(pods, FakeCatalog400());
    ASSERT_TRUE(plain.ok() && floor.ok());
    EXPECT_GE(*floor, *plain) << n;
  }
}

TEST(LargestAntiAffinityClique, ReturnsTheCarriersOfTheLargestGroup) {
  std::vector<api::Pod> pods(3, AntiAffinityPod({{"app", "x"}}, {{"app", "x"}}));
  pods.insert(pods.end(), 2, AntiAffinityPod({{"app", "y"}}, {{"app", "y"}}));
  pods.push_back(PodWith(100, 100));
  const std::vector<const api::Pod*> clique = LargestAntiAffinityClique(pods);
  ASSERT_EQ(clique.size(), 3u);
  for (const api::Pod* pod : clique) EXPECT_EQ(pod->metadata.labels.at("app"), "x");
  EXPECT_TRUE(LargestAntiAffinityClique({}).empty());
}

}  // namespace
}  // namespace karpenter::bench
