#!/usr/bin/env python3
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.
"""CPU speed of SSIMULACRA 2: vmafhip-score --feature ssimulacra2 against
libjxl's ssimulacra2 tool on the same frames, seconds per frame side by
side at each thread count.

  bench/bench-ssimulacra2.py --tool PATH [options]
    --tool PATH        libjxl's ssimulacra2 tool (built from libjxl's
                       public source outside this repository)
    --build DIR        build directory (default: build in the source tree)
    --clip REF:DIS:WxH:BPC[:LAYOUT]  a raw pair (LAYOUT 420, 422 or 444;
                       default 420); default the golden pair
                       a_576x324_8bit_x264 (../shared/golden beside the
                       source tree, else tests/data/golden)
    --frames N         frames scored (default 24, at most the clip's)
    --runs N           runs of each command; the fastest counts (default 3)
    --threads "N ..."  (default "1 2")
    --workdir DIR      where the PNG frames go (default
                       $TMPDIR/vmafhip-bench-ssimulacra2)

The frames libjxl reads are ours: vmafhip-score's dump_rgb writes the
16-bit R'G'B' its metric reads (the Y'CbCr conversion of
docs/extractors.md), and this script wraps each frame in a 16-bit PNG
without colour tags (sRGB to libjxl, as tests/oracle/ssimulacra2-oracle.sh
does with ffmpeg). Both sides are timed as a user runs them, whole
processes: vmafhip-score reads the raw file and converts Y'CbCr (--backend
cpu, so no GPU probe), libjxl's tool decodes two PNGs per frame and
starts once per frame (it scores one pair per run). libjxl's tool scores
one pair on one thread, so at N threads N of its processes run at once
over the frames. "s/frame" is the fastest run's wall time over the frames;
"ratio" libjxl's over ours. The values of both are compared (the largest
|ours - libjxl| is printed), so a faster wrong answer shows.
"""

import argparse
import array
import json
import os
import struct
import subprocess
import sys
import time
import zlib
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fail(msg):
    sys.exit("bench-ssimulacra2: " + msg)


def default_clip():
    for golden in (os.path.join(HERE, "..", "shared", "golden"),
                   os.path.join(HERE, "tests", "data", "golden")):
        yuv = os.path.join(golden, "yuv")
        ref = os.path.join(yuv, "a_576x324_8bit_ref.yuv")
        dis = os.path.join(yuv, "a_576x324_8bit_x264.yuv")
        if os.path.exists(ref) and os.path.exists(dis):
            return ref, dis, 576, 324, 8, "420"
    fail("no golden pair a_576x324_8bit_x264 here: give --clip")


def parse_clip(text):
    parts = text.split(":")
    if len(parts) not in (4, 5) or "x" not in parts[2]:
        fail("--clip wants REF:DIS:WxH:BPC[:LAYOUT], not " + text)
    w, h = (int(v) for v in parts[2].split("x"))
    layout = parts[4] if len(parts) == 5 else "420"
    if layout not in ("420", "422", "444"):
        fail("--clip layout %s: 420, 422 or 444" % layout)
    return parts[0], parts[1], w, h, int(parts[3]), layout


def frames_in(path, w, h, bpc, layout):
    cw = w if layout == "444" else (w + 1) // 2
    ch = h if layout != "420" else (h + 1) // 2
    frame = (w * h + 2 * cw * ch) * (2 if bpc > 8 else 1)
    return os.path.getsize(path) // frame


def write_png(path, rgb48, w, h):
    """16-bit RGB PNG from interleaved little-endian samples."""
    samples = array.array("H")
    samples.frombytes(rgb48)
    if sys.byteorder == "little":
        samples.byteswap()
    data = samples.tobytes()
    stride = w * 6
    raw = b"".join(b"\0" + data[y * stride:(y + 1) * stride]
                   for y in range(h))

    def chunk(kind, body):
        return (struct.pack(">I", len(body)) + kind + body +
                struct.pack(">I", zlib.crc32(kind + body) & 0xffffffff))

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 16, 2, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw, 1)))
        f.write(chunk(b"IEND", b""))


