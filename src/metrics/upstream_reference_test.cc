// Every metric ../shared/reference/ecosystem.md §1.2 lists as one users build dashboards and
// alerts on is declared by the controller's catalogs (the four its registry is built from), with
// at least the labels upstream puts on it. The e2e scrape (test/controlplane/e2e_article.sh)
// shows which of them carry samples in a real run; this pins the names and label sets, including
// those only failures produce.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "src/metrics/karpenter_metrics.h"

namespace karpenter::metrics {
namespace {

struct Reference {
  std::string name;
  std::vector<std::string> labels;
};

std::vector<Reference> UpstreamReference() {
  const std::vector<std::string> node_labels = {"node_name", "nodepool", "resource_type"};
  std::vector<Reference> reference = {
      {"karpenter_nodes_created_total", {"nodepool", "zone"}},
      {"karpenter_nodes_terminated_total", {"nodepool", "zone"}},
      {"karpenter_nodeclaims_disrupted_total",
       {"reason", "nodepool", "capacity_type", "consolidation_policy", "termination_mode"}},
      {"karpenter_voluntary_disruption_decisions_total",
       {"decision", "reason", "consolidation_type"}},
      {"karpenter_voluntary_disruption_eligible_nodes", {"reason"}},
      {"karpenter_voluntary_disruption_decision_evaluation_duration_seconds",
       {"reason", "consolidation_type"}},
      {"karpenter_pods_state",
       {"name", "namespace", "owner", "node", "nodepool", "zone", "arch", "capacity_type",
        "instance_type", "phase", "scheduled", "ready", "managed"}},
      {"karpenter_pods_startup_duration_seconds", {}},
      {"karpenter_pods_unstarted_time_seconds", {"name", "namespace"}},
      {"karpenter_pods_unbound_time_seconds", {"name", "namespace"}},
      {"karpenter_nodepools_usage", {"nodepool", "resource_type"}},
      {"karpenter_nodepools_limit", {"nodepool", "resource_type"}},
      {"karpenter_nodes_allocatable", node_labels},
      {"karpenter_nodes_total_daemon_requests", node_labels},
      {"karpenter_nodes_total_pod_requests", node_labels},
      {"karpenter_nodes_termination_duration_seconds", {}},
      {"controller_runtime_reconcile_time_seconds", {"controller"}},
      {"controller_runtime_reconcile_total", {"controller", "result"}},
      {"karpenter_build_info", {"version"}},
      {"karpenter_nodeclaims_created_total", {"reason", "nodepool", "min_values_relaxed"}},
      {"karpenter_nodeclaims_terminated_total", {"nodepool"}},
      {"karpenter_scheduler_scheduling_duration_seconds", {"controller"}},
      {"karpenter_scheduler_queue_depth", {"controller", "scheduling_id"}},
      {"karpenter_interruption_received_messages_total", {"message_type"}},
      {"karpenter_interruption_deleted_messages_total", {}},
      {"karpenter_interruption_message_queue_duration_seconds", {}},
      {"karpenter_cluster_state_synced", {}},
      {"karpenter_cluster_state_node_count", {}},
      {"karpenter_cluster_state_unsynced_time_seconds", {}},
      {"client_go_request_total", {"code", "method"}},
      {"client_go_request_duration_seconds", {"verb"}},
      {"aws_sdk_go_request_total", {"service", "action"}},
      {"aws_sdk_go_request_duration_seconds", {"service", "action"}},
      {"aws_sdk_go_request_retry_count", {"service", "action"}},
      {"aws_sdk_go_request_attempt_total", {"service", "action"}},
      {"aws_sdk_go_request_attempt_duration_seconds", {"service", "action"}},
      {"leader_election_master_status", {"name"}},
      {"karpenter_cloudprovider_duration_seconds", {"controller", "method", "provider"}},
      {"karpenter_cloudprovider_instance_type_offering_price_estimate",
       {"instance_type", "capacity_type", "zone"}},
      {"karpenter_cloudprovider_instance_type_offering_available",
       {"instance_type", "capacity_type", "zone"}},
      {"karpenter_cloudprovider_instance_type_cpu_cores", {"instance_type"}},
      {"karpenter_cloudprovider_instance_type_memory_bytes", {"instance_type"}},
      {"karpenter_cloudprovider_instance_launch_failures_total", {"capacity_type", "zone"}},
  };
  for (const char* kind : {"nodeclaim", "nodepool", "node", "ec2nodeclass"}) {
    const std::string prefix = std::string("operator_") + kind + "_status_condition_";
    reference.push_back({prefix + "count", {"type", "status"}});
    reference.push_back({prefix + "current_status_seconds", {"type", "status"}});
    reference.push_back({prefix + "transitions_total", {"type", "status"}});
    reference.push_back({prefix + "transition_seconds", {"type", "status"}});
  }
  return reference;
}

TEST(UpstreamMetricReference, EveryListedMetricIsDeclaredWithUpstreamsLabels) {
  std::map<std::string, MetricDescription> declared;
  for (const std::vector<MetricDescription>& catalog :
       {KarpenterCatalog(), RuntimeCatalog(), OperatorCatalog(), ClientCatalog()}) {
    for (const MetricDescription& description : catalog) declared[description.name] = description;
  }
  for (const Reference& metric : UpstreamReference()) {
    auto it = declared.find(metric.name);
    ASSERT_NE(it, declared.end()) << metric.name << " is not declared";
    for (const std::string& label : metric.labels) {
      const std::vector<std::string>& labels = it->second.labels;
      EXPECT_NE(std::find(labels.begin(), labels.end(), label), labels.end())
          << metric.name << " lacks the label " << label;
    }
  }
}

}  // namespace
}  // namespace karpenter::metrics
