#include "src/bench/benchmark_pods.h"

#include <array>
#include <map>
#include <random>
#include <string>
#include <utility>

#include "fmt/format.h"
#include "src/api/karpenter_labels.h"
#include "src/api/quantity.h"
#include "src/api/time.h"

namespace karpenter::bench {
namespace {

using api::Quantity;

constexpr std::array<int64_t, 5> kCpuMilli = {100, 250, 500, 1000, 1500};
constexpr std::array<int64_t, 6> kMemoryMi = {100, 256, 512, 1024, 2048, 4096};
constexpr std::array<const char*, 7> kLabelValues = {"a", "b", "c", "d", "e", "f", "g"};
// Upstream's test pods are stamped `metav1.Now()` as each is built, so their creation times rise
// through the list, nanoseconds apart, and order pods of equal size in the scheduler's queue
// (before UIDs). Pod i here is created i nanoseconds after this instant.
constexpr int64_t kFirstCreationUnixNanos = 1'700'000'000LL * 1'000'000'000LL;
// Upstream's preference pods all take its generator's first cpu and memory draws (seed 42, Go's
// math/rand): 100m and 4096Mi.
constexpr int64_t kPreferenceCpuMilli = 100;
constexpr int64_t kPreferenceMemoryMi = 4096;
constexpr int64_t kSpreadCpuMilli = 100;
constexpr int64_t kSpreadMemoryMi = 128;

// Draws for pod attributes, plus a separate stream for UIDs so that adding or removing a UID
// never shifts the attribute draws.
class Draws {
 public:
  explicit Draws(uint64_t seed) : attributes_(seed), uids_(seed ^ 0x9e3779b97f4a7c15ULL) {}

  size_t Index(size_t size) { return static_cast<size_t>(attributes_() % size); }
  std::string LabelValue() { return kLabelValues[Index(kLabelValues.size())]; }
  Quantity Cpu() { return Quantity::FromMilli(kCpuMilli[Index(kCpuMilli.size())], kDecimal); }
  Quantity Memory() {
    return Quantity::FromInt(kMemoryMi[Index(kMemoryMi.size())] << 20, Quantity::Format::kBinarySI);
  }
  // An RFC 4122 version-4 style UID.
  std::string Uid() {
    const uint64_t hi = uids_();
    const uint64_t lo = uids_();
    return fmt::format("{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}", hi >> 32, (hi >> 16) & 0xffff,
                       hi & 0xfff, 0x8000 | ((lo >> 48) & 0x3fff), lo & 0xffffffffffffULL);
  }

