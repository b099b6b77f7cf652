// ParseSelector (declared in selector_match.h): kubectl `-l` syntax.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "src/api/selector_match.h"

namespace karpenter::api {
namespace {

struct ParseCase {
  std::string input;
  LabelSelector want;
};

TEST(ParseSelector, ParsesEveryRequirementForm) {
  const std::vector<ParseCase> cases = {
      {"", {}},
      {"   ", {}},
      {"a=b", {{{"a", "b"}}, {}}},
      {"a==b", {{{"a", "b"}}, {}}},
      {"a!=b", {{}, {{"a", "NotIn", {"b"}}}}},
      {"a in (x,y)", {{}, {{"a", "In", {"x", "y"}}}}},
      {"a notin (z)", {{}, {{"a", "NotIn", {"z"}}}}},
      {"g", {{}, {{"g", "Exists", {}}}}},
      {"!h", {{}, {{"h", "DoesNotExist", {}}}}},
      {"example.com/gpu", {{}, {{"example.com/gpu", "Exists", {}}}}},
      {"karpenter.sh/capacity-type in (spot,on-demand)",
       {{}, {{"karpenter.sh/capacity-type", "In", {"on-demand", "spot"}}}}},
  };
  for (const ParseCase& c : cases) {
    SCOPED_TRACE(c.input);
    absl::StatusOr<LabelSelector> got = ParseSelector(c.input);
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(*got, c.want);
  }
}

TEST(ParseSelector, SortsRequirementsByKeyAndCombinesForms) {
  absl::StatusOr<LabelSelector> got = ParseSelector("g,a=b,!h,f notin (z),c!=d,e in (y,x)");
  ASSERT_TRUE(got.ok()) << got.status();
  LabelSelector want{{{"a", "b"}},
                     {{"c", "NotIn", {"d"}},
                      {"e", "In", {"x", "y"}},
                      {"f", "NotIn", {"z"}},
                      {"g", "Exists", {}},
                      {"h", "DoesNotExist", {}}}};
  EXPECT_EQ(*got, want);
}

TEST(ParseSelector, SortsAndDeduplicatesSetValues) {
  absl::StatusOr<LabelSelector> got = ParseSelector("a in (c,b,c,a)");
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got->match_expressions.at(0).values, (std::vector<std::string>{"a", "b", "c"}));
}

TEST(ParseSelector, ReadsMissingValuesAsTheEmptyValue) {
  const std::vector<ParseCase> cases = {
      {"a=", {{{"a", ""}}, {}}},
      {"a=,b", {{{"a", ""}}, {{"b", "Exists", {}}}}},
      {"a!=", {{}, {{"a", "NotIn", {""}}}}},
      {"a in ()", {{}, {{"a", "In", {""}}}}},
      {"a in (,)", {{}, {{"a", "In", {""}}}}},
      {"a in (x,)", {{}, {{"a", "In", {"", "x"}}}}},
      {"a in (,x)", {{}, {{"a", "In", {"", "x"}}}}},
      {"a in (x,,y)", {{}, {{"a", "In", {"", "x", "y"}}}}},
      {"a notin ()", {{}, {{"a", "NotIn", {""}}}}},
  };
  for (const ParseCase& c : cases) {
    SCOPED_TRACE(c.input);
    absl::StatusOr<LabelSelector> got = ParseSelector(c.input);
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(*got, c.want);
  }
}

TEST(ParseSelector, ToleratesWhitespaceAndTreatsKeywordsAsValues) {
  const std::vector<ParseCase> cases = {
      {"  a  =  b  ,\tc\n", {{{"a", "b"}}, {{"c", "Exists", {}}}}},
      {"a in(x)", {{}, {{"a", "In", {"x"}}}}},
      {"a notin(x)", {{}, {{"a", "NotIn", {"x"}}}}},
      {"x in (in,notin)", {{}, {{"x", "In", {"in", "notin"}}}}},
      {"in", {{}, {{"in", "Exists", {}}}}},
      {"a=in", {{{"a", "in"}}, {}}},
  };
  for (const ParseCase& c : cases) {
    SCOPED_TRACE(c.input);
    absl::StatusOr<LabelSelector> got = ParseSelector(c.input);
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(*got, c.want);
  }
}

TEST(ParseSelector, LaterEqualityWinsForTheSameKey) {
  absl::StatusOr<LabelSelector> got = ParseSelector("a=b,a=c");
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got->match_labels, (LabelMap{{"a", "c"}}));
}

TEST(ParseSelector, TreatsNulBytesLikeKubernetes) {
  // A NUL where a token starts ends the input...
  absl::StatusOr<LabelSelector> ends = ParseSelector(std::string("a \0=b", 5));
  ASSERT_TRUE(ends.ok()) << ends.status();
  EXPECT_EQ(*ends, (LabelSelector{{}, {{"a", "Exists", {}}}}));
  // ...while inside an identifier it only ends that identifier.
  absl::StatusOr<LabelSelector> splits = ParseSelector(std::string("a\0=b", 4));
  ASSERT_TRUE(splits.ok()) << splits.status();
  EXPECT_EQ(*splits, (LabelSelector{{{"a", "b"}}, {}}));
}

struct ErrorCase {
  std::string input;
  std::string message;
};

const std::string kValueRegexMsg =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or "
    "'my_value',  or '12345', regex used for validation is "
    "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const std::string kNameRegexMsg =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
    "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

std::string Wrapped(const std::string& input, const std::string& detail) {
  return "couldn't parse the selector string \"" + input + "\": " + detail;
}

