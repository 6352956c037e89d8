#!/usr/bin/env python3
"""Summarise `ncu --csv --metrics gpu__time_duration.sum,dram__bytes_read.sum,
dram__bytes_write.sum` over `vqparity --profile` (two identical frame pairs):
per kernel of the second pair, its time, the DRAM bytes it moved and the
bandwidth that makes.
   ncu-table.py CSV
   ncu-table.py CSV --per-frame N LABEL   the time of every launch, summed, per frame (frames:
                                          motion's launches, else N), per kernel family, and
                                          per kernel instance (launches, median, per frame)"""
import csv
import sys
from collections import OrderedDict

rows = [r for r in csv.reader(open(sys.argv[1])) if r]
try:
    head = next(i for i, r in enumerate(rows) if "Metric Name" in r)
except StopIteration:
    print("ncu: no metrics (see ncu.err)")
    sys.exit(0)
cols = rows[head]
ID, NAME, MET, UNIT, VAL = (cols.index(c) for c in ("ID", "Kernel Name", "Metric Name", "Metric Unit", "Metric Value"))
launch = OrderedDict()
for r in rows[head + 1:]:
    if len(r) < len(cols):
        continue
    name = r[NAME].split("(")[0]
    if name.startswith("void "):
        name = name[5:]
    name = name.replace("(anonymous namespace)::", "").replace("<unnamed>::", "")
    k = launch.setdefault(int(r[ID]), {"name": name[:40]})
    v = float(r[VAL].replace(",", ""))
    unit = r[UNIT]
    scale = {"ns": 1e-3, "us": 1.0, "usecond": 1.0, "nsecond": 1e-3, "msecond": 1e3, "ms": 1e3,
             "byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "KB": 1e3, "MB": 1e6, "GB": 1e9}.get(unit, 1.0)
    k[r[MET]] = v * scale
ids = list(launch)
if len(sys.argv) == 5 and sys.argv[2] == "--per-frame":
    # frames: motion runs once per reference frame (a ladder's members take
    # the leader's), so its launches count the frames the command scored,
    # which pipelining makes a few more than the N output frames asked for
    label = sys.argv[4]
    n_motion = sum(1 for k in launch.values() if k["name"].startswith("motion_"))
    frames = n_motion or int(sys.argv[3])
    fam = OrderedDict()
    for k in launch.values():
        f = k["name"].split("_")[0]
        fam[f] = fam.get(f, 0.0) + k.get("gpu__time_duration.sum", 0.0)
    t = sum(fam.values())
    parts = ", ".join(f"{f} {v / frames:.1f}" for f, v in sorted(fam.items(), key=lambda x: -x[1]))
    print(f"{label}: {t / frames:.1f} us of vqcuda kernels per frame ({parts}; {len(ids)} kernels in "
          f"{frames} frames, ncu, serialised)")
    # and per kernel instance: a register or schedule change shows here first
    per = OrderedDict()
    for k in launch.values():
        per.setdefault(k["name"], []).append(k.get("gpu__time_duration.sum", 0.0))
    for name, v in sorted(per.items(), key=lambda x: -sum(x[1])):
        v = sorted(v)
        print(f"    {label} {name:40s} {len(v):4d} launches, median {v[len(v) // 2]:7.1f} us, "
              f"{sum(v) / frames:7.1f} us per frame")
    sys.exit(0)
second = ids[len(ids) // 2:]
total_t = total_b = 0.0
print(f"{'kernel':40s} {'us':>8s} {'MB':>8s} {'GB/s':>8s}")
for i in second:
    k = launch[i]
    t = k.get("gpu__time_duration.sum", 0.0)
    b = k.get("dram__bytes_read.sum", 0.0) + k.get("dram__bytes_write.sum", 0.0)
    total_t += t
    total_b += b
    print(f"{k['name']:40s} {t:8.1f} {b / 1e6:8.2f} {b / (t * 1e-6) / 1e9 if t else 0:8.0f}")
print(f"{'total (' + str(len(second)) + ' kernels)':40s} {total_t:8.1f} {total_b / 1e6:8.2f} "
      f"{total_b / (total_t * 1e-6) / 1e9 if total_t else 0:8.0f}")
