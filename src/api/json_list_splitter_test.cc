#include "src/api/json_list_splitter.h"

#include <gtest/gtest.h>

namespace karpenter::api {
namespace {

TEST(SplitJsonList, SplitsItemsOfAKubectlList) {
  auto split = SplitJsonList(
      R"( {"apiVersion":"v1","items":[ {"a":"}]\"{"} , [1,{"b":[]}], "s", 5 ],"kind":"List",
          "metadata":{"resourceVersion":""}} )");
  ASSERT_TRUE(split.has_value());
  ASSERT_EQ(split->items.size(), 4u);
  EXPECT_EQ(split->items[0], R"({"a":"}]\"{"})");
  EXPECT_EQ(split->items[1], R"([1,{"b":[]}])");
  EXPECT_EQ(split->items[2], R"("s")");
  EXPECT_EQ(split->items[3], "5");
  EXPECT_EQ(split->other_values.size(), 3u);
}

TEST(SplitJsonList, EmptyListHasNoItems) {
  auto split = SplitJsonList(R"({"kind":"PodList","items":[]})");
  ASSERT_TRUE(split.has_value());
  EXPECT_TRUE(split->items.empty());
}

TEST(SplitJsonList, DeclinesAnythingElse) {
  EXPECT_FALSE(SplitJsonList(R"({"kind":"Pod","items":[]})"));  // not a List
  EXPECT_FALSE(SplitJsonList(R"({"kind":"List"})"));            // no items
  EXPECT_FALSE(SplitJsonList(R"([{"kind":"List","items":[]}])"));
  EXPECT_FALSE(SplitJsonList(R"({"kind":"List","items":[{"a":1}})"));    // unbalanced
  EXPECT_FALSE(SplitJsonList(R"({"kind":"List","items":[{"a":"x}]})"));  // open string
  EXPECT_FALSE(SplitJsonList(R"({"kind":"List","items":[]} trailing)"));
  EXPECT_FALSE(SplitJsonList(R"({"kind":"List","items":[1 2]})"));
  EXPECT_FALSE(SplitJsonList(R"({"kind":"List" "items":[]})"));
  EXPECT_FALSE(SplitJsonList(""));
}

TEST(SplitJsonList, EscapedBackslashBeforeQuoteEndsTheString) {
  auto split = SplitJsonList(R"({"kind":"List","items":[{"p":"C:\\"},{"q":1}]})");
  ASSERT_TRUE(split.has_value());
  ASSERT_EQ(split->items.size(), 2u);
  EXPECT_EQ(split->items[1], R"({"q":1})");
}

}  // namespace
}  // namespace karpenter::api
