/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Frames as they arrive on the sink pads: the pad probe, the pairing and
 * their accounting. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvmafhipinputs.h"
#include "gstvmafhipinputwait.h"
#include "gstvmafhipcontentpairing.h"
#include "gstvmafhipcaps.h"

#include <string.h>

GST_DEBUG_CATEGORY_EXTERN (gst_vmaf_hip_compare_debug);
#define GST_CAT_DEFAULT gst_vmaf_hip_compare_debug

/* How many frames of one side wait for the other side's frame of the
 * same moment: a live branch may reach the element some slots after the
 * other one and keep that lag. */
#define MAX_WAITING_FRAMES 4

/* The same without a live source, where nothing is late: a frame waits
 * for its partner as long as it takes (the base class holds back the side
 * that runs ahead, and its queue, not this, bounds the memory); only a
 * limit against a side that never sends. */
#define MAX_WAITING_FRAMES_NOT_LIVE 1024

/* One sink pad, since start or its last flush, under the lock. Every
 * frame inside the segment that arrives goes to the pairing at once: it
 * is scored with its partner or counted unpaired. Frames that arrive
 * without caps or past the segment's stop are dropped. */
typedef struct
{
  GstVmafHipInputs *inputs;
  GstVideoAggregatorPad *pad;
  gboolean reference;
  guint64 arrived;              /* frames inside the segment's start */
  GstVideoInfo info;            /* the pad's caps, as its thread saw them */
  gboolean have_info;
  gboolean over;                /* EOS: no frame comes any more */
  GstSegment segment;           /* the pad's, as the pad's thread saw it */
  gboolean untimed_said;        /* a frame without a timestamp was refused */
  gint caps_refused;            /* atomic */
  guint rate_step;              /* k: every k-th frame is paired (a rate k
                                 * times the other pad's), else 1 */
  guint64 rate_seen;            /* frames counted for rate_step */
  gboolean released;            /* a request pad given back: no frame comes */
} Input;

/* One side of a match, under the lock. */
typedef struct
{
  guint64 decided;              /* left the pairing: scored or unpaired */
  guint64 unpaired;
  guint64 unpaired_after_end;   /* of those, after the other side ended */
} Tally;

/* A distorted pad and the reference it is scored against. */
typedef struct
{
  Input *side[2];               /* [0] reference, [1] distorted */
  GstVmafHipPairing *pairing;
  GstVmafHipContentPairing *content;    /* align=content, else NULL */
  Tally tally[2];
} Match;

struct _GstVmafHipInputs
{
  GstAggregator *agg;           /* not owned */
  GMutex lock;
  Input *reference;
  GPtrArray *inputs;            /* Input *, the reference first */
  GPtrArray *matches;           /* Match *, one per distorted pad */
  gboolean warned_out_of_step;  /* aggregate thread */
  GstVmafHipInputWait *wait;    /* input-timeout */
  gboolean align_content;       /* align=content, for matches made later */
  GstClockTime align_window;
  GstVmafHipContentHoldings *holdings;  /* what the content pairings hold */
  GstVmafHipSignatures *signatures;     /* align=content */
};

static void inputs_waited (gpointer data, GstClockTime waited);

static void
input_free (gpointer data)
{
  Input *in = data;

  gst_object_unref (in->pad);
  g_free (in);
}

static void
match_free (gpointer data)
{
  Match *m = data;

  gst_vmaf_hip_pairing_free (m->pairing);
  gst_vmaf_hip_content_pairing_free (m->content);
  g_free (m);
}

/* The match's pairing: by content (align=content, @job the frame's
 * signature on its way, @copy its copy if one was made for waiting) or
 * by running time. */
static void
match_push (Match * m, gboolean ref_side, const GstVmafHipFrame * f,
    GstVmafHipSignatureJob * job, GstBuffer ** copy)
{
  if (m->content)
    gst_vmaf_hip_content_pairing_push (m->content, ref_side, f, job, copy);
  else
    gst_vmaf_hip_pairing_push (m->pairing, ref_side, f);
}

static guint
match_n_waiting (const Match * m, gboolean ref_side)
{
  return m->content ? gst_vmaf_hip_content_pairing_n_waiting (m->content,
      ref_side) : gst_vmaf_hip_pairing_n_waiting (m->pairing, ref_side);
}

static void
match_clear_side (Match * m, gboolean ref_side)
{
  if (m->content)
    gst_vmaf_hip_content_pairing_clear_side (m->content, ref_side);
  gst_vmaf_hip_pairing_clear_side (m->pairing, ref_side);
}

