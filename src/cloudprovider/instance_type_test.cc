#include "src/cloudprovider/instance_type.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "src/cloudprovider/embedded_data.h"

namespace karpenter::cloudprovider {
namespace {

using api::Quantity;
using api::ResourceList;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

Quantity Q(std::string_view text) {
  absl::StatusOr<Quantity> q = Quantity::Parse(text);
  EXPECT_TRUE(q.ok()) << text;
  return q.ok() ? *q : Quantity();
}

// The facts of a real type from the embedded catalog.
InstanceTypeInfo Info(std::string_view name) {
  absl::StatusOr<CatalogData> data = ParseCatalogData(EmbeddedInstanceTypesJson());
  EXPECT_TRUE(data.ok()) << data.status();
  if (!data.ok()) return {};
  for (const InstanceTypeInfo& info : data->instance_types) {
    if (info.name == name) return info;
  }
  ADD_FAILURE() << name << " is not in the embedded catalog";
  return {};
}

InstanceType Resolve(const InstanceTypeInfo& info, const ResolveOptions& options = {}) {
  absl::StatusOr<InstanceType> type = NewInstanceType(info, options);
  EXPECT_TRUE(type.ok()) << type.status();
  return type.ok() ? *std::move(type) : InstanceType();
}

std::string Str(const ResourceList& list, const std::string& resource) {
  auto it = list.find(resource);
  return it == list.end() ? "<absent>" : it->second.String();
}

TEST(InstanceType, M5LargeMatchesUpstreamNumbers) {
  InstanceType m5 = Resolve(Info("m5.large"));
  EXPECT_EQ(Str(m5.capacity, "cpu"), "2");
  EXPECT_EQ(Str(m5.capacity, "memory"), "7577Mi");  // 8192Mi minus ceil(7.5%)
  EXPECT_EQ(Str(m5.capacity, "pods"), "29");        // 3 ENIs x (10 - 1) + 2
  EXPECT_EQ(Str(m5.capacity, "ephemeral-storage"), "20Gi");
  EXPECT_EQ(m5.capacity.size(), 4u);  // no extended resources
  EXPECT_EQ(Str(m5.overhead.kube_reserved, "cpu"), "70m");
  EXPECT_EQ(Str(m5.overhead.kube_reserved, "memory"), "574Mi");  // 11 x 29 + 255
  EXPECT_EQ(Str(m5.overhead.kube_reserved, "ephemeral-storage"), "1Gi");
  EXPECT_THAT(m5.overhead.system_reserved, IsEmpty());
  EXPECT_EQ(Str(m5.overhead.eviction_threshold, "memory"), "100Mi");
  EXPECT_EQ(m5.overhead.eviction_threshold.at("ephemeral-storage"), Q("2Gi"));
  ResourceList allocatable = m5.Allocatable();
  EXPECT_EQ(allocatable.at("cpu"), Q("1930m"));
  EXPECT_EQ(allocatable.at("memory"), Q("6903Mi"));
  EXPECT_EQ(allocatable.at("ephemeral-storage"), Q("17Gi"));
  EXPECT_EQ(allocatable.at("pods"), Q("29"));
}

TEST(InstanceType, GravitonLoses64MiBBeforeVmOverhead) {
  InstanceType c6g = Resolve(Info("c6g.large"));
  EXPECT_EQ(Str(c6g.capacity, "cpu"), "2");
  EXPECT_EQ(Str(c6g.capacity, "memory"), "3729Mi");  // (4096 - 64) minus ceil(302.4)
  EXPECT_EQ(Str(c6g.capacity, "pods"), "29");
  EXPECT_EQ(Str(c6g.overhead.kube_reserved, "cpu"), "70m");
  EXPECT_EQ(Str(c6g.overhead.kube_reserved, "memory"), "574Mi");
  EXPECT_EQ(c6g.labels.at("kubernetes.io/arch"), "arm64");
  EXPECT_EQ(c6g.labels.at("karpenter.k8s.aws/instance-cpu-manufacturer"), "aws");
}

TEST(InstanceType, LabelsOfM5Large) {
  ResolveOptions options;
  options.region = "us-east-1";
  InstanceType m5 = Resolve(Info("m5.large"), options);
  std::map<std::string, std::string> want = {
      {"kubernetes.io/arch", "amd64"},
      {"kubernetes.io/os", "linux"},
      {"node.kubernetes.io/instance-type", "m5.large"},
      {"topology.kubernetes.io/region", "us-east-1"},
      {"karpenter.k8s.aws/instance-category", "m"},
      {"karpenter.k8s.aws/instance-family", "m5"},
      {"karpenter.k8s.aws/instance-generation", "5"},
      {"karpenter.k8s.aws/instance-size", "large"},
      {"karpenter.k8s.aws/instance-capability-flex", "false"},
      {"karpenter.k8s.aws/instance-cpu", "2"},
      {"karpenter.k8s.aws/instance-cpu-manufacturer", "intel"},
      {"karpenter.k8s.aws/instance-cpu-sustained-clock-speed-mhz", "3100"},
      {"karpenter.k8s.aws/instance-memory", "8192"},
      {"karpenter.k8s.aws/instance-hypervisor", "nitro"},
      {"karpenter.k8s.aws/instance-encryption-in-transit-supported", "false"},
      {"karpenter.k8s.aws/nitro-sandbox", "false"},
      {"karpenter.k8s.aws/instance-network-bandwidth", "750"},
      {"karpenter.k8s.aws/instance-ebs-bandwidth", "4750"},
  };
  EXPECT_EQ(m5.labels, want);
}

TEST(InstanceType, NvidiaGpuTypeHasGpuResourcesEfaAndLabels) {
  InstanceType p4d = Resolve(Info("p4d.24xlarge"));
  EXPECT_EQ(Str(p4d.capacity, "nvidia.com/gpu"), "8");
  EXPECT_EQ(Str(p4d.capacity, "vpc.amazonaws.com/efa"), "4");
  EXPECT_EQ(Str(p4d.capacity, "pods"), "737");  // 15 x 49 + 2
  EXPECT_EQ(Str(p4d.capacity, "memory"), "1091174Mi");
  EXPECT_EQ(Str(p4d.overhead.kube_reserved, "cpu"), "310m");
  EXPECT_EQ(Str(p4d.overhead.kube_reserved, "memory"), "8362Mi");
  EXPECT_EQ(p4d.labels.at("karpenter.k8s.aws/instance-gpu-name"), "a100");
  EXPECT_EQ(p4d.labels.at("karpenter.k8s.aws/instance-gpu-manufacturer"), "nvidia");
  EXPECT_EQ(p4d.labels.at("karpenter.k8s.aws/instance-gpu-count"), "8");
  EXPECT_EQ(p4d.labels.at("karpenter.k8s.aws/instance-gpu-memory"), "40960");
  EXPECT_EQ(p4d.labels.at("karpenter.k8s.aws/instance-local-nvme"), "8000");
  EXPECT_EQ(p4d.labels.at("karpenter.k8s.aws/instance-network-bandwidth"), "400000");
  EXPECT_EQ(p4d.labels.count("karpenter.k8s.aws/instance-accelerator-name"), 0u);
}

TEST(InstanceType, AmdAndHabanaGpusUseTheirOwnResources) {
  InstanceType g4ad = Resolve(Info("g4ad.xlarge"));
  EXPECT_EQ(Str(g4ad.capacity, "amd.com/gpu"), "1");
  EXPECT_EQ(Str(g4ad.capacity, "nvidia.com/gpu"), "<absent>");
  InstanceType dl1 = Resolve(Info("dl1.24xlarge"));
  EXPECT_EQ(Str(dl1.capacity, "habana.ai/gaudi"), "8");
  EXPECT_EQ(dl1.labels.at("karpenter.k8s.aws/instance-gpu-name"), "gaudi-hl-205");
  EXPECT_EQ(dl1.labels.at("karpenter.k8s.aws/instance-gpu-manufacturer"), "habana");
}

TEST(InstanceType, SeveralGpuModelsSumResourcesWithoutGpuLabels) {
  InstanceTypeInfo mixed{.name = "x9.large",
                         .vcpus = 4,
                         .memory_mib = 16384,
                         .architectures = {"x86_64"},
                         .enis = 2,
                         .ipv4_per_eni = 4,
                         .gpus = {{.name = "A", .manufacturer = "NVIDIA", .count = 1},
                                  {.name = "B", .manufacturer = "NVIDIA", .count = 2}}};
  InstanceType type = Resolve(mixed);
  EXPECT_EQ(Str(type.capacity, "nvidia.com/gpu"), "3");
  EXPECT_EQ(type.labels.count("karpenter.k8s.aws/instance-gpu-name"), 0u);
  EXPECT_EQ(type.labels.count("karpenter.k8s.aws/instance-gpu-count"), 0u);
}

TEST(InstanceType, NeuronDevicesGiveNeuronResourcesAndAcceleratorLabels) {
  InstanceType inf2 = Resolve(Info("inf2.xlarge"));
  EXPECT_EQ(Str(inf2.capacity, "aws.amazon.com/neuron"), "1");
  EXPECT_EQ(Str(inf2.capacity, "aws.amazon.com/neuroncore"), "2");
  EXPECT_EQ(inf2.labels.at("karpenter.k8s.aws/instance-accelerator-name"), "inferentia2");
  EXPECT_EQ(inf2.labels.at("karpenter.k8s.aws/instance-accelerator-manufacturer"), "aws");
  EXPECT_EQ(inf2.labels.at("karpenter.k8s.aws/instance-accelerator-count"), "1");
  // inf1 also lists its chips as inference accelerators; the Neuron view wins.
  InstanceType inf1 = Resolve(Info("inf1.xlarge"));
  EXPECT_EQ(Str(inf1.capacity, "aws.amazon.com/neuroncore"), "4");
  EXPECT_EQ(inf1.labels.at("karpenter.k8s.aws/instance-accelerator-name"), "inferentia");
  EXPECT_EQ(inf1.labels.at("karpenter.k8s.aws/instance-accelerator-manufacturer"), "aws");
  InstanceType trn1 = Resolve(Info("trn1.32xlarge"));
  EXPECT_EQ(Str(trn1.capacity, "aws.amazon.com/neuron"), "16");
  EXPECT_EQ(Str(trn1.capacity, "aws.amazon.com/neuroncore"), "32");
  EXPECT_EQ(Str(trn1.capacity, "vpc.amazonaws.com/efa"), "8");
  EXPECT_EQ(Str(trn1.capacity, "pods"), "247");  // default card only: 5 x 49 + 2
}

TEST(InstanceType, InferenceAcceleratorLabelsWithoutNeuron) {
  // Shaped like dl2q.24xlarge, which us-east-1 does not offer.
  InstanceTypeInfo dl2q{.name = "dl2q.24xlarge",
                        .vcpus = 96,
                        .memory_mib = 786432,
                        .architectures = {"x86_64"},
                        .enis = 15,
                        .ipv4_per_eni = 50,
                        .inference_accelerators = {
                            {.name = "Qualcomm AI100", .manufacturer = "Qualcomm", .count = 8}}};
  InstanceType type = Resolve(dl2q);
  EXPECT_EQ(type.labels.at("karpenter.k8s.aws/instance-accelerator-name"), "qualcomm-ai100");
  EXPECT_EQ(type.labels.at("karpenter.k8s.aws/instance-accelerator-manufacturer"), "qualcomm");
  EXPECT_EQ(type.labels.at("karpenter.k8s.aws/instance-accelerator-count"), "8");
  EXPECT_EQ(type.labels.count("karpenter.k8s.aws/instance-cpu-manufacturer"), 0u);
  // Upstream writes 0 for an unknown clock speed.
  EXPECT_EQ(type.labels.at("karpenter.k8s.aws/instance-cpu-sustained-clock-speed-mhz"), "0");
}

TEST(InstanceType, FlexAndHighMemoryNames) {
  InstanceType flex = Resolve(Info("c7i-flex.large"));
  EXPECT_EQ(flex.labels.at("karpenter.k8s.aws/instance-capability-flex"), "true");
  EXPECT_EQ(flex.labels.at("karpenter.k8s.aws/instance-family"), "c7i-flex");
  EXPECT_EQ(flex.labels.at("karpenter.k8s.aws/instance-generation"), "7");
  InstanceType metal = Resolve(Info("m5.metal"));
  EXPECT_EQ(metal.labels.at("karpenter.k8s.aws/instance-size"), "metal");
  EXPECT_EQ(metal.labels.at("karpenter.k8s.aws/instance-hypervisor"), "");
}

TEST(InstanceType, MetalAndAcceleratorTypesAreExotic) {
  EXPECT_FALSE(IsExotic(Resolve(Info("m5.large"))));
  EXPECT_FALSE(IsExotic(Resolve(Info("m5.24xlarge"))));
  EXPECT_TRUE(IsExotic(Resolve(Info("m5.metal"))));
  EXPECT_TRUE(IsExotic(Resolve(Info("c5.metal"))));
  EXPECT_TRUE(IsExotic(Resolve(Info("p4d.24xlarge"))));  // nvidia.com/gpu
  EXPECT_TRUE(IsExotic(Resolve(Info("g4ad.xlarge"))));   // amd.com/gpu
  EXPECT_TRUE(IsExotic(Resolve(Info("dl1.24xlarge"))));  // habana.ai/gaudi
  EXPECT_TRUE(IsExotic(Resolve(Info("inf1.xlarge"))));   // aws.amazon.com/neuron
}

TEST(KubeReservedCpuMillis, FollowsUpstreamTiers) {
  EXPECT_EQ(KubeReservedCpuMillis(1000), 60);
  EXPECT_EQ(KubeReservedCpuMillis(2000), 70);
  EXPECT_EQ(KubeReservedCpuMillis(4000), 80);
  EXPECT_EQ(KubeReservedCpuMillis(8000), 90);
  EXPECT_EQ(KubeReservedCpuMillis(96000), 310);
  EXPECT_EQ(KubeReservedCpuMillis(500), 30);
  EXPECT_EQ(KubeReservedCpuMillis(0), 0);
}

TEST(MaxPods, MaxPodsOverrideReplacesEniLimitButNotMemoryReserve) {
  ResolveOptions options;
  options.kubelet.max_pods = 110;
  InstanceType m5 = Resolve(Info("m5.large"), options);
  EXPECT_EQ(Str(m5.capacity, "pods"), "110");
  // AL2023 sizes kube-reserved memory from the ENI-limited count regardless of maxPods.
  EXPECT_EQ(Str(m5.overhead.kube_reserved, "memory"), "574Mi");
  options.ami_family = AmiFamily::kBottlerocket;
  InstanceType bottlerocket = Resolve(Info("m5.large"), options);
  EXPECT_EQ(Str(bottlerocket.overhead.kube_reserved, "memory"), "1465Mi");  // 11 x 110 + 255
}

TEST(MaxPods, PodsPerCoreCapsPodsExceptOnBottlerocket) {
  ResolveOptions options;
  options.kubelet.pods_per_core = 4;
  EXPECT_EQ(MaxPods(Info("m5.large"), options), 8);
  options.kubelet.pods_per_core = 40;
  EXPECT_EQ(MaxPods(Info("m5.large"), options), 29);
  options.kubelet.pods_per_core = 4;
  options.ami_family = AmiFamily::kBottlerocket;
  EXPECT_EQ(MaxPods(Info("m5.large"), options), 29);
}

TEST(MaxPods, ReservedEnisReducePodsButNotMemoryReserve) {
  ResolveOptions options;
  options.reserved_enis = 1;
  InstanceType m5 = Resolve(Info("m5.large"), options);
  EXPECT_EQ(Str(m5.capacity, "pods"), "20");  // 2 x 9 + 2
  EXPECT_EQ(Str(m5.overhead.kube_reserved, "memory"), "574Mi");
  options.reserved_enis = 3;
  EXPECT_EQ(MaxPods(Info("m5.large"), options), 0);
}

TEST(InstanceType, WindowsUses110PodsPrivateIpsAndA50GiVolume) {
  ResolveOptions options;
  options.ami_family = AmiFamily::kWindows2022;
  InstanceType m5 = Resolve(Info("m5.large"), options);
  EXPECT_EQ(m5.labels.at("kubernetes.io/os"), "windows");
  EXPECT_EQ(m5.labels.at("node.kubernetes.io/windows-build"), "10.0.20348");
  EXPECT_EQ(Str(m5.capacity, "pods"), "110");
  EXPECT_EQ(Str(m5.capacity, "vpc.amazonaws.com/PrivateIPv4Address"), "9");
  EXPECT_EQ(Str(m5.capacity, "ephemeral-storage"), "50Gi");
  EXPECT_EQ(Str(m5.overhead.kube_reserved, "memory"), "1465Mi");
  EXPECT_TRUE(SupportsAmiFamily(Info("m5.large"), AmiFamily::kWindows2022));
  EXPECT_FALSE(SupportsAmiFamily(Info("c6g.large"), AmiFamily::kWindows2022));
}

TEST(SupportsAmiFamily, Al2023HasNoImageForA1) {
  EXPECT_FALSE(SupportsAmiFamily(Info("a1.large"), AmiFamily::kAL2023));
  EXPECT_TRUE(SupportsAmiFamily(Info("a1.large"), AmiFamily::kAL2));
  EXPECT_TRUE(SupportsAmiFamily(Info("c6g.large"), AmiFamily::kAL2023));
}

TEST(InstanceType, KubeletReservationsOverrideDefaultsPerKey) {
  ResolveOptions options;
  options.kubelet.kube_reserved = {{"cpu", "200m"}, {"pid", "100"}};
  options.kubelet.system_reserved = {{"memory", "1Gi"}};
  InstanceType m5 = Resolve(Info("m5.large"), options);
  EXPECT_EQ(Str(m5.overhead.kube_reserved, "cpu"), "200m");
  EXPECT_EQ(Str(m5.overhead.kube_reserved, "memory"), "574Mi");
  EXPECT_EQ(Str(m5.overhead.kube_reserved, "pid"), "100");
  EXPECT_EQ(Str(m5.overhead.system_reserved, "memory"), "1Gi");
  EXPECT_EQ(m5.Allocatable().at("memory"), Q("5879Mi"));  // 7577 - 574 - 1024 - 100
  EXPECT_EQ(m5.Allocatable().at("cpu"), Q("1800m"));
  EXPECT_EQ(m5.Allocatable().count("pid"), 0u);  // only capacity resources are allocatable
}

TEST(InstanceType, EvictionHardOverridesMemoryAndNodefsThresholds) {
  ResolveOptions options;
  options.kubelet.eviction_hard = {
      {"memory.available", "5%"}, {"nodefs.available", "100%"}, {"imagefs.available", "1Gi"}};
  InstanceType m5 = Resolve(Info("m5.large"), options);
  // ceil(7577Mi x 5%) bytes; 100% disables the nodefs signal; imagefs does not count.
  EXPECT_EQ(m5.overhead.eviction_threshold.at("memory"), Q("397253018"));
  EXPECT_EQ(m5.overhead.eviction_threshold.at("ephemeral-storage"), Q("0"));
  options.kubelet.eviction_hard = {{"memory.available", "500Mi"}};
  EXPECT_EQ(Str(Resolve(Info("m5.large"), options).overhead.eviction_threshold, "memory"), "500Mi");
}

TEST(InstanceType, BadKubeletValuesAreErrors) {
  ResolveOptions options;
  options.kubelet.kube_reserved = {{"cpu", "lots"}};
  absl::StatusOr<InstanceType> type = NewInstanceType(Info("m5.large"), options);
  ASSERT_FALSE(type.ok());
  EXPECT_THAT(type.status().message(), HasSubstr("kubelet.kubeReserved[cpu]"));
  options.kubelet.kube_reserved.clear();
  options.kubelet.eviction_hard = {{"memory.available", "x%"}};
  type = NewInstanceType(Info("m5.large"), options);
  ASSERT_FALSE(type.ok());
  EXPECT_THAT(type.status().message(), HasSubstr("x% is not a percentage"));
  options.kubelet.eviction_hard = {{"nodefs.available", "ten"}};
  EXPECT_FALSE(NewInstanceType(Info("m5.large"), options).ok());
}

TEST(InstanceType, EphemeralStorageFollowsVolumeSizeOrInstanceStore) {
  ResolveOptions options;
  options.ephemeral_volume_size = Q("100Gi");
  InstanceType m5 = Resolve(Info("m5.large"), options);
  EXPECT_EQ(Str(m5.capacity, "ephemeral-storage"), "100Gi");
  EXPECT_EQ(m5.overhead.eviction_threshold.at("ephemeral-storage"), Q("10Gi"));
  options.instance_store_raid0 = true;
  InstanceType m5d = Resolve(Info("m5d.large"), options);
  EXPECT_EQ(Str(m5d.capacity, "ephemeral-storage"), "75G");
  // RAID0 on a type without an instance store keeps the volume size.
  EXPECT_EQ(Str(Resolve(Info("m5.large"), options).capacity, "ephemeral-storage"), "100Gi");
}

TEST(InstanceType, VmMemoryOverheadIsConfigurable) {
  ResolveOptions options;
  options.vm_memory_overhead_percent = 0;
  EXPECT_EQ(Str(Resolve(Info("m5.large"), options).capacity, "memory"), "8Gi");
}

TEST(ParseAmiFamily, AcceptsUpstreamSpellingsOnly) {
  EXPECT_EQ(ParseAmiFamily("AL2023").value(), AmiFamily::kAL2023);
  EXPECT_EQ(ParseAmiFamily("Bottlerocket").value(), AmiFamily::kBottlerocket);
  EXPECT_EQ(ParseAmiFamily("Windows2025").value(), AmiFamily::kWindows2025);
  EXPECT_FALSE(ParseAmiFamily("al2023").ok());
  EXPECT_TRUE(IsWindows(AmiFamily::kWindows2019));
  EXPECT_FALSE(IsWindows(AmiFamily::kCustom));
}

}  // namespace
}  // namespace karpenter::cloudprovider
