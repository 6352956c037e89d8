#!/bin/bash
# vqscore over raw frames, in a given host layout and executor, against golden.
#   lib_golden.sh VQSCORE REF DIS WxH PIXFMT AS(nv12|p010|p016|"") EXEC(cpu|cuda) GOLDEN OUT_DIR [VQSCORE ARGS...]
# (extra arguments go to vqscore, e.g. -F name=adm:... for a golden of some columns)
set -euo pipefail
vq=$1 ref=$2 dis=$3 size=$4 fmt=$5 as=$6 exec=$7 golden=$8 out=$9
shift 9
if [ "$exec" = cuda ] && ! { command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; }; then
    echo "SKIP: no NVIDIA GPU on this machine"; exit 77
fi
if [ "$exec" = cpu ] && [ -n "${VQ_CPU_SIMD:-}" ] && [ "$("$vq" --simd)" != "$VQ_CPU_SIMD" ]; then
    echo "SKIP: this CPU has no $VQ_CPU_SIMD row loops (it uses $("$vq" --simd))"; exit 77
fi
mkdir -p "$out"
log=$out/lib_$(basename "$golden" .json)_${as:-planar}_$exec.json
args=(-r "$ref" -d "$dis" -s "$size" -f "$fmt" -e "$exec" -o "$log")
[ -n "$as" ] && args+=(-a "$as")
# refused_by_reference: libvmaf failed on this pair; the library must refuse it too
if python3 -c 'import json,sys; sys.exit(0 if "refused_by_reference" in json.load(open(sys.argv[1])) else 1)' \
        "$golden"; then
    if "$vq" "${args[@]}" "$@" 2>"$log.err"; then
        echo "FAIL: the reference refused this pair, vqcuda scored it"; exit 1
    fi
    cat "$log.err"
    # the library's refusal, not a usage or input error of vqscore's own
    grep -v -e 'missing or bad arguments' -e 'cannot open input' -e 'vqscore: -a ' "$log.err" |
        grep -q '^vqscore: ' || { echo "FAIL: vqscore failed without the library's refusal"; exit 1; }
    echo "refused, as the reference refuses it"
    exit 0
fi
"$vq" "${args[@]}" "$@"
python3 "$(dirname "$0")/compare_golden.py" "$log" "$golden"
