#include "src/migrate/plan_validation.h"

#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "src/api/validation.h"
#include "src/migrate/plan_output.h"

namespace karpenter::migrate {

absl::Status ValidatePlanManifests(const MigrationPlan& plan) {
  const std::string yaml = PlanYaml(plan);
  KP_ASSIGN_OR_RETURN(std::vector<api::Manifest> manifests,
                      api::DecodeManifests(yaml, "<migrate>"));
  std::vector<std::string> problems;
  for (const api::Manifest& manifest : manifests) {
    const api::FieldErrors errors = api::ValidateManifest(manifest);
    for (const api::FieldError& error : errors.errors()) {
      problems.push_back(manifest.Ref() + ": " + error.ToString());
    }
  }
  if (problems.empty()) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrJoin(problems, "\n"));
}

}  // namespace karpenter::migrate
