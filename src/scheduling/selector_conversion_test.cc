#include "src/scheduling/selector_conversion.h"

#include <map>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace karpenter::scheduling {
namespace {

using api::NodeSelectorRequirement;

const std::map<std::string, std::string> kBetaSelector = {
    {"failure-domain.beta.kubernetes.io/zone", "test"},
    {"failure-domain.beta.kubernetes.io/region", "test"},
    {"beta.kubernetes.io/arch", "test"},
    {"beta.kubernetes.io/os", "test"},
    {"beta.kubernetes.io/instance-type", "test"},
};
const std::vector<std::string> kStableKeys = {
    "kubernetes.io/arch", "kubernetes.io/os", "node.kubernetes.io/instance-type",
    "topology.kubernetes.io/region", "topology.kubernetes.io/zone"};

std::vector<NodeSelectorRequirement> InExpressions(
    const std::map<std::string, std::string>& labels) {
  std::vector<NodeSelectorRequirement> out;
  out.reserve(labels.size());
  for (const auto& [key, value] : labels) {
    out.push_back({.key = key, .operator_ = "In", .values = {value}});
  }
  return out;
}

api::Affinity WithNodeAffinity(std::vector<api::NodeSelectorTerm> required,
                               std::vector<api::PreferredSchedulingTerm> preferred) {
  api::NodeAffinity node_affinity;
  if (!required.empty()) {
    node_affinity.required_during_scheduling_ignored_during_execution =
        api::NodeSelector{.node_selector_terms = std::move(required)};
  }
  node_affinity.preferred_during_scheduling_ignored_during_execution = std::move(preferred);
  return api::Affinity{.node_affinity = std::move(node_affinity)};
}

TEST(SelectorConversion, NormalisesBetaLabelsFromEverySource) {
  const std::vector<NodeSelectorRequirement> expressions = InExpressions(kBetaSelector);
  EXPECT_EQ(FromLabels(kBetaSelector).Keys(), kStableKeys);
  EXPECT_EQ(FromNodeSelectorRequirements(expressions)->Keys(), kStableKeys);
  const api::Affinity affinity =
      WithNodeAffinity({{.match_expressions = expressions}},
                       {{.weight = 1, .preference = {.match_expressions = expressions}}});
  absl::StatusOr<Requirements> pod = FromPodSelectors(kBetaSelector, affinity);
  ASSERT_TRUE(pod.ok()) << pod.status();
  EXPECT_EQ(pod->Keys(), kStableKeys);
  EXPECT_TRUE(pod->Get("topology.kubernetes.io/zone").Has("test"));
}

TEST(SelectorConversion, FromLabelsFoldsBothSpellingsOfANodeLabel) {
  const Requirements node = FromLabels(
      {{"kubernetes.io/arch", "arm64"}, {"beta.kubernetes.io/arch", "arm64"}, {"team", "a"}});
  EXPECT_EQ(node.Keys(), (std::vector<std::string>{"kubernetes.io/arch", "team"}));
  EXPECT_EQ(node.Get("kubernetes.io/arch"), Requirement::In("kubernetes.io/arch", {"arm64"}));
}

TEST(SelectorConversion, FromNodeSelectorRequirementKeepsMinValues) {
  absl::StatusOr<Requirement> requirement = FromNodeSelectorRequirement(
      {.key = "node.kubernetes.io/instance-type", .operator_ = "In", .values = {"a", "b", "c"}}, 2);
  ASSERT_TRUE(requirement.ok());
  EXPECT_EQ(requirement->min_values(), 2);
  EXPECT_EQ(requirement->ToString(), "node.kubernetes.io/instance-type In [a b c] minValues 2");
}

TEST(SelectorConversion, FromNodeSelectorRequirementsIntersectsRepeatedKeys) {
  absl::StatusOr<Requirements> requirements =
      FromNodeSelectorRequirements(std::vector<NodeSelectorRequirement>{
          {.key = "karpenter.k8s.aws/instance-cpu", .operator_ = "Gt", .values = {"3"}},
          {.key = "karpenter.k8s.aws/instance-cpu", .operator_ = "Lte", .values = {"16"}},
      });
  ASSERT_TRUE(requirements.ok());
  const Requirement cpu = requirements->Get("karpenter.k8s.aws/instance-cpu");
  EXPECT_EQ(cpu.gte(), 4);
  EXPECT_EQ(cpu.lte(), 16);
}

TEST(SelectorConversion, FromNodeSelectorRequirementsRejectsMalformedExpression) {
  absl::StatusOr<Requirements> requirements =
      FromNodeSelectorRequirements(std::vector<NodeSelectorRequirement>{
          {.key = "a", .operator_ = "In", .values = {"x"}},
          {.key = "cpu", .operator_ = "Gt", .values = {"many"}},
      });
  EXPECT_EQ(requirements.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(FromNodeSelectorRequirements(
                std::vector<NodeSelectorRequirement>{{.key = "a", .operator_ = "Near"}})
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(SelectorConversion, PodWithoutAffinityUsesNodeSelectorOnly) {
  absl::StatusOr<Requirements> pod = FromPodSelectors({{"team", "a"}}, std::nullopt);
  ASSERT_TRUE(pod.ok());
  EXPECT_EQ(*pod, Requirements{Requirement::In("team", {"a"})});
  absl::StatusOr<Requirements> empty_affinity = FromPodSelectors({{"team", "a"}}, api::Affinity{});
  ASSERT_TRUE(empty_affinity.ok());
  EXPECT_EQ(*empty_affinity, *pod);
}

TEST(SelectorConversion, PodUsesFirstRequiredTermByDefault) {
  const api::Affinity affinity = WithNodeAffinity(
      {{.match_expressions = {{.key = "zone", .operator_ = "In", .values = {"a", "b"}}}},
       {.match_expressions = {{.key = "zone", .operator_ = "In", .values = {"c"}}}}},
      {});
  absl::StatusOr<Requirements> first = FromPodSelectors({}, affinity);
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->Get("zone"), Requirement::In("zone", {"a", "b"}));
  absl::StatusOr<Requirements> second = FromPodSelectors({}, affinity, {.required_term = 1});
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->Get("zone"), Requirement::In("zone", {"c"}));
  absl::StatusOr<Requirements> missing = FromPodSelectors({}, affinity, {.required_term = 2});
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(SelectorConversion, PodIntersectsNodeSelectorWithAffinity) {
  const api::Affinity affinity = WithNodeAffinity(
      {{.match_expressions = {{.key = "zone", .operator_ = "In", .values = {"a", "b"}}}}}, {});
  absl::StatusOr<Requirements> pod = FromPodSelectors({{"zone", "b"}}, affinity);
  ASSERT_TRUE(pod.ok());
  EXPECT_EQ(pod->Get("zone"), Requirement::In("zone", {"b"}));
}

TEST(SelectorConversion, PodTreatsHeaviestPreferenceAsRequiredUnlessStrict) {
  const api::Affinity affinity = WithNodeAffinity(
      {{.match_expressions = {{.key = "zone", .operator_ = "In", .values = {"a", "b", "c"}}}}},
      {{.weight = 10,
        .preference = {.match_expressions = {{.key = "zone", .operator_ = "In", .values = {"a"}}}}},
       {.weight = 50,
        .preference = {.match_expressions = {{.key = "zone", .operator_ = "In", .values = {"b"}}}}},
       {.weight = 50,
        .preference = {
            .match_expressions = {{.key = "zone", .operator_ = "In", .values = {"c"}}}}}});
  absl::StatusOr<Requirements> with_preference = FromPodSelectors({}, affinity);
  ASSERT_TRUE(with_preference.ok());
  EXPECT_EQ(with_preference->Get("zone"), Requirement::In("zone", {"b"}))
      << "first of the heaviest terms";
  absl::StatusOr<Requirements> strict =
      FromPodSelectors({}, affinity, {.include_preferred = false});
  ASSERT_TRUE(strict.ok());
  EXPECT_EQ(strict->Get("zone"), Requirement::In("zone", {"a", "b", "c"}));
}

TEST(SelectorConversion, PodSpecUsesNodeSelectorAndAffinity) {
  api::PodSpec spec;
  spec.node_selector = {{"beta.kubernetes.io/arch", "arm64"}};
  spec.affinity = WithNodeAffinity(
      {{.match_expressions = {{.key = "zone", .operator_ = "NotIn", .values = {"a"}}}}},
      {{.weight = 1,
        .preference = {.match_expressions = {{.key = "team", .operator_ = "Exists"}}}}});
  absl::StatusOr<Requirements> all = FromPodSpec(spec);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->Keys(), (std::vector<std::string>{"kubernetes.io/arch", "team", "zone"}));
  absl::StatusOr<Requirements> strict = FromPodSpec(spec, {.include_preferred = false});
  ASSERT_TRUE(strict.ok());
  EXPECT_EQ(strict->Keys(), (std::vector<std::string>{"kubernetes.io/arch", "zone"}));
}

TEST(SelectorConversion, PodIgnoresMatchFields) {
  api::Affinity affinity = WithNodeAffinity(
      {{.match_fields = {{.key = "metadata.name", .operator_ = "In", .values = {"node-1"}}}}}, {});
  absl::StatusOr<Requirements> pod = FromPodSelectors({}, affinity);
  ASSERT_TRUE(pod.ok());
  EXPECT_TRUE(pod->empty());
}

TEST(SelectorConversion, PodReportsMalformedAffinity) {
  const api::Affinity affinity = WithNodeAffinity(
      {{.match_expressions = {{.key = "cpu", .operator_ = "Gt", .values = {"1", "2"}}}}}, {});
  EXPECT_EQ(FromPodSelectors({}, affinity).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(SelectorConversion, ToNodeSelectorRequirementsWritesEachShape) {
  const Requirements requirements = {
      Requirement::Exists("exists"),       Requirement::DoesNotExist("doesNotExist"),
      Requirement::In("inAB", {"B", "A"}), Requirement::NotIn("notIn12", {"2", "1"}),
      Requirement::Gt("greaterThan1", 1),  Requirement::Lt("lessThan9", 9),
  };
  const std::vector<NodeSelectorRequirement> expected = {
      {.key = "doesNotExist", .operator_ = "DoesNotExist"},
      {.key = "exists", .operator_ = "Exists"},
      {.key = "greaterThan1", .operator_ = "Gte", .values = {"2"}},
      {.key = "inAB", .operator_ = "In", .values = {"A", "B"}},
      {.key = "lessThan9", .operator_ = "Lte", .values = {"8"}},
      {.key = "notIn12", .operator_ = "NotIn", .values = {"1", "2"}},
  };
  EXPECT_EQ(ToNodeSelectorRequirements(requirements), expected);
}

TEST(SelectorConversion, ToNodeSelectorRequirementsSplitsTwoBounds) {
  const Requirement cpu = Requirement::Gte("cpu", 8).Intersection(Requirement::Lte("cpu", 8));
  const std::vector<NodeSelectorRequirement> expected = {
      {.key = "cpu", .operator_ = "Gte", .values = {"8"}},
      {.key = "cpu", .operator_ = "Lte", .values = {"8"}},
  };
  EXPECT_EQ(ToNodeSelectorRequirements(cpu), expected);
}

TEST(SelectorConversion, ToNodeSelectorRequirementsRoundTrips) {
  const std::vector<NodeSelectorRequirement> original = {
      {.key = "a", .operator_ = "In", .values = {"x", "y"}},
      {.key = "b", .operator_ = "NotIn", .values = {"z"}},
      {.key = "c", .operator_ = "Gte", .values = {"3"}},
      {.key = "c", .operator_ = "Lte", .values = {"9"}},
      {.key = "d", .operator_ = "Exists"},
      {.key = "e", .operator_ = "DoesNotExist"},
  };
  absl::StatusOr<Requirements> parsed = FromNodeSelectorRequirements(original);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(ToNodeSelectorRequirements(*parsed), original);
  EXPECT_EQ(*FromNodeSelectorRequirements(ToNodeSelectorRequirements(*parsed)), *parsed);
}

}  // namespace
}  // namespace karpenter::scheduling