 private:
  static constexpr Quantity::Format kDecimal = Quantity::Format::kDecimalSI;
  // mt19937_64's output sequence is fixed by the standard, so pods match across platforms.
  std::mt19937_64 attributes_;
  std::mt19937_64 uids_;
};

// `index` is the pod's place in the list, which fixes its creation time.
api::Pod BasePod(size_t index, std::string name, std::map<std::string, std::string> labels,
                 Quantity cpu, Quantity memory, std::string uid) {
  api::Pod pod;
  pod.metadata.name = std::move(name);
  pod.metadata.namespace_ = kBenchNamespace;
  pod.metadata.uid = std::move(uid);
  pod.metadata.labels = std::move(labels);
  pod.metadata.creation_timestamp =
      api::Time::FromUnixNanos(kFirstCreationUnixNanos + static_cast<int64_t>(index));
  api::Container container;
  container.name = "app";
  container.image = "registry.k8s.io/pause";
  container.resources.requests = {{"cpu", std::move(cpu)}, {"memory", std::move(memory)}};
  pod.spec.containers.push_back(std::move(container));
  api::ApplyPodSpecDefaults(pod.spec);
  pod.status.phase = "Pending";
  api::PodCondition scheduled;
  scheduled.type = "PodScheduled";
  scheduled.status = "False";
  scheduled.reason = "Unschedulable";
  pod.status.conditions.push_back(std::move(scheduled));
  return pod;
}

api::LabelSelector MatchLabels(std::map<std::string, std::string> labels) {
  api::LabelSelector selector;
  selector.match_labels = std::move(labels);
  return selector;
}

api::PodAffinityTerm Term(std::map<std::string, std::string> labels, std::string_view key) {
  api::PodAffinityTerm term;
  term.label_selector = MatchLabels(std::move(labels));
  term.topology_key = std::string(key);
  return term;
}

std::string Name(const char* group, size_t index) { return group + std::to_string(index); }

void AppendGeneric(int count, Draws& draws, std::vector<api::Pod>& pods) {
  for (int i = 0; i < count; ++i) {
    std::map<std::string, std::string> labels = {{kLabelMyLabel, draws.LabelValue()}};
    Quantity cpu = draws.Cpu();
    Quantity memory = draws.Memory();
    pods.push_back(BasePod(pods.size(), Name("generic-", pods.size()), std::move(labels),
                           std::move(cpu), std::move(memory), draws.Uid()));
  }
}

void AppendSpread(int count, std::string_view key, Draws& draws, std::vector<api::Pod>& pods) {
  for (int i = 0; i < count; ++i) {
    std::map<std::string, std::string> labels = {{kLabelMyLabel, draws.LabelValue()}};
    // The selector is drawn independently of the pod's own label, as upstream.
    api::TopologySpreadConstraint spread;
    spread.max_skew = 1;
    spread.topology_key = std::string(key);
    spread.when_unsatisfiable = "DoNotSchedule";
    spread.label_selector = MatchLabels({{kLabelMyLabel, draws.LabelValue()}});
    Quantity cpu = draws.Cpu();
    Quantity memory = draws.Memory();
    api::Pod pod = BasePod(pods.size(), Name("spread-", pods.size()), std::move(labels),
                           std::move(cpu), std::move(memory), draws.Uid());
    pod.spec.topology_spread_constraints.push_back(std::move(spread));
    pods.push_back(std::move(pod));
  }
}

void AppendAffinity(int count, Draws& draws, std::vector<api::Pod>& pods) {
  for (int i = 0; i < count; ++i) {
    std::map<std::string, std::string> labels = {{kLabelMyAffinity, draws.LabelValue()}};
    Quantity cpu = draws.Cpu();
    Quantity memory = draws.Memory();
    api::Pod pod = BasePod(pods.size(), Name("affinity-", pods.size()), labels, std::move(cpu),
                           std::move(memory), draws.Uid());
    api::PodAffinity affinity;
    affinity.required_during_scheduling_ignored_during_execution.push_back(
        Term(std::move(labels), api::kLabelTopologyZone));
    pod.spec.affinity.emplace().pod_affinity = std::move(affinity);
    pods.push_back(std::move(pod));
  }
}

void AppendAntiAffinity(int count, Draws& draws, std::vector<api::Pod>& pods) {
  const std::map<std::string, std::string> labels = {{kLabelApp, kAppNginx}};
  for (int i = 0; i < count; ++i) {
    Quantity cpu = draws.Cpu();
    Quantity memory = draws.Memory();
    api::Pod pod = BasePod(pods.size(), Name("anti-affinity-", pods.size()), labels, std::move(cpu),
                           std::move(memory), draws.Uid());
    api::PodAffinity anti;
    anti.required_during_scheduling_ignored_during_execution.push_back(
        Term(labels, api::kLabelHostname));
    pod.spec.affinity.emplace().pod_anti_affinity = std::move(anti);
    pods.push_back(std::move(pod));
  }
}

}  // namespace

std::vector<api::Pod> MakeDiversePods(int n, uint64_t seed) {
  Draws draws(seed);
  std::vector<api::Pod> pods;
  if (n <= 0) return pods;
  pods.reserve(static_cast<size_t>(n));
  const int group = n / 5;
  AppendGeneric(group, draws, pods);
  AppendSpread(group, api::kLabelTopologyZone, draws, pods);
  AppendSpread(group, api::kLabelHostname, draws, pods);
  AppendAffinity(group, draws, pods);
  AppendAntiAffinity(group, draws, pods);
  AppendGeneric(n - 5 * group, draws, pods);
  return pods;
}

std::vector<api::Pod> MakePreferencePods(int n, uint64_t seed) {
  Draws draws(seed);
  std::vector<api::Pod> pods;
  if (n <= 0) return pods;
  pods.reserve(static_cast<size_t>(n));
  const std::map<std::string, std::string> labels = {{kLabelApp, kAppNginx}};
  // One size for the whole batch: upstream draws cpu and memory once for all the pods, and with
  // its fixed seed those draws are always the same. The seed here varies the UIDs only.
  const Quantity cpu = Quantity::FromMilli(kPreferenceCpuMilli, Quantity::Format::kDecimalSI);
  const Quantity memory = Quantity::FromInt(kPreferenceMemoryMi << 20, Quantity::Format::kBinarySI);

  api::Affinity affinity;
  api::PreferredSchedulingTerm zone_preference;
  zone_preference.weight = 1;
  zone_preference.preference.match_expressions.push_back(
      {std::string(api::kLabelTopologyZone), "In", {"test-zone-1"}});
  affinity.node_affinity.emplace().preferred_during_scheduling_ignored_during_execution.push_back(
      std::move(zone_preference));
  api::PodAffinity anti;
  anti.preferred_during_scheduling_ignored_during_execution.push_back(
      {10, Term(labels, api::kLabelTopologyZone)});
  anti.preferred_during_scheduling_ignored_during_execution.push_back(
      {1, Term(labels, api::kLabelHostname)});
  affinity.pod_anti_affinity = std::move(anti);

  for (int i = 0; i < n; ++i) {
    api::Pod pod = BasePod(static_cast<size_t>(i), "preference-" + std::to_string(i), labels, cpu,
                           memory, draws.Uid());
    pod.spec.affinity = affinity;
    pods.push_back(std::move(pod));
  }
  return pods;
}

std::vector<api::Pod> MakeHostnameSpreadPods(int n, uint64_t seed) {
  Draws draws(seed);
  std::vector<api::Pod> pods;
  if (n <= 0) return pods;
  pods.reserve(static_cast<size_t>(n));
  const std::map<std::string, std::string> labels = {{kLabelApp, kAppSpread}};
  const Quantity cpu = Quantity::FromMilli(kSpreadCpuMilli, Quantity::Format::kDecimalSI);
  const Quantity memory = Quantity::FromInt(kSpreadMemoryMi << 20, Quantity::Format::kBinarySI);
  api::TopologySpreadConstraint spread;
  spread.max_skew = 1;
  spread.topology_key = api::kLabelHostname;
  spread.when_unsatisfiable = "DoNotSchedule";
  spread.label_selector = MatchLabels(labels);
  for (int i = 0; i < n; ++i) {
    api::Pod pod = BasePod(static_cast<size_t>(i), "spread-" + std::to_string(i), labels, cpu,
                           memory, draws.Uid());
    pod.spec.topology_spread_constraints.push_back(spread);
    pods.push_back(std::move(pod));
  }
  return pods;
}

}  // namespace karpenter::bench
