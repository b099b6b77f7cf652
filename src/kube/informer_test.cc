#include "src/kube/informer.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "src/fakes/fake_clock.h"
#include "src/kube/fake_transport.h"

namespace karpenter::kube {
namespace {

using ::testing::ElementsAre;
using testing::FakeTransport;
using ::testing::HasSubstr;

std::string PodJson(const std::string& name, const std::string& node, const std::string& rv) {
  return R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name +
         R"(","namespace":"ns","resourceVersion":")" + rv + R"("},"spec":{"nodeName":")" + node +
         R"("}})";
}

std::string Event(const std::string& type, const std::string& object) {
  return R"({"type":")" + type + R"(","object":)" + object + "}";
}

std::string List(const std::string& kind, const std::string& rv, const std::string& items,
                 const std::string& continue_token = "") {
  return R"({"kind":")" + kind + R"(List","metadata":{"resourceVersion":")" + rv +
         R"(","continue":")" + continue_token + R"("},"items":[)" + items + "]}";
}

// An informer over a scripted transport, driven step by step on the test's thread.
struct Fixture {
  fakes::FakeClock clock;
  FakeTransport* transport = nullptr;
  std::unique_ptr<Client> client;
  std::unique_ptr<Informer> informer;
  std::vector<std::string> changes;
  explicit Fixture(std::vector<std::string> kinds = {"Pod"}, double random = 0) {
    auto owned = std::make_unique<FakeTransport>();
    transport = owned.get();
    client = std::make_unique<Client>(RestConfig{.server = "https://k"}, ClientLimits{}, clock,
                                      std::move(owned));
    informer = std::make_unique<Informer>(
        *client, clock, [random] { return random; }, InformerOptions{.kinds = std::move(kinds)});
    for (const char* kind : {"Pod", "Node", "NodeClaim"}) {
      informer->Watch(
          kind, [this](const ObjectKey& key) { changes.push_back(key.kind + "/" + key.name); });
    }
  }
  std::vector<std::string> TakeChanges() {
    clock.RunDue();  // callbacks are posted to the clock's thread
    return std::exchange(changes, {});
  }
  std::vector<std::string> PodNames() {
    std::vector<std::string> names;
    for (const api::Object& object : informer->List("Pod")) {
      names.push_back(std::get<api::Pod>(object).metadata.name);
    }
    return names;
  }
};

TEST(Informer, SyncedAfterEveryKindsFirstListAcrossPages) {
  Fixture f({"Pod", "Node"});
  f.transport->Answer("GET /api/v1/pods?limit=500", 200,
                      List("Pod", "10", PodJson("b", "n1", "3"), "page2"));
  f.transport->Answer("GET /api/v1/pods?limit=500&continue=page2", 200,
                      List("Pod", "10", PodJson("a", "n1", "4")));
  EXPECT_FALSE(f.informer->Synced());
  ASSERT_TRUE(f.informer->Step("Pod").ok());
  EXPECT_FALSE(f.informer->Synced());  // Nodes not listed yet
  EXPECT_THAT(f.PodNames(), ElementsAre("a", "b"));
  EXPECT_THAT(f.TakeChanges(), ElementsAre("Pod/b", "Pod/a"));
  f.transport->Answer("GET /api/v1/nodes?limit=500", 200, List("Node", "11", ""));
  ASSERT_TRUE(f.informer->Step("Node").ok());
  EXPECT_TRUE(f.informer->Synced());
}

TEST(Informer, WatchAppliesEventsAndResumesFromTheLastVersionSeen) {
  Fixture f;
  f.transport->Answer("GET /api/v1/pods?limit=500", 200,
                      List("Pod", "10", PodJson("a", "n1", "4")));
  ASSERT_TRUE(f.informer->Step("Pod").ok());
  f.TakeChanges();
  f.transport->AnswerWatch(
      {Event("ADDED", PodJson("b", "n1", "11")), Event("MODIFIED", PodJson("a", "n2", "12")),
       Event("DELETED", PodJson("b", "n1", "13")),
       Event("BOOKMARK", R"({"kind":"Pod","metadata":{"resourceVersion":"20"}})")});
  ASSERT_TRUE(f.informer->Step("Pod").ok());
  EXPECT_THAT(f.TakeChanges(), ElementsAre("Pod/b", "Pod/a", "Pod/b"));
  EXPECT_THAT(f.PodNames(), ElementsAre("a"));
  EXPECT_EQ(std::get<api::Pod>(*f.informer->Get({"Pod", "ns", "a"})).spec.node_name, "n2");

  f.transport->AnswerWatch({});
  ASSERT_TRUE(f.informer->Step("Pod").ok());
  const std::string watch = f.transport->sent().back().request.path;
  EXPECT_THAT(watch, HasSubstr("/api/v1/pods?watch=1&allowWatchBookmarks=true"));
  EXPECT_THAT(watch, HasSubstr("resourceVersion=20"));
  EXPECT_THAT(watch, HasSubstr("timeoutSeconds=300"));
}

