/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Frames as they arrive on the sink pads: the pad probe and its accounting. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvmafhipcompareprivate.h"
#include "gstvmafhippairing.h"

SideCount *
gst_vmaf_hip_compare_side_count (GstVmafHipCompare * self, gboolean ref_side)
{
  return ref_side ? &self->ref_count : &self->dist_count;
}

/* Frames that arrived and neither are waiting for a partner nor left the
 * pairing. Called with count_lock held. */
guint64
gst_vmaf_hip_compare_count_dropped (GstVmafHipCompare * self, gboolean ref_side)
{
  SideCount *c = gst_vmaf_hip_compare_side_count (self, ref_side);
  guint64 done = c->decided +
      gst_vmaf_hip_pairing_n_waiting (self->pairing, ref_side);

  return c->arrived > done ? c->arrived - done : 0;
}

/* Forgets a side's frames and counts (at start, stop, or its flush).
 * Called with count_lock held. */
void
gst_vmaf_hip_compare_side_reset (GstVmafHipCompare * self, gboolean ref_side)
{
  SideCount *c = gst_vmaf_hip_compare_side_count (self, ref_side);

  c->arrived = c->decided = 0;
  c->over = FALSE;
  c->untimed_said = FALSE;
  gst_vmaf_hip_pairing_clear_side (self->pairing, ref_side);
}

/* Frame time in the pad's segment, as its thread saw it; @start is the
 * frame's start clipped to the segment, as the base class clips it. */
static void
push_frame (GstVmafHipCompare * self, gboolean ref_side, GstBuffer * buf,
    GstClockTime start)
{
  SideCount *c = gst_vmaf_hip_compare_side_count (self, ref_side);
  GstVmafHipFrame f;

  f.buffer = buf;
  f.info = c->info;
  f.pts = GST_BUFFER_PTS (buf);
  f.duration = GST_BUFFER_DURATION (buf);
  f.stream_time = gst_segment_to_stream_time (&c->segment, GST_FORMAT_TIME,
      start);
  f.running_time = gst_segment_to_running_time (&c->segment,
      GST_FORMAT_TIME, start);
  gst_vmaf_hip_pairing_push (self->pairing, ref_side, &f);
}

/* Whether the pad's frames are in time: no segment yet (after a flush)
 * counts as in time, a segment of bytes or buffers does not. */
static gboolean
segment_in_time (const SideCount * c)
{
  return c->segment.format == GST_FORMAT_TIME ||
      c->segment.format == GST_FORMAT_UNDEFINED;
}

/* Whether the pad's frames can be paired: in time and played forwards
 * (frames are paired and temporal features computed in stream order). */
static gboolean
segment_usable (const SideCount * c)
{
  return segment_in_time (c) && c->segment.rate > 0;
}

/* On each sink pad, in the upstream thread: every frame goes to the
 * pairing as it arrives. */
