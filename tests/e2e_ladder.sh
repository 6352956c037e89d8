#!/bin/bash
# Encode ladders through ffmpeg: vqcuda=inputs=N, one log per rendition
# (log_path with %d), each compared with libvmaf's golden log (==).
#   e2e_ladder.sh FFMPEG CLIPS_DIR GOLDEN_DIR MODE OUT_DIR KIND
# KIND: bicubic | bicubic_x86   the 720/540/360 renditions of dog1080_ref,
#                               upscaled inside vqcuda (goldens dog1080_l*.json
#                               / dog1080_l*.x86.json, made with swscale + libvmaf)
#       same                    two renditions of the reference's own size
#                               (dog1080_crf34 and dog1080_ref itself)
# MODE: cpu (software decoding, CPU executor) or cuda (NVDEC frames; exit 77 without a GPU).
set -euo pipefail
ff=$1 clips=$2 gold=$3 mode=$4 out=$5 kind=$6
mkdir -p "$out"
if [ "$mode" = cuda ] && { ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; }; then
    echo "SKIP: no NVIDIA GPU on this machine"; exit 77
fi
hw=()
[ "$mode" = cuda ] && hw=(-hwaccel cuda -hwaccel_output_format cuda)
case $kind in
bicubic|bicubic_x86)
    pairs=(dog1080_l720 dog1080_l540 dog1080_l360)
    sfx=$([ "$kind" = bicubic ] && echo "" || echo ".x86")
    opts="scaler=$kind:psnr=1" ;;
same)
    pairs=(dog1080 dog1080_self)
    sfx=""
    opts="scaler=none" ;;
*) echo "unknown kind $kind"; exit 2 ;;
esac
# each pair's distorted clip is a rendition, their reference (dog1080_ref) the
# last input (tests/data/clips.tsv); its golden log is <pair><sfx>.json
. "$(dirname "$0")/clip_table.sh"
rends=() goldens=()
for p in "${pairs[@]}"; do
    read -r ref dis _ < <(clip_row "$p")
    rends+=("$dis")
    goldens+=("$gold/$p$sfx.json")
done
args=() pads=""
for i in "${!rends[@]}"; do
    args+=("${hw[@]}" -i "$clips/${rends[$i]}.mp4")
    pads="$pads[$i:v]"
done
n=${#rends[@]}
args+=("${hw[@]}" -i "$clips/$ref.mp4")
pads="$pads[$n:v]"
log="$out/ladder_${kind}_${mode}_%d.json"
rm -f "$out"/ladder_${kind}_${mode}_*.json
set -x
"$ff" -nostdin -hide_banner -nostats -v warning "${args[@]}" \
    -lavfi "${pads}vqcuda=inputs=$((n + 1)):$opts:log_path=$log:device=$mode" -f null -
set +x
rc=0
for i in "${!rends[@]}"; do
    python3 "$(dirname "$0")/compare_golden.py" "$out/ladder_${kind}_${mode}_$((i + 1)).json" "${goldens[$i]}" || rc=1
done
exit $rc
