/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/**
 * SECTION:element-vmafhipcompare
 * @title: vmafhipcompare
 * @short_description: live VMAF, PSNR, SSIM and friends between two videos
 *
 * vmafhipcompare scores the frames arriving on `dist_sink` against the
 * frames arriving at the same running time on `ref_sink`, with the VMAF
 * models and the features libvmaf offers, and gives the same numbers as
 * libvmaf 3.2. The `src` pad passes the distorted frames on untouched (or
 * the reference ones, see #GstVmafHipCompare:passthrough), so the element
 * can sit in a live pipeline, e.g. behind a `tee` that feeds an encoder.
 *
 * More distorted videos (the renditions of an encoding ladder) go to
 * request pads `dist_sink_%u`: each is scored against the one reference,
 * resampled to its size (#GstVmafHipCompare:scale), with a scoring of its
 * own; the reference is prepared (and uploaded) once for all of them.
 * Each pad's messages carry its name and label.
 *
 * Scoring runs on a pool of worker threads, never on the streaming thread
 * except for back-pressure when too many frames are in flight. For every
 * scored frame the element posts an element message named `vmaf` as soon
 * as the frame's values are final (temporal features such as motion need
 * the next frame first); at end of stream it posts one `vmaf-summary`
 * message with pooled values, writes a results file in libvmaf's layout if
 * asked to, and pushes pooled tags downstream. docs/element.md in the
 * source tree describes every field.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 -m \
 *   filesrc location=ref.yuv ! rawvideoparse width=1920 height=1080 ! c.ref_sink \
 *   filesrc location=dist.yuv ! rawvideoparse width=1920 height=1080 ! c.dist_sink \
 *   vmafhipcompare name=c features=psnr results-filename=scores.json ! fakesink
 * ]|
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvmafhipcompareprivate.h"
#include "gstvmafhipoutput.h"
#include "gstvmafhipcomparepad.h"
#include "gstvmafhipcompat.h"
#include "gstvmafhipcaps.h"
#include "gstvmafhipdoc.h"
#include "gstvmafhiphints.h"
#include "gstvmafhippicture.h"
#include "gstvmafhiptags.h"

GST_DEBUG_CATEGORY (gst_vmaf_hip_compare_debug);

/* HIP memory (memory:HIPMemory, from vmafhipupload) is read through its host
 * copy on the CPU path. */
#define SINK_CAPS GST_VIDEO_CAPS_MAKE (GST_VMAF_HIP_FORMATS) "; " \
  GST_VIDEO_CAPS_MAKE_WITH_FEATURES ("memory:HIPMemory", GST_VMAF_HIP_FORMATS) \
  CUDA_CAPS

/* NVIDIA's CUDA memory (nvh264dec, cudaupload) is read in place on the GPU
 * when the HIP layer runs there (gstvmafhipcuda.c). */
#ifdef VH_HAVE_HIP
#define CUDA_CAPS "; " GST_VIDEO_CAPS_MAKE_WITH_FEATURES ("memory:CUDAMemory", \
    GST_VMAF_HIP_FORMATS)
#else
#define CUDA_CAPS
#endif

static GstStaticPadTemplate ref_sink_template =
GST_STATIC_PAD_TEMPLATE ("ref_sink", GST_PAD_SINK, GST_PAD_ALWAYS,
    GST_STATIC_CAPS (SINK_CAPS));

static GstStaticPadTemplate dist_sink_template =
GST_STATIC_PAD_TEMPLATE ("dist_sink", GST_PAD_SINK, GST_PAD_ALWAYS,
    GST_STATIC_CAPS (SINK_CAPS));

static GstStaticPadTemplate dist_request_template =
GST_STATIC_PAD_TEMPLATE ("dist_sink_%u", GST_PAD_SINK, GST_PAD_REQUEST,
    GST_STATIC_CAPS (SINK_CAPS));

static GstStaticPadTemplate src_template =
GST_STATIC_PAD_TEMPLATE ("src", GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS (SINK_CAPS));

static void gst_vmaf_hip_compare_child_proxy_init (gpointer g_iface,
    gpointer iface_data);

#define gst_vmaf_hip_compare_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstVmafHipCompare, gst_vmaf_hip_compare,
    GST_TYPE_VIDEO_AGGREGATOR, G_IMPLEMENT_INTERFACE (GST_TYPE_CHILD_PROXY,
        gst_vmaf_hip_compare_child_proxy_init));

static gboolean
plugin_element_init (GstPlugin * plugin)
{
  gst_vmaf_hip_tags_register ();
  return gst_element_register (plugin, "vmafhipcompare", GST_RANK_NONE,
      GST_TYPE_VMAF_HIP_COMPARE);
}

GST_ELEMENT_REGISTER_DEFINE_CUSTOM (vmafhipcompare, plugin_element_init);

/* ---------------------------------------------------------------------- */
/* Helpers                                                                 */

static GstVideoAggregatorPad *
passthrough_pad (GstVmafHipCompare * self, GstVmafHipPassthrough which)
{
  return which == GST_VMAF_HIP_PASSTHROUGH_REFERENCE ?
      gst_vmaf_hip_inputs_reference_pad (self->inputs) :
      gst_vmaf_hip_inputs_distorted_pad (self->inputs, 0);
}

/* backend=cpu, as the properties say now (neighbours may ask for a
 * device before the element starts). */
static gboolean
cpu_only (GstVmafHipCompare * self)
{
  gboolean cpu;

  GST_OBJECT_LOCK (self);
  cpu = self->settings.backend == GST_VMAF_HIP_BACKEND_CPU;
  GST_OBJECT_UNLOCK (self);
  return cpu;
}

