/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Integer motion ("motion"): the mean absolute value of the 5-tap blurred
 * difference between the luma of consecutive reference frames, as libvmaf
 * 3.2 computes it (it blurs the difference rather than each frame), then
 * motion2 = min of two neighbouring SADs and motion3 = blended motion2. */

#include "integer-motion.h"
#include "integer-motion-private.h"
#include "errors.h"
#include "simd.h"

#include <string.h>

/* The blend is a multiply-add: fusing it would change the rounding. */
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

#define VH_MOTION_RING 5        /* difference rows the vertical blur reads */

typedef struct
{
  VhIntegerMotion m;

  /* Packed luma of the last frames, slot = index % m.n_slots. */
  guint8 *luma[3];

  /* Scratch for the SAD: ring of difference rows, and the vertically
   * blurred row split in high and low bytes, with two samples of mirror
   * padding at each end. */
  gint32 *ring;
  gint32 *hi;
  gint32 *lo;
  guint64 (*sad) (gpointer s, const guint8 * prev, const guint8 * cur);
  /* Row kernels of the SIMD path, up to 12 bits. */
  const VhMotionKernels16 *k16;
} VhMotionState;

const VhOptionSpec vh_integer_motion_options[] = {
  {"motion_force_zero", "force_0", "force the motion score to zero",
      VH_OPTION_BOOL, 0, 0, 1, VH_OPTION_FLAG_FEATURE_PARAM},
  {"motion_blend_factor", "mbf", "blend the motion score above an offset",
      VH_OPTION_DOUBLE, 1.0, 0.0, 1.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"motion_blend_offset", "mbo", "offset above which the score is blended",
      VH_OPTION_DOUBLE, 40.0, 0.0, 1000.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"motion_fps_weight", "mfw", "frame-rate dependent weight of the score",
      VH_OPTION_DOUBLE, 1.0, 0.0, 5.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"motion_max_val", "mmxv", "clip scores to this value",
      VH_OPTION_DOUBLE, 10000.0, 0.0, 10000.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"motion_five_frame_window", "mffw", "compare with the frame two back",
      VH_OPTION_BOOL, 0, 0, 1, VH_OPTION_FLAG_FEATURE_PARAM},
  {"motion_moving_average", "mma",
        "average motion3 with the previous frame's",
      VH_OPTION_BOOL, 0, 0, 1, VH_OPTION_FLAG_FEATURE_PARAM},
  {"debug", NULL, "also output integer_motion", VH_OPTION_BOOL, 0, 0, 1, 0},
  {NULL}
};

const gchar *const vh_integer_motion_provides[] = {
  "VMAF_integer_feature_motion_sad_score",
  "integer_motion2",
  "integer_motion3",
  NULL
};

static inline gint
motion_mirror (gint i, gint n)
{
  if (i < 0)
    return -i;
  if (i >= n)
    return 2 * n - i - 2;
  return i;
}

/* prev - cur for one row, widened. */
static inline __attribute__ ((always_inline)) void
motion_diff_row (gint32 * restrict d, const guint8 * restrict prev,
    const guint8 * restrict cur, guint w, gboolean deep)
{
  if (deep) {
    const guint16 *p = (const guint16 *) prev;
    const guint16 *c = (const guint16 *) cur;
    for (guint j = 0; j < w; j++)
      d[j] = (gint32) p[j] - (gint32) c[j];
  } else {
    for (guint j = 0; j < w; j++)
      d[j] = (gint32) prev[j] - (gint32) cur[j];
  }
}

/* Vertical blur of five difference rows, split into y >> 8 and y & 255 so
 * that the horizontal pass fits in 32 bits. Returns non-zero if any output
 * is non-zero. Up to 15 bits the sums fit in 32 bits; 16 bits needs 64. */
