#!/bin/bash
# vqscore over raw frames, in a given host layout and executor, against golden.
#   lib_golden.sh VQSCORE REF DIS WxH PIXFMT AS(nv12|p010|p016|"") EXEC(cpu|cuda) GOLDEN OUT_DIR [VQSCORE ARGS...]
# (extra arguments go to vqscore, e.g. -F name=adm:... for a golden of some columns;
# --golden-args [MORE...] instead: the model and features the golden's oracle_args name,
# from tests/golden_args.py, then MORE; where the golden records refused_by_reference,
# vqscore must refuse the pair too, with a message naming the extractor the reference names)
set -euo pipefail
vq=$1 ref=$2 dis=$3 size=$4 fmt=$5 as=$6 exec=$7 golden=$8 out=$9
shift 9
if [ "$exec" = cuda ] && ! { command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; }; then
    echo "SKIP: no NVIDIA GPU on this machine"; exit 77
fi
if [ "$exec" = cpu ] && [ -n "${VQ_CPU_SIMD:-}" ] && [ "$("$vq" --simd)" != "$VQ_CPU_SIMD" ]; then
    echo "SKIP: this CPU has no $VQ_CPU_SIMD row loops (it uses $("$vq" --simd))"; exit 77
fi
extra=("$@")
refused=
if [ "${1:-}" = --golden-args ]; then
    rc=0
    ga=$(python3 "$(dirname "$0")/golden_args.py" "$golden" "$exec" --vqscore) || rc=$?
    if [ $rc -eq 77 ]; then echo "$ga"; exit 77; fi
    [ $rc -eq 0 ] || exit $rc
    mapfile -t extra <<<"$ga"
    extra+=("${@:2}")   # what follows --golden-args goes to vqscore too
    # the extractor the reference names in its refusal (else "yes")
    refused=$(python3 -c 'import json,re,sys; r=json.load(open(sys.argv[1])).get("refused_by_reference")
m=re.search(r"feature extractor \"(\w+)\"", r or ""); print(m.group(1) if m else "yes" if r is not None else "")' "$golden")
fi
mkdir -p "$out"
log=$out/lib_$(basename "$golden" .json)_${as:-planar}_$exec.json
args=(-r "$ref" -d "$dis" -s "$size" -f "$fmt" -e "$exec" -o "$log")
[ -n "$as" ] && args+=(-a "$as")
if [ -n "$refused" ]; then
    rm -f "$log"
    if "$vq" "${args[@]}" "${extra[@]}" 2>"$log.err"; then
        echo "FAIL: the reference refused this pair, vqscore scored it"; exit 1
    fi
    cat "$log.err"
    grep -q '^vqscore: ..*' "$log.err" || { echo "FAIL: vqscore failed without a message"; exit 1; }
    if [ "$refused" != yes ] && ! grep -q "$refused" "$log.err"; then
        echo "FAIL: the reference refused $refused, vqscore's message does not name it"; exit 1
    fi
    echo "refused, as the reference refuses it"
    exit 0
fi
"$vq" "${args[@]}" "${extra[@]}"
python3 "$(dirname "$0")/compare_golden.py" "$log" "$golden"
