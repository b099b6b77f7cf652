#include "src/api/labels.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace karpenter::api {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// Kubernetes' texts, written out independently of the implementation.
const std::string kNameRegexMsg =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
    "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const std::string kValueRegexMsg =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or "
    "'my_value',  or '12345', regex used for validation is "
    "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const std::string kSubdomainRegexMsg =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used "
    "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const std::string kDnsLabelRegexMsg =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
    "must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex "
    "used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const std::string kTooManySlashesMsg =
    "a qualified name " + kNameRegexMsg +
    " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";

std::string Repeat(char c, size_t n) { return std::string(n, c); }

// A valid DNS subdomain of exactly `n` characters (n >= 1) that contains dots once n >= 3.
std::string Subdomain(size_t n) {
  std::string out;
  while (out.size() + 3 <= n) out += "a.";
  out += Repeat('b', n - out.size());
  return out;
}

struct Case {
  std::string input;
  std::vector<std::string> errors;
};

TEST(IsQualifiedName, AcceptsNamesAndPrefixedNames) {
  for (const std::string& ok :
       {std::string("a"), std::string("A"), std::string("1"), std::string("MyName"),
        std::string("my.name"), std::string("123-abc"), std::string("a-b_c.d"),
        std::string("example.com/MyName"), std::string("kubernetes.io/hostname"),
        std::string("karpenter.sh/nodepool"), std::string("node.kubernetes.io/instance-type"),
        std::string("topology.kubernetes.io/zone"), Repeat('x', 63),
        Subdomain(253) + "/" + Repeat('n', 63)}) {
    SCOPED_TRACE(ok);
    EXPECT_THAT(IsQualifiedName(ok), IsEmpty());
  }
}

TEST(IsQualifiedName, ReportsKubernetesMessagesWhenInvalid) {
  const std::vector<Case> cases = {
      {"", {"name part must be non-empty", "name part " + kNameRegexMsg}},
      {"-a", {"name part " + kNameRegexMsg}},
      {"a-", {"name part " + kNameRegexMsg}},
      {"a_", {"name part " + kNameRegexMsg}},
      {".a", {"name part " + kNameRegexMsg}},
      {"a b", {"name part " + kNameRegexMsg}},
      {"a=b", {"name part " + kNameRegexMsg}},
      {"\xc3\xa4", {"name part " + kNameRegexMsg}},
      {Repeat('x', 64), {"name part must be no more than 63 characters"}},
      {Repeat('x', 63) + "-",
       {"name part must be no more than 63 characters", "name part " + kNameRegexMsg}},
      {"/a", {"prefix part must be non-empty"}},
      {"/",
       {"prefix part must be non-empty", "name part must be non-empty",
        "name part " + kNameRegexMsg}},
      {"example.com/", {"name part must be non-empty", "name part " + kNameRegexMsg}},
      {"Example.com/a", {"prefix part " + kSubdomainRegexMsg}},
      {"KUBERNETES.IO/a", {"prefix part " + kSubdomainRegexMsg}},
      {"a..b/c", {"prefix part " + kSubdomainRegexMsg}},
      {"a_b.com/c", {"prefix part " + kSubdomainRegexMsg}},
      {"-a.com/c", {"prefix part " + kSubdomainRegexMsg}},
      {Subdomain(254) + "/a", {"prefix part must be no more than 253 characters"}},
      {"a/b/c", {kTooManySlashesMsg}},
      {"//", {kTooManySlashesMsg}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.input);
    EXPECT_EQ(IsQualifiedName(c.input), c.errors);
  }
}

TEST(IsQualifiedName, ChecksNameLengthWithoutThePrefix) {
  EXPECT_THAT(IsQualifiedName("example.com/" + Repeat('n', 63)), IsEmpty());
  EXPECT_THAT(IsQualifiedName("example.com/" + Repeat('n', 64)),
              ElementsAre("name part must be no more than 63 characters"));
}

TEST(IsValidLabelValue, AcceptsEmptyAndWellFormedValues) {
  for (const std::string& ok :
       {std::string(""), std::string("a"), std::string("MyValue"), std::string("my_value"),
        std::string("12345"), std::string("a.b-c_d"), std::string("on-demand"),
        std::string("m5.large"), Repeat('v', 63)}) {
    SCOPED_TRACE(ok);
    EXPECT_THAT(IsValidLabelValue(ok), IsEmpty());
  }
}

