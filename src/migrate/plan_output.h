// A migration plan as `karpenter migrate -o yaml|json|text` prints it: the manifests as one
// YAML stream headed by the checks and lossy mappings as comments; everything as one JSON
// document; or the article's Phase 1-4 runbook for this cluster with the checks.
#pragma once

#include <string>

#include "src/migrate/migration_plan.h"

namespace karpenter::migrate {

std::string PlanYaml(const MigrationPlan& plan);
std::string PlanJson(const MigrationPlan& plan);
std::string PlanRunbook(const MigrationPlan& plan);

}  // namespace karpenter::migrate
