#!/usr/bin/env bash
# THE test command: installs what is missing, checks formatting and banned APIs, builds the `asan`
# preset and runs every ctest test against a real control plane, then builds the libFuzzer targets
# and fuzzes each one briefly, then smoke-tests the control plane itself (scripts/controlplane.sh).
# Exits non-zero on the first failure. Re-runnable: builds are incremental.
#
# Environment:
#   KP_JOBS=2               parallel compile and test jobs
#   KP_FUZZ_SECONDS=20      libFuzzer -max_total_time per target
#   KP_FUZZ_SEED=1          libFuzzer -seed; fixed so a CI run replays the mutations a local run
#                           checked (a shorter run on a slower machine is a prefix of them);
#                           set another value, or 0 for a random one, to explore
#   KP_ALLOW_NO_TESTS=1     accept an empty ctest run (only while the project has no tests yet)
#   KP_SKIP_FUZZ=1          skip the fuzz stage
#   KP_SKIP_CONTROLPLANE=1  start no control plane for ctest (tests that need one read
#                           KP_TEST_KUBECONFIG and skip without it), skip the control plane stage,
#                           and install no Go toolchain; without it, a control plane that cannot
#                           start fails the run
#   KP_NO_CCACHE=1          compile without ccache (by default used when installed, with its own
#                           default cache directory unless CCACHE_DIR is set)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

readonly JOBS="${KP_JOBS:-2}"
readonly FUZZ_SECONDS="${KP_FUZZ_SECONDS:-20}"
readonly FUZZ_SEED="${KP_FUZZ_SEED:-1}"

step() { printf '\n==> %s\n' "$*"; }

die() {
  printf '\nFAILED: %s\n' "$*" >&2
  exit 1
}

list_sources() {
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files -- '*.cc' '*.h'
  else
    find . -path ./build -prune -o -type f \( -name '*.cc' -o -name '*.h' \) -print | sed 's|^\./||'
  fi
}

check_format() {
  local files=() present=() bad=() file
  mapfile -t files < <(list_sources)
  for file in "${files[@]}"; do
    if [[ -f "${file}" ]]; then  # tracked files deleted in the work tree are skipped
      present+=("${file}")
    fi
  done
  # One clang-format process for every file (a process per file took ~40 s of a loaded 2-core
  # machine); only when it fails is each file checked on its own to name the culprits.
  if printf '%s\0' "${present[@]}" |
    xargs -0 clang-format-14 --dry-run --Werror >/dev/null 2>&1; then
    echo "formatting ok (${#files[@]} files)"
    return
  fi
  for file in "${present[@]}"; do
    clang-format-14 --dry-run --Werror "${file}" >/dev/null 2>&1 || bad+=("${file}")
  done
  if [[ "${#bad[@]}" -ne 0 ]]; then
    printf '  needs clang-format-14 -i: %s\n' "${bad[@]}" >&2
    die "${#bad[@]} file(s) not formatted (run: clang-format-14 -i FILE...)"
  fi
  echo "formatting ok (${#files[@]} files)"
}

skip_controlplane() { [[ "${KP_SKIP_CONTROLPLANE:-0}" == "1" ]]; }

CONTROLPLANE_DIR=""

stop_test_controlplane() {
  if [[ -n "${CONTROLPLANE_DIR}" ]]; then
    ./scripts/controlplane.sh stop "${CONTROLPLANE_DIR}" || true
    rm -rf "${CONTROLPLANE_DIR}"
    CONTROLPLANE_DIR=""
  fi
}

# A fresh control plane for the integration tests of the Kubernetes client, which find it through
# KP_TEST_KUBECONFIG; it is stopped when ctest is done, or when this script exits in any way.
start_test_controlplane() {
  CONTROLPLANE_DIR="$(mktemp -d "${TMPDIR:-/tmp}/kp-test-controlplane.XXXXXX")"
  trap stop_test_controlplane EXIT
  ./scripts/controlplane.sh start "${CONTROLPLANE_DIR}" ||
    die "the test control plane did not start (see above; KP_SKIP_CONTROLPLANE=1 runs without it)"
  export KP_TEST_KUBECONFIG="${CONTROLPLANE_DIR}/kubeconfig"
}

run_ctest() {
  local no_tests=error
  if [[ "${KP_ALLOW_NO_TESTS:-0}" == "1" ]]; then
    no_tests=ignore
  fi
  if skip_controlplane; then
    echo "no control plane (KP_SKIP_CONTROLPLANE=1): tests that need one skip"
  else
    start_test_controlplane
  fi
  ctest --preset asan --output-on-failure -j"${JOBS}" --no-tests="${no_tests}" ||
    die "ctest (asan) failed"
  stop_test_controlplane
}

