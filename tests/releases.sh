#!/bin/bash
# CI stage: the FFmpeg releases besides the default one, each built into
# BUILD_DIR/ffNN (its own FFmpeg tree) with the libvqcuda already built in
# BUILD_DIR/deps (or $VQCUDA_PREFIX: the library is not rebuilt) and the sources
# cached in BUILD_DIR/src, then checked as the VMAF tools use the binary:
#   - ffmpeg -version reports the release, -filters lists libvmaf, and two
#     lavfi color inputs through libvmaf exit 0 (tests/e2e_binary.sh);
#   - every golden pair's default model on the CPU path (tests/e2e_golden.sh:
#     every frame, key and pooled value == libvmaf's);
#   - no frame lost across a size change (tests/e2e_noloss.py: re-init);
#   - ffmpeg-quality-metrics (tests/e2e_fqm.sh) on birds720.
#   tests/releases.sh BUILD_DIR VERSION...      (e.g. build 7.1 9.0)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath -m "$1")
shift
golden_dir=$root/tests/data/golden clips=$root/tests/data/clips
# the library the main build used: its own install, or the one it was given
prefix=${VQCUDA_PREFIX:-$build/deps}
[ -f "$prefix/lib/pkgconfig/libvqcuda.pc" ] ||
    { echo "releases: no libvqcuda in $prefix (run scripts/build-ffmpeg.sh $build first)"; exit 1; }
rc=0
fqm_venv=$build/libvqcuda/out/fqm-venv

# the default model's golden of every pair: NAME.json (not NAME.variant.json),
# the ladder's rungs aside (scored together by e2e_ladder.sh)
goldens=()
for g in "$golden_dir"/*.json; do
    n=$(basename "$g" .json)
    case $n in *.*|dog1080_l[0-9]*) continue ;; esac
    goldens+=("$g")
done

for ver in "$@"; do
    t0=$(date +%s)
    b=$build/ff${ver//./}
    out=$b/out
    mkdir -p "$out"
    echo "== FFmpeg $ver: building in $b"
    if ! FFMPEG_VERSION=$ver VQCUDA_PREFIX=$prefix VQ_SRC_DIR=$build/src \
            "$root/scripts/build-ffmpeg.sh" "$b" > "$out/build.log" 2>&1; then
        tail -n 40 "$out/build.log"
        echo "== FFmpeg $ver: BUILD FAILED"; rc=1; continue
    fi
    t1=$(date +%s)
    echo "== FFmpeg $ver: built in $((t1 - t0)) s"
    # VQ_LEAN (scripts/test.sh): the tree's objects go, the binaries stay
    [ -n "${VQ_LEAN:-}" ] && rm -rf "$b/ffmpeg-src"
    ff=$b/ffmpeg/ffmpeg
    bad=0

    "$root/tests/e2e_binary.sh" "$ff" "$ver" || bad=1

    exact=0
    for g in "${goldens[@]}"; do
        n=$(basename "$g" .json)
        r=0
        "$root/tests/e2e_golden.sh" "$ff" "$clips" "$g" cpu "$out" > "$out/$n.log" 2>&1 || r=$?
        if [ $r -eq 0 ]; then
            exact=$((exact + 1)); echo "ok   $n (cpu): $(grep -h exact "$out/$n.log" | tail -n1)"
        elif [ $r -eq 77 ]; then
            echo "skip $n (cpu): $(grep -h SKIP "$out/$n.log" | tail -n1)"
        else
            tail -n 15 "$out/$n.log"; echo "FAIL $n (cpu)"; bad=1
        fi
    done
    echo "== FFmpeg $ver: goldens (default model, CPU path) exact $exact/${#goldens[@]}"

    # a size change mid-stream: the filter's re-init carry-over, which reads
    # framesync's and the link's private state
    if python3 "$root/tests/e2e_noloss.py" "$ff" "$clips" "$golden_dir" "$out/noloss" > "$out/noloss.log" 2>&1; then
        echo "ok   e2e_noloss: $(tail -n1 "$out/noloss.log")"
    else
        grep FAIL "$out/noloss.log"; echo "FAIL e2e_noloss"; bad=1
    fi

    # ffmpeg-quality-metrics: the virtualenv of ctest's run (or of the first
    # release) where there is one, else its own
    if [ -x "$fqm_venv/bin/ffmpeg-quality-metrics" ] && [ ! -e "$out/fqm-venv" ]; then
        ln -s "$fqm_venv" "$out/fqm-venv"
    fi
    r=0
    "$root/tests/e2e_fqm.sh" "$ff" "$clips" "$golden_dir/birds720.json" "$out" > "$out/fqm.log" 2>&1 || r=$?
    [ -x "$fqm_venv/bin/ffmpeg-quality-metrics" ] || fqm_venv=$out/fqm-venv
    case $r in
        0) echo "ok   ffmpeg-quality-metrics: $(tail -n1 "$out/fqm.log")" ;;
        77) echo "skip ffmpeg-quality-metrics: $(grep -h SKIP "$out/fqm.log" | tail -n1)" ;;
        *) tail -n 20 "$out/fqm.log"; echo "FAIL ffmpeg-quality-metrics"; bad=1 ;;
    esac
    [ $bad -eq 0 ] || rc=1
    echo "== FFmpeg $ver: $([ $bad -eq 0 ] && echo passed || echo FAILED) (checks $(( $(date +%s) - t1 )) s, all $(( $(date +%s) - t0 )) s)"
done
exit $rc
