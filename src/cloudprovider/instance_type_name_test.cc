#include "src/cloudprovider/instance_type_name.h"

#include "gtest/gtest.h"

namespace karpenter::cloudprovider {
namespace {

TEST(InstanceTypeName, SplitsFamilySizeCategoryAndGeneration) {
  EXPECT_EQ(
      ParseInstanceTypeName("m5.large"),
      (InstanceTypeName{.family = "m5", .size = "large", .category = "m", .generation = "5"}));
  EXPECT_EQ(ParseInstanceTypeName("inf2.48xlarge"),
            (InstanceTypeName{
                .family = "inf2", .size = "48xlarge", .category = "inf", .generation = "2"}));
}

TEST(InstanceTypeName, GenerationIsTheFirstDigitsAfterTheLetters) {
  auto flex = ParseInstanceTypeName("c7i-flex.large");
  ASSERT_TRUE(flex.has_value());
  EXPECT_EQ(flex->family, "c7i-flex");
  EXPECT_EQ(flex->category, "c");
  EXPECT_EQ(flex->generation, "7");
  auto nitro = ParseInstanceTypeName("x2iezn.metal");
  ASSERT_TRUE(nitro.has_value());
  EXPECT_EQ(nitro->category, "x");
  EXPECT_EQ(nitro->generation, "2");
  EXPECT_EQ(nitro->size, "metal");
}

TEST(InstanceTypeName, HighMemoryTerabyteInfixIsSkipped) {
  auto old_style = ParseInstanceTypeName("u-6tb1.56xlarge");
  ASSERT_TRUE(old_style.has_value());
  EXPECT_EQ(old_style->family, "u-6tb1");
  EXPECT_EQ(old_style->category, "u");
  EXPECT_EQ(old_style->generation, "1");
  auto new_style = ParseInstanceTypeName("u7i-12tb.224xlarge");
  ASSERT_TRUE(new_style.has_value());
  EXPECT_EQ(new_style->category, "u");
  EXPECT_EQ(new_style->generation, "7");
}

TEST(InstanceTypeName, NoCategoryWhenThePatternDoesNotMatch) {
  auto no_digits = ParseInstanceTypeName("mac.metal");
  ASSERT_TRUE(no_digits.has_value());
  EXPECT_EQ(no_digits->family, "mac");
  EXPECT_EQ(no_digits->category, "");
  EXPECT_EQ(no_digits->generation, "");
  auto dangling_infix = ParseInstanceTypeName("u-6tb.xlarge");
  ASSERT_TRUE(dangling_infix.has_value());
  EXPECT_EQ(dangling_infix->category, "");
}

TEST(InstanceTypeName, RejectsNamesWithoutExactlyOneDot) {
  EXPECT_FALSE(ParseInstanceTypeName("m5").has_value());
  EXPECT_FALSE(ParseInstanceTypeName("m5.large.x").has_value());
  EXPECT_FALSE(ParseInstanceTypeName(".large").has_value());
  EXPECT_FALSE(ParseInstanceTypeName("m5.").has_value());
}

}  // namespace
}  // namespace karpenter::cloudprovider
