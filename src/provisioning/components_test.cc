// The scheduler's building blocks: resource arithmetic, host ports, the no-progress queue, pod
// ordering, preference relaxation order, and the instance-type filter's failure reasons.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rapidcheck.h"
#include "src/provisioning/host_ports.h"
#include "src/provisioning/instance_filter.h"
#include "src/provisioning/nodeclaim.h"
#include "src/provisioning/pod_queue.h"
#include "src/provisioning/preferences.h"
#include "src/provisioning/resources.h"
#include "src/provisioning/scheduler.h"
#include "src/provisioning/scheduler_test_util.h"
#include "test/property_check.h"

namespace karpenter::provisioning {
namespace {

using ::testing::ElementsAre;
using namespace ::karpenter::provisioning::testing;  // NOLINT: test fixtures

TEST(Resources, RequestsForPodAddsOnePodSlot) {
  const api::ResourceList requests = RequestsForPod(MakePod("a", "250m", "1Gi"));
  EXPECT_EQ(ResourcesString(requests), R"({"cpu":"250m","memory":"1Gi","pods":"1"})");
}

TEST(Resources, FitsTreatsMissingAsZero) {
  EXPECT_TRUE(Fits(Resources({{"cpu", "1"}}), Resources({{"cpu", "1"}})));
  EXPECT_FALSE(Fits(Resources({{"cpu", "1001m"}}), Resources({{"cpu", "1"}})));
  EXPECT_FALSE(Fits(Resources({{"nvidia.com/gpu", "1"}}), Resources({{"cpu", "1"}})));
  EXPECT_TRUE(Fits(Resources({{"nvidia.com/gpu", "0"}}), Resources({{"cpu", "1"}})));
  EXPECT_EQ(ResourcesString({}), "{}");
}

TEST(Resources, SubtractClampedDropsNonPositive) {
  EXPECT_EQ(ResourcesString(SubtractClamped(Resources({{"cpu", "1"}, {"memory", "1Gi"}}),
                                            Resources({{"cpu", "2"}}))),
            R"({"memory":"1Gi"})");
}

TEST(HostPorts, WildcardConflictsWithEveryAddress) {
  HostPortUsage usage;
  usage.Add({{"10.0.0.1", 80, "TCP"}});
  EXPECT_TRUE(usage.Conflicts({{"10.0.0.2", 80, "TCP"}}).ok());
  EXPECT_TRUE(usage.Conflicts({{"10.0.0.1", 80, "UDP"}}).ok());
  EXPECT_TRUE(usage.Conflicts({{"10.0.0.1", 81, "TCP"}}).ok());
  EXPECT_EQ(usage.Conflicts({{"0.0.0.0", 80, "TCP"}}).message(),
            "IP=0.0.0.0 Port=80 Proto=TCP conflicts with existing HostPort configuration "
            "IP=10.0.0.1 Port=80 Proto=TCP");
  EXPECT_FALSE(usage.Conflicts({{"10.0.0.1", 80, "TCP"}}).ok());
  EXPECT_FALSE(usage.Conflicts({{"::", 80, "TCP"}}).ok());
}

TEST(HostPorts, DefaultsIpAndProtocol) {
  api::Pod pod = MakePod("a");
  AddHostPort(pod, 80);
  const std::vector<HostPort> ports = HostPortsOf(pod);
  ASSERT_EQ(ports.size(), 1u);
  EXPECT_EQ(ports[0].ToString(), "IP=0.0.0.0 Port=80 Proto=TCP");
}

TEST(PodQueue, StopsAfterACycleWithoutProgress) {
  PodQueue queue({0, 1, 2});
  std::vector<size_t> popped;
  // Pod 1 always fails; the others succeed.
  while (std::optional<size_t> pod = queue.Pop()) {
    popped.push_back(*pod);
    if (*pod == 1) queue.Push(*pod);
  }
  EXPECT_THAT(popped, ElementsAre(0, 1, 2, 1));
  EXPECT_THAT(queue.remaining(), ElementsAre(1));
}

TEST(PodQueue, RetriesWhileOthersProgress) {
  PodQueue queue({0, 1});
  std::vector<size_t> popped;
  // Pod 0 fails until pod 1 has been placed (as if pod 1 opened a claim it can join).
  bool placed_one = false;
  while (std::optional<size_t> pod = queue.Pop()) {
    popped.push_back(*pod);
    if (*pod == 1) placed_one = true;
    if (*pod == 0 && !placed_one) queue.Push(*pod);
  }
  EXPECT_THAT(popped, ElementsAre(0, 1, 0));
  EXPECT_TRUE(queue.remaining().empty());
}

TEST(SortPodsForScheduling, CpuThenMemoryThenAgeThenUid) {
  const api::Pod small = MakePod("small", "100m", "1Gi", 1);
  const api::Pod big_cpu = MakePod("big-cpu", "2", "1Gi", 5);
  const api::Pod big_mem = MakePod("big-mem", "100m", "4Gi", 5);
  const api::Pod old = MakePod("old", "100m", "1Gi", 0);
  const api::Pod twin_b = MakePod("twin-b", "100m", "1Gi", 1);
  std::vector<const api::Pod*> pods = {&twin_b, &small, &old, &big_mem, &big_cpu};
  SortPodsForScheduling(pods);
  std::vector<std::string> names;
  for (const api::Pod* pod : pods) names.push_back(pod->metadata.name);
  EXPECT_THAT(names, ElementsAre("big-cpu", "big-mem", "old", "small", "twin-b"));
}

// Namespaces that are prefixes of one another and characters on both sides of '/' are where a
// comparison of the parts could differ from the comparison of the joined keys.
TEST(PodKeyLess, OrdersAsTheKeysDo) {
  property_test::CheckProperty({.seed = 3, .runs = 500}, "PodKeyLess = PodKey <", [] {
    const auto part =
        rc::gen::container<std::string>(rc::gen::element('a', '-', '/', '0', '~', '\xe9'));
    api::Pod a;
    api::Pod b;
    a.metadata.namespace_ = *part;
    a.metadata.name = *part;
    b.metadata.namespace_ = *rc::gen::oneOf(rc::gen::just(a.metadata.namespace_), part);
    b.metadata.name = *part;
    RC_ASSERT(PodKeyLess(a.metadata, b.metadata) == (PodKey(a) < PodKey(b)));
    RC_ASSERT(PodKeyLess(b.metadata, a.metadata) == (PodKey(b) < PodKey(a)));
  });
}

TEST(Relax, FollowsUpstreamOrder) {
  api::Pod pod = MakePod("a");
  AddRequiredAffinity(pod, {Term("k", "In", {"1"}), Term("k", "In", {"2"})});
  AddPreferredAffinity(pod, 1, Term("light", "In", {"x"}));
  AddPreferredAffinity(pod, 9, Term("heavy", "In", {"x"}));
  PodAttempt attempt(pod);
  auto required = [&] {
    return attempt.affinity->node_affinity->required_during_scheduling_ignored_during_execution
        ->node_selector_terms.size();
  };
  auto& preferred =
      attempt.affinity->node_affinity->preferred_during_scheduling_ignored_during_execution;
  ASSERT_TRUE(Relax(attempt, true));
  EXPECT_EQ(required(), 1u);
  ASSERT_TRUE(Relax(attempt, true));
  ASSERT_EQ(preferred.size(), 1u);
  EXPECT_EQ(preferred[0].weight, 1);
  ASSERT_TRUE(Relax(attempt, true));
  EXPECT_TRUE(preferred.empty());
  EXPECT_EQ(required(), 1u);  // The last OR-term stays.
  ASSERT_TRUE(Relax(attempt, true));
  EXPECT_EQ(attempt.tolerations.back().effect, "PreferNoSchedule");
  EXPECT_FALSE(Relax(attempt, true));
  EXPECT_TRUE(pod.spec.tolerations.empty());  // The original pod is untouched.
}

TEST(Relax, PreferNoScheduleOnlyWhenAsked) {
  api::Pod pod = MakePod("a");
  PodAttempt attempt(pod);
  EXPECT_FALSE(Relax(attempt, false));
}

TEST(FilterInstanceTypes, ReasonNamesTheCriteriaThatRuledEveryTypeOut) {
  const std::vector<InstanceTypeView> catalog = Catalog();
  std::vector<TypeCandidate> owned;
  for (const InstanceTypeView& type : catalog) owned.push_back(MakeTypeCandidate(type, {}));
  const CandidateList candidates = AllCandidates(owned);
  const api::ResourceList small = RequestsForPod(MakePod("a"));
  const api::ResourceList huge = RequestsForPod(MakePod("a", "500", "1Gi"));
  const scheduling::Requirements none;
  const scheduling::Requirements no_zone = {
      scheduling::Requirement::In("topology.kubernetes.io/zone", {"nowhere"})};
  const scheduling::Requirements arm_metal = {
      scheduling::Requirement::In("kubernetes.io/arch", {"arm64"}),
      scheduling::Requirement::In(kInstanceSize, {"metal"})};
  EXPECT_EQ(FilterInstanceTypes(candidates, none, small).remaining.size(), 10u);
  EXPECT_EQ(FilterInstanceTypes(candidates, no_zone, huge).FailureReason(),
            "no instance type met the scheduling requirements or had enough resources or had a "
            "required offering");
  EXPECT_EQ(FilterInstanceTypes(candidates, arm_metal, small).FailureReason(),
            "no instance type met all requirements");
  EXPECT_EQ(FilterInstanceTypes(candidates, none, huge).FailureReason(),
            "no instance type has enough resources");
}

}  // namespace
}  // namespace karpenter::provisioning

