#!/usr/bin/env python3
"""float_vif and float_motion against libvmaf's logs, through the library:
vqscore (model=none, the two features alone, with the options the golden's
oracle_args give them) over the raw frames, then compare_golden.py (== on
every frame and pooled value of the golden's columns) and the columns' order
(the golden's columns appear in our log in the same order).

  lib_float_goldens.py VQSCORE RAW_DIR OUT_DIR EXEC(cpu|cpu3|cuda) GOLDEN.json...

(cpu3: the CPU executor on 3 threads, the row bands side by side.  VQ_LIB_AS=nv12|p010|p016:
the pictures in that semiplanar host layout.)

Goldens: tests/data/golden_columns/*.vifmotion.json (the float_vif/float_motion
columns of ../shared/golden's float model logs: the models' vif with
vif_enhn_gain_limit 1 for vmaf_float_v0.6.1neg), and
tests/data/golden_parts/float_options/*.json (the options no model uses,
made by libvmaf v3.2.0's library, C path, %.17g: `produced_by`).  A golden
with refused_by_reference must be refused.  birds422p16 is birds422p10's
frames as 16-bit samples (v << 6 | v >> 4), made here in OUT_DIR.  Exit 77
(skip) without raw frames.
"""
import array
import json
import os
import shlex
import subprocess
import sys

from clip_table import pairs

# pair: reference, distorted, size, pixel format (tests/data/clips.tsv)
PAIRS = pairs("balle576", "birds720", "dog1080", "dog1080_self", "dog1080p10", "dog1080p12",
              "dog2160", "odd577x323", "birds422p10", "birds422p16", "checker1080", "small36x34")
MINE = ("float_vif", "float_motion")


def features(g):
    """vqscore's -F for the golden's float_vif / float_motion, and its frame count"""
    out, n = [], -1
    args = shlex.split(g.get("oracle_args", ""))
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("-m", "--model"):
            kv = dict(x.split("=", 1) for x in args[i + 1].split(":"))
            egl = ":vif_enhn_gain_limit=1" if kv.get("version", "").endswith("neg") else ""
            # the model's features register float_adm, float_motion, float_vif in that order
            out += ["name=float_motion", "name=float_vif" + egl]
            i += 2
        elif a == "--feature":
            name, _, opts = args[i + 1].partition("=")
            if name in MINE:
                out.append("name=" + name + (":" + opts if opts else ""))
            i += 2
        elif a == "--frame_cnt":
            n = int(args[i + 1])
            i += 2
        else:
            i += 1
    return "|".join(out), n


def raw_path(raw, out, name):
    p = os.path.join(raw, name + ".yuv")
    if os.path.exists(p) or "p16_" not in name:
        return p
    src = os.path.join(raw, name.replace("p16_", "p10_") + ".yuv")
    dst = os.path.join(out, name + ".yuv")
    if os.path.exists(src) and not os.path.exists(dst):
        a = array.array("H")
        a.frombytes(open(src, "rb").read())
        b = array.array("H", ((v << 6) | (v >> 4) for v in a))
        with open(dst + ".tmp", "wb") as f:
            f.write(b.tobytes())
        os.replace(dst + ".tmp", dst)
    return dst


def main():
    vq, raw, out, exe = sys.argv[1:5]
    goldens = sys.argv[5:]
    if exe == "cuda" and subprocess.run("nvidia-smi -L", shell=True, capture_output=True).returncode:
        print("SKIP: no NVIDIA GPU on this machine")
        return 77
    raw = os.environ.get("VQ_RAW_DIR", raw)
    os.makedirs(out, exist_ok=True)
    cmp = os.path.join(os.path.dirname(os.path.abspath(__file__)), "compare_golden.py")
    runs = {}
    failed, done = [], 0
    for gpath in goldens:
        name = os.path.basename(gpath)[:-5]
        pair = name.split(".", 1)[0]
        g = json.load(open(gpath))
        feats, n = features(g)
        ref, dis, size, fmt = PAIRS[pair]
        rp, dp = raw_path(raw, out, ref), raw_path(raw, out, dis)
        if not (os.path.exists(rp) and os.path.exists(dp)):
            print(f"{name}: no raw frames ({rp})")
            continue
        key = (pair, feats, n)
        if key not in runs:
            log = os.path.join(out, f"float_{name}_{exe}{os.environ.get('VQ_LIB_AS', '')}.json")
            cmd = [vq, "-r", rp, "-d", dp, "-s", size, "-f", fmt, "-e", exe.rstrip("3"), "-m", "none", "-F", feats,
                   "-o", log] + (["-t", "3"] if exe == "cpu3" else [])
            if os.environ.get("VQ_LIB_AS"):
                cmd += ["-a", os.environ["VQ_LIB_AS"]]
            if n >= 0:
                cmd += ["-n", str(n)]
            r = subprocess.run(cmd, capture_output=True, text=True)
            runs[key] = (r, log)
        r, log = runs[key]
        done += 1
        if "refused_by_reference" in g:
            if r.returncode == 0:
                print(f"FAIL {name}: libvmaf refused ({g['refused_by_reference']}), vqcuda scored it")
                failed.append(name)
            else:
                print(f"{name}: refused, as by libvmaf: {r.stderr.strip()}")
            continue
        if r.returncode:
            print(f"FAIL {name}: vqscore: {r.stderr.strip()}")
            failed.append(name)
            continue
        c = subprocess.run([sys.executable, cmp, log, gpath], capture_output=True, text=True)
        print(c.stdout.strip())
        if c.returncode:
            failed.append(name)
            continue
        # the golden's columns in our log's order
        ours = list(json.load(open(log))["frames"][0]["metrics"])
        want = list(g["frames"][0]["metrics"])
        pos = [ours.index(k) for k in want]
        if pos != sorted(pos):
            print(f"FAIL {name}: columns in another order: ours {[ours[p] for p in sorted(pos)]}, golden {want}")
            failed.append(name)
    if not done:
        print("SKIP: no raw frames for any golden file")
        return 77
    print(f"{done - len(failed)}/{done} golden files exact ({exe})" + (": failed " + " ".join(failed) if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