static void
gst_vmaf_hip_compare_set_context (GstElement * element, GstContext * context)
{
  GstVmafHipCompare *self = GST_VMAF_HIP_COMPARE (element);
  gint device_id;

  GST_OBJECT_LOCK (self);
  device_id = self->settings.device_id;
  GST_OBJECT_UNLOCK (self);
  gst_vmaf_hip_gpu_set_context (self->gpu, context, device_id);
  GST_ELEMENT_CLASS (parent_class)->set_context (element, context);
}

/* ---------------------------------------------------------------------- */
/* Aggregation: the inputs' decisions go to scoring                        */

/* align=content: a vmaf-align message, a frame it could not read, or a
 * window whose frames would fill the memory, of @match's pairing; a
 * rendition's name its pad as its vmaf messages do. */
static void
post_align_event (GstVmafHipCompare * self, guint match, GstStructure * s)
{
  if (gst_structure_has_name (s, "vmaf-align-warning")) {
    gchar *which = match ? g_strdup_printf ("%s: ",
        GST_PAD_NAME (gst_vmaf_hip_renditions_pad (self->renditions,
                match))) : g_strdup ("");

    GST_ELEMENT_WARNING (self, STREAM, FAILED,
        ("%sA frame cannot be aligned by content: %s. Such frames are not "
            "scored.", which, gst_structure_get_string (s, "message")),
        (NULL));
    g_free (which);
    gst_structure_free (s);
    return;
  }
  if (gst_structure_has_name (s, "vmaf-align-memory")) {
    /* once a run, for the element's inputs together */
    GST_ELEMENT_WARNING_WITH_DETAILS (self, RESOURCE, NO_SPACE_LEFT,
        ("%s.", gst_structure_get_string (s, "message")),
        ("align=content"), ("held-bytes", G_TYPE_UINT64,
            g_value_get_uint64 (gst_structure_get_value (s, "bytes")),
            NULL));
    gst_structure_free (s);
    return;
  }
  if (gst_vmaf_hip_renditions_is_ready (self->renditions, match))
    gst_vmaf_hip_scoring_add_rendition (gst_vmaf_hip_renditions_get
        (self->renditions, match), s);
  gst_element_post_message (GST_ELEMENT (self),
      gst_message_new_element (GST_OBJECT (self), s));
}

static void
post_align_events (GstVmafHipCompare * self, gboolean at_end)
{
  GstStructure *s;
  guint match;

  while ((s = gst_vmaf_hip_inputs_take_align_event (self->inputs, at_end,
              &match)))
    post_align_event (self, match, s);
}

/* Scores every pair the frames that arrived make and counts the frames
 * that can have no partner. @at_end: no frame comes any more. */
static GstFlowReturn
decide_pairs (GstVmafHipCompare * self, gboolean at_end)
{
  GstVmafHipDecision d;
  GstFlowReturn ret = GST_FLOW_OK;
  GstVmafHipFrame shown;

  /* Each reference frame is prepared once for the renditions scored
   * against it. */
  gst_vmaf_hip_gpu_set_reference_users (self->gpu,
      gst_vmaf_hip_renditions_n_scored (self->renditions));
  while (ret == GST_FLOW_OK &&
      gst_vmaf_hip_inputs_next (self->inputs, at_end, &d)) {
    /* a pad requested while running joins the run here */
    GstVmafHipScoring *scoring = gst_vmaf_hip_renditions_ready
        (self->renditions, d.match);

    /* align=content: the lock found, moved or lost before this frame. */
    post_align_events (self, FALSE);
    if (!scoring) {
      ret = GST_FLOW_ERROR;
    } else if (d.frames.has_ref && d.frames.has_dist) {
      GError *err = NULL;

      if (self->converting && !gst_vmaf_hip_convert_to_reference
          (self->convert, &d.frames.ref.info, &d.frames.dist, &err)) {
        GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("%s", err->message),
            (NULL));
        g_error_free (err);
        ret = GST_FLOW_ERROR;
      } else {
        ret = gst_vmaf_hip_scoring_score_pair (scoring, &d.frames.ref,
            &d.frames.dist);
        if (self->repeating)
          gst_vmaf_hip_repeat_remember (self->repeat, d.match,
              &d.frames.dist);
      }
    } else if (self->repeating && d.frames.has_ref && d.frames.dropped &&
        gst_vmaf_hip_repeat_take (self->repeat, d.match, &shown)) {
      /* unpaired=repeat: what a viewer saw instead of the dropped frame. */
      gst_vmaf_hip_inputs_report_unpaired (self->inputs, &d);
      ret = gst_vmaf_hip_scoring_score_pair (scoring, &d.frames.ref,
          &shown);
      gst_buffer_unref (shown.buffer);
    } else {
      gst_vmaf_hip_inputs_report_unpaired (self->inputs, &d);
      /* The other side is over: let the last pair's values become final
       * now rather than at EOS. */
      if (d.frames.other_ended && !gst_vmaf_hip_scoring_finish (scoring))
        ret = GST_FLOW_ERROR;
    }
    gst_vmaf_hip_pairing_result_clear (&d.frames);
  }
  post_align_events (self, at_end);
  return ret;
}

static GstFlowReturn
gst_vmaf_hip_compare_create_output_buffer (GstVideoAggregator * vagg,
    GstBuffer ** outbuf)
{
  GstVmafHipCompare *self = GST_VMAF_HIP_COMPARE (vagg);
  GstBuffer *pass;
  GstFlowReturn ret;

  *outbuf = NULL;
  /* Scoring follows the frames that arrived, not this output slot. */
  ret = decide_pairs (self, FALSE);
  if (ret != GST_FLOW_OK)
    return ret;

  /* The output is the input frame itself, under a new header that the
   * base class may stamp without touching the input. No pixel is
   * copied. */
  pass = gst_video_aggregator_pad_get_current_buffer (passthrough_pad (self,
          gst_vmaf_hip_scoring_passthrough (self->scoring)));
  if (pass)
    *outbuf = gst_vmaf_hip_output_buffer (pass);
  return GST_FLOW_OK;
}

