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
#include "gstvmafhipcomparepad.h"
#include "gstvmafhipcompat.h"
#include "gstvmafhipcaps.h"
#include "gstvmafhipconfig.h"
#include "gstvmafhipdoc.h"
#include "gstvmafhipenums.h"
#include "gstvmafhippairing.h"
#include "gstvmafhippicture.h"
#include "gstvmafhipreport.h"
#include "gstvmafhiptags.h"

#include "errors.h"
#include "model.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#ifdef VH_HAVE_HIP
#include "gstvmafhipcuda.h"
#include "gstvmafhiputils.h"
#endif

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

static GstStaticPadTemplate src_template =
GST_STATIC_PAD_TEMPLATE ("src", GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS (SINK_CAPS));

#define gst_vmaf_hip_compare_parent_class parent_class
G_DEFINE_TYPE (GstVmafHipCompare, gst_vmaf_hip_compare,
    GST_TYPE_VIDEO_AGGREGATOR);

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
  return which == GST_VMAF_HIP_PASSTHROUGH_REFERENCE ? self->ref_pad :
      self->dist_pad;
}

static void
post_tags (GstVmafHipCompare * self, GstTagList * tags)
{
  gst_element_post_message (GST_ELEMENT_CAST (self),
      gst_message_new_tag (GST_OBJECT_CAST (self), gst_tag_list_copy (tags)));
}

static gboolean update_results (GstVmafHipCompare * self, gboolean force);

/* ---------------------------------------------------------------------- */
/* Frame-ready callback: runs on an engine worker, in frame order.         */

static void
on_frame_ready (VhContext * ctx, guint index, gboolean scored,
    gpointer user_data)
{
  GstVmafHipCompare *self = user_data;
  gboolean want_message = g_atomic_int_get (&self->frame_message);
  guint tag_interval = (guint) g_atomic_int_get (&self->tag_interval);
  GstStructure *s;
  guint64 n_scored = 0;

  s = gst_vmaf_hip_report_frame_ready (self->report,
      vh_context_get_collector (ctx), index, scored, want_message, &n_scored);
  /* The report keeps what the results file needs: the engine's copy of a
   * reported frame can go, so a live run does not grow without bound. */
  vh_feature_collector_release (vh_context_get_collector (ctx), index + 1);
  if (s && g_atomic_int_get (&self->message_layout) ==
      GST_VMAF_HIP_MESSAGE_LAYOUT_VMAF) {
    GstStructure *vmaf = gst_vmaf_hip_compat_frame (s);
    gst_structure_free (s);
    s = vmaf;
  }
  if (s) {
    gst_element_post_message (GST_ELEMENT_CAST (self),
        gst_message_new_element (GST_OBJECT_CAST (self), s));
  }
  if (self->run_results_filename)
    update_results (self, FALSE);
  if (scored && tag_interval > 0 && n_scored % tag_interval == 0) {
    GstVmafHipPoolMethod method = g_atomic_int_get (&self->pool_method);
    GstTagList *tags = gst_vmaf_hip_report_make_tags (self->report, method);

    if (tags) {
      post_tags (self, tags);
      GST_OBJECT_LOCK (self);
      if (self->pending_tags)
        gst_tag_list_unref (self->pending_tags);
      self->pending_tags = tags;
      GST_OBJECT_UNLOCK (self);
    }
  }
}

/* backend=auto: the GPU failed and the engine went over to the CPU (on
 * the thread that saw the failure). Said on the bus; the results file's
 * dispatch says it too (log_dispatch() at the end). */
static void
on_gpu_fallback (VhContext * ctx, const gchar * message, gpointer user_data)
{
  GstVmafHipCompare *self = user_data;

  GST_ELEMENT_WARNING (self, RESOURCE, FAILED, ("Scoring goes on on the "
          "CPU: %s.", message), ("backend=auto"));
}

/* ---------------------------------------------------------------------- */
/* Backend: the GPU and its twins                                          */

/* Which feature runs where, once per run (again only if it changes). */
static void
log_dispatch (GstVmafHipCompare * self)
{
  gchar *dispatch = vh_context_describe_dispatch (self->ctx);

  if (g_strcmp0 (dispatch, self->dispatch) != 0)
    GST_INFO_OBJECT (self, "features: %s", dispatch);
  GST_OBJECT_LOCK (self);
  g_free (self->dispatch);
  self->dispatch = dispatch;
  GST_OBJECT_UNLOCK (self);
  self->hip_input = self->transfer &&
      vh_context_uses_memory (self->ctx, VH_MEMORY_HIP_DEVICE);
}

static void
gst_vmaf_hip_compare_set_context (GstElement * element, GstContext * context)
{
#ifdef VH_HAVE_HIP
  GstVmafHipCompare *self = GST_VMAF_HIP_COMPARE (element);

  GST_OBJECT_LOCK (self);
  gst_vmaf_hip_handle_set_context (element, context,
      GST_VMAF_HIP_VENDOR_UNKNOWN, self->settings.device_id,
      (GstVmafHipDevice **) & self->hip_device);
  GST_OBJECT_UNLOCK (self);
#endif
  GST_ELEMENT_CLASS (parent_class)->set_context (element, context);
}

