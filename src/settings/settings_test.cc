#include "src/settings/settings.h"

#include <map>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace karpenter::settings {
namespace {

using Env = std::map<std::string, std::string>;

absl::StatusOr<Settings> ParseWith(Env env, std::vector<std::string> args = {}) {
  if (!env.contains("CLUSTER_NAME")) env["CLUSTER_NAME"] = "test";
  return Parse(env, args);
}

std::string ErrorOf(Env env, std::vector<std::string> args = {}) {
  absl::StatusOr<Settings> parsed = ParseWith(std::move(env), std::move(args));
  EXPECT_FALSE(parsed.ok());
  return parsed.ok() ? "" : std::string(parsed.status().message());
}

TEST(Settings, DefaultsAreUpstreams) {
  absl::StatusOr<Settings> s = ParseWith({});
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->metrics_port, 8080);
  EXPECT_EQ(s->health_probe_port, 8081);
  EXPECT_EQ(s->kube_client_qps, 200);
  EXPECT_EQ(s->kube_client_burst, 300);
  EXPECT_EQ(s->batch_max_duration, api::Duration::FromSeconds(10));
  EXPECT_EQ(s->batch_idle_duration, api::Duration::FromSeconds(1));
  EXPECT_EQ(s->log_level, "info");
  EXPECT_EQ(s->leader_election_name, "karpenter-leader-election");
  EXPECT_TRUE(s->disable_controller_warmup);
  EXPECT_TRUE(s->ignore_dra_requests);
  EXPECT_DOUBLE_EQ(s->vm_memory_overhead_percent, 0.075);
  EXPECT_EQ(s->interruption_queue, "");
  const FeatureGates defaults{.reserved_capacity = true};
  EXPECT_EQ(s->feature_gates, defaults);
}

TEST(Settings, VariablesAndFlagsAreReadAndAFlagWins) {
  absl::StatusOr<Settings> s =
      ParseWith({{"BATCH_IDLE_DURATION", "2s"},
                 {"METRICS_PORT", "9000"},
                 {"INTERRUPTION_QUEUE", "karpenter-demo"},
                 {"DISABLE_LEADER_ELECTION", "1"},
                 {"FEATURE_GATES", "SpotToSpotConsolidation=true"}},
                {"--metrics-port=9100", "-batch-max-duration", "30s", "--isolated-vpc",
                 "--aws-feature-gates", "NodeClassCEL=true"});
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->batch_idle_duration, api::Duration::FromSeconds(2));
  EXPECT_EQ(s->batch_max_duration, api::Duration::FromSeconds(30));
  EXPECT_EQ(s->metrics_port, 9100);
  EXPECT_EQ(s->interruption_queue, "karpenter-demo");
  EXPECT_TRUE(s->disable_leader_election);
  EXPECT_TRUE(s->isolated_vpc);
  EXPECT_TRUE(s->feature_gates.spot_to_spot_consolidation);
  EXPECT_TRUE(s->feature_gates.node_class_cel);
  EXPECT_TRUE(s->feature_gates.reserved_capacity);
}

TEST(Settings, TheFlagsGateListReplacesTheVariables) {
  absl::StatusOr<Settings> s = ParseWith({{"FEATURE_GATES", "NodeRepair=true"}},
                                         {"--feature-gates=SpotToSpotConsolidation=true"});
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_FALSE(s->feature_gates.node_repair);
  EXPECT_TRUE(s->feature_gates.spot_to_spot_consolidation);
}

TEST(Settings, UnknownGatesAreIgnoredMalformedOnesAreNot) {
  EXPECT_TRUE(ParseWith({{"FEATURE_GATES", "SomethingNew=true, NodeRepair = true"}}).ok());
  EXPECT_EQ(ErrorOf({{"FEATURE_GATES", "NodeRepair"}}),
            "FEATURE_GATES: missing bool value for NodeRepair");
  EXPECT_EQ(ErrorOf({{"FEATURE_GATES", "NodeRepair=maybe"}}),
            "FEATURE_GATES: invalid value of NodeRepair: \"maybe\" is not true or false");
}