static GstFlowReturn
gst_vmaf_hip_compare_aggregate_frames (GstVideoAggregator * vagg,
    GstBuffer * outbuf)
{
  /* Nothing to draw: create_output_buffer() passed the frame on. */
  return GST_FLOW_OK;
}

/* Runs once the base class decided on EOS and before EOS leaves: frames
 * still waiting for a partner get none now, every frame not scored is
 * accounted for, then the results file and the summary. */
static gboolean
end_of_stream (GstVmafHipCompare * self)
{
  guint n = gst_vmaf_hip_renditions_n (self->renditions);

  if (decide_pairs (self, TRUE) != GST_FLOW_OK)
    return FALSE;
  for (guint i = 0; i < n; i++) {
    GstVmafHipScoring *scoring = gst_vmaf_hip_renditions_get
        (self->renditions, i);

    if (gst_vmaf_hip_renditions_is_ready (self->renditions, i) &&
        !gst_vmaf_hip_scoring_finish (scoring))
      return FALSE;
  }
  /* Each rendition's warnings, alignment, summary and tags; the src pad
   * carries dist_sink's tags. */
  for (guint i = 0; i < n; i++) {
    GstVmafHipScoring *scoring = gst_vmaf_hip_renditions_get
        (self->renditions, i);
    GstStructure *summary;
    GstTagList *tags;
    gboolean wrote;
    gchar *alignment = NULL, *alignment_json = NULL;

    if (!gst_vmaf_hip_renditions_is_ready (self->renditions, i))
      continue;
    gst_vmaf_hip_inputs_warn_unscored_match (self->inputs, i,
        self->repeating ? gst_vmaf_hip_repeat_count (self->repeat, i) : 0);
    if (gst_vmaf_hip_inputs_add_align_counts (self->inputs, i, NULL,
            &alignment, &alignment_json))
      gst_vmaf_hip_scoring_set_alignment (scoring, alignment,
          alignment_json);
    g_free (alignment);
    g_free (alignment_json);
    summary = gst_vmaf_hip_scoring_end (scoring, &wrote);
    if (!summary)
      return FALSE;
    gst_vmaf_hip_inputs_add_match_counts (self->inputs, i, summary);
    gst_vmaf_hip_inputs_add_align_counts (self->inputs, i, summary, NULL,
        NULL);
    if (self->repeating)
      gst_structure_set (summary, "repeated-distorted", G_TYPE_UINT64,
          gst_vmaf_hip_repeat_count (self->repeat, i), NULL);
    tags = gst_vmaf_hip_scoring_post_summary (scoring, summary, wrote);
    if (tags && i == 0 && self->output_started)
      gst_pad_push_event (GST_AGGREGATOR_SRC_PAD (self),
          gst_event_new_tag (tags));
    else if (tags)
      gst_tag_list_unref (tags);
  }
  return TRUE;
}

static GstFlowReturn
gst_vmaf_hip_compare_aggregate (GstAggregator * agg, gboolean timeout)
{
  GstVmafHipCompare *self = GST_VMAF_HIP_COMPARE (agg);
  GstFlowReturn ret;

  /* Already reported: never pair or pass on a frame the refused caps
   * describe (its pad has no video info), and stop upstream. */
  if (gst_vmaf_hip_inputs_caps_refused (self->inputs))
    return GST_FLOW_NOT_NEGOTIATED;
  ret = GST_AGGREGATOR_CLASS (parent_class)->aggregate (agg, timeout);
  if (ret == GST_FLOW_EOS && !self->eos_done) {
    self->eos_done = TRUE;
    GST_DEBUG_OBJECT (self, "all pads are at EOS");
    if (!end_of_stream (self))
      ret = GST_FLOW_ERROR;
  }
  return ret;
}

static GstFlowReturn
gst_vmaf_hip_compare_finish_buffer (GstAggregator * agg, GstBuffer * buffer)
{
  GstVmafHipCompare *self = GST_VMAF_HIP_COMPARE (agg);
  GstFlowReturn ret;
  GstTagList *tags;

  ret = GST_AGGREGATOR_CLASS (parent_class)->finish_buffer (agg, buffer);
  self->output_started = TRUE;

  /* After the buffer, so that stream-start, caps and segment precede. */
  tags = gst_vmaf_hip_scoring_take_tags (self->scoring);
  if (tags)
    gst_pad_push_event (agg->srcpad, gst_event_new_tag (tags));
  return ret;
}

/* ---------------------------------------------------------------------- */
/* Negotiation                                                             */

