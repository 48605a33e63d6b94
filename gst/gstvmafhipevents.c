/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Black, freeze and low-score events. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>

#include "gstvmafhipevents.h"

#ifdef VH_HAVE_HIP
#include "hip-frame-probe.h"
#endif

GST_DEBUG_CATEGORY_EXTERN (gst_vmaf_hip_compare_debug);
#define GST_CAT_DEFAULT gst_vmaf_hip_compare_debug

/* The sample grid: at most this many luma samples a row and rows. */
#define SAMPLE_COLUMNS 480
#define SAMPLE_ROWS    270

/* A stretch of frames in one state (black, frozen, low). */
typedef struct
{
  const gchar *type;
  const gchar *input;
  gboolean open;                /* frames in the state so far */
  gboolean started;             /* its "start" was posted */
  GstClockTime start;
  GstClockTime last_time;
  GstClockTime last_duration;
  guint frames;
  gdouble min;
} Stretch;

/* One input's black and freeze detection. */
typedef struct
{
  Stretch black;
  Stretch freeze;
  GArray *previous;             /* guint16 samples of the last frame */
  GArray *current;
  guint width, height;          /* of the last frame */
  GstClockTime previous_time;
  gboolean warned_device;
#ifdef VH_HAVE_HIP
  /* Frames only in device memory: their sums on the GPU, the last one's
   * samples kept there; frames are judged in order once their sums are
   * back, waited for only when more than PENDING_DEPTH are queued (or at
   * the end): waiting for the last frame's would hold the aggregating
   * thread until the GPU has done the scoring queued before it. */
  VhHipFrameProbe *probe;
  GQueue pending;               /* PendingFrame, oldest first */
#endif
} InputState;

#ifdef VH_HAVE_HIP
#define PENDING_DEPTH 16

/* A device frame whose sums are on their way back. */
typedef struct
{
  VhHipProbeTicket *ticket;
  GstClockTime time, duration;
  guint width, height, bpc;
} PendingFrame;

static void
pending_frame_free (PendingFrame * f)
{
  g_clear_pointer (&f->ticket, vh_hip_probe_ticket_discard);
  g_free (f);
}

static void
pending_clear (GQueue * q)
{
  PendingFrame *f;

  while ((f = g_queue_pop_head (q)))
    pending_frame_free (f);
}
#endif

struct _GstVmafHipEvents
{
  GstElement *element;          /* not owned */
  GstVmafHipWatchSettings s;
  gchar *pad[2];                /* reference, distorted */
  gchar *metric;                /* what low-score watches */
  InputState input[2];
  Stretch low;
  gpointer device;              /* VhHipDevice of the probes, not owned */
};

static void
stretch_init (Stretch * st, const gchar * type, const gchar * input)
{
  st->type = type;
  st->input = input;
  st->open = FALSE;
  st->started = FALSE;
}

static void
input_init (InputState * in, const gchar * input)
{
  stretch_init (&in->black, "black", input);
  stretch_init (&in->freeze, "freeze", input);
  in->previous = g_array_new (FALSE, FALSE, sizeof (guint16));
  in->current = g_array_new (FALSE, FALSE, sizeof (guint16));
  in->width = in->height = 0;
  in->previous_time = GST_CLOCK_TIME_NONE;
}

GstVmafHipEvents *
gst_vmaf_hip_events_new (GstElement * element,
    const GstVmafHipWatchSettings * s)
{
  GstVmafHipEvents *ev = g_new0 (GstVmafHipEvents, 1);

  ev->element = element;
  gst_vmaf_hip_watch_settings_copy (&ev->s, s);
  ev->pad[0] = g_strdup ("ref_sink");
  ev->pad[1] = g_strdup ("dist_sink");
  ev->metric = g_strdup ("vmaf");
  input_init (&ev->input[0], "reference");
  input_init (&ev->input[1], "distorted");
  stretch_init (&ev->low, "low-score", "distorted");
  return ev;
}

void
gst_vmaf_hip_events_free (GstVmafHipEvents * ev)
{
  if (!ev)
    return;
  gst_vmaf_hip_events_set_device (ev, NULL);
  for (guint i = 0; i < 2; i++) {
    g_free (ev->pad[i]);
    g_array_unref (ev->input[i].previous);
    g_array_unref (ev->input[i].current);
  }
  g_free (ev->metric);
  gst_vmaf_hip_watch_settings_clear (&ev->s);
  g_free (ev);
}

void
gst_vmaf_hip_events_set_pads (GstVmafHipEvents * ev, const gchar * ref_pad,
    const gchar * dist_pad)
{
  g_free (ev->pad[0]);
  g_free (ev->pad[1]);
  ev->pad[0] = g_strdup (ref_pad);
  ev->pad[1] = g_strdup (dist_pad);
}

