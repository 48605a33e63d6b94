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

#include "gstvmafhipenums.h"

#include <gst/gst.h>

#define DEFINE_ENUM_TYPE(func, type_name, values)                       \
GType                                                                   \
func (void)                                                             \
{                                                                       \
  static gsize id = 0;                                                  \
  if (g_once_init_enter (&id)) {                                        \
    GType t = g_enum_register_static (type_name, values);               \
    g_once_init_leave (&id, t);                                         \
  }                                                                     \
  return (GType) id;                                                    \
}

static const GEnumValue pool_method_values[] = {
  {GST_VMAF_HIP_POOL_MEAN, "Arithmetic mean", "mean"},
  {GST_VMAF_HIP_POOL_HARMONIC_MEAN,
        "Harmonic mean, n / sum (1 / (x + 1)) - 1, as libvmaf pools it "
        "(harmonic_mean, GStreamer's vmaf element's spelling, is taken too)",
      "harmonic-mean"},
  {GST_VMAF_HIP_POOL_MIN, "Minimum", "min"},
  {GST_VMAF_HIP_POOL_MAX, "Maximum", "max"},
  {0, NULL, NULL},
};

static const GEnumValue results_format_values[] = {
  {GST_VMAF_HIP_RESULTS_JSON, "JSON, as libvmaf writes it", "json"},
  {GST_VMAF_HIP_RESULTS_XML, "XML, as libvmaf writes it", "xml"},
  {GST_VMAF_HIP_RESULTS_CSV, "CSV, as libvmaf writes it", "csv"},
  {0, NULL, NULL},
};

static const GEnumValue passthrough_values[] = {
  {GST_VMAF_HIP_PASSTHROUGH_DISTORTED, "Output the distorted frames",
      "distorted"},
  {GST_VMAF_HIP_PASSTHROUGH_REFERENCE, "Output the reference frames",
      "reference"},
  {0, NULL, NULL},
};

static const GEnumValue backend_values[] = {
  {GST_VMAF_HIP_BACKEND_AUTO,
      "GPU (HIP) where available, CPU for the rest", "auto"},
  {GST_VMAF_HIP_BACKEND_CPU, "CPU only", "cpu"},
  {GST_VMAF_HIP_BACKEND_HIP,
      "GPU (HIP), required; CPU for features without a HIP twin", "hip"},
  {0, NULL, NULL},
};

static const GEnumValue scale_method_values[] = {
  {GST_VMAF_HIP_SCALE_NONE, "No scaling: a distorted video of another size "
        "than the reference is refused", "none"},
  {GST_VMAF_HIP_SCALE_BICUBIC, "Bicubic, as ffmpeg's scale=flags=bicubic "
        "(the convention VMAF scores are compared with)", "bicubic"},
  {GST_VMAF_HIP_SCALE_LANCZOS, "Lanczos (3 lobes), as ffmpeg's "
        "scale=flags=lanczos", "lanczos"},
  {GST_VMAF_HIP_SCALE_BILINEAR, "Bilinear, as ffmpeg's "
        "scale=flags=bilinear (reads lower than bicubic)", "bilinear"},
  {0, NULL, NULL},
};

/* Spellings of GStreamer's vmaf element that its pipelines use, taken from
 * strings (gst-launch-1.0, gst_util_set_object_arg ()) without being enum
 * values of their own: gst-inspect-1.0 lists each value once and shows the
 * default under its name. */
static gboolean
deserialize_enum (GValue * dest, const gchar * s, const gchar * alias,
    gint alias_value)
{
  GEnumClass *klass = g_type_class_ref (G_VALUE_TYPE (dest));
  GEnumValue *v = g_enum_get_value_by_name (klass, s);
  gchar *end = NULL;
  gint64 i;

  if (!v)
    v = g_enum_get_value_by_nick (klass, s);
  if (!v && !g_strcmp0 (s, alias))
    v = g_enum_get_value (klass, alias_value);
  if (!v && s && *s) {
    i = g_ascii_strtoll (s, &end, 0);
    if (end && !*end && i >= G_MININT && i <= G_MAXINT)
      v = g_enum_get_value (klass, (gint) i);
  }
  if (v)
    g_value_set_enum (dest, v->value);
  g_type_class_unref (klass);
  return v != NULL;
}

static gboolean
deserialize_pool_method (GValue * dest, const gchar * s)
{
  return deserialize_enum (dest, s, "harmonic_mean",
      GST_VMAF_HIP_POOL_HARMONIC_MEAN);
}

/* GStreamer's vmaf element: "none" with a file name writes JSON. */
static gboolean
deserialize_results_format (GValue * dest, const gchar * s)
{
  return deserialize_enum (dest, s, "none", GST_VMAF_HIP_RESULTS_JSON);
}

/* Only deserialize: comparing and serializing stay GstValue's for enums.
 * GstValue keeps a pointer to the table: one for the process. */
static void
register_alias (GType type, GstValueDeserializeFunc deserialize)
{
  GstValueTable *table = g_new0 (GstValueTable, 1);

  table->type = type;
  table->deserialize = deserialize;
  gst_value_register (table);
}

#define DEFINE_ENUM_TYPE_WITH_ALIAS(func, type_name, values, deserialize) \
GType                                                                   \
func (void)                                                             \
{                                                                       \
  static gsize id = 0;                                                  \
  if (g_once_init_enter (&id)) {                                        \
    GType t = g_enum_register_static (type_name, values);               \
    register_alias (t, deserialize);                                    \
    g_once_init_leave (&id, t);                                         \
  }                                                                     \
  return (GType) id;                                                    \
}

DEFINE_ENUM_TYPE_WITH_ALIAS (gst_vmaf_hip_pool_method_get_type,
    "GstVmafHipPoolMethod", pool_method_values, deserialize_pool_method);
DEFINE_ENUM_TYPE_WITH_ALIAS (gst_vmaf_hip_results_format_get_type,
    "GstVmafHipResultsFormat", results_format_values,
    deserialize_results_format);
DEFINE_ENUM_TYPE (gst_vmaf_hip_passthrough_get_type,
    "GstVmafHipPassthrough", passthrough_values);
DEFINE_ENUM_TYPE (gst_vmaf_hip_backend_get_type,
    "GstVmafHipBackend", backend_values);
DEFINE_ENUM_TYPE (gst_vmaf_hip_scale_method_get_type,
    "GstVmafHipScaleMethod", scale_method_values);

const gchar *
gst_vmaf_hip_enum_nick (GType type, gint value)
{
  GEnumClass *klass = g_type_class_ref (type);
  GEnumValue *v = g_enum_get_value (klass, value);
  const gchar *nick = v ? v->value_nick : "unknown";

  /* Enum classes of static types are never finalized. */
  g_type_class_unref (klass);
  return nick;
}
