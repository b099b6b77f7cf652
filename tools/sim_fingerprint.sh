#!/usr/bin/env bash
# Writes the twin's outputs that a refactoring must leave byte-identical into OUT_DIR: `--json`
# (wallSeconds removed, it is the only field that varies between runs) and `--events` for the
# built-in scenario at seeds 1–3, every file in examples/sim/ at seed 1 (the 1,000-node day cut
# to its first hour). Compare two directories with `diff -r`.
#
# Usage: tools/sim_fingerprint.sh KARPENTER_BINARY OUT_DIR
set -euo pipefail

readonly BINARY="$1"
readonly OUT="$2"
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mkdir -p "${OUT}"

run() {
  local name="$1"
  shift
  "${BINARY}" sim "$@" --json --events "${OUT}/${name}.events.jsonl" |
    sed -E 's/"wallSeconds": *[0-9.eE+-]+,?//' >"${OUT}/${name}.json"
}

for seed in 1 2 3; do
  run "builtin-seed${seed}" --seed "${seed}"
done
for file in examples/sim/*.yaml; do
  name="$(basename "${file}" .yaml)"
  if [[ "${name}" == day-1000-nodes ]]; then
    run "${name}-first-hour" "${file}" --seed 1 --duration 3600
  else
    run "${name}" "${file}" --seed 1
  fi
done
echo "wrote $(ls "${OUT}" | wc -l) files to ${OUT}"
