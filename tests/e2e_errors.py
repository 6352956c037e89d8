#!/usr/bin/env python3
"""Bad input through ffmpeg: each case must exit non-zero (never by a signal)
with a message that names vqcuda and the cause; inputs of different length
must score the common frames and say so.
    e2e_errors.py FFMPEG CLIPS_DIR OUT_DIR"""
import json
import os
import subprocess
import sys

ff, clips, out = sys.argv[1:4]
os.makedirs(out, exist_ok=True)
dis = os.path.join(clips, "birds720_crf30.mp4")
ref = os.path.join(clips, "birds720_ref.mp4")
bad_model = os.path.join(out, "malformed_model.json")
with open(bad_model, "w") as f:
    f.write('{"model_dict": {"model_type": "LIBSVMNUSVR", "feature_names": [')
wrong_type = os.path.join(out, "wrong_type_model.json")
with open(wrong_type, "w") as f:
    f.write('{"model_dict": {"model_type": "LIBSVMNUSVR", "feature_names": 7}}')

def run(lavfi, extra_in=()):
    cmd = [ff, "-nostdin", "-hide_banner", "-v", "error", *extra_in, "-i", dis, "-i", ref,
           "-lavfi", lavfi, "-f", "null", "-"]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300)

cases = [
    ("different sizes, scaler=none", "[0:v]scale=640:360[d];[d][1:v]vqcuda=scaler=none", ["size", "scaler=none"]),
    ("rendition larger than the reference", "[1:v]scale=640:360[r];[0:v][r]vqcuda", ["larger"]),
    ("ladder rendition of another bit depth", "[0:v]split[a][b];[b]format=yuv420p10le[c];[a][c][1:v]vqcuda=inputs=3:log_path=" + os.path.join(out, "l%d.json"), ["pixel format"]),
    ("ladder log_path without %d", "[0:v]split[a][b];[a][b][1:v]vqcuda=inputs=3:log_path=" + os.path.join(out, "l.json"), ["%d"]),
    ("ladder segment_path without %d", "[0:v]split[a][b];[a][b][1:v]vqcuda=inputs=3:segment_frames=10:log_path=" + os.path.join(out, "l%d.json") + ":segment_path=" + os.path.join(out, "s.csv"), ["segment_path", "%d"]),
    ("ladder cambi heatmaps_path without %d", "[0:v]split[a][b];[a][b][1:v]vqcuda=inputs=3:feature='name=cambi\\:heatmaps_path=" + os.path.join(out, "hm") + "'", ["heatmaps_path", "%d"]),
    ("two cambi instances, one heatmap file set", "[0:v][1:v]vqcuda=feature='name=cambi\\:heatmaps_path=" + os.path.join(out, "hm2") + "|name=cambi\\:window_size=31\\:heatmaps_path=" + os.path.join(out, "hm2") + "/.'", ["heatmaps_path", "two cambi instances"]),
    ("cambi heatmaps_path in a piece", "[0:v][1:v]vqcuda=score_frames=10-20:feature='name=cambi\\:heatmaps_path=" + os.path.join(out, "hm3") + "'", ["heatmaps_path", "score_frames"]),
    ("log_path and segment_path one file", "[0:v][1:v]vqcuda=segment_frames=10:log_path=" + os.path.join(out, "one.json") + ":segment_path=" + os.path.join(out, ".", "one.json"), ["log_path", "segment_path", "one file"]),
    ("log_path and stream_path one file", "[0:v][1:v]vqcuda=log_path=" + os.path.join(out, "two.json") + ":stream_path=" + os.path.join(out, "two.json"), ["log_path", "stream_path", "one file"]),
    ("a ladder's log_path and segment_path one file", "[0:v]split[a][b];[a][b][1:v]vqcuda=inputs=3:segment_frames=10:log_path=" + os.path.join(out, "r%d.json") + ":segment_path=" + os.path.join(out, "r%d.json"), ["log_path", "segment_path", "one file"]),
    ("two filters of one process, one log", "[0:v]split[a][b];[1:v]split[c][d];[a][c]vqcuda=log_path=" + os.path.join(out, "three.json") + "[o1];[b][d]vqcuda=log_path=" + os.path.join(out, ".", "three.json") + "[o2];[o1][o2]concat=n=2", ["another vqcuda filter", "three.json"]),
    ("a ladder's segment_path too long", "[0:v]split[a][b];[a][b][1:v]vqcuda=inputs=3:segment_frames=10:log_path=" + os.path.join(out, "t%d.json") + ":segment_path=" + os.path.join(out, "s" * 4100 + "%d.csv"), ["segment_path is too long"]),
    ("inputs out of range", "[0:v][1:v]vqcuda=inputs=1", ["inputs"]),
    ("two segment options", "[0:v][1:v]vqcuda=segment_frames=10:segment_duration=2", ["segment"]),
    ("negative segment length", "[0:v][1:v]vqcuda=segment_frames=-3", ["segment_frames"]),
    ("score_frames with A >= B", "[0:v][1:v]vqcuda=score_frames=20-20", ["score_frames"]),
    ("score_frames that is no range", "[0:v][1:v]vqcuda=score_frames=abc", ["score_frames"]),
    ("segment_path without log_path", "[0:v][1:v]vqcuda=segment_path=" + os.path.join(out, "s.csv"), ["segment_path"]),
    ("different bit depth", "[0:v]format=yuv420p10le[d];[1:v]format=yuv420p[r];[d][r]vqcuda", ["format"]),
    ("different subsampling", "[0:v]format=yuv444p[d];[1:v]format=yuv420p[r];[d][r]vqcuda", ["format"]),
    ("below 33x33", "[0:v]scale=32:32[d];[1:v]scale=32:32[r];[d][r]vqcuda", ["33x33"]),
    ("missing model", "[0:v][1:v]vqcuda=model=path=/nonexistent/model.json", ["/nonexistent/model.json"]),
    ("malformed model", "[0:v][1:v]vqcuda=model=path=" + bad_model, ["malformed_model.json"]),
    ("unknown log_fmt", "[0:v][1:v]vqcuda=log_fmt=yaml:log_path=" + os.path.join(out, "x.yaml"), ["log_fmt"]),
    ("unknown device", "[0:v][1:v]vqcuda=device=tpu", ["device"]),
    ("unknown model version", "[0:v][1:v]vqcuda=model=version=vmaf_v9", ["vmaf_v9"]),
    ("model of the wrong type", "[0:v][1:v]vqcuda=model=path=" + wrong_type, ["wrong_type_model.json"]),
    ("override of an unknown feature", "[0:v][1:v]vqcuda=model='version=vmaf_v0.6.1\\:nosuch.opt=1'", ["nosuch"]),
    ("override of an unknown option", "[0:v][1:v]vqcuda=model='version=vmaf_v0.6.1\\:motion.no_such_opt=1'", ["no_such_opt"]),
    ("override value out of range", "[0:v][1:v]vqcuda=model='version=vmaf_v0.6.1\\:vif.vif_enhn_gain_limit=0.5'", ["vif_enhn_gain_limit", "0.5"]),
    ("skip option not a boolean", "[0:v][1:v]vqcuda=model='version=vmaf_v0.6.1\\:adm.adm_skip_aim=2'", ["adm_skip_aim", "2"]),
    ("cambi src_width out of range", "[0:v][1:v]vqcuda=feature='name=cambi\\:full_ref=true\\:src_width=100'", ["src_width", "100"]),
    ("csf blend without a table for the display", "[0:v][1:v]vqcuda=model='version=vmaf_v0.6.1\\:adm.adm_csf_mode=2\\:adm.adm_norm_view_dist=4'", ["adm_csf_mode", "adm_norm_view_dist 4", "adm_ref_display_height", "1080:3"]),
    ("csf scale out of range", "[0:v][1:v]vqcuda=model='version=vmaf_v0.6.1\\:adm.adm_csf_mode=1\\:adm.adm_csf_scale=51'", ["adm_csf_scale", "51"]),
    ("two models with one name", "[0:v][1:v]vqcuda=model=version=vmaf_v0.6.1|version=vmaf_v0.6.1neg", ["named 'vmaf'"]),
    ("unsupported feature", "[0:v][1:v]vqcuda=feature=name=no_such_feature", ["no_such_feature", "supported"]),
    ("float_vif kernelscale libvmaf does not list", "[0:v][1:v]vqcuda=feature='name=float_vif\\:vif_kernelscale=0.9'", ["vif_kernelscale", "0.9"]),
    ("float_vif sigma_nsq 0 (NaN)", "[0:v][1:v]vqcuda=feature='name=float_vif\\:vif_sigma_nsq=0'", ["vif_sigma_nsq"]),
    ("float_vif scale 3 smaller than its filter", "[0:v]scale=64:64[d];[1:v]scale=64:64[r];[d][r]vqcuda=feature='name=float_vif\\:vif_prescale=0.2'", ["float_vif", "scale 3"]),
    ("float_vif prescale method unknown", "[0:v][1:v]vqcuda=feature='name=float_vif\\:vif_prescale_method=area'", ["vif_prescale_method", "area"]),
    ("float_motion add_uv on gray input", "[0:v]format=gray[d];[1:v]format=gray[r];[d][r]vqcuda=feature='name=float_motion\\:motion_add_uv=true'", ["motion_add_uv", "4:0:0"]),
    ("float_motion add_uv with add_scale1 on 4:2:0", "[0:v][1:v]vqcuda=feature='name=float_motion\\:motion_add_uv=true\\:motion_add_scale1=true'", ["motion_add_scale1", "stride"]),
    ("float_motion filter size out of range", "[0:v][1:v]vqcuda=feature='name=float_motion\\:motion_filter_size=10'", ["motion_filter_size", "10"]),
    ("unknown model key", "[0:v][1:v]vqcuda=model='version=vmaf_v0.6.1\\:colour=blue'", ["colour"]),
    ("libvmaf name, same checks", "[0:v][1:v]libvmaf=model=version=vmaf_v9", ["vmaf_v9"]),
    ("gray input with a v1 model (speed_chroma needs chroma)", "[0:v]format=gray[d];[1:v]format=gray[r];[d][r]vqcuda=model=version=vmaf_v1.0.16_3d0h", ["speed_chroma", "4:0:0"]),
    ("speed_chroma option out of range", "[0:v][1:v]vqcuda=feature='name=speed_chroma\\:speed_sigma_nn=3'", ["speed_sigma_nn", "3"]),
    ("speed_chroma override out of range", "[0:v][1:v]vqcuda=model='version=vmaf_v1.0.16_3d0h\\:speed_chroma.speed_weight_var_mode=7'", ["speed_weight_var_mode", "7"]),
    ("speed_chroma prescale method unknown", "[0:v][1:v]vqcuda=feature='name=speed_chroma\\:speed_prescale_method=area'", ["speed_prescale_method", "area"]),
    ("psnr min_sse out of range", "[0:v][1:v]vqcuda=feature='name=psnr\\:min_sse=-0.5'", ["min_sse", "-0.5"]),
    ("psnr enable_mse not a boolean", "[0:v][1:v]vqcuda=feature='name=psnr\\:enable_mse=yes'", ["enable_mse", "yes"]),
    ("psnr enable_apsnr with n_subsample", "[0:v][1:v]vqcuda=n_subsample=2:feature='name=psnr\\:enable_apsnr=true'", ["enable_apsnr", "n_subsample"]),
    ("psnr enable_apsnr in a piece", "[0:v][1:v]vqcuda=score_frames=5-20:feature='name=psnr\\:enable_apsnr=true'", ["enable_apsnr", "score_frames"]),
    ("debug not a boolean", "[0:v][1:v]vqcuda=feature='name=vif\\:debug=2'", ["debug", "2"]),
    ("model=none and nothing else", "[0:v][1:v]vqcuda=model=none:psnr=0", ["model=none", "nothing to compute"]),
    ("speed_temporal below 80x80", "[0:v]scale=64:64[d];[1:v]scale=64:64[r];[d][r]vqcuda=feature=name=speed_temporal", ["speed_temporal", "too small"]),
    ("speed_temporal prescale past libvmaf's buffers", "[0:v][1:v]vqcuda=feature='name=speed_temporal\\:speed_prescale=2'", ["speed_temporal", "past the end"]),
    ("speed_temporal has no weight mode", "[0:v][1:v]vqcuda=feature='name=speed_temporal\\:speed_weight_var_mode=5'", ["speed_temporal", "speed_weight_var_mode"]),
    ("float_psnr has no options", "[0:v][1:v]vqcuda=feature='name=float_psnr\\:enable_chroma=1'", ["float_psnr", "enable_chroma"]),
]
failed = 0
for name, lavfi, words in cases:
    r = run(lavfi)
    msg = r.stderr
    named = "vqcuda" in msg or (lavfi.find("libvmaf=") >= 0 and "libvmaf" in msg)
    # the cause must come from the filter, not from FFmpeg failing to parse its options
    parsed = "Option not found" not in msg
    ok = r.returncode > 0 and named and parsed and all(w.lower() in msg.lower() for w in words)
    print(f"{'ok  ' if ok else 'FAIL'} {name}: exit {r.returncode}: {msg.strip().splitlines()[-1] if msg.strip() else '(no message)'}")
    failed += not ok

