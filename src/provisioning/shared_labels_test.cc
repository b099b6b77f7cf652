#include "src/provisioning/shared_labels.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace karpenter::provisioning {
namespace {

using Map = SharedLabels::Map;

// Stands for a snapshot's node list: the borrowed maps live inside it.
std::shared_ptr<const std::vector<Map>> Owner() {
  return std::make_shared<const std::vector<Map>>(
      std::vector<Map>{{{"zone", "a"}, {"type", "m5.large"}}});
}

TEST(SharedLabels, ABorrowedMapIsReadInPlace) {
  const auto owner = Owner();
  const SharedLabels labels = SharedLabels::Borrow(owner, owner->front());
  EXPECT_TRUE(labels.SharesWith(owner->front()));
  EXPECT_EQ(labels.size(), 2u);
  ASSERT_NE(labels.find(std::string("zone")), labels.end());
  EXPECT_EQ(labels.find(std::string("zone"))->second, "a");
  EXPECT_TRUE(labels.contains(std::string("type")));
  const Map& as_map = labels;
  EXPECT_EQ(&as_map, &owner->front());
}

TEST(SharedLabels, ABorrowedMapOutlivesTheOwnersHandle) {
  auto owner = Owner();
  const Map* inside = &owner->front();
  const SharedLabels labels = SharedLabels::Borrow(owner, *inside);
  owner.reset();  // the labels keep the list alive
  EXPECT_EQ(labels.find(std::string("type"))->second, "m5.large");
}

TEST(SharedLabels, WritingCopiesABorrowedMapFirst) {
  const auto owner = Owner();
  SharedLabels labels = SharedLabels::Borrow(owner, owner->front());
  labels["zone"] = "b";
  EXPECT_FALSE(labels.SharesWith(owner->front()));
  EXPECT_EQ(owner->front().at("zone"), "a");
  EXPECT_EQ(labels.map(), (Map{{"zone", "b"}, {"type", "m5.large"}}));
}

TEST(SharedLabels, CopiesShareUntilOneIsWritten) {
  const SharedLabels a = Map{{"k", "v"}};
  SharedLabels b = a;
  EXPECT_TRUE(b.SharesWith(a.map()));
  b["k"] = "w";
  EXPECT_FALSE(b.SharesWith(a.map()));
  EXPECT_EQ(a.map(), (Map{{"k", "v"}}));
  EXPECT_EQ(b.map(), (Map{{"k", "w"}}));
}

TEST(SharedLabels, ASoleOwnerWritesInPlace) {
  SharedLabels labels = {{"k", "v"}};
  const Map* before = &labels.map();
  labels["other"] = "x";
  labels.Mutable().erase("k");
  EXPECT_EQ(&labels.map(), before);
  EXPECT_EQ(labels.map(), (Map{{"other", "x"}}));
}

TEST(SharedLabels, EmptyLabelsReadAsAnEmptyMapAndCompareByContent) {
  SharedLabels empty;
  EXPECT_TRUE(empty.empty());
  EXPECT_EQ(empty.begin(), empty.end());
  EXPECT_EQ(empty, SharedLabels(Map{}));
  const auto owner = Owner();
  EXPECT_EQ(SharedLabels::Borrow(owner, owner->front()),
            SharedLabels(Map{{"type", "m5.large"}, {"zone", "a"}}));
  EXPECT_FALSE(SharedLabels(Map{{"k", "v"}}) == SharedLabels(Map{{"k", "w"}}));
  empty["k"] = "v";
  EXPECT_EQ(empty.size(), 1u);
}

}  // namespace
}  // namespace karpenter::provisioning