TEST(ParseSelector, ReportsSyntaxErrorsInKubernetesWording) {
  const std::vector<ErrorCase> cases = {
      {"a=b=c", Wrapped("a=b=c", "found '=', expected: ',' or 'end of string'")},
      {"a=b c", Wrapped("a=b c", "found 'c', expected: ',' or 'end of string'")},
      {"a,", Wrapped("a,", "found '', expected: identifier after ','")},
      {"a,,b", Wrapped("a,,b", "found ',', expected: identifier after ','")},
      {",a", Wrapped(",a", "found ',', expected: !, identifier, or 'end of string'")},
      {"(a)", Wrapped("(a)", "found '(', expected: !, identifier, or 'end of string'")},
      {"!a=b", Wrapped("!a=b", "found '=', expected: ',' or 'end of string'")},
      {"!", Wrapped("!", "unable to parse requirement: found '', expected: identifier")},
      {"!!a", Wrapped("!!a", "unable to parse requirement: found '!', expected: identifier")},
      {"a b", Wrapped("a b",
                      "unable to parse requirement: found 'b', expected: in, notin, =, "
                      "==, !=, gt, lt")},
      {"a!b", Wrapped("a!b",
                      "unable to parse requirement: found '!', expected: in, notin, =, "
                      "==, !=, gt, lt")},
      {"a in x", Wrapped("a in x", "unable to parse requirement: found 'x' expected: '('")},
      {"a in", Wrapped("a in", "unable to parse requirement: found '' expected: '('")},
      {"a in (x", Wrapped("a in (x",
                          "unable to parse requirement: found '', expected: ',' or "
                          "')'")},
      {"a in (x y)", Wrapped("a in (x y)",
                             "unable to parse requirement: found 'y', expected: "
                             "',' or ')'")},
      {"a in (=)", Wrapped("a in (=)",
                           "unable to parse requirement: found '=', expected: ',', "
                           "')' or identifier")},
      {"a in (x,=)", Wrapped("a in (x,=)",
                             "unable to parse requirement: found '=', expected: "
                             "',', or identifier")},
      {"a=(", Wrapped("a=(", "unable to parse requirement: found '(', expected: identifier")},
      {"a>=1", Wrapped("a>=1", "unable to parse requirement: found '=', expected: identifier")},
  };
  for (const ErrorCase& c : cases) {
    SCOPED_TRACE(c.input);
    absl::StatusOr<LabelSelector> got = ParseSelector(c.input);
    ASSERT_FALSE(got.ok());
    EXPECT_EQ(got.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(got.status().message(), c.message);
  }
}

TEST(ParseSelector, ReportsInvalidKeysAndValues) {
  const std::vector<ErrorCase> cases = {
      {"a@b", Wrapped("a@b",
                      "unable to parse requirement: key: Invalid value: \"a@b\": name "
                      "part " +
                          kNameRegexMsg)},
      {"a/b/c=d", Wrapped("a/b/c=d",
                          "unable to parse requirement: key: Invalid value: "
                          "\"a/b/c\": a qualified name " +
                              kNameRegexMsg +
                              " with an optional DNS subdomain prefix and '/' (e.g. "
                              "'example.com/MyName')")},
      {"a=-b", Wrapped("a=-b", "unable to parse requirement: values[0]: Invalid value: \"-b\": " +
                                   kValueRegexMsg)},
      {"a in (x,y-)", Wrapped("a in (x,y-)",
                              "unable to parse requirement: values[1]: Invalid "
                              "value: \"y-\": " +
                                  kValueRegexMsg)},
      {"a in (-x,y-)",
       Wrapped("a in (-x,y-)",
               "unable to parse requirement: [values[0]: Invalid value: \"-x\": " + kValueRegexMsg +
                   ", values[1]: Invalid value: \"y-\": " + kValueRegexMsg + "]")},
      {"x>a", Wrapped("x>a",
                      "unable to parse requirement: values[0]: Invalid value: \"a\": for "
                      "'Gt', 'Lt' operators, the value must be an integer")},
      {"x<-1", Wrapped("x<-1", "unable to parse requirement: values[0]: Invalid value: \"-1\": " +
                                   kValueRegexMsg)},
  };
  for (const ErrorCase& c : cases) {
    SCOPED_TRACE(c.input);
    absl::StatusOr<LabelSelector> got = ParseSelector(c.input);
    ASSERT_FALSE(got.ok());
    EXPECT_EQ(got.status().message(), c.message);
  }
}

TEST(ParseSelector, RejectsComparisonsLabelSelectorsCannotHold) {
  absl::StatusOr<LabelSelector> gt = ParseSelector("x>1");
  ASSERT_FALSE(gt.ok());
  EXPECT_EQ(gt.status().message(), "\"gt\" isn't supported in label selectors");
  absl::StatusOr<LabelSelector> lt = ParseSelector("a=b,x<10");
  ASSERT_FALSE(lt.ok());
  EXPECT_EQ(lt.status().message(), "\"lt\" isn't supported in label selectors");
}

TEST(ParseSelector, ResultMatchesLikeTheSelectorString) {
  absl::StatusOr<LabelSelector> got = ParseSelector("app=web,tier!=db,zone in (a,b),!spot");
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_TRUE(Matches(*got, {{"app", "web"}, {"zone", "a"}}));
  EXPECT_TRUE(Matches(*got, {{"app", "web"}, {"zone", "b"}, {"tier", "api"}}));
  EXPECT_FALSE(Matches(*got, {{"app", "web"}, {"zone", "a"}, {"tier", "db"}}));
  EXPECT_FALSE(Matches(*got, {{"app", "web"}, {"zone", "c"}}));
  EXPECT_FALSE(Matches(*got, {{"app", "web"}, {"zone", "a"}, {"spot", "true"}}));
}

}  // namespace
}  // namespace karpenter::api
