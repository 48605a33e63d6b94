/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* speed_chroma and speed_temporal through the extractor interface (so
 * that the valgrind run covers them), against libvmaf's logs of the
 * extended parity set, with the plain and the SIMD covariance sums; and
 * the sizes and options they refuse. */

#include "errors.h"
#include "extractor-check.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

typedef struct
{
  const gchar *clip;            /* 4:2:0 clip of tests/data/extended */
  guint width, height, bpc, n_frames;
  const gchar *log;
  const gchar *extractor;
  const gchar *const *opts;
} SpeedCase;

static const gchar *const ref_diff[] = { "speed_use_ref_diff", "true", NULL };
static const gchar *const lanczos[] = { "speed_prescale", "2.1",
  "speed_prescale_method", "lanczos4", "speed_kernelscale", "1.5",
  "speed_weight_var_mode", "4", NULL
};
static const gchar *const bilinear[] = { "speed_prescale", "2",
  "speed_prescale_method", "bilinear", "speed_weight_var_mode", "5",
  "speed_nn_floor", "0.1", "speed_sigma_nn", "0.19", "speed_max_val", "45",
  NULL
};

static const SpeedCase cases[] = {
  {"t8_420_176x168", 176, 168, 8, 3, "t8_420_176x168_default.json",
      "speed_chroma", NULL},
  {"t8_420_176x168", 176, 168, 8, 3, "t8_420_176x168_default.json",
      "speed_temporal", ref_diff},
  {"t8_420_176x168", 176, 168, 8, 3, "t8_420_176x168.json",
      "speed_chroma", bilinear},
  {"t16_420_164x160", 164, 160, 16, 3, "t16_420_164x160.json",
      "speed_temporal", NULL},
  {"t16_420_164x160", 164, 160, 16, 3, "t16_420_164x160.json",
      "speed_chroma", lanczos},
};

static gchar *
data_path (const gchar * name)
{
  return g_build_filename (g_getenv ("VH_EXTENDED_DIR"), name, NULL);
}

/* Frame @i's value of @metric in libvmaf's log. */
static gdouble
log_value (JsonNode * root, guint i, const gchar * metric)
{
  JsonArray *frames = json_object_get_array_member (json_node_get_object
      (root), "frames");
  JsonObject *m = json_object_get_object_member (json_array_get_object_element
      (frames, i), "metrics");

  if (!json_object_has_member (m, metric))
    g_error ("libvmaf's log has no %s for frame %u", metric, i);
  return json_object_get_double_member (m, metric);
}

static void
check_case (const SpeedCase * c, gboolean portable)
{
  g_autofree gchar *log = data_path (c->log);
  g_autofree gchar *ref = g_strconcat (c->clip, "_ref.yuv", NULL);
  g_autofree gchar *dis = g_strconcat (c->clip, "_dis.yuv", NULL);
  VhGoldenPair pair = { (gchar *) c->clip, data_path (ref), data_path (dis),
    c->width, c->height, c->bpc, c->n_frames
  };
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();
  g_autoptr (VhFeatureExtractor) fex = NULL;
  VhPictureInfo info;
  gdouble worst = 0.0;

  g_assert_true (json_parser_load_from_file (parser, log, &error));
  g_assert_no_error (error);
  g_assert_true (vh_picture_info_init (&info, VH_PIX_FMT_YUV420, c->bpc,
          c->width, c->height, NULL));
  fex = vh_check_extractor_new_for (c->extractor, c->opts, &info, portable);

  for (guint i = 0; i < c->n_frames; i++) {
    g_autoptr (VhPicture) r = vh_golden_read_frame (&pair, TRUE, i, &error);
    g_autoptr (VhPicture) d = vh_golden_read_frame (&pair, FALSE, i, &error);

    g_assert_no_error (error);
    g_assert_true (vh_feature_extractor_extract (fex, r, d, i, fc, &error));
    g_assert_no_error (error);
  }
  for (guint p = 0; fex->klass->provides[p]; p++) {
    g_autofree gchar *name = vh_feature_extractor_output_name (fex,
        fex->klass->provides[p]);

    for (guint i = 0; i < c->n_frames; i++) {
      gdouble got, want = log_value (json_parser_get_root (parser), i, name);

      g_assert_true (vh_feature_collector_get (fc, name, i, &got));
      if (!(fabs (got - want) <= 1e-4))
        g_error ("%s frame %u (%s sums): got %.6f, libvmaf %.6f", name, i,
            portable ? "plain" : "SIMD", got, want);
      worst = MAX (worst, fabs (got - want));
    }
  }
  g_print ("# %s on %s (%s sums): max |ours - libvmaf| %.3g\n",
      c->extractor, c->log, portable ? "plain" : "SIMD", worst);
  g_free (pair.ref_path);
  g_free (pair.dist_path);
}

static void
test_logs (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    check_case (&cases[i], TRUE);
    check_case (&cases[i], FALSE);
  }
}

static void
test_refusals (void)
{
  static const gchar *const bad_scale[] = { "speed_kernelscale", "0.7",
    NULL
  };
  g_autoptr (GError) error = NULL;

  /* 4:2:0 chroma of 158x158 is 79x79: one sample short of a block. */
  g_assert_false (vh_check_init_size ("speed_chroma", NULL, 8, 158, 158,
          &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_TOO_SMALL);
  g_clear_error (&error);
  g_assert_true (vh_check_init_size ("speed_chroma", NULL, 8, 160, 160,
          &error));
  g_assert_no_error (error);
  g_assert_false (vh_check_init_size ("speed_temporal", NULL, 10, 79, 200,
          &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_TOO_SMALL);
  g_clear_error (&error);
  g_assert_false (vh_check_init_size ("speed_temporal", bad_scale, 8, 320,
          320, &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "speed_kernelscale 0.7"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/speed/libvmaf-logs", test_logs);
  g_test_add_func ("/speed/refusals", test_refusals);
  return g_test_run ();
}
