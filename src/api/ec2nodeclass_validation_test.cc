#include "src/api/ec2nodeclass_validation.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "src/api/ec2nodeclass.h"
#include "src/api/ec2nodeclass_testing.h"

namespace karpenter::api {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// The EC2NodeClass of the migration article, built field by field.
EC2NodeClass ArticleEC2NodeClass() {
  EC2NodeClass node_class;
  node_class.metadata.name = "default";
  node_class.spec.ami_family = "AL2023";
  node_class.spec.role = "KarpenterNodeRole-production";
  node_class.spec.subnet_selector_terms = {
      SubnetSelectorTerm{.tags = {{"karpenter.sh/discovery", "production-eks"}}}};
  node_class.spec.security_group_selector_terms = {
      SecurityGroupSelectorTerm{.tags = {{"karpenter.sh/discovery", "production-eks"}}}};
  node_class.spec.ami_selector_terms = {AMISelectorTerm{.alias = "al2023@latest"}};
  BlockDevice ebs;
  ebs.volume_size = Quantity::Parse("50Gi").value();
  ebs.volume_type = "gp3";
  ebs.iops = 3000;
  ebs.throughput = 125;
  ebs.encrypted = true;
  ebs.delete_on_termination = true;
  node_class.spec.block_device_mappings = {
      BlockDeviceMapping{.device_name = "/dev/xvda", .ebs = ebs}};
  node_class.spec.metadata_options = MetadataOptions{.http_endpoint = "enabled",
                                                     .http_protocol_ipv6 = "disabled",
                                                     .http_put_response_hop_limit = 1,
                                                     .http_tokens = "required"};
  return node_class;
}

TEST(EC2NodeClassValidation, BaselineIsValid) {
  EXPECT_THAT(ValidationErrors(ValidEC2NodeClass()), IsEmpty());
}

TEST(EC2NodeClassValidation, ArticleNodeClassIsValidBeforeAndAfterDefaults) {
  EC2NodeClass node_class = ArticleEC2NodeClass();
  EXPECT_THAT(ValidationErrors(node_class), IsEmpty());
  ApplyDefaults(node_class);
  EXPECT_THAT(ValidationErrors(node_class), IsEmpty());
}

TEST(EC2NodeClassDefaults, MissingMetadataOptionsGetsTheCrdDefault) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  ApplyDefaults(node_class);
  ASSERT_TRUE(node_class.spec.metadata_options.has_value());
  EXPECT_EQ(*node_class.spec.metadata_options, (MetadataOptions{.http_endpoint = "enabled",
                                                                .http_protocol_ipv6 = "disabled",
                                                                .http_put_response_hop_limit = 1,
                                                                .http_tokens = "required"}));
}

TEST(EC2NodeClassDefaults, PartialMetadataOptionsKeepsSetFieldsAndDefaultsTheRest) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.metadata_options =
      MetadataOptions{.http_put_response_hop_limit = 2, .http_tokens = "optional"};
  ApplyDefaults(node_class);
  EXPECT_EQ(*node_class.spec.metadata_options, (MetadataOptions{.http_endpoint = "enabled",
                                                                .http_protocol_ipv6 = "disabled",
                                                                .http_put_response_hop_limit = 2,
                                                                .http_tokens = "optional"}));
}

TEST(EC2NodeClassDefaults, DefaultingIsIdempotentAndTouchesNothingElse) {
  EC2NodeClass node_class = ArticleEC2NodeClass();
  EC2NodeClass defaulted = node_class;
  ApplyDefaults(defaulted);
  EXPECT_EQ(defaulted, node_class);  // the article spells out every default already
  ApplyDefaults(defaulted);
  EXPECT_EQ(defaulted, node_class);
}

TEST(EC2NodeClassDefaults, CapacityReservationStatusDefaultsTypeAndState) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.status.capacity_reservations = {
      CapacityReservation{.id = "cr-1"},
      CapacityReservation{.id = "cr-2", .reservation_type = "capacity-block", .state = "expiring"}};
  ApplyDefaults(node_class);
  EXPECT_EQ(node_class.status.capacity_reservations[0].reservation_type, "default");
  EXPECT_EQ(node_class.status.capacity_reservations[0].state, "active");
  EXPECT_EQ(node_class.status.capacity_reservations[1].reservation_type, "capacity-block");
  EXPECT_EQ(node_class.status.capacity_reservations[1].state, "expiring");
}

