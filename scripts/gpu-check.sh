#!/bin/bash
# Everything that needs the GPU, in one go, from a prebuilt tree (nothing is
# built here): every parity family (CUDA kernels vs the CPU executor), every
# golden file through NVDEC/hwupload, the ladders, the size-change stream,
# the library in host nv12/p010/p016 layouts on the CUDA executor,
# compute-sanitizer, ncu, and the benchmarks.
#   scripts/gpu-check.sh BUILD_DIR OUT_DIR [STAGE...]
# BUILD_DIR holds ffmpeg/ffmpeg and libvqcuda/{vqparity,glibc_powf_gpu,vqscore}.
# STAGE: parity, parity2, golden, sanitize, bench (default: all), so that each call
# of a time-limited machine can run a part; quick: the 11 default-model
# golden pairs, two ladders, the size-change stream, libvmaf_cuda's command
# line and two host layouts (an executor change, when there is little device
# time); ladder: the ladders alone, with and without graphs, and memcheck on one;
# capture: graph captures invalidated on purpose, then the goldens named *2160*
# STRESS times each with invalidated captures told (golden runs the first half).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath "$1")
out=$(realpath -m "$2")
shift 2
stages=" ${*:-parity parity2 golden sanitize bench} "
want() { [[ $stages == *" $1 "* ]]; }
mkdir -p "$out"
ff=$build/ffmpeg/ffmpeg
lib=$build/libvqcuda
data=$root/tests/data
. "$root/tests/clip_table.sh"   # clip_row, clip_names: the test pairs (tests/data/clips.tsv)
summary=$out/summary.txt
: >"$summary"
say() { echo "$*" | tee -a "$summary"; }
verdict() {   # verdict LOG: a golden or ladder run's verdict lines (exact N/M, SKIP and its reason, or the reference's refusal)
    grep -h -E 'exact|SKIP|^refused, as' "$1"
}
ladders() {   # ladders KIND...: inputs=N through NVDEC, each kind's rung logs against its goldens
    local kind
    for kind in "$@"; do
        "$root/tests/e2e_ladder.sh" "$ff" "$data/clips" "$data/golden" cuda "$out/ladder" $kind >"$out/ladder_$kind.log" 2>&1
        say "ladder $kind exit $?: $(verdict "$out/ladder_$kind.log" | sed 's|.*/golden/||' | tr '\n' ' ')"
    done
}
told() {   # told VARS LOG: with the capture trace on, how many invalidated captures LOG tells
    case $1 in *VQ_CUDA_CAPTURE_TRACE*) echo " $(grep -c 'capture was invalidated' "$2") told" ;; esac
}
golden_with() {   # golden_with TAG "VAR=VALUE..." NAME...: golden pairs through NVDEC under that environment
    local tag=$1 vars=$2 name log
    shift 2
    for name in "$@"; do
        [ -f "$data/golden/$name.json" ] || continue
        log=$out/${tag}_$name.log
        env $vars "$root/tests/e2e_golden.sh" "$ff" "$data/clips" "$data/golden/$name.json" cuda "$out/e2e_$tag" \
            >"$log" 2>&1
        say "$vars $name exit $?: $(verdict "$log" | head -1)$(told "$vars" "$log")"
    done
}
ladder_with() {   # ladder_with TAG "VAR=VALUE..." KIND: a ladder through NVDEC under that environment
    local log=$out/${1}_ladder.log
    env $2 "$root/tests/e2e_ladder.sh" "$ff" "$data/clips" "$data/golden" cuda "$out/ladder_$1" $3 >"$log" 2>&1
    say "$2 ladder $3 exit $?: $(verdict "$log" | sed 's|.*/golden/||' | tr '\n' ' ')$(told "$2" "$log")"
}

say "== $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
raw=/tmp/vqraw
"$root/tests/decode_raw.sh" "$ff" "$data/clips" "$raw" >/dev/null 2>&1
export VQ_RAW_DIR=$raw VQ_GOLDEN_DIR=$data/golden

if want quick; then
say "== quick: the default-model golden pairs, ladders, size changes, host layouts"
for name in $(clip_names); do
    case $name in dog1080_l*) continue ;; esac        # the ladder's rungs: ladders below
    [ -f "$data/golden/$name.json" ] || continue      # birds422p16: made from birds422p10, no log
    "$root/tests/e2e_golden.sh" "$ff" "$data/clips" "$data/golden/$name.json" cuda "$out/e2e" \
        >"$out/e2e_$name.log" 2>&1
    say "$name exit $?: $(verdict "$out/e2e_$name.log" | head -1 | sed 's|.*/golden/||')"
