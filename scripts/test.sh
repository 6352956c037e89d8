#!/bin/bash
# Build everything (libvqcuda, tests, the patched ffmpeg) and run every test;
# then build the other FFmpeg releases and score the golden pairs with them;
# then the same CPU tests again in an ASan + UBSan build (VQ_SANITIZE=1), the
# CPU executor's threads under ThreadSanitizer, and the unit tests built by Clang.
# GPU tests skip (ctest "Skipped", reason printed) on machines without one.
#   scripts/test.sh [BUILD_DIR]      (default: build)
#   FFMPEG_VERSION=7.1|8.1|9.0 picks the FFmpeg release of the main build (default 8.1);
#   the other two are built and checked after the main tests (tests/releases.sh).
#   VQ_NO_SANITIZE=1 skips the sanitizer configurations, VQ_NO_CLANG=1 the Clang one,
#   VQ_NO_RELEASES=1 the other releases.
#   VQ_LEAN=1 (set by .ci/run) removes each FFmpeg tree's objects once its binary
#   is built (a later build starts from scratch) and the sanitizer build once its
#   tests ran (ctest's logs stay): for a CI machine's small disk.  The sanitizer
#   build reads the main build's decoded clips either way.
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

# disk: what is free where the builds go (each stage prints it; a full disk
# fails a link with "No space left on device")
disk() {
    echo "== disk: $(df -Pm "$build" | awk 'NR == 2 {print $4}') MB free, $(du -sm "$build" 2>/dev/null | cut -f1) MB in $build ($1)"
}
# VQ_LEAN: an FFmpeg tree's objects go once its binary is built
lean() {
    [ -n "${VQ_LEAN:-}" ] && rm -rf "$1/ffmpeg-src"
    return 0
}
# VQ_LEAN: a configuration's build once its stage is done, but for ctest's logs
lean_stage() {
    [ -n "${VQ_LEAN:-}" ] || return 0
    find "$1" -mindepth 1 -maxdepth 1 ! -name libvqcuda -exec rm -rf {} +
    [ -d "$1/libvqcuda" ] && find "$1/libvqcuda" -mindepth 1 -maxdepth 1 ! -name Testing -exec rm -rf {} +
    return 0
}

mkdir -p "$build"
disk "start"
# test_model's LocaleIndependent needs a locale with a decimal comma: where the
# system has none, de_DE.UTF-8 is compiled into the build tree (no root; the
# system's locales untouched) and the test finds it through VQ_LOCALE_DIR
if ! locale -a 2>/dev/null | grep -qiE '^(de_DE|fr_FR|nl_NL)\.utf-?8$' &&
   [ -r /usr/share/i18n/locales/de_DE ] && command -v localedef >/dev/null; then
    mkdir -p "$build/locale"
    [ -d "$build/locale/de_DE.UTF-8" ] || localedef -i de_DE -f UTF-8 "$build/locale/de_DE.UTF-8" >/dev/null 2>&1 || true
    [ -d "$build/locale/de_DE.UTF-8" ] && export VQ_LOCALE_DIR="$build/locale"
fi
"$root/scripts/build-ffmpeg.sh" "$build"
lean "$build"
cmake -S "$root" -B "$build/libvqcuda" -DVQ_FFMPEG="$build/ffmpeg/ffmpeg" -DVQ_BUILD_TESTS=ON >/dev/null
cmake --build "$build/libvqcuda" -j"$(nproc)"
rc=0
run_ctest "$build/libvqcuda" || rc=$?
disk "after the main tests"

# the other FFmpeg releases (docs/ffmpeg-versions.md), each in a build dir of
# its own with the library built above: built, checked as the VMAF tools use
# the binary, every golden pair's default model on the CPU path
if [ -z "${VQ_NO_RELEASES:-}" ]; then
    t0=$(date +%s)
    others=()
    for v in 7.1 8.1 9.0; do [ "$v" = "${FFMPEG_VERSION:-8.1}" ] || others+=("$v"); done
    echo "== the other FFmpeg releases (${others[*]})"
    "$root/tests/releases.sh" "$build" "${others[@]}" || rc=$?
    disk "after the other releases"
    echo "== the other FFmpeg releases took $(( $(date +%s) - t0 )) s"
