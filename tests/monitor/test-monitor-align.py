#!/usr/bin/env python3
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.

"""Content alignment through vmafhip-monitor: a channel whose distorted
file starts 37 frames into its reference (the same pictures, timestamps
from 0 in both), with align = content: /metrics shows the element's offset
(37 frames, 1.48 s) and its lock, and every frame is scored against its
own picture (PSNR at its ceiling, 60, on every one: no frame below 60).
Skips (77) while the element has no align property."""

import os
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from monitor_helpers import (  # noqa: E402
    channel_value, element_has, scrape_until_ended, start_service,
    stop_service)

SKIP = 77
W, H, FPS, FRAMES, LATE = 192, 108, 25, 150, 37


def main():
    monitor = sys.argv[1]
    if not element_has("align"):
        print("SKIP: the element has no content alignment yet")
        return SKIP
    failures = []
    with tempfile.TemporaryDirectory() as work:
        ref = os.path.join(work, "ref.yuv")
        dist = os.path.join(work, "dist.yuv")
        # Noise: every picture unlike every other, so that one offset fits.
        subprocess.run(shlex.split(
            f"gst-launch-1.0 -q videotestsrc pattern=snow num-buffers={FRAMES}"
            f" ! video/x-raw,format=I420,width={W},height={H},"
            f"framerate={FPS}/1 ! filesink location={ref}"), check=True,
            timeout=60)
        size = W * H * 3 // 2
        with open(ref, "rb") as f, open(dist, "wb") as g:
            g.write(f.read()[LATE * size:])

        def source(path):
            return (f"filesrc location=\"{path}\" ! rawvideoparse width={W} "
                    f"height={H} format=i420 framerate={FPS}/1")

        path = os.path.join(work, "monitor.conf")
        with open(path, "w") as f:
            f.write("[monitor]\nlisten = 127.0.0.1\nport = 0\nbackend = cpu\n"
                    "threads = 2\nmodel =\nfeatures = psnr\n"
                    "histogram-metrics = psnr_y\nthresholds = 60\n"
                    "align = content\nalign-window = 3\n"
                    f"[channel a]\nreference = {source(ref)}\n"
                    f"distorted = {source(dist)}\n")
        check = subprocess.run([monitor, "--check", "-c", path],
                               capture_output=True, text=True, timeout=60)
        if check.returncode != 0 or " align=content align-window=3000000000" \
                not in check.stdout:
            failures.append(f"--check does not set the alignment: "
                            f"{check.stdout}{check.stderr}")
        proc, url = start_service(monitor, path,
                                  os.path.join(work, "monitor.log"))
        try:
            m, ended = scrape_until_ended(url, ["a"], 60)
            if not ended:
                failures.append("the channel did not end")
        finally:
            stop_service(proc)

    frames = channel_value(m, "vmafhip_channel_offset_frames", "a")
    seconds = channel_value(m, "vmafhip_channel_offset_seconds", "a")
    locked = channel_value(m, "vmafhip_channel_align_locked", "a")
    scored = channel_value(m, "vmafhip_channel_frames_scored_total", "a")
    below = channel_value(m, "vmafhip_channel_frames_below_total", "a",
                          ',metric="psnr_y",threshold="60"')
    print(f"offset {frames} frames, {seconds} s, locked {locked}; "
          f"{scored} scored, {below} below PSNR 60")
    if frames is None or abs(frames) != LATE:
        failures.append(f"offset {frames} frames, not {LATE}")
    if seconds is None or abs(abs(seconds) - LATE / FPS) > 1e-9 or \
            (frames and seconds * frames < 0):
        failures.append(f"offset {seconds} s, not {LATE / FPS}")
    if locked != 1:
        failures.append(f"align_locked is {locked}, not 1")
    if scored != FRAMES - LATE or below != 0:
        failures.append(f"{scored} frames scored, {below} of them not "
                        "against their own picture")
    for f in failures:
        print(f"FAIL {f}")
    if not failures:
        print("PASS")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
