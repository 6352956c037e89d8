#!/usr/bin/env python3
"""The vqcuda filter options that ask for what a golden log holds, from the
arguments the reference was run with (oracle_args: libvmaf's vmaf tool's
-m / --feature NAME[=OPT=VALUE[:OPT=VALUE...]] / --no_prediction, which
becomes model=none) or, for the older files, its "model" key and whether psnr is
in it.  Prints the options (filtergraph-escaped) on stdout; exits 77 with a
reason when the golden needs a feature vqcuda does not implement yet, or
(EXECUTOR cuda) one the CUDA executor does not run yet (GPU_LACKS: the run
would be refused; empty today, kept for the next feature that lands on the CPU first).

    golden_args.py GOLDEN.json [EXECUTOR] [--vqscore]

--vqscore: the same request as tests/vqscore's arguments instead, one a line
(-m MODELS -F FEATURES -p 0, libvmaf's syntax, unescaped), for
tests/lib_golden.sh."""
import json
import shlex
import sys

SUPPORTED = {"vif", "adm", "motion", "psnr", "psnr_hvs", "float_ssim", "float_ms_ssim", "cambi", "ciede",
             "speed_chroma", "float_psnr", "float_moment", "float_ansnr", "speed_temporal", "null",
             "float_vif", "float_motion", "float_adm"}
# the built-in models whose features are not the integer ones (by version prefix): their extractors
MODEL_NEEDS = {"vmaf_float_": ("float_adm", "float_motion", "float_vif")}
# features the CUDA executor refuses ("not yet on the GPU"), and the models that need them
GPU_LACKS = set()
GPU_LACKS_MODELS = ()   # models whose features the GPU lacks


def main():
    vqscore = "--vqscore" in sys.argv
    sys.argv = [a for a in sys.argv if a != "--vqscore"]
    g = json.load(open(sys.argv[1]))
    if "distorted_upscaled_by" in g:
        print("SKIP: a ladder rung (an upscaled rendition): tests/e2e_ladder.sh scores it")
        return 77
    models, features = [], []
    no_prediction = False
    args = shlex.split(g.get("oracle_args") or "")
    i = 0
    while i < len(args):
        if args[i] in ("-m", "--model"):
            models.append(args[i + 1])
            i += 2
        elif args[i] == "--feature":
            features.append(args[i + 1])
            i += 2
        elif args[i] == "--no_prediction":
            no_prediction = True
            i += 1
        else:
            print(f"golden_args: unknown oracle argument {args[i]}", file=sys.stderr)
            return 2
    if no_prediction:
        if models:
            print("golden_args: --no_prediction with -m", file=sys.stderr)
            return 2
        models = ["none"]   # the features alone, no model
    elif not models:
        models = ["version=" + g.get("model", "vmaf_v0.6.1")]
    if not g.get("oracle_args"):
        has_psnr = any("psnr_y" in f["metrics"] for f in g["frames"])
        features = ["psnr"] if has_psnr else []
    # the tool's NAME=OPT=VALUE:OPT=VALUE is the filter's name=NAME:OPT=VALUE:OPT=VALUE
    features = [f.split("=", 1)[0] + (":" + f.split("=", 1)[1] if "=" in f else "") for f in features]
    missing = [f for f in features if f.split(":")[0] not in SUPPORTED]
    missing += sorted({x for m in models for prefix, needs in MODEL_NEEDS.items() if prefix in m
                       for x in needs if x not in SUPPORTED})
    if missing:
        print(f"SKIP: the golden needs {', '.join(missing)}, not implemented yet")
        return 77
    if len(sys.argv) > 2 and sys.argv[2].startswith("cuda"):
        lacks = [f.split(":")[0] for f in features if f.split(":")[0] in GPU_LACKS]
        lacks += [m for m in models if any(v in m for v in GPU_LACKS_MODELS)]
        if lacks:
            print(f"SKIP: the golden needs {', '.join(lacks)}, not yet on the GPU "
                  "(the CUDA executor refuses it)")
            return 77
    # float_adm divides with the approximate reciprocal of the CPU the golden was made on
    # (docs/float-adm.md): its "float_adm_rcp", else the vendor in its "cpu"
    cpu = g.get("cpu", "")
    rcp = g.get("float_adm_rcp") or ("intel" if "Intel" in cpu else "amd" if "AMD" in cpu else None)
    if rcp:
        features = [f + ":rcp=" + rcp if f.split(":")[0] == "float_adm" else f for f in features]
        models = [m + ":float_adm.rcp=" + rcp if m.startswith("version=vmaf_float") else m for m in models]
    if vqscore:
        args = ["-m", "|".join(models), "-p", "0"]
        if features:
            args += ["-F", "|".join("name=" + f for f in features)]
        print("\n".join(args))
        return 0
    # option-level escapes (\:) inside graph-level quotes ('...'), as tools write them
    esc = lambda s: "'" + s.replace("\\", "\\\\").replace(":", "\\:") + "'"
    opts = ["model=" + esc("|".join(models)), "psnr=0"]
    if features:
        opts.append("feature=" + esc("|".join("name=" + f for f in features)))
    print(":".join(opts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
