#include "cmd/karpenter/bench_disruption_command.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <string>

#include "cmd/karpenter/output_format.h"
#include "cmd/karpenter/real_clock.h"
#include "cmd/karpenter/seed_option.h"
#include "fmt/format.h"
#include "fmt/printf.h"
#include "src/api/karpenter_labels.h"
#include "src/api/manifest.h"
#include "src/api/pod_resources.h"
#include "src/bench/gap_breakdown.h"
#include "src/bench/lower_bound.h"
#include "src/disruption/apply.h"
#include "src/disruption/disruption.h"
#include "src/provisioning/snapshot_input.h"
#include "src/state/snapshot.h"

namespace karpenter::cli {
namespace {

// splitmix64: a fixed-seed generator, so a size and seed always give the same cluster.
struct SplitMix {
  uint64_t state;
  uint64_t Next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  int Uniform(int lo, int hi) { return lo + static_cast<int>(Next() % (hi - lo + 1)); }
};

// The types the churned cluster's nodes run as; their allocatable comes from the embedded
// catalog, so every node is one a replacement could also be.
constexpr const char* kNodeTypes[] = {"m5.large", "m5.xlarge", "m5.2xlarge", "c5.xlarge",
                                      "r5.xlarge"};
// Families the bench pool launches (its requirement below) and the one zone nodes sit in.
constexpr const char* kFamilies[] = {"m5", "c5", "r5"};
constexpr char kZone[] = "us-east-1a";

constexpr char kHeader[] = R"(apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata: {name: default}
spec:
  amiFamily: AL2023
  role: KarpenterNodeRole-bench
  subnetSelectorTerms: [{tags: {karpenter.sh/discovery: bench}}]
  securityGroupSelectorTerms: [{tags: {karpenter.sh/discovery: bench}}]
  amiSelectorTerms: [{alias: al2023@latest}]
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: default}
spec:
  disruption: {consolidateAfter: 0s, budgets: [{nodes: '100%'}]}
  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
      requirements:
      - {key: karpenter.k8s.aws/instance-family, operator: In, values: [m5, c5, r5]}
      - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
)";

// A pool type the bench may launch: its on-demand price in kZone and what pods may use on it.
struct BenchType {
  double price = 0;
  int64_t milli_cpu = 0;
  int64_t memory_bytes = 0;
  int64_t pods = 0;
};

int64_t Allocatable(const provisioning::InstanceTypeView& type, const char* resource, bool milli) {
  auto it = type.allocatable.find(resource);
  if (it == type.allocatable.end()) return 0;
  return milli ? it->second.MilliValue() : it->second.Value();
}

// The pool's m5/c5/r5 types with an on-demand offering in kZone, by name.
std::map<std::string, BenchType> BenchTypes(const provisioning::SnapshotSchedulerInput& input) {
  std::map<std::string, BenchType> out;
  for (const provisioning::InstanceTypeView& type : input.input.node_pools.front().instance_types) {
    const scheduling::Requirement* family = type.requirements.Find(api::kLabelInstanceFamily);
    if (family == nullptr || std::none_of(std::begin(kFamilies), std::end(kFamilies),
                                          [&](const char* f) { return family->Has(f); })) {
      continue;
    }
    for (const provisioning::OfferingView& offering : type.offerings) {
      if (offering.zone != kZone || offering.capacity_type != "on-demand") continue;
      out[type.name] = {offering.price, Allocatable(type, "cpu", true),
                        Allocatable(type, "memory", false), Allocatable(type, "pods", false)};
    }
  }
  return out;
}

