#!/usr/bin/python3
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.
"""Print vmafhipcompare's scores from the bus (PyGObject).

  print-scores.py REF.yuv DIST.yuv WIDTH HEIGHT [FORMAT [FRAMERATE]]
  print-scores.py --pipeline "DESCRIPTION WITH A vmafhipcompare"
  print-scores.py --live [SECONDS]   (test source through a JPEG round trip)

Needs PyGObject with GStreamer's introspection data (Debian: python3-gi,
gir1.2-gstreamer-1.0) and the vmafhip plugin on GST_PLUGIN_PATH.
"""

import sys

import gi

gi.require_version('Gst', '1.0')
from gi.repository import GLib, Gst  # noqa: E402


def tight_420_layout(fmt, w, h):
    # Raw .yuv files pack rows tightly; GStreamer's default planar 4:2:0
    # layout pads rows to 4 bytes, which would skew odd-width clips.
    if fmt not in ('i420', 'i420-10le', 'i420-12le'):
        return ''
    bps = 2 if fmt != 'i420' else 1
    cw, ch = (w + 1) // 2, (h + 1) // 2
    y, c = w * h * bps, cw * ch * bps
    return (' plane-strides=<%d,%d,%d> plane-offsets=<0,%d,%d> '
            'frame-size=%d' % (w * bps, cw * bps, cw * bps, y, y + c,
                               y + 2 * c))


def describe(args):
    if args[:1] == ['--pipeline'] and len(args) == 2:
        return args[1], None
    if args[:1] == ['--live']:
        seconds = int(args[1]) if len(args) > 1 else 10
        return ('videotestsrc is-live=true pattern=ball ! '
                'video/x-raw,format=I420,width=640,height=360,framerate=30/1 '
                '! tee name=t t. ! queue ! c.ref_sink '
                't. ! queue ! jpegenc quality=40 ! jpegdec ! c.dist_sink '
                'vmafhipcompare name=c features=psnr tag-interval=30 '
                '! fakesink sync=true'), seconds
    if len(args) >= 4:
        fmt = (args[4] if len(args) > 4 else 'I420').lower().replace('_', '-')
        rate = args[5] if len(args) > 5 else '25/1'
        parse = 'rawvideoparse width=%s height=%s format=%s framerate=%s' % (
            args[2], args[3], fmt, rate) + tight_420_layout(
                fmt, int(args[2]), int(args[3]))
        return ('filesrc location="%s" ! %s ! c.ref_sink '
                'filesrc location="%s" ! %s ! c.dist_sink '
                'vmafhipcompare name=c features=psnr ! fakesink' % (
                    args[0], parse, args[1], parse)), None
    sys.exit(__doc__)


def on_message(bus, msg, loop):
    t = msg.type
    if t == Gst.MessageType.ELEMENT:
        s = msg.get_structure()
        if s.get_name() == 'vmaf':
            line = 'frame %5d  %10.3f s' % (
                s.get_uint64('index')[1],
                s.get_uint64('timestamp')[1] / Gst.SECOND)
            ok, score = s.get_double('score')
            if ok:
                line += '  VMAF %8.4f' % score
            ok, psnr = s.get_double('psnr_y')
            if ok:
                line += '  PSNR-Y %7.3f dB' % psnr
            print(line)
        elif s.get_name() == 'vmaf-summary':
            print('summary: %d frames scored, %d skipped' % (
                s.get_uint64('scored')[1], s.get_uint64('skipped')[1]))
            for i in range(s.n_fields()):
                name = s.nth_field_name(i)
                value = s.get_value(name)
                if isinstance(value, Gst.Structure):
                    print('  %-40s mean %10.4f  min %10.4f  max %10.4f' % (
                        name, value.get_double('mean')[1],
                        value.get_double('min')[1],
                        value.get_double('max')[1]))
    elif t == Gst.MessageType.TAG and msg.src.get_name() == 'c':
        tags = msg.parse_tag()
        ok, score = tags.get_double('vmafhip-score')
        ok2, frames = tags.get_uint('vmafhip-frames')
        if ok and ok2:
            print('tags: pooled VMAF %.4f over %d frames' % (score, frames))
    elif t == Gst.MessageType.WARNING:
        print('warning:', msg.parse_warning()[0].message, file=sys.stderr)
    elif t == Gst.MessageType.ERROR:
        print('error:', msg.parse_error()[0].message, file=sys.stderr)
        loop.error = True
        loop.quit()
    elif t == Gst.MessageType.EOS:
        loop.quit()
    return True


def main():
    Gst.init(None)
    desc, seconds = describe(sys.argv[1:])
    pipeline = Gst.parse_launch(desc)
    loop = GLib.MainLoop()
    loop.error = False
    bus = pipeline.get_bus()
    bus.add_signal_watch()
    bus.connect('message', on_message, loop)
    pipeline.set_state(Gst.State.PLAYING)
    if seconds:
        # A live pipeline never ends by itself: send EOS to get the summary.
        GLib.timeout_add_seconds(seconds,
                                 lambda: pipeline.send_event(Gst.Event.new_eos())
                                 and False)
    loop.run()
    pipeline.set_state(Gst.State.NULL)
    bus.remove_signal_watch()
    return 1 if loop.error else 0


if __name__ == '__main__':
    sys.exit(main())
