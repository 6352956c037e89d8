#!/usr/bin/env python3
import json, subprocess, sys
# Writes speed_chroma_options.json: the oracle (build.sh) on options no built-in
# model uses.  usage: gen.py OUT.json HARNESS [RAW_DIR]
RAW = sys.argv[3] if len(sys.argv) > 3 else '/work/main/build/libvqcuda/raw'
H = sys.argv[2]
clips = {
 'birds720': ('birds720_ref','birds720_crf30',1280,720,1,1,8),
 'balle576': ('balle576_ref','balle576_crf36',720,576,1,1,8),
 'odd577x323': ('odd577x323_ref','odd577x323_dist',577,323,0,0,8),
 'birds422p10': ('birds422p10_ref','birds422p10_dist',640,360,1,0,10),
 'dog1080p12': ('dog1080p12_ref','dog1080p12_crf30',1920,1080,1,1,12),
 'dog1080': ('dog1080_ref','dog1080_crf34',1920,1080,1,1,8),
}
D = dict(kernelscale=1.0, prescale=1.0, prescale_method='nearest', sigma_nn=0.29, nn_floor=0.0, max_val=1000.0, weight_var_mode=0)
V1 = dict(D, sigma_nn=0.19, nn_floor=0.1, max_val=45.0, weight_var_mode=5)
cases = []
def add(pair, nf, **kw):
    o = dict(D); o.update(kw); cases.append((pair, nf, o))
# libvmaf defaults
for p in clips: add(p, 2)
# prescale methods and factors
for m in ['nearest','bilinear','bicubic','lanczos4']:
    for ps in [0.5, 0.6, 0.75, 1.5]:
        add('birds720', 2, **dict(V1, prescale=ps, prescale_method=m))
    add('odd577x323', 2, **dict(V1, prescale=0.7, prescale_method=m))
    add('birds422p10', 2, **dict(V1, prescale=2.0, prescale_method=m))
    add('balle576', 2, **dict(V1, prescale=0.35, prescale_method=m))
add('dog1080', 1, **dict(V1, prescale=1.25, prescale_method='lanczos4'))
add('dog1080p12', 2, **dict(V1, prescale=0.5, prescale_method='bicubic'))
# kernelscales
for ks in [0.5, 2.0/3.0, 1.5, 2.0, 2.4, 360.0/97.0, 3.0, 1.0/2.25, 1.06667]:
    add('birds720', 2, **dict(V1, kernelscale=ks))
    add('odd577x323', 1, **dict(V1, kernelscale=ks, prescale=0.8, prescale_method='bilinear'))
# weight modes, sigma, floor, max_val
for wvm in range(7):
    add('balle576', 3, **dict(V1, weight_var_mode=wvm))
    add('birds422p10', 2, **dict(V1, weight_var_mode=wvm))
add('balle576', 3, **dict(V1, sigma_nn=0.1, nn_floor=1.0))
add('balle576', 3, **dict(V1, sigma_nn=2.0, nn_floor=0.0))
add('birds720', 3, **dict(V1, max_val=2.0))
add('birds720', 3, **dict(V1, max_val=0.0))
add('dog1080p12', 2, **V1)
runs = []
for pair, nf, o in cases:
    r, d, w, h, ssx, ssy, bpc = clips[pair]
    args = [H, '%s/%s.yuv' % (RAW, r), '%s/%s.yuv' % (RAW, d), str(w), str(h), str(ssx), str(ssy), str(bpc), str(nf),
            repr(o['kernelscale']), repr(o['prescale']), o['prescale_method'], repr(o['sigma_nn']), repr(o['nn_floor']),
            repr(o['max_val']), str(o['weight_var_mode'])]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout.split('\n')
    rows = [l.split() for l in out if l.strip()]
    assert len(rows) == nf, (pair, o, out)
    desc = 'ks%g_ps%g_%s_snn%g_nnf%g_mxv%g_wvm%d' % (o['kernelscale'], o['prescale'], o['prescale_method'], o['sigma_nn'], o['nn_floor'], o['max_val'], o['weight_var_mode'])
    runs.append(dict(pair=pair, model='oracle_' + desc, w=w, h=h, ss_x=ssx, ss_y=ssy, bpc=bpc, reference=r, distorted=d, options=o,
                     u=[float(x[0]) for x in rows], v=[float(x[1]) for x in rows], uv=[float(x[2]) for x in rows]))
    print(pair, desc, rows[0], file=sys.stderr)
with open(sys.argv[1], 'w') as f:
    f.write('{"source": "libvmaf v3.2.0 feature/speed.c (its speed_init / speed_extract_score) and feature/vif_tools.c, '
            'C path (ARCH_X86 0), gcc -O3, driven by scripts/speed_oracle/harness.c on raw frames as extract_chroma does; '
            'options no built-in model uses", \n"runs": [\n')
    for i, r in enumerate(runs):
        vals = {p: r.pop(p) for p in ('u', 'v', 'uv')}
        t = json.dumps(r)[:-1]
        for p, vs in vals.items():
            t += ',\n  "%s": [%s]' % (p, ', '.join(repr(v) for v in vs))
        f.write(t + '}' + (',\n' if i + 1 < len(runs) else '\n'))
    f.write(']}\n')
print(len(runs), 'runs')
