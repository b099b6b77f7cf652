#!/usr/bin/env bash
# Regenerates data/catalog/instance-types.json (specs) and data/catalog/offerings.txt (per region,
# which zones offer which type) from the EC2 data shipped in the installed moto package (a
# developer step; the output is committed and the product never runs this).
#
# Usage: tools/gen_catalog.sh                   (every commercial region moto covers)
# Env:   MOTO_DIR   moto's package directory (default: asked from python3's moto)
#        BUILD_DIR  where to build the generator (default: build/tools)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
build_dir="${BUILD_DIR:-build/tools}"
if [[ -z "${MOTO_DIR:-}" ]]; then
  MOTO_DIR="$(python3 -c 'import moto, os; print(os.path.dirname(moto.__file__))')"
fi
moto_version="$(python3 -c 'import moto; print(moto.__version__)' 2>/dev/null || echo unknown)"
resources="${MOTO_DIR}/ec2/resources"
offerings_dir="${resources}/instance_type_offerings/availability-zone"
[[ -f "${resources}/instance_types.json.gz" ]] || { echo "no moto EC2 data in ${resources}" >&2; exit 1; }
[[ -d "${offerings_dir}" ]] || { echo "no zone offerings in ${offerings_dir}" >&2; exit 1; }

if [[ -z "${SKIP_BUILD:-}" ]]; then
  cmake -S . -B "${build_dir}" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKP_TOOLS=ON -DKP_BENCH=OFF >/dev/null
  ninja -C "${build_dir}" -j2 kp_catalog_gen
fi

tmp="$(mktemp -d)"
trap 'rm -rf "${tmp}"' EXIT
gzip -dc "${resources}/instance_types.json.gz" >"${tmp}/instance_types.json"
args=()
for file in "${offerings_dir}"/*.json.gz; do
  region="$(basename "${file}" .json.gz)"
  # Commercial partition only: GovCloud, China and the isolated partitions price and launch
  # differently and are out of the catalog's scope.
  case "${region}" in us-gov-* | cn-* | us-iso* | eu-isoe-*) continue ;; esac
  gzip -dc "${file}" >"${tmp}/${region}.json"
  args+=(--offerings "${tmp}/${region}.json")
done
mkdir -p data/catalog
"${build_dir}/tools/kp_catalog_gen" --instance-types "${tmp}/instance_types.json" "${args[@]}" \
  --source "moto ${moto_version} ec2/resources" --out data/catalog/instance-types.json \
  --offerings-out data/catalog/offerings.txt
