#include "src/provisioning/instance_type_file.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "src/api/karpenter_labels.h"

namespace karpenter::provisioning {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string Values(const scheduling::Requirements& requirements, std::string_view key) {
  const scheduling::Requirement* found = requirements.Find(key);
  return found == nullptr ? "<none>" : found->ToString();
}

TEST(InstanceTypeFile, NameZonesAndCapacityTypesComeFromTheTypeUnlessStated) {
  absl::StatusOr<InstanceTypeFile> parsed = ParseInstanceTypeFile(R"({"instanceTypes": [
    {"name": "a", "capacity": {"cpu": "2", "memory": "4Gi", "pods": "10"},
     "offerings": [{"zone": "z2", "capacityType": "spot", "price": 0.1},
                   {"zone": "z1", "capacityType": "on-demand", "price": 0.2},
                   {"zone": "z3", "capacityType": "reserved", "price": 0.05, "available": false}]},
    {"name": "b", "capacity": {"cpu": "2"}, "allocatable": {"cpu": "1900m"},
     "requirements": [{"key": "topology.kubernetes.io/zone", "operator": "In", "values": ["z1"]},
                      {"key": "size", "operator": "DoesNotExist"}],
     "offerings": [{"zone": "z1", "capacityType": "spot", "price": 0.1}]}]})");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  const InstanceTypeView& a = parsed->instance_types[0];
  EXPECT_EQ(Values(a.requirements, api::kLabelInstanceTypeStable),
            "node.kubernetes.io/instance-type In [a]");
  EXPECT_EQ(Values(a.requirements, api::kLabelTopologyZone),
            "topology.kubernetes.io/zone In [z1 z2]");
  EXPECT_EQ(Values(a.requirements, api::kCapacityTypeLabelKey),
            "karpenter.sh/capacity-type In [on-demand spot]");
  EXPECT_EQ(a.allocatable.at("memory").Nanos(), a.capacity.at("memory").Nanos());
  EXPECT_FALSE(a.offerings[2].available);
  const InstanceTypeView& b = parsed->instance_types[1];
  EXPECT_EQ(Values(b.requirements, api::kLabelTopologyZone), "topology.kubernetes.io/zone In [z1]");
  EXPECT_EQ(Values(b.requirements, "size"), "size DoesNotExist");
  EXPECT_EQ(b.allocatable.at("cpu").MilliValue(), 1900);

  absl::StatusOr<InstanceTypeFile> again = ParseInstanceTypeFile(EncodeInstanceTypeFile(*parsed));
  ASSERT_TRUE(again.ok()) << again.status();
  ASSERT_EQ(again->instance_types.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    const InstanceTypeView& want = parsed->instance_types[i];
    const InstanceTypeView& got = again->instance_types[i];
    EXPECT_EQ(got.name, want.name);
    EXPECT_EQ(got.requirements.ToString(), want.requirements.ToString());
    ASSERT_EQ(got.offerings.size(), want.offerings.size());
    for (size_t j = 0; j < want.offerings.size(); ++j) {
      EXPECT_EQ(got.offerings[j].zone, want.offerings[j].zone);
      EXPECT_EQ(got.offerings[j].capacity_type, want.offerings[j].capacity_type);
      EXPECT_EQ(got.offerings[j].price, want.offerings[j].price);
      EXPECT_EQ(got.offerings[j].available, want.offerings[j].available);
    }
    EXPECT_EQ(got.capacity.at("cpu").Nanos(), want.capacity.at("cpu").Nanos());
    EXPECT_EQ(got.allocatable.at("cpu").Nanos(), want.allocatable.at("cpu").Nanos());
  }
}

TEST(InstanceTypeFile, DeclaresItsWellKnownLabels) {
  absl::StatusOr<InstanceTypeFile> parsed =
      ParseInstanceTypeFile(R"({"wellKnownLabels": ["size"], "instanceTypes": []})");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  scheduling::WellKnownLabels labels = scheduling::WellKnownLabels::CoreAndAws();
  EXPECT_FALSE(labels.Contains("size"));
  DeclareWellKnownLabels(*parsed, labels);
  EXPECT_TRUE(labels.Contains("size"));
}

TEST(InstanceTypeFile, ErrorsNameTheField) {
  const std::pair<const char*, const char*> cases[] = {
      {"[", "not valid JSON"},
      {"[]", "want a JSON object"},
      {"{}", "instanceTypes: required"},
      {R"({"instanceTypes": [{"capacity": {}, "offerings": []}]})",
       "instanceTypes[0].name: required"},
      {R"({"instanceTypes": [{"name": "a", "capacity": {"cpu": "x"}, "offerings": []}]})",
       "instanceTypes[0].capacity.cpu: "},
      {R"({"instanceTypes": [{"name": "a", "capacity": {}, "offerings": [{"zone": "z",
           "capacityType": "spot"}]}]})",
       "instanceTypes[0].offerings[0].price: required"},
      {R"({"instanceTypes": [{"name": "a", "capacity": {}, "offerings": [{"zone": "z",
           "capacityType": "spot", "price": "1"}]}]})",
       "instanceTypes[0].offerings[0].price: want number, got string"},
      {R"({"instanceTypes": [{"name": "a", "capacity": {}, "offerings": [],
           "requirements": [{"key": "k", "operator": "Near"}]}]})",
       "instanceTypes[0].requirements[0]: "},
      {R"({"instanceTypes": [{"name": "a", "capacity": {}, "offerings": []},
                             {"name": "a", "capacity": {}, "offerings": []}]})",
       "instanceTypes[1].name: duplicate \"a\""},
      {R"({"wellKnownLabels": [1], "instanceTypes": []})", "wellKnownLabels[0]: want string"},
  };
  for (const auto& [json, want] : cases) {
    absl::StatusOr<InstanceTypeFile> parsed = ParseInstanceTypeFile(json);
    ASSERT_FALSE(parsed.ok()) << json;
    EXPECT_EQ(parsed.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(parsed.status().message(), HasSubstr(want)) << json;
  }
}

}  // namespace
}  // namespace karpenter::provisioning
