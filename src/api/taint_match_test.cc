#include "src/api/taint_match.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace karpenter::api {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

std::vector<std::string> Strings(const FieldErrors& errors) {
  std::vector<std::string> out;
  for (const FieldError& e : errors.errors()) out.push_back(e.ToString());
  return out;
}

Taint MakeTaint(std::string key, std::string value, std::string effect) {
  Taint t;
  t.key = std::move(key);
  t.value = std::move(value);
  t.effect = std::move(effect);
  return t;
}

Toleration MakeToleration(std::string key, std::string op, std::string value, std::string effect) {
  Toleration t;
  t.key = std::move(key);
  t.operator_ = std::move(op);
  t.value = std::move(value);
  t.effect = std::move(effect);
  return t;
}

const std::string kNameRegexMsg =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
    "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const std::string kValueRegexMsg =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or "
    "'my_value',  or '12345', regex used for validation is "
    "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

// --- ToleratesTaint ---

struct TolerateCase {
  std::string name;
  Toleration toleration;
  bool want;
};

TEST(ToleratesTaint, FollowsKubernetesSemantics) {
  const Taint taint = MakeTaint("dedicated", "gpu", "NoSchedule");
  const std::vector<TolerateCase> cases = {
      {"Equal with same key, value, effect",
       MakeToleration("dedicated", "Equal", "gpu", "NoSchedule"), true},
      {"empty operator means Equal", MakeToleration("dedicated", "", "gpu", "NoSchedule"), true},
      {"empty effect matches every effect", MakeToleration("dedicated", "Equal", "gpu", ""), true},
      {"Equal with other value", MakeToleration("dedicated", "Equal", "cpu", ""), false},
      {"Equal with empty value", MakeToleration("dedicated", "Equal", "", ""), false},
      {"Exists ignores the value", MakeToleration("dedicated", "Exists", "", ""), true},
      {"Exists with other effect", MakeToleration("dedicated", "Exists", "", "NoExecute"), false},
      {"Exists with other key", MakeToleration("team", "Exists", "", ""), false},
      {"empty key with Exists tolerates everything", MakeToleration("", "Exists", "", ""), true},
      {"empty key with Exists still filters effect",
       MakeToleration("", "Exists", "", "PreferNoSchedule"), false},
      {"keys are case sensitive", MakeToleration("Dedicated", "Exists", "", ""), false},
      {"unknown operator tolerates nothing", MakeToleration("dedicated", "Gt", "gpu", ""), false},
      {"operator is case sensitive", MakeToleration("dedicated", "exists", "", ""), false},
  };
  for (const TolerateCase& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(ToleratesTaint(c.toleration, taint), c.want);
  }
}

TEST(ToleratesTaint, EmptyKeyWithEqualComparesOnlyValues) {
  // Validation forbids this toleration, but the matcher mirrors Kubernetes for it too.
  Toleration t = MakeToleration("", "Equal", "", "");
  EXPECT_TRUE(ToleratesTaint(t, MakeTaint("any", "", "NoSchedule")));
  EXPECT_FALSE(ToleratesTaint(t, MakeTaint("any", "v", "NoSchedule")));
}

// --- ToleratesAll ---

TEST(ToleratesAll, NoTaintsAreAlwaysTolerated) { EXPECT_TRUE(ToleratesAll({}, {}, false)); }

TEST(ToleratesAll, EveryTaintNeedsSomeToleration) {
  std::vector<Taint> taints = {MakeTaint("a", "1", "NoSchedule"), MakeTaint("b", "", "NoExecute")};
  std::vector<Toleration> both = {MakeToleration("b", "Exists", "", ""),
                                  MakeToleration("a", "Equal", "1", "NoSchedule")};
  EXPECT_TRUE(ToleratesAll(both, taints, false));
  std::vector<Toleration> only_a = {MakeToleration("a", "Equal", "1", "")};
  EXPECT_FALSE(ToleratesAll(only_a, taints, false));
  EXPECT_FALSE(ToleratesAll({}, taints, false));
}

TEST(ToleratesAll, ReportsTheFirstUntoleratedTaint) {
  std::vector<Taint> taints = {MakeTaint("a", "", "NoSchedule"), MakeTaint("b", "", "NoSchedule"),
                               MakeTaint("c", "", "NoSchedule")};
  std::vector<Toleration> tolerations = {MakeToleration("a", "Exists", "", "")};
  const Taint* untolerated = nullptr;
  EXPECT_FALSE(ToleratesAll(tolerations, taints, false, &untolerated));
  ASSERT_NE(untolerated, nullptr);
  EXPECT_EQ(untolerated, &taints[1]);
}

TEST(ToleratesAll, LeavesOutParameterAloneOnSuccess) {
  std::vector<Taint> taints = {MakeTaint("a", "", "NoSchedule")};
  const Taint sentinel = MakeTaint("sentinel", "", "NoSchedule");
  const Taint* untolerated = &sentinel;
  EXPECT_TRUE(ToleratesAll({MakeToleration("", "Exists", "", "")}, taints, false, &untolerated));
  EXPECT_EQ(untolerated, &sentinel);
}

