// Upstream: pkg/controllers/provisioning/scheduling/scheduler.go (the sort in `add`)
#include "src/provisioning/claim_order.h"

#include <algorithm>
#include <cstddef>
#include <utility>

#include "src/provisioning/go_sort.h"

namespace karpenter::provisioning {
namespace {

// Go's insertion sort handles up to this many elements; its bounded insertion pass shifts
// elements only from kShortestShifting on (go_sort.h).
constexpr size_t kMaxInsertion = 12;
constexpr size_t kShortestShifting = 50;

}  // namespace

bool ClaimOrder::CreationBefore(size_t a, size_t b) const {
  return pods_[a] != pods_[b] ? pods_[a] < pods_[b] : a < b;
}

bool ClaimOrder::GoMovesOnlyTheChanged() const {
  const size_t n = order_.size();
  if (n <= kMaxInsertion) return true;
  if (n < kShortestShifting) return false;
  return GoSortSamplesIncreasing(n, [this](ptrdiff_t a, ptrdiff_t b) {
    return pods_[order_[static_cast<size_t>(a)]] < pods_[order_[static_cast<size_t>(b)]];
  });
}

void ClaimOrder::Move(size_t from, size_t to) {
  const auto at = [this](size_t position) {
    return order_.begin() + static_cast<std::ptrdiff_t>(position);
  };
  if (from < to) {
    std::rotate(at(from), at(from + 1), at(to + 1));
  } else {
    std::rotate(at(to), at(from), at(from + 1));
  }
  for (size_t i = std::min(from, to); i <= std::max(from, to); ++i) position_[order_[i]] = i;
}

void ClaimOrder::GoSortAll() {
  GoSortSlice(
      order_.size(),
      [this](ptrdiff_t a, ptrdiff_t b) {
        return pods_[order_[static_cast<size_t>(a)]] < pods_[order_[static_cast<size_t>(b)]];
      },
      [this](ptrdiff_t a, ptrdiff_t b) {
        std::swap(order_[static_cast<size_t>(a)], order_[static_cast<size_t>(b)]);
      });
  for (size_t i = 0; i < order_.size(); ++i) position_[order_[i]] = i;
}

void ClaimOrder::Add(size_t pods) {
  const size_t claim = pods_.size();
  pods_.push_back(pods);
  position_.push_back(order_.size());
  order_.push_back(claim);
  const size_t last = order_.size() - 1;
  // Upstream appends the claim and sorts before the next pod; already sorted, it stays last.
  if (last == 0 || pods_[order_[last - 1]] <= pods) return;
  if (ties_ == ClaimTieOrder::kUpstream && !GoMovesOnlyTheChanged()) return GoSortAll();
  // Both tie orders put it after every claim with as many pods: Go's insertion passes move it
  // down only past claims with more, and it is the newest.
  const auto to =
      std::upper_bound(order_.begin(), order_.end() - 1, pods,
                       [this](size_t value, size_t other) { return value < pods_[other]; });
  Move(last, static_cast<size_t>(to - order_.begin()));
}

void ClaimOrder::Grew(size_t claim) {
  const size_t from = position_[claim];
  const size_t pods = ++pods_[claim];
  const auto next = order_.begin() + static_cast<std::ptrdiff_t>(from + 1);
  if (ties_ == ClaimTieOrder::kCreation) {
    if (next == order_.end() || CreationBefore(claim, *next)) return;  // still sorted
    // The claims after it are still sorted: it goes before the first that now ranks after it.
    const auto to = std::lower_bound(next, order_.end(), claim,
                                     [this](size_t a, size_t b) { return CreationBefore(a, b); });
    return Move(from, static_cast<size_t>(to - order_.begin()) - 1);
  }
  if (next == order_.end() || pods_[*next] >= pods) return;  // still sorted
  if (!GoMovesOnlyTheChanged()) return GoSortAll();
  // Go's insertion passes swap it with each following claim it outranks (one pod fewer) and
  // stop at the first with as many pods as it now has.
  const auto to = std::lower_bound(next, order_.end(), pods, [this](size_t other, size_t value) {
    return pods_[other] < value;
  });
  Move(from, static_cast<size_t>(to - order_.begin()) - 1);
}

}  // namespace karpenter::provisioning