TEST(Settings, EveryBadValueNamesItsVariableOrFlag) {
  EXPECT_EQ(ErrorOf({{"CLUSTER_NAME", ""}}),
            "missing field, cluster-name (set CLUSTER_NAME or --cluster-name)");
  EXPECT_EQ(ErrorOf({{"LOG_LEVEL", "verbose"}}), "invalid LOG_LEVEL \"verbose\"");
  EXPECT_EQ(ErrorOf({{"PREFERENCE_POLICY", "Sometimes"}}),
            "invalid PREFERENCE_POLICY \"Sometimes\"");
  EXPECT_EQ(ErrorOf({{"MIN_VALUES_POLICY", "Loose"}}), "invalid MIN_VALUES_POLICY \"Loose\"");
  EXPECT_EQ(ErrorOf({{"METRICS_PORT", "80x"}}), "METRICS_PORT: \"80x\" is not an integer");
  EXPECT_EQ(ErrorOf({{"METRICS_PORT", "70000"}}), "METRICS_PORT: 70000 is out of range [0, 65535]");
  EXPECT_EQ(ErrorOf({{"KUBE_CLIENT_QPS", "0"}}),
            "KUBE_CLIENT_QPS: 0 is out of range [1, 9223372036854775807]");
  EXPECT_EQ(ErrorOf({{"BATCH_IDLE_DURATION", "1 second"}}),
            "BATCH_IDLE_DURATION: \"1 second\" is not a duration");
  EXPECT_EQ(ErrorOf({{"DISABLE_DRY_RUN", "yes"}}), "DISABLE_DRY_RUN: \"yes\" is not true or false");
  EXPECT_EQ(ErrorOf({{"VM_MEMORY_OVERHEAD_PERCENT", "-0.1"}}),
            "vm-memory-overhead-percent cannot be negative");
  EXPECT_EQ(ErrorOf({{"RESERVED_ENIS", "-1"}}), "reserved-enis cannot be negative");
  EXPECT_EQ(ErrorOf({{"AMI_REFRESH_INTERVAL", "30s"}}), "ami-refresh-interval must be at least 1m");
  EXPECT_EQ(ErrorOf({{"CLUSTER_ENDPOINT", "not a url"}}),
            "cluster endpoint URL is not valid: \"not a url\"");
  EXPECT_EQ(ErrorOf({}, {"--no-such-flag"}), "flag provided but not defined: -no-such-flag");
  EXPECT_EQ(ErrorOf({}, {"--cluster-name"}), "flag needs an argument: -cluster-name");
  EXPECT_EQ(ErrorOf({}, {"--isolated-vpc=1"}),
            "--isolated-vpc: \"1\" is not a valid value, must be true or false");
  EXPECT_EQ(ErrorOf({}, {"stray"}), "unexpected argument \"stray\"");
}

TEST(Settings, ValidEndpointsAndCpuRequestsFallBack) {
  absl::StatusOr<Settings> s =
      ParseWith({{"CLUSTER_ENDPOINT", "https://ABCD.gr7.us-east-1.eks.amazonaws.com"},
                 {"CPU_REQUESTS", "0"}});
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->cpu_requests, 1000);
  EXPECT_TRUE(ParseWith({{"CLUSTER_ENDPOINT", "https://[::1]:6443"}}).ok());
  EXPECT_FALSE(ParseWith({{"CLUSTER_ENDPOINT", "https://"}}).ok());
}

TEST(Settings, UsageListsEveryFlagWithItsVariable) {
  const std::string usage = Usage();
  for (const char* expected :
       {"--cluster-name (CLUSTER_NAME)", "--batch-idle-duration (BATCH_IDLE_DURATION)",
        "--interruption-queue (INTERRUPTION_QUEUE)",
        "--disable-leader-election (DISABLE_LEADER_ELECTION)"}) {
    EXPECT_NE(usage.find(expected), std::string::npos) << expected;
  }
}

}  // namespace
}  // namespace karpenter::settings
