#include "src/controllers/node_class_termination.h"

#include <algorithm>
#include <variant>

#include "gtest/gtest.h"
#include "src/api/karpenter_labels.h"
#include "src/fakes/fake_clock.h"
#include "src/fakes/fake_event_recorder.h"
#include "src/fakes/fake_kube_cluster.h"

namespace karpenter::controllers {
namespace {

struct Fixture {
  fakes::FakeClock clock;
  fakes::FakeKubeCluster cluster{clock};
  fakes::FakeEventRecorder events;
  std::vector<std::string> cleaned;
  absl::Status clean_up_failure;
  NodeClassTermination termination{clock, cluster, cluster, events,
                                   [this](const api::EC2NodeClass& node_class) {
                                     if (!clean_up_failure.ok()) return clean_up_failure;
                                     cleaned.push_back(node_class.metadata.name);
                                     return absl::OkStatus();
                                   }};

  Fixture() {
    api::EC2NodeClass node_class;
    node_class.metadata.name = "default";
    EXPECT_TRUE(cluster.Create(node_class).ok());
  }
  void AddClaim(const std::string& name) {
    api::NodeClaim claim;
    claim.metadata.name = name;
    claim.spec.node_class_ref =
        api::NodeClassReference{"EC2NodeClass", "default", "karpenter.k8s.aws"};
    EXPECT_TRUE(cluster.Create(claim).ok());
  }
  std::optional<api::EC2NodeClass> Stored() const {
    std::optional<api::Object> object = cluster.Get({"EC2NodeClass", "", "default"});
    if (!object) return std::nullopt;
    return std::get<api::EC2NodeClass>(*object);
  }
  bool HasFinalizer() const {
    const std::vector<std::string> finalizers = Stored()->metadata.finalizers;
    return std::find(finalizers.begin(), finalizers.end(), api::kAwsTerminationFinalizer) !=
           finalizers.end();
  }
};

TEST(NodeClassTermination, EveryClassGetsTheFinalizerOnce) {
  Fixture f;
  f.termination.Start();
  f.clock.Advance(0);
  EXPECT_TRUE(f.HasFinalizer());
  EXPECT_EQ(f.Stored()->metadata.finalizers.size(), 1u);
}

TEST(NodeClassTermination, ADeletedClassWaitsForItsNodeClaimsThenCleansUp) {
  Fixture f;
  f.AddClaim("default-a");
  f.AddClaim("default-b");
  f.termination.Start();
  f.clock.Advance(0);
  ASSERT_TRUE(f.cluster.Delete({"EC2NodeClass", "", "default"}).ok());
  f.clock.Advance(0);
  ASSERT_TRUE(f.Stored().has_value());
  ASSERT_EQ(f.events.Count("WaitingOnNodeClaimTermination"), 1u);
  EXPECT_EQ(f.events.events()[0].message,
            "Waiting on NodeClaim termination for default-a, default-b");
  EXPECT_TRUE(f.cleaned.empty());

  ASSERT_TRUE(f.cluster.Delete({"NodeClaim", "", "default-a"}).ok());
  f.clock.Advance(0);
  EXPECT_TRUE(f.cleaned.empty());
  ASSERT_TRUE(f.cluster.Delete({"NodeClaim", "", "default-b"}).ok());
  f.clock.Advance(0);  // the last claim's deletion wakes the class at once
  EXPECT_EQ(f.cleaned, std::vector<std::string>{"default"});
  EXPECT_FALSE(f.Stored().has_value());
}

TEST(NodeClassTermination, AFailedCleanUpKeepsTheFinalizer) {
  Fixture f;
  f.termination.Start();
  f.clock.Advance(0);
  ASSERT_TRUE(f.cluster.Delete({"EC2NodeClass", "", "default"}).ok());
  f.clean_up_failure = absl::UnavailableError("iam throttled");
  EXPECT_FALSE(f.termination.Reconcile("default").ok());
  EXPECT_TRUE(f.HasFinalizer());
  f.clean_up_failure = absl::OkStatus();
  ASSERT_TRUE(f.termination.Reconcile("default").ok());
  EXPECT_FALSE(f.Stored().has_value());
}

TEST(NodeClassTermination, ManyWaitingClaimsAreNamedFiveAtATime) {
  Fixture f;
  for (char c = 'a'; c <= 'g'; ++c) f.AddClaim(std::string("default-") + c);
  f.termination.Start();
  f.clock.Advance(0);
  ASSERT_TRUE(f.cluster.Delete({"EC2NodeClass", "", "default"}).ok());
  EXPECT_EQ(f.termination.Reconcile("default")->requeue_after_millis,
            std::optional<int64_t>(kNodeClassTerminationRecheckMillis));
  EXPECT_EQ(f.events.events().back().message,
            "Waiting on NodeClaim termination for default-a, default-b, default-c, default-d, "
            "default-e and 2 other(s)");
}

}  // namespace
}  // namespace karpenter::controllers
