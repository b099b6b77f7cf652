#include "src/sim/scenario_file.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "src/sim/builtin_scenario.h"
#include "src/sim/cluster.h"

namespace karpenter::sim {
namespace {

constexpr char kMinimal[] = R"yaml(
name: tiny
durationSeconds: 600
zones: [us-east-1a]
nodeGroups:
  - {name: general, instanceType: m6i.xlarge, maxSize: 5, initialSize: 1}
latency:
  instanceBootToRegistered: {min: 20, max: 25}
  batchIdle: 2
steps:
  - at: 30
    apply: |
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web, namespace: default}
      spec:
        replicas: 2
        selector: {matchLabels: {app: web}}
        template:
          metadata: {labels: {app: web}}
          spec:
            containers: [{name: web, image: nginx, resources: {requests: {cpu: "1"}}}]
  - {at: 10, scale: {deployment: default/web, replicas: 4}, only: cluster-autoscaler}
faults:
  - insufficientCapacity: {instanceType: m6i.xlarge, capacityType: spot, from: 0, to: 60}
  - neverRegisters: {instanceType: m6i.xlarge, capacityType: on-demand, from: 0, to: 30}
)yaml";

std::string ErrorsOf(std::string_view yaml) {
  absl::StatusOr<Scenario> scenario = ParseScenario(yaml, "s.yaml");
  return scenario.ok() ? "" : std::string(scenario.status().message());
}

TEST(ParseScenario, ReadsEverySection) {
  absl::StatusOr<Scenario> scenario = ParseScenario(kMinimal, "s.yaml");
  ASSERT_TRUE(scenario.ok()) << scenario.status();
  EXPECT_EQ(scenario->name, "tiny");
  EXPECT_EQ(scenario->duration_seconds, 600);
  ASSERT_EQ(scenario->node_groups.size(), 1u);
  EXPECT_EQ(scenario->node_groups[0].zones, (std::vector<std::string>{"us-east-1a"}));
  EXPECT_EQ(scenario->latency.instance_boot_to_registered, (Range{20, 25}));
  EXPECT_EQ(scenario->latency.batch_idle, (Range{2, 2}));
  ASSERT_EQ(scenario->steps.size(), 2u);
  // Sorted by time.
  EXPECT_EQ(scenario->steps[0].kind, StepKind::kScale);
  EXPECT_EQ(scenario->steps[0].only, Autoscaler::kClusterAutoscaler);
  EXPECT_EQ(scenario->steps[1].kind, StepKind::kApply);
  EXPECT_EQ(scenario->steps[1].objects.size(), 1u);
  ASSERT_EQ(scenario->faults.size(), 2u);
  EXPECT_EQ(scenario->faults[0].to_seconds, 60);
  EXPECT_EQ(scenario->faults[0].kind, FaultKind::kInsufficientCapacity);
  EXPECT_EQ(scenario->faults[1].kind, FaultKind::kNeverRegisters);
  EXPECT_EQ(scenario->autoscalers.size(), 2u);
}

TEST(ParseScenario, KarpenterConsolidationSearchIsUpstreamUnlessExtended) {
  absl::StatusOr<Scenario> plain = ParseScenario(kMinimal, "s.yaml");
  ASSERT_TRUE(plain.ok()) << plain.status();
  EXPECT_EQ(plain->karpenter.consolidation_search, disruption::ConsolidationSearch::kUpstream);
  absl::StatusOr<Scenario> extended = ParseScenario(
      std::string(kMinimal) + "karpenter: {consolidationSearch: extended}\n", "s.yaml");
  ASSERT_TRUE(extended.ok()) << extended.status();
  EXPECT_EQ(extended->karpenter.consolidation_search, disruption::ConsolidationSearch::kExtended);
  EXPECT_NE(ErrorsOf(std::string(kMinimal) + "karpenter: {consolidationSearch: greedy}\n")
                .find("s.yaml: karpenter.consolidationSearch: unsupported value \"greedy\""),
            std::string::npos);
  EXPECT_NE(ErrorsOf(std::string(kMinimal) + "karpenter: {search: extended}\n")
                .find("s.yaml: karpenter.search: unknown field"),
            std::string::npos);
}

