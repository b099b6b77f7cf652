// `karpenter migrate --report FILE.html` run as a user runs it: the article's cluster replayed
// today (Cluster Autoscaler) and after the migration (Karpenter, Phase 4's drain), the page
// deterministic, and a report that cannot be made refused with nothing printed.
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "test/cli_runner.h"
#include "test/migrate_article_args.h"

namespace karpenter::cli_test {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string TempPath(const std::string& name) {
  return ::testing::TempDir() + "/migrate-report-" + name;
}

std::vector<std::string> ArticleReportArgs(const std::string& report) {
  return ArticleMigrateArgs({"--report", report});
}

// The cells of the headline row `label` (today, after, change).
std::vector<std::string> Row(const std::string& html, const std::string& label) {
  const std::regex row("<tr><td>" + label +
                       "</td><td>([^<]*)</td><td>([^<]*)</td><td>([^<]*)</td>");
  std::smatch match;
  if (!std::regex_search(html, match, row)) return {};
  return {match[1], match[2], match[3]};
}

TEST(CliMigrateReport, ArticleReportHasBothRunsTheHeadlineAndTheDrain) {
  const std::string report = TempPath("article.html");
  std::filesystem::remove(report);
  CliRun run = RunKarpenter(ArticleReportArgs(report));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  // The runbook is printed as without --report.
  EXPECT_EQ(run.out, ReadTextFile(SourcePath("examples/migrate/article/expected.txt")));
  const std::string html = ReadTextFile(report);
  ASSERT_THAT(html, HasSubstr("<h1>karpenter migrate: migration of production-eks</h1>"));
  EXPECT_THAT(html, HasSubstr(">karpenter</th>"));
  EXPECT_THAT(html, HasSubstr(">cluster-autoscaler</th>"));
  EXPECT_THAT(html, HasSubstr("<th>today: Cluster Autoscaler</th><th>after: Karpenter</th>"));
  for (const char* label : {"cost, mean \\$/h", "cost at the end, \\$/h",
                            "pending time of the workload&#39;s pods, p95, s",
                            "evictions per day \\(the Phase 4 drain left out\\)",
                            "nodes at the end", "nodes at the peak"}) {
    EXPECT_EQ(Row(html, label).size(), 3u) << label;
  }
  // Only Karpenter's run drains the migrated groups, in the runbook's order; the static group
  // (CoreDNS, the load balancer controller) stays.
  const std::vector<std::string> drained = Row(html, "evictions by the Phase 4 drain \\(once\\)");
  ASSERT_EQ(drained.size(), 3u);
  EXPECT_EQ(drained[0], "0");
  EXPECT_NE(drained[1], "0");
  const size_t general = html.find("<li>at 5 min: Phase 4: cordon and drain general-workers");
  const size_t spot = html.find("<li>at 15 min: Phase 4: cordon and drain spot-batch");
  ASSERT_NE(general, std::string::npos);
  ASSERT_NE(spot, std::string::npos);
  EXPECT_LT(general, spot);
  EXPECT_THAT(html, Not(HasSubstr("cordon and drain system")));
  EXPECT_THAT(html, HasSubstr("system: kept as a static group in the Karpenter run"));
  // The groups of several types run their node template's type in the twin, and say so.
  EXPECT_THAT(html, HasSubstr("general-workers: runs m5.xlarge, m5a.xlarge; the twin&#39;s node "
                              "groups run one type, so its 3 nodes run m5.xlarge"));
  EXPECT_THAT(html, HasSubstr("Phases 1-3: the plan&#39;s 2 EC2NodeClasses and 2 NodePools"));
}

TEST(CliMigrateReport, SameInputsGiveTheSameBytes) {
  const std::string first = TempPath("first.html");
  const std::string second = TempPath("second.html");
  ASSERT_EQ(RunKarpenter(ArticleReportArgs(first)).exit_code, 0);
  ASSERT_EQ(RunKarpenter(ArticleReportArgs(second)).exit_code, 0);
  const std::string html = ReadTextFile(first);
  ASSERT_FALSE(html.empty());
  EXPECT_EQ(html, ReadTextFile(second));
  std::vector<std::string> seeded = ArticleReportArgs(second);
  seeded.insert(seeded.end(), {"--seed", "7"});
  ASSERT_EQ(RunKarpenter(seeded).exit_code, 0);
  EXPECT_THAT(ReadTextFile(second), HasSubstr("seed 7"));
}

// The flags of the Cluster Autoscaler Deployment drive the "today" run; the page names them.
TEST(CliMigrateReport, TodayRunTakesTheClusterAutoscalerFlags) {
  const std::string dir = SourcePath("examples/migrate/mixed/");
  const std::string report = TempPath("mixed.html");
  CliRun run = RunKarpenter({"migrate", "-f", dir + "snapshot.json", "--nodegroups",
                             dir + "nodegroup-od-general.json," + dir +
                                 "nodegroup-spot-compute.json," + dir + "nodegroup-system.json",
                             "--cluster-autoscaler", dir + "cluster-autoscaler.yaml", "--asgs",
                             dir + "asgs.json", "--report", report, "-o", "json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string html = ReadTextFile(report);
  EXPECT_THAT(html, HasSubstr("Cluster Autoscaler (kube-system/cluster-autoscaler): "
                              "--expander=priority --balance-similar-node-groups=true"));
  EXPECT_THAT(html, HasSubstr("--scale-down-unneeded-time=5m0s"));
  EXPECT_THAT(html, HasSubstr("priorities: od-general 10, reporting-batch 0, spot-compute 50"));
  EXPECT_THAT(html, HasSubstr("reporting-batch: Cluster Autoscaler&#39;s "
                              "--nodes=0:4:reporting-batch: the today run keeps it within 0 to 4 "
                              "nodes"));
  // The self-managed group (nodes grouped by their Auto Scaling group) is drained too.
  EXPECT_THAT(html, HasSubstr("Phase 4: cordon and drain reporting-batch (2 nodes)"));
  // Without the Deployment the twin's defaults stand, and the page says so.
  CliRun without = RunKarpenter(ArticleReportArgs(report));
  ASSERT_EQ(without.exit_code, 0) << without.err;
  EXPECT_THAT(ReadTextFile(report), HasSubstr("no Deployment given (--cluster-autoscaler)"));
}

TEST(CliMigrateReport, UnwritableReportIsRefusedBeforeAnyWork) {
  // The snapshot does not exist either: the report path is refused first.
  CliRun run = RunKarpenter({"migrate", "-f", TempPath("missing-snapshot.json"), "--cluster", "c",
                             "--report", TempPath("no-such-dir/report.html")});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.out, "");
  EXPECT_THAT(run.err, HasSubstr("no-such-dir/report.html: cannot write the report file"));
  EXPECT_THAT(run.err, Not(HasSubstr("missing-snapshot")));
}

// A snapshot the plan takes but the twin cannot start from (a node Karpenter launched) fails
// the whole command: no plan on stdout, no page.
TEST(CliMigrateReport, SnapshotTheTwinCannotStartFromExitsOneWithoutAPage) {
  const std::string snapshot = TempPath("karpenter-node.yaml");
  std::ofstream(snapshot) << R"(apiVersion: v1
kind: Node
metadata:
  name: ip-10-0-1-1.ec2.internal
  labels:
    eks.amazonaws.com/nodegroup: general
    karpenter.sh/nodepool: default
    node.kubernetes.io/instance-type: m5.large
    topology.kubernetes.io/zone: us-east-1a
spec:
  providerID: aws:///us-east-1a/i-0123456789abcdef0
)";
  const std::string report = TempPath("refused.html");
  std::filesystem::remove(report);
  CliRun run = RunKarpenter({"migrate", "-f", snapshot, "--cluster", "c", "--report", report});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.out, "");
  EXPECT_THAT(run.err, HasSubstr("--report: " + snapshot +
                                 ": Node/ip-10-0-1-1.ec2.internal: "
                                 "metadata.labels[karpenter.sh/nodepool]"));
  EXPECT_FALSE(std::filesystem::exists(report));
}

}  // namespace
}  // namespace karpenter::cli_test
