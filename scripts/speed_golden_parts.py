#!/usr/bin/env python3
"""Extract libvmaf v3.2.0's speed_chroma columns from the shared golden files
(../shared/golden/<pair>.v1_<model>.json) into
tests/data/golden_parts/speed_chroma.json, which tests/test_speed.cpp reads.
The numbers are written as Python's repr (the shortest text that parses back
to the same double), so nothing is lost.
    scripts/speed_golden_parts.py [SHARED_GOLDEN_DIR] [OUT]
"""
import glob
import json
import os
import sys

golden = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(__file__), '..', '..', 'shared', 'golden')
out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
    os.path.dirname(__file__), '..', 'tests', 'data', 'golden_parts', 'speed_chroma.json')

# pair -> width, height, chroma subsampling x/y, bits (tests/data/clips.tsv)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests'))
from clip_table import load  # noqa: E402
PAIRS = {n: (c.w, c.h, c.ssx, c.ssy, c.bpc) for n, c in load().items()
         if n in ('dog1080', 'dog1080_self', 'birds720', 'balle576', 'dog1080p10', 'dog2160',
                  'odd577x323', 'small36x34', 'checker1080', 'dog1080p12', 'birds422p10')}
OPTS = {'speed_kernelscale': 'kernelscale', 'speed_prescale': 'prescale',
        'speed_prescale_method': 'prescale_method', 'speed_sigma_nn': 'sigma_nn',
        'speed_nn_floor': 'nn_floor', 'speed_max_val': 'max_val',
        'speed_weight_var_mode': 'weight_var_mode'}


def model_options(model):
    path = os.path.join(os.path.dirname(golden), 'models', 'vmaf_%s.json' % model)
    found = {}

    def walk(o):
        if isinstance(o, dict):
            for k, v in o.items():
                if k in OPTS:
                    found[OPTS[k]] = v
                else:
                    walk(v)
        elif isinstance(o, list):
            for x in o:
                walk(x)
    walk(json.load(open(path)))
    return found


runs = []
for path in sorted(glob.glob(os.path.join(golden, '*.v1_*.json'))):
    name = os.path.basename(path)[:-len('.json')]
    pair, kind = name.split('.', 1)
    if '.' in kind:          # .avx2 / .avx512 twins: identical, not needed
        continue
    model = 'v1.0.16_' + kind[len('v1_'):]
    d = json.load(open(path))
    w, h, ssx, ssy, bpc = PAIRS[pair]
    run = {'pair': pair, 'model': 'vmaf_' + model, 'w': w, 'h': h, 'ss_x': ssx, 'ss_y': ssy,
           'bpc': bpc, 'reference': os.path.splitext(d['reference'])[0],
           'distorted': os.path.splitext(d['distorted'])[0],
           'options': model_options(model)}
    if 'refused_by_reference' in d:
        run['refused_by_reference'] = d['refused_by_reference']
    else:
        cols = {}
        for f in d['frames']:
            for k, v in f['metrics'].items():
                if k.startswith('speed_chroma_'):
                    cols.setdefault(k, []).append(v)
        for plane in ('u', 'v', 'uv'):
            (key,) = [k for k in cols if k.startswith('speed_chroma_%s_' % plane)]
            run['column_' + plane] = key
            run[plane] = cols[key]
    runs.append(run)

with open(out, 'w') as f:
    f.write('{"source": "libvmaf v3.2.0 (C path), shared/golden/<pair>.v1_<model>.json: '
            'the speed_chroma columns; made by scripts/speed_golden_parts.py",\n"runs": [\n')
    for i, r in enumerate(runs):
        vals = {p: r.pop(p) for p in ('u', 'v', 'uv') if p in r}
        text = json.dumps(r)[:-1]
        for p, vs in vals.items():
            text += ',\n  "%s": [%s]' % (p, ', '.join(repr(float(v)) for v in vs))
        f.write(text + '}' + (',\n' if i + 1 < len(runs) else '\n'))
    f.write(']}\n')
print('%d runs -> %s' % (len(runs), out))