void
gst_vmaf_hip_events_set_metric (GstVmafHipEvents * ev, const gchar * metric)
{
  g_free (ev->metric);
  ev->metric = g_strdup (metric);
}

/* ---------------------------------------------------------------------- */
/* Messages                                                                */

static void
post (GstVmafHipEvents * ev, const Stretch * st, gboolean end,
    GstClockTime end_time)
{
  gboolean reference = !g_strcmp0 (st->input, "reference");
  GstStructure *s = gst_structure_new ("vmaf-event",
      "type", G_TYPE_STRING, st->type,
      "input", G_TYPE_STRING, st->input,
      "pad", G_TYPE_STRING, ev->pad[reference ? 0 : 1],
      "state", G_TYPE_STRING, end ? "end" : "start",
      "start", G_TYPE_UINT64, st->start, NULL);

  if (end)
    gst_structure_set (s, "end", G_TYPE_UINT64, end_time,
        "duration", G_TYPE_UINT64, end_time - st->start,
        "frames", G_TYPE_UINT, st->frames, NULL);
  if (st == &ev->low)
    gst_structure_set (s, "metric", G_TYPE_STRING, ev->metric,
        "threshold", G_TYPE_DOUBLE, ev->s.low_score_threshold,
        "min", G_TYPE_DOUBLE, st->min, NULL);
  GST_DEBUG_OBJECT (ev->element, "%" GST_PTR_FORMAT, s);
  gst_element_post_message (ev->element,
      gst_message_new_element (GST_OBJECT_CAST (ev->element), s));
}

/* The stretch ends before the frame at @t. */
static void
stretch_end (GstVmafHipEvents * ev, Stretch * st, GstClockTime t)
{
  if (st->open && st->started)
    post (ev, st, TRUE, MAX (t, st->start));
  st->open = FALSE;
  st->started = FALSE;
}

/* The last frame of the stream was in the stretch: it ends with that
 * frame's display (its duration, when known). */
static void
stretch_close (GstVmafHipEvents * ev, Stretch * st)
{
  GstClockTime end = st->last_time;

  if (GST_CLOCK_TIME_IS_VALID (st->last_duration))
    end += st->last_duration;
  stretch_end (ev, st, end);
}

/* One more frame in the state; the stretch, when new, starts at @start
 * with @frames frames already (a freeze's first picture). "start" is
 * posted once it lasted @min_duration and @min_frames frames. */
static void
stretch_add (GstVmafHipEvents * ev, Stretch * st, GstClockTime start,
    guint frames, GstClockTime t, GstClockTime duration, gdouble value,
    GstClockTime min_duration, guint min_frames)
{
  GstClockTime covered;

  if (!st->open) {
    st->open = TRUE;
    st->started = FALSE;
    st->start = start;
    st->frames = frames;
    st->min = value;
  }
  st->frames++;
  st->min = MIN (st->min, value);
  st->last_time = t;
  st->last_duration = duration;
  covered = t + (GST_CLOCK_TIME_IS_VALID (duration) ? duration : 0);
  covered = covered > st->start ? covered - st->start : 0;
  if (!st->started && covered >= min_duration && st->frames >= min_frames) {
    st->started = TRUE;
    post (ev, st, FALSE, GST_CLOCK_TIME_NONE);
  }
}

/* ---------------------------------------------------------------------- */
/* Luma statistics                                                         */

/* Row @row's samples at @x0, @x0 + @step, ... below @w into @out: a
 * plain copy, so that the sums below run over contiguous samples. */
static void
gather_row (const guint8 * row, gboolean wide, guint x0, guint step,
    guint w, guint16 * out)
{
  if (wide) {
    const guint16 *r = (const guint16 *) row;
    for (guint x = x0; x < w; x += step)
      *out++ = r[x];
  } else {
    for (guint x = x0; x < w; x += step)
      *out++ = row[x];
  }
}

/* The sum and the sum of squares of @n samples of at most SAMPLE_COLUMNS:
 * 8-bit ones add up in 32 bits (480 * 255^2 fits), which vectorises. */
static void
sum_row (const guint16 * v, guint n, gboolean wide, guint64 * sum,
    guint64 * sum_sq)
{
  guint32 s = 0;

  if (wide) {
    guint64 sq = 0;

    for (guint i = 0; i < n; i++) {
      s += v[i];
      sq += (guint64) v[i] * v[i];
    }
    *sum_sq += sq;
  } else {
    guint32 sq = 0;

    for (guint i = 0; i < n; i++) {
      s += v[i];
      sq += (guint32) v[i] * v[i];
    }
    *sum_sq += sq;
  }
  *sum += s;
}

