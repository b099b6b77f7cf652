#include "src/api/karpenter_labels.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

namespace karpenter::api {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

TEST(KarpenterLabels, WellKnownLabelsAreSortedUniqueAndComplete) {
  std::span<const std::string_view> labels = WellKnownLabels();
  EXPECT_TRUE(std::is_sorted(labels.begin(), labels.end()));
  EXPECT_EQ(std::set<std::string_view>(labels.begin(), labels.end()).size(), labels.size());
  EXPECT_EQ(labels.size(), 37u);
  EXPECT_TRUE(std::none_of(labels.begin(), labels.end(), [](auto l) { return l.empty(); }));
  for (std::string_view key :
       {"karpenter.sh/nodepool", "karpenter.sh/capacity-type", "topology.kubernetes.io/zone",
        "topology.kubernetes.io/region", "node.kubernetes.io/instance-type", "kubernetes.io/arch",
        "kubernetes.io/os", "node.kubernetes.io/windows-build", "topology.k8s.aws/zone-id",
        "karpenter.k8s.aws/instance-tenancy", "karpenter.k8s.aws/instance-family",
        "karpenter.k8s.aws/placement-group-partition"}) {
    EXPECT_TRUE(IsWellKnownLabel(key)) << key;
  }
  EXPECT_FALSE(IsWellKnownLabel("karpenter.k8s.aws/ec2nodeclass"));
  EXPECT_FALSE(IsWellKnownLabel("kubernetes.io/hostname"));
  EXPECT_FALSE(IsWellKnownLabel("beta.kubernetes.io/arch"));
}

TEST(KarpenterLabels, RuntimeRestrictionCoversReservedDomainsAndSubdomains) {
  EXPECT_TRUE(IsRestrictedLabel("karpenter.sh/foo"));
  EXPECT_TRUE(IsRestrictedLabel("sub.karpenter.sh/foo"));
  EXPECT_TRUE(IsRestrictedLabel("karpenter.k8s.aws/not-allowed"));
  EXPECT_TRUE(IsRestrictedLabel("karpenter.k8s.aws/ec2nodeclass"));
  EXPECT_TRUE(IsRestrictedLabel("kubernetes.io/hostname"));
  EXPECT_FALSE(IsRestrictedLabel("xkarpenter.sh/foo"));
  EXPECT_FALSE(IsRestrictedLabel("karpenter.sh"));  // no domain part at all
  EXPECT_FALSE(IsRestrictedLabel("karpenter.sh/nodepool"));
  EXPECT_FALSE(IsRestrictedLabel("karpenter.sh/capacity-type"));
  EXPECT_FALSE(IsRestrictedLabel("karpenter.k8s.aws/instance-family"));
  EXPECT_FALSE(IsRestrictedLabel("kubernetes.io/arch"));
  EXPECT_FALSE(IsRestrictedLabel("example.com/team"));
  EXPECT_THAT(RestrictedLabelMessage("karpenter.sh/foo"),
              ::testing::HasSubstr("using label karpenter.sh/foo is not allowed"));
}

TEST(KarpenterLabels, CrdRulesUseTheSuffixTestAndTheAwsAllowList) {
  EXPECT_THAT(CrdLabelKeyViolations("karpenter.sh/foo", LabelKeyScope::kNodePool),
              ElementsAre("label domain \"karpenter.sh\" is restricted"));
  EXPECT_THAT(CrdLabelKeyViolations("xkarpenter.sh/foo", LabelKeyScope::kNodePool),
              ElementsAre("label domain \"karpenter.sh\" is restricted"));
  EXPECT_THAT(CrdLabelKeyViolations("karpenter.sh", LabelKeyScope::kNodePool),
              ElementsAre("label domain \"karpenter.sh\" is restricted"));
  EXPECT_THAT(CrdLabelKeyViolations("karpenter.sh/nodepool", LabelKeyScope::kNodePool),
              ElementsAre("label \"karpenter.sh/nodepool\" is restricted"));
  EXPECT_THAT(CrdLabelKeyViolations("karpenter.sh/nodepool", LabelKeyScope::kNodeClaim), IsEmpty());
  EXPECT_THAT(CrdLabelKeyViolations("karpenter.sh/capacity-type", LabelKeyScope::kNodePool),
              IsEmpty());
  EXPECT_THAT(CrdLabelKeyViolations("kubernetes.io/hostname", LabelKeyScope::kNodeClaim),
              ElementsAre("label \"kubernetes.io/hostname\" is restricted"));
  EXPECT_THAT(CrdLabelKeyViolations("karpenter.k8s.aws/not-allowed", LabelKeyScope::kNodePool),
              ElementsAre("label domain \"karpenter.k8s.aws\" is restricted"));
  EXPECT_THAT(CrdLabelKeyViolations("sub.karpenter.k8s.aws/x", LabelKeyScope::kNodePool),
              ElementsAre("label domain \"karpenter.k8s.aws\" is restricted"));
  for (std::string_view allowed : CrdAllowedAwsLabels()) {
    EXPECT_THAT(CrdLabelKeyViolations(allowed, LabelKeyScope::kNodePool), IsEmpty()) << allowed;
  }
  EXPECT_THAT(CrdLabelKeyViolations("example.com/karpenter.sh", LabelKeyScope::kNodePool),
              IsEmpty());
}

TEST(KarpenterLabels, CrdAllowListMatchesTheAwsCrd) {
  std::span<const std::string_view> allowed = CrdAllowedAwsLabels();
  EXPECT_EQ(allowed.size(), 29u);
  EXPECT_EQ(allowed.front(), "karpenter.k8s.aws/instance-tenancy");
  EXPECT_NE(std::find(allowed.begin(), allowed.end(), "karpenter.k8s.aws/ec2nodeclass"),
            allowed.end());
  EXPECT_EQ(std::find(allowed.begin(), allowed.end(), "topology.k8s.aws/zone-id"), allowed.end());
}

TEST(KarpenterLabels, BetaAliasesNormaliseToStableKeys) {
  EXPECT_EQ(NormalizeLabelKey("failure-domain.beta.kubernetes.io/zone"),
            "topology.kubernetes.io/zone");
  EXPECT_EQ(NormalizeLabelKey("failure-domain.beta.kubernetes.io/region"),
            "topology.kubernetes.io/region");
  EXPECT_EQ(NormalizeLabelKey("beta.kubernetes.io/arch"), "kubernetes.io/arch");
  EXPECT_EQ(NormalizeLabelKey("beta.kubernetes.io/os"), "kubernetes.io/os");
  EXPECT_EQ(NormalizeLabelKey("beta.kubernetes.io/instance-type"),
            "node.kubernetes.io/instance-type");
  EXPECT_EQ(NormalizeLabelKey("example.com/team"), "example.com/team");
}

TEST(KarpenterLabels, KnownValuesExistForCapacityTypeAndTenancyOnly) {
  EXPECT_THAT(WellKnownValuesFor("karpenter.sh/capacity-type"),
              ElementsAre("on-demand", "spot", "reserved"));
  EXPECT_THAT(WellKnownValuesFor("karpenter.k8s.aws/instance-tenancy"),
              ElementsAre("dedicated", "default"));
  EXPECT_THAT(WellKnownValuesFor("kubernetes.io/arch"), IsEmpty());
}

}  // namespace
}  // namespace karpenter::api
