#include "src/sim/pod_store.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace karpenter::sim {
namespace {

PodRecord Record(const std::string& owner, const std::string& node = "",
                 const std::string& owner_kind = "ReplicaSet") {
  PodRecord record;
  record.owner = owner;
  record.pod.spec.node_name = node;
  api::OwnerReference reference;
  reference.api_version = "apps/v1";
  reference.kind = owner_kind;
  reference.name = owner;
  reference.controller = true;
  record.pod.metadata.owner_references.push_back(reference);
  return record;
}

std::vector<std::string> Keys(const PodStore::Index& index) {
  std::vector<std::string> keys;
  for (const auto& [key, record] : index) keys.emplace_back(key);
  return keys;
}

TEST(PodStore, IndexesFollowPutBindAndErase) {
  PodStore pods;
  pods.Put("default/web-b", Record("default/web"));
  pods.Put("default/web-a", Record("default/web", "node-1"));
  pods.Put("kube-system/proxy-1", Record("", "node-1", "DaemonSet"));
  pods.Put("default/job-a", Record("default/batch"));
  EXPECT_EQ(Keys(pods.Unbound()), (std::vector<std::string>{"default/job-a", "default/web-b"}));
  EXPECT_EQ(Keys(pods.OnNode("node-1")),
            (std::vector<std::string>{"default/web-a", "kube-system/proxy-1"}));
  EXPECT_EQ(Keys(pods.WorkloadOn("node-1")), (std::vector<std::string>{"default/web-a"}));
  EXPECT_EQ(Keys(pods.OwnedBy("default/web")),
            (std::vector<std::string>{"default/web-a", "default/web-b"}));

  pods.Bind(pods.find("default/web-b"), "node-2");
  EXPECT_EQ(Keys(pods.Unbound()), (std::vector<std::string>{"default/job-a"}));
  EXPECT_EQ(Keys(pods.WorkloadOn("node-2")), (std::vector<std::string>{"default/web-b"}));

  pods.Erase(pods.find("default/web-a"));
  EXPECT_TRUE(pods.WorkloadOn("node-1").empty());
  EXPECT_EQ(Keys(pods.OnNode("node-1")), (std::vector<std::string>{"kube-system/proxy-1"}));
  EXPECT_EQ(Keys(pods.OwnedBy("default/web")), (std::vector<std::string>{"default/web-b"}));
  EXPECT_TRUE(pods.OnNode("node-9").empty());
  EXPECT_EQ(pods.IndexMismatch(), "");
}

TEST(PodStore, PutReplacesARecordAndItsIndexEntries) {
  PodStore pods;
  pods.Put("default/db-0", Record("default/db", "node-1"));
  pods.Put("default/db-0", Record("default/db"));  // recreated under its old name, unbound
  EXPECT_TRUE(pods.OnNode("node-1").empty());
  EXPECT_EQ(Keys(pods.Unbound()), (std::vector<std::string>{"default/db-0"}));
  EXPECT_EQ(pods.OwnedBy("default/db").size(), 1u);
  EXPECT_EQ(pods.IndexMismatch(), "");
}

PodRecord Requesting(int64_t milli_cpu, int64_t memory_bytes, const std::string& node = "") {
  PodRecord record = Record("default/web", node);
  api::Container container;
  container.resources.requests["cpu"] = api::Quantity::FromMilli(milli_cpu, {});
  container.resources.requests["memory"] =
      api::Quantity::FromInt(memory_bytes, api::Quantity::Format::kBinarySI);
  record.pod.spec.containers.push_back(container);
  return record;
}

TEST(PodStore, BoundRequestsFollowBindPutAndErase) {
  PodStore pods;
  pods.Put("default/a", Requesting(500, 1 << 20));
  EXPECT_EQ(pods.bound_milli_cpu(), 0);  // unbound pods are not on any node's allocatable
  pods.Put("default/b", Requesting(250, 2 << 20, "node-1"));
  EXPECT_EQ(pods.bound_milli_cpu(), 250);
  pods.Bind(pods.find("default/a"), "node-1");
  EXPECT_EQ(pods.bound_milli_cpu(), 750);
  EXPECT_EQ(pods.bound_memory_bytes(), 3 << 20);
  pods.Put("default/b", Requesting(100, 1 << 20));  // recreated unbound
  EXPECT_EQ(pods.bound_milli_cpu(), 500);
  pods.Erase(pods.find("default/a"));
  EXPECT_EQ(pods.bound_milli_cpu(), 0);
  EXPECT_EQ(pods.bound_memory_bytes(), 0);
}

TEST(PodStore, IndexMismatchNamesANodeChangedBehindTheIndex) {
  PodStore pods;
  pods.Put("default/web-a", Record("default/web", "node-1"));
  pods.find("default/web-a")->second.pod.spec.node_name = "node-2";  // not through Bind
  EXPECT_EQ(pods.IndexMismatch(), "node node-2");
}

}  // namespace
}  // namespace karpenter::sim
