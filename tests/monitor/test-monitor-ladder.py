#!/usr/bin/env python3
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.

"""A ladder in one vmafhip-monitor channel: three distorted inputs
(videotestsrc scaled down by videoscale, each rung its own size) in
`distorted`, separated by ';', with `labels`. The channel runs them as the
element's request pads; each rendition's latest score, histogram, frames
below the thresholds, window minimum and pooled values are labelled by pad and label and
are exactly what the element's own per-frame messages for the same pipeline
(gst-launch-1.0 -m) give for that pad; no rendition's values are mixed
into another's. The frame counters (scored, skipped, unpaired, dropped) are
per rendition too: the last rung ends SHORT frames early, and its frames
scored and reference frames unpaired are its own. --check shows the pads (of a `distortion` list too) and
refuses labels that do not match the inputs. Skips (77) without
gst-launch-1.0."""

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from monitor_helpers import (  # noqa: E402
    samples, scrape_until_ended, start_service, stop_service)

SKIP = 77
FRAMES = 30
SHORT = 6       # the last rung's stream ends this many frames early
REF_SIZE = (192, 108)
RUNGS = [("dist_sink", "720p", 128, 72), ("dist_sink_1", "540p", 96, 54),
         ("dist_sink_2", "360p", 64, 36)]
BUCKETS = [20, 40, 60, 80, 90, 95, 100]
THRESHOLDS = [60, 80, 95]


def rung_frames(pad):
    return FRAMES - SHORT if pad == RUNGS[-1][0] else FRAMES


def source(w, h, frames=FRAMES):
    """The moving ball at the reference's size, scaled to w x h."""
    return (f"videotestsrc pattern=ball num-buffers={frames} ! "
            f"video/x-raw,format=I420,width={REF_SIZE[0]},"
            f"height={REF_SIZE[1]},framerate=25/1 ! videoscale ! "
            f"video/x-raw,width={w},height={h}")


def element_frames(ref, dists):
    """{pad: per-frame vmaf values in frame order} from the element's vmaf
    messages, the same ladder through gst-launch-1.0."""
    branches = " ".join(f"{d} ! c.{pad}" for d, (pad, *_) in
                        zip(dists, RUNGS))
    cmd = (f"gst-launch-1.0 -m {ref} ! c.ref_sink {branches} "
           f"vmafhipcompare name=c backend=cpu threads=1 "
           f"frame-message=true ! fakesink")
    p = subprocess.run(shlex.split(cmd), capture_output=True, text=True,
                       timeout=120)
    frames = {pad: {} for pad, *_ in RUNGS}
    for line in p.stdout.splitlines():
        if "(element): vmaf, " not in line:
            continue
        pad = re.search(r"pad=\(string\)([a-z_0-9]+)", line).group(1)
        index = int(re.search(r"index=\(guint64\)(\d+)", line).group(1))
        frames[pad][index] = float(re.search(
            r" vmaf=\(double\)([^,;]+)", line).group(1))
    return {pad: [v[i] for i in sorted(v)] for pad, v in frames.items()}


def label_number(x):
    return repr(float(x)).removesuffix(".0")


def write_config(path, ref, dists, labels):
    with open(path, "w") as f:
        f.write("[monitor]\nlisten = 127.0.0.1\nport = 0\nbackend = cpu\n"
                "threads = 1\n"
                f"histogram-buckets = {','.join(map(str, BUCKETS))}\n"
                f"thresholds = {','.join(map(str, THRESHOLDS))}\n"
                "min-window = 600\n"
                f"[channel live]\nreference = {ref}\n"
                f"distorted = {' ; '.join(dists)}\n")
        if labels is not None:
            f.write(f"labels = {labels}\n")


def check_refusals(monitor, tmp, ref, dists):
    """Labels that do not name the inputs one each are refused by --check
    with a message saying why."""
    failures = []
    path = os.path.join(tmp, "bad.conf")
    for labels, says in (("720p,540p", "2 labels for 3 distorted inputs"),
                         ("720p,540p,540p", "given twice")):
        write_config(path, ref, dists, labels)
        p = subprocess.run([monitor, "--check", "-c", path],
                           capture_output=True, text=True, timeout=60)
        if p.returncode == 0 or says not in p.stderr:
            failures.append(f"labels = {labels}: exit {p.returncode}, "
                            f"{p.stderr.strip()!r} (wanted {says!r})")
    # distortion as a list: the tee feeds one chain per rendition
    with open(path, "w") as f:
        chains = " ; ".join(f"videoscale ! video/x-raw,width={w},height={h}"
                            for _, _, w, h in RUNGS)
        f.write(f"[monitor]\nport = 0\nbackend = cpu\n[channel t]\n"
                f"reference = {ref}\ndistortion = {chains}\n"
                f"labels = a,b,c\n")
    p = subprocess.run([monitor, "--check", "-c", path],
                       capture_output=True, text=True, timeout=60)
    if p.returncode != 0 or any(
            f"! compare.{pad} " not in p.stdout for pad, *_ in RUNGS) or \
            p.stdout.count("feed. ! queue !") != len(RUNGS) + 1:
        failures.append(f"a distortion list: exit {p.returncode}, "
                        f"{p.stdout.strip()!r} {p.stderr.strip()!r}")
    write_config(path, ref, dists[:1], "720p")
    p = subprocess.run([monitor, "--check", "-c", path],
                       capture_output=True, text=True, timeout=60)
    if p.returncode == 0 or "two or more distorted inputs" not in p.stderr:
        failures.append(f"labels with one input: exit {p.returncode}, "
                        f"{p.stderr.strip()!r}")
    return failures


