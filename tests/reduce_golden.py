#!/usr/bin/env python3
"""Keep only some columns of a libvmaf golden log (frames and pooled values),
for library-level tests of one feature inside a model vqcuda cannot run whole.

    reduce_golden.py REGEX GOLDEN.json OUT.json

The values are copied as text-exact doubles (Python's json round-trips %.17g).
A golden the reference refused (refused_by_reference) gives a file that keeps
the refusal and no values."""
import json
import re
import sys


def main():
    pat, src, dst = re.compile(sys.argv[1]), sys.argv[2], sys.argv[3]
    g = json.load(open(src))
    if "refused_by_reference" in g:
        print(f"{src}: refused by the reference, nothing to keep", file=sys.stderr)
        return 1
    out = {k: g[k] for k in ("reference", "distorted", "oracle_args", "libvmaf", "produced_by", "cpu",
                             "float_adm_rcp") if k in g}
    out["columns_of"] = src.rsplit("/", 1)[-1]
    out["columns"] = pat.pattern
    if "refused_by_reference" in g:
        # the reference failed on this pair: the reduced file keeps the refusal (the
        # library must refuse it too, tests/lib_golden.sh)
        out["refused_by_reference"] = g["refused_by_reference"]
        with open(dst, "w") as f:
            json.dump(out, f, indent=1)
            f.write("\n")
        return 0
    out["frames"] = [{"frameNum": f["frameNum"],
                      "metrics": {k: v for k, v in f["metrics"].items() if pat.search(k)}}
                     for f in g["frames"]]
    out["pooled_metrics"] = {k: v for k, v in g["pooled_metrics"].items() if pat.search(k)}
    if not out["pooled_metrics"] or not all(f["metrics"] for f in out["frames"]):
        print(f"{src}: no column matches {pat.pattern}", file=sys.stderr)
        return 1
    with open(dst, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
