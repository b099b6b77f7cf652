// Rules on the EC2NodeClass status (what the API server enforces on status writes, and what a
// `kubectl get -o yaml` snapshot must satisfy). Required strings count as missing when empty.
#include <string>

#include "src/api/ec2nodeclass_validation_internal.h"

namespace karpenter::api::ec2nodeclass_internal {
namespace {

void RequireNonEmpty(const std::string& path, const std::string& value, FieldErrors* errors) {
  if (value.empty()) errors->Required(path);
}

void ValidateCapacityReservation(const CapacityReservation& reservation, const std::string& path,
                                 FieldErrors* errors) {
  RequireNonEmpty(ChildPath(path, "availabilityZone"), reservation.availability_zone, errors);
  if (reservation.id.empty()) {
    errors->Required(ChildPath(path, "id"));
  } else {
    CheckPattern(ChildPath(path, "id"), reservation.id, kCapacityReservationIdPattern, errors);
  }
  if (reservation.instance_match_criteria.empty()) {
    errors->Required(ChildPath(path, "instanceMatchCriteria"));
  } else {
    CheckEnum(ChildPath(path, "instanceMatchCriteria"), reservation.instance_match_criteria,
              {"open", "targeted"}, errors);
  }
  RequireNonEmpty(ChildPath(path, "instanceType"), reservation.instance_type, errors);
  if (reservation.owner_id.empty()) {
    errors->Required(ChildPath(path, "ownerID"));
  } else {
    CheckPattern(ChildPath(path, "ownerID"), reservation.owner_id, kOwnerIdPattern, errors);
  }
  // Empty means absent: ApplyDefaults fills these in.
  if (!reservation.reservation_type.empty()) {
    CheckEnum(ChildPath(path, "reservationType"), reservation.reservation_type,
              {"default", "capacity-block"}, errors);
  }
  if (!reservation.state.empty()) {
    CheckEnum(ChildPath(path, "state"), reservation.state, {"active", "expiring"}, errors);
  }
  if (reservation.available_instance_count && *reservation.available_instance_count < 0) {
    errors->Invalid(ChildPath(path, "availableInstanceCount"),
                    std::to_string(*reservation.available_instance_count),
                    "must be greater than or equal to 0");
  }
}

void ValidateCondition(const Condition& condition, const std::string& path, FieldErrors* errors) {
  const std::string type_path = ChildPath(path, "type");
  if (condition.type.empty()) {
    errors->Required(type_path);
  } else {
    if (condition.type.size() > 316) errors->TooLong(type_path, 316);
    CheckPattern(type_path, condition.type, kConditionTypePattern, errors);
  }
  if (condition.status.empty()) {
    errors->Required(ChildPath(path, "status"));
  } else {
    CheckEnum(ChildPath(path, "status"), condition.status, {"True", "False", "Unknown"}, errors);
  }
  CheckMinimum(ChildPath(path, "observedGeneration"), condition.observed_generation, 0, errors);
  if (!condition.last_transition_time) errors->Required(ChildPath(path, "lastTransitionTime"));
  const std::string reason_path = ChildPath(path, "reason");
  if (condition.reason.empty()) {
    errors->Required(reason_path);  // also minLength 1
  } else {
    if (condition.reason.size() > 1024) errors->TooLong(reason_path, 1024);
    CheckPattern(reason_path, condition.reason, kConditionReasonPattern, errors);
  }
  if (condition.message.size() > 32768) errors->TooLong(ChildPath(path, "message"), 32768);
}

}  // namespace

void ValidateStatus(const EC2NodeClassStatus& status, const std::string& path,
                    FieldErrors* errors) {
  const std::string subnets_path = ChildPath(path, "subnets");
  for (size_t i = 0; i < status.subnets.size(); ++i) {
    const std::string item = IndexPath(subnets_path, i);
    RequireNonEmpty(ChildPath(item, "id"), status.subnets[i].id, errors);
    RequireNonEmpty(ChildPath(item, "zone"), status.subnets[i].zone, errors);
  }
  const std::string groups_path = ChildPath(path, "securityGroups");
  for (size_t i = 0; i < status.security_groups.size(); ++i) {
    RequireNonEmpty(ChildPath(IndexPath(groups_path, i), "id"), status.security_groups[i].id,
                    errors);
  }
  const std::string reservations_path = ChildPath(path, "capacityReservations");
  for (size_t i = 0; i < status.capacity_reservations.size(); ++i) {
    ValidateCapacityReservation(status.capacity_reservations[i], IndexPath(reservations_path, i),
                                errors);
  }
  const std::string amis_path = ChildPath(path, "amis");
  for (size_t i = 0; i < status.amis.size(); ++i) {
    const AMI& ami = status.amis[i];
    const std::string item = IndexPath(amis_path, i);
    RequireNonEmpty(ChildPath(item, "id"), ami.id, errors);
    const std::string requirements_path = ChildPath(item, "requirements");
    for (size_t j = 0; j < ami.requirements.size(); ++j) {
      const std::string requirement = IndexPath(requirements_path, j);
      RequireNonEmpty(ChildPath(requirement, "key"), ami.requirements[j].key, errors);
      RequireNonEmpty(ChildPath(requirement, "operator"), ami.requirements[j].operator_, errors);
    }
  }
  const std::string conditions_path = ChildPath(path, "conditions");
  for (size_t i = 0; i < status.conditions.size(); ++i) {
    ValidateCondition(status.conditions[i], IndexPath(conditions_path, i), errors);
  }
}

}  // namespace karpenter::api::ec2nodeclass_internal