TEST(EC2NodeClassResolvedAMIFamily, PrefersExplicitFamilyThenAliasThenCustom) {
  EC2NodeClassSpec spec;
  spec.ami_selector_terms = {AMISelectorTerm{.alias = "bottlerocket@1.10.0"}};
  EXPECT_EQ(ResolvedAMIFamily(spec), "Bottlerocket");
  spec.ami_selector_terms = {AMISelectorTerm{.alias = "windows2025@latest"}};
  EXPECT_EQ(ResolvedAMIFamily(spec), "Windows2025");
  spec.ami_family = "Custom";
  EXPECT_EQ(ResolvedAMIFamily(spec), "Custom");
  spec.ami_family.reset();
  spec.ami_selector_terms = {AMISelectorTerm{.id = "ami-123"}};
  EXPECT_EQ(ResolvedAMIFamily(spec), "Custom");
}

TEST(EC2NodeClassValidation, InstanceProfileAloneIsValid) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.role.reset();
  node_class.spec.instance_profile = "test-instance-profile";
  EXPECT_THAT(ValidationErrors(node_class), IsEmpty());
}

TEST(EC2NodeClassValidation, RoleAndInstanceProfileTogetherAreRejected) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.instance_profile = "test-instance-profile";
  EXPECT_THAT(
      ValidationErrors(node_class),
      ElementsAre(FieldErrorIs("spec",
                               "Invalid value: \"object\": must specify exactly one of ['role', "
                               "'instanceProfile']")));
}

TEST(EC2NodeClassValidation, NeitherRoleNorInstanceProfileIsRejected) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.role.reset();
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec",
                                       "must specify exactly one of ['role', "
                                       "'instanceProfile']")));
}

TEST(EC2NodeClassValidation, EmptyRoleOrInstanceProfileIsRejected) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.role = "";
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.role",
                                       "Invalid value: \"string\": role cannot be "
                                       "empty")));
  node_class.spec.role.reset();
  node_class.spec.instance_profile = "";
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.instanceProfile", "instanceProfile cannot be empty")));
}

TEST(EC2NodeClassValidation, EveryAMIFamilyIsAcceptedWithAnIdTerm) {
  for (const char* family :
       {"AL2", "AL2023", "Bottlerocket", "Custom", "Windows2019", "Windows2022", "Windows2025"}) {
    EC2NodeClass node_class = ValidEC2NodeClass();
    node_class.spec.ami_selector_terms = {AMISelectorTerm{.id = "ami-0123456789abcdef"}};
    node_class.spec.ami_family = family;
    EXPECT_THAT(ValidationErrors(node_class), IsEmpty()) << family;
  }
}

TEST(EC2NodeClassValidation, UnknownAMIFamilyIsNotSupported) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.ami_selector_terms = {AMISelectorTerm{.id = "ami-0123456789abcdef"}};
  node_class.spec.ami_family = "Ubuntu";
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.amiFamily",
                                       "Unsupported value: \"Ubuntu\": supported values: \"AL2\", "
                                       "\"AL2023\", \"Bottlerocket\", \"Custom\"")));
}

TEST(EC2NodeClassValidation, AMIFamilyMatchingOrCustomWithAliasIsValid) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"AL2", "al2@latest"},
      {"AL2023", "al2023@latest"},
      {"Bottlerocket", "bottlerocket@latest"},
      {"Windows2019", "windows2019@latest"},
      {"Windows2022", "windows2022@latest"},
      {"Windows2025", "windows2025@latest"}};
  for (const auto& [family, alias] : cases) {
    for (const std::string& set_family : {family, std::string("Custom")}) {
      EC2NodeClass node_class = ValidEC2NodeClass();
      node_class.spec.ami_selector_terms = {AMISelectorTerm{.alias = alias}};
      node_class.spec.ami_family = set_family;
      EXPECT_THAT(ValidationErrors(node_class), IsEmpty()) << set_family << " " << alias;
    }
  }
}