done
ladders bicubic same
python3 "$root/tests/e2e_noloss.py" "$ff" "$data/clips" "$data/golden" "$out/noloss" cuda >"$out/noloss.log" 2>&1
say "noloss exit $?: $(tail -1 "$out/noloss.log")"
# a command line written for FFmpeg's libvmaf_cuda (its scale_cuda steps
# included) through the alias: the golden's values
c=$data/clips
"$ff" -nostdin -v error -hwaccel cuda -hwaccel_output_format cuda -i "$c/dog1080_crf34.mp4" \
    -hwaccel cuda -hwaccel_output_format cuda -i "$c/dog1080_ref.mp4" \
    -lavfi "[0:v]scale_cuda=format=yuv420p[d];[1:v]scale_cuda=format=yuv420p[r];[d][r]libvmaf_cuda=log_fmt=json:log_path=$out/libvmaf_cuda.json" \
    -f null - >"$out/libvmaf_cuda.log" 2>&1 &&
    python3 "$root/tests/compare_golden.py" "$out/libvmaf_cuda.json" "$data/golden/dog1080.json" >>"$out/libvmaf_cuda.log" 2>&1
say "libvmaf_cuda with scale_cuda exit $?: $(grep -h exact "$out/libvmaf_cuda.log" | sed 's|.*/golden/||')"
for pair in dog1080 birds422p10; do
    set -- $pair $(clip_row $pair | cut -d' ' -f1-4,8)
    as=$6; [ "$as" = - ] && as=
    "$root/tests/lib_golden.sh" "$lib/vqscore" "$raw/$2.yuv" "$raw/$3.yuv" "$4" "$5" "$as" cuda \
        "$data/golden/$1.json" "$out/lib" >"$out/lib_$1.log" 2>&1
    say "lib $1 ${as:-planar} exit $?: $(grep -h exact "$out/lib_$1.log" | sed 's|.*/golden/||')"
done
fi

if want ladder; then
say "== ladders only (inputs=N, NVDEC; with and without graphs), memcheck on one"
ladders bicubic bicubic_x86 same
ladder_with nograph VQ_CUDA_GRAPHS=0 bicubic
if command -v compute-sanitizer >/dev/null; then
    c=$data/clips
    timeout 600 compute-sanitizer --tool memcheck --error-exitcode 9 "$ff" -nostdin -v error \
        -hwaccel cuda -hwaccel_output_format cuda -i "$c/dog1080_l720.mp4" \
        -hwaccel cuda -hwaccel_output_format cuda -i "$c/dog1080_l540.mp4" \
        -hwaccel cuda -hwaccel_output_format cuda -i "$c/dog1080_crf34.mp4" \
        -hwaccel cuda -hwaccel_output_format cuda -i "$c/dog1080_ref.mp4" -frames:v 6 \
        -lavfi "[0:v][1:v][2:v][3:v]vqcuda=inputs=4" -f null - >"$out/san_ladder.log" 2>&1
    say "memcheck ladder: exit $? $(grep -h 'ERROR SUMMARY' "$out/san_ladder.log" | tail -1)"
fi
fi

if want parity; then
say "== parity (CUDA kernels vs CPU executor, row for row / word for word)"
# vqparity's families (vqparity --list), each its own run: its own log, its
# own timeout, and a CUDA error that ends one does not stop the others
if [ -x "$lib/vqparity" ]; then
    for f in $("$lib/vqparity" --list | awk '{print $1}'); do
        timeout 900 "$lib/vqparity" --test "$f" >"$out/parity_$f.log" 2>&1
        say "vqparity --test $f exit $?: $(tail -1 "$out/parity_$f.log")"
    done
else
    say "vqparity: not built"
fi
# ciede at 8 bits without stage A's table (the device stage per pixel, as at
# other depths): the same words
if [ -x "$lib/vqparity" ]; then
    VQ_CUDA_CIEDE_TABLE=0 timeout 900 "$lib/vqparity" --test ciede >"$out/parity_ciede_notable.log" 2>&1
    say "vqparity --test ciede VQ_CUDA_CIEDE_TABLE=0 exit $?: $(tail -1 "$out/parity_ciede_notable.log")"
    # the kernel's other variants (ciede.md section 12): every pixel its own
    # word, and smaller blocks: the same words
    for v in VQ_CUDA_CIEDE_DEDUP=0 VQ_CUDA_CIEDE_ROWS=4; do
        env "$v" timeout 900 "$lib/vqparity" --test ciede --sizes 2 >"$out/parity_ciede_$v.log" 2>&1
        say "vqparity --test ciede $v exit $?: $(tail -1 "$out/parity_ciede_$v.log")"
    done
