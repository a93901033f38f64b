#!/usr/bin/env bash
# The C++ sources formatted by .clang-format (clang-format 14, Debian 12's).
#   scripts/format.sh          rewrites every file that differs
#   scripts/format.sh --check  lists the files that differ and exits 1 (the test command runs this)
# Covered: *.cc and *.h under src/, tests/, bench/ and fuzz/. Not covered: the CUDA sources of the
# bundled workloads (suite/, bench/gpu/), whose committed PTX nvcc makes from them as they are.
set -euo pipefail
cd "$(dirname "$0")/.."
fmt=$(command -v clang-format-14 || command -v clang-format || true)
if [ -z "$fmt" ]; then
  echo "format: clang-format not found (Debian package clang-format-14: scripts/install-deps.sh --tests)" >&2
  exit 2
fi
mapfile -t files < <(git ls-files -- 'src/*.cc' 'src/*.h' 'tests/*.cc' 'tests/*.h' 'bench/*.cc' 'bench/*.h' \
                                     'fuzz/*.cc' 'fuzz/*.h')
if [ "${1:-}" = "--check" ]; then
  bad=()
  for f in "${files[@]}"; do
    "$fmt" --style=file "$f" | cmp -s - "$f" || bad+=("$f")
  done
  if [ ${#bad[@]} -gt 0 ]; then
    printf 'format: not formatted by .clang-format (%s):\n' "$("$fmt" --version | head -1)" >&2
    printf '  %s\n' "${bad[@]}" >&2
    echo "format: run scripts/format.sh to fix" >&2
    exit 1
  fi
  echo "format: ${#files[@]} files formatted"
else
  "$fmt" --style=file -i "${files[@]}"
fi