# different lengths: the common frames are scored, and a warning says so
log = os.path.join(out, "short.json")
cmd = [ff, "-nostdin", "-hide_banner", "-v", "warning", "-i", dis, "-t", "0.5", "-i", ref,
       "-lavfi", f"[0:v][1:v]vqcuda=log_path={log}", "-f", "null", "-"]
r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
nframes = len(json.load(open(log))["frames"]) if r.returncode == 0 and os.path.exists(log) else -1
ok = r.returncode == 0 and 0 < nframes < 31 and "vqcuda" in r.stderr and "frames" in r.stderr
print(f"{'ok  ' if ok else 'FAIL'} different lengths: exit {r.returncode}, {nframes} frames scored: "
      f"{r.stderr.strip().splitlines()[-1] if r.stderr.strip() else '(no message)'}")
failed += not ok

# a ladder rendition that ends early: its common frames are scored, as a pair
# of that length would be (the rendition is rendition 1's stream, cut: the
# same values up to its last frame, whose motion2 has no next frame), the
# others go on to the end, and a warning names it
lp = os.path.join(out, "early_%d.json")
cmd = [ff, "-nostdin", "-hide_banner", "-v", "warning", "-i", dis, "-t", "0.5", "-i", dis, "-i", ref,
       "-lavfi", f"[0:v][1:v][2:v]vqcuda=inputs=3:log_path={lp}", "-f", "null", "-"]
