// EC2NodeClass through the JSON/YAML codec: the article's manifest decodes to the expected
// object and validates, and every modelled field survives a JSON round trip.
#include <string_view>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "src/api/ec2nodeclass.h"
#include "src/api/ec2nodeclass_testing.h"
#include "src/api/json_codec.h"
#include "src/api/yaml_to_json.h"

namespace karpenter::api {
namespace {

using ::testing::IsEmpty;

// The EC2NodeClass of the migration article, as published.
constexpr std::string_view kArticleYaml = R"(apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata:
  name: default
spec:
  amiFamily: AL2023
  role: "KarpenterNodeRole-production"
  subnetSelectorTerms:
    - tags:
        karpenter.sh/discovery: "production-eks"
  securityGroupSelectorTerms:
    - tags:
        karpenter.sh/discovery: "production-eks"
  amiSelectorTerms:
    - alias: al2023@latest
  blockDeviceMappings:
    - deviceName: /dev/xvda
      ebs:
        volumeSize: 50Gi
        volumeType: gp3
        iops: 3000
        throughput: 125
        encrypted: true
        deleteOnTermination: true
  metadataOptions:
    httpEndpoint: enabled
    httpProtocolIPv6: disabled
    httpPutResponseHopLimit: 1
    httpTokens: required
)";

EC2NodeClass DecodeYaml(std::string_view yaml, DecodeReport& report) {
  EC2NodeClass node_class;
  auto documents = YamlToJson(yaml);
  EXPECT_TRUE(documents.ok()) << documents.status();
  if (!documents.ok() || documents->size() != 1) return node_class;
  EXPECT_TRUE(DecodeJsonText((*documents)[0].json, node_class, report).ok());
  return node_class;
}

TEST(EC2NodeClassCodec, ArticleManifestDecodesAsWrittenAndIsValid) {
  DecodeReport report;
  EC2NodeClass node_class = DecodeYaml(kArticleYaml, report);
  EXPECT_TRUE(report.errors.empty());
  EXPECT_THAT(report.unknown_fields, IsEmpty());
  EXPECT_EQ(node_class.metadata.name, "default");
  EXPECT_EQ(node_class.spec.ami_family, "AL2023");
  EXPECT_EQ(node_class.spec.role, "KarpenterNodeRole-production");
  EXPECT_FALSE(node_class.spec.instance_profile.has_value());
  ASSERT_EQ(node_class.spec.subnet_selector_terms.size(), 1u);
  EXPECT_EQ(node_class.spec.subnet_selector_terms[0].tags.at("karpenter.sh/discovery"),
            "production-eks");
  ASSERT_EQ(node_class.spec.ami_selector_terms.size(), 1u);
  EXPECT_EQ(node_class.spec.ami_selector_terms[0].alias, "al2023@latest");
  ASSERT_EQ(node_class.spec.block_device_mappings.size(), 1u);
  const BlockDevice& ebs = *node_class.spec.block_device_mappings[0].ebs;
  EXPECT_EQ(ebs.volume_size, Quantity::Parse("50Gi").value());
  EXPECT_EQ(ebs.volume_type, "gp3");
  EXPECT_EQ(ebs.iops, 3000);
  EXPECT_EQ(ebs.throughput, 125);
  EXPECT_EQ(ebs.encrypted, true);
  EXPECT_EQ(ebs.delete_on_termination, true);
  EXPECT_EQ(node_class.spec.metadata_options->http_put_response_hop_limit, 1);
  EXPECT_EQ(node_class.spec.metadata_options->http_tokens, "required");
  EXPECT_THAT(ValidationErrors(node_class), IsEmpty());
  ApplyDefaults(node_class);
  EXPECT_THAT(ValidationErrors(node_class), IsEmpty());
}

TEST(EC2NodeClassCodec, ExplicitEmptyRoleIsPresentAndRejected) {
  std::string yaml(kArticleYaml);
  yaml.replace(yaml.find("\"KarpenterNodeRole-production\""),
               std::string_view("\"KarpenterNodeRole-production\"").size(), "\"\"");
  DecodeReport report;
  EC2NodeClass node_class = DecodeYaml(yaml, report);
  ASSERT_TRUE(node_class.spec.role.has_value());
  EXPECT_THAT(ValidationErrors(node_class),
              ::testing::ElementsAre(FieldErrorIs("spec.role", "role cannot be empty")));
}

EC2NodeClass FullyPopulated() {
  EC2NodeClass node_class = ValidEC2NodeClass();
  EC2NodeClassSpec& spec = node_class.spec;
  spec.subnet_selector_terms.push_back(SubnetSelectorTerm{.id = "subnet-0123"});
  spec.security_group_selector_terms.push_back(
      SecurityGroupSelectorTerm{.tags = {{"a", "b"}}, .id = "sg-1", .name = "n"});
  spec.capacity_reservation_selector_terms = {
      CapacityReservationSelectorTerm{.tags = {{"t", "v"}},
                                      .id = "cr-1",
                                      .owner_id = "012345678901",
                                      .instance_match_criteria = "open"}};
  spec.placement_group_selector = PlacementGroupSelector{.name = "pg", .id = "pg-1"};
  spec.associate_public_ip_address = false;
  spec.ip_prefix_count = 2;
  spec.ami_selector_terms.push_back(AMISelectorTerm{.tags = {{"k", "v"}},
                                                    .id = "ami-1",
                                                    .name = "name",
                                                    .owner = "self",
                                                    .ssm_parameter = "/aws/x"});
  spec.user_data = "#!/bin/bash\necho hi\n";
  spec.instance_profile = "profile";
  spec.tags = {{"team", "platform"}};
  spec.kubelet = KubeletConfiguration{
      .cluster_dns = {"10.0.0.10", "fd00::a"},
      .max_pods = 110,
      .pods_per_core = 0,
      .system_reserved = {{"cpu", "100m"}},
      .kube_reserved = {{"memory", "1Gi"}},
      .eviction_hard = {{"memory.available", "5%"}},
      .eviction_soft = {{"nodefs.available", "10%"}},
      .eviction_soft_grace_period = {{"nodefs.available", Duration::Parse("1m30s").value()}},
      .eviction_max_pod_grace_period = 60,
      .image_gc_high_threshold_percent = 85,
      .image_gc_low_threshold_percent = 80,
      .cpu_cfs_quota = false};
  BlockDevice ebs{.delete_on_termination = false,
                  .encrypted = true,
                  .iops = 4000,
                  .kms_key_id = "arn:aws:kms:us-east-1:012345678901:key/x",
                  .snapshot_id = "snap-1",
                  .throughput = 250,
                  .volume_initialization_rate = 150,
                  .volume_size = Quantity::Parse("2Ti").value(),
                  .volume_type = "io2"};
  spec.block_device_mappings = {
      BlockDeviceMapping{.device_name = "/dev/xvdb", .ebs = ebs, .root_volume = true}};
  spec.instance_store_policy = "RAID0";
  spec.network_interfaces = {
      NetworkInterface{.interface_type = "interface"},
      NetworkInterface{.network_card_index = 1, .device_index = 0, .interface_type = "efa-only"}};
  spec.detailed_monitoring = true;
  spec.metadata_options = MetadataOptions{.http_endpoint = "enabled",
                                          .http_protocol_ipv6 = "enabled",
                                          .http_put_response_hop_limit = 2,
                                          .http_tokens = "optional"};
  spec.connection_tracking = ConnectionTracking{
      .tcp_established_timeout = 3600, .udp_stream_timeout = 120, .udp_timeout = 30};
  spec.context = "ctx";
  spec.cpu_options = CPUOptions{.nested_virtualization = "enabled"};

  Time when = Time::ParseRfc3339("2024-06-25T10:00:00Z").value();
  EC2NodeClassStatus& status = node_class.status;
  status.subnets = {Subnet{.id = "subnet-1", .zone = "us-east-1a", .zone_id = "use1-az1"}};
  status.security_groups = {SecurityGroup{.id = "sg-1", .name = "default"}};
  status.capacity_reservations = {CapacityReservation{.availability_zone = "us-east-1a",
                                                      .end_time = when,
                                                      .id = "cr-1",
                                                      .instance_match_criteria = "targeted",
                                                      .instance_type = "p5.48xlarge",
                                                      .owner_id = "012345678901",
                                                      .reservation_type = "capacity-block",
                                                      .interruptible = true,
                                                      .state = "expiring",
                                                      .available_instance_count = 3}};
  status.amis = {AMI{.id = "ami-1",
                     .deprecated = true,
                     .name = "al2023",
                     .requirements = {NodeSelectorRequirement{
                         .key = "kubernetes.io/arch", .operator_ = "In", .values = {"arm64"}}}}};
  status.instance_profile = "profile";
  status.conditions = {Condition{.type = "Ready",
                                 .status = "True",
                                 .observed_generation = 3,
                                 .last_transition_time = when,
                                 .reason = "Ready",
                                 .message = "ok"}};
  return node_class;
}

TEST(EC2NodeClassCodec, EveryModelledFieldRoundTripsThroughJson) {
  const EC2NodeClass original = FullyPopulated();
  const std::string json = EncodeJson(original);
  EC2NodeClass decoded;
  DecodeReport report;
  ASSERT_TRUE(DecodeJsonText(json, decoded, report).ok());
  EXPECT_TRUE(report.errors.empty());
  EXPECT_THAT(report.unknown_fields, IsEmpty());
  EXPECT_EQ(decoded, original) << json;
  EXPECT_EQ(EncodeJson(decoded), json);
}

}  // namespace
}  // namespace karpenter::api
