// A production controller, unchanged, over the informer and the REST client on a real API server
// (see live_cluster.h; skipped without one): the cluster seam is the only thing it sees.
#include <future>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "src/controllers/nodepool_readiness.h"
#include "src/kube/informer.h"
#include "src/kube/live_cluster.h"

namespace karpenter::kube {
namespace {

using testing::LiveCluster;

// Runs `action` on the clock's thread (the controllers' thread) and waits for it.
void OnClockThread(Clock& clock, const std::function<void()>& action) {
  std::promise<void> done;
  clock.After(0, [&] {
    action();
    done.set_value();
  });
  done.get_future().wait();
}

std::string ConditionStatus(const nlohmann::json& object, const std::string& type) {
  const nlohmann::json status = object.value("status", nlohmann::json::object());
  for (const nlohmann::json& condition : status.value("conditions", nlohmann::json::array())) {
    if (condition.value("type", "") == type) return condition.value("status", "");
  }
  return "";
}

TEST(ControllerIntegration, NodePoolReadinessRunsUnchangedOverTheClient) {
  auto live = LiveCluster::Connect();
  if (!live) GTEST_SKIP() << testing::kSkipMessage;
  // The project's CRDs arrive with issue #26; until then minimal ones stand in.
  live->InstallCrd("karpenter.sh", "NodePool", "nodepools");
  live->InstallCrd("karpenter.k8s.aws", "EC2NodeClass", "ec2nodeclasses");
  Client& client = live->client();
  const std::string class_name = live->ns() + "-class";
  const std::string pool_name = live->ns() + "-pool";
  absl::StatusOr<std::string> created_class = client.Call(
      "POST", "/apis/karpenter.k8s.aws/v1/ec2nodeclasses",
      R"({"apiVersion":"karpenter.k8s.aws/v1","kind":"EC2NodeClass","metadata":{"name":")" +
          class_name + R"("},"spec":{"amiFamily":"AL2023","role":"KarpenterNodeRole"}})");
  ASSERT_TRUE(created_class.ok()) << created_class.status();
  ASSERT_TRUE(client
                  .MergePatch(ObjectKey{"EC2NodeClass", "", class_name},
                              R"({"metadata":{"labels":{"test":"yes"}}})")
                  .ok());
  absl::StatusOr<std::string> ready = client.Call(
      "PATCH", "/apis/karpenter.k8s.aws/v1/ec2nodeclasses/" + class_name + "/status",
      R"({"status":{"conditions":[{"type":"Ready","status":"True","reason":"Ready",)"
      R"("message":"","lastTransitionTime":"2025-01-01T00:00:00Z","observedGeneration":1}]}})",
      "application/merge-patch+json");
  ASSERT_TRUE(ready.ok()) << ready.status();
  absl::StatusOr<std::string> created_pool = client.Call(
      "POST", "/apis/karpenter.sh/v1/nodepools",
      R"({"apiVersion":"karpenter.sh/v1","kind":"NodePool","metadata":{"name":")" + pool_name +
          R"("},"spec":{"template":{"spec":{"nodeClassRef":{"group":"karpenter.k8s.aws",)"
          R"("kind":"EC2NodeClass","name":")" +
          class_name + R"("},"requirements":[]}}}})");
  ASSERT_TRUE(created_pool.ok()) << created_pool.status();

  // The controller's own clock: torn down (its pending timers dropped) after the informer stops
  // and before the controller goes, so no timer outlives what it calls.
  std::unique_ptr<Clock> clock = NewRealClock();
  Informer informer(
      client, *clock, [] { return 0.5; }, InformerOptions{.kinds = {"NodePool", "EC2NodeClass"}});
  controllers::NodePoolReadiness readiness(*clock, informer, client);
  struct Teardown {
    Informer& informer;
    std::unique_ptr<Clock>& clock;
    ~Teardown() {
      informer.Stop();
      clock.reset();
    }
  } teardown{informer, clock};
  informer.Start();
  ASSERT_TRUE(live->WaitFor([&] { return informer.Synced(); }));
  OnClockThread(*clock, [&] { readiness.Start(); });
  const std::string pool_path = "/apis/karpenter.sh/v1/nodepools/" + pool_name;
  EXPECT_TRUE(live->WaitFor([&] {
    absl::StatusOr<std::string> pool = client.Call("GET", pool_path);
    return pool.ok() && ConditionStatus(nlohmann::json::parse(*pool), "NodeClassReady") == "True";
  }));
  // The spec the controller never touches is still whole.
  nlohmann::json pool = nlohmann::json::parse(*client.Call("GET", pool_path));
  EXPECT_EQ(pool["spec"]["template"]["spec"]["nodeClassRef"]["name"], class_name);
  client.Call("DELETE", pool_path).status().IgnoreError();
  client.Call("DELETE", "/apis/karpenter.k8s.aws/v1/ec2nodeclasses/" + class_name)
      .status()
      .IgnoreError();
}

}  // namespace
}  // namespace karpenter::kube
