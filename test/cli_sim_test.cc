// `karpenter sim` as a user runs it: the docs/contracts.md JSON keys, reproducibility from the seed
// (byte-identical --json apart from wallSeconds, identical --events), the built-in scenario's
// figures landing where the article and peers.md §3 put them, and field-path errors for bad
// scenario files.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "src/cloudprovider/catalog.h"
#include "test/cli_runner.h"

namespace {

namespace fs = std::filesystem;

using karpenter::cli_test::CliRun;
using karpenter::cli_test::ReadTextFile;

fs::path TempPath(const std::string& name) {
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  return fs::temp_directory_path() /
         ("kp_cli_sim_" + std::string(test ? test->name() : "none") + "_" + name);
}

CliRun RunCli(const std::string& args) {
  return karpenter::cli_test::RunKarpenterCommandLine(args);
}

std::string Source(const std::string& relative) {
  return karpenter::cli_test::SourcePath(relative);
}

// The summary with wallSeconds (real time) removed.
nlohmann::json WithoutWall(const std::string& out) {
  nlohmann::json json = nlohmann::json::parse(out);
  json.erase("wallSeconds");
  return json;
}

std::string Keys(const nlohmann::json& object) {
  std::string keys;
  for (auto it = object.begin(); it != object.end(); ++it) keys += it.key() + ",";
  return keys;
}

TEST(CliSim, JsonHasExactlyTheDesignKeys) {
  CliRun run = RunCli("sim --json --seed 1");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  nlohmann::json json = nlohmann::json::parse(run.out);
  EXPECT_EQ(Keys(json), "autoscalers,seed,simulatedSeconds,wallSeconds,");
  EXPECT_EQ(Keys(json["autoscalers"]), "cluster-autoscaler,karpenter,");
  for (const char* autoscaler : {"karpenter", "cluster-autoscaler"}) {
    const nlohmann::json& block = json["autoscalers"][autoscaler];
    // docs/contracts.md's fields, and the pod sets and capacity-type splits of issue #29.
    EXPECT_EQ(Keys(block),
              "costPerHour,evictions,nodeReadySeconds,nodes,podPendingSeconds,podSets,"
              "unschedulablePods,");
    EXPECT_EQ(Keys(block["podPendingSeconds"]), "max,p50,p95,");
    EXPECT_EQ(Keys(block["nodeReadySeconds"]), "p50,p95,");
    EXPECT_EQ(Keys(block["costPerHour"]), "byCapacityType,final,mean,");
    EXPECT_EQ(Keys(block["costPerHour"]["byCapacityType"]), "on-demand,spot,");
    EXPECT_EQ(Keys(block["costPerHour"]["byCapacityType"]["spot"]), "final,mean,");
    EXPECT_EQ(Keys(block["nodes"]), "byCapacityType,final,max,");
    EXPECT_EQ(Keys(block["nodes"]["byCapacityType"]["on-demand"]), "final,max,");
    EXPECT_EQ(Keys(block["podSets"]), "disruption,interruption,migration,workload,");
    for (const char* set : {"workload", "migration", "disruption", "interruption"}) {
      EXPECT_EQ(Keys(block["podSets"][set]), "evictions,pendingSeconds,pods,waitedForCapacity,");
      EXPECT_EQ(Keys(block["podSets"][set]["pendingSeconds"]), "max,p50,p95,");
    }
  }
  EXPECT_EQ(json["seed"], 1);
  // Key order as docs/contracts.md writes it.
  EXPECT_EQ(run.out.find("{\"autoscalers\":{\"karpenter\":{\"podPendingSeconds\":{\"p50\":"), 0u);
}

TEST(CliSim, SameSeedGivesIdenticalSummaryAndEvents) {
  const fs::path first = TempPath("events1.jsonl");
  const fs::path second = TempPath("events2.jsonl");
  CliRun a = RunCli("sim --json --seed 7 --events " + first.string());
  CliRun b = RunCli("sim --json --seed 7 --events " + second.string());
  ASSERT_EQ(a.exit_code, 0) << a.err;
  ASSERT_EQ(b.exit_code, 0) << b.err;
  EXPECT_EQ(WithoutWall(a.out).dump(), WithoutWall(b.out).dump());
  const std::string events = ReadTextFile(first);
  EXPECT_GT(events.size(), 1000u);
  EXPECT_EQ(events, ReadTextFile(second));
  // Every line is a JSON object with a time, a run and an event.
  std::istringstream lines(events);
  std::string line;
  while (std::getline(lines, line)) {
    nlohmann::json record = nlohmann::json::parse(line);
    ASSERT_TRUE(record.contains("t") && record.contains("run") && record.contains("event")) << line;
  }
}

TEST(CliSim, DifferentSeedChangesTheRun) {
  const fs::path first = TempPath("events1.jsonl");
  const fs::path second = TempPath("events2.jsonl");
  CliRun a = RunCli("sim --json --seed 1 --events " + first.string());
  CliRun b = RunCli("sim --json --seed 2 --events " + second.string());
  ASSERT_EQ(a.exit_code, 0) << a.err;
  ASSERT_EQ(b.exit_code, 0) << b.err;
  nlohmann::json ja = WithoutWall(a.out);
  nlohmann::json jb = WithoutWall(b.out);
  ja.erase("seed");
  jb.erase("seed");
  EXPECT_NE(ja.dump(), jb.dump());
  EXPECT_NE(ReadTextFile(first), ReadTextFile(second));
}

// The article's claims (Karpenter node Ready in 40–60 s; Cluster Autoscaler 2–5 minutes) emerge
// from the modelled latencies, scan interval, ASG refresh and backoff on the built-in scenario.
TEST(CliSim, BuiltinScenarioReproducesTheArticlesFigures) {
  for (int seed : {1, 2, 3}) {
    CliRun run = RunCli("sim --json --seed " + std::to_string(seed));
    ASSERT_EQ(run.exit_code, 0) << run.err;
    nlohmann::json json = nlohmann::json::parse(run.out);
    const nlohmann::json& karpenter = json["autoscalers"]["karpenter"];
    const nlohmann::json& ca = json["autoscalers"]["cluster-autoscaler"];
    EXPECT_GE(karpenter["nodeReadySeconds"]["p50"].get<double>(), 40) << run.out;
    EXPECT_LE(karpenter["nodeReadySeconds"]["p50"].get<double>(), 60) << run.out;
    EXPECT_LT(karpenter["podPendingSeconds"]["p50"].get<double>(), 75) << run.out;
    EXPECT_GE(ca["podPendingSeconds"]["p50"].get<double>(), 120) << run.out;
    EXPECT_LE(ca["podPendingSeconds"]["p50"].get<double>(), 300) << run.out;
    EXPECT_EQ(karpenter["unschedulablePods"], 0) << run.out;
    EXPECT_EQ(ca["unschedulablePods"], 0) << run.out;
    EXPECT_GT(karpenter["evictions"].get<int>(), 0) << "Phase 4 drains the legacy groups";
    // The same claims on the workload set, whose pods are the same in both runs: of them, the
    // pods that waited for capacity.
    const nlohmann::json& ours = karpenter["podSets"]["workload"];
    const nlohmann::json& theirs = ca["podSets"]["workload"];
    EXPECT_EQ(ours["pods"], theirs["pods"]) << run.out;
    EXPECT_LT(ours["waitedForCapacity"]["pendingSeconds"]["p50"].get<double>(), 75) << run.out;
    EXPECT_GE(theirs["waitedForCapacity"]["pendingSeconds"]["p50"].get<double>(), 120) << run.out;
    EXPECT_LE(theirs["waitedForCapacity"]["pendingSeconds"]["p50"].get<double>(), 300) << run.out;
    // The operator's Phase 4 drain runs only under Karpenter, and is not Karpenter's disruption.
    EXPECT_GT(karpenter["podSets"]["migration"]["evictions"].get<int>(), 0) << run.out;
    EXPECT_EQ(ca["podSets"]["migration"]["evictions"], 0) << run.out;
    EXPECT_GT(karpenter["nodes"]["byCapacityType"]["spot"]["max"].get<int>(), 0) << run.out;
    EXPECT_EQ(ca["nodes"]["byCapacityType"]["spot"]["max"], 0) << "the spot groups hit ICE";
    EXPECT_EQ(json["simulatedSeconds"], 2700);
  }
}

// peers.md §3.5 S1: without tail mechanisms the gap is ~15–30 s, and CA lands in 55–135 s.
TEST(CliSim, HappyPathShowsTheHonestGap) {
  CliRun run = RunCli("sim --json " + Source("examples/sim/happy-path.yaml"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  nlohmann::json json = nlohmann::json::parse(run.out);
  const double karpenter = json["autoscalers"]["karpenter"]["podPendingSeconds"]["p50"];
  const double ca = json["autoscalers"]["cluster-autoscaler"]["podPendingSeconds"]["p50"];
  EXPECT_GE(ca, 55) << run.out;
  EXPECT_LE(ca, 135) << run.out;
  EXPECT_GT(ca - karpenter, 5) << run.out;
  EXPECT_LT(ca - karpenter, 40) << run.out;
}

// peers.md §3.5 S3: a spot shortage on CA's first-priority group costs it the ASG refresh, the
// backoff and a second loop (≈85–170 s); Karpenter stays on its happy path.
TEST(CliSim, SpotShortageOnTheFirstChoiceDelaysClusterAutoscaler) {
  CliRun run = RunCli("sim --json " + Source("examples/sim/spot-ice.yaml"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  nlohmann::json json = nlohmann::json::parse(run.out);
  const double karpenter = json["autoscalers"]["karpenter"]["podPendingSeconds"]["p50"];
  const double ca = json["autoscalers"]["cluster-autoscaler"]["podPendingSeconds"]["p50"];
  EXPECT_GE(ca, 85) << run.out;
  EXPECT_LE(ca, 170) << run.out;
  EXPECT_LT(karpenter, 75) << run.out;
}

// Karpenter hears every interruption warning over its queue and drains the node itself; Cluster
// Autoscaler's nodes are simply reclaimed.
TEST(CliSim, SpotInterruptionsReachKarpenterOverItsQueue) {
  const fs::path events = TempPath("interruptions.jsonl");
  CliRun run = RunCli("sim --json " + Source("examples/sim/spot-interruptions.yaml") +
                      " --events " + events.string());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::ifstream in(events);
  std::map<std::string, std::map<std::string, int>> count;  // run -> event -> count
  for (std::string line; std::getline(in, line);) {
    nlohmann::json event = nlohmann::json::parse(line);
    if (event["event"] == "InterruptionReceived" && event["kind"] != "spot_interrupted") continue;
    ++count[event["run"].get<std::string>()][event["event"].get<std::string>()];
  }
  EXPECT_GE(count["karpenter"]["SpotInterruptionWarning"], 1);
  EXPECT_EQ(count["karpenter"]["InterruptionReceived"],
            count["karpenter"]["SpotInterruptionWarning"]);
  EXPECT_EQ(count["cluster-autoscaler"]["InterruptionReceived"], 0);
  // A warning in the run's last two minutes is reclaimed after the end.
  EXPECT_GE(count["cluster-autoscaler"]["SpotInstanceReclaimed"], 1);
  EXPECT_LE(count["cluster-autoscaler"]["SpotInstanceReclaimed"],
            count["cluster-autoscaler"]["SpotInterruptionWarning"]);
  nlohmann::json json = nlohmann::json::parse(run.out);
  EXPECT_EQ(json["autoscalers"]["karpenter"]["unschedulablePods"], 0) << run.out;
  // Cluster Autoscaler's pods die with the reclaimed instances: no eviction was asked for, but
  // they are lost all the same and counted in the interruption set.
  const nlohmann::json& ca = json["autoscalers"]["cluster-autoscaler"];
  EXPECT_EQ(ca["evictions"], 0) << run.out;
  EXPECT_GT(ca["podSets"]["interruption"]["evictions"].get<int>(), 0) << run.out;
  EXPECT_GT(json["autoscalers"]["karpenter"]["podSets"]["interruption"]["evictions"].get<int>(), 0)
      << run.out;
  // Unschedulable pods say why, as kube-scheduler's FailedScheduling event does.
  std::ifstream again(events);
  int with_reason = 0;
  for (std::string line; std::getline(again, line);) {
    nlohmann::json event = nlohmann::json::parse(line);
    if (event["event"] != "PodUnschedulable") continue;
    // kube-scheduler's view: no existing node takes it (not the provisioning solve's wording).
    EXPECT_EQ(event.value("reason", "").rfind("no Ready, schedulable node fits it", 0), 0u) << line;
    ++with_reason;
  }
  EXPECT_GT(with_reason, 0);
}

// Bursts of Jobs: Karpenter packs them on fewer, right-sized nodes and gives them back sooner.
TEST(CliSim, CiBurstsCostKarpenterLessThanClusterAutoscaler) {
  CliRun run = RunCli("sim --json " + Source("examples/sim/ci-bursts.yaml"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  nlohmann::json json = nlohmann::json::parse(run.out);
  const nlohmann::json& karpenter = json["autoscalers"]["karpenter"];
  const nlohmann::json& ca = json["autoscalers"]["cluster-autoscaler"];
  EXPECT_LT(karpenter["nodes"]["max"].get<int>(), ca["nodes"]["max"].get<int>()) << run.out;
  EXPECT_LT(karpenter["costPerHour"]["mean"].get<double>(), ca["costPerHour"]["mean"].get<double>())
      << run.out;
  EXPECT_EQ(karpenter["unschedulablePods"], 0) << run.out;
  EXPECT_EQ(ca["unschedulablePods"], 0) << run.out;
}

TEST(CliSim, TextSummaryPutsTheAutoscalersSideBySide) {
  CliRun run = RunCli("sim --seed 1");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("karpenter  cluster-autoscaler"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("pod pending p50 / p95 (s)"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("delta"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\nVerdict: karpenter"), std::string::npos) << run.out;
}

TEST(CliSim, OutputFlagChoosesJsonOrText) {
  const std::string scenario = Source("examples/sim/happy-path.yaml") + " --duration 120";
  CliRun json = RunCli("sim " + scenario + " -o json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  CliRun flag = RunCli("sim " + scenario + " --json");
  EXPECT_EQ(WithoutWall(json.out).dump(), WithoutWall(flag.out).dump());
  CliRun text = RunCli("sim " + scenario + " -o text");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("karpenter  cluster-autoscaler"), std::string::npos) << text.out;
  // yaml and wide are formats since issue 28 (kubectl's -o set); an unknown one still fails.
  CliRun bad = RunCli("sim " + scenario + " -o xml");
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.err.find("--output"), std::string::npos) << bad.err;
}

// --print-builtin writes a scenario file that `sim -f` runs to the built-in scenario's result.
TEST(CliSim, PrintBuiltinRoundTripsThroughAScenarioFile) {
  CliRun printed = RunCli("sim --print-builtin");
  ASSERT_EQ(printed.exit_code, 0) << printed.err;
  EXPECT_EQ(printed.out.rfind("name: builtin-migration\n", 0), 0u) << printed.out.substr(0, 200);
  const fs::path file = TempPath("builtin.yaml");
  std::ofstream(file) << printed.out;
  CliRun builtin = RunCli("sim --json --seed 2 --duration 20m");
  CliRun from_file = RunCli("sim -f " + file.string() + " --json --seed 2 --duration 20m");
  ASSERT_EQ(builtin.exit_code, 0) << builtin.err;
  ASSERT_EQ(from_file.exit_code, 0) << from_file.err;
  EXPECT_EQ(WithoutWall(builtin.out).dump(), WithoutWall(from_file.out).dump());
}

TEST(CliSim, BadScenarioFileFailsWithFieldPaths) {
  const fs::path path = TempPath("bad.yaml");
  std::ofstream(path) << "name: bad\ndurationSeconds: ten\nzones: [us-east-1a]\n"
                         "nodeGroups: [{name: g, instanceType: m6i.large, maxSize: 1, "
                         "sizeMax: 2}]\n";
  CliRun run = RunCli("sim " + path.string());
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_TRUE(run.out.empty());
  EXPECT_NE(run.err.find(path.string() + ": durationSeconds: must be a number"), std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find(path.string() + ": nodeGroups[0].sizeMax: unknown field"),
            std::string::npos)
      << run.err;
}

TEST(CliSim, ReportWritesASelfContainedPage) {
  const fs::path page = TempPath("report.html");
  CliRun run = RunCli("sim --seed 1 --report " + page.string());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(run.err.empty()) << run.err;  // no progress line when stderr is not a terminal
  EXPECT_NE(run.out.find("karpenter  cluster-autoscaler"), std::string::npos) << run.out;
  const std::string html = ReadTextFile(page);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  for (const char* section :
       {"id=\"headline\"", "id=\"time-series\"", "id=\"pending-distribution\"", "id=\"timeline\"",
        "seed 1", "2700 simulated seconds", ">Pending pods</text>", ">cluster-autoscaler</th>"}) {
    EXPECT_NE(html.find(section), std::string::npos) << section;
  }
  // Self-contained: nothing fetched, nothing scripted.
  EXPECT_EQ(html.find("http://"), std::string::npos);
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find(" src="), std::string::npos);
  EXPECT_EQ(html.find(" href="), std::string::npos);
}

TEST(CliSim, ReportIsByteIdenticalForTheSameSeed) {
  const fs::path first = TempPath("first.html");
  const fs::path second = TempPath("second.html");
  ASSERT_EQ(RunCli("sim --json --seed 3 --report " + first.string()).exit_code, 0);
  ASSERT_EQ(RunCli("sim --seed 3 --report " + second.string()).exit_code, 0);
  const std::string html = ReadTextFile(first);
  EXPECT_FALSE(html.empty());
  EXPECT_EQ(html, ReadTextFile(second));
}

// Before the run: no summary, and no events file written for a run that did not happen.
TEST(CliSim, UnwritableReportFails) {
  const fs::path events = TempPath("events.jsonl");
  fs::remove(events);
  CliRun run = RunCli("sim " + Source("examples/sim/happy-path.yaml") + " --events " +
                      events.string() + " --report /nonexistent/dir/report.html");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.err, "/nonexistent/dir/report.html: cannot write the report file\n");
  EXPECT_TRUE(run.out.empty()) << run.out;
  EXPECT_FALSE(fs::exists(events));
}

// The InstanceLaunched events of Karpenter's NodeClaims in the run's event log.
std::vector<nlohmann::json> KarpenterLaunches(const fs::path& events) {
  std::vector<nlohmann::json> launches;
  std::ifstream in(events);
  for (std::string line; std::getline(in, line);) {
    nlohmann::json event = nlohmann::json::parse(line);
    if (event["run"] == "karpenter" && event["event"] == "InstanceLaunched" &&
        event["owner"].get<std::string>().rfind("nodeclaim/", 0) == 0) {
      launches.push_back(event);
    }
  }
  return launches;
}

// examples/sim/happy-path.yaml with `extra` appended, written to a temporary file.
fs::path HappyPathWith(const std::string& name, const std::string& extra) {
  const fs::path path = TempPath(name);
  std::ofstream out(path);
  out << ReadTextFile(Source("examples/sim/happy-path.yaml")) << extra;
  return path;
}

// A scenario's spotPrices reach EC2's bill and Karpenter's choices: with no discount left (and no
// zone variation) every spot instance costs exactly its on-demand price; with the default model,
// less.
TEST(CliSim, ScenarioSpotPricesPriceTheSpotInstances) {
  const karpenter::cloudprovider::Catalog catalog =
      *karpenter::cloudprovider::Catalog::LoadEmbedded();
  const fs::path rejected_file =
      HappyPathWith("rejected.yaml",
                    "\nspotPrices: {categoryDiscounts: {c: 0, m: 0, r: 0}, zoneVariation: 0,\n"
                    "  generationAdjustments: {}}\n");
  CliRun rejected = RunCli("sim " + rejected_file.string());
  EXPECT_EQ(rejected.exit_code, 1);
  EXPECT_NE(rejected.err.find("spotPrices.generationAdjustments: unknown field"), std::string::npos)
      << rejected.err;
  const fs::path scenario = HappyPathWith(
      "scenario.yaml", "\nspotPrices: {categoryDiscounts: {c: 0, m: 0, r: 0}, zoneVariation: 0}\n");
  for (const bool overridden : {false, true}) {
    const fs::path events = TempPath(overridden ? "overridden.jsonl" : "default.jsonl");
    const std::string file =
        overridden ? scenario.string() : Source("examples/sim/happy-path.yaml");
    CliRun run = RunCli("sim " + file + " --events " + events.string());
    ASSERT_EQ(run.exit_code, 0) << run.err;
    int spot = 0;
    for (const nlohmann::json& launch : KarpenterLaunches(events)) {
      if (launch["capacityType"] != "spot") continue;
      ++spot;
      const double on_demand =
          catalog.OnDemandPrice(launch["instanceType"].get<std::string>()).value();
      if (overridden) {
        // Events print prices to a tenth of a cent.
        EXPECT_NEAR(launch["pricePerHour"].get<double>(), on_demand, 0.0005) << launch;
      } else {
        EXPECT_LT(launch["pricePerHour"].get<double>(), 0.9 * on_demand) << launch;
      }
    }
    EXPECT_GT(spot, 0) << (overridden ? "overridden" : "default");
  }
}

TEST(CliSim, SpotPricesForOfferingsTheCatalogLacksAreRefused) {
  const fs::path scenario = HappyPathWith(
      "scenario.yaml",
      "\nspotPrices:\n  prices: [{instanceType: m5.large, zone: us-east-1e, pricePerHour: 1}]\n");
  CliRun run = RunCli("sim " + scenario.string());
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.out, "");
  EXPECT_NE(run.err.find("spotPrices.prices: the catalog has no spot offering of m5.large in "
                         "us-east-1e"),
            std::string::npos)
      << run.err;
}

// Runs headless Chromium on a local page with the given mode flag (--dump-dom or --screenshot=…).
int RunChromium(const fs::path& page, const std::string& mode, const fs::path& out) {
  const std::string command =
      "timeout 120 chromium --headless --disable-gpu --no-sandbox --window-size=1280,2000 " + mode +
      " file://" + page.string() + " >" + out.string() + " 2>/dev/null";
  return std::system(command.c_str());
}

// The page as a browser sees it: Debian's headless Chromium keeps every chart through its HTML
// parser, and paints them: the screenshot of the report carries far more detail than the one of
// a page with a single line of text (PNG size is a proxy for what was drawn).
TEST(CliSim, ReportRendersInHeadlessChromium) {
  if (std::system("command -v chromium >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "chromium is not installed (scripts/setup.sh --with-chromium)";
  }
  const fs::path page = TempPath("chromium.html");
  const fs::path dom = TempPath("chromium.dom");
  ASSERT_EQ(RunCli("sim " + Source("examples/sim/happy-path.yaml") + " --report " + page.string())
                .exit_code,
            0);
  ASSERT_EQ(RunChromium(page, "--dump-dom", dom), 0);
  const std::string source = ReadTextFile(page);
  const std::string rendered = ReadTextFile(dom);
  EXPECT_NE(rendered.find("id=\"headline\""), std::string::npos) << rendered.substr(0, 400);
  EXPECT_NE(rendered.find("happy-path"), std::string::npos);
  const auto count_svgs = [](const std::string& text) {
    size_t count = 0;
    for (size_t at = text.find("<svg"); at != std::string::npos; at = text.find("<svg", at + 1)) {
      ++count;
    }
    return count;
  };
  EXPECT_GE(count_svgs(source), 5u);
  EXPECT_EQ(count_svgs(rendered), count_svgs(source));

  const fs::path blank = TempPath("chromium-blank.html");
  {
    std::ofstream out(blank);
    out << "<!DOCTYPE html><html><body><p>karpenter sim</p></body></html>";
  }
  const fs::path report_png = TempPath("chromium-report.png");
  const fs::path blank_png = TempPath("chromium-blank.png");
  ASSERT_EQ(RunChromium(page, "--screenshot=" + report_png.string(), TempPath("shot.log")), 0);
  ASSERT_EQ(RunChromium(blank, "--screenshot=" + blank_png.string(), TempPath("shot.log")), 0);
  ASSERT_TRUE(fs::exists(report_png) && fs::exists(blank_png));
  EXPECT_GT(fs::file_size(report_png), 4 * fs::file_size(blank_png))
      << fs::file_size(report_png) << " vs " << fs::file_size(blank_png);
}

// --duration cuts a long scenario: the run stops there, the trace's later steps never happen.
TEST(CliSim, DurationCutsTheRun) {
  CliRun run = RunCli("sim " + Source("examples/sim/happy-path.yaml") + " --duration 120 --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json json = nlohmann::json::parse(run.out);
  EXPECT_EQ(json["simulatedSeconds"], 120);
  CliRun full = RunCli("sim " + Source("examples/sim/happy-path.yaml") + " --json");
  ASSERT_EQ(full.exit_code, 0) << full.err;
  EXPECT_GT(nlohmann::json::parse(full.out)["simulatedSeconds"].get<double>(), 120);
  // The second scale-up (at 300 s) is cut: fewer nodes at most than in the full run.
  EXPECT_LT(json["autoscalers"]["karpenter"]["nodes"]["max"].get<int>(),
            nlohmann::json::parse(full.out)["autoscalers"]["karpenter"]["nodes"]["max"].get<int>());
  // 1e9 s aborted after running for minutes.
  // A Go duration reads as its seconds.
  CliRun minutes =
      RunCli("sim " + Source("examples/sim/happy-path.yaml") + " --duration 2m --json");
  ASSERT_EQ(minutes.exit_code, 0) << minutes.err;
  EXPECT_EQ(WithoutWall(minutes.out).dump(), WithoutWall(run.out).dump());
  CliRun hours = RunCli("sim " + Source("examples/sim/happy-path.yaml") + " --duration 1h --json");
  ASSERT_EQ(hours.exit_code, 0) << hours.err;
  EXPECT_EQ(nlohmann::json::parse(hours.out)["simulatedSeconds"], 3600);
  CliRun nonsense = RunCli("sim --duration 90x");
  EXPECT_NE(nonsense.exit_code, 0);
  EXPECT_NE(nonsense.err.find("such as 90m or 1h"), std::string::npos) << nonsense.err;
  CliRun huge = RunCli("sim --duration 1e9");
  EXPECT_EQ(huge.exit_code, 1);
  EXPECT_NE(huge.err.find("at most 2592000 (30 days)"), std::string::npos) << huge.err;
  CliRun zero = RunCli("sim --duration 0");
  EXPECT_NE(zero.exit_code, 0);
  EXPECT_NE(zero.err.find("--duration"), std::string::npos) << zero.err;
}

TEST(CliSim, MissingScenarioFileFails) {
  CliRun run = RunCli("sim /nonexistent/scenario.yaml");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("cannot read the file"), std::string::npos) << run.err;
}

}  // namespace

// Buffered writes fail only when flushed: each of these exited 0 with nothing written.
TEST(CliSim, AFailedWriteIsAnError) {
  const std::string scenario = Source("examples/sim/happy-path.yaml") + " --duration 60";
  CliRun json = RunCli("sim " + scenario + " --json > /dev/full");
  EXPECT_EQ(json.exit_code, 1);
  EXPECT_EQ(json.err, "karpenter: cannot write the output: No space left on device\n");
  CliRun events = RunCli("sim " + scenario + " --events /dev/full");
  EXPECT_EQ(events.exit_code, 1);
  EXPECT_NE(events.err.find("/dev/full: cannot write the events file"), std::string::npos)
      << events.err;
  CliRun report = RunCli("sim " + scenario + " --report /dev/full");
  EXPECT_EQ(report.exit_code, 1);
  EXPECT_NE(report.err.find("/dev/full: cannot write the report file"), std::string::npos)
      << report.err;
}
