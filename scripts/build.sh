#!/bin/bash
# Build everything (libvqcuda and an ffmpeg with the vqcuda filter) and score
# the bundled sample pair: on the GPU through NVDEC where there is one, else on
# the CPU path.
#   scripts/build.sh [BUILD_DIR]     (default: build)
#   FFMPEG_VERSION=7.1|8.1|9.0 picks the FFmpeg release (default 8.1; see
#   docs/ffmpeg-versions.md), as do the other variables of build-ffmpeg.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath -m "${1:-$root/build}")
export PATH=/usr/local/cuda/bin:$PATH
"$root/scripts/deps.sh"
"$root/scripts/build-ffmpeg.sh" "$build"
ff=$build/ffmpeg/ffmpeg
clips=$root/tests/data/clips
out=$build/sample.json
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
    echo "== scoring the sample on the GPU (NVDEC frames)"
    "$ff" -nostdin -hide_banner -hwaccel cuda -hwaccel_output_format cuda -i "$clips/dog1080_crf34.mp4" \
          -hwaccel cuda -hwaccel_output_format cuda -i "$clips/dog1080_ref.mp4" \
          -lavfi "[0:v][1:v]vqcuda=log_path=$out" -f null -
else
    echo "== no GPU here: scoring the sample on the CPU path"
    "$ff" -nostdin -hide_banner -i "$clips/dog1080_crf34.mp4" -i "$clips/dog1080_ref.mp4" \
          -lavfi "[0:v][1:v]vqcuda=log_path=$out:n_threads=$(nproc)" -f null -
fi
python3 "$root/tests/compare_golden.py" "$out" "$root/tests/data/golden/dog1080.json"
echo "log: $out"
