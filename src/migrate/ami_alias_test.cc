#include "src/migrate/ami_alias.h"

#include "gtest/gtest.h"

namespace karpenter::migrate {
namespace {

TEST(AmiAlias, PinsTheBuildDateOfAnAl2023Release) {
  AmiChoice choice = AmiAliasFor("AL2023_x86_64_STANDARD", "1.30.4-20240917");
  EXPECT_EQ(choice.alias, "al2023@v20240917");
  EXPECT_TRUE(choice.loss.empty());
  EXPECT_EQ(AmiAliasFor("AL2_ARM_64", "1.29.0-20240213").alias, "al2@v20240213");
}

TEST(AmiAlias, FollowsLatestWhenTheReleaseHasNoBuildDate) {
  AmiChoice choice = AmiAliasFor("AL2023_ARM_64_STANDARD", "custom");
  EXPECT_EQ(choice.alias, "al2023@latest");
  EXPECT_FALSE(choice.loss.empty());
}

TEST(AmiAlias, MapsBottlerocketAndWindowsFamilies) {
  EXPECT_EQ(AmiAliasFor("BOTTLEROCKET_x86_64", "1.20.3-5d9ac849").alias, "bottlerocket@latest");
  EXPECT_EQ(AmiAliasFor("WINDOWS_CORE_2022_x86_64", "").alias, "windows2022@latest");
}

TEST(AmiAlias, SaysWhatIsLostForACustomAmi) {
  AmiChoice choice = AmiAliasFor("CUSTOM", "");
  EXPECT_EQ(choice.alias, "al2023@latest");
  EXPECT_NE(choice.loss.find("CUSTOM"), std::string::npos);
}

}  // namespace
}  // namespace karpenter::migrate
