#!/usr/bin/env python3
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.

"""restart-on-eos and pace = realtime in vmafhip-monitor.

Three channels from sources that end (as a looped file does):
- paced: 25 frames at 25 fps, pace = realtime: every end restarts it at
  once and is counted in vmafhip_channel_eos_restarts_total, never in
  vmafhip_channel_restarts_total (the failure counter); it scores at the
  source's frame rate, not as fast as the element goes;
- unpaced: the same without pace: it scores far faster than real time;
- empty: a source that ends before its first frame: that end is a failure
  (back-off, counted in restarts_total), or it would restart in a tight
  loop.
Reads /metrics directly (no Prometheus needed).
"""

import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from monitor_helpers import (  # noqa: E402
    channel_value, scrape, start_service, stop_service)

SOURCE = ("videotestsrc num-buffers=%d ! "
          "video/x-raw,width=64,height=48,framerate=25/1")
RUN_SECONDS = 6.0


def main():
    monitor = sys.argv[1]
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "monitor.conf")
        with open(path, "w") as f:
            f.write("[monitor]\nlisten = 127.0.0.1\nport = 0\nbackend = cpu\n"
                    "threads = 1\nmodel =\nfeatures = psnr\n"
                    "restart-on-eos = true\nrestart-delay = 0.5\n"
                    "restart-delay-max = 4\n"
                    f"[channel paced]\nreference = {SOURCE % 25}\n"
                    "distortion = videobalance brightness=0.1\n"
                    "pace = realtime\n"
                    f"[channel unpaced]\nreference = {SOURCE % 25}\n"
                    "distortion = videobalance brightness=0.1\n"
                    f"[channel empty]\nreference = {SOURCE % 0}\n"
                    "distortion = videobalance\n")

        check = subprocess.run([monitor, "--check", "-c", path],
                               capture_output=True, text=True, timeout=60)
        paced_line = [l for l in check.stdout.splitlines()
                      if l.startswith("channel paced:")]
        unpaced_line = [l for l in check.stdout.splitlines()
                        if l.startswith("channel unpaced:")]
        if check.returncode != 0 or not paced_line or \
                "framerate=25/1 ! clocksync ! tee" not in paced_line[0] or \
                not unpaced_line or "clocksync" in unpaced_line[0]:
            failures.append("--check does not show clocksync in the paced "
                            f"channel only: {check.stdout}{check.stderr}")

        log_path = os.path.join(tmp, "monitor.log")
        proc, url = start_service(monitor, path, log_path)
        try:
            if not url:
                failures.append("the service did not start")
                raise RuntimeError
            start = time.monotonic()
            time.sleep(RUN_SECONDS)
            m = scrape(url)
            elapsed = time.monotonic() - start
        except RuntimeError:
            m = ""
            elapsed = 1
        finally:
            stop_service(proc)
        with open(log_path) as f:
            log = f.read()

        def v(name, channel):
            return channel_value(m, name, channel) or 0

        paced_fps = v("vmafhip_channel_frames_scored_total", "paced") / elapsed
        unpaced_fps = v("vmafhip_channel_frames_scored_total",
                        "unpaced") / elapsed
        print(f"paced: {paced_fps:.1f} frames/s, "
              f"{v('vmafhip_channel_eos_restarts_total', 'paced'):.0f} "
              f"restarts after its end, "
              f"{v('vmafhip_channel_restarts_total', 'paced'):.0f} after "
              f"failures; unpaced: {unpaced_fps:.1f} frames/s; empty: "
              f"{v('vmafhip_channel_restarts_total', 'empty'):.0f} restarts "
              f"after failures, "
              f"{v('vmafhip_channel_eos_restarts_total', 'empty'):.0f} after "
              f"ends")
        # Each 1 s run restarts at once: about RUN_SECONDS ends.
        if v("vmafhip_channel_eos_restarts_total", "paced") < 3:
            failures.append("the paced channel was not restarted after each "
                            "end")
        for ch in ("paced", "unpaced"):
            if v("vmafhip_channel_restarts_total", ch) != 0:
                failures.append(f"{ch}: an end of stream counted as a "
                                "failure")
        # A run's last frame is due 40 ms before a full second, and a
        # restart takes a little time: about 25 fps, less on a loaded
        # machine.
        if not 12 <= paced_fps <= 30:
            failures.append(f"the paced channel scored {paced_fps:.1f} "
                            "frames/s, not about 25")
        if unpaced_fps < 2 * paced_fps:
            failures.append(f"the unpaced channel ({unpaced_fps:.1f} "
                            "frames/s) is not faster than real time")
        # Paced, each frame is scored soon after its time on the clock.
        lag = channel_value(m, "vmafhip_channel_lag_seconds", "paced")
        print(f"paced: lag {lag} s")
        if lag is None or not 0 <= lag < 1:
            failures.append(f"the paced channel's lag is {lag}, not a "
                            "fraction of a second")
        # 0.5, 1, 2, 4 s of back-off: at most 4 restarts in 6 s.
        empty = v("vmafhip_channel_restarts_total", "empty")
        if not 1 <= empty <= 4 or \
                v("vmafhip_channel_eos_restarts_total", "empty") != 0:
            failures.append(f"the empty channel: {empty:.0f} restarts "
                            "after failures (1 to 4 expected with back-off)")
        for expected in ("channel empty: end of stream before any frame was "
                         "scored; restart in 0.5 s",
                         "channel paced: restarting after its end"):
            if expected not in log:
                failures.append(f"the log lacks \"{expected}\"")
        if proc.returncode != 0:
            failures.append(f"exit {proc.returncode} on SIGTERM")
        if failures:
            print(log[-3000:])
    for f in failures:
        print(f"FAIL {f}")
    if not failures:
        print("PASS")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