/* ---------------------------------------------------------------------- */
/* Engine context lifecycle                                                */

static gboolean
build_context (GstVmafHipCompare * self)
{
  GError *err = NULL;
  GPtrArray *names;
  VhModel *first;

  self->ctx = gst_vmaf_hip_context_new (&self->run, self->backends,
      self->transfer, &err);
  if (!self->ctx) {
    if (g_error_matches (err, VH_ERROR, VH_ERROR_BACKEND)) {
      GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
          ("The HIP backend is not available: %s", err->message),
          ("model=\"%s\" features=\"%s\"", GST_STR_NULL (self->run.model),
              GST_STR_NULL (self->run.features)));
    } else {
      GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
          ("Invalid scoring settings: %s", err->message),
          ("model=\"%s\" features=\"%s\"", GST_STR_NULL (self->run.model),
              GST_STR_NULL (self->run.features)));
    }
    g_error_free (err);
    return FALSE;
  }
  vh_context_set_frame_ready_func (self->ctx, on_frame_ready, self, NULL);
  vh_context_set_fallback_func (self->ctx, on_gpu_fallback, self);
  log_dispatch (self);
  names = vh_context_output_names (self->ctx);
  gst_vmaf_hip_report_set_order (self->report, names);
  g_ptr_array_unref (names);
  first = vh_context_get_model (self->ctx, 0);
  gst_vmaf_hip_report_set_score_name (self->report,
      first ? vh_model_get_name (first) : NULL);
  return TRUE;
}

static gboolean
start_context (GstVmafHipCompare * self, const VhPictureInfo * info,
    const GstVideoInfo * vinfo)
{
  GError *err = NULL;
  guint sub = MAX (self->run.subsample, 1);

  if (!self->ctx && !build_context (self))
    return FALSE;
  if (!vh_context_start (self->ctx, info, &err)) {
    gchar *desc = gst_vmaf_hip_describe_video (vinfo);
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("Cannot score %s video: %s", desc, err->message), (NULL));
    g_free (desc);
    g_error_free (err);
    return FALSE;
  }
  self->ctx_info = *info;
  self->ctx_started = TRUE;
  self->ctx_drained = FALSE;
  /* Keep subsampling in step with the element's frame numbers. */
  self->ctx_base = (self->n_pairs + sub - 1) / sub * sub;
  GST_INFO_OBJECT (self, "scoring %ux%u %s %u-bit from frame %"
      G_GUINT64_FORMAT, info->width, info->height,
      vh_pix_fmt_to_string (info->pix_fmt), info->bpc, self->ctx_base);
  return TRUE;
}

/* Waits for every frame in flight and flushes temporal features; later
 * frames start a new temporal sequence. */
static gboolean
finish_context (GstVmafHipCompare * self)
{
  GError *err = NULL;

  if (!self->ctx_started || self->ctx_drained)
    return TRUE;
  self->ctx_drained = TRUE;
  if (!vh_context_finish (self->ctx, &err)) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED,
        ("Scoring failed: %s", err->message), (NULL));
    g_error_free (err);
    return FALSE;
  }
  return TRUE;
}

/* Finishes and drops the context, for a new picture geometry. */
static gboolean
retire_context (GstVmafHipCompare * self)
{
  gboolean ok = finish_context (self);

  g_clear_pointer (&self->ctx, vh_context_free);
  self->ctx_started = FALSE;
  return ok;
}

/* ---------------------------------------------------------------------- */
/* Pairing and scoring (streaming thread)                                  */

static void
post_mismatch (GstVmafHipCompare * self, const GstVideoInfo * ref,
    const GstVideoInfo * dist)
{
  gchar *r = gst_vmaf_hip_describe_video (ref);
  gchar *d = gst_vmaf_hip_describe_video (dist);

  /* VMAF compares the distorted video at the reference's size and format:
   * say how to get there */
  GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
      ("The reference (ref_sink: %s) and the distorted video (dist_sink: %s) "
          "differ: both need the same width, height, bit depth and chroma "
          "subsampling. Convert the distorted video to the reference's "
          "format and size before its pad: ... ! videoconvert ! videoscale ! "
          "video/x-raw,format=%s,width=%d,height=%d ! %s.dist_sink", r, d,
          gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (ref)),
          GST_VIDEO_INFO_WIDTH (ref), GST_VIDEO_INFO_HEIGHT (ref),
          GST_OBJECT_NAME (self)), (NULL));
  g_free (r);
  g_free (d);
}