TEST(ParseScenario, ReportsEveryProblemWithItsFieldPath) {
  // Paths index the file as written, before steps are sorted by time.
  std::string yaml = kMinimal;
  yaml.replace(yaml.find("replicas: 4"), 11, "replicas: four");
  yaml.replace(yaml.find("initialSize: 1"), 14, "initialSize: 9");
  yaml += "colour: blue\n";
  const std::string errors = ErrorsOf(yaml);
  EXPECT_NE(errors.find("s.yaml: steps[1].scale.replicas: must be an integer"), std::string::npos)
      << errors;
  EXPECT_NE(errors.find("s.yaml: nodeGroups[0].initialSize: must lie within [minSize, maxSize]"),
            std::string::npos)
      << errors;
  EXPECT_NE(errors.find("s.yaml: colour: unknown field"), std::string::npos) << errors;
}

TEST(ParseScenario, RejectsUnknownLatencyParametersAndAutoscalers) {
  EXPECT_NE(ErrorsOf("name: x\ndurationSeconds: 1\nzones: [a]\nlatency: {bootTime: 3}\n")
                .find("latency: bootTime: unknown latency parameter"),
            std::string::npos);
  EXPECT_NE(ErrorsOf("name: x\ndurationSeconds: 1\nzones: [a]\nautoscalers: [yunikorn]\n")
                .find("autoscalers[0]: unsupported value \"yunikorn\""),
            std::string::npos);
}

TEST(ParseScenario, InvalidManifestsAreReportedUnderTheirStep) {
  const std::string errors = ErrorsOf(R"yaml(
name: x
durationSeconds: 10
zones: [a]
steps:
  - at: 1
    apply: |
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web}
      spec:
        replicas: -3
        selector: {matchLabels: {app: web}}
        template:
          metadata: {labels: {app: web}}
          spec: {containers: [{name: web, image: nginx}]}
)yaml");
  EXPECT_NE(errors.find("s.yaml: steps[0].apply: Deployment/"), std::string::npos) << errors;
  EXPECT_NE(errors.find("spec.replicas"), std::string::npos) << errors;
}

TEST(ParseScenario, KindsTheTwinDoesNotRunAreRejectedWithTheirPath) {
  const std::string errors = ErrorsOf(R"yaml(
name: x
durationSeconds: 10
zones: [a]
manifests: |
  apiVersion: v1
  kind: Pod
  metadata: {name: lonely, namespace: default}
  spec: {containers: [{name: c, image: nginx}]}
)yaml");
  EXPECT_NE(errors.find("s.yaml: manifests: Pod/default/lonely: the twin runs Deployments, "
                        "StatefulSets, Jobs, DaemonSets, PodDisruptionBudgets, NodePools and "
                        "EC2NodeClasses only"),
            std::string::npos)
      << errors;
}

TEST(ParseScenario, StepsNeedExactlyOneAction) {
  EXPECT_NE(ErrorsOf("name: x\ndurationSeconds: 1\nzones: [a]\nsteps: [{at: 1, delete: a/b, "
                     "drainNodeGroup: g}]\n")
                .find("steps[0]: needs exactly one of apply, scale, delete, drainNodeGroup"),
            std::string::npos);
}

TEST(ParseScenario, MissingRequiredFieldsAreNamed) {
  const std::string errors =
      ErrorsOf("durationSeconds: 5\nzones: [a]\nnodeGroups: [{name: g, maxSize: 1}]\n");
  EXPECT_NE(errors.find("s.yaml: name: required"), std::string::npos) << errors;
  EXPECT_NE(errors.find("s.yaml: nodeGroups[0].instanceType: required"), std::string::npos)
      << errors;
}

TEST(ParseScenario, SpotInterruptionFaultsImplySpotAndNeedAPositiveRate) {
  const std::string base =
      "name: x\ndurationSeconds: 600\nzones: [us-east-1a]\nfaults:\n  - spotInterruptions: ";
  absl::StatusOr<Scenario> scenario =
      ParseScenario(base + "{zones: [us-east-1a], from: 60, to: 600, ratePerHour: 2}\n", "s.yaml");
  ASSERT_TRUE(scenario.ok()) << scenario.status();
  ASSERT_EQ(scenario->faults.size(), 1u);
  const CapacityFault& fault = scenario->faults[0];
  EXPECT_EQ(fault.kind, FaultKind::kSpotInterruptions);
  EXPECT_EQ(fault.capacity_type, "spot");
  EXPECT_TRUE(fault.instance_type.empty());  // every spot type
  EXPECT_EQ(fault.rate_per_hour, 2);
  EXPECT_NE(ErrorsOf(base + "{from: 0, to: 60, ratePerHour: 0}\n")
                .find("s.yaml: faults[0].spotInterruptions.ratePerHour: must be positive"),
            std::string::npos);
  EXPECT_NE(ErrorsOf(base + "{from: 0, to: 60, ratePerHour: 1, capacityType: spot}\n")
                .find("faults[0].spotInterruptions.capacityType"),
            std::string::npos);
}

