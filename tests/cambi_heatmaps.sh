#!/bin/bash
# cambi's heatmaps_path through the library (vqscore) against the files
# libvmaf v3.2.0 wrote (tests/data/golden_parts/cambi_heatmaps/README.json:
# the clips, crops and the reference's arguments), byte for byte (cmp), and
# nothing else left in the directory (no temporary file).
#   cambi_heatmaps.sh VQSCORE FFMPEG CLIPS_DIR GOLDEN_DIR OUT_DIR EXEC(cpu|cpu3|cuda)
# Exit 77 (skipped): no FFmpeg to decode the clips, or EXEC cuda without a GPU.
set -u
vqscore=$1 ff=$2 clips=$3 golden=$4 out=$5 exe=$6
if [ -z "$ff" ] || [ ! -x "$ff" ]; then echo "SKIP: no ffmpeg to decode the clips"; exit 77; fi
if [ "$exe" = cuda ] && ! nvidia-smi -L >/dev/null 2>&1; then echo "SKIP: no GPU"; exit 77; fi
threads=1
if [ "$exe" = cpu3 ]; then exe=cpu threads=3; fi
rm -rf "$out" && mkdir -p "$out" || exit 1
fail=0
# pair ref dist crop frames pix_fmt size vqscore-options
run() {
    local pair=$1 ref=$2 dis=$3 crop=$4 n=$5 pf=$6 size=$7 opts=$8 feat=$9
    for c in "$ref" "$dis"; do
        "$ff" -nostdin -v error -i "$clips/$c" -vf "crop=$crop" -frames:v "$n" -f rawvideo \
            -y "$out/${c%.*}.yuv" || { echo "FAIL $pair: decoding $c"; fail=1; return; }
    done
    local dir="$out/$pair/heat" f=name=cambi
    [ -n "$feat" ] && f="$f:$feat"
    if ! "$vqscore" -r "$out/${ref%.*}.yuv" -d "$out/${dis%.*}.yuv" -s "$size" -f "$pf" -e "$exe" \
            -t "$threads" -m none $opts -F "$f:heatmaps_path=$dir" -o "$out/$pair.json"; then
        echo "FAIL $pair: vqscore failed"; fail=1; return
    fi
    local want got
    want=$(cd "$golden/$pair" && ls cambi_heatmap_* | sort)
    got=$(cd "$dir" && ls -A | sort)
    if [ "$want" != "$got" ]; then
        echo "FAIL $pair: files differ:"; echo "  libvmaf: $want" | tr '\n' ' '; echo
        echo "  vqcuda:  $got" | tr '\n' ' '; echo; fail=1; return
    fi
    for g in $want; do
        if cmp "$golden/$pair/$g" "$dir/$g"; then echo "ok   $pair/$g"; else echo "FAIL $pair/$g"; fail=1; fi
    done
}
run balle576 balle576_ref.mp4 balle576_crf36.mp4 240:136:400:200 2 yuv420p 240x136 "" ""
run birds422p10 birds422p10_ref.mkv birds422p10_dist.mkv 256:144:0:0 4 yuv422p10le 256x144 "-u 2" "full_ref=true"
exit $fail