r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
ok = False
if r.returncode == 0 and os.path.exists(lp % 1) and os.path.exists(lp % 2):
    f1 = json.load(open(lp % 1))["frames"]
    f2 = json.load(open(lp % 2))["frames"]
    k = len(f2)
    ok = (len(f1) == 31 and 0 < k < 31 and "rendition 2 ended" in r.stderr and
          all(f1[i]["metrics"] == f2[i]["metrics"] for i in range(k - 1)) and
          f2[k - 1]["metrics"]["integer_adm2"] == f1[k - 1]["metrics"]["integer_adm2"])
    print(f"{'ok  ' if ok else 'FAIL'} ladder rendition that ends early: {len(f1)} and {k} frames scored")
else:
    print(f"FAIL ladder rendition that ends early: exit {r.returncode}: {r.stderr.strip()[-300:]}")
failed += not ok

# metadata=default|all|scores|none: which values the frames carry (metadata=print's file)
def print_keys(inputs, vqcuda, name):
    """5 frames through [inputs]vqcuda...,metadata=print: the exit code and {(frame, key): value}"""
    dump = os.path.join(out, f"meta_{name}.txt")
    n = len(inputs)
    pads = "".join(f"[{i}:v]" for i in range(n))
    args = [x for i in inputs for x in ("-i", i)]
    r = subprocess.run([ff, "-nostdin", "-v", "error", *args, "-lavfi", f"{pads}{vqcuda},metadata=print:file={dump}",
                        "-frames:v", "5", "-f", "null", "-"], capture_output=True, text=True, timeout=300)
    kv = {}
    if r.returncode == 0 and os.path.exists(dump):
        frame = -1
        for line in open(dump):
            if line.startswith("frame:"):
                frame += 1
            elif "=" in line and frame < 5:   # FFmpeg >= 8 may filter a frame past -frames:v
                k, v = line.strip().split("=", 1)
                kv[(frame, k)] = v
    return r.returncode, kv

