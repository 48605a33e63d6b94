/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The self-test's frames, made in code so that it needs no file: odd
 * sizes (every twin's edge handling), 8 and 10 bits, 4:2:0 and 4:4:4, a
 * pattern that moves (motion, SpEED's temporal part) with noise (VIF,
 * ADM), luma bands one code apart in the top third (CAMBI), and a
 * distorted version with more noise and a shifted level. */

#include "hip-self-test.h"

#include <math.h>

static const struct
{
  VhPixFmt fmt;
  guint bpc, width, height, frames;
} clip_specs[] = {
  /* chroma of 161x122: SpEED's chroma needs planes of 80 and more */
  {VH_PIX_FMT_YUV420, 8, 321, 243, 4},
  {VH_PIX_FMT_YUV420, 10, 259, 231, 4},
  {VH_PIX_FMT_YUV444, 8, 229, 217, 3},
  {VH_PIX_FMT_YUV444, 10, 233, 219, 3},
};

static void
put_sample (guint8 * row, guint x, guint step, guint bpc, gint64 v)
{
  const gint64 maxv = ((gint64) 1 << bpc) - 1;

  v = CLAMP (v, 0, maxv);
  if (bpc > 8)
    ((guint16 *) row)[(gsize) x * step] = (guint16) v;
  else
    row[(gsize) x * step] = (guint8) v;
}

static void
fill_frame (VhPicture * pic, guint seed, guint t, gboolean dist)
{
  const guint bpc = pic->info.bpc;
  const gdouble maxv = (1u << bpc) - 1;
  GRand *rand = g_rand_new_with_seed (seed * 7919 + t * 31 + (dist ? 1 : 0));

  for (guint p = 0; p < pic->n_planes; p++) {
    for (guint y = 0; y < pic->height[p]; y++) {
      guint8 *row = vh_picture_row (pic, p, y);
      for (guint x = 0; x < pic->width[p]; x++) {
        gdouble v;
        if (p == 0 && y < pic->height[0] / 3) {
          /* bands of one to three 10-bit codes, moving right */
          guint band = (x + y / 2 + 3 * t + seed) / 12;
          gdouble v10 = 200 + band * (1 + (y / 40 + seed) % 3);
          if (dist && g_rand_int_range (rand, 0, 50) == 0)
            v10 += 1;
          v = MIN (v10, 1023.0) / 1023.0;
        } else {
          v = 0.5 + 0.35 * sin ((x + 3.0 * t) * 0.11 + p) *
              cos ((y + 2.0 * t) * 0.07 + seed);
          v += (g_rand_double (rand) - 0.5) * (dist ? 0.12 : 0.02);
          if (dist)
            v += 0.01;
        }
        put_sample (row, x, pic->step[p], bpc, llround (v * maxv));
      }
    }
  }
  g_rand_free (rand);
}

void
vh_hip_self_test_clip_free (VhHipSelfTestClip * clip)
{
  g_free (clip->label);
  g_ptr_array_unref (clip->refs);
  g_ptr_array_unref (clip->dists);
  g_free (clip);
}

GPtrArray *
vh_hip_self_test_clips (void)
{
  GPtrArray *clips = g_ptr_array_new_with_free_func ((GDestroyNotify)
      vh_hip_self_test_clip_free);

  for (guint i = 0; i < G_N_ELEMENTS (clip_specs); i++) {
    VhHipSelfTestClip *clip = g_new0 (VhHipSelfTestClip, 1);
    VhPictureInfo info;

    if (!vh_picture_info_init (&info, clip_specs[i].fmt, clip_specs[i].bpc,
            clip_specs[i].width, clip_specs[i].height, NULL))
      g_assert_not_reached ();
    clip->label = g_strdup_printf ("%ux%u %s %u-bit", info.width,
        info.height, vh_pix_fmt_to_string (info.pix_fmt), info.bpc);
    clip->refs = g_ptr_array_new_with_free_func ((GDestroyNotify)
        vh_picture_unref);
    clip->dists = g_ptr_array_new_with_free_func ((GDestroyNotify)
        vh_picture_unref);
    for (guint t = 0; t < clip_specs[i].frames; t++) {
      VhPicture *ref = vh_picture_new (&info);
      VhPicture *dist = vh_picture_new (&info);
      fill_frame (ref, i, t, FALSE);
      fill_frame (dist, i, t, TRUE);
      g_ptr_array_add (clip->refs, ref);
      g_ptr_array_add (clip->dists, dist);
    }
    g_ptr_array_add (clips, clip);
  }
  return clips;
}
