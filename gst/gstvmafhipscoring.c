/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* One run's scoring: the engine's context, the report and the results
 * file. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvmafhipscoring.h"
#include "gstvmafhipcompat.h"
#include "gstvmafhippicture.h"
#include "gstvmafhipreport.h"
#include "gstvmafhipresults.h"

#include "errors.h"
#include "model.h"

GST_DEBUG_CATEGORY_EXTERN (gst_vmaf_hip_compare_debug);
#define GST_CAT_DEFAULT gst_vmaf_hip_compare_debug

struct _GstVmafHipScoring
{
  GstElement *element;          /* not owned */
  GstVmafHipGpu *gpu;           /* not owned */
  GstVmafHipLiveSettings live;

  /* One run, from start to stop; streaming thread. */
  GstVmafHipSettings run;
  GstVmafHipPassthrough passthrough;
  /* The results file (kept by the report's run report) is rewritten as
   * frames are scored (on the worker that reports them), so that a kill
   * leaves what was scored. */
  GstVmafHipResults *results;
  VhContext *ctx;
  gboolean ctx_started;
  gboolean ctx_drained;         /* finished, nothing submitted since */
  VhPictureInfo ctx_info;
  guint64 ctx_base;             /* element frame number of engine frame 0 */
  guint64 n_pairs;              /* frame numbers handed out so far */
  GstVideoInfo ref_info_used;
  GstVideoInfo dist_info_used;
  gboolean have_info_used;
  GstVmafHipReport *report;     /* the engine's run report and what the
                                 * element makes of it; thread-safe,
                                 * shared with the workers; set under the
                                 * object lock (stats) */
  gchar *dispatch;              /* "adm: hip, ...", logged once; set
                                 * under the object lock */
  /* Tags for the next output buffer, under the object lock. */
  GstTagList *pending_tags;
};

GstVmafHipScoring *
gst_vmaf_hip_scoring_new (GstElement * element, GstVmafHipGpu * gpu)
{
  GstVmafHipScoring *scoring = g_new0 (GstVmafHipScoring, 1);

  scoring->element = element;
  scoring->gpu = gpu;
  scoring->results = gst_vmaf_hip_results_new (element);
  return scoring;
}

void
gst_vmaf_hip_scoring_free (GstVmafHipScoring * scoring)
{
  if (!scoring)
    return;
  gst_vmaf_hip_settings_clear (&scoring->run);
  g_clear_pointer (&scoring->ctx, vh_context_free);
  gst_vmaf_hip_report_free (scoring->report);
  gst_vmaf_hip_results_free (scoring->results);
  g_free (scoring->dispatch);
  if (scoring->pending_tags)
    gst_tag_list_unref (scoring->pending_tags);
  g_free (scoring);
}

GstVmafHipLiveSettings *
gst_vmaf_hip_scoring_live (GstVmafHipScoring * scoring)
{
  return &scoring->live;
}

void
gst_vmaf_hip_scoring_configure (GstVmafHipScoring * scoring,
    const GstVmafHipSettings * settings, const gchar * features,
    const gchar * results_filename, GstVmafHipResultsFormat format,
    guint results_interval_ms, GstVmafHipPassthrough passthrough)
{
  gst_vmaf_hip_settings_clear (&scoring->run);
  gst_vmaf_hip_settings_copy (&scoring->run, settings);
  if (features) {
    g_free (scoring->run.features);
    scoring->run.features = g_strdup (features);
  }
  gst_vmaf_hip_results_configure (scoring->results, results_filename, format,
      results_interval_ms);
  scoring->passthrough = passthrough;
}

const GstVmafHipSettings *
gst_vmaf_hip_scoring_settings (GstVmafHipScoring * scoring)
{
  return &scoring->run;
}

GstVmafHipPassthrough
gst_vmaf_hip_scoring_passthrough (GstVmafHipScoring * scoring)
{
  return scoring->passthrough;
}

VhContext *
gst_vmaf_hip_scoring_context (GstVmafHipScoring * scoring)
{
  return scoring->ctx;
}

static void
post_tags (GstVmafHipScoring * scoring, GstTagList * tags)
{
  gst_element_post_message (scoring->element,
      gst_message_new_tag (GST_OBJECT_CAST (scoring->element),
          gst_tag_list_copy (tags)));
}

/* ---------------------------------------------------------------------- */
/* The results file                                                        */

