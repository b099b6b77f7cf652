// Admission-equivalent validation of an EC2NodeClass: every OpenAPI schema rule (required,
// pattern, enum, min/max, maxItems, maxLength, maxProperties) and every CEL rule of the
// v1.14.1 CRD that judges a single object. Errors carry Kubernetes field paths; CEL failures
// carry the CRD's own message text. The CRD has no transition (oldSelf) rules, so nothing is
// left out for lack of a previous version.
//
// Where an error is reported: a rule about one list element or map entry is reported at that
// element (`spec.subnetSelectorTerms[0]`) or key (`spec.tags[eks:eks-cluster-name]`); a rule
// that relates several elements or fields is reported where the CRD declares it
// (`spec.blockDeviceMappings`, `spec.kubelet`, `spec`).
//
// Empty strings, maps and lists count as absent (the Go client's `omitempty` view), so an
// empty required list is reported as "Required value" together with the CRD's own message.
#pragma once

#include "src/api/ec2nodeclass.h"
#include "src/api/field_errors.h"

namespace karpenter::api {

// Appends every violation in `node_class` (spec and status) to `errors`.
void ValidateEC2NodeClass(const EC2NodeClass& node_class, FieldErrors* errors);

}  // namespace karpenter::api
