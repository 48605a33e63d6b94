#!/bin/sh
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.
#
# Watches an encoder live: a camera-like live source is split by a tee;
# one branch is the reference, the other goes through the encoder and back
# through its decoder; vmafhipcompare scores the decoded frames against
# the source as they arrive, passes the decoded video on, and posts a
# "vmaf" message per frame and pooled tags every second.
#
#   live-encoder.sh [SECONDS]      (default 10; Ctrl-C stops earlier)
#
# With x264 (gst-plugins-ugly) and libav installed, the encoder branch can
# be "x264enc tune=zerolatency bitrate=1000 ! h264parse ! avdec_h264".
set -e
SECONDS_TO_RUN=${1:-10}
ENCODER=${ENCODER:-"vp8enc deadline=1 cpu-used=16 target-bitrate=1000000 lag-in-frames=0 ! vp8dec"}

timeout --signal=INT "$SECONDS_TO_RUN" gst-launch-1.0 -m -e \
  videotestsrc is-live=true pattern=ball motion=sweep ! \
    video/x-raw,format=I420,width=640,height=360,framerate=30/1 ! \
    tee name=t \
  t. ! queue ! c.ref_sink \
  t. ! queue ! $ENCODER ! c.dist_sink \
  vmafhipcompare name=c features=psnr tag-interval=30 ! \
    fakesink sync=true |
  grep -E 'vmafhip-score|vmaf-summary|element "c" \(element\): vmaf,' |
  cut -c1-160 || true
