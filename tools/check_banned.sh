#!/usr/bin/env bash
# Rejects APIs that would break determinism or the no-exceptions rule (STYLE.md): the real clock,
# sleeps, unseeded randomness, `throw`, and `using namespace` in headers. Files named real_*.cc
# (the production `Clock`/`Random`, e.g. src/common/real_clock.cc) are exempt.
#
# Usage: tools/check_banned.sh [DIR...]   (default: src cmd karpenter, from the repo root)
# Prints every offending line as FILE:LINE: [rule] text, and exits 1 if there is any.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

# rule|Perl regex. Text after `//` and lines inside /* */ style blocks (starting with `*`) are
# not checked, so a comment may mention what it avoids.
readonly RULES=(
  'real clock|\b(system_clock|steady_clock|high_resolution_clock)::now\b'
  'real clock|\babsl::(Now|SleepFor)\b'
  'sleep|\bsleep_for\b'
  'randomness|\bstd::rand\b'
  'randomness|\brandom_device\b'
  'exceptions|\bthrow\b'
)
readonly HEADER_RULES=(
  'using namespace in header|\busing\s+namespace\b'
)

dirs=("$@")
if [[ "${#dirs[@]}" -eq 0 ]]; then
  dirs=(src cmd karpenter)
fi

existing=()
for dir in "${dirs[@]}"; do
  [[ -d "${dir}" ]] && existing+=("${dir}")
done
if [[ "${#existing[@]}" -eq 0 ]]; then
  echo "check_banned: nothing to check"
  exit 0
fi

found=0

# check RULE_NAME REGEX FILE...: prints matches outside comments, remembers that one was found.
check() {
  local name="$1" regex="$2" hits
  shift 2
  [[ "$#" -eq 0 ]] && return 0
  hits="$(grep -nHP -- "^(?!\s*\*)(?:(?!//).)*${regex}" "$@" || true)"
  [[ -z "${hits}" ]] && return 0
  found=1
  local line
  while IFS= read -r line; do
    [[ "${line}" =~ ^([^:]*:[0-9]+):(.*)$ ]]
    printf '%s: [%s] %s\n' "${BASH_REMATCH[1]}" "${name}" "${BASH_REMATCH[2]}"
  done <<<"${hits}"
}

mapfile -t sources < <(find "${existing[@]}" -type f \( -name '*.cc' -o -name '*.h' \) \
  ! -name 'real_*.cc' | sort)
if [[ "${#sources[@]}" -eq 0 ]]; then
  echo "check_banned: nothing to check"
  exit 0
fi
mapfile -t headers < <(printf '%s\n' "${sources[@]}" | grep '\.h$' || true)

for rule in "${RULES[@]}"; do
  check "${rule%%|*}" "${rule#*|}" "${sources[@]}"
done
for rule in "${HEADER_RULES[@]}"; do
  check "${rule%%|*}" "${rule#*|}" "${headers[@]}"
done

if [[ "${found}" -ne 0 ]]; then
  echo "check_banned: banned APIs found (see STYLE.md, \"Determinism\" and \"Errors\")" >&2
  exit 1
fi
echo "check_banned: ok (${#sources[@]} files)"