GstVmafHipInputs *
gst_vmaf_hip_inputs_new (GstAggregator * agg)
{
  GstVmafHipInputs *inputs = g_new0 (GstVmafHipInputs, 1);

  inputs->agg = agg;
  g_mutex_init (&inputs->lock);
  inputs->inputs = g_ptr_array_new_with_free_func (input_free);
  inputs->matches = g_ptr_array_new_with_free_func (match_free);
  inputs->holdings = gst_vmaf_hip_content_holdings_new (GST_ELEMENT (agg));
  inputs->wait = gst_vmaf_hip_input_wait_new (inputs_waited, inputs);
  inputs->signatures = gst_vmaf_hip_signatures_new (GST_ELEMENT (agg));
  return inputs;
}

void
gst_vmaf_hip_inputs_free (GstVmafHipInputs * inputs)
{
  if (!inputs)
    return;
  gst_vmaf_hip_input_wait_free (inputs->wait);
  g_ptr_array_unref (inputs->matches);
  g_ptr_array_unref (inputs->inputs);
  /* after the pairings: their jobs are gone */
  gst_vmaf_hip_signatures_free (inputs->signatures);
  /* after the pairings, which give back what they hold */
  gst_vmaf_hip_content_holdings_free (inputs->holdings);
  g_mutex_clear (&inputs->lock);
  g_free (inputs);
}

static GstPadProbeReturn pad_probe (GstPad * pad, GstPadProbeInfo * info,
    gpointer user_data);

/* Probes @pad and makes its match (a distorted pad). Called with the lock
 * held, or before any thread runs. */
static guint
register_pad (GstVmafHipInputs * inputs, GstVideoAggregatorPad * pad,
    gboolean reference)
{
  Input *in = g_new0 (Input, 1);
  guint index = inputs->matches->len;

  in->inputs = inputs;
  in->reference = reference;
  in->pad = gst_object_ref (pad);
  gst_segment_init (&in->segment, GST_FORMAT_UNDEFINED);
  g_ptr_array_add (inputs->inputs, in);
  if (reference) {
    inputs->reference = in;
  } else {
    Match *m = g_new0 (Match, 1);

    m->side[0] = inputs->reference;
    m->side[1] = in;
    m->pairing = gst_vmaf_hip_pairing_new (MAX_WAITING_FRAMES);
    if (inputs->align_content)
      m->content = gst_vmaf_hip_content_pairing_new (GST_ELEMENT
          (inputs->agg), inputs->align_window, inputs->holdings);
    g_ptr_array_add (inputs->matches, m);
  }
  gst_pad_add_probe (GST_PAD (in->pad), GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_EVENT_FLUSH | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM,
      pad_probe, in, NULL);
  return index;
}

void
gst_vmaf_hip_inputs_add_pad (GstVmafHipInputs * inputs,
    GstVideoAggregatorPad * pad, gboolean reference)
{
  g_return_if_fail (reference == (inputs->reference == NULL));
  register_pad (inputs, pad, reference);
  gst_element_add_pad (GST_ELEMENT (inputs->agg), GST_PAD (pad));
}

guint
gst_vmaf_hip_inputs_adopt_pad (GstVmafHipInputs * inputs,
    GstVideoAggregatorPad * pad)
{
  guint index;

  g_mutex_lock (&inputs->lock);
  index = register_pad (inputs, pad, FALSE);
  g_mutex_unlock (&inputs->lock);
  return index;
}

guint
gst_vmaf_hip_inputs_n_matches (GstVmafHipInputs * inputs)
{
  guint n;

  g_mutex_lock (&inputs->lock);
  n = inputs->matches->len;
  g_mutex_unlock (&inputs->lock);
  return n;
}

GstVideoAggregatorPad *
gst_vmaf_hip_inputs_reference_pad (GstVmafHipInputs * inputs)
{
  return inputs->reference->pad;
}

static Match *
match (GstVmafHipInputs * inputs, guint i)
{
  return g_ptr_array_index (inputs->matches, i);
}

/* Pads and matches are only added (a released pad's stay), under the
 * lock: what they point to stays valid. */
GstVideoAggregatorPad *
gst_vmaf_hip_inputs_distorted_pad (GstVmafHipInputs * inputs, guint i)
{
  GstVideoAggregatorPad *pad;

  g_mutex_lock (&inputs->lock);
  pad = match (inputs, i)->side[1]->pad;
  g_mutex_unlock (&inputs->lock);
  return pad;
}

static Input *
input_of (GstVmafHipInputs * inputs, GstPad * pad)
{
  Input *found = NULL;

  g_mutex_lock (&inputs->lock);
  for (guint i = 0; i < inputs->inputs->len && !found; i++) {
    Input *in = g_ptr_array_index (inputs->inputs, i);
    if (GST_PAD (in->pad) == pad)
      found = in;
  }
  g_mutex_unlock (&inputs->lock);
  g_return_val_if_fail (found != NULL, NULL);
  return found;
}