// Nodes of kNodeTypes, each filled with pods to 30-60 % of its CPU; a pod's memory is cut to what
// is left on the node, so every node is a real placement.
absl::StatusOr<std::string> ChurnedCluster(int nodes, uint64_t seed,
                                           const std::map<std::string, BenchType>& types,
                                           int& pods) {
  SplitMix random{seed};
  std::string yaml = kHeader;
  pods = 0;
  for (int i = 0; i < nodes; ++i) {
    const char* type_name = kNodeTypes[random.Next() % std::size(kNodeTypes)];
    auto type_it = types.find(type_name);
    if (type_it == types.end()) {
      return absl::NotFoundError(fmt::format("the catalog has no {} in {}", type_name, kZone));
    }
    const BenchType& type = type_it->second;
    const std::string name = fmt::format("node-{:05d}", i);
    const std::string labels = fmt::format(
        "{{karpenter.sh/nodepool: default, node.kubernetes.io/instance-type: {}, "
        "topology.kubernetes.io/zone: {}, karpenter.sh/capacity-type: on-demand, "
        "karpenter.sh/initialized: 'true'}}",
        type_name, kZone);
    const std::string allocatable = fmt::format("{{cpu: {}m, memory: '{}', pods: '{}'}}",
                                                type.milli_cpu, type.memory_bytes, type.pods);
    yaml += fmt::format(
        "---\napiVersion: v1\nkind: Node\nmetadata: {{name: {0}, labels: {1}}}\n"
        "spec: {{providerID: 'aws:///{4}/i-{0}'}}\n"
        "status:\n  allocatable: {2}\n"
        "  conditions: [{{type: Ready, status: 'True'}}]\n"
        "---\napiVersion: karpenter.sh/v1\nkind: NodeClaim\nmetadata:\n  name: claim-{0}\n"
        "  creationTimestamp: '2026-12-01T00:00:00Z'\n  labels: {1}\nspec:\n"
        "  nodeClassRef: {{group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}}\n"
        "  requirements: [{{key: node.kubernetes.io/instance-type, operator: In, values: [{3}]}}]\n"
        "status:\n  providerID: 'aws:///{4}/i-{0}'\n  nodeName: {0}\n"
        "  conditions: [{{type: Initialized, status: 'True', "
        "lastTransitionTime: '2026-12-01T00:00:00Z'}}]\n",
        name, labels, allocatable, type_name, kZone);
    constexpr int64_t kMi = 1 << 20;
    const int64_t target = type.milli_cpu * random.Uniform(30, 60) / 100;
    int64_t memory_left = type.memory_bytes / kMi;
    for (int64_t used = 0, j = 0; used < target && memory_left >= 256 && j < type.pods; ++j) {
      const int64_t milli = std::min<int64_t>(random.Uniform(1, 5) * 100, target - used + 100);
      const int64_t memory = std::min<int64_t>(random.Uniform(1, 4) * 256, memory_left);
      used += milli;
      memory_left -= memory;
      ++pods;
      yaml += fmt::format(
          "---\napiVersion: v1\nkind: Pod\nmetadata: {{name: {0}-p{1}, namespace: default}}\n"
          "spec:\n  nodeName: {0}\n  containers:\n  - {{name: app, image: pause, resources: "
          "{{requests: {{cpu: {2}m, memory: {3}Mi}}}}}}\nstatus: {{phase: Running}}\n",
          name, j, milli, memory);
    }
  }
  return yaml;
}

std::vector<bench::FluidNodeType> FluidTypes(const std::map<std::string, BenchType>& types) {
  std::vector<bench::FluidNodeType> fluid_types;
  for (const auto& [name, type] : types) {
    fluid_types.push_back({type.price, static_cast<double>(type.milli_cpu),
                           static_cast<double>(type.memory_bytes), static_cast<double>(type.pods)});
  }
  return fluid_types;
}

// The snapshot's nodes with their pods' summed requests, for bench::BreakDownGap.
std::vector<bench::PackedNode> PackedNodes(const state::ClusterSnapshot& snapshot,
                                           const std::map<std::string, BenchType>& types) {
  std::vector<bench::PackedNode> out;
  for (const api::Node& node : snapshot.nodes()) {
    const std::string& type_name =
        node.metadata.labels.at(std::string(api::kLabelInstanceTypeStable));
    auto type = types.find(type_name);
    if (type == types.end()) continue;
    bench::PackedNode packed{.type = type_name, .price = type->second.price};
    packed.capacity = {static_cast<double>(type->second.milli_cpu),
                       static_cast<double>(type->second.memory_bytes),
                       static_cast<double>(type->second.pods)};
    std::vector<api::Pod> pods;
    for (const api::Pod* pod : snapshot.PodsOnNode(node.metadata.name)) pods.push_back(*pod);
    packed.used = bench::DemandOf(pods);
    out.push_back(std::move(packed));
  }
  return out;
}

// $/h of the snapshot's nodes at the bench types' on-demand prices.
double NodeCostPerHour(const state::ClusterSnapshot& snapshot,
                       const std::map<std::string, BenchType>& types) {
  double cost = 0;
  for (const api::Node& node : snapshot.nodes()) {
    auto type = types.find(node.metadata.labels.at(std::string(api::kLabelInstanceTypeStable)));
    if (type != types.end()) cost += type->second.price;
  }
  return cost;
}

