#!/usr/bin/env python3
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.

"""A channel whose source blocks as it starts (a file that is a FIFO no one
writes to: filesrc's open waits, as a source waits for a server) holds up
neither the scrapes nor the other channels. Before, the service started
and stopped pipelines on the thread that answers /metrics: no scrape was
answered, and the channels after it never started.

Then the FIFO is written and closed: the channel goes on (its end of
stream), and the service stops on SIGTERM with status 0.
"""

import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from monitor_helpers import (  # noqa: E402
    channel_value, scrape, start_service, stop_service)

LIVE = ("videotestsrc is-live=true ! "
        "video/x-raw,width=64,height=48,framerate=25/1")
# A scrape of a service with two channels: far below this.
SCRAPE_LIMIT = 2.0


def main():
    monitor = sys.argv[1]
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        fifo = os.path.join(tmp, "feed.yuv")
        os.mkfifo(fifo)
        path = os.path.join(tmp, "monitor.conf")
        with open(path, "w") as f:
            f.write("[monitor]\nlisten = 127.0.0.1\nport = 0\nbackend = cpu\n"
                    "threads = 1\nmodel =\nfeatures = psnr\n"
                    "restart-delay = 30\n"
                    f"[channel stuck]\nreference = filesrc location={fifo} "
                    "! rawvideoparse width=64 height=48 format=i420 "
                    "framerate=25/1\n"
                    "distortion = videobalance brightness=0.1\n"
                    f"[channel live]\nreference = {LIVE}\n"
                    "distortion = videobalance brightness=0.1\n")
        log_path = os.path.join(tmp, "monitor.log")
        proc, url = start_service(monitor, path, log_path)
        try:
            if not url:
                failures.append("the service did not start")
                raise RuntimeError
            slowest, scored, metrics = 0.0, None, ""
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline:
                start = time.monotonic()
                try:
                    metrics = scrape(url, timeout=SCRAPE_LIMIT)
                except OSError as e:
                    failures.append(f"a scrape failed while a channel's "
                                    f"source blocked: {e}")
                    raise RuntimeError
                slowest = max(slowest, time.monotonic() - start)
                scored = channel_value(metrics,
                                       "vmafhip_channel_frames_scored_total",
                                       "live")
                if scored and scored >= 25:
                    break
                time.sleep(0.2)
            print(f"slowest scrape {slowest:.3f} s; live channel scored "
                  f"{scored}")
            if not scored or scored < 25:
                failures.append("the live channel did not score behind the "
                                f"blocked one: {scored}")
            if channel_value(metrics, "vmafhip_channel_state", "stuck",
                             ',state="starting"') != 1:
                failures.append("the blocked channel is not shown starting")
            # Let the blocked source go: it reads an end at once.
            fd = os.open(fifo, os.O_WRONLY)
            os.close(fd)
            time.sleep(1)
        except RuntimeError:
            pass
        finally:
            if proc.poll() is None:
                # a source still blocked would hold the exit: let it go
                try:
                    fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
                    os.close(fd)
                except OSError:
                    pass
                status = stop_service(proc, 30)
                if status is None:
                    status = "a hang"
                if status != 0:
                    failures.append(f"the service exited with {status}")
        if failures:
            with open(log_path) as f:
                print("--- service log ---\n" + f.read()[-3000:])
    for f in failures:
        print("FAIL:", f)
    if not failures:
        print("PASS")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