static inline __attribute__ ((always_inline)) gint32
motion_vblur_row (gint32 * restrict hi, gint32 * restrict lo,
    const gint32 * restrict d0, const gint32 * restrict d1,
    const gint32 * restrict d2, const gint32 * restrict d3,
    const gint32 * restrict d4, guint w, guint shift, gboolean wide)
{
  gint32 any = 0;

  if (wide) {
    const gint64 round = (gint64) 1 << (shift - 1);
    for (guint j = 0; j < w; j++) {
      gint64 acc = (gint64) VH_MOTION_TAP0 * (d0[j] + d4[j]) +
          (gint64) VH_MOTION_TAP1 * (d1[j] + d3[j]) +
          (gint64) VH_MOTION_TAP2 * d2[j];
      gint32 y = (gint32) ((acc + round) >> shift);
      hi[j] = y >> 8;
      lo[j] = y & 0xff;
      any |= y;
    }
  } else {
    const gint32 round = 1 << (shift - 1);
    for (guint j = 0; j < w; j++) {
      gint32 acc = VH_MOTION_TAP0 * (d0[j] + d4[j]) +
          VH_MOTION_TAP1 * (d1[j] + d3[j]) + VH_MOTION_TAP2 * d2[j];
      gint32 y = (acc + round) >> shift;
      hi[j] = y >> 8;
      lo[j] = y & 0xff;
      any |= y;
    }
  }
  return any;
}

/* Horizontal blur and sum of |x|, rounding like a 64-bit
 * (sum + 2^15) >> 16: floor ((256 A + B + 2^15) / 2^16) equals
 * (A + ((B + 2^15) >> 8)) >> 8. The row total wraps at 32 bits as
 * libvmaf's does. */
static inline __attribute__ ((always_inline)) guint32
motion_hblur_row_sad (const gint32 * restrict hi, const gint32 * restrict lo,
    guint w)
{
  guint32 sum = 0;

  for (guint j = 0; j < w; j++) {
    gint32 a = VH_MOTION_TAP0 * (hi[j] + hi[j + 4]) +
        VH_MOTION_TAP1 * (hi[j + 1] + hi[j + 3]) + VH_MOTION_TAP2 * hi[j + 2];
    gint32 b = VH_MOTION_TAP0 * (lo[j] + lo[j + 4]) +
        VH_MOTION_TAP1 * (lo[j + 1] + lo[j + 3]) + VH_MOTION_TAP2 * lo[j + 2];
    gint32 v = (a + ((b + 32768) >> 8)) >> 8;
    sum += (guint32) (v < 0 ? -v : v);
  }
  return sum;
}

static inline void
motion_pad_row (gint32 * p, guint w)
{
  /* p points at sample -2; mirror without repeating the edge sample. */
  p[1] = p[3];
  p[0] = p[4];
  p[w + 2] = p[w];
  p[w + 3] = p[w - 1];
}

/* @deep: 16-bit samples; @wide: 64-bit vertical sums (16 bits only). */
static inline __attribute__ ((always_inline)) guint64
motion_sad_impl (VhMotionState * s, const guint8 * prev, const guint8 * cur,
    gboolean deep, gboolean wide)
{
  const guint w = s->m.w, h = s->m.h;
  const gsize row_bytes = (gsize) w * s->m.bps;
  guint next_row = 0;
  guint64 sad = 0;

  for (guint i = 0; i < h; i++) {
    const gint32 *d[VH_MOTION_RING];
    guint last = MIN (i + 2, h - 1);

    /* Each difference row is computed once; row r lives in slot r % 5 and
     * is needed last by output row r + 2. */
    for (; next_row <= last; next_row++)
      motion_diff_row (s->ring + (gsize) (next_row % VH_MOTION_RING) * w,
          prev + next_row * row_bytes, cur + next_row * row_bytes, w, deep);
    for (guint k = 0; k < VH_MOTION_RING; k++) {
      guint r = motion_mirror ((gint) i - 2 + (gint) k, (gint) h);
      d[k] = s->ring + (gsize) (r % VH_MOTION_RING) * w;
    }
    if (!motion_vblur_row (s->hi + 2, s->lo + 2, d[0], d[1], d[2], d[3], d[4],
            w, s->m.bpc, wide))
      continue;                 /* a zero row adds nothing */
    motion_pad_row (s->hi, w);
    motion_pad_row (s->lo, w);
    sad += motion_hblur_row_sad (s->hi, s->lo, w);
  }
  return sad;
}

static inline __attribute__ ((always_inline)) guint64
motion_sad_dispatch (VhMotionState * s, const guint8 * prev,
    const guint8 * cur)
{
  if (s->m.bpc > 15)
    return motion_sad_impl (s, prev, cur, TRUE, TRUE);
  if (s->m.bpc > 8)
    return motion_sad_impl (s, prev, cur, TRUE, FALSE);
  return motion_sad_impl (s, prev, cur, FALSE, FALSE);
}