gint
gst_vmaf_hip_inputs_match_of_pad (GstVmafHipInputs * inputs, GstPad * pad)
{
  gint index = -1;

  g_mutex_lock (&inputs->lock);
  for (guint i = 0; i < inputs->matches->len && index < 0; i++)
    if (GST_PAD (match (inputs, i)->side[1]->pad) == pad)
      index = (gint) i;
  g_mutex_unlock (&inputs->lock);
  return index;
}

GstVideoAggregatorPad *
gst_vmaf_hip_inputs_partner_pad (GstVmafHipInputs * inputs, GstPad * pad)
{
  if (input_of (inputs, pad)->reference)
    return gst_vmaf_hip_inputs_distorted_pad (inputs, 0);
  return inputs->reference->pad;
}

void
gst_vmaf_hip_inputs_set_caps_refused (GstVmafHipInputs * inputs,
    GstPad * pad, gboolean refused)
{
  g_atomic_int_set (&input_of (inputs, pad)->caps_refused, refused);
}

gboolean
gst_vmaf_hip_inputs_caps_refused (GstVmafHipInputs * inputs)
{
  gboolean refused = FALSE;

  g_mutex_lock (&inputs->lock);
  for (guint i = 0; i < inputs->inputs->len && !refused; i++) {
    Input *in = g_ptr_array_index (inputs->inputs, i);
    refused = !in->released && g_atomic_int_get (&in->caps_refused);
  }
  g_mutex_unlock (&inputs->lock);
  return refused;
}

void
gst_vmaf_hip_inputs_release_pad (GstVmafHipInputs * inputs, GstPad * pad)
{
  g_mutex_lock (&inputs->lock);
  for (guint i = 0; i < inputs->matches->len; i++) {
    Match *m = match (inputs, i);

    if (GST_PAD (m->side[1]->pad) != pad)
      continue;
    m->side[1]->released = TRUE;
    m->side[1]->over = TRUE;
    gst_vmaf_hip_pairing_clear (m->pairing);
  }
  g_mutex_unlock (&inputs->lock);
}

gboolean
gst_vmaf_hip_inputs_released (GstVmafHipInputs * inputs, guint i)
{
  gboolean released;

  g_mutex_lock (&inputs->lock);
  released = match (inputs, i)->side[1]->released;
  g_mutex_unlock (&inputs->lock);
  return released;
}

/* ---------------------------------------------------------------------- */
/* Accounting                                                              */

/* Which side of @m @in is, or -1. */
static gint
side_in (const Match * m, const Input * in)
{
  return m->side[0] == in ? 0 : m->side[1] == in ? 1 : -1;
}

/* Forgets a pad's frames and counts (at start, stop, or its flush).
 * Called with the lock held. */
static void
input_reset (GstVmafHipInputs * inputs, Input * in)
{
  in->arrived = 0;
  in->rate_seen = 0;
  in->over = in->released;
  in->untimed_said = FALSE;
  for (guint i = 0; i < inputs->matches->len; i++) {
    Match *m = match (inputs, i);
    gint s = side_in (m, in);

    if (s < 0)
      continue;
    m->tally[s].decided = 0;
    match_clear_side (m, s == 0);
  }
}

/* Frames of one side of @m that arrived and neither are waiting for a
 * partner nor left the pairing. Called with the lock held. */
static guint64
count_dropped (const Match * m, guint s)
{
  guint64 done = m->tally[s].decided +
      match_n_waiting (m, s == 0);

  return m->side[s]->arrived > done ? m->side[s]->arrived - done : 0;
}

void
gst_vmaf_hip_inputs_start (GstVmafHipInputs * inputs,
    GstClockTime input_timeout)
{
  g_mutex_lock (&inputs->lock);
  for (guint i = 0; i < inputs->matches->len; i++) {
    Match *m = match (inputs, i);
    memset (m->tally, 0, sizeof (m->tally));
  }
  for (guint i = 0; i < inputs->inputs->len; i++) {
    Input *in = g_ptr_array_index (inputs->inputs, i);
    input_reset (inputs, in);
    g_atomic_int_set (&in->caps_refused, 0);
  }
  g_mutex_unlock (&inputs->lock);
  inputs->warned_out_of_step = FALSE;
  gst_vmaf_hip_input_wait_start (inputs->wait, input_timeout);
}