fi

if [ -z "${VQ_NO_SANITIZE:-}" ]; then
    t0=$(date +%s)
    san=$build/asan
    VQ_SANITIZE=1 VQ_SRC_DIR=$build/src "$root/scripts/build-ffmpeg.sh" "$san"
    lean "$san"
    # the clips decoded once: the main build's raw files
    cmake -S "$root" -B "$san/libvqcuda" -DVQ_FFMPEG="$san/ffmpeg/ffmpeg" -DVQ_BUILD_TESTS=ON \
        -DVQ_RAW_DIR="$build/libvqcuda/raw" >/dev/null
    cmake --build "$san/libvqcuda" -j"$(nproc)"
    # leaks: in our own test programs; FFmpeg's exit paths are not ours to hold
    export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    echo "== sanitizer configuration (ASan + UBSan, CPU executor)"
    # the unit tests (their golden cases on the smaller pairs), the library runs on the
    # smaller pairs (every feature, option and layout has one there), and end-to-end
    # runs that cover every feature, layout and error path (the whole golden set runs
    # in the first configuration); the 1080p-2160p pairs' library runs (each golden
    # also runs end to end above) and the motion pieces' long run stay out: under the
    # sanitizers they took two thirds of this stage
    run_ctest "$san/libvqcuda" -E 'Golden.*/(dog2160|balle576|dog1080)|^lib_.*(dog1080|dog2160|balle576)|^lib_motion_parts' -R '^test_|^lib_.*_cpu$|^e2e_(small36x34|odd577x323|birds422p10|checker1080)(\.features)?_cpu$|^e2e_birds720\.(multi|vmaf_b_v0\.6\.3)_cpu$|^e2e_bad_input$|^e2e_noloss$|^e2e_ladder_bicubic_cpu$' || rc=$?
    echo "== sanitizer configuration took $(( $(date +%s) - t0 )) s"
    disk "after the sanitizer configuration"
    lean_stage "$san"

    # ThreadSanitizer: the CPU executor's thread pool and row bands (and three fold
    # workers: VQ_FOLD_THREADS), through vqscore at
    # 2 and 3 threads on the small pairs (the smallest again and again: batches are short)
    t0=$(date +%s)
    tsan=$build/tsan
    echo "== ThreadSanitizer (CPU executor, vqscore -t 2/3)"
    cmake -S "$root" -B "$tsan" -DVQ_ENABLE_CUDA=OFF -DVQ_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        "-DCMAKE_C_FLAGS=-fsanitize=thread -g" "-DCMAKE_CXX_FLAGS=-fsanitize=thread -g" \
        "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread" "-DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=thread" >/dev/null
    cmake --build "$tsan" -j"$(nproc)" --target vqscore >/dev/null
    raw=$build/libvqcuda/raw
    # a golden named *.features: every feature, each in its row bands (-F;
    # VQ_CPU_BANDS=all: whatever the executor's cost split would choose)
    feats='name=psnr|name=float_ssim|name=float_ms_ssim|name=psnr_hvs|name=ciede|name=cambi'
    . "$root/tests/clip_table.sh"
    # golden, threads, repeats; the pair (the golden's name to its first dot)
    # gives the clips, size and format (tests/data/clips.tsv)
    while read -r pair threads reps; do
        read -r ref dis size fmt _ < <(clip_row "${pair%%.*}") || { echo "tsan $pair: not in $clips_tsv"; rc=1; continue; }
        fopt=()
        gdir=golden
        case $pair in
        small36x34.features) fopt=(-F 'name=psnr|name=float_ssim|name=psnr_hvs|name=ciede') ;;
        *.features) fopt=(-F "$feats") ;;
        # float_psnr/float_moment/float_ansnr/speed_temporal: their columns of the float goldens
        *.fsmall) fopt=(-m none -F 'name=float_psnr|name=float_ansnr|name=float_moment|name=speed_temporal')
                  gdir=golden_columns ;;
        small36x34.fadm_debug) fopt=(-m none -F 'name=float_adm:debug=true:rcp=amd') ;;
        odd577x323.fadm_apn2_5) fopt=(-m none -F 'name=float_adm:adm_p_norm=2.5:rcp=amd') ;;
        esac
        for ((k = 0; k < reps; k++)); do
            if ! VQ_CPU_BANDS=all VQ_FOLD_THREADS=3 TSAN_OPTIONS=halt_on_error=1 "$tsan/vqscore" -r "$raw/$ref.yuv" -d "$raw/$dis.yuv" -s "$size" \
                    -f "$fmt" -e cpu -t "$threads" "${fopt[@]}" -o "$tsan/$pair.json" >"$tsan/$pair.log" 2>&1 ||
               ! python3 "$root/tests/compare_golden.py" "$tsan/$pair.json" "$root/tests/data/$gdir/$pair.json" \
                    >>"$tsan/$pair.log"; then
                echo "tsan $pair -t $threads: FAILED"; cat "$tsan/$pair.log"; rc=1; break
            fi
        done
        echo "tsan $pair -t $threads x$reps: $(grep -h exact "$tsan/$pair.log" | tail -1)"
    done <<'LIST'
