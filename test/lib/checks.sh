# The check helpers every bash test shares (sourced, not run): numbered steps, `ok:` lines counted
# in PASSED, one FAILED line and exit 1, and waiting for a command's output. A test that needs
# more on failure (logs to show, a folder to keep) defines `on_failure`, which runs before the exit.
# shellcheck shell=bash

PASSED=0

step() { printf '\n--> %s\n' "$*"; }

pass() {
  PASSED=$((PASSED + 1))
  printf '  ok: %s\n' "$*"
}

fail() {
  printf '  FAILED: %s\n' "$*" >&2
  if declare -F on_failure >/dev/null; then on_failure; fi
  exit 1
}

# wait_until SECONDS EXPECTED COMMAND...: until COMMAND prints EXPECTED (checked every second);
# returns 1, saying what it saw last, when SECONDS pass first.
wait_until() {
  local seconds="$1" expected="$2"
  shift 2
  local deadline=$((SECONDS + seconds)) got=""
  while ((SECONDS < deadline)); do
    got="$("$@" 2>/dev/null || true)"
    [[ "${got}" == "${expected}" ]] && return 0
    sleep 1
  done
  printf '  waited %ss for "%s", last saw "%s"\n' "${seconds}" "${expected}" "${got}" >&2
  return 1
}
