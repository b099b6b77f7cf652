#include "src/provisioning/go_sort.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rapidcheck/gtest.h"
#include "src/provisioning/go_sort_test_data.h"

namespace karpenter::provisioning {
namespace {

// The keys of items 0..n-1 for a case of go_sort_test_data.h; the generator that produced the
// expectations built the same keys.
std::vector<int> Keys(const std::string& pattern, int n, int m) {
  std::vector<int> keys(static_cast<size_t>(n));
  uint64_t state = static_cast<uint64_t>(n) * 1000003 + static_cast<uint64_t>(m);
  for (int i = 0; i < n; ++i) {
    int& key = keys[static_cast<size_t>(i)];
    if (pattern == "lcg") {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      key = static_cast<int>((state >> 33) % static_cast<uint64_t>(m));
    } else if (pattern == "sorted" || pattern == "bumped") {
      key = i / m;
    } else if (pattern == "reversed") {
      key = (n - 1 - i) / m;
    } else if (pattern == "pipe") {
      key = std::min(i, n - 1 - i) / m;
    } else if (pattern == "appended") {
      key = 1 + i / m;
    }
  }
  // The scheduler's two cases: one element of a sorted slice grew, or a small one was appended.
  if (pattern == "bumped") ++keys[static_cast<size_t>(n / 3)];
  if (pattern == "appended") keys.back() = 1;
  return keys;
}

struct Items {
  std::vector<int> keys;
  std::vector<int> ids;
  bool Less(ptrdiff_t a, ptrdiff_t b) const {
    return keys[static_cast<size_t>(a)] < keys[static_cast<size_t>(b)];
  }
  void Swap(ptrdiff_t a, ptrdiff_t b) {
    std::swap(keys[static_cast<size_t>(a)], keys[static_cast<size_t>(b)]);
    std::swap(ids[static_cast<size_t>(a)], ids[static_cast<size_t>(b)]);
  }
};

Items MakeItems(const std::vector<int>& keys) {
  Items items{keys, std::vector<int>(keys.size())};
  for (size_t i = 0; i < keys.size(); ++i) items.ids[i] = static_cast<int>(i);
  return items;
}

TEST(GoSortSlice, LeavesEqualKeysInGoOrder) {
  int checked_short = 0, checked_long = 0;
  for (const GoSortCase& test : GoSortCases()) {
    const std::string pattern = test.pattern;
    if (pattern.starts_with("heap:")) continue;
    Items items = MakeItems(Keys(pattern, test.n, test.m));
    GoSortSlice(
        items.keys.size(), [&](ptrdiff_t a, ptrdiff_t b) { return items.Less(a, b); },
        [&](ptrdiff_t a, ptrdiff_t b) { items.Swap(a, b); });
    EXPECT_EQ(items.ids, test.expected_ids) << pattern << " n=" << test.n << " m=" << test.m;
    (test.n <= 12 ? checked_short : checked_long)++;
  }
  // Both insertion sort (n ≤ 12) and the quicksort are covered.
  EXPECT_GE(checked_short, 20);
  EXPECT_GE(checked_long, 60);
}

TEST(GoSortSlice, HeapSortFallbackLeavesGoOrder) {
  int checked = 0;
  for (const GoSortCase& test : GoSortCases()) {
    const std::string pattern = test.pattern;
    if (!pattern.starts_with("heap:")) continue;
    Items items = MakeItems(Keys(pattern.substr(5), test.n, test.m));
    auto less = [&](ptrdiff_t a, ptrdiff_t b) { return items.Less(a, b); };
    auto swap = [&](ptrdiff_t a, ptrdiff_t b) { items.Swap(a, b); };
    // No bad pivots left: Go's quicksort goes straight to heap sort for a range over 12.
    go_sort_internal::Sorter<decltype(less), decltype(swap)> sorter(less, swap);
    sorter.Sort(0, test.n, 0);
    EXPECT_EQ(items.ids, test.expected_ids) << pattern << " n=" << test.n;
    ++checked;
  }
  EXPECT_EQ(checked, 3);
}

TEST(GoSortSlice, IsNotStableBeyondTwelveElements) {
  // A property the scheduler relies on being reproduced, not avoided: Go's own output for this
  // case puts equal keys out of their original order.
  for (const GoSortCase& test : GoSortCases()) {
    if (std::string(test.pattern) != "lcg" || test.n != 257 || test.m != 2) continue;
    const std::vector<int> keys = Keys("lcg", test.n, test.m);
    std::vector<int> stable = MakeItems(keys).ids;
    std::stable_sort(stable.begin(), stable.end(), [&](int a, int b) {
      return keys[static_cast<size_t>(a)] < keys[static_cast<size_t>(b)];
    });
    EXPECT_NE(stable, test.expected_ids);
    return;
  }
  FAIL() << "case lcg n=257 m=2 missing";
}

RC_GTEST_PROP(GoSortSlice, SortsAnyInput, (std::vector<uint8_t> raw)) {
  std::vector<int> keys(raw.begin(), raw.end());
  for (int& key : keys) key %= 9;  // many ties
  Items items = MakeItems(keys);
  GoSortSlice(
      keys.size(), [&](ptrdiff_t a, ptrdiff_t b) { return items.Less(a, b); },
      [&](ptrdiff_t a, ptrdiff_t b) { items.Swap(a, b); });
  RC_ASSERT(std::is_sorted(items.keys.begin(), items.keys.end()));
  std::vector<int> ids = items.ids;
  std::sort(ids.begin(), ids.end());
  RC_ASSERT(ids == MakeItems(keys).ids);  // a permutation
}

TEST(GoSortSamplesIncreasing, FalseWhenASampleIsOutOfOrder) {
  std::vector<int> keys(60);
  for (size_t i = 0; i < keys.size(); ++i) keys[i] = static_cast<int>(i / 4);
  auto less = [&](ptrdiff_t a, ptrdiff_t b) {
    return keys[static_cast<size_t>(a)] < keys[static_cast<size_t>(b)];
  };
  EXPECT_TRUE(GoSortSamplesIncreasing(keys.size(), less));
  keys[30] += 5;  // the middle sample (60 / 4 × 2)
  EXPECT_FALSE(GoSortSamplesIncreasing(keys.size(), less));
  keys[30] -= 5;
  keys[40] += 5;  // between samples
  EXPECT_TRUE(GoSortSamplesIncreasing(keys.size(), less));
}

}  // namespace
}  // namespace karpenter::provisioning