def frame_keys(mode):
    return print_keys([dis, ref], f"vqcuda=metadata={mode}" if mode else "vqcuda", mode)
ra, full = frame_keys("all")
rs, scores = frame_keys("scores")
rn, none = frame_keys("none")
rd, default = frame_keys("default")
r0, unset = frame_keys("")
ok = (ra == rs == rn == 0 and len(full) > 5 * 20 and not none and
      set(k for _, k in scores) == {"lavfi.vqcuda.vmaf", "lavfi.vqcuda.1.vmaf"} and
      all(full[fk] == v for fk, v in scores.items()) and len(scores) == 10)
print(f"{'ok  ' if ok else 'FAIL'} metadata=all/scores/none: {len(full)}, {len(scores)} and {len(none)} values on 5 frames")
failed += not ok
# a model named "v": its score is known from the plan, not from the name (vif_scale0 starts with "v")
rv, vkeys = print_keys([dis, ref], "vqcuda=metadata=scores:model='version=vmaf_v0.6.1\\:name=v'", "scores_v")
ok = rv == 0 and set(k for _, k in vkeys) == {"lavfi.vqcuda.v", "lavfi.vqcuda.1.v"} and len(vkeys) == 10
print(f"{'ok  ' if ok else 'FAIL'} metadata=scores with a model named v: {sorted(set(k for _, k in vkeys))[:4]}")
failed += not ok
# default (also without the option): all's plain keys, and the numbered keys of the models only
want = {fk: v for fk, v in full.items() if not fk[1].startswith("lavfi.vqcuda.1.") or fk[1] == "lavfi.vqcuda.1.vmaf"}
ok = rd == r0 == 0 and default == want == unset and len(default) > 5 * 15 and len(default) < len(full)
print(f"{'ok  ' if ok else 'FAIL'} metadata=default (and unset): {len(default)} values on 5 frames, all's less "
      f"the numbered non-model keys")
failed += not ok
# a ladder (inputs=3, the same rendition twice) with the default metadata: rendition 1's every output
# under the plain names, each rendition's model outputs under its number, equal for equal renditions
rl, lad = print_keys([dis, dis, ref], f"vqcuda=inputs=3:log_path={os.path.join(out, 'ml%d.json')}", "ladder")
numbered = set(k for _, k in lad if k.startswith("lavfi.vqcuda.1.") or k.startswith("lavfi.vqcuda.2."))
plain = set(k for _, k in lad) - numbered
ok = (rl == 0 and numbered == {"lavfi.vqcuda.1.vmaf", "lavfi.vqcuda.2.vmaf"} and
      plain == set(k for _, k in default) - {"lavfi.vqcuda.1.vmaf"} and len(plain) > 15 and
      all(lad[(f, "lavfi.vqcuda.2.vmaf")] == lad[(f, "lavfi.vqcuda.1.vmaf")] == lad[(f, "lavfi.vqcuda.vmaf")]
          for f in range(5)))
print(f"{'ok  ' if ok else 'FAIL'} ladder metadata=default: {len(plain)} plain keys, numbered {sorted(numbered)}")
failed += not ok
print(f"{len(cases) + 5 - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
