#include "src/sim/runner.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

#include "fmt/format.h"
#include "src/sim/auto_scaling_groups.h"
#include "src/sim/cluster.h"
#include "src/sim/cluster_autoscaler.h"
#include "src/sim/disruption_controller.h"
#include "src/sim/job_arrivals.h"
#include "src/sim/karpenter_host.h"
#include "src/sim/report_annotations.h"
#include "src/sim/scenario_catalog_check.h"
#include "src/sim/spot_interruptions.h"

namespace karpenter::sim {
namespace {

// 2026-01-01T00:00:00Z: objects' timestamps are this plus simulated time.
constexpr int64_t kEpochUnixSeconds = 1767225600;

}  // namespace

absl::StatusOr<RunResult> RunOrOutOfMemory(Autoscaler autoscaler,
                                           const std::function<absl::StatusOr<RunResult>()>& run) {
  // Inputs are held to limits where they are read; this is the last resort, and on a run's own
  // thread an escaping exception would call std::terminate.
  try {
    return run();
  } catch (const std::bad_alloc&) {
    return absl::ResourceExhaustedError(fmt::format(
        "the {} run ran out of memory: the scenario asks for more than this machine has",
        AutoscalerName(autoscaler)));
  }
}

namespace {

std::string StepTarget(const Step& step) {
  return step.target.empty() ? std::to_string(step.objects.size()) + " objects" : step.target;
}

absl::Status RunStep(const Step& step, Cluster& cluster, AutoScalingGroups& groups) {
  switch (step.kind) {
    case StepKind::kApply:
      for (const api::Object& object : step.objects) {
        KP_RETURN_IF_ERROR(cluster.Apply(object, /*initial=*/false));
      }
      return absl::OkStatus();
    case StepKind::kScale:
      return cluster.ScaleDeployment(step.target, step.replicas);
    case StepKind::kScaleStatefulSet:
      return cluster.ScaleStatefulSet(step.target, step.replicas);
    case StepKind::kDelete:
      return cluster.DeleteDeployment(step.target);
    case StepKind::kDrainNodeGroup:
      if (groups.Find(step.target) == nullptr) {
        return absl::NotFoundError("no node group " + step.target);
      }
      groups.Retire(step.target);
      cluster.RequestSchedulingPass();
      return absl::OkStatus();
  }
  return absl::OkStatus();
}

ClusterSample TakeSample(const Cluster& cluster, SimMillis now) {
  ClusterSample sample;
  sample.seconds = MillisToSeconds(now);
  sample.nodes = cluster.LiveInstanceCount();
  sample.pending_pods = cluster.unbound_pod_count();
  sample.cost_per_hour = cluster.price_per_hour();
  constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
  for (const auto& [id, instance] : cluster.instances()) {
    if (instance.phase == NodePhase::kTerminated) continue;
    ++sample.nodes_by_capacity_type[instance.request.capacity_type];
    ++sample.nodes_by_instance_type[instance.request.instance_type];
    if (instance.phase == NodePhase::kBooting) continue;
    const api::ResourceList& allocatable = instance.node.status.allocatable;
    if (auto cpu = allocatable.find("cpu"); cpu != allocatable.end()) {
      sample.cpu_allocatable += static_cast<double>(cpu->second.MilliValue()) / 1000;
    }
    if (auto memory = allocatable.find("memory"); memory != allocatable.end()) {
      sample.memory_allocatable += static_cast<double>(memory->second.Value()) / kGiB;
    }
  }
  sample.cpu_requested = static_cast<double>(cluster.pod_store().bound_milli_cpu()) / 1000;
  sample.memory_requested = static_cast<double>(cluster.pod_store().bound_memory_bytes()) / kGiB;
  return sample;
}

// Progress of runs on parallel threads as one line: each report moves its run's time, and the
// caller hears about the run furthest behind (the first of them on a tie), one report at a time.
class LaggingProgress {
 public:
  LaggingProgress(const std::vector<Autoscaler>& autoscalers, const ProgressCallback& progress)
      : autoscalers_(autoscalers), progress_(progress), reached_(autoscalers.size(), 0) {}

  ProgressCallback ForRun(size_t run) {
    if (!progress_) return {};
    return [this, run](Autoscaler, SimMillis now, SimMillis end) {
      std::lock_guard<std::mutex> lock(mutex_);
      reached_[run] = now;
      const size_t behind = std::min_element(reached_.begin(), reached_.end()) - reached_.begin();
      progress_(autoscalers_[behind], reached_[behind], end);
    };
  }