static GstFlowReturn
gst_vmaf_hip_compare_update_src_caps (GstAggregator * agg,
    GstCaps * downstream, GstCaps ** ret)
{
  GstVmafHipCompare *self = GST_VMAF_HIP_COMPARE (agg);
  GstVideoAggregatorPad *pad = passthrough_pad (self,
      gst_vmaf_hip_scoring_passthrough (self->scoring));
  GstCaps *caps, *current;

  if (!pad->info.finfo ||
      GST_VIDEO_INFO_FORMAT (&pad->info) == GST_VIDEO_FORMAT_UNKNOWN)
    return GST_AGGREGATOR_FLOW_NEED_DATA;

  /* The output is the passed-through input, caps and all (memory
   * features included). */
  caps = gst_video_info_to_caps (&pad->info);
  current = gst_pad_get_current_caps (GST_PAD (pad));
  if (current && gst_caps_get_features (current, 0))
    gst_caps_set_features (caps, 0,
        gst_caps_features_copy (gst_caps_get_features (current, 0)));
  gst_clear_caps (&current);
  if (!gst_caps_can_intersect (caps, downstream)) {
    gchar *desc = gst_vmaf_hip_describe_video (&pad->info);
    gboolean ref = pad == gst_vmaf_hip_inputs_reference_pad (self->inputs);

    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("Downstream does not accept the %s video (%s) that the src pad "
            "passes on.", ref ? "reference" : "distorted", desc),
        ("caps %" GST_PTR_FORMAT ", downstream accepts %" GST_PTR_FORMAT,
            caps, downstream));
    g_free (desc);
    gst_caps_unref (caps);
    return GST_FLOW_NOT_NEGOTIATED;
  }
  *ret = caps;
  return GST_FLOW_OK;
}

static gboolean
gst_vmaf_hip_compare_sink_query (GstAggregator * agg, GstAggregatorPad * pad,
    GstQuery * query)
{
  GstVmafHipCompare *self = GST_VMAF_HIP_COMPARE (agg);

  switch (GST_QUERY_TYPE (query)) {
    case GST_QUERY_CAPS:{
      GstCaps *filter, *caps, *tmp;
      GstVmafHipPassthrough which;

      /* Each sink takes any supported format on its own; the two sides are
       * compared when frames pair up, so that a mismatch is reported with
       * both sides named. The passed-through side must also suit
       * downstream. */
      gst_query_parse_caps (query, &filter);
      caps = gst_vmaf_hip_caps_split_formats (gst_pad_get_pad_template_caps
          (GST_PAD (pad)));
      GST_OBJECT_LOCK (self);
      which = self->passthrough;
      GST_OBJECT_UNLOCK (self);
      if (pad == GST_AGGREGATOR_PAD (passthrough_pad (self, which))) {
        GstCaps *peer = gst_pad_peer_query_caps (agg->srcpad, caps);
        tmp = gst_caps_intersect_full (caps, peer, GST_CAPS_INTERSECT_FIRST);
        gst_caps_unref (peer);
        gst_caps_unref (caps);
        caps = tmp;
      }
      /* in the template's order: upstream takes our preferred format */
      if (filter) {
        tmp = gst_caps_intersect_full (caps, filter, GST_CAPS_INTERSECT_FIRST);
        gst_caps_unref (caps);
        caps = tmp;
      }
      gst_query_set_caps_result (query, caps);
      gst_caps_unref (caps);
      return TRUE;
    }
    case GST_QUERY_CONTEXT:
      if (gst_vmaf_hip_gpu_context_query (self->gpu, query, cpu_only (self)))
        return TRUE;
      return GST_AGGREGATOR_CLASS (parent_class)->sink_query (agg, pad, query);
    case GST_QUERY_ACCEPT_CAPS:{
      GstCaps *caps, *templ;

      gst_query_parse_accept_caps (query, &caps);
      templ = gst_pad_get_pad_template_caps (GST_PAD (pad));
      gst_query_set_accept_caps_result (query,
          gst_caps_is_subset (caps, templ));
      gst_caps_unref (templ);
      return TRUE;
    }
    default:
      return GST_AGGREGATOR_CLASS (parent_class)->sink_query (agg, pad, query);
  }
}

/* The other pad's caps as the base class knows them (its video info is set
 * before its caps are stored on the pad), or NULL. */
static GstCaps *
other_pad_caps (GstVideoAggregatorPad * other)
{
  GstCaps *caps = gst_pad_get_current_caps (GST_PAD (other));

  if (!caps && other->info.finfo &&
      GST_VIDEO_INFO_FORMAT (&other->info) != GST_VIDEO_FORMAT_UNKNOWN)
    caps = gst_video_info_to_caps (&other->info);
  return caps;
}

/* Caps the engine or the base class cannot work with are refused here,
 * naming the pad, rather than spinning or failing later. The two pads'
 * caps may arrive at the same time: when the base class refuses caps that
 * passed (the other side's came in between), the refusal is posted too, so
 * that the pipeline never waits on a pad without caps. */
static gboolean
gst_vmaf_hip_compare_sink_event (GstAggregator * agg, GstAggregatorPad * pad,
    GstEvent * event)
{
  GstVmafHipCompare *self = GST_VMAF_HIP_COMPARE (agg);
  GstVideoAggregatorPad *other =
      gst_vmaf_hip_inputs_partner_pad (self->inputs, GST_PAD (pad));
  GstCaps *caps = NULL, *other_caps;
  GError *err = NULL;
  gboolean ok;

  if (GST_EVENT_TYPE (event) != GST_EVENT_CAPS)
    return GST_AGGREGATOR_CLASS (parent_class)->sink_event (agg, pad, event);

  gst_event_parse_caps (event, &caps);
  /* A copy, for the message: a second reference would make the event's
   * caps read-only to the base class. */
  caps = gst_caps_copy (caps);
  other_caps = other_pad_caps (other);
  ok = gst_vmaf_hip_check_raw_defaults (GST_PAD (pad), caps, GST_PAD (other),
      other_caps, &err) && gst_vmaf_hip_check_sink_caps (caps,
      GST_PAD_NAME (pad), other_caps, GST_PAD_NAME (other), &err);
  if (ok)
    ok = gst_vmaf_hip_gpu_caps_usable (self->gpu, caps, cpu_only (self),
        GST_PAD_NAME (pad), &err);
  gst_clear_caps (&other_caps);
  if (ok) {
    ok = GST_AGGREGATOR_CLASS (parent_class)->sink_event (agg, pad, event);
    event = NULL;
    if (!ok) {
      other_caps = other_pad_caps (other);
      if (gst_vmaf_hip_check_sink_caps (caps, GST_PAD_NAME (pad), other_caps,
              GST_PAD_NAME (other), &err))
        g_set_error (&err, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION,
            "%s: the caps were refused (they do not fit the other pad's)",
            GST_PAD_NAME (pad));
      gst_clear_caps (&other_caps);
    }
  }
  gst_vmaf_hip_inputs_set_caps_refused (self->inputs, GST_PAD (pad), !ok);
  if (!ok) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("%s", err->message),
        ("caps %" GST_PTR_FORMAT, caps));
    g_error_free (err);
  }
  if (event)
    gst_event_unref (event);
  gst_caps_unref (caps);
  return ok;
}