def score_args(score, clip, frames, threads, extra):
    ref, dis, w, h, bpc, layout = clip
    return [score, "-r", ref, "-d", dis, "-w", str(w), "-h", str(h),
            "-p", layout, "-b", str(bpc), "-n", "--backend", "cpu",
            "--frame_cnt", str(frames), "--threads", str(threads), "-q",
            "--feature", "ssimulacra2" + extra]


def run_ours(score, clip, frames, threads, log):
    args = score_args(score, clip, frames, threads, "") + ["--json", "-o",
                                                            log]
    start = time.monotonic()
    subprocess.run(args, check=True, stdin=subprocess.DEVNULL)
    return time.monotonic() - start


def run_libjxl(tool, pngs, threads):
    def one(pair):
        out = subprocess.run([tool, pair[0], pair[1]], check=True,
                             capture_output=True, text=True).stdout
        return float(out.split()[-1])

    start = time.monotonic()
    with ThreadPoolExecutor(max_workers=threads) as pool:
        values = list(pool.map(one, pngs))
    return time.monotonic() - start, values


def main():
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument("--tool")
    p.add_argument("--build", default=os.path.join(HERE, "build"))
    p.add_argument("--clip")
    p.add_argument("--frames", type=int, default=24)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--threads", default="1 2")
    p.add_argument("--workdir", default=os.path.join(
        os.environ.get("TMPDIR", "/tmp"), "vmafhip-bench-ssimulacra2"))
    p.add_argument("-h", "--help", action="store_true")
    a = p.parse_args()
    if a.help:
        print(__doc__)
        return
    if not a.tool or not os.access(a.tool, os.X_OK):
        fail("--tool: the path of libjxl's ssimulacra2 tool")
    score = os.path.join(a.build, "cli", "vmafhip-score")
    if not os.access(score, os.X_OK):
        fail("no vmafhip-score in %s (--build)" % a.build)
    clip = parse_clip(a.clip) if a.clip else default_clip()
    ref, dis, w, h, bpc, layout = clip
    frames = min(a.frames, frames_in(ref, w, h, bpc, layout),
                 frames_in(dis, w, h, bpc, layout))
    if frames < 1:
        fail("the clip holds no whole frame")
    threads = [int(t) for t in a.threads.split()]
    os.makedirs(a.workdir, exist_ok=True)

    # libjxl's input: our R'G'B' of each frame, as PNG.
    dump = os.path.join(a.workdir, "dump")
    os.makedirs(dump, exist_ok=True)
    subprocess.run(score_args(score, clip, frames, 1,
                              "=dump_rgb=" + dump), check=True,
                   stdin=subprocess.DEVNULL)
    pngs = []
    for i in range(frames):
        pair = []
        for side in ("ref", "dis"):
            rgb = os.path.join(dump, "%s-%d.rgb48" % (side, i))
            png = os.path.join(a.workdir, "%s-%d.png" % (side, i))
            with open(rgb, "rb") as f:
                write_png(png, f.read(), w, h)
            os.remove(rgb)
            pair.append(png)
        pngs.append(tuple(pair))

    log = os.path.join(a.workdir, "ours.json")
    print("%s, %ux%u %s %u-bit, %u frames, best of %u" % (
        os.path.basename(dis), w, h, layout, bpc, frames, a.runs))
    print("%-8s %16s %16s %8s" % ("threads", "vmafhip s/frame",
                                 "libjxl s/frame", "ratio"))
    worst = 0.0
    for t in threads:
        ours = theirs = float("inf")
        values = []
        # alternate the two, so that a change of load touches both alike
        for _ in range(a.runs):
            ours = min(ours, run_ours(score, clip, frames, t, log))
            took, values = run_libjxl(a.tool, pngs, t)
            theirs = min(theirs, took)
        with open(log) as f:
            got = [fr["metrics"]["ssimulacra2"] for fr in json.load(f)
                   ["frames"]]
        worst = max([worst] + [abs(x - y) for x, y in zip(got, values)])
        print("%-8u %16.5f %16.5f %8.2f" % (t, ours / frames,
                                           theirs / frames, theirs / ours))
    print("largest |ours - libjxl|: %.6f (ours printed with 6 decimals)"
          % worst)
    for pair in pngs:
        for png in pair:
            os.remove(png)


if __name__ == "__main__":
    main()
