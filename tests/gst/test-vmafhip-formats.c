/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Every accepted format gives exactly the scores of the engine run on the
 * same samples as planar pictures. The test packs the samples into each
 * GStreamer layout itself (planes, swapped planes, interleaved chroma,
 * high-bit alignment), so the element's reading of each layout is checked
 * against an independent packing. */

#include <gst/check/gstharness.h>
#include <math.h>
#include <string.h>

#include "vh-gst-check.h"
#include "context.h"
#include "feature-alias.h"
#include "model.h"

/* Odd on purpose: chroma rounds up, rows are padded. */
#define W 177
#define H 145
#define N_FRAMES 3

static VhPixFmt
pix_fmt_of (GstVideoFormat format)
{
  const GstVideoFormatInfo *f = gst_video_format_get_info (format);

  if (GST_VIDEO_FORMAT_INFO_N_COMPONENTS (f) == 1)
    return VH_PIX_FMT_YUV400;
  if (GST_VIDEO_FORMAT_INFO_H_SUB (f, 1))
    return VH_PIX_FMT_YUV420;
  if (GST_VIDEO_FORMAT_INFO_W_SUB (f, 1))
    return VH_PIX_FMT_YUV422;
  return VH_PIX_FMT_YUV444;
}

static VhPicture *
synth_picture (const VhPictureInfo * info, guint frame, gboolean distort)
{
  VhPicture *pic = vh_picture_new (info);

  for (guint p = 0; p < pic->n_planes; p++) {
    for (guint y = 0; y < pic->height[p]; y++) {
      for (guint x = 0; x < pic->width[p]; x++) {
        guint v = vh_gst_synth_sample (p, x, y, frame, info->bpc, distort);
        if (info->bpc > 8)
          ((guint16 *) vh_picture_row (pic, p, y))[x] = v;
        else
          ((guint8 *) vh_picture_row (pic, p, y))[x] = v;
      }
    }
  }
  return pic;
}

/* The engine on planar pictures: the expected values. */
static VhContext *
oracle (GstVideoFormat format)
{
  const GstVideoFormatInfo *f = gst_video_format_get_info (format);
  VhContextConfig cfg = { 1, 1, VH_BACKEND_CPU, 0 };
  VhModelConfig mc = { NULL, FALSE, FALSE };
  VhContext *ctx = vh_context_new (&cfg);
  VhPictureInfo info;
  GError *err = NULL;

  g_assert_true (vh_context_add_model (ctx, vh_model_new_builtin
      ("vmaf_v0.6.1", &mc, NULL), &err));
  g_assert_true (vh_context_add_feature (ctx, "psnr", NULL, &err));
  g_assert_true (vh_context_add_feature (ctx, "float_ssim", NULL, &err));
  g_assert_true (vh_picture_info_init (&info, pix_fmt_of (format),
      GST_VIDEO_FORMAT_INFO_DEPTH (f, 0), W, H, &err));
  vh_assert_msg (vh_context_start (ctx, &info, &err), "%s",
      err ? err->message : "");
  for (guint i = 0; i < N_FRAMES; i++) {
    VhPicture *r = synth_picture (&info, i, FALSE);
    VhPicture *d = synth_picture (&info, i, TRUE);
    g_assert_true (vh_context_submit (ctx, r, d, NULL, &err));
    vh_picture_unref (r);
    vh_picture_unref (d);
  }
  g_assert_true (vh_context_finish (ctx, &err));
  return ctx;
}

static GList *
run_element (GstVideoFormat ref_format, GstVideoFormat dist_format)
{
  GstElement *e = gst_element_factory_make ("vmafhipcompare", NULL);
  GstBus *bus = gst_bus_new ();
  GstHarness *href, *hdist;
  gchar *caps;
  GQueue q = G_QUEUE_INIT;
  GstMessage *msg;

  g_object_set (e, "features", "psnr,float_ssim", "threads", 2, NULL);
  gst_element_set_bus (e, bus);
  href = gst_harness_new_with_element (e, "ref_sink", "src");
  hdist = gst_harness_new_with_element (e, "dist_sink", NULL);
  caps = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=25/1", gst_video_format_to_string (ref_format), W, H);
  gst_harness_set_src_caps_str (href, caps);
  g_free (caps);
  caps = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=25/1", gst_video_format_to_string (dist_format), W, H);
  gst_harness_set_src_caps_str (hdist, caps);
  g_free (caps);

  for (guint i = 0; i < N_FRAMES; i++) {
    g_assert_cmpint (gst_harness_push (href, vh_gst_synth_buffer (ref_format,
        W, H, i, FALSE)), ==, GST_FLOW_OK);
    g_assert_cmpint (gst_harness_push (hdist, vh_gst_synth_buffer (dist_format,
        W, H, i, TRUE)), ==, GST_FLOW_OK);
  }
  gst_harness_push_event (href, gst_event_new_eos ());
  gst_harness_push_event (hdist, gst_event_new_eos ());
  for (;;) {
    GstEvent *ev = gst_harness_pull_event (href);
    gboolean eos;

    g_assert_true (ev != NULL);
    eos = GST_EVENT_TYPE (ev) == GST_EVENT_EOS;
    gst_event_unref (ev);
    if (eos)
      break;
  }
  while ((msg = gst_bus_pop (bus)))
    g_queue_push_tail (&q, msg);

  gst_harness_teardown (hdist);
  gst_harness_teardown (href);
  gst_element_set_bus (e, NULL);
  gst_object_unref (e);
  gst_object_unref (bus);
  return q.head;
}

