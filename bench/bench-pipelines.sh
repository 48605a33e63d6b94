#!/bin/bash
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.
#
# Real pipelines on a GPU, side by side in one run: vmaf_v0.6.1 on 8-bit
# 4:2:0 frames from page-cached raw files, as a user would run it.
#
#   bench/bench-pipelines.sh [options]
#     --build DIR       build directory (default: build in the source tree)
#     --frames N        distinct frames per size (default 300)
#     --sizes "WxH ..." (default "1920x1080 3840x2160")
#     --streams "N ..." elements in one process (default "1 4 16")
#     --runs N          runs of each command; the fastest counts (default 2)
#     --threads N       vmafhip-score --threads (default 4)
#     --workdir DIR     where the clips go (default $TMPDIR/vmafhip-bench);
#                       kept between runs, made again when missing
#     --libvmaf PATH    libvmaf's `vmaf` tool built with CUDA: run on the
#                       same files (the project never builds or ships it)
#     --live SECONDS    also run N live 1080p30 pipelines for that long
#                       (bench/bench-live.sh: one process each, CPU and
#                       GPU load sampled)
#     --backend B       hip (default), or cpu to try the script out on a
#                       machine without a GPU
#     --align "M ..."   also the element from HIP and system memory with
#                       align=M for each mode M (timestamps, content): the
#                       cost of aligning by content, side by side
#
# Rows (for each size):
#   sources           the two filesrc ! rawvideoparse branches into fakesink
#   element sysmem    vmafhipcompare backend=hip fed by those sources
#   element hipmem    each branch through vmafhipupload first
#   hipmem M          element hipmem with align=M (--align), and
#   sysmem M          element sysmem with it
#   element cudamem   each branch through cudaupload (gst-cuda), when the
#                     element accepts memory:CUDAMemory and cudaupload exists
#   element nvdec     distorted branch decoded by nvh264dec from an H.264
#                     file made here (x264enc or openh264enc needed)
#   vmafhipupload x2  both branches into vmafhipupload ! fakesink, no
#                     element: the hipmem row's producers alone
#   cudaupload x2     the same for the cudamem row
#   source x1         one raw branch alone
#   vmafhipupload     one branch into vmafhipupload ! fakesink, and the
#                     same with a queue before the upload, against
#   raw copy          bench/bench-copy: one pageable copy per frame (and
#                     its other methods: 2D planes, staged, memcpy alone)
#   cli               vmafhip-score --backend $backend (its own meter in notes)
#   N sources         N source pairs alone in one process (N > 1)
#   N streams         N element pipelines in one process, aggregate fps;
#                     ", malloc": the same with the C library's trimming
#                     off (frame-sized buffers reused, not faulted in again)
#   first score       a fresh process scoring one frame pair, the CUDA
#                     JIT cache disabled (a machine that never ran it);
#                     with the embedded machine code and with PTX only
#   start-up element one pair through the element, above one frame of the
#                     sources; "held": the same while another process keeps
#                     the GPU open (bench-copy, VH_BENCH_COPY_HOLD_DEVICE)
#   time line         the start-up element row's pipeline under
#                     bench/bench-startup: ms from the process's start to
#                     each step (registry, READY, PAUSED, the first score,
#                     EOS, NULL, exit); "whole s" is the first score
#   next pipeline     the same pair through a new pipeline in a process
#                     that ran it before (an application starting another
#                     pipeline): ms from that pipeline's start
#   device open alone a process that only opens the GPU: start-up's floor
#   ... 1q            start-up element and device open alone again with
#                     CUDA_DEVICE_MAX_CONNECTIONS=1 (one hardware work
#                     queue, as vmafhip-score sets it for itself)
#   libvmaf cuda      --libvmaf's tool (--gpumask 0 turns its CUDA on),
#                     and on one pair (its start-up)
#
# "whole" is the wall time of the whole process, start-up included;
# "run" is PLAYING to EOS as gst-launch-1.0 reports it; "cpu" is user +
# system time of the process. Without GStreamer on the machine, source a
# runtime bundle first (see docs/performance.md).
set -u

