/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* unpaired=repeat: the last distorted frame shown (see the header). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvmafhiprepeat.h"

static const GEnumValue unpaired_mode_values[] = {
  {GST_VMAF_HIP_UNPAIRED_SKIP,
      "A reference frame without its distorted frame is not scored",
      "skip"},
  {GST_VMAF_HIP_UNPAIRED_REPEAT,
        "A reference frame whose distorted frame the chain dropped is scored "
        "against the last distorted frame shown, as a viewer saw it",
      "repeat"},
  {0, NULL, NULL},
};

GType
gst_vmaf_hip_unpaired_mode_get_type (void)
{
  static gsize id = 0;

  if (g_once_init_enter (&id)) {
    GType t = g_enum_register_static ("GstVmafHipUnpairedMode",
        unpaired_mode_values);
    g_once_init_leave (&id, t);
  }
  return (GType) id;
}

struct _GstVmafHipRepeat
{
  GstVmafHipFrame last;
  gboolean have_last;
  guint64 count;
};

GstVmafHipRepeat *
gst_vmaf_hip_repeat_new (void)
{
  return g_new0 (GstVmafHipRepeat, 1);
}

void
gst_vmaf_hip_repeat_reset (GstVmafHipRepeat * repeat, gboolean count)
{
  if (repeat->have_last)
    gst_buffer_unref (repeat->last.buffer);
  repeat->have_last = FALSE;
  if (count)
    repeat->count = 0;
}

void
gst_vmaf_hip_repeat_free (GstVmafHipRepeat * repeat)
{
  if (!repeat)
    return;
  gst_vmaf_hip_repeat_reset (repeat, TRUE);
  g_free (repeat);
}

void
gst_vmaf_hip_repeat_remember (GstVmafHipRepeat * repeat,
    const GstVmafHipFrame * dist)
{
  gst_buffer_ref (dist->buffer);
  gst_vmaf_hip_repeat_reset (repeat, FALSE);
  repeat->last = *dist;
  repeat->have_last = TRUE;
}

gboolean
gst_vmaf_hip_repeat_take (GstVmafHipRepeat * repeat, GstVmafHipFrame * dist)
{
  if (!repeat->have_last)
    return FALSE;
  *dist = repeat->last;
  gst_buffer_ref (dist->buffer);
  dist->repeated = TRUE;
  repeat->count++;
  return TRUE;
}

guint64
gst_vmaf_hip_repeat_count (GstVmafHipRepeat * repeat)
{
  return repeat->count;
}
