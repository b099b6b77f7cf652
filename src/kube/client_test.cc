#include "src/kube/client.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "src/fakes/fake_clock.h"
#include "src/kube/fake_transport.h"
#include "src/kube/test_files.h"

namespace karpenter::kube {
namespace {

using testing::FakeTransport;
using ::testing::HasSubstr;

constexpr char kStoredPod[] = R"({"apiVersion":"v1","kind":"Pod",
  "metadata":{"name":"a","namespace":"ns","uid":"u1","resourceVersion":"5",
    "managedFields":[{"manager":"kubectl","fieldsV1":{"f:x":{}}}],"labels":{"app":"x"}},
  "spec":{"nodeName":"n1","containers":[{"name":"c","image":"busybox","futureField":1}],
    "newSpecField":true},
  "status":{"phase":"Running"}})";

// A client over a scripted transport; `transport` stays valid for the test.
struct Fixture {
  fakes::FakeClock clock;
  FakeTransport* transport = nullptr;
  std::unique_ptr<Client> client;
  explicit Fixture(RestConfig config = RestConfig{.server = "https://k", .token = "t"}) {
    auto owned = std::make_unique<FakeTransport>();
    transport = owned.get();
    client = std::make_unique<Client>(config, ClientLimits{}, clock, std::move(owned));
  }
};

api::Pod StoredPod() {
  absl::StatusOr<api::Object> object = DecodeObject("Pod", kStoredPod);
  return std::get<api::Pod>(*object);
}

TEST(Resources, PathsForEveryKindTheControllersUse) {
  auto path = [](std::string_view kind, std::string_view ns) {
    return CollectionPath(*FindResource(kind), ns);
  };
  EXPECT_EQ(path("Pod", "ns"), "/api/v1/namespaces/ns/pods");
  EXPECT_EQ(path("Pod", ""), "/api/v1/pods");
  EXPECT_EQ(path("Node", ""), "/api/v1/nodes");
  EXPECT_EQ(path("Namespace", ""), "/api/v1/namespaces");
  EXPECT_EQ(path("Event", "ns"), "/api/v1/namespaces/ns/events");
  EXPECT_EQ(path("DaemonSet", "ns"), "/apis/apps/v1/namespaces/ns/daemonsets");
  EXPECT_EQ(path("PodDisruptionBudget", "ns"),
            "/apis/policy/v1/namespaces/ns/poddisruptionbudgets");
  EXPECT_EQ(path("PersistentVolume", ""), "/api/v1/persistentvolumes");
  EXPECT_EQ(path("PersistentVolumeClaim", "ns"), "/api/v1/namespaces/ns/persistentvolumeclaims");
  EXPECT_EQ(path("StorageClass", ""), "/apis/storage.k8s.io/v1/storageclasses");
  EXPECT_EQ(path("CSINode", ""), "/apis/storage.k8s.io/v1/csinodes");
  EXPECT_EQ(path("VolumeAttachment", ""), "/apis/storage.k8s.io/v1/volumeattachments");
  EXPECT_EQ(path("Lease", "kube-node-lease"),
            "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases");
  EXPECT_EQ(path("NodeClaim", ""), "/apis/karpenter.sh/v1/nodeclaims");
  EXPECT_EQ(path("NodePool", ""), "/apis/karpenter.sh/v1/nodepools");
  EXPECT_EQ(path("EC2NodeClass", ""), "/apis/karpenter.k8s.aws/v1/ec2nodeclasses");
  EXPECT_EQ(FindResource("Gizmo"), nullptr);
}

TEST(ObjectCodec, SkipsFieldsWeDoNotModelButRejectsWrongTypes) {
  api::Pod pod = StoredPod();
  EXPECT_EQ(pod.spec.node_name, "n1");
  EXPECT_EQ(pod.metadata.resource_version, "5");
  absl::Status bad =
      DecodeObject("Pod", R"({"metadata":{"name":"a"},"spec":{"nodeName":7}})").status();
  EXPECT_THAT(bad.message(), HasSubstr("spec.nodeName"));
  EXPECT_FALSE(DecodeObject("Pod", std::string(300, '[') + std::string(300, ']')).ok());
}