TEST(EC2NodeClassValidation, AMIFamilyMismatchingAliasIsRejectedWithThatFamilysMessage) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"al2@latest", "if set, amiFamily must be 'AL2' or 'Custom' when using an AL2 alias"},
      {"al2023@latest",
       "if set, amiFamily must be 'AL2023' or 'Custom' when using an AL2023 alias"},
      {"bottlerocket@latest",
       "if set, amiFamily must be 'Bottlerocket' or 'Custom' when using a Bottlerocket alias"},
      {"windows2019@latest",
       "if set, amiFamily must be 'Windows2019' or 'Custom' when using a Windows2019 alias"},
      {"windows2022@latest",
       "if set, amiFamily must be 'Windows2022' or 'Custom' when using a Windows2022 alias"},
      {"windows2025@latest",
       "if set, amiFamily must be 'Windows2025' or 'Custom' when using a Windows2025 alias"}};
  for (const auto& [alias, message] : cases) {
    EC2NodeClass node_class = ValidEC2NodeClass();
    node_class.spec.ami_selector_terms = {AMISelectorTerm{.alias = alias}};
    // A family that matches none of the aliases above.
    node_class.spec.ami_family = alias == "al2@latest" ? "AL2023" : "AL2";
    EXPECT_THAT(ValidationErrors(node_class), ElementsAre(FieldErrorIs("spec", message))) << alias;
  }
}

TEST(EC2NodeClassValidation, AliasIsOptionalOnlyWhenAMIFamilyIsSet) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.ami_family.reset();
  EXPECT_THAT(ValidationErrors(node_class), IsEmpty());  // inferred from the alias
  node_class.spec.ami_selector_terms = {AMISelectorTerm{.id = "ami-01234567890abcdef"}};
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs(
                  "spec", "must specify amiFamily if amiSelectorTerms does not contain an alias")));
}

TEST(EC2NodeClassValidation, EmptyAndUnrestrictedTagsAreValid) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.tags = {{"karpenter.sh/custom-key", "value"},
                          {"karpenter.sh/managed", "true"},
                          {"kubernetes.io/role/key", "value"}};
  EXPECT_THAT(ValidationErrors(node_class), IsEmpty());
}

TEST(EC2NodeClassValidation, RestrictedTagKeysAreRejectedAtTheirKey) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "empty tag keys aren't supported"},
      {"eks:eks-cluster-name", "tag contains a restricted tag matching eks:eks-cluster-name"},
      {"kubernetes.io/cluster/test",
       "tag contains a restricted tag matching kubernetes.io/cluster/"},
      {"kubernetes.io/clusterfoo", "tag contains a restricted tag matching kubernetes.io/cluster/"},
      {"karpenter.sh/nodepool", "tag contains a restricted tag matching karpenter.sh/nodepool"},
      {"karpenter.sh/nodeclaim", "tag contains a restricted tag matching karpenter.sh/nodeclaim"},
      {"karpenter.k8s.aws/ec2nodeclass",
       "tag contains a restricted tag matching karpenter.k8s.aws/ec2nodeclass"}};
  for (const auto& [key, message] : cases) {
    EC2NodeClass node_class = ValidEC2NodeClass();
    node_class.spec.tags = {{key, "value"}};
    EXPECT_THAT(ValidationErrors(node_class),
                ElementsAre(FieldErrorIs("spec.tags[" + key + "]", message)))
        << key;
  }
}

TEST(EC2NodeClassValidation, PlacementGroupSelectorNeedsExactlyOneOfNameOrId) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.placement_group_selector = PlacementGroupSelector{.name = "pg"};
  EXPECT_THAT(ValidationErrors(node_class), IsEmpty());
  node_class.spec.placement_group_selector = PlacementGroupSelector{.id = "pg-0123abc"};
  EXPECT_THAT(ValidationErrors(node_class), IsEmpty());
  node_class.spec.placement_group_selector = PlacementGroupSelector{};
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.placementGroupSelector",
                                       "expected at least one, got none, ['name', 'id']")));
  node_class.spec.placement_group_selector = PlacementGroupSelector{.name = "pg", .id = "pg-1"};
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.placementGroupSelector",
                                       "'name' and 'id' are mutually exclusive")));
}

