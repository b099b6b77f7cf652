#include "src/controllers/nodeclaim_tagging.h"

#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "gtest/gtest.h"
#include "src/api/karpenter_labels.h"
#include "src/fakes/fake_clock.h"
#include "src/fakes/fake_kube_cluster.h"

namespace karpenter::controllers {
namespace {

struct TagCall {
  std::string provider_id;
  NodeClaimTagging::InstanceTags tags;
};

struct Fixture {
  fakes::FakeClock clock;
  fakes::FakeKubeCluster cluster{clock};
  std::vector<TagCall> calls;
  // What the provider answers: whether it wrote (false: every tag was there) or an error.
  absl::StatusOr<bool> answer = true;
  NodeClaimTagging tagging{
      clock, cluster, cluster,
      [this](const std::string& provider_id, const NodeClaimTagging::InstanceTags& tags) {
        calls.push_back({provider_id, tags});
        return answer;
      },
      "demo"};

  void AddClaim(const std::string& name, const std::string& node_name,
                std::vector<std::string> finalizers = {}) {
    api::NodeClaim claim;
    claim.metadata.name = name;
    claim.metadata.finalizers = std::move(finalizers);
    claim.spec.node_class_ref =
        api::NodeClassReference{"EC2NodeClass", "default", "karpenter.k8s.aws"};
    claim.status.provider_id = "aws:///us-west-2a/i-" + name;
    claim.status.node_name = node_name;
    ASSERT_TRUE(cluster.Create(claim).ok());
  }
  api::NodeClaim Stored(const std::string& name) const {
    return std::get<api::NodeClaim>(*cluster.Get({"NodeClaim", "", name}));
  }
  bool Tagged(const std::string& name) const {
    const auto& annotations = Stored(name).metadata.annotations;
    auto tagged = annotations.find(std::string(api::kInstanceTaggedAnnotationKey));
    auto compatible = annotations.find(std::string(api::kClusterNameTaggedAnnotationKey));
    return tagged != annotations.end() && tagged->second == "true" &&
           compatible != annotations.end() && compatible->second == "true";
  }
};

TEST(NodeClaimTagging, ARegisteredClaimsInstanceIsTaggedOnceThenAnnotated) {
  Fixture f;
  f.AddClaim("default-a", "ip-10-0-1-5.ec2.internal");
  f.tagging.Start();
  f.clock.Advance(0);
  ASSERT_EQ(f.calls.size(), 1u);
  EXPECT_EQ(f.calls[0].provider_id, "aws:///us-west-2a/i-default-a");
  EXPECT_EQ(f.calls[0].tags,
            (NodeClaimTagging::InstanceTags{{"Name", "ip-10-0-1-5.ec2.internal"},
                                            {"eks:eks-cluster-name", "demo"},
                                            {"karpenter.sh/nodeclaim", "default-a"}}));
  EXPECT_TRUE(f.Tagged("default-a"));
  // The annotation's own write wakes the claim again: it is done, nothing more is written.
  f.clock.Advance(10 * 1000);
  EXPECT_EQ(f.calls.size(), 1u);
}

TEST(NodeClaimTagging, AClaimWithOnlyTheNewAnnotationIsTaggedAgain) {
  Fixture f;
  f.AddClaim("default-a", "node-a");
  api::NodeClaim claim = f.Stored("default-a");
  claim.metadata.annotations[std::string(api::kInstanceTaggedAnnotationKey)] = "true";
  EXPECT_TRUE(Taggable(claim));
  claim.metadata.annotations[std::string(api::kClusterNameTaggedAnnotationKey)] = "true";
  EXPECT_FALSE(Taggable(claim));
}

TEST(NodeClaimTagging, ClaimsNotYetRegisteredBeingDeletedOrOfAnotherClassAreSkipped) {
  Fixture f;
  f.AddClaim("unregistered", "");
  f.AddClaim("deleting", "node-d", {std::string(api::kTerminationFinalizer)});
  ASSERT_TRUE(f.cluster.Delete({"NodeClaim", "", "deleting"}).ok());
  api::NodeClaim other;
  other.metadata.name = "other";
  other.spec.node_class_ref = api::NodeClassReference{"KWOKNodeClass", "x", "karpenter.kwok.sh"};
  other.status.provider_id = "kwok://other";
  other.status.node_name = "node-o";
  ASSERT_TRUE(f.cluster.Create(other).ok());
  f.tagging.Start();
  f.clock.Advance(5 * 1000);
  EXPECT_TRUE(f.calls.empty());
  EXPECT_FALSE(f.Tagged("unregistered"));
  EXPECT_FALSE(f.Tagged("other"));
}

TEST(NodeClaimTagging, AClaimIsTaggedWhenItsNodeRegisters) {
  Fixture f;
  f.AddClaim("default-a", "");
  f.tagging.Start();
  f.clock.Advance(0);
  ASSERT_TRUE(f.calls.empty());
  api::NodeClaim claim = f.Stored("default-a");
  claim.status.node_name = "node-a";
  ASSERT_TRUE(f.cluster.UpdateStatus(claim).ok());
  f.clock.Advance(0);
  EXPECT_EQ(f.calls.size(), 1u);
  EXPECT_TRUE(f.Tagged("default-a"));
}

TEST(NodeClaimTagging, AnInstanceThatIsGoneIsNeitherRetriedNorAnnotated) {
  Fixture f;
  f.AddClaim("default-a", "node-a");
  f.answer = absl::NotFoundError("i-default-a not found");
  absl::StatusOr<ReconcileResult> result = f.tagging.Reconcile("default-a");
  ASSERT_TRUE(result.ok());
  EXPECT_FALSE(result->requeue);
  EXPECT_FALSE(result->requeue_after_millis.has_value());
  EXPECT_FALSE(f.Tagged("default-a"));
}

TEST(NodeClaimTagging, AFailedCreateTagsIsRetriedWithoutTheAnnotation) {
  Fixture f;
  f.AddClaim("default-a", "node-a");
  f.answer = absl::UnavailableError("RequestLimitExceeded");
  f.tagging.Start();
  f.clock.Advance(0);
  EXPECT_EQ(f.calls.size(), 1u);
  EXPECT_FALSE(f.Tagged("default-a"));
  f.answer = true;
  f.clock.Advance(60 * 1000);  // past the backoff
  EXPECT_EQ(f.calls.size(), 2u);
  EXPECT_TRUE(f.Tagged("default-a"));
}

TEST(NodeClaimTagging, AtMostOneCreateTagsASecond) {
  Fixture f;
  f.AddClaim("default-a", "node-a");
  f.AddClaim("default-b", "node-b");
  f.AddClaim("default-c", "node-c");
  f.tagging.Start();
  f.clock.Advance(0);
  EXPECT_EQ(f.calls.size(), 1u);
  f.clock.Advance(999);
  EXPECT_EQ(f.calls.size(), 1u);
  f.clock.Advance(1);
  EXPECT_EQ(f.calls.size(), 2u);
  f.clock.Advance(1000);
  EXPECT_EQ(f.calls.size(), 3u);
  EXPECT_TRUE(f.Tagged("default-a") && f.Tagged("default-b") && f.Tagged("default-c"));
}

TEST(NodeClaimTagging, NoWaitAfterAnInstanceThatHadEveryTagAlready) {
  Fixture f;
  f.AddClaim("default-a", "node-a");
  f.AddClaim("default-b", "node-b");
  f.answer = false;
  f.tagging.Start();
  f.clock.Advance(0);
  EXPECT_EQ(f.calls.size(), 2u);
  EXPECT_TRUE(f.Tagged("default-a") && f.Tagged("default-b"));
}

}  // namespace
}  // namespace karpenter::controllers
