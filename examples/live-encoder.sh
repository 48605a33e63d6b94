#!/bin/bash
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
# After SECONDS (or Ctrl-C) the pipeline gets one interrupt, ends with EOS
# (gst-launch-1.0 -e), and the element posts its summary, which is printed
# last. The exit status is gst-launch-1.0's: non-zero when the pipeline
# failed, and 1 as well when no summary came.
#
# With x264 (gst-plugins-ugly) and libav installed, the encoder branch can
# be "x264enc tune=zerolatency bitrate=1000 ! h264parse ! avdec_h264".
set -u -o pipefail
SECONDS_TO_RUN=${1:-10}
ENCODER=${ENCODER:-"vp8enc deadline=1 cpu-used=16 target-bitrate=1000000 lag-in-frames=0 ! vp8dec"}
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# latency: the element waits up to 200 ms more for the encoded branch,
# which comes later than the reference (without it, frames that miss their
# slot are not scored and the element warns).
# --foreground: timeout signals gst-launch-1.0 alone, once (without it, it
# signals its whole process group as well, and a second interrupt makes
# gst-launch-1.0 quit before EOS reaches the element, with no summary);
# --kill-after: a pipeline that does not end within 20 s of the interrupt
# is killed. Ctrl-C reaches gst-launch-1.0 directly, once.
timeout --foreground --preserve-status --kill-after=20 --signal=INT \
  "$SECONDS_TO_RUN" gst-launch-1.0 -m -e \
  videotestsrc is-live=true pattern=ball motion=sweep ! \
    video/x-raw,format=I420,width=640,height=360,framerate=30/1 ! \
    tee name=t \
  t. ! queue ! c.ref_sink \
  t. ! queue ! $ENCODER ! c.dist_sink \
  vmafhipcompare name=c features=psnr tag-interval=30 latency=200000000 ! \
    fakesink sync=true 2>&1 |
  tee "$log" |
  grep --line-buffered -E 'vmafhip-score|element "c" \(element\): vmaf,' |
  cut -c1-160
status=${PIPESTATUS[0]}

summary=$(grep -E 'element "c" \(element\): vmaf-summary' "$log")
if [ "$status" -ne 0 ]; then
  echo "live-encoder.sh: the pipeline failed (exit status $status):" >&2
  grep -E '^ERROR|^WARNING|^Additional debug info' -A1 "$log" >&2
  [ -n "$summary" ] && echo "$summary"
  exit "$status"
fi
if [ -z "$summary" ]; then
  echo "live-encoder.sh: the pipeline ended without a vmaf-summary" >&2
  tail -n 5 "$log" >&2
  exit 1
fi
grep -E '^WARNING' -A1 "$log" >&2
field() {
  echo "$summary" | sed -n "s/.* $1=([a-z0-9]*)\([^,;]*\).*/\1/p"
}
echo "$summary" | cut -c1-160
echo "summary: $(field scored) frames scored," \
  "pooled VMAF ($(field pool-method)) $(field score);" \
  "unpaired reference/distorted" \
  "$(field unpaired-reference)/$(field unpaired-distorted), dropped" \
  "$(field dropped-reference)/$(field dropped-distorted)"
