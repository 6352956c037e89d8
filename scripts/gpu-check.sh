#!/bin/bash
# Everything that needs the GPU, in one go, from a prebuilt tree (nothing is
# built here): the parity tool, every golden pair through NVDEC/hwupload,
# library-level runs in host nv12/p010/p016 layouts on the CUDA executor,
# compute-sanitizer on the 1080p and 2160p pairs, and the benchmark.
#   scripts/gpu-check.sh BUILD_DIR OUT_DIR
# BUILD_DIR holds ffmpeg/ffmpeg and lib/{vqparity,vqscore}.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath "$1")
out=$(realpath -m "$2")
mkdir -p "$out"
ff=$build/ffmpeg/ffmpeg
data=$root/tests/data
summary=$out/summary.txt
: >"$summary"
say() { echo "$*" | tee -a "$summary"; }

say "== $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"

say "== parity (CUDA kernels vs CPU executor)"
"$build/libvqcuda/vqparity" --sizes 6 >"$out/parity.log" 2>&1
say "parity exit $?: $(tail -1 "$out/parity.log")"

say "== golden pairs on the GPU path"
pass=0 fail=0
for g in "$data"/golden/*.json; do
    name=$(basename "$g" .json)
    model=
    case $name in *.*) model=$root/devcarry/models/${name#*.}.json ;; esac
    if "$root/tests/e2e_golden.sh" "$ff" "$data/clips" "$g" cuda "$out/e2e" $model >"$out/e2e_$name.log" 2>&1; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
    fi
    say "$(grep -h 'exact' "$out/e2e_$name.log" | head -1) $(grep -h -m1 -E 'Error|error|failed' "$out/e2e_$name.log" | head -c 300)"
done
say "e2e cuda: $pass passed, $fail failed"

say "== library on the CUDA executor, host layouts (nv12/p010/p016, planar)"
raw=/tmp/vqraw
"$root/tests/decode_raw.sh" "$ff" "$data/clips" "$raw" >/dev/null 2>&1
while read -r pair ref dis size fmt as; do
    [ "$as" = - ] && as=
    "$root/tests/lib_golden.sh" "$build/libvqcuda/vqscore" "$raw/$ref.yuv" "$raw/$dis.yuv" "$size" "$fmt" "$as" cuda \
        "$data/golden/$pair.json" "$out/lib" >"$out/lib_${pair}_${as:-planar}.log" 2>&1
    say "lib $pair ${as:-planar} exit $?: $(grep -h exact "$out/lib_${pair}_${as:-planar}.log")"
done <<'LIST'
dog1080 dog1080_ref dog1080_crf34 1920x1080 yuv420p nv12
dog1080p10 dog1080p10_ref dog1080p10_crf30 1920x1080 yuv420p10 p010
dog1080p12 dog1080p12_ref dog1080p12_crf30 1920x1080 yuv420p12 p016
birds422p10 birds422p10_ref birds422p10_dist 640x360 yuv422p10 -
odd577x323 odd577x323_ref odd577x323_dist 577x323 yuv444p -
LIST

if command -v compute-sanitizer >/dev/null; then
    say "== compute-sanitizer (memcheck, racecheck) on the 1080p and 2160p pairs"
    for tool in memcheck racecheck; do
        for p in "dog1080_crf34 dog1080_ref" "dog2160_crf32 dog2160_ref"; do
            set -- $p
            compute-sanitizer --tool $tool --error-exitcode 9 --target-processes all \
                "$ff" -nostdin -v error -hwaccel cuda -hwaccel_output_format cuda -i "$data/clips/$1.mp4" \
                -hwaccel cuda -hwaccel_output_format cuda -i "$data/clips/$2.mp4" -frames:v 6 \
                -lavfi "[0:v][1:v]vqcuda" -f null - >"$out/san_${tool}_$1.log" 2>&1
            say "$tool $1: exit $? $(grep -h -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/san_${tool}_$1.log" | tail -1)"
        done
    done
fi

if command -v ncu >/dev/null; then
    say "== ncu: time and DRAM bytes of each kernel, second of two 1080p nv12 pairs"
    ncu --clock-control none --csv --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum \
        "$build/libvqcuda/vqparity" --profile >"$out/ncu.csv" 2>"$out/ncu.err"
    python3 "$root/scripts/ncu-table.py" "$out/ncu.csv" | tee -a "$summary"
fi

say "== bench"
"$root/scripts/bench" "$build" "$out/bench" >"$out/bench.log" 2>&1
cat "$out/bench/bench.txt" | tee -a "$summary"
