#!/usr/bin/env bash
# Regenerates data/reference/gpgpusim/gpus/{SM6_TITANX,SM7_QV100,SM86_RTX3070}.toml: GPGPU-Sim's
# tested configs as warpsim's importer reads them (the GPUs the titanx, qv100 and rtx3070
# reference ran on). SM75_RTX2060.toml is written by hand on top of the rtx2060 preset.
#   scripts/reference/import_gpus.sh <gpgpu-sim source dir> [warpsim binary]
set -euo pipefail
src=${1:?usage: $0 <gpgpu-sim dir> [warpsim]}
ws=${2:-build/warpsim}
cd "$(dirname "$0")/../.."
out=data/reference/gpgpusim/gpus
rev=$(git -C "$src" rev-parse --short=8 HEAD 2>/dev/null || echo 667834cf)
# CONFIG:NAME:COMPUTE_CAPABILITY:DEVICE_MEMORY (the card's; the config does not say it either)
for entry in SM6_TITANX:titanx:61:12G SM7_QV100:qv100:70:32G SM86_RTX3070:rtx3070:86:8G; do
  IFS=: read -r cfg name cc mem <<<"$entry"
  file="$src/configs/tested-cfgs/$cfg/gpgpusim.config"
  body=$("$ws" list config --gpgpusim-config "$file" --set "name=$name" --set "compute_capability=$cc" --set "global_memory=$mem" --set core.register_target=70 2>/tmp/import_gpus.$$)
  ignored=$(sed -n 's/.*options not understood and ignored: //p' /tmp/import_gpus.$$)
  rm -f /tmp/import_gpus.$$
  {
    echo "# The GPU of GPGPU-Sim's tested config $cfg at the reference revision (accel-sim/gpgpu-sim_distribution"
    echo "# $rev), as warpsim's importer reads it:"
    echo "#   warpsim list config --gpgpusim-config <gpgpu-sim>/configs/tested-cfgs/$cfg/gpgpusim.config"
    echo "# with compute_capability and global_memory set to the card's (the config says neither), and core.register_target to"
    echo "# 70: the reference programs carry compute_70 PTX only, which GPGPU-Sim compiles with ptxas for"
    echo "# its own target, sm_70, whatever -gpgpu_occupancy_sm_number says."
    echo "# Regenerate with scripts/reference/import_gpus.sh <gpgpu-sim>."
    if [ -n "$ignored" ]; then
      echo "# Options read and not modelled (the same list the importer prints):"
      echo "$ignored" | fold -s -w 96 | sed 's/^/#   /; s/ *$//'
    fi
    echo "# Used by: warpsim correlate data/reference/gpgpusim --preset $name=$out/$cfg.toml"
    echo "$body"
  } >"$out/$cfg.toml"
  echo "wrote $out/$cfg.toml"
done