static const gchar *
results_path (GstVmafHipScoring * scoring)
{
  return gst_vmaf_hip_results_filename (scoring->results);
}

/* Writes the results file (the run report's): every frame reported so
 * far, pooled over them, when the interval since the last rewrite has
 * passed, or at once with @force (end of stream, stop; the engine
 * idle). */
static gboolean
update_results (GstVmafHipScoring * scoring, gboolean force)
{
  return gst_vmaf_hip_results_update (scoring->results, scoring->report,
      force);
}

/* ---------------------------------------------------------------------- */
/* Frame-ready callback: runs on an engine worker, in frame order.         */

static void
on_frame_ready (VhContext * ctx, guint index, gboolean scored,
    gpointer user_data)
{
  GstVmafHipScoring *scoring = user_data;
  GstElement *self = scoring->element;
  gboolean want_message = g_atomic_int_get (&scoring->live.frame_message);
  guint tag_interval = (guint) g_atomic_int_get (&scoring->live.tag_interval);
  GstStructure *s;
  guint64 n_scored = 0;

  /* The run report keeps a frame's values only for the results file, so
   * that a live run without one does not grow. */
  s = gst_vmaf_hip_report_frame_ready (scoring->report, ctx, index, scored,
      want_message, &n_scored);
  if (s && g_atomic_int_get (&scoring->live.message_layout) ==
      GST_VMAF_HIP_MESSAGE_LAYOUT_VMAF) {
    GstStructure *vmaf = gst_vmaf_hip_compat_frame (s);
    gst_structure_free (s);
    s = vmaf;
  }
  if (s) {
    gst_element_post_message (self,
        gst_message_new_element (GST_OBJECT_CAST (self), s));
  }
  if (results_path (scoring))
    update_results (scoring, FALSE);
  if (scored && tag_interval > 0 && n_scored % tag_interval == 0) {
    GstVmafHipPoolMethod method =
        g_atomic_int_get (&scoring->live.pool_method);
    GstTagList *tags = gst_vmaf_hip_report_make_tags (scoring->report,
        method);

    if (tags) {
      post_tags (scoring, tags);
      GST_OBJECT_LOCK (self);
      if (scoring->pending_tags)
        gst_tag_list_unref (scoring->pending_tags);
      scoring->pending_tags = tags;
      GST_OBJECT_UNLOCK (self);
    }
  }
}

/* backend=auto: the GPU failed and the engine went over to the CPU (on
 * the thread that saw the failure). Nothing more goes to the device. Said
 * on the bus with the new dispatch in the warning's details, for
 * applications (vmafhip-monitor) that follow where features run; the
 * stats property and the results file say it from now on. */
static void
on_gpu_fallback (VhContext * ctx, const gchar * message, gpointer user_data)
{
  GstVmafHipScoring *scoring = user_data;
  gchar *dispatch = vh_context_describe_dispatch (ctx);
  GstVmafHipReport *report;

  gst_vmaf_hip_gpu_fell_back (scoring->gpu);
  GST_OBJECT_LOCK (scoring->element);
  g_free (scoring->dispatch);
  scoring->dispatch = g_strdup (dispatch);
  report = scoring->report;
  GST_OBJECT_UNLOCK (scoring->element);
  /* the report outlives the context, whose callback this is */
  if (report)
    vh_run_report_set_dispatch (gst_vmaf_hip_report_run (report), dispatch);
  GST_ELEMENT_WARNING_WITH_DETAILS (scoring->element, RESOURCE, FAILED,
      ("Scoring goes on on the CPU: %s.", message), ("backend=auto"),
      ("backend", G_TYPE_STRING, "cpu", "dispatch", G_TYPE_STRING, dispatch,
          "reason", G_TYPE_STRING, message, NULL));
  g_free (dispatch);
}

/* Which feature runs where, once per run (again only if it changes). */
static void
log_dispatch (GstVmafHipScoring * scoring)
{
  gchar *dispatch = vh_context_describe_dispatch (scoring->ctx);

  if (g_strcmp0 (dispatch, scoring->dispatch) != 0)
    GST_INFO_OBJECT (scoring->element, "features: %s", dispatch);
  GST_OBJECT_LOCK (scoring->element);
  g_free (scoring->dispatch);
  scoring->dispatch = dispatch;
  GST_OBJECT_UNLOCK (scoring->element);
  vh_run_report_set_dispatch (gst_vmaf_hip_report_run (scoring->report),
      dispatch);
  gst_vmaf_hip_gpu_use_context (scoring->gpu, scoring->ctx);
}

