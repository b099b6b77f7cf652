// LabelSets gives equal (namespace, labels) equal ids; GroupSelections answers as matching every
// group against the pod does, also for groups added after the first question.
#include "src/provisioning/group_selections.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rapidcheck.h"
#include "test/property_check.h"

namespace karpenter::provisioning {
namespace {

using ::testing::ElementsAre;

constexpr property_test::PropertyOptions kProperty = {0x67726f7570, 150,
                                                      30};  // fixed: runs are reproducible

api::Pod PodIn(std::string name_space, std::map<std::string, std::string> labels) {
  api::Pod pod;
  pod.metadata.namespace_ = std::move(name_space);
  pod.metadata.labels = std::move(labels);
  return pod;
}

std::unique_ptr<TopologyGroup> GroupSelecting(std::vector<std::string> namespaces,
                                              std::map<std::string, std::string> labels) {
  TopologyGroupSpec spec;
  spec.key = "topology.kubernetes.io/zone";
  spec.namespaces.names = std::move(namespaces);
  spec.selector.emplace().match_labels = std::move(labels);
  return std::make_unique<TopologyGroup>(std::move(spec));
}

TEST(LabelSets, EqualNamespaceAndLabelsShareAnId) {
  const api::Pod a = PodIn("default", {{"app", "web"}});
  const api::Pod same = PodIn("default", {{"app", "web"}});
  const api::Pod other_namespace = PodIn("prod", {{"app", "web"}});
  const api::Pod other_labels = PodIn("default", {{"app", "web"}, {"tier", "1"}});
  LabelSets sets;
  const uint32_t id = sets.IdOf(a);
  EXPECT_EQ(sets.IdOf(same), id);
  EXPECT_NE(sets.IdOf(other_namespace), id);
  EXPECT_NE(sets.IdOf(other_labels), id);
  EXPECT_NE(sets.IdOf(other_labels), sets.IdOf(other_namespace));
  EXPECT_EQ(sets.size(), 3u);
  EXPECT_EQ(&sets.Representative(id), &a);
}

TEST(GroupSelections, MatchesGroupsAddedAfterTheFirstQuestion) {
  const api::Pod pod = PodIn("default", {{"app", "web"}});
  LabelSets sets;
  const uint32_t id = sets.IdOf(pod);
  std::vector<std::unique_ptr<TopologyGroup>> groups;
  groups.push_back(GroupSelecting({"default"}, {{"app", "web"}}));
  groups.push_back(GroupSelecting({"default"}, {{"app", "db"}}));
  GroupSelections selections;
  EXPECT_THAT(selections.Selecting(id, sets, groups), ElementsAre(0u));
  groups.push_back(GroupSelecting({"prod"}, {{"app", "web"}}));
  groups.push_back(GroupSelecting({"default", "prod"}, {}));
  EXPECT_THAT(selections.Selecting(id, sets, groups), ElementsAre(0u, 3u));
}

// Random pods and groups over a small alphabet (so that label sets repeat), asked in random
// order while groups keep being added: always the groups whose Selects picks the pod.
TEST(GroupSelections, AnswersAsMatchingEveryGroup) {
  property_test::CheckProperty(kProperty, "selections answer as matching every group", [] {
    const auto labels = [] {
      std::map<std::string, std::string> out;
      for (const char* key : {"app", "tier"}) {
        if (*rc::gen::arbitrary<bool>()) out[key] = *rc::gen::element<std::string>("a", "b");
      }
      return out;
    };
    std::vector<api::Pod> pods;
    const int pod_count = *rc::gen::inRange(1, 12);
    pods.reserve(static_cast<size_t>(pod_count));
    for (int i = 0; i < pod_count; ++i) {
      pods.push_back(PodIn(*rc::gen::element<std::string>("x", "y"), labels()));
    }
    LabelSets sets;
    std::vector<uint32_t> ids;
    for (const api::Pod& pod : pods) ids.push_back(sets.IdOf(pod));
    std::vector<std::unique_ptr<TopologyGroup>> groups;
    GroupSelections selections;
    const int rounds = *rc::gen::inRange(1, 8);
    for (int round = 0; round < rounds; ++round) {
      const int added = *rc::gen::inRange(0, 3);
      for (int i = 0; i < added; ++i) {
        std::vector<std::string> namespaces =
            *rc::gen::element(std::vector<std::string>{"x"}, std::vector<std::string>{"y"},
                              std::vector<std::string>{"x", "y"});
        groups.push_back(GroupSelecting(std::move(namespaces), labels()));
      }
      const size_t asked = *rc::gen::inRange<size_t>(0, pods.size());
      std::vector<size_t> expected;
      for (size_t g = 0; g < groups.size(); ++g) {
        if (groups[g]->Selects(pods[asked])) expected.push_back(g);
      }
      RC_ASSERT(selections.Selecting(ids[asked], sets, groups) == expected);
    }
  });
}

}  // namespace
}  // namespace karpenter::provisioning