static GstFlowReturn
score_pair (GstVmafHipCompare * self, const GstVmafHipFrame * ref_frame,
    const GstVmafHipFrame * dist_frame)
{
  const GstVideoInfo *rinfo = &ref_frame->info;
  const GstVideoInfo *dinfo = &dist_frame->info;
  GstBuffer *ref = ref_frame->buffer, *dist = dist_frame->buffer;
  const GstVmafHipFrame *pass;
  VhPictureInfo rpi, dpi;
  VhPicture *ref_pic, *dist_pic;
  GstVmafHipStamp stamp;
  GError *err = NULL;
  gboolean ok;

  if (!gst_vmaf_hip_picture_info_from_video (rinfo, &rpi) ||
      !gst_vmaf_hip_picture_info_from_video (dinfo, &dpi) ||
      !vh_picture_info_equal (&rpi, &dpi)) {
    post_mismatch (self, rinfo, dinfo);
    return GST_FLOW_NOT_NEGOTIATED;
  }

  if (self->ctx_started && !vh_picture_info_equal (&self->ctx_info, &rpi)) {
    GST_INFO_OBJECT (self, "picture geometry changed, new context");
    if (!retire_context (self))
      return GST_FLOW_ERROR;
  } else if (self->ctx_started && self->have_info_used &&
      (!gst_video_info_is_equal (&self->ref_info_used, rinfo) ||
          !gst_video_info_is_equal (&self->dist_info_used, dinfo))) {
    GST_INFO_OBJECT (self, "caps changed, temporal features restart");
    if (!finish_context (self))
      return GST_FLOW_ERROR;
  }
  if (!self->ctx_started && !start_context (self, &rpi, rinfo))
    return GST_FLOW_ERROR;
  self->ref_info_used = *rinfo;
  self->dist_info_used = *dinfo;
  self->have_info_used = TRUE;

#ifdef VH_HAVE_HIP
  /* Both copies in flight before either mapping waits for its own. */
  gst_vmaf_hip_compare_start_upload (self, ref);
  gst_vmaf_hip_compare_start_upload (self, dist);
#endif
  ref_pic = gst_vmaf_hip_compare_wrap_input (self, rinfo, ref, &err);
  dist_pic = ref_pic ?
      gst_vmaf_hip_compare_wrap_input (self, dinfo, dist, &err) : NULL;
  if (!dist_pic) {
    GST_ELEMENT_ERROR (self, STREAM, DECODE,
        ("Could not read a %s frame: %s", ref_pic ? "distorted" : "reference",
            err->message), (NULL));
    g_clear_pointer (&ref_pic, vh_picture_unref);
    g_error_free (err);
    return GST_FLOW_ERROR;
  }

  pass = self->run_passthrough == GST_VMAF_HIP_PASSTHROUGH_REFERENCE ?
      ref_frame : dist_frame;
  stamp.pts = pass->pts;
  stamp.duration = pass->duration;
  stamp.stream_time = pass->stream_time;
  stamp.running_time = pass->running_time;
  stamp.ctx_index = vh_context_n_frames (self->ctx);
  stamp.index = self->ctx_base + stamp.ctx_index;
  if (self->first_submit_us == 0)
    self->first_submit_us = g_get_monotonic_time ();

  /* The stamp must be queued first: the frame may be final before
   * vh_context_submit() returns. */
  gst_vmaf_hip_report_push_stamp (self->report, &stamp);
  ok = vh_context_submit (self->ctx, ref_pic, dist_pic, NULL, &err);
  vh_picture_unref (ref_pic);
  vh_picture_unref (dist_pic);
  if (!ok) {
    gst_vmaf_hip_report_drop_last_stamp (self->report);
    GST_ELEMENT_ERROR (self, STREAM, FAILED,
        ("Scoring failed: %s", err->message), (NULL));
    g_error_free (err);
    return GST_FLOW_ERROR;
  }
  self->n_pairs = stamp.index + 1;
  self->ctx_drained = FALSE;
  GST_LOG_OBJECT (self, "submitted frame %" G_GUINT64_FORMAT " pts %"
      GST_TIME_FORMAT, stamp.index, GST_TIME_ARGS (stamp.pts));
  return GST_FLOW_OK;
}

/* A frame whose moment the other side never showed. */
static GstFlowReturn
count_unpaired (GstVmafHipCompare * self, gboolean ref_side,
    const GstVmafHipFrame * f, gboolean other_over)
{
  GST_DEBUG_OBJECT (self, "%s frame at %" GST_TIME_FORMAT " (running time %"
      GST_TIME_FORMAT ") has no partner", ref_side ? "reference" : "distorted",
      GST_TIME_ARGS (f->pts), GST_TIME_ARGS (f->running_time));

  if (other_over) {
    gst_vmaf_hip_compare_side_count (self, ref_side)->unpaired_after_end++;
    /* The other side is over: let the last pair's values become final
     * now rather than at EOS. */
    return finish_context (self) ? GST_FLOW_OK : GST_FLOW_ERROR;
  }
  if (!self->warned_out_of_step) {
    self->warned_out_of_step = TRUE;
    GST_ELEMENT_WARNING (self, STREAM, FAILED,
        ("The %s frame at %" GST_TIME_FORMAT " (running time) has no %s "
            "frame of the same moment; it is not scored. Either the %s "
            "branch skipped that moment, or it reaches the element later "
            "than the pipeline's latency allows: then raise the element's latency "
            "property (e.g. latency=200000000) so that it waits for it. "
            "Unpaired frames are counted in the vmaf-summary message.",
            ref_side ? "reference" : "distorted",
            GST_TIME_ARGS (f->running_time),
            ref_side ? "distorted" : "reference",
            ref_side ? "distorted" : "reference"), (NULL));
  }
  return GST_FLOW_OK;
}