root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
frames=300
sizes="1920x1080 3840x2160"
streams="1 4 16"
runs=2
threads=4
workdir=${TMPDIR:-/tmp}/vmafhip-bench
libvmaf=
live=0
backend=hip
align_modes=
element_extra=
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$(cd "$2" && pwd); shift ;;
    --frames) frames=$2; shift ;;
    --sizes) sizes=$2; shift ;;
    --streams) streams=$2; shift ;;
    --runs) runs=$2; shift ;;
    --threads) threads=$2; shift ;;
    --workdir) workdir=$2; shift ;;
    --libvmaf) libvmaf=$2; shift ;;
    --live) live=$2; shift ;;
    --backend) backend=$2; shift ;;
    --align) align_modes=$2; shift ;;
    -h|--help) sed -n '10,79p' "$0"; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

export GST_PLUGIN_PATH=$build/gst${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}
score=
for c in "$build/cli/vmafhip-score" "$build/src/cli/vmafhip-score"; do
  [ -x "$c" ] && { score=$c; break; }
done
copy=$build/bench/bench-copy
startup=$build/bench/bench-startup
launch=$(command -v gst-launch-1.0) || { echo "gst-launch-1.0 not found" >&2; exit 2; }
mkdir -p "$workdir"
workdir=$(cd "$workdir" && pwd)
log=$workdir/last.log

# one_pair [PROPERTY=VALUE ...]: the pipeline of the start-up and first
# score rows, one frame ($first) on both pads of the element.
one_pair () {
  echo "$(src "$first") ! c.ref_sink $(src "$first") ! c.dist_sink" \
    "vmafhipcompare name=c backend=$backend $* ! fakesink"
}

# startup_rows SUFFIX NOTE: one pair through the element, with the
# default hardware work queues and with one (what a user can set for short
# runs; vmafhip-score sets it itself), above $one_src, one frame of the
# sources alone.
startup_rows () {
  if measure "$launch" $(one_pair); then
    row "start-up element$1" 1 "$2: $(awk "BEGIN{printf \"%.3f\", $W - $one_src}") s above one frame of the sources ($one_src s)"
  else
    fail_row "start-up element$1" "$(why)"
  fi
  if CUDA_DEVICE_MAX_CONNECTIONS=1 measure "$launch" $(one_pair); then
    row "start-up element$1 1q" 1 "$2, CUDA_DEVICE_MAX_CONNECTIONS=1: $(awk "BEGIN{printf \"%.3f\", $W - $one_src}") s above the sources"
  fi
  timeline_row "time line$1"
  timeline_row "time line$1 1q" CUDA_DEVICE_MAX_CONNECTIONS=1
  [ -z "$1" ] && next_pipeline_row "next pipeline"
}

# first_score_ms LINE: when a bench-startup line's first score came, in ms.
first_score_ms () {
  echo "$1" | sed -n 's/.*first-score \([0-9.]*\).*/\1/p'
}

# earlier MS BEST: whether MS comes before BEST (or there is no BEST yet).
earlier () {
  [ -z "$2" ] || awk "BEGIN{exit !($1 < $2)}"
}

# steps_row NAME MS NOTE: a row of bench-startup steps; "whole s" is the
# first score, MS.
steps_row () {
  printf '%-10s %-22s %8s %8s %8s %8s %7s  %s\n' "$size" "$1" \
    "$(awk "BEGIN{printf \"%.3f\", $2 / 1000}")" - - - - "$3"
}

# next_pipeline_row NAME: the same pair through a new pipeline in a
# process that has run it before (an application or a service starting
# another pipeline), under bench-startup --runs 3: ms from that run's
# start; the best of the later runs.
next_pipeline_row () {
  local name=$1 out first_ms best= best_line= line
  [ -x "$startup" ] || return 0
  # shellcheck disable=SC2046
  out=$("$startup" --runs 3 $(one_pair frame-message=true) 2> "$log") ||
    { fail_row "$name" "$(why)"; return 0; }
  while read -r line; do
    case $line in "run "*) ;; *) continue ;; esac
    first_ms=$(first_score_ms "$line")
    if earlier "$first_ms" "$best"; then
      best=$first_ms best_line=${line#run *: }
    fi
  done <<< "$out"
  steps_row "$name" "$best" "ms since that pipeline's start: $best_line"
}

# timeline_row NAME [VAR=VALUE ...]: one pair through the element under
# bench-startup with those variables set, the run of $runs with the
# earliest first score: its time line in ms since the process was started
# (see bench/bench-startup.c), and "exit" the process's end.
timeline_row () {
  local name=$1 i t0 t1 line first_ms best= best_line=
  shift
  [ -x "$startup" ] || return 0
  for ((i = 0; i < runs; i++)); do
    t0=$(date +%s%N)
    # shellcheck disable=SC2046
    line=$(env "$@" "$startup" --since "$t0" $(one_pair frame-message=true) \
      2> "$log") || { fail_row "$name" "$(why)"; return 0; }
    t1=$(date +%s%N)
    first_ms=$(first_score_ms "$line")
    if earlier "$first_ms" "$best"; then
      best=$first_ms
      best_line="$line exit $(awk "BEGIN{printf \"%.1f\", ($t1 - $t0) / 1e6}")"
    fi
  done
  steps_row "$name" "$best" "ms: $best_line"
}

