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

#include <string.h>

#include <gst/base/gstaggregator.h>

#include "gstvmafhipscoring.h"
#include "gstvmafhipcolorimetry.h"
#include "gstvmafhipcompat.h"
#include "gstvmafhippicture.h"
#include "gstvmafhipreport.h"
#include "gstvmafhipresults.h"
#include "gstvmafhipscale.h"
#include "gstvmafhipwatch.h"

#include "errors.h"
#include "feature-alias.h"
#include "model.h"

GST_DEBUG_CATEGORY_EXTERN (gst_vmaf_hip_compare_debug);
#define GST_CAT_DEFAULT gst_vmaf_hip_compare_debug

struct _GstVmafHipScoring
{
  GstElement *element;          /* not owned */
  GstVmafHipGpu *gpu;           /* not owned */
  GstVmafHipLiveSettings *live;        /* own_live, or another's */
  GstVmafHipLiveSettings own_live;
  /* Which distorted pad this scores (messages, summary, tags); NULL
   * names: none said. */
  gchar *pad_name;
  gchar *label;
  GstObject *tag_source;        /* posts the tags; NULL: the element */

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
  /* The inputs' colorimetry from their caps, [ref, dist], once frames
   * came (have_color), what of it has no conversion (caps' matrix names,
   * NULL: none), and whether the context's features took it (then new
   * colorimetry needs a new context). */
  VhColorimetry color[2];
  const gchar *color_unconvertible[2];
  gboolean have_color;
  gboolean ctx_uses_color;
  GstVmafHipReport *report;     /* the engine's run report and what the
                                 * element makes of it; thread-safe,
                                 * shared with the workers; set under the
                                 * object lock (stats) */
  gchar *dispatch;              /* "adm: hip, ...", logged once; set
                                 * under the object lock */
  /* Tags for the next output buffer, under the object lock. */
  GstTagList *pending_tags;
  /* The distorted frames to the reference's size (scale property). */
  GstVmafHipScale *scale;
  gchar *scaler;                /* "bicubic from 1280x720 on the gpu", set
                                 * under the object lock */
  /* Windows, events and lag (gstvmafhipwatch.c): its settings, copied
   * at start, and the run's watch, set under the object lock (stats). */
  GstVmafHipWatchSettings watch_settings;
  GstVmafHipWatch *watch;
  gchar *ref_pad, *dist_pad;    /* named in the watch's messages */
};

GstVmafHipScoring *
gst_vmaf_hip_scoring_new (GstElement * element, GstVmafHipGpu * gpu)
{
  GstVmafHipScoring *scoring = g_new0 (GstVmafHipScoring, 1);

  scoring->element = element;
  scoring->gpu = gpu;
  scoring->live = &scoring->own_live;
  scoring->results = gst_vmaf_hip_results_new (element);
  scoring->scale = gst_vmaf_hip_scale_new ();
  gst_vmaf_hip_watch_settings_init (&scoring->watch_settings);
  scoring->ref_pad = g_strdup ("ref_sink");
  scoring->dist_pad = g_strdup ("dist_sink");
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
  gst_vmaf_hip_watch_free (scoring->watch);
  gst_vmaf_hip_watch_settings_clear (&scoring->watch_settings);
  g_free (scoring->ref_pad);
  g_free (scoring->dist_pad);
  gst_vmaf_hip_results_free (scoring->results);
  g_free (scoring->dispatch);
  gst_vmaf_hip_scale_free (scoring->scale);
  g_free (scoring->scaler);
  g_free (scoring->pad_name);
  g_free (scoring->label);
  if (scoring->tag_source)
    gst_object_unref (scoring->tag_source);
  if (scoring->pending_tags)
    gst_tag_list_unref (scoring->pending_tags);
  g_free (scoring);
}

GstVmafHipScoring *
gst_vmaf_hip_scoring_new_sharing (GstElement * element, GstVmafHipGpu * gpu,
    GstVmafHipScoring * first)
{
  GstVmafHipScoring *scoring = gst_vmaf_hip_scoring_new (element, gpu);

  scoring->live = first->live;
  return scoring;
}

void
gst_vmaf_hip_scoring_set_rendition (GstVmafHipScoring * scoring,
    const gchar * pad_name, const gchar * label, GstObject * tag_source)
{
  g_free (scoring->pad_name);
  scoring->pad_name = g_strdup (pad_name);
  g_free (scoring->label);
  scoring->label = g_strdup (label);
  if (scoring->tag_source)
    gst_object_unref (scoring->tag_source);
  scoring->tag_source = tag_source ? gst_object_ref (tag_source) : NULL;
}

