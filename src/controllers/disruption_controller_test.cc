#include "src/controllers/disruption_controller.h"

#include <algorithm>
#include <string>
#include <variant>
#include <vector>

#include "gtest/gtest.h"
#include "src/api/karpenter_labels.h"
#include "src/api/manifest.h"
#include "src/api/nodeclaim.h"
#include "src/cloudprovider/catalog.h"
#include "src/disruption/disruption_test_util.h"
#include "src/disruption/validation.h"
#include "src/fakes/fake_clock.h"
#include "src/fakes/fake_cloud_provider.h"
#include "src/fakes/fake_event_recorder.h"
#include "src/fakes/fake_kube_cluster.h"
#include "src/fakes/fake_logger.h"
#include "src/metrics/karpenter_metrics.h"
#include "src/metrics/registry.h"

namespace karpenter::controllers {
namespace {

using disruption::testing::NodeSpec;
using disruption::testing::NodeYaml;
using disruption::testing::PodSpec;
using disruption::testing::PodYaml;

constexpr char kNodePool[] = R"(apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: default}
spec:
  disruption:
    consolidationPolicy: WhenEmptyOrUnderutilized
    consolidateAfter: 0s
    budgets: [{nodes: '100%'}]
  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
      requirements:
      - {key: karpenter.k8s.aws/instance-family, operator: In, values: [m5]}
      - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
)";

struct Fixture {
  fakes::FakeClock clock;
  fakes::FakeKubeCluster cluster{clock};
  fakes::FakeEventRecorder events;
  metrics::Registry metrics{metrics::KarpenterCatalog()};
  fakes::FakeLogger log;
  DisruptionController controller{DisruptionSeams{clock, cluster, cluster, events, metrics, &log},
                                  DisruptionControllerOptions{}};

  Fixture() { Apply({disruption::testing::kNodeClass, kNodePool}); }

  // Creates each object as a client would, then writes its status as its owner would.
  void Apply(const std::vector<std::string>& documents) {
    absl::Status created = fakes::CreateWithStatus(cluster, disruption::testing::Join(documents));
    ASSERT_TRUE(created.ok()) << created;
  }

