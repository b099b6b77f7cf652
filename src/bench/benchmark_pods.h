// The pending-pod workloads of upstream Karpenter's scheduling benchmark, rebuilt from their
// distributions with a seeded generator (upstream draws from Go's math/rand, whose stream is
// shared across benchmarks and so not reproducible; the mix and proportions are what carry over).
//
// MakeDiversePods(n): five groups of ⌊n/5⌋ pods — generic, zone topology spread, hostname
// topology spread, zone self-affinity, hostname self anti-affinity — then generic pods for the
// remainder. Every pod requests cpu ∈ {100m, 250m, 500m, 1000m, 1500m} and memory ∈ {100, 256,
// 512, 1024, 2048, 4096}Mi, uniformly. MakePreferencePods(n): n identical `app=nginx` pods of
// upstream's size (100m cpu, 4096Mi memory: its generator's first draws with its seed) whose
// constraints are all preferences (zone node affinity, zone and hostname anti-affinity).
//
// MakeHostnameSpreadPods(n) is not upstream's: n replicas of one app (`app=spread`, 100m cpu,
// 128Mi) with a required spread over hostnames (maxSkew 1, DoNotSchedule), so every pod needs a
// node of its own. It is the constrained worst case of `plan` on a large Deployment.
//
// As upstream's, each pod is created after the one before it (nanoseconds apart), so equal pods
// keep list order in the scheduler's queue.
#pragma once

#include <cstdint>
#include <vector>

#include "src/api/pod.h"

namespace karpenter::bench {

inline constexpr uint64_t kDefaultPodSeed = 42;

// Label keys and values upstream uses ("my-affininity" is upstream's spelling).
inline constexpr char kLabelMyLabel[] = "my-label";
inline constexpr char kLabelMyAffinity[] = "my-affininity";
inline constexpr char kLabelApp[] = "app";
inline constexpr char kAppNginx[] = "nginx";
inline constexpr char kAppSpread[] = "spread";
inline constexpr char kBenchNamespace[] = "default";

// Same `n` and `seed` give the same pods (names, UIDs, labels, requests).
std::vector<api::Pod> MakeDiversePods(int n, uint64_t seed = kDefaultPodSeed);
std::vector<api::Pod> MakePreferencePods(int n, uint64_t seed = kDefaultPodSeed);
std::vector<api::Pod> MakeHostnameSpreadPods(int n, uint64_t seed = kDefaultPodSeed);

}  // namespace karpenter::bench
