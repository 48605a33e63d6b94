/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* The CPU scaler. The filters are made once per geometry in floating
 * point and kept as integers; resampling itself is integer only, so that
 * a GPU twin running the same filters gives the same samples. */

#include "scale.h"
#include "errors.h"

#include <math.h>
#include <string.h>

/* Leading and trailing taps whose kernel values add up to less than this
 * are left out, as ffmpeg does (its bicubic values are 6 times the
 * kernel's, so the bicubic limit is a sixth of it), so that the filters
 * have the width and the coefficients of ffmpeg's. */
#define NEGLIGIBLE_WEIGHT 0.002

#define H_COEFF_BITS 14
#define V_COEFF_BITS 12

struct _VhScaler
{
  VhScaleMethod method;
  VhPictureInfo src_info;
  VhPictureInfo dst_info;
  guint n_planes;
  /* [0] luma, [1] chroma; horizontal then vertical */
  VhScaleFilter filters[2][2];
  VhScaleShifts shifts;
  /* the horizontal pass of one plane: dst width x src height */
  gint32 *mid;
  /* the vertical sums of one output row */
  gint64 *acc;
};

static const struct
{
  const gchar *name;
  VhScaleMethod method;
} method_names[] = {
  {"none", VH_SCALE_NONE},
  {"bicubic", VH_SCALE_BICUBIC},
  {"bilinear", VH_SCALE_BILINEAR},
  {"lanczos", VH_SCALE_LANCZOS},
};

gboolean
vh_scale_method_from_string (const gchar * name, VhScaleMethod * method)
{
  for (guint i = 0; name && i < G_N_ELEMENTS (method_names); i++) {
    if (g_ascii_strcasecmp (name, method_names[i].name) == 0) {
      *method = method_names[i].method;
      return TRUE;
    }
  }
  return FALSE;
}

const gchar *
vh_scale_method_to_string (VhScaleMethod method)
{
  for (guint i = 0; i < G_N_ELEMENTS (method_names); i++) {
    if (method_names[i].method == method)
      return method_names[i].name;
  }
  return "unknown";
}

void
vh_scale_shifts_for_bpc (guint bpc, VhScaleShifts * shifts)
{
  /* The intermediate keeps 15 bits of each sample (19 for 16-bit ones,
   * whose 16 bits would not fit with any headroom). */
  guint mid_bits = bpc > 14 ? 19 : 15;

  shifts->h_shift = bpc + H_COEFF_BITS - mid_bits;
  shifts->mid_max = (1 << mid_bits) - 1;
  shifts->v_shift = mid_bits + V_COEFF_BITS - bpc;
  shifts->out_max = (1 << bpc) - 1;
}

/* Half the width of the kernel, in output samples. */
static guint
method_radius (VhScaleMethod method)
{
  switch (method) {
    case VH_SCALE_BILINEAR:
      return 1;
    case VH_SCALE_LANCZOS:
      return 3;
    case VH_SCALE_BICUBIC:
    default:
      return 2;
  }
}

/* The kernel at distance @d (in 1 / 2^30 samples) in units of @one, in
 * 64-bit fixed point as ffmpeg computes it (so that the rounding of the
 * coefficients below falls the same way). Bicubic is the
 * Mitchell-Netravali family with B = 0 and C = 0.6 (ffmpeg's default),
 * C kept in 24 bits and the powers of @d truncated to 30 bits, its value
 * 6 times the kernel's; lanczos is evaluated in floating point and
 * truncated. */
