#!/usr/bin/env bash
# THE main-job command: installs what is missing, builds the `release` preset and runs the main job.
#
# Usage: scripts/run.sh              run the main job below
#        scripts/run.sh ARGS...      run `karpenter ARGS...` instead (e.g. `validate -f my.yaml`)
# Environment: KP_JOBS=2 parallel compile jobs.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

readonly JOBS="${KP_JOBS:-2}"
readonly KARPENTER=build/release/cmd/karpenter/karpenter

# ---------------------------------------------------------------------------------------------
# THE MAIN JOB: the arguments given to `karpenter`. The digital twin on its built-in scenario:
# the migration article's Cluster Autoscaler → Karpenter migration, both autoscalers side by side
# on virtual time (see docs/sim.md). The article's manifests are validated first (see main).
readonly ARTICLE_FILES=(
  -f examples/article/ec2nodeclass.yaml
  -f examples/article/nodepool.yaml
  -f examples/article/workload-sample.yaml
)
readonly MAIN_JOB=(sim --seed 1)
# ---------------------------------------------------------------------------------------------

step() { printf '\n==> %s\n' "$*"; }

main() {
  step "setup: build dependencies and moto"
  ./scripts/setup.sh --with-moto

  step "configure + build: release preset, target karpenter (-j${JOBS})"
  cmake --preset release
  cmake --build --preset release -j"${JOBS}" --target karpenter

  local args=("${MAIN_JOB[@]}")
  if [[ "$#" -gt 0 ]]; then
    args=("$@")
  else
    step "validate: ${KARPENTER} validate ${ARTICLE_FILES[*]}"
    "${KARPENTER}" validate "${ARTICLE_FILES[@]}"
  fi
  step "run: ${KARPENTER} ${args[*]}"
  "${KARPENTER}" "${args[@]}"
}

main "$@"
