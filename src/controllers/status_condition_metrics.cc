#include "src/controllers/status_condition_metrics.h"

#include <utility>
#include <variant>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace karpenter::controllers {
namespace {

struct ConditionView {
  std::string type;
  std::string status;
  std::string reason;
  std::optional<api::Time> last_transition_time;
};

template <class C>
std::vector<ConditionView> ViewsOf(const std::vector<C>& conditions) {
  std::vector<ConditionView> views;
  for (const C& condition : conditions) {
    views.push_back(
        {condition.type, condition.status, condition.reason, condition.last_transition_time});
  }
  return views;
}

// The status conditions of the kinds this controller is for; none for others.
std::vector<ConditionView> ConditionsOf(const api::Object& object) {
  if (const auto* claim = std::get_if<api::NodeClaim>(&object)) {
    return ViewsOf(claim->status.conditions);
  }
  if (const auto* pool = std::get_if<api::NodePool>(&object)) {
    return ViewsOf(pool->status.conditions);
  }
  if (const auto* node = std::get_if<api::Node>(&object)) return ViewsOf(node->status.conditions);
  if (const auto* node_class = std::get_if<api::EC2NodeClass>(&object)) {
    return ViewsOf(node_class->status.conditions);
  }
  return {};
}

double Seconds(api::Duration duration) { return static_cast<double>(duration.Nanos()) / 1e9; }

}  // namespace

StatusConditionMetrics::StatusConditionMetrics(Clock& clock, ClusterReader& reader,
                                               Metrics& metrics, std::string kind)
    : clock_(clock),
      reader_(reader),
      metrics_(metrics),
      kind_(std::move(kind)),
      prefix_(absl::StrCat("operator_", absl::AsciiStrToLower(kind_), "_status_condition_")),
      controller_(absl::StrCat("operatorpkg.", absl::AsciiStrToLower(kind_), ".status"), clock,
                  [this](const std::string& name) { return Reconcile(name); }) {}

void StatusConditionMetrics::Start() {
  reader_.Watch(kind_, [this](const ObjectKey& key) { controller_.Enqueue(key.name); });
  for (const api::Object& object : reader_.List(kind_)) controller_.Enqueue(KeyOf(object).name);
}

std::string StatusConditionMetrics::Name(std::string_view suffix) const {
  return absl::StrCat(prefix_, std::string(suffix));
}

void StatusConditionMetrics::DropSeries(const std::string& name,
                                        const std::set<MetricLabels>& keep) {
  auto published = published_.find(name);
  if (published == published_.end()) return;
  for (const MetricLabels& labels : published->second) {
    if (keep.contains(labels)) continue;
    metrics_.Delete(Name("count"), labels);
    metrics_.Delete(Name("current_status_seconds"), labels);
  }
}

absl::StatusOr<ReconcileResult> StatusConditionMetrics::Reconcile(const std::string& name) {
  std::optional<api::Object> object = reader_.Get(ObjectKey{kind_, "", name});
  if (!object) {
    DropSeries(name, {});
    published_.erase(name);
    seen_.erase(name);
    return ReconcileResult{};
  }
  const api::Time now = clock_.Now();
  std::map<std::string, Seen> current;
  std::set<MetricLabels> series;
  for (const ConditionView& condition : ConditionsOf(*object)) {
    MetricLabels labels = {{"namespace", ""},
                           {"name", name},
                           {"type", condition.type},
                           {"status", condition.status},
                           {"reason", condition.reason}};
    metrics_.Set(Name("count"), labels, 1);
    if (condition.last_transition_time) {
      metrics_.Set(Name("current_status_seconds"), labels,
                   Seconds(now - *condition.last_transition_time));
    }
    series.insert(std::move(labels));
    current[condition.type] = {condition.status, condition.reason, condition.last_transition_time};
  }
  // A condition gone, or with another status or reason, leaves no series behind (upstream keeps
  // the old reason's series when only the reason changes).
  DropSeries(name, series);
  published_[name] = std::move(series);

  const std::map<std::string, Seen> before = std::exchange(seen_[name], current);
  for (const auto& [type, condition] : current) {
    auto previous = before.find(type);
    if (previous != before.end() && previous->second.status == condition.status) continue;
    metrics_.Add(Name("transitions_total"),
                 {{"type", type}, {"status", condition.status}, {"reason", condition.reason}}, 1);
    if (previous == before.end() || !previous->second.last_transition_time ||
        !condition.last_transition_time) {
      continue;
    }
    metrics_.Observe(
        Name("transition_seconds"), {{"type", type}, {"status", previous->second.status}},
        Seconds(*condition.last_transition_time - *previous->second.last_transition_time));
  }
  return ReconcileResult{.requeue_after_millis = kStatusConditionMetricsRequeueMillis};
}

}  // namespace karpenter::controllers
