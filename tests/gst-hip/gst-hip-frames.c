/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Frames pulled from a pipeline and compared sample by sample, for the
 * HIP memory tests' round trips. */

#include "gst-hip-frames.h"

#include <gst/app/gstappsink.h>
#include <gst/video/video.h>
#include <string.h>

/* Pulls every frame of @launch's appsink "out". */
GPtrArray *
vh_gst_hip_pull_frames (const gchar * launch)
{
  GError *error = NULL;
  GstElement *p = gst_parse_launch (launch, &error);
  GstElement *sink;
  GPtrArray *samples = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_sample_unref);
  GstSample *s;

  g_assert_no_error (error);
  sink = gst_bin_get_by_name (GST_BIN (p), "out");
  g_assert_cmpint (gst_element_set_state (p, GST_STATE_PLAYING), !=,
      GST_STATE_CHANGE_FAILURE);
  while ((s = gst_app_sink_pull_sample (GST_APP_SINK (sink))))
    g_ptr_array_add (samples, s);
  {
    GstBus *bus = gst_element_get_bus (p);
    GstMessage *m = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
    if (m) {
      GError *err;
      gst_message_parse_error (m, &err, NULL);
      g_error ("%s: %s", launch, err->message);
    }
    gst_object_unref (bus);
  }
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (p);
  return samples;
}

/* Visible samples only: each line unpacked, padding ignored. */
void
vh_gst_hip_assert_frames_equal (GstSample * a, GstSample * b, const gchar * what)
{
  GstVideoInfo ia, ib;
  GstVideoFrame fa, fb;
  const GstVideoFormatInfo *finfo;
  gsize line_size;
  gpointer la, lb;

  g_assert_true (gst_video_info_from_caps (&ia, gst_sample_get_caps (a)));
  g_assert_true (gst_video_info_from_caps (&ib, gst_sample_get_caps (b)));
  g_assert_true (gst_video_frame_map (&fa, &ia, gst_sample_get_buffer (a),
          GST_MAP_READ));
  g_assert_true (gst_video_frame_map (&fb, &ib, gst_sample_get_buffer (b),
          GST_MAP_READ));
  finfo = ia.finfo;
  line_size = ia.width * 8;
  la = g_malloc (line_size);
  lb = g_malloc (line_size);
  for (gint y = 0; y < ia.height; y++) {
    finfo->unpack_func (finfo, GST_VIDEO_PACK_FLAG_NONE, la, fa.data,
        fa.info.stride, 0, y, ia.width);
    finfo->unpack_func (finfo, GST_VIDEO_PACK_FLAG_NONE, lb, fb.data,
        fb.info.stride, 0, y, ia.width);
    if (memcmp (la, lb, GST_VIDEO_FORMAT_INFO_BITS (finfo) > 8 ?
            line_size : line_size / 2) != 0)
      g_error ("%s: line %d differs", what, y);
  }
  g_free (la);
  g_free (lb);
  gst_video_frame_unmap (&fa);
  gst_video_frame_unmap (&fb);
}
