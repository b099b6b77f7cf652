// The twin's EC2: which offerings (instance type × zone × capacity type) exist and what they
// cost, from the embedded catalog, and when RunInstances/CreateFleet fails with
// InsufficientInstanceCapacity (the scenario's capacity faults).
#pragma once

#include <string_view>
#include <vector>

#include "karpenter/common/status.h"
#include "src/cloudprovider/catalog.h"
#include "src/sim/event_queue.h"
#include "src/sim/scenario.h"

namespace karpenter::sim {

class Ec2 {
 public:
  Ec2(const cloudprovider::Catalog& catalog, std::vector<CapacityFault> faults)
      : catalog_(catalog), faults_(std::move(faults)) {}

  const cloudprovider::Catalog& catalog() const { return catalog_; }

  // The hourly price of an offering; NotFound when the catalog does not offer it there.
  absl::StatusOr<double> Price(std::string_view instance_type, std::string_view zone,
                               std::string_view capacity_type) const;

  // One instance: its price, ResourceExhausted (InsufficientInstanceCapacity) inside a fault
  // window, NotFound for an offering that does not exist.
  absl::StatusOr<double> RunInstance(std::string_view instance_type, std::string_view zone,
                                     std::string_view capacity_type, SimMillis now) const;

  // An instance launched now will never register as a Node.
  bool NeverRegisters(std::string_view instance_type, std::string_view zone,
                      std::string_view capacity_type, SimMillis now) const;

 private:
  const cloudprovider::Catalog& catalog_;
  std::vector<CapacityFault> faults_;
};

}  // namespace karpenter::sim
