#!/bin/sh
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.
#
# Rebuilds the extended parity set: the clips of clips.tsv with
# make-clips.py, then one libvmaf log per case of cases.tsv, written by the
# libvmaf 3.2 `vmaf` tool given as the first argument:
#
#   tests/data/extended/make-set.sh /path/to/libvmaf/build/tools/vmaf
#
# Each log is written by exactly the command listed in README.md.
set -eu
oracle=${1:?usage: make-set.sh PATH-TO-LIBVMAF-VMAF-TOOL}
cd "$(dirname "$0")"

tail -n +2 clips.tsv | while IFS="$(printf '\t')" read -r name w h fmt bpc frames; do
  python3 make-clips.py . "$name" "$w" "$h" "$fmt" "$bpc" "$frames"
done

tail -n +2 cases.tsv | while IFS="$(printf '\t')" read -r name ref dist w h fmt bpc log opts; do
  case "$name" in '#'*|'') continue ;; esac
  # shellcheck disable=SC2086 # the options are split on purpose
  "$oracle" -r "$ref" -d "$dist" -w "$w" -h "$h" -p "$fmt" -b "$bpc" $opts \
    --json -o "$log" -q
done

# The flat clip of logs.tsv: 2 frames of 32x32 4:4:4 8-bit, every sample 100.
python3 -c 'import sys; sys.stdout.buffer.write(bytes([100]) * (32 * 32 * 3 * 2))' \
  > l8_444_32x32_flat.yuv

# logs.tsv: the layout comes from the log's extension.
tail -n +2 logs.tsv | while IFS="$(printf '\t')" read -r name ref dist w h fmt bpc log opts; do
  case "$name" in '#'*|'') continue ;; esac
  # shellcheck disable=SC2086 # the options are split on purpose
  "$oracle" -r "$ref" -d "$dist" -w "$w" -h "$h" -p "$fmt" -b "$bpc" $opts \
    "--${log##*.}" -o "$log" -q
done