void
gst_vmaf_hip_inputs_stop (GstVmafHipInputs * inputs)
{
  gst_vmaf_hip_input_wait_stop (inputs->wait);
  g_mutex_lock (&inputs->lock);
  for (guint i = 0; i < inputs->inputs->len; i++) {
    Input *in = g_ptr_array_index (inputs->inputs, i);
    input_reset (inputs, in);
    in->have_info = FALSE;
    gst_segment_init (&in->segment, GST_FORMAT_UNDEFINED);
  }
  g_mutex_unlock (&inputs->lock);
}

void
gst_vmaf_hip_inputs_flush (GstVmafHipInputs * inputs)
{
  inputs->warned_out_of_step = FALSE;
}

/* ---------------------------------------------------------------------- */
/* Pads that never send                                                    */

/* input-timeout has passed since the first caps or frame on a sink pad. */
static void
inputs_waited (gpointer data, GstClockTime waited)
{
  GstVmafHipInputs *inputs = data;
  Input *silent = NULL;

  g_mutex_lock (&inputs->lock);
  for (guint i = 0; i < inputs->inputs->len && !silent; i++) {
    Input *in = g_ptr_array_index (inputs->inputs, i);
    if (!in->have_info && !in->over)
      silent = in;
  }
  g_mutex_unlock (&inputs->lock);
  if (silent)
    gst_vmaf_hip_input_wait_say_silent (GST_ELEMENT (inputs->agg),
        GST_PAD (silent->pad), silent->reference, NULL, waited);
}

/* @ended is at EOS: an unlinked pad can send nothing any more. */
static void
say_unlinked_at_eos (GstVmafHipInputs * inputs, Input * ended)
{
  for (guint i = 0;; i++) {
    Input *in = NULL;
    gboolean silent;

    g_mutex_lock (&inputs->lock);
    if (i < inputs->inputs->len)
      in = g_ptr_array_index (inputs->inputs, i);
    silent = in && in != ended && !in->have_info && !in->over;
    g_mutex_unlock (&inputs->lock);
    if (!in)
      break;
    if (silent && !gst_pad_is_linked (GST_PAD (in->pad))) {
      gst_vmaf_hip_input_wait_say_silent (GST_ELEMENT (inputs->agg),
          GST_PAD (in->pad), in->reference, GST_PAD (ended->pad), 0);
      return;
    }
  }
}

/* ---------------------------------------------------------------------- */
/* The pad probe: frames as they arrive                                    */

/* Frame time in the pad's segment, as its thread saw it; @start is the
 * frame's start clipped to the segment, as the base class clips it. Goes
 * to every match the pad is in, with its alignment signature on its way
 * (@job, align=content). Called with the lock held. */
static void
push_frame (GstVmafHipInputs * inputs, Input * in, GstBuffer * buf,
    GstClockTime start, GstVmafHipSignatureJob * job)
{
  GstVmafHipFrame f = { 0 };
  /* a copy made for frames that wait, shared by the renditions */
  GstBuffer *copy = NULL;

  f.buffer = buf;
  f.info = in->info;
  f.pts = GST_BUFFER_PTS (buf);
  f.duration = GST_BUFFER_DURATION (buf);
  f.stream_time = gst_segment_to_stream_time (&in->segment, GST_FORMAT_TIME,
      start);
  f.running_time = gst_segment_to_running_time (&in->segment,
      GST_FORMAT_TIME, start);
  for (guint i = 0; i < inputs->matches->len; i++) {
    Match *m = match (inputs, i);
    gint s = side_in (m, in);

    if (s >= 0)
      match_push (m, s == 0, &f, job, &copy);
  }
  gst_clear_buffer (&copy);
}

/* Whether the pad's frames are in time: no segment yet (after a flush)
 * counts as in time, a segment of bytes or buffers does not. */
static gboolean
segment_in_time (const Input * in)
{
  return in->segment.format == GST_FORMAT_TIME ||
      in->segment.format == GST_FORMAT_UNDEFINED;
}

/* Whether the pad's frames can be paired: in time and played forwards
 * (frames are paired and temporal features computed in stream order). */
static gboolean
segment_usable (const Input * in)
{
  return segment_in_time (in) && in->segment.rate > 0;
}

/* A pad at a rate k times the other's: of every k frames, the first is
 * paired and the others are left to the base class. */
static gboolean
skipped_for_rate (Input * in)
{
  gboolean skip = in->rate_step > 1 && in->rate_seen % in->rate_step != 0;

  in->rate_seen++;
  return skip;
}

/* After caps: each pad's rate_step against the others' rates. Called with
 * the lock held. */
