#!/usr/bin/env python3
"""float_adm's golden columns through the library: vqscore over raw frames
with float_adm alone (model=none), the golden's options and the reciprocal
of the CPU it was made on, compared == with the golden (compare_golden.py).

    lib_fadm.py VQSCORE RAW_DIR GOLDEN OUT_DIR EXEC(cpu|cuda)

The golden: tests/data/golden_columns/<pair>.<kind>[.intel].fadm.json (the
float_adm columns of libvmaf's float-model logs, tests/reduce_golden.py) or
tests/data/golden/<pair>.fadm_<variant>.json (float_adm alone, --feature
float_adm=OPTIONS --no_prediction).  Its options: those of --feature
float_adm=..., or the float model's (vmaf_float_v0.6.1neg: egl 1).  Its
reciprocal: "float_adm_rcp" if given, else the vendor in "cpu".  Exit 77
(skip, reason printed) when that vendor's table is not in this build yet,
or without a GPU for EXEC cuda."""
import json
import os
import shlex
import subprocess
import sys

from clip_table import pairs

# pair: reference raw, distorted raw, size, pixel format (raw files in RAW_DIR;
# tests/data/clips.tsv)
PAIRS = pairs("balle576", "birds422p10", "birds422p16", "birds720", "checker1080", "dog1080",
              "dog1080_self", "dog1080p10", "dog1080p12", "dog2160", "odd577x323", "small36x34")
# 16-bit pairs made from 10-bit ones (tests/raw_10to16.py)
MADE_16 = {"birds422p16": "birds422p10"}
# the float models' float_adm options (libvmaf's model files)
MODEL_OPTS = {"vmaf_float_v0.6.1": "", "vmaf_float_v0.6.1neg": "adm_enhn_gain_limit=1",
              "vmaf_float_b_v0.6.3": "", "vmaf_float_4k_v0.6.1": ""}


def options(g):
    args = shlex.split(g.get("oracle_args", ""))
    opts = None
    for i, a in enumerate(args):
        if a == "--feature" and args[i + 1].split("=", 1)[0] == "float_adm":
            opts = args[i + 1].split("=", 1)[1] if "=" in args[i + 1] else ""
        if a in ("-m", "--model") and args[i + 1].startswith("version="):
            model = args[i + 1].split("=", 1)[1].split(":")[0]
            if model not in MODEL_OPTS:
                raise SystemExit(f"lib_fadm: model {model}: its float_adm options are not known here")
            opts = MODEL_OPTS[model] if opts is None else opts
    if opts is None:
        raise SystemExit("lib_fadm: the golden's oracle_args ask for no float_adm")
    return opts


def main():
    vq, raw, golden, out, exe = sys.argv[1:6]
    g = json.load(open(golden))
    name = os.path.basename(golden)[:-len(".json")]
    pair = name.split(".")[0]
    ref, dis, size, fmt = PAIRS[pair]
    if exe == "cuda" and subprocess.run("nvidia-smi -L", shell=True, capture_output=True).returncode:
        print("SKIP: no NVIDIA GPU on this machine")
        return 77
    if pair in MADE_16:
        src = PAIRS[MADE_16[pair]]
        for made, s in ((ref, src[0]), (dis, src[1])):
            subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "raw_10to16.py"),
                            os.path.join(raw, s + ".yuv"), os.path.join(raw, made + ".yuv")], check=True)
    rcp = g.get("float_adm_rcp") or ("intel" if "Intel" in g.get("cpu", "") else
                                     "amd" if "AMD" in g.get("cpu", "") else None)
    if not rcp:
        raise SystemExit(f"lib_fadm: {golden}: no cpu / float_adm_rcp: whose reciprocal is unknown")
    opts = options(g)
    feature = "name=float_adm" + (":" + opts if opts else "") + ":rcp=" + rcp
    os.makedirs(out, exist_ok=True)
    log = os.path.join(out, f"lib_{name}_{exe}.json")
    cmd = [vq, "-r", os.path.join(raw, ref + ".yuv"), "-d", os.path.join(raw, dis + ".yuv"), "-s", size,
           "-f", fmt, "-e", exe, "-m", "none", "-F", feature, "-o", log]
    print(" ".join(shlex.quote(c) for c in cmd), flush=True)
    r = subprocess.run(cmd, capture_output=True, text=True)
    sys.stdout.write(r.stdout)
    sys.stderr.write(r.stderr)
    if r.returncode and "no table of Intel's RCPSS yet" in r.stderr:
        print(f"SKIP: {name} is libvmaf on {g.get('cpu')}: the Intel RCPSS table is not generated yet "
              "(scripts/rcp_table_gen.c on an Intel CPU; docs/float-adm.md)")
        return 77
    if r.returncode:
        return 1
    return subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "compare_golden.py"), log,
                           golden]).returncode


if __name__ == "__main__":
    sys.exit(main())
