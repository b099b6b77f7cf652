// NodePool and NodeClaim through the codec: YAML as users write it, decoded, defaulted and
// validated, and encoded back.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "src/api/json_codec.h"
#include "src/api/nodeclaim_validation.h"
#include "src/api/nodepool_test_util.h"
#include "src/api/nodepool_validation.h"
#include "src/api/yaml_to_json.h"

namespace karpenter::api {
namespace {

using np_test::ArticleNodePool;
using np_test::Dump;
using np_test::HasError;

struct Decoded {
  NodePool pool;
  DecodeReport report;
  FieldErrors errors;  // decode errors, then validation
};

Decoded DecodePool(std::string_view yaml) {
  Decoded out;
  absl::StatusOr<std::vector<JsonDocument>> docs = YamlToJson(yaml);
  EXPECT_TRUE(docs.ok()) << docs.status();
  if (!docs.ok() || docs->size() != 1) return out;
  EXPECT_TRUE(DecodeJsonText((*docs)[0].json, out.pool, out.report).ok());
  ApplyDefaults(out.pool);
  out.errors.Append(out.report.errors);
  // As ValidateManifest: a field that did not decode is reported once, by its decode error.
  FieldErrors rules;
  ValidateNodePool(out.pool, &rules);
  for (const FieldError& error : rules.errors()) {
    if (!out.report.errors.Contains(error.path)) out.errors.Add(error.path, error.message);
  }
  return out;
}

std::string ReadArticlePool() {
  std::ifstream in(std::string(KP_SOURCE_DIR) + "/examples/article/nodepool.yaml");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

constexpr std::string_view kMinimalPool = R"(
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: minimal
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
      requirements: []
)";

TEST(NodePoolDecode, ArticleYamlDecodesToTheArticlePoolWithNoErrors) {
  const std::string yaml = ReadArticlePool();
  ASSERT_FALSE(yaml.empty());
  Decoded decoded = DecodePool(yaml);
  EXPECT_TRUE(decoded.report.unknown_fields.empty());
  EXPECT_TRUE(decoded.errors.empty()) << Dump(decoded.errors);
  EXPECT_EQ(decoded.pool, ArticleNodePool());
}

TEST(NodePoolDecode, EncodingRoundTripsAndKeepsDurationsAsWritten) {
  Decoded first = DecodePool(ReadArticlePool());
  const std::string json = EncodeJson(first.pool);
  EXPECT_NE(json.find("\"expireAfter\":\"720h\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"consolidateAfter\":\"1m\""), std::string::npos) << json;
  NodePool second;
  DecodeReport report;
  ASSERT_TRUE(DecodeJsonText(json, second, report).ok());
  EXPECT_TRUE(report.errors.empty());
  EXPECT_TRUE(report.unknown_fields.empty());
  EXPECT_EQ(second, first.pool);
  EXPECT_EQ(EncodeJson(second), json);
}

TEST(NodePoolDecode, AbsentDisruptionAndExpireAfterAreDefaulted) {
  Decoded decoded = DecodePool(kMinimalPool);
  EXPECT_TRUE(decoded.errors.empty()) << Dump(decoded.errors);
  ASSERT_TRUE(decoded.pool.spec.disruption.has_value());
  EXPECT_EQ(decoded.pool.spec.disruption->consolidate_after->ToString(), "0s");
  EXPECT_EQ(decoded.pool.spec.disruption->consolidation_policy, "WhenEmptyOrUnderutilized");
  EXPECT_EQ(decoded.pool.spec.disruption->budgets->at(0).nodes, "10%");
  EXPECT_EQ(decoded.pool.spec.template_.spec.expire_after->ToString(), "720h");
}

TEST(NodePoolDecode, PresenceOfOptionalFieldsSurvivesDecoding) {
  Decoded decoded = DecodePool(std::string(kMinimalPool) + R"(
      expireAfter: Never
  disruption:
    consolidationPolicy: WhenEmpty
    budgets: []
)");
  EXPECT_TRUE(decoded.pool.spec.template_.spec.expire_after->IsNever());
  EXPECT_TRUE(decoded.pool.spec.disruption->budgets->empty());
  EXPECT_TRUE(HasError(decoded.errors, "spec.disruption.consolidateAfter", "Required value"))
      << Dump(decoded.errors);
  EXPECT_EQ(decoded.errors.size(), 1u) << Dump(decoded.errors);
}

TEST(NodePoolDecode, BudgetFieldsDecodeWithTheirPresence) {
  Decoded decoded = DecodePool(std::string(kMinimalPool) + R"(
  disruption:
    consolidateAfter: Never
    budgets:
      - reasons: [Drifted]
      - nodes: "0"
        schedule: "0 9 * * mon-fri"
        duration: 8h
  weight: 10
)");
  EXPECT_TRUE(decoded.errors.empty()) << Dump(decoded.errors);
  const std::vector<Budget>& budgets = *decoded.pool.spec.disruption->budgets;
  ASSERT_EQ(budgets.size(), 2u);
  EXPECT_EQ(budgets[0].nodes, "10%");
  EXPECT_FALSE(budgets[0].schedule.has_value());
  EXPECT_EQ(budgets[1].schedule, "0 9 * * mon-fri");
  EXPECT_EQ(budgets[1].duration, Duration::FromHours(8));
  EXPECT_EQ(decoded.pool.spec.weight, 10);
}

TEST(NodePoolDecode, WrongTypesAndUnknownFieldsAreReportedWithPaths) {
  Decoded decoded = DecodePool(std::string(kMinimalPool) + R"(
  weight: heavy
  replicas: 3
  unknownField: 1
)");
  EXPECT_TRUE(HasError(decoded.errors, "spec.weight", "must be of type integer"))
      << Dump(decoded.errors);
  ASSERT_EQ(decoded.report.unknown_fields.size(), 1u);
  EXPECT_EQ(decoded.report.unknown_fields[0], "spec.unknownField");
  EXPECT_EQ(decoded.pool.spec.replicas, 3);
}

// The API server matches a duration pattern against the text as written, before Go parses it.
std::string PoolWithDurations(std::string_view grace, std::string_view budget_duration) {
  return std::string(kMinimalPool) + "      terminationGracePeriod: " + std::string(grace) +
         "\n  disruption:\n    consolidateAfter: 1m\n    budgets:\n      - nodes: \"1\"\n" +
         "        schedule: \"@daily\"\n        duration: " + std::string(budget_duration) + "\n";
}

TEST(NodePoolDecode, DurationPatternsSeeTheTextAsWritten) {
  for (const char* bad : {"0.5h", "+5m", "1h1h", "90s", "1h30m0s0s"}) {
    Decoded decoded = DecodePool(PoolWithDurations("30s", bad));
    EXPECT_TRUE(HasError(decoded.errors, "spec.disruption.budgets[0].duration",
                         "Invalid value: \"" + std::string(bad) + "\": should match"))
        << bad << Dump(decoded.errors);
    EXPECT_EQ(decoded.errors.size(), 1u) << bad << Dump(decoded.errors);
  }
  for (const char* bad : {"0.5h", "+5m", "1.5s", "-1s"}) {
    Decoded decoded = DecodePool(PoolWithDurations(bad, "1h"));
    EXPECT_TRUE(HasError(decoded.errors, "spec.template.spec.terminationGracePeriod",
                         "Invalid value: \"" + std::string(bad) + "\": should match"))
        << bad << Dump(decoded.errors);
  }
  for (const char* ok : {"0h", "0m", "2h30m", "1h0s", "90m0s"}) {
    Decoded decoded = DecodePool(PoolWithDurations("1h1h", ok));
    EXPECT_TRUE(decoded.errors.empty()) << ok << Dump(decoded.errors);
  }
}

// Text that neither the pattern nor Go accepts is refused by the pattern first, as the API server
// does: "1d" is not reported as Go's unknown unit.
TEST(NodePoolDecode, UnparsableDurationsAreReportedByTheirPattern) {
  Decoded budget = DecodePool(PoolWithDurations("30s", "1d"));
  EXPECT_TRUE(HasError(budget.errors, "spec.disruption.budgets[0].duration",
                       "Invalid value: \"1d\": should match '^((([0-9]+(h|m))|([0-9]+h[0-9]+m))"
                       "(0s)?)$'"))
      << Dump(budget.errors);
  Decoded grace = DecodePool(PoolWithDurations("2w", "1h"));
  EXPECT_TRUE(HasError(grace.errors, "spec.template.spec.terminationGracePeriod",
                       "Invalid value: \"2w\": should match '^([0-9]+(s|m|h))+$'"))
      << Dump(grace.errors);
  Decoded expire = DecodePool(std::string(kMinimalPool) + "      expireAfter: 30d\n" +
                              "  disruption:\n    consolidateAfter: 1.5x\n");
  EXPECT_TRUE(HasError(expire.errors, "spec.template.spec.expireAfter",
                       "Invalid value: \"30d\": should match '^(([0-9]+(s|m|h))+|Never)$'"))
      << Dump(expire.errors);
  EXPECT_TRUE(HasError(expire.errors, "spec.disruption.consolidateAfter",
                       "Invalid value: \"1.5x\": should match '^(([0-9]+(s|m|h))+|Never)$'"))
      << Dump(expire.errors);
  for (const Decoded* decoded : {&budget, &grace, &expire}) {
    for (const FieldError& error : decoded->errors.errors()) {
      EXPECT_EQ(error.message.find("unknown unit"), std::string::npos) << error.message;
    }
  }
  // The pattern admits an hour count Go cannot hold: Go's reason stays.
  Decoded overflow = DecodePool(PoolWithDurations("99999999999999999999h", "1h"));
  EXPECT_TRUE(
      HasError(overflow.errors, "spec.template.spec.terminationGracePeriod", "invalid duration"))
      << Dump(overflow.errors);
}

TEST(NodePoolDecode, BudgetNodesWrittenEmptyIsRefusedNotDefaulted) {
  Decoded decoded = DecodePool(std::string(kMinimalPool) + R"(
  disruption:
    consolidateAfter: 1m
    budgets:
      - nodes: ""
)");
  EXPECT_TRUE(HasError(decoded.errors, "spec.disruption.budgets[0].nodes",
                       "Invalid value: \"\": should match"))
      << Dump(decoded.errors);
  EXPECT_EQ(decoded.pool.spec.disruption->budgets->at(0).nodes, "");
}

TEST(NodePoolDecode, MistypedValuesAreQuotedAsWrittenAndNotValidatedFurther) {
  Decoded decoded = DecodePool(std::string(kMinimalPool) + R"(      expireAfter: 10.5
  weight: 10.5
  replicas: 12345678901234567890123
  disruption:
    consolidateAfter: true
)");
  EXPECT_TRUE(HasError(decoded.errors, "spec.template.spec.expireAfter",
                       "Invalid value: 10.5: must be of type string"))
      << Dump(decoded.errors);
  EXPECT_TRUE(
      HasError(decoded.errors, "spec.weight", "Invalid value: 10.5: must be of type integer"))
      << Dump(decoded.errors);
  EXPECT_TRUE(HasError(decoded.errors, "spec.replicas",
                       "Invalid value: 12345678901234567890123: must fit in a 64-bit integer"))
      << Dump(decoded.errors);
  EXPECT_TRUE(HasError(decoded.errors, "spec.disruption.consolidateAfter",
                       "Invalid value: true: must be of type string"))
      << Dump(decoded.errors);
  // Nothing about a 0 or a default that the input never held.
  EXPECT_EQ(decoded.errors.size(), 4u) << Dump(decoded.errors);
  EXPECT_FALSE(decoded.pool.spec.weight.has_value());
}

TEST(NodePoolDecode, JsonNumbersPastTheirTypeAreFieldErrorsQuotedAsWritten) {
  NodePool pool;
  DecodeReport report;
  ASSERT_TRUE(DecodeJsonText(R"({"spec":{"weight":-99999999999999999999999,"replicas":1e400}})",
                             pool, report)
                  .ok());
  EXPECT_TRUE(HasError(report.errors, "spec.weight",
                       "Invalid value: -99999999999999999999999: must fit in a 64-bit integer"))
      << Dump(report.errors);
  EXPECT_TRUE(HasError(report.errors, "spec.replicas", "Invalid value: 1e400: must fit"))
      << Dump(report.errors);
}

TEST(NodeClaimDecode, ClaimYamlDecodesAndValidates) {
  constexpr std::string_view kClaim = R"(
apiVersion: karpenter.sh/v1
kind: NodeClaim
metadata:
  generateName: default-
spec:
  nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
  requirements:
    - {key: karpenter.sh/nodepool, operator: In, values: [default]}
    - {key: node.kubernetes.io/instance-type, operator: In, values: [m5.large, m5.xlarge], minValues: 2}
  resources:
    requests: {cpu: 500m, memory: 512Mi}
  terminationGracePeriod: 1h
status:
  nodeName: ip-10-0-0-1.ec2.internal
  providerID: aws:///us-west-2a/i-0123456789abcdef0
  capacity: {cpu: "2", memory: 8Gi}
  conditions:
    - {type: Launched, status: "True", lastTransitionTime: "2024-06-01T10:00:00Z"}
  lastPodEventTime: "2024-06-01T10:05:00Z"
)";
  absl::StatusOr<std::vector<JsonDocument>> docs = YamlToJson(kClaim);
  ASSERT_TRUE(docs.ok()) << docs.status();
  NodeClaim claim;
  DecodeReport report;
  ASSERT_TRUE(DecodeJsonText((*docs)[0].json, claim, report).ok());
  EXPECT_TRUE(report.errors.empty()) << Dump(report.errors);
  EXPECT_TRUE(report.unknown_fields.empty());
  ApplyDefaults(claim);
  FieldErrors errors;
  ValidateNodeClaim(claim, &errors);
  EXPECT_TRUE(errors.empty()) << Dump(errors);
  EXPECT_EQ(claim.spec.requirements[1].min_values, 2);
  EXPECT_EQ(claim.spec.expire_after->ToString(), "720h");
  EXPECT_EQ(claim.spec.termination_grace_period, Duration::FromHours(1));
  EXPECT_EQ(claim.status.capacity.at("memory"), *Quantity::Parse("8Gi"));
  EXPECT_EQ(claim.status.last_pod_event_time->Rfc3339(), "2024-06-01T10:05:00Z");
}

}  // namespace
}  // namespace karpenter::api
