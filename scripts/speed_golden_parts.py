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

# pair -> width, height, chroma subsampling x/y, bits (shared/README.md)
PAIRS = {
    'dog1080': (1920, 1080, 1, 1, 8), 'dog1080_self': (1920, 1080, 1, 1, 8),
    'birds720': (1280, 720, 1, 1, 8), 'balle576': (720, 576, 1, 1, 8),
    'dog1080p10': (1920, 1080, 1, 1, 10), 'dog2160': (3840, 2160, 1, 1, 8),
    'odd577x323': (577, 323, 0, 0, 8), 'small36x34': (36, 34, 1, 1, 8),
    'checker1080': (1920, 1080, 1, 1, 8), 'dog1080p12': (1920, 1080, 1, 1, 12),
    'birds422p10': (640, 360, 1, 0, 10),
}
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
