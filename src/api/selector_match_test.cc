#include "src/api/selector_match.h"

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

const LabelMap kPodLabels = {{"app", "web"}, {"tier", "frontend"}, {"env", ""}};

// --- LabelSelector matching ---

struct LabelCase {
  std::string name;
  LabelSelector selector;
  bool want;
};

TEST(MatchesLabelSelector, FollowsKubernetesOperatorSemantics) {
  const std::vector<LabelCase> cases = {
      {"empty selector matches everything", {}, true},
      {"matchLabels equal", {{{"app", "web"}}, {}}, true},
      {"matchLabels all must hold", {{{"app", "web"}, {"tier", "backend"}}, {}}, false},
      {"matchLabels missing key", {{{"zone", "a"}}, {}}, false},
      {"matchLabels empty value equals empty label", {{{"env", ""}}, {}}, true},
      {"In hit", {{}, {{"app", "In", {"api", "web"}}}}, true},
      {"In miss", {{}, {{"app", "In", {"api"}}}}, false},
      {"In absent key", {{}, {{"zone", "In", {"a"}}}}, false},
      {"NotIn hit", {{}, {{"app", "NotIn", {"web"}}}}, false},
      {"NotIn miss", {{}, {{"app", "NotIn", {"api"}}}}, true},
      {"NotIn absent key matches", {{}, {{"zone", "NotIn", {"a"}}}}, true},
      {"Exists present", {{}, {{"tier", "Exists", {}}}}, true},
      {"Exists present with empty value", {{}, {{"env", "Exists", {}}}}, true},
      {"Exists absent", {{}, {{"zone", "Exists", {}}}}, false},
      {"DoesNotExist absent", {{}, {{"zone", "DoesNotExist", {}}}}, true},
      {"DoesNotExist present", {{}, {{"app", "DoesNotExist", {}}}}, false},
      {"labels and expressions are ANDed",
       {{{"app", "web"}}, {{"tier", "In", {"frontend"}}, {"zone", "DoesNotExist", {}}}},
       true},
      {"one failing expression fails", {{{"app", "web"}}, {{"tier", "In", {"backend"}}}}, false},
      {"In without values is malformed", {{}, {{"app", "In", {}}}}, false},
      {"NotIn without values is malformed", {{}, {{"zone", "NotIn", {}}}}, false},
      {"Exists with values is malformed", {{}, {{"app", "Exists", {"web"}}}}, false},
      {"DoesNotExist with values is malformed", {{}, {{"zone", "DoesNotExist", {"a"}}}}, false},
      {"unknown operator", {{}, {{"app", "Equals", {"web"}}}}, false},
      {"Gt is not a label-selector operator", {{}, {{"app", "Gt", {"1"}}}}, false},
      {"operators are case sensitive", {{}, {{"app", "in", {"web"}}}}, false},
      {"values are case sensitive", {{{"app", "Web"}}, {}}, false},
  };
  for (const LabelCase& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(Matches(c.selector, kPodLabels), c.want);
  }
}

TEST(MatchesLabelSelector, EmptySelectorMatchesObjectWithoutLabels) {
  EXPECT_TRUE(Matches(LabelSelector{}, LabelMap{}));
}

TEST(MatchesLabelSelector, NullSelectorMatchesNothing) {
  std::optional<LabelSelector> null_selector;
  EXPECT_FALSE(Matches(null_selector, kPodLabels));
  EXPECT_FALSE(Matches(null_selector, LabelMap{}));
}

TEST(MatchesLabelSelector, PresentOptionalSelectorMatchesLikeTheSelector) {
  std::optional<LabelSelector> empty = LabelSelector{};
  EXPECT_TRUE(Matches(empty, kPodLabels));
  std::optional<LabelSelector> web = LabelSelector{{{"app", "web"}}, {}};
  EXPECT_TRUE(Matches(web, kPodLabels));
  std::optional<LabelSelector> api = LabelSelector{{{"app", "api"}}, {}};
  EXPECT_FALSE(Matches(api, kPodLabels));
}

// --- LabelSelector validation ---