TEST(ObjectCodec, ListPagesKeepGoodItemsAndReportBadOnes) {
  absl::StatusOr<ListPage> page =
      DecodeList("Node", R"({"kind":"NodeList","apiVersion":"v1","metadata":{"resourceVersion":"42",
      "continue":"abc"},"items":[{"metadata":{"name":"n1"},"spec":{"providerID":"aws:///z/i-1"}},
      {"metadata":{"name":"n2"},"spec":{"providerID":["x"]}}]})");
  ASSERT_TRUE(page.ok()) << page.status();
  EXPECT_EQ(page->resource_version, "42");
  EXPECT_EQ(page->continue_token, "abc");
  ASSERT_EQ(page->items.size(), 1u);
  EXPECT_EQ(std::get<api::Node>(page->items[0]).spec.provider_id, "aws:///z/i-1");
  ASSERT_EQ(page->errors.size(), 1u);
  EXPECT_THAT(page->errors[0], HasSubstr("Node n2: spec.providerID"));
}

TEST(ObjectCodec, WatchEventsCarryTypeObjectAndGoneCode) {
  absl::StatusOr<WatchEvent> event = DecodeWatchEvent(
      R"({"type":"BOOKMARK","object":{"kind":"Pod","metadata":{"resourceVersion":"77"}}})");
  ASSERT_TRUE(event.ok());
  EXPECT_EQ(event->type, "BOOKMARK");
  EXPECT_EQ(event->resource_version, "77");
  event = DecodeWatchEvent(
      R"({"type":"ERROR","object":{"kind":"Status","code":410,"reason":"Expired"}})");
  ASSERT_TRUE(event.ok());
  EXPECT_EQ(event->error_code, 410);
  EXPECT_FALSE(DecodeWatchEvent(R"({"type":"ADDED"})").ok());
}

TEST(Client, MapsHttpStatusesToTheSeamsCodes) {
  Fixture f;
  api::Pod pod = StoredPod();
  f.transport->Answer("POST /api/v1/namespaces/ns/pods", 409, R"({"message":"exists"})");
  EXPECT_TRUE(absl::IsAlreadyExists(f.client->Create(pod).status()));
  f.transport->Answer("POST /api/v1/namespaces/ns/pods", 422, R"({"message":"bad"})");
  absl::Status invalid = f.client->Create(pod).status();
  EXPECT_TRUE(absl::IsInvalidArgument(invalid));
  EXPECT_THAT(invalid.message(), HasSubstr("bad"));
  f.transport->Answer("POST /api/v1/namespaces/ns/pods", 429, "");
  EXPECT_TRUE(absl::IsUnavailable(f.client->Create(pod).status()));
  f.transport->Answer("POST /api/v1/namespaces/ns/pods", 503, "");
  EXPECT_TRUE(absl::IsUnavailable(f.client->Create(pod).status()));
  f.transport->Answer("PATCH /api/v1/namespaces/ns/pods/a", 409, "");
  EXPECT_TRUE(absl::IsAborted(f.client->MergePatch(KeyOf(pod), "{}").status()));
  f.transport->Answer("DELETE /api/v1/namespaces/ns/pods/a", 404, "");
  EXPECT_TRUE(absl::IsNotFound(f.client->Delete(KeyOf(pod))));
  // No answer at all (connection refused in the fake) is retryable too.
  EXPECT_TRUE(absl::IsUnavailable(f.client->Get(KeyOf(pod)).status()));
}

