#!/usr/bin/env python3
"""Summarise `ncu --csv --metrics gpu__time_duration.sum,dram__bytes_read.sum,
dram__bytes_write.sum` over `vqparity --profile` (two identical frame pairs):
per kernel of the second pair, its time, the DRAM bytes it moved and the
bandwidth that makes.  With smsp__inst_executed.sum, sm__cycles_elapsed.avg.per_second
and device__attribute_multiprocessor_count too: each kernel's warp instructions
and its share of the device's issue rate (4 warp instructions per cycle per
SM), and the pair's issue floor: the time its instructions take at that rate,
which no scheduling of these kernels can beat.
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
             "byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "KB": 1e3, "MB": 1e6, "GB": 1e9,
             "hz": 1, "Khz": 1e3, "Mhz": 1e6, "Ghz": 1e9, "cycle/second": 1, "cycle/usecond": 1e6,
             "cycle/nsecond": 1e9}.get(unit, 1.0)
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
total_t = total_b = total_i = 0.0


def issue_rate(k):
    """warp instructions per us at 4 per cycle per SM, or 0 where ncu did not report the device"""
    sms = k.get("device__attribute_multiprocessor_count", 0.0)
    hz = k.get("sm__cycles_elapsed.avg.per_second", 0.0)
    return 4 * sms * hz * 1e-6


inst = any("smsp__inst_executed.sum" in launch[i] for i in second)


def row(name, t, b, n, r):
    """a line of the table: us, MB, GB/s, and with instructions their count and issue share"""
    line = f"{name:40s} {t:8.1f} {b / 1e6:8.2f} {b / (t * 1e-6) / 1e9 if t else 0:8.0f}"
    if inst:
        line += f" {n / 1e6:7.2f} " + (f"{100 * n / (r * t):6.1f}" if r and t else f"{'-':>6s}")
    return line


print(f"{'kernel':40s} {'us':>8s} {'MB':>8s} {'GB/s':>8s}" + (f" {'Minst':>7s} {'issue%':>6s}" if inst else ""))
rate = 0.0
for i in second:
    k = launch[i]
    t = k.get("gpu__time_duration.sum", 0.0)
    b = k.get("dram__bytes_read.sum", 0.0) + k.get("dram__bytes_write.sum", 0.0)
    n = k.get("smsp__inst_executed.sum", 0.0)
    r = issue_rate(k)
    rate = rate or r
    total_t += t
    total_b += b
    total_i += n
    print(row(k["name"], t, b, n, r))
print(row(f"total ({len(second)} kernels)", total_t, total_b, total_i, rate))
if inst and rate:
    print(f"issue floor: {total_i / 1e6:.1f} M warp instructions = {total_i / rate:.1f} us at 4 per cycle "
          f"per SM ({rate / 4e3:.0f} SM-GHz), however the kernels are scheduled")
