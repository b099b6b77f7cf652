#include "src/cloudprovider/instance_type_info.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace karpenter::cloudprovider {
namespace {

using ::testing::HasSubstr;

constexpr char kTwoTypes[] =
    R"({"region":"us-east-1","source":"test","zones":["us-east-1b","us-east-1a"],
"instanceTypes":[
{"name":"p4d.24xlarge","vcpu":96,"memoryMiB":1179648,"arch":["x86_64"],"cpuManufacturer":"Intel",
 "clockGHz":3.0,"hypervisor":"nitro","enis":15,"ipv4PerEni":50,"efa":4,"encryptionInTransit":true,
 "nitroEnclaves":true,"localStorage":{"totalGB":8000,"nvme":true},"networkMbps":400000,
 "networkPerformance":"4x 100 Gigabit","ebsMbps":19000,
 "gpus":[{"name":"A100","manufacturer":"NVIDIA","count":8,"memoryMiB":40960}],
 "usage":["on-demand","spot"],"zones":["us-east-1b","us-east-1a"]},
{"name":"inf1.xlarge","vcpu":4,"memoryMiB":8192,"arch":["x86_64"],"enis":4,"ipv4PerEni":10,
 "neuronDevices":[{"name":"Inferentia","count":1,"coresPerDevice":4,"memoryMiB":8192}],
 "inferenceAccelerators":[{"name":"Inferentia","manufacturer":"AWS","count":1}],
 "usage":["on-demand"],"zones":["us-east-1a"]}
]})";

TEST(ParseCatalogData, ReadsEveryFieldAndSortsTypesAndZones) {
  absl::StatusOr<CatalogData> data = ParseCatalogData(kTwoTypes);
  ASSERT_TRUE(data.ok()) << data.status();
  EXPECT_EQ(data->region, "us-east-1");
  EXPECT_EQ(data->source, "test");
  EXPECT_EQ(data->zones, (std::vector<std::string>{"us-east-1a", "us-east-1b"}));
  ASSERT_EQ(data->instance_types.size(), 2u);
  const InstanceTypeInfo& inf1 = data->instance_types[0];
  const InstanceTypeInfo& p4d = data->instance_types[1];
  EXPECT_EQ(inf1.name, "inf1.xlarge");
  EXPECT_EQ(p4d.name, "p4d.24xlarge");
  EXPECT_EQ(p4d.vcpus, 96);
  EXPECT_EQ(p4d.memory_mib, 1179648);
  EXPECT_EQ(p4d.architectures, (std::vector<std::string>{"x86_64"}));
  EXPECT_EQ(p4d.cpu_manufacturer, "Intel");
  EXPECT_EQ(p4d.clock_ghz, 3.0);
  EXPECT_EQ(p4d.hypervisor, "nitro");
  EXPECT_FALSE(p4d.bare_metal);
  EXPECT_EQ(p4d.enis, 15);
  EXPECT_EQ(p4d.ipv4_per_eni, 50);
  EXPECT_EQ(p4d.efa_interfaces, 4);
  EXPECT_TRUE(p4d.encryption_in_transit);
  EXPECT_TRUE(p4d.nitro_enclaves);
  EXPECT_EQ(p4d.local_storage_gb, 8000);
  EXPECT_TRUE(p4d.local_storage_nvme);
  EXPECT_EQ(p4d.network_mbps, 400000);
  EXPECT_EQ(p4d.network_performance, "4x 100 Gigabit");
  EXPECT_EQ(p4d.ebs_mbps, 19000);
  EXPECT_EQ(p4d.gpus,
            (std::vector<GpuInfo>{
                {.name = "A100", .manufacturer = "NVIDIA", .count = 8, .memory_mib = 40960}}));
  EXPECT_TRUE(p4d.on_demand);
  EXPECT_TRUE(p4d.spot);
  EXPECT_EQ(p4d.zones, (std::vector<std::string>{"us-east-1a", "us-east-1b"}));
  EXPECT_EQ(inf1.neuron_devices,
            (std::vector<NeuronDeviceInfo>{
                {.name = "Inferentia", .count = 1, .cores_per_device = 4, .memory_mib = 8192}}));
  EXPECT_EQ(inf1.inference_accelerators,
            (std::vector<InferenceAcceleratorInfo>{
                {.name = "Inferentia", .manufacturer = "AWS", .count = 1}}));
  EXPECT_FALSE(inf1.spot);
  EXPECT_FALSE(inf1.clock_ghz.has_value());
  EXPECT_FALSE(inf1.local_storage_gb.has_value());
  EXPECT_EQ(inf1.efa_interfaces, 0);
}

TEST(ParseCatalogData, RejectsTextThatIsNotAJsonObject) {
  EXPECT_FALSE(ParseCatalogData("[1,2]").ok());
  EXPECT_FALSE(ParseCatalogData("{\"region\":").ok());
}

TEST(ParseCatalogData, NamesTheTypeAndFieldThatIsMissing) {
  absl::StatusOr<CatalogData> data = ParseCatalogData(
      R"({"region":"r","zones":[],"instanceTypes":[{"name":"m5.large","memoryMiB":1,"enis":1,
          "ipv4PerEni":2,"usage":[],"zones":[]}]})");
  ASSERT_FALSE(data.ok());
  EXPECT_THAT(data.status().message(), HasSubstr("m5.large: vcpu must be present"));
}

TEST(ParseCatalogData, NamesTheFieldWithTheWrongType) {
  absl::StatusOr<CatalogData> data = ParseCatalogData(
      R"({"region":"r","zones":[],"instanceTypes":[{"name":"m5.large","vcpu":"2","memoryMiB":1,
          "enis":1,"ipv4PerEni":2,"usage":[],"zones":[]}]})");
  ASSERT_FALSE(data.ok());
  EXPECT_THAT(data.status().message(), HasSubstr("m5.large: vcpu must be an integer"));
  absl::StatusOr<CatalogData> gpus = ParseCatalogData(
      R"({"region":"r","zones":[],"instanceTypes":[{"name":"g5.xlarge","vcpu":4,"memoryMiB":1,
          "enis":1,"ipv4PerEni":2,"gpus":[{"name":"A10G"}],"usage":[],"zones":[]}]})");
  ASSERT_FALSE(gpus.ok());
  EXPECT_THAT(gpus.status().message(), HasSubstr("g5.xlarge.gpus: manufacturer must be present"));
}

TEST(ParseCatalogData, RejectsDuplicateAndEmptyTypes) {
  constexpr char kType[] =
      R"({"name":"m5.large","vcpu":2,"memoryMiB":8192,"enis":3,"ipv4PerEni":10,"usage":[],"zones":[]})";
  std::string duplicate =
      std::string(R"({"region":"r","zones":[],"instanceTypes":[)") + kType + "," + kType + "]}";
  absl::StatusOr<CatalogData> data = ParseCatalogData(duplicate);
  ASSERT_FALSE(data.ok());
  EXPECT_THAT(data.status().message(), HasSubstr("duplicate type m5.large"));
  absl::StatusOr<CatalogData> zero_cpu = ParseCatalogData(
      R"({"region":"r","zones":[],"instanceTypes":[{"name":"z.large","vcpu":0,"memoryMiB":1,
          "enis":1,"ipv4PerEni":2,"usage":[],"zones":[]}]})");
  ASSERT_FALSE(zero_cpu.ok());
  EXPECT_THAT(zero_cpu.status().message(), HasSubstr("must be > 0"));
}

}  // namespace
}  // namespace karpenter::cloudprovider