static gint64
method_weight (VhScaleMethod method, gint64 d, gint64 one)
{
  switch (method) {
    case VH_SCALE_BILINEAR:
      return MAX ((1LL << 30) - d, 0) * (one >> 30);
    case VH_SCALE_LANCZOS:{
      gdouble x = d / (gdouble) (1 << 30);

      if (x > 3.0)
        return 0;
      /* (in ffmpeg's order of operations: its rounding) */
      return (gint64) ((x == 0.0 ? 1.0 : sin (x * G_PI) * sin (x * G_PI /
                  3.0) / (x * x * G_PI * G_PI / 3.0)) * one);
    }
    case VH_SCALE_BICUBIC:
    default:{
      const gint64 b = 0, c = (gint64) (0.6 * (1 << 24));
      gint64 dd, ddd, v;

      if (d >= 1LL << 31)
        return 0;
      dd = (d * d) >> 30;
      ddd = (dd * d) >> 30;
      if (d < 1LL << 30)
        v = (12 * (1LL << 24) - 9 * b - 6 * c) * ddd +
            (-18 * (1LL << 24) + 12 * b + 6 * c) * dd +
            (6 * (1LL << 24) - 2 * b) * (1LL << 30);
      else
        v = (-b - 6 * c) * ddd + (6 * b + 30 * c) * dd +
            (-12 * b - 48 * c) * d + (8 * b + 24 * c) * (1LL << 30);
      return v / ((1LL << 54) / one);
    }
  }
}

static void
filter_clear (VhScaleFilter * f)
{
  g_clear_pointer (&f->first, g_free);
  g_clear_pointer (&f->coeff, g_free);
}

/* Rounds @w (n weights of any scale) to integers of @bits bits: their
 * sum rounded to a unit of 1 << @bits first, each weight divided by it and
 * rounded half away from zero, each rounding error carried to the next
 * tap, as ffmpeg does (the integers then sum to 1 << @bits). */
static void
quantize_row (const gint64 * w, guint n, guint bits, gint16 * out)
{
  gint64 one = 1LL << bits, sum = 0, error = 0;
  gint total = 0;
  guint largest = 0;

  for (guint j = 0; j < n; j++)
    sum += w[j];
  sum = (sum + one / 2) / one;
  if (sum == 0)
    sum = 1;
  for (guint j = 0; j < n; j++) {
    gint64 v = w[j] + error;
    gint64 q = v >= 0 ? (v + sum / 2) / sum : (v - sum / 2) / sum;

    error = v - q * sum;
    out[j] = (gint16) q;
    total += (gint) q;
    if (ABS (out[j]) > ABS (out[largest]))
      largest = j;
  }
  /* (a sum of 2^40 or so units rounds to within far less than one) */
  out[largest] += (gint16) ((1 << bits) - total);
}

/* Taps that read past an edge moved onto the edge sample, the window
 * inside the input, as ffmpeg's filters are (the same samples with
 * clamped reads; in the 8-bit vertical pass, which rounds tap by tap,
 * fewer taps). Pictures narrower than the filter keep clamped reads. */
static void
fold_edges (gint64 * row, guint taps, gint32 * first, guint n_in)
{
  if (taps > n_in)
    return;
  while (*first < 0) {
    row[1] += row[0];
    memmove (row, row + 1, (taps - 1) * sizeof (gint64));
    row[taps - 1] = 0;
    (*first)++;
  }
  while (*first + (gint32) taps > (gint32) n_in) {
    row[taps - 2] += row[taps - 1];
    memmove (row + 1, row, (taps - 1) * sizeof (gint64));
    row[0] = 0;
    (*first)--;
  }
}

/* Samples are centred: output sample i sits at (i + 0.5) * n_in / n_out
 * - 0.5 in the input, with the ratio in 16.16 fixed point as ffmpeg
 * keeps it (and its chroma at the centre of its luma samples, ffmpeg's
 * default for 4:2:0). */