small36x34 2 20
small36x34 3 10
odd577x323 3 1
birds422p10 2 1
small36x34.features 3 5
odd577x323.features 3 1
birds422p10.features 2 1
odd577x323.float.fsmall 3 1
birds422p10.float.fsmall 2 1
small36x34.fadm_debug 3 5
odd577x323.fadm_apn2_5 3 1
LIST
    # float_vif and float_motion: their option goldens of the small pairs, on 3 threads
    if ! TSAN_OPTIONS=halt_on_error=1 python3 "$root/tests/lib_float_goldens.py" "$tsan/vqscore" "$raw" "$tsan/float" \
            cpu3 "$root"/tests/data/golden_parts/float_options/{small36x34,odd577x323,birds422p10}.*.json \
            >"$tsan/float.log" 2>&1; then
        echo "tsan float_vif/float_motion: FAILED"; cat "$tsan/float.log"; rc=1
    fi
    echo "tsan float_vif/float_motion -t 3: $(tail -1 "$tsan/float.log")"
    echo "== ThreadSanitizer took $(( $(date +%s) - t0 )) s"
fi

# Clang: the library (CPU executor) and its unit tests built by another
# compiler, golden comparisons included (-ffp-contract=off holds there too)
if [ -z "${VQ_NO_CLANG:-}" ]; then
    t0=$(date +%s)
    if ! command -v clang++ >/dev/null; then
        echo "deps: installing clang"
        export DEBIAN_FRONTEND=noninteractive
        { apt-get update -qq && apt-get install -y -qq clang; } >/dev/null || true
    fi
    if command -v clang++ >/dev/null; then
        cl=$build/clang
        echo "== Clang (libvqcuda, CPU executor, unit tests)"
        CC=clang CXX=clang++ cmake -S "$root" -B "$cl" -DVQ_ENABLE_CUDA=OFF -DVQ_BUILD_TESTS=ON \
            -DVQ_FFMPEG="$build/ffmpeg/ffmpeg" -DCMAKE_BUILD_TYPE=Release >/dev/null
        cmake --build "$cl" -j"$(nproc)" >/dev/null
        VQ_RAW_DIR=$build/libvqcuda/raw run_ctest "$cl" -R '^test_' || rc=$?
        echo "== Clang took $(( $(date +%s) - t0 )) s"
        disk "after Clang"
    else
        echo "== Clang stage skipped: clang could not be installed"
    fi
fi
exit $rc