# The control plane's own tests: setup's Go toolchain logic, then a smoke test of start, kwok
# Nodes and pods, a drain that a PodDisruptionBudget holds back, and stop; then the project's CRDs
# on it: the API server and the asan build's `karpenter validate` agree on every manifest; the
# article's migration end to end with `karpenter controller` and moto, then the same under faults
# (connection cuts, 410 Gone, an API server restart, 409 storms, the leader killed mid-launch;
# both skipped without moto); the Helm chart: golden renders, upstream's RBAC, and its Deployment's command run on a control plane;
# and the container image (scripts/image.sh): its config, and the binary run from its files alone.
test_controlplane() {
  test/controlplane/setup_go_test.sh || die "setup --with-go test failed"
  test/controlplane/smoke.sh || die "control plane smoke test failed"
  KP_KARPENTER="build/asan/cmd/karpenter/karpenter" test/controlplane/crd_agreement.sh ||
    die "CRD agreement test failed"
  KP_KARPENTER="build/asan/cmd/karpenter/karpenter" test/controlplane/e2e_article.sh ||
    die "end-to-end test of karpenter controller (the article's migration) failed"
  KP_KARPENTER="build/asan/cmd/karpenter/karpenter" test/controlplane/e2e_faults.sh ||
    die "fault tests of karpenter controller failed"
  KP_KARPENTER="build/asan/cmd/karpenter/karpenter" test/controlplane/helm_chart.sh ||
    die "Helm chart test failed"
  KP_KARPENTER="build/asan/cmd/karpenter/karpenter" test/image/image_test.sh ||
    die "container image test failed"
}

# Runs one libFuzzer binary for FUZZ_SECONDS and prints what happened; returns non-zero on a
# crash. Crashes and sanitizer reports fail the run; timeouts and out-of-memory jobs are logged
# (with their reproducers listed) but not fatal: yaml-cpp 0.7 has looped on malformed inputs that
# the checks in front of it (src/api/yaml_hang_guard.cc, yaml_document_scan.cc) did not catch yet.
# New inputs go to a scratch corpus under build/, so the checked-in seeds in fuzz/corpus/<name>/
# are read but never modified.
run_fuzzer() {
  local binary="$1" name work log stamp
  name="$(basename "${binary}")"
  work="build/fuzz/corpus/${name}"
  log="build/fuzz/logs/${name}.log"
  stamp="build/fuzz/logs/${name}.started"
  mkdir -p "${work}" build/fuzz/artifacts build/fuzz/logs
  touch "${stamp}"
  local corpora=("${work}")
  if [[ -d "fuzz/corpus/${name}" ]]; then
    corpora+=("fuzz/corpus/${name}")
  fi
  echo "fuzzed ${name} for ${FUZZ_SECONDS}s, seed ${FUZZ_SEED} (corpus: ${corpora[*]}; log: ${log})"
  local rc=0
  # A job past the RSS limit prints libFuzzer's memory profile, for which ASan groups every heap
  # chunk by its allocation stack: minutes on a heap of a million small yaml-cpp nodes (it stalled
  # CI) with full stacks, about a second with one frame each. Crash reports then lack allocation
  # stacks; replaying the saved reproducer gives them. The whole run is bounded all the same:
  # timeout kills the fuzzer's process group (its fork-mode jobs too) after a grace period.
  local limit=$((FUZZ_SECONDS + 30))
  ASAN_OPTIONS="${ASAN_OPTIONS:+${ASAN_OPTIONS}:}malloc_context_size=0" \
    timeout -s KILL "${limit}" "${binary}" -fork=1 -ignore_timeouts=1 -seed="${FUZZ_SEED}" \
    -max_total_time="${FUZZ_SECONDS}" -timeout=10 -rss_limit_mb=1024 \
    -artifact_prefix="build/fuzz/artifacts/${name}-" -print_final_stats=1 \
    "${corpora[@]}" >"${log}" 2>&1 || rc=$?
  local sanitizer_report='ERROR: libFuzzer: deadly signal|ERROR: (AddressSanitizer|UndefinedBehaviorSanitizer|LeakSanitizer)|runtime error:'
  if [[ "${rc}" -eq 137 ]] && ! grep -qE "${sanitizer_report}" "${log}"; then
    echo "  killed after ${limit}s in a job past its time or memory limit, no sanitizer report (see ${log})"
    rc=0
  fi
  # With -fork, libFuzzer exits with the last job's code even when that job's timeout was
  # ignored: 70 is its -timeout_exitcode, so the run ended on an (ignored) timeout, not a crash.
  if [[ "${rc}" -eq 70 ]] && ! grep -qE "${sanitizer_report}" "${log}"; then
    echo "  last job ended on an ignored timeout (see ${log})"
    rc=0
  fi
  find build/fuzz/artifacts -name "${name}-*" -newer "${stamp}" -printf '  reproducer: %p\n'
  if [[ "${rc}" -ne 0 ]]; then
    tail -n 60 "${log}"
    echo "FAILED: fuzz target ${name} crashed (reproducer under build/fuzz/artifacts/)"
    return 1
  fi
  # Fork mode prints no "Done" line: its last status line has the totals and the oom/timeout counts.
  grep -E '^#[0-9]+: cov' "${log}" | tail -n 1 | sed 's/^/  /' || true
}

