// The order Go's `sort.Slice` leaves a slice in, reproduced exactly. Upstream Karpenter sorts its
// in-flight NodeClaims by pod count with `sort.Slice` before placing each pod, and that sort is not
// stable: among claims with equal counts, which one a pod tries first is whatever Go's algorithm
// leaves behind. To make upstream's choice we must run the same algorithm, comparison for
// comparison and swap for swap. It is deterministic (its one source of "randomness", used to break
// up adversarial patterns, is a xorshift generator seeded with the length of the range), so an
// exact match is possible.
//
// The algorithm is pattern-defeating quicksort as Go's standard library has it since Go 1.19
// (`pdqsort_func` in src/sort/zsortfunc.go): ranges of at most 12 elements are insertion sorted
// (which is stable); longer ones pick a pivot from three samples (nine, as medians of neighbours,
// from 50 elements up), try a bounded insertion pass when the samples came out increasing,
// separate runs of elements equal to the previous pivot, shuffle three elements when the last
// partition was lopsided, and give up on quicksort for heap sort after too many lopsided ones.
//
// Like Go's `lessSwap`, the caller works on positions: `less(i, j)` compares the elements now at
// positions i and j, `swap(i, j)` exchanges them, so the caller may keep other arrays in step.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>

namespace karpenter::provisioning {

namespace go_sort_internal {

enum class Hint { kUnknown, kIncreasing, kDecreasing };

// Go's `bits.Len`: the number of bits needed to write `x` (0 for 0).
inline int BitLength(uint64_t x) { return static_cast<int>(std::bit_width(x)); }

// Pivot choice only compares, so it is shared with callers that sort nothing.
template <typename Less>
class PivotChooser {
 public:
  explicit PivotChooser(Less& less) : less_(less) {}

  // The pivot for [a, b) and whether its samples were already in order (no reordering at all),
  // in reverse order (every comparison reordered) or neither.
  std::pair<ptrdiff_t, Hint> Choose(ptrdiff_t a, ptrdiff_t b) {
    constexpr ptrdiff_t kShortestNinther = 50;
    constexpr int kAllReordered = 4 * 3;  // four medians of three, three comparisons each
    const ptrdiff_t length = b - a;
    int reordered = 0;
    ptrdiff_t i = a + length / 4 * 1;
    ptrdiff_t j = a + length / 4 * 2;
    ptrdiff_t k = a + length / 4 * 3;
    if (length >= 8) {
      if (length >= kShortestNinther) {
        i = Median(i - 1, i, i + 1, reordered);
        j = Median(j - 1, j, j + 1, reordered);
        k = Median(k - 1, k, k + 1, reordered);
      }
      j = Median(i, j, k, reordered);
    }
    if (reordered == 0) return {j, Hint::kIncreasing};
    if (reordered == kAllReordered) return {j, Hint::kDecreasing};
    return {j, Hint::kUnknown};
  }

 private:
  // Orders the two positions so the first holds the smaller element, counting a reorder.
  void Order(ptrdiff_t& x, ptrdiff_t& y, int& reordered) {
    if (!less_(y, x)) return;
    std::swap(x, y);
    ++reordered;
  }
  ptrdiff_t Median(ptrdiff_t x, ptrdiff_t y, ptrdiff_t z, int& reordered) {
    Order(x, y, reordered);
    Order(y, z, reordered);
    Order(x, y, reordered);
    return y;
  }

  Less& less_;
};

template <typename Less, typename Swap>
class Sorter {
 public:
  Sorter(Less& less, Swap& swap) : less_(less), swap_(swap), pivots_(less) {}

  void Sort(ptrdiff_t a, ptrdiff_t b, int bad_pivots_left) {
    constexpr ptrdiff_t kMaxInsertion = 12;
    bool last_balanced = true;     // the last partition left both sides at least 1/8 of the range
    bool last_partitioned = true;  // the last partition found the range already partitioned
    while (true) {
      const ptrdiff_t length = b - a;
      if (length <= kMaxInsertion) return InsertionSort(a, b);
      if (bad_pivots_left == 0) return HeapSort(a, b);
      if (!last_balanced) {
        BreakPatterns(a, b);
        --bad_pivots_left;
      }
      auto [pivot, hint] = pivots_.Choose(a, b);
      if (hint == Hint::kDecreasing) {
        Reverse(a, b);
        pivot = (b - 1) - (pivot - a);  // the same element, now mirrored
        hint = Hint::kIncreasing;
      }
      if (last_balanced && last_partitioned && hint == Hint::kIncreasing &&
          PartialInsertionSort(a, b)) {
        return;
      }
      // The element before the range is no greater than any in it (it was a pivot): if it equals
      // the pivot, the range starts with a run of equal elements, set apart in one pass.
      if (a > 0 && !less_(a - 1, pivot)) {
        a = PartitionEqual(a, b, pivot);
        continue;
      }
      const auto [mid, was_partitioned] = Partition(a, b, pivot);
      last_partitioned = was_partitioned;
      const ptrdiff_t left = mid - a;
      const ptrdiff_t right = b - mid;
      // Recurse into the smaller side, loop on the larger: the stack stays logarithmic.
      if (left < right) {
        last_balanced = left >= length / 8;
        Sort(a, mid, bad_pivots_left);
        a = mid + 1;
      } else {
        last_balanced = right >= length / 8;
        Sort(mid + 1, b, bad_pivots_left);
        b = mid;
      }
    }
  }

