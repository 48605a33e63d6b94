/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The element's properties: their installation, setting and reading. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvmafhipcompareprivate.h"
#include "gstvmafhipcompat.h"
#include "gstvmafhipenums.h"
#include "gstvmafhipreport.h"
#include "gstvmafhipwatchprops.h"
#include "model.h"

enum
{
  PROP_0,
  PROP_MODEL,
  PROP_FEATURES,
  PROP_ENABLE_TRANSFORM,
  PROP_DISABLE_CLIP,
  PROP_POOL_METHOD,
  PROP_SUBSAMPLE,
  PROP_THREADS,
  PROP_FRAME_MESSAGE,
  PROP_RESULTS_FILENAME,
  PROP_RESULTS_FORMAT,
  PROP_TAG_INTERVAL,
  PROP_PASSTHROUGH,
  PROP_BACKEND,
  /* under the names of GStreamer's vmaf element */
  PROP_MODEL_FILENAME,
  PROP_PSNR,
  PROP_SSIM,
  PROP_MS_SSIM,
  PROP_PHONE_MODEL,
  PROP_CONF_INTERVAL,
  PROP_LOG_LEVEL,
  PROP_MESSAGE_LAYOUT,
  PROP_DEVICE_ID,
  PROP_SELF_TEST,
  PROP_STATS,
  PROP_RESULTS_INTERVAL,
  PROP_INPUT_TIMEOUT,
  PROP_CONVERT,
  PROP_ALIGN,
  PROP_ALIGN_WINDOW,
  PROP_UNPAIRED,
  PROP_SCALE,
  /* windows, events, lag: gstvmafhipwatchprops.c; last */
  PROP_WATCH_FIRST,
};

/* The model property's blurb, with the built-in model names from the
 * engine's registry; made once and kept, as the class is. */
static const gchar *
model_blurb (void)
{
  gchar *names = g_strjoinv (", ", (gchar **) vh_model_list_builtin ());
  gchar *blurb = g_strdup_printf ("Comma-separated VMAF models: built-in "
      "names (%s), model file paths, or version=NAME|path=FILE[:name=SCORE]"
      "[:enable_transform][:disable_clip][:EXTRACTOR.OPTION=VALUE]; the "
      "first scores as \"vmaf\"; empty for none", names);

  g_free (names);
  return blurb;
}

