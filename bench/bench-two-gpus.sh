#!/bin/bash
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.
#
# Two GPUs in one process: a scoring pipeline (two raw files, each branch
# through vmafhipupload, into vmafhipcompare, vmaf_v0.6.1) on device 0
# alone, on device 1 alone, then both at once in one process, side by
# side. The per-GPU memory of the process is sampled while both run.
#
#   bench/bench-two-gpus.sh [options]
#     --build DIR       build directory (default: build in the source tree)
#     --frames N        distinct frames (default 300)
#     --size WxH        (default 1920x1080)
#     --runs N          runs of each command, alternating (default 3)
#     --workdir DIR     where the clips go (default $TMPDIR/vmafhip-two-gpus)
#
# "run" is PLAYING to EOS as gst-launch-1.0 reports it. With both at once,
# each pipeline's rate is N frames over the shared run: "vs alone" is the
# slower device alone's run over the shared one (100% when each keeps its
# own speed). Without GStreamer on the machine, source a runtime bundle
# first (see docs/performance.md).
set -u

root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
frames=300
size=1920x1080
runs=3
workdir=${TMPDIR:-/tmp}/vmafhip-two-gpus
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$(cd "$2" && pwd); shift ;;
    --frames) frames=$2; shift ;;
    --size) size=$2; shift ;;
    --runs) runs=$2; shift ;;
    --workdir) workdir=$2; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
export GST_PLUGIN_PATH=$build/gst${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}
w=${size%x*} h=${size#*x}
mkdir -p "$workdir"
ref=$workdir/ref-$size-$frames.yuv dist=$workdir/dist-$size-$frames.yuv
bytes=$(((w * h + 2 * ((w + 1) / 2) * ((h + 1) / 2)) * frames))
if [ "$(stat -c %s "$ref" 2>/dev/null)" != $bytes ] ||
  [ "$(stat -c %s "$dist" 2>/dev/null)" != $bytes ]; then
  gst-launch-1.0 -q videotestsrc num-buffers="$frames" pattern=smpte \
    horizontal-speed=7 ! "video/x-raw,format=I420,width=$w,height=$h,framerate=30/1" ! \
    tee name=t t. ! queue ! filesink location="$ref" \
    t. ! queue ! videoscale ! "video/x-raw,width=$((w / 3)),height=$((h / 3))" ! \
    videoscale ! "video/x-raw,width=$w,height=$h" ! filesink location="$dist" ||
    { echo "cannot make the clips" >&2; exit 1; }
fi
cat "$ref" "$dist" > /dev/null

src () {
  echo "filesrc location=$1 ! rawvideoparse width=$w height=$h format=i420 framerate=30/1"
}

# One scoring pipeline on device $1 (elements named after it).
chain () {
  echo "$(src "$ref") ! vmafhipupload device-id=$1 ! c$1.ref_sink" \
    "$(src "$dist") ! vmafhipupload device-id=$1 ! c$1.dist_sink" \
    "vmafhipcompare name=c$1 device-id=$1 backend=hip frame-message=true ! fakesink"
}

# The PLAYING-to-EOS seconds in gst-launch-1.0's output on stdin.
run_seconds () {
  sed -n 's/^Execution ended after \([0-9]*\):\([0-9]*\):\([0-9.]*\)$/\1 \2 \3/p' |
    awk '{printf "%.3f", $1 * 3600 + $2 * 60 + $3}'
}

# run ARGS...: gst-launch-1.0 ARGS; prints its run's seconds, or fails
# loudly.
run () {
  local out
  out=$(gst-launch-1.0 "$@" 2>&1) || { echo "$out" | tail -n 3 >&2; return 1; }
  echo "$out" | run_seconds
}

nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader 2>/dev/null
echo "vmaf_v0.6.1, $size, $frames distinct frames per pipeline, $runs runs, alternating"
printf '%-6s %10s %10s %10s %9s\n' run "device 0" "device 1" "both" "vs alone"
for ((i = 1; i <= runs; i++)); do
  # shellcheck disable=SC2046
  a=$(run $(chain 0)) || exit 1
  # shellcheck disable=SC2046
  b=$(run $(chain 1)) || exit 1
  # both at once; the process's memory on each GPU, sampled meanwhile
  # shellcheck disable=SC2046
  gst-launch-1.0 $(chain 0) $(chain 1) > "$workdir/both.log" 2>&1 &
  pid=$!
  : > "$workdir/memory.log"
  while kill -0 $pid 2> /dev/null; do
    nvidia-smi --query-compute-apps=pid,gpu_bus_id,used_memory \
      --format=csv,noheader 2> /dev/null | grep "^$pid," >> "$workdir/memory.log"
    sleep 0.05
  done
  wait $pid || { tail -n 3 "$workdir/both.log" >&2; exit 1; }
  both=$(run_seconds < "$workdir/both.log")
  printf '%-6s %9ss %9ss %9ss %8s%%\n' "$i" "$a" "$b" "$both" \
    "$(awk -v a="$a" -v b="$b" -v c="$both" 'BEGIN{m = a > b ? a : b; printf "%.0f", 100 * m / c}')"
done
echo "GPU memory of the process while both ran (most seen per GPU):"
sort -t, -k2,2 -k3,3n "$workdir/memory.log" | awk -F', *' \
  '{m[$2] = $3} END {for (g in m) print "  " g ": " m[g]}'
