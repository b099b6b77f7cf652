#include "src/api/validation.h"

#include <type_traits>

#include "src/api/core_validation.h"
#include "src/api/ec2nodeclass_validation.h"
#include "src/api/nodeclaim_validation.h"
#include "src/api/nodepool_validation.h"

namespace karpenter::api {
namespace {

// Karpenter's CRDs are structural schemas: the API server rejects (strict field validation)
// or prunes fields they do not declare, so for these kinds an unknown field is an error.
// Core kinds are modelled only in part, so their unknown fields are not errors here.
bool IsKarpenterCrd(const Object& object) {
  return std::holds_alternative<NodePool>(object) || std::holds_alternative<NodeClaim>(object) ||
         std::holds_alternative<EC2NodeClass>(object);
}

}  // namespace

void ValidateObject(const Object& object, FieldErrors* errors) {
  std::visit(
      [errors](const auto& typed) {
        using T = std::decay_t<decltype(typed)>;
        if constexpr (std::is_same_v<T, NodePool>) {
          ValidateNodePool(typed, errors);
        } else if constexpr (std::is_same_v<T, NodeClaim>) {
          ValidateNodeClaim(typed, errors);
        } else if constexpr (std::is_same_v<T, EC2NodeClass>) {
          ValidateEC2NodeClass(typed, errors);
        } else {
          ValidateCoreObject(typed, errors);
        }
      },
      object);
}

FieldErrors ValidateManifest(const Manifest& manifest) {
  FieldErrors errors;
  errors.Append(manifest.report.errors);
  if (!manifest.object) return errors;
  if (IsKarpenterCrd(*manifest.object)) {
    for (const std::string& path : manifest.report.unknown_fields) {
      errors.Add(path, "field not declared in schema");
    }
  }
  // Rules run on a best-effort decode too, so one pass shows every problem; but a field that did
  // not decode holds a default the input never had, so its rules are not reported
  // (`weight: 10.5` is not also "0: should be greater than or equal to 1", a mistyped
  // consolidateAfter is not also "Required value").
  FieldErrors rules;
  ValidateObject(*manifest.object, &rules);
  for (const FieldError& error : rules.errors()) {
    if (!manifest.report.errors.Contains(error.path)) errors.Add(error.path, error.message);
  }
  return errors;
}

}  // namespace karpenter::api