/* The pad and label fields of a message of the vmafhip layout. */
static void
name_rendition (GstVmafHipScoring * scoring, GstStructure * s)
{
  if (scoring->pad_name)
    gst_structure_set (s, "pad", G_TYPE_STRING, scoring->pad_name,
        "label", G_TYPE_STRING, scoring->label, NULL);
}

GstVmafHipLiveSettings *
gst_vmaf_hip_scoring_live (GstVmafHipScoring * scoring)
{
  return scoring->live;
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

void
gst_vmaf_hip_scoring_set_scale (GstVmafHipScoring * scoring,
    GstVmafHipScaleMethod method)
{
  gst_vmaf_hip_scale_start (scoring->scale, (VhScaleMethod) method);
}

const gchar *
gst_vmaf_hip_scoring_results_filename (GstVmafHipScoring * scoring)
{
  return gst_vmaf_hip_results_filename (scoring->results);
}

void
gst_vmaf_hip_scoring_configure_watch (GstVmafHipScoring * scoring,
    const GstVmafHipWatchSettings * settings)
{
  gst_vmaf_hip_watch_settings_clear (&scoring->watch_settings);
  gst_vmaf_hip_watch_settings_copy (&scoring->watch_settings, settings);
}

void
gst_vmaf_hip_scoring_set_pads (GstVmafHipScoring * scoring,
    const gchar * ref_pad, const gchar * dist_pad)
{
  g_free (scoring->ref_pad);
  g_free (scoring->dist_pad);
  scoring->ref_pad = g_strdup (ref_pad);
  scoring->dist_pad = g_strdup (dist_pad);
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
      gst_message_new_tag (scoring->tag_source ? scoring->tag_source :
          GST_OBJECT_CAST (scoring->element), gst_tag_list_copy (tags)));
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
  gboolean want_message = g_atomic_int_get (&scoring->live->frame_message);
  guint tag_interval = (guint) g_atomic_int_get (&scoring->live->tag_interval);
  GstStructure *s;
  guint64 n_scored = 0;

  /* The run report keeps a frame's values only for the results file, so
   * that a live run without one does not grow. The watch reads every
   * scored frame's structure, posted or not. */
  s = gst_vmaf_hip_report_frame_ready (scoring->report, ctx, index, scored,
      want_message || scoring->watch, &n_scored);
  if (s && scoring->watch)
    gst_vmaf_hip_watch_frame (scoring->watch, s);
  if (s && !want_message)
    g_clear_pointer (&s, gst_structure_free);
  if (s && g_atomic_int_get (&scoring->live->message_layout) ==
      GST_VMAF_HIP_MESSAGE_LAYOUT_VMAF) {
    GstStructure *vmaf = gst_vmaf_hip_compat_frame (s);
    gst_structure_free (s);
    s = vmaf;
  } else if (s) {
    name_rendition (scoring, s);
  }
  if (s) {
    gst_element_post_message (self,
        gst_message_new_element (GST_OBJECT_CAST (self), s));
  }
  if (scoring->watch)
    gst_vmaf_hip_watch_post_windows (scoring->watch);
  if (results_path (scoring))
    update_results (scoring, FALSE);
  if (scored && tag_interval > 0 && n_scored % tag_interval == 0) {
    GstVmafHipPoolMethod method =
        g_atomic_int_get (&scoring->live->pool_method);
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
    GST_INFO_OBJECT (scoring->element, "features: %s%s%s", dispatch,
        scoring->scaler ? "; scale: " : "", scoring->scaler ? scoring->scaler :
        "");
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
  GstVmafHipReport *report;
  GstVmafHipWatch *watch = NULL;
  GError *err = NULL;

  gst_vmaf_hip_results_set_percentiles (scoring->results,
      scoring->watch_settings.results_percentiles ?
      scoring->watch_settings.percentiles : NULL);
  report = gst_vmaf_hip_results_make_report (scoring->results);

  if (report) {
    watch = gst_vmaf_hip_watch_new (scoring->element,
        &scoring->watch_settings, &err);
    if (!watch) {
      GST_ELEMENT_ERROR (scoring->element, LIBRARY, SETTINGS,
          ("Invalid %s", err->message), (NULL));
      g_error_free (err);
      g_clear_pointer (&report, gst_vmaf_hip_report_free);
    } else {
      gst_vmaf_hip_watch_set_pads (watch, scoring->ref_pad,
          scoring->dist_pad);
    }
  }
  GST_OBJECT_LOCK (scoring->element);
  scoring->report = report;
  scoring->watch = watch;
  GST_OBJECT_UNLOCK (scoring->element);
  scoring->ctx_started = FALSE;
  scoring->ctx_base = 0;
  scoring->n_pairs = 0;
  scoring->have_info_used = FALSE;
  scoring->have_color = FALSE;
  return report != NULL;
}

/* The watch's low-score follows the first model; every model's outputs
 * get threshold counts. */
static void
watch_outputs (GstVmafHipScoring * scoring, VhModel * first)
{
  GPtrArray *outputs = g_ptr_array_new ();

  for (guint m = 0; m < vh_context_n_models (scoring->ctx); m++) {
    const gchar *const *out =
        vh_model_output_names (vh_context_get_model (scoring->ctx, m));

    for (guint j = 0; out && out[j]; j++)
      g_ptr_array_add (outputs, (gpointer) vh_feature_name_alias (out[j]));
  }
  g_ptr_array_add (outputs, NULL);
  gst_vmaf_hip_watch_set_outputs (scoring->watch,
      first ? vh_model_get_name (first) : NULL,
      (const gchar * const *) outputs->pdata);
  g_ptr_array_unref (outputs);
}

/* Said once per context that takes the caps' colorimetry. */
static void
log_colorimetry (GstVmafHipScoring * scoring)
{
  static const gchar *const input[2] = { "reference", "distorted" };

  for (guint i = 0; i < 2; i++) {
    if (scoring->color_unconvertible[i])
      GST_INFO_OBJECT (scoring->element, "the %s caps' Y'CbCr matrix (%s) "
          "has no conversion to RGB here: ssimulacra2 takes its matrix "
          "option, else bt709", input[i], scoring->color_unconvertible[i]);
  }
  GST_INFO_OBJECT (scoring->element, "colorimetry from the caps, where no "
      "option gives it (unknown: the default): reference %s, %s range; "
      "distorted %s, %s range",
      vh_color_matrix_to_string (scoring->color[0].matrix),
      vh_color_range_to_string (scoring->color[0].range),
      vh_color_matrix_to_string (scoring->color[1].matrix),
      vh_color_range_to_string (scoring->color[1].range));
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
      gst_vmaf_hip_gpu_transfer (scoring->gpu),
      gst_vmaf_hip_gpu_extractors (scoring->gpu),
      scoring->have_color ? scoring->color : NULL, &scoring->ctx_uses_color,
      &err);
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
  if (scoring->ctx_uses_color && scoring->have_color)
    log_colorimetry (scoring);
  log_dispatch (scoring);
  names = vh_context_output_names (scoring->ctx);
  gst_vmaf_hip_report_set_order (scoring->report, names, scoring->ctx);
  g_ptr_array_unref (names);
  first = vh_context_get_model (scoring->ctx, 0);
  gst_vmaf_hip_report_set_score_name (scoring->report,
      first ? vh_model_get_name (first) : NULL);
  watch_outputs (scoring, first);
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
  gst_vmaf_hip_scale_stop (scoring->scale);
}