/* ---------------------------------------------------------------------- */
/* The engine's context                                                    */

gboolean
gst_vmaf_hip_scoring_prepare (GstVmafHipScoring * scoring)
{
  GstVmafHipReport *report = gst_vmaf_hip_results_make_report
      (scoring->results);

  GST_OBJECT_LOCK (scoring->element);
  scoring->report = report;
  GST_OBJECT_UNLOCK (scoring->element);
  scoring->ctx_started = FALSE;
  scoring->ctx_base = 0;
  scoring->n_pairs = 0;
  scoring->have_info_used = FALSE;
  return report != NULL;
}

gboolean
gst_vmaf_hip_scoring_build (GstVmafHipScoring * scoring)
{
  GstElement *self = scoring->element;
  GError *err = NULL;
  GPtrArray *names;
  VhModel *first;

  scoring->ctx = gst_vmaf_hip_context_new (&scoring->run,
      gst_vmaf_hip_gpu_backends (scoring->gpu),
      gst_vmaf_hip_gpu_transfer (scoring->gpu), &err);
  if (!scoring->ctx) {
    if (g_error_matches (err, VH_ERROR, VH_ERROR_BACKEND)) {
      GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
          ("The HIP backend is not available: %s", err->message),
          ("model=\"%s\" features=\"%s\"", GST_STR_NULL (scoring->run.model),
              GST_STR_NULL (scoring->run.features)));
    } else {
      GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
          ("Invalid scoring settings: %s", err->message),
          ("model=\"%s\" features=\"%s\"", GST_STR_NULL (scoring->run.model),
              GST_STR_NULL (scoring->run.features)));
    }
    g_error_free (err);
    return FALSE;
  }
  vh_context_set_frame_ready_func (scoring->ctx, on_frame_ready, scoring,
      NULL);
  vh_context_set_fallback_func (scoring->ctx, on_gpu_fallback, scoring);
  log_dispatch (scoring);
  names = vh_context_output_names (scoring->ctx);
  gst_vmaf_hip_report_set_order (scoring->report, names, scoring->ctx);
  g_ptr_array_unref (names);
  first = vh_context_get_model (scoring->ctx, 0);
  gst_vmaf_hip_report_set_score_name (scoring->report,
      first ? vh_model_get_name (first) : NULL);
  return TRUE;
}

static gboolean
start_context (GstVmafHipScoring * scoring, const VhPictureInfo * info,
    const GstVideoInfo * vinfo)
{
  GError *err = NULL;
  guint sub = MAX (scoring->run.subsample, 1);

  if (!scoring->ctx && !gst_vmaf_hip_scoring_build (scoring))
    return FALSE;
  if (!vh_context_start (scoring->ctx, info, &err)) {
    gchar *desc = gst_vmaf_hip_describe_video (vinfo);
    GST_ELEMENT_ERROR (scoring->element, STREAM, FORMAT,
        ("Cannot score %s video: %s", desc, err->message), (NULL));
    g_free (desc);
    g_error_free (err);
    return FALSE;
  }
  scoring->ctx_info = *info;
  scoring->ctx_started = TRUE;
  scoring->ctx_drained = FALSE;
  /* Keep subsampling in step with the element's frame numbers. */
  scoring->ctx_base = (scoring->n_pairs + sub - 1) / sub * sub;
  vh_run_report_attach (gst_vmaf_hip_report_run (scoring->report),
      scoring->ctx, (guint) MIN (scoring->ctx_base, G_MAXUINT));
  vh_run_report_set_picture_info (gst_vmaf_hip_report_run (scoring->report),
      info);
  GST_INFO_OBJECT (scoring->element, "scoring %ux%u %s %u-bit from frame %"
      G_GUINT64_FORMAT, info->width, info->height,
      vh_pix_fmt_to_string (info->pix_fmt), info->bpc, scoring->ctx_base);
  return TRUE;
}

/* Waits for every frame in flight and flushes temporal features; later
 * frames start a new temporal sequence. */
gboolean
gst_vmaf_hip_scoring_finish (GstVmafHipScoring * scoring)
{
  GError *err = NULL;

  if (!scoring->ctx_started || scoring->ctx_drained)
    return TRUE;
  scoring->ctx_drained = TRUE;
  if (!vh_context_finish (scoring->ctx, &err)) {
    GST_ELEMENT_ERROR (scoring->element, STREAM, FAILED,
        ("Scoring failed: %s", err->message), (NULL));
    g_error_free (err);
    return FALSE;
  }
  return TRUE;
}

