/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvmafhipcaps.h"
#include "errors.h"
#include "picture.h"

static gboolean
video_info (GstCaps * caps, const gchar * pad_name, GstVideoInfo * info,
    GError ** error)
{
  if (!gst_video_info_from_caps (info, caps)) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "%s: caps that describe no video frame", pad_name);
    return FALSE;
  }
  return TRUE;
}

/* What the engine refuses in this video, said as vh_picture_info_init()
 * says it. */
static gboolean
check_scorable (const GstVideoInfo * info, const gchar * pad_name,
    GError ** error)
{
  const GstVideoFormatInfo *finfo = info->finfo;
  VhPictureInfo pi;
  GError *err = NULL;
  guint bpc = GST_VIDEO_FORMAT_INFO_DEPTH (finfo, 0);

  if (!GST_VIDEO_FORMAT_INFO_IS_YUV (finfo) &&
      !GST_VIDEO_FORMAT_INFO_IS_GRAY (finfo))
    return TRUE;                /* the template refuses it already */
  if (!vh_picture_info_init (&pi, VH_PIX_FMT_YUV420, bpc,
          GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info), &err)) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "%s: %s video cannot be scored: %s", pad_name,
        gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (info)),
        err->message);
    g_error_free (err);
    return FALSE;
  }
  return TRUE;
}

/* Frames are paired by time: at two rates every other frame of the faster
 * side has no partner, which is no matter of latency. A rate that is a
 * whole multiple of the other is taken: every k-th frame of the faster
 * side is scored (gst_vmaf_hip_rate_step()). */
static gboolean
check_same_rate (const GstVideoInfo * info, const gchar * pad_name,
    const GstVideoInfo * oinfo, const gchar * other_name, GError ** error)
{
  gint n = GST_VIDEO_INFO_FPS_N (info), d = GST_VIDEO_INFO_FPS_D (info);
  gint on = GST_VIDEO_INFO_FPS_N (oinfo), od = GST_VIDEO_INFO_FPS_D (oinfo);
  gint cmp;

  if (n <= 0 || d <= 0 || on <= 0 || od <= 0)
    return TRUE;                /* a variable rate is refused on its own */
  cmp = gst_util_fraction_compare (n, d, on, od);
  if (cmp == 0 || gst_vmaf_hip_rate_step (n, d, on, od) > 1 ||
      gst_vmaf_hip_rate_step (on, od, n, d) > 1)
    return TRUE;
  g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
      "%s runs at %d/%d fps (%.3g) but %s at %d/%d fps (%.3g): frame rates "
      "differ and neither is a whole multiple of the other, so frames "
      "cannot be paired. Bring the faster "
      "one down to the slower one's rate before its pad: ... ! videorate ! "
      "video/x-raw,framerate=%d/%d ! %s", pad_name, n, d, (gdouble) n / d,
      other_name, on, od, (gdouble) on / od, cmp > 0 ? on : n, cmp > 0 ? od : d,
      cmp > 0 ? pad_name : other_name);
  return FALSE;
}

guint
gst_vmaf_hip_rate_step (gint n, gint d, gint on, gint od)
{
  guint64 rate, other;

  if (n <= 0 || d <= 0 || on <= 0 || od <= 0)
    return 1;
  rate = (guint64) n * od;
  other = (guint64) on * d;
  if (rate <= other || rate % other != 0)
    return 1;
  return (guint) MIN (rate / other, G_MAXUINT);
}

gboolean
gst_vmaf_hip_check_sink_caps (GstCaps * caps, const gchar * pad_name,
    GstCaps * other, const gchar * other_name, GError ** error)
{
  GstVideoInfo info, oinfo;

  if (!video_info (caps, pad_name, &info, error) ||
      !check_scorable (&info, pad_name, error))
    return FALSE;
  if (GST_VIDEO_INFO_FPS_N (&info) <= 0 || GST_VIDEO_INFO_FPS_D (&info) <= 0) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "%s: variable frame rate (framerate=%d/%d) is not supported: frames "
        "are paired by time at a fixed rate (put videorate and a fixed "
        "framerate before the pad)", pad_name, GST_VIDEO_INFO_FPS_N (&info),
        GST_VIDEO_INFO_FPS_D (&info));
    return FALSE;
  }
  if (!other || !gst_video_info_from_caps (&oinfo, other))
    return TRUE;
  if (GST_VIDEO_INFO_INTERLACE_MODE (&info) !=
      GST_VIDEO_INFO_INTERLACE_MODE (&oinfo)) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "%s is %s but %s is %s: both sides need the same interlace-mode "
        "(deinterlace or interlace one of them)", pad_name,
        gst_video_interlace_mode_to_string (GST_VIDEO_INFO_INTERLACE_MODE
            (&info)), other_name,
        gst_video_interlace_mode_to_string (GST_VIDEO_INFO_INTERLACE_MODE
            (&oinfo)));
    return FALSE;
  }
  return check_same_rate (&info, pad_name, &oinfo, other_name, error);
}

GstCaps *
gst_vmaf_hip_caps_split_formats (GstCaps * caps)
{
  GstCaps *out = gst_caps_new_empty ();

  for (guint i = 0; i < gst_caps_get_size (caps); i++) {
    const GstStructure *s = gst_caps_get_structure (caps, i);
    const GValue *formats = gst_structure_get_value (s, "format");
    GstCapsFeatures *features = gst_caps_get_features (caps, i);

    if (!formats || !GST_VALUE_HOLDS_LIST (formats)) {
      gst_caps_append_structure_full (out, gst_structure_copy (s),
          features ? gst_caps_features_copy (features) : NULL);
      continue;
    }
    for (guint f = 0; f < gst_value_list_get_size (formats); f++) {
      GstStructure *one = gst_structure_copy (s);

      gst_structure_set_value (one, "format",
          gst_value_list_get_value (formats, f));
      gst_caps_append_structure_full (out, one,
          features ? gst_caps_features_copy (features) : NULL);
    }
  }
  gst_caps_unref (caps);
  return out;
}