TEST(Informer, GoneRelistsAndDropsWhatTheListLacks) {
  for (const bool as_event : {true, false}) {
    Fixture f;
    f.transport->Answer("GET /api/v1/pods?limit=500", 200,
                        List("Pod", "10", PodJson("a", "n1", "4") + "," + PodJson("b", "n1", "5")));
    ASSERT_TRUE(f.informer->Step("Pod").ok());
    f.TakeChanges();
    if (as_event) {
      f.transport->AnswerWatch(
          {Event("ERROR", R"({"kind":"Status","code":410,"reason":"Expired"})")});
    } else {
      f.transport->AnswerWatch({}, 410, R"({"kind":"Status","code":410})");
    }
    ASSERT_TRUE(f.informer->Step("Pod").ok());
    f.transport->Answer(
        "GET /api/v1/pods?limit=500", 200,
        List("Pod", "30", PodJson("a", "n1", "4") + "," + PodJson("c", "n1", "29")));
    ASSERT_TRUE(f.informer->Step("Pod").ok());
    EXPECT_EQ(f.transport->sent().back().request.path, "/api/v1/pods?limit=500");
    EXPECT_THAT(f.PodNames(), ElementsAre("a", "c"));
    EXPECT_THAT(f.TakeChanges(), ElementsAre("Pod/c", "Pod/b"));  // a is unchanged
  }
}

TEST(Informer, GoneIsToldBeforeTheRelist) {
  fakes::FakeClock clock;
  auto owned = std::make_unique<FakeTransport>();
  FakeTransport& transport = *owned;
  Client client(RestConfig{.server = "https://k"}, ClientLimits{}, clock, std::move(owned));
  std::vector<std::string> told;
  Informer informer(
      client, clock, [] { return 0.0; },
      InformerOptions{.kinds = {"Pod"},
                      .on_expired = [&](const std::string& kind, const std::string& error) {
                        told.push_back(kind + ": " + error);
                      }});
  transport.Answer("GET /api/v1/pods?limit=500", 200, List("Pod", "10", ""));
  ASSERT_TRUE(informer.Step("Pod").ok());
  transport.AnswerWatch({}, 500, "");
  EXPECT_FALSE(informer.Step("Pod").ok());
  EXPECT_THAT(told, ::testing::IsEmpty());  // only a 410 is told
  transport.AnswerWatch({Event("ERROR", R"({"kind":"Status","code":410,"reason":"Expired"})")});
  ASSERT_TRUE(informer.Step("Pod").ok());
  ASSERT_EQ(told.size(), 1u);
  EXPECT_THAT(told[0], HasSubstr("Pod: watch Pod: 410 Gone"));
  transport.Answer("GET /api/v1/pods?limit=500", 200, List("Pod", "30", ""));
  ASSERT_TRUE(informer.Step("Pod").ok());  // the relist, told nothing more
  EXPECT_EQ(transport.sent().back().request.path, "/api/v1/pods?limit=500");
  EXPECT_EQ(told.size(), 1u);
  transport.AnswerWatch({}, 410, R"({"kind":"Status","code":410})");  // as the HTTP status
  ASSERT_TRUE(informer.Step("Pod").ok());
  ASSERT_EQ(told.size(), 2u);
  EXPECT_THAT(told[1], HasSubstr("410"));
}

TEST(Informer, OtherWatchErrorsAreReportedForBackoff) {
  Fixture f;
  f.transport->Answer("GET /api/v1/pods?limit=500", 200, List("Pod", "10", ""));
  ASSERT_TRUE(f.informer->Step("Pod").ok());
  f.transport->AnswerWatch({}, 500, "");
  EXPECT_TRUE(absl::IsUnavailable(f.informer->Step("Pod")));
  f.transport->AnswerWatch({"not json"});
  EXPECT_FALSE(f.informer->Step("Pod").ok());
  // An error event is no progress: it backs off like an error status.
  f.transport->AnswerWatch({Event("ERROR", R"({"kind":"Status","code":500})")});
  EXPECT_TRUE(absl::IsUnavailable(f.informer->Step("Pod")));
  // A failed list leaves the kind unsynced.
  Fixture g;
  EXPECT_FALSE(g.informer->Step("Pod").ok());
  EXPECT_FALSE(g.informer->Synced());
}