void
gst_vmaf_hip_compare_install_properties (GObjectClass * gobject_class)
{
  const GParamFlags ready = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_READY;
  const GParamFlags playing = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING;

  /**
   * GstVmafHipCompare:model:
   *
   * Comma-separated VMAF models. Each entry is a built-in model name
   * ("vmaf_v0.6.1", "vmaf_v0.6.1neg", "vmaf_4k_v0.6.1", "vmaf_b_v0.6.3"),
   * a path to a model file in libvmaf's JSON format, or
   * "version=NAME|path=FILE[:name=SCORE][:enable_transform][:disable_clip]"
   * with optional feature option overrides ":EXTRACTOR.OPTION=VALUE", as
   * libvmaf's --model (e.g. "version=vmaf_v0.6.1:adm.adm_enhn_gain_limit=1.2").
   * The first model scores as "vmaf" (and as the "score" field), the
   * others under their own names. Empty: features only.
   */
  g_object_class_install_property (gobject_class, PROP_MODEL,
      g_param_spec_string ("model", "Model", model_blurb (), DEFAULT_MODEL,
          ready));

  /**
   * GstVmafHipCompare:features:
   *
   * Comma-separated extra features, each "NAME[=key=value[:key=value]]":
   * psnr, float_ssim (or ssim), float_ms_ssim (or ms-ssim), cambi, vif,
   * adm, motion, ... with libvmaf's option names.
   */
  g_object_class_install_property (gobject_class, PROP_FEATURES,
      g_param_spec_string ("features", "Features",
          "Comma-separated extra features, NAME[=key=value[:key=value]]: "
          "psnr, ssim (float_ssim), ms-ssim (float_ms_ssim), cambi, ...",
          DEFAULT_FEATURES, ready));

  g_object_class_install_property (gobject_class, PROP_ENABLE_TRANSFORM,
      g_param_spec_boolean ("enable-transform", "Enable transform",
          "Apply the models' score transform (as libvmaf's phone model)",
          DEFAULT_ENABLE_TRANSFORM, ready));

  g_object_class_install_property (gobject_class, PROP_DISABLE_CLIP,
      g_param_spec_boolean ("disable-clip", "Disable clip",
          "Do not clip model scores to the model's range",
          DEFAULT_DISABLE_CLIP, ready));

  g_object_class_install_property (gobject_class, PROP_POOL_METHOD,
      g_param_spec_enum ("pool-method", "Pool method",
          "How the tags and the summary's \"score\" pool per-frame values",
          GST_TYPE_VMAF_HIP_POOL_METHOD, DEFAULT_POOL_METHOD, playing));

  g_object_class_install_property (gobject_class, PROP_SUBSAMPLE,
      g_param_spec_uint ("subsample", "Subsample",
          "Score every Nth frame only (temporal features still see every "
          "frame)", 1, 1000, DEFAULT_SUBSAMPLE, ready));

  g_object_class_install_property (gobject_class, PROP_THREADS,
      g_param_spec_uint ("threads", "Threads",
          "Scoring worker threads (0 = one per processor)", 0, 256,
          DEFAULT_THREADS, ready));

  g_object_class_install_property (gobject_class, PROP_FRAME_MESSAGE,
      g_param_spec_boolean ("frame-message", "Frame message",
          "Post a \"vmaf\" element message for every scored frame",
          DEFAULT_FRAME_MESSAGE, playing));

  g_object_class_install_property (gobject_class, PROP_RESULTS_FILENAME,
      g_param_spec_string ("results-filename", "Results filename",
          "Write every frame's values and the pooled values to this file, "
          "in libvmaf's layout: rewritten whole (atomically) as frames are "
          "scored, so that it is valid at every moment, and completed at "
          "end of stream (NULL: no file)", DEFAULT_RESULTS_FILENAME, ready));

  g_object_class_install_property (gobject_class, PROP_RESULTS_INTERVAL,
      g_param_spec_uint ("results-interval", "Results interval",
          "Least time in milliseconds between two rewrites of the results "
          "file while frames are scored (a rewrite also waits ten times as "
          "long as the last one took; 0: written only at end of stream or "
          "stop)", 0, G_MAXINT, DEFAULT_RESULTS_INTERVAL, ready));

  g_object_class_install_property (gobject_class, PROP_RESULTS_FORMAT,
      g_param_spec_enum ("results-format", "Results format",
          "Format of the results file", GST_TYPE_VMAF_HIP_RESULTS_FORMAT,
          DEFAULT_RESULTS_FORMAT, ready));

  g_object_class_install_property (gobject_class, PROP_TAG_INTERVAL,
      g_param_spec_uint ("tag-interval", "Tag interval",
          "Push and post pooled tags every N scored frames (0: only at end "
          "of stream)", 0, G_MAXINT, DEFAULT_TAG_INTERVAL, playing));

  g_object_class_install_property (gobject_class, PROP_PASSTHROUGH,
      g_param_spec_enum ("passthrough", "Passthrough",
          "Which input the src pad passes on, unchanged",
          GST_TYPE_VMAF_HIP_PASSTHROUGH, DEFAULT_PASSTHROUGH, ready));

  g_object_class_install_property (gobject_class, PROP_BACKEND,
      g_param_spec_enum ("backend", "Backend",
          "Where the features are computed", GST_TYPE_VMAF_HIP_BACKEND,
          DEFAULT_BACKEND, ready));

  /* GStreamer's vmaf element's properties, where they mean the same here
   * (docs/migrating-from-vmaf.md). */
  g_object_class_install_property (gobject_class, PROP_MODEL_FILENAME,
      g_param_spec_string ("model-filename", "Model (vmaf element's name)",
          "The model property under the name GStreamer's vmaf element "
          "gives it: a built-in model name or a model file (libvmaf's JSON "
          "format)", DEFAULT_MODEL, ready));
  g_object_class_install_property (gobject_class, PROP_PSNR,
      g_param_spec_boolean ("psnr", "PSNR (vmaf element's name)",
          "Compute PSNR: adds psnr to features (psnr_y, psnr_cb, psnr_cr)",
          FALSE, ready));
  g_object_class_install_property (gobject_class, PROP_SSIM,
      g_param_spec_boolean ("ssim", "SSIM (vmaf element's name)",
          "Compute SSIM: adds float_ssim to features", FALSE, ready));
  g_object_class_install_property (gobject_class, PROP_MS_SSIM,
      g_param_spec_boolean ("ms-ssim", "MS-SSIM (vmaf element's name)",
          "Compute MS-SSIM: adds float_ms_ssim to features", FALSE, ready));
  g_object_class_install_property (gobject_class, PROP_PHONE_MODEL,
      g_param_spec_boolean ("phone-model", "Phone model (vmaf element's name)",
          "Apply the models' score transform (libvmaf's phone model): the "
          "enable-transform property under another name", FALSE, ready));
  g_object_class_install_property (gobject_class, PROP_CONF_INTERVAL,
      g_param_spec_boolean ("conf-interval",
          "Confidence interval (vmaf element's name)",
          "Require bootstrap models (vmaf_b_v0.6.3, or a model file with "
          "bootstrap members), which report their confidence interval "
          "(NAME_ci_p95_lo, NAME_ci_p95_hi, NAME_stddev, NAME_bagging); any "
          "other model fails the state change", FALSE, ready));
  g_object_class_install_property (gobject_class, PROP_LOG_LEVEL,
      g_param_spec_enum ("log-level", "Log level (vmaf element's name)",
          "Accepted for compatibility and read back; it changes no logging "
          "(libvmaf's log has no counterpart here): the element logs "
          "through GST_DEBUG=vmafhipcompare:LEVEL",
          GST_TYPE_VMAF_HIP_LOG_LEVEL, DEFAULT_LOG_LEVEL,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_MESSAGE_LAYOUT,
      g_param_spec_enum ("message-layout", "Message layout",
          "vmafhip: \"vmaf\" per frame, \"vmaf-summary\" at the end; vmaf: "
          "GStreamer's vmaf element's \"VMAF\" messages (type=frame, "
          "type=pooled)", GST_TYPE_VMAF_HIP_MESSAGE_LAYOUT,
          DEFAULT_MESSAGE_LAYOUT, playing));

  /**
   * GstVmafHipCompare:device-id:
   *
   * The GPU that backend auto or hip uses. -1: the device the pipeline
   * already shares through the "vmafhip.hip.device" context, else the first.
   * A shared device of another number is not taken.
   */
  g_object_class_install_property (gobject_class, PROP_DEVICE_ID,
      g_param_spec_int ("device-id", "Device ID",
          "GPU for backend auto or hip (-1: the pipeline's shared device, "
          "else the first)", -1, G_MAXINT, DEFAULT_DEVICE_ID, ready));

  /**
   * GstVmafHipCompare:self-test:
   *
   * At start, on the GPU: every GPU feature scores built-in frames and is
   * compared with its CPU twin (as vmafhip-score --self-test). The verdict
   * is a "vmaf-self-test" element message; a failing feature runs on the
   * CPU, with a warning naming it.
   */
  g_object_class_install_property (gobject_class, PROP_SELF_TEST,
      g_param_spec_boolean ("self-test", "Self-test",
          "At start, check every GPU feature against its CPU twin on "
          "built-in frames (a vmaf-self-test message); a failing one runs "
          "on the CPU", DEFAULT_SELF_TEST, ready));

  /**
   * GstVmafHipCompare:input-timeout:
   *
   * How long after the first caps or frame on one sink pad the other may
   * stay without caps. Past it the run ends in an error naming the pad:
   * never linked, or its branch sent no video (it failed before its caps,
   * or has no video stream). Without it such a pipeline waits in
   * PREROLLING for ever. An unlinked pad is also reported as soon as the
   * other one ends. 0: wait for ever.
   */
  g_object_class_install_property (gobject_class, PROP_INPUT_TIMEOUT,
      g_param_spec_uint64 ("input-timeout", "Input timeout",
          "Nanoseconds a sink pad may stay without caps after the other "
          "one's first caps before the run fails, naming it (never linked, "
          "or its branch sent no video); 0: wait for ever", 0, G_MAXUINT64,
          DEFAULT_INPUT_TIMEOUT, ready));

  /**
   * GstVmafHipCompare:convert:
   *
   * reference-format: the distorted frames are converted on the CPU to the
   * reference's pixel format (bit depth, chroma subsampling) before they
   * are scored, as libvmaf users put ffmpeg's format filter (e.g.
   * format=yuv420p10le) on the distorted input. Size and frame rate must
   * still match. none: both inputs need the same format.
   */
  g_object_class_install_property (gobject_class, PROP_CONVERT,
      g_param_spec_enum ("convert", "Convert",
          "none: both inputs need the same pixel format; reference-format: "
          "convert the distorted frames to the reference's format (8 against "
          "10 bit, 4:4:4 against 4:2:0) on the CPU, as ffmpeg's format "
          "filter does for libvmaf", GST_TYPE_VMAF_HIP_CONVERT_MODE,
          DEFAULT_CONVERT, ready));

  /**
   * GstVmafHipCompare:align:
   *
   * How frames of the two inputs are paired. timestamps: by running time,
   * within half a frame (both inputs from one clock: a tee before an
   * encoder, two files). content: by their pictures, whatever their
   * timestamps: the element locks on the offset between the inputs,
   * follows it when the chain drops, repeats or inserts frames, and scores
   * only frames it matched; frames it could not match are counted as
   * unpaired, never scored against another frame. The offset is in every
   * vmaf message (align-offset-frames, align-offset), in a vmaf-align
   * message when it locks, changes or is lost, in the summary and in the
   * results file. With request pads (dist_sink_%u) each distorted pad is
   * aligned with the reference on its own; its vmaf-align messages carry
   * its pad and label as its vmaf messages do.
   */
  g_object_class_install_property (gobject_class, PROP_ALIGN,
      g_param_spec_enum ("align", "Align",
          "timestamps: pair frames by running time; content: pair them by "
          "their pictures (inputs with unrelated timestamps or an unknown "
          "delay, frames dropped or repeated by the chain)",
          GST_TYPE_VMAF_HIP_ALIGN_MODE, DEFAULT_ALIGN, ready));

  /**
   * GstVmafHipCompare:align-window:
   *
   * With align=content, how far apart the two inputs may be, in
   * nanoseconds: offsets up to this long either way are searched. A
   * frame waits up to this long for its decision until the offset is
   * locked, and frames of both inputs are held that long.
   */
  g_object_class_install_property (gobject_class, PROP_ALIGN_WINDOW,
      g_param_spec_uint64 ("align-window", "Align window",
          "With align=content: how far apart the inputs may be, in "
          "nanoseconds (frames are held that long until the offset locks)",
          GST_SECOND / 25, 600 * GST_SECOND, DEFAULT_ALIGN_WINDOW, ready));

  /**
   * GstVmafHipCompare:unpaired:
   *
   * What becomes of a reference frame whose distorted frame the chain
   * dropped (the distorted input went on with a later frame). skip: it is
   * not scored (counted in unpaired-reference). repeat: it is scored
   * against the last distorted frame shown, as a viewer saw the frozen
   * picture, as QC tools do; its vmaf message has repeated=true and the
   * summary counts them in repeated-distorted.
   */
  g_object_class_install_property (gobject_class, PROP_UNPAIRED,
      g_param_spec_enum ("unpaired", "Unpaired",
          "skip: a reference frame whose distorted frame the chain dropped "
          "is not scored; repeat: it is scored against the last distorted "
          "frame shown (a freeze counts against the score)",
          GST_TYPE_VMAF_HIP_UNPAIRED_MODE, DEFAULT_UNPAIRED, ready));

  /**
   * GstVmafHipCompare:scale:
   *
   * A distorted video of another size than the reference (a rendition of
   * an encoding ladder) is resampled to the reference's size before it is
   * scored: bicubic (the default) as ffmpeg's scale=flags=bicubic, the
   * convention VMAF scores are compared with; lanczos; bilinear (what
   * videoscale does by default; it reads lower). On the GPU when the
   * features run there, on the CPU otherwise, equal bit for bit.
   * none: both inputs need the same size.
   */
  g_object_class_install_property (gobject_class, PROP_SCALE,
      g_param_spec_enum ("scale", "Scale",
          "How a distorted video of another size is resampled to the "
          "reference's size before scoring: bicubic (ffmpeg's "
          "scale=flags=bicubic, the convention), lanczos, bilinear, or none "
          "(sizes must match)", GST_TYPE_VMAF_HIP_SCALE_METHOD,
          DEFAULT_SCALE, ready));

  /**
   * GstVmafHipCompare:stats:
   *
   * The run so far, as the vmaf-summary message gives it at end of stream
   * (structure "vmaf-stats": scored, skipped, unpaired and dropped frames,
   * pooled values per output), plus "dispatch" (which feature runs where,
   * "adm: hip, cambi: cpu, ..."), "scaler" when the distorted video is
   * resampled, "pad" and "label", and "reference-frames" (reference frames
   * prepared for scoring: each once, whatever the number of distorted
   * pads). With request pads, "renditions": each distorted pad's stats,
   * dist_sink's first. NULL while the element is not running.
   * Lets an application watch a live run that never ends.
   */
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics",
          "Frames scored, unpaired and dropped, pooled values and feature "
          "dispatch of the run so far (as the vmaf-summary message)",
          GST_TYPE_STRUCTURE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  gst_vmaf_hip_watch_install_properties (gobject_class, PROP_WATCH_FIRST);
}

/* The summary so far, for applications that watch a live run; NULL
 * unless running. Called with the object lock held. */
static GstStructure *
rendition_stats (GstVmafHipCompare * self, guint i)
{
  GstVmafHipScoring *scoring = gst_vmaf_hip_renditions_get (self->renditions,
      i);
  GstStructure *s = gst_vmaf_hip_scoring_stats (scoring);

  if (!s)
    return NULL;
  gst_vmaf_hip_inputs_add_match_counts (self->inputs, i, s);
  gst_vmaf_hip_inputs_add_align_counts (self->inputs, i, s, NULL, NULL);
  gst_vmaf_hip_scoring_add_dispatch (scoring, s);
  gst_vmaf_hip_scoring_add_rendition (scoring, s);
  return s;
}

static GstStructure *
make_stats (GstVmafHipCompare * self)
{
  GstStructure *s = rendition_stats (self, 0);
  guint n = gst_vmaf_hip_renditions_n (self->renditions);
  GValue list = G_VALUE_INIT;

  if (!s)
    return NULL;
  gst_structure_set (s, "reference-frames", G_TYPE_UINT64,
      gst_vmaf_hip_gpu_references_made (self->gpu), NULL);
  if (n < 2)
    return s;
  /* every distorted pad's, dist_sink's first */
  gst_value_array_init (&list, n);
  for (guint i = 0; i < n; i++) {
    GstStructure *one = rendition_stats (self, i);
    GValue v = G_VALUE_INIT;

    if (!one)
      continue;
    g_value_init (&v, GST_TYPE_STRUCTURE);
    g_value_take_boxed (&v, one);
    gst_value_array_append_and_take_value (&list, &v);
  }
  gst_structure_take_value (s, "renditions", &list);
  return s;
}

void
gst_vmaf_hip_compare_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstVmafHipCompare *self = GST_VMAF_HIP_COMPARE (object);
  GstVmafHipLiveSettings *live = gst_vmaf_hip_scoring_live (self->scoring);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_MODEL:
    case PROP_MODEL_FILENAME:
      g_free (self->settings.model);
      self->settings.model = g_value_dup_string (value);
      break;
    case PROP_PSNR:
      self->compat_psnr = g_value_get_boolean (value);
      break;
    case PROP_SSIM:
      self->compat_ssim = g_value_get_boolean (value);
      break;
    case PROP_MS_SSIM:
      self->compat_ms_ssim = g_value_get_boolean (value);
      break;
    case PROP_CONF_INTERVAL:
      self->settings.conf_interval = g_value_get_boolean (value);
      break;
    case PROP_LOG_LEVEL:
      self->log_level = g_value_get_enum (value);
      break;
    case PROP_MESSAGE_LAYOUT:
      g_atomic_int_set (&live->message_layout, g_value_get_enum (value));
      break;
    case PROP_FEATURES:
      g_free (self->settings.features);
      self->settings.features = g_value_dup_string (value);
      break;
    case PROP_ENABLE_TRANSFORM:
    case PROP_PHONE_MODEL:
      self->settings.enable_transform = g_value_get_boolean (value);
      break;
    case PROP_DISABLE_CLIP:
      self->settings.disable_clip = g_value_get_boolean (value);
      break;
    case PROP_POOL_METHOD:
      g_atomic_int_set (&live->pool_method, g_value_get_enum (value));
      break;
    case PROP_SUBSAMPLE:
      self->settings.subsample = g_value_get_uint (value);
      break;
    case PROP_THREADS:
      self->settings.threads = g_value_get_uint (value);
      break;
    case PROP_FRAME_MESSAGE:
      g_atomic_int_set (&live->frame_message, g_value_get_boolean (value));
      break;
    case PROP_RESULTS_FILENAME:
      g_free (self->results_filename);
      self->results_filename = g_value_dup_string (value);
      if (self->results_filename && !*self->results_filename)
        g_clear_pointer (&self->results_filename, g_free);
      break;
    case PROP_RESULTS_FORMAT:
      self->results_format = g_value_get_enum (value);
      break;
    case PROP_TAG_INTERVAL:
      g_atomic_int_set (&live->tag_interval, (gint) g_value_get_uint (value));
      break;
    case PROP_RESULTS_INTERVAL:
      self->results_interval = g_value_get_uint (value);
      break;
    case PROP_PASSTHROUGH:
      self->passthrough = g_value_get_enum (value);
      break;
    case PROP_BACKEND:
      self->settings.backend = g_value_get_enum (value);
      break;
    case PROP_DEVICE_ID:
      self->settings.device_id = g_value_get_int (value);
      break;
    case PROP_SELF_TEST:
      self->settings.self_test = g_value_get_boolean (value);
      break;
    case PROP_INPUT_TIMEOUT:
      self->input_timeout = g_value_get_uint64 (value);
      break;
    case PROP_CONVERT:
      self->convert_mode = g_value_get_enum (value);
      break;
    case PROP_ALIGN:
      self->align_mode = g_value_get_enum (value);
      break;
    case PROP_ALIGN_WINDOW:
      self->align_window = g_value_get_uint64 (value);
      break;
    case PROP_UNPAIRED:
      self->unpaired_mode = g_value_get_enum (value);
      break;
    case PROP_SCALE:
      self->scale_method = g_value_get_enum (value);
      break;
    default:
      if (!gst_vmaf_hip_watch_set_property (&self->watch, PROP_WATCH_FIRST,
              prop_id, value))
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

void
gst_vmaf_hip_compare_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstVmafHipCompare *self = GST_VMAF_HIP_COMPARE (object);
  GstVmafHipLiveSettings *live = gst_vmaf_hip_scoring_live (self->scoring);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_MODEL:
    case PROP_MODEL_FILENAME:
      g_value_set_string (value, self->settings.model);
      break;
    case PROP_PSNR:
      g_value_set_boolean (value, self->compat_psnr);
      break;
    case PROP_SSIM:
      g_value_set_boolean (value, self->compat_ssim);
      break;
    case PROP_MS_SSIM:
      g_value_set_boolean (value, self->compat_ms_ssim);
      break;
    case PROP_CONF_INTERVAL:
      g_value_set_boolean (value, self->settings.conf_interval);
      break;
    case PROP_LOG_LEVEL:
      g_value_set_enum (value, self->log_level);
      break;
    case PROP_MESSAGE_LAYOUT:
      g_value_set_enum (value, g_atomic_int_get (&live->message_layout));
      break;
    case PROP_FEATURES:
      g_value_set_string (value, self->settings.features);
      break;
    case PROP_ENABLE_TRANSFORM:
    case PROP_PHONE_MODEL:
      g_value_set_boolean (value, self->settings.enable_transform);
      break;
    case PROP_DISABLE_CLIP:
      g_value_set_boolean (value, self->settings.disable_clip);
      break;
    case PROP_POOL_METHOD:
      g_value_set_enum (value, g_atomic_int_get (&live->pool_method));
      break;
    case PROP_SUBSAMPLE:
      g_value_set_uint (value, self->settings.subsample);
      break;
    case PROP_THREADS:
      g_value_set_uint (value, self->settings.threads);
      break;
    case PROP_FRAME_MESSAGE:
      g_value_set_boolean (value, g_atomic_int_get (&live->frame_message));
      break;
    case PROP_RESULTS_FILENAME:
      g_value_set_string (value, self->results_filename);
      break;
    case PROP_RESULTS_FORMAT:
      g_value_set_enum (value, self->results_format);
      break;
    case PROP_TAG_INTERVAL:
      g_value_set_uint (value, (guint) g_atomic_int_get (&live->tag_interval));
      break;
    case PROP_RESULTS_INTERVAL:
      g_value_set_uint (value, self->results_interval);
      break;
    case PROP_PASSTHROUGH:
      g_value_set_enum (value, self->passthrough);
      break;
    case PROP_BACKEND:
      g_value_set_enum (value, self->settings.backend);
      break;
    case PROP_DEVICE_ID:
      g_value_set_int (value, self->settings.device_id);
      break;
    case PROP_SELF_TEST:
      g_value_set_boolean (value, self->settings.self_test);
      break;
    case PROP_INPUT_TIMEOUT:
      g_value_set_uint64 (value, self->input_timeout);
      break;
    case PROP_SCALE:
      g_value_set_enum (value, self->scale_method);
      break;
    case PROP_CONVERT:
      g_value_set_enum (value, self->convert_mode);
      break;
    case PROP_ALIGN:
      g_value_set_enum (value, self->align_mode);
      break;
    case PROP_ALIGN_WINDOW:
      g_value_set_uint64 (value, self->align_window);
      break;
    case PROP_UNPAIRED:
      g_value_set_enum (value, self->unpaired_mode);
      break;
    case PROP_STATS:
      g_value_take_boxed (value, make_stats (self));
      break;
    default:
      if (!gst_vmaf_hip_watch_get_property (&self->watch, PROP_WATCH_FIRST,
              prop_id, value))
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}
