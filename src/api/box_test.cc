#include "src/api/box.h"

#include <optional>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "src/api/json_codec.h"

namespace karpenter::api {
namespace {

struct Inner {
  std::string name;
  std::vector<int32_t> values;
  bool operator==(const Inner&) const = default;
  template <class V>
  void Fields(V& v) {
    v("name", name);
    v("values", values);
  }
};

struct Outer {
  std::string id;
  Box<Inner> inner;
  bool operator==(const Outer&) const = default;
  template <class V>
  void Fields(V& v) {
    v("id", id);
    v("inner", inner);
  }
};

static_assert(sizeof(Box<Inner>) == sizeof(void*));
static_assert(std::is_nothrow_move_constructible_v<Box<Inner>>);

TEST(Box, DefaultIsEmpty) {
  Box<Inner> box;
  EXPECT_FALSE(box.has_value());
  EXPECT_FALSE(static_cast<bool>(box));
  EXPECT_TRUE(box == std::nullopt);
}

TEST(Box, EmplaceAndAccessLikeOptional) {
  Box<Inner> box;
  box.emplace().name = "a";
  ASSERT_TRUE(box.has_value());
  EXPECT_EQ(box->name, "a");
  EXPECT_EQ((*box).name, "a");
  box.emplace(Inner{.name = "b", .values = {1}});
  EXPECT_EQ(box->name, "b");
  EXPECT_EQ(box->values, std::vector<int32_t>{1});
}

TEST(Box, AssignValueNulloptAndEmptyBraces) {
  Box<Inner> box = Inner{.name = "a", .values = {}};
  EXPECT_EQ(box->name, "a");
  const Inner other{.name = "b", .values = {2}};
  box = other;
  EXPECT_EQ(*box, other);
  box = std::nullopt;
  EXPECT_FALSE(box.has_value());
  box = Inner{.name = "c", .values = {}};
  box = {};
  EXPECT_FALSE(box.has_value());
  box = Inner{.name = "d", .values = {}};
  box.reset();
  EXPECT_FALSE(box.has_value());
}

TEST(Box, CopyIsDeep) {
  Box<Inner> original = Inner{.name = "a", .values = {1, 2}};
  Box<Inner> copy = original;
  copy->name = "changed";
  copy->values.push_back(3);
  EXPECT_EQ(original->name, "a");
  EXPECT_EQ(original->values, (std::vector<int32_t>{1, 2}));
  EXPECT_EQ(copy->name, "changed");
}

TEST(Box, CopyAssignCopiesValueOrEmptiness) {
  Box<Inner> set = Inner{.name = "a", .values = {}};
  Box<Inner> target = Inner{.name = "old", .values = {9}};
  target = set;
  EXPECT_EQ(target, set);
  set->name = "b";
  EXPECT_EQ(target->name, "a");

  Box<Inner> empty;
  target = empty;
  EXPECT_FALSE(target.has_value());
  Box<Inner> fresh;
  fresh = set;
  EXPECT_EQ(fresh->name, "b");

  const Box<Inner>& self = fresh;
  fresh = self;
  EXPECT_EQ(fresh->name, "b");
}

TEST(Box, MoveTransfersValue) {
  Box<Inner> source = Inner{.name = "a", .values = {}};
  Box<Inner> target = std::move(source);
  ASSERT_TRUE(target.has_value());
  EXPECT_EQ(target->name, "a");
}

TEST(Box, EqualityComparesPresenceThenValue) {
  Box<Inner> empty_a;
  Box<Inner> empty_b;
  Box<Inner> a = Inner{.name = "a", .values = {}};
  Box<Inner> a2 = Inner{.name = "a", .values = {}};
  Box<Inner> b = Inner{.name = "b", .values = {}};
  EXPECT_EQ(empty_a, empty_b);
  EXPECT_NE(empty_a, a);
  EXPECT_NE(a, empty_a);
  EXPECT_EQ(a, a2);
  EXPECT_NE(a, b);
  EXPECT_TRUE(a == (Inner{.name = "a", .values = {}}));
  EXPECT_FALSE(empty_a == (Inner{.name = "a", .values = {}}));
  EXPECT_FALSE(a == std::nullopt);
}

TEST(Box, DefaultedEqualityOfEnclosingStructUsesValues) {
  Outer x{.id = "x", .inner = Inner{.name = "n", .values = {}}};
  Outer y = x;
  EXPECT_EQ(x, y);
  y.inner->values.push_back(1);
  EXPECT_NE(x, y);
}

TEST(BoxCodec, DecodesPresentKeyIntoBox) {
  Outer out;
  DecodeReport report;
  ASSERT_TRUE(
      DecodeJsonText(R"({"id":"x","inner":{"name":"n","values":[1,2]}})", out, report).ok());
  EXPECT_TRUE(report.errors.empty());
  ASSERT_TRUE(out.inner.has_value());
  EXPECT_EQ(out.inner->name, "n");
  EXPECT_EQ(out.inner->values, (std::vector<int32_t>{1, 2}));
}

TEST(BoxCodec, AbsentOrNullKeyLeavesBoxEmpty) {
  for (const char* json : {R"({"id":"x"})", R"({"id":"x","inner":null})"}) {
    Outer out;
    DecodeReport report;
    ASSERT_TRUE(DecodeJsonText(json, out, report).ok()) << json;
    EXPECT_FALSE(out.inner.has_value()) << json;
    EXPECT_TRUE(report.unknown_fields.empty()) << json;
  }
}

TEST(BoxCodec, ReportsUnknownKeysAndTypeErrorsInsideBox) {
  Outer out;
  DecodeReport report;
  ASSERT_TRUE(DecodeJsonText(R"({"inner":{"name":"n","extra":1}})", out, report).ok());
  EXPECT_THAT(report.unknown_fields, testing::ElementsAre("inner.extra"));

  Outer bad;
  DecodeReport bad_report;
  ASSERT_TRUE(DecodeJsonText(R"({"inner":{"values":"no"}})", bad, bad_report).ok());
  ASSERT_EQ(bad_report.errors.size(), 1u);
  EXPECT_EQ(bad_report.errors.errors()[0].path, "inner.values");
}

TEST(BoxCodec, NonObjectValueIsATypeErrorLikeOptional) {
  Outer out;
  DecodeReport report;
  ASSERT_TRUE(DecodeJsonText(R"({"inner":5})", out, report).ok());
  ASSERT_EQ(report.errors.size(), 1u);
  EXPECT_EQ(report.errors.errors()[0].path, "inner");
  // Same as std::optional: the key was present, so the box holds a (default) value.
  ASSERT_TRUE(out.inner.has_value());
  EXPECT_EQ(*out.inner, Inner{});
}

TEST(BoxCodec, EncodeOmitsEmptyBoxAndKeepsSetEmptyOne) {
  EXPECT_EQ(EncodeJson(Outer{.id = "x", .inner = {}}), R"({"id":"x"})");
  EXPECT_EQ(EncodeJson(Outer{.id = "x", .inner = Inner{}}), R"({"id":"x","inner":{}})");
  EXPECT_EQ(EncodeJson(Outer{.id = "", .inner = Inner{.name = "n", .values = {3}}}),
            R"({"inner":{"name":"n","values":[3]}})");
}

TEST(BoxCodec, RoundTripPreservesPresence) {
  for (const char* json : {R"({"id":"x"})", R"({"id":"x","inner":{}})",
                           R"({"id":"x","inner":{"name":"n","values":[1]}})"}) {
    Outer out;
    DecodeReport report;
    ASSERT_TRUE(DecodeJsonText(json, out, report).ok());
    EXPECT_EQ(EncodeJson(out), json);
  }
}

}  // namespace
}  // namespace karpenter::api