TEST(ValidateLabelSelector, AcceptsWellFormedSelector) {
  LabelSelector selector{{{"app.kubernetes.io/name", "web"}, {"env", ""}},
                         {{"tier", "In", {"frontend", "backend"}},
                          {"zone", "NotIn", {"a"}},
                          {"example.com/gpu", "Exists", {}},
                          {"spot", "DoesNotExist", {}}}};
  FieldErrors errors;
  ValidateLabelSelector(selector, "spec.selector", &errors);
  EXPECT_THAT(Strings(errors), IsEmpty());
}

TEST(ValidateLabelSelector, RequiresValuesForInAndNotIn) {
  FieldErrors errors;
  ValidateLabelSelector({{}, {{"a", "In", {}}, {"b", "NotIn", {}}}}, "spec.selector", &errors);
  EXPECT_THAT(Strings(errors),
              ElementsAre("spec.selector.matchExpressions[0].values: Required value: must be "
                          "specified when `operator` is 'In' or 'NotIn'",
                          "spec.selector.matchExpressions[1].values: Required value: must be "
                          "specified when `operator` is 'In' or 'NotIn'"));
}

TEST(ValidateLabelSelector, ForbidsValuesForExistsAndDoesNotExist) {
  FieldErrors errors;
  ValidateLabelSelector({{}, {{"a", "Exists", {"x"}}, {"b", "DoesNotExist", {"y"}}}}, "sel",
                        &errors);
  EXPECT_THAT(Strings(errors),
              ElementsAre("sel.matchExpressions[0].values: Forbidden: may not be specified when "
                          "`operator` is 'Exists' or 'DoesNotExist'",
                          "sel.matchExpressions[1].values: Forbidden: may not be specified when "
                          "`operator` is 'Exists' or 'DoesNotExist'"));
}

TEST(ValidateLabelSelector, RejectsUnknownOperators) {
  FieldErrors errors;
  ValidateLabelSelector({{}, {{"a", "Gt", {"1"}}, {"b", "", {}}}}, "sel", &errors);
  EXPECT_THAT(Strings(errors),
              ElementsAre("sel.matchExpressions[0].operator: Invalid value: \"Gt\": not a valid "
                          "selector operator",
                          "sel.matchExpressions[1].operator: Invalid value: \"\": not a valid "
                          "selector operator"));
}

TEST(ValidateLabelSelector, ReportsBadKeysAndValuesAtTheirPaths) {
  FieldErrors errors;
  ValidateLabelSelector({{}, {{"-bad", "In", {"ok", "bad-"}}}}, "sel", &errors);
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors.errors()[0].path, "sel.matchExpressions[0].key");
  EXPECT_THAT(errors.errors()[0].message,
              ::testing::StartsWith("Invalid value: \"-bad\": name part must consist of"));
  EXPECT_EQ(errors.errors()[1].path, "sel.matchExpressions[0].values[1]");
  EXPECT_THAT(errors.errors()[1].message,
              ::testing::StartsWith("Invalid value: \"bad-\": a valid label must be"));
}

TEST(ValidateLabelSelector, ReportsMatchLabelsProblemsAtTheMapPath) {
  FieldErrors errors;
  ValidateLabelSelector({{{"Example.com/a", "ok"}, {"b", std::string(64, 'v')}}, {}}, "sel",
                        &errors);
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors.errors()[0].ToString(),
            "sel.matchLabels: Invalid value: \"Example.com/a\": prefix part a lowercase RFC 1123 "
            "subdomain must consist of lower case alphanumeric characters, '-' or '.', and must "
            "start and end with an alphanumeric character (e.g. 'example.com', regex used for "
            "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
  EXPECT_EQ(errors.errors()[1].ToString(), "sel.matchLabels: Invalid value: \"" +
                                               std::string(64, 'v') +
                                               "\": must be no more than 63 characters");
}

TEST(ValidateLabels, AcceptsKubernetesAndKarpenterLabels) {
  FieldErrors errors;
  ValidateLabels(
      {{"kubernetes.io/arch", "amd64"}, {"karpenter.sh/capacity-type", "spot"}, {"team", ""}},
      "metadata.labels", &errors);
  EXPECT_TRUE(errors.empty());
}

// --- NodeSelectorRequirement matching ---

const LabelMap kNodeLabels = {
    {"zone", "us-west-2a"}, {"cpu", "4"},   {"big", "9223372036854775807"},
    {"neg", "-3"},          {"plus", "+5"}, {"word", "abc"},
    {"empty", ""}};