TEST(ParseScenario, SpotPricesOverrideTheDiscountModel) {
  const std::string base = "name: x\ndurationSeconds: 60\nzones: [us-east-1a]\nspotPrices: ";
  absl::StatusOr<Scenario> scenario = ParseScenario(
      base +
          "{defaultDiscount: 0.5, categoryDiscounts: {m: 0.3}, familyDiscounts: {c6i: 0.1}, "
          "typeDiscounts: {r6i.large: 0}, zoneVariation: 0, prices: [{instanceType: m5.large, "
          "zone: us-east-1a, pricePerHour: 0.5}]}\n",
      "s.yaml");
  ASSERT_TRUE(scenario.ok()) << scenario.status();
  const cloudprovider::SpotPriceModel& model = scenario->spot_prices;
  EXPECT_EQ(model.default_discount, 0.5);
  EXPECT_EQ(model.category_discounts.at("m"), 0.3);
  EXPECT_EQ(model.category_discounts.at("c"), 0.62);  // the defaults stay for the rest
  EXPECT_EQ(model.family_discounts.at("c6i"), 0.1);
  EXPECT_EQ(model.type_discounts.at("r6i.large"), 0);
  EXPECT_EQ(model.zone_variation, 0);
  EXPECT_EQ(model.prices.at({"m5.large", "us-east-1a"}), 0.5);

  const std::string errors =
      ErrorsOf(base +
               "{defaultDiscount: 0.95, categoryDiscounts: {m: -1}, familyDiscounts: [c6i], "
               "zoneVariation: 2, prices: [{instanceType: m5.large, zone: us-east-1a}, "
               "{instanceType: m5.large, zone: us-east-1a, pricePerHour: 0, spot: true}], "
               "margin: 1}\n");
  for (const std::string expected :
       {"s.yaml: spotPrices.defaultDiscount: must be at most 0.9",
        "s.yaml: spotPrices.categoryDiscounts.m: must not be negative",
        "s.yaml: spotPrices.familyDiscounts: must be a mapping of discounts",
        "s.yaml: spotPrices.zoneVariation: must be at most 0.5",
        "s.yaml: spotPrices.prices[0].pricePerHour: required",
        "s.yaml: spotPrices.prices[1].pricePerHour: must be positive",
        "s.yaml: spotPrices.prices[1].spot: unknown field",
        "s.yaml: spotPrices.margin: unknown field"}) {
    EXPECT_NE(errors.find(expected), std::string::npos) << expected << "\n" << errors;
  }
}

TEST(ParseScenario, ThePriceExpanderIsRefusedAsOnAws) {
  const std::string errors = ErrorsOf(
      "name: x\ndurationSeconds: 60\nzones: [us-east-1a]\nclusterAutoscaler: {expander: price}\n");
  EXPECT_NE(errors.find("s.yaml: clusterAutoscaler.expander: \"price\" needs cloud provider "
                        "pricing"),
            std::string::npos)
      << errors;
}

TEST(ParseScenario, SyntaxErrorsNameTheLine) {
  EXPECT_NE(ErrorsOf("name: x\nzones: [a\n").find("s.yaml: line "), std::string::npos);
}

TEST(ParseScenario, NonFiniteNumbersAreRejected) {
  // .nan would also break the sort of steps by time (NaN is unordered).
  const std::string errors = ErrorsOf(
      "name: x\ndurationSeconds: .inf\nzones: [a]\nsteps:\n  - {at: .nan, delete: a/b}\n"
      "  - {at: 1, delete: a/c}\nfaults:\n  - insufficientCapacity: {instanceType: m, "
      "capacityType: spot, from: -.inf, to: 1}\n");
  EXPECT_NE(errors.find("s.yaml: durationSeconds: must be a finite number"), std::string::npos)
      << errors;
  EXPECT_NE(errors.find("s.yaml: steps[0].at: must be a finite number"), std::string::npos)
      << errors;
  EXPECT_NE(errors.find("s.yaml: faults[0].insufficientCapacity.from: must be a finite number"),
            std::string::npos)
      << errors;
}

