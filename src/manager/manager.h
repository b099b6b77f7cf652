// Upstream: the controllers kubernetes-sigs/karpenter and its AWS provider register with their
// controller manager (pkg/controllers/controllers.go in both). The in-cluster controller's
// reconcilers assembled over the seams, configured from the settings: provisioning,
// NodeClaim lifecycle, node termination and eviction, disruption, expiration, garbage
// collection of NodeClaims and of instances, instance tagging, consistency, NodePool readiness,
// hash and counter, pod events, the node/pod/NodePool state metrics and, with a queue,
// interruption. Events go through upstream's de-duplication. Nothing here knows whether the seams
// are a real cluster and AWS, or fakes.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "karpenter/clock.h"
#include "karpenter/cloud_provider.h"
#include "karpenter/event_recorder.h"
#include "karpenter/interruption_queue.h"
#include "karpenter/kube_cluster.h"
#include "karpenter/logger.h"
#include "karpenter/metrics.h"
#include "src/cloudprovider/unavailable_offerings.h"
#include "src/controllers/deduping_recorder.h"
#include "src/controllers/disruption_controller.h"
#include "src/controllers/eviction_queue.h"
#include "src/controllers/instance_gc.h"
#include "src/controllers/instance_profile_gc.h"
#include "src/controllers/interruption.h"
#include "src/controllers/metered_cloud_provider.h"
#include "src/controllers/node_class_status.h"
#include "src/controllers/node_class_termination.h"
#include "src/controllers/node_termination.h"
#include "src/controllers/nodeclaim_consistency.h"
#include "src/controllers/nodeclaim_expiration.h"
#include "src/controllers/nodeclaim_lifecycle.h"
#include "src/controllers/nodeclaim_tagging.h"
#include "src/controllers/nodepool_health.h"
#include "src/controllers/nodepool_readiness.h"
#include "src/controllers/nodepool_status.h"
#include "src/controllers/offering_metrics.h"
#include "src/controllers/pod_events.h"
#include "src/controllers/provisioner.h"
#include "src/controllers/state_metrics.h"
#include "src/controllers/status_condition_metrics.h"
#include "src/settings/settings.h"

namespace karpenter::manager {

// Upstream's UnavailableOfferingsTTL: how long an offering out of capacity is left alone.
inline constexpr int64_t kUnavailableOfferingsTtlMillis = 3 * 60 * 1000;

struct ManagerSeams {
  Clock& clock;
  ClusterReader& reader;
  ClusterWriter& writer;
  CloudProvider& cloud;
  EventRecorder& recorder;
  Metrics& metrics;
  // The interruption queue (SQS), or null when INTERRUPTION_QUEUE is unset.
  InterruptionQueue* interruption_queue = nullptr;
  // Offerings out of capacity, shared with the cloud provider when it marks them too; null: the
  // manager keeps its own.
  cloudprovider::UnavailableOfferings* unavailable = nullptr;
  // The provider's EC2NodeClass status resolution; empty: no node class status controller (the
  // classes' status is someone else's, as in the tests).
  controllers::NodeClassStatusController::Resolve resolve_node_class;
  // What the provider removes when an EC2NodeClass goes (with resolve_node_class only: the
  // classes' finalizer is the provider's).
  controllers::NodeClassTermination::CleanUp clean_up_node_class;
  // The provider's tagging of registered NodeClaims' instances; empty: no tagging controller.
  controllers::NodeClaimTagging::TagInstance tag_instance;
  // The provider's deletion of instance profiles no object names; empty: no instance profile
  // garbage collection.
  controllers::InstanceProfileGarbageCollection::Collect collect_instance_profiles;
  // Upstream's info lines (launched / registered / initialized / deleted nodeclaim, tainted /
  // deleted node, disrupting node(s)); null: none.
  Logger* logger = nullptr;
};

struct ManagerOptions {
  controllers::ProvisionerOptions provisioner;
  controllers::DisruptionControllerOptions disruption;
  int64_t node_class_refresh_millis = 60 * 1000;
  // The ReservedCapacity feature gate (on by default, as upstream).
  bool reserved_capacity = true;
  // CLUSTER_NAME, which the tagging controller writes as eks:eks-cluster-name.
  std::string cluster_name;
};

// Batch windows, preference and minValues policies, the SpotToSpotConsolidation gate, and the
// node class refresh (the shorter of AMI_REFRESH_INTERVAL and SUBNET_REFRESH_INTERVAL).
ManagerOptions OptionsFrom(const settings::Settings& settings);

class Manager {
 public:
  Manager(ManagerSeams seams, ManagerOptions options);
  Manager(const Manager&) = delete;
  Manager& operator=(const Manager&) = delete;

