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
"$vq" "${args[@]}" "$@"
python3 "$(dirname "$0")/compare_golden.py" "$log" "$golden"
