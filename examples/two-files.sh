#!/bin/sh
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.
#
# Scores two raw clips with gst-launch-1.0 and writes libvmaf's JSON log.
#
#   two-files.sh REF.yuv DIST.yuv WIDTH HEIGHT [FORMAT [RESULTS.json]]
#
# FORMAT is rawvideoparse's name for the layout: i420 (default),
# i420-10le, i420-12le, nv12, y444, ... The per-frame "vmaf" messages and
# the "vmaf-summary" message are printed by gst-launch-1.0's -m.
set -e
if [ $# -lt 4 ]; then
  echo "usage: $0 REF DIST WIDTH HEIGHT [FORMAT [RESULTS.json]]" >&2
  exit 2
fi
REF=$1 DIST=$2 W=$3 H=$4 FORMAT=${5:-i420} OUT=${6:-vmaf.json}
PARSE="rawvideoparse width=$W height=$H format=$FORMAT framerate=25/1"
# Raw .yuv files pack rows tightly; GStreamer's default planar 4:2:0 layout
# pads rows to 4 bytes, which would skew odd-width clips.
case $FORMAT in
  i420|i420-10le|i420-12le)
    BPS=1; [ "$FORMAT" = i420 ] || BPS=2
    CW=$(( (W + 1) / 2 )) CH=$(( (H + 1) / 2 ))
    YS=$(( W * H * BPS )) CS=$(( CW * CH * BPS ))
    PARSE="$PARSE plane-strides=<$((W * BPS)),$((CW * BPS)),$((CW * BPS))>"
    PARSE="$PARSE plane-offsets=<0,$YS,$((YS + CS))>"
    PARSE="$PARSE frame-size=$((YS + 2 * CS))"
    ;;
esac

gst-launch-1.0 -m \
  filesrc location="$REF" ! $PARSE ! c.ref_sink \
  filesrc location="$DIST" ! $PARSE ! c.dist_sink \
  vmafhipcompare name=c features=psnr,ssim \
    results-filename="$OUT" results-format=json ! fakesink |
  grep -E 'vmaf-summary|element "c" \(element\): vmaf,' | cut -c1-200
echo "results: $OUT"