static void
update_rate_steps (GstVmafHipInputs * inputs)
{
  for (guint i = 0; i < inputs->inputs->len; i++) {
    Input *a = g_ptr_array_index (inputs->inputs, i);
    guint step = 1;

    for (guint j = 0; j < inputs->inputs->len && a->have_info; j++) {
      Input *b = g_ptr_array_index (inputs->inputs, j);
      if (b != a && b->have_info)
        step = MAX (step, gst_vmaf_hip_rate_step (a->info.fps_n,
                a->info.fps_d, b->info.fps_n, b->info.fps_d));
    }
    if (step != a->rate_step && step > 1)
      GST_INFO_OBJECT (inputs->agg, "%s runs %u times as fast as the other "
          "input: every %u-th frame is scored", GST_PAD_NAME (a->pad), step,
          step);
    if (step != a->rate_step)
      a->rate_seen = 0;
    a->rate_step = step;
  }
}

/* A frame: paired, or refused (a segment not in time, said when it came;
 * no timestamp, which the base class cannot place and fails the stream on
 * without a word: said here, once). Called with the lock held, which it
 * releases. */
static GstPadProbeReturn
probe_buffer (Input * in, GstPad * pad, GstPadProbeInfo * info,
    GstVmafHipSignatureJob * job)
{
  GstVmafHipInputs *inputs = in->inputs;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstClockTime pts = GST_BUFFER_PTS (buf);
  GstFlowReturn refusal = GST_FLOW_OK;
  gboolean say_untimed = FALSE;
  GstClockTime end;
  guint64 start;
  gboolean inside;

  if (!segment_usable (in)) {
    refusal = GST_FLOW_NOT_NEGOTIATED;
  } else if (!GST_CLOCK_TIME_IS_VALID (pts)) {
    refusal = GST_FLOW_ERROR;
    say_untimed = !in->untimed_said;
    in->untimed_said = TRUE;
  }
  if (refusal != GST_FLOW_OK) {
    g_mutex_unlock (&inputs->lock);
    if (say_untimed)
      GST_ELEMENT_ERROR (inputs->agg, STREAM, FORMAT,
          ("%s: a frame without a timestamp: frames are paired by their "
              "timestamps. Give a live source do-timestamp=true, or read "
              "raw video through a parser that stamps its frames "
              "(rawvideoparse) before %s.%s", GST_PAD_NAME (pad),
              GST_OBJECT_NAME (inputs->agg), GST_PAD_NAME (pad)), (NULL));
    gst_buffer_unref (buf);
    GST_PAD_PROBE_INFO_FLOW_RETURN (info) = refusal;
    return GST_PAD_PROBE_HANDLED;
  }

  end = GST_BUFFER_DURATION_IS_VALID (buf) ?
      pts + GST_BUFFER_DURATION (buf) : pts;
  start = pts;
  inside = in->segment.format != GST_FORMAT_TIME ||
      gst_segment_clip (&in->segment, GST_FORMAT_TIME, pts, end, &start,
      NULL);

  /* Frames before the segment's start (what a parser sends ahead of an
   * accurate seek's position) are clipped by design, not dropped: they do
   * not count. Frames past its stop do. */
  if ((inside || pts >= in->segment.start) && !skipped_for_rate (in)) {
    in->arrived++;
    if (inside && in->have_info)
      push_frame (inputs, in, buf, start, job);
  }
  g_mutex_unlock (&inputs->lock);
  return GST_PAD_PROBE_OK;
}

/* The base classes assert on a segment in another format than time
 * (filesrc straight into the element: bytes) or played backwards: refused
 * with what to do instead. They get an empty forward time segment in its
 * place (dropping it would leave the pad without one); the pad's frames
 * are refused in probe_buffer(). */
static void
refuse_segment (Input * in, GstPad * pad, GstPadProbeInfo * info,
    GstFormat format, gdouble rate)
{
  GstElement *self = GST_ELEMENT (in->inputs->agg);
  GstSegment in_time;

  if (format != GST_FORMAT_TIME)
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("%s: the video comes in a segment of %s, not of time: frames "
            "are paired by their timestamps. Raw video from a file needs "
            "a parser that stamps its frames: filesrc ! rawvideoparse "
            "width=W height=H format=F framerate=N/D ! %s.%s",
            GST_PAD_NAME (pad), gst_format_get_name (format),
            GST_OBJECT_NAME (self), GST_PAD_NAME (pad)),
        ("segment format %d", format));
  else
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("%s: the video comes in a segment played backwards (rate %g): "
            "frames are paired and scored in forward order only. Play the "
            "streams forwards (a seek with a positive rate).",
            GST_PAD_NAME (pad), rate), ("segment rate %g", rate));
  gst_segment_init (&in_time, GST_FORMAT_TIME);
  gst_event_unref (GST_PAD_PROBE_INFO_EVENT (info));
  GST_PAD_PROBE_INFO_DATA (info) = gst_event_new_segment (&in_time);
}

