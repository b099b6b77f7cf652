#include "src/migrate/cluster_autoscaler.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace karpenter::migrate {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kDeployment[] = R"(apiVersion: apps/v1
kind: Deployment
metadata:
  name: cluster-autoscaler
  namespace: kube-system
spec:
  template:
    spec:
      containers:
      - name: cluster-autoscaler
        image: registry.k8s.io/autoscaling/cluster-autoscaler:v1.30.2
        command:
        - ./cluster-autoscaler
        - --cloud-provider=aws
        - --expander=priority,least-waste
        - --balance-similar-node-groups
        args:
        - --scale-down-unneeded-time
        - 5m
        - --skip-nodes-with-local-storage=false
        - --expendable-pods-priority-cutoff=-5
)";

constexpr char kPriorities[] = R"(---
apiVersion: v1
kind: ConfigMap
metadata:
  name: cluster-autoscaler-priority-expander
  namespace: kube-system
data:
  priorities: |-
    10:
      - .*spot.*
    50:
      - ^eks-general-.*
      - .*on-demand.*
)";

absl::StatusOr<ClusterAutoscalerConfig> Read(const std::string& text) {
  KP_ASSIGN_OR_RETURN(std::vector<KubeDocument> documents, ParseKubeDocuments(text, "ca.yaml"));
  ClusterAutoscalerConfig config;
  KP_RETURN_IF_ERROR(ReadClusterAutoscaler(documents, config));
  return config;
}

TEST(ClusterAutoscaler, ReadsFlagsFromCommandAndArgsInEveryPflagSpelling) {
  absl::StatusOr<ClusterAutoscalerConfig> config = Read(kDeployment);
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_TRUE(config->deployment_found);
  EXPECT_EQ(config->deployment_namespace, "kube-system");
  EXPECT_THAT(config->expanders, ElementsAre("priority", "least-waste"));
  EXPECT_TRUE(config->balance_similar_node_groups);
  EXPECT_EQ(config->scale_down_unneeded_time, api::Duration::FromMinutes(5));
  EXPECT_FALSE(config->skip_nodes_with_local_storage);
  EXPECT_TRUE(config->skip_nodes_with_system_pods);  // Cluster Autoscaler's default
  EXPECT_EQ(config->expendable_pods_priority_cutoff, -5);
  EXPECT_TRUE(config->IsSet("scale-down-unneeded-time"));
  EXPECT_FALSE(config->IsSet("scale-down-delay-after-add"));
  EXPECT_FALSE(config->priorities_found);
}

TEST(ClusterAutoscaler, ReadsThePrioritiesHighestFirst) {
  absl::StatusOr<ClusterAutoscalerConfig> config = Read(std::string(kDeployment) + kPriorities);
  ASSERT_TRUE(config.ok()) << config.status();
  ASSERT_EQ(config->priorities.size(), 2u);
  EXPECT_EQ(config->priorities[0].priority, 50);
  EXPECT_THAT(config->priorities[0].patterns, ElementsAre("^eks-general-.*", ".*on-demand.*"));
  EXPECT_EQ(PriorityOf(*config, {"eks-general-workers-0ac6"}), 50);
  EXPECT_EQ(PriorityOf(*config, {"eks-spot-batch-1b2c"}), 10);
  EXPECT_EQ(PriorityOf(*config, {"eks-gpu-7f7f"}), std::nullopt);
}

TEST(ClusterAutoscaler, ReadsTheObjectsOfAKubectlList) {
  absl::StatusOr<ClusterAutoscalerConfig> config = Read(R"({"kind": "List", "items": [
      {"kind": "ConfigMap", "metadata": {"name": "other"}, "data": {"priorities": "x"}},
      {"kind": "ConfigMap", "metadata": {"name": "cluster-autoscaler-priority-expander"},
       "data": {"priorities": "5: [a]"}}]})");
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_FALSE(config->deployment_found);
  ASSERT_EQ(config->priorities.size(), 1u);
  EXPECT_EQ(config->priorities[0].priority, 5);
}

TEST(ClusterAutoscaler, NamesTheTokenOfEveryBadFlagValue) {
  std::string text = kDeployment;
  text.replace(text.find("--expander=priority,least-waste"), 31, "--expander=cheapest");
  text += "        - --scale-down-utilization-threshold=1.5\n";
  text += "        - --max-node-provision-time=soon\n";
  text += "        - --skip-nodes-with-system-pods=maybe\n";
  text += "        - --scale-down-delay-after-add\n";
  absl::StatusOr<ClusterAutoscalerConfig> config = Read(text);
  ASSERT_FALSE(config.ok());
  const std::string message(config.status().message());
  EXPECT_THAT(message, HasSubstr("ca.yaml: Deployment/kube-system/cluster-autoscaler: "
                                 "spec.template.spec.containers[0].command[2]: --expander: "
                                 "\"cheapest\""));
  EXPECT_THAT(message, HasSubstr("containers[0].args[4]: --scale-down-utilization-threshold="
                                 "\"1.5\": must be a number from 0 to 1"));
  EXPECT_THAT(message, HasSubstr("args[5]: --max-node-provision-time=\"soon\""));
  EXPECT_THAT(message, HasSubstr("args[6]: --skip-nodes-with-system-pods=\"maybe\": must be true"));
  EXPECT_THAT(message, HasSubstr("args[7]: --scale-down-delay-after-add: needs a value"));
}