/* A few frames, plus @latency in frames at the rate of the caps the pads'
 * threads saw (the base class learns them later, when frames may already
 * be waiting). */
static guint
frames_in_latency (GstVmafHipCompare * self, GstClockTime latency)
{
  GstClockTime frame = 0;

  if (!GST_CLOCK_TIME_IS_VALID (latency) || latency == 0)
    return MAX_WAITING_FRAMES;
  g_mutex_lock (&self->count_lock);
  for (guint i = 0; i < 2 && !frame; i++) {
    const SideCount *c = gst_vmaf_hip_compare_side_count (self, i == 0);
    if (c->have_info && GST_VIDEO_INFO_FPS_N (&c->info) > 0)
      frame = gst_util_uint64_scale_int (GST_SECOND,
          GST_VIDEO_INFO_FPS_D (&c->info), GST_VIDEO_INFO_FPS_N (&c->info));
  }
  g_mutex_unlock (&self->count_lock);
  /* A variable or unknown rate: as many frames as 120 a second make. */
  if (!frame)
    frame = GST_SECOND / 120;
  return MAX_WAITING_FRAMES + (guint) MIN (latency / frame, 1024);
}

/* How many frames of one side the latency lets wait for the other side:
 * the pipeline's latency with a live source, else the latency property,
 * which lets each pad queue that much. */
guint
gst_vmaf_hip_compare_frames_within_latency (GstVmafHipCompare * self)
{
  GstClockTime latency = gst_aggregator_get_latency (GST_AGGREGATOR (self));

  if (!GST_CLOCK_TIME_IS_VALID (latency))
    g_object_get (self, "latency", &latency, NULL);
  return frames_in_latency (self, latency);
}

/* How many frames of one side wait for their partner before they count
 * as unpaired. */
static guint
max_waiting (GstVmafHipCompare * self)
{
  GstClockTime latency = gst_aggregator_get_latency (GST_AGGREGATOR (self));

  if (!GST_CLOCK_TIME_IS_VALID (latency))
    return MAX_WAITING_FRAMES_NOT_LIVE;
  return frames_in_latency (self, latency);
}

/* Scores every pair the frames that arrived make and counts the frames
 * that can have no partner. @at_end: no frame comes any more. */
static GstFlowReturn
decide_pairs (GstVmafHipCompare * self, gboolean at_end)
{
  GstVmafHipPairingResult r;
  GstFlowReturn ret = GST_FLOW_OK;
  gboolean ref_over, dist_over, more;

  gst_vmaf_hip_pairing_set_max_waiting (self->pairing, max_waiting (self));
  do {
    /* The pads' threads add frames meanwhile: decide one at a time. */
    g_mutex_lock (&self->count_lock);
    ref_over = at_end || self->ref_count.over;
    dist_over = at_end || self->dist_count.over;
    more = gst_vmaf_hip_pairing_next (self->pairing, ref_over, dist_over, &r);
    if (more) {
      if (r.has_ref)
        self->ref_count.decided++;
      if (r.has_dist)
        self->dist_count.decided++;
      if (r.has_ref != r.has_dist)
        gst_vmaf_hip_compare_side_count (self, r.has_ref)->unpaired++;
    }
    g_mutex_unlock (&self->count_lock);
    if (!more)
      break;
    if (r.has_ref && r.has_dist)
      ret = score_pair (self, &r.ref, &r.dist);
    else if (r.has_ref)
      ret = count_unpaired (self, TRUE, &r.ref, dist_over);
    else
      ret = count_unpaired (self, FALSE, &r.dist, ref_over);
    gst_vmaf_hip_pairing_result_clear (&r);
  } while (ret == GST_FLOW_OK);
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

  /* The output is the input frame itself: a new buffer header sharing its
   * memory, so that the base class may stamp it without touching the
   * input. No pixel is copied. */
  pass = gst_video_aggregator_pad_get_current_buffer (passthrough_pad (self,
          self->run_passthrough));
  if (pass)
    *outbuf = gst_buffer_copy (pass);
  return GST_FLOW_OK;
}