namespace karpenter::provisioning {
namespace {

using namespace ::karpenter::provisioning::testing;  // NOLINT: test fixtures

std::vector<std::string> Names(const CandidateList& candidates) {
  std::vector<std::string> out;
  for (const TypeCandidate* candidate : candidates) out.push_back(candidate->type->name);
  return out;
}

// The short-circuiting filter and the integer shortcuts of MakeTypeCandidate keep exactly the
// types the quantity arithmetic keeps, whatever the requests.
TEST(FilterInstanceTypes, ShortCircuitKeepsTheSameTypes) {
  const std::vector<InstanceTypeView> catalog = Catalog();
  std::vector<TypeCandidate> with_room;
  std::vector<TypeCandidate> without_room;
  for (const InstanceTypeView& type : catalog) {
    with_room.push_back(MakeTypeCandidate(type, Resources({{"cpu", "100m"}, {"memory", "1Mi"}})));
    without_room.push_back({&type, Resources({{"cpu", "100m"}, {"memory", "1Mi"}})});
  }
  const scheduling::Requirements arm = {
      scheduling::Requirement::In("kubernetes.io/arch", {"arm64"})};
  // 0.0005 is half a milli-CPU: not a whole milli-unit, so the integer shortcut must step aside.
  for (const char* cpu : {"1m", "0.0005", "900m", "1900m", "1901m", "3900m", "15900m", "200"}) {
    for (const char* memory : {"1", "1Gi", "7Gi", "60Gi"}) {
      const api::ResourceList requests = RequestsForPod(MakePod("a", cpu, memory));
      for (const scheduling::Requirements& requirements : {scheduling::Requirements(), arm}) {
        // Reference: quantities only (brace-made candidates carry no integer rooms).
        const std::vector<std::string> explained = Names(
            FilterInstanceTypes(AllCandidates(without_room), requirements, requests).remaining);
        EXPECT_EQ(
            Names(FilterInstanceTypes(AllCandidates(with_room), requirements, requests).remaining),
            explained)
            << cpu << " " << memory;
        EXPECT_EQ(Names(FilterInstanceTypes(AllCandidates(with_room), requirements, requests,
                                            /*explain=*/false)
                            .remaining),
                  explained)
            << cpu << " " << memory;
        EXPECT_EQ(Names(FilterInstanceTypes(AllCandidates(without_room), requirements, requests,
                                            /*explain=*/false)
                            .remaining),
                  explained)
            << cpu << " " << memory;
      }
    }
  }
}

// MayFit only rules out what Add would refuse for resources, and does rule out a pod larger
// than every remaining type.
TEST(InFlightNodeClaim, MayFitIsANecessaryConditionOfAdd) {
  const std::vector<InstanceTypeView> catalog = Catalog();
  NodeClaimTemplate tmpl;
  tmpl.node_pool = "default";
  for (const InstanceTypeView& type : catalog) {
    if (type.name != "p.metal") tmpl.candidates.push_back(MakeTypeCandidate(type, {}));
  }
  InFlightNodeClaim claim(tmpl, AllCandidates(tmpl.candidates));
  const api::Pod big = MakePod("big", "17", "1Gi");
  EXPECT_FALSE(claim.MayFit(FootprintOf(RequestsForPod(big))));
  EXPECT_FALSE(claim.Add(PodAttempt(big), {}, RequestsForPod(big), SchedulerOptions{}).ok());
  std::vector<api::Pod> pods;
  for (int i = 0; i < 40; ++i) pods.push_back(MakePod("p" + std::to_string(i), "700m", "1Gi"));
  for (const api::Pod& pod : pods) {
    const bool may_fit = claim.MayFit(FootprintOf(RequestsForPod(pod)));
    const bool added = claim.Add(PodAttempt(pod), {}, RequestsForPod(pod), SchedulerOptions{}).ok();
    EXPECT_TRUE(may_fit || !added) << pod.metadata.name;
    if (!added) {
      EXPECT_FALSE(may_fit) << "the only failure here is running out of cpu: " << pod.metadata.name;
      break;
    }
  }
}

// A claim asked without `explain` (the scheduler's in-flight passes, whose rejections nobody
// reads) refuses exactly what an explained Add refuses, with the same code, and formats nothing.
TEST(InFlightNodeClaim, QuietAddRefusesAlikeWithoutAMessage) {
  const std::vector<InstanceTypeView> catalog = Catalog();
  NodeClaimTemplate tmpl;
  tmpl.node_pool = "default";
  tmpl.taints = {{"dedicated", "batch", "NoSchedule"}};
  for (const InstanceTypeView& type : catalog)
    tmpl.candidates.push_back(MakeTypeCandidate(type, {}));
  api::Pod tolerating = MakePod("tolerating", "1", "1Gi");
  tolerating.spec.tolerations.push_back({"dedicated", "Equal", "batch", "NoSchedule"});
  AddHostPort(tolerating, 8080);
  api::Pod untolerating = MakePod("untolerating");
  api::Pod too_big = tolerating;
  too_big.metadata.name = "too-big";
  too_big.spec.containers.front().ports.clear();
  too_big.spec.containers.front().resources.requests = Resources({{"cpu", "1000"}});
  api::Pod same_port = too_big;
  same_port.metadata.name = "same-port";
  same_port.spec.containers.front().resources.requests = Resources({{"cpu", "100m"}});
  AddHostPort(same_port, 8080);
  api::Pod arm = too_big;
  arm.metadata.name = "arm";
  arm.spec.containers.front().resources.requests = Resources({{"cpu", "100m"}});
  const scheduling::Requirements wants_arm = {
      scheduling::Requirement::In("kubernetes.io/arch", {"arm64"}),
      scheduling::Requirement::In("kubernetes.io/os", {"plan9"})};
  const SchedulerOptions options;
  for (bool explain : {true, false}) {
    InFlightNodeClaim claim(tmpl, AllCandidates(tmpl.candidates));
    ASSERT_TRUE(
        claim.Add(PodAttempt(tolerating), {}, RequestsForPod(tolerating), options, nullptr, explain)
            .ok());
    for (const api::Pod* pod : {&untolerating, &too_big, &same_port, &arm}) {
      const absl::Status status =
          claim.Add(PodAttempt(*pod), pod == &arm ? wants_arm : scheduling::Requirements(),
                    RequestsForPod(*pod), options, nullptr, explain);
      EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition) << pod->metadata.name;
      EXPECT_EQ(status.message().empty(), !explain) << pod->metadata.name << ": " << status;
    }
    EXPECT_EQ(claim.pods().size(), 1u);
  }
}

}  // namespace
}  // namespace karpenter::provisioning