/* Finishes and drops the context, for a new picture geometry. */
static gboolean
retire_context (GstVmafHipScoring * scoring)
{
  gboolean ok = gst_vmaf_hip_scoring_finish (scoring);

  /* The run goes on in the next context: the results file keeps what
   * this one scored. */
  vh_run_report_detach (gst_vmaf_hip_report_run (scoring->report), TRUE);
  g_clear_pointer (&scoring->ctx, vh_context_free);
  scoring->ctx_started = FALSE;
  return ok;
}

/* Stopped without EOS (an upstream error, a state change): what was
 * scored is written all the same, and said so. */
void
gst_vmaf_hip_scoring_stop (GstVmafHipScoring * scoring, gboolean eos_done)
{
  GstElement *self = scoring->element;

  if (scoring->ctx) {
    /* Frames still in flight are reported before the context goes. */
    if (scoring->ctx_started && !vh_context_finish (scoring->ctx, NULL))
      GST_WARNING_OBJECT (self, "scoring failed while stopping");
    log_dispatch (scoring);
  }
  if (results_path (scoring) && scoring->report && !eos_done &&
      gst_vmaf_hip_report_n_scored (scoring->report) > 0 &&
      update_results (scoring, TRUE))
    GST_ELEMENT_WARNING (self, RESOURCE, WRITE, ("Stopped before the end of "
            "the stream: the scores of the %" G_GUINT64_FORMAT " frames "
            "scored are in \"%s\".",
            gst_vmaf_hip_report_n_scored (scoring->report),
            results_path (scoring)), (NULL));
  /* The run ends here, the results written: its values go with the
   * context. */
  if (scoring->ctx && scoring->report)
    vh_run_report_detach (gst_vmaf_hip_report_run (scoring->report), FALSE);
  g_clear_pointer (&scoring->ctx, vh_context_free);
  scoring->ctx_started = FALSE;
}

/* The run's report and dispatch go; stats reads them from other threads. */
void
gst_vmaf_hip_scoring_clear (GstVmafHipScoring * scoring)
{
  GstVmafHipReport *report;

  GST_OBJECT_LOCK (scoring->element);
  report = scoring->report;
  scoring->report = NULL;
  g_clear_pointer (&scoring->dispatch, g_free);
  g_clear_pointer (&scoring->pending_tags, gst_tag_list_unref);
  GST_OBJECT_UNLOCK (scoring->element);
  gst_vmaf_hip_report_free (report);
}

/* Frames scored before the seek are still reported. */
gboolean
gst_vmaf_hip_scoring_flush (GstVmafHipScoring * scoring)
{
  gboolean ok = gst_vmaf_hip_scoring_finish (scoring);

  GST_OBJECT_LOCK (scoring->element);
  g_clear_pointer (&scoring->pending_tags, gst_tag_list_unref);
  GST_OBJECT_UNLOCK (scoring->element);
  return ok;
}

/* ---------------------------------------------------------------------- */
/* Pairs (streaming thread)                                                */

static void
post_mismatch (GstVmafHipScoring * scoring, const GstVideoInfo * ref,
    const GstVideoInfo * dist)
{
  GstElement *self = scoring->element;
  gchar *r = gst_vmaf_hip_describe_video (ref);
  gchar *d = gst_vmaf_hip_describe_video (dist);

  /* VMAF compares at the reference's size and format: say how to get there */
  GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
      ("The reference (ref_sink: %s) and the distorted video (dist_sink: %s) "
          "differ: both need the same width, height, bit depth and chroma "
          "subsampling. Convert the distorted video (convert=reference-format"
          " does the format alone) before its pad: ... ! videoconvert ! "
          "videoscale ! video/x-raw,format=%s,width=%d,height=%d ! "
          "%s.dist_sink", r, d,
          gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (ref)),
          GST_VIDEO_INFO_WIDTH (ref), GST_VIDEO_INFO_HEIGHT (ref),
          GST_OBJECT_NAME (self)), (NULL));
  g_free (r);
  g_free (d);
}

/* A new geometry needs a new context; new caps restart temporal
 * features. */