TEST(IsValidLabelValue, ReportsKubernetesMessagesWhenInvalid) {
  const std::vector<Case> cases = {
      {Repeat('v', 64), {"must be no more than 63 characters"}},
      {Repeat('v', 63) + "-", {"must be no more than 63 characters", kValueRegexMsg}},
      {"-a", {kValueRegexMsg}},
      {"a-", {kValueRegexMsg}},
      {"_", {kValueRegexMsg}},
      {"a/b", {kValueRegexMsg}},
      {"a b", {kValueRegexMsg}},
      {"-1", {kValueRegexMsg}},
      {"+1", {kValueRegexMsg}},
      {"caf\xc3\xa9", {kValueRegexMsg}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.input);
    EXPECT_EQ(IsValidLabelValue(c.input), c.errors);
  }
}

TEST(IsDns1123Label, AcceptsLowercaseAlphanumericsAndInnerDashes) {
  for (const std::string& ok : {std::string("a"), std::string("0"), std::string("my-name"),
                                std::string("123-abc"), std::string("a--b"), Repeat('a', 63)}) {
    SCOPED_TRACE(ok);
    EXPECT_THAT(IsDns1123Label(ok), IsEmpty());
  }
}

TEST(IsDns1123Label, ReportsDotsSeparatelyFromOtherCharacterErrors) {
  const std::vector<Case> cases = {
      {"", {kDnsLabelRegexMsg}},
      {"A", {kDnsLabelRegexMsg}},
      {"-a", {kDnsLabelRegexMsg}},
      {"a-", {kDnsLabelRegexMsg}},
      {"a_b", {kDnsLabelRegexMsg}},
      {"a.b", {"must not contain dots"}},
      {"a..b", {kDnsLabelRegexMsg}},
      {Repeat('a', 64), {"must be no more than 63 characters"}},
      {Subdomain(64), {"must be no more than 63 characters", "must not contain dots"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.input);
    EXPECT_EQ(IsDns1123Label(c.input), c.errors);
  }
}

TEST(IsDns1123Subdomain, AcceptsDottedLabelsUpTo253Characters) {
  for (const std::string& ok :
       {std::string("a"), std::string("example.com"), std::string("karpenter.k8s.aws"),
        std::string("a-b.c-d"), Subdomain(253)}) {
    SCOPED_TRACE(ok);
    EXPECT_THAT(IsDns1123Subdomain(ok), IsEmpty());
  }
}

TEST(IsDns1123Subdomain, ReportsLengthAndSyntax) {
  const std::vector<Case> cases = {
      {"", {kSubdomainRegexMsg}},
      {"Example.com", {kSubdomainRegexMsg}},
      {".a", {kSubdomainRegexMsg}},
      {"a.", {kSubdomainRegexMsg}},
      {"a..b", {kSubdomainRegexMsg}},
      {"a.-b", {kSubdomainRegexMsg}},
      {"a_b", {kSubdomainRegexMsg}},
      {Subdomain(254), {"must be no more than 253 characters"}},
      {Subdomain(253) + "-", {"must be no more than 253 characters", kSubdomainRegexMsg}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.input);
    EXPECT_EQ(IsDns1123Subdomain(c.input), c.errors);
  }
}

TEST(LabelDomain, ReturnsThePartBeforeTheFirstSlash) {
  EXPECT_EQ(LabelDomain("karpenter.sh/nodepool"), "karpenter.sh");
  EXPECT_EQ(LabelDomain("node.kubernetes.io/instance-type"), "node.kubernetes.io");
  EXPECT_EQ(LabelDomain("kubernetes.io/arch"), "kubernetes.io");
  EXPECT_EQ(LabelDomain("a/b/c"), "a");
  EXPECT_EQ(LabelDomain("/name"), "");
}

TEST(LabelDomain, ReturnsEmptyWhenThereIsNoPrefix) {
  EXPECT_EQ(LabelDomain("team"), "");
  EXPECT_EQ(LabelDomain(""), "");
}

}  // namespace
}  // namespace karpenter::api
