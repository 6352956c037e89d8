#!/usr/bin/env python3
"""Generate hostmath/model_builtin_tables.cpp, the built-in models, from
libvmaf's model files (read, never copied into the project).

    scripts/gen-model-table.py [--models ../shared/models] [--out hostmath/model_builtin_tables.cpp]

Models, in libvmaf's built-in order (model.c): the float models
vmaf_float_v0.6.1, vmaf_float_b_v0.6.3 (a bootstrap collection),
vmaf_float_v0.6.1neg, vmaf_float_4k_v0.6.1 (features float_adm, float_motion,
float_vif), then vmaf_v0.6.1, vmaf_b_v0.6.3 (a bootstrap collection of 21
models), vmaf_v0.6.1neg, vmaf_4k_v0.6.1, vmaf_4k_v0.6.1neg, then the eight VMAF
v1.0.16 models (3d0h, 3d0h_2160, 5d0h, 1d5h_2160 and their hfr_ variants),
which carry chroma_correction_parameter.

The form (hostmath/model_impl.hpp Builtin*): per model its features (name,
feature_opts_dicts entry normalised as libvmaf's dictionary stores it,
slope, intercept), output slope/intercept, clip, score_transform, libsvm
header, and per support vector its coefficient and a row number; the rows
(index:value lists) are shared by every model, since bootstrap members and
the neg variants reuse the same training points (12220 support vectors, 914
distinct rows).

Numbers are written with repr(), the shortest text that reads back as the
same double; Python's float() and the C++ compiler round correctly, as
strtod (libvmaf's JSON reader and libstdc++'s istream >> double) does.
Option numbers go through the C library's strtof and "%g", as libvmaf's
dictionary does.  tests/test_model.cpp checks the tables against the JSON
files read by the run-time loader.
"""
import argparse
import ctypes
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

MODELS = ["vmaf_float_v0.6.1", "vmaf_float_b_v0.6.3", "vmaf_float_v0.6.1neg", "vmaf_float_4k_v0.6.1",
          "vmaf_v0.6.1", "vmaf_b_v0.6.3", "vmaf_v0.6.1neg", "vmaf_4k_v0.6.1", "vmaf_4k_v0.6.1neg",
          "vmaf_v1.0.16_3d0h", "vmaf_v1.0.16_3d0h_2160", "vmaf_v1.0.16_5d0h", "vmaf_v1.0.16_1d5h_2160",
          "vmaf_v1.0.16_hfr_3d0h", "vmaf_v1.0.16_hfr_3d0h_2160", "vmaf_v1.0.16_hfr_5d0h",
          "vmaf_v1.0.16_hfr_1d5h_2160"]
SVM_TYPES = ["c_svc", "nu_svc", "one_class", "epsilon_svr", "nu_svr"]
KERNELS = ["linear", "polynomial", "rbf", "sigmoid", "precomputed"]
MODEL_TYPES = {"LIBSVMNUSVR": "TYPE_SVM_NUSVR", "BOOTSTRAP_LIBSVMNUSVR": "TYPE_BOOTSTRAP_SVM_NUSVR",
               "RESIDUEBOOTSTRAP_LIBSVMNUSVR": "TYPE_RESIDUE_BOOTSTRAP_SVM_NUSVR"}
NORMS = {"none": "NORM_NONE", "linear_rescale": "NORM_LINEAR_RESCALE"}

libc = ctypes.CDLL(None)
libc.strtof.restype = ctypes.c_float
libc.strtof.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p)]
libc.snprintf.restype = ctypes.c_int


def die(msg):
    sys.exit("gen-model-table: " + msg)


class Num:
    """a JSON number with its text (json_get_number: strtod of the text)"""

    def __init__(self, text):
        self.text = text
        self.value = float(text)


def num(x):
    """a C++ double literal that reads back as exactly x"""
    if isinstance(x, Num):
        x = x.value
    x = float(x)
    r = repr(x)
    if r in ("inf", "-inf", "nan"):
        die("non-finite number in a model")
    return r


def cstr(s):
    if any(c in s for c in '"\\\n') or not s.isprintable():
        die("unexpected character in string %r" % s)
    return '"%s"' % s


def dict_number(text):
    """dict.c VMAF_DICT_NORMALIZE_NUMERICAL_VALUES: "%g" of strtof(text)"""
    b = text.encode()
    end = ctypes.c_char_p()
    f = libc.strtof(b, ctypes.byref(end))
    buf = ctypes.create_string_buffer(64)
    libc.snprintf(buf, 64, b"%g", ctypes.c_double(f))
    return buf.value.decode()


