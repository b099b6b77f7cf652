// One scenario run per autoscaler, on the same workload trace and seed, and the figures the
// report compares (docs/contracts.md): pod pending time, node-ready time, $/hour, node counts,
// evictions, pods left unschedulable.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "karpenter/common/status.h"
#include "src/cloudprovider/catalog.h"
#include "src/sim/events.h"
#include "src/sim/pod_sets.h"
#include "src/sim/scenario.h"

namespace karpenter::sim {

struct Percentiles {
  double p50 = 0;
  double p95 = 0;
  double max = 0;
};

// Nearest-rank percentiles; all zero for no samples.
Percentiles ComputePercentiles(std::vector<double> samples);

// The cluster every `kSampleIntervalMillis` of simulated time, for the report's charts.
inline constexpr SimMillis kSampleIntervalMillis = 10 * kMillisPerSecond;

struct ClusterSample {
  double seconds = 0;
  size_t nodes = 0;         // instances billed
  size_t pending_pods = 0;  // pods not bound to a node
  double cost_per_hour = 0;
  // The billed instances by capacity type and by instance type (eks-node-viewer's breakdowns).
  std::map<std::string, size_t, std::less<>> nodes_by_capacity_type;
  std::map<std::string, size_t, std::less<>> nodes_by_instance_type;
  // Requests of the pods bound to nodes against the allocatable of the registered nodes.
  double cpu_requested = 0;  // cores
  double cpu_allocatable = 0;
  double memory_requested = 0;  // GiB
  double memory_allocatable = 0;
};

// A scenario step as the report's time charts mark it: the steps of one instant in one label.
struct StepMarker {
  double seconds = 0;
  std::string label;
};

// A fault window as the report's time charts shade it.
struct FaultWindow {
  double from_seconds = 0;
  double to_seconds = 0;
  std::string label;
};

// One pod set's figures (pod_sets.h; docs/sim.md "Pod sets").
struct PodSetResult {
  size_t pods = 0;
  Percentiles pending_seconds;  // creation to bind, over the set's pods that bound
  int64_t evictions = 0;        // pods evicted or lost for the set's reason
  // Of the set's pods that bound, those that waited for capacity (kube-scheduler found no node
  // for them at least once), and their pending times: the autoscaler's own latency.
  size_t waited_pods = 0;
  Percentiles waited_pending_seconds;
};

// Cost and instances of one capacity type.
struct CapacityTypeResult {
  double cost_per_hour_mean = 0;
  double cost_per_hour_final = 0;
  size_t nodes_max = 0;
  size_t nodes_final = 0;
};

// The capacity types every report lists, billed or not.
inline constexpr std::array<std::string_view, 2> kCapacityTypes = {"on-demand", "spot"};

struct RunResult {
  Autoscaler autoscaler = Autoscaler::kKarpenter;
  Percentiles pod_pending_seconds;
  size_t pods_measured = 0;
  Percentiles node_ready_seconds;
  size_t nodes_launched = 0;
  int64_t nodes_terminated = 0;
  double cost_per_hour_mean = 0;
  double cost_per_hour_final = 0;
  size_t nodes_max = 0;
  size_t nodes_final = 0;
  int64_t evictions = 0;
  size_t unschedulable_pods = 0;
  std::array<PodSetResult, kPodSetCount> pod_sets;  // by PodSet
  // By capacity type: kCapacityTypes and any other a scenario's instances were billed as.
  std::map<std::string, CapacityTypeResult, std::less<>> by_capacity_type;
  uint64_t events_executed = 0;
  // For the HTML report: every measured pending time (ascending), the samples from t=0 to the
  // end, and the timeline's decisions in the order they happened.
  std::vector<double> pod_pending_samples;
  std::vector<ClusterSample> samples;
  std::vector<TimelineMark> timeline;
  // Karpenter's metrics at the end of the run in the Prometheus text format (empty for Cluster
  // Autoscaler and for runs without MetricsScrape::kFinal), and any metric name its controllers
  // wrote that upstream does not declare (a bug: none are expected).
  std::string metrics_text;
  std::vector<std::string> undeclared_metrics;
};

// Told after each sample: which run, the simulated time reached and the run's end.
using ProgressCallback = std::function<void(Autoscaler, SimMillis now, SimMillis end)>;

struct SimReport {
  std::string scenario;
  std::string description;
  std::vector<StepMarker> steps;  // report_annotations.h
  std::vector<FaultWindow> faults;
  uint64_t seed = 0;
  double simulated_seconds = 0;
  std::vector<RunResult> runs;  // scenario.autoscalers order
};

// How runs use threads; the reports and the events are the same either way. In parallel, the
// scenario's autoscalers run on threads of their own (their runs share nothing but the read-only
// scenario and catalog; the events stay in the scenario's order and progress follows the run
// furthest behind), and Karpenter's disruption controller computes consolidation on worker
// threads while its clock moves on (DisruptionController::set_background). In sequence, all of
// it runs on the calling thread.
enum class RunMode { kParallel, kSequential };

// Whether a run ends with a scrape of Karpenter's metrics (RunResult::metrics_text). A scrape
// runs upstream's state metrics controller through the run, on every pod as it changes
// (KarpenterHost::WatchPodMetrics: pod startup and binding durations), and over the whole
// cluster at the end (KarpenterHost::FinishMetrics). That costs run time (a tenth of a busy
// hour), so only runs whose metrics are wanted pay it; the decisions are the same either way.
enum class MetricsScrape { kNone, kFinal };

// Runs `autoscaler` through `scenario`. Step errors (a step naming a missing Deployment) are
// logged as events and do not stop the run.
absl::StatusOr<RunResult> RunOne(const Scenario& scenario, Autoscaler autoscaler, uint64_t seed,
                                 const cloudprovider::Catalog& catalog, EventLog& log,
                                 const ProgressCallback& progress = {},
                                 RunMode mode = RunMode::kParallel,
                                 MetricsScrape scrape = MetricsScrape::kNone);

// `run`, with a std::bad_alloc (from the run or from a worker thread of its disruption
// controller) turned into a ResourceExhausted error naming the run.
absl::StatusOr<RunResult> RunOrOutOfMemory(Autoscaler autoscaler,
                                           const std::function<absl::StatusOr<RunResult>()>& run);

// Every autoscaler of the scenario, once the scenario is checked against the catalog
// (scenario_catalog_check.h).
absl::StatusOr<SimReport> RunScenario(const Scenario& scenario, uint64_t seed,
                                      const cloudprovider::Catalog& catalog, EventLog& log,
                                      const ProgressCallback& progress = {},
                                      RunMode mode = RunMode::kParallel,
                                      MetricsScrape scrape = MetricsScrape::kNone);

}  // namespace karpenter::sim
