#!/bin/bash
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.
#
# An encoding ladder scored on the GPU machine (issue 28): one 1080p
# source and its renditions (1080p, 720p, 540p, 360p: H.264 files made
# beforehand, any container parsebin reads), each rung scored against the
# source with vmaf_v0.6.1, side by side:
#   decoders alone      the source and every rung decoded in one pipeline
#                       into fakesink: the rate no scoring can beat
#   one element         one vmafhipcompare, the source on ref_sink, the
#                       first rung on dist_sink and the others on request
#                       pads dist_sink_1, dist_sink_2 ...; the element
#                       scales each rung on the GPU (scale=bicubic)
#   tee + videoscale    the source decoded once, through a tee into one
#                       element per rung; each rung scaled on the CPU by
#                       videoscale (--videoscale)
#   pipelines, element  one process per rung at once, the source decoded
#                       in each, the element scaling (scale=bicubic)
#   pipelines, videoscale  the same with videoscale on the CPU
# For each row: wall time, source frames per second, scored pairs per
# second, the row's rate against the decoders' own, and the CPU seconds
# used (user + system, every process).
#
#   bench/bench-ladder.sh --build BUILD --source SRC --rung R1 --rung R2 ...
#     --build DIR       build directory (GST_PLUGIN_PATH=DIR/gst)
#     --source FILE     the 1080p source, encoded (H.264 for nvh264dec)
#     --rung FILE       a rendition, encoded; repeat, in ladder order
#     --raw             the files are raw 8-bit 4:2:0 instead, each given
#                       as FILE:WxH (page-cache them first): read by
#                       rawvideoparse and brought to HIP memory by
#                       vmafhipupload before the element, the issue's
#                       "from HIP memory" figure; the first row is then
#                       the sources and uploads alone
#     --frames N        the source's frame count (default: ffprobe's, if
#                       ffprobe is found; else required)
#     --size WxH        the source's size (default: ffprobe's, else
#                       1920x1080)
#     --decoder D       decoder element (default nvh264dec; avdec_h264 to
#                       try the script on a machine without a GPU)
#     --backend B       the element's backend (default hip)
#     --videoscale M    videoscale's method for the CPU rows (default
#                       catrom, its Catmull-Rom cubic; it has no
#                       ffmpeg-style bicubic, so its scores differ)
#     --rows "R ..."    which rows: decoders element tee pipelines-element
#                       pipelines-videoscale (default: all)
#     --runs N          runs of each row; the fastest counts (default 2)
#     --print           print each row's gst-launch-1.0 line and exit
# The element rows need the element's scale property and dist_sink_%u
# request pads (issue 28, element side); until then they fail and say so.

set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
build=$here/build
source=
rungs=()
frames=
size=
decoder=nvh264dec
backend=hip
videoscale=catrom
rows="decoders element tee pipelines-element pipelines-videoscale"
runs=2
print_only=0
raw=0

while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$(cd "$2" && pwd); shift 2 ;;
    --source) source=$2; shift 2 ;;
    --rung) rungs+=("$2"); shift 2 ;;
    --frames) frames=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    --decoder) decoder=$2; shift 2 ;;
    --backend) backend=$2; shift 2 ;;
    --videoscale) videoscale=$2; shift 2 ;;
    --rows) rows=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --print) print_only=1; shift ;;
    --raw) raw=1; shift ;;
    *) echo "bench-ladder.sh: unknown option $1" >&2; exit 2 ;;
  esac
done

