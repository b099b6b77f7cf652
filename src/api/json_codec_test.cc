#include "src/api/json_codec.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "src/api/selector.h"
#include "src/api/taint.h"

namespace karpenter::api {
namespace {

struct Sample {
  std::string name;
  int32_t count = 0;
  std::optional<int64_t> limit;
  std::optional<bool> enabled;
  double ratio = 0;
  std::vector<std::string> tags;
  std::map<std::string, Quantity> resources;
  std::optional<IntOrString> budget;
  std::vector<Taint> taints;
  std::optional<LabelSelector> selector;
  bool operator==(const Sample&) const = default;
  template <class V>
  void Fields(V& v) {
    v("name", name);
    v("count", count);
    v("limit", limit);
    v("enabled", enabled);
    v("ratio", ratio);
    v("tags", tags);
    v("resources", resources);
    v("budget", budget);
    v("taints", taints);
    v("selector", selector);
    v.Ignore("managedFields");
  }
};

Sample MustDecode(std::string_view json, DecodeReport& report) {
  Sample out;
  absl::Status status = DecodeJsonText(json, out, report);
  EXPECT_TRUE(status.ok()) << status;
  return out;
}

TEST(JsonCodec, DecodesEveryFieldKind) {
  DecodeReport report;
  Sample s = MustDecode(R"({"name":"a","count":3,"limit":0,"enabled":false,"ratio":0.5,
      "tags":["x","y"],"resources":{"cpu":"500m","memory":1024},"budget":"10%",
      "taints":[{"key":"k","value":"v","effect":"NoSchedule"}],
      "selector":{"matchLabels":{"app":"web"}}})",
                        report);
  EXPECT_TRUE(report.errors.empty());
  EXPECT_TRUE(report.unknown_fields.empty());
  EXPECT_EQ(s.name, "a");
  EXPECT_EQ(s.count, 3);
  ASSERT_TRUE(s.limit.has_value());
  EXPECT_EQ(*s.limit, 0);
  ASSERT_TRUE(s.enabled.has_value());
  EXPECT_FALSE(*s.enabled);
  EXPECT_DOUBLE_EQ(s.ratio, 0.5);
  EXPECT_EQ(s.tags, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(s.resources.at("cpu").MilliValue(), 500);
  EXPECT_EQ(s.resources.at("memory").Value(), 1024);
  ASSERT_TRUE(s.budget.has_value());
  EXPECT_FALSE(s.budget->is_int);
  EXPECT_EQ(s.budget->str_value, "10%");
  ASSERT_EQ(s.taints.size(), 1u);
  EXPECT_EQ(s.taints[0].effect, "NoSchedule");
  EXPECT_EQ(s.selector->match_labels.at("app"), "web");
}

TEST(JsonCodec, ReportsTypeErrorsWithFieldPaths) {
  DecodeReport report;
  MustDecode(R"({"name":5,"count":"x","tags":[1],"resources":{"cpu":"abc"},
      "taints":[{"key":true}]})",
             report);
  EXPECT_TRUE(report.errors.Contains("name"));
  EXPECT_TRUE(report.errors.Contains("count"));
  EXPECT_TRUE(report.errors.Contains("tags[0]"));
  EXPECT_TRUE(report.errors.Contains("resources[cpu]"));
  EXPECT_TRUE(report.errors.Contains("taints[0].key"));
  // The value is quoted as the input wrote it, not as its JSON type (issue #27).
  EXPECT_EQ(report.errors.errors()[0].message, "Invalid value: 5: must be of type string");
}

TEST(JsonCodec, DuplicateKeysAreFieldErrors) {
  DecodeReport report;
  MustDecode(R"({"name":"a","count":1,"name":"b","resources":{"cpu":"1","cpu":"2"},
      "managedFields":1,"managedFields":2})",
             report);
  EXPECT_TRUE(report.errors.Contains("name"));
  EXPECT_TRUE(report.errors.Contains("resources[cpu]"));
  EXPECT_TRUE(report.errors.Contains("managedFields"));
  EXPECT_FALSE(report.errors.Contains("count"));
  EXPECT_EQ(report.errors.errors()[0].message, "duplicate field");
}

