#include "cmd/karpenter/bench_disruption_command.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <string>

#include "cmd/karpenter/real_clock.h"
#include "fmt/format.h"
#include "src/api/karpenter_labels.h"
#include "src/api/manifest.h"
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

struct NodeType {
  const char* name;
  int milli_cpu;  // allocatable, as the embedded catalog reports it
};
constexpr NodeType kTypes[] = {{"m5.large", 1930},
                               {"m5.xlarge", 3920},
                               {"m5.2xlarge", 7910},
                               {"c5.xlarge", 3920},
                               {"r5.xlarge", 3920}};

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

std::string ChurnedCluster(int nodes, uint64_t seed, int& pods) {
  SplitMix random{seed};
  std::string yaml = kHeader;
  pods = 0;
  for (int i = 0; i < nodes; ++i) {
    const NodeType& type = kTypes[random.Next() % std::size(kTypes)];
    const std::string name = fmt::format("node-{:05d}", i);
    const std::string labels = fmt::format(
        "{{karpenter.sh/nodepool: default, node.kubernetes.io/instance-type: {}, "
        "topology.kubernetes.io/zone: us-east-1a, karpenter.sh/capacity-type: on-demand, "
        "karpenter.sh/initialized: 'true'}}",
        type.name);
    yaml += fmt::format(
        "---\napiVersion: v1\nkind: Node\nmetadata: {{name: {0}, labels: {1}}}\n"
        "spec: {{providerID: 'aws:///us-east-1a/i-{0}'}}\n"
        "status:\n  allocatable: {{cpu: {2}m, memory: 14162Mi, pods: '58'}}\n"
        "  conditions: [{{type: Ready, status: 'True'}}]\n"
        "---\napiVersion: karpenter.sh/v1\nkind: NodeClaim\nmetadata:\n  name: claim-{0}\n"
        "  creationTimestamp: '2026-12-01T00:00:00Z'\n  labels: {1}\nspec:\n"
        "  nodeClassRef: {{group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}}\n"
        "  requirements: [{{key: node.kubernetes.io/instance-type, operator: In, values: [{3}]}}]\n"
        "status:\n  providerID: 'aws:///us-east-1a/i-{0}'\n  nodeName: {0}\n"
        "  conditions: [{{type: Initialized, status: 'True', "
        "lastTransitionTime: '2026-12-01T00:00:00Z'}}]\n",
        name, labels, type.milli_cpu, type.name);
    const int target = type.milli_cpu * random.Uniform(30, 60) / 100;
    for (int used = 0, j = 0; used < target; ++j) {
      const int milli = std::min(random.Uniform(1, 5) * 100, target - used + 100);
      used += milli;
      ++pods;
      yaml += fmt::format(
          "---\napiVersion: v1\nkind: Pod\nmetadata: {{name: {0}-p{1}, namespace: default}}\n"
          "spec:\n  nodeName: {0}\n  containers:\n  - {{name: app, image: pause, resources: "
          "{{requests: {{cpu: {2}m, memory: {3}Mi}}}}}}\nstatus: {{phase: Running}}\n",
          name, j, milli, random.Uniform(1, 4) * 256);
    }
  }
  return yaml;
}

struct Figures {
  double cost_before = 0;
  double lower_bound = 0;
};

