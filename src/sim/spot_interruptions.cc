#include "src/sim/spot_interruptions.h"

#include <algorithm>
#include <cmath>

#include "fmt/format.h"
#include "src/api/json_writer.h"

namespace karpenter::sim {
namespace {

// Mixes the run's seed into a stream of its own (splitmix64 constant).
constexpr uint64_t kStreamSalt = 0x9e3779b97f4a7c15ULL;

bool Covers(const CapacityFault& fault, const Instance& instance) {
  if (instance.request.capacity_type != "spot") return false;
  if (!fault.instance_type.empty() && fault.instance_type != instance.request.instance_type) {
    return false;
  }
  return fault.zones.empty() || std::find(fault.zones.begin(), fault.zones.end(),
                                          instance.request.zone) != fault.zones.end();
}

std::string Ec2Event(std::string_view detail_type, const std::string& instance_id,
                     const std::string& region, api::Time at, const std::string& id,
                     std::string_view detail_key, std::string_view detail_value) {
  api::JsonWriter json;
  json.BeginObject();
  json.Key("version");
  json.String("0");
  json.Key("id");
  json.String(id);
  json.Key("detail-type");
  json.String(detail_type);
  json.Key("source");
  json.String("aws.ec2");
  json.Key("account");
  json.String("123456789012");
  json.Key("time");
  json.String(at.Rfc3339());
  json.Key("region");
  json.String(region);
  json.Key("resources");
  json.BeginArray();
  json.String(fmt::format("arn:aws:ec2:{}:123456789012:instance/{}", region, instance_id));
  json.EndArray();
  json.Key("detail");
  json.BeginObject();
  json.Key("instance-id");
  json.String(instance_id);
  if (!detail_key.empty()) {
    json.Key(detail_key);
    json.String(detail_value);
  }
  json.EndObject();
  json.EndObject();
  return json.Take();
}

}  // namespace

std::string SpotInterruptionWarningEvent(const std::string& instance_id, const std::string& region,
                                         api::Time at, uint64_t sequence) {
  return Ec2Event("EC2 Spot Instance Interruption Warning", instance_id, region, at,
                  fmt::format("spot-{:08d}", sequence), "instance-action", "terminate");
}

SpotInterruptions::SpotInterruptions(Cluster& cluster, const std::vector<CapacityFault>& faults,
                                     uint64_t seed)
    : cluster_(cluster), random_(seed ^ kStreamSalt) {
  for (const CapacityFault& fault : faults) {
    if (fault.kind == FaultKind::kSpotInterruptions) faults_.push_back(fault);
  }
}

void SpotInterruptions::Start() {
  for (const CapacityFault& fault : faults_) {
    const SimMillis from = SecondsToMillis(fault.from_seconds);
    const SimMillis to = SecondsToMillis(fault.to_seconds);
    for (SimMillis at = from + kSpotReclaimTickMillis; at <= to; at += kSpotReclaimTickMillis) {
      cluster_.queue().At(at, [this, &fault] { Tick(fault); });
    }
  }
}

void SpotInterruptions::Tick(const CapacityFault& fault) {
  const double hours = MillisToSeconds(kSpotReclaimTickMillis) / 3600.0;
  const double probability = 1.0 - std::exp(-fault.rate_per_hour * hours);
  std::vector<std::string> hit;
  for (const auto& [id, instance] : cluster_.instances()) {
    if (instance.phase == NodePhase::kTerminated || warned_.contains(id)) continue;
    if (!Covers(fault, instance)) continue;
    if (random_.Uniform01() < probability) hit.push_back(id);
  }
  for (const std::string& id : hit) Interrupt(id);
}

void SpotInterruptions::Interrupt(const std::string& id) {
  warned_.insert(id);
  ++interrupted_;
  // Whatever takes its pods away from now on (Karpenter's drain on the notice, or the reclaim
  // itself), they are lost to the interruption.
  cluster_.SetRemovalCause(id, PodSet::kInterruption);
  const Instance& instance = cluster_.instances().at(id);
  cluster_.log().Record(
      cluster_.queue().now(), "SpotInterruptionWarning",
      {Str("instance", id), Str("node", instance.node.metadata.name),
       Str("instanceType", instance.request.instance_type), Str("zone", instance.request.zone)});
  const std::string& zone = instance.request.zone;
  const std::string region = zone.empty() ? zone : zone.substr(0, zone.size() - 1);
  if (sink_) {
    // EC2 may send the rebalance recommendation as late as with the interruption notice; the
    // twin sends it then (Karpenter only records it).
    sink_(Ec2Event("EC2 Instance Rebalance Recommendation", id, region, cluster_.queue().Now(),
                   fmt::format("rebalance-{:08d}", interrupted_), "", ""));
    sink_(SpotInterruptionWarningEvent(id, region, cluster_.queue().Now(), interrupted_));
  }
  cluster_.queue().After(kSpotInterruptionWarningMillis, [this, id, region] {
    const auto it = cluster_.instances().find(id);
    if (it == cluster_.instances().end() || it->second.phase == NodePhase::kTerminated) return;
    cluster_.log().Record(cluster_.queue().now(), "SpotInstanceReclaimed", {Str("instance", id)});
    cluster_.TerminateInstance(id);
    if (sink_) {
      sink_(Ec2Event("EC2 Instance State-change Notification", id, region, cluster_.queue().Now(),
                     fmt::format("state-{:08d}", interrupted_), "state", "shutting-down"));
    }
    if (on_reclaimed_) on_reclaimed_(id);
  });
}

}  // namespace karpenter::sim
