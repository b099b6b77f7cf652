#include "src/sim/job_arrivals.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "src/sim/random.h"

namespace karpenter::sim {
namespace {

// splitmix64's finaliser: spreads (seed, index) over the engine's seed space, so neighbouring
// seeds or processes do not give related streams.
uint64_t Mix(uint64_t value) {
  value += 0x9e3779b97f4a7c15ULL;
  value = (value ^ (value >> 30)) * 0xbf58476d1ce4e5b9ULL;
  value = (value ^ (value >> 27)) * 0x94d049bb133111ebULL;
  return value ^ (value >> 31);
}

// Distinguishes this stream from the others derived from the seed (spot interruptions).
constexpr uint64_t kArrivalsSalt = 0x6a6f622d61727276ULL;  // "job-arrv"

}  // namespace

std::vector<SimMillis> ArrivalTimes(const JobArrivals& arrivals, uint64_t seed, size_t index) {
  std::vector<SimMillis> out;
  if (arrivals.rate_per_hour <= 0 || arrivals.to_seconds <= arrivals.from_seconds) return out;
  Random random(Mix(Mix(seed ^ kArrivalsSalt) + index));
  const double mean_gap_seconds = 3600.0 / arrivals.rate_per_hour;
  double at = arrivals.from_seconds;
  while (true) {
    // Inverse transform: −ln(1 − U) is exponential with mean 1; 1 − U lies in (0, 1].
    at += -std::log(1.0 - random.Uniform01()) * mean_gap_seconds;
    if (at >= arrivals.to_seconds) break;
    out.push_back(SecondsToMillis(at));
  }
  return out;
}

void ScheduleJobArrivals(const std::vector<JobArrivals>& processes, uint64_t seed,
                         Autoscaler autoscaler, Cluster& cluster) {
  for (size_t index = 0; index < processes.size(); ++index) {
    const JobArrivals& process = processes[index];
    if (process.only && *process.only != autoscaler) continue;
    const std::vector<SimMillis> times = ArrivalTimes(process, seed, index);
    for (size_t n = 0; n < times.size(); ++n) {
      cluster.queue().At(times[n], [&cluster, &process, n] {
        api::Job job = process.job;
        job.metadata.name = absl::StrCat(process.job.metadata.name, "-", n + 1);
        absl::Status status = cluster.Apply(std::move(job), /*initial=*/false);
        if (!status.ok()) {
          cluster.log().Record(cluster.queue().now(), "StepFailed",
                               {Str("error", status.ToString())});
        }
      });
    }
  }
}

}  // namespace karpenter::sim
