#include "src/aws/bootstrap.h"

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "src/aws/toml.h"

namespace karpenter::aws {
namespace {

const ClusterInfo kCluster{.name = "demo", .endpoint = "https://api", .ca_bundle = "Q0E="};

api::EC2NodeClass NodeClass(std::string family) {
  api::EC2NodeClass node_class;
  node_class.metadata.name = "default";
  node_class.spec.ami_family = std::move(family);
  return node_class;
}

api::NodeClaim Claim() {
  api::NodeClaim claim;
  claim.metadata.name = "default-a";
  claim.metadata.labels = {{"karpenter.sh/nodepool", "default"},
                           {"team", "web"},
                           // The kubelet may not set these on itself: left out.
                           {"node.kubernetes.io/instance-type", "m5.large"},
                           {"topology.k8s.io/zone", "a"}};
  claim.spec.taints = {{.key = "dedicated", .value = "gpu", .effect = "NoSchedule"}};
  claim.spec.startup_taints = {{.key = "init", .value = "", .effect = "NoSchedule"}};
  return claim;
}

api::KubeletConfiguration Kubelet() {
  return api::KubeletConfiguration{
      .cluster_dns = {"10.100.0.10"},
      .max_pods = 110,
      .system_reserved = {{"memory", "100Mi"}, {"cpu", "100m"}},
      .eviction_hard = {{"memory.available", "5%"}},
      .eviction_soft_grace_period = {{"memory.available",
                                      api::Duration::FromNanos(int64_t{90} * 1000 * 1000 * 1000)}},
      .image_gc_high_threshold_percent = 85,
      .cpu_cfs_quota = false};
}

TEST(Bootstrap, OptionsCarryTheLabelsTheKubeletMaySetAndTheUnregisteredTaint) {
  const BootstrapOptions options = BootstrapOptionsFor(kCluster, NodeClass("AL2"), Claim());
  EXPECT_EQ(options.labels, (std::map<std::string, std::string>{
                                {"karpenter.sh/nodepool", "default"}, {"team", "web"}}));
  ASSERT_EQ(options.taints.size(), 3u);
  EXPECT_EQ(options.taints[2].key, "karpenter.sh/unregistered");
  EXPECT_EQ(options.taints[2].effect, "NoExecute");
  api::NodeClaim claim = Claim();
  claim.spec.taints.push_back({.key = "karpenter.sh/unregistered", .effect = "NoExecute"});
  EXPECT_EQ(BootstrapOptionsFor(kCluster, NodeClass("AL2"), claim).taints.size(), 3u);
}

TEST(Bootstrap, Al2IsABootstrapShCallAfterTheClassesOwnScript) {
  api::EC2NodeClass node_class = NodeClass("AL2");
  node_class.spec.user_data = "#!/bin/bash\necho hello";
  node_class.spec.kubelet = Kubelet();
  absl::StatusOr<std::string> data =
      Al2UserData(BootstrapOptionsFor(kCluster, node_class, Claim()));
  ASSERT_TRUE(data.ok()) << data.status();
  EXPECT_EQ(*data,
            "MIME-Version: 1.0\n"
            "Content-Type: multipart/mixed; boundary=\"//\"\n"
            "\n"
            "--//\n"
            "Content-Type: text/x-shellscript; charset=\"us-ascii\"\n"
            "\n"
            "#!/bin/bash\n"
            "echo hello\n"
            "--//\n"
            "Content-Type: text/x-shellscript; charset=\"us-ascii\"\n"
            "\n"
            "#!/bin/bash -xe\n"
            "exec > >(tee /var/log/user-data.log|logger -t user-data -s 2>/dev/console) 2>&1\n"
            "/etc/eks/bootstrap.sh 'demo' --apiserver-endpoint 'https://api' --b64-cluster-ca "
            "'Q0E=' \\\n"
            "--dns-cluster-ip '10.100.0.10' \\\n"
            "--use-max-pods false \\\n"
            "--kubelet-extra-args '--node-labels=\"karpenter.sh/nodepool=default,team=web\" "
            "--register-with-taints=\"dedicated=gpu:NoSchedule,init:NoSchedule,karpenter.sh/"
            "unregistered:NoExecute\" --max-pods=110 --system-reserved=\"cpu=100m,memory=100Mi\" "
            "--eviction-hard=\"memory.available<5%\" "
            "--eviction-soft-grace-period=\"memory.available=1m30s\" "
            "--image-gc-high-threshold=85 --cpu-cfs-quota=false'\n"
            "--//--\n");
}

TEST(Bootstrap, Al2KeepsTheClassesMimePartsAndRaidsInstanceStores) {
  api::EC2NodeClass node_class = NodeClass("AL2");
  node_class.spec.instance_store_policy = "RAID0";
  node_class.spec.user_data =
      "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"BOUNDARY\"\n\n"
      "--BOUNDARY\nContent-Type: text/cloud-config; charset=\"us-ascii\"\n\n"
      "runcmd:\n- echo one\n\n--BOUNDARY\nContent-Type: text/x-shellscript\n\necho two\n"
      "--BOUNDARY--\n";
  absl::StatusOr<std::string> data =
      Al2UserData(BootstrapOptionsFor(kCluster, node_class, api::NodeClaim()));
  ASSERT_TRUE(data.ok()) << data.status();
  const size_t one = data->find(
      "--//\nContent-Type: text/cloud-config; charset=\"us-ascii\"\n\n"
      "runcmd:\n- echo one\n\n--//\n");
  const size_t two = data->find("--//\nContent-Type: text/x-shellscript\n\necho two\n--//\n");
  const size_t bootstrap = data->find("/etc/eks/bootstrap.sh 'demo'");
  ASSERT_NE(one, std::string::npos) << *data;
  ASSERT_NE(two, std::string::npos) << *data;
  EXPECT_LT(one, two);
  EXPECT_LT(two, bootstrap);
  EXPECT_NE(data->find("--kubelet-extra-args '--register-with-taints=\"karpenter.sh/"
                       "unregistered:NoExecute\"' \\\n--local-disks raid0\n--//--\n"),
            std::string::npos)
      << *data;
  EXPECT_EQ(data->find("--use-max-pods"), std::string::npos);
}

TEST(Bootstrap, Al2RefusesUserDataThatClaimsMimeAndIsNot) {
  api::EC2NodeClass node_class = NodeClass("AL2");
  node_class.spec.user_data = "Content-Type: text/x-shellscript\n\necho";
  absl::StatusOr<std::string> data =
      Al2UserData(BootstrapOptionsFor(kCluster, node_class, Claim()));
  ASSERT_FALSE(data.ok());
  EXPECT_TRUE(absl::IsInvalidArgument(data.status()));
  EXPECT_TRUE(absl::StartsWith(data.status().message(), "spec.userData: ")) << data.status();
}

TEST(Bootstrap, BottlerocketMergesKarpentersSettingsOverTheClassesToml) {
  api::EC2NodeClass node_class = NodeClass("Bottlerocket");
  node_class.spec.kubelet = Kubelet();
  node_class.spec.user_data = R"([settings.kubernetes]
cluster-name = "someone-else"
max-pods = 3
allowed-unsafe-sysctls = ["net.core.somaxconn"]
[settings.kubernetes.node-labels]
team = "platform"
owner = "me"
[settings.kubernetes.node-taints]
old = ["x:NoSchedule"]
[settings.host-containers.admin]
enabled = true
)";
  absl::StatusOr<std::string> data =
      BottlerocketUserData(BootstrapOptionsFor(kCluster, node_class, Claim()));
  ASSERT_TRUE(data.ok()) << data.status();
  EXPECT_EQ(*data,
            "[settings]\n"
            "\n"
            "[settings.host-containers]\n"
            "\n"
            "[settings.host-containers.admin]\n"
            "enabled = true\n"
            "\n"
            "[settings.kubernetes]\n"
            "allowed-unsafe-sysctls = [\"net.core.somaxconn\"]\n"
            "api-server = \"https://api\"\n"
            "cluster-certificate = \"Q0E=\"\n"
            "cluster-dns-ip = \"10.100.0.10\"\n"
            "cluster-name = \"demo\"\n"
            "cpu-cfs-quota-enforced = false\n"
            "image-gc-high-threshold-percent = \"85\"\n"
            "max-pods = 110\n"
            "\n"
            "[settings.kubernetes.eviction-hard]\n"
            "\"memory.available\" = \"5%\"\n"
            "\n"
            "[settings.kubernetes.eviction-soft-grace-period]\n"
            "\"memory.available\" = \"1m30s\"\n"
            "\n"
            "[settings.kubernetes.node-labels]\n"
            "\"karpenter.sh/nodepool\" = \"default\"\n"
            "owner = \"me\"\n"
            "team = \"web\"\n"
            "\n"
            "[settings.kubernetes.node-taints]\n"
            "dedicated = [\"gpu:NoSchedule\"]\n"
            "init = [\":NoSchedule\"]\n"
            "\"karpenter.sh/unregistered\" = [\":NoExecute\"]\n"
            "\n"
            "[settings.kubernetes.system-reserved]\n"
            "cpu = \"100m\"\n"
            "memory = \"100Mi\"\n");
}

TEST(Bottlerocket, WithoutUserDataOnlyKarpentersSettingsAndRaidsInstanceStores) {
  api::EC2NodeClass node_class = NodeClass("Bottlerocket");
  node_class.spec.instance_store_policy = "RAID0";
  absl::StatusOr<std::string> data =
      BottlerocketUserData(BootstrapOptionsFor(kCluster, node_class, api::NodeClaim()));
  ASSERT_TRUE(data.ok()) << data.status();
  EXPECT_EQ(*data,
            "[settings]\n"
            "\n"
            "[settings.bootstrap-commands]\n"
            "\n"
            "[settings.bootstrap-commands.000-mount-instance-storage]\n"
            "commands = [[\"apiclient\", \"ephemeral-storage\", \"init\"], [\"apiclient\", "
            "\"ephemeral-storage\", \"bind\", \"--dirs\", \"/var/lib/containerd\", "
            "\"/var/lib/kubelet\", \"/var/log/pods\"]]\n"
            "essential = true\n"
            "mode = \"always\"\n"
            "\n"
            "[settings.kubernetes]\n"
            "api-server = \"https://api\"\n"
            "cluster-certificate = \"Q0E=\"\n"
            "cluster-name = \"demo\"\n"
            "\n"
            "[settings.kubernetes.node-taints]\n"
            "\"karpenter.sh/unregistered\" = [\":NoExecute\"]\n");
}

TEST(Bottlerocket, UserDataThatIsNotTomlOrClashesIsRefusedNamingTheField) {
  for (const char* user_data :
       {"settings = 1\n", "[settings]\nkubernetes = \"x\"\n", "#!/bin/bash\necho not toml\n"}) {
    api::EC2NodeClass node_class = NodeClass("Bottlerocket");
    node_class.spec.user_data = user_data;
    absl::StatusOr<std::string> data =
        BottlerocketUserData(BootstrapOptionsFor(kCluster, node_class, Claim()));
    ASSERT_FALSE(data.ok()) << user_data;
    EXPECT_TRUE(absl::IsInvalidArgument(data.status()));
    EXPECT_TRUE(absl::StartsWith(data.status().message(), "spec.userData: ")) << data.status();
  }
}

TEST(Bootstrap, WindowsIsAPowershellBlockCallingTheEksBootstrapScript) {
  api::EC2NodeClass node_class = NodeClass("Windows2022");
  node_class.spec.user_data = "Write-Host hello";
  node_class.spec.kubelet =
      api::KubeletConfiguration{.cluster_dns = {"10.100.0.10"}, .max_pods = 40};
  api::NodeClaim claim;
  claim.metadata.labels = {{"karpenter.sh/nodepool", "win"}};
  EXPECT_EQ(
      WindowsUserData(BootstrapOptionsFor(kCluster, node_class, claim)),
      "<powershell>\n"
      "Write-Host hello\n"
      "[string]$EKSBootstrapScriptFile = "
      "\"$env:ProgramFiles\\Amazon\\EKS\\Start-EKSBootstrap.ps1\"\n"
      "& $EKSBootstrapScriptFile -EKSClusterName 'demo' -APIServerEndpoint 'https://api' "
      "-Base64ClusterCA 'Q0E=' -KubeletExtraArgs '--node-labels=\"karpenter.sh/nodepool=win\" "
      "--register-with-taints=\"karpenter.sh/unregistered:NoExecute\" --max-pods=40' "
      "-DNSClusterIP '10.100.0.10'\n"
      "</powershell>");
}

TEST(Bootstrap, MimePartsOfAnUnterminatedDocumentAreRefused) {
  EXPECT_FALSE(SplitMimeParts("Content-Type: multipart/mixed; boundary=b\n\n--b\n\nx\n").ok());
  EXPECT_FALSE(SplitMimeParts("Content-Type: text/plain\n\nx\n").ok());
  absl::StatusOr<std::vector<MimePart>> parts = SplitMimeParts(
      "Content-Type: multipart/mixed; boundary=b\n\npreamble\n--b\nA: 1\n\nx\ny\n--b--\n");
  ASSERT_TRUE(parts.ok()) << parts.status();
  ASSERT_EQ(parts->size(), 1u);
  EXPECT_EQ((*parts)[0].headers, std::vector<std::string>{"A: 1"});
  EXPECT_EQ((*parts)[0].body, "x\ny");
}

}  // namespace
}  // namespace karpenter::aws