TEST(Informer, AWatchCutAfterItRanResumesAtOnceOneThatNeverRanBacksOff) {
  Fixture f;
  f.transport->Answer("GET /api/v1/pods?limit=500", 200, List("Pod", "10", ""));
  ASSERT_TRUE(f.informer->Step("Pod").ok());
  // Events came, then the connection broke: no error, so no backoff; the next watch resumes
  // from the last version seen.
  f.transport->CutWatch({Event("ADDED", PodJson("a", "n1", "11"))});
  EXPECT_TRUE(f.informer->Step("Pod").ok());
  EXPECT_THAT(f.PodNames(), ElementsAre("a"));
  // Quiet for a second before the cut: it ran too.
  f.transport->CutWatch({}, [&] { f.clock.Advance(1000); });
  EXPECT_TRUE(f.informer->Step("Pod").ok());
  f.transport->CutWatch({});
  // Cut at once, nothing delivered: it never got going, and backs off.
  EXPECT_TRUE(absl::IsUnavailable(f.informer->Step("Pod")));
  f.transport->AnswerWatch({});
  ASSERT_TRUE(f.informer->Step("Pod").ok());
  EXPECT_THAT(f.transport->sent().back().request.path, HasSubstr("resourceVersion=11"));
}

TEST(Informer, BackoffDoublesToThirtySecondsWithJitter) {
  Fixture f;
  EXPECT_EQ(f.informer->BackoffMillis(1), 800);
  EXPECT_EQ(f.informer->BackoffMillis(2), 1600);
  EXPECT_EQ(f.informer->BackoffMillis(6), 25'600);
  EXPECT_EQ(f.informer->BackoffMillis(7), 30'000);
  EXPECT_EQ(f.informer->BackoffMillis(70), 30'000);
  Fixture jittered({"Pod"}, 0.5);
  EXPECT_EQ(jittered.informer->BackoffMillis(1), 1200);
}

TEST(Informer, FieldIndexesFollowTheObjects) {
  Fixture f({"Pod", "Node", "NodeClaim"});
  f.transport->Answer("GET /api/v1/pods?limit=500", 200,
                      List("Pod", "10", PodJson("a", "n1", "4") + "," + PodJson("b", "n2", "5")));
  f.transport->Answer("GET /api/v1/nodes?limit=500", 200,
                      List("Node", "10", R"({"metadata":{"name":"n1","resourceVersion":"6"},
                           "spec":{"providerID":"aws:///z/i-1"}})"));
  f.transport->Answer("GET /apis/karpenter.sh/v1/nodeclaims?limit=500", 200,
                      List("NodeClaim", "10", R"({"metadata":{"name":"c1","resourceVersion":"7"},
                           "status":{"providerID":"aws:///z/i-1"}})"));
  for (const char* kind : {"Pod", "Node", "NodeClaim"}) ASSERT_TRUE(f.informer->Step(kind).ok());
  ASSERT_EQ(f.informer->PodsOnNode("n1").size(), 1u);
  EXPECT_EQ(f.informer->PodsOnNode("n1")[0].metadata.name, "a");
  EXPECT_EQ(f.informer->NodeByProviderId("aws:///z/i-1")->metadata.name, "n1");
  EXPECT_EQ(f.informer->NodeClaimByProviderId("aws:///z/i-1")->metadata.name, "c1");
  EXPECT_FALSE(f.informer->NodeByProviderId("aws:///z/i-2").has_value());

  f.transport->AnswerWatch(
      {Event("MODIFIED", PodJson("b", "n1", "12")), Event("DELETED", PodJson("a", "n1", "13"))});
  ASSERT_TRUE(f.informer->Step("Pod").ok());
  ASSERT_EQ(f.informer->PodsOnNode("n1").size(), 1u);
  EXPECT_EQ(f.informer->PodsOnNode("n1")[0].metadata.name, "b");
  EXPECT_TRUE(f.informer->PodsOnNode("n2").empty());
}

TEST(Informer, AnObjectThatDoesNotDecodeIsSkippedAndRecorded) {
  Fixture f;
  f.transport->Answer("GET /api/v1/pods?limit=500", 200, List("Pod", "10", ""));
  ASSERT_TRUE(f.informer->Step("Pod").ok());
  f.transport->AnswerWatch({Event("ADDED", R"({"metadata":{"name":"bad","resourceVersion":"11"},
                                               "spec":{"nodeName":5}})"),
                            Event("ADDED", PodJson("good", "n1", "12"))});
  ASSERT_TRUE(f.informer->Step("Pod").ok());
  EXPECT_THAT(f.PodNames(), ElementsAre("good"));
  ASSERT_EQ(f.informer->DecodeErrors().size(), 1u);
  EXPECT_THAT(f.informer->DecodeErrors()[0], HasSubstr("spec.nodeName"));
}

}  // namespace
}  // namespace karpenter::kube