TEST(JsonCodec, RejectsFractionalIntegersAndOverflowingInt32) {
  DecodeReport report;
  MustDecode(R"({"count":1.5})", report);
  EXPECT_TRUE(report.errors.Contains("count"));
  DecodeReport overflow;
  MustDecode(R"({"count":4294967296})", overflow);
  EXPECT_TRUE(overflow.errors.Contains("count"));
  DecodeReport integral;
  Sample s = MustDecode(R"({"count":3.0})", integral);
  EXPECT_TRUE(integral.errors.empty());
  EXPECT_EQ(s.count, 3);
}

TEST(JsonCodec, ReportsUnknownFieldsButNotIgnoredOnes) {
  DecodeReport report;
  MustDecode(
      R"({"name":"a","managedFields":[],"surprise":1,"taints":[{"key":"k","colour":"red"}]})",
      report);
  EXPECT_TRUE(report.errors.empty());
  std::vector<std::string> unknown = report.unknown_fields;
  std::sort(unknown.begin(), unknown.end());
  EXPECT_EQ(unknown, (std::vector<std::string>{"surprise", "taints[0].colour"}));
  EXPECT_EQ(report.unknown_count, 2u);
}

TEST(JsonCodec, NullMeansUnset) {
  DecodeReport report;
  Sample s = MustDecode(R"({"name":null,"limit":null,"tags":null,"selector":null})", report);
  EXPECT_TRUE(report.errors.empty());
  EXPECT_EQ(s, Sample{});
}

TEST(JsonCodec, EncodesInDeclarationOrderOmittingEmpty) {
  Sample s;
  s.name = "a";
  s.limit = 0;
  s.enabled = false;
  s.resources["cpu"] = *Quantity::Parse("1.5");
  s.budget = IntOrString{.is_int = true, .int_value = 3, .str_value = ""};
  EXPECT_EQ(EncodeJson(s),
            R"({"name":"a","limit":0,"enabled":false,"resources":{"cpu":"1500m"},"budget":3})");
}

TEST(JsonCodec, RoundTripIsLossless) {
  DecodeReport report;
  Sample first = MustDecode(R"({"name":"a\"b\n","count":-7,"limit":9000000000,"ratio":1e-3,
      "tags":["","z"],"resources":{"memory":"1.5Gi","cpu":"2"},"budget":5,
      "taints":[{"key":"k","effect":"NoExecute","timeAdded":"2024-06-22T02:24:16Z"}],
      "selector":{"matchExpressions":[{"key":"a","operator":"In","values":["b"]}]}})",
                            report);
  ASSERT_TRUE(report.errors.empty());
  DecodeReport again;
  Sample second = MustDecode(EncodeJson(first), again);
  EXPECT_TRUE(again.errors.empty());
  EXPECT_EQ(first, second);
  EXPECT_EQ(EncodeJson(first), EncodeJson(second));
}

TEST(JsonCodec, MalformedJsonIsAnError) {
  Sample out;
  DecodeReport report;
  EXPECT_FALSE(DecodeJsonText(R"({"name": )", out, report).ok());
}

TEST(JsonCodec, ObjectExpectedWhereScalarGiven) {
  DecodeReport report;
  MustDecode(R"({"selector":"app=web","taints":{"key":"k"}})", report);
  EXPECT_TRUE(report.errors.Contains("selector"));
  EXPECT_TRUE(report.errors.Contains("taints"));
}

}  // namespace
}  // namespace karpenter::api

namespace karpenter::api {
namespace {

struct Holder {
  std::optional<LabelSelector> selector;
  LabelSelector plain;
  bool operator==(const Holder&) const = default;
  template <class V>
  void Fields(V& v) {
    v("selector", selector);
    v("plain", plain);
  }
};

TEST(JsonCodec, SetButEmptyOptionalStructSurvivesRoundTrip) {
  Holder h;
  h.selector = LabelSelector{};
  std::string json = EncodeJson(h);
  EXPECT_EQ(json, R"({"selector":{}})");
  Holder back;
  DecodeReport report;
  ASSERT_TRUE(DecodeJsonText(json, back, report).ok());
  EXPECT_EQ(back, h);
}

}  // namespace
}  // namespace karpenter::api