TEST(ParseScenario, ReadsTheDocumentedFrequentLoopsOption) {
  absl::StatusOr<Scenario> scenario = ParseScenario(
      "name: x\ndurationSeconds: 1\nzones: [a]\nclusterAutoscaler: {frequentLoops: true}\n",
      "s.yaml");
  ASSERT_TRUE(scenario.ok()) << scenario.status();
  EXPECT_TRUE(scenario->cluster_autoscaler.frequent_loops);
}

TEST(ParseScenario, SectionsOfTheWrongShapeAreReportedTogether) {
  // Each of these used to make yaml-cpp throw on a key lookup in a scalar, which replaced every
  // other problem with one "line N" message.
  const std::string errors = ErrorsOf(R"yaml(
name: x
durationSeconds: 1
zones: [a]
colour: blue
clusterAutoscaler: fast
nodeGroups:
  - general
  - {name: g, instanceType: m, maxSize: 1, taints: [NoSchedule]}
steps: [hello, {at: 1, scale: 3}]
faults: [soon]
)yaml");
  for (const char* expected :
       {"s.yaml: colour: unknown field", "s.yaml: clusterAutoscaler: must be a mapping",
        "s.yaml: nodeGroups[0]: must be a mapping",
        "s.yaml: nodeGroups[1].taints[0]: must be a mapping", "s.yaml: steps[0]: must be a mapping",
        "s.yaml: steps[1].scale: must be a mapping", "s.yaml: faults[0]: must be a mapping"}) {
    EXPECT_NE(errors.find(expected), std::string::npos) << expected << "\n" << errors;
  }
  EXPECT_EQ(errors.find("line "), std::string::npos) << errors;
}

TEST(ParseScenario, ListsOfTheWrongShapeAreReported) {
  // A scalar used to read as an empty list, silently dropping the section.
  const std::string errors = ErrorsOf(
      "name: x\ndurationSeconds: 1\nzones: [a]\nsteps: hello\nnodeGroups: {a: 1}\nfaults: 3\n");
  EXPECT_NE(errors.find("s.yaml: steps: must be a list"), std::string::npos) << errors;
  EXPECT_NE(errors.find("s.yaml: nodeGroups: must be a list"), std::string::npos) << errors;
  EXPECT_NE(errors.find("s.yaml: faults: must be a list"), std::string::npos) << errors;
  EXPECT_TRUE(ParseScenario("name: x\ndurationSeconds: 1\nzones: [a]\nsteps:\n", "s.yaml").ok());
}

TEST(ParseScenario, OddKeysAreQuotedAndEveryProblemStaysOnOneLine) {
  const std::string errors = ErrorsOf(
      "name: x\ndurationSeconds: 1\nzones: [a]\n\"a\\nb\": 1\n\"\": 2\n\"c: d\": 3\n"
      "latency: {\"x\\ty\": 1}\n");
  EXPECT_EQ(errors,
            "s.yaml: \"a\\nb\": unknown field\n"
            "s.yaml: \"\": unknown field\n"
            "s.yaml: \"c: d\": unknown field\n"
            "s.yaml: latency: x\\ty: unknown latency parameter");
}

TEST(ParseScenario, ControlCharactersInTheFileStayEscapedInTheReport) {
  // Found by sim_scenario_fuzz: yaml-cpp's message quotes the offending characters, which made
  // one problem span several lines of the report.
  using std::string_literals::operator""s;
  const std::string yaml =
      "name: x\ndurationSeconds: 10\nzones: [a]\nsteps:\n  - at: 1\n    apply: |\n"
      "      kind: Deployment\n      spec:\n        replicas: \x0e\0\n"
      "        selector: {matchLabels: {app: web}}\n"s;
  const std::string errors = ErrorsOf(yaml);
  ASSERT_FALSE(errors.empty());
  size_t start = 0;
  for (size_t end = errors.find('\n'); start <= errors.size(); end = errors.find('\n', start)) {
    if (end == std::string::npos) end = errors.size();
    const std::string line = errors.substr(start, end - start);
    EXPECT_EQ(line.rfind("s.yaml: ", 0), 0u) << line;
    for (char c : line) EXPECT_GE(static_cast<unsigned char>(c), 0x20) << line;
    start = end + 1;
  }
}

TEST(ParseScenario, InvalidUtf8IsRefusedWhereItIsRead) {
  // It reached the HTML report through a note.
  EXPECT_EQ(ErrorsOf(std::string(kMinimal) + "description: \"caf\xE9 \xFF\"\n"),
            "s.yaml: line 27, column 18: invalid UTF-8 (byte 0xe9)");
  EXPECT_EQ(ErrorsOf(std::string(kMinimal) + "description: \"caf\xC3\xA9\"\n"), "");
}

