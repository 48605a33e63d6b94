/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* align=content: frames paired by the alignment engine (src/align.c). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvmafhipcontentpairing.h"
#include "gstvmafhipcontentholdings.h"
#include "align.h"
#include "errors.h"

#include <string.h>

GST_DEBUG_CATEGORY_EXTERN (gst_vmaf_hip_compare_debug);
#define GST_CAT_DEFAULT gst_vmaf_hip_compare_debug

/* Frames whose signatures (on the GPU, on a worker) the engine may be
 * without before the pairing waits for them. */
#define MAX_SIGNATURES_IN_FLIGHT 8

/* The frame duration assumed when a stream says none (25 fps). */
#define FALLBACK_FRAME_DURATION (GST_SECOND / 25)

static const GEnumValue align_mode_values[] = {
  {GST_VMAF_HIP_ALIGN_TIMESTAMPS,
      "Pair frames by running time: both inputs from one clock (a tee "
        "before an encoder, two files)", "timestamps"},
  {GST_VMAF_HIP_ALIGN_CONTENT,
        "Pair frames by their pictures: inputs with unrelated timestamps, "
        "an unknown delay, frames dropped or repeated by the chain",
      "content"},
  {0, NULL, NULL},
};

GType
gst_vmaf_hip_align_mode_get_type (void)
{
  static gsize id = 0;

  if (g_once_init_enter (&id)) {
    GType t = g_enum_register_static ("GstVmafHipAlignMode",
        align_mode_values);
    g_once_init_leave (&id, t);
  }
  return (GType) id;
}

/* A frame's signature on its way to the engine, started as the frame
 * came (gstvmafhipsignatures.c). */
typedef struct
{
  gboolean ref_side;
  GstVmafHipSignatureJob *job;
} PendingSignature;

/* A frame waiting for the engine's decision. */
typedef struct
{
  GstVmafHipFrame frame;
  /* The pool whose buffer this is (held, not copied), or NULL (not
   * owned: the buffer holds it). */
  GstBufferPool *held_from;
} WaitingFrame;

struct _GstVmafHipContentPairing
{
  GstElement *element;          /* not owned */
  GstClockTime window;
  VhAlign *align;               /* made at the first frame (its rate) */
  GQueue waiting[2];            /* WaitingFrame *, [0] reference */
  GstVmafHipContentHoldings *holdings;  /* not owned */
  guint window_frames;          /* the engine's window */
  gboolean window_counted[2];   /* in the holdings, [0] reference */
  /* Signatures not yet pushed to the engine (PendingSignature *, in the
   * order the frames came): taken when the engine is asked for
   * decisions, by then usually there. */
  GQueue signatures;
  gboolean ended[2];
  GQueue events;                /* GstStructure *, "vmaf-align" */
  GstStructure *pending;        /* in @events: a lock awaiting its pair */
  gboolean warned_signature;

  /* The last lock state, and the counts for the summary. */
  gboolean locked;
  gint64 offset_frames;
  GstClockTimeDiff offset;
  gboolean have_offset;
  guint64 changes;
  guint64 unmatched[2][VH_ALIGN_REASON_ENDED + 1];
};

/* The buffer's pool leaves @w's frame (taken or freed). */
static void
give_back (GstVmafHipContentPairing * p, WaitingFrame * w)
{
  gst_vmaf_hip_content_holdings_give_back (p->holdings, w->held_from);
  w->held_from = NULL;
}

static void
clear_waiting (GstVmafHipContentPairing * p, GQueue * q)
{
  WaitingFrame *w;

  while ((w = g_queue_pop_head (q))) {
    give_back (p, w);
    gst_buffer_unref (w->frame.buffer);
    g_free (w);
  }
}

static void
pending_free (gpointer data)
{
  PendingSignature *ps = data;

  gst_vmaf_hip_signature_job_unref (ps->job);
  g_free (ps);
}

GstVmafHipContentPairing *
gst_vmaf_hip_content_pairing_new (GstElement * element, GstClockTime window,
    GstVmafHipContentHoldings * holdings)
{
  GstVmafHipContentPairing *p = g_new0 (GstVmafHipContentPairing, 1);

  p->element = element;
  p->window = window;
  g_queue_init (&p->waiting[0]);
  g_queue_init (&p->waiting[1]);
  g_queue_init (&p->events);
  g_queue_init (&p->signatures);
  p->holdings = holdings;
  return p;
}