static guint64
motion_sad_c (gpointer s, const guint8 * prev, const guint8 * cur)
{
  return motion_sad_dispatch (s, prev, cur);
}


/* The 16-bit row kernels in plain C: the reference of the SIMD ones, and
 * their column tails. */
static void
motion_diff_row16_c (gint16 * d, const guint8 * prev, const guint8 * cur,
    guint w, gboolean deep)
{
  if (deep) {
    const guint16 *p = (const guint16 *) prev;
    const guint16 *c = (const guint16 *) cur;
    for (guint j = 0; j < w; j++)
      d[j] = (gint16) ((gint32) p[j] - (gint32) c[j]);
  } else {
    for (guint j = 0; j < w; j++)
      d[j] = (gint16) ((gint32) prev[j] - (gint32) cur[j]);
  }
}

static gint32
motion_vblur_row16_c (gint16 * hi, gint16 * lo, const gint16 * d0,
    const gint16 * d1, const gint16 * d2, const gint16 * d3,
    const gint16 * d4, guint w, guint shift)
{
  const gint32 round = 1 << (shift - 1);
  gint32 any = 0;

  for (guint j = 0; j < w; j++) {
    gint32 acc = VH_MOTION_TAP0 * (d0[j] + d4[j]) +
        VH_MOTION_TAP1 * (d1[j] + d3[j]) + VH_MOTION_TAP2 * d2[j];
    gint32 y = (acc + round) >> shift;
    hi[j] = (gint16) (y >> 8);
    lo[j] = (gint16) (y & 0xff);
    any |= y;
  }
  return any;
}

static guint32
motion_hblur_row_sad16_c (const gint16 * hi, const gint16 * lo, guint w)
{
  guint32 total = 0;

  for (guint j = 0; j < w; j++) {
    gint32 a = VH_MOTION_TAP0 * (hi[j] + hi[j + 4]) +
        VH_MOTION_TAP1 * (hi[j + 1] + hi[j + 3]) + VH_MOTION_TAP2 * hi[j + 2];
    gint32 b = VH_MOTION_TAP0 * (lo[j] + lo[j + 4]) +
        VH_MOTION_TAP1 * (lo[j + 1] + lo[j + 3]) + VH_MOTION_TAP2 * lo[j + 2];
    gint32 v = (a + ((b + 32768) >> 8)) >> 8;
    total += (guint32) (v < 0 ? -v : v);
  }
  return total;
}

const VhMotionKernels16 vh_motion_kernels16_c = {
  .diff_row = motion_diff_row16_c,
  .vblur_row = motion_vblur_row16_c,
  .hblur_row_sad = motion_hblur_row_sad16_c,
};

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define VH_MOTION_HAVE_AVX2 1
#define VH_MOTION_AVX2 __attribute__ ((target ("avx2")))
#include <immintrin.h>

static inline void
motion_pad_row16 (gint16 * p, guint w)
{
  p[1] = p[3];
  p[0] = p[4];
  p[w + 2] = p[w];
  p[w + 3] = p[w - 1];
}

/* The SAD of up to 12 bits through the 16-bit row kernels @k. */
static guint64
motion_sad16 (VhMotionState * s, const guint8 * prev, const guint8 * cur,
    const VhMotionKernels16 * k)
{
  const guint w = s->m.w, h = s->m.h;
  const gsize row_bytes = (gsize) w * s->m.bps;
  /* The 32-bit scratch is large enough for the 16-bit rows. */
  gint16 *ring = (gint16 *) s->ring;
  gint16 *hi = (gint16 *) s->hi;
  gint16 *lo = (gint16 *) s->lo;
  guint next_row = 0;
  guint64 sad = 0;

  for (guint i = 0; i < h; i++) {
    const gint16 *d[VH_MOTION_RING];
    guint last = MIN (i + 2, h - 1);

    for (; next_row <= last; next_row++)
      k->diff_row (ring + (gsize) (next_row % VH_MOTION_RING) * w,
          prev + next_row * row_bytes, cur + next_row * row_bytes, w,
          s->m.bps == 2);
    for (guint r = 0; r < VH_MOTION_RING; r++) {
      guint row = motion_mirror ((gint) i - 2 + (gint) r, (gint) h);
      d[r] = ring + (gsize) (row % VH_MOTION_RING) * w;
    }
    if (!k->vblur_row (hi + 2, lo + 2, d[0], d[1], d[2], d[3], d[4], w,
            s->m.bpc))
      continue;
    motion_pad_row16 (hi, w);
    motion_pad_row16 (lo, w);
    sad += k->hblur_row_sad (hi, lo, w);
  }
  return sad;
}


