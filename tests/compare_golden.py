#!/usr/bin/env python3
"""Compare a vqcuda JSON log with a libvmaf golden log: every frame, every key,
every pooled value and every aggregate_metrics value (psnr's apsnr_*), as
doubles with ==.  Prints "exact N/M" and exits 1 on any
difference (listing the first few).  Python's json parses a %.17g number to the
exact double, so == here is bit equality."""
import json
import sys


def main():
    args = [a for a in sys.argv[1:] if a != "--partial"]
    partial = "--partial" in sys.argv  # ours holds the first frames only: no pooled values
    if len(args) != 2:
        print("usage: compare_golden.py [--partial] ours.json golden.json", file=sys.stderr)
        return 2
    sys.argv[1:] = args
    ours = json.load(open(sys.argv[1]))
    gold = json.load(open(sys.argv[2]))
    diffs = []
    total = 0
    missing = object()   # a key we do not have (JSON null is None: an infinite value, compared as such)
    ofr = {f["frameNum"]: f["metrics"] for f in ours["frames"]}
    for f in gold["frames"]:
        n = f["frameNum"]
        if partial and n not in ofr:
            continue
        for key, want in f["metrics"].items():
            total += 1
            got = ofr.get(n, {}).get(key, missing)
            if got is missing or got != want:
                diffs.append(f"frame {n} {key}: got {'(missing)' if got is missing else repr(got)} want {want!r}")
    extra = set(ofr) - {f["frameNum"] for f in gold["frames"]}
    for n in sorted(extra):
        diffs.append(f"frame {n}: not in the golden file")
    if not ofr:
        diffs.append("no frames in our log")
    for key, pools in ({} if partial else gold["pooled_metrics"]).items():
        for p, want in pools.items():
            total += 1
            got = ours.get("pooled_metrics", {}).get(key, {}).get(p, missing)
            if got is missing or got != want:
                diffs.append(f"pooled {key}.{p}: got {'(missing)' if got is missing else repr(got)} want {want!r}")
    # libvmaf's aggregate_metrics (set at flush: apsnr_y/cb/cr); none in a partial log
    if not partial:
        gagg, oagg = gold.get("aggregate_metrics", {}), ours.get("aggregate_metrics", {})
        for key, want in gagg.items():
            total += 1
            got = oagg.get(key, missing)
            if got is missing or got != want:
                diffs.append(f"aggregate {key}: got {'(missing)' if got is missing else repr(got)} want {want!r}")
        for key in sorted(set(oagg) - set(gagg)):
            diffs.append(f"aggregate {key}: not in the golden file")
    print(f"{sys.argv[2]}: exact {total - len([d for d in diffs if 'not in' not in d])}/{total}")
    for d in diffs[:15]:
        print("  " + d)
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