has_element () {
  gst-inspect-1.0 "$1" > /dev/null 2>&1
}

# measure NAME CMD...: runs CMD $runs times; keeps the fastest run's whole
# wall time (W), PLAYING-to-EOS time (R, gst-launch only), CPU time (C)
# and output ($log). Returns the command's status.
measure () {
  local i t rc=0 best=
  W= R= C=
  for ((i = 0; i < runs; i++)); do
    local TIMEFORMAT='%R %U %S'
    { time "$@" > "$log.run" 2>&1; } 2> "$log.time"
    rc=$?
    [ $rc -eq 0 ] || { cp "$log.run" "$log"; return $rc; }
    read -r t u s < "$log.time"
    if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then
      best=$t
      W=$t
      C=$(awk "BEGIN{printf \"%.2f\", $u + $s}")
      R=$(sed -n 's/^Execution ended after \([0-9]*\):\([0-9]*\):\([0-9.]*\)$/\1 \2 \3/p' \
        "$log.run" | awk '{printf "%.3f", $1 * 3600 + $2 * 60 + $3}')
      cp "$log.run" "$log"
    fi
  done
  return 0
}

cuda_caps="video/x-raw(memory:CUDAMemory)"

# CPU time per frame pair above the sources' own, of the last measurement.
per_pair () {
  awk "BEGIN{printf \"%.2f ms/pair\", ($C - $src_cpu) * 1000 / $frames}"
}

# vs_producers RUN: "; N% of its producers' rate" against the producers'
# PLAYING-to-EOS time RUN, for the last measurement.
vs_producers () {
  [ -n "$1" ] && [ -n "$R" ] &&
    awk "BEGIN{if ($R > 0) printf \"; %.0f%% of its producers' rate\", 100 * $1 / $R}"
}

fps () {
  [ -n "$2" ] && awk "BEGIN{if ($2 > 0) printf \"%.0f\", $1 / $2; else print \"-\"}" || echo -
}

row () {
  # row PATH FRAMES NOTES: prints the last measurement
  printf '%-10s %-22s %8s %8s %8s %8s %7s  %s\n' "$size" "$1" "${W:--}" \
    "$(fps "$2" "$W")" "${R:--}" "$(fps "$2" "$R")" "${C:--}" "$3"
}

fail_row () {
  printf '%-10s %-22s %8s %8s %8s %8s %7s  %s\n' "$size" "$1" - - - - - "$2"
}

why () {
  { grep -i -e error -e 'not negotiated' -e 'could not' -e 'no such' "$log" ||
    tail -n 1 "$log"; } | head -n 1 | cut -c1-110
}

# make_clips W H: ref.yuv and dist.yuv of $frames distinct frames (a
# scrolling pattern; the distorted one scaled down to a third and back).
make_clips () {
  local w=$1 h=$2 dir=$workdir/${1}x${2}-$frames
  mkdir -p "$dir"
  ref=$dir/ref.yuv dist=$dir/dist.yuv h264=$dir/dist.h264 first=$dir/first.yuv
  frame_bytes=$((w * h + 2 * ((w + 1) / 2) * ((h + 1) / 2)))
  if [ "$(stat -c %s "$ref" 2>/dev/null)" != $((frame_bytes * frames)) ] ||
    [ "$(stat -c %s "$dist" 2>/dev/null)" != $((frame_bytes * frames)) ]; then
    "$launch" -q videotestsrc num-buffers="$frames" pattern=smpte \
      horizontal-speed=7 ! "video/x-raw,format=I420,width=$w,height=$h,framerate=30/1" ! \
      tee name=t t. ! queue ! filesink location="$ref" \
      t. ! queue ! videoscale n-threads=4 ! "video/x-raw,width=$((w / 3 * 2 / 2)),height=$((h / 3 * 2 / 2))" ! \
      videoscale n-threads=4 ! "video/x-raw,width=$w,height=$h" ! filesink location="$dist" ||
      { echo "cannot make the clips" >&2; exit 1; }
    rm -f "$h264"
  fi
  enc=
  has_element x264enc && enc="x264enc speed-preset=ultrafast bitrate=20000 key-int-max=60"
  [ -z "$enc" ] && has_element openh264enc && enc="openh264enc bitrate=20000000 multi-thread=8"
  if [ ! -s "$h264" ] && [ -n "$enc" ] && has_element nvh264dec; then
    "$launch" -q filesrc location="$ref" ! rawvideoparse width="$w" height="$h" \
      format=i420 framerate=30/1 ! $enc ! h264parse ! \
      video/x-h264,stream-format=byte-stream ! filesink location="$h264" > /dev/null 2>&1 ||
      rm -f "$h264"
  fi
  head -c "$frame_bytes" "$ref" > "$first"
  # Into the page cache.
  cat "$ref" "$dist" ${h264:+$( [ -s "$h264" ] && echo "$h264")} > /dev/null
}