/* AVX2 for up to 12 bits: differences, tap pair sums and the split
 * blurred row all fit in 16-bit lanes, so each pair of taps is one
 * multiply-add into 32 bits. The column tails go to the C row kernels;
 * integer sums make the results identical to the C path. */

VH_MOTION_AVX2 static void
motion_diff_row16_avx2 (gint16 * restrict d, const guint8 * restrict prev,
    const guint8 * restrict cur, guint w, gboolean deep)
{
  guint j = 0;

  if (deep) {
    const guint16 *p = (const guint16 *) prev;
    const guint16 *c = (const guint16 *) cur;
    for (; j + 16 <= w; j += 16) {
      __m256i a = _mm256_loadu_si256 ((const __m256i *) (p + j));
      __m256i b = _mm256_loadu_si256 ((const __m256i *) (c + j));
      _mm256_storeu_si256 ((__m256i *) (d + j), _mm256_sub_epi16 (a, b));
    }
  } else {
    for (; j + 16 <= w; j += 16) {
      __m256i a = _mm256_cvtepu8_epi16 (_mm_loadu_si128 ((const __m128i *)
              (prev + j)));
      __m256i b = _mm256_cvtepu8_epi16 (_mm_loadu_si128 ((const __m128i *)
              (cur + j)));
      _mm256_storeu_si256 ((__m256i *) (d + j), _mm256_sub_epi16 (a, b));
    }
  }
  motion_diff_row16_c (d + j, prev + j * (deep ? 2 : 1), cur + j * (deep ? 2 :
          1), w - j, deep);
}

VH_MOTION_AVX2 static gint32
motion_vblur_row16_avx2 (gint16 * restrict hi, gint16 * restrict lo,
    const gint16 * restrict d0, const gint16 * restrict d1,
    const gint16 * restrict d2, const gint16 * restrict d3,
    const gint16 * restrict d4, guint w, guint shift)
{
  const gint32 round = 1 << (shift - 1);
  const __m256i taps01 = _mm256_set1_epi32 (VH_MOTION_PAIR (VH_MOTION_TAP0,
          VH_MOTION_TAP1));
  /* (centre, 1) x (tap2, round) adds the rounding for free. */
  const __m256i taps2r = _mm256_set1_epi32 (VH_MOTION_PAIR (VH_MOTION_TAP2,
          round));
  const __m256i one = _mm256_set1_epi16 (1);
  const __m256i mask = _mm256_set1_epi32 (0xff);
  const __m128i count = _mm_cvtsi32_si128 ((gint) shift);
  __m256i any = _mm256_setzero_si256 ();
  guint j = 0;

  for (; j + 16 <= w; j += 16) {
    __m256i s04 = _mm256_add_epi16 (
        _mm256_loadu_si256 ((const __m256i *) (d0 + j)),
        _mm256_loadu_si256 ((const __m256i *) (d4 + j)));
    __m256i s13 = _mm256_add_epi16 (
        _mm256_loadu_si256 ((const __m256i *) (d1 + j)),
        _mm256_loadu_si256 ((const __m256i *) (d3 + j)));
    __m256i c = _mm256_loadu_si256 ((const __m256i *) (d2 + j));
    __m256i acc_a = _mm256_add_epi32 (
        _mm256_madd_epi16 (_mm256_unpacklo_epi16 (s04, s13), taps01),
        _mm256_madd_epi16 (_mm256_unpacklo_epi16 (c, one), taps2r));
    __m256i acc_b = _mm256_add_epi32 (
        _mm256_madd_epi16 (_mm256_unpackhi_epi16 (s04, s13), taps01),
        _mm256_madd_epi16 (_mm256_unpackhi_epi16 (c, one), taps2r));
    __m256i ya = _mm256_sra_epi32 (acc_a, count);
    __m256i yb = _mm256_sra_epi32 (acc_b, count);

    any = _mm256_or_si256 (any, _mm256_or_si256 (ya, yb));
    /* Unpack and pack both work per 128-bit lane, so packing undoes the
     * interleave and the samples come out in order. */
    _mm256_storeu_si256 ((__m256i *) (hi + j),
        _mm256_packs_epi32 (_mm256_srai_epi32 (ya, 8),
            _mm256_srai_epi32 (yb, 8)));
    _mm256_storeu_si256 ((__m256i *) (lo + j),
        _mm256_packs_epi32 (_mm256_and_si256 (ya, mask),
            _mm256_and_si256 (yb, mask)));
  }
  return motion_vblur_row16_c (hi + j, lo + j, d0 + j, d1 + j, d2 + j,
      d3 + j, d4 + j, w - j, shift) | !_mm256_testz_si256 (any, any);
}

