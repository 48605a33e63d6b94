/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The HIP twins the vmaf_v1.0.16 models run besides cambi (speed_chroma,
 * speed_temporal, integer adm and motion) without a GPU: their host code
 * (hip-speed-*.c, hip-integer-adm*.c, hip-integer-motion.c; and the
 * float_motion, float_vif, float_adm, psnr_hvs and ssimulacra2 twins) runs as built
 * with the HIP layer emulated (hip-fex-emu.c), their kernels' source runs
 * on the host (kernel-emu.h, *-kernels-emu.cpp), and every value must
 * equal the CPU twins' exactly (the host's log2 is glibc's, so the one
 * GPU difference of SpEED, its log2, is not in play). Synthetic clips of
 * 8 to 12 bits in three chroma layouts, semi-planar chroma, packed 4:2:2
 * (YUYV: every plane interleaved), odd sizes;
 * the v1.0.16 settings of each (ADM's CSF mode 2 at both display heights,
 * motion's five-frame window and moving average), other options, and for
 * SpEED every resampler and weighting mode and the three covariance
 * orders (cpu_mask forbidding AVX-512, or all SIMD; those this CPU can
 * take).
 * The GPU's own rounding is the GPU test's (hip-features-gpu). */

#include "feature-collector.h"
#include "feature-extractor.h"
#include "picture.h"
#include "vh-test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

extern const VhFeatureExtractorClass vh_fex_speed_chroma;
extern const VhFeatureExtractorClass vh_fex_speed_temporal;
extern const VhFeatureExtractorClass vh_hip_fex_speed_chroma;
extern const VhFeatureExtractorClass vh_hip_fex_speed_temporal;
extern const VhFeatureExtractorClass vh_fex_integer_adm;
extern const VhFeatureExtractorClass vh_hip_fex_integer_adm;
extern const VhFeatureExtractorClass vh_fex_integer_motion;
extern const VhFeatureExtractorClass vh_hip_fex_integer_motion;
extern const VhFeatureExtractorClass vh_fex_float_motion;
extern const VhFeatureExtractorClass vh_hip_fex_float_motion;
extern const VhFeatureExtractorClass vh_fex_float_vif;
extern const VhFeatureExtractorClass vh_hip_fex_float_vif;
extern const VhFeatureExtractorClass vh_fex_float_adm;
extern const VhFeatureExtractorClass vh_hip_fex_float_adm;
extern const VhFeatureExtractorClass vh_fex_psnr_hvs;
extern const VhFeatureExtractorClass vh_hip_fex_psnr_hvs;
extern const VhFeatureExtractorClass vh_fex_ssimulacra2;
extern const VhFeatureExtractorClass vh_hip_fex_ssimulacra2;

/* Frames per clip: speed_temporal scores frames 1 and 2; motion's
 * five-frame window needs more (cases say). */
#define N_FRAMES 3
#define MAX_FRAMES 7

typedef struct
{
  VhPixFmt fmt;
  guint bpc, w, h;
  gboolean semi;                /* interleaved chroma (4:2:0, 8 bits) */
  gboolean packed;              /* YUYV (4:2:2, 8 bits) */
} ClipSpec;

typedef struct
{
  const VhFeatureExtractorClass *cpu, *hip;
  guint clips;                  /* bit i: clips[i] */
  guint n_frames;               /* 0: N_FRAMES */
  const gchar *opts[15];
} Case;

/* A moving smooth pattern with noise; @dist adds more. */
static void
fill (VhPicture * pic, guint t, gboolean dist)
{
  const guint maxv = (1u << pic->info.bpc) - 1;
  GRand *rand = g_rand_new_with_seed (t * 31 + (dist ? 1 : 0));

  for (guint p = 0; p < pic->n_planes; p++) {
    for (guint y = 0; y < pic->height[p]; y++) {
      guint8 *row = vh_picture_row (pic, p, y);
      for (guint x = 0; x < pic->width[p]; x++) {
        gdouble v = 0.5 + 0.35 * sin ((x + 3.0 * t) * 0.05 + p) *
            cos ((y + 2.0 * t) * 0.03);
        gint64 s;
        v += (g_rand_double (rand) - 0.5) * (dist ? 0.2 : 0.05);
        s = CLAMP ((gint64) llround (v * maxv), 0, (gint64) maxv);
        if (pic->info.bpc > 8)
          ((guint16 *) row)[(gsize) x * pic->step[p]] = (guint16) s;
        else
          row[(gsize) x * pic->step[p]] = (guint8) s;
      }
    }
  }
  g_rand_free (rand);
}

/* 4:2:0 with U and V interleaved in one plane. */
static VhPicture *
new_semi_planar (const VhPictureInfo * info)
{
  const guint cw = (info->width + 1) / 2, ch = (info->height + 1) / 2;
  gsize stride[3] = { info->width + 3, 2 * cw + 5, 2 * cw + 5 };
  const guint step[3] = { 1, 2, 2 };
  guint8 *mem = g_malloc0 (stride[0] * info->height + stride[1] * ch);
  gpointer data[3] = { mem, mem + stride[0] * info->height,
    mem + stride[0] * info->height + 1
  };

  return vh_picture_new_wrapped (info, data, stride, step, VH_MEMORY_HOST,
      mem, g_free);
}

/* 4:2:2 packed as YUYV: luma every 2 bytes, U and V every 4. */
static VhPicture *
new_packed (const VhPictureInfo * info)
{
  const gsize row = 2 * (gsize) info->width + 8;
  gsize stride[3] = { row, row, row };
  const guint step[3] = { 2, 4, 4 };
  guint8 *mem = g_malloc0 (row * info->height);
  gpointer data[3] = { mem, mem + 1, mem + 3 };

  return vh_picture_new_wrapped (info, data, stride, step, VH_MEMORY_HOST,
      mem, g_free);
}

/* @pic's samples as a picture in "device" memory (the emulation's). */
static VhPicture *
as_device (VhPicture * pic)
{
  return vh_picture_new_wrapped (&pic->info, pic->data, pic->stride,
      pic->step, VH_MEMORY_HIP_DEVICE, vh_picture_ref (pic),
      (GDestroyNotify) vh_picture_unref);
}

static VhFeatureExtractor *
make (const VhFeatureExtractorClass * klass, const gchar * const *opts)
{
  VhFeatureExtractor *fex = vh_feature_extractor_new (klass);

  for (guint i = 0; opts[i]; i += 2) {
    g_autoptr (GError) error = NULL;
    if (!vh_feature_extractor_set_option (fex, opts[i], opts[i + 1], &error))
      g_error ("%s=%s: %s", opts[i], opts[i + 1], error->message);
  }
  return fex;
}

static void
run_case (const ClipSpec * spec, const Case * c, guint cpu_mask)
{
  VhPictureInfo info;
  VhFeatureExtractor *cpu = make (c->cpu, c->opts);
  VhFeatureExtractor *hip = make (c->hip, c->opts);
  VhFeatureCollector *fc_cpu = vh_feature_collector_new ();
  VhFeatureCollector *fc_hip = vh_feature_collector_new ();
  g_autoptr (GError) cpu_err = NULL;
  g_autoptr (GError) hip_err = NULL;
  g_autofree gchar *opts = g_strjoinv (" ", (gchar **) c->opts);
  g_autofree gchar *what = g_strdup_printf ("%s %s on %ux%u %s %u-bit%s",
      c->cpu->name, opts, spec->w, spec->h, vh_pix_fmt_to_string (spec->fmt),
      spec->bpc, spec->semi ? " semi-planar" : spec->packed ? " packed" : "");
  gboolean ok_cpu, ok_hip;
  guint n_values = 0, n_nonzero = 0;
  const guint n_frames = c->n_frames ? c->n_frames : N_FRAMES;

  vh_picture_info_init (&info, spec->fmt, spec->bpc, spec->w, spec->h, NULL);
  cpu->cpu_mask = hip->cpu_mask = cpu_mask;
  ok_cpu = vh_feature_extractor_init (cpu, &info, &cpu_err);
  ok_hip = vh_feature_extractor_init (hip, &info, &hip_err);
  if (ok_cpu != ok_hip) {
    VH_TEST_CHECK (FALSE, "%s: CPU twin %s, HIP twin %s", what,
        ok_cpu ? "sets up" : cpu_err->message,
        ok_hip ? "sets up" : hip_err->message);
    goto out;
  }
  if (!ok_cpu)
    goto out;                   /* refused alike (too small) */

  for (guint t = 0; t < n_frames; t++) {
    g_autoptr (GError) error = NULL;
    VhPicture *pics[2];
    for (guint s = 0; s < 2; s++) {
      pics[s] = spec->semi ? new_semi_planar (&info) :
          spec->packed ? new_packed (&info) : vh_picture_new (&info);
      fill (pics[s], t, s == 1);
    }
    g_autoptr (VhPicture) dref = as_device (pics[0]);
    g_autoptr (VhPicture) ddis = as_device (pics[1]);
    if (!vh_feature_extractor_extract (cpu, pics[0], pics[1], t, fc_cpu,
            &error) ||
        !vh_feature_extractor_extract (hip, dref, ddis, t, fc_hip, &error))
      g_error ("%s: %s", what, error->message);
    vh_picture_unref (pics[0]);
    vh_picture_unref (pics[1]);
  }
  vh_feature_extractor_flush (cpu, fc_cpu, NULL);
  vh_feature_extractor_flush (hip, fc_hip, NULL);

  for (guint j = 0; j < vh_feature_collector_n_features (fc_cpu); j++) {
    const gchar *name = vh_feature_collector_feature_name (fc_cpu, j);
    for (guint t = 0; t < n_frames; t++) {
      gdouble a, b;
      if (!vh_feature_collector_get (fc_cpu, name, t, &a))
        continue;
      n_values++;
      n_nonzero += a != 0;
      VH_TEST_CHECK (vh_feature_collector_get (fc_hip, name, t, &b) &&
          a == b, "%s: %s of frame %u: CPU %.17g, HIP %.17g", what, name, t,
          a, b);
    }
  }
  printf ("# %s: %u values, %u not 0, equal\n", what, n_values, n_nonzero);

out:
  vh_feature_extractor_free (cpu);
  vh_feature_extractor_free (hip);
  vh_feature_collector_free (fc_cpu);
  vh_feature_collector_free (fc_hip);
}

/* The clips the cases pick from (a bit each in Case.clips). */
static const ClipSpec clips[] = {
  {VH_PIX_FMT_YUV420, 8, 704, 400, FALSE},
  {VH_PIX_FMT_YUV420, 8, 675, 353, TRUE},
  {VH_PIX_FMT_YUV444, 10, 353, 241, FALSE},
  {VH_PIX_FMT_YUV422, 12, 363, 337, FALSE},
  /* Room for 5x5 blocks after prescaling by 0.5. */
  {VH_PIX_FMT_YUV444, 8, 720, 480, FALSE},
  /* Small ones for ADM and motion (many blocks, many barriers). */
  {VH_PIX_FMT_YUV420, 8, 161, 97, FALSE},
  {VH_PIX_FMT_YUV422, 12, 197, 131, FALSE},
  {VH_PIX_FMT_YUV422, 8, 402, 333, FALSE, TRUE},
  /* SSIMULACRA 2's edges: the smallest frame (two scales, the second
   * 4x4, inside one tile and one chunk), and a wide, short one (two
   * scales; rows of many chunks, columns shorter than a chunk). */
  {VH_PIX_FMT_YUV420, 8, 8, 8, FALSE},
  {VH_PIX_FMT_YUV444, 8, 1000, 9, FALSE},
};

/* Each option setting on one clip or a few (the emulation is slow). */
static const Case cases[] = {
  {&vh_fex_speed_chroma, &vh_hip_fex_speed_chroma, 0x8f, 0, {NULL}},
  /* vmaf_v1.0.16_3d0h, then _2160 (prescaled) */
  {&vh_fex_speed_chroma, &vh_hip_fex_speed_chroma, 0x1, 0,
        {"speed_kernelscale", "1.0", "speed_nn_floor", "0.1",
          "speed_sigma_nn", "0.19", "speed_weight_var_mode", "5",
        "speed_max_val", "45.0", NULL}},
  {&vh_fex_speed_chroma, &vh_hip_fex_speed_chroma, 0x10, 0,
        {"speed_nn_floor", "0.1", "speed_sigma_nn", "0.19",
          "speed_weight_var_mode", "5", "speed_prescale", "0.5",
        "speed_prescale_method", "bilinear", NULL}},
  {&vh_fex_speed_chroma, &vh_hip_fex_speed_chroma, 0x4, 0,
        {"speed_prescale", "1.5", "speed_prescale_method", "bicubic",
        "speed_weight_var_mode", "3", NULL}},
  {&vh_fex_speed_chroma, &vh_hip_fex_speed_chroma, 0x1, 0,
        {"speed_prescale", "0.8", "speed_prescale_method", "lanczos4",
        "speed_kernelscale", "0.5", "speed_weight_var_mode", "4", NULL}},
  {&vh_fex_speed_chroma, &vh_hip_fex_speed_chroma, 0x8, 0,
        {"speed_prescale", "1.2", "speed_prescale_method", "nearest",
        "speed_weight_var_mode", "6", NULL}},
  {&vh_fex_speed_chroma, &vh_hip_fex_speed_chroma, 0x2, 0,
        {"speed_kernelscale", "1.5", "speed_weight_var_mode", "1",
        "speed_max_val", "1", NULL}},
  {&vh_fex_speed_chroma, &vh_hip_fex_speed_chroma, 0x4, 0,
        {"speed_kernelscale", "0.711111", "speed_weight_var_mode", "2",
        NULL}},
  {&vh_fex_speed_temporal, &vh_hip_fex_speed_temporal, 0x9, 0, {NULL}},
  {&vh_fex_speed_temporal, &vh_hip_fex_speed_temporal, 0x84, 0,
        {"speed_use_ref_diff", "1", "speed_kernelscale", "1.5", NULL}},
  {&vh_fex_speed_temporal, &vh_hip_fex_speed_temporal, 0x1, 0,
        {"speed_prescale", "0.6", "speed_prescale_method", "bilinear",
        "speed_sigma_nn", "0.5", "speed_nn_floor", "0.2", NULL}},
  {&vh_fex_integer_adm, &vh_hip_fex_integer_adm, 0x60, 2, {NULL}},
  /* vmaf_v1.0.16_3d0h, _2160, _1d5h_2160 */
  {&vh_fex_integer_adm, &vh_hip_fex_integer_adm, 0x20, 2,
        {"adm_dlm_weight", "0.7", "adm_enhn_gain_limit", "1.0",
          "adm_noise_weight", "0.02", "adm_norm_view_dist", "3.0",
          "adm_ref_display_height", "1080", "adm_min_val", "0.5",
        "adm_csf_mode", "2", NULL}},
  {&vh_fex_integer_adm, &vh_hip_fex_integer_adm, 0x40, 2,
        {"adm_dlm_weight", "0.7", "adm_enhn_gain_limit", "1.0",
          "adm_noise_weight", "0.02", "adm_norm_view_dist", "3.0",
          "adm_ref_display_height", "2160", "adm_min_val", "0.5",
        "adm_csf_mode", "2", NULL}},
  {&vh_fex_integer_adm, &vh_hip_fex_integer_adm, 0x20, 2,
        {"adm_dlm_weight", "0.7", "adm_enhn_gain_limit", "1.0",
          "adm_noise_weight", "0.02", "adm_norm_view_dist", "1.5",
          "adm_ref_display_height", "2160", "adm_min_val", "0.5",
        "adm_csf_mode", "2", NULL}},
  {&vh_fex_integer_adm, &vh_hip_fex_integer_adm, 0x40, 2,
        {"adm_csf_mode", "1", "adm_csf_scale", "1.2", "adm_csf_diag_scale",
        "0.8", "debug", "1", NULL}},
  {&vh_fex_integer_adm, &vh_hip_fex_integer_adm, 0x20, 2,
        {"adm_csf_mode", "3", "adm_skip_scale0", "1", NULL}},
  {&vh_fex_integer_motion, &vh_hip_fex_integer_motion, 0x60, MAX_FRAMES,
        {NULL}},
  /* vmaf_v1.0.16_hfr_* */
  {&vh_fex_integer_motion, &vh_hip_fex_integer_motion, 0x60, MAX_FRAMES,
        {"motion_max_val", "18.0", "motion_five_frame_window", "1",
        "motion_moving_average", "1", NULL}},
  {&vh_fex_integer_motion, &vh_hip_fex_integer_motion, 0x20, MAX_FRAMES,
        {"motion_max_val", "18.0", "motion_five_frame_window", "1",
        "debug", "1", NULL}},
  /* The float features and psnr_hvs (vmaf_float_v0.6.1 and others). */
  {&vh_fex_float_motion, &vh_hip_fex_float_motion, 0x62, MAX_FRAMES,
        {NULL}},
  {&vh_fex_float_motion, &vh_hip_fex_float_motion, 0x60, MAX_FRAMES,
        {"motion_add_uv", "1", "motion_add_scale1", "1", "debug", "1",
        NULL}},
  {&vh_fex_float_motion, &vh_hip_fex_float_motion, 0x20, 4,
        {"motion_filter_size", "3", "motion_blend_factor", "0.5",
        "motion_force_zero", "0", NULL}},
  {&vh_fex_float_vif, &vh_hip_fex_float_vif, 0x62, 2, {NULL}},
  {&vh_fex_float_vif, &vh_hip_fex_float_vif, 0x40, 2,
        {"vif_kernelscale", "0.5", "vif_skip_scale0", "1", "debug", "1",
        NULL}},
  {&vh_fex_float_vif, &vh_hip_fex_float_vif, 0x20, 2,
        {"vif_prescale", "1.5", "vif_prescale_method", "bicubic", NULL}},
  {&vh_fex_float_vif, &vh_hip_fex_float_vif, 0x20, 2,
        {"vif_prescale", "0.8", "vif_prescale_method", "lanczos4", NULL}},
  {&vh_fex_float_adm, &vh_hip_fex_float_adm, 0x62, 2, {NULL}},
  {&vh_fex_float_adm, &vh_hip_fex_float_adm, 0x40, 2,
        {"adm_csf_mode", "2", "adm_p_norm", "2.5", "adm_enhn_gain_limit",
        "1.2", "debug", "1", NULL}},
  {&vh_fex_float_adm, &vh_hip_fex_float_adm, 0x20, 2,
        {"adm_bypass_cm", "1", "adm_skip_scale0", "1", NULL}},
  {&vh_fex_psnr_hvs, &vh_hip_fex_psnr_hvs, 0x62, 2, {NULL}},
  /* SSIMULACRA 2: 4:2:0, 4:2:2 at 12 bits, 4:4:4 at 10, other matrices,
   * and the distorted input's own. */
  {&vh_fex_ssimulacra2, &vh_hip_fex_ssimulacra2, 0x60, 2, {NULL}},
  {&vh_fex_ssimulacra2, &vh_hip_fex_ssimulacra2, 0x04, 1,
        {"matrix", "bt2020", "range", "full", NULL}},
  {&vh_fex_ssimulacra2, &vh_hip_fex_ssimulacra2, 0x80, 1,
        {"matrix", "bt601", NULL}},
  /* each input its own colorimetry */
  {&vh_fex_ssimulacra2, &vh_hip_fex_ssimulacra2, 0x60, 1,
        {"matrix", "bt709", "range", "full", "dist_matrix", "bt601",
        "dist_range", "limited", NULL}},
  {&vh_fex_ssimulacra2, &vh_hip_fex_ssimulacra2, 0x300, 2, {NULL}},
};

/* Each covariance order this CPU can take. */
typedef struct
{
  guint cpu_mask;
  const gchar *name;            /* the instructions left out, if any */
  const gchar *path;
} Order;

static const Order orders[] = {
  {0, NULL, "all-simd"}, {VH_CPU_FLAG_AVX512, "no AVX-512", "no-avx512"},
  {VH_CPU_MASK_PORTABLE, "no SIMD", "no-simd"},
};

static gchar *
order_name (gconstpointer row, guint index)
{
  return g_strdup (((const Order *) row)->path);
}

/* Every case on its clips with this CPU's instructions; with another
 * covariance order SpEED's default options on the first clip. */
static void
test_order (const Order * order)
{
  const gboolean other = order->name != NULL;

  if (other)
    printf ("# with %s\n", order->name);
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++) {
    for (guint k = 0; k < (other ? 1 : G_N_ELEMENTS (clips)); k++) {
      if ((other && (cases[c].opts[0] ||
                  !g_str_has_prefix (cases[c].cpu->name, "speed"))) ||
          !(cases[c].clips & (1u << k)))
        continue;
      run_case (&clips[k], &cases[c], order->cpu_mask);
    }
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  VH_TEST_ADD_CASES ("/twins-emulated", orders, order_name, test_order);
  return g_test_run ();
}
