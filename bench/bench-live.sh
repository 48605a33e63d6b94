#!/bin/bash
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.
#
# Many live streams on one machine: N processes of bench/bench-live at
# once (a live videotestsrc split into a reference and a distorted branch,
# vmafhipcompare with per-frame messages on, a synchronised sink), with the
# machine's CPU load (/proc/stat) and the GPU's (nvidia-smi, where there
# is one) sampled while they run. A sweep of the sources alone (the same
# pipelines without the element) finds where the sources themselves run
# out of CPU.
#
#   bench/bench-live.sh [options]
#     --build DIR         build directory (default: build in the source tree)
#     --seconds S         length of each element run (default 60)
#     --streams "N ..."   element runs at 30 fps, N processes each
#                         (default "16")
#     --streams60 "N ..." element runs at 60 fps (default "8")
#     --sources "N ..."   runs of the sources alone at 30 fps (default
#                         "16 32 48 64"; "" for none)
#     --source-seconds S  length of each sources-alone run (default 30)
#     --size WxH          (default 1920x1080)
#     --interval S        load sampling interval (default 5)
#
# One line per run: the kind (element or sources), processes, frame rate,
# how many processes kept strict real time (bench-live's check: every
# frame rendered on time, and with the element every frame scored, none
# unpaired or dropped), the frames scored and produced, unpaired and
# dropped summed over the processes, CPU busy (mean and peak of the
# samples, all cores) and GPU busy (the same, from nvidia-smi).
set -u

root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
seconds=60
streams="16"
streams60="8"
sources="16 32 48 64"
source_seconds=30
size=1920x1080
interval=5
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$(cd "$2" && pwd) || exit 2; shift ;;
    --seconds) seconds=$2; shift ;;
    --streams) streams=$2; shift ;;
    --streams60) streams60=$2; shift ;;
    --sources) sources=$2; shift ;;
    --source-seconds) source_seconds=$2; shift ;;
    --size) size=$2; shift ;;
    --interval) interval=$2; shift ;;
    -h|--help) sed -n '10,35p' "$0"; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
live=$build/bench/bench-live
[ -x "$live" ] || { echo "no $live: build the benchmarks first" >&2; exit 2; }
export GST_PLUGIN_PATH=$build/gst${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}
width=${size%x*} height=${size#*x}
logs=$(mktemp -d "${TMPDIR:-/tmp}/vmafhip-live.XXXXXX")

# cpu_ticks: busy and total jiffies of all cores so far.
cpu_ticks () {
  awk '/^cpu / { t = 0; for (i = 2; i <= NF; i++) t += $i;
    print t - $5 - $6, t }' /proc/stat
}

# gpu_busy: the GPU's utilisation in percent, or nothing.
gpu_busy () {
  command -v nvidia-smi > /dev/null || return 0
  nvidia-smi -i 0 --query-gpu=utilization.gpu --format=csv,noheader,nounits \
    2> /dev/null | head -n 1 | tr -dc '0-9'
}

# sample SECONDS OUT: CPU and GPU busy every $interval s into OUT, one
# "cpu gpu" line per sample (gpu empty where unknown).
sample () {
  local end=$((SECONDS + $1)) b0 t0 b1 t1
  read -r b0 t0 < <(cpu_ticks)
  while [ $SECONDS -lt "$end" ]; do
    sleep "$interval"
    read -r b1 t1 < <(cpu_ticks)
    echo "$(awk -v b="$((b1 - b0))" -v t="$((t1 - t0))" \
      'BEGIN { printf "%.0f", (t > 0 ? 100 * b / t : 0) }') $(gpu_busy)"
    b0=$b1 t0=$t1
  done > "$2"
}

# stats FILE COLUMN: "mean/peak" of a column of samples, or "-".
stats () {
  awk -v c="$2" '$c != "" { s += $c; n++; if ($c > m) m = $c }
    END { if (n) printf "%.0f/%.0f%%", s / n, m; else printf "-" }' "$1"
}

# run KIND N FPS SECONDS: N processes at once, then one line.
run () {
  local kind=$1 n=$2 fps=$3 secs=$4 pids='' i ok=0 args
  args=(--seconds "$secs" -w "$width" -h "$height" -f "$fps")
  [ "$kind" = sources ] && args+=(--sources-only)
  for ((i = 0; i < n; i++)); do
    "$live" "${args[@]}" > "$logs/$kind-$n-$fps-$i.log" 2>&1 &
    pids="$pids $!"
  done
  sample "$secs" "$logs/load-$kind-$n-$fps" &
  local sampler=$!
  for p in $pids; do wait "$p" && ok=$((ok + 1)); done
  kill "$sampler" 2> /dev/null
  wait "$sampler" 2> /dev/null
  cat "$logs/$kind-$n-$fps-"*.log | awk -v kind="$kind" -v n="$n" \
    -v fps="$fps" -v ok="$ok" -v cpu="$(stats "$logs/load-$kind-$n-$fps" 1)" \
    -v gpu="$(stats "$logs/load-$kind-$n-$fps" 2)" '
    /^source frames/ {
      gsub(",", ""); produced += $3; scored += $5
      split($10, u, "/"); unpaired += u[1] + u[2]
      split($14, d, "/"); dropped += d[1] + d[2]
    }
    END {
      printf "%-8s %4d %4d %6s %18s %9d %8d %11s %11s\n", kind, n, fps,
        ok "/" n, (kind == "sources" ? "-" : scored) "/" produced,
        unpaired, dropped, cpu, gpu
    }'
}

echo "vmafhip live: $size, videotestsrc (moving SMPTE bars) and videobalance, one process per stream"
echo "cpu: $(nproc) cores; gpu: $(command -v nvidia-smi > /dev/null &&
  nvidia-smi -i 0 --query-gpu=name,driver_version --format=csv,noheader 2> /dev/null || echo unknown)"
printf '%-8s %4s %4s %6s %18s %9s %8s %11s %11s\n' kind n fps "real" \
  "scored/produced" unpaired dropped "cpu busy" "gpu busy"
for n in $sources; do run sources "$n" 30 "$source_seconds"; done
for n in $streams; do run element "$n" 30 "$seconds"; done
for n in $streams60; do run element "$n" 60 "$seconds"; done
echo "logs: $logs"