/* The run's report and dispatch go; stats reads them from other threads. */
void
gst_vmaf_hip_scoring_clear (GstVmafHipScoring * scoring)
{
  GstVmafHipReport *report;

  GstVmafHipWatch *watch;

  GST_OBJECT_LOCK (scoring->element);
  report = scoring->report;
  scoring->report = NULL;
  watch = scoring->watch;
  scoring->watch = NULL;
  g_clear_pointer (&scoring->dispatch, g_free);
  g_clear_pointer (&scoring->scaler, g_free);
  g_clear_pointer (&scoring->pending_tags, gst_tag_list_unref);
  GST_OBJECT_UNLOCK (scoring->element);
  gst_vmaf_hip_report_free (report);
  gst_vmaf_hip_watch_free (watch);
}

/* Frames scored before the seek are still reported. */
gboolean
gst_vmaf_hip_scoring_flush (GstVmafHipScoring * scoring)
{
  gboolean ok = gst_vmaf_hip_scoring_finish (scoring);

  if (scoring->watch)
    gst_vmaf_hip_watch_flush (scoring->watch);
  GST_OBJECT_LOCK (scoring->element);
  g_clear_pointer (&scoring->pending_tags, gst_tag_list_unref);
  GST_OBJECT_UNLOCK (scoring->element);
  return ok;
}