TEST(Client, UpdatePatchesOnlyWhatChangedWithTheResourceVersionPrecondition) {
  Fixture f;
  f.transport->Answer("GET /api/v1/namespaces/ns/pods/a", 200, kStoredPod);
  f.transport->Answer("PATCH /api/v1/namespaces/ns/pods/a", 200, kStoredPod);
  api::Pod pod = StoredPod();
  pod.metadata.labels["team"] = "b";
  pod.metadata.finalizers.push_back("karpenter.sh/termination");
  pod.status.phase = "Failed";  // status is not Update's to change
  ASSERT_TRUE(f.client->Update(pod).ok());
  const FakeTransport::Sent patch = f.transport->sent().back();
  EXPECT_EQ(patch.request.content_type, "application/merge-patch+json");
  EXPECT_EQ(nlohmann::json::parse(patch.request.body),
            nlohmann::json::parse(R"({"metadata":{"labels":{"team":"b"},
              "finalizers":["karpenter.sh/termination"],"resourceVersion":"5"}})"));
}

TEST(Client, UpdateStatusPatchesTheStatusSubresource) {
  Fixture f;
  f.transport->Answer("GET /api/v1/namespaces/ns/pods/a", 200, kStoredPod);
  f.transport->Answer("PATCH /api/v1/namespaces/ns/pods/a/status", 200, kStoredPod);
  api::Pod pod = StoredPod();
  pod.status.phase = "Failed";
  pod.metadata.labels["ignored"] = "yes";
  ASSERT_TRUE(f.client->UpdateStatus(pod).ok());
  EXPECT_EQ(nlohmann::json::parse(f.transport->sent().back().request.body),
            nlohmann::json::parse(R"({"status":{"phase":"Failed"},
              "metadata":{"resourceVersion":"5"}})"));
}

TEST(Client, ConditionsOfKarpentersKindsAlwaysCarryAMessage) {
  // The CRDs require metav1.Condition's message, which Go always marshals; ours may be empty.
  constexpr char kStoredPool[] = R"({"apiVersion":"karpenter.sh/v1","kind":"NodePool",
    "metadata":{"name":"default","uid":"u2","resourceVersion":"7"},
    "spec":{"template":{"spec":{"requirements":[]}}}})";
  Fixture f;
  f.transport->Answer("GET /apis/karpenter.sh/v1/nodepools/default", 200, kStoredPool);
  f.transport->Answer("PATCH /apis/karpenter.sh/v1/nodepools/default/status", 200, kStoredPool);
  auto pool = std::get<api::NodePool>(*DecodeObject("NodePool", kStoredPool));
  pool.status.conditions.push_back(
      {.type = "Ready",
       .status = "True",
       .last_transition_time = api::Time::FromUnixSeconds(1'800'000'000),
       .reason = "Ready"});
  ASSERT_TRUE(f.client->UpdateStatus(pool).ok());
  const nlohmann::json sent = nlohmann::json::parse(f.transport->sent().back().request.body);
  ASSERT_EQ(sent["status"]["conditions"].size(), 1u);
  EXPECT_EQ(sent["status"]["conditions"][0]["message"], "");
  EXPECT_EQ(sent["status"]["conditions"][0]["reason"], "Ready");
}

TEST(Client, UpdateWithAStaleResourceVersionIsAbortedWithoutWriting) {
  Fixture f;
  f.transport->Answer("GET /api/v1/namespaces/ns/pods/a", 200, kStoredPod);
  api::Pod pod = StoredPod();
  pod.metadata.resource_version = "4";
  EXPECT_TRUE(absl::IsAborted(f.client->Update(pod).status()));
  EXPECT_EQ(f.transport->sent().size(), 1u);
}

TEST(Client, UpdateWithoutAResourceVersionRereadsAndRetriesOnConflict) {
  Fixture f;
  f.transport->Answer("GET /api/v1/namespaces/ns/pods/a", 200, kStoredPod);
  f.transport->Answer("GET /api/v1/namespaces/ns/pods/a", 200, kStoredPod);
  f.transport->Answer("PATCH /api/v1/namespaces/ns/pods/a", 409, "");
  f.transport->Answer("PATCH /api/v1/namespaces/ns/pods/a", 200, kStoredPod);
  api::Pod pod = StoredPod();
  pod.metadata.resource_version.clear();
  pod.metadata.labels["team"] = "b";
  EXPECT_TRUE(f.client->Update(pod).ok());
  EXPECT_EQ(f.transport->sent().size(), 4u);
}

