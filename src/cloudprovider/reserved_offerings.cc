#include "src/cloudprovider/reserved_offerings.h"

#include <string>

#include "src/api/karpenter_labels.h"

namespace karpenter::cloudprovider {
namespace {

bool LaunchableIn(const InstanceType& type, std::string_view zone) {
  for (const Offering& offering : type.offerings) {
    if (offering.zone == zone && offering.available && offering.reservation_id.empty()) {
      return true;
    }
  }
  return false;
}

}  // namespace

bool HasReservationFor(std::string_view type_name,
                       std::span<const api::CapacityReservation> reservations) {
  for (const api::CapacityReservation& reservation : reservations) {
    if (reservation.instance_type == type_name) return true;
  }
  return false;
}

std::vector<Offering> ReservedOfferings(const Catalog& catalog, const InstanceType& type,
                                        std::span<const api::CapacityReservation> reservations) {
  return ReservedOfferings(catalog.OnDemandPrice(type.name).value_or(0), type, reservations);
}

std::vector<Offering> ReservedOfferings(double on_demand_price, const InstanceType& type,
                                        std::span<const api::CapacityReservation> reservations) {
  std::vector<Offering> offerings;
  const double price = on_demand_price / kReservedPriceDivisor;
  for (const api::CapacityReservation& reservation : reservations) {
    if (reservation.instance_type != type.name) continue;
    const int64_t capacity = reservation.available_instance_count.value_or(0);
    // ApplyDefaults fills these in for decoded objects; a hand-built one may leave them empty.
    const std::string reservation_type =
        reservation.reservation_type.empty() ? "default" : reservation.reservation_type;
    offerings.push_back({.zone = reservation.availability_zone,
                         .capacity_type = std::string(api::kCapacityTypeReserved),
                         .price = price,
                         .available = capacity > 0 && reservation.state != "expiring" &&
                                      LaunchableIn(type, reservation.availability_zone),
                         .reservation_id = reservation.id,
                         .reservation_type = reservation_type,
                         .reservation_interruptible = reservation.interruptible,
                         .reservation_capacity = capacity});
  }
  return offerings;
}

void AddReservedOfferings(std::span<const api::CapacityReservation> reservations,
                          std::vector<InstanceType>& types) {
  for (InstanceType& type : types) {
    if (!HasReservationFor(type.name, reservations)) continue;
    double on_demand = 0;
    for (const Offering& offering : type.offerings) {
      if (offering.capacity_type == api::kCapacityTypeOnDemand && offering.price > 0) {
        on_demand = offering.price;
        break;
      }
    }
    for (Offering& reserved : ReservedOfferings(on_demand, type, reservations)) {
      type.offerings.push_back(std::move(reserved));
    }
  }
}

}  // namespace karpenter::cloudprovider