TEST(ToleratesAll, SkipsPreferNoScheduleOnlyWhenAsked) {
  std::vector<Taint> taints = {MakeTaint("soft", "", "PreferNoSchedule")};
  EXPECT_TRUE(ToleratesAll({}, taints, /*ignore_prefer_no_schedule=*/true));
  const Taint* untolerated = nullptr;
  EXPECT_FALSE(ToleratesAll({}, taints, /*ignore_prefer_no_schedule=*/false, &untolerated));
  EXPECT_EQ(untolerated, &taints[0]);
}

TEST(ToleratesAll, IgnoringPreferNoScheduleStillChecksHardTaints) {
  std::vector<Taint> taints = {MakeTaint("soft", "", "PreferNoSchedule"),
                               MakeTaint("hard", "", "NoExecute")};
  const Taint* untolerated = nullptr;
  EXPECT_FALSE(ToleratesAll({}, taints, true, &untolerated));
  EXPECT_EQ(untolerated, &taints[1]);
}

// --- TaintToString / ParseTaint ---

TEST(TaintToString, UsesKeyValueEffectForm) {
  EXPECT_EQ(TaintToString(MakeTaint("dedicated", "gpu", "NoSchedule")), "dedicated=gpu:NoSchedule");
  EXPECT_EQ(TaintToString(MakeTaint("karpenter.sh/disrupted", "", "NoSchedule")),
            "karpenter.sh/disrupted:NoSchedule");
  EXPECT_EQ(TaintToString(MakeTaint("k", "", "")), "k:");
}

struct ParseCase {
  std::string input;
  Taint want;
};

TEST(ParseTaint, AcceptsKubectlForms) {
  const std::vector<ParseCase> cases = {
      {"dedicated=gpu:NoSchedule", MakeTaint("dedicated", "gpu", "NoSchedule")},
      {"example.com/key:PreferNoSchedule", MakeTaint("example.com/key", "", "PreferNoSchedule")},
      {"key=:NoExecute", MakeTaint("key", "", "NoExecute")},
      {"node.kubernetes.io/unschedulable:NoSchedule",
       MakeTaint("node.kubernetes.io/unschedulable", "", "NoSchedule")},
      {"key", MakeTaint("key", "", "")},
  };
  for (const ParseCase& c : cases) {
    SCOPED_TRACE(c.input);
    absl::StatusOr<Taint> got = ParseTaint(c.input);
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(*got, c.want);
  }
}

TEST(ParseTaint, RoundTripsThroughTaintToString) {
  for (const Taint& t : {MakeTaint("a", "b", "NoSchedule"), MakeTaint("x.io/y", "", "NoExecute")}) {
    absl::StatusOr<Taint> got = ParseTaint(TaintToString(t));
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(*got, t);
  }
}

struct ErrorCase {
  std::string input;
  std::string message;
};