static GstFlowReturn
gst_vmaf_hip_compare_aggregate_frames (GstVideoAggregator * vagg,
    GstBuffer * outbuf)
{
  /* Nothing to draw: create_output_buffer() passed the frame on. */
  return GST_FLOW_OK;
}

/* ---------------------------------------------------------------------- */
/* End of stream                                                           */

/* Every frame that was not scored is accounted for, on the bus. */
static void
warn_unscored (GstVmafHipCompare * self, guint64 dropped_ref,
    guint64 dropped_dist)
{
  guint64 ur = self->ref_count.unpaired, ud = self->dist_count.unpaired;
  /* Said only when that is all there is to it. */
  gboolean dist_ended = ur && !ud &&
      self->ref_count.unpaired_after_end == ur;
  gboolean ref_ended = ud && !ur &&
      self->dist_count.unpaired_after_end == ud;

  if (ur || ud) {
    GST_ELEMENT_WARNING_WITH_DETAILS (self, STREAM, FAILED,
        ("%" G_GUINT64_FORMAT " reference and %" G_GUINT64_FORMAT
            " distorted frames had no partner and were not scored%s.", ur,
            ud, dist_ended ? " (dist_sink ended before ref_sink)" :
            ref_ended ? " (ref_sink ended before dist_sink)" : ""), (NULL),
        ("unpaired-reference", G_TYPE_UINT64, ur,
            "unpaired-distorted", G_TYPE_UINT64, ud, NULL));
  }
  if (dropped_ref || dropped_dist) {
    GST_ELEMENT_WARNING_WITH_DETAILS (self, STREAM, FAILED,
        ("%" G_GUINT64_FORMAT " reference and %" G_GUINT64_FORMAT
            " distorted frames were dropped before they could be paired "
            "(they came without caps, or past the segment's end).",
            dropped_ref, dropped_dist), (NULL),
        ("dropped-reference", G_TYPE_UINT64, dropped_ref,
            "dropped-distorted", G_TYPE_UINT64, dropped_dist, NULL));
  }
}

static VhOutputFormat
output_format (GstVmafHipResultsFormat f)
{
  switch (f) {
    case GST_VMAF_HIP_RESULTS_XML:
      return VH_OUTPUT_XML;
    case GST_VMAF_HIP_RESULTS_CSV:
      return VH_OUTPUT_CSV;
    case GST_VMAF_HIP_RESULTS_JSON:
    default:
      return VH_OUTPUT_JSON;
  }
}

/* Writes the results file: every frame reported so far, pooled over them,
 * when the interval since the last rewrite has passed, or at once with
 * @force (end of stream, stop). Runs on the worker reporting frames or on
 * the streaming thread, never both at once (the engine is idle when the
 * streaming thread writes). */
static gboolean
update_results (GstVmafHipCompare * self, gboolean force)
{
  VhOutputInfo info = { 0 };
  GError *err = NULL;
  gdouble secs = (g_get_monotonic_time () - self->first_submit_us) / 1e6;
  gboolean ok;

  if (g_atomic_int_get (&self->results_failed))
    return FALSE;
  /* During the run, pooled over the frames reported; at the end, over all
   * frames numbered (the engine is idle then). */
  info.n_frames = force ? self->n_pairs : 0;
  info.subsample = MAX (self->run.subsample, 1);
  info.width = self->ctx_info.width;
  info.height = self->ctx_info.height;
  info.dispatch = self->dispatch;
  if (!self->results_file) {
    self->results_file = vh_results_file_new (self->run_results_filename,
        output_format (self->run_results_format), &err);
    if (self->results_file) {
      vh_results_file_set_interval (self->results_file,
          (gint64) self->run_results_interval * 1000);
      force = TRUE;             /* the first frames at once */
    }
  }
  ok = self->results_file && gst_vmaf_hip_report_update_results
      (self->report, self->results_file, &info, secs, force, &err);
  if (!ok) {
    g_atomic_int_set (&self->results_failed, 1);
    GST_ELEMENT_ERROR (self, RESOURCE, OPEN_WRITE,
        ("Could not write the results file \"%s\".",
            self->run_results_filename), ("%s", err->message));
    g_error_free (err);
  }
  return ok;
}

