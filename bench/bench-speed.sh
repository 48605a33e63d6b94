#!/bin/sh
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.
#
# CPU speed of speed_chroma and speed_temporal beside libvmaf 3.2's: both
# command-line tools score the same synthetic 1080p 4:2:0 clip (a moving
# test pattern and a blurred copy, made with videotestsrc) with each
# extractor alone and with both, on 1 and 2 threads, and the table gives
# frames per second (best of three runs). Run from a build tree's parent:
#
#   bench/bench-speed.sh PATH-TO-LIBVMAF-VMAF-TOOL [VMAFHIP-SCORE] [FRAMES]
#
# VMAFHIP-SCORE defaults to the one in build/; FRAMES to 30.
set -eu
oracle=${1:?usage: bench-speed.sh PATH-TO-LIBVMAF-VMAF-TOOL [VMAFHIP-SCORE] [FRAMES]}
ours=${2:-}
if [ -z "$ours" ]; then
  for c in build/cli/vmafhip-score build/src/cli/vmafhip-score; do
    [ -x "$c" ] && ours=$c && break
  done
fi
frames=${3:-30}
w=1920
h=1080

for tool in "$oracle" "$ours"; do
  [ -n "$tool" ] && [ -x "$tool" ] || { echo "bench-speed: $tool is not an executable" >&2; exit 1; }
done

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

gst-launch-1.0 -q videotestsrc num-buffers="$frames" pattern=smpte \
    horizontal-speed=7 ! "video/x-raw,format=I420,width=$w,height=$h" ! \
    filesink location="$dir/ref.yuv"
gst-launch-1.0 -q filesrc location="$dir/ref.yuv" ! \
    rawvideoparse width=$w height=$h format=i420 ! videoscale ! \
    "video/x-raw,width=$((w / 3)),height=$((h / 3))" ! videoscale ! \
    "video/x-raw,width=$w,height=$h" ! filesink location="$dir/dis.yuv"

# Best wall time of three runs of "$@", in seconds.
best_of_three() {
  best=
  for _ in 1 2 3; do
    t0=$(date +%s.%N)
    "$@" > /dev/null 2>&1 || { echo "bench-speed: failed: $*" >&2; exit 1; }
    t1=$(date +%s.%N)
    t=$(echo "$t1 - $t0" | bc -l)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then
      best=$t
    fi
  done
  echo "$best"
}

printf '%-32s %7s %12s %12s %8s\n' "features ($frames frames ${w}x$h)" \
  threads "libvmaf fps" "vmafhip fps" speedup
for feats in "speed_chroma" "speed_temporal" "speed_chroma speed_temporal"; do
  args=""
  for f in $feats; do args="$args --feature $f"; done
  for threads in 1 2; do
    # shellcheck disable=SC2086 # the options are split on purpose
    set -- -r "$dir/ref.yuv" -d "$dir/dis.yuv" -w $w -h $h -p 420 -b 8 \
      $args --no_prediction --threads "$threads" --json -o "$dir/log.json" -q
    t_ref=$(best_of_three "$oracle" "$@")
    t_ours=$(best_of_three "$ours" "$@")
    printf '%-32s %7s %12.1f %12.1f %7.2fx\n' "$feats" "$threads" \
      "$(echo "$frames / $t_ref" | bc -l)" \
      "$(echo "$frames / $t_ours" | bc -l)" \
      "$(echo "$t_ref / $t_ours" | bc -l)"
  done
done