static void
restart (GstVmafHipContentPairing * p)
{
  g_queue_clear_full (&p->signatures, pending_free);
  g_clear_pointer (&p->align, vh_align_free);
  clear_waiting (p, &p->waiting[0]);
  clear_waiting (p, &p->waiting[1]);
  p->ended[0] = p->ended[1] = FALSE;
  p->locked = FALSE;
  p->pending = NULL;
}

void
gst_vmaf_hip_content_pairing_free (GstVmafHipContentPairing * p)
{
  if (!p)
    return;
  restart (p);
  g_queue_clear_full (&p->events, (GDestroyNotify) gst_structure_free);
  g_free (p);
}

void
gst_vmaf_hip_content_pairing_clear_side (GstVmafHipContentPairing * p,
    gboolean ref_side)
{
  /* The two sides' frame numbers must start together: a flush of either
   * restarts the alignment. */
  restart (p);
}

static GstClockTime
frame_duration (const GstVmafHipFrame * f)
{
  if (f->info.fps_n > 0 && f->info.fps_d > 0)
    return gst_util_uint64_scale_int (GST_SECOND, f->info.fps_d,
        f->info.fps_n);
  if (GST_CLOCK_TIME_IS_VALID (f->duration) && f->duration > 0)
    return f->duration;
  return FALLBACK_FRAME_DURATION;
}

/* Until the first lock, both inputs' frames of a whole window wait:
 * counted for the element's inputs together (the reference once), and
 * said (by the element, outside the locks) when that is more than half
 * of the machine's memory, before it runs out. */
static void
count_window (GstVmafHipContentPairing * p, gboolean ref_side,
    const GstVmafHipFrame * f)
{
  guint64 bytes;
  gchar *message;

  if (p->window_counted[ref_side ? 0 : 1])
    return;
  p->window_counted[ref_side ? 0 : 1] = TRUE;
  message = gst_vmaf_hip_content_holdings_count_window (p->holdings,
      ref_side, p->window, p->window_frames, &f->info, &bytes);
  if (!message)
    return;
  g_queue_push_tail (&p->events, gst_structure_new ("vmaf-align-memory",
          "message", G_TYPE_STRING, message, "bytes", G_TYPE_UINT64, bytes,
          NULL));
  g_free (message);
}

static void
make_engine (GstVmafHipContentPairing * p, const GstVmafHipFrame * f)
{
  VhAlignConfig config;
  guint64 frames = p->window / frame_duration (f);

  vh_align_config_init (&config, (guint) CLAMP (frames, 1, G_MAXUINT32 / 2));
  p->align = vh_align_new (&config);
  p->window_frames = config.window;
  GST_INFO_OBJECT (p->element, "aligning by content within %u frames",
      config.window);
}

/* Says once why a frame could not be aligned (a flat signature, which
 * matches nothing, stands for it): by the element, outside the locks it
 * holds here (a bus sync handler may call back into it). */
static void
warn_signature (GstVmafHipContentPairing * p, const gchar * message)
{
  if (p->warned_signature)
    return;
  p->warned_signature = TRUE;
  g_queue_push_tail (&p->events, gst_structure_new ("vmaf-align-warning",
          "message", G_TYPE_STRING, message, NULL));
}

/* The pending signatures to the engine, in the order the frames came:
 * those whose results arrived, and, waiting for them, those beyond the
 * last MAX_SIGNATURES_IN_FLIGHT (all of them with @all, at the end).
 * Waiting for the newest frame's would wait for its upload or its
 * worker. */
static void
push_pending (GstVmafHipContentPairing * p, gboolean all)
{
  PendingSignature *ps;

  while ((ps = g_queue_peek_head (&p->signatures))) {
    VhAlignSignature sig;
    GError *err = NULL;

    if (!all && p->signatures.length <= MAX_SIGNATURES_IN_FLIGHT &&
        !gst_vmaf_hip_signature_job_done (ps->job))
      break;
    g_queue_pop_head (&p->signatures);
    /* a flat signature, which matches nothing, stands for one that
     * failed */
    if (!gst_vmaf_hip_signature_job_take (ps->job, &sig, &err)) {
      memset (&sig, 0, sizeof (sig));
      warn_signature (p, err->message);
      g_error_free (err);
    }
    if (ps->ref_side)
      vh_align_push_reference (p->align, &sig);
    else
      vh_align_push_distorted (p->align, &sig);
    pending_free (ps);
  }
}