src () {
  # src FILE: one raw branch
  echo "filesrc location=$1 ! rawvideoparse width=$width height=$height format=i420 framerate=30/1"
}

element_pipeline () {
  # element_pipeline REF_TAIL DIST_TAIL [NAME]: one scoring pipeline
  local n=${3:-c}
  echo "$(src "$ref") $1 ! $n.ref_sink $(src "$dist") $2 ! $n.dist_sink" \
    "vmafhipcompare name=$n backend=$backend frame-message=true" \
    "$element_extra ! fakesink"
}

# gpu_memory_rows UPLOADER ROW CAPS: UPLOADER on both branches into
# fakesink (its producers alone), then on both branches into the element
# (row ROW, CAPS after the uploader), with the element's rate as a share
# of its producers'.
gpu_memory_rows () {
  local producers=
  # shellcheck disable=SC2046
  if measure "$launch" $(src "$ref") ! "$1" ! fakesink \
    $(src "$dist") ! "$1" ! fakesink; then
    row "$1 x2" "$frames" "both branches uploaded into fakesink, no element"
    producers=$R
  else
    fail_row "$1 x2" "$(why)"
  fi
  # shellcheck disable=SC2046
  if measure "$launch" $(element_pipeline "! $1 $3" "! $1 $3"); then
    row "$2" "$frames" "$1 on both branches; cpu above sources: $(per_pair)$(vs_producers "$producers")"
  else
    fail_row "$2" "$(why)"
  fi
}

