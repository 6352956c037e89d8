#!/usr/bin/env python3
"""Integer motion's columns of libvmaf logs whose other features vqcuda does
not compute yet (the HFR models: speed_chroma, ADM's CSF mode 2), scored by
vqscore with the motion feature alone (plus the default model, which needs
its own motion: both SADs, against frame n-1 and n-2, in one run) and
compared with == every frame.

  lib_motion_parts.py VQSCORE RAW_DIR GOLDEN_PARTS_DIR OUT_DIR EXEC(cpu|cuda)

Golden files: <pair>.v1_hfr_*.json (motion_five_frame_window, moving
average, max 18) and <pair>.v1_3d0h.json (max 18).  Exit 77 (skip) when no
raw frames are at hand.
"""
import glob
import json
import os
import subprocess
import sys

from clip_table import pairs

# the pairs with motion columns: reference, distorted, size, pixel format (tests/data/clips.tsv)
PAIRS = pairs("balle576", "birds720", "dog1080", "dog1080_self", "dog1080p10", "dog1080p12",
              "dog2160", "odd577x323", "birds422p10", "checker1080")

# the model file's motion options -> vqscore's feature string and the suffix of the columns
KINDS = {
    "v1_hfr": ("name=motion:motion_five_frame_window=true:motion_moving_average=true:motion_max_val=18",
               "_mffw_mmxv_18_mma"),
    "v1_3d0h": ("name=motion:motion_max_val=18", "_mmxv_18"),
}


def main():
    vq, raw, gold_dir, out, exe = sys.argv[1:6]
    if exe == "cuda" and subprocess.run("nvidia-smi -L", shell=True, capture_output=True).returncode:
        print("SKIP: no NVIDIA GPU on this machine")
        return 77
    raw = os.environ.get("VQ_RAW_DIR", raw)
    os.makedirs(out, exist_ok=True)
    runs = {}   # (pair, kind) -> log, one run serving every model file of the kind
    total = exact = files = 0
    failed = []
    for g in sorted(glob.glob(os.path.join(gold_dir, "*.v1_*.json"))):
        name = os.path.basename(g)[:-5]
        pair, model = name.split(".", 1)
        kind = "v1_hfr" if model.startswith("v1_hfr") else model
        if pair not in PAIRS or kind not in KINDS:
            continue
        ref, dis, size, fmt = PAIRS[pair]
        rp, dp = os.path.join(raw, ref + ".yuv"), os.path.join(raw, dis + ".yuv")
        if not (os.path.exists(rp) and os.path.exists(dp)):
            print(f"{name}: no raw frames ({rp})")
            continue
        feat, suffix = KINDS[kind]
        if (pair, kind) not in runs:
            log = os.path.join(out, f"motion_parts_{pair}_{kind}_{exe}.json")
            r = subprocess.run([vq, "-r", rp, "-d", dp, "-s", size, "-f", fmt, "-e", exe, "-F", feat, "-o", log],
                               capture_output=True, text=True)
            if r.returncode:
                print(f"FAIL {name}: vqscore: {r.stderr.strip()}")
                failed.append(name)
                runs[(pair, kind)] = None
                continue
            runs[(pair, kind)] = json.load(open(log))
        got = runs[(pair, kind)]
        if got is None:
            failed.append(name)
            continue
        want = json.load(open(g))
        files += 1
        if len(got["frames"]) != len(want["frames"]):
            print(f"FAIL {name}: {len(got['frames'])} frames, golden {len(want['frames'])}")
            failed.append(name)
            continue
        for col in ("VMAF_integer_feature_motion_sad_score", "integer_motion2", "integer_motion3"):
            c = col + suffix
            n = ok = 0
            first_bad = None
            for i, (a, b) in enumerate(zip(got["frames"], want["frames"])):
                if c not in b["metrics"]:
                    continue
                n += 1
                x = a["metrics"].get(c)
                if x == b["metrics"][c]:
                    ok += 1
                elif first_bad is None:
                    first_bad = (i, x, b["metrics"][c])
            if n == 0:
                print(f"FAIL {name}: golden has no {c}")
                failed.append(name)
            total += n
            exact += ok
            print(f"{name} {c}: {ok}/{n} exact" + (f"; first diff frame {first_bad[0]}: {first_bad[1]!r} "
                                                    f"!= {first_bad[2]!r}" if first_bad else ""))
            if ok != n:
                failed.append(name)
    if not files and not failed:
        print("SKIP: no raw frames for any golden file")
        return 77
    print(f"{exact}/{total} values exact over {files} golden files ({exe})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
