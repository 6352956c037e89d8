#!/bin/bash
# Build everything (libvqcuda, tests, the patched ffmpeg) and run every test.
# GPU tests skip (ctest "Skipped", reason printed) on machines without one.
#   scripts/test.sh [BUILD_DIR]      (default: build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath -m "${1:-$root/build}")
"$root/scripts/deps.sh"
"$root/scripts/build-ffmpeg.sh" "$build"
cmake -S "$root" -B "$build/lib" -DVQ_FFMPEG="$build/ffmpeg/ffmpeg" -DVQ_BUILD_TESTS=ON >/dev/null
cmake --build "$build/lib" -j"$(nproc)"
cd "$build/lib"
ctest --output-on-failure -j"$(nproc)" --timeout 1500
