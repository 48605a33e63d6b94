#!/bin/bash
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.
#
# The element's host cost: CPU time per frame pair that vmafhipcompare
# adds to two `filesrc ! rawvideoparse` sources (vmaf_v0.6.1, per-frame
# messages on), start-up left out. Each pipeline runs on N distinct frames
# and on the first M of them; the difference over N - M frames is the
# steady per-pair cost, what is left of the short run is start-up.
#
#   bench/bench-host-cost.sh [options]
#     --build DIR       build directory (default: build in the source
#                       tree); give it twice or more to compare builds
#                       side by side in one run
#     --frames N        distinct frames of the long run (default 200)
#     --short M         frames of the short run (default 40)
#     --size WxH        (default 1920x1080)
#     --source S        raw (default): filesrc ! rawvideoparse, frames in
#                       pageable memory that the element stages for the
#                       GPU; test: videotestsrc, which writes its frames
#                       into the buffers the element offers (page-locked
#                       memory that goes to the GPU without a CPU copy)
#     --backends "B .." element backends (default "hip cpu")
#     --streams N       elements (and source pairs) in one process (default 1)
#     --props "P=V .."  more element properties, e.g. "threads=1"
#     --runs N          runs of each command; the least CPU counts (default 3)
#     --driver D        fake (default): the fake CUDA driver of the build
#                       (tests/hip), kernels that do nothing, no GPU needed;
#                       real: the machine's driver, on its GPU
#     --copies C        with the fake driver: dma (default) leaves out the
#                       copies a GPU's copy engine makes without the CPU
#                       (device and page-locked memory); all makes them
#                       on the CPU like any other copy
#     --workdir DIR     where the clips go (default $TMPDIR/vmafhip-host-cost)
#     --instructions    count instructions under valgrind's callgrind (one
#                       run each) instead of timing: slow, but the same
#                       on a busy machine; columns in millions and
#                       thousands of instructions instead of seconds and ms
#
# Columns: "cpu N" and "cpu M" are user + system seconds of the long and
# short runs (least of --runs), "per pair" is the steady CPU per frame
# pair above the sources' own, "start-up" the CPU above the sources'
# that the short run spent besides M pairs, "whole/pair" the long run's
# CPU above the sources' divided by N (start-up included, as in
# bench-pipelines.sh). With the fake driver the kernels cost nothing, so
# "per pair" is the host's work: mapping, staging, launches, waits,
# bookkeeping, messages.
set -u

root=$(cd "$(dirname "$0")/.." && pwd)
builds=()
frames=200
short=40
size=1920x1080
source=raw
backends="hip cpu"
streams=1
props=
runs=3
driver=fake
copies=dma
workdir=${TMPDIR:-/tmp}/vmafhip-host-cost
instructions=0
while [ $# -gt 0 ]; do
  case $1 in
    --build) builds+=("$(cd "$2" && pwd)") || exit 2; shift ;;
    --frames) frames=$2; shift ;;
    --short) short=$2; shift ;;
    --size) size=$2; shift ;;
    --source) source=$2; shift ;;
    --backends) backends=$2; shift ;;
    --streams) streams=$2; shift ;;
    --props) props=$2; shift ;;
    --runs) runs=$2; shift ;;
    --driver) driver=$2; shift ;;
    --copies) copies=$2; shift ;;
    --workdir) workdir=$2; shift ;;
    --instructions) instructions=1 ;;
    -h|--help) sed -n '10,52p' "$0"; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
[ ${#builds[@]} -gt 0 ] || builds=("$root/build")
case $source in raw|test) ;; *) echo "--source is raw or test" >&2; exit 2 ;; esac
[ "$short" -lt "$frames" ] || { echo "--short must be below --frames" >&2; exit 2; }
launch=$(command -v gst-launch-1.0) || { echo "gst-launch-1.0 not found" >&2; exit 2; }
width=${size%x*} height=${size#*x}
mkdir -p "$workdir"
workdir=$(cd "$workdir" && pwd)
log=$workdir/last.log

# Clips: a scrolling pattern, the distorted one scaled down and back.
frame_bytes=$((width * height + 2 * ((width + 1) / 2) * ((height + 1) / 2)))
clip_dir=$workdir/$size-$frames
ref=$clip_dir/ref.yuv dist=$clip_dir/dist.yuv
mkdir -p "$clip_dir"
if [ "$(stat -c %s "$ref" 2>/dev/null)" != $((frame_bytes * frames)) ] ||
  [ "$(stat -c %s "$dist" 2>/dev/null)" != $((frame_bytes * frames)) ]; then
  "$launch" -q videotestsrc num-buffers="$frames" pattern=smpte \
    horizontal-speed=7 ! "video/x-raw,format=I420,width=$width,height=$height,framerate=30/1" ! \
    tee name=t t. ! queue ! filesink location="$ref" \
    t. ! queue ! videoscale ! "video/x-raw,width=$((width / 3)),height=$((height / 3))" ! \
    videoscale ! "video/x-raw,width=$width,height=$height" ! filesink location="$dist" ||
    { echo "cannot make the clips" >&2; exit 1; }
fi
head -c $((frame_bytes * short)) "$ref" > "$clip_dir/ref-short.yuv"
head -c $((frame_bytes * short)) "$dist" > "$clip_dir/dist-short.yuv"
cat "$clip_dir"/*.yuv > /dev/null

# src FILE: one branch; with --source test, a pattern moving at a speed of
# the file's own, as many frames as the file has.
src () {
  if [ "$source" = test ]; then
    local n=$frames speed=7
    case $1 in *-short.yuv) n=$short ;; esac
    case $1 in */dist*) speed=5 ;; esac
    echo "videotestsrc num-buffers=$n pattern=smpte horizontal-speed=$speed !" \
      "video/x-raw,format=I420,width=$width,height=$height,framerate=30/1"
  else
    echo "filesrc location=$1 ! rawvideoparse width=$width height=$height format=i420 framerate=30/1"
  fi
}