struct Figures {
  double cost_before = 0;
  double lower_bound = 0;
};

// $/h of the nodes, and the fluid LP bound: the cheapest fractional mix of the pool's types
// that covers the pods' total CPU, memory and pod count (bench::FluidLowerBound). Every node the
// cluster can ever hold is one of those types, so no consolidation can go below it.
absl::StatusOr<Figures> Prices(const state::ClusterSnapshot& snapshot,
                               const std::map<std::string, BenchType>& types) {
  Figures figures;
  const std::vector<bench::FluidNodeType> fluid_types = FluidTypes(types);
  const std::vector<api::Pod> pods(snapshot.pods().begin(), snapshot.pods().end());
  KP_ASSIGN_OR_RETURN(figures.lower_bound,
                      bench::FluidLowerBound(bench::DemandOf(pods), fluid_types));
  figures.cost_before = NodeCostPerHour(snapshot, types);
  return figures;
}

// A snapshot and the scheduler input built from it (which points into it): kept together, at a
// stable address, while the commands decided on them are applied.
struct Round {
  state::ClusterSnapshot snapshot;
  provisioning::SnapshotSchedulerInput input;
  disruption::DisruptionResult result;
};

// Stops a run that would not converge (each round removes at least one node, so a cluster of
// N nodes needs at most N rounds; this only guards against a bug).
constexpr int kMaxRounds = 100000;

// Wall and thread CPU time of one piece of work, in milliseconds. The machine may be shared, so
// CPU time says what the work costs and wall time what it took.
struct Timing {
  double wall_millis = 0;
  double cpu_millis = 0;
};

// Times `work()`.
template <class Work>
Timing Timed(Work work) {
  const double wall = RealMonotonicSeconds();
  const double cpu = RealThreadCpuSeconds();
  work();
  return {(RealMonotonicSeconds() - wall) * 1000.0, (RealThreadCpuSeconds() - cpu) * 1000.0};
}

// One consolidation method timed alone on the first cluster: a full decision with upstream's
// search (and the run's candidate cap) in which the other consolidation method is marked
// consolidated, so the issue's two figures (multi-node and single-node decision time) are each
// measured even when multi-node consolidation wins the real decision and single-node never runs
// in it.
// What a decision's commands add up to.
struct Decided {
  std::string method = "none";  // the last command's
  size_t candidates = 0;        // the nodes they disrupt; 0 when nothing was found
  double savings = 0;           // $/h
};

Decided Summed(const disruption::DisruptionResult& result) {
  Decided out;
  for (const disruption::Command& command : result.commands) {
    out.method = std::string(disruption::MethodName(command.method));
    out.candidates += command.candidates.size();
    out.savings += command.savings_per_hour;
  }
  return out;
}

struct MethodAlone {
  Timing timing;
  Decided decided;
};

MethodAlone TimeMethodAlone(Round& round, api::Time now,
                            const disruption::DisruptionOptions& decide,
                            disruption::Method skipped) {
  disruption::DisruptionOptions alone = decide;
  alone.consolidation_search = disruption::ConsolidationSearch::kUpstream;
  alone.consolidated = {skipped};
  MethodAlone out;
  disruption::DisruptionResult result;
  out.timing = Timed(
      [&] { result = disruption::ComputeDisruption(round.snapshot, round.input, now, alone); });
  out.decided = Summed(result);
  return out;
}

std::string MethodAloneJson(const MethodAlone& run) {
  return fmt::format(
      "{{\"millis\":{:.1f},\"cpuMillis\":{:.1f},\"candidates\":{},\"savingsPerHour\":{:.4f}}}",
      run.timing.wall_millis, run.timing.cpu_millis, run.decided.candidates, run.decided.savings);
}

std::string MethodAloneText(const char* name, const MethodAlone& run) {
  return fmt::format("{} alone {:.1f} ms ({:.1f} ms CPU, {} node(s), saves ${:.4f}/h)", name,
                     run.timing.wall_millis, run.timing.cpu_millis, run.decided.candidates,
                     run.decided.savings);
}