TEST(EC2NodeClassValidation, PlacementGroupIdPatternAndNameLength) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.placement_group_selector = PlacementGroupSelector{.id = "pg-ABC"};
  EXPECT_THAT(
      ValidationErrors(node_class),
      ElementsAre(FieldErrorIs("spec.placementGroupSelector.id",
                               "Invalid value: \"pg-ABC\": should match '^pg-[0-9a-z]+$'")));
  node_class.spec.placement_group_selector = PlacementGroupSelector{.name = ""};
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.placementGroupSelector.name",
                                       "should be at least 1 chars long")));
}

TEST(EC2NodeClassValidation, MetadataOptionsEnumsAndHopLimitRange) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.metadata_options = MetadataOptions{.http_endpoint = "disabled",
                                                     .http_protocol_ipv6 = "enabled",
                                                     .http_put_response_hop_limit = 34,
                                                     .http_tokens = "optional"};
  EXPECT_THAT(ValidationErrors(node_class), IsEmpty());
  node_class.spec.metadata_options = MetadataOptions{.http_endpoint = "test",
                                                     .http_protocol_ipv6 = "test",
                                                     .http_put_response_hop_limit = -5,
                                                     .http_tokens = "test"};
  EXPECT_THAT(
      ValidationErrors(node_class),
      ElementsAre(
          FieldErrorIs("spec.metadataOptions.httpEndpoint",
                       "Unsupported value: \"test\": supported values: \"enabled\", \"disabled\""),
          FieldErrorIs("spec.metadataOptions.httpProtocolIPv6", "Unsupported value: \"test\""),
          FieldErrorIs("spec.metadataOptions.httpPutResponseHopLimit",
                       "Invalid value: -5: should be greater than or equal to 1"),
          FieldErrorIs("spec.metadataOptions.httpTokens",
                       "supported values: \"required\", \"optional\"")));
  node_class.spec.metadata_options = MetadataOptions{.http_put_response_hop_limit = 65};
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.metadataOptions.httpPutResponseHopLimit",
                                       "should be less than or equal to 64")));
}

TEST(EC2NodeClassValidation, ConnectionTrackingNeedsAFieldAndRespectsRanges) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.connection_tracking = ConnectionTracking{
      .tcp_established_timeout = 432000, .udp_stream_timeout = 180, .udp_timeout = 60};
  EXPECT_THAT(ValidationErrors(node_class), IsEmpty());
  node_class.spec.connection_tracking = ConnectionTracking{
      .tcp_established_timeout = 60, .udp_stream_timeout = 60, .udp_timeout = 30};
  EXPECT_THAT(ValidationErrors(node_class), IsEmpty());
  node_class.spec.connection_tracking = ConnectionTracking{};
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.connectionTracking",
                                       "at least one of tcpEstablishedTimeout, udpStreamTimeout, "
                                       "or udpTimeout must be set")));
  node_class.spec.connection_tracking = ConnectionTracking{
      .tcp_established_timeout = 59, .udp_stream_timeout = 181, .udp_timeout = 29};
  EXPECT_THAT(
      ValidationErrors(node_class),
      ElementsAre(
          FieldErrorIs("spec.connectionTracking.tcpEstablishedTimeout",
                       "greater than or equal to 60"),
          FieldErrorIs("spec.connectionTracking.udpStreamTimeout", "less than or equal to 180"),
          FieldErrorIs("spec.connectionTracking.udpTimeout", "greater than or equal to 30")));
  node_class.spec.connection_tracking =
      ConnectionTracking{.tcp_established_timeout = 432001, .udp_timeout = 61};
  EXPECT_THAT(
      ValidationErrors(node_class),
      ElementsAre(FieldErrorIs("spec.connectionTracking.tcpEstablishedTimeout",
                               "less than or equal to 432000"),
                  FieldErrorIs("spec.connectionTracking.udpTimeout", "less than or equal to 60")));
}

