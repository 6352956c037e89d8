"""The test pairs of tests/data/clips.tsv, for the Python drivers.

The table is the one list of pairs (clips, size, depth, chroma subsampling)
that the C++ tests (tests/clip_table.h), CMake (tests/tests.cmake), the shell
scripts and these drivers read; each driver keeps its own choice of pairs.
    from clip_table import pairs
    PAIRS = pairs("dog1080", "birds720")   # name: (ref, dist, size, pix_fmt)
"""
import os
from typing import NamedTuple

PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "clips.tsv")


class Clip(NamedTuple):
    name: str
    ref: str        # clip names: raw as <clip>.yuv
    dist: str
    size: str       # WxH
    pix_fmt: str
    bpc: int
    ssx: int        # chroma shifts
    ssy: int
    device: str     # nv12 / p010 / p016, "" for none

    @property
    def w(self):
        return int(self.size.split("x")[0])

    @property
    def h(self):
        return int(self.size.split("x")[1])


def load(path=PATH):
    """every row, name: Clip, in the table's order"""
    rows = {}
    header = True
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            if header:      # the column names
                header = False
                continue
            c = line.split("\t")
            if len(c) != 9:
                raise ValueError(f"{path}: bad row: {line!r}")
            rows[c[0]] = Clip(c[0], c[1], c[2], c[3], c[4], int(c[5]), int(c[6]), int(c[7]),
                              "" if c[8] == "-" else c[8])
    return rows


def clip(name):
    return load()[name]


def pairs(*names):
    """the drivers' usual dict, for these pairs: name: (ref, dist, size, pix_fmt)"""
    rows = load()
    return {n: (rows[n].ref, rows[n].dist, rows[n].size, rows[n].pix_fmt) for n in names}
