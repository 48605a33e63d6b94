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
and bad input fails with a message. Usage: test-plot.py TOOL DATA_DIR"""

import os
import struct
import subprocess
import sys
import tempfile
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

print("vmafhip-plot: PNG 800x600 and SVG drawn, pooled values and errors "
      "as expected")