TEST(ClusterAutoscaler, ReadsStaticNodeGroupsAndAutoDiscoveryTags) {
  std::string text = kDeployment;
  text += "        - --nodes=1:10:eks-general-2ac6\n";
  text += "        - --nodes\n";
  text += "        - 0:+4:self-managed:batch\n";
  text +=
      "        - --node-group-auto-discovery=asg:tag=k8s.io/cluster-autoscaler/enabled,"
      "k8s.io/cluster-autoscaler/prod=owned\n";
  absl::StatusOr<ClusterAutoscalerConfig> config = Read(text);
  ASSERT_TRUE(config.ok()) << config.status();
  ASSERT_EQ(config->static_node_groups.size(), 2u);
  const StaticNodeGroup& general = config->static_node_groups[0];
  EXPECT_EQ(general.min_size, 1);
  EXPECT_EQ(general.max_size, 10);
  EXPECT_EQ(general.name, "eks-general-2ac6");
  EXPECT_EQ(general.flag, "--nodes=1:10:eks-general-2ac6");
  // The name is the rest after the second colon, as Cluster Autoscaler splits it.
  EXPECT_EQ(config->static_node_groups[1].name, "self-managed:batch");
  EXPECT_EQ(config->static_node_groups[1].max_size, 4);
  EXPECT_THAT(config->auto_discovery_tags,
              ElementsAre(ElementsAre("k8s.io/cluster-autoscaler/enabled",
                                      "k8s.io/cluster-autoscaler/prod=owned")));
  // Without the flags there are none.
  absl::StatusOr<ClusterAutoscalerConfig> plain = Read(kDeployment);
  ASSERT_TRUE(plain.ok()) << plain.status();
  EXPECT_TRUE(plain->static_node_groups.empty());
  EXPECT_TRUE(plain->auto_discovery_tags.empty());
}

TEST(ClusterAutoscaler, NamesTheTokenOfEveryMalformedNodeGroupFlag) {
  std::string text = kDeployment;
  for (const char* flag : {"--nodes=1:10", "--nodes=x:10:a", "--nodes=1:ten:a", "--nodes=-1:3:a",
                           "--nodes=5:3:a", "--nodes=1:3:", "--node-group-auto-discovery=mig:x",
                           "--node-group-auto-discovery=asg:tag=a,,b"}) {
    text += std::string("        - '") + flag + "'\n";  // quoted: "1:3:" ends in a colon
  }
  absl::StatusOr<ClusterAutoscalerConfig> config = Read(text);
  ASSERT_FALSE(config.ok());
  const std::string message(config.status().message());
  for (const char* expected :
       {"containers[0].args[4]: --nodes=\"1:10\": must be MIN:MAX:NAME",
        "args[5]: --nodes=\"x:10:a\": the minimum must be a whole number",
        "args[6]: --nodes=\"1:ten:a\": the maximum must be a whole number",
        "args[7]: --nodes=\"-1:3:a\": the minimum must be at least 0",
        "args[8]: --nodes=\"5:3:a\": the maximum must be at least the minimum",
        "args[9]: --nodes=\"1:3:\": the Auto Scaling group's name must not be blank",
        "args[10]: --node-group-auto-discovery=\"mig:x\": must be asg:tag=KEY[=VALUE]",
        "args[11]: --node-group-auto-discovery=\"asg:tag=a,,b\": a tag key must not be blank"}) {
    EXPECT_THAT(message, HasSubstr(expected));
  }
}

TEST(ClusterAutoscaler, NamesABadPriorityByItsKeyAndIndex) {
  absl::StatusOr<ClusterAutoscalerConfig> config = Read(R"(kind: ConfigMap
metadata:
  name: cluster-autoscaler-priority-expander
data:
  priorities: |-
    10:
      - good.*
      - "bad(["
    high:
      - x
)");
  ASSERT_FALSE(config.ok());
  const std::string message(config.status().message());
  EXPECT_THAT(message, HasSubstr("data.priorities.10[1]: \"bad([\": not a regular expression"));
  EXPECT_THAT(message, HasSubstr("data.priorities.high: the priority must be a whole number"));
}

TEST(ClusterAutoscaler, AConfigMapWithoutPrioritiesIsAnError) {
  absl::StatusOr<ClusterAutoscalerConfig> config =
      Read("kind: ConfigMap\nmetadata:\n  name: cluster-autoscaler-priority-expander\n");
  ASSERT_FALSE(config.ok());
  EXPECT_THAT(config.status().message(), HasSubstr("data.priorities: required"));
}

TEST(ClusterAutoscaler, SkipsDeploymentsOfOtherImages) {
  absl::StatusOr<ClusterAutoscalerConfig> config = Read(
      "kind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n    spec:\n"
      "      containers: [{name: web, image: nginx, args: [--expander=nonsense]}]\n");
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_FALSE(config->deployment_found);
}

}  // namespace
}  // namespace karpenter::migrate
