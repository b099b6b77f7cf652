#include "src/bench/benchmark_pods.h"

#include <set>
#include <string>

#include "gtest/gtest.h"
#include "src/api/karpenter_labels.h"
#include "src/api/pod_resources.h"
#include "src/api/quantity.h"
#include "src/api/selector_match.h"
#include "src/provisioning/scheduler.h"

namespace karpenter::bench {
namespace {

bool HasAntiAffinity(const api::Pod& pod) {
  return pod.spec.affinity && pod.spec.affinity->pod_anti_affinity;
}
bool HasAffinity(const api::Pod& pod) {
  return pod.spec.affinity && pod.spec.affinity->pod_affinity;
}

TEST(HostnameSpreadPods, EveryPodSpreadsOverHostnamesWithItsOwnSelector) {
  const std::vector<api::Pod> pods = MakeHostnameSpreadPods(7);
  ASSERT_EQ(pods.size(), 7u);
  for (const api::Pod& pod : pods) {
    EXPECT_EQ(pod.metadata.labels.at(kLabelApp), kAppSpread);
    ASSERT_EQ(pod.spec.topology_spread_constraints.size(), 1u);
    const api::TopologySpreadConstraint& spread = pod.spec.topology_spread_constraints[0];
    EXPECT_EQ(spread.topology_key, "kubernetes.io/hostname");
    EXPECT_EQ(spread.max_skew, 1);
    EXPECT_EQ(spread.when_unsatisfiable, "DoNotSchedule");
    EXPECT_TRUE(api::Matches(spread.label_selector, pod.metadata.labels));
  }
  EXPECT_NE(pods[0].metadata.uid, pods[1].metadata.uid);
}

TEST(DiversePods, SameSeedGivesSamePods) {
  EXPECT_EQ(MakeDiversePods(137, 7), MakeDiversePods(137, 7));
}

TEST(DiversePods, DifferentSeedsGiveDifferentDraws) {
  EXPECT_NE(MakeDiversePods(137, 7), MakeDiversePods(137, 8));
}

TEST(DiversePods, FiveEqualGroupsThenGenericRemainder) {
  const std::vector<api::Pod> pods = MakeDiversePods(53);
  ASSERT_EQ(pods.size(), 53u);
  int zone_spread = 0, hostname_spread = 0, affinity = 0, anti = 0, generic = 0;
  for (const api::Pod& pod : pods) {
    if (!pod.spec.topology_spread_constraints.empty()) {
      const std::string& key = pod.spec.topology_spread_constraints[0].topology_key;
      (key == api::kLabelTopologyZone ? zone_spread : hostname_spread)++;
    } else if (HasAffinity(pod)) {
      ++affinity;
    } else if (HasAntiAffinity(pod)) {
      ++anti;
    } else {
      ++generic;
    }
  }
  EXPECT_EQ(zone_spread, 10);
  EXPECT_EQ(hostname_spread, 10);
  EXPECT_EQ(affinity, 10);
  EXPECT_EQ(anti, 10);
  EXPECT_EQ(generic, 13);
  // Group order: generic first, the anti-affinity group last before the remainder.
  EXPECT_TRUE(pods[0].spec.topology_spread_constraints.empty() && !pods[0].spec.affinity);
  EXPECT_TRUE(HasAntiAffinity(pods[49]));
  EXPECT_FALSE(pods[50].spec.affinity.has_value());
}

TEST(DiversePods, RequestsComeFromUpstreamsSets) {
  const std::set<int64_t> cpus = {100, 250, 500, 1000, 1500};
  const std::set<int64_t> mems = {100, 256, 512, 1024, 2048, 4096};
  std::set<int64_t> seen_cpus;
  for (const api::Pod& pod : MakeDiversePods(500)) {
    const api::ResourceList requests = api::PodRequests(pod);
    const int64_t cpu = requests.at("cpu").MilliValue();
    const int64_t mem_mi = requests.at("memory").Value() >> 20;
    EXPECT_TRUE(cpus.contains(cpu)) << cpu;
    EXPECT_TRUE(mems.contains(mem_mi)) << mem_mi;
    EXPECT_EQ(requests.at("memory").Value() % (1 << 20), 0);
    seen_cpus.insert(cpu);
  }
  EXPECT_EQ(seen_cpus, cpus);
}

TEST(DiversePods, UidsAndNamesAreUnique) {
  std::set<std::string> uids, names;
  for (const api::Pod& pod : MakeDiversePods(1000)) {
    uids.insert(pod.metadata.uid);
    names.insert(pod.metadata.name);
    EXPECT_EQ(pod.metadata.uid.size(), 36u);
  }
  EXPECT_EQ(uids.size(), 1000u);
  EXPECT_EQ(names.size(), 1000u);
}

TEST(DiversePods, AffinityPodsSelectTheirOwnLabelInTheirZone) {
  for (const api::Pod& pod : MakeDiversePods(100)) {
    if (!HasAffinity(pod)) continue;
    const auto& terms =
        pod.spec.affinity->pod_affinity->required_during_scheduling_ignored_during_execution;
    ASSERT_EQ(terms.size(), 1u);
    EXPECT_EQ(terms[0].topology_key, api::kLabelTopologyZone);
    EXPECT_TRUE(pod.metadata.labels.contains(kLabelMyAffinity));
    EXPECT_TRUE(api::Matches(terms[0].label_selector, pod.metadata.labels));
  }
}

TEST(DiversePods, AntiAffinityPodsRepelEachOtherPerHostname) {
  for (const api::Pod& pod : MakeDiversePods(100)) {
    if (!HasAntiAffinity(pod)) continue;
    const auto& terms =
        pod.spec.affinity->pod_anti_affinity->required_during_scheduling_ignored_during_execution;
    ASSERT_EQ(terms.size(), 1u);
    EXPECT_EQ(terms[0].topology_key, api::kLabelHostname);
    EXPECT_EQ(pod.metadata.labels.at(kLabelApp), kAppNginx);
    EXPECT_TRUE(api::Matches(terms[0].label_selector, pod.metadata.labels));
  }
}

TEST(DiversePods, SpreadIsMaxSkewOneDoNotScheduleOnMyLabel) {
  int spread = 0;
  for (const api::Pod& pod : MakeDiversePods(100)) {
    for (const api::TopologySpreadConstraint& c : pod.spec.topology_spread_constraints) {
      ++spread;
      EXPECT_EQ(c.max_skew, 1);
      EXPECT_EQ(c.when_unsatisfiable, "DoNotSchedule");
      ASSERT_TRUE(c.label_selector.has_value());
      EXPECT_TRUE(c.label_selector->match_labels.contains(kLabelMyLabel));
    }
  }
  EXPECT_EQ(spread, 40);
}

TEST(DiversePods, OnePodIsGeneric) {
  const std::vector<api::Pod> pods = MakeDiversePods(1);
  ASSERT_EQ(pods.size(), 1u);
  EXPECT_FALSE(pods[0].spec.affinity.has_value());
  EXPECT_TRUE(pods[0].spec.topology_spread_constraints.empty());
  EXPECT_EQ(pods[0].status.phase, "Pending");
}

TEST(DiversePods, NonPositiveCountGivesNoPods) {
  EXPECT_TRUE(MakeDiversePods(0).empty());
  EXPECT_TRUE(MakeDiversePods(-3).empty());
}

TEST(PreferencePods, AllShareOneSizeButNotUids) {
  const std::vector<api::Pod> pods = MakePreferencePods(50);
  ASSERT_EQ(pods.size(), 50u);
  std::set<std::string> uids;
  for (const api::Pod& pod : pods) {
    EXPECT_EQ(api::PodRequests(pod), api::PodRequests(pods[0]));
    uids.insert(pod.metadata.uid);
  }
  EXPECT_EQ(uids.size(), 50u);
  EXPECT_EQ(MakePreferencePods(50), pods);
}

TEST(PreferencePods, AreUpstreamsSizeWhateverTheSeed) {
  // Upstream's generator, seeded 42, first draws 100m and 4096Mi; its preference benchmark then
  // needs one node per pod under Respect and 21 under Ignore.
  for (uint64_t seed : {kDefaultPodSeed, uint64_t{7}}) {
    const api::ResourceList requests = api::PodRequests(MakePreferencePods(3, seed)[2]);
    EXPECT_EQ(requests.at("cpu"), *api::Quantity::Parse("100m"));
    EXPECT_EQ(requests.at("memory"), *api::Quantity::Parse("4Gi"));
  }
  EXPECT_NE(MakePreferencePods(3, 7)[0].metadata.uid, MakePreferencePods(3, 8)[0].metadata.uid);
}

// Upstream stamps each test pod `metav1.Now()` as it builds it.
void ExpectCreatedInListOrder(const std::vector<api::Pod>& pods) {
  for (size_t i = 1; i < pods.size(); ++i) {
    ASSERT_TRUE(pods[i].metadata.creation_timestamp && pods[i - 1].metadata.creation_timestamp);
    EXPECT_LT(pods[i - 1].metadata.creation_timestamp->UnixNanos(),
              pods[i].metadata.creation_timestamp->UnixNanos())
        << i;
  }
}

TEST(PreferencePods, AreCreatedOneAfterAnother) {
  ExpectCreatedInListOrder(MakePreferencePods(50));
}

TEST(DiversePods, AreCreatedOneAfterAnother) { ExpectCreatedInListOrder(MakeDiversePods(137)); }

TEST(DiversePods, EqualPodsQueueInListOrderNotByUid) {
  const std::vector<api::Pod> pods = MakeDiversePods(1000);
  std::vector<const api::Pod*> queue;
  for (const api::Pod& pod : pods) queue.push_back(&pod);
  provisioning::SortPodsForScheduling(queue);
  bool uid_would_reorder = false;
  for (size_t i = 1; i < queue.size(); ++i) {
    if (api::PodRequests(*queue[i]) != api::PodRequests(*queue[i - 1])) continue;
    EXPECT_LT(queue[i - 1] - pods.data(), queue[i] - pods.data());
    uid_would_reorder |= queue[i]->metadata.uid < queue[i - 1]->metadata.uid;
  }
  EXPECT_TRUE(uid_would_reorder);  // the creation times decide, not the UIDs
}

TEST(PreferencePods, ConstraintsAreAllPreferences) {
  const api::Pod pod = MakePreferencePods(1)[0];
  ASSERT_TRUE(pod.spec.affinity.has_value());
  const api::Affinity& affinity = *pod.spec.affinity;
  ASSERT_TRUE(affinity.node_affinity.has_value());
  EXPECT_FALSE(affinity.node_affinity->required_during_scheduling_ignored_during_execution);
  const auto& node_prefs =
      affinity.node_affinity->preferred_during_scheduling_ignored_during_execution;
  ASSERT_EQ(node_prefs.size(), 1u);
  EXPECT_EQ(node_prefs[0].weight, 1);
  EXPECT_EQ(node_prefs[0].preference.match_expressions[0].values,
            std::vector<std::string>{"test-zone-1"});
  ASSERT_TRUE(affinity.pod_anti_affinity.has_value());
  EXPECT_TRUE(
      affinity.pod_anti_affinity->required_during_scheduling_ignored_during_execution.empty());
  const auto& anti =
      affinity.pod_anti_affinity->preferred_during_scheduling_ignored_during_execution;
  ASSERT_EQ(anti.size(), 2u);
  EXPECT_EQ(anti[0].weight, 10);
  EXPECT_EQ(anti[0].pod_affinity_term.topology_key, api::kLabelTopologyZone);
  EXPECT_EQ(anti[1].weight, 1);
  EXPECT_EQ(anti[1].pod_affinity_term.topology_key, api::kLabelHostname);
  EXPECT_FALSE(affinity.pod_affinity.has_value());
}

}  // namespace
}  // namespace karpenter::bench
