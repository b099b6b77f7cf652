#!/usr/bin/env bash
# Regenerates data/catalog/instance-types.json from the EC2 data shipped in the installed moto
# package (a developer step; the output is committed and the product never runs this).
#
# Usage: tools/gen_catalog.sh [REGION]          (default us-east-1)
# Env:   MOTO_DIR   moto's package directory (default: asked from python3's moto)
#        BUILD_DIR  where to build the generator (default: build/tools)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
region="${1:-us-east-1}"
build_dir="${BUILD_DIR:-build/tools}"
if [[ -z "${MOTO_DIR:-}" ]]; then
  MOTO_DIR="$(python3 -c 'import moto, os; print(os.path.dirname(moto.__file__))')"
fi
moto_version="$(python3 -c 'import moto; print(moto.__version__)' 2>/dev/null || echo unknown)"
resources="${MOTO_DIR}/ec2/resources"
offerings="${resources}/instance_type_offerings/availability-zone/${region}.json.gz"
[[ -f "${resources}/instance_types.json.gz" ]] || { echo "no moto EC2 data in ${resources}" >&2; exit 1; }
[[ -f "${offerings}" ]] || { echo "no offerings for ${region} in moto" >&2; exit 1; }

cmake -S . -B "${build_dir}" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKP_TOOLS=ON -DKP_BENCH=OFF >/dev/null
ninja -C "${build_dir}" -j2 kp_catalog_gen

tmp="$(mktemp -d)"
trap 'rm -rf "${tmp}"' EXIT
gzip -dc "${resources}/instance_types.json.gz" >"${tmp}/instance_types.json"
gzip -dc "${offerings}" >"${tmp}/offerings.json"
mkdir -p data/catalog
"${build_dir}/tools/kp_catalog_gen" --instance-types "${tmp}/instance_types.json" \
  --offerings "${tmp}/offerings.json" --region "${region}" \
  --source "moto ${moto_version} ec2/resources" --out data/catalog/instance-types.json