/* ---------------------------------------------------------------------- */
/* Pairs (streaming thread)                                                */

static void
post_mismatch (GstVmafHipScoring * scoring, const GstVideoInfo * ref,
    const GstVideoInfo * dist, gboolean same_format)
{
  GstElement *self = scoring->element;
  gchar *r = gst_vmaf_hip_describe_video (ref);
  gchar *d = gst_vmaf_hip_describe_video (dist);

  gboolean same_size = GST_VIDEO_INFO_WIDTH (ref) ==
      GST_VIDEO_INFO_WIDTH (dist) && GST_VIDEO_INFO_HEIGHT (ref) ==
      GST_VIDEO_INFO_HEIGHT (dist);

  /* VMAF compares at the reference's size and format: say how to get
   * there. The scale property resamples a size alone. */
  if (same_format && !same_size &&
      gst_vmaf_hip_scale_method (scoring->scale) == VH_SCALE_NONE)
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("The reference (ref_sink: %s) and the distorted video (dist_sink: "
            "%s) differ in size and scale=none: set scale=bicubic (the "
            "default, as ffmpeg's scale=flags=bicubic) to resample the "
            "distorted video to the reference's size, or scale it before "
            "its pad.", r, d), (NULL));
  else if (same_size || gst_vmaf_hip_scale_method (scoring->scale) !=
      VH_SCALE_NONE)
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("The reference (ref_sink: %s) and the distorted video (dist_sink: "
            "%s) differ: both need the same bit depth and chroma "
            "subsampling (a size alone is resampled by the scale property). "
            "Convert the distorted video (convert=reference-format does it "
            "in the element) or before its pad: ... ! videoconvert ! "
            "video/x-raw,format=%s ! %s.dist_sink", r, d,
            gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (ref)),
            GST_OBJECT_NAME (self)), (NULL));
  else
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("The reference (ref_sink: %s) and the distorted video (dist_sink: "
            "%s) differ: both need the same width, height, bit depth and "
            "chroma subsampling (scale=none). Convert the distorted video "
            "before its pad: ... ! videoconvert ! videoscale ! "
            "video/x-raw,format=%s,width=%d,height=%d ! %s.dist_sink, or "
            "set scale=bicubic and convert=reference-format", r, d,
            gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (ref)),
            GST_VIDEO_INFO_WIDTH (ref), GST_VIDEO_INFO_HEIGHT (ref),
            GST_OBJECT_NAME (self)), (NULL));
  g_free (r);
  g_free (d);
}

/* The caps' colorimetry, for the features that take it from there: the
 * context built before any caps came is built again with it, a started
 * one retired when it changes. */
static gboolean
follow_colorimetry (GstVmafHipScoring * scoring, const GstVideoInfo * rinfo,
    const GstVideoInfo * dinfo)
{
  VhColorimetry color[2];
  const gchar *unconvertible[2];

  gst_vmaf_hip_colorimetry_from_video (rinfo, &color[0], &unconvertible[0]);
  gst_vmaf_hip_colorimetry_from_video (dinfo, &color[1], &unconvertible[1]);
  if (scoring->have_color && !memcmp (color, scoring->color, sizeof (color)))
    return TRUE;
  memcpy (scoring->color, color, sizeof (color));
  memcpy (scoring->color_unconvertible, unconvertible,
      sizeof (unconvertible));
  scoring->have_color = TRUE;
  if (!scoring->ctx || !scoring->ctx_uses_color)
    return TRUE;
  if (scoring->ctx_started) {
    GST_INFO_OBJECT (scoring->element, "colorimetry changed, new context");
    return retire_context (scoring);
  }
  g_clear_pointer (&scoring->ctx, vh_context_free);
  return TRUE;
}

/* A new geometry needs a new context; new caps restart temporal
 * features. */