static gboolean
gst_vmaf_hip_compare_src_event (GstAggregator * agg, GstEvent * event)
{
  if (GST_EVENT_TYPE (event) == GST_EVENT_QOS) {
    /* A measuring element scores every pair: lateness downstream must not
     * make the base class skip output slots, and the pairs with them. */
    gst_event_unref (event);
    return TRUE;
  }
  if (GST_EVENT_TYPE (event) == GST_EVENT_SEEK) {
    gdouble rate;

    /* Frames are paired and temporal features computed in stream order:
     * a reverse seek is refused before it reaches the sources (the
     * pipeline goes on forwards), said on the bus. */
    gst_event_parse_seek (event, &rate, NULL, NULL, NULL, NULL, NULL, NULL);
    if (rate < 0) {
      GST_ELEMENT_WARNING (agg, CORE, SEEK, ("A seek backwards (rate %g) "
              "was refused: vmafhipcompare scores frames in forward order "
              "only.", rate), (NULL));
      gst_event_unref (event);
      return FALSE;
    }
  }
  return GST_AGGREGATOR_CLASS (parent_class)->src_event (agg, event);
}

static gboolean
gst_vmaf_hip_compare_decide_allocation (GstAggregator * agg, GstQuery * query)
{
  /* Output buffers are the input's; no pool is needed. */
  return TRUE;
}

/* Producers are told how many frames of a pad the element may hold:
 * waiting for their partner, then in the scoring context. */
static gboolean
gst_vmaf_hip_compare_propose_allocation (GstAggregator * agg,
    GstAggregatorPad * pad, GstQuery * decide_query, GstQuery * query)
{
  GstVmafHipCompare *self = GST_VMAF_HIP_COMPARE (agg);
  guint held = gst_vmaf_hip_inputs_frames_within_latency (self->inputs);

  /* a reference frame is held by every rendition's context */
  for (guint i = 0; i < gst_vmaf_hip_renditions_n (self->renditions); i++)
    held += gst_vmaf_hip_scoring_frames_held (gst_vmaf_hip_renditions_get
        (self->renditions, i));

  gst_vmaf_hip_gpu_propose_allocation (self->gpu, query, MIN (held, 64));
  return TRUE;
}

/* ---------------------------------------------------------------------- */
/* Start, stop, flush                                                      */

static gboolean
gst_vmaf_hip_compare_start (GstAggregator * agg)
{
  GstVmafHipCompare *self = GST_VMAF_HIP_COMPARE (agg);
  GstVmafHipRunConfig config = { {0}, };
  GstClockTime input_timeout, align_window;
  GstVmafHipBackend backend;
  gint device_id;
  gboolean self_test, align_content;

  if (!GST_AGGREGATOR_CLASS (parent_class)->start (agg))
    return FALSE;

  GST_OBJECT_LOCK (self);
  if (self->compat_psnr || self->compat_ssim || self->compat_ms_ssim)
    config.features = gst_vmaf_hip_compat_features (self->settings.features,
        self->compat_psnr, self->compat_ssim, self->compat_ms_ssim);
  gst_vmaf_hip_settings_copy (&config.settings, &self->settings);
  config.results_filename = g_strdup (self->results_filename);
  config.results_format = self->results_format;
  config.results_interval = self->results_interval;
  config.passthrough = self->passthrough;
  config.scale = self->scale_method;
  backend = self->settings.backend;
  device_id = self->settings.device_id;
  self_test = self->settings.self_test;
  gst_vmaf_hip_watch_settings_copy (&config.watch, &self->watch);
  input_timeout = self->input_timeout;
  self->converting = self->convert_mode != GST_VMAF_HIP_CONVERT_NONE;
  align_content = self->align_mode == GST_VMAF_HIP_ALIGN_CONTENT;
  align_window = self->align_window;
  config.watch.align_wait = align_content ? align_window : 0;
  self->repeating = self->unpaired_mode == GST_VMAF_HIP_UNPAIRED_REPEAT;
  GST_OBJECT_UNLOCK (self);
  gst_vmaf_hip_repeat_reset (self->repeat, TRUE);

  gst_vmaf_hip_inputs_set_align (self->inputs, align_content, align_window,
      self->gpu);
  gst_vmaf_hip_inputs_start (self->inputs, input_timeout);
  gst_vmaf_hip_gpu_reset_warnings (self->gpu);
  gst_vmaf_hip_gpu_forget_references (self->gpu, TRUE);
  self->eos_done = FALSE;
  self->output_started = FALSE;

  /* Build the models now so that bad settings fail the state change:
   * every distorted pad's (their results files checked first). */
  if (!gst_vmaf_hip_renditions_start (self->renditions, &config) ||
      !gst_vmaf_hip_gpu_open (self->gpu, backend, device_id, self_test) ||
      !gst_vmaf_hip_renditions_build (self->renditions)) {
    guint n = gst_vmaf_hip_renditions_n (self->renditions);

    gst_vmaf_hip_run_config_clear (&config);
    for (guint i = 0; i < n; i++)
      gst_vmaf_hip_scoring_stop (gst_vmaf_hip_renditions_get
          (self->renditions, i), TRUE);
    gst_vmaf_hip_gpu_close (self->gpu);
    for (guint i = 0; i < n; i++)
      gst_vmaf_hip_scoring_clear (gst_vmaf_hip_renditions_get
          (self->renditions, i));
    gst_vmaf_hip_renditions_stop (self->renditions);
    return FALSE;
  }
  gst_vmaf_hip_gpu_preload_kernels (self->gpu,
      gst_vmaf_hip_scoring_context (self->scoring));
  return TRUE;
}

