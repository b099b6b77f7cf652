// Upstream: pkg/controllers/provisioning/scheduling/reservationmanager.go
// Capacity reservations during one solve: every NodeClaim the solve opens holds, by its
// placeholder hostname, the reservations it could launch into, so no two claims count on the same
// reserved instance. Reservations are counted across NodePools: pools sharing an EC2NodeClass (or
// classes selecting the same reservation) draw from one count.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <string>
#include <string_view>

#include "src/provisioning/types.h"

namespace karpenter::provisioning {

class ReservationManager {
 public:
  ReservationManager() = default;
  // Counts every reservation the pools' reserved offerings name. When offerings of one
  // reservation disagree on its capacity (two classes resolved at different times), the smallest
  // count is kept.
  explicit ReservationManager(std::span<const NodePoolInstanceTypes> pools);

  // Whether `hostname` holds `reservation_id` already or one instance of it is left. Idempotent:
  // asking again never changes the answer on its own.
  bool CanReserve(std::string_view hostname, std::string_view reservation_id) const;
  // Takes one instance of each reservation `hostname` does not hold yet and can reserve; holding
  // one already is a no-op, so a claim may reserve again after every pod it gains.
  void Reserve(std::string_view hostname, std::span<const std::string> reservation_ids);
  // Gives back what `hostname` holds of `reservation_id` (nothing when it holds none).
  void Release(std::string_view hostname, std::string_view reservation_id);

  // No reserved offering in the solve: claims need not consult the manager at all.
  bool empty() const { return capacity_.empty(); }

  bool HasReservation(std::string_view hostname, std::string_view reservation_id) const;
  // Instances of the reservation not yet held by any claim; 0 for an unknown reservation.
  int64_t RemainingCapacity(std::string_view reservation_id) const;

 private:
  std::map<std::string, std::set<std::string, std::less<>>, std::less<>> held_;  // By hostname.
  std::map<std::string, int64_t, std::less<>> capacity_;  // By reservation ID.
};

}  // namespace karpenter::provisioning
