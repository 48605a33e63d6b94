#!/usr/bin/env python3
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.

"""vmafhip-monitor's statistics of the per-frame values, against the
element's own per-frame messages for the same files (gst-launch-1.0 -m):
the histogram buckets, _count and _sum, the frames below each threshold
and the sliding minimum are exactly what the frames give; the event
counters are there at 0; the lag gauge is there; the element's window and
event properties are set from the channel's keys when the element has
them (--check shows them) and left out otherwise. Reads /metrics directly
(no Prometheus needed). Skips (77) without gst-launch-1.0 or the golden
pair."""

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from monitor_helpers import (  # noqa: E402
    element_has, samples, scrape_until_ended, start_service, stop_service)

SKIP = 77
PAIR = ("src01_q160x90_ref.yuv", "src01_q160x90_dis.yuv", 160, 90, 48)
BUCKETS = [20, 30, 40, 45, 60, 80, 90, 92.5, 95, 100]
THRESHOLDS = [40, 93.5, 95]


def golden_yuv(source_root):
    for d in (os.environ.get("VH_GOLDEN_DIR"),
              os.path.join(source_root, "..", "shared", "golden"),
              os.path.join(source_root, "tests", "data", "golden")):
        if d and os.path.exists(os.path.join(d, "yuv", PAIR[0])):
            return os.path.join(d, "yuv")
    print("SKIP: golden clips not found")
    sys.exit(SKIP)


def source(path):
    return (f"filesrc location=\"{path}\" ! rawvideoparse width={PAIR[2]} "
            f"height={PAIR[3]} format=i420 framerate=25/1")


def element_frames(ref, dist):
    """Per-frame values of the element's vmaf messages, in frame order."""
    cmd = (f"gst-launch-1.0 -m {ref} ! c.ref_sink {dist} ! c.dist_sink "
           f"vmafhipcompare name=c features=psnr backend=cpu "
           f"frame-message=true ! fakesink")
    p = subprocess.run(shlex.split(cmd), capture_output=True, text=True,
                       timeout=120)
    frames = {}
    for line in p.stdout.splitlines():
        if "(element): vmaf, " not in line:
            continue
        index = int(re.search(r"index=\(guint64\)(\d+)", line).group(1))
        frames[index] = {k: float(v) for k, v in re.findall(
            r" ([a-z_0-9]+)=\(double\)([^,;]+)", line)}
    return [frames[i] for i in sorted(frames)]


def label_number(x):
    return repr(float(x)).removesuffix(".0")