/* @hi and @lo start at sample -2. */
VH_MOTION_AVX2 static guint32
motion_hblur_row_sad16_avx2 (const gint16 * restrict hi,
    const gint16 * restrict lo, guint w)
{
  const __m256i taps01 = _mm256_set1_epi32 (VH_MOTION_PAIR (VH_MOTION_TAP0,
          VH_MOTION_TAP1));
  const __m256i taps2 = _mm256_set1_epi32 (VH_MOTION_PAIR (VH_MOTION_TAP2,
          0));
  /* (centre, 2) x (tap2, 2^14) adds the 2^15 rounding of the low part. */
  const __m256i taps2r = _mm256_set1_epi32 (VH_MOTION_PAIR (VH_MOTION_TAP2,
          1 << 14));
  const __m256i two = _mm256_set1_epi16 (2);
  __m256i sum = _mm256_setzero_si256 ();
  guint32 total;
  guint j = 0;

  for (; j + 16 <= w; j += 16) {
    const gint16 *h = hi + j, *l = lo + j;
    __m256i h04 = _mm256_add_epi16 (_mm256_loadu_si256 ((const __m256i *) h),
        _mm256_loadu_si256 ((const __m256i *) (h + 4)));
    __m256i h13 = _mm256_add_epi16 (
        _mm256_loadu_si256 ((const __m256i *) (h + 1)),
        _mm256_loadu_si256 ((const __m256i *) (h + 3)));
    __m256i hc = _mm256_loadu_si256 ((const __m256i *) (h + 2));
    __m256i l04 = _mm256_add_epi16 (_mm256_loadu_si256 ((const __m256i *) l),
        _mm256_loadu_si256 ((const __m256i *) (l + 4)));
    __m256i l13 = _mm256_add_epi16 (
        _mm256_loadu_si256 ((const __m256i *) (l + 1)),
        _mm256_loadu_si256 ((const __m256i *) (l + 3)));
    __m256i lc = _mm256_loadu_si256 ((const __m256i *) (l + 2));

    __m256i a0 = _mm256_add_epi32 (
        _mm256_madd_epi16 (_mm256_unpacklo_epi16 (h04, h13), taps01),
        _mm256_madd_epi16 (_mm256_unpacklo_epi16 (hc, two), taps2));
    __m256i a1 = _mm256_add_epi32 (
        _mm256_madd_epi16 (_mm256_unpackhi_epi16 (h04, h13), taps01),
        _mm256_madd_epi16 (_mm256_unpackhi_epi16 (hc, two), taps2));
    __m256i b0 = _mm256_add_epi32 (
        _mm256_madd_epi16 (_mm256_unpacklo_epi16 (l04, l13), taps01),
        _mm256_madd_epi16 (_mm256_unpacklo_epi16 (lc, two), taps2r));
    __m256i b1 = _mm256_add_epi32 (
        _mm256_madd_epi16 (_mm256_unpackhi_epi16 (l04, l13), taps01),
        _mm256_madd_epi16 (_mm256_unpackhi_epi16 (lc, two), taps2r));
    __m256i v0 = _mm256_srai_epi32 (_mm256_add_epi32 (a0,
            _mm256_srai_epi32 (b0, 8)), 8);
    __m256i v1 = _mm256_srai_epi32 (_mm256_add_epi32 (a1,
            _mm256_srai_epi32 (b1, 8)), 8);

    sum = _mm256_add_epi32 (sum, _mm256_add_epi32 (_mm256_abs_epi32 (v0),
            _mm256_abs_epi32 (v1)));
  }
  total = motion_hblur_row_sad16_c (hi + j, lo + j, w - j);
  /* The row total wraps at 32 bits whatever the order of the adds. */
  {
    __m128i s4 = _mm_add_epi32 (_mm256_castsi256_si128 (sum),
        _mm256_extracti128_si256 (sum, 1));
    s4 = _mm_add_epi32 (s4, _mm_shuffle_epi32 (s4, 0x4e));
    s4 = _mm_add_epi32 (s4, _mm_shuffle_epi32 (s4, 0xb1));
    total += (guint32) _mm_cvtsi128_si32 (s4);
  }
  return total;
}

