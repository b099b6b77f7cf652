#include "src/provisioning/reservation_manager.h"

namespace karpenter::provisioning {

ReservationManager::ReservationManager(std::span<const NodePoolInstanceTypes> pools) {
  for (const NodePoolInstanceTypes& pool : pools) {
    for (const InstanceTypeView& type : pool.instance_types) {
      for (const OfferingView& offering : type.offerings) {
        if (!offering.reserved()) continue;
        auto [it, inserted] =
            capacity_.try_emplace(offering.reservation_id, offering.reservation_capacity);
        if (!inserted && offering.reservation_capacity < it->second) {
          it->second = offering.reservation_capacity;
        }
      }
    }
  }
}

bool ReservationManager::HasReservation(std::string_view hostname,
                                        std::string_view reservation_id) const {
  auto held = held_.find(hostname);
  return held != held_.end() && held->second.contains(reservation_id);
}

bool ReservationManager::CanReserve(std::string_view hostname,
                                    std::string_view reservation_id) const {
  return HasReservation(hostname, reservation_id) || RemainingCapacity(reservation_id) > 0;
}

void ReservationManager::Reserve(std::string_view hostname,
                                 std::span<const std::string> reservation_ids) {
  for (const std::string& id : reservation_ids) {
    if (HasReservation(hostname, id)) continue;
    auto capacity = capacity_.find(id);
    // Callers reserve only what CanReserve allowed; never take an instance that is not there.
    if (capacity == capacity_.end() || capacity->second <= 0) continue;
    --capacity->second;
    auto held = held_.find(hostname);
    if (held == held_.end())
      held = held_.emplace(std::string(hostname), std::set<std::string, std::less<>>()).first;
    held->second.insert(id);
  }
}

void ReservationManager::Release(std::string_view hostname, std::string_view reservation_id) {
  auto held = held_.find(hostname);
  if (held == held_.end()) return;
  auto id = held->second.find(reservation_id);
  if (id == held->second.end()) return;
  held->second.erase(id);
  auto capacity = capacity_.find(reservation_id);
  if (capacity != capacity_.end()) ++capacity->second;
}

int64_t ReservationManager::RemainingCapacity(std::string_view reservation_id) const {
  auto capacity = capacity_.find(reservation_id);
  return capacity == capacity_.end() ? 0 : capacity->second;
}

}  // namespace karpenter::provisioning