static void
filter_build (VhScaleFilter * f, VhScaleMethod method, guint n_in,
    guint n_out, guint bits)
{
  gint64 inc = (((gint64) n_in << 16) + n_out / 2) / n_out;
  guint radius = method_radius (method);
  guint taps, kept = 1;
  /* the weights' unit: 2^54, less 2^k when downscaling by 2^k or more
   * (at most 2^8), as ffmpeg keeps it */
  guint ratio_log2 = n_in >= 2 * n_out ? g_bit_storage (n_in / n_out) - 1 : 0;
  gint64 one = 1LL << (54 - MIN (ratio_log2, 8));
  gdouble negligible = NEGLIGIBLE_WEIGHT * one;
  gint64 *w;
  gint32 *first;

  if (n_in <= n_out)
    taps = 2 * radius + 1;
  else
    taps = 1 + (2 * radius * n_in + n_out - 1) / n_out;
  /* no wider than the input less 2, as ffmpeg's */
  taps = (guint) MAX (MIN ((gint64) taps, (gint64) n_in - 2), 1);
  w = g_new0 (gint64, (gsize) n_out * taps);
  first = g_new (gint32, n_out);

  for (guint i = 0; i < n_out; i++) {
    /* the centre in units of 1 / 2^17 input samples */
    gint64 centre = (2 * (gint64) i + 1) * inc - (1 << 16);
    gint64 start = centre - (gint64) (taps - 2) * (1 << 16);
    /* Rounded towards zero, as ffmpeg's C division does: near the left
     * or top edge the window then starts at or right of its ideal place,
     * and the taps it misses are left out (the rest renormalised), not
     * folded onto the edge sample. Rounding down instead made the second
     * output row and column differ from ffmpeg's by up to 8 on noise. */
    gint64 x0 = start / (1 << 17);

    first[i] = (gint32) x0;
    for (guint j = 0; j < taps; j++) {
      gint64 pos = (x0 + (gint64) j) * (1 << 17);
      /* the distance in 1 / 2^30, in output samples when downscaling */
      gint64 d = ABS (pos - centre) << 13;

      if (n_in > n_out)
        d = d * n_out / n_in;
      w[(gsize) i * taps + j] = method_weight (method, d, one);
    }
  }

  /* Negligible leading taps out, row by row (from the last, keeping the
   * first taps in order); negligible trailing taps out where every row
   * allows it. */
  for (gint i = (gint) n_out - 1; i >= 0; i--) {
    gint64 *row = w + (gsize) i * taps;
    gint64 cut = 0;
    guint needed = taps;

    for (guint j = 0; j < taps; j++) {
      cut += ABS (row[0]);
      if ((gdouble) cut > negligible)
        break;
      if (i < (gint) n_out - 1 && first[i] >= first[i + 1])
        break;
      memmove (row, row + 1, (taps - 1) * sizeof (gint64));
      row[taps - 1] = 0;
      first[i]++;
    }
    cut = 0;
    for (guint j = taps - 1; j > 0; j--) {
      cut += ABS (row[j]);
      if ((gdouble) cut > negligible)
        break;
      needed--;
    }
    kept = MAX (kept, needed);
  }

  f->n_in = n_in;
  f->n_out = n_out;
  f->rounded_from = n_out;
  f->taps = kept;
  f->bits = bits;
  f->first = first;
  f->coeff = g_new (gint16, (gsize) n_out * kept);
  for (guint i = 0; i < n_out; i++) {
    gint64 *row = w + (gsize) i * taps;

    if (kept > 1)
      fold_edges (row, kept, &first[i], n_in);
    quantize_row (row, kept, bits, f->coeff + (gsize) i * kept);
  }
  g_free (w);
}

gint32
vh_scale_8bit_bias (guint taps)
{
  /* ffmpeg pads its vertical filters to an even number of taps on x86 */
  guint even = taps + taps % 2;

  return (gint32) (64 + 8 * (even - 1)) >> 4;
}