struct StableFigures {
  int rounds = 0;
  Timing summed;  // of the decisions after the first
  Timing max;     // of any one decision, the first included
  double cost = 0;
  size_t nodes = 0;
  bench::GapBreakdown gap;
};

// One --trace line: decision `index` (0 is the first), the cluster it decided on, what it decided.
void TraceDecision(int index, const Round& round, const std::map<std::string, BenchType>& types,
                   const Timing& timing) {
  std::string decided = "nothing";
  if (!round.result.commands.empty()) {
    const disruption::Command& command = round.result.commands.front();
    decided = fmt::format("{} of {} node(s) into {}, saves ${:.4f}/h",
                          disruption::MethodName(command.method), command.candidates.size(),
                          command.replacements.size(), command.savings_per_hour);
    if (!command.detail.empty()) decided += fmt::format(" ({})", command.detail);
  }
  std::fprintf(stderr, "decision %d: %zu nodes, $%.4f/h: %s; %.1f ms (%.1f ms CPU)\n", index,
               round.snapshot.nodes().size(), NodeCostPerHour(round.snapshot, types),
               decided.c_str(), timing.wall_millis, timing.cpu_millis);
  std::fflush(stderr);
}

// Applies and re-decides until a decision has no command. `first` holds the first decision.
absl::StatusOr<StableFigures> RunUntilStable(std::unique_ptr<Round> round,
                                             const std::map<std::string, BenchType>& types,
                                             provisioning::CatalogCache& catalogs, api::Time now,
                                             const disruption::DisruptionOptions& decide,
                                             const Timing& first, bool trace) {
  StableFigures figures;
  figures.max = first;
  if (trace) TraceDecision(0, *round, types, first);
  while (!round->result.commands.empty() && figures.rounds < kMaxRounds) {
    ++figures.rounds;
    auto next = std::make_unique<Round>();
    KP_ASSIGN_OR_RETURN(next->snapshot,
                        disruption::ApplyCommands(round->snapshot, round->result.commands, now));
    KP_ASSIGN_OR_RETURN(next->input,
                        provisioning::BuildSchedulerInput(next->snapshot, {.now = now}, catalogs));
    const Timing timing = Timed([&] {
      next->result = disruption::ComputeDisruption(next->snapshot, next->input, now, decide);
    });
    figures.summed.wall_millis += timing.wall_millis;
    figures.summed.cpu_millis += timing.cpu_millis;
    figures.max.wall_millis = std::max(figures.max.wall_millis, timing.wall_millis);
    figures.max.cpu_millis = std::max(figures.max.cpu_millis, timing.cpu_millis);
    if (trace) TraceDecision(figures.rounds, *next, types, timing);
    round = std::move(next);
  }
  figures.cost = NodeCostPerHour(round->snapshot, types);
  figures.nodes = round->snapshot.nodes().size();
  KP_ASSIGN_OR_RETURN(figures.gap,
                      bench::BreakDownGap(PackedNodes(round->snapshot, types), FluidTypes(types)));
  return figures;
}

// The pool's types as the embedded catalog describes them, resolved through the header's pool.
absl::StatusOr<std::map<std::string, BenchType>> LoadBenchTypes(
    provisioning::CatalogCache& catalogs, api::Time now) {
  KP_ASSIGN_OR_RETURN(std::vector<api::Manifest> manifests, api::DecodeManifests(kHeader, "bench"));
  KP_ASSIGN_OR_RETURN(state::ClusterSnapshot snapshot,
                      state::ClusterSnapshot::FromManifests(std::move(manifests)));
  KP_ASSIGN_OR_RETURN(provisioning::SnapshotSchedulerInput input,
                      provisioning::BuildSchedulerInput(snapshot, {.now = now}, catalogs));
  if (input.input.node_pools.empty()) {
    return absl::InternalError("the bench NodePool resolved no instance types");
  }
  return BenchTypes(input);
}

// The churned cluster of `nodes` nodes and the scheduler input built from it, where it stays
// (the input may point into the snapshot).
absl::StatusOr<std::unique_ptr<Round>> FirstRound(int nodes, uint64_t seed,
                                                  const std::map<std::string, BenchType>& types,
                                                  provisioning::CatalogCache& catalogs,
                                                  api::Time now, int& pods) {
  KP_ASSIGN_OR_RETURN(std::string yaml, ChurnedCluster(nodes, seed, types, pods));
  KP_ASSIGN_OR_RETURN(std::vector<api::Manifest> manifests, api::DecodeManifests(yaml, "bench"));
  auto round = std::make_unique<Round>();
  KP_ASSIGN_OR_RETURN(round->snapshot, state::ClusterSnapshot::FromManifests(std::move(manifests)));
  KP_ASSIGN_OR_RETURN(round->input,
                      provisioning::BuildSchedulerInput(round->snapshot, {.now = now}, catalogs));
  return round;
}

