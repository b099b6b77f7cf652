#include "src/scheduling/well_known_labels.h"

#include <algorithm>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace karpenter::scheduling {
namespace {

TEST(WellKnownLabels, CoreHasUpstreamsEightKeys) {
  const WellKnownLabels core = WellKnownLabels::Core();
  EXPECT_EQ(core.Sorted(), (std::vector<std::string>{
                               "karpenter.sh/capacity-type",
                               "karpenter.sh/nodepool",
                               "kubernetes.io/arch",
                               "kubernetes.io/os",
                               "node.kubernetes.io/instance-type",
                               "node.kubernetes.io/windows-build",
                               "topology.kubernetes.io/region",
                               "topology.kubernetes.io/zone",
                           }));
  EXPECT_FALSE(core.Contains("kubernetes.io/hostname"));
  EXPECT_FALSE(core.Contains("karpenter.k8s.aws/instance-family"));
}

TEST(WellKnownLabels, CoreAndAwsAddsProviderKeys) {
  const WellKnownLabels labels = WellKnownLabels::CoreAndAws();
  EXPECT_EQ(labels.size(), 8u + 29u);
  for (std::string_view key :
       {"topology.k8s.aws/zone-id", "karpenter.k8s.aws/instance-family",
        "karpenter.k8s.aws/instance-cpu", "karpenter.k8s.aws/nitro-sandbox",
        "karpenter.k8s.aws/capacity-reservation-id", "karpenter.k8s.aws/placement-group-partition",
        "karpenter.sh/capacity-type"}) {
    EXPECT_TRUE(labels.Contains(key)) << key;
  }
  EXPECT_FALSE(labels.Contains("karpenter.k8s.aws/ec2nodeclass"));
  EXPECT_TRUE(std::is_sorted(labels.Sorted().begin(), labels.Sorted().end()));
}

TEST(WellKnownLabels, InsertDeduplicatesAndKeepsOrder) {
  WellKnownLabels labels{"b", "a"};
  labels.Insert("c");
  labels.Insert("a");
  EXPECT_EQ(labels.Sorted(), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_TRUE(labels.Contains("c"));
  EXPECT_FALSE(labels.Contains("d"));
  EXPECT_EQ(WellKnownLabels().size(), 0u);
}

}  // namespace
}  // namespace karpenter::scheduling