TEST(EC2NodeClassValidation, CpuOptionsNestedVirtualizationEnum) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.cpu_options = CPUOptions{};
  EXPECT_THAT(ValidationErrors(node_class), IsEmpty());
  node_class.spec.cpu_options = CPUOptions{.nested_virtualization = "enabled"};
  EXPECT_THAT(ValidationErrors(node_class), IsEmpty());
  node_class.spec.cpu_options = CPUOptions{.nested_virtualization = "invalid"};
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.cpuOptions.nestedVirtualization",
                                       "Unsupported value: \"invalid\"")));
}

TEST(EC2NodeClassValidation, InstanceStorePolicyEnumAndIpPrefixCountMinimum) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.instance_store_policy = "RAID0";
  node_class.spec.ip_prefix_count = 0;
  EXPECT_THAT(ValidationErrors(node_class), IsEmpty());
  node_class.spec.instance_store_policy = "RAID1";
  node_class.spec.ip_prefix_count = -1;
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.ipPrefixCount", "greater than or equal to 0"),
                          FieldErrorIs("spec.instanceStorePolicy",
                                       "Unsupported value: \"RAID1\": supported values: "
                                       "\"RAID0\"")));
}

NetworkInterface Nic(int32_t card, int32_t device, std::string type) {
  return NetworkInterface{
      .network_card_index = card, .device_index = device, .interface_type = std::move(type)};
}

TEST(EC2NodeClassValidation, NetworkInterfacesAcceptsPrimaryPlusOneEfaPerCard) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.network_interfaces = {Nic(0, 0, "interface"), Nic(0, 1, "efa-only"),
                                        Nic(1, 0, "efa-only"), Nic(1, 1, "interface")};
  EXPECT_THAT(ValidationErrors(node_class), IsEmpty());
}

TEST(EC2NodeClassValidation, NetworkInterfaceFieldsAreChecked) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.network_interfaces = {Nic(0, 0, "interface"), Nic(-1, -2, "efa"), Nic(2, 0, "")};
  EXPECT_THAT(
      ValidationErrors(node_class),
      ElementsAre(
          FieldErrorIs("spec.networkInterfaces[1].networkCardIndex", "greater than or equal to 0"),
          FieldErrorIs("spec.networkInterfaces[1].deviceIndex", "greater than or equal to 0"),
          FieldErrorIs("spec.networkInterfaces[1].interfaceType",
                       "Unsupported value: \"efa\": supported values: \"interface\", "
                       "\"efa-only\""),
          FieldErrorIs("spec.networkInterfaces[2].interfaceType", "Required value")));
}

TEST(EC2NodeClassValidation, NetworkInterfacesNeedAnEnaPrimary) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  for (const NetworkInterface& only : {Nic(0, 1, "interface"), Nic(0, 0, "efa-only")}) {
    node_class.spec.network_interfaces = {only};
    EXPECT_THAT(ValidationErrors(node_class),
                ElementsAre(FieldErrorIs("spec.networkInterfaces",
                                         "Invalid value: \"array\": networkInterfaces must include "
                                         "a primary interface with interfaceType='interface'")));
  }
}

TEST(EC2NodeClassValidation, NetworkInterfacesRejectDuplicateSlotsAndTwoEfasOnACard) {
  const std::string message =
      "networkInterfaces must not have duplicate networkCardIndex and deviceIndex pairs, and can "
      "have at most one efa device per network card";
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.network_interfaces = {Nic(0, 0, "interface"), Nic(0, 1, "efa-only"),
                                        Nic(1, 0, "interface"), Nic(1, 0, "efa-only")};
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.networkInterfaces", message)));
  node_class.spec.network_interfaces = {Nic(0, 0, "interface"), Nic(1, 0, "efa-only"),
                                        Nic(1, 1, "efa-only")};
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.networkInterfaces", message)));
}

TEST(EC2NodeClassValidation, TooManyNetworkInterfaces) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.network_interfaces = {Nic(0, 0, "interface")};
  for (int32_t i = 1; i <= 150; ++i)
    node_class.spec.network_interfaces.push_back(Nic(0, i, "interface"));
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.networkInterfaces",
                                       "Too many: 151: must have at most 150 items")));
}