TEST(ParseScenario, AnAutoscalerNamedTwiceIsAnError) {
  // Each run is reported under its autoscaler's name; a second one printed a JSON key twice.
  EXPECT_NE(ErrorsOf(std::string(kMinimal) + "autoscalers: [karpenter, cluster-autoscaler, "
                                             "karpenter]\n")
                .find("s.yaml: autoscalers[2]: duplicate value \"karpenter\""),
            std::string::npos)
      << ErrorsOf(std::string(kMinimal) + "autoscalers: [karpenter, karpenter]\n");
}

TEST(ParseScenario, TopLevelCommaIsReportedWithTheFile) {
  EXPECT_EQ(ErrorsOf("[a],\n").rfind("s.yaml: line 1, column ", 0), 0u) << ErrorsOf("[a],\n");
}

// yaml-cpp's own guard only said "bad file" at 500 levels.
TEST(ParseScenario, DeepNestingIsReportedWithItsLineAndPath) {
  const std::string deep = "name: " + std::string(600, '[') + std::string(600, ']') + "\n";
  EXPECT_EQ(ErrorsOf(deep).rfind("s.yaml: line 1, column 262: nested deeper than 256 levels at "
                                 "name[0][0][0][0][0]",
                                 0),
            0u)
      << ErrorsOf(deep);
}

// yaml-cpp kept the first of two equal keys: `durationSeconds` given twice ran the first.
TEST(ParseScenario, AKeyGivenTwiceIsAnError) {
  const std::string twice = std::string(kMinimal) + "durationSeconds: 60\n";
  EXPECT_NE(ErrorsOf(twice).find("s.yaml: line "), std::string::npos) << ErrorsOf(twice);
  EXPECT_NE(ErrorsOf(twice).find(": mapping key \"durationSeconds\" already defined"),
            std::string::npos)
      << ErrorsOf(twice);
  EXPECT_NE(ErrorsOf(std::string(kMinimal) + "description: !!int many\n").find("as a !!int"),
            std::string::npos);
}

TEST(ParseScenario, ASecondDocumentIsAnError) {
  const std::string two = std::string(kMinimal) + "---\nname: second\n";
  EXPECT_EQ(ErrorsOf(two), "s.yaml: line " +
                               std::to_string(std::count(two.begin(), two.end(), '\n')) +
                               ": a scenario file holds one YAML document; a second begins here");
  // An empty document after the separator holds nothing to ignore.
  EXPECT_EQ(ErrorsOf(std::string(kMinimal) + "---\n"), "");
}

// Each of these hung, aborted or ran at the wrong time: a period of 0 looped forever, 1e9 s
// aborted, 1e16-1e20 s overflowed the clock, `at: 1e30` ran at t = 0, and 10^8 replicas or
// 10^6 nodes exhausted memory. Every value is checked where it is read, and named.
TEST(ParseScenario, TimesAndCountsAreRangeChecked) {
  const std::string errors = ErrorsOf(R"yaml(
name: hostile
durationSeconds: 1e9
zones: [us-east-1a]
latency:
  disruptionPoll: 0
  instanceBootToRegistered: 1e300
nodeGroups:
  - {name: big, instanceType: m6i.xlarge, maxSize: 1000000, initialSize: 1000000}
steps:
  - {at: 1e30, scale: {deployment: default/web, replicas: 100000000}}
faults:
  - spotInterruptions: {from: 0, to: 1e20, ratePerHour: 1e300}
)yaml");
  for (const char* expected :
       {"s.yaml: durationSeconds: must be at most 2592000 seconds (30 days)",
        "s.yaml: latency: disruptionPoll: a loop's period must be at least 1 s, got min 0",
        "s.yaml: latency.instanceBootToRegistered: must be at most 2592000 seconds (30 days)",
        "s.yaml: nodeGroups[0].maxSize: must be at most 10000",
        "s.yaml: nodeGroups[0].initialSize: must be at most 10000",
        "s.yaml: steps[0].at: must be at most 2592000 seconds (30 days)",
        "s.yaml: steps[0].scale.replicas: must be at most 100000",
        "s.yaml: faults[0].spotInterruptions.to: must be at most 2592000 seconds (30 days)",
        "s.yaml: faults[0].spotInterruptions.ratePerHour: must be at most 3600 (one a second)"}) {
    EXPECT_NE(errors.find(expected), std::string::npos) << expected << "\n" << errors;
  }
}