/* The sample grid of a @w x @h luma: every step_x-th column from x0 and
 * every step_y-th row from y0, at most SAMPLE_COLUMNS x SAMPLE_ROWS. */
typedef struct
{
  guint x0, y0, step_x, step_y, per_row, rows;
} SampleGrid;

static void
sample_grid (guint w, guint h, SampleGrid * g)
{
  g->step_x = MAX ((w + SAMPLE_COLUMNS - 1) / SAMPLE_COLUMNS, 1);
  g->step_y = MAX ((h + SAMPLE_ROWS - 1) / SAMPLE_ROWS, 1);
  g->x0 = g->step_x / 2;
  g->y0 = g->step_y / 2;
  g->per_row = g->x0 < w ? (w - g->x0 + g->step_x - 1) / g->step_x : 0;
  g->rows = g->y0 < h ? (h - g->y0 + g->step_y - 1) / g->step_y : 0;
}

/* Mean and standard deviation in 8-bit code values from the @n samples'
 * sum and sum of squares (the CPU's and the GPU probe's alike). */
static void
stats_from_sums (guint64 sum, guint64 sum_sq, guint64 n, guint bpc,
    gdouble * mean, gdouble * stddev)
{
  gdouble scale = (gdouble) (1u << (bpc - 8));
  gdouble m = n ? (gdouble) sum / n : 0.0;
  gdouble var = n ? (gdouble) sum_sq / n - m * m : 0.0;

  *mean = m / scale;
  *stddev = sqrt (MAX (var, 0.0)) / scale;
}

/* The mean absolute difference of @n samples in 8-bit code values from
 * the sum of the differences. */
static gdouble
mad_from_sum (guint64 sum, guint64 n, guint bpc)
{
  return n ? (gdouble) sum / n / (1u << (bpc - 8)) : 0.0;
}

void
gst_vmaf_hip_luma_stats (const VhPicture * pic, gdouble * mean,
    gdouble * stddev, GArray * samples)
{
  guint w = pic->width[0], h = pic->height[0];
  SampleGrid g;
  gboolean wide = pic->info.bpc > 8;
  guint64 sum = 0, sum_sq = 0, n;
  guint16 row_samples[SAMPLE_COLUMNS];
  guint16 *out = row_samples;

  sample_grid (w, h, &g);
  n = (guint64) g.per_row * g.rows;
  /* This runs on every picture of both inputs: the samples are written
   * in place (an append each cost more than the sums), and each row's
   * are copied out first so that their sums vectorise. */
  if (samples) {
    g_array_set_size (samples, (guint) n);
    out = (guint16 *) samples->data;
  }
  for (guint y = g.y0; y < h; y += g.step_y) {
    gather_row (vh_picture_row (pic, 0, y), wide, g.x0, g.step_x, w, out);
    sum_row (out, g.per_row, wide, &sum, &sum_sq);
    if (samples)
      out += g.per_row;
  }
  stats_from_sums (sum, sum_sq, n, pic->info.bpc, mean, stddev);
}

/* Mean absolute difference of two sample sets, in 8-bit code values.
 * Summed in 32-bit parts of 65536 samples (65535 * 65536 fits), which
 * vectorises. */
static gdouble
mean_abs_diff (GArray * a, GArray * b, guint bpc)
{
  const guint16 *x = (const guint16 *) a->data, *y =
      (const guint16 *) b->data;
  guint n = a->len;
  guint64 sum = 0;

  for (guint i = 0; i < n;) {
    guint end = n - i > 65536 ? i + 65536 : n;
    guint32 part = 0;

    for (; i < end; i++)
      part += (guint32) ABS ((gint) x[i] - (gint) y[i]);
    sum += part;
  }
  return mad_from_sum (sum, n, bpc);
}

/* The picture in host memory, if it has one. */
static const VhPicture *
host_picture (const VhPicture * pic)
{
  if (pic->mem_type == VH_MEMORY_HOST && pic->data[0])
    return pic;
  if (pic->twin && pic->twin->mem_type == VH_MEMORY_HOST &&
      pic->twin->data[0])
    return pic->twin;
  return NULL;
}

/* A frame's verdicts from its statistics: @compared when its samples were
 * compared with the previous frame's (same size, not after a flush), with
 * mean absolute difference @mad. */