static gboolean
gst_vmaf_hip_compare_stop (GstAggregator * agg)
{
  GstVmafHipCompare *self = GST_VMAF_HIP_COMPARE (agg);
  guint n = gst_vmaf_hip_renditions_n (self->renditions);

  for (guint i = 0; i < n; i++)
    gst_vmaf_hip_scoring_stop (gst_vmaf_hip_renditions_get (self->renditions,
            i), self->eos_done);
  gst_vmaf_hip_gpu_log_input_cost (self->gpu);
  gst_vmaf_hip_gpu_forget_references (self->gpu, FALSE);
  /* After the contexts: their GPU features used the device. */
  gst_vmaf_hip_gpu_close (self->gpu);
  for (guint i = 0; i < n; i++)
    gst_vmaf_hip_scoring_clear (gst_vmaf_hip_renditions_get
        (self->renditions, i));
  gst_vmaf_hip_renditions_stop (self->renditions);
  gst_vmaf_hip_inputs_stop (self->inputs);
  gst_vmaf_hip_repeat_reset (self->repeat, FALSE);

  return GST_AGGREGATOR_CLASS (parent_class)->stop (agg);
}

static GstFlowReturn
gst_vmaf_hip_compare_flush (GstAggregator * agg)
{
  GstVmafHipCompare *self = GST_VMAF_HIP_COMPARE (agg);
  GstFlowReturn ret;

  ret = GST_AGGREGATOR_CLASS (parent_class)->flush (agg);
  GST_DEBUG_OBJECT (self, "flushing: temporal features restart");
  for (guint i = 0; i < gst_vmaf_hip_renditions_n (self->renditions); i++)
    if (gst_vmaf_hip_renditions_is_ready (self->renditions, i) &&
        !gst_vmaf_hip_scoring_flush (gst_vmaf_hip_renditions_get
            (self->renditions, i)))
      ret = GST_FLOW_ERROR;
  gst_vmaf_hip_gpu_forget_references (self->gpu, FALSE);
  /* Frames still queued were flushed, not lost: the pads forgot them and
   * their counts at their own FLUSH_STOP. */
  gst_vmaf_hip_inputs_flush (self->inputs);
  gst_vmaf_hip_repeat_reset (self->repeat, FALSE);
  gst_vmaf_hip_gpu_reset_warnings (self->gpu);
  self->eos_done = FALSE;
  self->output_started = FALSE;
  return ret;
}

/* ---------------------------------------------------------------------- */
/* Request pads: more distorted videos                                     */

/* Whether the element has a pad named @name. With the object lock held. */
static gboolean
has_pad_named (GstElement * element, const gchar * name)
{
  for (GList * l = element->pads; l; l = l->next)
    if (g_strcmp0 (GST_OBJECT_NAME (l->data), name) == 0)
      return TRUE;
  return FALSE;
}

/* Named dist_sink_N: as asked (a free number), else the next one. The
 * base class adds it to the element. */
static GstAggregatorPad *
gst_vmaf_hip_compare_create_new_pad (GstAggregator * agg,
    GstPadTemplate * templ, const gchar * req_name, const GstCaps * caps)
{
  GstVmafHipCompare *self = GST_VMAF_HIP_COMPARE (agg);
  GstVideoAggregatorPad *pad;
  gchar *name, *end = NULL;
  guint64 serial = 0;
  gboolean asked;
  guint index;

  if (templ->direction != GST_PAD_SINK ||
      templ->presence != GST_PAD_REQUEST)
    return NULL;
  asked = req_name && g_str_has_prefix (req_name, "dist_sink_") &&
      g_ascii_isdigit (req_name[10]);
  if (asked) {
    serial = g_ascii_strtoull (req_name + 10, &end, 10);
    asked = end && !*end && serial < G_MAXUINT;
  }
  /* one at a time: the pad's match and rendition take the same number */
  GST_OBJECT_LOCK (self);
  if (!asked)
    serial = self->next_pad_serial;
  name = g_strdup_printf ("dist_sink_%u", (guint) serial);
  if (has_pad_named (GST_ELEMENT (self), name)) {
    GST_OBJECT_UNLOCK (self);
    GST_WARNING_OBJECT (self, "a pad named %s exists already", name);
    g_free (name);
    return NULL;
  }
  self->next_pad_serial = MAX (self->next_pad_serial, (guint) serial + 1);
  pad = g_object_new (GST_TYPE_VMAF_HIP_COMPARE_PAD, "name", name,
      "direction", GST_PAD_SINK, "template", templ, NULL);
  gst_vmaf_hip_gpu_watch_arrivals (self->gpu, GST_PAD (pad));
  index = gst_vmaf_hip_inputs_adopt_pad (self->inputs, pad);
  gst_vmaf_hip_renditions_add (self->renditions, index, GST_PAD (pad));
  GST_OBJECT_UNLOCK (self);
  GST_DEBUG_OBJECT (self, "%s: rendition %u", name, index);
  g_free (name);
  return GST_AGGREGATOR_PAD (pad);
}