TEST(EC2NodeClassValidation, WellFormedStatusIsValid) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.status.subnets = {
      Subnet{.id = "subnet-1", .zone = "us-east-1a", .zone_id = "use1-az1"}};
  node_class.status.security_groups = {SecurityGroup{.id = "sg-1"}};
  node_class.status.amis = {
      AMI{.id = "ami-1",
          .requirements = {NodeSelectorRequirement{
              .key = "kubernetes.io/arch", .operator_ = "In", .values = {"amd64"}}}}};
  node_class.status.capacity_reservations = {CapacityReservation{.availability_zone = "us-east-1a",
                                                                 .id = "cr-0123",
                                                                 .instance_match_criteria = "open",
                                                                 .instance_type = "m5.large",
                                                                 .owner_id = "012345678901"}};
  node_class.status.conditions = {Condition{
      .type = "Ready", .status = "True", .last_transition_time = Time{}, .reason = "Ready"}};
  EXPECT_THAT(ValidationErrors(node_class), IsEmpty());
}

TEST(EC2NodeClassValidation, StatusRequiredFieldsPatternsAndEnums) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.status.subnets = {Subnet{}};
  node_class.status.security_groups = {SecurityGroup{.name = "x"}};
  node_class.status.amis = {AMI{.requirements = {NodeSelectorRequirement{}}}};
  node_class.status.capacity_reservations = {CapacityReservation{.id = "r-1",
                                                                 .instance_match_criteria = "any",
                                                                 .owner_id = "123",
                                                                 .reservation_type = "spot",
                                                                 .state = "gone"}};
  node_class.status.conditions = {
      Condition{.type = "bad type", .status = "Maybe", .observed_generation = -1, .reason = "9x"}};
  EXPECT_THAT(
      ValidationErrors(node_class),
      ElementsAre(
          FieldErrorIs("status.subnets[0].id", "Required value"),
          FieldErrorIs("status.subnets[0].zone", "Required value"),
          FieldErrorIs("status.securityGroups[0].id", "Required value"),
          FieldErrorIs("status.capacityReservations[0].availabilityZone", "Required value"),
          FieldErrorIs("status.capacityReservations[0].id", "should match '^cr-[0-9a-z]+$'"),
          FieldErrorIs("status.capacityReservations[0].instanceMatchCriteria",
                       "Unsupported value: \"any\""),
          FieldErrorIs("status.capacityReservations[0].instanceType", "Required value"),
          FieldErrorIs("status.capacityReservations[0].ownerID", "should match '^[0-9]{12}$'"),
          FieldErrorIs("status.capacityReservations[0].reservationType",
                       "Unsupported value: \"spot\""),
          FieldErrorIs("status.capacityReservations[0].state", "Unsupported value: \"gone\""),
          FieldErrorIs("status.amis[0].id", "Required value"),
          FieldErrorIs("status.amis[0].requirements[0].key", "Required value"),
          FieldErrorIs("status.amis[0].requirements[0].operator", "Required value"),
          FieldErrorIs("status.conditions[0].type", "Invalid value: \"bad type\": should match"),
          FieldErrorIs("status.conditions[0].status", "Unsupported value: \"Maybe\""),
          FieldErrorIs("status.conditions[0].observedGeneration", "greater than or equal to 0"),
          FieldErrorIs("status.conditions[0].lastTransitionTime", "Required value"),
          FieldErrorIs("status.conditions[0].reason", "Invalid value: \"9x\": should match")));
}

TEST(EC2NodeClassValidation, StatusConditionLengthLimits) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.status.conditions = {Condition{.type = std::string(317, 'a'),
                                            .status = "True",
                                            .last_transition_time = Time{},
                                            .reason = std::string(1025, 'a'),
                                            .message = std::string(32769, 'm')}};
  EXPECT_THAT(
      ValidationErrors(node_class),
      ElementsAre(FieldErrorIs("status.conditions[0].type", "Too long"),
                  FieldErrorIs("status.conditions[0].reason", "Too long"),
                  FieldErrorIs("status.conditions[0].message", "may not be longer than 32768")));
}

}  // namespace
}  // namespace karpenter::api
