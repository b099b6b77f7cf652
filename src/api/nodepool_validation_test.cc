#include "src/api/nodepool_validation.h"

#include <gtest/gtest.h>

#include <random>
#include <regex>
#include <string>
#include <vector>

#include "src/api/karpenter_labels.h"
#include "src/api/nodepool_test_util.h"

namespace karpenter::api {
namespace {

using np_test::ArticleNodePool;
using np_test::Dump;
using np_test::HasError;
using np_test::MustDuration;
using np_test::MustNillable;

constexpr std::string_view kReq = "spec.template.spec.requirements";

FieldErrors Validate(const NodePool& pool) {
  FieldErrors errors;
  ValidateNodePool(pool, &errors);
  return errors;
}

FieldErrors Admission(const NodePool& pool) {
  FieldErrors errors;
  ValidateNodePoolAdmission(pool, &errors);
  return errors;
}

FieldErrors Runtime(const NodePool& pool) {
  FieldErrors errors;
  RuntimeValidateNodePool(pool, &errors);
  return errors;
}

NodePool WithRequirement(NodeSelectorRequirementWithMinValues requirement) {
  NodePool pool = ArticleNodePool();
  pool.spec.template_.spec.requirements = {std::move(requirement)};
  return pool;
}

NodePool WithLabel(const std::string& key, const std::string& value) {
  NodePool pool = ArticleNodePool();
  pool.spec.template_.metadata.labels[key] = value;
  return pool;
}

Budget ScheduledBudget(std::string schedule, std::string_view duration) {
  return Budget{.nodes = "10", .schedule = std::move(schedule), .duration = MustDuration(duration)};
}

NodePool WithBudgets(std::vector<Budget> budgets) {
  NodePool pool = ArticleNodePool();
  pool.spec.disruption->budgets = std::move(budgets);
  return pool;
}

#define EXPECT_ERROR(errors, path, substring) \
  EXPECT_TRUE(HasError(errors, path, substring)) << "want " << (path) << Dump(errors)

TEST(NodePoolValidation, ArticleNodePoolHasNoErrors) {
  FieldErrors errors = Validate(ArticleNodePool());
  EXPECT_TRUE(errors.empty()) << Dump(errors);
}

TEST(NodePoolValidation, UnsupportedOperatorIsReportedOnce) {
  FieldErrors errors = Validate(WithRequirement({.key = "kubernetes.io/arch", .operator_ = "Foo"}));
  EXPECT_ERROR(errors, "spec.template.spec.requirements[0].operator",
               "Unsupported value: \"Foo\": supported values: \"In\", \"NotIn\"");
  EXPECT_EQ(errors.size(), 1u) << Dump(errors);
}

TEST(NodePoolValidation, MissingOperatorIsRequired) {
  FieldErrors errors = Validate(WithRequirement({.key = "kubernetes.io/arch"}));
  EXPECT_ERROR(errors, "spec.template.spec.requirements[0].operator", "Required value");
}

TEST(NodePoolValidation, InWithoutValuesIsRejectedOnce) {
  FieldErrors errors =
      Validate(WithRequirement({.key = "karpenter.sh/capacity-type", .operator_ = "In"}));
  EXPECT_ERROR(errors, "spec.template.spec.requirements[0].values",
               "requirements with operator 'In' must have a value defined");
  EXPECT_EQ(errors.size(), 1u) << Dump(errors);
}

TEST(NodePoolValidation, ComparisonOperatorsNeedOneNonNegativeInteger) {
  for (const char* op : {"Gt", "Lt", "Gte", "Lte"}) {
    for (const std::vector<std::string>& values : std::vector<std::vector<std::string>>{
             {}, {"1", "2"}, {"a"}, {"-1"}, {"1.5"}, {"+-1"}, {"99999999999999999999"}}) {
      FieldErrors errors = Validate(WithRequirement(
          {.key = "topology.kubernetes.io/zone", .operator_ = op, .values = values}));
      EXPECT_ERROR(errors, "spec.template.spec.requirements[0].values",
                   "must have a single positive integer value");
    }
    for (const char* ok : {"0", "5"}) {
      FieldErrors errors = Validate(
          WithRequirement({.key = "topology.kubernetes.io/zone", .operator_ = op, .values = {ok}}));
      EXPECT_TRUE(errors.empty()) << op << " " << ok << Dump(errors);
    }
    // CEL's int() takes a sign, but "+5" is not a label value, which the runtime layer checks.
    NodePool signed_value =
        WithRequirement({.key = "topology.kubernetes.io/zone", .operator_ = op, .values = {"+5"}});
    EXPECT_TRUE(Admission(signed_value).empty()) << Dump(Admission(signed_value));
    EXPECT_ERROR(Validate(signed_value), "spec.template.spec.requirements[0].values[0]",
                 "a valid label must be");
    EXPECT_EQ(Validate(signed_value).size(), 1u);
  }
}

TEST(NodePoolValidation, MinValuesMustBeBetweenOneAndFifty) {
  const std::string path = std::string(kReq) + "[0].minValues";
  FieldErrors zero = Validate(WithRequirement({.key = "node.kubernetes.io/instance-type",
                                               .operator_ = "In",
                                               .values = {"a"},
                                               .min_values = 0}));
  EXPECT_ERROR(zero, path, "should be greater than or equal to 1");
  FieldErrors negative = Validate(WithRequirement({.key = "node.kubernetes.io/instance-type",
                                                   .operator_ = "In",
                                                   .values = {"a"},
                                                   .min_values = -1}));
  EXPECT_ERROR(negative, path, "should be greater than or equal to 1");
  FieldErrors big = Validate(WithRequirement(
      {.key = "node.kubernetes.io/instance-type", .operator_ = "Exists", .min_values = 51}));
  EXPECT_ERROR(big, path, "should be less than or equal to 50");
  EXPECT_EQ(big.size(), 1u) << Dump(big);
}

TEST(NodePoolValidation, InWithMinValuesNeedsThatManyValues) {
  FieldErrors errors = Validate(WithRequirement({.key = "node.kubernetes.io/instance-type",
                                                 .operator_ = "In",
                                                 .values = {"m5.large"},
                                                 .min_values = 2}));
  EXPECT_ERROR(errors, "spec.template.spec.requirements[0].minValues",
               "must have at least that many values specified in the 'values' field");
  EXPECT_EQ(errors.size(), 1u) << Dump(errors);
}

TEST(NodePoolValidation, ManyValuesWithoutMinValuesAreFine) {
  NodeSelectorRequirementWithMinValues requirement{.key = "node.kubernetes.io/instance-type",
                                                   .operator_ = "In"};
  for (int i = 0; i < 90; ++i) requirement.values.push_back("instance" + std::to_string(i));
  FieldErrors errors = Validate(WithRequirement(requirement));
  EXPECT_TRUE(errors.empty()) << Dump(errors);
}

TEST(NodePoolValidation, RequirementKeyLongerThan316IsTooLong) {
  std::string key = "example.com/" + std::string(305, 'a');
  FieldErrors errors = Admission(WithRequirement({.key = key, .operator_ = "Exists"}));
  EXPECT_ERROR(errors, "spec.template.spec.requirements[0].key",
               "Too long: may not be longer than 316");
}

TEST(NodePoolValidation, RequirementKeyMustBeAQualifiedName) {
  for (const char* key :
       {"test.com.com}", "Test.com/test", "test/test/test", "test/", "/test", "spaces are bad"}) {
    FieldErrors admission = Admission(WithRequirement({.key = key, .operator_ = "Exists"}));
    EXPECT_ERROR(admission, "spec.template.spec.requirements[0].key", "should match");
    FieldErrors all = Validate(WithRequirement({.key = key, .operator_ = "Exists"}));
    EXPECT_ERROR(all, "spec.template.spec.requirements[0].key", "Invalid value");
  }
  for (const char* key : {"Test", "test.com/Test", "test.com.com/test", "key-only"}) {
    FieldErrors errors = Validate(WithRequirement({.key = key, .operator_ = "Exists"}));
    EXPECT_TRUE(errors.empty()) << key << Dump(errors);
  }
}

TEST(NodePoolValidation, OverlongKeyPartsFailOnlyAtRuntime) {
  const std::string long_prefix = "test.com.test." + std::string(250, 'a') + "/test";
  const std::string long_name = "test.com.test/test-" + std::string(250, 'a');
  for (const std::string& key : {long_prefix, long_name}) {
    NodePool pool = WithRequirement({.key = key, .operator_ = "Exists"});
    EXPECT_TRUE(Admission(pool).empty()) << Dump(Admission(pool));
    EXPECT_ERROR(Runtime(pool), "spec.template.spec.requirements[0].key", "must be no more than");
  }
}

TEST(NodePoolValidation, RestrictedRequirementKeysAreRejected) {
  struct Case {
    const char* key;
    const char* message;
  };
  for (const Case& c :
       {Case{"karpenter.sh/nodepool", "label \"karpenter.sh/nodepool\" is restricted"},
        Case{"kubernetes.io/hostname", "label \"kubernetes.io/hostname\" is restricted"},
        Case{"karpenter.sh/foo", "label domain \"karpenter.sh\" is restricted"},
        Case{"sub.karpenter.sh/foo", "label domain \"karpenter.sh\" is restricted"},
        Case{"karpenter.k8s.aws/not-allowed",
             "label domain \"karpenter.k8s.aws\" is restricted"}}) {
    FieldErrors errors = Validate(WithRequirement({.key = c.key, .operator_ = "Exists"}));
    EXPECT_ERROR(errors, "spec.template.spec.requirements[0].key", c.message);
    EXPECT_EQ(errors.size(), 1u) << c.key << Dump(errors);
  }
}

TEST(NodePoolValidation, AdmissionAndRuntimeDisagreeAtTheEdgesOfRestrictedDomains) {
  // Allowed by the CRD's AWS allow-list, but not a well-known label at runtime.
  NodePool nodeclass =
      WithRequirement({.key = "karpenter.k8s.aws/ec2nodeclass", .operator_ = "Exists"});
  EXPECT_TRUE(Admission(nodeclass).empty()) << Dump(Admission(nodeclass));
  EXPECT_ERROR(Runtime(nodeclass), "spec.template.spec.requirements[0].key", "is not allowed");
  // The CRD's suffix test catches a look-alike domain the runtime test lets through.
  NodePool lookalike = WithRequirement({.key = "xkarpenter.sh/a", .operator_ = "Exists"});
  EXPECT_ERROR(Admission(lookalike), "spec.template.spec.requirements[0].key", "is restricted");
  EXPECT_TRUE(Runtime(lookalike).empty()) << Dump(Runtime(lookalike));
  // The runtime check of the nodepool key stands alone when only runtime rules run.
  NodePool nodepool =
      WithRequirement({.key = "karpenter.sh/nodepool", .operator_ = "In", .values = {"a"}});
  EXPECT_ERROR(Runtime(nodepool), "spec.template.spec.requirements[0].key", "is restricted");
}

TEST(NodePoolValidation, KubernetesDomainsAndWellKnownLabelsAreAllowed) {
  for (const char* key : {"kubernetes.io/test", "k8s.io/test", "subdomain.kubernetes.io/test",
                          "subdomain.k8s.io/test", "beta.kubernetes.io/arch",
                          "failure-domain.beta.kubernetes.io/zone"}) {
    FieldErrors errors =
        Validate(WithRequirement({.key = key, .operator_ = "In", .values = {"test"}}));
    EXPECT_TRUE(errors.empty()) << key << Dump(errors);
  }
  for (std::string_view key : WellKnownLabels()) {
    if (key == kNodePoolLabelKey || !WellKnownValuesFor(key).empty()) continue;
    FieldErrors errors =
        Validate(WithRequirement({.key = std::string(key), .operator_ = "In", .values = {"test"}}));
    EXPECT_TRUE(errors.empty()) << key << Dump(errors);
  }
}

TEST(NodePoolValidation, RequirementValuesMustBeLabelValuesAtRuntime) {
  NodePool pool = WithRequirement(
      {.key = "topology.kubernetes.io/zone", .operator_ = "In", .values = {"ok", "not ok"}});
  EXPECT_TRUE(Admission(pool).empty()) << Dump(Admission(pool));
  EXPECT_ERROR(Validate(pool), "spec.template.spec.requirements[0].values[1]",
               "Invalid value: \"not ok\"");
  NodePool too_long = WithRequirement(
      {.key = "topology.kubernetes.io/zone", .operator_ = "In", .values = {std::string(64, 'a')}});
  EXPECT_ERROR(Validate(too_long), "spec.template.spec.requirements[0].values[0]",
               "must be no more than 63 characters");
}

TEST(NodePoolValidation, CapacityTypeInNeedsAKnownValue) {
  FieldErrors only_bad = Validate(WithRequirement(
      {.key = "karpenter.sh/capacity-type", .operator_ = "In", .values = {"xspot"}}));
  EXPECT_ERROR(only_bad, "spec.template.spec.requirements[0].values",
               "no valid values found for key \"karpenter.sh/capacity-type\"");
  FieldErrors mixed = Validate(WithRequirement(
      {.key = "karpenter.sh/capacity-type", .operator_ = "In", .values = {"on-demand", "xspot"}}));
  EXPECT_TRUE(mixed.empty()) << Dump(mixed);
  FieldErrors not_in = Validate(WithRequirement(
      {.key = "karpenter.sh/capacity-type", .operator_ = "NotIn", .values = {"xspot"}}));
  EXPECT_TRUE(not_in.empty()) << Dump(not_in);
  FieldErrors too_few = Validate(WithRequirement({.key = "karpenter.sh/capacity-type",
                                                  .operator_ = "In",
                                                  .values = {"spot", "xspot"},
                                                  .min_values = 2}));
  EXPECT_ERROR(too_few, "spec.template.spec.requirements[0].values", "not enough valid values");
}

TEST(NodePoolValidation, InstanceTenancyInNeedsAKnownValue) {
  FieldErrors bad = Validate(WithRequirement(
      {.key = "karpenter.k8s.aws/instance-tenancy", .operator_ = "In", .values = {"xdedicated"}}));
  EXPECT_ERROR(bad, "spec.template.spec.requirements[0].values", "expected one of: \"dedicated\"");
  FieldErrors good = Validate(WithRequirement({.key = "karpenter.k8s.aws/instance-tenancy",
                                               .operator_ = "In",
                                               .values = {"default", "xdedicated"}}));
  EXPECT_TRUE(good.empty()) << Dump(good);
}

TEST(NodePoolValidation, AtMostOneHundredRequirements) {
  NodePool pool = ArticleNodePool();
  for (int i = 0; i < 101; ++i) {
    pool.spec.template_.spec.requirements.push_back(
        {.key = "example.com/k" + std::to_string(i), .operator_ = "Exists"});
  }
  EXPECT_ERROR(Validate(pool), std::string(kReq), "Too many: 105: must have at most 100 items");
}

TEST(NodePoolValidation, EmptyRequirementsAreAllowed) {
  NodePool pool = ArticleNodePool();
  pool.spec.template_.spec.requirements.clear();
  EXPECT_TRUE(Validate(pool).empty()) << Dump(Validate(pool));
}

TEST(NodePoolValidation, TemplateLabelValuesFollowTheLabelValueRules) {
  FieldErrors too_long = Validate(WithLabel("team", std::string(64, 'a')));
  EXPECT_ERROR(too_long, "spec.template.metadata.labels[team]",
               "Too long: may not be longer than 63");
  EXPECT_EQ(too_long.size(), 1u) << Dump(too_long);
  FieldErrors bad = Validate(WithLabel("team", "/ is not allowed"));
  EXPECT_ERROR(bad, "spec.template.metadata.labels[team]", "Invalid value: \"/ is not allowed\"");
  EXPECT_EQ(bad.size(), 1u) << Dump(bad);
  FieldErrors runtime_only = Runtime(WithLabel("team", "/ is not allowed"));
  EXPECT_ERROR(runtime_only, "spec.template.metadata.labels[team]", "a valid label must be");
}

TEST(NodePoolValidation, TemplateLabelKeysMustBeQualifiedNamesAtRuntime) {
  NodePool pool = WithLabel("spaces are not allowed", "x");
  EXPECT_TRUE(Admission(pool).empty()) << Dump(Admission(pool));
  EXPECT_ERROR(Validate(pool), "spec.template.metadata.labels[spaces are not allowed]",
               "Invalid value: \"spaces are not allowed\"");
  NodePool long_prefix = WithLabel("test.com.test." + std::string(250, 'a') + "/test", "x");
  EXPECT_FALSE(Runtime(long_prefix).empty());
}

TEST(NodePoolValidation, RestrictedTemplateLabelsAreRejectedOnce) {
  struct Case {
    const char* key;
    const char* message;
  };
  for (const Case& c :
       {Case{"karpenter.sh/nodepool", "label \"karpenter.sh/nodepool\" is restricted"},
        Case{"kubernetes.io/hostname", "label \"kubernetes.io/hostname\" is restricted"},
        Case{"karpenter.sh/foo", "label domain \"karpenter.sh\" is restricted"},
        Case{"karpenter.k8s.aws/not-allowed",
             "label domain \"karpenter.k8s.aws\" is restricted"}}) {
    FieldErrors errors = Validate(WithLabel(c.key, "x"));
    EXPECT_ERROR(errors, "spec.template.metadata.labels[" + std::string(c.key) + "]", c.message);
    EXPECT_EQ(errors.size(), 1u) << c.key << Dump(errors);
  }
  EXPECT_ERROR(Runtime(WithLabel("karpenter.sh/nodepool", "x")),
               "spec.template.metadata.labels[karpenter.sh/nodepool]", "is restricted");
}

TEST(NodePoolValidation, AllowedTemplateLabels) {
  for (const char* key : {"kops.k8s.io/instancegroup", "kubernetes.io", "k8s.io",
                          "kubernetes.io/key", "subdomain.k8s.io/key", "karpenter.sh/capacity-type",
                          "karpenter.k8s.aws/instance-family", "topology.kubernetes.io/zone"}) {
    FieldErrors errors = Validate(WithLabel(key, "test-value"));
    EXPECT_TRUE(errors.empty()) << key << Dump(errors);
  }
}

TEST(NodePoolValidation, AtMostOneHundredTemplateLabels) {
  NodePool pool = ArticleNodePool();
  for (int i = 0; i < 101; ++i) pool.spec.template_.metadata.labels["k" + std::to_string(i)] = "v";
  EXPECT_ERROR(Validate(pool), "spec.template.metadata.labels", "Too many: 101");
}

NodePool WithTaints(std::vector<Taint> taints, std::vector<Taint> startup = {}) {
  NodePool pool = ArticleNodePool();
  pool.spec.template_.spec.taints = std::move(taints);
  pool.spec.template_.spec.startup_taints = std::move(startup);
  return pool;
}

TEST(NodePoolValidation, ValidTaintsPass) {
  FieldErrors errors =
      Validate(WithTaints({{.key = "a", .value = "b", .effect = "NoSchedule"},
                           {.key = "c", .value = "d", .effect = "NoExecute"},
                           {.key = "Test", .value = "f", .effect = "PreferNoSchedule"},
                           {.key = "test.com/Test", .effect = "PreferNoSchedule"},
                           {.key = "key-only", .effect = "NoExecute"},
                           {.key = "a", .effect = "NoExecute"}}));
  EXPECT_TRUE(errors.empty()) << Dump(errors);
}

TEST(NodePoolValidation, TaintEffectMustBeKnown) {
  FieldErrors errors = Validate(WithTaints({{.key = "a", .effect = "???"}}));
  EXPECT_ERROR(errors, "spec.template.spec.taints[0].effect",
               "Unsupported value: \"???\": supported values: \"NoSchedule\", "
               "\"PreferNoSchedule\", \"NoExecute\"");
  FieldErrors missing = Validate(WithTaints({}, {{.key = "a"}}));
  EXPECT_ERROR(missing, "spec.template.spec.startupTaints[0].effect", "Required value");
  EXPECT_TRUE(Runtime(WithTaints({{.key = "a"}})).empty());
}

TEST(NodePoolValidation, TaintKeyAndValueMustBeQualifiedNames) {
  EXPECT_ERROR(Validate(WithTaints({{.effect = "NoSchedule"}})), "spec.template.spec.taints[0].key",
               "Required value");
  for (const char* key : {"test.com.com}", "Test.com/test", "test/test/test", "test/", "/test"}) {
    EXPECT_ERROR(Validate(WithTaints({{.key = key, .effect = "NoSchedule"}})),
                 "spec.template.spec.taints[0].key", "Invalid value");
  }
  EXPECT_ERROR(Validate(WithTaints({{.key = "k", .value = "???", .effect = "NoSchedule"}})),
               "spec.template.spec.taints[0].value", "Invalid value: \"???\"");
  NodePool long_key =
      WithTaints({{.key = "test.com.test/test-" + std::string(250, 'a'), .effect = "NoSchedule"}});
  EXPECT_TRUE(Admission(long_key).empty());
  EXPECT_ERROR(Runtime(long_key), "spec.template.spec.taints[0].key", "must be no more than 63");
}

TEST(NodePoolValidation, DuplicateTaintKeyAndEffectAcrossListsIsRejected) {
  NodePool pool = WithTaints({{.key = "gpu", .value = "a", .effect = "NoSchedule"}},
                             {{.key = "gpu", .value = "b", .effect = "NoSchedule"}});
  EXPECT_ERROR(Validate(pool), "spec.template.spec.startupTaints[0]",
               "Duplicate value: taint key/effect pair \"gpu=NoSchedule\"");
  EXPECT_TRUE(Admission(pool).empty());
  NodePool same_list =
      WithTaints({{.key = "gpu", .effect = "NoSchedule"}, {.key = "gpu", .effect = "NoSchedule"}});
  EXPECT_ERROR(Validate(same_list), "spec.template.spec.taints[1]", "Duplicate value");
}

TEST(NodePoolValidation, NodeClassRefIsRequiredWithNonEmptyFields) {
  NodePool missing = ArticleNodePool();
  missing.spec.template_.spec.node_class_ref.reset();
  EXPECT_ERROR(Validate(missing), "spec.template.spec.nodeClassRef", "Required value");
  for (const char* field : {"group", "kind", "name"}) {
    NodePool pool = ArticleNodePool();
    NodeClassReference& ref = *pool.spec.template_.spec.node_class_ref;
    std::string& value = std::string_view(field) == "group"  ? ref.group
                         : std::string_view(field) == "kind" ? ref.kind
                                                             : ref.name;
    value.clear();
    EXPECT_ERROR(Validate(pool), "spec.template.spec.nodeClassRef." + std::string(field),
                 std::string(field) + " may not be empty");
  }
  NodePool slash = ArticleNodePool();
  slash.spec.template_.spec.node_class_ref->group = "karpenter.k8s.aws/v1";
  EXPECT_ERROR(Validate(slash), "spec.template.spec.nodeClassRef.group", "should match '^[^/]*$'");
}

TEST(NodePoolValidation, ExpireAfterFollowsItsPattern) {
  NodePool pool = ArticleNodePool();
  pool.spec.template_.spec.expire_after = MustNillable("1.5h");
  EXPECT_ERROR(Validate(pool), "spec.template.spec.expireAfter", "Invalid value: \"1.5h\"");
  for (const char* ok : {"Never", "30s", "1h30m5s"}) {
    pool.spec.template_.spec.expire_after = MustNillable(ok);
    EXPECT_TRUE(Validate(pool).empty()) << ok << Dump(Validate(pool));
  }
}

TEST(NodePoolValidation, TerminationGracePeriodFollowsItsPattern) {
  NodePool pool = ArticleNodePool();
  pool.spec.template_.spec.termination_grace_period = MustDuration("100ms");
  EXPECT_ERROR(Validate(pool), "spec.template.spec.terminationGracePeriod",
               "should match '^([0-9]+(s|m|h))+$'");
  pool.spec.template_.spec.termination_grace_period = MustDuration("1h30m5s");
  EXPECT_TRUE(Validate(pool).empty()) << Dump(Validate(pool));
}

TEST(NodePoolValidation, ConsolidationPolicyMustBeKnown) {
  for (const char* bad : {"WhenUnderutilized", "whenempty", "balanced", "1", "foo"}) {
    NodePool pool = ArticleNodePool();
    pool.spec.disruption->consolidation_policy = bad;
    EXPECT_ERROR(Validate(pool), "spec.disruption.consolidationPolicy",
                 "supported values: \"WhenEmpty\", \"WhenEmptyOrUnderutilized\", \"Balanced\"");
  }
  for (const char* ok : {"WhenEmpty", "WhenEmptyOrUnderutilized", "Balanced"}) {
    NodePool pool = ArticleNodePool();
    pool.spec.disruption->consolidation_policy = ok;
    EXPECT_TRUE(Validate(pool).empty()) << ok;
  }
}

TEST(NodePoolValidation, ConsolidateAfterIsRequiredInAPresentBlockAndFollowsItsPattern) {
  NodePool pool = ArticleNodePool();
  pool.spec.disruption->consolidate_after = MustNillable("1.5h");
  EXPECT_ERROR(Validate(pool), "spec.disruption.consolidateAfter", "Invalid value: \"1.5h\"");
  pool.spec.disruption->consolidate_after = MustNillable("Never");
  EXPECT_TRUE(Validate(pool).empty());
  pool.spec.disruption->consolidate_after.reset();
  EXPECT_ERROR(Validate(pool), "spec.disruption.consolidateAfter", "Required value");
}

TEST(NodePoolValidation, BudgetNodesFollowTheirPattern) {
  for (const char* bad : {"-10", "-10%", "1000%", "101%", "10.5", "%", "ten"}) {
    FieldErrors errors = Validate(WithBudgets({{.nodes = bad}}));
    EXPECT_ERROR(errors, "spec.disruption.budgets[0].nodes", "should match");
  }
  for (const char* ok : {"0", "5", "1000", "0%", "99%", "100%"}) {
    EXPECT_TRUE(Validate(WithBudgets({{.nodes = ok}})).empty()) << ok;
  }
}

TEST(NodePoolValidation, BudgetScheduleAndDurationComeTogether) {
  EXPECT_ERROR(Validate(WithBudgets({{.nodes = "10", .schedule = "* * * * *"}})),
               "spec.disruption.budgets[0].duration", "'schedule' must be set with 'duration'");
  EXPECT_ERROR(Validate(WithBudgets({{.nodes = "10", .duration = MustDuration("20m")}})),
               "spec.disruption.budgets[0].schedule", "'schedule' must be set with 'duration'");
  FieldErrors mixed = Validate(WithBudgets({{.nodes = "10", .duration = MustDuration("20m")},
                                            ScheduledBudget("* * * * *", "20m"),
                                            {.nodes = "10"}}));
  EXPECT_ERROR(mixed, "spec.disruption.budgets[0].schedule", "must be set with");
  EXPECT_EQ(mixed.size(), 1u) << Dump(mixed);
  EXPECT_TRUE(Validate(WithBudgets({ScheduledBudget("@annually", "20m"),
                                    ScheduledBudget("0 9 * * mon-fri", "8h"),
                                    ScheduledBudget("* * * * *", "2h20m")}))
                  .empty());
}

TEST(NodePoolValidation, BudgetDurationIsHoursAndMinutesOnly) {
  EXPECT_ERROR(Validate(WithBudgets({ScheduledBudget("* * * * *", "30s")})),
               "spec.disruption.budgets[0].duration", "Invalid value: \"30s\"");
}

TEST(NodePoolValidation, BudgetScheduleMustLookLikeCronAndParse) {
  for (const char* bad : {"*", "* * * * ", "@every 5m"}) {
    EXPECT_ERROR(Validate(WithBudgets({ScheduledBudget(bad, "20m")})),
                 "spec.disruption.budgets[0].schedule", "should match");
  }
  FieldErrors second =
      Validate(WithBudgets({ScheduledBudget("@annually", "20m"), ScheduledBudget("*", "20m")}));
  EXPECT_ERROR(second, "spec.disruption.budgets[1].schedule", "should match");
  EXPECT_ERROR(Validate(WithBudgets({ScheduledBudget("61 * * * *", "20m")})),
               "spec.disruption.budgets[0].schedule",
               "invalid cron schedule: end of range (61) above maximum (59)");
}

TEST(NodePoolValidation, BudgetReasonsAreADistinctSubsetOfTheKnownReasons) {
  for (const char* bad : {"invalid", "expired", ""}) {
    Budget budget = ScheduledBudget("* * * * *", "20m");
    budget.reasons = {bad};
    EXPECT_ERROR(Validate(WithBudgets({budget})), "spec.disruption.budgets[0].reasons[0]",
                 "supported values: \"Underutilized\", \"Empty\", \"Drifted\"");
  }
  Budget duplicate{.reasons = {"Drifted", "Empty", "Drifted"}, .nodes = "1"};
  EXPECT_ERROR(Validate(WithBudgets({duplicate})), "spec.disruption.budgets[0].reasons[2]",
               "Duplicate value: \"Drifted\"");
  Budget ok{.reasons = {"Drifted", "Empty", "Underutilized"}, .nodes = "1"};
  EXPECT_TRUE(Validate(WithBudgets({ok})).empty());
}

TEST(NodePoolValidation, AtMostFiftyBudgets) {
  EXPECT_ERROR(Validate(WithBudgets(std::vector<Budget>(51, Budget{.nodes = "1"}))),
               "spec.disruption.budgets", "Too many: 51: must have at most 50 items");
}

TEST(NodePoolValidation, WeightIsBetweenOneAndOneHundred) {
  NodePool pool = ArticleNodePool();
  pool.spec.weight = 0;
  EXPECT_ERROR(Validate(pool), "spec.weight", "should be greater than or equal to 1");
  pool.spec.weight = 101;
  EXPECT_ERROR(Validate(pool), "spec.weight", "should be less than or equal to 100");
  pool.spec.weight = 100;
  EXPECT_TRUE(Validate(pool).empty());
}

TEST(NodePoolValidation, StaticPoolsAllowOnlyANodesLimitAndNoWeight) {
  NodePool pool = ArticleNodePool();
  pool.spec.limits.clear();
  pool.spec.replicas = 5;
  EXPECT_TRUE(Validate(pool).empty()) << Dump(Validate(pool));
  pool.spec.limits["nodes"] = *Quantity::Parse("100");
  EXPECT_TRUE(Validate(pool).empty());
  pool.spec.limits["cpu"] = *Quantity::Parse("1000");
  EXPECT_ERROR(Validate(pool), "spec.limits",
               "only 'limits.nodes' is supported on static NodePools");
  pool.spec.limits.erase("cpu");
  pool.spec.weight = 25;
  EXPECT_ERROR(Validate(pool), "spec.weight", "'weight' is not supported on static NodePools");
  pool.spec.weight.reset();
  pool.spec.replicas = -100;
  EXPECT_ERROR(Validate(pool), "spec.replicas", "should be greater than or equal to 0");
  pool.spec.replicas = 0;
  EXPECT_TRUE(Validate(pool).empty());
}

Condition GoodCondition(std::string type) {
  return Condition{.type = std::move(type),
                   .status = "True",
                   .last_transition_time = Time{},
                   .reason = "Ready",
                   .message = ""};
}

TEST(NodePoolValidation, StatusConditionsFollowTheConditionSchema) {
  NodePool pool = ArticleNodePool();
  pool.status.conditions = {GoodCondition("Ready"), GoodCondition("ValidationSucceeded")};
  EXPECT_TRUE(Validate(pool).empty()) << Dump(Validate(pool));

  pool.status.conditions[0].reason = "not a reason!";
  EXPECT_ERROR(Validate(pool), "status.conditions[0].reason",
               "should match '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$'");
  pool.status.conditions[0].reason = "";
  EXPECT_ERROR(Validate(pool), "status.conditions[0].reason", "Required value");
  pool.status.conditions[0] = GoodCondition("Ready");
  pool.status.conditions[1].status = "Maybe";
  EXPECT_ERROR(Validate(pool), "status.conditions[1].status", "Unsupported value: \"Maybe\"");
  pool.status.conditions[1] = GoodCondition("Ready");
  EXPECT_ERROR(Validate(pool), "status.conditions[1].type", "Duplicate value: \"Ready\"");
  pool.status.conditions[1] = GoodCondition("bad type!");
  EXPECT_ERROR(Validate(pool), "status.conditions[1].type", "should match");
  pool.status.conditions[1] = GoodCondition("Other");
  pool.status.conditions[1].last_transition_time.reset();
  pool.status.conditions[1].observed_generation = -1;
  pool.status.conditions[1].message = std::string(32769, 'm');
  FieldErrors errors = Validate(pool);
  EXPECT_ERROR(errors, "status.conditions[1].lastTransitionTime", "Required value");
  EXPECT_ERROR(errors, "status.conditions[1].observedGeneration", "greater than or equal to 0");
  EXPECT_ERROR(errors, "status.conditions[1].message", "Too long: may not be longer than 32768");
}

TEST(NodePoolValidation, MetadataAndTypeMetaAreChecked) {
  NodePool pool = ArticleNodePool();
  pool.metadata.name = "Default_Pool";
  EXPECT_ERROR(Validate(pool), "metadata.name", "Invalid value: \"Default_Pool\"");
  pool.metadata.name.clear();
  EXPECT_ERROR(Validate(pool), "metadata.name", "Required value");
  pool.metadata.generate_name = "pool-";
  EXPECT_TRUE(Validate(pool).empty()) << Dump(Validate(pool));
  pool.metadata.labels["bad key!"] = "v";
  EXPECT_ERROR(Validate(pool), "metadata.labels[bad key!]", "Invalid value");
  pool = ArticleNodePool();
  pool.api_version = "karpenter.sh/v1beta1";
  pool.kind = "Provisioner";
  EXPECT_ERROR(Validate(pool), "apiVersion", "Unsupported value: \"karpenter.sh/v1beta1\"");
  EXPECT_ERROR(Validate(pool), "kind", "Unsupported value: \"Provisioner\"");
}

TEST(NodePoolValidation, RuntimeLayerSkipsAdmissionOnlyRules) {
  NodePool pool = ArticleNodePool();
  pool.spec.template_.spec.node_class_ref.reset();
  pool.spec.weight = 500;
  pool.metadata.name = "Bad_Name";
  EXPECT_TRUE(Runtime(pool).empty()) << Dump(Runtime(pool));
  EXPECT_EQ(Admission(pool).size(), 3u) << Dump(Admission(pool));
}

TEST(NodePoolValidation, SchedulePatternMatchesTheCrdRegex) {
  const std::regex crd(
      "^(@(annually|yearly|monthly|weekly|daily|midnight|hourly))|((.+)\\s(.+)\\s(.+)\\s(.+)\\s(.+)"
      ")$");
  const std::string alphabet = "a1* \t\n@";
  std::mt19937 rng(7);
  for (int i = 0; i < 20000; ++i) {
    std::string s;
    const size_t length = rng() % 12;
    for (size_t j = 0; j < length; ++j) s += alphabet[rng() % alphabet.size()];
    EXPECT_EQ(MatchesBudgetSchedulePattern(s), std::regex_search(s, crd)) << "[" << s << "]";
  }
  EXPECT_TRUE(MatchesBudgetSchedulePattern("@dailyfoo"));  // the first branch is a prefix test
  EXPECT_TRUE(MatchesBudgetSchedulePattern("a b c d\n e"));
  EXPECT_FALSE(MatchesBudgetSchedulePattern("a b c d e\n"));
}

}  // namespace
}  // namespace karpenter::api
