// One entry point that validates any decoded manifest: decode problems, fields a CRD schema
// does not declare, and the kind's own OpenAPI/CEL/runtime rules, all with field paths.
#pragma once

#include "src/api/field_errors.h"
#include "src/api/manifest.h"

namespace karpenter::api {

// Rules of the kind held in `object` (no decode errors).
void ValidateObject(const Object& object, FieldErrors* errors);

// Everything wrong with `manifest`, in the order a user should fix it.
FieldErrors ValidateManifest(const Manifest& manifest);

}  // namespace karpenter::api