TEST(ParseScenario, WorkloadSizesAndJobRunTimesAreRangeChecked) {
  const std::string errors = ErrorsOf(R"yaml(
name: hostile
durationSeconds: 600
zones: [us-east-1a]
manifests: |
  apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web, namespace: default}
  spec:
    replicas: 2147483647
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec: {containers: [{name: c, image: i}]}
  ---
  apiVersion: batch/v1
  kind: Job
  metadata:
    name: batch
    namespace: default
    annotations: {sim.karpenter.sh/run-seconds: "0x10"}
  spec:
    completions: 1000000
    template:
      spec: {restartPolicy: Never, containers: [{name: c, image: i}]}
)yaml");
  for (const char* expected :
       {"s.yaml: manifests: Deployment/default/web: spec.replicas: must be at most 100000",
        "s.yaml: manifests: Job/default/batch: spec.completions: must be at most 100000",
        "s.yaml: manifests: Job/default/batch: metadata.annotations.sim.karpenter.sh/run-seconds: "
        "\"0x10\": must be a number of seconds from 0 to 2592000"}) {
    EXPECT_NE(errors.find(expected), std::string::npos) << expected << "\n" << errors;
  }
}

// Only a plain decimal is a number of seconds: hex, exponents, signs and spaces are refused
// instead of being read in another notation ("0x10" was 16 s).
TEST(ParseJobRunSeconds, TakesPlainDecimalsOnly) {
  EXPECT_EQ(ParseJobRunSeconds("600"), 600.0);
  EXPECT_EQ(ParseJobRunSeconds("2.5"), 2.5);
  EXPECT_EQ(ParseJobRunSeconds("0"), 0.0);
  for (const char* bad :
       {"0x10", "1e3", "nan", "inf", "-5", "+5", " 5", "5 ", "", ".5", "5.", "1.2.3", "５"}) {
    EXPECT_EQ(ParseJobRunSeconds(bad), std::nullopt) << bad;
  }
}

TEST(BuiltinScenario, ParsesWithTheArticlesObjects) {
  absl::StatusOr<Scenario> scenario = BuiltinScenario();
  ASSERT_TRUE(scenario.ok()) << scenario.status();
  EXPECT_EQ(scenario->autoscalers,
            (std::vector<Autoscaler>{Autoscaler::kKarpenter, Autoscaler::kClusterAutoscaler}));
  bool node_pool = false;
  bool workload_sample = false;
  for (const Step& step : scenario->steps) {
    for (const api::Object& object : step.objects) {
      if (const auto* pool = std::get_if<api::NodePool>(&object)) {
        node_pool = pool->metadata.name == "default" && step.only == Autoscaler::kKarpenter;
      }
      if (const auto* deployment = std::get_if<api::Deployment>(&object)) {
        workload_sample = workload_sample || (deployment->metadata.name == "workload-sample" &&
                                              deployment->spec.replicas == 10);
      }
    }
  }
  EXPECT_TRUE(node_pool);
  EXPECT_TRUE(workload_sample);
  // The article's three manifests appear verbatim.
  for (const char* file : {"ec2nodeclass.yaml", "nodepool.yaml", "workload-sample.yaml"}) {
    const std::string path = std::string(KP_SOURCE_DIR) + "/examples/article/" + file;
    absl::StatusOr<std::string> text = [&]() -> absl::StatusOr<std::string> {
      FILE* f = std::fopen(path.c_str(), "r");
      if (f == nullptr) return absl::NotFoundError(path);
      std::string out;
      char buffer[4096];
      size_t n;
      while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) out.append(buffer, n);
      std::fclose(f);
      return out;
    }();
    ASSERT_TRUE(text.ok());
    std::string yaml(BuiltinScenarioYaml());
    size_t start = text->find('\n') + 1;  // past the "# The article's ..." header
    std::string body = text->substr(start);
    std::string indented = "      ";
    for (char c : body.substr(0, body.size() - 1)) {
      indented += c;
      if (c == '\n') indented += "      ";
    }
    EXPECT_NE(yaml.find(indented), std::string::npos) << file;
  }
}

TEST(ScenarioFiles, ShippedExamplesParse) {
  for (const char* file : {"happy-path.yaml", "spot-ice.yaml"}) {
    absl::StatusOr<Scenario> scenario =
        LoadScenarioFile(std::string(KP_SOURCE_DIR) + "/examples/sim/" + file);
    EXPECT_TRUE(scenario.ok()) << file << ": " << scenario.status();
  }
}

}  // namespace
}  // namespace karpenter::sim
