#include "src/controllers/provisioner.h"

#include <variant>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "src/api/karpenter_labels.h"
#include "src/fakes/fake_clock.h"
#include "src/fakes/fake_event_recorder.h"
#include "src/fakes/fake_kube_cluster.h"
#include "src/fakes/fake_logger.h"
#include "src/metrics/karpenter_metrics.h"
#include "src/metrics/registry.h"

namespace karpenter::controllers {
namespace {

struct Fixture {
  fakes::FakeClock clock;
  fakes::FakeKubeCluster cluster{clock};
  fakes::FakeEventRecorder events;
  metrics::Registry metrics{metrics::KarpenterCatalog()};
  fakes::FakeLogger logger;
  Provisioner provisioner{ProvisionerSeams{clock, cluster, cluster, events, metrics, &logger},
                          ProvisionerOptions{}};

  // The article's NodePool and EC2NodeClass.
  Fixture() {
    for (const char* file : {"ec2nodeclass.yaml", "nodepool.yaml"}) {
      const std::string path = std::string(KP_SOURCE_DIR) + "/examples/article/" + file;
      EXPECT_TRUE(fakes::CreateFromFile(cluster, path).ok()) << path;
    }
  }

  // A pod the kube-scheduler could not place.
  void AddPendingPod(const std::string& name, const std::string& cpu) {
    EXPECT_TRUE(fakes::CreateUnschedulablePod(cluster, name, cpu, "512Mi").ok());
  }

  std::vector<api::NodeClaim> Claims() const {
    std::vector<api::NodeClaim> claims;
    for (const api::Object& object : cluster.List("NodeClaim")) {
      claims.push_back(std::get<api::NodeClaim>(object));
    }
    return claims;
  }
};

const api::NodeSelectorRequirementWithMinValues* Requirement(const api::NodeClaim& claim,
                                                             std::string_view key) {
  for (const auto& requirement : claim.spec.requirements) {
    if (requirement.key == key) return &requirement;
  }
  return nullptr;
}

TEST(Provisioner, CreatesTheNodeClaimsTheSolveWantsAndNominatesThePods) {
  Fixture f;
  f.AddPendingPod("a", "500m");
  f.AddPendingPod("b", "500m");
  absl::StatusOr<ProvisionOutcome> outcome = f.provisioner.Provision();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  ASSERT_EQ(outcome->created.size(), 1u);
  const std::vector<api::NodeClaim> claims = f.Claims();
  ASSERT_EQ(claims.size(), 1u);
  const api::NodeClaim& claim = claims[0];
  EXPECT_TRUE(claim.metadata.name.starts_with("default-"));
  EXPECT_EQ(claim.metadata.labels.at(std::string(api::kNodePoolLabelKey)), "default");
  ASSERT_EQ(claim.metadata.owner_references.size(), 1u);
  EXPECT_EQ(claim.metadata.owner_references[0].kind, "NodePool");
  EXPECT_FALSE(claim.metadata.owner_references[0].uid.empty());
  ASSERT_TRUE(claim.spec.node_class_ref.has_value());
  EXPECT_EQ(claim.spec.node_class_ref->name, "default");
  ASSERT_TRUE(claim.spec.expire_after.has_value());
  EXPECT_EQ(claim.spec.resources.requests.at("cpu"), api::Quantity::Parse("1").value());
  const auto* types = Requirement(claim, api::kLabelInstanceTypeStable);
  ASSERT_NE(types, nullptr);
  EXPECT_EQ(types->operator_, "In");
  EXPECT_GE(types->values.size(), 1u);
  EXPECT_LE(types->values.size(), kMaxNodeClaimInstanceTypes);
  const auto* generation = Requirement(claim, "karpenter.k8s.aws/instance-generation");
  ASSERT_NE(generation, nullptr);
  EXPECT_EQ(generation->operator_, "Gt");
  EXPECT_EQ(generation->values, std::vector<std::string>{"5"});
  EXPECT_EQ(f.events.Count("Nominated"), 2u);
  EXPECT_EQ(f.events.events()[0].message,
            "Pod should schedule on: nodeclaim/" + claim.metadata.name);
  EXPECT_EQ(
      f.metrics.Value(
          "karpenter_nodeclaims_created_total",
          {{"reason", "provisioning"}, {"nodepool", "default"}, {"min_values_relaxed", "false"}}),
      1);

  // Once the lifecycle controller has launched it, the next pass sees the claim in flight and
  // creates nothing more.
  api::NodeClaim launched = claim;
  launched.metadata.labels[std::string(api::kLabelInstanceTypeStable)] = types->values[0];
  launched.metadata.labels[std::string(api::kLabelTopologyZone)] = "us-east-1a";
  launched.metadata.labels[std::string(api::kCapacityTypeLabelKey)] = "spot";
  launched = std::get<api::NodeClaim>(*f.cluster.Update(launched));
  launched.status.provider_id = "aws:///us-east-1a/i-0123";
  ASSERT_TRUE(f.cluster.UpdateStatus(launched).ok());
  outcome = f.provisioner.Provision();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_TRUE(outcome->created.empty());
  EXPECT_EQ(f.Claims().size(), 1u);
}

TEST(Provisioner, LogsUpstreamsLinesForASolveThatLaunches) {
  Fixture f;
  for (const char* name : {"a", "b", "c", "d", "e", "f", "g"}) f.AddPendingPod(name, "100m");
  absl::StatusOr<ProvisionOutcome> outcome = f.provisioner.Provision();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  ASSERT_EQ(outcome->created.size(), 1u);
  const std::vector<std::string>& lines = f.logger.lines();
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0],
            "found provisionable pod(s) controller=provisioner Pods=default/a, default/b, "
            "default/c, default/d, default/e and 2 other(s) duration=0s");
  EXPECT_EQ(lines[1],
            "computed new nodeclaim(s) to fit pod(s) controller=provisioner nodeclaims=1 pods=7");
  const api::NodeClaim claim = f.Claims()[0];
  const auto* types = Requirement(claim, api::kLabelInstanceTypeStable);
  ASSERT_NE(types, nullptr);
  ASSERT_GT(types->values.size(), 5u);
  EXPECT_EQ(lines[2],
            absl::StrCat("created nodeclaim controller=provisioner NodePool=default "
                         "NodeClaim=",
                         claim.metadata.name, " requests={\"cpu\":\"700m\",",
                         "\"memory\":\"3584Mi\",\"pods\":\"7\"} instance-types=", types->values[0],
                         ", ", types->values[1], ", ", types->values[2], ", ", types->values[3],
                         ", ", types->values[4], " and ", types->values.size() - 5, " other(s)"));
  EXPECT_EQ(f.logger.debug_lines(),
            std::vector<std::string>{"computing scheduling decision for provisionable pod(s) "
                                     "controller=provisioner pending-pods=7"});
}