static const VhMotionKernels16 kernels16_avx2 = {
  .diff_row = motion_diff_row16_avx2,
  .vblur_row = motion_vblur_row16_avx2,
  .hblur_row_sad = motion_hblur_row_sad16_avx2,
};

const VhMotionKernels16 *
vh_motion_kernels16_avx2 (void)
{
  return __builtin_cpu_supports ("avx2") ? &kernels16_avx2 : NULL;
}

VH_MOTION_AVX2 static guint64
motion_sad_avx2 (gpointer state, const guint8 * prev, const guint8 * cur)
{
  VhMotionState *s = state;

  /* Over 12 bits the 16-bit lanes could overflow: the plain code, built
   * for AVX2. */
  if (s->m.bpc > 12)
    return motion_sad_dispatch (s, prev, cur);
  return motion_sad16 (s, prev, cur, s->k16);
}
#else

const VhMotionKernels16 *
vh_motion_kernels16_avx2 (void)
{
  return NULL;
}
#endif

gboolean
vh_integer_motion_setup (VhIntegerMotion * m, const VhFeatureExtractor * fex,
    const VhPictureInfo * info, GError ** error)
{
  m->w = info->width;
  m->h = info->height;
  m->bpc = info->bpc;
  m->bps = info->bpc > 8 ? 2 : 1;
  if (m->bpc < 8 || m->bpc > 16) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "motion: unsupported bit depth %u", m->bpc);
    return FALSE;
  }

  m->force_zero = vh_feature_extractor_get_option (fex, "motion_force_zero");
  m->five_frame_window =
      vh_feature_extractor_get_option (fex, "motion_five_frame_window");
  m->moving_average =
      vh_feature_extractor_get_option (fex, "motion_moving_average");
  m->debug = vh_feature_extractor_get_option (fex, "debug");
  m->blend_factor = vh_feature_extractor_get_option (fex,
      "motion_blend_factor");
  m->blend_offset = vh_feature_extractor_get_option (fex,
      "motion_blend_offset");
  m->fps_weight = vh_feature_extractor_get_option (fex, "motion_fps_weight");
  m->max_val = vh_feature_extractor_get_option (fex, "motion_max_val");
  m->n_slots = m->five_frame_window ? 3 : 2;
  return TRUE;
}

guint
vh_integer_motion_min_idx (const VhIntegerMotion * m)
{
  return m->five_frame_window ? 2 : 1;
}

guint
vh_integer_motion_back (const VhIntegerMotion * m)
{
  return m->five_frame_window ? 2 : 1;
}

static gboolean
motion_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  VhMotionState *s = fex->priv;
  gsize luma_bytes;

  if (!vh_integer_motion_setup (&s->m, fex, info, error))
    return FALSE;

  luma_bytes = (gsize) s->m.w * s->m.h * s->m.bps;
  if (!s->m.force_zero) {
    for (guint i = 0; i < s->m.n_slots; i++)
      s->luma[i] = g_malloc (luma_bytes);
    s->ring = g_new (gint32, (gsize) VH_MOTION_RING * s->m.w);
    s->hi = g_new (gint32, s->m.w + 4);
    s->lo = g_new (gint32, s->m.w + 4);
  }

  s->sad = motion_sad_c;
