#!/usr/bin/env python3
"""No hang, no lost log, no stale or mispaired result, through ffmpeg (CPU
path): the nine findings of the adversarial runs, each as the run that
showed it, now held to what it must do.
    e2e_reliability.py FFMPEG CLIPS_DIR GOLDEN_DIR OUT_DIR
Thread cases run under a per-user process limit (as root: as the user
nobody, whom the limit binds), so that a regression cannot starve the
machine of processes; each run has a time limit (a hang fails, killed)."""
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import threading

ff, clips, gold, out = sys.argv[1:5]
shutil.rmtree(out, ignore_errors=True)
os.makedirs(out)
os.chmod(out, 0o755)
dis = os.path.join(clips, "birds720_crf30.mp4")
ref = os.path.join(clips, "birds720_ref.mp4")
golden = json.load(open(os.path.join(gold, "birds720.json")))
failed = 0


def check(ok, what, detail=""):
    global failed
    print(f"{'ok  ' if ok else 'FAIL'} {what}{': ' + detail if detail else ''}", flush=True)
    failed += not ok


def run(lavfi, *, pre=(), post=(), inputs=None, timeout=300, wrap=None):
    """ffmpeg over the birds720 pair; (exit code, stderr); -9 when it was killed
    at the time limit (a hang)"""
    ins = inputs or ["-i", dis, "-i", ref]
    cmd = [ff, "-nostdin", "-hide_banner", "-v", "info", *pre, *ins, "-lavfi", lavfi, *post, "-f", "null", "-"]
    if wrap:
        cmd = wrap(cmd)
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         start_new_session=True)
    try:
        _, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        _, err = p.communicate()
        return -9, "TIMEOUT (hang)\n" + err
    return p.returncode, err


def last(err):
    lines = [l for l in err.strip().splitlines() if l.strip()]
    return lines[-1] if lines else "(no message)"


def fine(rc):
    """exited by itself with a non-zero code (never by a signal or our kill)"""
    return rc > 0


# ---- 1. worker threads the system refuses, or that no machine can mean -----
# as root the process limit binds nobody: run as the user nobody, with copies
# of the binary and the clips it can read
as_root = os.geteuid() == 0
priv = os.path.join(out, "priv")
os.makedirs(priv)
os.chmod(priv, 0o777)
ffp = os.path.join(priv, "ffmpeg")
shutil.copy(ff, ffp)
os.chmod(ffp, 0o755)
for c in (dis, ref):
    shutil.copy(c, priv)
    os.chmod(os.path.join(priv, os.path.basename(c)), 0o644)
pdis, pref = os.path.join(priv, os.path.basename(dis)), os.path.join(priv, os.path.basename(ref))
have_setpriv = shutil.which("setpriv") is not None


def limited(nproc):
    def wrap(cmd):
        cmd = [ffp] + cmd[1:]
        inner = f"ulimit -u {nproc} && exec " + " ".join(f"'{c}'" for c in cmd)
        if as_root:
            return ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "bash", "-c", inner]
        return ["bash", "-c", inner]
    return wrap


if as_root and not have_setpriv:
    check(False, "threads: setpriv (util-linux) is needed to run the thread cases as nobody")
else:
    cores = os.cpu_count() or 1
    rc, err = run("[0:v][1:v]vqcuda=n_threads=2147483647", inputs=["-i", pdis, "-i", pref],
                  wrap=limited(64), timeout=120)
    check(fine(rc) and "n_threads=2147483647" in err and f"give 0 to {4 * cores}" in err,
          "threads: n_threads=2147483647 is refused at once", f"exit {rc}: {last(err)}")
    # n_threads = 4 per core (the most allowed) under process limits from
    # "ffmpeg's own threads barely start" up: every run ends by itself, scores
    # or says why; some limit must reach the pool's refusal
    refused = 0
    results = []
    for nproc in range(8, 8 + 4 * cores + 8, 2):
        rc, err = run(f"[0:v][1:v]vqcuda=n_threads={4 * cores}", inputs=["-i", pdis, "-i", pref],
                      pre=["-threads", "1", "-filter_threads", "1"], wrap=limited(nproc), timeout=120)
        results.append(f"{nproc}:{rc}")
        ok = rc == 0 or (rc > 0 and last(err))
        if not ok:
            check(False, f"threads: n_threads={4 * cores} under ulimit -u {nproc}", f"exit {rc}: {last(err)}")
        refused += "the system refused thread" in err and rc > 0
    check(refused > 0 and all(not r.endswith(":-9") and int(r.split(":")[1]) >= 0 for r in results),
          f"threads: n_threads={4 * cores} under ulimit -u 8..: no hang, no signal; the pool's refusal "
          f"seen {refused} times", " ".join(results))