static gboolean
follow_geometry (GstVmafHipScoring * scoring, const VhPictureInfo * rpi,
    const GstVideoInfo * rinfo, const GstVideoInfo * dinfo)
{
  if (scoring->ctx_started && !vh_picture_info_equal (&scoring->ctx_info,
          rpi)) {
    GST_INFO_OBJECT (scoring->element, "picture geometry changed, new "
        "context");
    if (!retire_context (scoring))
      return FALSE;
  } else if (scoring->ctx_started && scoring->have_info_used &&
      (!gst_video_info_is_equal (&scoring->ref_info_used, rinfo) ||
          !gst_video_info_is_equal (&scoring->dist_info_used, dinfo))) {
    GST_INFO_OBJECT (scoring->element, "caps changed, temporal features "
        "restart");
    if (!gst_vmaf_hip_scoring_finish (scoring))
      return FALSE;
  }
  if (!scoring->ctx_started && !start_context (scoring, rpi, rinfo))
    return FALSE;
  scoring->ref_info_used = *rinfo;
  scoring->dist_info_used = *dinfo;
  scoring->have_info_used = TRUE;
  return TRUE;
}

GstFlowReturn
gst_vmaf_hip_scoring_score_pair (GstVmafHipScoring * scoring,
    const GstVmafHipFrame * ref_frame, const GstVmafHipFrame * dist_frame)
{
  GstElement *self = scoring->element;
  const GstVideoInfo *rinfo = &ref_frame->info;
  const GstVideoInfo *dinfo = &dist_frame->info;
  GstBuffer *ref = ref_frame->buffer, *dist = dist_frame->buffer;
  GstVmafHipBackend backend = scoring->run.backend;
  const GstVmafHipFrame *pass;
  VhPictureInfo rpi, dpi;
  VhPicture *ref_pic, *dist_pic;
  GstVmafHipStamp *stamp;
  guint64 number;
  GstClockTime pts;
  GError *err = NULL;
  gboolean ok;

  if (!gst_vmaf_hip_picture_info_from_video (rinfo, &rpi) ||
      !gst_vmaf_hip_picture_info_from_video (dinfo, &dpi) ||
      !vh_picture_info_equal (&rpi, &dpi)) {
    post_mismatch (scoring, rinfo, dinfo);
    return GST_FLOW_NOT_NEGOTIATED;
  }
  if (!follow_geometry (scoring, &rpi, rinfo, dinfo))
    return GST_FLOW_ERROR;

  /* Both copies in flight before either mapping waits for its own. */
  gst_vmaf_hip_gpu_start_upload (scoring->gpu, ref);
  gst_vmaf_hip_gpu_start_upload (scoring->gpu, dist);
  ref_pic = gst_vmaf_hip_gpu_wrap_input (scoring->gpu, scoring->ctx, backend,
      rinfo, ref, &err);
  dist_pic = ref_pic ? gst_vmaf_hip_gpu_wrap_input (scoring->gpu,
      scoring->ctx, backend, dinfo, dist, &err) : NULL;
  if (!dist_pic) {
    GST_ELEMENT_ERROR (self, STREAM, DECODE,
        ("Could not read a %s frame: %s", ref_pic ? "distorted" : "reference",
            err->message), (NULL));
    g_clear_pointer (&ref_pic, vh_picture_unref);
    g_error_free (err);
    return GST_FLOW_ERROR;
  }

  pass = scoring->passthrough == GST_VMAF_HIP_PASSTHROUGH_REFERENCE ?
      ref_frame : dist_frame;
  number = scoring->ctx_base + vh_context_n_frames (scoring->ctx);
  pts = pass->pts;
  stamp = g_new (GstVmafHipStamp, 1);
  stamp->index = number;
  stamp->pts = pts;
  stamp->duration = pass->duration;
  stamp->stream_time = pass->stream_time;
  stamp->running_time = pass->running_time;
  stamp->repeated = dist_frame->repeated;
  stamp->aligned = dist_frame->aligned;
  stamp->align_offset_frames = dist_frame->align_offset_frames;
  stamp->align_offset = dist_frame->align_offset;
  vh_run_report_start_clock (gst_vmaf_hip_report_run (scoring->report));

  /* The stamp travels with the frame and comes back in its frame-ready
   * callback (freed by the engine, also when the submission fails). */
  ok = vh_context_submit_full (scoring->ctx, ref_pic, dist_pic, stamp,
      g_free, NULL, &err);
  vh_picture_unref (ref_pic);
  vh_picture_unref (dist_pic);
  if (!ok) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED,
        ("Scoring failed: %s", err->message), (NULL));
    g_error_free (err);
    return GST_FLOW_ERROR;
  }
  scoring->n_pairs = number + 1;
  scoring->ctx_drained = FALSE;
  GST_LOG_OBJECT (self, "submitted frame %" G_GUINT64_FORMAT " pts %"
      GST_TIME_FORMAT, number, GST_TIME_ARGS (pts));
  return GST_FLOW_OK;
}