static void
check_format_pair (GstVideoFormat ref_format, GstVideoFormat dist_format)
{
  VhContext *ctx = oracle (ref_format);
  VhFeatureCollector *fc = vh_context_get_collector (ctx);
  GList *msgs = run_element (ref_format, dist_format);
  GPtrArray *frames = vh_gst_structures (msgs, "vmaf");
  GError *err = vh_gst_first_error (msgs, GST_MESSAGE_ERROR);
  guint compared = 0;

  vh_assert_msg (err == NULL, "%s/%s: %s",
      gst_video_format_to_string (ref_format),
      gst_video_format_to_string (dist_format), err ? err->message : "");
  g_assert_cmpint (frames->len, ==, N_FRAMES);
  for (guint i = 0; i < N_FRAMES; i++) {
    const GstStructure *s = g_ptr_array_index (frames, i);

    for (guint j = 0; j < vh_feature_collector_n_features (fc); j++) {
      const gchar *name = vh_feature_collector_feature_name (fc, j);
      const gchar *alias = vh_feature_name_alias (name);
      gdouble want, got;

      if (!vh_feature_collector_get (fc, name, i, &want))
        continue;
      vh_assert_msg (gst_structure_get_double (s, alias, &got),
          "%s frame %u: no %s", gst_video_format_to_string (dist_format), i,
          alias);
      vh_assert_msg (fabs (got - want) <= 1e-9 || (isinf (got) && isinf (want)),
          "%s/%s frame %u: %s = %.9f, " "planar %.9f",
          gst_video_format_to_string (ref_format),
          gst_video_format_to_string (dist_format), i, alias, got, want);
      compared++;
    }
    if (pix_fmt_of (ref_format) == VH_PIX_FMT_YUV400)
      g_assert_false (gst_structure_has_field (s, "psnr_cb"));
    else
      g_assert_true (gst_structure_has_field (s, "psnr_cr"));
  }
  vh_assert_msg (compared >= N_FRAMES * 16, "only %u values", compared);

  g_ptr_array_unref (frames);
  g_list_free_full (msgs, (GDestroyNotify) gst_message_unref);
  vh_context_free (ctx);
}

static const GstVideoFormat formats[] = {
  GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_YV12,
  GST_VIDEO_FORMAT_Y42B, GST_VIDEO_FORMAT_Y444, GST_VIDEO_FORMAT_NV12,
  GST_VIDEO_FORMAT_NV21, GST_VIDEO_FORMAT_I420_10LE,
  GST_VIDEO_FORMAT_I420_12LE, GST_VIDEO_FORMAT_I422_10LE,
  GST_VIDEO_FORMAT_I422_12LE, GST_VIDEO_FORMAT_Y444_10LE,
  GST_VIDEO_FORMAT_Y444_12LE, GST_VIDEO_FORMAT_Y444_16LE,
  GST_VIDEO_FORMAT_P010_10LE, GST_VIDEO_FORMAT_P016_LE,
  GST_VIDEO_FORMAT_GRAY16_LE,
};

static void
test_format (gconstpointer data)
{
  GstVideoFormat f = formats[GPOINTER_TO_UINT (data)];

  GST_INFO ("format %s", gst_video_format_to_string (f));
  check_format_pair (f, f);
}


/* Both sides may use different layouts of the same samples. */
static void
test_mixed_formats (void)
{
  static const GstVideoFormat pairs[][2] = {
    {GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_NV12},
    {GST_VIDEO_FORMAT_YV12, GST_VIDEO_FORMAT_NV21},
    {GST_VIDEO_FORMAT_I420_10LE, GST_VIDEO_FORMAT_P010_10LE},
  };

  for (guint i = 0; i < G_N_ELEMENTS (pairs); i++)
    check_format_pair (pairs[i][0], pairs[i][1]);
}


/* The pad templates list exactly the formats tested here. */
static void
test_template_formats (void)
{
  GstElement *e = gst_element_factory_make ("vmafhipcompare", NULL);
  GstPad *pad = gst_element_get_static_pad (e, "dist_sink");
  GstCaps *templ = gst_pad_get_pad_template_caps (pad);
  const GValue *list =
      gst_structure_get_value (gst_caps_get_structure (templ, 0), "format");

  g_assert_cmpint (gst_value_list_get_size (list), ==, G_N_ELEMENTS (formats));
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++) {
    gboolean found = FALSE;
    for (guint j = 0; j < gst_value_list_get_size (list); j++)
      found |= !g_strcmp0 (g_value_get_string (gst_value_list_get_value (list,
                  j)), gst_video_format_to_string (formats[i]));
    vh_assert_msg (found, "%s not in the template",
        gst_video_format_to_string (formats[i]));
  }
  gst_caps_unref (templ);
  gst_object_unref (pad);
  gst_object_unref (e);
}

int
main (int argc, char **argv)
{
  vh_gst_test_init (&argc, &argv);
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++) {
    gchar *path = g_strdup_printf ("/vmafhipcompare/format/%s",
        gst_video_format_to_string (formats[i]));

    g_test_add_data_func (path, GUINT_TO_POINTER (i), test_format);
    g_free (path);
  }
  g_test_add_func ("/vmafhipcompare/mixed-formats", test_mixed_formats);
  g_test_add_func ("/vmafhipcompare/template-formats", test_template_formats);
  return g_test_run ();
}