  std::optional<api::NodeClaim> Claim(const std::string& name) const {
    std::optional<api::Object> object = cluster.Get({"NodeClaim", "", name});
    if (!object) return std::nullopt;
    return std::get<api::NodeClaim>(*object);
  }
  api::Node Node(const std::string& name) const {
    std::optional<api::Object> object = cluster.Get({"Node", "", name});
    if (!object) {
      ADD_FAILURE() << "Node " << name << " is gone";
      return api::Node{};
    }
    return std::get<api::Node>(*object);
  }
  bool Tainted(const std::string& node) const {
    const std::vector<api::Taint> taints = Node(node).spec.taints;
    return std::any_of(taints.begin(), taints.end(), [](const api::Taint& taint) {
      return taint.key == api::kDisruptedTaintKey && taint.effect == "NoSchedule";
    });
  }
  bool HasDisruptionReason(const std::string& claim) const {
    const std::optional<api::NodeClaim> stored = Claim(claim);
    if (!stored) {
      ADD_FAILURE() << "NodeClaim " << claim << " is gone";
      return false;
    }
    for (const api::Condition& condition : stored->status.conditions) {
      if (condition.type == api::kConditionTypeDisruptionReason) return true;
    }
    return false;
  }
  // NodeClaims the controller created (the fixtures' claims are named claim-<node>).
  std::vector<api::NodeClaim> Replacements() const {
    std::vector<api::NodeClaim> out;
    for (const api::Object& object : cluster.List("NodeClaim")) {
      const auto& claim = std::get<api::NodeClaim>(object);
      if (!claim.metadata.name.starts_with("claim-")) out.push_back(claim);
    }
    return out;
  }
  void Initialize(api::NodeClaim claim) {
    claim.status.conditions.push_back(
        {.type = std::string(api::kConditionTypeInitialized), .status = "True"});
    ASSERT_TRUE(cluster.UpdateStatus(claim).ok());
  }
  ReconcileResult Poll() {
    absl::StatusOr<ReconcileResult> result = controller.Reconcile();
    EXPECT_TRUE(result.ok()) << result.status();
    return result.ok() ? *result : ReconcileResult{};
  }
};

TEST(DisruptionController, AnEmptyNodeGoesAfterValidationAndTheOtherStays) {
  Fixture f;
  f.Apply({NodeYaml({.name = "a"}), NodeYaml({.name = "b"}),
           PodYaml({.name = "p", .node = "a", .cpu = "3"})});
  // The command waits the validation delay before anything is touched.
  EXPECT_EQ(f.Poll().requeue_after_millis, std::optional<int64_t>(15'000));
  EXPECT_FALSE(f.Tainted("b"));
  // Emptiness ran, and found one of the two nodes eligible; nothing after it ran.
  EXPECT_EQ(f.metrics.Value("karpenter_voluntary_disruption_eligible_nodes", {{"reason", "empty"}}),
            1);
  EXPECT_EQ(f.metrics.PrometheusText().find("eligible_nodes{reason=\"underutilized\"}"),
            std::string::npos);
  // Its decision was timed, once; no other method's was.
  EXPECT_EQ(f.metrics.Value("karpenter_voluntary_disruption_decision_evaluation_duration_seconds",
                            {{"reason", "empty"}, {"consolidation_type", "empty"}}),
            1);
  EXPECT_EQ(f.metrics.PrometheusText().find(
                "decision_evaluation_duration_seconds_count{consolidation_type=\"multi\""),
            std::string::npos);
  // The pool's budget (100% of nodes) allows both nodes; none of them is disrupting yet.
  EXPECT_EQ(f.metrics.Value("karpenter_nodepools_allowed_disruptions",
                            {{"nodepool", "default"}, {"reason", "Empty"}}),
            2);
  EXPECT_EQ(f.metrics.Value("karpenter_nodepools_nodes_consuming_budgets",
                            {{"nodepool", "default"}, {"reason", "Empty"}}),
            0);
  EXPECT_NE(f.metrics.PrometheusText().find(
                "karpenter_nodepools_nodes_consuming_budgets{nodepool=\"default\","
                "reason=\"Empty\"} 0"),
            std::string::npos);
  EXPECT_TRUE(f.Claim("claim-b").has_value());

  f.clock.Advance(15'000);
  EXPECT_EQ(f.Poll().requeue_after_millis, std::optional<int64_t>(0));
  EXPECT_TRUE(f.Tainted("b"));
  EXPECT_FALSE(f.Tainted("a"));
  // Nothing replaces an empty node: its NodeClaim is deleted at once.
  EXPECT_FALSE(f.Claim("claim-b").has_value());
  EXPECT_TRUE(f.Claim("claim-a").has_value());
  EXPECT_TRUE(f.Replacements().empty());
  EXPECT_EQ(f.controller.commands_finished(), 1u);
  EXPECT_EQ(f.metrics.Value(
                "karpenter_voluntary_disruption_decisions_total",
                {{"decision", "delete"}, {"reason", "empty"}, {"consolidation_type", "empty"}}),
            1);
  EXPECT_EQ(f.metrics.Value("karpenter_nodeclaims_disrupted_total",
                            {{"reason", "empty"},
                             {"nodepool", "default"},
                             {"capacity_type", "on-demand"},
                             {"consolidation_policy", "when_empty_or_underutilized"},
                             {"termination_mode", "graceful"}}),
            1);
  EXPECT_EQ(f.events.Count("DisruptionTerminating"), 2u);
  EXPECT_EQ(f.log.lines(),
            std::vector<std::string>{"disrupting node(s) command-id=1 reason=empty decision=delete "
                                     "disrupted-node-count=1 replacement-node-count=0 pod-count=0 "
                                     "disrupted-nodes=b/claim-b replacement-nodes="});
}

TEST(DisruptionController, AReplacementMustBeInitializedBeforeTheCandidateIsDeleted) {
  Fixture f;
  // An m5.xlarge holding 100m: a smaller m5 costs less.
  f.Apply({NodeYaml({.name = "big"}), PodYaml({.name = "p", .node = "big"})});
  EXPECT_EQ(f.Poll().requeue_after_millis, std::optional<int64_t>(15'000));
  f.clock.Advance(15'000);
  f.Poll();
  ASSERT_EQ(f.Replacements().size(), 1u);
  const api::NodeClaim replacement = f.Replacements()[0];
  EXPECT_EQ(replacement.metadata.labels.at(std::string(api::kNodePoolLabelKey)), "default");
  EXPECT_TRUE(f.Tainted("big"));
  EXPECT_TRUE(f.HasDisruptionReason("claim-big"));
  EXPECT_EQ(f.controller.queued_commands(), 1u);
  EXPECT_EQ(
      f.metrics.Value(
          "karpenter_nodeclaims_created_total",
          {{"reason", "underutilized"}, {"nodepool", "default"}, {"min_values_relaxed", "false"}}),
      1);

  // Seconds pass; the replacement is still launching: the candidate stays.
  f.clock.Advance(30'000);
  EXPECT_TRUE(f.Claim("claim-big").has_value());
  EXPECT_GE(f.events.Count("DisruptionWaitingReadiness"), 1u);

  f.Initialize(replacement);
  f.clock.Advance(1'000);
  EXPECT_FALSE(f.Claim("claim-big").has_value());
  EXPECT_EQ(f.controller.queued_commands(), 0u);
  EXPECT_EQ(f.controller.commands_finished(), 1u);
  EXPECT_EQ(f.metrics.Value("karpenter_pods_disruption_initiated_total",
                            {{"reason", "underutilized"},
                             {"nodepool", "default"},
                             {"capacity_type", "on-demand"},
                             {"consolidation_policy", "when_empty_or_underutilized"},
                             {"termination_mode", "graceful"}}),
            1);
}

// With a cloud provider, each poll's replacement simulation takes the NodePool's types from it,
// as upstream's does: when every cheaper m5 is out of capacity, the m5.xlarge holding 100m has no
// cheaper replacement and stays; when the types cannot be resolved, the pool is skipped.
TEST(DisruptionController, ReplacementsAreSimulatedWithTheCloudProvidersInstanceTypes) {
  Fixture f;
  absl::StatusOr<cloudprovider::Catalog> catalog = cloudprovider::Catalog::LoadEmbedded();
  ASSERT_TRUE(catalog.ok()) << catalog.status();
  std::vector<cloudprovider::InstanceType> types;
  for (const char* name : {"m5.large", "m5.xlarge", "m5.2xlarge"}) {
    cloudprovider::InstanceType type = *catalog->Find(name);
    if (type.name != "m5.xlarge") {
      for (cloudprovider::Offering& offering : type.offerings) offering.available = false;
    }
    types.push_back(std::move(type));
  }
  fakes::FakeCloudProvider cloud;
  cloud.SetInstanceTypes(types);
  DisruptionController controller{
      DisruptionSeams{f.clock, f.cluster, f.cluster, f.events, f.metrics, &f.log, &cloud},
      DisruptionControllerOptions{}};
  f.Apply({NodeYaml({.name = "big"}), PodYaml({.name = "p", .node = "big"})});
  for (int poll = 0; poll < 3; ++poll) {
    ASSERT_TRUE(controller.Reconcile().ok());
    f.clock.Advance(15'000);
  }
  EXPECT_TRUE(f.Replacements().empty());
  EXPECT_FALSE(f.Tainted("big"));
  EXPECT_EQ(controller.queued_commands(), 0u);
  ASSERT_FALSE(cloud.calls().empty());
  EXPECT_EQ(cloud.calls().front(), "GetInstanceTypes default");

  // Without the cloud's answer the embedded catalog is not used instead: the pool is skipped.
  cloud.FailNext(fakes::FakeCloudProvider::Method::kGetInstanceTypes,
                 CloudError{.kind = CloudErrorKind::kNodeClassNotReady,
                            .reason = "NodeClassNotReady",
                            .message = "no subnets"});
  ASSERT_TRUE(controller.Reconcile().ok());
  EXPECT_TRUE(f.Replacements().empty());
  EXPECT_NE(std::find_if(f.log.lines().begin(), f.log.lines().end(),
                         [](const std::string& line) {
                           return line.starts_with(
                               "skipping, unable to resolve instance types controller=disruption "
                               "NodePool=default");
                         }),
            f.log.lines().end());

  // The same cluster with the embedded catalog replaces the node with a cheaper m5.
  Fixture plain;
  plain.Apply({NodeYaml({.name = "big"}), PodYaml({.name = "p", .node = "big"})});
  plain.Poll();
  plain.clock.Advance(15'000);
  plain.Poll();
  EXPECT_EQ(plain.Replacements().size(), 1u);
}

TEST(DisruptionController, AReplacementThatDisappearsRollsTheCommandBack) {
  Fixture f;
  f.Apply({NodeYaml({.name = "big"}), PodYaml({.name = "p", .node = "big"})});
  f.Poll();
  f.clock.Advance(15'000);
  f.Poll();
  ASSERT_EQ(f.Replacements().size(), 1u);
  f.clock.Advance(1'000);  // the queue sees the replacement once
  // Its launch found no capacity: the lifecycle controller deleted it.
  ASSERT_TRUE(f.cluster.Delete({"NodeClaim", "", f.Replacements()[0].metadata.name}).ok());
  f.clock.Advance(1'000);
  EXPECT_EQ(f.controller.commands_rolled_back(), 1u);
  EXPECT_FALSE(f.Tainted("big"));
  EXPECT_FALSE(f.HasDisruptionReason("claim-big"));
  EXPECT_TRUE(f.Claim("claim-big").has_value());
  EXPECT_EQ(
      f.metrics.Value(
          "karpenter_voluntary_disruption_queue_failures_total",
          {{"decision", "replace"}, {"reason", "underutilized"}, {"consolidation_type", "single"}}),
      1);
}

TEST(DisruptionController, AReplacementThatNeverInitializesTimesOut) {
  Fixture f;
  f.Apply({NodeYaml({.name = "big"}), PodYaml({.name = "p", .node = "big"})});
  f.Poll();
  f.clock.Advance(15'000);
  f.Poll();
  ASSERT_EQ(f.Replacements().size(), 1u);
  // The retry timeout of a lone command is its floor, 10 minutes.
  f.clock.Advance(10 * 60 * 1000);
  EXPECT_EQ(f.controller.commands_rolled_back(), 0u);
  f.clock.Advance(2'000);
  EXPECT_EQ(f.controller.commands_rolled_back(), 1u);
  EXPECT_FALSE(f.Tainted("big"));
  EXPECT_TRUE(f.Claim("claim-big").has_value());
}

TEST(DisruptionController, AFailedReplacementCreateUntaintsTheCandidates) {
  Fixture f;
  f.Apply({NodeYaml({.name = "big"}), PodYaml({.name = "p", .node = "big"})});
  f.Poll();
  f.clock.Advance(15'000);
  f.cluster.FailNext(fakes::FakeKubeCluster::Verb::kCreate,
                     absl::UnavailableError("apiserver down"));
  absl::StatusOr<ReconcileResult> result = f.controller.Reconcile();
  EXPECT_FALSE(result.ok());
  EXPECT_FALSE(f.Tainted("big"));
  EXPECT_FALSE(f.HasDisruptionReason("claim-big"));
  EXPECT_EQ(f.controller.queued_commands(), 0u);
  EXPECT_TRUE(f.Replacements().empty());
}

TEST(DisruptionController, ADeleteGoesOnWithTheCandidatesItCouldMark) {
  Fixture f;
  f.Apply({NodeYaml({.name = "a"}), NodeYaml({.name = "b"})});
  f.Poll();
  f.clock.Advance(15'000);
  // The first candidate's taint write loses a race; the other is marked.
  f.cluster.FailNext(fakes::FakeKubeCluster::Verb::kUpdate, absl::AbortedError("conflict"));
  EXPECT_EQ(f.Poll().requeue_after_millis, std::optional<int64_t>(0));
  EXPECT_EQ(f.controller.commands_started(), 1u);
  EXPECT_NE(f.Claim("claim-a").has_value(), f.Claim("claim-b").has_value());
  const std::string kept = f.Claim("claim-a") ? "a" : "b";
  EXPECT_FALSE(f.Tainted(kept));
  EXPECT_FALSE(f.HasDisruptionReason("claim-" + kept));
  EXPECT_EQ(f.log.lines().size(), 1u);
  EXPECT_NE(f.log.lines()[0].find("disrupted-node-count=1 "), std::string::npos)
      << f.log.lines()[0];
}

TEST(DisruptionController, AReplaceStartsOnlyWhenEveryCandidateIsMarked) {
  Fixture f;
  f.Apply({NodeYaml({.name = "big"}), PodYaml({.name = "p", .node = "big"})});
  f.Poll();
  f.clock.Advance(15'000);
  f.cluster.FailNext(fakes::FakeKubeCluster::Verb::kUpdate, absl::AbortedError("conflict"));
  EXPECT_FALSE(f.controller.Reconcile().ok());
  EXPECT_EQ(f.controller.commands_started(), 0u);
  EXPECT_TRUE(f.Replacements().empty());
  EXPECT_FALSE(f.Tainted("big"));
  EXPECT_TRUE(f.Claim("claim-big").has_value());
}

TEST(DisruptionController, AValidationThatNoLongerHoldsAbandonsTheCommand) {
  Fixture f;
  f.Apply({NodeYaml({.name = "a"}), NodeYaml({.name = "b"}),
           PodYaml({.name = "p", .node = "a", .cpu = "3"})});
  f.Poll();
  // A pod lands on the empty node while the command waits.
  f.Apply({PodYaml({.name = "late", .node = "b", .cpu = "3"})});
  f.clock.Advance(15'000);
  f.Poll();
  EXPECT_EQ(f.controller.validations_failed(), 1u);
  EXPECT_FALSE(f.Tainted("b"));
  EXPECT_TRUE(f.Claim("claim-b").has_value());
  EXPECT_EQ(f.metrics.Value("karpenter_voluntary_disruption_failed_validations_total",
                            {{"consolidation_type", "empty"}}),
            1);
}

TEST(DisruptionController, DriftStartsWithoutWaitingForValidation) {
  Fixture f;
  f.Apply({NodeYaml({.name = "old"}), PodYaml({.name = "p", .node = "old", .cpu = "3"})});
  api::NodeClaim claim = *f.Claim("claim-old");
  claim.status.conditions.push_back(
      {.type = std::string(api::kConditionTypeDrifted), .status = "True", .reason = "AMIDrift"});
  ASSERT_TRUE(f.cluster.UpdateStatus(claim).ok());
  EXPECT_EQ(f.Poll().requeue_after_millis, std::optional<int64_t>(0));
  EXPECT_TRUE(f.Tainted("old"));
  ASSERT_EQ(f.Replacements().size(), 1u);
  EXPECT_EQ(
      f.metrics.Value("karpenter_voluntary_disruption_decisions_total",
                      {{"decision", "replace"}, {"reason", "drifted"}, {"consolidation_type", ""}}),
      1);
  f.Initialize(f.Replacements()[0]);
  f.clock.Advance(1'000);
  EXPECT_FALSE(f.Claim("claim-old").has_value());
  // Drift reports no consolidation policy.
  EXPECT_EQ(
      f.metrics.Value("karpenter_nodeclaims_disrupted_total", {{"reason", "drifted"},
                                                               {"nodepool", "default"},
                                                               {"capacity_type", "on-demand"},
                                                               {"consolidation_policy", ""},
                                                               {"termination_mode", "graceful"}}),
      1);
}

TEST(DisruptionController, TaintsLeftByAnEarlierRunAreRemoved) {
  Fixture f;
  f.Apply({NodeYaml({.name = "a"}), PodYaml({.name = "p", .node = "a", .cpu = "3"})});
  api::Node node = f.Node("a");
  node.spec.taints.push_back(
      api::Taint{.key = std::string(api::kDisruptedTaintKey), .effect = "NoSchedule"});
  ASSERT_TRUE(f.cluster.Update(node).ok());
  api::NodeClaim claim = *f.Claim("claim-a");
  claim.status.conditions.push_back({.type = std::string(api::kConditionTypeDisruptionReason),
                                     .status = "True",
                                     .reason = "Underutilized"});
  ASSERT_TRUE(f.cluster.UpdateStatus(claim).ok());
  f.Poll();
  EXPECT_FALSE(f.Tainted("a"));
  EXPECT_FALSE(f.HasDisruptionReason("claim-a"));
}

TEST(DisruptionController, ANodeClaimBeingDeletedKeepsItsTaint) {
  Fixture f;
  f.Apply({NodeYaml({.name = "a"}), PodYaml({.name = "p", .node = "a", .cpu = "3"})});
  api::NodeClaim claim = *f.Claim("claim-a");
  claim.metadata.finalizers = {std::string(api::kTerminationFinalizer)};
  ASSERT_TRUE(f.cluster.Update(claim).ok());
  ASSERT_TRUE(f.cluster.Delete({"NodeClaim", "", "claim-a"}).ok());
  api::Node node = f.Node("a");
  node.spec.taints.push_back(
      api::Taint{.key = std::string(api::kDisruptedTaintKey), .effect = "NoSchedule"});
  ASSERT_TRUE(f.cluster.Update(node).ok());
  f.Poll();
  EXPECT_TRUE(f.Tainted("a"));
}

TEST(DisruptionController, NothingHappensBeforeTheClusterViewIsSynced) {
  Fixture f;
  f.Apply({NodeYaml({.name = "a"}), NodeYaml({.name = "b"})});
  f.cluster.set_synced(false);
  const size_t writes = f.cluster.writes().size();
  EXPECT_EQ(f.Poll().requeue_after_millis, std::optional<int64_t>(1'000));
  EXPECT_EQ(f.cluster.writes().size(), writes);
}

TEST(DisruptionController, NothingHappensWhileANodeClaimIsStillLaunching) {
  Fixture f;
  f.Apply({NodeYaml({.name = "a"}), NodeYaml({.name = "b"})});
  // The provisioner's claim for pods still pending: where they go is not known yet.
  f.Apply({R"(apiVersion: karpenter.sh/v1
kind: NodeClaim
metadata: {name: launching, labels: {karpenter.sh/nodepool: default}}
spec:
  nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
  requirements:
  - {key: node.kubernetes.io/instance-type, operator: In, values: [m5.large, m5.xlarge]}
)"});
  const size_t writes = f.cluster.writes().size();
  EXPECT_EQ(f.Poll().requeue_after_millis, std::optional<int64_t>(1'000));
  EXPECT_EQ(f.cluster.writes().size(), writes);
  EXPECT_FALSE(f.Tainted("a"));
  EXPECT_FALSE(f.Tainted("b"));

  // Launched: the empty nodes are candidates again.
  api::NodeClaim launched = *f.Claim("launching");
  launched.status.provider_id = "aws:///us-east-1a/i-0launching";
  ASSERT_TRUE(f.cluster.UpdateStatus(launched).ok());
  EXPECT_EQ(f.Poll().requeue_after_millis,
            std::optional<int64_t>(disruption::kCommandValidationDelay.Nanos() /
                                   api::Duration::kMillisecond));
}

TEST(DisruptionController, TheLoopPollsValidatesAndDeletesOnItsOwn) {
  Fixture f;
  f.Apply({NodeYaml({.name = "a"}), NodeYaml({.name = "b"}),
           PodYaml({.name = "p", .node = "a", .cpu = "3"})});
  f.controller.Start();
  f.clock.Advance(0);
  EXPECT_TRUE(f.Claim("claim-b").has_value());
  f.clock.Advance(15'000);
  EXPECT_FALSE(f.Claim("claim-b").has_value());
  // The node left is not empty and cannot go cheaper: later polls change nothing.
  f.clock.Advance(5 * kDisruptionPollMillis);
  EXPECT_TRUE(f.Claim("claim-a").has_value());
  EXPECT_EQ(f.controller.commands_started(), 1u);
}

}  // namespace
}  // namespace karpenter::controllers