run_size () {
  width=${1%x*} height=${1#*x} size=$1
  make_clips "$width" "$height"

  measure "$launch" $(src "$ref") ! fakesink $(src "$dist") ! fakesink
  row "sources" "$frames" "two raw branches into fakesink"
  src_cpu=$C src_run=$R

  # shellcheck disable=SC2046
  if measure "$launch" $(element_pipeline "" ""); then
    row "element sysmem" "$frames" "cpu above sources: $(awk "BEGIN{printf \"%.2f\", ($C - $src_cpu) * 1000 / $frames}") ms/pair; run vs sources $(awk "BEGIN{if ($R > 0) printf \"%.0f\", 100 * $src_run / $R}")%"
  else
    fail_row "element sysmem" "$(why)"
  fi

  # Each GPU-memory row against its producers alone: what the element
  # takes away from the rate the uploaders reach without it.
  gpu_memory_rows vmafhipupload "element hipmem" ""
  # --align: each mode from HIP memory and from system memory.
  for mode in $align_modes; do
    element_extra="align=$mode"
    # shellcheck disable=SC2046
    if measure "$launch" $(element_pipeline "! vmafhipupload" \
      "! vmafhipupload"); then
      row "hipmem $mode" "$frames" "vmafhipupload on both branches, align=$mode"
    else
      fail_row "hipmem $mode" "$(why)"
    fi
    # shellcheck disable=SC2046
    if measure "$launch" $(element_pipeline "" ""); then
      row "sysmem $mode" "$frames" "align=$mode"
    else
      fail_row "sysmem $mode" "$(why)"
    fi
    element_extra=
  done
  if has_element cudaupload; then
    gpu_memory_rows cudaupload "element cudamem" "! $cuda_caps"
  else
    fail_row "element cudamem" "no cudaupload (gst-cuda) here"
  fi

  if has_element nvh264dec && [ -s "$h264" ]; then
    measure "$launch" filesrc location="$h264" ! h264parse ! nvh264dec ! fakesink
    row "nvh264dec alone" "$frames" "decoder into fakesink"
    if measure "$launch" $(src "$ref") ! cudaupload ! $cuda_caps ! c.ref_sink \
      filesrc location="$h264" ! h264parse ! nvh264dec ! $cuda_caps ! c.dist_sink \
      vmafhipcompare name=c backend=$backend frame-message=true ! fakesink; then
      row "element nvdec" "$frames" "ref via cudaupload, dist via nvh264dec"
    else
      fail_row "element nvdec" "$(why)"
    fi
  else
    fail_row "element nvdec" "no nvh264dec or no H.264 encoder here"
  fi

  local up_w= upq_w= one_src=
  if measure "$launch" $(src "$ref") ! fakesink; then
    row "source x1" "$frames" "one raw branch into fakesink"
    one_src=${R:-$W}
  fi
  if measure "$launch" $(src "$ref") ! vmafhipupload ! fakesink; then
    row "vmafhipupload" "$frames" "one branch"
    up_w=${R:-$W}
  else
    fail_row "vmafhipupload" "$(why)"
  fi
  # A queue puts the reading and the upload on two threads, as a pipeline
  # after throughput would: the upload's own rate, not reading + upload.
  if measure "$launch" $(src "$ref") ! queue ! vmafhipupload ! fakesink; then
    row "vmafhipupload queued" "$frames" "one branch, a queue before the upload"
    upq_w=${R:-$W}
  else
    fail_row "vmafhipupload queued" "$(why)"
  fi
  if [ -x "$copy" ] && measure "$copy" "$ref" "$frame_bytes" "$frames" \
    "$width" "$height"; then
    W=$(awk '/^pageable copy/{print $5}' "$log") R= C=
    row "raw pageable copy" "$frames" "bench-copy (copies only, in-process), every method:"
    sed 's/^/             /' "$log"
    [ -n "$up_w" ] && echo "           vmafhipupload (PLAYING to EOS) rate vs raw copy: $(awk "BEGIN{printf \"%.0f\", 100 * $W / $up_w}")%"
    [ -n "$upq_w" ] && echo "           vmafhipupload queued (PLAYING to EOS) rate vs raw copy: $(awk "BEGIN{printf \"%.0f\", 100 * $W / $upq_w}")%"
    # What the upload adds to its thread: its run minus the source's own.
    [ -n "$up_w" ] && [ -n "$one_src" ] && awk -v u="$up_w" -v s="$one_src" \
      -v c="$W" -v n="$frames" 'BEGIN{ if (u > s) printf "           vmafhipupload'"'"'s own time (its run minus the source'"'"'s): %.3f ms a frame, %.0f fps, %.0f%% of the raw copy'"'"'s rate\n", (u - s) * 1000 / n, n / (u - s), 100 * c / (u - s) }'

  else
    fail_row "raw pageable copy" "bench-copy missing or failed"
  fi

  if [ -n "$score" ] && measure "$score" -r "$ref" -d "$dist" -w "$width" \
    -h "$height" -p 420 -b 8 --backend $backend --threads "$threads" \
    --json -o "$workdir/cli.json"; then
    row "cli t$threads" "$frames" "own meter (results file): $(grep -o '"fps": *[0-9.]*' "$workdir/cli.json" | grep -o '[0-9.]*$') fps"
  else
    fail_row "cli t$threads" "${score:+$(why)}${score:-vmafhip-score not built}"
  fi

  for n in $streams; do
    local desc= srcs= i
    for ((i = 0; i < n; i++)); do
      desc="$desc $(element_pipeline "" "" "c$i")"
      srcs="$srcs $(src "$ref") ! fakesink $(src "$dist") ! fakesink"
    done
    # What N source pairs alone reach in one process: the ceiling.
    # shellcheck disable=SC2086
    if [ "$n" -gt 1 ] && measure "$launch" $srcs; then
      row "$n sources" $((n * frames)) "$n source pairs alone, one process"
    fi
    # shellcheck disable=SC2086
    if measure "$launch" $desc; then
      row "$n streams" $((n * frames)) "one process, aggregate"
    else
      fail_row "$n streams" "$(why)"
    fi
    # The sources' frame-sized buffers, which each element holds a while,
    # kept by the C library for reuse instead of given back to the kernel
    # and faulted in again (fixed malloc thresholds: no trimming).
    # shellcheck disable=SC2086
    if [ "$n" -gt 1 ] && MALLOC_MMAP_THRESHOLD_=67108864 \
      MALLOC_TRIM_THRESHOLD_=1073741824 measure "$launch" $desc; then
      row "$n streams, malloc" $((n * frames)) "the same, MALLOC_MMAP_THRESHOLD_=64 MiB, MALLOC_TRIM_THRESHOLD_=1 GiB"
    fi
  done

  # A fresh process, no JIT cache (a machine that never ran it): the time
  # to the first score, with the embedded machine code, then with PTX only.
  if [ -n "$score" ]; then
    for code in auto ptx; do
      if VH_HIP_CODE=$code CUDA_CACHE_DISABLE=1 measure "$score" -r "$first" \
        -d "$first" -w "$width" -h "$height" -p 420 -b 8 --backend $backend; then
        row "first score cli $code" 1 "VH_HIP_CODE=$code, no JIT cache"
      else
        fail_row "first score cli $code" "$(why)"
      fi
    done
  fi
  if CUDA_CACHE_DISABLE=1 measure "$launch" $(one_pair); then
    row "first score element" 1 "one pair, start-up to EOS, no JIT cache"
  else
    fail_row "first score element" "$(why)"
  fi

  # Start-up on a warm machine: one pair through the element, JIT cache on,
  # against one frame of each source alone; then the same while another
  # process keeps the GPU open (the driver initialised, as where any other
  # GPU program or service runs).
  if measure "$launch" $(src "$first") ! fakesink $(src "$first") ! fakesink; then
    local one_src=$W holder
    startup_rows "" "warm"
    if [ -x "$copy" ]; then
      VH_BENCH_COPY_HOLD_DEVICE=1 "$copy" "$first" "$frame_bytes" 0 \
        > "$workdir/holder.log" 2>&1 &
      holder=$!
      for _ in $(seq 100); do
        grep -q held "$workdir/holder.log" 2> /dev/null && break
        kill -0 $holder 2> /dev/null || break
        sleep 0.1
      done
      if grep -q held "$workdir/holder.log" 2> /dev/null; then
        startup_rows " held" "GPU held by another process"
      else
        fail_row "start-up element held" "the holding process did not open the GPU"
      fi
      kill $holder 2> /dev/null
      wait $holder 2> /dev/null
    fi
  fi

  # The floor: a process that only opens the GPU (the driver's start-up).
  if [ -x "$copy" ] && measure "$copy" "$first" "$frame_bytes" 0; then
    row "device open alone" 0 "bench-copy FILE BYTES 0: $(head -n 1 "$log")"
  fi
  if [ -x "$copy" ] && CUDA_DEVICE_MAX_CONNECTIONS=1 measure "$copy" \
    "$first" "$frame_bytes" 0; then
    row "device open alone 1q" 0 "CUDA_DEVICE_MAX_CONNECTIONS=1: $(head -n 1 "$log")"
  fi
  if [ -x "$copy" ] && VH_BENCH_COPY_KEEP_DEVICE=1 measure "$copy" "$first" \
    "$frame_bytes" 0; then
    row "device open, exit" 0 "the same, the device left to the exit: $(head -n 1 "$log")"
  fi

  if [ -n "$libvmaf" ]; then
    if measure "$libvmaf" -r "$ref" -d "$dist" -w "$width" -h "$height" \
      -p 420 -b 8 --gpumask 0 -q; then
      row "libvmaf cuda" "$frames" "$libvmaf --gpumask 0"
    else
      fail_row "libvmaf cuda" "$(why)"
    fi
    if measure "$libvmaf" -r "$first" -d "$first" -w "$width" -h "$height" \
      -p 420 -b 8 --gpumask 0 -q; then
      row "start-up libvmaf cuda" 1 "one pair: its whole process"
    fi
  fi
}

echo "vmafhip pipelines: vmaf_v0.6.1, 8-bit 4:2:0, $frames frames per size, best of $runs"
command -v nvidia-smi > /dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "cpu: $(nproc) cores; $(gst-launch-1.0 --version | head -1)"
printf '%-10s %-22s %8s %8s %8s %8s %7s  %s\n' size path "whole s" "fps" "run s" "fps" "cpu s" notes
for s in $sizes; do
  run_size "$s"
done

if [ "$live" -gt 0 ]; then
  # N live 1080p30 element pipelines per --streams, loads sampled (the
  # sources-alone sweep and 60 fps runs: bench/bench-live.sh itself).
  "$root/bench/bench-live.sh" --build "$build" --seconds "$live" \
    --streams "$streams" --streams60 "" --sources ""
fi