struct NodeCase {
  NodeSelectorRequirement requirement;
  bool want;
};

std::string Describe(const NodeSelectorRequirement& r) {
  std::string out = r.key + " " + r.operator_ + " [";
  for (const std::string& v : r.values) out += v + ",";
  return out + "]";
}

TEST(MatchesNodeSelectorRequirement, HandlesSetOperators) {
  const std::vector<NodeCase> cases = {
      {{"zone", "In", {"us-west-2a", "us-west-2b"}}, true},
      {{"zone", "In", {"us-west-2b"}}, false},
      {{"missing", "In", {"x"}}, false},
      {{"empty", "In", {""}}, true},
      {{"zone", "In", {}}, false},
      {{"zone", "NotIn", {"us-west-2b"}}, true},
      {{"zone", "NotIn", {"us-west-2a"}}, false},
      {{"missing", "NotIn", {"x"}}, true},
      {{"missing", "NotIn", {}}, false},
      {{"zone", "Exists", {}}, true},
      {{"empty", "Exists", {}}, true},
      {{"missing", "Exists", {}}, false},
      {{"zone", "Exists", {"us-west-2a"}}, false},
      {{"missing", "DoesNotExist", {}}, true},
      {{"zone", "DoesNotExist", {}}, false},
      {{"missing", "DoesNotExist", {"x"}}, false},
      {{"zone", "Foo", {"us-west-2a"}}, false},
      {{"zone", "in", {"us-west-2a"}}, false},
      {{"zone", "", {"us-west-2a"}}, false},
  };
  for (const NodeCase& c : cases) {
    SCOPED_TRACE(Describe(c.requirement));
    EXPECT_EQ(Matches(c.requirement, kNodeLabels), c.want);
  }
}

TEST(MatchesNodeSelectorRequirement, ComparesIntegersForGtLtGteLte) {
  const std::vector<NodeCase> cases = {
      {{"cpu", "Gt", {"3"}}, true},
      {{"cpu", "Gt", {"4"}}, false},
      {{"cpu", "Lt", {"5"}}, true},
      {{"cpu", "Lt", {"4"}}, false},
      {{"cpu", "Gte", {"4"}}, true},
      {{"cpu", "Gte", {"5"}}, false},
      {{"cpu", "Lte", {"4"}}, true},
      {{"cpu", "Lte", {"3"}}, false},
      {{"cpu", "Gt", {"03"}}, true},
      {{"neg", "Lt", {"0"}}, true},
      {{"plus", "Gt", {"4"}}, true},
      {{"big", "Gt", {"9223372036854775806"}}, true},
      {{"big", "Gte", {"9223372036854775807"}}, true},
  };
  for (const NodeCase& c : cases) {
    SCOPED_TRACE(Describe(c.requirement));
    EXPECT_EQ(Matches(c.requirement, kNodeLabels), c.want);
  }
}

TEST(MatchesNodeSelectorRequirement, NeverMatchesNonIntegersOrMalformedBounds) {
  const std::vector<NodeCase> cases = {
      {{"word", "Gt", {"1"}}, false},                   // label is not an integer
      {{"empty", "Lt", {"1"}}, false},                  // empty label is not an integer
      {{"missing", "Lt", {"100"}}, false},              // absent label
      {{"cpu", "Gt", {"a"}}, false},                    // bound is not an integer
      {{"cpu", "Gt", {"-1"}}, false},                   // signed bound is not a label value
      {{"cpu", "Lt", {"+9"}}, false},                   // likewise
      {{"cpu", "Gt", {""}}, false},                     // empty bound
      {{"cpu", "Gt", {"1", "2"}}, false},               // exactly one value required
      {{"cpu", "Lte", {}}, false},                      // likewise
      {{"cpu", "Gt", {"9223372036854775808"}}, false},  // overflows int64
      {{"cpu", "Gt", {"1.5"}}, false},
  };
  for (const NodeCase& c : cases) {
    SCOPED_TRACE(Describe(c.requirement));
    EXPECT_EQ(Matches(c.requirement, kNodeLabels), c.want);
  }
}

// --- NodeSelectorTerm / NodeSelector matching ---