void
gst_vmaf_hip_content_pairing_push (GstVmafHipContentPairing * p,
    gboolean ref_side, const GstVmafHipFrame * frame,
    GstVmafHipSignatureJob * job, GstBuffer ** copy)
{
  WaitingFrame *w = g_new0 (WaitingFrame, 1);
  const GstVmafHipFrame *f = &w->frame;
  PendingSignature *ps = g_new0 (PendingSignature, 1);

  w->frame = *frame;
  w->frame.buffer = gst_vmaf_hip_content_holdings_hold (p->holdings,
      frame->buffer, copy, &w->held_from);
  if (!p->align)
    make_engine (p, f);
  count_window (p, ref_side, f);
  ps->ref_side = ref_side;
  ps->job = gst_vmaf_hip_signature_job_ref (job);
  g_queue_push_tail (&p->waiting[ref_side ? 0 : 1], w);
  g_queue_push_tail (&p->signatures, ps);
}

guint
gst_vmaf_hip_content_pairing_n_waiting (GstVmafHipContentPairing * p,
    gboolean ref_side)
{
  return g_queue_get_length (&p->waiting[ref_side ? 0 : 1]);
}

static void
take (GstVmafHipContentPairing * p, gboolean ref_side,
    GstVmafHipPairingResult * r)
{
  WaitingFrame *w = g_queue_pop_head (&p->waiting[ref_side ? 0 : 1]);

  g_assert (w != NULL);
  give_back (p, w);
  if (ref_side) {
    r->ref = w->frame;
    r->has_ref = TRUE;
  } else {
    r->dist = w->frame;
    r->has_dist = TRUE;
  }
  g_free (w);
}

static void
add_event (GstVmafHipContentPairing * p, const VhAlignDecision * d)
{
  GstStructure *s = gst_structure_new ("vmaf-align",
      "state", G_TYPE_STRING, vh_align_decision_type_to_string (d->type),
      "locked", G_TYPE_BOOLEAN, d->locked,
      "distorted-index", G_TYPE_UINT64, d->dist, NULL);

  p->locked = d->locked;
  if (d->type == VH_ALIGN_LOST) {
    gst_structure_set (s, "reason", G_TYPE_STRING,
        vh_align_reason_to_string (d->reason), NULL);
  } else {
    /* The offset in time comes with the first pair at it. */
    gst_structure_set (s, "align-offset-frames", G_TYPE_INT64, d->offset,
        NULL);
    p->offset_frames = d->offset;
    if (d->type == VH_ALIGN_OFFSET_CHANGED)
      p->changes++;
  }
  p->pending = d->type == VH_ALIGN_LOST ? NULL : s;
  g_queue_push_tail (&p->events, s);
}

gboolean
gst_vmaf_hip_content_pairing_next (GstVmafHipContentPairing * p,
    gboolean ref_over, gboolean dist_over, GstVmafHipPairingResult * r)
{
  VhAlignDecision d;

  memset (r, 0, sizeof (*r));
  if (!p->align)
    return FALSE;
  push_pending (p, ref_over || dist_over);
  if (ref_over && !p->ended[0]) {
    p->ended[0] = TRUE;
    vh_align_end_reference (p->align);
  }
  if (dist_over && !p->ended[1]) {
    p->ended[1] = TRUE;
    vh_align_end_distorted (p->align);
  }

  while (vh_align_pop (p->align, &d)) {
    switch (d.type) {
      case VH_ALIGN_PAIR:
        take (p, TRUE, r);
        take (p, FALSE, r);
        p->offset = GST_CLOCK_DIFF (r->dist.running_time,
            r->ref.running_time);
        p->have_offset = TRUE;
        r->ref.aligned = r->dist.aligned = TRUE;
        r->ref.align_offset_frames = r->dist.align_offset_frames = d.offset;
        r->ref.align_offset = r->dist.align_offset = p->offset;
        if (p->pending)
          gst_structure_set (p->pending, "align-offset", G_TYPE_INT64,
              p->offset, NULL);
        p->pending = NULL;
        return TRUE;
      case VH_ALIGN_REF_UNMATCHED:
        p->unmatched[0][d.reason]++;
        take (p, TRUE, r);
        r->dropped = d.reason == VH_ALIGN_REASON_DROPPED;
        r->other_ended = d.reason == VH_ALIGN_REASON_ENDED;
        return TRUE;
      case VH_ALIGN_DIST_UNMATCHED:
        p->unmatched[1][d.reason]++;
        take (p, FALSE, r);
        r->other_ended = d.reason == VH_ALIGN_REASON_ENDED;
        return TRUE;
      default:
        add_event (p, &d);
        break;
    }
  }
  return FALSE;
}

