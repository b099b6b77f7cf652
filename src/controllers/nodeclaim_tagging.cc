#include "src/controllers/nodeclaim_tagging.h"

#include <utility>
#include <variant>

#include "nlohmann/json.hpp"
#include "src/api/karpenter_labels.h"

namespace karpenter::controllers {
namespace {

// Upstream's reasonable.RateLimiter: 100 ms doubling to a minute per claim, 10/s overall.
constexpr RateLimits kTaggingRateLimits{.base_delay_millis = 100,
                                        .max_delay_millis = 60 * 1000,
                                        .bucket_per_second = 10,
                                        .bucket_burst = 100};

bool Annotated(const api::NodeClaim& claim, std::string_view key) {
  auto it = claim.metadata.annotations.find(std::string(key));
  return it != claim.metadata.annotations.end() && it->second == "true";
}

// Only claims of this provider's node class are ours to tag (upstream's IsManaged predicate).
bool OfEc2NodeClass(const api::NodeClaim& claim) {
  return claim.spec.node_class_ref && claim.spec.node_class_ref->kind == "EC2NodeClass" &&
         claim.spec.node_class_ref->group == "karpenter.k8s.aws";
}

}  // namespace

bool Taggable(const api::NodeClaim& claim) {
  if (Annotated(claim, api::kInstanceTaggedAnnotationKey) &&
      Annotated(claim, api::kClusterNameTaggedAnnotationKey)) {
    return false;
  }
  return !claim.status.node_name.empty() && !claim.metadata.deletion_timestamp;
}

NodeClaimTagging::NodeClaimTagging(Clock& clock, ClusterReader& reader, ClusterWriter& writer,
                                   TagInstance tag_instance, std::string cluster_name)
    : clock_(clock),
      reader_(reader),
      writer_(writer),
      tag_instance_(std::move(tag_instance)),
      cluster_name_(std::move(cluster_name)),
      controller_(
          "nodeclaim.tagging", clock, [this](const std::string& name) { return Reconcile(name); },
          kTaggingRateLimits) {}

void NodeClaimTagging::Start() {
  reader_.Watch("NodeClaim", [this](const ObjectKey& key) { controller_.Enqueue(key.name); });
  for (const api::Object& object : reader_.List("NodeClaim")) {
    controller_.Enqueue(KeyOf(object).name);
  }
}

absl::StatusOr<ReconcileResult> NodeClaimTagging::Reconcile(const std::string& name) {
  const ObjectKey key{"NodeClaim", "", name};
  std::optional<api::Object> object = reader_.Get(key);
  const auto* claim = object ? std::get_if<api::NodeClaim>(&*object) : nullptr;
  if (claim == nullptr || !OfEc2NodeClass(*claim) || !Taggable(*claim)) return ReconcileResult{};
  const int64_t now = clock_.NowMillis();
  if (now < next_write_millis_) return ReconcileResult{next_write_millis_ - now, false};
  absl::StatusOr<bool> wrote = tag_instance_(claim->status.provider_id,
                                             {{std::string(kNameTagKey), claim->status.node_name},
                                              {std::string(kNodeClaimTagKey), name},
                                              {std::string(kEksClusterNameTagKey), cluster_name_}});
  // An instance that is gone will never be tagged, and a provider ID that names no instance
  // waits for the claim to change: neither is retried.
  if (absl::IsNotFound(wrote.status()) || absl::IsInvalidArgument(wrote.status())) {
    return ReconcileResult{};
  }
  if (!wrote.ok()) return wrote.status();
  if (*wrote) next_write_millis_ = clock_.NowMillis() + kTaggingWriteIntervalMillis;
  const nlohmann::json patch = {
      {"metadata",
       {{"annotations",
         {{std::string(api::kInstanceTaggedAnnotationKey), "true"},
          {std::string(api::kClusterNameTaggedAnnotationKey), "true"}}}}}};
  absl::StatusOr<api::Object> patched = writer_.MergePatch(key, patch.dump());
  if (!patched.ok() && !absl::IsNotFound(patched.status())) return patched.status();
  return ReconcileResult{};
}

}  // namespace karpenter::controllers
