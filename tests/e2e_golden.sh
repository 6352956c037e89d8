#!/bin/bash
# End-to-end golden test: run ffmpeg with the vqcuda filter on a clip pair,
# asking for what the golden log holds (tests/golden_args.py reads the
# reference's arguments from it), and compare its JSON log with libvmaf's
# (every frame, key and pooled value, ==).
#   e2e_golden.sh FFMPEG CLIPS_DIR GOLDEN_JSON MODE OUT_DIR
# MODE: cpu      software decoding, CPU executor
#       cpuN     the same with n_threads=N (the row bands and their ordered sums)
#       cuda     NVDEC frames (-hwaccel cuda) for mp4, hwupload for FFV1 mkv,
#                software frames uploaded by the library where CUDA frames
#                cannot carry the format (4:2:2)
# Exit 77 (ctest skip, reason printed) when MODE needs a GPU and there is none,
# or the golden needs what vqcuda does not implement yet.
set -euo pipefail
ff=$1 clips=$2 golden=$3 mode=$4 out=$5
here=$(dirname "$0")
name=$(basename "$golden" .json)
mkdir -p "$out"
log=$out/$name.$mode.json
ref=$clips/$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["reference"])' "$golden")
dis=$clips/$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["distorted"])' "$golden")
rc=0
args=$(python3 "$here/golden_args.py" "$golden" "$mode") || rc=$?
if [ $rc -eq 77 ]; then echo "$args"; exit 77; fi
[ $rc -eq 0 ] || exit $rc
opts="log_path=$log:$args"
if [ "$mode" = cuda ]; then
    if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
        echo "SKIP: no NVIDIA GPU on this machine"; exit 77
    fi
fi
pix=$("$ff" -hide_banner -i "$ref" 2>&1 | grep -o 'Video: [^,]*, [a-z0-9]*' | head -1 | awk '{print $NF}' || true)
rm -f "$log"
# refused_by_reference: libvmaf's tool failed on this pair; vqcuda must refuse it too
refused=$(python3 -c 'import json,sys; print("yes" if "refused_by_reference" in json.load(open(sys.argv[1])) else "")' "$golden")
run() {
set -x
case $mode in
cpu)
    "$ff" -nostdin -hide_banner -v error -i "$dis" -i "$ref" \
        -lavfi "[0:v][1:v]vqcuda=$opts:device=cpu" -f null - ;;
cpu[0-9]*)
    "$ff" -nostdin -hide_banner -v error -i "$dis" -i "$ref" \
        -lavfi "[0:v][1:v]vqcuda=$opts:device=cpu:n_threads=${mode#cpu}" -f null - ;;
cuda)
    case $ref in
    *.mp4)
        "$ff" -nostdin -hide_banner -v error \
            -hwaccel cuda -hwaccel_output_format cuda -i "$dis" \
            -hwaccel cuda -hwaccel_output_format cuda -i "$ref" \
            -lavfi "[0:v][1:v]vqcuda=$opts:device=cuda" -f null - ;;
    *)
        if [ "$pix" = yuv422p10le ]; then
            "$ff" -nostdin -hide_banner -v error -i "$dis" -i "$ref" \
                -lavfi "[0:v][1:v]vqcuda=$opts:device=cuda" -f null -
        else
            "$ff" -nostdin -hide_banner -v error -init_hw_device cuda=gpu -filter_hw_device gpu \
                -i "$dis" -i "$ref" \
                -lavfi "[0:v]hwupload[d];[1:v]hwupload[r];[d][r]vqcuda=$opts:device=cuda" -f null -
        fi ;;
    esac ;;
*) echo "unknown mode $mode"; exit 2 ;;
esac
}
if [ -n "$refused" ]; then
    if run 2>"$out/$name.$mode.err"; then
        set +x
        echo "FAIL: the reference refused this pair, vqcuda scored it"; exit 1
    fi
    set +x
    cat "$out/$name.$mode.err"
    # (the set -x trace lines, "+ ...", name the filter too: not counted)
    grep -v '^+' "$out/$name.$mode.err" | grep -q 'vqcuda' ||
        { echo "FAIL: ffmpeg failed without a vqcuda error"; exit 1; }
    echo "refused, as the reference refuses it"
    exit 0
fi
run
set +x
python3 "$here/compare_golden.py" "$log" "$golden"
