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
# frames per second (wall clock) and CPU milliseconds per frame (user +
# system), each the best of three runs; the whole run, reading the files
# included, as a user sees it. Run from the source tree:
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

# Best wall time and best CPU time (user + system) of three runs of "$@",
# in seconds: "WALL CPU". On a busy machine the CPU time is the steadier.
best_of_three() {
  best_wall=
  best_cpu=
  for _ in 1 2 3; do
    /usr/bin/time -f "%e %U %S" -o "$dir/time" "$@" > /dev/null 2>&1 ||
      { echo "bench-speed: failed: $*" >&2; exit 1; }
    read -r wall user sys < "$dir/time"
    cpu=$(echo "$user + $sys" | bc -l)
    if [ -z "$best_wall" ] || [ "$(echo "$wall < $best_wall" | bc -l)" = 1 ]; then
      best_wall=$wall
    fi
    if [ -z "$best_cpu" ] || [ "$(echo "$cpu < $best_cpu" | bc -l)" = 1 ]; then
      best_cpu=$cpu
    fi
  done
  echo "$best_wall $best_cpu"
}

printf '%-28s %3s | %9s %9s | %9s %9s | %7s %7s\n' \
  "features ($frames x ${w}x$h)" thr "libvmaf" "vmafhip" "libvmaf" "vmafhip" \
  "speedup" ""
printf '%-28s %3s | %9s %9s | %9s %9s | %7s %7s\n' "" "" "fps" "fps" \
  "cpu ms/f" "cpu ms/f" "wall" "cpu"
for feats in "speed_chroma" "speed_temporal" "speed_chroma speed_temporal"; do
  args=""
  for f in $feats; do args="$args --feature $f"; done
  for threads in 1 2; do
    # shellcheck disable=SC2086 # the options are split on purpose
    set -- -r "$dir/ref.yuv" -d "$dir/dis.yuv" -w $w -h $h -p 420 -b 8 \
      $args --no_prediction --threads "$threads" --json -o "$dir/log.json" -q
    read -r wall_ref cpu_ref <<EOT
$(best_of_three "$oracle" "$@")
EOT
    read -r wall_ours cpu_ours <<EOT
$(best_of_three "$ours" "$@")
EOT
    printf '%-28s %3s | %9.1f %9.1f | %9.2f %9.2f | %6.2fx %6.2fx\n' \
      "$feats" "$threads" \
      "$(echo "$frames / $wall_ref" | bc -l)" \
      "$(echo "$frames / $wall_ours" | bc -l)" \
      "$(echo "1000 * $cpu_ref / $frames" | bc -l)" \
      "$(echo "1000 * $cpu_ours / $frames" | bc -l)" \
      "$(echo "$wall_ref / $wall_ours" | bc -l)" \
      "$(echo "$cpu_ref / $cpu_ours" | bc -l)"
  done
done