# pipeline KIND LENGTH: the gst-launch arguments, $streams times over.
pipeline () {
  local r=$ref d=$dist i
  [ "$2" = short ] && r=$clip_dir/ref-short.yuv d=$clip_dir/dist-short.yuv
  for ((i = 0; i < streams; i++)); do
    if [ "$1" = sources ]; then
      echo "$(src "$r") ! fakesink $(src "$d") ! fakesink"
    else
      echo "$(src "$r") ! c$i.ref_sink $(src "$d") ! c$i.dist_sink" \
        "vmafhipcompare name=c$i backend=$1 frame-message=true $props ! fakesink"
    fi
  done
}

# cpu KIND LENGTH: least user + system seconds over $runs runs (or
# millions of instructions, once, with --instructions).
cpu () {
  local i u s t best='' TIMEFORMAT='%U %S'
  if [ "$instructions" = 1 ]; then
    # shellcheck disable=SC2046
    valgrind --tool=callgrind --callgrind-out-file="$workdir/callgrind.out" \
      "$launch" -q $(pipeline "$1" "$2") > "$log" 2>&1 ||
      { echo "failed: $launch $(pipeline "$1" "$2")" >&2; tail -n 5 "$log" >&2; return 1; }
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$log" |
      awk '{printf "%.3f\n", $1 / 1e6}'
    return 0
  fi
  for ((i = 0; i < runs; i++)); do
    # shellcheck disable=SC2046
    { time "$launch" -q $(pipeline "$1" "$2") > "$log" 2>&1; } 2> "$log.time" ||
      { echo "failed: $launch $(pipeline "$1" "$2")" >&2; tail -n 5 "$log" >&2; return 1; }
    read -r u s < <(tail -n 1 "$log.time")
    t=$(awk "BEGIN{printf \"%.3f\", $u + $s}")
    if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; fi
  done
  echo "$best"
}

with_driver () {
  # with_driver BUILD CMD...: runs CMD with the build's plugin and driver
  local b=$1
  shift
  if [ "$driver" = fake ]; then
    local fake=$b/tests/hip/libvh-fake-cuda.so
    [ -f "$fake" ] || { echo "no fake driver at $fake" >&2; return 1; }
    GST_PLUGIN_PATH=$b/gst VH_HIP_AMD_RUNTIME=libvh-missing-amd.so \
      VH_HIP_NVIDIA_RUNTIME=$fake VH_HIP_NVRTC=$fake \
      VH_FAKE_CUDA_KERNELS=noop VH_FAKE_CUDA_COPIES=$copies "$@"
  else
    GST_PLUGIN_PATH=$b/gst "$@"
  fi
}

if [ "$instructions" = 1 ]; then
  command -v valgrind > /dev/null || { echo "valgrind not found" >&2; exit 2; }
  echo "vmafhip host cost: $size, $frames and $short distinct frames, $streams stream(s), instructions (callgrind): cpu in millions, per pair in thousands"
else
  echo "vmafhip host cost: $size, $frames and $short distinct frames ($source source), $streams stream(s), least CPU of $runs runs"
fi
echo "driver: $driver$([ "$driver" = fake ] && echo ", copies $copies, kernels noop"); cpu: $(nproc) cores; $("$launch" --version | head -1)"
echo "element: $(pipeline hip long | head -n 1)"
if [ "$instructions" = 1 ]; then
  labels=("Mi $frames" "Mi $short" "per pair ki" "start-up Mi" "whole/pair ki")
else
  labels=("cpu $frames" "cpu $short" "per pair ms" "start-up s" "whole/pair ms")
fi
printf '%-28s %-8s %8s %8s %12s %10s %12s\n' build path "${labels[@]}"
for b in "${builds[@]}"; do
  s_long=$(with_driver "$b" cpu sources long) || exit 1
  s_short=$(with_driver "$b" cpu sources short) || exit 1
  name=$(basename "$(dirname "$b")")/$(basename "$b")
  printf '%-28s %-8s %8s %8s %12s %10s %12s\n' "$name" sources "$s_long" "$s_short" - - -
  for backend in $backends; do
    e_long=$(with_driver "$b" cpu "$backend" long) || continue
    e_short=$(with_driver "$b" cpu "$backend" short) || continue
    awk -v n="$frames" -v m="$short" -v k="$streams" -v el="$e_long" \
      -v es="$e_short" -v sl="$s_long" -v ss="$s_short" -v name="$name" \
      -v path="$backend" 'BEGIN{
        pair = ((el - es) - (sl - ss)) / ((n - m) * k);
        printf "%-28s %-8s %8.3f %8.3f %12.3f %10.3f %12.3f\n", name, path,
          el, es, pair * 1000, (es - ss) - pair * m * k,
          (el - sl) * 1000 / (n * k) }'
  done
done