/* On each sink pad, in the upstream thread: every frame goes to the
 * pairing as it arrives; the events that frame needs are noted. */
static GstPadProbeReturn
pad_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Input *in = user_data;
  GstVmafHipInputs *inputs = in->inputs;
  GstEvent *ev;
  gboolean refused = FALSE;
  GstFormat format = GST_FORMAT_UNDEFINED;
  gdouble rate = 1.0;
  GstVmafHipSignatureJob *job = NULL;
  GstPadProbeReturn ret;

  if (info->type & GST_PAD_PROBE_TYPE_BUFFER || GST_EVENT_TYPE
      (GST_PAD_PROBE_INFO_EVENT (info)) == GST_EVENT_CAPS)
    gst_vmaf_hip_input_wait_arm (inputs->wait);
  /* The frame's alignment signature starts here, outside the lock: on a
   * worker for a large frame in system memory (a pass over its luma plane
   * on this thread would hold up its producer, and under the lock the
   * other inputs and the aggregating thread too), on the GPU for one in
   * its memory, through a CPU mapping for any other. The pad's video
   * info changes only on this thread; the alignment mode only before
   * streaming. */
  if (info->type & GST_PAD_PROBE_TYPE_BUFFER && inputs->align_content &&
      in->have_info)
    job = gst_vmaf_hip_signatures_start (inputs->signatures, &in->info,
        GST_PAD_PROBE_INFO_BUFFER (info));
  g_mutex_lock (&inputs->lock);
  if (info->type & GST_PAD_PROBE_TYPE_BUFFER) {
    ret = probe_buffer (in, pad, info, job);
    gst_vmaf_hip_signature_job_unref (job);
    return ret;
  }

  ev = GST_PAD_PROBE_INFO_EVENT (info);
  switch (GST_EVENT_TYPE (ev)) {
    case GST_EVENT_FLUSH_STOP:
      input_reset (inputs, in);
      gst_segment_init (&in->segment, GST_FORMAT_UNDEFINED);
      break;
    case GST_EVENT_SEGMENT:
      gst_event_copy_segment (ev, &in->segment);
      refused = !segment_usable (in);
      format = in->segment.format;
      rate = in->segment.rate;
      break;
    case GST_EVENT_CAPS:{
      GstCaps *caps;

      gst_event_parse_caps (ev, &caps);
      in->have_info = gst_video_info_from_caps (&in->info, caps);
      update_rate_steps (inputs);
      break;
    }
    case GST_EVENT_EOS:
      in->over = TRUE;
      break;
    default:
      break;
  }
  g_mutex_unlock (&inputs->lock);
  if (refused)
    refuse_segment (in, pad, info, format, rate);
  if (GST_EVENT_TYPE (ev) == GST_EVENT_EOS)
    say_unlinked_at_eos (inputs, in);
  return GST_PAD_PROBE_OK;
}

/* ---------------------------------------------------------------------- */
/* Pairing (aggregate thread)                                              */

/* A few frames, plus @latency in frames at the rate of the caps the pads'
 * threads saw (the base class learns them later, when frames may already
 * be waiting). */
static guint
frames_in_latency (GstVmafHipInputs * inputs, GstClockTime latency)
{
  GstClockTime frame = 0;

  if (!GST_CLOCK_TIME_IS_VALID (latency) || latency == 0)
    return MAX_WAITING_FRAMES;
  g_mutex_lock (&inputs->lock);
  for (guint i = 0; i < inputs->inputs->len && !frame; i++) {
    const Input *in = g_ptr_array_index (inputs->inputs, i);
    if (in->have_info && GST_VIDEO_INFO_FPS_N (&in->info) > 0)
      frame = gst_util_uint64_scale_int (GST_SECOND,
          GST_VIDEO_INFO_FPS_D (&in->info), GST_VIDEO_INFO_FPS_N (&in->info));
  }
  g_mutex_unlock (&inputs->lock);
  /* A variable or unknown rate: as many frames as 120 a second make. */
  if (!frame)
    frame = GST_SECOND / 120;
  return MAX_WAITING_FRAMES + (guint) MIN (latency / frame, 1024);
}

/* The latency property lets each pad queue that much. */
guint
gst_vmaf_hip_inputs_frames_within_latency (GstVmafHipInputs * inputs)
{
  GstClockTime latency = gst_aggregator_get_latency (inputs->agg);

  if (!GST_CLOCK_TIME_IS_VALID (latency))
    g_object_get (inputs->agg, "latency", &latency, NULL);
  return frames_in_latency (inputs, latency);
}

/* How many frames of one side wait for their partner before they count
 * as unpaired. */
