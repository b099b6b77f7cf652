#include "src/sim/ec2.h"

#include <algorithm>

#include "fmt/format.h"

namespace karpenter::sim {
namespace {

bool FaultCovers(const CapacityFault& fault, std::string_view instance_type, std::string_view zone,
                 std::string_view capacity_type, double now_seconds) {
  if (fault.instance_type != instance_type || fault.capacity_type != capacity_type) return false;
  if (now_seconds < fault.from_seconds || now_seconds >= fault.to_seconds) return false;
  return fault.zones.empty() ||
         std::find(fault.zones.begin(), fault.zones.end(), zone) != fault.zones.end();
}

}  // namespace

absl::StatusOr<double> Ec2::Price(std::string_view instance_type, std::string_view zone,
                                  std::string_view capacity_type) const {
  const cloudprovider::InstanceType* type = catalog_.Find(instance_type);
  if (type != nullptr) {
    for (const cloudprovider::Offering& offering : type->offerings) {
      if (offering.available && offering.zone == zone && offering.capacity_type == capacity_type) {
        return offering.price;
      }
    }
  }
  return absl::NotFoundError(
      fmt::format("no {} offering of {} in {}", capacity_type, instance_type, zone));
}

absl::StatusOr<double> Ec2::RunInstance(std::string_view instance_type, std::string_view zone,
                                        std::string_view capacity_type, SimMillis now) const {
  KP_ASSIGN_OR_RETURN(double price, Price(instance_type, zone, capacity_type));
  for (const CapacityFault& fault : faults_) {
    if (fault.kind == FaultKind::kInsufficientCapacity &&
        FaultCovers(fault, instance_type, zone, capacity_type, MillisToSeconds(now))) {
      return absl::ResourceExhaustedError(fmt::format("InsufficientInstanceCapacity: {} {} in {}",
                                                      instance_type, capacity_type, zone));
    }
  }
  return price;
}

bool Ec2::NeverRegisters(std::string_view instance_type, std::string_view zone,
                         std::string_view capacity_type, SimMillis now) const {
  for (const CapacityFault& fault : faults_) {
    if (fault.kind == FaultKind::kNeverRegisters &&
        FaultCovers(fault, instance_type, zone, capacity_type, MillisToSeconds(now))) {
      return true;
    }
  }
  return false;
}

}  // namespace karpenter::sim
