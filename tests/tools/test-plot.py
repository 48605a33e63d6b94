#!/usr/bin/python3
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.
"""vmafhip-plot draws libvmaf's JSON, XML and CSV logs: the PNG has the
size asked for, the SVG too, the legend's pooled values are the logs' own,
and bad input fails with a message: one line, no traceback. Logs are read
in linear time; names are drawn literally and listed without their control
characters. Usage: test-plot.py TOOL DATA_DIR"""

import json
import os
import struct
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

tool, data = sys.argv[1], sys.argv[2]
logs = [os.path.join(data, "libvmaf-a4." + ext)
        for ext in ("json", "xml", "csv")]


def run(*args, ok=True):
    r = subprocess.run([sys.executable, tool, *args], capture_output=True,
                       text=True)
    if ok and r.returncode != 0:
        sys.exit(f"FAIL: vmafhip-plot {' '.join(args)}: {r.stderr}")
    if not ok and r.returncode == 0:
        sys.exit(f"FAIL: vmafhip-plot {' '.join(args)} succeeded")
    return r


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        sys.exit(f"FAIL: {path} is not a PNG")
    return struct.unpack(">II", head[16:24])


with tempfile.TemporaryDirectory() as tmp:
    # three encodes overlaid, two metrics, exact pixel size
    png = os.path.join(tmp, "scores.png")
    run(*logs, "-m", "vmaf", "-m", "psnr_y", "-l", "json", "-l", "xml",
        "-l", "csv", "-o", png, "--width", "800", "--height", "600")
    if png_size(png) != (800, 600):
        sys.exit(f"FAIL: {png} is {png_size(png)}, not (800, 600)")
    if os.path.getsize(png) < 10000:
        sys.exit(f"FAIL: {png} is only {os.path.getsize(png)} bytes")

    # default size: 300 pixels a panel, at least 400
    run(logs[0], "-o", png)
    if png_size(png) != (1200, 400):
        sys.exit(f"FAIL: default size {png_size(png)}, not (1200, 400)")

    # SVG, with the pooled values in the legend
    svg = os.path.join(tmp, "scores.svg")
    run(logs[1], "-o", svg, "--width", "640", "--height", "480")
    root = ET.parse(svg).getroot()
    if root.get("width") != "460.8pt" or root.get("height") != "345.6pt":
        sys.exit(f"FAIL: SVG is {root.get('width')} x {root.get('height')}")

    # the pooled values: the log's own, or computed from CSV frames
    listed = run(logs[0], "--list").stdout
    if "vmaf: mean 63.032180" not in listed:
        sys.exit(f"FAIL: JSON pooled vmaf not listed:\n{listed}")
    listed = run(logs[2], "--list", "--pool", "harmonic_mean").stdout
    if "vmaf: harmonic_mean 62.230332 (computed)" not in listed:
        sys.exit(f"FAIL: CSV harmonic mean not computed as libvmaf:\n"
                 f"{listed}")

    # errors say what is wrong
    r = run(logs[0], "-m", "no_such_metric", "-o", png, ok=False)
    if "no no_such_metric" not in r.stderr:
        sys.exit(f"FAIL: unclear error: {r.stderr}")
    bad = os.path.join(tmp, "bad.json")
    with open(bad, "w") as f:
        f.write("{\"frames\": 3")
    r = run(bad, "-o", png, ok=False)
    if "not valid JSON" not in r.stderr:
        sys.exit(f"FAIL: unclear error: {r.stderr}")
    run(logs[0], "-o", os.path.join(tmp, "x.jpg"), ok=False)

    # malformed logs: one line naming the file, never a traceback
    MALFORMED = [
        ("frames.json", '{"frames": [1, 2]}', "frame 0 is not an object"),
        ("value.json", '{"frames": [{"frameNum": 0, "metrics": {"vmaf": '
         '"abc"}}]}', "frame 0 vmaf: 'abc' is not a number"),
        ("list.json", '{"frames": [{"frameNum": 0, "metrics": {"vmaf": '
         '[1]}}]}', "frame 0 vmaf: [1] is not a number"),
        ("number.json", '{"frames": [{"frameNum": "x", "metrics": {}}]}',
         "frameNum 'x' is not a frame number"),
        ("metrics.json", '{"frames": [{"metrics": [1]}]}',
         "'metrics' is not an object"),
        ("pooled.json", '{"frames": [{"metrics": {"vmaf": 1}}], '
         '"pooled_metrics": {"vmaf": 3}}', "pooled vmaf is not an object"),
        ("deep.json", "[" * 100000, "not valid JSON"),
        ("binary.json", b"\xff\xfe\x00{", "not UTF-8 text"),
        ("number.xml", '<VMAF><frames><frame frameNum="a" vmaf="1"/>'
         '</frames></VMAF>', "frameNum 'a' is not a frame number"),
        ("value.xml", '<VMAF><frames><frame frameNum="0" vmaf="x"/>'
         '</frames></VMAF>', "frame 0 vmaf: 'x' is not a number"),
        ("pooled.xml", '<VMAF><frames><frame frameNum="0" vmaf="1"/>'
         '</frames><pooled_metrics><metric mean="1"/></pooled_metrics>'
         '</VMAF>', "a pooled <metric> without a name"),
        ("value.csv", "Frame,vmaf\n0,abc\n", "line 2 vmaf: 'abc' is not"),
        ("twice.csv", "Frame,vmaf,vmaf\n0,1,2\n",
         "column 'vmaf' is given twice"),
        ("nul.csv", "Frame,vmaf\n0,\0\n", "line 2 vmaf: '\\x00' is not"),
    ]
    for name, text, expected in MALFORMED:
        path = os.path.join(tmp, name)
        with open(path, "wb") as f:
            f.write(text if isinstance(text, bytes) else text.encode())
        for args in (("--list",), ("-o", png)):
            r = run(path, *args, ok=False)
            lines = r.stderr.strip().splitlines()
            if len(lines) != 1 or "Traceback" in r.stderr or \
                    expected not in lines[0] or path not in lines[0]:
                sys.exit(f"FAIL: {name} {args}: want one line with "
                         f"'{expected}', got:\n{r.stderr}")

    # a short CSV row: its missing cells are NaN, not an error
    short = os.path.join(tmp, "short.csv")
    with open(short, "w") as f:
        f.write("Frame,vmaf,psnr_y\n0,50,30\n1,60\n")
    listed = run(short, "--list").stdout
    if "vmaf: mean 55.000000" not in listed or \
            "psnr_y: mean 30.000000" not in listed:
        sys.exit(f"FAIL: short CSV row:\n{listed}")

    # names matplotlib would read as mathtext are drawn as they are
    odd = os.path.join(tmp, "odd.json")
    with open(odd, "w") as f:
        json.dump({"frames": [{"frameNum": i, "metrics": {
            "$\\frac{$": 1.0 + i, "vmaf": 50.0 + i}} for i in range(5)]}, f)
    run(odd, "-m", "$\\frac{$", "-m", "vmaf", "-l", "enc $x^{$ 2",
        "-t", "$\\nosuchcommand$", "-o", png)
    if png_size(png) != (1200, 600):
        sys.exit(f"FAIL: mathtext names: {png_size(png)}")

    # --list does not pass a log's escape sequences to the terminal
    escapes = os.path.join(tmp, "escapes.json")
    with open(escapes, "w") as f:
        json.dump({"frames": [{"frameNum": 0, "metrics": {
            "\x1b[2J\x1b]0;title\x07vmaf": 1.0}}]}, f)
    r = run(escapes, "--list", "-l", "enc\x1b[31m")
    if any(ord(c) < 32 and c != "\n" for c in r.stdout) or \
            "\\x1b[2J\\x1b]0;title\\x07vmaf: mean 1.000000" not in r.stdout \
            or "enc\\x1b[31m: 1 frames" not in r.stdout:
        sys.exit(f"FAIL: --list echoes control characters: {r.stdout!r}")
    r = run(escapes, "-m", "x", "-o", png, ok=False)
    if any(ord(c) < 32 and c != "\n" for c in r.stderr):
        sys.exit(f"FAIL: an error echoes control characters: {r.stderr!r}")

    # linear time: five times the frames, about five times the time (a
    # quadratic reader takes 25 times), and 100k frames in seconds
    def timed_list(n):
        path = os.path.join(tmp, f"long{n}.json")
        with open(path, "w") as f:
            json.dump({"frames": [
                {"frameNum": i, "metrics": {"integer_adm2": 0.9,
                                            "integer_motion2": 1.5,
                                            "vmaf": 80.0 + i % 7}}
                for i in range(n)]}, f)
        took = []
        for _ in range(2):      # the faster of two: a busy machine's pauses
            start = time.monotonic()
            listed = run(path, "--list").stdout
            took.append(time.monotonic() - start)
        if f"{n} frames" not in listed:
            sys.exit(f"FAIL: {n} frames not read: {listed}")
        return min(took)
    short_t, long_t = timed_list(20000), timed_list(100000)
    print(f"--list: 20k frames {short_t:.2f} s, 100k frames {long_t:.2f} s")
    if long_t > 12 * short_t or long_t > 30:
        sys.exit(f"FAIL: reading is not linear: 20k frames {short_t:.2f} s,"
                 f" 100k {long_t:.2f} s")

print("vmafhip-plot: PNG 800x600 and SVG drawn, pooled values and errors "
      "as expected")