static gboolean
follow_geometry (GstVmafHipScoring * scoring, const VhPictureInfo * rpi,
    const GstVideoInfo * rinfo, const GstVideoInfo * dinfo)
{
  if (!follow_colorimetry (scoring, rinfo, dinfo))
    return FALSE;
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

/* Replaces *@dist by its copy at @ref's size; says what ran (the
 * dispatch line, the results file) when that changes. */
static gboolean
scale_distorted (GstVmafHipScoring * scoring, const VhPictureInfo * ref,
    VhPicture ** dist)
{
  GError *err = NULL;
  VhPicture *scaled = gst_vmaf_hip_scale_picture (scoring->scale,
      gst_vmaf_hip_gpu_device_handle (scoring->gpu),
      gst_vmaf_hip_gpu_reads_device (scoring->gpu) ?
      gst_vmaf_hip_gpu_transfer (scoring->gpu) : NULL, ref, *dist, &err);
  gchar *scaler;

  if (!scaled) {
    GST_ELEMENT_ERROR (scoring->element, STREAM, FAILED,
        ("Could not resample a distorted frame to the reference's size: %s",
            err->message), ("scale=%s", vh_scale_method_to_string
            (gst_vmaf_hip_scale_method (scoring->scale))));
    g_error_free (err);
    vh_picture_unref (*dist);
    *dist = NULL;
    return FALSE;
  }
  vh_picture_unref (*dist);
  *dist = scaled;
  scaler = g_strdup_printf ("%s on the %s", gst_vmaf_hip_scale_describe
      (scoring->scale), gst_vmaf_hip_scale_where (scoring->scale));
  if (g_strcmp0 (scaler, scoring->scaler) != 0) {
    GST_OBJECT_LOCK (scoring->element);
    g_free (scoring->scaler);
    scoring->scaler = g_strdup (scaler);
    GST_OBJECT_UNLOCK (scoring->element);
    vh_run_report_set_scaler (gst_vmaf_hip_report_run (scoring->report),
        gst_vmaf_hip_scale_describe (scoring->scale));
    GST_INFO_OBJECT (scoring->element, "features: %s; scale: %s",
        GST_STR_NULL (scoring->dispatch), scaler);
  }
  g_free (scaler);
  return TRUE;
}

/* Black and freeze look at both pictures; the latency tells the lag
 * whether the pipeline is live. */
static void
watch_pair (GstVmafHipScoring * scoring, const GstVmafHipFrame * ref_frame,
    const VhPicture * ref_pic, const GstVmafHipFrame * dist_frame,
    const VhPicture * dist_pic)
{
  if (!scoring->watch)
    return;
  gst_vmaf_hip_watch_set_latency (scoring->watch,
      gst_aggregator_get_latency (GST_AGGREGATOR (scoring->element)));
  /* frames only in GPU memory are sampled there */
  gst_vmaf_hip_watch_set_device (scoring->watch,
      gst_vmaf_hip_gpu_device_handle (scoring->gpu));
  gst_vmaf_hip_watch_pictures (scoring->watch, ref_pic,
      ref_frame->stream_time, ref_frame->duration, dist_pic,
      dist_frame->stream_time, dist_frame->duration);
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
  gboolean ok, known, scaling = FALSE, ref_made_here;
  guint64 made;
  GstVmafHipInputCost *cost = gst_vmaf_hip_gpu_input_cost (scoring->gpu);
  gint64 pair_since, submit_since;

  known = gst_vmaf_hip_picture_info_from_video (rinfo, &rpi) &&
      gst_vmaf_hip_picture_info_from_video (dinfo, &dpi);
  if (known && !vh_picture_info_equal (&rpi, &dpi))
    scaling = gst_vmaf_hip_scale_applies (scoring->scale, &rpi, &dpi);
  if (!known || (!scaling && !vh_picture_info_equal (&rpi, &dpi))) {
    post_mismatch (scoring, rinfo, dinfo, known && rpi.pix_fmt ==
        dpi.pix_fmt && rpi.bpc == dpi.bpc);
    return GST_FLOW_NOT_NEGOTIATED;
  }
  if (!follow_geometry (scoring, &rpi, rinfo, dinfo))
    return GST_FLOW_ERROR;
  /* after a context's start, which is the start-up's */
  pair_since = gst_vmaf_hip_input_cost_now ();

  /* Both copies in flight before either mapping waits for its own. */
  gst_vmaf_hip_gpu_start_upload (scoring->gpu, ref);
  gst_vmaf_hip_gpu_start_upload (scoring->gpu, dist);
  /* The reference's picture is shared by every rendition scored against
   * it: made, and uploaded, once. */
  made = gst_vmaf_hip_gpu_references_made (scoring->gpu);
  ref_pic = gst_vmaf_hip_gpu_wrap_reference (scoring->gpu, scoring->ctx,
      backend, rinfo, ref, &err);
  ref_made_here = gst_vmaf_hip_gpu_references_made (scoring->gpu) != made;
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
  if (scaling && !scale_distorted (scoring, &rpi, &dist_pic)) {
    vh_picture_unref (ref_pic);
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
  /* Only the rendition that made the reference's picture looks at it: the
   * others get it already submitted, its host memory possibly going back
   * (and its events would be posted once per rendition). */
  watch_pair (scoring, ref_frame, ref_made_here ? ref_pic : NULL, dist_frame,
      dist_pic);

  /* The stamp travels with the frame and comes back in its frame-ready
   * callback (freed by the engine, also when the submission fails). */
  submit_since = gst_vmaf_hip_input_cost_now ();
  ok = vh_context_submit_full (scoring->ctx, ref_pic, dist_pic, stamp,
      g_free, NULL, &err);
  gst_vmaf_hip_input_cost_add (cost, GST_VMAF_HIP_INPUT_STEP_SUBMIT,
      submit_since);
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
  gst_vmaf_hip_input_cost_add (cost, GST_VMAF_HIP_INPUT_STEP_PAIR,
      pair_since);
  GST_LOG_OBJECT (self, "submitted frame %" G_GUINT64_FORMAT " pts %"
      GST_TIME_FORMAT, number, GST_TIME_ARGS (pts));
  return GST_FLOW_OK;
}

/* ---------------------------------------------------------------------- */
/* End of stream, and the run so far                                       */

/* The pooled values, with the watch's percentiles, counts and lag. */
static GstStructure *
summarize (GstVmafHipScoring * scoring)
{
  GstStructure *s = gst_vmaf_hip_report_make_summary (scoring->report,
      g_atomic_int_get (&scoring->live->pool_method));

  if (scoring->watch)
    gst_vmaf_hip_watch_add_to_summary (scoring->watch, s);
  return s;
}

GstStructure *
gst_vmaf_hip_scoring_end (GstVmafHipScoring * scoring, gboolean * wrote)
{
  *wrote = FALSE;
  if (!gst_vmaf_hip_scoring_finish (scoring))
    return NULL;
  /* A fall-back to the CPU shows in the results file. */
  log_dispatch (scoring);
  /* every frame reported: the last window, open events */
  if (scoring->watch)
    gst_vmaf_hip_watch_end (scoring->watch);
  if (gst_vmaf_hip_report_n_scored (scoring->report) == 0) {
    GST_ELEMENT_WARNING (scoring->element, STREAM, FAILED,
        ("No frame pair was scored."), (NULL));
  } else if (results_path (scoring)) {
    if (!update_results (scoring, TRUE))
      return NULL;
    *wrote = TRUE;
  }
  return summarize (scoring);
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
  GstVmafHipPoolMethod method = g_atomic_int_get (&scoring->live->pool_method);
  GstTagList *tags;

  if (wrote)
    gst_structure_set (summary, "results-filename", G_TYPE_STRING,
        results_path (scoring), NULL);
  if (g_atomic_int_get (&scoring->live->message_layout) ==
      GST_VMAF_HIP_MESSAGE_LAYOUT_VMAF) {
    GstStructure *pooled = gst_vmaf_hip_compat_pooled (summary, method);
    gst_structure_free (summary);
    summary = pooled;
  } else {
    name_rendition (scoring, summary);
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
  s = summarize (scoring);
  gst_structure_set_name (s, "vmaf-stats");
  gst_vmaf_hip_gpu_add_counts (scoring->gpu, s);
  return s;
}

void
gst_vmaf_hip_scoring_add_rendition (GstVmafHipScoring * scoring,
    GstStructure * s)
{
  name_rendition (scoring, s);
}

void
gst_vmaf_hip_scoring_add_dispatch (GstVmafHipScoring * scoring,
    GstStructure * s)
{
  if (scoring->dispatch)
    gst_structure_set (s, "dispatch", G_TYPE_STRING, scoring->dispatch, NULL);
  if (scoring->scaler)
    gst_structure_set (s, "scaler", G_TYPE_STRING, scoring->scaler, NULL);
}