 private:
  const std::vector<Autoscaler>& autoscalers_;
  const ProgressCallback& progress_;
  std::mutex mutex_;
  std::vector<SimMillis> reached_;
};

}  // namespace

Percentiles ComputePercentiles(std::vector<double> samples) {
  Percentiles out;
  if (samples.empty()) return out;
  std::sort(samples.begin(), samples.end());
  auto rank = [&](double p) {
    size_t index = static_cast<size_t>(std::ceil(p * static_cast<double>(samples.size())));
    return samples[std::clamp<size_t>(index, 1, samples.size()) - 1];
  };
  out.p50 = rank(0.50);
  out.p95 = rank(0.95);
  out.max = samples.back();
  return out;
}

absl::StatusOr<RunResult> RunOne(const Scenario& scenario, Autoscaler autoscaler, uint64_t seed,
                                 const cloudprovider::Catalog& catalog, EventLog& log,
                                 const ProgressCallback& progress, RunMode mode,
                                 MetricsScrape scrape) {
  log.set_run(std::string(AutoscalerName(autoscaler)));
  log.TakeMarks();  // marks of an earlier run belong to it
  EventQueue queue;
  queue.set_epoch(api::Time::FromUnixSeconds(kEpochUnixSeconds));
  Random random(seed);
  Ec2 ec2(catalog, scenario.faults);
  Cluster cluster(queue, random, scenario.latency, log, ec2, scenario.zones);
  AutoScalingGroups groups(cluster, scenario.node_groups);
  groups.LaunchInitial();
  for (const api::Object& object : scenario.initial_objects) {
    KP_RETURN_IF_ERROR(cluster.Apply(object, /*initial=*/true));
  }
  std::unique_ptr<KarpenterHost> karpenter;
  std::unique_ptr<ClusterAutoscaler> cluster_autoscaler;
  if (autoscaler == Autoscaler::kKarpenter) {
    karpenter = std::make_unique<KarpenterHost>(cluster);
    karpenter->disruption_controller().set_consolidation_search(
        scenario.karpenter.consolidation_search);
    karpenter->disruption_controller().set_background(mode == RunMode::kParallel);
    karpenter->Start();
    if (scrape == MetricsScrape::kFinal) karpenter->WatchPodMetrics();
  } else {
    cluster_autoscaler =
        std::make_unique<ClusterAutoscaler>(cluster, groups, scenario.cluster_autoscaler);
    cluster_autoscaler->Start();
  }
  SpotInterruptions interruptions(cluster, scenario.faults, seed);
  if (karpenter) {
    KarpenterHost* host = karpenter.get();
    interruptions.set_on_event(
        [host](std::string body) { host->EnqueueInterruptionMessage(std::move(body)); });
  }
  interruptions.set_on_reclaimed([&groups](const std::string& id) { groups.InstanceLost(id); });
  interruptions.Start();
  cluster.RequestSchedulingPass();
  for (const Step& step : scenario.steps) {
    if (step.only && *step.only != autoscaler) continue;
    queue.At(SecondsToMillis(step.at_seconds), [&step, &cluster, &groups, &queue, &log] {
      log.Record(queue.now(), "Step", {Str("target", StepTarget(step)), Str("note", step.note)});
      absl::Status status = RunStep(step, cluster, groups);
      if (!status.ok()) log.Record(queue.now(), "StepFailed", {Str("error", status.ToString())});
    });
  }
  ScheduleJobArrivals(scenario.arrivals, seed, autoscaler, cluster);
  const SimMillis end = SecondsToMillis(scenario.duration_seconds);
  RunResult result;
  // Running up to each sample instant runs the same events in the same order as one RunUntil(end).
  for (SimMillis at = 0;; at = std::min(at + kSampleIntervalMillis, end)) {
    queue.RunUntil(at);
    result.samples.push_back(TakeSample(cluster, at));
    if (progress) progress(autoscaler, at, end);
    if (at >= end) break;
  }
  // A poll still computing in the background decided at its instant, within the run.
  if (karpenter) karpenter->disruption_controller().Settle();
  cluster.SettleCost();

  result.autoscaler = autoscaler;
  const ClusterCounters& counters = cluster.counters();
  result.pod_pending_seconds = ComputePercentiles(counters.pod_pending_seconds);
  result.pods_measured = counters.pod_pending_seconds.size();
  result.node_ready_seconds = ComputePercentiles(counters.node_ready_seconds);
  result.nodes_launched = counters.node_ready_seconds.size();
  result.cost_per_hour_mean =
      end > 0 ? counters.cost_dollar_seconds / MillisToSeconds(end) : cluster.price_per_hour();
  result.cost_per_hour_final = cluster.price_per_hour();
  result.nodes_max = counters.max_instances;
  result.nodes_final = cluster.LiveInstanceCount();
  result.evictions = counters.evictions;
  result.nodes_terminated = counters.nodes_terminated;
  result.unschedulable_pods = cluster.unbound_pod_count();
  for (PodSet set : kPodSets) {
    const PodSetCounters& in = counters.pod_sets[static_cast<size_t>(set)];
    PodSetResult& out = result.pod_sets[static_cast<size_t>(set)];
    out.pods = in.pods;
    out.pending_seconds = ComputePercentiles(in.pending_seconds);
    out.evictions = in.evictions;
    out.waited_pods = in.waited_pending_seconds.size();
    out.waited_pending_seconds = ComputePercentiles(in.waited_pending_seconds);
  }
  for (std::string_view capacity_type : kCapacityTypes) {
    result.by_capacity_type.emplace(std::string(capacity_type), CapacityTypeResult{});
  }
  for (const auto& [capacity_type, in] : counters.by_capacity_type) {
    CapacityTypeResult& out = result.by_capacity_type[capacity_type];
    out.cost_per_hour_mean =
        end > 0 ? in.cost_dollar_seconds / MillisToSeconds(end) : in.price_per_hour;
    out.cost_per_hour_final = in.price_per_hour;
    out.nodes_max = in.max_nodes;
    out.nodes_final = in.nodes;
  }
  result.events_executed = queue.executed();
  result.pod_pending_samples = counters.pod_pending_seconds;
  std::sort(result.pod_pending_samples.begin(), result.pod_pending_samples.end());
  result.timeline = log.TakeMarks();
  if (karpenter && scrape == MetricsScrape::kFinal) {
    karpenter->FinishMetrics();
    result.metrics_text = karpenter->metrics().PrometheusText();
  }
  if (karpenter) {
    result.undeclared_metrics.assign(karpenter->metrics().undeclared().begin(),
                                     karpenter->metrics().undeclared().end());
  }
  return result;
}

absl::StatusOr<SimReport> RunScenario(const Scenario& scenario, uint64_t seed,
                                      const cloudprovider::Catalog& catalog, EventLog& log,
                                      const ProgressCallback& progress, RunMode mode,
                                      MetricsScrape scrape) {
  KP_RETURN_IF_ERROR(CheckScenarioAgainstCatalog(scenario, catalog));
  SimReport report;
  report.scenario = scenario.name;
  report.seed = seed;
  report.simulated_seconds = scenario.duration_seconds;
  report.description = scenario.description;
  report.steps = StepMarkers(scenario, scenario.duration_seconds);
  report.faults = FaultWindows(scenario, scenario.duration_seconds);
  const size_t runs = scenario.autoscalers.size();
  std::vector<EventLog> logs;
  logs.reserve(runs);
  for (size_t i = 0; i < runs; ++i) logs.emplace_back(log.enabled());
  std::vector<absl::StatusOr<RunResult>> results(runs, absl::CancelledError("not run"));
  if (mode == RunMode::kParallel && runs > 1) {
    LaggingProgress lagging(scenario.autoscalers, progress);
    auto run = [&](size_t i) {
      results[i] = RunOrOutOfMemory(scenario.autoscalers[i], [&] {
        return RunOne(scenario, scenario.autoscalers[i], seed, catalog, logs[i], lagging.ForRun(i),
                      mode, scrape);
      });
    };
    std::vector<std::thread> threads;
    for (size_t i = 1; i < runs; ++i) threads.emplace_back(run, i);
    run(0);
    for (std::thread& thread : threads) thread.join();
  } else {
    for (size_t i = 0; i < runs; ++i) {
      results[i] = RunOrOutOfMemory(scenario.autoscalers[i], [&] {
        return RunOne(scenario, scenario.autoscalers[i], seed, catalog, logs[i], progress, mode,
                      scrape);
      });
      if (!results[i].ok()) break;
    }
  }
  for (size_t i = 0; i < runs; ++i) {
    log.Append(std::move(logs[i]));
    if (!results[i].ok()) return results[i].status();
    report.runs.push_back(*std::move(results[i]));
  }
  return report;
}

}  // namespace karpenter::sim