def main():
    monitor = sys.argv[1]
    if not shutil.which("gst-launch-1.0"):
        print("SKIP: gst-launch-1.0 is not installed")
        return SKIP
    ref = source(*REF_SIZE)
    dists = [source(w, h, rung_frames(pad)) for pad, _, w, h in RUNGS]
    frames = element_frames(ref, dists)
    for pad, values in frames.items():
        if len(values) != rung_frames(pad):
            print(f"FAIL the element gave {len(values)} frames on {pad}")
            return 1
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        failures += check_refusals(monitor, tmp, ref, dists)
        path = os.path.join(tmp, "monitor.conf")
        write_config(path, ref, dists,
                     ",".join(label for _, label, _, _ in RUNGS))
        check = subprocess.run([monitor, "--check", "-c", path],
                               capture_output=True, text=True, timeout=60)
        if check.returncode != 0:
            failures.append(f"--check failed: {check.stderr}")
        for pad, *_ in RUNGS:
            if f"compare.{pad} " not in check.stdout:
                failures.append(f"--check's launch line has no {pad}: "
                                f"{check.stdout}")

        log_path = os.path.join(tmp, "monitor.log")
        proc, url = start_service(monitor, path, log_path)
        try:
            m, _ = scrape_until_ended(url, ["live"], 60)
        finally:
            stop_service(proc)

    hist = samples(m, "vmafhip_channel_score_histogram_bucket")
    counts = samples(m, "vmafhip_channel_score_histogram_count")
    sums = samples(m, "vmafhip_channel_score_histogram_sum")
    mins = samples(m, "vmafhip_channel_score_window_min")
    below = samples(m, "vmafhip_channel_frames_below_total")
    latest = samples(m, "vmafhip_channel_score")
    pooled = samples(m, "vmafhip_channel_score_pooled")
    scored = samples(m, "vmafhip_channel_frames_scored_total")
    skipped = samples(m, "vmafhip_channel_frames_skipped_total")
    unpaired = samples(m, "vmafhip_channel_frames_unpaired_total")
    dropped = samples(m, "vmafhip_channel_frames_dropped_total")
    for pad, label, w, h in RUNGS:
        values = frames[pad]
        key = f'channel="live",pad="{pad}",label="{label}",metric="vmaf"'
        for b in BUCKETS + ["+Inf"]:
            k = f'{key},le="{label_number(b) if b != "+Inf" else b}"'
            want = sum(1 for v in values if b == "+Inf" or v <= b)
            if hist.get(k) != want:
                failures.append(f"{k}: {hist.get(k)} frames, the element's "
                                f"values give {want}")
        if counts.get(key) != len(values) or sums.get(key) is None or \
                abs(sums[key] - sum(values)) > 1e-9 * abs(sum(values)):
            failures.append(f"{pad}: count {counts.get(key)} sum "
                            f"{sums.get(key)}, not {len(values)} and "
                            f"{sum(values)}")
        if mins.get(key) != min(values):
            failures.append(f"{pad}: window minimum {mins.get(key)}, the "
                            f"element's lowest frame {min(values)}")
        for t in THRESHOLDS:
            k = f'{key},threshold="{label_number(t)}"'
            want = sum(1 for v in values if v < t)
            if below.get(k) != want:
                failures.append(f"{k}: {below.get(k)} below, not {want}")
        if latest.get(key) != values[-1]:
            failures.append(f"{pad}: latest score {latest.get(key)}, the "
                            f"element's last frame {values[-1]}")
        mean = pooled.get(f'{key},pool="mean"')
        if mean is None or abs(mean - sum(values) / len(values)) > 1e-9:
            failures.append(f"{pad}: pooled mean {mean}, the element's "
                            f"frames give {sum(values) / len(values)}")
        # the frame counters: this rendition's own, as the element scored
        rung = f'channel="live",pad="{pad}",label="{label}"'
        counted = {
            "scored": (scored.get(rung), len(values)),
            "skipped": (skipped.get(rung), 0),
            "unpaired reference": (
                unpaired.get(f'{rung},input="reference"'),
                FRAMES - len(values)),
            "unpaired distorted": (
                unpaired.get(f'{rung},input="distorted"'), 0),
            "dropped reference": (
                dropped.get(f'{rung},input="reference"'), 0),
            "dropped distorted": (
                dropped.get(f'{rung},input="distorted"'), 0),
        }
        for what, (got, want) in counted.items():
            if got != want:
                failures.append(f"{pad}: {what} {got}, not {want}")
        print(f"{label} ({pad}, {w}x{h}): {len(values)} frames, min "
              f"{min(values):.3f}, last {values[-1]:.3f}; histogram, "
              f"thresholds, minimum, latest, pooled mean and frame counters "
              f"checked")
    # A ladder's per-frame statistics and frame counters exist per
    # rendition only.
    for name in ("vmafhip_channel_score_histogram_count",
                 "vmafhip_channel_score_window_min",
                 "vmafhip_channel_frames_scored_total",
                 "vmafhip_channel_frames_skipped_total",
                 "vmafhip_channel_frames_unpaired_total",
                 "vmafhip_channel_frames_dropped_total"):
        for k in samples(m, name):
            if 'pad="' not in k:
                failures.append(f"{name}{{{k}}} mixes the renditions")
    if len({round(min(v), 6) for v in frames.values()}) < 2:
        failures.append("the rungs score alike: the test cannot tell them "
                        "apart")
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
