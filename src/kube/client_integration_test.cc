// The REST client against a real API server (see live_cluster.h; skipped without one).
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "src/kube/live_cluster.h"

namespace karpenter::kube {
namespace {

using testing::LiveCluster;

// No scheduler serves "kp-test-none" and no kubelet runs the pod, so only the test writes it.
std::string PodJson(const std::string& ns, const std::string& name, const std::string& extra = "") {
  return R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name + R"(","namespace":")" +
         ns + R"(","labels":{"app":"guarded"}},"spec":{)" + extra +
         R"("schedulerName":"kp-test-none","containers":[{"name":"c","image":"registry.k8s.io/pause:3.10"}]}})";
}

api::Pod CreatePod(LiveCluster& live, const std::string& name, const std::string& extra = "") {
  absl::StatusOr<api::Object> decoded = DecodeObject("Pod", PodJson(live.ns(), name, extra));
  EXPECT_TRUE(decoded.ok()) << decoded.status();
  absl::StatusOr<api::Object> created = live.client().Create(*decoded);
  EXPECT_TRUE(created.ok()) << created.status();
  return created.ok() ? std::get<api::Pod>(*created) : api::Pod{};
}

api::Node CreateNode(LiveCluster& live, const std::string& name, const std::string& extra = "") {
  absl::StatusOr<api::Object> decoded =
      DecodeObject("Node", R"({"apiVersion":"v1","kind":"Node","metadata":{"name":")" + name +
                               R"(")" + extra + "}}");
  EXPECT_TRUE(decoded.ok()) << decoded.status();
  absl::StatusOr<api::Object> created = live.client().Create(*decoded);
  EXPECT_TRUE(created.ok()) << created.status();
  return created.ok() ? std::get<api::Node>(*created) : api::Node{};
}

// Reads, changes and writes `key` again after a conflict, as controllers do: the control plane's
// node lifecycle controller writes Nodes too.
absl::StatusOr<api::Object> Modify(LiveCluster& live, const ObjectKey& key, bool status,
                                   const std::function<void(api::Object&)>& change) {
  absl::Status last;
  for (int attempt = 0; attempt < 10; ++attempt) {
    KP_ASSIGN_OR_RETURN(api::Object object, live.client().Get(key));
    change(object);
    absl::StatusOr<api::Object> written =
        status ? live.client().UpdateStatus(object) : live.client().Update(object);
    if (!absl::IsAborted(written.status())) return written;
    last = written.status();
  }
  return last;
}

TEST(ClientIntegration, CreateGetUpdatePatchAndDeleteWithAUidPrecondition) {
  auto live = LiveCluster::Connect();
  if (!live) GTEST_SKIP() << testing::kSkipMessage;
  Client& client = live->client();
  // spec.hostname is a field the engine does not model: writes must not erase it.
  absl::StatusOr<std::string> raw =
      client.Call("POST", "/api/v1/namespaces/" + live->ns() + "/pods",
                  PodJson(live->ns(), "web", R"("hostname":"keep-me",)"));
  ASSERT_TRUE(raw.ok()) << raw.status();
  const ObjectKey key{"Pod", live->ns(), "web"};
  absl::StatusOr<api::Object> got = client.Get(key);
  ASSERT_TRUE(got.ok()) << got.status();
  api::Pod pod = std::get<api::Pod>(*got);
  EXPECT_FALSE(pod.metadata.uid.empty());
  EXPECT_TRUE(absl::IsAlreadyExists(client.Create(pod).status()));

  pod.metadata.labels["tier"] = "front";
  absl::StatusOr<api::Object> updated = client.Update(pod);
  ASSERT_TRUE(updated.ok()) << updated.status();
  EXPECT_EQ(std::get<api::Pod>(*updated).metadata.labels.at("tier"), "front");
  nlohmann::json stored =
      nlohmann::json::parse(*client.Call("GET", "/api/v1/namespaces/" + live->ns() + "/pods/web"));
  EXPECT_EQ(stored["spec"]["hostname"], "keep-me");
  EXPECT_EQ(stored["metadata"]["labels"]["tier"], "front");

  absl::StatusOr<api::Object> patched = client.MergePatch(
      key, R"({"metadata":{"annotations":{"karpenter.sh/do-not-disrupt":"true"}}})");
  ASSERT_TRUE(patched.ok()) << patched.status();
  EXPECT_EQ(std::get<api::Pod>(*patched).metadata.annotations.at("karpenter.sh/do-not-disrupt"),
            "true");

  EXPECT_TRUE(absl::IsAborted(client.Delete(key, {.uid = "not-the-uid"})));
  EXPECT_TRUE(client.Delete(key, {.uid = pod.metadata.uid, .grace_period_seconds = 0}).ok());
  EXPECT_TRUE(live->WaitFor([&] { return absl::IsNotFound(client.Get(key).status()); }));
  EXPECT_TRUE(absl::IsNotFound(client.Delete(key)));
}

