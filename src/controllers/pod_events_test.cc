#include "src/controllers/pod_events.h"

#include <string>
#include <variant>

#include "gtest/gtest.h"
#include "src/api/karpenter_labels.h"
#include "src/fakes/fake_clock.h"
#include "src/fakes/fake_kube_cluster.h"

namespace karpenter::controllers {
namespace {

struct Fixture {
  fakes::FakeClock clock;
  fakes::FakeKubeCluster cluster{clock};
  PodEvents events{PodEventSeams{clock, cluster, cluster}};

  // Node "n" and its NodeClaim "claim"; node "plain" belongs to no NodeClaim.
  Fixture() {
    api::NodeClaim claim;
    claim.metadata.name = "claim";
    claim = std::get<api::NodeClaim>(*cluster.Create(claim));
    claim.status.provider_id = "aws:///us-east-1a/i-1";
    EXPECT_TRUE(cluster.UpdateStatus(claim).ok());
    for (const char* name : {"n", "plain"}) {
      api::Node node;
      node.metadata.name = name;
      if (std::string(name) == "n") node.spec.provider_id = "aws:///us-east-1a/i-1";
      EXPECT_TRUE(cluster.Create(node).ok());
    }
  }
  api::Pod CreatePod(const std::string& name, const std::string& node = "") {
    api::Pod pod;
    pod.metadata.name = name;
    pod.metadata.namespace_ = "default";
    pod.spec.node_name = node;
    return std::get<api::Pod>(*cluster.Create(pod));
  }
  std::optional<api::Time> LastPodEvent() const {
    return std::get<api::NodeClaim>(*cluster.Get({"NodeClaim", "", "claim"}))
        .status.last_pod_event_time;
  }
};

TEST(PodEvents, ABindingStampsTheNodeClaimAtMostOnceInTenSeconds) {
  Fixture f;
  f.events.Start();
  api::Pod pod = f.CreatePod("a");
  f.clock.Advance(0);
  EXPECT_FALSE(f.LastPodEvent().has_value());  // pending: no node yet
  pod.spec.node_name = "n";
  pod = std::get<api::Pod>(*f.cluster.Update(pod));
  f.clock.Advance(0);
  ASSERT_TRUE(f.LastPodEvent().has_value());
  const api::Time first = *f.LastPodEvent();
  EXPECT_EQ(first, f.clock.Now());

  f.clock.Advance(5'000);
  f.CreatePod("b", "n");
  f.clock.Advance(0);
  EXPECT_EQ(*f.LastPodEvent(), first);

  f.clock.Advance(5'000);
  f.CreatePod("c", "n");
  f.clock.Advance(0);
  EXPECT_EQ(*f.LastPodEvent(), f.clock.Now());
}

TEST(PodEvents, OnlyBindingTerminalAndTerminatingCount) {
  Fixture f;
  api::Pod pod = f.CreatePod("a", "n");
  const ObjectKey key{"Pod", "default", "a"};
  EXPECT_TRUE(f.events.Counts(key));  // first seen
  pod.status.conditions.push_back({.type = "Ready", .status = "True"});
  pod = std::get<api::Pod>(*f.cluster.UpdateStatus(pod));
  EXPECT_FALSE(f.events.Counts(key));
  pod.status.phase = "Succeeded";
  pod = std::get<api::Pod>(*f.cluster.UpdateStatus(pod));
  EXPECT_TRUE(f.events.Counts(key));
  EXPECT_FALSE(f.events.Counts(key));

  api::Pod other = f.CreatePod("b", "n");
  const ObjectKey other_key{"Pod", "default", "b"};
  EXPECT_TRUE(f.events.Counts(other_key));
  other.metadata.finalizers = {"example.com/hold"};
  other = std::get<api::Pod>(*f.cluster.Update(other));
  EXPECT_FALSE(f.events.Counts(other_key));
  ASSERT_TRUE(f.cluster.Delete(other_key).ok());
  EXPECT_TRUE(f.events.Counts(other_key));  // now terminating
}

TEST(PodEvents, DaemonSetPodsAndNodesWithoutANodeClaimAreIgnored) {
  Fixture f;
  api::Pod daemon = f.CreatePod("ds", "n");
  daemon.metadata.owner_references.push_back({.api_version = "apps/v1",
                                              .kind = "DaemonSet",
                                              .name = "ds",
                                              .uid = "u",
                                              .controller = true});
  ASSERT_TRUE(f.cluster.Update(daemon).ok());
  ASSERT_TRUE(f.events.Reconcile("default/ds").ok());
  f.CreatePod("elsewhere", "plain");
  ASSERT_TRUE(f.events.Reconcile("default/elsewhere").ok());
  EXPECT_FALSE(f.LastPodEvent().has_value());
  f.CreatePod("mine", "n");
  ASSERT_TRUE(f.events.Reconcile("default/mine").ok());
  EXPECT_TRUE(f.LastPodEvent().has_value());
}

}  // namespace
}  // namespace karpenter::controllers
