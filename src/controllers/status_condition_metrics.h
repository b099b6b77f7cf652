// Upstream: awslabs/operatorpkg status (Controller), which Karpenter runs for NodeClaims,
// NodePools and Nodes and its AWS provider for EC2NodeClasses. Per object of one kind, on each
// change and every 10 s, its status conditions become:
//   - operator_<kind>_status_condition_count{namespace,name,type,status,reason}: 1 per
//     condition the object has now;
//   - operator_<kind>_status_condition_current_status_seconds{...}: how long since the
//     condition last transitioned;
//   - operator_<kind>_status_condition_transitions_total{type,status,reason}: a condition seen
//     for the first time, or with another status than last seen;
//   - operator_<kind>_status_condition_transition_seconds{type,status}: how long the previous
//     status lasted (the two lastTransitionTimes apart), labelled by that previous status.
// <kind> is the lower-cased kind ("nodeclaim", "nodepool", "node", "ec2nodeclass"). As upstream,
// transitions are what this controller happened to see: two changes between reconciles are one.
// Series of conditions that are gone or changed, and of objects that are gone, are dropped.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "karpenter/clock.h"
#include "karpenter/kube_cluster.h"
#include "karpenter/metrics.h"
#include "src/api/time.h"
#include "src/controllers/reconciler.h"

namespace karpenter::controllers {

inline constexpr int64_t kStatusConditionMetricsRequeueMillis = 10 * 1000;

class StatusConditionMetrics {
 public:
  // `kind`: NodeClaim, NodePool, Node or EC2NodeClass (cluster-scoped kinds: the key is the name).
  StatusConditionMetrics(Clock& clock, ClusterReader& reader, Metrics& metrics, std::string kind);

  void Start();
  absl::StatusOr<ReconcileResult> Reconcile(const std::string& name);

 private:
  struct Seen {
    std::string status;
    std::string reason;
    std::optional<api::Time> last_transition_time;
  };
  // The metric `operator_<kind>_status_condition_<suffix>`.
  std::string Name(std::string_view suffix) const;
  void DropSeries(const std::string& name, const std::set<MetricLabels>& keep);

  Clock& clock_;
  ClusterReader& reader_;
  Metrics& metrics_;
  const std::string kind_;
  const std::string prefix_;
  // Per object: its conditions as last seen, by type, and the count series published for it.
  std::map<std::string, std::map<std::string, Seen>> seen_;
  std::map<std::string, std::set<MetricLabels>> published_;
  KeyedController controller_;
};

}  // namespace karpenter::controllers
