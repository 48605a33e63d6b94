/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Hints that look upstream of a pad for the likely cause of a mismatch. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvmafhiphints.h"
#include "errors.h"

/* How far upstream to look through one-input elements (queue, capsfilter,
 * videoconvert, ...). */
#define MAX_HOPS 8

static gboolean
is_default (GObject * obj, const gchar * name)
{
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (obj),
      name);
  GValue v = G_VALUE_INIT;
  gboolean def;

  if (!pspec)
    return FALSE;
  g_value_init (&v, pspec->value_type);
  g_object_get_property (obj, name, &v);
  def = g_param_value_defaults (pspec, &v);
  g_value_unset (&v);
  return def;
}

/* The rawvideoparse upstream of @pad that was given neither width nor
 * height nor its sink caps' size, or NULL. */
static GstElement *
raw_parse_without_size (GstPad * pad)
{
  GstPad *peer = gst_pad_get_peer (pad);

  for (guint hop = 0; peer && hop < MAX_HOPS; hop++) {
    GstElement *e = gst_pad_get_parent_element (peer);
    GstElementFactory *f = e ? gst_element_get_factory (e) : NULL;
    GstPad *sink;

    gst_object_unref (peer);
    peer = NULL;
    if (!e)
      break;
    if (f && !g_strcmp0 (GST_OBJECT_NAME (f), "rawvideoparse")) {
      if (is_default (G_OBJECT (e), "width") &&
          is_default (G_OBJECT (e), "height") &&
          is_default (G_OBJECT (e), "use-sink-caps"))
        return e;
      gst_object_unref (e);
      break;
    }
    /* Only through elements with one sink pad. */
    if (e->numsinkpads == 1 && (sink = gst_element_get_static_pad (e,
                "sink"))) {
      peer = gst_pad_get_peer (sink);
      gst_object_unref (sink);
    }
    gst_object_unref (e);
  }
  if (peer)
    gst_object_unref (peer);
  return NULL;
}

gboolean
gst_vmaf_hip_check_raw_defaults (GstPad * pad, GstCaps * caps,
    GstPad * other, GstCaps * other_caps, GError ** error)
{
  GstVideoInfo info, oinfo;
  gboolean mismatch = FALSE;
  GstElement *parse;
  GstPad *at = pad;
  gchar *theirs = NULL;

  if (!gst_video_info_from_caps (&info, caps))
    return TRUE;
  if (other_caps && gst_video_info_from_caps (&oinfo, other_caps))
    mismatch = GST_VIDEO_INFO_WIDTH (&info) != GST_VIDEO_INFO_WIDTH (&oinfo)
        || GST_VIDEO_INFO_HEIGHT (&info) != GST_VIDEO_INFO_HEIGHT (&oinfo)
        || gst_util_fraction_compare (GST_VIDEO_INFO_FPS_N (&info),
        GST_VIDEO_INFO_FPS_D (&info), GST_VIDEO_INFO_FPS_N (&oinfo),
        GST_VIDEO_INFO_FPS_D (&oinfo)) != 0;
  /* a rawvideoparse without a size may also say a rate of 0/1 */
  if (!mismatch && GST_VIDEO_INFO_FPS_N (&info) > 0)
    return TRUE;
  parse = raw_parse_without_size (pad);
  if (!parse && mismatch) {
    at = other;
    parse = raw_parse_without_size (other);
  }
  if (!parse)
    return TRUE;
  if (mismatch) {
    const GstVideoInfo *o = at == pad ? &oinfo : &info;

    theirs = g_strdup_printf (" (the other input, %s, is %dx%d at %d/%d)",
        GST_PAD_NAME (at == pad ? other : pad), GST_VIDEO_INFO_WIDTH (o),
        GST_VIDEO_INFO_HEIGHT (o), GST_VIDEO_INFO_FPS_N (o),
        GST_VIDEO_INFO_FPS_D (o));
  }
  g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
      "%s: %s was given no frame size, so it cuts the raw file into frames "
      "of its default size, 320x240%s. Give it the raw video's size, format "
      "and rate: rawvideoparse width=W height=H format=F framerate=N/D",
      GST_PAD_NAME (at), GST_OBJECT_NAME (parse), theirs ? theirs : "");
  g_free (theirs);
  gst_object_unref (parse);
  return FALSE;
}
