#include "src/state/generated_names.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>

namespace karpenter::state {
namespace {

TEST(GeneratedNames, SuffixIsFiveCharactersOfTheKubernetesAlphabet) {
  const std::regex pattern("[bcdfghjklmnpqrstvwxz2456789]{5}");
  std::set<std::string> seen;
  for (int i = 0; i < 200; ++i) {
    const std::string suffix = NameSuffix(StableHash({"ns", "owner", std::to_string(i)}));
    EXPECT_TRUE(std::regex_match(suffix, pattern)) << suffix;
    seen.insert(suffix);
  }
  EXPECT_EQ(seen.size(), 200u);
}

TEST(GeneratedNames, SameInputsSameHash) {
  EXPECT_EQ(StableHash({"default", "Deployment", "web", "0"}),
            StableHash({"default", "Deployment", "web", "0"}));
  EXPECT_NE(StableHash({"default", "Deployment", "web", "0"}),
            StableHash({"default", "Deployment", "web", "1"}));
}

TEST(GeneratedNames, PartBoundariesMatter) {
  EXPECT_NE(StableHash({"ab", "c"}), StableHash({"a", "bc"}));
  EXPECT_NE(StableHash({"a", ""}), StableHash({"a"}));
}

TEST(GeneratedNames, SuffixTakesLeastSignificantBase27DigitFirst) {
  EXPECT_EQ(NameSuffix(0), "bbbbb");
  EXPECT_EQ(GeneratedName("web-", 27 * 27 + 1), "web-cbcbb");
}

TEST(GeneratedNames, HashIsPinned) {
  // Generated names appear in reports and saved plans; changing the hash renames every pod.
  // (Value cross-checked with an independent FNV-1a + SplitMix64 implementation.)
  EXPECT_EQ(StableHash({"default", "Deployment", "workload-sample", "0"}), 0x3a827caa29047046ULL);
  EXPECT_EQ(NameSuffix(0x3a827caa29047046ULL), "5kb9r");
}

TEST(GeneratedNames, BaseIsTruncatedLikeTheApiServer) {
  const std::string base(70, 'a');
  const std::string name = GeneratedName(base, 0);
  EXPECT_EQ(name.size(), kMaxGeneratedNameBaseLength + kNameSuffixLength);
  EXPECT_EQ(name, std::string(58, 'a') + "bbbbb");
}

TEST(GeneratedNames, UidIsUuidShapedAndStable) {
  const std::regex pattern("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
  const std::string uid = DeterministicUid({"Pod", "default", "web-abcde"});
  EXPECT_TRUE(std::regex_match(uid, pattern)) << uid;
  EXPECT_EQ(uid, DeterministicUid({"Pod", "default", "web-abcde"}));
  EXPECT_NE(uid, DeterministicUid({"Pod", "default", "web-abcdf"}));
}

}  // namespace
}  // namespace karpenter::state
