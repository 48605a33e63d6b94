#!/usr/bin/python3
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.
"""Plots vmafhipcompare's scores live, as its "vmaf" bus messages arrive.

    live-plot.py [--seconds N] [-m METRIC ...] [-o FILE.png] [PIPELINE]

PIPELINE is a gst-launch-1.0 description with a vmafhipcompare element
(default: a live test source scored through a VP8 round trip, as
live-encoder.sh does). With a display the curves update in a window; with
--output (or without a display) the image file is rewritten every second.
After --seconds, or on Ctrl-C, the pipeline gets EOS, and the final image
carries the pooled scores of the element's vmaf-summary message.

Needs python3-gi, gir1.2-gstreamer-1.0 and python3-matplotlib (Debian).
"""

import argparse
import os
import sys
import time

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

DEFAULT_PIPELINE = (
    "videotestsrc is-live=true pattern=ball motion=sweep ! "
    "video/x-raw,format=I420,width=640,height=360,framerate=30/1 ! "
    "tee name=t "
    "t. ! queue ! c.ref_sink "
    "t. ! queue ! vp8enc deadline=1 cpu-used=16 target-bitrate=600000 "
    "lag-in-frames=0 ! vp8dec ! c.dist_sink "
    "vmafhipcompare name=c features=psnr latency=200000000 ! "
    "fakesink sync=true")


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("pipeline", nargs="?", default=DEFAULT_PIPELINE,
                   help="a gst-launch-1.0 pipeline with vmafhipcompare")
    p.add_argument("-m", "--metric", action="append", dest="metrics",
                   help="a field of the vmaf message to draw (repeatable; "
                   "default: vmaf and psnr_y)")
    p.add_argument("-s", "--seconds", type=float, default=0,
                   help="send EOS after this many seconds (0: run until "
                   "the stream ends or Ctrl-C)")
    p.add_argument("-o", "--output",
                   help="write the plot to this PNG or SVG file (rewritten "
                   "every second) instead of a window")
    return p.parse_args()


class LivePlot:
    def __init__(self, metrics, output):
        import matplotlib
        if output or not (os.environ.get("DISPLAY") or
                          os.environ.get("WAYLAND_DISPLAY")):
            matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        self.plt = plt
        self.output = output
        self.interactive = matplotlib.get_backend().lower() != "agg"
        self.metrics = metrics
        self.frames = {m: [] for m in metrics}
        self.values = {m: [] for m in metrics}
        self.fig, axes = plt.subplots(len(metrics), 1, sharex=True,
                                      squeeze=False,
                                      figsize=(10, 2.5 * len(metrics) + 1))
        self.axes = axes[:, 0]
        self.lines = {}
        for ax, m in zip(self.axes, metrics):
            self.lines[m], = ax.plot([], [], linewidth=1.2, label=m)
            ax.set_ylabel(m)
            ax.grid(True, alpha=0.3)
        self.axes[-1].set_xlabel("frame")
        if self.interactive:
            plt.ion()
            plt.show(block=False)

    def add(self, structure):
        ok, index = structure.get_uint64("index")
        for m in self.metrics:
            ok_v, v = structure.get_double(m)
            if ok and ok_v:
                self.frames[m].append(index)
                self.values[m].append(v)

    def redraw(self, title=None):
        for ax, m in zip(self.axes, self.metrics):
            self.lines[m].set_data(self.frames[m], self.values[m])
            if self.values[m]:
                last = self.values[m][-1]
                self.lines[m].set_label(f"{m}: {last:.3f} (last frame)")
                ax.legend(loc="lower left", fontsize="small")
            ax.relim()
            ax.autoscale_view()
        if title:
            self.fig.suptitle(title)
        if self.interactive:
            self.plt.pause(0.001)
        if self.output:
            self.fig.savefig(self.output)


def summary_title(summary, metrics):
    if summary is None:
        return "no vmaf-summary (the pipeline did not end with EOS)"
    ok, n = summary.get_uint64("scored")
    parts = [f"{n} frames"]
    for m in metrics:
        pooled = summary.get_value(m) if summary.has_field(m) else None
        if isinstance(pooled, Gst.Structure):
            ok, mean = pooled.get_double("mean")
            ok_h, hmean = pooled.get_double("harmonic-mean")
            parts.append(f"{m} mean {mean:.3f}, harmonic mean {hmean:.3f}")
    return "; ".join(parts)


def main():
    args = parse_args()
    metrics = args.metrics or ["vmaf", "psnr_y"]
    Gst.init(None)
    try:
        pipeline = Gst.parse_launch(args.pipeline)
    except gi.repository.GLib.Error as e:
        print(f"live-plot.py: bad pipeline: {e.message}", file=sys.stderr)
        return 1
    plot = LivePlot(metrics, args.output)
    bus = pipeline.get_bus()
    wanted = Gst.MessageType.ELEMENT | Gst.MessageType.EOS | \
        Gst.MessageType.ERROR
    summary, error, eos_sent = None, None, False
    start = last_draw = time.monotonic()

    pipeline.set_state(Gst.State.PLAYING)
    while True:
        try:
            msg = bus.timed_pop_filtered(100 * Gst.MSECOND, wanted)
            now = time.monotonic()
            if not eos_sent and args.seconds and now - start > args.seconds:
                pipeline.send_event(Gst.Event.new_eos())
                eos_sent = True
        except KeyboardInterrupt:
            if eos_sent:
                break
            print("live-plot.py: stopping (EOS); Ctrl-C again to quit",
                  file=sys.stderr)
            pipeline.send_event(Gst.Event.new_eos())
            eos_sent = True
            continue
        if msg is not None:
            if msg.type == Gst.MessageType.ERROR:
                err, debug = msg.parse_error()
                error = f"{err.message} ({debug})" if debug else err.message
                break
            if msg.type == Gst.MessageType.EOS:
                break
            s = msg.get_structure()
            if s.get_name() == "vmaf":
                plot.add(s)
            elif s.get_name() == "vmaf-summary":
                summary = s.copy()
        if now - last_draw >= 1.0:
            plot.redraw()
            last_draw = now
    pipeline.set_state(Gst.State.NULL)

    title = summary_title(summary, metrics)
    plot.redraw(title)
    print(title)
    if error:
        print(f"live-plot.py: the pipeline failed: {error}", file=sys.stderr)
        return 1
    if plot.interactive:
        plot.plt.ioff()
        plot.plt.show()
    return 0 if summary is not None else 1


if __name__ == "__main__":
    sys.exit(main())