GstPadProbeReturn
gst_vmaf_hip_compare_pad_probe (GstPad * pad, GstPadProbeInfo * info,
    gpointer user_data)
{
  GstVmafHipCompare *self = user_data;
  gboolean ref_side = pad == GST_PAD (self->ref_pad);
  SideCount *c = gst_vmaf_hip_compare_side_count (self, ref_side);
  GstFormat refused = GST_FORMAT_UNDEFINED;
  gdouble reverse_rate = 0;

  g_mutex_lock (&self->count_lock);
  if (info->type & GST_PAD_PROBE_TYPE_BUFFER) {
    GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
    GstClockTime pts = GST_BUFFER_PTS (buf);
    GstFlowReturn refusal = GST_FLOW_OK;
    gboolean say_untimed = FALSE;
    GstClockTime end;
    guint64 start;
    gboolean inside;

    /* Refused, not counted: frames of a segment not in time (said when
     * the segment came), and frames without a timestamp, which the base
     * class cannot place and fails the stream on without a word (said
     * here, once). */
    if (!segment_usable (c)) {
      refusal = GST_FLOW_NOT_NEGOTIATED;
    } else if (!GST_CLOCK_TIME_IS_VALID (pts)) {
      refusal = GST_FLOW_ERROR;
      say_untimed = !c->untimed_said;
      c->untimed_said = TRUE;
    }
    if (refusal != GST_FLOW_OK) {
      g_mutex_unlock (&self->count_lock);
      if (say_untimed)
        GST_ELEMENT_ERROR (self, STREAM, FORMAT,
            ("%s: a frame without a timestamp: frames are paired by their "
                "timestamps. Give a live source do-timestamp=true, or read "
                "raw video through a parser that stamps its frames "
                "(rawvideoparse) before %s.%s", GST_PAD_NAME (pad),
                GST_OBJECT_NAME (self), GST_PAD_NAME (pad)), (NULL));
      gst_buffer_unref (buf);
      GST_PAD_PROBE_INFO_FLOW_RETURN (info) = refusal;
      return GST_PAD_PROBE_HANDLED;
    }

    end = GST_BUFFER_DURATION_IS_VALID (buf) ?
        pts + GST_BUFFER_DURATION (buf) : pts;
    start = pts;
    inside = c->segment.format != GST_FORMAT_TIME ||
        gst_segment_clip (&c->segment, GST_FORMAT_TIME, pts, end, &start,
        NULL);

    /* Frames before the segment's start (what a parser sends ahead of an
     * accurate seek's position) are clipped by design, not dropped: they
     * do not count. Frames past its stop do. */
    if (inside || pts >= c->segment.start) {
      c->arrived++;
      if (inside && c->have_info)
        push_frame (self, ref_side, buf, start);
    }
  } else {
    GstEvent *ev = GST_PAD_PROBE_INFO_EVENT (info);

    switch (GST_EVENT_TYPE (ev)) {
      case GST_EVENT_FLUSH_STOP:
        gst_vmaf_hip_compare_side_reset (self, ref_side);
        gst_segment_init (&c->segment, GST_FORMAT_UNDEFINED);
        break;
      case GST_EVENT_SEGMENT:
        gst_event_copy_segment (ev, &c->segment);
        if (!segment_in_time (c))
          refused = c->segment.format;
        else if (c->segment.rate < 0)
          reverse_rate = c->segment.rate;
        break;
      case GST_EVENT_CAPS:{
        GstCaps *caps;

        gst_event_parse_caps (ev, &caps);
        c->have_info = gst_video_info_from_caps (&c->info, caps);
        break;
      }
      case GST_EVENT_EOS:
        c->over = TRUE;
        break;
      default:
        break;
    }
  }
  g_mutex_unlock (&self->count_lock);
  /* The base classes assert on a segment in another format than time
   * (filesrc straight into the element: bytes) or played backwards:
   * refused here, with what to do instead. They get an empty forward time
   * segment in its place (dropping it would leave the pad without one);
   * the pad's frames are refused above. */
  if (reverse_rate < 0) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("%s: the video comes in a segment played backwards (rate %g): "
            "frames are paired and scored in forward order only. Play the "
            "streams forwards (a seek with a positive rate).",
            GST_PAD_NAME (pad), reverse_rate), ("segment rate %g",
            reverse_rate));
  }
  if (refused != GST_FORMAT_UNDEFINED || reverse_rate < 0) {
    GstSegment in_time;

    if (refused != GST_FORMAT_UNDEFINED)
      GST_ELEMENT_ERROR (self, STREAM, FORMAT,
          ("%s: the video comes in a segment of %s, not of time: frames "
              "are paired by their timestamps. Raw video from a file needs "
              "a parser that stamps its frames: filesrc ! rawvideoparse "
              "width=W height=H format=F framerate=N/D ! %s.%s",
              GST_PAD_NAME (pad), gst_format_get_name (refused),
              GST_OBJECT_NAME (self), GST_PAD_NAME (pad)),
          ("segment format %d", refused));
    gst_segment_init (&in_time, GST_FORMAT_TIME);
    gst_event_unref (GST_PAD_PROBE_INFO_EVENT (info));
    GST_PAD_PROBE_INFO_DATA (info) = gst_event_new_segment (&in_time);
  }
  return GST_PAD_PROBE_OK;
}