#ifdef VH_MOTION_HAVE_AVX2
  if (vh_simd_use_avx2 (fex->cpu_mask)) {
    s->sad = motion_sad_avx2;
    s->k16 = vh_motion_kernels16_avx2 ();
    if (vh_simd_use_avx512 (fex->cpu_mask) && vh_motion_kernels16_avx512 ())
      s->k16 = vh_motion_kernels16_avx512 ();
  }
#endif
  return TRUE;
}

static void
motion_close (VhFeatureExtractor * fex)
{
  VhMotionState *s = fex->priv;

  for (guint i = 0; i < G_N_ELEMENTS (s->luma); i++)
    g_clear_pointer (&s->luma[i], g_free);
  g_clear_pointer (&s->ring, g_free);
  g_clear_pointer (&s->hi, g_free);
  g_clear_pointer (&s->lo, g_free);
}

static void
motion_store_luma (VhMotionState * s, const VhPicture * pic, guint8 * dst)
{
  const gsize row_bytes = (gsize) s->m.w * s->m.bps;
  const guint step = pic->step[0] ? pic->step[0] : 1;

  for (guint y = 0; y < s->m.h; y++) {
    const guint8 *src = vh_picture_row (pic, 0, y);
    guint8 *d = dst + y * row_bytes;

    if (step == 1) {
      memcpy (d, src, row_bytes);
    } else if (s->m.bps == 1) {
      for (guint x = 0; x < s->m.w; x++)
        d[x] = src[(gsize) x * step];
    } else {
      const guint16 *src16 = (const guint16 *) src;
      guint16 *d16 = (guint16 *) d;
      for (guint x = 0; x < s->m.w; x++)
        d16[x] = src16[(gsize) x * step];
    }
  }
}

static inline gdouble
motion_blend (const VhIntegerMotion * m, gdouble score)
{
  gdouble low = m->blend_offset < score ? m->blend_offset : score;

  return score * m->blend_factor + (1 - m->blend_factor) * low;
}

static inline gdouble
motion_clip (const VhIntegerMotion * m, gdouble v)
{
  return v < m->max_val ? v : m->max_val;
}

/* Emits motion2 and motion3 of frame @i; its neighbours' SADs are known. */
static gboolean
motion_finalize (VhIntegerMotion * m, VhFeatureExtractor * fex,
    VhFeatureCollector * fc, guint i, GError ** error)
{
  const guint min_idx = vh_integer_motion_min_idx (m);
  const guint stride = m->five_frame_window ? 2 : 1;
  gdouble motion2, motion3;

  if (i < min_idx) {
    motion2 = 0.0;
  } else if (i + 1 < m->n_seen) {
    gdouble next = m->sad_hist[(i + 1) % 4];
    gint lo_idx = (gint) i - (gint) (stride - 1);

    if (lo_idx >= (gint) min_idx) {
      gdouble before = m->sad_hist[lo_idx % 4];
      motion2 = before < next ? before : next;
    } else {
      motion2 = next;
    }
  } else {
    motion2 = m->sad_hist[i % 4];       /* last frame: no successor */
  }

  if (i < min_idx) {
    motion3 = m->stamp;
    m->prev_processed = m->stamp;
  } else {
    gdouble processed = motion_clip (m, motion_blend (m, motion2));
    motion3 = m->moving_average ?
        (processed + m->prev_processed) / 2.0 : processed;
    m->prev_processed = processed;
  }

  return vh_feature_extractor_append (fex, fc, "integer_motion2", m->base + i,
      motion2, error) &&
      vh_feature_extractor_append (fex, fc, "integer_motion3", m->base + i,
      motion3, error);
}

gboolean
vh_integer_motion_check_frame (VhIntegerMotion * m, const VhPicture * ref,
    guint frame, guint n_in, GError ** error)
{
  if (m->failed) {
    g_set_error (error, VH_ERROR, VH_ERROR_FAILED,
        "motion: an earlier frame failed; the stream cannot continue");
    return FALSE;
  }
  /* A sequence may start at any index (the engine restarts temporal
   * extractors after a seek); inside it, frames come in order. */
  if (n_in == 0)
    m->base = frame;
  if (frame < m->base || frame - m->base != n_in) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "motion needs frames in order: expected frame %u, got %u",
        m->base + n_in, frame);
    return FALSE;
  }
  if (ref->info.width != m->w || ref->info.height != m->h ||
      ref->info.bpc != m->bpc) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "motion: frame %u is %ux%u %u-bit, the stream is %ux%u %u-bit",
        frame, ref->info.width, ref->info.height, ref->info.bpc, m->w, m->h,
        m->bpc);
    return FALSE;
  }
  return TRUE;
}

