// The tagging controller (src/controllers/nodeclaim_tagging) over AwsCloudProvider::TagInstance
// against moto_server: a registered NodeClaim's instance gets Name, karpenter.sh/nodeclaim and
// eks:eks-cluster-name (only those it lacks), once; another cluster's instance, a terminated one
// and a provider ID that names no instance are never written to.
#include <string>
#include <variant>

#include "gtest/gtest.h"
#include "src/api/karpenter_labels.h"
#include "src/aws/test_moto_provider.h"
#include "src/controllers/nodeclaim_tagging.h"

namespace karpenter::aws {
namespace {

class MotoTagging : public MotoProviderTest {
 protected:
  void SetUp() override {
    MotoProviderTest::SetUp();
    setup_tag_calls_ = recorder_.Calls("CreateTags").size();
  }
  // The CreateTags calls made after the world was set up (which tags subnets and groups).
  std::vector<RecordingTransport::Form> TagCalls() const {
    auto calls = recorder_.Calls("CreateTags");
    calls.erase(calls.begin(), calls.begin() + static_cast<std::ptrdiff_t>(setup_tag_calls_));
    return calls;
  }
  api::NodeClaim Launch(const std::string& name) {
    auto launched = provider_->Create(Claim(name, {"m5.large"}));
    if (const auto* error = std::get_if<CloudError>(&launched)) {
      ADD_FAILURE() << "Create failed: " << error->message;
      return api::NodeClaim();
    }
    return std::get<api::NodeClaim>(launched);
  }
  Tags InstanceTags(const std::string& provider_id) {
    auto instances = ec2_->DescribeInstances({InstanceIdOf(provider_id)}, {});
    EXPECT_TRUE(instances.ok() && instances->size() == 1) << instances.status();
    return instances.ok() && instances->size() == 1 ? (*instances)[0].tags : Tags();
  }
  // The tagging controller over the provider, as the manager wires it.
  controllers::NodeClaimTagging Controller() {
    return controllers::NodeClaimTagging(
        controller_clock_, cluster_, cluster_,
        [this](const std::string& provider_id, const Tags& tags) {
          return provider_->TagInstance(provider_id, tags);
        },
        kCluster);
  }

  size_t setup_tag_calls_ = 0;
};

TEST_F(MotoTagging, ARegisteredClaimsInstanceGetsItsNameTagOnce) {
  api::NodeClaim claim = Launch("default-a");
  claim.status.node_name = "ip-10-20-1-5.us-west-2.compute.internal";
  ASSERT_TRUE(cluster_.Create(claim).ok());
  controllers::NodeClaimTagging tagging = Controller();
  tagging.Start();
  controller_clock_.Advance(0);

  const Tags tags = InstanceTags(claim.status.provider_id);
  EXPECT_EQ(tags.at("Name"), "ip-10-20-1-5.us-west-2.compute.internal");
  EXPECT_EQ(tags.at("karpenter.sh/nodeclaim"), "default-a");
  EXPECT_EQ(tags.at("eks:eks-cluster-name"), kCluster);
  // The launch wrote the claim and cluster tags already: only Name was missing.
  const auto writes = TagCalls();
  ASSERT_EQ(writes.size(), 1u);
  EXPECT_EQ(writes[0].at("Tag.1.Key"), "Name");
  EXPECT_EQ(writes[0].count("Tag.2.Key"), 0u);
  const auto stored = std::get<api::NodeClaim>(*cluster_.Get({"NodeClaim", "", "default-a"}));
  EXPECT_EQ(stored.metadata.annotations.at(std::string(api::kInstanceTaggedAnnotationKey)), "true");

  // Done once: later passes write nothing, and a second tagging finds every tag in place.
  controller_clock_.Advance(5 * 60 * 1000);
  EXPECT_EQ(TagCalls().size(), 1u);
  auto again = provider_->TagInstance(claim.status.provider_id,
                                      {{"Name", "someone-else"}, {"eks:eks-cluster-name", "x"}});
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_FALSE(*again);
  EXPECT_EQ(InstanceTags(claim.status.provider_id).at("Name"),
            "ip-10-20-1-5.us-west-2.compute.internal");
}

TEST_F(MotoTagging, AnotherClustersInstanceIsNeverWrittenTo) {
  XmlDocument run = Call(QueryRequest("RunInstances", Ec2Client::kApiVersion)
                             .Set("ImageId", image_)
                             .Set("InstanceType", "m5.large")
                             .Set("MinCount", "1")
                             .Set("MaxCount", "1")
                             .Set("SubnetId", subnet_a_));
  const std::string id = run.Root().Path({"instancesSet", "item", "instanceId"}).Text();
  ASSERT_FALSE(id.empty());
  ASSERT_TRUE(ec2_->CreateTags({id}, {{"kubernetes.io/cluster/other", "owned"},
                                      {"karpenter.sh/nodepool", "default"}})
                  .ok());
  const int before = static_cast<int>(recorder_.Calls("CreateTags").size());
  auto tagged = provider_->TagInstance("aws:///us-west-2a/" + id, {{"Name", "n"}});
  EXPECT_TRUE(absl::IsNotFound(tagged.status())) << tagged.status();
  EXPECT_EQ(static_cast<int>(recorder_.Calls("CreateTags").size()), before);
  EXPECT_EQ(InstanceTags("aws:///us-west-2a/" + id).count("Name"), 0u);
}

TEST_F(MotoTagging, AGoneInstanceIsNotFoundAndTheClaimIsLeftUnannotated) {
  api::NodeClaim claim = Launch("default-a");
  ASSERT_TRUE(std::holds_alternative<std::monostate>(provider_->Delete(claim)));
  claim.status.node_name = "node-a";
  ASSERT_TRUE(cluster_.Create(claim).ok());
  controllers::NodeClaimTagging tagging = Controller();
  absl::StatusOr<controllers::ReconcileResult> result = tagging.Reconcile("default-a");
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_FALSE(result->requeue || result->requeue_after_millis.has_value());
  EXPECT_TRUE(TagCalls().empty());
  const auto stored = std::get<api::NodeClaim>(*cluster_.Get({"NodeClaim", "", "default-a"}));
  EXPECT_EQ(stored.metadata.annotations.count(std::string(api::kInstanceTaggedAnnotationKey)), 0u);
}

TEST_F(MotoTagging, AProviderIdThatNamesNoInstanceIsInvalid) {
  auto tagged = provider_->TagInstance("kwok://node-a", {{"Name", "n"}});
  EXPECT_TRUE(absl::IsInvalidArgument(tagged.status())) << tagged.status();
  EXPECT_NE(tagged.status().message().find("status.providerID"), absl::string_view::npos);
  EXPECT_TRUE(recorder_.Calls("DescribeInstances").empty());
}

}  // namespace
}  // namespace karpenter::aws
