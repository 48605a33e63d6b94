#!/bin/bash
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.
#
# CPU speed of feature extractors and models, vmafhip-score against
# libvmaf's `vmaf` tool on the same raw files, at several thread counts:
# the whole run, reading the files included, as a user sees it.
#
#   bench/bench-features.sh --libvmaf PATH [options]
#     --libvmaf PATH    libvmaf 3.2's `vmaf` tool (CPU build)
#     --build DIR       build directory (default: build in the source tree)
#     --features "F ..." extractors, one run each; F1+F2 runs them together
#                       (default "psnr_hvs ciede float_ansnr float_moment
#                       speed_chroma speed_temporal", none with --models)
#     --models "M ..."  built-in models, one run each with its prediction
#                       (e.g. "vmaf_v0.6.1 vmaf_v1.0.16_3d0h
#                       vmaf_float_v0.6.1"); runs before the features
#     --clip NAME=REF:DIS:WxH:BPC  a 4:2:0 raw pair of your own
#                       (repeatable; e.g. a natural clip and a noise clip);
#                       replaces --clips
#     --clips C         golden (default): the golden pairs, 576x324 to
#                       1080p, 8 and 10 bits, each repeated to --frames;
#                       synthetic: one 1080p 8-bit pair made with
#                       gst-launch-1.0 (a scrolling test pattern and a
#                       blurred copy)
#     --golden DIR      golden clips (default: ../shared/golden beside the
#                       source tree, else tests/data/golden)
#     --frames N        frames per clip (default 24; a --clip is cut to N
#                       frames when given, else scored whole)
#     --runs N          runs of each command; the fastest counts (default 3)
#     --threads "N ..." (default "1 2"); "all" is every online CPU
#     --cpumask M       passed to both tools (libvmaf's bits: 48 forbids
#                       AVX-512, 63 every SIMD level)
#     --workdir DIR     where the clips go (default $TMPDIR/vmafhip-bench-features)
#
# The two tools' runs alternate (libvmaf, vmafhip, libvmaf, ...), so that
# a change of load on the machine touches both alike. "fps" is frames over
# the fastest wall time, "cpu" the user + system seconds of that run,
# "speedup" libvmaf's wall time over ours.
# vmafhip-score runs with --backend cpu (otherwise it first looks for a
# GPU, a fixed start-up cost). Both logs are compared (every value but the
# version, fps and dispatch lines), so a faster wrong answer shows.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
libvmaf=""
build="$here/build"
golden=""
frames=24
runs=3
threads_list="1 2"
clip_set=golden
features=""
default_features="psnr_hvs ciede float_ansnr float_moment speed_chroma speed_temporal"
models=""
user_clips=""
frames_given=""
cpumask=""
workdir="${TMPDIR:-/tmp}/vmafhip-bench-features"

while [ $# -gt 0 ]; do
  case "$1" in
    --libvmaf) libvmaf=$2; shift ;;
    --build) build=$2; shift ;;
    --golden) golden=$2; shift ;;
    --frames) frames=$2; frames_given=1; shift ;;
    --runs) runs=$2; shift ;;
    --threads) threads_list=$2; shift ;;
    --clips) clip_set=$2; shift ;;
    --features) features=$2; shift ;;
    --models) models=$2; shift ;;
    --clip) user_clips="$user_clips $2"; shift ;;
    --cpumask) cpumask=$2; shift ;;
    --workdir) workdir=$2; shift ;;
    -h|--help) sed -n '10,47p' "$0"; exit 0 ;;
    *) echo "bench-features.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
if [ -z "$libvmaf" ] || [ ! -x "$libvmaf" ]; then
  echo "bench-features.sh: --libvmaf PATH to libvmaf's vmaf tool needed" >&2
  exit 2
fi
score="$build/cli/vmafhip-score"
if [ ! -x "$score" ]; then
  echo "bench-features.sh: no vmafhip-score in $build/cli" >&2
  exit 2
fi
case "$clip_set" in
  golden|synthetic) ;;
  *) echo "bench-features.sh: --clips is golden or synthetic, not $clip_set" >&2
     exit 2 ;;
esac
[ -z "$features" ] && [ -z "$models" ] && features=$default_features
# "all" is every online CPU; a count named twice runs once.
threads_list=$(echo "${threads_list//all/$(nproc)}" |
  awk '{ for (i = 1; i <= NF; i++) if (!seen[$i]++) printf "%s ", $i }')
if [ -z "$golden" ]; then
  golden="$here/../shared/golden"
  [ -f "$golden/pairs.tsv" ] || golden="$here/tests/data/golden"
fi
mkdir -p "$workdir"

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

# A 1080p pair: a scrolling test pattern, and the same scaled down to a
# third and back.
make_synthetic() {
  local ref=$1 dis=$2 w=1920 h=1080
  local fsize=$((w * h * 3 / 2))
  [ -f "$dis" ] && [ "$(stat -c %s "$dis")" -eq $((fsize * frames)) ] && return
  gst-launch-1.0 -q videotestsrc num-buffers="$frames" pattern=smpte \
      horizontal-speed=7 ! "video/x-raw,format=I420,width=$w,height=$h" ! \
      filesink location="$ref" &&
    gst-launch-1.0 -q filesrc location="$ref" ! \
      rawvideoparse width=$w height=$h format=i420 ! videoscale ! \
      "video/x-raw,width=$((w / 3)),height=$((h / 3))" ! videoscale ! \
      "video/x-raw,width=$w,height=$h" ! filesink location="$dis" ||
    { echo "bench-features.sh: gst-launch-1.0 could not make the clips" >&2
      exit 1; }
}

