#!/bin/bash
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.
#
# An encoding ladder scored two ways, to check vmafhip-score's own
# upscaling against the convention of VMAF's users (issue 28): a moving
# 1080p source, x264 encodes of it at 1080p, 720p, 540p and 360p, each
#   ffmpeg:  upscaled by ffmpeg's scale=1920:1080:flags=bicubic to a Y4M
#            file, then scored by vmafhip-score (no scaling of its own);
#   vmafhip: the rung's own decoded frames scored by vmafhip-score, which
#            upscales them (--scale bicubic, the default).
# Prints per rung the pooled VMAF both ways, their difference and the
# largest per-frame difference.
#
#   bench/ladder-parity.sh [options]
#     --build DIR     build directory (default: build in the source tree)
#     --frames N      source frames (default 60)
#     --workdir DIR   where the clips go (default: a new temporary folder,
#                     removed at the end; a given one is kept)
#     --crf N         x264's constant rate factor for every rung (default 28)
#     --threads N     vmafhip-score --threads (default 2)
#     --rungs "WxH ..." (default "1920x1080 1280x720 960x540 640x360")
# Exits 77 (skipped) when ffmpeg or its libx264 is missing, 1 when a rung
# is past the issue's bounds (pooled 0.05, per frame 0.5).

set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
build=$here/build
frames=60
workdir=
crf=28
threads=2
rungs="1920x1080 1280x720 960x540 640x360"

while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$(cd "$2" && pwd); shift 2 ;;
    --frames) frames=$2; shift 2 ;;
    --workdir) workdir=$2; shift 2 ;;
    --crf) crf=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --rungs) rungs=$2; shift 2 ;;
    *) echo "ladder-parity.sh: unknown option $1" >&2; exit 2 ;;
  esac
done

score=$build/cli/vmafhip-score
if [ ! -x "$score" ]; then
  echo "ladder-parity.sh: no $score (build first, or pass --build)" >&2
  exit 2
fi
if ! command -v ffmpeg > /dev/null; then
  echo "ladder-parity.sh: no ffmpeg: skipped" >&2
  exit 77
fi
# (grep -q would end the pipe early: ffmpeg's SIGPIPE fails it.)
if ! ffmpeg -hide_banner -encoders 2> /dev/null | grep ' libx264 ' \
  > /dev/null; then
  echo "ladder-parity.sh: ffmpeg has no libx264: skipped" >&2
  exit 77
fi
if [ -z "$workdir" ]; then
  workdir=$(mktemp -d)
  trap 'rm -rf "$workdir"' EXIT
fi
mkdir -p "$workdir"

ff() { ffmpeg -hide_banner -loglevel error -nostdin -y "$@"; }

# A moving source: testsrc2's moving pattern and counter, with temporal
# noise so that every frame differs everywhere (something to encode and
# something for VIF and motion to see).
src=$workdir/source.y4m
ff -f lavfi -i "testsrc2=size=1920x1080:rate=30,noise=alls=12:allf=t+u" \
  -frames:v "$frames" -pix_fmt yuv420p -f yuv4mpegpipe "$src"

printf '%-10s %10s %10s %10s %14s\n' rung ffmpeg vmafhip difference \
  "max per-frame"
status=0
for rung in $rungs; do
  w=${rung%x*}
  h=${rung#*x}
  enc=$workdir/$rung.mp4
  # The rung's encode: downscaled by ffmpeg (how is the encoder's
  # business; both sides read the same encode).
  ff -i "$src" -vf "scale=$w:$h:flags=bicubic" -c:v libx264 -preset veryfast \
    -crf "$crf" -pix_fmt yuv420p "$enc"
  ff -i "$enc" -pix_fmt yuv420p -f yuv4mpegpipe "$workdir/$rung.y4m"
  ff -i "$enc" -vf scale=1920:1080:flags=bicubic -pix_fmt yuv420p \
    -f yuv4mpegpipe "$workdir/$rung-up.y4m"
  "$score" -q --threads "$threads" -r "$src" -d "$workdir/$rung-up.y4m" \
    --json -o "$workdir/$rung-ffmpeg.json"
  "$score" -q --threads "$threads" -r "$src" -d "$workdir/$rung.y4m" \
    --scale bicubic --json -o "$workdir/$rung-vmafhip.json"
  rm -f "$workdir/$rung-up.y4m" "$workdir/$rung.y4m"
  python3 - "$rung" "$workdir/$rung-ffmpeg.json" \
    "$workdir/$rung-vmafhip.json" << 'EOF' || status=1
import json, sys

def load(path):
    with open(path) as f:
        log = json.load(f)
    return (log["pooled_metrics"]["vmaf"]["mean"],
            [fr["metrics"]["vmaf"] for fr in log["frames"]])

rung, a, b = sys.argv[1:]
pa, fa = load(a)
pb, fb = load(b)
if len(fa) != len(fb):
    sys.exit("%s: %d frames against %d" % (rung, len(fa), len(fb)))
worst = max(abs(x - y) for x, y in zip(fa, fb))
print("%-10s %10.4f %10.4f %+10.4f %14.4f" % (rung, pa, pb, pb - pa, worst))
if abs(pb - pa) > 0.05 or worst > 0.5:
    sys.exit(1)
EOF
done
exit $status
