#!/usr/bin/env python3
"""A 16-bit raw clip from a 10-bit one (little-endian 16-bit samples):
v16 = (v << 6) | (v >> 4), every 16-bit code reachable at the top, the
fractional part nonzero (libvmaf reads 16-bit pictures as v / 256).

    raw_10to16.py IN.yuv OUT.yuv"""
import array
import os
import sys


def main():
    src, dst = sys.argv[1], sys.argv[2]
    if os.path.exists(dst) and os.path.getsize(dst) == os.path.getsize(src):
        return 0
    a = array.array("H")
    with open(src, "rb") as f:
        a.frombytes(f.read())
    if sys.byteorder != "little":
        a.byteswap()
    b = array.array("H", ((v << 6) | (v >> 4) for v in a))
    if sys.byteorder != "little":
        b.byteswap()
    with open(dst + ".tmp", "wb") as f:
        b.tofile(f)
    os.replace(dst + ".tmp", dst)
    return 0


if __name__ == "__main__":
    sys.exit(main())