TEST(Client, DeleteSendsUidPreconditionAndGracePeriod) {
  Fixture f;
  f.transport->Answer("DELETE /api/v1/namespaces/ns/pods/a", 200, "{}");
  ASSERT_TRUE(f.client
                  ->Delete(ObjectKey{"Pod", "ns", "a"},
                           DeleteOptions{.uid = "u1", .grace_period_seconds = 0})
                  .ok());
  nlohmann::json body = nlohmann::json::parse(f.transport->sent().back().request.body);
  EXPECT_EQ(body["preconditions"]["uid"], "u1");
  EXPECT_EQ(body["gracePeriodSeconds"], 0);
  f.transport->Answer("DELETE /api/v1/nodes/n", 409, "");
  EXPECT_TRUE(absl::IsAborted(f.client->Delete(ObjectKey{"Node", "", "n"}, {.uid = "old"})));
}

TEST(Client, EvictionAnswersAreResultsNotErrors) {
  Fixture f;
  const std::string url = "POST /api/v1/namespaces/ns/pods/a/eviction";
  f.transport->Answer(url, 201, "{}");
  f.transport->Answer(
      url, 429,
      R"({"message":"Cannot evict pod as it would violate the pod's disruption budget."})");
  f.transport->Answer(url, 404, "");
  f.transport->Answer(url, 409, "");
  f.transport->Answer(url, 500, "");
  const ObjectKey key{"Pod", "ns", "a"};
  EXPECT_EQ(*f.client->Evict(key, "u1"), EvictionResult::kEvicted);
  EXPECT_EQ(nlohmann::json::parse(
                f.transport->sent().back().request.body)["deleteOptions"]["preconditions"]["uid"],
            "u1");
  EXPECT_EQ(*f.client->Evict(key, "u1"), EvictionResult::kTooManyRequests);
  EXPECT_EQ(*f.client->Evict(key, "u1"), EvictionResult::kNotFound);
  EXPECT_EQ(*f.client->Evict(key, "u1"), EvictionResult::kConflict);
  EXPECT_TRUE(absl::IsUnavailable(f.client->Evict(key, "u1").status()));
}

TEST(Client, RefusesNamesThatAreNotPathSegments) {
  Fixture f;
  EXPECT_TRUE(absl::IsInvalidArgument(f.client->Get(ObjectKey{"Pod", "ns", "../x"}).status()));
  EXPECT_TRUE(absl::IsInvalidArgument(f.client->Get(ObjectKey{"Node", "", "a/b"}).status()));
  EXPECT_TRUE(f.transport->sent().empty());
}

TEST(Client, RereadsTheCredentialAfterA401) {
  const std::string dir = testing::TestDir();
  testing::WriteFile(dir + "/token", "old");
  Fixture f(RestConfig{.server = "https://k", .token_file = dir + "/token"});
  f.transport->Answer("GET /api/v1/nodes/n", 401, "");
  f.transport->Answer("GET /api/v1/nodes/n", 200, R"({"metadata":{"name":"n"}})");
  ASSERT_TRUE(f.client->Get(ObjectKey{"Node", "", "n"}).ok());  // loads "old"
  testing::WriteFile(dir + "/token", "new");
  f.transport->Answer("GET /api/v1/nodes/n", 401, "");
  f.transport->Answer("GET /api/v1/nodes/n", 200, R"({"metadata":{"name":"n"}})");
  ASSERT_TRUE(f.client->Get(ObjectKey{"Node", "", "n"}).ok());
  std::vector<FakeTransport::Sent> sent = f.transport->sent();
  ASSERT_EQ(sent.size(), 4u);
  EXPECT_EQ(sent[2].token, "old");  // cached within the minute
  EXPECT_EQ(sent[3].token, "new");  // the 401 made the client read the file again
}

}  // namespace
}  // namespace karpenter::kube