TEST(Provisioner, PodsAlreadyPendingAtStartAreProvisioned) {
  Fixture f;
  // A new leader starts long after the pod became unschedulable: no watch event will come.
  f.AddPendingPod("a", "500m");
  f.provisioner.Start();
  f.clock.Advance(2000);
  EXPECT_EQ(f.Claims().size(), 1u);
}

TEST(Provisioner, PodsStillPendingAreTriedAgainEveryTenSeconds) {
  Fixture f;
  f.provisioner.Start();
  f.AddPendingPod("a", "500m");
  f.clock.Advance(2000);
  ASSERT_EQ(f.Claims().size(), 1u);
  const std::string first = f.Claims()[0].metadata.name;
  // While the claim has not launched, the pod waits for it: no second claim.
  f.clock.Advance(3 * kPendingPodRecheckMillis);
  ASSERT_EQ(f.Claims().size(), 1u);
  // Its launch found no capacity and the lifecycle deleted it: the pod is provisioned again
  // although nothing about the pod changed.
  ASSERT_TRUE(f.cluster.Delete({"NodeClaim", "", first}).ok());
  f.clock.Advance(kPendingPodRecheckMillis + 2000);
  ASSERT_EQ(f.Claims().size(), 1u);
  EXPECT_NE(f.Claims()[0].metadata.name, first);
}

TEST(Provisioner, ANodeClaimStillLaunchingHoldsTheNextSolve) {
  Fixture f;
  f.AddPendingPod("a", "500m");
  ASSERT_TRUE(f.provisioner.Provision().ok());
  ASSERT_EQ(f.Claims().size(), 1u);
  EXPECT_EQ(f.metrics.Value("karpenter_cluster_state_synced", {}), 1);
  // Another pod arrives before the claim has launched: pod a is still pending, and the claim's
  // type and size are not known, so a solve now would launch for pod a a second time.
  f.AddPendingPod("b", "500m");
  absl::StatusOr<ProvisionOutcome> outcome = f.provisioner.Provision();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_FALSE(outcome->synced);
  EXPECT_EQ(f.Claims().size(), 1u);
  EXPECT_EQ(f.metrics.Value("karpenter_cluster_state_synced", {}), 0);

  api::NodeClaim launched = f.Claims()[0];
  launched.metadata.labels[std::string(api::kLabelInstanceTypeStable)] = "m5.large";
  launched = std::get<api::NodeClaim>(*f.cluster.Update(launched));
  launched.status.provider_id = "aws:///us-east-1a/i-0123";
  ASSERT_TRUE(f.cluster.UpdateStatus(launched).ok());
  outcome = f.provisioner.Provision();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_TRUE(outcome->synced);
  EXPECT_EQ(f.metrics.Value("karpenter_cluster_state_synced", {}), 1);
}

