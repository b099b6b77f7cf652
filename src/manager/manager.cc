#include "src/manager/manager.h"

#include <algorithm>
#include <utility>
#include <variant>

#include "absl/strings/str_cat.h"
#include "src/api/karpenter_labels.h"
#include "src/controllers/object_fields.h"

namespace karpenter::manager {
namespace {

int64_t Millis(api::Duration duration) { return duration.Nanos() / api::Duration::kMillisecond; }

// "aws:///us-east-1a/i-0123" -> "i-0123".
std::string_view InstanceIdOf(std::string_view provider_id) {
  const size_t slash = provider_id.rfind('/');
  return slash == std::string_view::npos ? provider_id : provider_id.substr(slash + 1);
}

}  // namespace

ManagerOptions OptionsFrom(const settings::Settings& settings) {
  ManagerOptions options;
  provisioning::SchedulerOptions scheduler;
  scheduler.preference_policy = settings.preference_policy == "Ignore"
                                    ? provisioning::PreferencePolicy::kIgnore
                                    : provisioning::PreferencePolicy::kRespect;
  scheduler.min_values_policy = settings.min_values_policy == "BestEffort"
                                    ? provisioning::MinValuesPolicy::kBestEffort
                                    : provisioning::MinValuesPolicy::kStrict;
  options.provisioner.batch_idle_millis = Millis(settings.batch_idle_duration);
  options.provisioner.batch_max_millis = Millis(settings.batch_max_duration);
  options.provisioner.scheduler = scheduler;
  options.disruption.engine.scheduler = scheduler;
  options.disruption.engine.spot_to_spot_consolidation =
      settings.feature_gates.spot_to_spot_consolidation;
  options.node_class_refresh_millis =
      std::min(Millis(settings.ami_refresh_interval), Millis(settings.subnet_refresh_interval));
  options.reserved_capacity = settings.feature_gates.reserved_capacity;
  options.cluster_name = settings.cluster_name;
  return options;
}

Manager::Manager(ManagerSeams seams, ManagerOptions options)
    : seams_(seams),
      recorder_(seams.clock, seams.recorder),
      own_unavailable_(seams.clock, [] { return kUnavailableOfferingsTtlMillis; }),
      unavailable_(seams.unavailable != nullptr ? *seams.unavailable : own_unavailable_),
      lifecycle_cloud_(seams.cloud, seams.metrics, seams.clock, "nodeclaim.lifecycle"),
      termination_cloud_(seams.cloud, seams.metrics, seams.clock, "node.termination"),
      expiration_cloud_(seams.cloud, seams.metrics, seams.clock, "nodeclaim.expiration"),
      garbage_collection_cloud_(seams.cloud, seams.metrics, seams.clock,
                                "nodeclaim.garbagecollection"),
      instance_garbage_collection_cloud_(seams.cloud, seams.metrics, seams.clock,
                                         "instance.garbagecollection"),
      provisioner_cloud_(seams.cloud, seams.metrics, seams.clock, "provisioner"),
      disruption_cloud_(seams.cloud, seams.metrics, seams.clock, "disruption"),
      offering_metrics_cloud_(seams.cloud, seams.metrics, seams.clock, "cloudprovider.metrics"),
      provisioner_(controllers::ProvisionerSeams{seams.clock, seams.reader, seams.writer, recorder_,
                                                 seams.metrics, seams.logger, &provisioner_cloud_,
                                                 &deletion_marks_},
                   std::move(options.provisioner)),
      lifecycle_(controllers::LifecycleSeams{seams.clock, seams.reader, seams.writer,
                                             lifecycle_cloud_, recorder_, seams.metrics, health_,
                                             seams.logger}),
      evictions_(seams.clock, seams.reader, seams.writer, recorder_, seams.metrics),
      termination_(
          controllers::TerminationSeams{seams.clock, seams.reader, seams.writer, termination_cloud_,
                                        recorder_, seams.metrics, seams.logger},
          evictions_),
      disruption_(controllers::DisruptionSeams{seams.clock, seams.reader, seams.writer, recorder_,
                                               seams.metrics, seams.logger, &disruption_cloud_,
                                               &deletion_marks_},
                  std::move(options.disruption)),
      expiration_(controllers::CleanupSeams{seams.clock, seams.reader, seams.writer,
                                            expiration_cloud_, seams.metrics}),
      garbage_collection_(controllers::CleanupSeams{seams.clock, seams.reader, seams.writer,
                                                    garbage_collection_cloud_, seams.metrics}),
      instance_garbage_collection_(
          controllers::CleanupSeams{seams.clock, seams.reader, seams.writer,
                                    instance_garbage_collection_cloud_, seams.metrics}),
      consistency_(seams.clock, seams.reader, seams.writer, recorder_),
      readiness_(seams.clock, seams.reader, seams.writer),
      hash_(controllers::NodePoolSeams{seams.clock, seams.reader, seams.writer}),
      counter_(controllers::NodePoolSeams{seams.clock, seams.reader, seams.writer}),
      pod_events_(controllers::PodEventSeams{seams.clock, seams.reader, seams.writer}),
      state_metrics_(seams.clock, seams.reader, seams.metrics),
      offering_metrics_(seams.clock, seams.reader, offering_metrics_cloud_, seams.metrics,
                        options.reserved_capacity),
      nodeclaim_status_(seams.clock, seams.reader, seams.metrics, "NodeClaim"),
      nodepool_status_(seams.clock, seams.reader, seams.metrics, "NodePool"),
      node_status_(seams.clock, seams.reader, seams.metrics, "Node"),
      ec2nodeclass_status_(seams.clock, seams.reader, seams.metrics, "EC2NodeClass"),
      interruption_(unavailable_, seams.metrics, InterruptionHooksOverApi()) {
  if (seams.resolve_node_class) {
    node_classes_ = std::make_unique<controllers::NodeClassStatusController>(
        seams.clock, seams.reader, seams.writer, seams.resolve_node_class,
        options.node_class_refresh_millis);
    node_class_termination_ = std::make_unique<controllers::NodeClassTermination>(
        seams.clock, seams.reader, seams.writer, recorder_, seams.clean_up_node_class);
  }
  if (seams.tag_instance) {
    tagging_ = std::make_unique<controllers::NodeClaimTagging>(
        seams.clock, seams.reader, seams.writer, seams.tag_instance, options.cluster_name);
  }
  if (seams.collect_instance_profiles) {
    instance_profile_gc_ = std::make_unique<controllers::InstanceProfileGarbageCollection>(
        seams.clock, seams.reader, seams.collect_instance_profiles);
  }
}

void Manager::Start() {
  provisioner_.Start();
  lifecycle_.Start();
  termination_.Start();
  disruption_.Start();
  expiration_.Start();
  garbage_collection_.Start();
  instance_garbage_collection_.Start();
  consistency_.Start();
  readiness_.Start();
  hash_.Start();
  counter_.Start();
  pod_events_.Start();
  state_metrics_.Start();
  offering_metrics_.Start();
  nodeclaim_status_.Start();
  nodepool_status_.Start();
  node_status_.Start();
  ec2nodeclass_status_.Start();
  if (node_classes_) node_classes_->Start();
  if (node_class_termination_) node_class_termination_->Start();
  if (tagging_) tagging_->Start();
  if (instance_profile_gc_) instance_profile_gc_->Start();
  if (seams_.interruption_queue != nullptr) {
    interruption_loop_ = std::make_unique<controllers::SingletonLoop>(
        "interruption", seams_.clock,
        [this] { return interruption_.Reconcile(*seams_.interruption_queue, seams_.clock); });
    interruption_loop_->Start();
  }
}

std::optional<controllers::InterruptedInstance> Manager::FindInstance(
    const std::string& instance_id) {
  for (const api::Object& object : seams_.reader.List("NodeClaim")) {
    const auto& claim = std::get<api::NodeClaim>(object);
    if (claim.status.provider_id.empty() || InstanceIdOf(claim.status.provider_id) != instance_id) {
      continue;
    }
    const auto& labels = claim.metadata.labels;
    return controllers::InterruptedInstance{
        .instance_id = instance_id,
        .node_claim = claim.metadata.name,
        .node_pool = controllers::LabelOf(labels, api::kNodePoolLabelKey),
        .offering = OfferingRef{controllers::LabelOf(labels, api::kLabelInstanceTypeStable),
                                controllers::LabelOf(labels, api::kLabelTopologyZone),
                                controllers::LabelOf(labels, api::kCapacityTypeLabelKey)}};
  }
  return std::nullopt;
}

controllers::InterruptionHooks Manager::InterruptionHooksOverApi() {
  return controllers::InterruptionHooks{
      .find = [this](const std::string& id) { return FindInstance(id); },
      .received =
          [this](const controllers::InterruptedInstance& instance,
                 const interruption::Message& message, const interruption::Action& action) {
            std::optional<api::Object> object =
                seams_.reader.Get(ObjectKey{"NodeClaim", "", instance.node_claim});
            const auto* claim = object ? std::get_if<api::NodeClaim>(&*object) : nullptr;
            const std::string kind(interruption::KindName(message.kind));
            if (action.delete_node_claim && seams_.logger != nullptr && claim != nullptr &&
                !claim->metadata.deletion_timestamp) {
              std::vector<LogField> fields = {{"controller", "interruption"},
                                              {"messageKind", kind},
                                              {"NodeClaim", instance.node_claim},
                                              {"action", "CordonAndDrain"}};
              if (!claim->status.node_name.empty()) {
                fields.push_back({"Node", claim->status.node_name});
              }
              seams_.logger->Info("initiating delete from interruption message", fields);
            }
            if (action.event_reason.empty()) return;
            recorder_.Publish(
                Event{ObjectReference{"NodeClaim", "", instance.node_claim,
                                      claim != nullptr ? claim->metadata.uid : std::string()},
                      EventType::kWarning, std::string(action.event_reason),
                      absl::StrCat(kind, " for instance ", instance.instance_id)});
          },
      .delete_node_claim =
          [this](const controllers::InterruptedInstance& instance) {
            DeleteNodeClaim(instance.node_claim, 0);
          },
  };
}

void Manager::DeleteNodeClaim(const std::string& name, int attempt) {
  // Termination cordons, drains and terminates through the NodeClaim's finalizer. The message
  // is gone from the queue already: a failed delete is retried here, with backoff, for about
  // two minutes (a spot instance's notice); after that garbage collection finds the instance.
  constexpr int kAttempts = 8;
  const absl::Status deleted = seams_.writer.Delete(ObjectKey{"NodeClaim", "", name});
  if (deleted.ok() || absl::IsNotFound(deleted) || attempt + 1 >= kAttempts) return;
  const int64_t delay = int64_t{1000} << std::min(attempt, 4);
  seams_.clock.After(delay, [this, name, attempt] { DeleteNodeClaim(name, attempt + 1); });
}

}  // namespace karpenter::manager
