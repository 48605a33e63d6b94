#!/bin/bash
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.
#
# CPU speed of psnr_hvs, ciede, float_ansnr and float_moment, vmafhip-score
# against libvmaf's `vmaf` tool on the same raw files, 1 and 2 threads.
#
#   bench/bench-new-features.sh --libvmaf PATH [options]
#     --libvmaf PATH    libvmaf 3.2's `vmaf` tool (CPU build)
#     --build DIR       build directory (default: build in the source tree)
#     --golden DIR      golden clips (default: ../shared/golden beside the
#                       source tree, else tests/data/golden)
#     --frames N        frames per clip, repeated from the golden ones
#                       (default 24)
#     --runs N          runs of each command; the fastest counts (default 3)
#     --features "F ..." (default "psnr_hvs ciede float_ansnr float_moment")
#     --workdir DIR     where the clips go (default $TMPDIR/vmafhip-bench-features)
#
# Both tools read the same files and write a JSON log, so the times include
# reading the clips; "fps" is frames over the fastest wall time, "cpu" the
# user + system seconds of that run. vmafhip-score runs with --backend cpu
# (otherwise it first looks for a GPU, a fixed start-up cost). Both logs are also compared (every
# value but the version and dispatch lines), so a faster wrong answer shows.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
libvmaf=""
build="$here/build"
golden=""
frames=24
runs=3
features="psnr_hvs ciede float_ansnr float_moment"
workdir="${TMPDIR:-/tmp}/vmafhip-bench-features"

while [ $# -gt 0 ]; do
  case "$1" in
    --libvmaf) libvmaf=$2; shift ;;
    --build) build=$2; shift ;;
    --golden) golden=$2; shift ;;
    --frames) frames=$2; shift ;;
    --runs) runs=$2; shift ;;
    --features) features=$2; shift ;;
    --workdir) workdir=$2; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
if [ -z "$libvmaf" ] || [ ! -x "$libvmaf" ]; then
  echo "bench-new-features.sh: --libvmaf PATH to libvmaf's vmaf tool needed" >&2
  exit 2
fi
score="$build/src/cli/vmafhip-score"
[ -x "$score" ] || score="$build/cli/vmafhip-score"
if [ ! -x "$score" ]; then
  echo "bench-new-features.sh: no vmafhip-score in $build" >&2
  exit 2
fi
if [ -z "$golden" ]; then
  golden="$here/../shared/golden"
  [ -f "$golden/pairs.tsv" ] || golden="$here/tests/data/golden"
fi
mkdir -p "$workdir"

# name ref dist width height bitdepth: the golden pairs used, when present.
clips="
1920x1080_8bit archer_ref_1920x1080.yuv archer_dis_1920x1080.yuv 1920 1080 8
576x324_8bit_noise a_576x324_8bit_ref.yuv a_576x324_8bit_noise.yuv 576 324 8
640x360_10bit_x264 c_640x360_10bit_ref.yuv c_640x360_10bit_x264.yuv 640 360 10
576x324_10bit src01_hrc00_576x324.yuv420p10le.yuv src01_hrc01_576x324.yuv420p10le.yuv 576 324 10
"

# Writes $frames frames of @src (repeating it) to @dst.
make_clip() {
  local src=$1 dst=$2 fsize=$3
  local have=$(( $(stat -c %s "$src") / fsize ))
  [ -f "$dst" ] && [ "$(stat -c %s "$dst")" -eq $((fsize * frames)) ] && return
  : > "$dst"
  local f=0
  while [ $f -lt "$frames" ]; do
    dd if="$src" bs="$fsize" skip=$((f % have)) count=1 status=none >> "$dst"
    f=$((f + 1))
  done
}

# Fastest of $runs runs: prints "wall cpu".
time_best() {
  local best="" i t
  for i in $(seq "$runs"); do
    t=$(/usr/bin/time -f "%e %U %S" "$@" 2>&1 > /dev/null | tail -1)
    best=$(printf '%s\n%s\n' "$best" "$t" | awk 'NF == 3 { c = $2 + $3;
      if (!n || $1 < w) { w = $1; cpu = c } n++ } END { print w, cpu }')
  done
  echo "$best"
}

printf '%-20s %-12s %3s %22s %22s %8s %s\n' clip feature thr \
  "libvmaf fps (cpu s)" "vmafhip fps (cpu s)" speedup logs
echo "$clips" | while read -r name ref dist w h bpc; do
  [ -n "$name" ] || continue
  if [ ! -f "$golden/yuv/$ref" ] || [ ! -f "$golden/yuv/$dist" ]; then
    echo "$name: golden clip not found in $golden, skipped"
    continue
  fi
  bps=1; [ "$bpc" -gt 8 ] && bps=2
  fsize=$(( (w * h + 2 * ((w + 1) / 2) * ((h + 1) / 2)) * bps ))
  make_clip "$golden/yuv/$ref" "$workdir/$name-ref.yuv" $fsize
  make_clip "$golden/yuv/$dist" "$workdir/$name-dis.yuv" $fsize
  for feature in $features; do
    if [ "$feature" = psnr_hvs ] && [ "$bpc" -gt 12 ]; then continue; fi
    for threads in 1 2; do
      args="-r $workdir/$name-ref.yuv -d $workdir/$name-dis.yuv -w $w -h $h
        -p 420 -b $bpc --feature $feature --no_prediction --threads $threads
        -q --json"
      # shellcheck disable=SC2086
      lv=$(time_best "$libvmaf" $args -o "$workdir/libvmaf.json")
      # shellcheck disable=SC2086
      vh=$(time_best "$score" $args --backend cpu -o "$workdir/vmafhip.json")
      if diff <(grep -v '"version"\|"fps"\|"dispatch"' "$workdir/libvmaf.json") \
          <(grep -v '"version"\|"fps"\|"dispatch"' "$workdir/vmafhip.json") \
          > /dev/null; then same=equal; else same=DIFFER; fi
      echo "$name $feature $threads $lv $vh $same" | awk -v f="$frames" '{
        printf "%-20s %-12s %3d %12.1f (%6.2f s) %12.1f (%6.2f s) %7.2fx %s\n",
          $1, $2, $3, f / $4, $5, f / $6, $7, $4 / $6, $8 }'
    done
  done
done