# Runs the fuzz targets JOBS at a time (each fuzzer is one process plus its fork-mode job, busy on
# one core); each target's report is printed in name order once all have finished.
fuzz_all() {
  local binaries=() binary name failed=0 running=0
  mapfile -t binaries < <(find build/fuzz/fuzz -maxdepth 1 -type f -name '*_fuzz' -perm -u+x \
    2>/dev/null | sort)
  if [[ "${#binaries[@]}" -eq 0 ]]; then
    echo "no fuzz targets built yet (build/fuzz/fuzz/*_fuzz)"
    return
  fi
  mkdir -p build/fuzz/logs
  for binary in "${binaries[@]}"; do
    if [[ "${running}" -ge "${JOBS}" ]]; then
      wait -n || true
      running=$((running - 1))
    fi
    name="$(basename "${binary}")"
    (
      rc=0
      run_fuzzer "${binary}" >"build/fuzz/logs/${name}.report" 2>&1 || rc=$?
      echo "${rc}" >"build/fuzz/logs/${name}.rc"
    ) &
    running=$((running + 1))
  done
  wait
  for binary in "${binaries[@]}"; do
    name="$(basename "${binary}")"
    cat "build/fuzz/logs/${name}.report"
    [[ "$(cat "build/fuzz/logs/${name}.rc" 2>/dev/null)" == "0" ]] || failed=1
  done
  [[ "${failed}" -eq 0 ]] || die "a fuzz target crashed (see above)"
}

# Compiles through ccache when it is installed and the caller chose no launcher. Paths are taken
# relative to the checkout (CCACHE_BASEDIR) and the build directory is not hashed, so a clone in
# another directory on the same machine hits the objects an earlier run compiled. Only a fresh
# configure reads these variables; an existing build directory keeps what it was configured with.
use_ccache() {
  if [[ "${KP_NO_CCACHE:-0}" == "1" ]] || ! command -v ccache >/dev/null 2>&1; then
    echo "compiling without ccache"
    return
  fi
  export CMAKE_CXX_COMPILER_LAUNCHER="${CMAKE_CXX_COMPILER_LAUNCHER:-ccache}"
  export CMAKE_C_COMPILER_LAUNCHER="${CMAKE_C_COMPILER_LAUNCHER:-ccache}"
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-${PWD}}"
  export CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"
  echo "compiling through ${CMAKE_CXX_COMPILER_LAUNCHER} (cache: $(ccache -k cache_dir 2>/dev/null || echo default))"
}

main() {
  local setup_args=(--with-moto --with-chromium)
  skip_controlplane || setup_args+=(--with-go)
  step "setup: build dependencies, moto, chromium (renders the sim report in a test), Go (builds the control plane)"
  ./scripts/setup.sh "${setup_args[@]}"
  use_ccache

  step "format check (clang-format-14 --dry-run --Werror)"
  check_format

  step "banned API check (tools/check_banned.sh)"
  tools/check_banned.sh || die "banned APIs found"

  step "IAM policy check (test/iam/iam_policy_test.sh: docs/iam/ against the calls in src/aws)"
  test/iam/iam_policy_test.sh || die "IAM policy test failed"

  step "configure + build: asan preset (-j${JOBS})"
  cmake --preset asan
  cmake --build --preset asan -j"${JOBS}"

  step "tests: ctest --preset asan"
  run_ctest

  if [[ "${KP_SKIP_FUZZ:-0}" == "1" ]]; then
    step "fuzz: skipped (KP_SKIP_FUZZ=1)"
  elif ! command -v clang++-14 >/dev/null 2>&1; then
    step "fuzz: skipped (clang++-14 not found)"
  else
    step "configure + build: fuzz preset (-j${JOBS})"
    cmake --preset fuzz
    cmake --build --preset fuzz -j"${JOBS}"
    step "fuzz: each target for ${FUZZ_SECONDS}s, ${JOBS} at a time"
    fuzz_all
  fi

  if skip_controlplane; then
    step "control plane: skipped (KP_SKIP_CONTROLPLANE=1)"
  else
    step "control plane: setup --with-go, smoke, CRD agreement, the article end to end, Helm chart and image tests"
    test_controlplane
  fi

  step "all checks passed"
}

main "$@"