static guint
max_waiting (GstVmafHipInputs * inputs)
{
  GstClockTime latency = gst_aggregator_get_latency (inputs->agg);

  if (!GST_CLOCK_TIME_IS_VALID (latency))
    return MAX_WAITING_FRAMES_NOT_LIVE;
  return frames_in_latency (inputs, latency);
}

gboolean
gst_vmaf_hip_inputs_next (GstVmafHipInputs * inputs, gboolean at_end,
    GstVmafHipDecision * d)
{
  guint waiting = max_waiting (inputs);
  gboolean found = FALSE;

  /* The pads' threads add frames meanwhile: one decision at a time. */
  g_mutex_lock (&inputs->lock);
  for (guint i = 0; i < inputs->matches->len && !found; i++) {
    Match *m = match (inputs, i);
    gboolean over[2] = { at_end || m->side[0]->over,
      at_end || m->side[1]->over
    };
    GstVmafHipPairingResult *r = &d->frames;

    if (m->side[1]->released)
      continue;
    gst_vmaf_hip_pairing_set_max_waiting (m->pairing, waiting);
    if (m->content ? !gst_vmaf_hip_content_pairing_next (m->content, over[0],
            over[1], r) : !gst_vmaf_hip_pairing_next (m->pairing, over[0],
            over[1], r))
      continue;
    found = TRUE;
    d->match = i;
    if (r->has_ref)
      m->tally[0].decided++;
    if (r->has_dist)
      m->tally[1].decided++;
    if (r->has_ref != r->has_dist) {
      guint s = r->has_ref ? 0 : 1;

      m->tally[s].unpaired++;
      if (r->other_ended)
        m->tally[s].unpaired_after_end++;
    }
  }
  g_mutex_unlock (&inputs->lock);
  return found;
}

void
gst_vmaf_hip_inputs_report_unpaired (GstVmafHipInputs * inputs,
    const GstVmafHipDecision * d)
{
  gboolean ref_side = d->frames.has_ref;
  const GstVmafHipFrame *f = ref_side ? &d->frames.ref : &d->frames.dist;

  GST_DEBUG_OBJECT (inputs->agg, "%s frame at %" GST_TIME_FORMAT
      " (running time %" GST_TIME_FORMAT ") has no partner",
      ref_side ? "reference" : "distorted", GST_TIME_ARGS (f->pts),
      GST_TIME_ARGS (f->running_time));
  /* Aligned by content, a frame alone is the chain's doing (dropped,
   * repeated) or content not locked on: counted in the summary. */
  if (d->frames.other_ended || inputs->warned_out_of_step ||
      match (inputs, d->match)->content)
    return;
  inputs->warned_out_of_step = TRUE;
  GST_ELEMENT_WARNING (inputs->agg, STREAM, FAILED,
      ("The %s frame at %" GST_TIME_FORMAT " (running time) has no %s "
          "frame of the same moment; it is not scored. Either the %s "
          "branch skipped that moment, or it reaches the element later "
          "than the pipeline's latency allows: then raise the element's "
          "latency property (e.g. latency=200000000) so that it waits for "
          "it. Unpaired frames are counted in the vmaf-summary message.",
          ref_side ? "reference" : "distorted",
          GST_TIME_ARGS (f->running_time),
          ref_side ? "distorted" : "reference",
          ref_side ? "distorted" : "reference"), (NULL));
}

/* ---------------------------------------------------------------------- */
/* The counts, at the end and while running                                */