fi
# cambi's c-value blocks untrimmed, the window kernel's one-warp blocks, and
# the compact column kernel with 16 slots and without it (docs/cambi.md
# section 6): the same words
if [ -x "$lib/vqparity" ]; then
    for v in VQ_CUDA_CAMBI_TRIM=0 VQ_CUDA_CAMBI_STRIP=32 VQ_CUDA_CAMBI_SLOTS=16 VQ_CUDA_CAMBI_SLOTS=0; do
        env "$v" timeout 900 "$lib/vqparity" --test cambi >"$out/parity_cambi_$v.log" 2>&1
        say "vqparity --test cambi $v exit $?: $(tail -1 "$out/parity_cambi_$v.log")"
    done
fi
fi

if want parity2; then
say "== parity, part 2: glibc's powf on the device, VIF's other formulations, host layouts"
# (a stage of its own: with part 1 it takes over one 10-minute call on an H100)
# float_adm's adm_p_norm other than 3: the device's copy of glibc's powf
# against this host's on every non-negative float
if [ -x "$lib/glibc_powf_gpu" ]; then
    timeout 600 "$lib/glibc_powf_gpu" 1 1.5 2.5 7.3 20 >"$out/glibc_powf_gpu.log" 2>&1
    say "glibc_powf_gpu exit $?: $(tr '\n' ' ' <"$out/glibc_powf_gpu.log" | cut -c1-400)"
fi
# VIF's wide sums: the device picks doubles or integers (fast fp64 or not);
# run the formulations it did not pick too, so both are proven on any GPU
for w in int f64; do
    [ -x "$lib/vqparity" ] || break
    VQ_CUDA_VIF_WIDE=$w timeout 900 "$lib/vqparity" --test vmaf >"$out/parity_vmaf_wide_$w.log" 2>&1
    say "vqparity --test vmaf VQ_CUDA_VIF_WIDE=$w exit $?: $(tail -1 "$out/parity_vmaf_wide_$w.log")"
done
# VIF scale 0's log2 table: read from global memory where a block cannot
# have it in shared memory (the L4, A10, T4); with the integer wide sums,
# that is those GPUs' whole formulation
if [ -x "$lib/vqparity" ]; then
    VQ_CUDA_VIF_TABLE=global VQ_CUDA_VIF_WIDE=int timeout 900 "$lib/vqparity" --test vmaf >"$out/parity_vmaf_global.log" 2>&1
    say "vqparity --test vmaf VQ_CUDA_VIF_TABLE=global VQ_CUDA_VIF_WIDE=int exit $?: $(tail -1 "$out/parity_vmaf_global.log")"
fi

say "== library on the CUDA executor, host layouts (nv12/p010/p016, planar)"
# the pairs with a semiplanar layout in tests/data/clips.tsv, in it; two without, planar
for pair in dog1080 dog1080p10 dog1080p12 birds422p10 odd577x323; do
    read -r ref dis size fmt _ _ _ as < <(clip_row $pair)
    [ "$as" = - ] && as=
    "$root/tests/lib_golden.sh" "$lib/vqscore" "$raw/$ref.yuv" "$raw/$dis.yuv" "$size" "$fmt" "$as" cuda \
        "$data/golden/$pair.json" "$out/lib" >"$out/lib_${pair}_${as:-planar}.log" 2>&1
    say "lib $pair ${as:-planar} exit $?: $(grep -h exact "$out/lib_${pair}_${as:-planar}.log")"
done
fi

