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

#include "gstvmafhipcompat.h"

#include <string.h>

static const GEnumValue message_layout_values[] = {
  {GST_VMAF_HIP_MESSAGE_LAYOUT_VMAFHIP,
        "\"vmaf\" per frame with every value, \"vmaf-summary\" at the end",
      "vmafhip"},
  {GST_VMAF_HIP_MESSAGE_LAYOUT_VMAF,
        "GStreamer's vmaf element: \"VMAF\" with type=frame per frame and "
        "type=pooled at the end",
      "vmaf"},
  {0, NULL, NULL},
};

static const GEnumValue log_level_values[] = {
  {GST_LEVEL_NONE, "No logging", "none"},
  {GST_LEVEL_ERROR, "Errors", "error"},
  {GST_LEVEL_WARNING, "Warnings", "warning"},
  {GST_LEVEL_INFO, "Information", "info"},
  {GST_LEVEL_DEBUG, "Debugging", "debug"},
  {0, NULL, NULL},
};

GType
gst_vmaf_hip_message_layout_get_type (void)
{
  static gsize id = 0;

  if (g_once_init_enter (&id)) {
    GType t = g_enum_register_static ("GstVmafHipMessageLayout",
        message_layout_values);
    g_once_init_leave (&id, t);
  }
  return (GType) id;
}

GType
gst_vmaf_hip_log_level_get_type (void)
{
  static gsize id = 0;

  if (g_once_init_enter (&id)) {
    GType t = g_enum_register_static ("GstVmafHipLogLevel", log_level_values);
    g_once_init_leave (&id, t);
  }
  return (GType) id;
}

/* The vmaf element's field for each of our outputs it reports. */
static const struct
{
  const gchar *output;
  const gchar *field;
} fields[] = {
  {"psnr_y", "psnr-y"},
  {"float_ssim", "ssim"},
  {"float_ms_ssim", "ms-ssim"},
};

/* Whether the comma-separated @features name extractor @name (with or
 * without options). */
static gboolean
names_feature (gchar ** features, const gchar * name, const gchar * alias)
{
  for (guint i = 0; features[i]; i++) {
    gchar *entry = g_strstrip (g_strdup (features[i]));
    gchar *eq = strchr (entry, '=');
    gboolean same;

    if (eq)
      *eq = '\0';
    same = !g_ascii_strcasecmp (entry, name) ||
        (alias && !g_ascii_strcasecmp (entry, alias));
    g_free (entry);
    if (same)
      return TRUE;
  }
  return FALSE;
}

gchar *
gst_vmaf_hip_compat_features (const gchar * features, gboolean psnr,
    gboolean ssim, gboolean ms_ssim)
{
  gchar **list = g_strsplit (features ? features : "", ",", -1);
  GString *out = g_string_new (features ? features : "");

  if (psnr && !names_feature (list, "psnr", NULL))
    g_string_append (out, out->len ? ",psnr" : "psnr");
  if (ssim && !names_feature (list, "float_ssim", "ssim"))
    g_string_append (out, out->len ? ",float_ssim" : "float_ssim");
  if (ms_ssim && !names_feature (list, "float_ms_ssim", "ms-ssim"))
    g_string_append (out, out->len ? ",float_ms_ssim" : "float_ms_ssim");
  g_strfreev (list);
  return g_string_free (out, FALSE);
}

static void
copy_times (GstStructure * to, const GstStructure * from)
{
  static const gchar *times[] = { "timestamp", "stream-time",
    "running-time", "duration"
  };

  for (guint i = 0; i < G_N_ELEMENTS (times); i++) {
    guint64 t = GST_CLOCK_TIME_NONE;

    if (from)
      gst_structure_get_uint64 (from, times[i], &t);
    gst_structure_set (to, times[i], G_TYPE_UINT64, t, NULL);
  }
}

GstStructure *
gst_vmaf_hip_compat_frame (const GstStructure * frame)
{
  GstStructure *s = gst_structure_new_empty ("VMAF");
  guint64 index = 0;
  gdouble v;

  copy_times (s, frame);
  if (gst_structure_get_double (frame, "score", &v))
    gst_structure_set (s, "score", G_TYPE_DOUBLE, v, NULL);
  gst_structure_get_uint64 (frame, "index", &index);
  gst_structure_set (s, "index", G_TYPE_INT, (gint) MIN (index, G_MAXINT),
      "type", G_TYPE_STRING, "frame", NULL);
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++) {
    if (gst_structure_get_double (frame, fields[i].output, &v))
      gst_structure_set (s, fields[i].field, G_TYPE_DOUBLE, v, NULL);
  }
  return s;
}

static const gchar *
pooled_field (GstVmafHipPoolMethod method)
{
  switch (method) {
    case GST_VMAF_HIP_POOL_HARMONIC_MEAN:
      return "harmonic-mean";
    case GST_VMAF_HIP_POOL_MIN:
      return "min";
    case GST_VMAF_HIP_POOL_MAX:
      return "max";
    default:
      return "mean";
  }
}

GstStructure *
gst_vmaf_hip_compat_pooled (const GstStructure * summary,
    GstVmafHipPoolMethod method)
{
  GstStructure *s = gst_structure_new_empty ("VMAF");
  gdouble v;

  /* the vmaf element stamps it with its output position; a summary
   * covers every frame, so no time is given */
  copy_times (s, NULL);
  if (gst_structure_get_double (summary, "score", &v))
    gst_structure_set (s, "score", G_TYPE_DOUBLE, v, NULL);
  gst_structure_set (s, "type", G_TYPE_STRING, "pooled", NULL);
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++) {
    const GValue *pooled = gst_structure_get_value (summary,
        fields[i].output);

    if (pooled && GST_VALUE_HOLDS_STRUCTURE (pooled) &&
        gst_structure_get_double (gst_value_get_structure (pooled),
            pooled_field (method), &v))
      gst_structure_set (s, fields[i].field, G_TYPE_DOUBLE, v, NULL);
  }
  return s;
}