def parse_svm(text):
    """svm.cpp's SVMModelParser: header words split at ' ' / '\\n' up to 'SV',
    then total_sv lines of 'coef index:value ...'."""
    pos = 0
    n = len(text)

    def word():
        nonlocal pos
        start = pos
        while pos < n:
            c = text[pos]
            pos += 1
            if c in " \n":
                w = text[start:pos - 1]
                return w if w else None
        return None

    def value():
        nonlocal pos
        while pos < n and text[pos].isspace():
            pos += 1
        start = pos
        while pos < n and not text[pos].isspace():
            pos += 1
        tok = text[start:pos]
        pos += 1  # get(): drop one character
        return tok

    hdr = {"degree": 0, "gamma": 0.0, "coef0": 0.0}
    while True:
        w = word()
        if w is None or w == "SV":
            break
        if w in ("svm_type", "kernel_type"):
            hdr[w] = word()
        elif w in ("gamma", "coef0", "rho"):
            hdr[w] = float(value())
        elif w in ("degree", "nr_class", "total_sv"):
            hdr[w] = int(value())
        else:
            die("unexpected word %r in the libsvm header" % w)
    if hdr.get("nr_class") != 2:
        die("only 2-class (regression) models")
    if hdr["svm_type"] not in ("nu_svr", "epsilon_svr", "one_class"):
        die("only regression models")
    lines = text[pos:].split("\n")
    svs = []
    for i in range(hdr["total_sv"]):
        toks = lines[i].split()
        coef = float(toks[0])
        nodes = []
        for t in toks[1:]:
            idx, val = t.split(":")
            nodes.append((int(idx), float(val)))
        svs.append((coef, tuple(nodes)))
    return hdr, svs


def read_sub(md):
    """one model_dict, as the tables need it"""
    names = md["feature_names"]
    opts = md.get("feature_opts_dicts") or []
    norm = md["norm_type"]
    slopes = md.get("slopes") or []
    intercepts = md.get("intercepts") or []
    if norm == "linear_rescale" and (len(slopes) < len(names) + 1 or len(intercepts) < len(names) + 1):
        die("slopes/intercepts too short")
    cfl = md.get("chroma_correction_parameter")
    if cfl is not None and not isinstance(cfl, Num):
        die("chroma_correction_parameter is not a number")
    feats = []
    for k, nm in enumerate(names):
        o = []
        for key, v in (opts[k].items() if k < len(opts) else []):
            if isinstance(v, bool):
                o.append((key, "true" if v else "false"))
            elif isinstance(v, Num):
                o.append((key, dict_number(v.text)))
            elif isinstance(v, str):
                o.append((key, v))
            else:
                die("feature_opts_dicts value of type %s" % type(v))
        feats.append((nm, tuple(o), num(slopes[k + 1]) if slopes else "0.0",
                      num(intercepts[k + 1]) if intercepts else "0.0"))
    st = md.get("score_transform")
    tf = {"present": st is not None}
    if st is not None:
        tf["enabled"] = st.get("enabled") is True
        for p in ("p0", "p1", "p2"):
            if p in st:
                if not isinstance(st[p], Num):
                    die("score_transform.%s is not a number" % p)
                tf[p] = st[p]
        if "knots" in st:
            tf["knots"] = [[x for x in kn] for kn in st["knots"]]
            if len(tf["knots"]) > 10 or any(len(kn) > 2 for kn in tf["knots"]):
                die("bad knots")
        tf["out_lte_in"] = st.get("out_lte_in") == "true"
        tf["out_gte_in"] = st.get("out_gte_in") == "true"
    clip = md.get("score_clip")
    hdr, svs = parse_svm(md["model"])
    return {
        "type": MODEL_TYPES[md.get("model_type")] if "model_type" in md else "TYPE_UNKNOWN",
        "norm": NORMS[norm],
        "slope": num(slopes[0]) if slopes else "0.0",
        "intercept": num(intercepts[0]) if intercepts else "0.0",
        "features": tuple(feats),
        "clip": None if clip is None else (num(clip[0]), num(clip[1])),
        "tf": tf,
        "hdr": hdr,
        "svs": svs,
        "cfl": None if cfl is None else num(cfl),
    }


def transform_init(tf):
    if not tf["present"]:
        return "{}"
    knots = tf.get("knots")
    kn = ", ".join("{ %s, %s }" % (num(k[0]) if len(k) > 0 else "0.0", num(k[1]) if len(k) > 1 else "0.0")
                   for k in knots or [])
    b = lambda v: "true" if v else "false"
    return ("{ true, %s, %s, %s, %s, %s, %s, %s, %s, %d, { %s }, %s, %s }" %
            (b(tf["enabled"]), b("p0" in tf), b("p1" in tf), b("p2" in tf),
             num(tf["p0"]) if "p0" in tf else "0.0", num(tf["p1"]) if "p1" in tf else "0.0",
             num(tf["p2"]) if "p2" in tf else "0.0", b(knots is not None), len(knots or []), kn,
             b(tf["out_lte_in"]), b(tf["out_gte_in"])))


def ident(s):
    return "".join(c if c.isalnum() else "_" for c in s)