  // Registers every controller's watches and starts their loops (only the leader calls it).
  void Start();

  controllers::DisruptionController& disruption() { return disruption_; }
  controllers::Provisioner& provisioner() { return provisioner_; }

 private:
  // Upstream's recorder de-duplicates every event for 2 minutes by its identity.
  class DedupedRecorder : public EventRecorder {
   public:
    DedupedRecorder(const Clock& clock, EventRecorder& sink) : deduping_(clock, sink) {}
    void Publish(const Event& event) override { deduping_.Publish(event); }

   private:
    controllers::DedupingRecorder deduping_;
  };

  controllers::InterruptionHooks InterruptionHooksOverApi();
  std::optional<controllers::InterruptedInstance> FindInstance(const std::string& instance_id);
  void DeleteNodeClaim(const std::string& name, int attempt);

  ManagerSeams seams_;
  DedupedRecorder recorder_;
  controllers::NodePoolHealth health_;
  cloudprovider::UnavailableOfferings own_unavailable_;
  cloudprovider::UnavailableOfferings& unavailable_;
  // The cloud as each controller that calls it sees it: timed and counted under its name.
  controllers::MeteredCloudProvider lifecycle_cloud_;
  controllers::MeteredCloudProvider termination_cloud_;
  controllers::MeteredCloudProvider expiration_cloud_;
  controllers::MeteredCloudProvider garbage_collection_cloud_;
  controllers::MeteredCloudProvider instance_garbage_collection_cloud_;
  controllers::MeteredCloudProvider provisioner_cloud_;
  controllers::MeteredCloudProvider disruption_cloud_;
  controllers::MeteredCloudProvider offering_metrics_cloud_;
  // Upstream's cluster-state marks, between the disruption controller and the provisioner.
  controllers::DeletionMarks deletion_marks_;
  controllers::Provisioner provisioner_;
  controllers::NodeClaimLifecycle lifecycle_;
  controllers::EvictionQueue evictions_;
  controllers::NodeTermination termination_;
  controllers::DisruptionController disruption_;
  controllers::NodeClaimExpiration expiration_;
  controllers::NodeClaimGarbageCollection garbage_collection_;
  controllers::InstanceGarbageCollection instance_garbage_collection_;
  controllers::NodeClaimConsistency consistency_;
  controllers::NodePoolReadiness readiness_;
  controllers::NodePoolHashController hash_;
  controllers::NodePoolCounter counter_;
  controllers::PodEvents pod_events_;
  controllers::StateMetrics state_metrics_;
  controllers::OfferingMetrics offering_metrics_;
  controllers::StatusConditionMetrics nodeclaim_status_;
  controllers::StatusConditionMetrics nodepool_status_;
  controllers::StatusConditionMetrics node_status_;
  controllers::StatusConditionMetrics ec2nodeclass_status_;
  controllers::InterruptionController interruption_;
  std::unique_ptr<controllers::SingletonLoop> interruption_loop_;
  std::unique_ptr<controllers::NodeClassStatusController> node_classes_;
  std::unique_ptr<controllers::NodeClassTermination> node_class_termination_;
  std::unique_ptr<controllers::NodeClaimTagging> tagging_;
  std::unique_ptr<controllers::InstanceProfileGarbageCollection> instance_profile_gc_;
};

}  // namespace karpenter::manager