TEST(ParseTaint, ReportsKubectlErrors) {
  const std::vector<ErrorCase> cases = {
      {"key:Bogus", "invalid taint effect: Bogus, unsupported taint effect"},
      {"key:noschedule", "invalid taint effect: noschedule, unsupported taint effect"},
      {"key:", "invalid taint effect: , unsupported taint effect"},
      {"a:b:NoSchedule", "invalid taint spec: a:b:NoSchedule"},
      {"a=b=c:NoSchedule", "invalid taint spec: a=b=c:NoSchedule"},
      {"a=-b:NoSchedule", "invalid taint spec: a=-b:NoSchedule, " + kValueRegexMsg},
      {"a=" + std::string(64, 'v') + ":NoSchedule",
       "invalid taint spec: a=" + std::string(64, 'v') +
           ":NoSchedule, must be no more than 63 characters"},
      {"-a:NoSchedule", "invalid taint spec: -a:NoSchedule, name part " + kNameRegexMsg},
      {"=v:NoSchedule",
       "invalid taint spec: =v:NoSchedule, name part must be non-empty; name part " +
           kNameRegexMsg},
      {"key=value", "invalid taint spec: key=value, name part " + kNameRegexMsg},
      {"", "invalid taint spec: , name part must be non-empty; name part " + kNameRegexMsg},
  };
  for (const ErrorCase& c : cases) {
    SCOPED_TRACE(c.input);
    absl::StatusOr<Taint> got = ParseTaint(c.input);
    ASSERT_FALSE(got.ok());
    EXPECT_EQ(got.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(got.status().message(), c.message);
  }
}

// --- ValidateTaint ---

TEST(ValidateTaint, AcceptsWellFormedTaints) {
  for (const Taint& t :
       {MakeTaint("dedicated", "gpu", "NoSchedule"),
        MakeTaint("karpenter.sh/disrupted", "", "NoSchedule"),
        MakeTaint("k", "v", "PreferNoSchedule"), MakeTaint("k", "", "NoExecute")}) {
    FieldErrors errors;
    ValidateTaint(t, "spec.taints[0]", &errors);
    EXPECT_THAT(Strings(errors), IsEmpty()) << TaintToString(t);
  }
}

TEST(ValidateTaint, RequiresAQualifiedKey) {
  FieldErrors errors;
  ValidateTaint(MakeTaint("", "", "NoSchedule"), "spec.taints[0]", &errors);
  EXPECT_THAT(Strings(errors),
              ElementsAre("spec.taints[0].key: Invalid value: \"\": name part must be non-empty",
                          "spec.taints[0].key: Invalid value: \"\": name part " + kNameRegexMsg));
}

TEST(ValidateTaint, JoinsValueProblemsWithSemicolons) {
  FieldErrors errors;
  std::string value = std::string(63, 'v') + "-";
  ValidateTaint(MakeTaint("k", value, "NoSchedule"), "t", &errors);
  EXPECT_THAT(Strings(errors),
              ElementsAre("t.value: Invalid value: \"" + value +
                          "\": must be no more than 63 characters;" + kValueRegexMsg));
}

TEST(ValidateTaint, RequiresAKnownEffect) {
  FieldErrors missing;
  ValidateTaint(MakeTaint("k", "", ""), "t", &missing);
  EXPECT_THAT(Strings(missing), ElementsAre("t.effect: Required value"));
  FieldErrors bogus;
  ValidateTaint(MakeTaint("k", "", "NoScheduleNoAdmit"), "t", &bogus);
  EXPECT_THAT(Strings(bogus),
              ElementsAre("t.effect: Unsupported value: \"NoScheduleNoAdmit\": supported values: "
                          "\"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\""));
}

// --- ValidateToleration ---

TEST(ValidateToleration, AcceptsWellFormedTolerations) {
  Toleration with_seconds =
      MakeToleration("node.kubernetes.io/not-ready", "Exists", "", "NoExecute");
  with_seconds.toleration_seconds = 300;
  for (const Toleration& t :
       {MakeToleration("dedicated", "Equal", "gpu", "NoSchedule"),
        MakeToleration("dedicated", "", "gpu", ""), MakeToleration("", "Exists", "", ""),
        MakeToleration("k", "Equal", "", "PreferNoSchedule"), with_seconds}) {
    FieldErrors errors;
    ValidateToleration(t, "spec.tolerations[0]", &errors);
    EXPECT_THAT(Strings(errors), IsEmpty()) << t.key << " " << t.operator_;
  }
}

TEST(ValidateToleration, EmptyKeyRequiresExists) {
  const std::string detail =
      "operator must be Exists when `key` is empty, which means \"match all values and all "
      "keys\"";
  FieldErrors equal;
  ValidateToleration(MakeToleration("", "Equal", "", ""), "tol", &equal);
  EXPECT_THAT(Strings(equal), ElementsAre("tol.operator: Invalid value: \"Equal\": " + detail));
  FieldErrors defaulted;
  ValidateToleration(MakeToleration("", "", "", ""), "tol", &defaulted);
  EXPECT_THAT(Strings(defaulted), ElementsAre("tol.operator: Invalid value: \"\": " + detail));
}

TEST(ValidateToleration, TolerationSecondsRequiresNoExecute) {
  Toleration t = MakeToleration("k", "Exists", "", "NoSchedule");
  t.toleration_seconds = 60;
  FieldErrors errors;
  ValidateToleration(t, "tol", &errors);
  EXPECT_THAT(Strings(errors),
              ElementsAre("tol.effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' "
                          "when `tolerationSeconds` is set"));
}

TEST(ValidateToleration, ExistsMustNotCarryAValue) {
  FieldErrors errors;
  ValidateToleration(MakeToleration("k", "Exists", "v", ""), "tol", &errors);
  EXPECT_THAT(Strings(errors),
              ElementsAre("tol.operator: Invalid value: \"v\": value must be empty when "
                          "`operator` is 'Exists'"));
}

TEST(ValidateToleration, EqualNeedsALabelValueReportedAtOperator) {
  FieldErrors errors;
  ValidateToleration(MakeToleration("k", "Equal", "bad value", ""), "tol", &errors);
  EXPECT_THAT(Strings(errors),
              ElementsAre("tol.operator: Invalid value: \"bad value\": " + kValueRegexMsg));
}

TEST(ValidateToleration, RejectsUnknownOperatorsAndEffects) {
  FieldErrors errors;
  ValidateToleration(MakeToleration("k", "Gt", "1", "Sometimes"), "tol", &errors);
  EXPECT_THAT(Strings(errors),
              ElementsAre("tol.operator: Unsupported value: \"Gt\": supported values: \"Equal\", "
                          "\"Exists\"",
                          "tol.effect: Unsupported value: \"Sometimes\": supported values: "
                          "\"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\""));
}

TEST(ValidateToleration, ChecksNonEmptyKeys) {
  FieldErrors errors;
  ValidateToleration(MakeToleration("a/b/c", "Exists", "", ""), "tol", &errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors.errors()[0].path, "tol.key");
  EXPECT_THAT(errors.errors()[0].message,
              ::testing::StartsWith("Invalid value: \"a/b/c\": a qualified name must consist"));
}

}  // namespace
}  // namespace karpenter::api
