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

#include "gstvmafhippairing.h"

#include <string.h>

struct _GstVmafHipPairing
{
  GQueue waiting[2];            /* GstVmafHipFrame *, oldest first */
  guint max_waiting;
};

static GQueue *
side (GstVmafHipPairing * p, gboolean ref_side)
{
  return &p->waiting[ref_side ? 0 : 1];
}

static void
frame_free (gpointer data)
{
  GstVmafHipFrame *f = data;

  gst_buffer_unref (f->buffer);
  g_free (f);
}

GstVmafHipPairing *
gst_vmaf_hip_pairing_new (guint max_waiting)
{
  GstVmafHipPairing *p = g_new0 (GstVmafHipPairing, 1);

  g_queue_init (&p->waiting[0]);
  g_queue_init (&p->waiting[1]);
  p->max_waiting = MAX (max_waiting, 1);
  return p;
}

void
gst_vmaf_hip_pairing_set_max_waiting (GstVmafHipPairing * p,
    guint max_waiting)
{
  p->max_waiting = MAX (max_waiting, 1);
}

void
gst_vmaf_hip_pairing_clear_side (GstVmafHipPairing * p, gboolean ref_side)
{
  g_queue_clear_full (side (p, ref_side), frame_free);
}

void
gst_vmaf_hip_pairing_clear (GstVmafHipPairing * p)
{
  gst_vmaf_hip_pairing_clear_side (p, TRUE);
  gst_vmaf_hip_pairing_clear_side (p, FALSE);
}

void
gst_vmaf_hip_pairing_free (GstVmafHipPairing * p)
{
  if (!p)
    return;
  gst_vmaf_hip_pairing_clear (p);
  g_free (p);
}

void
gst_vmaf_hip_pairing_push (GstVmafHipPairing * p, gboolean ref_side,
    const GstVmafHipFrame * frame)
{
  GstVmafHipFrame *f = g_new (GstVmafHipFrame, 1);

  *f = *frame;
  gst_buffer_ref (f->buffer);
  g_queue_push_tail (side (p, ref_side), f);
}

guint
gst_vmaf_hip_pairing_n_waiting (GstVmafHipPairing * p, gboolean ref_side)
{
  return g_queue_get_length (side (p, ref_side));
}

/* Moves the oldest frame of one side into @r. */
static void
take (GstVmafHipPairing * p, gboolean ref_side, GstVmafHipPairingResult * r)
{
  GstVmafHipFrame *f = g_queue_pop_head (side (p, ref_side));

  if (ref_side) {
    r->ref = *f;
    r->has_ref = TRUE;
  } else {
    r->dist = *f;
    r->has_dist = TRUE;
  }
  g_free (f);
}

/* Two frames show the same moment when their running times are within
 * half a frame; without timestamps there is nothing to tell them apart. */
static gint
compare_moments (const GstVmafHipFrame * r, const GstVmafHipFrame * d)
{
  GstClockTime duration = GST_CLOCK_TIME_IS_VALID (r->duration) ?
      r->duration : d->duration;

  if (!GST_CLOCK_TIME_IS_VALID (r->running_time) ||
      !GST_CLOCK_TIME_IS_VALID (d->running_time) ||
      !GST_CLOCK_TIME_IS_VALID (duration))
    return 0;
  if ((r->running_time > d->running_time ?
          r->running_time - d->running_time :
          d->running_time - r->running_time) < duration / 2)
    return 0;
  return r->running_time < d->running_time ? -1 : 1;
}

gboolean
gst_vmaf_hip_pairing_next (GstVmafHipPairing * p, gboolean ref_over,
    gboolean dist_over, GstVmafHipPairingResult * r)
{
  GstVmafHipFrame *ref = g_queue_peek_head (side (p, TRUE));
  GstVmafHipFrame *dist = g_queue_peek_head (side (p, FALSE));

  memset (r, 0, sizeof (*r));
  if (ref && dist) {
    gint order = compare_moments (ref, dist);

    /* The older frame's moment is behind everything the other side
     * brings from now on: it has no partner. */
    if (order <= 0)
      take (p, TRUE, r);
    if (order >= 0)
      take (p, FALSE, r);
    r->dropped = order < 0;
    return TRUE;
  }
  if (ref || dist) {
    gboolean ref_side = ref != NULL;
    gboolean other_over = ref_side ? dist_over : ref_over;

    if (other_over ||
        g_queue_get_length (side (p, ref_side)) > p->max_waiting) {
      take (p, ref_side, r);
      r->other_ended = other_over;
      return TRUE;
    }
  }
  return FALSE;
}

void
gst_vmaf_hip_pairing_result_clear (GstVmafHipPairingResult * r)
{
  if (r->has_ref)
    gst_buffer_unref (r->ref.buffer);
  if (r->has_dist)
    gst_buffer_unref (r->dist.buffer);
  memset (r, 0, sizeof (*r));
}
