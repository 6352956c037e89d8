#!/usr/bin/env python3
"""Nothing scored is ever lost, through ffmpeg (CPU path):
 - a stream whose size changes mid-way (birds720, 31 frames, then dog1080,
   41 frames, both inputs at the same frame), with FFmpeg's default filter
   re-initialisation and with -reinit_filter 0: all 72 frames scored, two
   sections, each equal to the golden log of its pair scored alone, pooled
   values over every frame in frame order (libvmaf's formulas);
 - a log that cannot be written at the end fails the run (/dev/full);
 - a log that existed before a run that fails is still intact after it.
    e2e_noloss.py FFMPEG CLIPS_DIR GOLDEN_DIR OUT_DIR [cuda]
 cuda: the size-change stream decoded by NVDEC and scored on the GPU."""
import json
import os
import subprocess
import sys

ff, clips, gold, out = sys.argv[1:5]
cuda = len(sys.argv) > 5 and sys.argv[5] == "cuda"
hw = ["-hwaccel", "cuda", "-hwaccel_output_format", "cuda"] if cuda else []


def have_gpu():
    try:
        return subprocess.run(["nvidia-smi", "-L"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL).returncode == 0
    except OSError:
        return False


if cuda and not have_gpu():   # as the other GPU tests: ctest's skip code
    print("SKIP: no NVIDIA GPU on this machine")
    sys.exit(77)
os.makedirs(out, exist_ok=True)
failed = 0


def check(ok, what, detail=""):
    global failed
    print(f"{'ok  ' if ok else 'FAIL'} {what}{': ' + detail if detail else ''}")
    failed += not ok


def annexb(clip, dst):
    subprocess.run([ff, "-nostdin", "-v", "error", "-y", "-i", os.path.join(clips, clip), "-c", "copy",
                    "-bsf:v", "h264_mp4toannexb", "-f", "h264", dst], check=True)


def concat(parts, dst):
    with open(dst, "wb") as o:
        for p in parts:
            with open(p, "rb") as i:
                o.write(i.read())


# the size-change stream: both inputs switch from 1280x720 to 1920x1080 at frame 31
tmp = {}
for c in ("birds720_crf30", "birds720_ref", "dog1080_crf34", "dog1080_ref"):
    tmp[c] = os.path.join(out, c + ".h264")
    annexb(c + ".mp4", tmp[c])
dist, ref = os.path.join(out, "change_dist.h264"), os.path.join(out, "change_ref.h264")
concat([tmp["birds720_crf30"], tmp["dog1080_crf34"]], dist)
concat([tmp["birds720_ref"], tmp["dog1080_ref"]], ref)

g1 = json.load(open(os.path.join(gold, "birds720.json")))
g2 = json.load(open(os.path.join(gold, "dog1080.json")))
want = [f["metrics"] for f in g1["frames"]] + [f["metrics"] for f in g2["frames"]]


def pooled(values):
    s = i_s = 0.0
    for v in values:
        s += v
        i_s += 1.0 / (v + 1.0)
    return {"min": min(values), "max": max(values), "mean": s / len(values),
            "harmonic_mean": len(values) / i_s - 1.0}


for name, extra in (("default re-initialisation", []), ("-reinit_filter 0", ["-reinit_filter", "0"])):
    log = os.path.join(out, "change_" + ("reinit" if not extra else "noreinit") + ".json")
    if os.path.exists(log):
        os.remove(log)
    cmd = [ff, "-nostdin", "-hide_banner", "-stats", "-v", "warning", *extra, *hw, "-i", dist, *extra, *hw, "-i", ref,
           "-lavfi", f"[0:v][1:v]vqcuda=log_path={log}:device={'cuda' if cuda else 'cpu'}",
           "-noautoscale", "-f", "null", "-"]   # frames of the new size go on as they are
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    if r.returncode != 0 or not os.path.exists(log):
        check(False, f"size change, {name}", f"exit {r.returncode}: {r.stderr.strip()[-400:]}")
        continue
    d = json.load(open(log))
    frames = {f["frameNum"]: f["metrics"] for f in d["frames"]}
    total = exact = 0
    for i, m in enumerate(want):
        for k, v in m.items():
            total += 1
            exact += frames.get(i, {}).get(k) == v
    secs = [(s["first_frame"], s["width"], s["height"]) for s in d.get("sections", [])]
    import re
    sent = [int(x) for x in re.findall(r"frame= *(\d+)", r.stderr)]
    check(sent and sent[-1] == 72, f"size change, {name}: every frame passed on", f"{sent[-1] if sent else '?'}/72 frames out")
    check(len(frames) == 72 and exact == total, f"size change, {name}: frames scored",
          f"{len(frames)}/72, values exact {exact}/{total}")
    check(secs == [(0, 1280, 720), (31, 1920, 1080)], f"size change, {name}: sections", str(secs))
    ptotal = pexact = 0
    for k in want[0]:
        p = pooled([m[k] for m in want])
        for j, v in p.items():
            ptotal += 1
            pexact += d["pooled_metrics"].get(k, {}).get(j) == v
    check(pexact == ptotal, f"size change, {name}: pooled over both sections", f"exact {pexact}/{ptotal}")

# a log that cannot be written at the end: a non-zero exit naming the path
small_d, small_r = os.path.join(clips, "small36x34_dist.mkv"), os.path.join(clips, "small36x34_ref.mkv")
r = subprocess.run([ff, "-nostdin", "-hide_banner", "-nostats", "-v", "error", "-i", small_d, "-i", small_r,
                    "-lavfi", "[0:v][1:v]vqcuda=log_path=/dev/full:log_fmt=json:device=cpu", "-f", "null", "-"],
                   capture_output=True, text=True, timeout=300)
check(r.returncode > 0 and "/dev/full" in r.stderr, "log_path=/dev/full fails the run",
      f"exit {r.returncode}: {r.stderr.strip().splitlines()[-1] if r.stderr.strip() else ''}")

# a good log from an earlier run survives a run that fails
keep = os.path.join(out, "keep.json")
r = subprocess.run([ff, "-nostdin", "-v", "error", "-i", small_d, "-i", small_r,
                    "-lavfi", f"[0:v][1:v]vqcuda=log_path={keep}:device=cpu", "-f", "null", "-"],
                   capture_output=True, text=True, timeout=300)
before = open(keep, "rb").read() if os.path.exists(keep) else b""
r = subprocess.run([ff, "-nostdin", "-v", "error", "-i", small_d, "-i", os.path.join(clips, "birds720_ref.mp4"),
                    "-lavfi", f"[0:v][1:v]vqcuda=log_path={keep}:scaler=none:device=cpu", "-f", "null", "-"],
                   capture_output=True, text=True, timeout=300)
after = open(keep, "rb").read() if os.path.exists(keep) else b""
check(r.returncode > 0 and before and before == after, "an earlier log survives a failed run",
      f"exit {r.returncode}, {len(before)} bytes before, {len(after)} after")
check(not [f for f in os.listdir(out) if f.startswith("keep.json.")], "no temporary file left beside the log")

print(f"{8 + 3 - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