def generate(models_dir):
    loaded = []
    for name in MODELS:
        path = os.path.join(models_dir, name + ".json")
        with open(path) as f:
            root = json.load(f, parse_float=Num, parse_int=Num)
        if "model_dict" in root:
            loaded.append((name, False, [read_sub(root["model_dict"])]))
        else:
            subs = []
            while str(len(subs)) in root:
                subs.append(read_sub(root[str(len(subs))]["model_dict"]))
            if len(subs) < 2:
                die("%s: neither a model nor a collection" % name)
            loaded.append((name, True, subs))

    rows, row_id = [], {}
    feat_tabs, coef_tabs, rowref_tabs = {}, {}, {}
    body = []
    w = body.append

    def table(tabs, key, prefix):
        if key not in tabs:
            tabs[key] = "%s%d" % (prefix, len(tabs))
        return tabs[key]

    for name, coll, subs in loaded:
        for s in subs:
            for _, nodes in s["svs"]:
                if nodes not in row_id:
                    row_id[nodes] = len(rows)
                    rows.append(nodes)
            s["coef_tab"] = table(coef_tabs, tuple(num(c) for c, _ in s["svs"]), "coef")
            s["row_tab"] = table(rowref_tabs, tuple(row_id[nd] for _, nd in s["svs"]), "rows")
            s["feat_tab"] = table(feat_tabs, s["features"], "features")

    out = []
    o = out.append
    o("/*")
    o(" * model_builtin_tables.cpp - GENERATED by scripts/gen-model-table.py from")
    o(" * libvmaf's %s; DO NOT EDIT." % ", ".join(n + ".json" for n in MODELS))
    o(" * The built-in models in vqcuda's own form (model_impl.hpp); tests/test_model.cpp")
    o(" * checks them against the JSON files read by the run-time loader.")
    o(" */")
    o('#include "model_impl.hpp"')
    o("")
    o("namespace vq {")
    o("namespace model_detail {")
    o("")
    o("/* every support vector row (index, value), each ended by index -1 */")
    o("const SvmNode builtin_nodes[] = {")
    starts, total = [], 0
    for r, nodes in enumerate(rows):
        starts.append(total)
        total += len(nodes) + 1
        o("    " + " ".join("{ %d, %s }," % (ix, num(v)) for ix, v in nodes) + " { -1, 0.0 },")
    o("};")
    o("")
    o("const uint32_t builtin_row_start[] = {")
    for i in range(0, len(starts), 12):
        o("    " + " ".join("%d," % s for s in starts[i:i + 12]))
    o("};")
    o("const unsigned builtin_n_rows = %d;" % len(rows))
    o("")
    o("namespace {")
    o("")
    for feats, tab in feat_tabs.items():
        for k, (nm, opts, _, _) in enumerate(feats):
            if opts:
                o("const BuiltinOpt %s_opts%d[] = { %s };" % (tab, k, ", ".join(
                    "{ %s, %s }" % (cstr(a), cstr(b)) for a, b in opts)))
        o("const BuiltinFeature %s[] = {" % tab)
        for k, (nm, opts, sl, ic) in enumerate(feats):
            o("    { %s, %d, %s, %s, %s }," % (cstr(nm), len(opts), "%s_opts%d" % (tab, k) if opts else "nullptr",
                                           sl, ic))
        o("};")
    o("")
    for coefs, tab in coef_tabs.items():
        o("const double %s[] = {" % tab)
        for i in range(0, len(coefs), 10):
            o("    " + " ".join(c + "," for c in coefs[i:i + 10]))
        o("};")
    o("")
    for refs, tab in rowref_tabs.items():
        o("const uint32_t %s[] = {" % tab)
        for i in range(0, len(refs), 16):
            o("    " + " ".join("%d," % r for r in refs[i:i + 16]))
        o("};")
    o("")
    for name, coll, subs in loaded:
        o("const BuiltinSub subs_%s[] = {" % ident(name))
        for i, s in enumerate(subs):
            h = s["hdr"]
            clip = s["clip"]
            o("    /* %s */ { %s, %s, %s, %s, %d, %s, %s, %s, %s," % (
                ("model \"%d\"" % i) if coll else name, s["type"], s["norm"], s["slope"], s["intercept"],
                len(s["features"]), s["feat_tab"], "true" if clip else "false",
                clip[0] if clip else "0.0", clip[1] if clip else "0.0"))
            o("      %s," % transform_init(s["tf"]))
            o("      %d, %d, %d, %s, %s, %s, %d, %s, %s, %s, %s }," % (
                SVM_TYPES.index(h["svm_type"]), KERNELS.index(h["kernel_type"]), h["degree"],
                num(h["gamma"]), num(h["coef0"]), num(h["rho"]), len(s["svs"]), s["coef_tab"], s["row_tab"],
                "false" if s["cfl"] is None else "true", s["cfl"] or "0.0"))
        o("};")
    o("")
    o("}  // namespace")
    o("")
    o("const BuiltinModel builtin_models[] = {")
    for name, coll, subs in loaded:
        o("    { %s, %s, %d, subs_%s }," % (cstr(name), "true" if coll else "false", len(subs), ident(name)))
    o("};")
    o("const unsigned builtin_n_models = %d;" % len(loaded))
    o("")
    o("}  // namespace model_detail")
    o("}  // namespace vq")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", default=os.path.join(ROOT, "..", "shared", "models"))
    ap.add_argument("--out", default=os.path.join(ROOT, "hostmath", "model_builtin_tables.cpp"))
    a = ap.parse_args()
    text = generate(a.models)
    with open(a.out, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
