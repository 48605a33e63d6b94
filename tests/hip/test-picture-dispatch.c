/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The engine's one dispatch point for picture memory, without a GPU: a
 * stand-in "device" (host memory marked HIP_DEVICE) and transfer functions
 * that count their calls. CPU extractors must never see device pictures,
 * HIP extractors never host ones; each picture moves at most once however
 * many extractors and lanes want it; results equal an all-host run; and
 * with no transfer installed the error says why. */

#include "context.h"
#include "errors.h"
#include "picture-transfer.h"
#include "vh-test.h"

#include <string.h>

#define N_FRAMES 12

static gint n_downloads, n_uploads;
static gint upload_planes;      /* planes the last upload carried */

static VhPicture *
copy_picture (const VhPicture * pic, VhMemoryType mem_type)
{
  VhPicture *out = vh_picture_new (&pic->info);
  gsize bps = vh_picture_bytes_per_sample (pic);

  for (guint p = 0; p < pic->n_planes; p++)
    for (guint y = 0; y < pic->height[p]; y++)
      memcpy (vh_picture_row (out, p, y), vh_picture_row (pic, p, y),
          pic->width[p] * bps);
  out->mem_type = mem_type;
  return out;
}

static VhPicture *
fake_download (const VhPicture * pic, gpointer data, GError ** error)
{
  g_assert_cmpint (pic->mem_type, ==, VH_MEMORY_HIP_DEVICE);
  g_assert_cmpstr (data, ==, "fake device");
  g_atomic_int_inc (&n_downloads);
  return copy_picture (pic, VH_MEMORY_HOST);
}

static VhPicture *
fake_upload (const VhPicture * pic, guint n_planes, gpointer data,
    GError ** error)
{
  VhPicture *out = copy_picture (pic, VH_MEMORY_HIP_DEVICE);

  g_assert_cmpint (pic->mem_type, ==, VH_MEMORY_HOST);
  g_assert_cmpuint (n_planes, >=, 1);
  g_assert_cmpuint (n_planes, <=, pic->n_planes);
  g_atomic_int_inc (&n_uploads);
  g_atomic_int_set (&upload_planes, n_planes);
  /* The planes left out are not there, as in the HIP layer's upload. */
  for (guint p = n_planes; p < out->n_planes; p++)
    out->data[p] = NULL;
  return out;
}

static const VhPictureTransferFuncs fake_funcs = {
  fake_download, fake_upload,
};

/* Sum of absolute luma differences; each class checks the memory it gets */
static gdouble
luma_sad (const VhPicture * ref, const VhPicture * dist)
{
  gdouble sad = 0;

  for (guint y = 0; y < ref->height[0]; y++) {
    const guint8 *a = vh_picture_row (ref, 0, y);
    const guint8 *b = vh_picture_row (dist, 0, y);
    for (guint x = 0; x < ref->width[0]; x++)
      sad += ABS ((gint) a[x] - (gint) b[x]);
  }
  return sad;
}

#define DEFINE_SAD_CLASS(sym, nm, out, be, mem, fl)                     \
static const gchar *sym##_provides[] = { out, NULL };                   \
static gboolean                                                         \
sym##_extract (VhFeatureExtractor * fex, const VhPicture * ref,         \
    const VhPicture * dist, guint index, VhFeatureCollector * fc,       \
    GError ** error)                                                    \
{                                                                       \
  g_assert_cmpint (ref->mem_type, ==, mem);                             \
  g_assert_cmpint (dist->mem_type, ==, mem);                            \
  return vh_feature_extractor_append (fex, fc, out, index,              \
      luma_sad (ref, dist), error);                                     \
}                                                                       \
static const VhFeatureExtractorClass sym##_class = {                    \
  .name = nm, .provides = sym##_provides, .backend = be,                \
  .mem_type = mem, .flags = fl, .min_width = 1, .min_height = 1,        \
  .extract = sym##_extract,                                             \
};

