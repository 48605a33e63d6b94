#!/usr/bin/env python3
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.
"""Writes the small synthetic clips of the extended parity set.

Raw planar YUV, no header, little-endian 16-bit words above 8 bits; chroma
planes ceil(W / 2^ssx) x ceil(H / 2^ssy). Each clip is a gradient with a
moving disc and a fixed texture; its distorted twin adds frame-dependent
noise, a blur and a level shift, so every feature sees real differences.
Deterministic: the same files on every run.

    make-clips.py OUTDIR NAME WIDTH HEIGHT PIXFMT BITDEPTH FRAMES
"""

import random
import struct
import sys

SUBSAMPLING = {"420": (1, 1), "422": (1, 0), "444": (0, 0)}


def plane(w, h, bpc, frame, chroma, rnd, distorted):
    peak = (1 << bpc) - 1
    cx = w * (0.3 + 0.1 * frame)
    cy = h * 0.5
    rad = min(w, h) * 0.3
    tex = [[rnd.random() for _ in range(w)] for _ in range(h)]
    out = []
    for y in range(h):
        row = []
        for x in range(w):
            v = (x / max(w - 1, 1)) * 0.6 + (y / max(h - 1, 1)) * 0.2
            if (x - cx) ** 2 + (y - cy) ** 2 < rad * rad:
                v = 0.9 - v * 0.5 if not chroma else 0.2 + 0.1 * frame
            v += 0.15 * tex[y][x]
            row.append(v)
        out.append(row)
    if distorted:
        blurred = []
        for y in range(h):
            row = []
            for x in range(w):
                acc = 0.0
                for dx in (-1, 0, 1):
                    acc += out[y][min(max(x + dx, 0), w - 1)]
                row.append(acc / 3)
            blurred.append(row)
        out = [[v + 0.02 * (frame - 1) + 0.04 * (rnd.random() - 0.5)
                for v in row] for row in blurred]
    return [[min(max(int(round(v * peak)), 0), peak) for v in row]
            for row in out]


def write_clip(path, w, h, pixfmt, bpc, frames, distorted):
    ssx, ssy = SUBSAMPLING[pixfmt]
    cw, ch = (w + ssx) >> ssx, (h + ssy) >> ssy
    data = bytearray()
    for f in range(frames):
        for p in range(3):
            pw, ph = (w, h) if p == 0 else (cw, ch)
            # One texture per plane; the noise differs per frame.
            rnd = random.Random(1000 * p + (7 * f + 1 if distorted else 0))
            rows = plane(pw, ph, bpc, f, p > 0, rnd, distorted)
            for row in rows:
                if bpc > 8:
                    data += struct.pack("<%dH" % pw, *row)
                else:
                    data += bytes(row)
    with open(path, "wb") as fh:
        fh.write(data)


def main():
    outdir, name, w, h, pixfmt, bpc, frames = sys.argv[1:8]
    w, h, bpc, frames = int(w), int(h), int(bpc), int(frames)
    write_clip("%s/%s_ref.yuv" % (outdir, name), w, h, pixfmt, bpc, frames,
               False)
    write_clip("%s/%s_dis.yuv" % (outdir, name), w, h, pixfmt, bpc, frames,
               True)


if __name__ == "__main__":
    main()
