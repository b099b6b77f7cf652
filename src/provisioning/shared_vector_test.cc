#include "src/provisioning/shared_vector.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace karpenter::provisioning {
namespace {

using ::testing::ElementsAre;

TEST(SharedVector, CopiesShareOneBuffer) {
  const SharedVector<std::string> a = std::vector<std::string>{"x", "y"};
  const SharedVector<std::string> b = a;  // NOLINT(performance-unnecessary-copy-initialization)
  EXPECT_TRUE(a.SharesWith(b));
  EXPECT_EQ(&a.front(), &b.front());
  EXPECT_THAT(b, ElementsAre("x", "y"));
}

TEST(SharedVector, MutatingACopyLeavesTheOriginal) {
  const SharedVector<std::string> a = {"x", "y"};
  SharedVector<std::string> b = a;
  b.push_back("z");
  EXPECT_FALSE(a.SharesWith(b));
  EXPECT_THAT(a, ElementsAre("x", "y"));
  EXPECT_THAT(b, ElementsAre("x", "y", "z"));
  SharedVector<std::string> c = a;
  c.Mutable()[0] = "w";
  c.resize(1);
  EXPECT_THAT(a, ElementsAre("x", "y"));
  EXPECT_THAT(c, ElementsAre("w"));
}

TEST(SharedVector, SoleOwnerMutatesInPlace) {
  SharedVector<int> a = {1, 2};
  const int* before = &a.front();
  a.Mutable()[0] = 3;
  EXPECT_EQ(&a.front(), before);
  EXPECT_THAT(a, ElementsAre(3, 2));
}

TEST(SharedVector, EmptyAndEquality) {
  SharedVector<int> empty;
  EXPECT_TRUE(empty.empty());
  EXPECT_EQ(empty.size(), 0u);
  EXPECT_EQ(empty.begin(), empty.end());
  empty.push_back(1);
  EXPECT_EQ(empty, (std::vector<int>{1}));
  empty.clear();
  EXPECT_TRUE(empty.empty());
  EXPECT_EQ(SharedVector<int>({1, 2}), SharedVector<int>({1, 2}));
  EXPECT_FALSE(SharedVector<int>({1, 2}) == SharedVector<int>({2, 1}));
}

}  // namespace
}  // namespace karpenter::provisioning
