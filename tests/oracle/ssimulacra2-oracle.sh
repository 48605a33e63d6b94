#!/bin/bash
# SSIMULACRA 2 against libjxl's own ssimulacra2 tool (built from libjxl's
# public source outside this repository; not part of the build or CI).
#
#   tests/oracle/ssimulacra2-oracle.sh SSIMULACRA2_TOOL VMAFHIP_SCORE [WORKDIR]
#
# 1. The metric: every frame of every case is scored by vmafhip-score with
#    `--feature ssimulacra2=dump_rgb=DIR`, which writes the 16-bit R'G'B'
#    the metric reads; ffmpeg wraps each dump in a 16-bit PNG (no colour
#    tags: sRGB, as the metric assumes) and the tool scores the PNG pair.
#    The largest |ours - libjxl| is printed per case and overall; the exit
#    status is 1 when it exceeds 1e-4.
# 2. The whole path: ffmpeg converts the same YUV frames to rgb48le
#    (-vf scale, BT.709 limited range) with its default scaler flags, and
#    with -sws_flags bilinear+full_chroma_int+accurate_rnd (chroma
#    interpolated at full resolution), and the tool scores those PNGs; the
#    largest difference to our value is printed for each (it measures the
#    Y'CbCr conversion, not the metric, and gates nothing).
#
# The cases: the golden clips (../shared/golden, or $VH_GOLDEN_DIR) and an
# extended set made here by ffmpeg from them: 8/10/12/16 bit, 4:2:0, 4:2:2,
# 4:4:4, odd sizes down to 8x8, one 1080p and one 2160p clip.
set -euo pipefail

tool=${1:?path of the libjxl ssimulacra2 tool}
score=${2:?path of vmafhip-score}
work=${3:-$(mktemp -d)}
here=$(cd "$(dirname "$0")" && pwd)
golden=${VH_GOLDEN_DIR:-$here/../../../shared/golden}
frames=${VH_ORACLE_FRAMES:-3}
mkdir -p "$work"
worst=0
absdiff() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; printf "%.9f", d }'; }
larger() { awk -v a="$1" -v b="$2" 'BEGIN { print (a > b) ? a : b }'; }

# case NAME REF DIS W H PIXFMT(420|422|444) BPC
run_case() {
  local name=$1 ref=$2 dis=$3 w=$4 h=$5 pf=$6 bpc=$7
  local dir=$work/$name case_worst=0 path_worst=0 acc_worst=0
  local ffpf=yuv${pf}p
  [ "$bpc" != 8 ] && ffpf=${ffpf}${bpc}le
  rm -rf "$dir"; mkdir -p "$dir"
  "$score" -r "$ref" -d "$dis" -w "$w" -h "$h" -p "$pf" -b "$bpc" \
    --backend cpu -n --frame_cnt "$frames" -q --json -o "$dir/ours.json" \
    --feature "ssimulacra2=dump_rgb=$dir" < /dev/null
  local n
  n=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['frames']))" "$dir/ours.json")
  for side in ref dis; do
    local src=$ref; [ $side = dis ] && src=$dis
    ffmpeg -nostdin -loglevel error -y -f rawvideo -pix_fmt "$ffpf" -s "${w}x${h}" \
      -i "$src" -frames:v "$n" \
      -vf "scale=in_color_matrix=bt709:in_range=tv,format=rgb48le" \
      -f image2 "$dir/ff-$side-%d.png"
    ffmpeg -nostdin -loglevel error -y -f rawvideo -pix_fmt "$ffpf" -s "${w}x${h}" \
      -i "$src" -frames:v "$n" -sws_flags bilinear+full_chroma_int+accurate_rnd \
      -vf "scale=in_color_matrix=bt709:in_range=tv,format=rgb48le" \
      -f image2 "$dir/fa-$side-%d.png"
  done
  for ((i = 0; i < n; i++)); do
    local ours theirs whole
    ours=$(python3 -c "import json,sys; print('%.9f' % json.load(open(sys.argv[1]))['frames'][int(sys.argv[2])]['metrics']['ssimulacra2'])" "$dir/ours.json" "$i")
    for side in ref dis; do
      ffmpeg -nostdin -loglevel error -y -f rawvideo -pix_fmt rgb48le -s "${w}x${h}" \
        -i "$dir/$side-$i.rgb48" -frames:v 1 "$dir/$side-$i.png"
    done
    theirs=$("$tool" "$dir/ref-$i.png" "$dir/dis-$i.png")
    whole=$("$tool" "$dir/ff-ref-$((i + 1)).png" "$dir/ff-dis-$((i + 1)).png")
    accurate=$("$tool" "$dir/fa-ref-$((i + 1)).png" "$dir/fa-dis-$((i + 1)).png")
    case_worst=$(larger "$case_worst" "$(absdiff "$ours" "$theirs")")
    path_worst=$(larger "$path_worst" "$(absdiff "$ours" "$whole")")
    acc_worst=$(larger "$acc_worst" "$(absdiff "$ours" "$accurate")")
    rm -f "$dir/$side-$i.rgb48"
  done
  printf '%-32s %2d frames  metric %.9f  ffmpeg default %.6f  bilinear+full_chroma_int %.6f\n' \
    "$name" "$n" "$case_worst" "$path_worst" "$acc_worst"
  worst=$(larger "$worst" "$case_worst")
  rm -f "$dir"/*.png "$dir"/*.rgb48
}

g=$golden/yuv
while IFS=$'\t' read -r pair ref dis w h bpc nf note; do
  [ "$pair" = pair ] && continue
  run_case "$pair" "$g/$ref" "$g/$dis" "$w" "$h" 420 "$bpc"
done < "$golden/pairs.tsv"

# The extended set, from the 576x324 x264 pair.
ext=$work/extended; mkdir -p "$ext"
make_clip() { # SRC W H OUT_PIXFMT OUT_W OUT_H OUT
  ffmpeg -nostdin -loglevel error -y -f rawvideo -pix_fmt yuv420p -s "$2x$3" -i "$1" \
    -frames:v "$frames" -vf "scale=$5:$6:flags=bicubic,format=$4" \
    -f rawvideo "$7"
}
a_ref=$g/a_576x324_8bit_ref.yuv a_dis=$g/a_576x324_8bit_x264.yuv
for spec in 420:8:576:324 422:8:576:324 444:8:576:324 420:10:576:324 \
  422:10:576:324 444:12:576:324 420:16:576:324 444:16:576:324 \
  420:8:8:8 420:8:9:9 422:8:15:8 444:10:8:13 420:8:17:11 420:10:33:31 \
  420:8:257:129 420:8:1920:1080 420:10:3840:2160; do
  IFS=: read -r pf bpc w h <<< "$spec"
  ffpf=yuv${pf}p; [ "$bpc" != 8 ] && ffpf=${ffpf}${bpc}le
  name=ext_${w}x${h}_${pf}_${bpc}bit
  make_clip "$a_ref" 576 324 "$ffpf" "$w" "$h" "$ext/$name-ref.yuv"
  make_clip "$a_dis" 576 324 "$ffpf" "$w" "$h" "$ext/$name-dis.yuv"
  run_case "$name" "$ext/$name-ref.yuv" "$ext/$name-dis.yuv" "$w" "$h" "$pf" "$bpc"
  rm -f "$ext/$name-ref.yuv" "$ext/$name-dis.yuv"
done

echo "largest |ours - libjxl| over every case: $worst"
awk -v w="$worst" 'BEGIN { exit (w <= 1e-4) ? 0 : 1 }'
