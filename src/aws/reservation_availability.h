// Upstream: aws/karpenter-provider-aws pkg/providers/capacityreservation/types.go
// (availabilityCache). How many more instances each capacity reservation takes, as this process
// knows it: set from EC2's availableInstanceCount whenever the node class status reconciler
// describes the reservations, one less for every instance launched into a reservation since, and
// zero once EC2 answers ReservationCapacityExceeded. The reserved offerings' availability reads
// it, so a reservation is not offered past its capacity between two status refreshes.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "src/api/ec2nodeclass.h"
#include "src/aws/clock.h"

namespace karpenter::aws {

class ReservationAvailability {
 public:
  explicit ReservationAvailability(Clock& clock) : clock_(clock) {}

  // EC2's counts, as the status reconciler just described them.
  void Sync(const std::vector<api::CapacityReservation>& reservations);
  // What `reservation` takes now. One never synced starts from the status's count (a status
  // written by another process, or before this one started).
  int64_t Available(const api::CapacityReservation& reservation);
  // One instance launched into the reservation. A sync newer than the launch already counts it.
  void MarkLaunched(const std::string& reservation_id);
  // An instance of the reservation is gone: one more fits (until the next sync says otherwise).
  // A reservation this process has never synced is left alone.
  void MarkTerminated(const std::string& reservation_id);
  // EC2 refused the reservation for want of capacity: none left until the next sync.
  void MarkUnavailable(const std::string& reservation_id);

 private:
  struct Entry {
    int64_t count = 0;
    absl::Time synced;
  };
  Clock& clock_;
  mutable absl::Mutex mu_;
  std::map<std::string, Entry> entries_ ABSL_GUARDED_BY(mu_);
};

}  // namespace karpenter::aws
