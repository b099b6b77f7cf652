// RapidCheck properties of Solve over random pods: every pod is placed exactly once or has a
// reason, and every claim's cheapest type holds all of the claim's requests, under upstream's
// packing and the opt-in cost packing (drawn per case). Runs with a fixed seed so failures
// reproduce.
#include <algorithm>
#include <set>
#include <sstream>

#include "gtest/gtest.h"
#include "rapidcheck.h"
#include "src/provisioning/resources.h"
#include "src/provisioning/scheduler.h"
#include "src/provisioning/scheduler_test_util.h"
#include "test/property_check.h"

namespace karpenter::provisioning {
namespace {

using namespace ::karpenter::provisioning::testing;  // NOLINT: test fixtures

constexpr property_test::PropertyOptions kProperty = {0x7363686564756c65, 150,
                                                      40};  // fixed: runs are reproducible

SchedulerInput ArbitraryInput() {
  SchedulerInput input = DefaultInput();
  if (*rc::gen::arbitrary<bool>()) {
    input.daemonset_pods.push_back(MakePod("agent", "200m", "256Mi"));
  }
  if (*rc::gen::arbitrary<bool>()) {
    input.existing_nodes.push_back(MakeNode("node-1", "2", "4Gi", "8"));
  }
  if (*rc::gen::arbitrary<bool>()) input.options.packing = PackingPolicy::kCost;
  const int count = *rc::gen::inRange(1, 25);
  for (int i = 0; i < count; ++i) {
    const int milli_cpu = *rc::gen::inRange(10, 20000);
    const int memory_mi = *rc::gen::inRange(16, 70000);
    api::Pod pod = MakePod("pod-" + std::to_string(i), (std::to_string(milli_cpu) + "m").c_str(),
                           (std::to_string(memory_mi) + "Mi").c_str(), *rc::gen::inRange(0, 5));
    switch (*rc::gen::inRange(0, 4)) {
      case 0:
        pod.spec.node_selector = {{"kubernetes.io/arch", "arm64"}};
        break;
      case 1:
        pod.spec.node_selector = {{"topology.kubernetes.io/zone", kZoneB}};
        break;
      case 2:
        AddPreferredAffinity(pod, 5, Term("karpenter.sh/capacity-type", "In", {"on-demand"}));
        break;
      default:
        break;
    }
    if (*rc::gen::inRange(0, 5) == 0) AddHostPort(pod, 8080);
    input.pending_pods.push_back(std::move(pod));
  }
  return input;
}

TEST(SchedulerProperty, EveryPodPlacedOnceOrExplained) {
  property_test::CheckProperty(kProperty, "every pod placed once or explained", [] {
    const SchedulerInput input = ArbitraryInput();
    const SchedulerResult result = Solve(input);
    std::multiset<std::string> seen;
    for (const NewNodeClaim& claim : result.new_node_claims)
      seen.insert(claim.pods.begin(), claim.pods.end());
    for (const auto& [node, pods] : result.existing_node_pods)
      seen.insert(pods.begin(), pods.end());
    for (const auto& [pod, reason] : result.unschedulable) {
      RC_ASSERT(!reason.empty());
      seen.insert(pod);
    }
    RC_ASSERT(seen.size() == input.pending_pods.size());
    for (const api::Pod& pod : input.pending_pods) RC_ASSERT(seen.count(PodKey(pod)) == 1u);
  });
}

TEST(SchedulerProperty, CheapestTypeHoldsClaimRequests) {
  property_test::CheckProperty(kProperty, "cheapest type holds claim requests", [] {
    const SchedulerInput input = ArbitraryInput();
    const SchedulerResult result = Solve(input);
    for (const NewNodeClaim& claim : result.new_node_claims) {
      RC_ASSERT(!claim.instance_type_options.empty());
      RC_ASSERT(!claim.pods.empty());
      RC_ASSERT(Fits(claim.requests, claim.instance_type_options.front()->allocatable));
    }
  });
}

TEST(SchedulerProperty, SolveIsDeterministic) {
  property_test::CheckProperty(kProperty, "solve is deterministic", [] {
    const SchedulerInput input = ArbitraryInput();
    const SchedulerResult a = Solve(input);
    const SchedulerResult b = Solve(input);
    RC_ASSERT(a.unschedulable == b.unschedulable);
    RC_ASSERT(a.existing_node_pods == b.existing_node_pods);
    RC_ASSERT(a.new_node_claims.size() == b.new_node_claims.size());
    for (size_t i = 0; i < a.new_node_claims.size(); ++i) {
      RC_ASSERT(a.new_node_claims[i].pods == b.new_node_claims[i].pods);
      RC_ASSERT(a.new_node_claims[i].instance_types == b.new_node_claims[i].instance_types);
    }
  });
}

}  // namespace
}  // namespace karpenter::provisioning
