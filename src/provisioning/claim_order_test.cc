#include "src/provisioning/claim_order.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rapidcheck/gtest.h"
#include "src/provisioning/go_sort.h"

namespace karpenter::provisioning {
namespace {

using ::testing::ElementsAre;

// What upstream does, literally: apply the change, then sort the whole slice before the next pod.
class Reference {
 public:
  explicit Reference(ClaimTieOrder ties) : ties_(ties) {}

  void Add(size_t pods) {
    order_.push_back(pods_.size());
    pods_.push_back(pods);
    Sort();
  }
  void Grew(size_t claim) {
    ++pods_[claim];
    Sort();
  }
  const std::vector<size_t>& order() const { return order_; }

 private:
  void Sort() {
    if (ties_ == ClaimTieOrder::kCreation) {
      std::sort(order_.begin(), order_.end(), [this](size_t a, size_t b) {
        return pods_[a] != pods_[b] ? pods_[a] < pods_[b] : a < b;
      });
      return;
    }
    GoSortSlice(
        order_.size(),
        [this](ptrdiff_t a, ptrdiff_t b) {
          return pods_[order_[static_cast<size_t>(a)]] < pods_[order_[static_cast<size_t>(b)]];
        },
        [this](ptrdiff_t a, ptrdiff_t b) {
          std::swap(order_[static_cast<size_t>(a)], order_[static_cast<size_t>(b)]);
        });
  }

  ClaimTieOrder ties_;
  std::vector<size_t> order_;
  std::vector<size_t> pods_;
};

TEST(ClaimOrder, UpstreamTriesTheLaterClaimFirstWhenTwoReachTwoPods) {
  // The reproducer in miniature: three claims of one pod; the first, then the second
  // gain one. Go's insertion sort keeps the second ahead of the first, where creation order
  // would put the first back in front.
  ClaimOrder upstream(ClaimTieOrder::kUpstream);
  ClaimOrder creation(ClaimTieOrder::kCreation);
  for (ClaimOrder* order : {&upstream, &creation}) {
    for (int i = 0; i < 3; ++i) order->Add(1);
    order->Grew(0);
    order->Grew(1);
  }
  EXPECT_THAT(upstream.order(), ElementsAre(2, 1, 0));
  EXPECT_THAT(creation.order(), ElementsAre(2, 0, 1));
}

TEST(ClaimOrder, NewClaimGoesAfterClaimsWithAsManyPods) {
  ClaimOrder order(ClaimTieOrder::kUpstream);
  order.Add(1);
  order.Add(1);
  order.Grew(0);
  order.Add(1);
  EXPECT_THAT(order.order(), ElementsAre(1, 2, 0));
}

TEST(ClaimOrder, MatchesGoSortOfTheWholeSliceBeyondTwelveClaims) {
  // 13 to 49 claims take Go's quicksort, whose order among equal counts is neither a stable
  // sort's nor creation order: the incremental order must follow it all the same.
  ClaimOrder order(ClaimTieOrder::kUpstream);
  Reference reference(ClaimTieOrder::kUpstream);
  Reference creation(ClaimTieOrder::kCreation);
  bool differed_from_creation = false;
  for (size_t i = 0; i < 30; ++i) {
    order.Add(1);
    reference.Add(1);
    creation.Add(1);
  }
  for (size_t step = 0; step < 200; ++step) {
    const size_t claim = reference.order()[(step * 7) % 5];  // among the emptiest, as pods go
    order.Grew(claim);
    reference.Grew(claim);
    creation.Grew(claim);
    ASSERT_EQ(order.order(), reference.order()) << "step " << step;
    differed_from_creation |= reference.order() != creation.order();
  }
  EXPECT_TRUE(differed_from_creation);
}

// A random run of a solve's changes: new claims and pods landing on claims, mostly the emptiest
// (as upstream's order makes them) but anywhere at times.
void CheckAgainstReference(ClaimTieOrder ties, const std::vector<uint16_t>& steps) {
  ClaimOrder order(ties);
  Reference reference(ties);
  for (uint16_t step : steps) {
    if (reference.order().empty() || step % 11 == 0) {
      order.Add(1);
      reference.Add(1);
    } else {
      const size_t n = reference.order().size();
      const size_t position = step % 3 == 0 ? step % n : (step / 3) % std::min<size_t>(n, 4);
      const size_t claim = reference.order()[position];
      order.Grew(claim);
      reference.Grew(claim);
    }
    RC_ASSERT(order.order() == reference.order());
    for (size_t position = 0; position < order.size(); ++position) {
      RC_ASSERT(order[position] == reference.order()[position]);
    }
  }
}

RC_GTEST_PROP(ClaimOrder, UpstreamTiesMatchGoSortBeforeEveryPod, ()) {
  const auto steps = *rc::gen::container<std::vector<uint16_t>>(*rc::gen::inRange<size_t>(1, 900),
                                                                rc::gen::arbitrary<uint16_t>());
  CheckAgainstReference(ClaimTieOrder::kUpstream, steps);
}

RC_GTEST_PROP(ClaimOrder, CreationTiesMatchASortByPodsThenIndex, (std::vector<uint16_t> steps)) {
  CheckAgainstReference(ClaimTieOrder::kCreation, steps);
}

}  // namespace
}  // namespace karpenter::provisioning