int RunBenchDisruption(const BenchDisruptionOptions& options) {
  const api::Time now = *api::Time::ParseRfc3339("2026-12-02T00:00:00Z");
  provisioning::CatalogCache catalogs;
  absl::StatusOr<std::map<std::string, BenchType>> types = LoadBenchTypes(catalogs, now);
  if (!types.ok()) {
    std::fprintf(stderr, "bench disruption: %s\n", types.status().ToString().c_str());
    return 1;
  }
  const std::optional<disruption::ConsolidationSearch> search =
      disruption::ParseConsolidationSearch(options.consolidation_search);
  if (!search) {
    std::fprintf(stderr, "bench disruption: --consolidation-search must be upstream or extended\n");
    return 1;
  }
  if (options.multi_node_candidates < 0) {
    std::fprintf(stderr, "bench disruption: --multi-node-candidates must be 0 or more\n");
    return 1;
  }
  const size_t cap = options.multi_node_candidates == 0
                         ? std::numeric_limits<size_t>::max()
                         : static_cast<size_t>(options.multi_node_candidates);
  const disruption::DisruptionOptions decide{.max_multi_node_candidates = cap,
                                             .consolidation_search = *search};
  for (int nodes : options.nodes) {
    int pods = 0;
    absl::StatusOr<std::unique_ptr<Round>> first =
        FirstRound(nodes, options.seed, *types, catalogs, now, pods);
    absl::StatusOr<Figures> prices =
        first.ok() ? Prices((*first)->snapshot, *types) : first.status();
    if (!prices.ok()) {
      std::fprintf(stderr, "bench disruption: %s\n", prices.status().ToString().c_str());
      return 1;
    }
    std::unique_ptr<Round> round = *std::move(first);
    const Figures figures = *prices;
    const Timing timing = Timed([&] {
      round->result = disruption::ComputeDisruption(round->snapshot, round->input, now, decide);
    });
    const MethodAlone multi_node =
        TimeMethodAlone(*round, now, decide, disruption::Method::kSingleNodeConsolidation);
    const MethodAlone single_node =
        TimeMethodAlone(*round, now, decide, disruption::Method::kMultiNodeConsolidation);
    const auto [method, candidates, savings] = Summed(round->result);
    std::string stable_json;
    std::string stable_text;
    if (options.until_stable) {
      absl::StatusOr<StableFigures> stable =
          RunUntilStable(std::move(round), *types, catalogs, now, decide, timing, options.trace);
      if (!stable.ok()) {
        std::fprintf(stderr, "bench disruption: %s\n", stable.status().ToString().c_str());
        return 1;
      }
      stable_json = fmt::format(
          ",\"rounds\":{},\"stableDecisionMillis\":{:.1f},\"stableDecisionCpuMillis\":{:.1f},"
          "\"maxDecisionMillis\":{:.1f},\"maxDecisionCpuMillis\":{:.1f},\"stableNodes\":{},"
          "\"costPerHourStable\":{:.4f},\"stableOverBound\":{:.3f}",
          stable->rounds, stable->summed.wall_millis, stable->summed.cpu_millis,
          stable->max.wall_millis, stable->max.cpu_millis, stable->nodes, stable->cost,
          figures.lower_bound > 0 ? stable->cost / figures.lower_bound : 0.0);
      stable_text = fmt::format(
          "; until stable: {} more decisions in {:.1f} ms ({:.1f} ms CPU; the longest decision "
          "{:.1f} ms, {:.1f} ms CPU), {} nodes, ${:.4f}/h ({:.3f}x the bound)",
          stable->rounds, stable->summed.wall_millis, stable->summed.cpu_millis,
          stable->max.wall_millis, stable->max.cpu_millis, stable->nodes, stable->cost,
          figures.lower_bound > 0 ? stable->cost / figures.lower_bound : 0.0);
      if (options.breakdown) stable_text += "\n" + bench::GapBreakdownText(stable->gap);
    }
    if (options.json) {
      const std::string line = fmt::sprintf(
          "{\"nodes\":%d,\"pods\":%d,\"decisionMillis\":%.1f,\"decisionCpuMillis\":%.1f,"
          "\"method\":\"%s\",\"candidates\":%zu,"
          "\"costPerHourBefore\":%.4f,\"costPerHourAfterOneCommand\":%.4f,"
          "\"lowerBoundPerHour\":%.4f,\"multiNode\":%s,\"singleNode\":%s%s}\n",
          nodes, pods, timing.wall_millis, timing.cpu_millis, method.c_str(), candidates,
          figures.cost_before, figures.cost_before - savings, figures.lower_bound,
          MethodAloneJson(multi_node).c_str(), MethodAloneJson(single_node).c_str(),
          stable_json.c_str());
      if (options.output != "yaml") {
        std::printf("%s", line.c_str());
      } else if (absl::StatusOr<std::string> yaml = JsonToYaml(line); yaml.ok()) {
        // One YAML document per size, as -o json prints one JSON line per size.
        std::printf("%s%s", nodes == options.nodes.front() ? "" : "---\n", yaml->c_str());
      } else {
        std::fprintf(stderr, "bench disruption: %s\n", yaml.status().ToString().c_str());
        return 1;
      }
    } else {
      std::printf(
          "%d nodes, %d pods: decided in %.1f ms (%.1f ms CPU): %s of %zu node(s); $%.4f/h "
          "before, $%.4f/h after this command; fluid lower bound $%.4f/h; %s; %s%s\n",
          nodes, pods, timing.wall_millis, timing.cpu_millis, method.c_str(), candidates,
          figures.cost_before, figures.cost_before - savings, figures.lower_bound,
          MethodAloneText("multi-node consolidation", multi_node).c_str(),
          MethodAloneText("single-node consolidation", single_node).c_str(), stable_text.c_str());
    }
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace

void AddBenchDisruptionCommand(CLI::App& bench, BenchDisruptionOptions& options, int& exit_code) {
  CLI::App* cmd = bench.add_subcommand(
      "disruption", "One disruption decision on a churned cluster of N nodes (30-60% utilised)");
  cmd->footer(
      "Examples:\n"
      "  karpenter bench disruption --nodes 100,1000\n"
      "  karpenter bench disruption --nodes 1000 --until-stable -o json\n"
      "Exit codes: 0 measured; 1 bad flags");
  // A negative size ran as an empty cluster; ten million nodes ran out of memory.
  cmd->add_option("--nodes", options.nodes, "Cluster sizes, e.g. 100,1000")
      ->delimiter(',')
      ->check(CLI::Range(1, kMaxBenchNodes))
      ->capture_default_str();
  AddSeedOption(*cmd, options.seed, "Cluster generator seed");
  cmd->add_flag("--json", options.json, "One JSON object per size (-o json)");
  cmd->add_option("-o,--output", options.output,
                  "json: one JSON object per size (--json); yaml: one YAML document per size; "
                  "text and wide: the text report")
      ->check(CLI::IsMember(kOutputFormats))
      ->excludes("--json");
  cmd->add_flag("--until-stable", options.until_stable,
                "Apply each decision and decide again until nothing is left to do");
  cmd->add_option("--consolidation-search", options.consolidation_search,
                  "upstream (default): upstream's moves only; extended: when they find nothing, "
                  "also search candidates grouped by instance type and family, then re-shapes of "
                  "two or three nodes into as many or fewer cheaper ones")
      ->capture_default_str();
  cmd->add_option("--multi-node-candidates", options.multi_node_candidates,
                  "Multi-node consolidation looks at this many candidates at most (upstream: "
                  "100); 0 looks at all of them")
      ->capture_default_str();
  cmd->add_flag("--breakdown", options.breakdown,
                "With --until-stable (text output): split the steady state's gap to the bound "
                "into idle CPU, idle memory, idle pod slots and type premium, per instance type");
  cmd->add_flag("--trace", options.trace,
                "With --until-stable: one line per decision on stderr as it is taken (what it "
                "decided, the cluster's nodes and $/h, wall and CPU time)");
  cmd->callback([&options, &exit_code] {
    options.json = options.json || options.output == "json" || options.output == "yaml";
    exit_code = RunBenchDisruption(options);
  });
}

}  // namespace karpenter::cli
