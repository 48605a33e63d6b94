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
characters. Percentiles pool as numpy's default; --fps puts time on the x
axis; --ylim sets the range; the legend lies outside every panel; --rd
draws a ladder against bitrates given or computed from file sizes; the
image's Description metadata holds the pooled values. Usage: test-plot.py
TOOL DATA_DIR"""

import importlib.machinery
import importlib.util
import json
import math
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


def png_text(path):
    """The PNG's tEXt chunks: {keyword: text}."""
    with open(path, "rb") as f:
        data = f.read()
    pos, text = 8, {}
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"tEXt":
            key, _, value = data[pos + 8:pos + 8 + length].partition(b"\0")
            text[key.decode("latin-1")] = value.decode("latin-1")
        pos += 12 + length
    return text


def load_tool():
    """The tool as a module, to look at the figures it builds."""
    loader = importlib.machinery.SourceFileLoader("vmafhip_plot", tool)
    spec = importlib.util.spec_from_loader("vmafhip_plot", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def write_json(path, values):
    with open(path, "w") as f:
        json.dump({"frames": [{"frameNum": i, "metrics": {"vmaf": v}}
                              for i, v in enumerate(values)]}, f)


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


    # percentiles, linear between ranks as numpy's default; the default
    # pools are the mean and the 5th percentile
    quartet = os.path.join(tmp, "quartet.json")
    write_json(quartet, [40.0, 10.0, 30.0, 20.0])
    listed = run(quartet, "--list", "-p", "p5", "-p", "median", "-p",
                 "p100", "-p", "min").stdout
    if "vmaf: p5 11.500000, median 25.000000, p100 40.000000, min " \
            "10.000000 (computed)" not in listed:
        sys.exit(f"FAIL: percentiles:\n{listed}")
    listed = run(logs[0], "--list").stdout
    if "vmaf: mean 63.032180, p5 55.688" not in listed:
        sys.exit(f"FAIL: default pools are not mean and p5:\n{listed}")
    for bad in ("p101", "p", "pfive", "average"):
        r = run(quartet, "--list", "-p", bad, ok=False)
        if "is not a pool" not in r.stderr:
            sys.exit(f"FAIL: --pool {bad}: {r.stderr}")

    # what the figures hold: x axis, y range, legends outside the panels
    plot = load_tool()

    def built(*argv):
        args = plot.parse_args(list(argv) + ["-o", png])
        loaded = [plot.read_log(p) for p in args.logs]
        labels = args.labels or [os.path.basename(p) for p in args.logs]
        return plot.figure(loaded, labels,
                           plot.choose_metrics(loaded, args.metrics), args,
                           plot.bitrates(loaded, args))

    def legends_outside(fig):
        fig.canvas.draw()
        width = fig.bbox.width
        for ax in fig.axes:
            box, leg = ax.get_window_extent(), \
                ax.get_legend().get_window_extent()
            if leg.overlaps(box) or leg.x1 > width + 0.5:
                sys.exit(f"FAIL: legend {leg} covers panel {box} or leaves "
                         f"the {width}-pixel figure")

    fig, described = built(logs[0], logs[2], "-m", "vmaf", "-m", "psnr_y",
                           "--fps", "30000/1001", "--ylim", "20:90")
    ax = fig.axes[-1]
    line = fig.axes[0].get_lines()[0]
    if ax.get_xlabel() != "time (s)" or \
            abs(line.get_xdata()[3] - 3 * 1001 / 30000) > 1e-12:
        sys.exit(f"FAIL: --fps: {ax.get_xlabel()} {line.get_xdata()}")
    if any(a.get_ylim() != (20.0, 90.0) for a in fig.axes):
        sys.exit(f"FAIL: --ylim 20:90: {[a.get_ylim() for a in fig.axes]}")
    legends_outside(fig)
    if "libvmaf-a4.json vmaf: mean 63.032, p5 55.688" not in described:
        sys.exit(f"FAIL: description:\n{described}")
    fig, _ = built(logs[0], "--ylim=-10:")
    if fig.axes[0].get_ylim()[0] != -10.0:
        sys.exit(f"FAIL: --ylim=-10: {fig.axes[0].get_ylim()}")
    fig, _ = built(logs[0], "--fps", "25", "--frames", "--ylim", "60:")
    if fig.axes[0].get_xlabel() != "frame" or \
            fig.axes[0].get_ylim()[0] != 60.0:
        sys.exit(f"FAIL: --frames or --ylim 60: {fig.axes[0].get_xlabel()}"
                 f" {fig.axes[0].get_ylim()}")
    if fig.axes[0].get_lines()[0].get_xdata()[3] != 3:
        sys.exit("FAIL: --frames does not keep frame numbers")
    day = os.path.join(tmp, "day.json")
    write_json(day, [80.0] * 100000)
    fig, _ = built(day, "--fps", "25")
    if fig.axes[0].get_xlabel() != "time (h:mm:ss)" or \
            plot.clock(3725) != "1:02:05" or plot.clock(65) != "1:05":
        sys.exit(f"FAIL: long time axis: {fig.axes[0].get_xlabel()}")
    for bad in (("--fps", "0"), ("--fps", "x/2"), ("--ylim", "90:40"),
                ("--ylim", "abc"), ("--ylim", "1:nan")):
        r = run(logs[0], *bad, "-o", png, ok=False)
        if len(r.stderr.strip().splitlines()) > 3 or "Traceback" in r.stderr:
            sys.exit(f"FAIL: {bad}: {r.stderr}")

    # the PNG carries the title and the pooled values as metadata
    run(logs[0], logs[1], "-t", "ladder", "-o", png)
    text = png_text(png)
    if text.get("Title") != "ladder" or \
            "libvmaf-a4.xml vmaf: mean 63.032, p5 55.688" not in \
            text.get("Description", ""):
        sys.exit(f"FAIL: PNG metadata: {text}")

    # --rd: pooled values against bitrates, given or from file sizes
    ladder = []
    for n, values in enumerate(([30.0, 40.0], [70.0, 90.0],
                                [50.0, 60.0])):
        path = os.path.join(tmp, f"rung{n}.json")
        write_json(path, values)
        ladder.append(path)
    run(*ladder, "--rd", "--bitrate", "500", "--bitrate", "4000",
        "--bitrate", "1500", "-l", "low", "-l", "high", "-l", "mid",
        "-o", png, "--width", "900", "--height", "500")
    description = png_text(png).get("Description", "")
    want = ("vmaf mean: low 500.0 kbit/s 35.000000, mid 1500.0 kbit/s "
            "55.000000, high 4000.0 kbit/s 80.000000")
    if png_size(png) != (900, 500) or want not in description or \
            "vmaf p5: low 500.0 kbit/s 30.500000" not in description:
        sys.exit(f"FAIL: --rd: {png_size(png)} {description}")
    fig, _ = built(*ladder, "--rd", "--bitrate", "500", "--bitrate", "4000",
                   "--bitrate", "1500")
    if fig.axes[0].get_xlabel() != "bitrate (kbit/s)" or \
            fig.axes[0].get_xscale() != "log" or \
            list(fig.axes[0].get_lines()[0].get_xdata()) != [500, 1500,
                                                             4000]:
        sys.exit(f"FAIL: --rd axes: {fig.axes[0].get_xlabel()}")
    legends_outside(fig)

    # --bitrate-from: size over duration, from --duration or frames / fps
    encodes = []
    for n, size in enumerate((25000, 250000, 100000)):
        path = os.path.join(tmp, f"rung{n}.mkv")
        with open(path, "wb") as f:
            f.write(b"\0" * size)
        encodes.append(path)
    froms = [a for e in encodes for a in ("--bitrate-from", e)]
    listed = run(*ladder, *froms, "--duration", "2", "--list").stdout
    if "rung1.json: 2 frames, 1000.000 kbit/s" not in listed:
        sys.exit(f"FAIL: --bitrate-from --duration:\n{listed}")
    listed = run(*ladder, *froms, "--fps", "25", "--list").stdout
    if "rung0.json: 2 frames, 2500.000 kbit/s" not in listed:
        sys.exit(f"FAIL: --bitrate-from --fps:\n{listed}")
    run(*ladder, *froms, "--fps", "25", "--rd", "-o", png)
    BAD_RD = [
        ((*ladder, "--rd"), "--rd needs each log's bitrate"),
        ((*ladder, "--rd", "--bitrate", "1"), "1 --bitrate for 3 logs"),
        ((*ladder, "--rd", "--bitrate", "0", "--bitrate", "1",
          "--bitrate", "2"), "'0' is not a positive bitrate"),
        ((*ladder, *froms, "--rd"), "--bitrate-from needs the encodes'"),
        ((*ladder, "--rd", "--duration", "2", "--bitrate-from",
          os.path.join(tmp, "none.mkv"), *froms[2:]),
         "none.mkv: No such file"),
        ((*ladder, "--rd", "--duration", "2", "--bitrate-from", tmp,
          *froms[2:]), "not a file"),
    ]
    for argv, expected in BAD_RD:
        r = run(*argv, "-o", png, ok=False)
        if expected not in r.stderr or "Traceback" in r.stderr:
            sys.exit(f"FAIL: {argv}: want '{expected}', got {r.stderr}")

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

print("vmafhip-plot: PNG 800x600 and SVG drawn, pooled values, percentiles, "
      "time axis, --ylim, legends, --rd and errors as expected")
