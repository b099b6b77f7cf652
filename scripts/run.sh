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
# THE MAIN JOB: the arguments given to `karpenter`. Today it validates the migration article's
# manifests; it becomes `sim` (the built-in migration scenario) once the twin lands.
readonly MAIN_JOB=(
  validate
  -f examples/article/ec2nodeclass.yaml
  -f examples/article/nodepool.yaml
  -f examples/article/workload-sample.yaml
)
# ---------------------------------------------------------------------------------------------

step() { printf '\n==> %s\n' "$*"; }

main() {
  step "setup: build dependencies"
  ./scripts/setup.sh

  step "configure + build: release preset, target karpenter (-j${JOBS})"
  cmake --preset release
  cmake --build --preset release -j"${JOBS}" --target karpenter

  local args=("${MAIN_JOB[@]}")
  if [[ "$#" -gt 0 ]]; then
    args=("$@")
  fi
  step "run: ${KARPENTER} ${args[*]}"
  "${KARPENTER}" "${args[@]}"
}

main "$@"
