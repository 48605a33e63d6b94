#!/usr/bin/env python3
"""vmafhip-print on a golden pair: one line per frame whose values are the
results file's, and a summary with the model first, pooled as in the file."""
import json
import os
import re
import subprocess
import sys
import tempfile

printer, clips = sys.argv[1], sys.argv[2]
ref = os.path.join(clips, "d_321x241_8bit_ref.yuv")
dist = os.path.join(clips, "d_321x241_8bit_x264.yuv")
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def run(args):
    p = subprocess.run([printer] + args, capture_output=True, text=True,
                       timeout=120)
    return p.returncode, p.stdout, p.stderr


with tempfile.TemporaryDirectory() as tmp:
    log = os.path.join(tmp, "scores.json")
    rc, out, err = run(["-s", "321x241", "-m", "vmaf", "-m", "psnr_y",
                        "-m", "integer_adm2", "-o", log, ref, dist])
    check(rc == 0, f"exit status {rc}: {err}")
    frames = json.load(open(log))["frames"]
    lines = [l for l in out.splitlines() if l.startswith("frame ")]
    check(len(lines) == len(frames) == 10,
          f"{len(lines)} frame lines for {len(frames)} frames")
    for line, frame in zip(lines, frames):
        values = dict(re.findall(r"(\w+) (-?\d+\.\d+)", line))
        check(int(line.split()[1]) == frame["frameNum"], f"index in {line}")
        for name in ("vmaf", "psnr_y", "integer_adm2"):
            check(name in values, f"{name} missing in {line!r}")
            if name in values:
                check(abs(float(values[name]) - frame["metrics"][name]) < 1e-6,
                      f"frame {frame['frameNum']} {name}: printed "
                      f"{values[name]}, file {frame['metrics'][name]}")
        check(line.index("vmaf") < line.index("psnr_y"),
              f"the model is not first in {line!r}")
    summary = out[out.index("pooled over"):].splitlines()
    check(summary[0].startswith("pooled over 10 frames"), summary[0])
    check(summary[1].split()[0] == "vmaf", f"first pooled row {summary[1]!r}")
    pooled = json.load(open(log))["pooled_metrics"]["vmaf"]
    row = dict(re.findall(r"(\w+) +(-?\d+\.\d+)", summary[1]))
    for key in ("mean", "min", "max"):
        check(abs(float(row[key]) - pooled[key]) < 1e-6,
              f"pooled vmaf {key}: printed {row[key]}, file {pooled[key]}")

    # The same comparison as a pipeline of the user's own.
    parse = ("rawvideoparse width=321 height=241 format=i420 framerate=25/1 "
             "plane-strides=<321,161,161> plane-offsets=<0,77361,96842> "
             "frame-size=116323")
    rc, out2, err = run(["--pipeline",
                         f"filesrc location={ref} ! {parse} ! c.ref_sink "
                         f"filesrc location={dist} ! {parse} ! c.dist_sink "
                         "vmafhipcompare name=c features=psnr ! fakesink"])
    check(rc == 0, f"--pipeline exit status {rc}: {err}")
    check(out2.count("\nframe ") + out2.startswith("frame ") == 10,
          "--pipeline: not 10 frame lines")

    # Bad input is said, with a non-zero exit.
    rc, _, err = run(["-s", "321x", ref, dist])
    check(rc == 2 and "--size" in err, f"bad --size: {rc} {err!r}")
    rc, _, err = run([ref])
    check(rc == 2 and "distorted" in err, f"one file: {rc} {err!r}")
    rc, _, err = run([os.path.join(tmp, "missing.mp4"), dist])
    check(rc == 1 and "missing.mp4" in err, f"missing file: {rc} {err!r}")

for f in failures:
    print("FAIL:", f)
print("ok" if not failures else f"{len(failures)} failures")
sys.exit(1 if failures else 0)