/* gst-launch-1.0 sets a pad's properties (c.dist_sink_0::label=720p) once
 * the pad is there: told as a child added. */
static GstPad *
gst_vmaf_hip_compare_request_new_pad (GstElement * element,
    GstPadTemplate * templ, const gchar * name, const GstCaps * caps)
{
  GstPad *pad = GST_ELEMENT_CLASS (parent_class)->request_new_pad (element,
      templ, name, caps);

  if (pad)
    gst_child_proxy_child_added (GST_CHILD_PROXY (element), G_OBJECT (pad),
        GST_OBJECT_NAME (pad));
  return pad;
}

/* A rendition given back ends alone: what it scored is still summed up
 * at the end of the run. */
static void
gst_vmaf_hip_compare_release_pad (GstElement * element, GstPad * pad)
{
  GstVmafHipCompare *self = GST_VMAF_HIP_COMPARE (element);
  gint index = gst_vmaf_hip_inputs_match_of_pad (self->inputs, pad);

  if (index > 0) {
    gst_vmaf_hip_inputs_release_pad (self->inputs, pad);
    gst_vmaf_hip_renditions_release (self->renditions, index);
  }
  gst_child_proxy_child_removed (GST_CHILD_PROXY (element), G_OBJECT (pad),
      GST_OBJECT_NAME (pad));
  GST_ELEMENT_CLASS (parent_class)->release_pad (element, pad);
}

/* Pad properties from gst-launch-1.0 (c.dist_sink_0::label=720p). */
static GObject *
gst_vmaf_hip_compare_child_by_index (GstChildProxy * proxy, guint index)
{
  GObject *child;

  GST_OBJECT_LOCK (proxy);
  child = g_list_nth_data (GST_ELEMENT_CAST (proxy)->sinkpads, index);
  if (child)
    g_object_ref (child);
  GST_OBJECT_UNLOCK (proxy);
  return child;
}

static guint
gst_vmaf_hip_compare_children_count (GstChildProxy * proxy)
{
  guint count;

  GST_OBJECT_LOCK (proxy);
  count = GST_ELEMENT_CAST (proxy)->numsinkpads;
  GST_OBJECT_UNLOCK (proxy);
  return count;
}

static void
gst_vmaf_hip_compare_child_proxy_init (gpointer g_iface, gpointer iface_data)
{
  GstChildProxyInterface *iface = g_iface;

  iface->get_child_by_index = gst_vmaf_hip_compare_child_by_index;
  iface->get_children_count = gst_vmaf_hip_compare_children_count;
}

/* ---------------------------------------------------------------------- */
/* GObject                                                                 */

static void
gst_vmaf_hip_compare_finalize (GObject * object)
{
  GstVmafHipCompare *self = GST_VMAF_HIP_COMPARE (object);

  gst_vmaf_hip_settings_clear (&self->settings);
  g_free (self->results_filename);
  /* dist_sink's scoring with the others */
  gst_vmaf_hip_renditions_free (self->renditions);
  gst_vmaf_hip_watch_settings_clear (&self->watch);
  gst_vmaf_hip_gpu_free (self->gpu);
  gst_vmaf_hip_inputs_free (self->inputs);
  gst_vmaf_hip_convert_free (self->convert);
  gst_vmaf_hip_repeat_free (self->repeat);

  G_OBJECT_CLASS (parent_class)->finalize (object);
}

/* A sink pad from @st: its frames made ready for the device as they
 * arrive, then seen by the pairing (the probes run in that order). */
static GstVideoAggregatorPad *
add_static_pad (GstVmafHipCompare * self, GstStaticPadTemplate * st,
    gboolean reference)
{
  GstPadTemplate *templ = gst_static_pad_template_get (st);
  GstVideoAggregatorPad *pad = g_object_new (GST_TYPE_VMAF_HIP_COMPARE_PAD,
      "name", st->name_template, "direction", GST_PAD_SINK, "template", templ,
      NULL);

  gst_object_unref (templ);
  gst_vmaf_hip_gpu_watch_arrivals (self->gpu, GST_PAD (pad));
  gst_vmaf_hip_inputs_add_pad (self->inputs, pad, reference);
  return pad;
}

static void
gst_vmaf_hip_compare_init (GstVmafHipCompare * self)
{
  GstVmafHipLiveSettings *live;
  GstVideoAggregatorPad *dist;

  self->settings.model = g_strdup (DEFAULT_MODEL);
  self->settings.features = g_strdup (DEFAULT_FEATURES);
  self->settings.enable_transform = DEFAULT_ENABLE_TRANSFORM;
  self->settings.disable_clip = DEFAULT_DISABLE_CLIP;
  self->settings.subsample = DEFAULT_SUBSAMPLE;
  self->settings.threads = DEFAULT_THREADS;
  self->settings.backend = DEFAULT_BACKEND;
  self->settings.device_id = DEFAULT_DEVICE_ID;
  self->settings.self_test = DEFAULT_SELF_TEST;
  self->results_interval = DEFAULT_RESULTS_INTERVAL;
  self->results_filename = DEFAULT_RESULTS_FILENAME;
  self->results_format = DEFAULT_RESULTS_FORMAT;
  self->passthrough = DEFAULT_PASSTHROUGH;
  self->log_level = DEFAULT_LOG_LEVEL;
  self->input_timeout = DEFAULT_INPUT_TIMEOUT;
  self->convert_mode = DEFAULT_CONVERT;
  self->align_mode = DEFAULT_ALIGN;
  self->align_window = DEFAULT_ALIGN_WINDOW;
  self->unpaired_mode = DEFAULT_UNPAIRED;
  self->repeat = gst_vmaf_hip_repeat_new ();
  self->scale_method = DEFAULT_SCALE;
  gst_vmaf_hip_watch_settings_init (&self->watch);
  self->convert = gst_vmaf_hip_convert_new ();

  self->gpu = gst_vmaf_hip_gpu_new (GST_ELEMENT (self));
  self->scoring = gst_vmaf_hip_scoring_new (GST_ELEMENT (self), self->gpu);
  live = gst_vmaf_hip_scoring_live (self->scoring);
  live->pool_method = DEFAULT_POOL_METHOD;
  live->frame_message = DEFAULT_FRAME_MESSAGE;
  live->tag_interval = DEFAULT_TAG_INTERVAL;
  live->message_layout = DEFAULT_MESSAGE_LAYOUT;

  self->inputs = gst_vmaf_hip_inputs_new (GST_AGGREGATOR (self));
  add_static_pad (self, &ref_sink_template, TRUE);
  dist = add_static_pad (self, &dist_sink_template, FALSE);
  self->renditions = gst_vmaf_hip_renditions_new (GST_ELEMENT (self),
      self->gpu, self->scoring, GST_PAD (dist));
}