TEST(MatchesNodeSelectorTerm, EmptyTermMatchesNothing) {
  EXPECT_FALSE(Matches(NodeSelectorTerm{}, kNodeLabels));
  EXPECT_FALSE(Matches(NodeSelectorTerm{}, kNodeLabels, "node-1"));
}

TEST(MatchesNodeSelectorTerm, AndsItsExpressions) {
  NodeSelectorTerm term{{{"zone", "In", {"us-west-2a"}}, {"cpu", "Gt", {"2"}}}, {}};
  EXPECT_TRUE(Matches(term, kNodeLabels));
  term.match_expressions.push_back({"word", "DoesNotExist", {}});
  EXPECT_FALSE(Matches(term, kNodeLabels));
}

TEST(MatchesNodeSelectorTerm, MalformedExpressionFailsTheTerm) {
  NodeSelectorTerm term{{{"zone", "In", {"us-west-2a"}}, {"missing", "NotIn", {}}}, {}};
  EXPECT_FALSE(Matches(term, kNodeLabels));
}

TEST(MatchesNodeSelectorTerm, MatchesFieldsAgainstTheNodeName) {
  NodeSelectorTerm in{{}, {{"metadata.name", "In", {"node-1"}}}};
  EXPECT_TRUE(Matches(in, kNodeLabels, "node-1"));
  EXPECT_FALSE(Matches(in, kNodeLabels, "node-2"));
  NodeSelectorTerm not_in{{}, {{"metadata.name", "NotIn", {"node-1"}}}};
  EXPECT_FALSE(Matches(not_in, kNodeLabels, "node-1"));
  EXPECT_TRUE(Matches(not_in, kNodeLabels, "node-2"));
}

TEST(MatchesNodeSelectorTerm, UnknownFieldReadsAsEmpty) {
  NodeSelectorTerm term{{}, {{"spec.providerID", "In", {"aws:///i-1"}}}};
  EXPECT_FALSE(Matches(term, kNodeLabels, "node-1"));
  NodeSelectorTerm not_in{{}, {{"spec.providerID", "NotIn", {"aws:///i-1"}}}};
  EXPECT_TRUE(Matches(not_in, kNodeLabels, "node-1"));
}

TEST(MatchesNodeSelectorTerm, IgnoresFieldsWhenNodeNameIsUnknown) {
  NodeSelectorTerm term{{{"zone", "Exists", {}}}, {{"metadata.name", "In", {"node-1"}}}};
  EXPECT_TRUE(Matches(term, kNodeLabels));
  EXPECT_FALSE(Matches(term, kNodeLabels, "node-2"));
}

TEST(MatchesNodeSelectorTerm, MalformedFieldsFailTheTermEvenWithoutNodeName) {
  NodeSelectorTerm exists{{}, {{"metadata.name", "Exists", {}}}};
  EXPECT_FALSE(Matches(exists, kNodeLabels));
  NodeSelectorTerm two_values{{}, {{"metadata.name", "In", {"a", "b"}}}};
  EXPECT_FALSE(Matches(two_values, kNodeLabels, "a"));
}

TEST(MatchesNodeSelector, OrsItsTerms) {
  NodeSelectorTerm wrong_zone{{{"zone", "In", {"us-east-1a"}}}, {}};
  NodeSelectorTerm right_zone{{{"zone", "In", {"us-west-2a"}}}, {}};
  EXPECT_FALSE(Matches(NodeSelector{{wrong_zone}}, kNodeLabels));
  EXPECT_TRUE(Matches(NodeSelector{{wrong_zone, right_zone}}, kNodeLabels));
  EXPECT_TRUE(Matches(NodeSelector{{NodeSelectorTerm{}, right_zone}}, kNodeLabels));
}

TEST(MatchesNodeSelector, NoTermsMatchesNothing) {
  EXPECT_FALSE(Matches(NodeSelector{}, kNodeLabels));
}

TEST(MatchesNodeSelector, PassesNodeNameToTerms) {
  NodeSelector selector{{NodeSelectorTerm{{}, {{"metadata.name", "In", {"node-1"}}}}}};
  EXPECT_TRUE(Matches(selector, kNodeLabels, "node-1"));
  EXPECT_FALSE(Matches(selector, kNodeLabels, "node-2"));
}

}  // namespace
}  // namespace karpenter::api