VhScaler *
vh_scaler_new (VhScaleMethod method, const VhPictureInfo * src,
    const VhPictureInfo * dst, GError ** error)
{
  VhScaler *s;
  guint ssx, ssy;

  if (method == VH_SCALE_NONE || method_radius (method) == 0 ||
      (method != VH_SCALE_BICUBIC && method != VH_SCALE_BILINEAR &&
          method != VH_SCALE_LANCZOS)) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "no scaler: the method must be bicubic, bilinear or lanczos");
    return NULL;
  }
  if (src->pix_fmt != dst->pix_fmt || src->bpc != dst->bpc) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "the scaler changes the size only: %s %u-bit cannot become "
        "%s %u-bit", vh_pix_fmt_to_string (src->pix_fmt), src->bpc,
        vh_pix_fmt_to_string (dst->pix_fmt), dst->bpc);
    return NULL;
  }
  if (src->width == 0 || src->height == 0 || dst->width == 0 ||
      dst->height == 0 || src->bpc < 8 || src->bpc > 16) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "the scaler takes 8- to 16-bit pictures of at least 1x1, not "
        "%ux%u %u-bit to %ux%u", src->width, src->height, src->bpc,
        dst->width, dst->height);
    return NULL;
  }

  s = g_new0 (VhScaler, 1);
  s->method = method;
  s->src_info = *src;
  s->dst_info = *dst;
  s->n_planes = vh_pix_fmt_n_planes (src->pix_fmt);
  vh_scale_shifts_for_bpc (src->bpc, &s->shifts);
  vh_pix_fmt_subsampling (src->pix_fmt, &ssx, &ssy);
  filter_build (&s->filters[0][0], method, src->width, dst->width,
      H_COEFF_BITS);
  filter_build (&s->filters[0][1], method, src->height, dst->height,
      V_COEFF_BITS);
  if (s->n_planes > 1) {
    filter_build (&s->filters[1][0], method, (src->width + (1 << ssx) - 1)
        >> ssx, (dst->width + (1 << ssx) - 1) >> ssx, H_COEFF_BITS);
    filter_build (&s->filters[1][1], method, (src->height + (1 << ssy) - 1)
        >> ssy, (dst->height + (1 << ssy) - 1) >> ssy, V_COEFF_BITS);
  }
  /* 8-bit: ffmpeg's x86 code leaves the rows it draws with the last two
   * luma rows to its C code, which rounds each sum once (a chroma row is
   * drawn with luma row cy << ssy). */
  if (src->bpc == 8) {
    guint last_two = dst->height > 2 ? dst->height - 2 : 0;

    s->filters[0][1].rounded_from = last_two;
    if (s->n_planes > 1)
      s->filters[1][1].rounded_from = (last_two + (1 << ssy) - 1) >> ssy;
  }
  /* the luma's intermediate is the largest */
  s->mid = g_new (gint32, (gsize) dst->width * src->height);
  s->acc = g_new (gint64, dst->width);
  return s;
}

const VhScaleFilter *
vh_scaler_get_filter (const VhScaler * scaler, guint plane,
    gboolean vertical)
{
  g_return_val_if_fail (plane < scaler->n_planes, NULL);
  return &scaler->filters[plane > 0][vertical ? 1 : 0];
}

const VhPictureInfo *
vh_scaler_get_output_info (const VhScaler * scaler)
{
  return &scaler->dst_info;
}

/* Whether every tap of @f reads inside the input (no clamping needed). */
static gboolean
filter_inside (const VhScaleFilter * f)
{
  for (guint i = 0; i < f->n_out; i++) {
    if (f->first[i] < 0 || f->first[i] + (gint64) f->taps > f->n_in)
      return FALSE;
  }
  return TRUE;
}

#define DEFINE_HORIZONTAL_PASS(name, type)                                   \
static void                                                                  \
name (const VhScaleFilter * h, const VhScaleShifts * sh,                     \
    const VhPicture * src, guint p, guint n_rows, gint32 * mid)              \
{                                                                            \
  const guint step = src->step[p] ? src->step[p] : 1;                        \
  const gint32 last_in = (gint32) h->n_in - 1;                               \
  const gboolean inside = filter_inside (h);                                 \
                                                                             \
  for (guint y = 0; y < n_rows; y++) {                                       \
    const type *row = vh_picture_row (src, p, y);                            \
    gint32 *out = mid + (gsize) y * h->n_out;                                \
                                                                             \
    for (guint x = 0; x < h->n_out; x++) {                                   \
      const gint16 *c = h->coeff + (gsize) x * h->taps;                      \
      gint64 sum = 0;                                                        \
                                                                             \
      if (inside) {                                                          \
        const type *in = row + (gsize) h->first[x] * step;                   \
        for (guint j = 0; j < h->taps; j++)                                  \
          sum += (gint64) c[j] * in[(gsize) j * step];                       \
      } else {                                                               \
        for (guint j = 0; j < h->taps; j++) {                                \
          gint32 at = CLAMP (h->first[x] + (gint32) j, 0, last_in);          \
          sum += (gint64) c[j] * row[(gsize) at * step];                     \
        }                                                                    \
      }                                                                      \
      out[x] = (gint32) MIN (sum >> sh->h_shift, (gint64) sh->mid_max);      \
    }                                                                        \
  }                                                                          \
}

