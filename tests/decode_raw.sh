#!/bin/bash
# Decode every bundled clip to raw planar YUV (the tests' VQ_RAW_DIR), once.
#   decode_raw.sh FFMPEG CLIPS_DIR OUT_DIR
set -euo pipefail
ff=$1 clips=$2 out=$3
mkdir -p "$out"
for f in "$clips"/*.mp4 "$clips"/*.mkv; do
    b=$(basename "${f%.*}")
    [ -s "$out/$b.yuv" ] && continue
    "$ff" -nostdin -v error -i "$f" -f rawvideo -y "$out/$b.yuv.tmp"
    mv "$out/$b.yuv.tmp" "$out/$b.yuv"
done
echo "decoded $(ls "$out"/*.yuv | wc -l) clips into $out"