static void
judge (GstVmafHipEvents * ev, InputState * in, GstClockTime t,
    GstClockTime duration, gdouble mean, gdouble stddev, gboolean compared,
    gdouble mad, guint width, guint height)
{
  gboolean want_black = ev->s.black_threshold > 0.0;
  gboolean want_freeze = ev->s.freeze_threshold > 0.0;
  gboolean black = want_black && mean < ev->s.black_threshold &&
      stddev < ev->s.black_spread;

  if (want_black) {
    if (black)
      stretch_add (ev, &in->black, t, 0, t, duration, mean,
          ev->s.black_min_duration, 1);
    else
      stretch_end (ev, &in->black, t);
  }
  if (want_freeze) {
    /* a black stretch is black, not also frozen */
    if (!black && compared && mad < ev->s.freeze_threshold)
      /* the picture froze when the previous frame was shown */
      stretch_add (ev, &in->freeze, in->previous_time, 1, t, duration, 0.0,
          ev->s.freeze_min_duration, 1);
    else
      stretch_end (ev, &in->freeze, t);
    in->width = width;
    in->height = height;
    in->previous_time = t;
  }
}

static void
host_frame (GstVmafHipEvents * ev, InputState * in, const VhPicture * host,
    GstClockTime t, GstClockTime duration)
{
  gboolean want_freeze = ev->s.freeze_threshold > 0.0;
  gboolean compared;
  gdouble mean, stddev;
  GArray *swap;

  gst_vmaf_hip_luma_stats (host, &mean, &stddev,
      want_freeze ? in->current : NULL);
  compared = want_freeze && in->width == host->width[0] &&
      in->height == host->height[0] && in->previous->len == in->current->len
      && GST_CLOCK_TIME_IS_VALID (in->previous_time);
  /* the difference only where it decides (not for a black frame) */
  judge (ev, in, t, duration, mean, stddev, compared,
      compared && !(ev->s.black_threshold > 0.0 &&
          mean < ev->s.black_threshold && stddev < ev->s.black_spread) ?
      mean_abs_diff (in->current, in->previous, host->info.bpc) : 0.0,
      host->width[0], host->height[0]);
  if (want_freeze) {
    swap = in->previous;
    in->previous = in->current;
    in->current = swap;
  }
#ifdef VH_HAVE_HIP
  /* the next device frame has nothing on the device to compare with */
  if (in->probe)
    vh_hip_frame_probe_forget_samples (in->probe);
#endif
}

#ifdef VH_HAVE_HIP
/* A device frame's sums, waited for if need be, judged as the CPU
 * judges a frame. */
static void
judge_device_frame (GstVmafHipEvents * ev, InputState * in, PendingFrame * f)
{
  VhHipProbeSamples r;
  SampleGrid g;
  GError *err = NULL;
  guint64 n;
  gdouble mean, stddev;
  gboolean compared;
  VhHipProbeTicket *ticket = f->ticket;

  f->ticket = NULL;
  if (!vh_hip_probe_ticket_collect_samples (ticket, &r, &err)) {
    GST_WARNING_OBJECT (ev->element, "black and freeze detection of a %s "
        "frame in GPU memory failed: %s", in->black.input, err->message);
    g_error_free (err);
    return;
  }
  sample_grid (f->width, f->height, &g);
  n = (guint64) g.per_row * g.rows;
  stats_from_sums (r.sum, r.sum_sq, n, f->bpc, &mean, &stddev);
  compared = r.has_diff && in->width == f->width && in->height == f->height
      && GST_CLOCK_TIME_IS_VALID (in->previous_time);
  judge (ev, in, f->time, f->duration, mean, stddev, compared,
      mad_from_sum (r.sum_abs_diff, n, f->bpc), f->width, f->height);
  /* a later host frame has no host samples to compare with */
  g_array_set_size (in->previous, 0);
}

/* Judges the queued device frames in order: those whose sums are back,
 * and, waiting for them, as many as make the queue no longer than
 * @keep. */
static void
judge_pending (GstVmafHipEvents * ev, InputState * in, guint keep)
{
  PendingFrame *f;

  while ((f = g_queue_peek_head (&in->pending)) &&
      (in->pending.length > keep || vh_hip_probe_ticket_ready (f->ticket))) {
    g_queue_pop_head (&in->pending);
    judge_device_frame (ev, in, f);
    pending_frame_free (f);
  }
}

/* Queues the sums of a frame only in device memory; FALSE (said once)
 * where no probe can run. */