# ---- 2. a log that cannot be written, the output side stopping the run -----
rc, err = run("[0:v][1:v]vqcuda=log_path=/dev/full", post=["-frames:v", "5"])
check(fine(rc) and "No space left on device" in err, "log_path=/dev/full with -frames:v 5 fails the run",
      f"exit {rc}: {last(err)}")
rc, err = run("[0:v][1:v]vqcuda=log_path=/dev/full", post=["-t", "0.2"])
check(fine(rc) and "No space left on device" in err, "log_path=/dev/full with the output's -t fails the run",
      f"exit {rc}: {last(err)}")
# the same under libvmaf's names: ffmpeg sends each of them "finish" too
for name in ("libvmaf", "libvmaf_cuda"):
    rc, err = run(f"[0:v][1:v]{name}=device=cpu:log_path=/dev/full", post=["-frames:v", "5"])
    check(fine(rc) and "No space left on device" in err, f"{name}: log_path=/dev/full with -frames:v 5 fails the run",
          f"exit {rc}: {last(err)}")

# ---- 3. the start check proves what the end will do ------------------------
name = "a" * 250 + ".json"
long_log = os.path.join(out, name)
rc, err = run(f"[0:v][1:v]vqcuda=log_path={long_log}")
check(rc == 0 and len(json.load(open(long_log))["frames"]) == 31 and
      not [f for f in os.listdir(out) if f.startswith(".a")],
      "a log name of 254 characters is written (its temporary name fits NAME_MAX)", f"exit {rc}")
for path in ("/proc/self/comm", "/sys/kernel/mm/transparent_hugepage/enabled"):
    if not os.path.exists(path):
        continue
    rc, err = run(f"[0:v][1:v]vqcuda=log_path={path}", timeout=60)
    check(fine(rc) and "kernel file system" in err and "VMAF score" not in err,
          f"log_path={path} is refused before scoring", f"exit {rc}: {last(err)}")
rc, err = run(f"[0:v][1:v]vqcuda=log_path={out}")
check(fine(rc) and "directory" in err and "VMAF score" not in err, "a directory as log_path is refused at the start",
      f"exit {rc}: {last(err)}")
if as_root and have_setpriv:
    # an existing log the user may write, in a directory the user may not: written in place
    ro = os.path.join(out, "rodir")
    os.makedirs(ro)
    os.chmod(ro, 0o755)
    ro_log = os.path.join(ro, "log.json")
    with open(ro_log, "w") as f:
        f.write("old\n")
    os.chown(ro_log, 65534, 65534)
    rc, err = run(f"[0:v][1:v]vqcuda=log_path={ro_log}", inputs=["-i", pdis, "-i", pref],
                  wrap=limited(256))
    ok = rc == 0
    try:
        ok = ok and len(json.load(open(ro_log))["frames"]) == 31
    except ValueError:
        ok = False
    check(ok, "an existing writable log in a directory the user cannot write is written in place",
          f"exit {rc}: {last(err)}")
    # neither the log nor its directory writable: refused at the start
    with open(ro_log, "w") as f:
        f.write("old\n")
    os.chown(ro_log, 0, 0)
    os.chmod(ro_log, 0o644)
    rc, err = run(f"[0:v][1:v]vqcuda=log_path={ro_log}", inputs=["-i", pdis, "-i", pref],
                  wrap=limited(256))
    check(fine(rc) and "Permission denied" in err and "VMAF score" not in err and open(ro_log).read() == "old\n",
          "a log neither it nor its directory writable is refused at the start, untouched",
          f"exit {rc}: {last(err)}")