DEFINE_HORIZONTAL_PASS (horizontal_pass_u8, guint8)
DEFINE_HORIZONTAL_PASS (horizontal_pass_u16, guint16)

/* Output row by output row, tap by tap over the whole row (the sums are
 * those of the kernel's per-sample loop: integer additions). */
static void
vertical_pass (VhScaler * s, const VhScaleFilter * h,
    const VhScaleFilter * v, VhPicture * dst, guint p)
{
  const VhScaleShifts *sh = &s->shifts;
  const gboolean wide = s->src_info.bpc > 8;
  const gint32 last_in = (gint32) v->n_in - 1;
  const gint32 bias = vh_scale_8bit_bias (v->taps);
  const guint width = h->n_out;
  gint64 *acc = s->acc;

  for (guint y = 0; y < v->n_out; y++) {
    const gint16 *c = v->coeff + (gsize) y * v->taps;
    const gboolean rounded = wide || y >= v->rounded_from;

    for (guint x = 0; x < width; x++)
      acc[x] = rounded ? (gint64) 1 << (sh->v_shift - 1) : bias;
    for (guint j = 0; j < v->taps; j++) {
      gint32 at = CLAMP (v->first[y] + (gint32) j, 0, last_in);
      const gint32 *row = s->mid + (gsize) at * width;
      const gint64 cj = c[j];

      if (rounded) {
        for (guint x = 0; x < width; x++)
          acc[x] += cj * row[x];
      } else {
        /* each product's top 16 bits (vh_scale_8bit_bias()) */
        for (guint x = 0; x < width; x++)
          acc[x] += (c[j] * row[x]) >> 16;
      }
    }
    if (wide) {
      guint16 *out = vh_picture_row (dst, p, y);
      for (guint x = 0; x < width; x++)
        out[x] = (guint16) CLAMP (acc[x] >> sh->v_shift, 0,
            (gint64) sh->out_max);
    } else {
      guint8 *out = vh_picture_row (dst, p, y);
      for (guint x = 0; x < width; x++)
        out[x] = (guint8) CLAMP (acc[x] >> (rounded ? sh->v_shift : 3), 0,
            255);
    }
  }
}

static void
scale_plane (VhScaler * s, const VhPicture * src, VhPicture * dst, guint p)
{
  const VhScaleFilter *h = vh_scaler_get_filter (s, p, FALSE);
  const VhScaleFilter *v = vh_scaler_get_filter (s, p, TRUE);

  if (s->src_info.bpc > 8)
    horizontal_pass_u16 (h, &s->shifts, src, p, v->n_in, s->mid);
  else
    horizontal_pass_u8 (h, &s->shifts, src, p, v->n_in, s->mid);
  vertical_pass (s, h, v, dst, p);
}

VhPicture *
vh_scaler_scale (VhScaler * scaler, const VhPicture * src, GError ** error)
{
  VhPicture *dst;

  if (src->mem_type != VH_MEMORY_HOST ||
      !vh_picture_info_equal (&src->info, &scaler->src_info)) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "the scaler was made for %ux%u %s %u-bit host pictures, not a "
        "%ux%u %s %u-bit %s picture",
        scaler->src_info.width, scaler->src_info.height,
        vh_pix_fmt_to_string (scaler->src_info.pix_fmt),
        scaler->src_info.bpc, src->info.width, src->info.height,
        vh_pix_fmt_to_string (src->info.pix_fmt), src->info.bpc,
        src->mem_type == VH_MEMORY_HOST ? "host" : "device");
    return NULL;
  }
  dst = vh_picture_new (&scaler->dst_info);
  /* a picture carrying its luma only gives one */
  if (vh_picture_is_luma_only (src))
    vh_picture_drop_chroma (dst);
  for (guint p = 0; p < dst->n_planes; p++)
    scale_plane (scaler, src, dst, p);
  return dst;
}

void
vh_scaler_free (VhScaler * scaler)
{
  if (!scaler)
    return;
  for (guint i = 0; i < 2; i++) {
    filter_clear (&scaler->filters[i][0]);
    filter_clear (&scaler->filters[i][1]);
  }
  g_free (scaler->mid);
  g_free (scaler->acc);
  g_free (scaler);
}
