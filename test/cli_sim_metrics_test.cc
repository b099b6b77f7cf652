// `karpenter sim --metrics FILE`: each run's final metrics in the Prometheus text format, under
// upstream's names and labels only, with the counters the twin's Karpenter moved.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "src/metrics/karpenter_metrics.h"
#include "test/cli_runner.h"

namespace {

namespace fs = std::filesystem;

using karpenter::cli_test::CliRun;
using karpenter::cli_test::ReadTextFile;

// Sample lines of one autoscaler's section, by series (name and labels as printed).
std::map<std::string, double> Section(const std::string& text, const std::string& autoscaler) {
  std::map<std::string, double> samples;
  std::istringstream in(text);
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("# autoscaler: ", 0) == 0) {
      inside = line == "# autoscaler: " + autoscaler;
      continue;
    }
    if (!inside || line.empty() || line[0] == '#') continue;
    const size_t space = line.rfind(' ');
    samples[line.substr(0, space)] = std::stod(line.substr(space + 1));
  }
  return samples;
}

// The metric family a sample belongs to: its name without labels or histogram suffixes.
std::string Family(const std::string& series, const std::set<std::string>& declared) {
  std::string name = series.substr(0, series.find('{'));
  if (declared.contains(name)) return name;
  for (const char* suffix : {"_bucket", "_sum", "_count"}) {
    const std::string s(suffix);
    if (name.size() > s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0) {
      return name.substr(0, name.size() - s.size());
    }
  }
  return name;
}

std::string RunForMetrics(const std::string& scenario, const std::string& name) {
  const fs::path file = fs::temp_directory_path() / ("kp_cli_sim_metrics_" + name + ".prom");
  CliRun run = karpenter::cli_test::RunKarpenterCommandLine("sim " + scenario + " --metrics " +
                                                            file.string());
  EXPECT_EQ(run.exit_code, 0) << run.err;
  return ReadTextFile(file.string());
}

TEST(CliSimMetrics, EveryMetricIsOneUpstreamDeclares) {
  std::set<std::string> declared;
  for (const auto& description : karpenter::metrics::KarpenterCatalog()) {
    declared.insert(description.name);
  }
  const std::string text = RunForMetrics(
      karpenter::cli_test::SourcePath("examples/sim/spot-interruptions.yaml"), "spot");
  const std::map<std::string, double> karpenter = Section(text, "karpenter");
  ASSERT_FALSE(karpenter.empty()) << text;
  for (const auto& [series, value] : karpenter) {
    EXPECT_TRUE(declared.contains(Family(series, declared))) << series;
  }
  EXPECT_TRUE(Section(text, "cluster-autoscaler").empty()) << "no Karpenter controllers there";
}

TEST(CliSimMetrics, InterruptionsAndLaunchesAreCounted) {
  const std::map<std::string, double> karpenter =
      Section(RunForMetrics(karpenter::cli_test::SourcePath("examples/sim/spot-interruptions.yaml"),
                            "interruptions"),
              "karpenter");
  EXPECT_GE(
      karpenter.at(
          R"(karpenter_interruption_received_messages_total{message_type="spot_interrupted"})"),
      1);
  double disrupted = 0;
  double created = 0;
  for (const auto& [series, value] : karpenter) {
    if (series.rfind("karpenter_nodeclaims_disrupted_total{", 0) == 0 &&
        series.find(R"(reason="spot_interrupted")") != std::string::npos) {
      disrupted += value;
    }
    if (series.rfind("karpenter_nodeclaims_created_total{", 0) == 0 &&
        series.find(R"(reason="provisioning")") != std::string::npos) {
      created += value;
    }
  }
  EXPECT_GE(disrupted, 1);
  EXPECT_GE(created, 1);
  EXPECT_EQ(karpenter.at("karpenter_cluster_state_synced"), 1);
}

TEST(CliSimMetrics, TheMigrationsDisruptionDecisionsAreCounted) {
  const std::map<std::string, double> karpenter =
      Section(RunForMetrics("--seed 1", "builtin"), "karpenter");
  double decisions = 0;
  double nodes_created = 0;
  for (const auto& [series, value] : karpenter) {
    if (series.rfind("karpenter_voluntary_disruption_decisions_total{", 0) == 0) {
      decisions += value;
    }
    if (series.rfind("karpenter_nodes_created_total{", 0) == 0) nodes_created += value;
  }
  EXPECT_GE(decisions, 1);
  EXPECT_GE(nodes_created, 1);
}

TEST(CliSimMetrics, TheDashboardsStateGaugesAndPodDurationsAreScraped) {
  std::set<std::string> declared;
  for (const auto& description : karpenter::metrics::KarpenterCatalog()) {
    declared.insert(description.name);
  }
  const std::map<std::string, double> karpenter =
      Section(RunForMetrics("--seed 2", "dashboards"), "karpenter");
  std::set<std::string> families;
  for (const auto& [series, value] : karpenter) families.insert(Family(series, declared));
  // The capacity and performance dashboards' panels the twin can feed: the state metrics
  // controller's node, pod and cluster gauges, the pod metrics' startup summary, the disruption
  // methods' gauges.
  for (const char* family :
       {"karpenter_nodes_allocatable", "karpenter_nodes_total_pod_requests",
        "karpenter_nodes_total_daemon_requests", "karpenter_nodes_system_overhead",
        "karpenter_nodes_current_lifetime_seconds", "karpenter_cluster_utilization_percent",
        "karpenter_cluster_state_node_count", "karpenter_pods_state",
        "karpenter_pods_startup_duration_seconds", "karpenter_pods_bound_duration_seconds",
        "karpenter_nodepools_limit", "karpenter_nodepools_usage",
        "karpenter_voluntary_disruption_eligible_nodes",
        "karpenter_nodepools_allowed_disruptions"}) {
    EXPECT_TRUE(families.contains(family)) << family;
  }
  EXPECT_GE(karpenter.at("karpenter_pods_startup_duration_seconds_count"), 1);
  EXPECT_GE(karpenter.at("karpenter_cluster_state_node_count"), 1);
}

}  // namespace