# ---- 4. live output write errors -------------------------------------------
log4 = os.path.join(out, "live.json")
rc, err = run(f"[0:v][1:v]vqcuda=stream_path=/dev/full:log_path={log4}")
check(fine(rc) and "stream_path" in err and "No space left" in err and
      len(json.load(open(log4))["frames"]) == 31,
      "stream_path=/dev/full fails the run at its end, the log still written", f"exit {rc}: {last(err)}")
fifo = os.path.join(out, "live.fifo")
os.mkfifo(fifo)
got = []


def reader():
    with open(fifo) as f:       # reads 3 lines, then goes away
        for _ in range(3):
            got.append(f.readline())


t = threading.Thread(target=reader)
t.start()
os.remove(log4)
rc, err = run(f"[0:v][1:v]vqcuda=stream_path={fifo}:log_path={log4}", timeout=120)
t.join()
check(fine(rc) and "stream_path" in err and "Broken pipe" in err and len(got) == 3 and
      len(json.load(open(log4))["frames"]) == 31,
      "a live output whose reader goes away after 3 lines fails the run, the log still written",
      f"exit {rc}: {last(err)}")

# ---- 5. nothing scored ------------------------------------------------------
log5 = os.path.join(out, "nothing.json")
with open(log5, "w") as f:
    json.dump({"frames": [{"frameNum": 0, "metrics": {"vmaf": 99}}]}, f)
rc, err = run(f"[1:v]trim=start_frame=40[r];[0:v][r]vqcuda=log_path={log5}")
check(fine(rc) and "no frame was scored" in err and not os.path.exists(log5),
      "a run that scores nothing fails and removes the earlier log at log_path", f"exit {rc}: {last(err)}")

# ---- 6. frames of different times are never a pair --------------------------
by_psnr = {f["metrics"]["psnr_y"]: f["frameNum"] for f in golden["frames"]}
sel = "[0:v]select='not(eq(n\\,10))'[d];[1:v]select='not(eq(n\\,11))'[r];[d][r]vqcuda=log_path={}{}"
log6 = os.path.join(out, "pairs.json")
rc, err = run(sel.format(log6, ""))
log = json.load(open(log6)) if rc == 0 else {}
seen = [by_psnr.get(f["metrics"]["psnr_y"]) for f in log.get("frames", [])]
unp = log.get("unpaired_frames", [])
check(rc == 0 and seen == list(range(10)) + list(range(12, 31)) and len(unp) == 1 and
      abs(unp[0]["time"] - 11 / 30) < 1e-9 and abs(unp[0]["reference_time"] - 10 / 30) < 1e-9 and
      "different times" in err,
      "distorted frame 11 is not scored against reference frame 10: passed on, listed in the log",
      f"exit {rc}, golden frames {seen[8:12]}, unpaired {unp}")
rc, err = run(sel.format(log6, ":pairing=framesync"))
log = json.load(open(log6)) if rc == 0 else {}
check(rc == 0 and len(log.get("frames", [])) == 30 and "unpaired_frames" not in log,
      "pairing=framesync pairs them as libvmaf does", f"exit {rc}, {len(log.get('frames', []))} frames")

# ---- 7. an early stop agrees with itself ------------------------------------
log7, live7 = os.path.join(out, "early.json"), os.path.join(out, "early.jsonl")
rc, err = run(f"[0:v][1:v]vqcuda=log_path={log7}:stream_path={live7}", post=["-frames:v", "10"])
printed = [l.split("VMAF score: ")[1] for l in err.splitlines() if "VMAF score: " in l]
log = json.load(open(log7)) if rc == 0 else {"frames": [], "pooled_metrics": {}}
lines = [json.loads(l) for l in open(live7)] if rc == 0 else []
pooled = [l["pooled_metrics"]["vmaf"]["mean"] for l in lines if "pooled_metrics" in l and "segment" not in l]
mean = log["pooled_metrics"].get("vmaf", {}).get("mean")
check(rc == 0 and len(printed) == 1 and mean is not None and printed[0] == f"{mean:f}" and
      pooled == [mean] and len(log["frames"]) == sum("frameNum" in l for l in lines) >= 10,
      "-frames:v 10: one VMAF score line, the log and the live output over the same frames",
      f"exit {rc}, printed {printed}, log {len(log['frames'])} frames mean {mean}, stream pooled {pooled}")