gboolean
vh_integer_motion_push (VhIntegerMotion * m, VhFeatureExtractor * fex,
    VhFeatureCollector * fc, guint frame, guint64 sad, GError ** error)
{
  const guint index = frame - m->base;
  const guint min_idx = vh_integer_motion_min_idx (m);
  gdouble score = 0.0;

  if (!m->force_zero && index >= min_idx) {
    guint n_pixels = m->w * m->h;

    score = motion_clip (m, (gdouble) sad / 256. / n_pixels * m->fps_weight);
  }

  m->sad_hist[index % 4] = score;
  m->n_seen++;
  if (index == min_idx)
    m->stamp = motion_clip (m, motion_blend (m, score));

  if (!vh_feature_extractor_append (fex, fc,
          "VMAF_integer_feature_motion_sad_score", frame, score, error) ||
      (m->debug && !vh_feature_extractor_append (fex, fc, "integer_motion",
              frame, score, error)))
    goto fail;

  /* Every frame before this one is final once min_idx has been seen. */
  if (index >= min_idx) {
    for (; m->n_final < index; m->n_final++) {
      if (!motion_finalize (m, fex, fc, m->n_final, error))
        goto fail;
    }
  }
  return TRUE;

fail:
  m->failed = TRUE;
  return FALSE;
}

gboolean
vh_integer_motion_finish (VhIntegerMotion * m, VhFeatureExtractor * fex,
    VhFeatureCollector * fc, GError ** error)
{
  for (; m->n_final < m->n_seen; m->n_final++) {
    if (!motion_finalize (m, fex, fc, m->n_final, error)) {
      m->failed = TRUE;
      return FALSE;
    }
  }
  return TRUE;
}

static gboolean
motion_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint frame, VhFeatureCollector * fc,
    GError ** error)
{
  VhMotionState *s = fex->priv;
  VhIntegerMotion *m = &s->m;
  guint64 sad = 0;
  guint index;

  if (!vh_integer_motion_check_frame (m, ref, frame, m->n_seen, error))
    return FALSE;
  index = frame - m->base;

  if (!m->force_zero) {
    guint8 *cur = s->luma[index % m->n_slots];

    motion_store_luma (s, ref, cur);
    if (index >= vh_integer_motion_min_idx (m)) {
      const guint8 *prev =
          s->luma[(index - vh_integer_motion_back (m)) % m->n_slots];

      sad = s->sad (s, prev, cur);
    }
  }
  return vh_integer_motion_push (m, fex, fc, frame, sad, error);
}

static gboolean
motion_flush (VhFeatureExtractor * fex, VhFeatureCollector * fc,
    GError ** error)
{
  VhMotionState *s = fex->priv;

  return vh_integer_motion_finish (&s->m, fex, fc, error);
}

const VhFeatureExtractorClass vh_fex_integer_motion = {
  .name = "motion",
  .provides = vh_integer_motion_provides,
  .options = vh_integer_motion_options,
  .backend = VH_BACKEND_CPU,
  .mem_type = VH_MEMORY_HOST,
  .flags = VH_EXTRACTOR_FLAG_TEMPORAL | VH_EXTRACTOR_FLAG_LUMA_ONLY,
  .min_width = 3,
  .min_height = 3,
  .priv_size = sizeof (VhMotionState),
  /* One frame by default; the five-frame window finalises frames 0 and 1
   * only when frame 2 arrives. */
  .lookahead = 2,
  /* sad(i) reads frame i - 2 at most (five-frame window); motion2 and
   * motion3 of i read the sads of i - 1 and i - 2, and frames min_idx and
   * min_idx + 1 of a sequence are special: 4 frames before are enough. */
  .history = 4,
  .init = motion_init,
  .extract = motion_extract,
  .flush = motion_flush,
  .close = motion_close,
};
