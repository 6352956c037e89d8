#!/bin/bash
# ffmpeg-quality-metrics (PyPI, unmodified) pointed at our ffmpeg: it looks
# for the filter by libvmaf's name, runs its own libvmaf filter chain
# (settb, setpts, split, scale with a reference input, libvmaf with
# model=path=...:log_fmt=json:n_threads:n_subsample:shortest:repeatlast)
# and its per-frame VMAF values must equal the golden ones (==).
#   e2e_fqm.sh FFMPEG CLIPS_DIR GOLDEN_JSON OUT_DIR
# Exit 77 (skip, reason printed) when the package cannot be installed.
set -euo pipefail
ff=$1 clips=$2 golden=$3 out=$4
version=3.13.0
venv=$out/fqm-venv
mkdir -p "$out"
if [ ! -x "$venv/bin/ffmpeg-quality-metrics" ]; then
    rm -rf "$venv"
    python3 -m venv "$venv" || { echo "SKIP: python3 -m venv is not available"; exit 77; }
    "$venv/bin/pip" install -q "ffmpeg-quality-metrics==$version" ||
        { echo "SKIP: ffmpeg-quality-metrics $version could not be installed from PyPI"; exit 77; }
fi
ref=$clips/$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["reference"])' "$golden")
dis=$clips/$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["distorted"])' "$golden")
res=$out/fqm.$(basename "$golden")
"$venv/bin/ffmpeg-quality-metrics" "$dis" "$ref" -m vmaf --ffmpeg-path "$ff" -of json > "$res"
python3 - "$res" "$golden" <<'PY'
import json, sys
ours, gold = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
frames = {f["n"] - 1: f for f in ours["vmaf"]}
total = bad = 0
for f in gold["frames"]:
    got = frames.get(f["frameNum"], {})
    for key, want in f["metrics"].items():
        total += 1
        if got.get(key) != want:
            bad += 1
            if bad <= 10:
                print(f"frame {f['frameNum']} {key}: got {got.get(key)!r} want {want!r}")
if len(frames) != len(gold["frames"]):
    bad += 1
    print(f"{len(frames)} frames reported, the golden has {len(gold['frames'])}")
print(f"ffmpeg-quality-metrics on {sys.argv[2]}: exact {total - bad}/{total}")
sys.exit(1 if bad else 0)
PY