static void
gst_vmaf_hip_compare_class_init (GstVmafHipCompareClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstAggregatorClass *agg_class = GST_AGGREGATOR_CLASS (klass);
  GstVideoAggregatorClass *vagg_class = GST_VIDEO_AGGREGATOR_CLASS (klass);

  GST_DEBUG_CATEGORY_INIT (gst_vmaf_hip_compare_debug, "vmafhipcompare", 0,
      "vmafhip video quality comparison");

  gobject_class->set_property = gst_vmaf_hip_compare_set_property;
  gobject_class->get_property = gst_vmaf_hip_compare_get_property;
  gobject_class->finalize = gst_vmaf_hip_compare_finalize;

  gst_vmaf_hip_compare_install_properties (gobject_class);

  gst_element_class_add_static_pad_template_with_gtype (element_class,
      &src_template, GST_TYPE_AGGREGATOR_PAD);
  gst_element_class_add_static_pad_template_with_gtype (element_class,
      &ref_sink_template, GST_TYPE_VMAF_HIP_COMPARE_PAD);
  gst_element_class_add_static_pad_template_with_gtype (element_class,
      &dist_sink_template, GST_TYPE_VMAF_HIP_COMPARE_PAD);
  gst_element_class_add_static_pad_template_with_gtype (element_class,
      &dist_request_template, GST_TYPE_VMAF_HIP_COMPARE_PAD);

  gst_element_class_set_static_metadata (element_class,
      "VMAF video quality comparison", "Filter/Analyzer/Video",
      "Scores distorted video against a reference with VMAF models and "
      "libvmaf's features (PSNR, SSIM, MS-SSIM, CAMBI, ...), live, and posts "
      "the scores on the bus", "vmafhip developers");
  gst_element_class_add_static_metadata (element_class, "messages",
      GST_VMAF_HIP_DOC_MESSAGES);
  gst_element_class_add_static_metadata (element_class, "tags",
      GST_VMAF_HIP_DOC_TAGS);

  agg_class->aggregate = GST_DEBUG_FUNCPTR (gst_vmaf_hip_compare_aggregate);
  agg_class->finish_buffer =
      GST_DEBUG_FUNCPTR (gst_vmaf_hip_compare_finish_buffer);
  agg_class->update_src_caps =
      GST_DEBUG_FUNCPTR (gst_vmaf_hip_compare_update_src_caps);
  agg_class->sink_query = GST_DEBUG_FUNCPTR (gst_vmaf_hip_compare_sink_query);
  agg_class->src_event = GST_DEBUG_FUNCPTR (gst_vmaf_hip_compare_src_event);
  agg_class->sink_event = GST_DEBUG_FUNCPTR (gst_vmaf_hip_compare_sink_event);
  agg_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_vmaf_hip_compare_decide_allocation);
  agg_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_vmaf_hip_compare_propose_allocation);
  element_class->set_context =
      GST_DEBUG_FUNCPTR (gst_vmaf_hip_compare_set_context);
  element_class->request_new_pad =
      GST_DEBUG_FUNCPTR (gst_vmaf_hip_compare_request_new_pad);
  element_class->release_pad =
      GST_DEBUG_FUNCPTR (gst_vmaf_hip_compare_release_pad);
  agg_class->create_new_pad =
      GST_DEBUG_FUNCPTR (gst_vmaf_hip_compare_create_new_pad);
  agg_class->start = GST_DEBUG_FUNCPTR (gst_vmaf_hip_compare_start);
  agg_class->stop = GST_DEBUG_FUNCPTR (gst_vmaf_hip_compare_stop);
  agg_class->flush = GST_DEBUG_FUNCPTR (gst_vmaf_hip_compare_flush);

  vagg_class->create_output_buffer =
      GST_DEBUG_FUNCPTR (gst_vmaf_hip_compare_create_output_buffer);
  vagg_class->aggregate_frames =
      GST_DEBUG_FUNCPTR (gst_vmaf_hip_compare_aggregate_frames);

  gst_type_mark_as_plugin_api (GST_TYPE_VMAF_HIP_POOL_METHOD, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_VMAF_HIP_RESULTS_FORMAT, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_VMAF_HIP_PASSTHROUGH, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_VMAF_HIP_BACKEND, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_VMAF_HIP_CONVERT_MODE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_VMAF_HIP_ALIGN_MODE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_VMAF_HIP_UNPAIRED_MODE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_VMAF_HIP_SCALE_METHOD, 0);
}