void
gst_vmaf_hip_inputs_warn_unscored_match (GstVmafHipInputs * inputs,
    guint index, guint64 repeated)
{
  Match *m;
  guint64 ur, ud, dropped_ref, dropped_dist;
  gboolean dist_ended, ref_ended;
  /* the first match's say it as they did before renditions */
  gchar *which;

  g_mutex_lock (&inputs->lock);
  m = match (inputs, index);
  which = index ? g_strdup_printf ("%s: ", GST_PAD_NAME (m->side[1]->pad)) :
      g_strdup ("");
  ur = m->tally[0].unpaired;
  ud = m->tally[1].unpaired;
  /* Said only when that is all there is to it. */
  dist_ended = ur && !ud && m->tally[0].unpaired_after_end == ur;
  ref_ended = ud && !ur && m->tally[1].unpaired_after_end == ud;
  dropped_ref = count_dropped (m, 0);
  dropped_dist = count_dropped (m, 1);
  g_mutex_unlock (&inputs->lock);

  if (ur || ud) {
    /* "(dist_sink ended before ref_sink)" */
    gchar *why = dist_ended || ref_ended ?
        g_strdup_printf (" (%s ended before %s)",
        GST_PAD_NAME (m->side[dist_ended ? 1 : 0]->pad),
        GST_PAD_NAME (m->side[dist_ended ? 0 : 1]->pad)) : g_strdup ("");
    /* unpaired=repeat scored some of them after all: say so, or the
     * count reads as frames lost. */
    gchar *scored = repeated ?
        g_strdup_printf ("; %" G_GUINT64_FORMAT " of the reference frames "
        "were scored against the last distorted frame shown "
        "(unpaired=repeat), the rest were not scored", repeated) :
        g_strdup (" and were not scored");

    GST_ELEMENT_WARNING_WITH_DETAILS (inputs->agg, STREAM, FAILED,
        ("%s%" G_GUINT64_FORMAT " reference and %" G_GUINT64_FORMAT
            " distorted frames had no partner%s%s.", which, ur, ud, scored,
            why), (NULL),
        ("unpaired-reference", G_TYPE_UINT64, ur,
            "unpaired-distorted", G_TYPE_UINT64, ud,
            "repeated-distorted", G_TYPE_UINT64, repeated, NULL));
    g_free (scored);
    g_free (why);
  }
  if (dropped_ref || dropped_dist) {
    GST_ELEMENT_WARNING_WITH_DETAILS (inputs->agg, STREAM, FAILED,
        ("%s%" G_GUINT64_FORMAT " reference and %" G_GUINT64_FORMAT
            " distorted frames were dropped before they could be paired "
            "(they came without caps, or past the segment's end).", which,
            dropped_ref, dropped_dist), (NULL),
        ("dropped-reference", G_TYPE_UINT64, dropped_ref,
            "dropped-distorted", G_TYPE_UINT64, dropped_dist, NULL));
  }
  g_free (which);
}

void
gst_vmaf_hip_inputs_add_match_counts (GstVmafHipInputs * inputs,
    guint index, GstStructure * s)
{
  Match *m;
  guint64 ur, ud, dr, dd;

  g_mutex_lock (&inputs->lock);
  m = match (inputs, index);
  ur = m->tally[0].unpaired;
  ud = m->tally[1].unpaired;
  dr = count_dropped (m, 0);
  dd = count_dropped (m, 1);
  g_mutex_unlock (&inputs->lock);
  gst_structure_set (s,
      "unpaired-reference", G_TYPE_UINT64, ur,
      "unpaired-distorted", G_TYPE_UINT64, ud,
      "dropped-reference", G_TYPE_UINT64, dr,
      "dropped-distorted", G_TYPE_UINT64, dd, NULL);
}

/* ---------------------------------------------------------------------- */
/* Alignment by content (gstvmafhipcontentpairing.c)                       */

void
gst_vmaf_hip_inputs_set_align (GstVmafHipInputs * inputs, gboolean content,
    GstClockTime window, GstVmafHipGpu * gpu)
{
  g_mutex_lock (&inputs->lock);
  inputs->align_content = content;
  inputs->align_window = window;
  for (guint i = 0; i < inputs->matches->len; i++) {
    Match *m = match (inputs, i);

    g_clear_pointer (&m->content, gst_vmaf_hip_content_pairing_free);
  }
  /* after the pairings, which give back what they hold */
  gst_vmaf_hip_content_holdings_reset (inputs->holdings);
  for (guint i = 0; i < inputs->matches->len && content; i++)
    match (inputs, i)->content = gst_vmaf_hip_content_pairing_new
        (GST_ELEMENT (inputs->agg), window, inputs->holdings);
  /* after the pairings, whose jobs hold the last run's probe's tickets */
  gst_vmaf_hip_signatures_reset (inputs->signatures, gpu);
  g_mutex_unlock (&inputs->lock);
}

GstStructure *
gst_vmaf_hip_inputs_take_align_event (GstVmafHipInputs * inputs,
    gboolean at_end, guint * match_out)
{
  GstStructure *s = NULL;

  g_mutex_lock (&inputs->lock);
  for (guint i = 0; i < inputs->matches->len && !s; i++) {
    Match *m = match (inputs, i);

    if (m->content)
      s = gst_vmaf_hip_content_pairing_take_event (m->content, at_end);
    if (s)
      *match_out = i;
  }
  g_mutex_unlock (&inputs->lock);
  return s;
}

gboolean
gst_vmaf_hip_inputs_add_align_counts (GstVmafHipInputs * inputs,
    guint index, GstStructure * s, gchar ** description, gchar ** json)
{
  Match *m;
  gboolean content;

  g_mutex_lock (&inputs->lock);
  m = match (inputs, index);
  content = m->content != NULL;
  if (content && s)
    gst_vmaf_hip_content_pairing_add_counts (m->content, s);
  if (content && description)
    *description = gst_vmaf_hip_content_pairing_describe (m->content,
        json);
  g_mutex_unlock (&inputs->lock);
  return content;
}
