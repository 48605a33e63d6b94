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

/* One distorted pad's. */
typedef struct
{
  GstVmafHipFrame last;
  gboolean have_last;
  guint64 count;
} Shown;

struct _GstVmafHipRepeat
{
  GArray *shown;                /* Shown, by match */
};

GstVmafHipRepeat *
gst_vmaf_hip_repeat_new (void)
{
  GstVmafHipRepeat *repeat = g_new0 (GstVmafHipRepeat, 1);

  repeat->shown = g_array_new (FALSE, TRUE, sizeof (Shown));
  return repeat;
}

static void
shown_forget (Shown * shown)
{
  if (shown->have_last)
    gst_buffer_unref (shown->last.buffer);
  shown->have_last = FALSE;
}

void
gst_vmaf_hip_repeat_reset (GstVmafHipRepeat * repeat, gboolean count)
{
  for (guint i = 0; i < repeat->shown->len; i++)
    shown_forget (&g_array_index (repeat->shown, Shown, i));
  if (count)
    g_array_set_size (repeat->shown, 0);
}

void
gst_vmaf_hip_repeat_free (GstVmafHipRepeat * repeat)
{
  if (!repeat)
    return;
  gst_vmaf_hip_repeat_reset (repeat, TRUE);
  g_array_unref (repeat->shown);
  g_free (repeat);
}

/* @match's, made when first asked for (a pad requested while running). */
static Shown *
shown_of (GstVmafHipRepeat * repeat, guint match)
{
  if (match >= repeat->shown->len)
    g_array_set_size (repeat->shown, match + 1);
  return &g_array_index (repeat->shown, Shown, match);
}

void
gst_vmaf_hip_repeat_remember (GstVmafHipRepeat * repeat, guint match,
    const GstVmafHipFrame * dist)
{
  Shown *shown = shown_of (repeat, match);

  gst_buffer_ref (dist->buffer);
  shown_forget (shown);
  shown->last = *dist;
  shown->have_last = TRUE;
}

gboolean
gst_vmaf_hip_repeat_take (GstVmafHipRepeat * repeat, guint match,
    GstVmafHipFrame * dist)
{
  Shown *shown = shown_of (repeat, match);

  if (!shown->have_last)
    return FALSE;
  *dist = shown->last;
  gst_buffer_ref (dist->buffer);
  dist->repeated = TRUE;
  shown->count++;
  return TRUE;
}

guint64
gst_vmaf_hip_repeat_count (GstVmafHipRepeat * repeat, guint match)
{
  return match < repeat->shown->len ?
      g_array_index (repeat->shown, Shown, match).count : 0;
}
