// The order in which a solve offers a pod its in-flight NodeClaims. Upstream
// (provisioning/scheduling/scheduler.go `add`) sorts its new NodeClaims by pod count with Go's
// `sort.Slice` before every pod that no existing node takes, and tries them in that order, so the
// emptiest claims come first. The sort is not stable: among claims with as many pods, the order
// is whatever Go's algorithm makes of the previous one (go_sort.h). `ClaimTieOrder::kUpstream`
// reproduces it exactly; `kCreation` breaks ties by creation order instead.
//
// Sorting every claim for every pod costs upstream most of its time at 20,000 pods. Here the
// order is kept up to date as claims change, which gives the same result: between two of
// upstream's sorts exactly one claim changed (it gained a pod, or it is new and holds one), and a
// sort of an already sorted slice leaves it as it is. For that one change Go's algorithm is
// predictable without running it in full: on up to 12 claims (insertion sort), and on 50 or more
// when its pivot samples come out in order (it then starts with a bounded insertion pass), it
// moves the changed claim past the claims it now outranks and nothing else. Otherwise the whole
// Go sort runs.
#pragma once

#include <cstddef>
#include <vector>

#include "src/provisioning/types.h"

namespace karpenter::provisioning {

class ClaimOrder {
 public:
  explicit ClaimOrder(ClaimTieOrder ties) : ties_(ties) {}

  // A claim opened with `pods` pods; its index is the number of claims added before it.
  void Add(size_t pods);
  // The claim with index `claim` gained one pod.
  void Grew(size_t claim);

  size_t size() const { return order_.size(); }
  // The index of the claim tried at `position`.
  size_t operator[](size_t position) const { return order_[position]; }
  const std::vector<size_t>& order() const { return order_; }

 private:
  // The claim at position `from` now belongs at `to`; the claims between shift by one.
  void Move(size_t from, size_t to);
  // Go's sort over the whole order, as upstream runs it.
  void GoSortAll();
  // Whether Go's sort would only move the one changed claim (see the header comment).
  bool GoMovesOnlyTheChanged() const;
  // Orders claims by pods, then as `ties_` says (creation only; Go's ties are positional).
  bool CreationBefore(size_t a, size_t b) const;

  ClaimTieOrder ties_;
  std::vector<size_t> order_;     // claim indices, in the order they are tried
  std::vector<size_t> pods_;      // by claim index
  std::vector<size_t> position_;  // by claim index: where it is in `order_`
};

}  // namespace karpenter::provisioning