def annexb(clip, dst):
    subprocess.run([ff, "-nostdin", "-v", "error", "-y", "-i", os.path.join(clips, clip), "-c", "copy",
                    "-bsf:v", "h264_mp4toannexb", "-f", "h264", dst], check=True)


# a graph re-created at a size change: one final score line, no partial ones
parts = {}
for c in ("birds720_crf30", "birds720_ref", "dog1080_crf34", "dog1080_ref"):
    parts[c] = os.path.join(out, c + ".h264")
    annexb(c + ".mp4", parts[c])
for name, a, b in (("change_dist.h264", "birds720_crf30", "dog1080_crf34"),
                   ("change_ref.h264", "birds720_ref", "dog1080_ref")):
    with open(os.path.join(out, name), "wb") as o:
        for p in (a, b):
            o.write(open(parts[p], "rb").read())
log7b = os.path.join(out, "reinit.json")
rc, err = run(f"[0:v][1:v]vqcuda=log_path={log7b}:n_threads=2",
              inputs=["-i", os.path.join(out, "change_dist.h264"), "-i", os.path.join(out, "change_ref.h264")])
printed = [l for l in err.splitlines() if "VMAF score: " in l]
log = json.load(open(log7b)) if rc == 0 else {"frames": [], "pooled_metrics": {}}
check(rc == 0 and len(printed) == 1 and len(log["frames"]) == 72 and
      printed[0].endswith(f"VMAF score: {log['pooled_metrics']['vmaf']['mean']:f}"),
      "a graph re-initialisation prints one VMAF score line, over every frame",
      f"exit {rc}, {len(printed)} lines, {len(log['frames'])} frames")

# ---- 8. a run refused at configuration leaves stream_path as it was ---------
live8 = os.path.join(out, "kept.jsonl")
with open(live8, "w") as f:
    f.write("earlier\n")
rc, err = run(f"[0:v][1:v]vqcuda=stream_path={live8}:model=version=no_such_model")
check(fine(rc) and "no_such_model" in err and open(live8).read() == "earlier\n",
      "a run refused at configuration leaves an existing stream_path untouched", f"exit {rc}: {last(err)}")
live8b = os.path.join(out, "never.jsonl")
rc, err = run(f"[0:v][1:v]vqcuda=stream_path={live8b}:model=version=no_such_model")
check(fine(rc) and not os.path.exists(live8b), "... and creates none", f"exit {rc}")

# ---- 9. a symlinked log_path is written through the link -------------------
target = os.path.join(out, "target.json")
link = os.path.join(out, "link.json")
with open(target, "w") as f:
    f.write("old\n")
os.symlink("target.json", link)
rc, err = run(f"[0:v][1:v]vqcuda=log_path={link}")
ok = rc == 0 and stat.S_ISLNK(os.lstat(link).st_mode)
try:
    ok = ok and len(json.load(open(target))["frames"]) == 31
except ValueError:
    ok = False
check(ok, "a symlinked log_path stays a link, its target holds the new log", f"exit {rc}")
dangling = os.path.join(out, "dangling.json")
os.symlink("made_by_the_run.json", dangling)
rc, err = run(f"[0:v][1:v]vqcuda=log_path={dangling}")
check(rc == 0 and stat.S_ISLNK(os.lstat(dangling).st_mode) and
      len(json.load(open(os.path.join(out, "made_by_the_run.json")))["frames"]) == 31,
      "a dangling symlink as log_path: its target is created", f"exit {rc}")

print(f"e2e_reliability: {'FAILED ' + str(failed) if failed else 'all passed'}")
sys.exit(1 if failed else 0)