static gboolean
device_frame (GstVmafHipEvents * ev, InputState * in, const VhPicture * pic,
    GstClockTime t, GstClockTime duration)
{
  gboolean want_freeze = ev->s.freeze_threshold > 0.0;
  VhHipProbeGrid grid;
  VhHipProbeTicket *ticket = NULL;
  PendingFrame *f;
  SampleGrid g;
  GError *err = NULL;

  if (!ev->device) {
    g_set_error (&err, VH_HIP_ERROR, VH_HIP_ERROR_INVALID_ARGUMENT,
        "the element has no GPU of its own to read them on");
    goto failed;
  }
  if (!in->probe)
    in->probe = vh_hip_frame_probe_new (ev->device, &err);
  if (!in->probe)
    goto failed;
  sample_grid (pic->width[0], pic->height[0], &g);
  grid.x0 = g.x0;
  grid.y0 = g.y0;
  grid.step_x = g.step_x;
  grid.step_y = g.step_y;
  grid.per_row = g.per_row;
  grid.rows = g.rows;
  ticket = vh_hip_frame_probe_samples (in->probe, (VhPicture *) pic, &grid,
      want_freeze, &err);
  if (!ticket)
    goto failed;
  f = g_new0 (PendingFrame, 1);
  f->ticket = ticket;
  f->time = t;
  f->duration = duration;
  f->width = pic->width[0];
  f->height = pic->height[0];
  f->bpc = pic->info.bpc;
  g_queue_push_tail (&in->pending, f);
  judge_pending (ev, in, PENDING_DEPTH);
  return TRUE;

failed:
  judge_pending (ev, in, 0);
  if (!in->warned_device)
    GST_ELEMENT_INFO (ev->element, STREAM, NOT_IMPLEMENTED,
        ("Black and freeze detection skip the %s input: its frames are "
            "in GPU memory and cannot be read there: %s", in->black.input,
            err->message), (NULL));
  in->warned_device = TRUE;
  g_error_free (err);
  return FALSE;
}
#endif

void
gst_vmaf_hip_events_set_device (GstVmafHipEvents * ev, gpointer device)
{
  if (ev->device == device)
    return;
#ifdef VH_HAVE_HIP
  for (guint i = 0; i < 2; i++) {
    InputState *in = &ev->input[i];

    pending_clear (&in->pending);
    g_clear_pointer (&in->probe, vh_hip_frame_probe_free);
  }
#endif
  ev->device = device;
}

void
gst_vmaf_hip_events_picture (GstVmafHipEvents * ev, gboolean reference,
    const VhPicture * pic, GstClockTime t, GstClockTime duration)
{
  InputState *in = &ev->input[reference ? 0 : 1];
  gboolean want_black = ev->s.black_threshold > 0.0;
  gboolean want_freeze = ev->s.freeze_threshold > 0.0;
  const VhPicture *host;

  if (!pic || (!want_black && !want_freeze) || !GST_CLOCK_TIME_IS_VALID (t))
    return;
  host = host_picture (pic);
  if (host) {
#ifdef VH_HAVE_HIP
    judge_pending (ev, in, 0);
#endif
    host_frame (ev, in, host, t, duration);
    return;
  }
#ifdef VH_HAVE_HIP
  if (pic->mem_type == VH_MEMORY_HIP_DEVICE)
    device_frame (ev, in, pic, t, duration);
#endif
}

void
gst_vmaf_hip_events_score (GstVmafHipEvents * ev, gdouble score,
    GstClockTime t, GstClockTime duration)
{
  if (ev->s.low_score_threshold <= 0.0 || !GST_CLOCK_TIME_IS_VALID (t))
    return;
  if (score < ev->s.low_score_threshold)
    stretch_add (ev, &ev->low, t, 0, t, duration, score, 0,
        MAX (ev->s.low_score_min_frames, 1));
  else
    stretch_end (ev, &ev->low, t);
}

void
gst_vmaf_hip_events_finish (GstVmafHipEvents * ev)
{
#ifdef VH_HAVE_HIP
  for (guint i = 0; i < 2; i++)
    judge_pending (ev, &ev->input[i], 0);
#endif
  for (guint i = 0; i < 2; i++) {
    stretch_close (ev, &ev->input[i].black);
    stretch_close (ev, &ev->input[i].freeze);
  }
  stretch_close (ev, &ev->low);
}

void
gst_vmaf_hip_events_reset (GstVmafHipEvents * ev)
{
  for (guint i = 0; i < 2; i++) {
    InputState *in = &ev->input[i];

    in->black.open = in->freeze.open = FALSE;
    in->black.started = in->freeze.started = FALSE;
    in->previous_time = GST_CLOCK_TIME_NONE;
#ifdef VH_HAVE_HIP
    /* the frames before the flush are not judged */
    pending_clear (&in->pending);
#endif
  }
  ev->low.open = ev->low.started = FALSE;
}