TEST(ClientIntegration, AStaleResourceVersionIsAborted) {
  auto live = LiveCluster::Connect();
  if (!live) GTEST_SKIP() << testing::kSkipMessage;
  api::Pod old = CreatePod(*live, "stale");
  api::Pod fresh = old;
  fresh.metadata.labels["v"] = "2";
  ASSERT_TRUE(live->client().Update(fresh).ok());
  old.metadata.labels["v"] = "lost";
  EXPECT_TRUE(absl::IsAborted(live->client().Update(old).status()));
  EXPECT_TRUE(absl::IsAborted(live->client()
                                  .MergePatch(KeyOf(old), R"({"metadata":{"resourceVersion":")" +
                                                              old.metadata.resource_version +
                                                              R"(","labels":{"v":"lost"}}})")
                                  .status()));
}

TEST(ClientIntegration, StatusGoesThroughTheStatusSubresourceOnly) {
  auto live = LiveCluster::Connect();
  if (!live) GTEST_SKIP() << testing::kSkipMessage;
  const ObjectKey key = KeyOf(CreateNode(*live, live->ns() + "-status"));
  absl::StatusOr<api::Object> with_status =
      Modify(*live, key, /*status=*/true, [](api::Object& object) {
        std::get<api::Node>(object).status.capacity["cpu"] = *api::Quantity::Parse("4");
        std::get<api::Node>(object).spec.unschedulable = true;  // not UpdateStatus's to change
      });
  ASSERT_TRUE(with_status.ok()) << with_status.status();
  EXPECT_EQ(std::get<api::Node>(*with_status).status.capacity.at("cpu").String(), "4");
  EXPECT_FALSE(std::get<api::Node>(*with_status).spec.unschedulable);

  absl::StatusOr<api::Object> updated =
      Modify(*live, key, /*status=*/false, [](api::Object& object) {
        std::get<api::Node>(object).spec.unschedulable = true;
        std::get<api::Node>(object).status.capacity["cpu"] = *api::Quantity::Parse("8");
      });
  ASSERT_TRUE(updated.ok()) << updated.status();
  EXPECT_TRUE(std::get<api::Node>(*updated).spec.unschedulable);
  EXPECT_EQ(std::get<api::Node>(*updated).status.capacity.at("cpu").String(), "4");
  EXPECT_TRUE(live->client().Delete(key).ok());
}

TEST(ClientIntegration, FinalizersKeepADeletedObjectUntilRemoved) {
  auto live = LiveCluster::Connect();
  if (!live) GTEST_SKIP() << testing::kSkipMessage;
  api::Node node =
      CreateNode(*live, live->ns() + "-final", R"(,"finalizers":["karpenter.test/block"])");
  const ObjectKey key = KeyOf(node);
  ASSERT_TRUE(live->client().Delete(key).ok());
  absl::StatusOr<api::Object> deleting = live->client().Get(key);
  ASSERT_TRUE(deleting.ok()) << deleting.status();
  EXPECT_TRUE(std::get<api::Node>(*deleting).metadata.deletion_timestamp.has_value());
  absl::StatusOr<api::Object> released =
      Modify(*live, key, /*status=*/false,
             [](api::Object& object) { std::get<api::Node>(object).metadata.finalizers.clear(); });
  ASSERT_TRUE(released.ok() || absl::IsNotFound(released.status())) << released.status();
  EXPECT_TRUE(live->WaitFor([&] { return absl::IsNotFound(live->client().Get(key).status()); }));
}

TEST(ClientIntegration, EvictionRefusedByAPdbIsTooManyRequests) {
  auto live = LiveCluster::Connect();
  if (!live) GTEST_SKIP() << testing::kSkipMessage;
  api::Pod pod = CreatePod(*live, "guarded");
  // A pending pod may always be evicted; a running one is guarded by its budget.
  pod.status.phase = "Running";
  ASSERT_TRUE(live->client().UpdateStatus(pod).ok());
  absl::StatusOr<std::string> pdb = live->client().Call(
      "POST", "/apis/policy/v1/namespaces/" + live->ns() + "/poddisruptionbudgets",
      R"({"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"guard"},
          "spec":{"minAvailable":1,"selector":{"matchLabels":{"app":"guarded"}}}})");
  ASSERT_TRUE(pdb.ok()) << pdb.status();
  absl::StatusOr<EvictionResult> result = live->client().Evict(KeyOf(pod), pod.metadata.uid);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(*result, EvictionResult::kTooManyRequests);
  result = live->client().Evict(ObjectKey{"Pod", live->ns(), "absent"}, "");
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(*result, EvictionResult::kNotFound);
  // Once the budget is gone the same eviction goes through.
  ASSERT_TRUE(live->client()
                  .Call("DELETE",
                        "/apis/policy/v1/namespaces/" + live->ns() + "/poddisruptionbudgets/guard")
                  .ok());
  result = live->client().Evict(KeyOf(pod), pod.metadata.uid);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(*result, EvictionResult::kEvicted);
}

}  // namespace
}  // namespace karpenter::kube