/* ---------------------------------------------------------------------- */
/* End of stream, and the run so far                                       */

GstStructure *
gst_vmaf_hip_scoring_end (GstVmafHipScoring * scoring, gboolean * wrote)
{
  *wrote = FALSE;
  if (!gst_vmaf_hip_scoring_finish (scoring))
    return NULL;
  /* A fall-back to the CPU shows in the results file. */
  log_dispatch (scoring);
  if (gst_vmaf_hip_report_n_scored (scoring->report) == 0) {
    GST_ELEMENT_WARNING (scoring->element, STREAM, FAILED,
        ("No frame pair was scored."), (NULL));
  } else if (results_path (scoring)) {
    if (!update_results (scoring, TRUE))
      return NULL;
    *wrote = TRUE;
  }
  return gst_vmaf_hip_report_make_summary (scoring->report,
      g_atomic_int_get (&scoring->live.pool_method));
}

void
gst_vmaf_hip_scoring_set_alignment (GstVmafHipScoring * scoring,
    const gchar * text, const gchar * json)
{
  if (scoring->report)
    vh_run_report_set_alignment (gst_vmaf_hip_report_run (scoring->report),
        text, json);
}

GstTagList *
gst_vmaf_hip_scoring_post_summary (GstVmafHipScoring * scoring,
    GstStructure * summary, gboolean wrote)
{
  GstElement *self = scoring->element;
  GstVmafHipPoolMethod method = g_atomic_int_get (&scoring->live.pool_method);
  GstTagList *tags;

  if (wrote)
    gst_structure_set (summary, "results-filename", G_TYPE_STRING,
        results_path (scoring), NULL);
  if (g_atomic_int_get (&scoring->live.message_layout) ==
      GST_VMAF_HIP_MESSAGE_LAYOUT_VMAF) {
    GstStructure *pooled = gst_vmaf_hip_compat_pooled (summary, method);
    gst_structure_free (summary);
    summary = pooled;
  }
  gst_element_post_message (self,
      gst_message_new_element (GST_OBJECT_CAST (self), summary));

  tags = gst_vmaf_hip_report_make_tags (scoring->report, method);
  if (tags)
    post_tags (scoring, tags);
  GST_OBJECT_LOCK (self);
  if (tags)
    g_clear_pointer (&scoring->pending_tags, gst_tag_list_unref);
  GST_OBJECT_UNLOCK (self);
  return tags;
}

GstTagList *
gst_vmaf_hip_scoring_take_tags (GstVmafHipScoring * scoring)
{
  GstTagList *tags;

  GST_OBJECT_LOCK (scoring->element);
  tags = scoring->pending_tags;
  scoring->pending_tags = NULL;
  GST_OBJECT_UNLOCK (scoring->element);
  return tags;
}

guint
gst_vmaf_hip_scoring_frames_held (GstVmafHipScoring * scoring)
{
  guint workers;

  if (scoring->ctx && scoring->ctx_started)
    return vh_context_n_frames_held (scoring->ctx);
  /* before it starts: the context's default in flight, and two kept */
  workers = scoring->run.threads ? scoring->run.threads :
      GST_VMAF_HIP_GPU_THREADS;
  return vh_context_default_in_flight (workers) + 2;
}

GstStructure *
gst_vmaf_hip_scoring_stats (GstVmafHipScoring * scoring)
{
  GstStructure *s;

  if (!scoring->report)
    return NULL;
  s = gst_vmaf_hip_report_make_summary (scoring->report,
      g_atomic_int_get (&scoring->live.pool_method));
  gst_structure_set_name (s, "vmaf-stats");
  return s;
}

void
gst_vmaf_hip_scoring_add_dispatch (GstVmafHipScoring * scoring,
    GstStructure * s)
{
  if (scoring->dispatch)
    gst_structure_set (s, "dispatch", G_TYPE_STRING, scoring->dispatch, NULL);
}