def main():
    monitor, source_root = sys.argv[1], sys.argv[2]
    if not shutil.which("gst-launch-1.0"):
        print("SKIP: gst-launch-1.0 is not installed")
        return SKIP
    yuv = golden_yuv(source_root)
    ref = source(os.path.join(yuv, PAIR[0]))
    dist = source(os.path.join(yuv, PAIR[1]))
    frames = element_frames(ref, dist)
    if len(frames) != PAIR[4]:
        print(f"FAIL the element gave {len(frames)} frames")
        return 1
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "monitor.conf")
        with open(path, "w") as f:
            f.write("[monitor]\nlisten = 127.0.0.1\nport = 0\nbackend = cpu\n"
                    "threads = 1\nfeatures = psnr\n"
                    "histogram-metrics = vmaf, psnr_y, nosuchmetric\n"
                    f"histogram-buckets = {','.join(map(str, BUCKETS))}\n"
                    f"thresholds = {','.join(map(str, THRESHOLDS))}\n"
                    # Covers the whole file, however slow the machine.
                    "min-window = 600\n"
                    "low-score-threshold = 50\nlow-score-min-frames = 3\n"
                    "black-min-duration = 2\nfreeze-min-duration = 0.5\n"
                    "window-frames = 16\n"
                    f"[channel a]\nreference = {ref}\ndistorted = {dist}\n")

        check = subprocess.run([monitor, "--check", "-c", path],
                               capture_output=True, text=True, timeout=60)
        for prop, value in (("low-score-threshold", "50"),
                            ("low-score-min-frames", "3"),
                            ("black-min-duration", "2000000000"),
                            ("freeze-min-duration", "500000000")):
            shown = f" {prop}={value}" in check.stdout
            if bool(element_has(prop)) != shown:
                failures.append(f"--check {'shows' if shown else 'lacks'} "
                                f"{prop}, the element "
                                f"{'lacks' if shown else 'has'} it")
        if check.returncode != 0:
            failures.append(f"--check failed: {check.stderr}")

        log_path = os.path.join(tmp, "monitor.log")
        proc, url = start_service(monitor, path, log_path)
        try:
            m, _ = scrape_until_ended(url, ["a"], 60)
        finally:
            stop_service(proc)

    for metric in ("vmaf", "psnr_y"):
        values = [fr[metric] for fr in frames]
        got = samples(m, "vmafhip_channel_score_histogram_bucket")
        for b in BUCKETS + ["+Inf"]:
            key = (f'channel="a",metric="{metric}",le="'
                   f'{label_number(b) if b != "+Inf" else b}"')
            want = sum(1 for v in values if b == "+Inf" or v <= b)
            if got.get(key) != want:
                failures.append(f"{key}: {got.get(key)} frames, the element's "
                                f"values give {want}")
        key = f'channel="a",metric="{metric}"'
        count = samples(m, "vmafhip_channel_score_histogram_count").get(key)
        total = samples(m, "vmafhip_channel_score_histogram_sum").get(key)
        if count != len(values) or total is None or \
                abs(total - sum(values)) > 1e-9 * abs(sum(values)):
            failures.append(f"{metric}: count {count} sum {total}, not "
                            f"{len(values)} and {sum(values)}")
        low = samples(m, "vmafhip_channel_score_window_min").get(key)
        if low != min(values):
            failures.append(f"{metric}: window minimum {low}, the element's "
                            f"lowest frame {min(values)}")
        below = samples(m, "vmafhip_channel_frames_below_total")
        for t in THRESHOLDS:
            k = f'{key},threshold="{label_number(t)}"'
            want = sum(1 for v in values if v < t)
            if below.get(k) != want:
                failures.append(f"{k}: {below.get(k)} below, not {want}")
        print(f"{metric}: {len(values)} frames, min {min(values):.3f}; "
              f"buckets, sum, count, thresholds and minimum checked")
    # The element's windows (when it has them): the last one is frames
    # 32 to 47.
    if element_has("window-frames"):
        last = [fr["vmaf"] for fr in frames[32:48]]
        got = {mm.group(1): float(mm.group(2)) for mm in re.finditer(
            r'^vmafhip_channel_window_score\{channel="a",pad="[^"]*",'
            r'metric="vmaf",stat="([a-z_0-9]+)"\} (\S+)$', m, re.M)}
        for stat, want in (("min", min(last)), ("max", max(last)),
                           ("mean", sum(last) / len(last))):
            if got.get(stat) is None or abs(got[stat] - want) > 1e-9:
                failures.append(f"window {stat}: {got.get(stat)}, the "
                                f"frames give {want}")
        # The monitor gives the element its thresholds.
        below = {mm.group(1): float(mm.group(2)) for mm in re.finditer(
            r'^vmafhip_channel_window_frames_below\{channel="a",pad="[^"]*",'
            r'metric="vmaf",threshold="([^"]+)"\} (\S+)$', m, re.M)}
        want = {label_number(t): sum(1 for v in last if v < t)
                for t in THRESHOLDS}
        if below != want:
            failures.append(f"window frames below {below}, the frames give "
                            f"{want}")
        print(f"the element's last window: {got}; below {below}")
    else:
        print("SKIP (part): the element has no windows yet")
    if 'metric="nosuchmetric"' in m:
        failures.append("a metric the element never gave is shown")
    events = samples(m, "vmafhip_channel_events_total")
    for ev in ('type="black",input="distorted",pad="dist_sink"',
               'type="freeze",input="reference",pad="ref_sink"',
               'type="low-score",input="distorted",pad="dist_sink"'):
        if f'channel="a",{ev}' not in events:
            failures.append(f"no events_total for {ev}")
    if not samples(m, "vmafhip_channel_lag_seconds"):
        failures.append("no lag gauge")
    for line in m.splitlines():
        if line.startswith("# TYPE vmafhip_channel_score_histogram "):
            if not line.endswith(" histogram"):
                failures.append(f"bad type line: {line}")
    for f in failures:
        print(f"FAIL {f}")
    if failures:
        with open(log_path) as f:
            print(f.read()[-2000:])
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