# One run: prints "wall cpu", nothing if it failed.
time_once() {
  /usr/bin/time -f "%e %U %S %x" "$@" 2>&1 > /dev/null | tail -1 |
    awk 'NF == 4 && $4 == 0 { print $1, $2 + $3 }'
}

# The faster of two "wall cpu" lines (either may be empty).
faster() {
  printf '%s\n%s\n' "$1" "$2" | awk 'NF == 2 && (!n++ || $1 < w) {
    w = $1; c = $2 } END { if (n) print w, c }'
}
# name ref dist width height bitdepth, with ref and dist under $golden/yuv
# or, for the synthetic clip, under $workdir.
if [ -n "$user_clips" ]; then
  clips=$(for c in $user_clips; do
    name=${c%%=*} rest=${c#*=}
    IFS=: read -r ref dist size bpc <<< "$rest"
    echo "$name $ref $dist ${size%x*} ${size#*x} $bpc"
  done)
  clip_set=user
  clipdir=""
elif [ "$clip_set" = synthetic ]; then
  make_synthetic "$workdir/synthetic-ref.yuv" "$workdir/synthetic-dis.yuv"
  clips="1920x1080_8bit_synthetic synthetic-ref.yuv synthetic-dis.yuv 1920 1080 8"
  clipdir=$workdir
else
  clips="
1920x1080_8bit archer_ref_1920x1080.yuv archer_dis_1920x1080.yuv 1920 1080 8
576x324_8bit_noise a_576x324_8bit_ref.yuv a_576x324_8bit_noise.yuv 576 324 8
640x360_10bit_x264 c_640x360_10bit_ref.yuv c_640x360_10bit_x264.yuv 640 360 10
576x324_10bit src01_hrc00_576x324.yuv420p10le.yuv src01_hrc01_576x324.yuv420p10le.yuv 576 324 10
"
  clipdir=$golden/yuv
fi

printf '%-26s %-30s %3s %22s %22s %8s %s\n' clip "model or features" thr \
  "libvmaf fps (cpu s)" "vmafhip fps (cpu s)" speedup logs
echo "$clips" | while read -r name ref dist w h bpc; do
  [ -n "$name" ] || continue
  src_ref=$ref src_dist=$dist
  [ -n "$clipdir" ] && src_ref=$clipdir/$ref src_dist=$clipdir/$dist
  if [ ! -f "$src_ref" ] || [ ! -f "$src_dist" ]; then
    echo "$name: clip $src_ref or $src_dist not found, skipped"
    continue
  fi
  bps=1; [ "$bpc" -gt 8 ] && bps=2
  fsize=$(( (w * h + 2 * ((w + 1) / 2) * ((h + 1) / 2)) * bps ))
  refp=$workdir/$name-ref.yuv disp=$workdir/$name-dis.yuv
  n_frames=$frames
  cut=""
  case "$clip_set" in
    golden)
      make_clip "$src_ref" "$refp" $fsize
      make_clip "$src_dist" "$disp" $fsize ;;
    synthetic) refp=$src_ref disp=$src_dist ;;
    user)
      refp=$src_ref disp=$src_dist
      n_frames=$(( $(stat -c %s "$src_ref") / fsize ))
      if [ -n "$frames_given" ] && [ "$frames" -lt "$n_frames" ]; then
        n_frames=$frames
        cut="--frame_cnt $frames"
      fi ;;
  esac
  runs_of=""
  for m in $models; do runs_of="$runs_of model=$m"; done
  for set in $features; do runs_of="$runs_of features=$set"; done
  for what in $runs_of; do
    kind=${what%%=*} set=${what#*=}
    if [ "$kind" = model ]; then
      extra_args="--model version=$set"
    else
      extra_args="--no_prediction"
      for f in ${set//+/ }; do
        extra_args="$extra_args --feature $f"
      done
    fi
    [ -n "$cpumask" ] && extra_args="$extra_args --cpumask $cpumask"
    for threads in $threads_list; do
      args="-r $refp -d $disp -w $w -h $h -p 420 -b $bpc $extra_args $cut
        --threads $threads -q --json"
      lv="" vh=""
      for _ in $(seq "$runs"); do
        # shellcheck disable=SC2086 # the options are split on purpose
        lv=$(faster "$lv" "$(time_once "$libvmaf" $args \
            -o "$workdir/libvmaf.json")")
        # shellcheck disable=SC2086
        vh=$(faster "$vh" "$(time_once "$score" $args --backend cpu \
            -o "$workdir/vmafhip.json")")
      done
      if [ -z "$lv" ] || [ -z "$vh" ]; then
        echo "$name $set $threads: a run failed (run its command by hand)"
        continue
      fi
      if diff <(grep -v '"version"\|"fps"\|"dispatch"' "$workdir/libvmaf.json") \
          <(grep -v '"version"\|"fps"\|"dispatch"' "$workdir/vmafhip.json") \
          > /dev/null; then same=equal; else same=DIFFER; fi
      echo "$name $set $threads $lv $vh $same" | awk -v f="$n_frames" '{
        printf "%-26s %-30s %3d %12.1f (%6.2f s) %12.1f (%6.2f s) %7.2fx %s\n",
          $1, $2, $3, f / $4, $5, f / $6, $7, $4 / $6, $8 }'
    done
  done
done