DEFINE_SAD_CLASS (host, "dispatch_host", "dispatch_host_sad",
    VH_BACKEND_CPU, VH_MEMORY_HOST, 0)
DEFINE_SAD_CLASS (temporal, "dispatch_temporal", "dispatch_temporal_sad",
    VH_BACKEND_CPU, VH_MEMORY_HOST, VH_EXTRACTOR_FLAG_TEMPORAL)
DEFINE_SAD_CLASS (device, "dispatch_device", "dispatch_device_sad",
    VH_BACKEND_HIP, VH_MEMORY_HIP_DEVICE, 0)
DEFINE_SAD_CLASS (luma, "dispatch_luma", "dispatch_luma_sad",
    VH_BACKEND_HIP, VH_MEMORY_HIP_DEVICE, VH_EXTRACTOR_FLAG_LUMA_ONLY)
DEFINE_SAD_CLASS (luma_temporal, "dispatch_luma_temporal",
    "dispatch_luma_temporal_sad", VH_BACKEND_HIP, VH_MEMORY_HIP_DEVICE,
    VH_EXTRACTOR_FLAG_LUMA_ONLY | VH_EXTRACTOR_FLAG_TEMPORAL)

static const gchar *outputs[] = { "dispatch_host_sad",
  "dispatch_temporal_sad", "dispatch_device_sad", "psnr_y", "psnr_cb", NULL
};

/* The built-in classes and the fakes above, for the contexts here. */
static VhExtractorSet *
dispatch_set (void)
{
  static VhExtractorSet *set;

  if (g_once_init_enter (&set)) {
    VhExtractorSet *s = vh_extractor_set_new_builtin ();
    vh_extractor_set_add (s, &host_class);
    vh_extractor_set_add (s, &temporal_class);
    vh_extractor_set_add (s, &device_class);
    vh_extractor_set_add (s, &luma_class);
    vh_extractor_set_add (s, &luma_temporal_class);
    g_once_init_leave (&set, s);
  }
  return set;
}

static VhPicture *
make_picture (guint seed, VhMemoryType mem_type)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (seed);
  VhPicture *pic = vh_test_noise_picture (VH_PIX_FMT_YUV420, 8, 37, 23, rand);

  pic->mem_type = mem_type;
  return pic;
}

/* Scores N_FRAMES pairs given in @mem_type memory; fills @values
 * [frame][output]. Returns FALSE with @error on failure. */
static gboolean
score (VhMemoryType mem_type, VhPictureTransfer * transfer,
    gdouble values[N_FRAMES][5], GError ** error)
{
  VhContextConfig cfg = { 0 };
  VhContext *ctx;
  VhPictureInfo info;
  gboolean ok = TRUE;

  cfg.n_threads = 3;
  cfg.backends = VH_BACKEND_CPU | VH_BACKEND_HIP;
  cfg.transfer = transfer;
  cfg.extractors = dispatch_set ();
  ctx = vh_context_new (&cfg);
  g_assert_true (vh_context_add_feature (ctx, "dispatch_host", NULL, NULL));
  g_assert_true (vh_context_add_feature (ctx, "dispatch_temporal", NULL,
          NULL));
  g_assert_true (vh_context_add_feature (ctx, "dispatch_device", NULL,
          NULL));
  g_assert_true (vh_context_add_feature (ctx, "psnr", NULL, NULL));
  vh_picture_info_init (&info, VH_PIX_FMT_YUV420, 8, 37, 23, NULL);
  g_assert_true (vh_context_start (ctx, &info, NULL));
  for (guint i = 0; ok && i < N_FRAMES; i++) {
    g_autoptr (VhPicture) ref = make_picture (2 * i, mem_type);
    g_autoptr (VhPicture) dist = make_picture (2 * i + 1, mem_type);
    ok = vh_context_submit (ctx, ref, dist, NULL, error);
  }
  if (ok)
    ok = vh_context_finish (ctx, error);
  for (guint i = 0; ok && i < N_FRAMES; i++)
    for (guint o = 0; outputs[o]; o++)
      g_assert_true (vh_feature_collector_get (vh_context_get_collector (ctx),
              outputs[o], i, &values[i][o]));
  vh_context_free (ctx);
  return ok;
}

