#!/bin/bash
# Build everything (libvqcuda, tests, the patched ffmpeg) and run every test.
# GPU tests skip (ctest "Skipped", reason printed) on machines without one.
#   scripts/test.sh [BUILD_DIR]      (default: build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath -m "${1:-$root/build}")
"$root/scripts/deps.sh"
"$root/scripts/build-ffmpeg.sh" "$build"
cmake -S "$root" -B "$build/libvqcuda" -DVQ_FFMPEG="$build/ffmpeg/ffmpeg" -DVQ_BUILD_TESTS=ON >/dev/null
cmake --build "$build/libvqcuda" -j"$(nproc)"
cd "$build/libvqcuda"
rc=0
ctest --output-on-failure -j"$(nproc)" --timeout 1500 || rc=$?
# say why each skipped test skipped (ctest itself only says "Skipped")
awk '/^[0-9]+\/[0-9]+ Test: /{name=$3} /^SKIP: /{print "skipped " name ": " substr($0, 7)}' \
    Testing/Temporary/LastTest.log | sort -u
exit $rc
