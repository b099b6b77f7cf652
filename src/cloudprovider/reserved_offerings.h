// Upstream: pkg/providers/instancetype/offering/reserved_capacity_resolver.go in
// aws/karpenter-provider-aws.
// Reserved offerings: one per capacity reservation an EC2NodeClass's status lists for a type,
// launchable only into that reservation's zone and only while it has instances to give.
#pragma once

#include <span>
#include <vector>

#include "src/api/ec2nodeclass.h"
#include "src/cloudprovider/catalog.h"
#include "src/cloudprovider/instance_type.h"

namespace karpenter::cloudprovider {

// A reserved instance is already paid for: its offering costs the on-demand price divided by
// this, so it is always the cheapest choice while prices still rank types for consolidation.
inline constexpr double kReservedPriceDivisor = 10'000'000.0;

// The reserved offerings of `type` from `reservations` (those whose instanceType is the type), in
// reservation order. One is available when its reservation has instances left
// (availableInstanceCount > 0), is not `expiring` (a capacity block inside its reclaim window),
// and `type` has an available offering in the reservation's zone (the zone offers the type and
// the AMI family runs it). Priced at the catalog's on-demand price / kReservedPriceDivisor, or 0
// when the catalog has no price.
std::vector<Offering> ReservedOfferings(const Catalog& catalog, const InstanceType& type,
                                        std::span<const api::CapacityReservation> reservations);
// The same with the type's on-demand price given (the AWS provider's, from the Pricing API).
std::vector<Offering> ReservedOfferings(double on_demand_price, const InstanceType& type,
                                        std::span<const api::CapacityReservation> reservations);

// Adds to each of `types` its reserved offerings, priced from its own on-demand offerings (the
// same price in every zone): what a provider reading types from EC2 offers.
void AddReservedOfferings(std::span<const api::CapacityReservation> reservations,
                          std::vector<InstanceType>& types);

// Whether some reservation names `type_name`: only then does the type need a copy with reserved
// offerings.
bool HasReservationFor(std::string_view type_name,
                       std::span<const api::CapacityReservation> reservations);

}  // namespace karpenter::cloudprovider