GstStructure *
gst_vmaf_hip_content_pairing_take_event (GstVmafHipContentPairing * p,
    gboolean at_end)
{
  GstStructure *s = g_queue_peek_head (&p->events);

  if (s == p->pending && !at_end)
    return NULL;
  if (s == p->pending)
    p->pending = NULL;
  return g_queue_pop_head (&p->events);
}

void
gst_vmaf_hip_content_pairing_add_counts (GstVmafHipContentPairing * p,
    GstStructure * s)
{
  guint64 (*u)[VH_ALIGN_REASON_ENDED + 1] = p->unmatched;

  gst_structure_set (s,
      "align", G_TYPE_STRING, "content",
      "align-locked", G_TYPE_BOOLEAN, p->locked,
      "align-offset-frames", G_TYPE_INT64, p->offset_frames,
      "align-offset", G_TYPE_INT64, p->have_offset ? p->offset : 0,
      "align-changes", G_TYPE_UINT64, p->changes,
      "align-reference-dropped", G_TYPE_UINT64,
      u[0][VH_ALIGN_REASON_DROPPED],
      "align-reference-not-locked", G_TYPE_UINT64,
      u[0][VH_ALIGN_REASON_NOT_LOCKED],
      "align-distorted-repeated", G_TYPE_UINT64,
      u[1][VH_ALIGN_REASON_REPEATED],
      "align-distorted-inserted", G_TYPE_UINT64,
      u[1][VH_ALIGN_REASON_INSERTED],
      "align-distorted-not-locked", G_TYPE_UINT64,
      u[1][VH_ALIGN_REASON_NOT_LOCKED], NULL);
}

gchar *
gst_vmaf_hip_content_pairing_describe (GstVmafHipContentPairing * p,
    gchar ** json)
{
  guint64 (*u)[VH_ALIGN_REASON_ENDED + 1] = p->unmatched;

  *json = g_strdup_printf ("{\"mode\": \"content\", \"locked\": %s, "
      "\"offset_frames\": %" G_GINT64_FORMAT ", \"offset_ns\": %"
      G_GINT64_FORMAT ", \"changes\": %" G_GUINT64_FORMAT ", "
      "\"reference_unmatched_counts\": {\"dropped\": %" G_GUINT64_FORMAT
      ", \"not-locked\": %" G_GUINT64_FORMAT "}, "
      "\"distorted_unmatched_counts\": {\"repeated\": %" G_GUINT64_FORMAT
      ", \"inserted\": %" G_GUINT64_FORMAT ", \"not-locked\": %"
      G_GUINT64_FORMAT "}}", p->locked ? "true" : "false", p->offset_frames,
      (gint64) (p->have_offset ? p->offset : 0), p->changes,
      u[0][VH_ALIGN_REASON_DROPPED], u[0][VH_ALIGN_REASON_NOT_LOCKED],
      u[1][VH_ALIGN_REASON_REPEATED], u[1][VH_ALIGN_REASON_INSERTED],
      u[1][VH_ALIGN_REASON_NOT_LOCKED]);

  return g_strdup_printf ("content: %s, offset %+" G_GINT64_FORMAT
      " frames (%+.3f s), %" G_GUINT64_FORMAT " changes; reference frames "
      "unscored: %" G_GUINT64_FORMAT " dropped, %" G_GUINT64_FORMAT
      " not locked; distorted frames unscored: %" G_GUINT64_FORMAT
      " repeated, %" G_GUINT64_FORMAT " inserted, %" G_GUINT64_FORMAT
      " not locked", p->locked ? "locked" : "not locked", p->offset_frames,
      (p->have_offset ? p->offset : 0) / (gdouble) GST_SECOND, p->changes,
      u[0][VH_ALIGN_REASON_DROPPED], u[0][VH_ALIGN_REASON_NOT_LOCKED],
      u[1][VH_ALIGN_REASON_REPEATED], u[1][VH_ALIGN_REASON_INSERTED],
      u[1][VH_ALIGN_REASON_NOT_LOCKED]);
}