/* Runs once the base class decided on EOS and before EOS leaves. */
static gboolean
end_of_stream (GstVmafHipCompare * self)
{
  GstVmafHipPoolMethod method = g_atomic_int_get (&self->pool_method);
  GstStructure *summary;
  GstTagList *tags;
  gboolean wrote = FALSE;
  guint64 dropped_ref, dropped_dist;

  /* Frames still waiting for a partner get none now. */
  if (decide_pairs (self, TRUE) != GST_FLOW_OK || !finish_context (self))
    return FALSE;
  /* A fall-back to the CPU shows in the results file. */
  log_dispatch (self);
  g_mutex_lock (&self->count_lock);
  dropped_ref = gst_vmaf_hip_compare_count_dropped (self, TRUE);
  dropped_dist = gst_vmaf_hip_compare_count_dropped (self, FALSE);
  g_mutex_unlock (&self->count_lock);
  warn_unscored (self, dropped_ref, dropped_dist);

  if (gst_vmaf_hip_report_n_scored (self->report) == 0) {
    GST_ELEMENT_WARNING (self, STREAM, FAILED,
        ("No frame pair was scored."), (NULL));
  } else if (self->run_results_filename) {
    if (!update_results (self, TRUE))
      return FALSE;
    wrote = TRUE;
  }

  summary = gst_vmaf_hip_report_make_summary (self->report, method);
  gst_structure_set (summary,
      "unpaired-reference", G_TYPE_UINT64, self->ref_count.unpaired,
      "unpaired-distorted", G_TYPE_UINT64, self->dist_count.unpaired,
      "dropped-reference", G_TYPE_UINT64, dropped_ref,
      "dropped-distorted", G_TYPE_UINT64, dropped_dist, NULL);
  if (wrote)
    gst_structure_set (summary, "results-filename", G_TYPE_STRING,
        self->run_results_filename, NULL);
  if (g_atomic_int_get (&self->message_layout) ==
      GST_VMAF_HIP_MESSAGE_LAYOUT_VMAF) {
    GstStructure *pooled = gst_vmaf_hip_compat_pooled (summary, method);
    gst_structure_free (summary);
    summary = pooled;
  }
  gst_element_post_message (GST_ELEMENT_CAST (self),
      gst_message_new_element (GST_OBJECT_CAST (self), summary));

  tags = gst_vmaf_hip_report_make_tags (self->report, method);
  if (tags) {
    post_tags (self, tags);
    GST_OBJECT_LOCK (self);
    g_clear_pointer (&self->pending_tags, gst_tag_list_unref);
    GST_OBJECT_UNLOCK (self);
    if (self->output_started)
      gst_pad_push_event (GST_AGGREGATOR_SRC_PAD (self),
          gst_event_new_tag (tags));
    else
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
  if (g_atomic_int_get (&self->caps_refused))
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
  GST_OBJECT_LOCK (self);
  tags = self->pending_tags;
  self->pending_tags = NULL;
  GST_OBJECT_UNLOCK (self);
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
  GstVideoAggregatorPad *pad = passthrough_pad (self, self->run_passthrough);
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
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("Downstream does not accept the %s video (%s) that the src pad "
            "passes on.", pad == self->ref_pad ? "reference" : "distorted",
            desc), ("caps %" GST_PTR_FORMAT ", downstream accepts %"
            GST_PTR_FORMAT, caps, downstream));
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
      caps = gst_pad_get_pad_template_caps (GST_PAD (pad));
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
#ifdef VH_HAVE_HIP
    case GST_QUERY_CONTEXT:{
      gboolean ret;
      const gchar *type = NULL;

      gst_query_parse_context_type (query, &type);
      if (g_strcmp0 (type, "gst.cuda.context") == 0) {
        GstVmafHipDevice *device = gst_vmaf_hip_compare_device_for_cuda (self);
        ret = gst_vmaf_hip_cuda_handle_context_query (GST_ELEMENT (self),
            query, device);
        gst_clear_object (&device);
        if (ret)
          return TRUE;
      }
      GST_OBJECT_LOCK (self);
      ret = gst_vmaf_hip_handle_context_query (GST_ELEMENT (self), query,
          (GstVmafHipDevice *) self->hip_device);
      GST_OBJECT_UNLOCK (self);
      if (ret)
        return TRUE;
      return GST_AGGREGATOR_CLASS (parent_class)->sink_query (agg, pad, query);
    }
#endif
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

/* Caps the engine or the base class cannot work with are refused here,
 * naming the pad, rather than spinning or failing later. */
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
  gboolean is_ref = pad == GST_AGGREGATOR_PAD (self->ref_pad);
  GstVideoAggregatorPad *other = is_ref ? self->dist_pad : self->ref_pad;
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
  ok = gst_vmaf_hip_check_sink_caps (caps, GST_PAD_NAME (pad), other_caps,
      GST_PAD_NAME (other), &err);
#ifdef VH_HAVE_HIP
  if (ok && gst_vmaf_hip_cuda_caps (caps)) {
    GstVmafHipDevice *device = gst_vmaf_hip_compare_device_for_cuda (self);
    ok = gst_vmaf_hip_cuda_usable (device, &err);
    if (!ok)
      g_prefix_error (&err, "%s: ", GST_PAD_NAME (pad));
    gst_clear_object (&device);
  }
#endif
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
  if (ok)
    g_atomic_int_and (&self->caps_refused, ~(is_ref ? 1 : 2));
  else
    g_atomic_int_or (&self->caps_refused, is_ref ? 1 : 2);
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

/* ---------------------------------------------------------------------- */
/* Start, stop, flush                                                      */

/* The results file is written at end of stream: find out now, before any
 * frame is scored, whether it can be. Opened without truncating, and
 * removed again if this made it. */
static gboolean
check_results_file (GstVmafHipCompare * self)
{
  const gchar *path = self->run_results_filename;
  gboolean existed;
  gint fd;

  if (!path)
    return TRUE;
  existed = g_file_test (path, G_FILE_TEST_EXISTS);
  fd = g_open (path, O_WRONLY | O_CREAT, 0666);
  if (fd < 0) {
    gint err = errno;
    GST_ELEMENT_ERROR (self, RESOURCE, OPEN_WRITE,
        ("Cannot write the results file \"%s\": %s", path,
            g_strerror (err)), ("results-filename, checked before scoring"));
    return FALSE;
  }
  close (fd);
  if (!existed)
    g_unlink (path);
  return TRUE;
}

/* The run's report and dispatch go; stats reads them from other threads. */
static void
clear_report (GstVmafHipCompare * self)
{
  GstVmafHipReport *report;

  GST_OBJECT_LOCK (self);
  report = self->report;
  self->report = NULL;
  g_clear_pointer (&self->dispatch, g_free);
  GST_OBJECT_UNLOCK (self);
  gst_vmaf_hip_report_free (report);
}

static gboolean
gst_vmaf_hip_compare_start (GstAggregator * agg)
{
  GstVmafHipCompare *self = GST_VMAF_HIP_COMPARE (agg);

  if (!GST_AGGREGATOR_CLASS (parent_class)->start (agg))
    return FALSE;

  GST_OBJECT_LOCK (self);
  gst_vmaf_hip_settings_clear (&self->run);
  gst_vmaf_hip_settings_copy (&self->run, &self->settings);
  if (self->compat_psnr || self->compat_ssim || self->compat_ms_ssim) {
    gchar *features = gst_vmaf_hip_compat_features (self->run.features,
        self->compat_psnr, self->compat_ssim, self->compat_ms_ssim);
    g_free (self->run.features);
    self->run.features = features;
  }
  g_free (self->run_results_filename);
  self->run_results_filename = g_strdup (self->results_filename);
  self->run_results_format = self->results_format;
  self->run_results_interval = self->results_interval;
  self->run_passthrough = self->passthrough;
  GST_OBJECT_UNLOCK (self);

  GST_OBJECT_LOCK (self);
  self->report = gst_vmaf_hip_report_new (self->run_results_filename != NULL);
  GST_OBJECT_UNLOCK (self);
  self->ctx_started = FALSE;
  self->ctx_base = 0;
  self->n_pairs = 0;
  self->have_info_used = FALSE;
  g_mutex_lock (&self->count_lock);
  self->ref_count.unpaired = self->dist_count.unpaired = 0;
  self->ref_count.unpaired_after_end = 0;
  self->dist_count.unpaired_after_end = 0;
  gst_vmaf_hip_compare_side_reset (self, TRUE);
  gst_vmaf_hip_compare_side_reset (self, FALSE);
  g_mutex_unlock (&self->count_lock);
  self->warned_out_of_step = FALSE;
  self->warned_upload = FALSE;
  self->eos_done = FALSE;
  g_atomic_int_set (&self->results_failed, 0);
  g_atomic_int_set (&self->caps_refused, 0);
  self->output_started = FALSE;
  self->first_submit_us = 0;

  /* Build the models now so that bad settings fail the state change. */
  if (!check_results_file (self) ||
      !gst_vmaf_hip_compare_open_hip_device (self) || !build_context (self)) {
    clear_report (self);
    gst_vmaf_hip_compare_close_hip_device (self);
    return FALSE;
  }
  gst_vmaf_hip_compare_preload_kernels (self);
  return TRUE;
}

static gboolean
gst_vmaf_hip_compare_stop (GstAggregator * agg)
{
  GstVmafHipCompare *self = GST_VMAF_HIP_COMPARE (agg);

  if (self->ctx) {
    /* Frames still in flight are reported before the context goes. */
    if (self->ctx_started && !vh_context_finish (self->ctx, NULL))
      GST_WARNING_OBJECT (self, "scoring failed while stopping");
    log_dispatch (self);
  }
  /* Stopped without EOS (an upstream error, a state change): what was
   * scored is written all the same, and said so. */
  if (self->run_results_filename && self->report && !self->eos_done &&
      gst_vmaf_hip_report_n_scored (self->report) > 0 &&
      update_results (self, TRUE))
    GST_ELEMENT_WARNING (self, RESOURCE, WRITE, ("Stopped before the end of "
            "the stream: the scores of the %" G_GUINT64_FORMAT " frames "
            "scored are in \"%s\".",
            gst_vmaf_hip_report_n_scored (self->report),
            self->run_results_filename), (NULL));
  g_clear_pointer (&self->ctx, vh_context_free);
  self->ctx_started = FALSE;
  g_clear_pointer (&self->results_file, vh_results_file_free);
  /* After the context: its GPU features used the device. */
  gst_vmaf_hip_compare_close_hip_device (self);
  clear_report (self);
  GST_OBJECT_LOCK (self);
  g_clear_pointer (&self->pending_tags, gst_tag_list_unref);
  GST_OBJECT_UNLOCK (self);
  g_mutex_lock (&self->count_lock);
  gst_vmaf_hip_compare_side_reset (self, TRUE);
  gst_vmaf_hip_compare_side_reset (self, FALSE);
  self->ref_count.have_info = self->dist_count.have_info = FALSE;
  gst_segment_init (&self->ref_count.segment, GST_FORMAT_UNDEFINED);
  gst_segment_init (&self->dist_count.segment, GST_FORMAT_UNDEFINED);
  g_mutex_unlock (&self->count_lock);

  return GST_AGGREGATOR_CLASS (parent_class)->stop (agg);
}

static GstFlowReturn
gst_vmaf_hip_compare_flush (GstAggregator * agg)
{
  GstVmafHipCompare *self = GST_VMAF_HIP_COMPARE (agg);
  GstFlowReturn ret;

  ret = GST_AGGREGATOR_CLASS (parent_class)->flush (agg);
  GST_DEBUG_OBJECT (self, "flushing: temporal features restart");
  /* Frames scored before the seek are still reported. */
  if (!finish_context (self))
    ret = GST_FLOW_ERROR;
  /* Frames still queued were flushed, not lost: the pads forgot them and
   * their counts at their own FLUSH_STOP. */
  self->eos_done = FALSE;
  self->output_started = FALSE;
  self->warned_out_of_step = FALSE;
  self->warned_upload = FALSE;
  GST_OBJECT_LOCK (self);
  g_clear_pointer (&self->pending_tags, gst_tag_list_unref);
  GST_OBJECT_UNLOCK (self);
  return ret;
}

/* ---------------------------------------------------------------------- */
/* GObject                                                                 */

static void
gst_vmaf_hip_compare_finalize (GObject * object)
{
  GstVmafHipCompare *self = GST_VMAF_HIP_COMPARE (object);

  gst_vmaf_hip_settings_clear (&self->settings);
  gst_vmaf_hip_settings_clear (&self->run);
  g_free (self->results_filename);
  g_free (self->run_results_filename);
  if (self->ctx)
    vh_context_free (self->ctx);
  gst_vmaf_hip_report_free (self->report);
  if (self->pending_tags)
    gst_tag_list_unref (self->pending_tags);
  gst_clear_object (&self->hip_device);
  g_free (self->dispatch);
  g_mutex_clear (&self->count_lock);
  gst_vmaf_hip_pairing_free (self->pairing);

  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static GstVideoAggregatorPad *
add_sink_pad (GstVmafHipCompare * self, GstStaticPadTemplate * st)
{
  GstPadTemplate *templ = gst_static_pad_template_get (st);
  GstVideoAggregatorPad *pad =
      g_object_new (GST_TYPE_VMAF_HIP_COMPARE_PAD,
      "name", st->name_template, "direction", GST_PAD_SINK,
      "template", templ, NULL);

  gst_object_unref (templ);
  gst_pad_add_probe (GST_PAD (pad), GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_EVENT_FLUSH | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM,
      gst_vmaf_hip_compare_pad_probe, self, NULL);
  gst_element_add_pad (GST_ELEMENT (self), GST_PAD (pad));
  return pad;
}

static void
gst_vmaf_hip_compare_init (GstVmafHipCompare * self)
{
  self->settings.model = g_strdup (DEFAULT_MODEL);
  self->settings.features = g_strdup (DEFAULT_FEATURES);
  self->settings.enable_transform = DEFAULT_ENABLE_TRANSFORM;
  self->settings.disable_clip = DEFAULT_DISABLE_CLIP;
  self->settings.subsample = DEFAULT_SUBSAMPLE;
  self->settings.threads = DEFAULT_THREADS;
  self->settings.backend = DEFAULT_BACKEND;
  self->settings.device_id = DEFAULT_DEVICE_ID;
  self->pool_method = DEFAULT_POOL_METHOD;
  self->frame_message = DEFAULT_FRAME_MESSAGE;
  self->tag_interval = DEFAULT_TAG_INTERVAL;
  self->results_interval = DEFAULT_RESULTS_INTERVAL;
  self->results_filename = DEFAULT_RESULTS_FILENAME;
  self->results_format = DEFAULT_RESULTS_FORMAT;
  self->passthrough = DEFAULT_PASSTHROUGH;
  self->log_level = DEFAULT_LOG_LEVEL;
  self->message_layout = DEFAULT_MESSAGE_LAYOUT;
  g_mutex_init (&self->count_lock);
  self->pairing = gst_vmaf_hip_pairing_new (MAX_WAITING_FRAMES);

  self->ref_pad = add_sink_pad (self, &ref_sink_template);
  self->dist_pad = add_sink_pad (self, &dist_sink_template);
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
}