if [ -z "$source" ] || [ ${#rungs[@]} -eq 0 ]; then
  echo "bench-ladder.sh: give --source FILE and at least one --rung FILE" >&2
  exit 2
fi
for f in "$source" "${rungs[@]}"; do
  [ "$raw" = 1 ] && f=${f%:*}
  if [ ! -r "$f" ]; then
    echo "bench-ladder.sh: cannot read $f" >&2
    exit 2
  fi
done
if [ -z "$frames" ] && [ "$raw" = 1 ]; then
  geometry=${source##*:}
  frames=$(($(stat -c %s "${source%:*}") / (${geometry%x*} * ${geometry#*x} *
    3 / 2)))
  size=${size:-$geometry}
fi
if [ -z "$frames" ]; then
  if command -v ffprobe > /dev/null; then
    frames=$(ffprobe -v error -select_streams v:0 -count_packets \
      -show_entries stream=nb_read_packets -of csv=p=0 "$source")
  else
    echo "bench-ladder.sh: no ffprobe to count the source's frames: give" \
      "--frames N" >&2
    exit 2
  fi
fi
export GST_PLUGIN_PATH=$build/gst${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}
n=${#rungs[@]}
# The source's size, which every rung is scaled to.
if [ -z "$size" ] && command -v ffprobe > /dev/null; then
  size=$(ffprobe -v error -select_streams v:0 -show_entries \
    stream=width,height -of csv=p=0:s=x "$source")
fi
size=${size:-1920x1080}
width=${size%x*}
height=${size#*x}

# A branch's frames as the CPU takes them (decoded, or raw), and as the
# element takes them best (the decoder's own memory, or uploaded to HIP
# memory by vmafhipupload).
src_cpu() {
  local f=$1 g
  if [ "$raw" = 1 ]; then
    g=${f##*:}
    echo "filesrc location=${f%:*} ! rawvideoparse width=${g%x*}" \
      "height=${g#*x} format=i420 framerate=30/1"
  else
    echo "filesrc location=$f ! parsebin ! $decoder"
  fi
}
src_gpu() {
  if [ "$raw" = 1 ]; then
    echo "$(src_cpu "$1") ! vmafhipupload"
  else
    src_cpu "$1"
  fi
}
# A rung scaled on the CPU by videoscale, then as the element takes it.
scaled_cpu() {
  echo "$(src_cpu "$1") ! $cpu_scale"
  [ "$raw" = 1 ] && echo "! vmafhipupload"
}
element="vmafhipcompare backend=$backend model=vmaf_v0.6.1"
# Into the CPU: decoded frames to system memory, scaled by videoscale.
cpu_scale="videoconvert ! videoscale method=$videoscale !
  video/x-raw,width=$width,height=$height"

line_decoders() {
  local l
  l="$(src_gpu "$source") ! fakesink sync=false"
  for r in "${rungs[@]}"; do
    l="$l $(src_gpu "$r") ! fakesink sync=false"
  done
  echo "$l"
}

line_element() {
  local l pad
  l="$element scale=bicubic name=c ! fakesink sync=false"
  l="$l $(src_gpu "$source") ! c.ref_sink"
  for i in "${!rungs[@]}"; do
    pad=dist_sink
    [ "$i" -gt 0 ] && pad=dist_sink_$i
    l="$l $(src_gpu "${rungs[$i]}") ! c.$pad"
  done
  echo "$l"
}

line_tee() {
  local l
  l="$(src_gpu "$source") ! tee name=t"
  for i in "${!rungs[@]}"; do
    l="$l t. ! queue ! c$i.ref_sink $element name=c$i ! fakesink sync=false"
    l="$l $(scaled_cpu "${rungs[$i]}") ! c$i.dist_sink"
  done
  echo "$l"
}

line_one_rung() {
  local rung=$1 how=$2
  if [ "$how" = element ]; then
    echo "$element scale=bicubic name=c ! fakesink sync=false" \
      "$(src_gpu "$source") ! c.ref_sink $(src_gpu "$rung") ! c.dist_sink"
  else
    echo "$element name=c ! fakesink sync=false" \
      "$(src_gpu "$source") ! c.ref_sink $(scaled_cpu "$rung") !" \
      "c.dist_sink"
  fi
}

first_row=decoders
[ "$raw" = 1 ] && first_row=sources
if [ "$print_only" = 1 ]; then
  echo "# $first_row alone"; echo "gst-launch-1.0 -q $(line_decoders)"
  echo "# one element"; echo "gst-launch-1.0 -q $(line_element)"
  echo "# tee + videoscale"; echo "gst-launch-1.0 -q $(line_tee)"
  for r in "${rungs[@]}"; do
    echo "# pipeline for $r, element scaling"
    echo "gst-launch-1.0 -q $(line_one_rung "$r" element)"
    echo "# pipeline for $r, videoscale"
    echo "gst-launch-1.0 -q $(line_one_rung "$r" videoscale)"
  done
  exit 0
fi

# Runs the commands given as strings at once; prints "WALL CPU" in
# seconds (CPU: user + system of every process), or fails.
timed() {
  local start end t0 t1 pids=() status=0 cpu me=$BASHPID
  # (this shell's own and its reaped children's ticks; $BASHPID inside
  # $(...) would name the substitution's shell)
  t0=$(awk '{print $14 + $15 + $16 + $17}' /proc/$me/stat)
  start=$(date +%s.%N)
  for cmd in "$@"; do
    # shellcheck disable=SC2086
    gst-launch-1.0 -q $cmd > /dev/null 2> "$log.$BASHPID.${#pids[@]}" &
    pids+=($!)
  done
  for p in "${pids[@]}"; do
    wait "$p" || status=1
  done
  end=$(date +%s.%N)
  t1=$(awk '{print $14 + $15 + $16 + $17}' /proc/$me/stat)
  cpu=$(echo "($t1 - $t0) / $(getconf CLK_TCK)" | bc -l)
  [ $status = 0 ] || return 1
  echo "$(echo "$end - $start" | bc -l) $cpu"
}

log=$(mktemp)
trap 'rm -f "$log"*' EXIT
decoders_fps=
printf '%-22s %8s %10s %10s %10s %8s\n' row "wall s" "source/s" "pairs/s" \
  "of $first_row" "CPU s"
for row in $rows; do
  best=
  for ((k = 0; k < runs; k++)); do
    case $row in
      decoders) out=$(timed "$(line_decoders)") || out= ;;
      element) out=$(timed "$(line_element)") || out= ;;
      tee) out=$(timed "$(line_tee)") || out= ;;
      pipelines-element | pipelines-videoscale)
        cmds=()
        for r in "${rungs[@]}"; do
          cmds+=("$(line_one_rung "$r" "${row#pipelines-}")")
        done
        out=$(timed "${cmds[@]}") || out= ;;
      *) echo "bench-ladder.sh: unknown row $row" >&2; exit 2 ;;
    esac
    if [ -z "$out" ]; then
      break
    fi
    if [ -z "$best" ] || (( $(echo "${out% *} < ${best% *}" | bc -l) )); then
      best=$out
    fi
  done
  label=$row
  [ "$row" = decoders ] && label=$first_row
  if [ -z "$best" ]; then
    printf '%-22s failed: %s\n' "$label" "$(cat "$log".* 2> /dev/null |
      grep -m1 -i -E 'error|erroneous|no such|could not' || echo '?')"
    rm -f "$log".*
    continue
  fi
  rm -f "$log".*
  wall=${best% *}
  cpu=${best#* }
  fps=$(echo "$frames / $wall" | bc -l)
  pairs=0
  [ "$row" != decoders ] && pairs=$(echo "$fps * $n" | bc -l)
  [ "$row" = decoders ] && decoders_fps=$fps
  share=-
  [ -n "$decoders_fps" ] && share=$(printf '%.0f%%' \
    "$(echo "100 * $fps / $decoders_fps" | bc -l)")
  printf '%-22s %8.2f %10.1f %10.1f %10s %8.1f\n' "$label" "$wall" "$fps" \
    "$pairs" "$share" "$cpu"
done