static void
test_no_transfer (void)
{
  gdouble values[N_FRAMES][5];
  g_autoptr (GError) error = NULL;

  g_assert_false (score (VH_MEMORY_HIP_DEVICE, NULL, values, &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_BACKEND);
  g_assert_nonnull (strstr (error->message, "no HIP device"));
  g_test_message ("%s", error->message);
}

static void
test_dispatch (void)
{
  gdouble host[N_FRAMES][5], dev[N_FRAMES][5];
  GError *error = NULL;
  VhPictureTransfer *transfer = vh_picture_transfer_new (&fake_funcs,
      (gpointer) "fake device", (gpointer) "fake device", NULL);

  /* host input: only the HIP extractor's pictures move, once each */
  n_downloads = n_uploads = 0;
  g_assert_true (score (VH_MEMORY_HOST, transfer, host, &error));
  g_assert_no_error (error);
  g_assert_cmpint (n_uploads, ==, 2 * N_FRAMES);
  g_assert_cmpint (n_downloads, ==, 0);

  /* device input: three CPU extractors in two lanes share one download */
  n_downloads = n_uploads = 0;
  g_assert_true (score (VH_MEMORY_HIP_DEVICE, transfer, dev, &error));
  g_assert_no_error (error);
  g_assert_cmpint (n_downloads, ==, 2 * N_FRAMES);
  g_assert_cmpint (n_uploads, ==, 0);

  for (guint i = 0; i < N_FRAMES; i++) {
    g_assert_cmpfloat (host[i][0], >, 0);
    for (guint o = 0; outputs[o]; o++)
      g_assert_cmpfloat (host[i][o], ==, dev[i][o]);
    g_assert_cmpfloat (host[i][0], ==, host[i][1]);
    g_assert_cmpfloat (host[i][0], ==, host[i][2]);
  }
  vh_picture_transfer_unref (transfer);
}

/* Scores N_FRAMES host pairs with @features (NULL-terminated); returns the
 * planes the uploads carried and each frame's value of @output. */
static gint
score_uploads (const gchar * const *features, const gchar * output,
    gdouble values[N_FRAMES])
{
  VhPictureTransfer *transfer = vh_picture_transfer_new (&fake_funcs,
      (gpointer) "fake device", (gpointer) "fake device", NULL);
  VhContextConfig cfg = { 0 };
  VhPictureInfo info;
  VhContext *ctx;
  GError *error = NULL;

  cfg.n_threads = 2;
  cfg.backends = VH_BACKEND_CPU | VH_BACKEND_HIP;
  cfg.transfer = transfer;
  cfg.extractors = dispatch_set ();
  ctx = vh_context_new (&cfg);
  for (guint f = 0; features[f]; f++)
    g_assert_true (vh_context_add_feature (ctx, features[f], NULL, NULL));
  vh_picture_info_init (&info, VH_PIX_FMT_YUV420, 8, 37, 23, NULL);
  g_assert_true (vh_context_start (ctx, &info, NULL));
  n_uploads = upload_planes = 0;
  for (guint i = 0; i < N_FRAMES; i++) {
    g_autoptr (VhPicture) ref = make_picture (2 * i, VH_MEMORY_HOST);
    g_autoptr (VhPicture) dist = make_picture (2 * i + 1, VH_MEMORY_HOST);
    g_assert_true (vh_context_submit (ctx, ref, dist, NULL, &error));
  }
  g_assert_true (vh_context_finish (ctx, &error));
  g_assert_no_error (error);
  g_assert_cmpint (n_uploads, ==, 2 * N_FRAMES);
  for (guint i = 0; i < N_FRAMES; i++)
    g_assert_true (vh_feature_collector_get (vh_context_get_collector (ctx),
            output, i, &values[i]));
  vh_context_free (ctx);
  vh_picture_transfer_unref (transfer);
  return upload_planes;
}

/* Frames go to the device without chroma only when every extractor there
 * reads the luma alone; the values are the same. */
static void
test_luma_only (void)
{
  const gchar *luma[] = { "dispatch_luma", "dispatch_luma_temporal",
    "dispatch_host", NULL
  };
  const gchar *mixed[] = { "dispatch_luma", "dispatch_device", NULL };
  gdouble a[N_FRAMES], b[N_FRAMES];
  g_autoptr (VhPicture) pic = make_picture (3, VH_MEMORY_HOST);
  VhPictureTransfer *transfer;
  GError *error = NULL;

  g_assert_cmpint (score_uploads (luma, "dispatch_luma_sad", a), ==, 1);
  g_assert_cmpint (score_uploads (mixed, "dispatch_luma_sad", b), ==, 3);
  for (guint i = 0; i < N_FRAMES; i++) {
    g_assert_cmpfloat (a[i], >, 0);
    g_assert_cmpfloat (a[i], ==, b[i]);
  }

  /* A copy without chroma is not taken for a reader of every plane. */
  transfer = vh_picture_transfer_new (&fake_funcs, (gpointer) "fake device",
      (gpointer) "fake device", NULL);
  g_assert_nonnull (vh_picture_get_planes_in_memory (pic,
          VH_MEMORY_HIP_DEVICE, 1, transfer, &error));
  g_assert_no_error (error);
  g_assert_null (vh_picture_get_in_memory (pic, VH_MEMORY_HIP_DEVICE,
          transfer, &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_BACKEND);
  g_assert_nonnull (strstr (error->message, "without its chroma"));
  g_clear_error (&error);
  vh_picture_transfer_unref (transfer);
}

static gint notified;

static void
count_notify (gpointer data)
{
  notified++;
}

static void
test_get_in_memory (void)
{
  g_autoptr (VhPicture) pic = make_picture (7, VH_MEMORY_HOST);
  const VhPicture *a, *b;
  GError *error = NULL;
  VhPictureTransfer *transfer, *other;

  notified = 0;
  transfer = vh_picture_transfer_new (&fake_funcs, (gpointer) "fake device",
      (gpointer) "fake device", count_notify);
  other = vh_picture_transfer_new (&fake_funcs, (gpointer) "other device",
      (gpointer) "other device", NULL);
  g_assert_true (vh_picture_transfer_get_device (transfer) ==
      (gpointer) "fake device");
  g_assert_true (vh_picture_get_in_memory (pic, VH_MEMORY_HOST, transfer,
          &error) == pic);
  n_uploads = 0;
  a = vh_picture_get_in_memory (pic, VH_MEMORY_HIP_DEVICE, transfer, &error);
  b = vh_picture_get_in_memory (pic, VH_MEMORY_HIP_DEVICE, transfer, &error);
  g_assert_no_error (error);
  g_assert_true (a == b);
  g_assert_cmpint (a->mem_type, ==, VH_MEMORY_HIP_DEVICE);
  g_assert_cmpint (n_uploads, ==, 1);
  g_assert_cmpfloat (luma_sad (pic, a), ==, 0);
  /* the copy is on the first transfer's device: another one may not use it */
  g_assert_null (vh_picture_get_in_memory (pic, VH_MEMORY_HIP_DEVICE, other,
          &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_BACKEND);
  g_assert_nonnull (strstr (error->message, "another scoring context"));
  g_clear_error (&error);
  vh_picture_transfer_unref (other);
  /* the last reference releases the transfer's data */
  vh_picture_transfer_unref (transfer);
  g_assert_cmpint (notified, ==, 1);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/picture/dispatch/no-transfer", test_no_transfer);
  g_test_add_func ("/picture/dispatch/host-and-device", test_dispatch);
  g_test_add_func ("/picture/dispatch/get-in-memory", test_get_in_memory);
  g_test_add_func ("/picture/dispatch/luma-only", test_luma_only);
  return g_test_run ();
}
