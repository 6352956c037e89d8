#!/bin/bash
# Build everything (libvqcuda, tests, the patched ffmpeg) and run every test;
# then the same CPU tests again in an ASan + UBSan build (VQ_SANITIZE=1).
# GPU tests skip (ctest "Skipped", reason printed) on machines without one.
#   scripts/test.sh [BUILD_DIR]      (default: build)
#   VQ_NO_SANITIZE=1 skips the second configuration.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath -m "${1:-$root/build}")
"$root/scripts/deps.sh"

# ctest in DIR with ARGS; prints why each skipped test skipped
run_ctest() {
    local dir=$1 rc=0
    shift
    (cd "$dir" && ctest --output-on-failure -j"$(nproc)" --timeout 1500 "$@") || rc=$?
    awk '/^[0-9]+\/[0-9]+ Test: /{name=$3}
         /^SKIP: /{print "skipped " name ": " substr($0, 7)}
         /: Skipped$/{getline m; print "skipped " name ": " m}' \
        "$dir/Testing/Temporary/LastTest.log" | sort -u
    return $rc
}

"$root/scripts/build-ffmpeg.sh" "$build"
cmake -S "$root" -B "$build/libvqcuda" -DVQ_FFMPEG="$build/ffmpeg/ffmpeg" -DVQ_BUILD_TESTS=ON >/dev/null
cmake --build "$build/libvqcuda" -j"$(nproc)"
rc=0
run_ctest "$build/libvqcuda" || rc=$?

if [ -z "${VQ_NO_SANITIZE:-}" ]; then
    t0=$(date +%s)
    san=$build/asan
    VQ_SANITIZE=1 "$root/scripts/build-ffmpeg.sh" "$san"
    cmake -S "$root" -B "$san/libvqcuda" -DVQ_FFMPEG="$san/ffmpeg/ffmpeg" -DVQ_BUILD_TESTS=ON >/dev/null
    cmake --build "$san/libvqcuda" -j"$(nproc)"
    # leaks: in our own test programs; FFmpeg's exit paths are not ours to hold
    export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    echo "== sanitizer configuration (ASan + UBSan, CPU executor)"
    # the unit tests (their golden cases on the smaller pairs), the library runs, and
    # end-to-end runs that cover every feature, layout and error path (the whole
    # golden set runs in the first configuration)
    run_ctest "$san/libvqcuda" -E 'Golden.*/(dog2160|balle576|dog1080p1|dog1080_self)' -R '^test_|^lib_.*_cpu$|^e2e_(small36x34|odd577x323|birds422p10|checker1080)(\.features)?_cpu$|^e2e_birds720\.(multi|vmaf_b_v0\.6\.3)_cpu$|^e2e_bad_input$|^e2e_noloss$|^e2e_ladder_bicubic_cpu$' || rc=$?
    echo "== sanitizer configuration took $(( $(date +%s) - t0 )) s"
fi
exit $rc