 private:
  void InsertionSort(ptrdiff_t a, ptrdiff_t b) {
    for (ptrdiff_t i = a + 1; i < b; ++i) {
      for (ptrdiff_t j = i; j > a && less_(j, j - 1); --j) swap_(j, j - 1);
    }
  }

  // Restores the max-heap property below `root` in the heap of `size` nodes stored from `base`.
  void SiftDown(ptrdiff_t root, ptrdiff_t size, ptrdiff_t base) {
    while (true) {
      ptrdiff_t child = 2 * root + 1;
      if (child >= size) return;
      if (child + 1 < size && less_(base + child, base + child + 1)) ++child;
      if (!less_(base + root, base + child)) return;
      swap_(base + root, base + child);
      root = child;
    }
  }

  void HeapSort(ptrdiff_t a, ptrdiff_t b) {
    const ptrdiff_t size = b - a;
    for (ptrdiff_t i = (size - 1) / 2; i >= 0; --i) SiftDown(i, size, a);
    for (ptrdiff_t i = size - 1; i >= 0; --i) {
      swap_(a, a + i);
      SiftDown(0, i, a);
    }
  }

  // Bounded insertion pass for a range that looks sorted: true when it is sorted afterwards.
  // Ranges under 50 elements are only checked, never changed here.
  bool PartialInsertionSort(ptrdiff_t a, ptrdiff_t b) {
    constexpr int kMaxFixes = 5;
    constexpr ptrdiff_t kShortestShifting = 50;
    ptrdiff_t i = a + 1;
    for (int fix = 0; fix < kMaxFixes; ++fix) {
      while (i < b && !less_(i, i - 1)) ++i;
      if (i == b) return true;
      if (b - a < kShortestShifting) return false;
      swap_(i, i - 1);
      // Go lets the smaller element travel down to position 1, not just to `a`; it stops at `a`
      // anyway (everything before the range is no greater), but the bound is kept as Go's.
      if (i - a >= 2) {
        for (ptrdiff_t j = i - 1; j >= 1 && less_(j, j - 1); --j) swap_(j, j - 1);
      }
      if (b - i >= 2) {
        for (ptrdiff_t j = i + 1; j < b && less_(j, j - 1); ++j) swap_(j, j - 1);
      }
    }
    return false;
  }

  // Swaps the three elements around the middle with pseudo-random ones, the generator seeded
  // with the length so that the same range is always shuffled the same way.
  void BreakPatterns(ptrdiff_t a, ptrdiff_t b) {
    const ptrdiff_t length = b - a;
    if (length < 8) return;
    uint64_t state = static_cast<uint64_t>(length);
    const uint64_t mask = (uint64_t{1} << BitLength(static_cast<uint64_t>(length))) - 1;
    const ptrdiff_t middle = a + (length / 4) * 2;
    for (ptrdiff_t at = middle - 1; at <= middle + 1; ++at) {
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
      ptrdiff_t other = static_cast<ptrdiff_t>(state & mask);
      if (other >= length) other -= length;
      swap_(at, a + other);
    }
  }

  void Reverse(ptrdiff_t a, ptrdiff_t b) {
    for (ptrdiff_t i = a, j = b - 1; i < j; ++i, --j) swap_(i, j);
  }

  // Hoare-style partition around the pivot (moved to `a` meanwhile): smaller elements end before
  // the returned position, which holds the pivot, and the others after it. The flag says no
  // element had to move across.
  std::pair<ptrdiff_t, bool> Partition(ptrdiff_t a, ptrdiff_t b, ptrdiff_t pivot) {
    swap_(a, pivot);
    ptrdiff_t i = a + 1;
    ptrdiff_t j = b - 1;
    bool untouched = true;
    while (true) {
      while (i <= j && less_(i, a)) ++i;
      while (i <= j && !less_(j, a)) --j;
      if (i > j) break;
      swap_(i, j);
      untouched = false;
      ++i;
      --j;
    }
    swap_(j, a);
    return {j, untouched};
  }

  // For a range with nothing smaller than the pivot: the elements equal to it first, the greater
  // ones after; returns where the greater ones start.
  ptrdiff_t PartitionEqual(ptrdiff_t a, ptrdiff_t b, ptrdiff_t pivot) {
    swap_(a, pivot);
    ptrdiff_t i = a + 1;
    ptrdiff_t j = b - 1;
    while (true) {
      while (i <= j && !less_(a, i)) ++i;
      while (i <= j && less_(a, j)) --j;
      if (i > j) return i;
      swap_(i, j);
      ++i;
      --j;
    }
  }

  Less& less_;
  Swap& swap_;
  PivotChooser<Less> pivots_;
};

}  // namespace go_sort_internal

// Sorts positions [0, n) as Go's `sort.Slice` would, given its `less` and a `swap` on positions.
template <typename Less, typename Swap>
void GoSortSlice(size_t n, Less less, Swap swap) {
  go_sort_internal::Sorter<Less, Swap> sorter(less, swap);
  sorter.Sort(0, static_cast<ptrdiff_t>(n), go_sort_internal::BitLength(n));
}

// Whether Go's sort, given [0, n), starts by finding its pivot samples in increasing order (no
// comparison among them reordered anything); then, for n ≥ 50, its first step is the bounded
// insertion pass. Only compares.
template <typename Less>
bool GoSortSamplesIncreasing(size_t n, Less less) {
  go_sort_internal::PivotChooser<Less> pivots(less);
  return pivots.Choose(0, static_cast<ptrdiff_t>(n)).second == go_sort_internal::Hint::kIncreasing;
}

}  // namespace karpenter::provisioning