// $/h of the nodes, and max(Σ cpu × cheapest $/cpu, Σ memory × cheapest $/memory).
Figures Prices(const state::ClusterSnapshot& snapshot,
               const provisioning::SnapshotSchedulerInput& input) {
  Figures figures;
  const auto& types = input.input.node_pools.front().instance_types;
  double per_cpu = std::numeric_limits<double>::infinity();
  double per_memory = per_cpu;
  std::map<std::string, double> price_of;
  for (const provisioning::InstanceTypeView& type : types) {
    // The catalog lists every type of the class; the pool launches only these families.
    const scheduling::Requirement* family = type.requirements.Find(api::kLabelInstanceFamily);
    if (family == nullptr || !(family->Has("m5") || family->Has("c5") || family->Has("r5"))) {
      continue;
    }
    for (const provisioning::OfferingView& offering : type.offerings) {
      if (offering.zone != "us-east-1a" || offering.capacity_type != "on-demand") continue;
      price_of[type.name] = offering.price;
      const double cpu =
          type.allocatable.count("cpu") ? type.allocatable.at("cpu").AsApproximateFloat64() : 0;
      const double memory = type.allocatable.count("memory")
                                ? type.allocatable.at("memory").AsApproximateFloat64()
                                : 0;
      if (cpu > 0) per_cpu = std::min(per_cpu, offering.price / cpu);
      if (memory > 0) per_memory = std::min(per_memory, offering.price / memory);
    }
  }
  double cpu = 0;
  double memory = 0;
  for (const api::Pod& pod : snapshot.pods()) {
    for (const api::Container& container : pod.spec.containers) {
      const api::ResourceList& requests = container.resources.requests;
      if (requests.count("cpu")) cpu += requests.at("cpu").AsApproximateFloat64();
      if (requests.count("memory")) memory += requests.at("memory").AsApproximateFloat64();
    }
  }
  for (const api::Node& node : snapshot.nodes()) {
    figures.cost_before +=
        price_of[node.metadata.labels.at(std::string(api::kLabelInstanceTypeStable))];
  }
  figures.lower_bound = std::max(cpu * per_cpu, memory * per_memory);
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

struct StableFigures {
  int rounds = 0;
  double millis = 0;
  double cost = 0;
  size_t nodes = 0;
};

// Applies and re-decides until a decision has no command. `first` holds the first decision.
absl::StatusOr<StableFigures> RunUntilStable(std::unique_ptr<Round> round,
                                             provisioning::CatalogCache& catalogs, api::Time now) {
  StableFigures figures;
  while (!round->result.commands.empty() && figures.rounds < kMaxRounds) {
    ++figures.rounds;
    auto next = std::make_unique<Round>();
    KP_ASSIGN_OR_RETURN(next->snapshot,
                        disruption::ApplyCommands(round->snapshot, round->result.commands, now));
    KP_ASSIGN_OR_RETURN(next->input,
                        provisioning::BuildSchedulerInput(next->snapshot, {.now = now}, catalogs));
    const double start = RealMonotonicSeconds();
    next->result = disruption::ComputeDisruption(next->snapshot, next->input, now);
    figures.millis += (RealMonotonicSeconds() - start) * 1000.0;
    round = std::move(next);
  }
  figures.cost = Prices(round->snapshot, round->input).cost_before;
  figures.nodes = round->snapshot.nodes().size();
  return figures;
}

int RunBenchDisruption(const BenchDisruptionOptions& options) {
  const api::Time now = *api::Time::ParseRfc3339("2026-12-02T00:00:00Z");
  for (int nodes : options.nodes) {
    int pods = 0;
    absl::StatusOr<std::vector<api::Manifest>> manifests =
        api::DecodeManifests(ChurnedCluster(nodes, options.seed, pods), "bench");
    absl::StatusOr<state::ClusterSnapshot> snapshot =
        manifests.ok() ? state::ClusterSnapshot::FromManifests(*std::move(manifests))
                       : absl::StatusOr<state::ClusterSnapshot>(manifests.status());
    provisioning::CatalogCache catalogs;
    // The input is built from the snapshot where it stays (it may point into it).
    auto round = std::make_unique<Round>();
    absl::StatusOr<provisioning::SnapshotSchedulerInput> input = absl::InternalError("no snapshot");
    if (snapshot.ok()) {
      round->snapshot = *std::move(snapshot);
      input = provisioning::BuildSchedulerInput(round->snapshot, {.now = now}, catalogs);
    } else {
      input = snapshot.status();
    }
    if (!input.ok() || input->input.node_pools.empty()) {
      std::fprintf(stderr, "bench disruption: %s\n", input.status().ToString().c_str());
      return 1;
    }
    round->input = *std::move(input);
    const Figures figures = Prices(round->snapshot, round->input);
    const double start = RealMonotonicSeconds();
    round->result = disruption::ComputeDisruption(round->snapshot, round->input, now);
    const double millis = (RealMonotonicSeconds() - start) * 1000.0;
    const disruption::DisruptionResult& result = round->result;
    std::string method = "none";
    size_t candidates = 0;
    double savings = 0;
    for (const disruption::Command& command : result.commands) {
      method = std::string(disruption::MethodName(command.method));
      candidates += command.candidates.size();
      savings += command.savings_per_hour;
    }
    std::string stable_json;
    std::string stable_text;
    if (options.until_stable) {
      absl::StatusOr<StableFigures> stable = RunUntilStable(std::move(round), catalogs, now);
      if (!stable.ok()) {
        std::fprintf(stderr, "bench disruption: %s\n", stable.status().ToString().c_str());
        return 1;
      }
      stable_json = fmt::format(
          ",\"rounds\":{},\"stableDecisionMillis\":{:.1f},\"stableNodes\":{},"
          "\"costPerHourStable\":{:.4f},\"stableOverBound\":{:.3f}",
          stable->rounds, stable->millis, stable->nodes, stable->cost,
          figures.lower_bound > 0 ? stable->cost / figures.lower_bound : 0.0);
      stable_text = fmt::format(
          "; until stable: {} more decisions in {:.1f} ms, {} nodes, ${:.4f}/h ({:.3f}x the bound)",
          stable->rounds, stable->millis, stable->nodes, stable->cost,
          figures.lower_bound > 0 ? stable->cost / figures.lower_bound : 0.0);
    }
    if (options.json) {
      std::printf(
          "{\"nodes\":%d,\"pods\":%d,\"decisionMillis\":%.1f,\"method\":\"%s\",\"candidates\":%zu,"
          "\"costPerHourBefore\":%.4f,\"costPerHourAfterOneCommand\":%.4f,"
          "\"lowerBoundPerHour\":%.4f%s}\n",
          nodes, pods, millis, method.c_str(), candidates, figures.cost_before,
          figures.cost_before - savings, figures.lower_bound, stable_json.c_str());
    } else {
      std::printf(
          "%d nodes, %d pods: decided in %.1f ms: %s of %zu node(s); $%.4f/h before, $%.4f/h "
          "after this command; fluid lower bound $%.4f/h%s\n",
          nodes, pods, millis, method.c_str(), candidates, figures.cost_before,
          figures.cost_before - savings, figures.lower_bound, stable_text.c_str());
    }
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace

void AddBenchDisruptionCommand(CLI::App& bench, BenchDisruptionOptions& options, int& exit_code) {
  CLI::App* cmd = bench.add_subcommand(
      "disruption", "One disruption decision on a churned cluster of N nodes (30-60% utilised)");
  cmd->add_option("--nodes", options.nodes, "Cluster sizes, e.g. 100,1000")
      ->delimiter(',')
      ->capture_default_str();
  cmd->add_option("--seed", options.seed, "Cluster generator seed")->capture_default_str();
  cmd->add_flag("--json", options.json, "One JSON object per size");
  cmd->add_flag("--until-stable", options.until_stable,
                "Apply each decision and decide again until nothing is left to do");
  cmd->callback([&options, &exit_code] { exit_code = RunBenchDisruption(options); });
}

}  // namespace karpenter::cli