TEST(Provisioner, UnsyncedTimeCountsFromTheFirstUnsyncedPassAndResetsOnceSynced) {
  Fixture f;
  f.AddPendingPod("a", "500m");
  ASSERT_TRUE(f.provisioner.Provision().ok());
  EXPECT_EQ(f.metrics.Value("karpenter_cluster_state_unsynced_time_seconds", {}), 0);
  // The claim has not launched: cluster state is not synced from now on.
  f.AddPendingPod("b", "500m");
  ASSERT_TRUE(f.provisioner.Provision().ok());
  f.clock.Advance(2'500);
  ASSERT_TRUE(f.provisioner.Provision().ok());
  EXPECT_EQ(f.metrics.Value("karpenter_cluster_state_unsynced_time_seconds", {}), 2.5);

  api::NodeClaim launched = f.Claims()[0];
  launched.status.provider_id = "aws:///us-east-1a/i-0123";
  ASSERT_TRUE(f.cluster.UpdateStatus(launched).ok());
  ASSERT_TRUE(f.provisioner.Provision().ok());
  EXPECT_EQ(f.metrics.Value("karpenter_cluster_state_unsynced_time_seconds", {}), 0);
}

TEST(Provisioner, QueueDepthIsWhatTheLastSolveLeftUnscheduledUnderItsSchedulingId) {
  Fixture f;
  f.AddPendingPod("huge", "4000");
  ASSERT_TRUE(f.provisioner.Provision().ok());
  EXPECT_EQ(f.metrics.Value("karpenter_scheduler_queue_depth",
                            {{"controller", "provisioner"}, {"scheduling_id", "1"}}),
            1);
  f.AddPendingPod("small", "500m");
  ASSERT_TRUE(f.provisioner.Provision().ok());
  // The first solve's series is gone: one series per controller.
  const std::string text = f.metrics.PrometheusText();
  EXPECT_EQ(text.find("scheduling_id=\"1\""), std::string::npos) << text;
  EXPECT_NE(
      text.find(
          "karpenter_scheduler_queue_depth{controller=\"provisioner\",scheduling_id=\"2\"} 1"),
      std::string::npos)
      << text;
}

TEST(Provisioner, APodNothingCanTakeIsReportedAndNothingIsCreated) {
  Fixture f;
  f.AddPendingPod("huge", "4000");
  absl::StatusOr<ProvisionOutcome> outcome = f.provisioner.Provision();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_TRUE(outcome->created.empty());
  EXPECT_EQ(outcome->unschedulable_pods, 1u);
  ASSERT_EQ(f.events.Count("FailedScheduling"), 1u);
  EXPECT_TRUE(f.events.events()[0].message.starts_with("Failed to schedule pod, "));
  EXPECT_EQ(f.metrics.Value("karpenter_scheduler_unschedulable_pods_count",
                            {{"controller", "provisioner"}}),
            1);
  EXPECT_EQ(f.metrics.Value("karpenter_scheduler_scheduling_duration_seconds",
                            {{"controller", "provisioner"}}),
            1)
      << "one solve observed";
}

TEST(Provisioner, WaitsForTheClusterViewToSync) {
  Fixture f;
  f.AddPendingPod("a", "500m");
  f.cluster.set_synced(false);
  absl::StatusOr<ProvisionOutcome> outcome = f.provisioner.Provision();
  ASSERT_TRUE(outcome.ok());
  EXPECT_FALSE(outcome->synced);
  EXPECT_TRUE(f.Claims().empty());
}

TEST(Provisioner, AnUnschedulablePodOpensABatchThatClosesAfterTheIdleSecond) {
  Fixture f;
  f.provisioner.Start();
  f.AddPendingPod("a", "500m");
  f.clock.Advance(999);
  EXPECT_TRUE(f.Claims().empty());
  f.clock.Advance(1);
  EXPECT_EQ(f.Claims().size(), 1u);
}

}  // namespace
}  // namespace karpenter::controllers
