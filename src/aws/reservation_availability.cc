// Upstream: pkg/providers/capacityreservation/types.go (availabilityCache).
#include "src/aws/reservation_availability.h"

namespace karpenter::aws {

void ReservationAvailability::Sync(const std::vector<api::CapacityReservation>& reservations) {
  const absl::Time now = clock_.Now();
  absl::MutexLock lock(&mu_);
  for (const api::CapacityReservation& reservation : reservations) {
    entries_[reservation.id] = {.count = reservation.available_instance_count.value_or(0),
                                .synced = now};
  }
}

int64_t ReservationAvailability::Available(const api::CapacityReservation& reservation) {
  absl::MutexLock lock(&mu_);
  auto [it, added] = entries_.try_emplace(
      reservation.id, Entry{.count = reservation.available_instance_count.value_or(0),
                            .synced = absl::InfinitePast()});
  return it->second.count;
}

void ReservationAvailability::MarkLaunched(const std::string& reservation_id) {
  const absl::Time now = clock_.Now();
  absl::MutexLock lock(&mu_);
  auto it = entries_.find(reservation_id);
  // EC2 is eventually consistent: rather over- than underestimate what is left, as upstream.
  if (it == entries_.end() || it->second.synced > now || it->second.count == 0) return;
  --it->second.count;
}

void ReservationAvailability::MarkTerminated(const std::string& reservation_id) {
  absl::MutexLock lock(&mu_);
  auto it = entries_.find(reservation_id);
  if (it != entries_.end()) ++it->second.count;
}

void ReservationAvailability::MarkUnavailable(const std::string& reservation_id) {
  absl::MutexLock lock(&mu_);
  auto it = entries_.find(reservation_id);
  if (it != entries_.end()) it->second.count = 0;
}

}  // namespace karpenter::aws