if want golden; then
say "== golden files on the GPU path"
pass=0 fail=0 skip=0
for g in "$data"/golden/*.json; do
    name=$(basename "$g" .json)
    case $name in dog1080_l*) continue ;; esac
    "$root/tests/e2e_golden.sh" "$ff" "$data/clips" "$g" cuda "$out/e2e" >"$out/e2e_$name.log" 2>&1
    rc=$?
    case $rc in 0) pass=$((pass + 1)) ;; 77) skip=$((skip + 1)) ;; *) fail=$((fail + 1)) ;; esac
    say "$name: $(verdict "$out/e2e_$name.log" | head -1) $( [ $rc -ne 0 ] && [ $rc -ne 77 ] && grep -h -m1 -E 'Error|error|failed' "$out/e2e_$name.log" | head -c 300)"
done
say "e2e cuda: $pass passed, $fail failed, $skip skipped"

say "== ladders (inputs=N, NVDEC)"
ladders bicubic bicubic_x86 same

say "== the same without CUDA graphs (VQ_CUDA_GRAPHS=0: every kernel launched directly)"
golden_with nograph VQ_CUDA_GRAPHS=0 dog1080 dog1080p10 dog1080.multi birds720.features
ladder_with nograph VQ_CUDA_GRAPHS=0 bicubic

say "== the size-change stream through NVDEC (default re-initialisation and -reinit_filter 0)"
python3 "$root/tests/e2e_noloss.py" "$ff" "$data/clips" "$data/golden" "$out/noloss" cuda >"$out/noloss.log" 2>&1
say "noloss exit $?: $(tail -1 "$out/noloss.log")"
fi



if want capture || want golden; then
say "== a failed graph capture, retried by running the frame directly (VQ_CUDA_FAIL_CAPTURE=N invalidates the Nth capture at its start, Nmid after its fork)"
for n in 1 2 3 1mid 2mid; do
    golden_with failcap$n "VQ_CUDA_FAIL_CAPTURE=$n VQ_CUDA_CAPTURE_TRACE=1" \
        dog1080 dog1080.multi dog2160.v1_hfr_3d0h_2160 birds720.features
done
# a ladder: the leader's capture holds the reference's work for every rendition
for n in 1 2mid; do
    ladder_with failcap$n "VQ_CUDA_FAIL_CAPTURE=$n VQ_CUDA_CAPTURE_TRACE=1" bicubic
done
fi

if want capture; then
# the golden files named *2160* (dog2160's pairs, the 2160 models on the
# other clips) through NVDEC, STRESS (default 4) times each, graphs on:
# where captures were seen invalidated by the decoders starting
say "== golden files *2160*, ${STRESS:-4} times each, captures traced (VQ_CUDA_CAPTURE_TRACE)"
pass=0 fail=0 skip=0 told=0 why=
for r in $(seq "${STRESS:-4}"); do
    for g in "$data"/golden/*2160*.json; do
        name=$(basename "$g" .json)
        VQ_CUDA_CAPTURE_TRACE=1 "$root/tests/e2e_golden.sh" "$ff" "$data/clips" "$g" cuda "$out/e2e_stress" \
            >"$out/stress.log" 2>&1
        rc=$?
        t=$(grep -c 'capture was invalidated' "$out/stress.log")
        told=$((told + t))
        case $rc in
        0) pass=$((pass + 1)) ;;
        77) skip=$((skip + 1)); [ -n "$why" ] || why=$(grep -h -m1 SKIP "$out/stress.log") ;;
        *) fail=$((fail + 1)); say "stress $r $name exit $rc: $(grep -h -m1 -E 'exact|rror|failed' "$out/stress.log" | head -c 300)" ;;
        esac
        [ "$t" -gt 0 ] && say "stress $r $name: $t invalidated capture(s) told, exit $rc"
    done
done
say "stress: $pass passed, $fail failed, $skip skipped$( [ $skip -gt 0 ] && echo " ($why)"), $told invalidated captures told"
fi

if want sanitize && command -v compute-sanitizer >/dev/null; then
    say "== compute-sanitizer (memcheck, racecheck): every feature, 1080p and 2160p, NVDEC"
    feats="name=psnr|name=float_ssim|name=float_ms_ssim|name=psnr_hvs|name=ciede|name=cambi|name=float_psnr|name=float_ansnr|name=float_moment|name=speed_temporal|name=float_vif|name=float_motion\\:motion_add_uv=true|name=float_adm\\:rcp=amd"
    for tool in memcheck racecheck; do
        for pair in dog1080 dog2160; do
            read -r ref dis _ < <(clip_row $pair)
            set -- "$dis" "$ref"   # the distorted clip first, as vqcuda takes them
            timeout 900 compute-sanitizer --tool $tool --error-exitcode 9 --target-processes all \
                "$ff" -nostdin -v error -hwaccel cuda -hwaccel_output_format cuda -i "$data/clips/$1.mp4" \
                -hwaccel cuda -hwaccel_output_format cuda -i "$data/clips/$2.mp4" -frames:v 4 \
                -lavfi "[0:v][1:v]vqcuda=feature='$feats'" -f null - >"$out/san_${tool}_$1.log" 2>&1
            say "$tool $1: exit $? $(grep -h -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/san_${tool}_$1.log" | tail -1)"
        done
    done
fi

if want sanitize && command -v ncu >/dev/null && [ -x "$lib/vqparity" ]; then
    say "== ncu: time, DRAM bytes and instructions of each kernel, second of two 1080p nv12 pairs; the issue floor"
    ncu --clock-control none --csv --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,sm__cycles_elapsed.avg.per_second,device__attribute_multiprocessor_count \
        "$lib/vqparity" --test vmaf --profile >"$out/ncu.csv" 2>"$out/ncu.err"
    python3 "$root/scripts/ncu-table.py" "$out/ncu.csv" | tee -a "$summary"
fi

if want bench; then
say "== bench"
"$root/scripts/bench" "$build" "$out/bench" >"$out/bench.log" 2>&1
cat "$out/bench/bench.txt" | tee -a "$summary"
fi
