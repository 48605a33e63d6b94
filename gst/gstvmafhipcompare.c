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

#include "gstvmafhipcompare.h"
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
#include "gstvmafhipbufferpool.h"
#include "gstvmafhipcuda.h"
#include "gstvmafhipmemory.h"
#include "gstvmafhiputils.h"
#include "hip-features.h"
#endif

GST_DEBUG_CATEGORY (gst_vmaf_hip_compare_debug);
#define GST_CAT_DEFAULT gst_vmaf_hip_compare_debug

#define DEFAULT_MODEL             "vmaf_v0.6.1"
#define DEFAULT_FEATURES          ""
#define DEFAULT_ENABLE_TRANSFORM  FALSE
#define DEFAULT_DISABLE_CLIP      FALSE
#define DEFAULT_POOL_METHOD       GST_VMAF_HIP_POOL_MEAN
#define DEFAULT_SUBSAMPLE         1
#define DEFAULT_THREADS           0
#define DEFAULT_FRAME_MESSAGE     TRUE
#define DEFAULT_RESULTS_FILENAME  NULL
#define DEFAULT_RESULTS_FORMAT    GST_VMAF_HIP_RESULTS_JSON
#define DEFAULT_TAG_INTERVAL      30
#define DEFAULT_RESULTS_INTERVAL  1000
#define DEFAULT_PASSTHROUGH       GST_VMAF_HIP_PASSTHROUGH_DISTORTED
#define DEFAULT_BACKEND           GST_VMAF_HIP_BACKEND_AUTO
#define DEFAULT_MESSAGE_LAYOUT    GST_VMAF_HIP_MESSAGE_LAYOUT_VMAFHIP
#define DEFAULT_LOG_LEVEL         GST_LEVEL_NONE
#define DEFAULT_DEVICE_ID         -1

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
  PROP_STATS,
  PROP_RESULTS_INTERVAL,
};

/* How many frames of one side wait for the other side's frame of the
 * same moment: a live branch may reach the element some slots after the
 * other one and keep that lag. */
#define MAX_WAITING_FRAMES 4

/* The same without a live source, where nothing is late: a frame waits
 * for its partner as long as it takes (the base class holds back the side
 * that runs ahead, and its queue, not this, bounds the memory); only a
 * limit against a side that never sends. */
#define MAX_WAITING_FRAMES_NOT_LIVE 1024

/* Frame accounting of one sink pad since start or its last flush, under
 * count_lock. Every frame inside the segment that arrives goes to the
 * pairing at once, on the pad's thread, whatever the base class later
 * does with it (a live aggregator passes over frames that come after
 * their output slot): it is scored with its partner or counted unpaired.
 * Frames that arrive without caps or past the segment's stop are
 * dropped. */
typedef struct
{
  guint64 arrived;              /* frames inside the segment's start */
  guint64 decided;              /* left the pairing: scored or unpaired */
  guint64 unpaired;
  guint64 unpaired_after_end;   /* of those, after the other side ended */
  GstVideoInfo info;            /* the pad's caps, as its thread saw them */
  gboolean have_info;
  gboolean over;                /* EOS: no frame comes any more */
  GstSegment segment;           /* the pad's, as the pad's thread saw it */
  gboolean untimed_said;        /* a frame without a timestamp was refused */
} SideCount;

struct _GstVmafHipCompare
{
  GstVideoAggregator parent;

  GstVideoAggregatorPad *ref_pad;
  GstVideoAggregatorPad *dist_pad;

  /* Properties, under the object lock. The three that worker threads read
   * are accessed atomically. */
  GstVmafHipSettings settings;
  gint pool_method;             /* GstVmafHipPoolMethod */
  gint frame_message;           /* gboolean */
  gint tag_interval;            /* guint */
  guint results_interval;       /* ms */
  gchar *results_filename;
  GstVmafHipResultsFormat results_format;
  GstVmafHipPassthrough passthrough;
  gboolean compat_psnr, compat_ssim, compat_ms_ssim;
  GstDebugLevel log_level;
  gint message_layout;          /* GstVmafHipMessageLayout */

  /* One run, from start to stop; streaming thread. */
  GstVmafHipSettings run;
  gchar *run_results_filename;
  GstVmafHipResultsFormat run_results_format;
  GstVmafHipPassthrough run_passthrough;
  /* Rewritten as frames are scored (on the worker that reports them), so
   * that a kill leaves what was scored; made with the first frame. */
  VhResultsFile *results_file;
  guint run_results_interval;   /* ms */
  gint results_failed;          /* atomic: a rewrite failed, said once */
  VhContext *ctx;
  gboolean ctx_started;
  gboolean ctx_drained;         /* finished, nothing submitted since */
  VhPictureInfo ctx_info;
  guint64 ctx_base;             /* element frame number of engine frame 0 */
  guint64 n_pairs;              /* frame numbers handed out so far */
  GstVideoInfo ref_info_used;
  GstVideoInfo dist_info_used;
  gboolean have_info_used;
  GMutex count_lock;
  SideCount ref_count;
  SideCount dist_count;
  gboolean warned_out_of_step;
  gboolean warned_upload;       /* a failed upload was said (auto) */
  GstVmafHipPairing *pairing;   /* aggregate thread */
  gboolean eos_done;
  /* The base class queues a caps event and lets the buffers after it in
   * before the event is refused on its thread: a pad whose last caps were
   * refused has frames but no video info (atomic, bit per pad). */
  gint caps_refused;
  gboolean output_started;      /* a buffer went out since start or flush */
  gint64 first_submit_us;
  GstVmafHipReport *report;     /* thread-safe; shared with the workers;
                                 * set under the object lock (stats) */

  /* Tags for the next output buffer, under the object lock. */
  GstTagList *pending_tags;

  /* The GPU, from start to stop (a GstVmafHipDevice shared with neighbours
   * through GstContext; NULL for the CPU). Set under the object lock. */
  GstObject *hip_device;
  /* Where features run, decided once at start (open_hip_device()), and the
   * context's own transfer to and from the device (NULL for the CPU). */
  VhBackend backends;
  VhPictureTransfer *transfer;
  gchar *dispatch;              /* "adm: hip, ...", logged once; set
                                 * under the object lock */
  gboolean hip_input;           /* some feature reads device pictures */
};

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

static SideCount *
side_count (GstVmafHipCompare * self, gboolean ref_side)
{
  return ref_side ? &self->ref_count : &self->dist_count;
}

/* Frames that arrived and neither are waiting for a partner nor left the
 * pairing. Called with count_lock held. */
static guint64
count_dropped (GstVmafHipCompare * self, gboolean ref_side)
{
  SideCount *c = side_count (self, ref_side);
  guint64 done = c->decided +
      gst_vmaf_hip_pairing_n_waiting (self->pairing, ref_side);

  return c->arrived > done ? c->arrived - done : 0;
}

/* Forgets a side's frames and counts (at start, stop, or its flush).
 * Called with count_lock held. */
static void
side_reset (GstVmafHipCompare * self, gboolean ref_side)
{
  SideCount *c = side_count (self, ref_side);

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
  SideCount *c = side_count (self, ref_side);
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

/* On each sink pad, in the upstream thread: every frame goes to the
 * pairing as it arrives. */
static GstPadProbeReturn
on_pad_data (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GstVmafHipCompare *self = user_data;
  gboolean ref_side = pad == GST_PAD (self->ref_pad);
  SideCount *c = side_count (self, ref_side);
  GstFormat refused = GST_FORMAT_UNDEFINED;

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
    if (!segment_in_time (c)) {
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
        side_reset (self, ref_side);
        gst_segment_init (&c->segment, GST_FORMAT_UNDEFINED);
        break;
      case GST_EVENT_SEGMENT:
        gst_event_copy_segment (ev, &c->segment);
        if (!segment_in_time (c))
          refused = c->segment.format;
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
   * (filesrc straight into the element: bytes): refused here, with what
   * to do instead. They get an empty time segment in its place (dropping
   * it would leave the pad without one); the pad's frames are refused
   * above. */
  if (refused != GST_FORMAT_UNDEFINED) {
    GstSegment in_time;

    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("%s: the video comes in a segment of %s, not of time: frames are "
            "paired by their timestamps. Raw video from a file needs a "
            "parser that stamps its frames: filesrc ! rawvideoparse "
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

static void close_hip_device (GstVmafHipCompare * self);

/* backend auto or hip: the device the pipeline shares (asked of the
 * neighbours and the application, else opened and announced). auto
 * without one goes on with the CPU, saying why; hip without one fails. */
static gboolean
open_hip_device (GstVmafHipCompare * self)
{
  GError *err = NULL;

  self->backends = VH_BACKEND_CPU;
  if (self->run.backend == GST_VMAF_HIP_BACKEND_CPU)
    return TRUE;
#ifdef VH_HAVE_HIP
  {
    /* The element's own field: a neighbour's or the application's answer
     * arrives through set_context, on this thread, while it asks. */
    if (gst_vmaf_hip_ensure_element_device (GST_ELEMENT (self),
            GST_VMAF_HIP_VENDOR_UNKNOWN, self->run.device_id,
            (GstVmafHipDevice **) & self->hip_device, &err) &&
        vh_hip_use_device (gst_vmaf_hip_device_get_handle (GST_VMAF_HIP_DEVICE
                (self->hip_device)), &self->backends, &self->transfer, &err))
      return TRUE;
    close_hip_device (self);
  }
#else
  g_set_error (&err, VH_ERROR, VH_ERROR_BACKEND,
      "this build has no HIP layer");
#endif
  if (self->run.backend == GST_VMAF_HIP_BACKEND_HIP) {
    GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
        ("The HIP backend is not available: %s", err->message), (NULL));
    g_error_free (err);
    return FALSE;
  }
  GST_INFO_OBJECT (self, "backend auto: no usable GPU, features run on the "
      "CPU: %s", err->message);
  g_error_free (err);
  return TRUE;
}

static void
close_hip_device (GstVmafHipCompare * self)
{
  GST_OBJECT_LOCK (self);
  gst_clear_object (&self->hip_device);
  GST_OBJECT_UNLOCK (self);
  g_clear_pointer (&self->transfer, vh_picture_transfer_unref);
  self->backends = VH_BACKEND_CPU;
  self->hip_input = FALSE;
}

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

#ifdef VH_HAVE_HIP
/* Whether @buf is one frame in HIP memory of our device. */
static gboolean
buffer_is_hip (GstVmafHipCompare * self, GstBuffer * buf)
{
  GstMemory *mem;

  if (!self->hip_input || gst_buffer_n_memory (buf) != 1)
    return FALSE;
  mem = gst_buffer_peek_memory (buf, 0);
  return gst_is_vmaf_hip_memory (mem) &&
      gst_vmaf_hip_device_is_equal (GST_VMAF_HIP_MEMORY_CAST (mem)->device,
      GST_VMAF_HIP_DEVICE (self->hip_device));
}

/* A frame written on the CPU into HIP memory (our pool, offered upstream)
 * starts its copy to the device now, from page-locked memory, without
 * waiting. */
static void
start_upload (GstVmafHipCompare * self, GstBuffer * buf)
{
  GError *err = NULL;

  if (buffer_is_hip (self, buf) &&
      !gst_vmaf_hip_memory_upload_async (GST_VMAF_HIP_MEMORY_CAST
          (gst_buffer_peek_memory (buf, 0)), &err)) {
    GST_WARNING_OBJECT (self, "upload failed, reading on the CPU: %s",
        err->message);
    g_error_free (err);
  }
}
#endif

#ifdef VH_HAVE_HIP
static GstVmafHipDevice *
hip_device (GstVmafHipCompare * self)
{
  return self->hip_device ? GST_VMAF_HIP_DEVICE (self->hip_device) : NULL;
}

/* The element's device for neighbours that ask for a CUDA context before
 * it started (they open when they go to READY, after us): opened now
 * unless backend=cpu. */
static GstVmafHipDevice *
device_for_cuda (GstVmafHipCompare * self)
{
  GstVmafHipDevice *device = NULL;
  GError *err = NULL;
  gboolean cpu;

  GST_OBJECT_LOCK (self);
  if (self->hip_device)
    device = GST_VMAF_HIP_DEVICE (gst_object_ref (self->hip_device));
  cpu = self->settings.backend == GST_VMAF_HIP_BACKEND_CPU;
  GST_OBJECT_UNLOCK (self);
  if (device || cpu)
    return device;
  if (!gst_vmaf_hip_ensure_element_device (GST_ELEMENT (self),
          GST_VMAF_HIP_VENDOR_UNKNOWN, -1, &device, &err)) {
    GST_INFO_OBJECT (self, "no GPU to offer a CUDA context: %s",
        err->message);
    g_error_free (err);
    return NULL;
  }
  GST_OBJECT_LOCK (self);
  if (!self->hip_device)
    self->hip_device = gst_object_ref (GST_OBJECT (device));
  GST_OBJECT_UNLOCK (self);
  return device;
}
#endif

/* The engine's picture of @buf: in device memory when it is HIP memory
 * and some feature runs on the GPU, else in host memory. */
static VhPicture *
wrap_input (GstVmafHipCompare * self, const GstVideoInfo * vinfo,
    GstBuffer * buf, GError ** error)
{
#ifdef VH_HAVE_HIP
  /* After a fall-back to the CPU, frames are read on the CPU. */
  if (buffer_is_hip (self, buf) && !vh_context_on_cpu (self->ctx)) {
    GError *err = NULL;
    VhHipEvent *ready = NULL;
    VhPicture *pic = gst_vmaf_hip_memory_prepare_device
        (GST_VMAF_HIP_MEMORY_CAST (gst_buffer_peek_memory (buf, 0)), &ready,
        &err) ? gst_vmaf_hip_picture_wrap_device (vinfo, buf, ready, &err) :
        NULL;

    if (pic)
      return pic;
    /* Its upload failed: with backend=auto the frame is read on the CPU
     * (from the page-locked copy it was uploaded from), said once; else
     * the error names the device and the call. */
    if (err && self->run.backend != GST_VMAF_HIP_BACKEND_AUTO) {
      g_prefix_error (&err, "its upload to the GPU: ");
      g_propagate_error (error, err);
      return NULL;
    }
    if (err) {
      if (!self->warned_upload)
        GST_ELEMENT_WARNING (self, RESOURCE, FAILED, ("A frame's upload to "
                "the GPU failed: it is read on the CPU: %s.", err->message),
            ("backend=auto"));
      self->warned_upload = TRUE;
      g_error_free (err);
      return gst_vmaf_hip_picture_wrap (vinfo, buf, error);
    }
  }
  /* CUDA memory: its device address, never a copy in system memory. */
  if (gst_vmaf_hip_cuda_buffer_is_ours (buf, hip_device (self), error)) {
    VhPicture *pic = gst_vmaf_hip_picture_wrap_device_mapped (vinfo, buf,
        gst_vmaf_hip_cuda_map_flags (), error);

    /* Our streams are not ordered after the producer's; after the
     * mapping, which may itself queue an upload on the producer's. */
    if (pic)
      gst_vmaf_hip_cuda_buffer_sync (buf);
    if (!pic && error && !*error)
      g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
          "a frame in CUDA memory with a layout the GPU features cannot "
          "read in place: put cudadownload before the element");
    return pic;
  }
  if (error && *error)
    return NULL;
#endif
  return gst_vmaf_hip_picture_wrap (vinfo, buf, error);
}

static guint frames_within_latency (GstVmafHipCompare * self);

/* Frames of one pad the element may hold at once: waiting for their
 * partner, then in the scoring context (in flight, and kept for a GPU
 * fall-back). */
static guint
frames_held_per_pad (GstVmafHipCompare * self)
{
  guint held;

  if (self->ctx && self->ctx_started) {
    held = vh_context_n_frames_held (self->ctx);
  } else {
    /* before it starts: the context's default in flight, and two kept */
    guint workers = self->run.threads ? self->run.threads :
        GST_VMAF_HIP_GPU_THREADS;
    held = vh_context_default_in_flight (workers) + 2;
  }
  return MIN (frames_within_latency (self) + held, 64);
}

/* Offers upstream a pool of HIP memory when features run on the GPU:
 * frames written by the CPU land in page-locked memory and go to the
 * device asynchronously (start_upload), HIP producers write in place.
 * Producers are told how many frames the element may hold: their pools
 * (ours, or gst-cuda's for CUDA producers) are made at the start instead
 * of growing, a device allocation at a time, while the first frames go
 * through (a live pipeline's first frames then came late, and a short
 * run lost a fifth of its rate). */
static gboolean
gst_vmaf_hip_compare_propose_allocation (GstAggregator * agg,
    GstAggregatorPad * pad, GstQuery * decide_query, GstQuery * query)
{
#ifdef VH_HAVE_HIP
  GstVmafHipCompare *self = GST_VMAF_HIP_COMPARE (agg);
  GstCaps *caps = NULL;
  gboolean need_pool = FALSE;
  GstVideoInfo info, layout;

  gst_query_parse_allocation (query, &caps, &need_pool);
  /* CUDA producers use their own pools (in our CUDA context): only the
   * number of buffers. */
  if (self->hip_input && caps && gst_vmaf_hip_cuda_caps (caps) &&
      gst_video_info_from_caps (&info, caps)) {
    gst_query_add_allocation_pool (query, NULL, info.size,
        frames_held_per_pad (self), 0);
  } else if (self->hip_input && caps && need_pool &&
      gst_video_info_from_caps (&info, caps)) {
    GstVmafHipDevice *device = GST_VMAF_HIP_DEVICE (self->hip_device);
    GstBufferPool *pool = gst_vmaf_hip_buffer_pool_new (device);
    GstStructure *config = gst_buffer_pool_get_config (pool);
    guint held = frames_held_per_pad (self);

    gst_vmaf_hip_memory_layout (device, &info, &layout);
    gst_buffer_pool_config_set_params (config, caps, layout.size, held, 0);
    if (gst_buffer_pool_set_config (pool, config))
      gst_query_add_allocation_pool (query, pool, layout.size, held, 0);
    else
      GST_WARNING_OBJECT (self, "HIP pool refused %" GST_PTR_FORMAT, caps);
    gst_object_unref (pool);
  }
#endif
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  return TRUE;
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
  start_upload (self, ref);
  start_upload (self, dist);
#endif
  ref_pic = wrap_input (self, rinfo, ref, &err);
  dist_pic = ref_pic ? wrap_input (self, dinfo, dist, &err) : NULL;
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
    side_count (self, ref_side)->unpaired_after_end++;
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
    const SideCount *c = side_count (self, i == 0);
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
static guint
frames_within_latency (GstVmafHipCompare * self)
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
        side_count (self, r.has_ref)->unpaired++;
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
  dropped_ref = count_dropped (self, TRUE);
  dropped_dist = count_dropped (self, FALSE);
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
        GstVmafHipDevice *device = device_for_cuda (self);
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
    GstVmafHipDevice *device = device_for_cuda (self);
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

/* The GPU features' kernel modules, loaded before the first frame, which
 * for a live source comes after the clock runs: loading them on the first
 * frame took over 100 ms while 16 processes opened the GPU at once, and
 * the first frames were late. A failure here is left to the features'
 * own start, which reports it. */
static void
preload_kernels (GstVmafHipCompare * self)
{
#ifdef VH_HAVE_HIP
  GPtrArray *classes;
  GError *err = NULL;

  if (!self->transfer)
    return;
  classes = vh_context_get_classes (self->ctx, VH_BACKEND_HIP);
  if (!vh_hip_features_preload (gst_vmaf_hip_device_get_handle
          (GST_VMAF_HIP_DEVICE (self->hip_device)), classes, &err)) {
    GST_WARNING_OBJECT (self, "kernels not loaded ahead: %s", err->message);
    g_error_free (err);
  } else {
    GST_DEBUG_OBJECT (self, "kernel modules of %u features loaded",
        classes->len);
  }
  g_ptr_array_unref (classes);
#endif
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
  side_reset (self, TRUE);
  side_reset (self, FALSE);
  g_mutex_unlock (&self->count_lock);
  self->warned_out_of_step = FALSE;
  self->warned_upload = FALSE;
  self->eos_done = FALSE;
  g_atomic_int_set (&self->results_failed, 0);
  g_atomic_int_set (&self->caps_refused, 0);
  self->output_started = FALSE;
  self->first_submit_us = 0;

  /* Build the models now so that bad settings fail the state change. */
  if (!check_results_file (self) || !open_hip_device (self) ||
      !build_context (self)) {
    clear_report (self);
    close_hip_device (self);
    return FALSE;
  }
  preload_kernels (self);
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
  close_hip_device (self);
  clear_report (self);
  GST_OBJECT_LOCK (self);
  g_clear_pointer (&self->pending_tags, gst_tag_list_unref);
  GST_OBJECT_UNLOCK (self);
  g_mutex_lock (&self->count_lock);
  side_reset (self, TRUE);
  side_reset (self, FALSE);
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

/* The summary so far, for applications that watch a live run; NULL
 * unless running. Called with the object lock held. */
static GstStructure *
make_stats (GstVmafHipCompare * self)
{
  GstStructure *s;
  guint64 ur, ud, dr, dd;

  if (!self->report)
    return NULL;
  s = gst_vmaf_hip_report_make_summary (self->report,
      g_atomic_int_get (&self->pool_method));
  gst_structure_set_name (s, "vmaf-stats");
  g_mutex_lock (&self->count_lock);
  ur = self->ref_count.unpaired;
  ud = self->dist_count.unpaired;
  dr = count_dropped (self, TRUE);
  dd = count_dropped (self, FALSE);
  g_mutex_unlock (&self->count_lock);
  gst_structure_set (s,
      "unpaired-reference", G_TYPE_UINT64, ur,
      "unpaired-distorted", G_TYPE_UINT64, ud,
      "dropped-reference", G_TYPE_UINT64, dr,
      "dropped-distorted", G_TYPE_UINT64, dd, NULL);
  if (self->dispatch)
    gst_structure_set (s, "dispatch", G_TYPE_STRING, self->dispatch, NULL);
  return s;
}

static void
gst_vmaf_hip_compare_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstVmafHipCompare *self = GST_VMAF_HIP_COMPARE (object);

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
      gst_debug_category_set_threshold (GST_CAT_DEFAULT, self->log_level);
      break;
    case PROP_MESSAGE_LAYOUT:
      g_atomic_int_set (&self->message_layout, g_value_get_enum (value));
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
      g_atomic_int_set (&self->pool_method, g_value_get_enum (value));
      break;
    case PROP_SUBSAMPLE:
      self->settings.subsample = g_value_get_uint (value);
      break;
    case PROP_THREADS:
      self->settings.threads = g_value_get_uint (value);
      break;
    case PROP_FRAME_MESSAGE:
      g_atomic_int_set (&self->frame_message, g_value_get_boolean (value));
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
      g_atomic_int_set (&self->tag_interval, (gint) g_value_get_uint (value));
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
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_vmaf_hip_compare_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstVmafHipCompare *self = GST_VMAF_HIP_COMPARE (object);

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
      g_value_set_enum (value, g_atomic_int_get (&self->message_layout));
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
      g_value_set_enum (value, g_atomic_int_get (&self->pool_method));
      break;
    case PROP_SUBSAMPLE:
      g_value_set_uint (value, self->settings.subsample);
      break;
    case PROP_THREADS:
      g_value_set_uint (value, self->settings.threads);
      break;
    case PROP_FRAME_MESSAGE:
      g_value_set_boolean (value, g_atomic_int_get (&self->frame_message));
      break;
    case PROP_RESULTS_FILENAME:
      g_value_set_string (value, self->results_filename);
      break;
    case PROP_RESULTS_FORMAT:
      g_value_set_enum (value, self->results_format);
      break;
    case PROP_TAG_INTERVAL:
      g_value_set_uint (value, (guint) g_atomic_int_get (&self->tag_interval));
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
    case PROP_STATS:
      g_value_take_boxed (value, make_stats (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

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
      on_pad_data, self, NULL);
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
  const GParamFlags ready = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_READY;
  const GParamFlags playing = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING;

  GST_DEBUG_CATEGORY_INIT (gst_vmaf_hip_compare_debug, "vmafhipcompare", 0,
      "vmafhip video quality comparison");

  gobject_class->set_property = gst_vmaf_hip_compare_set_property;
  gobject_class->get_property = gst_vmaf_hip_compare_get_property;
  gobject_class->finalize = gst_vmaf_hip_compare_finalize;

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
      g_param_spec_string ("model", "Model",
          "Comma-separated VMAF models: built-in names, model file paths, or "
          "version=NAME|path=FILE[:name=SCORE][:enable_transform]"
          "[:disable_clip][:EXTRACTOR.OPTION=VALUE]; the first scores as "
          "\"vmaf\"; empty for none",
          DEFAULT_MODEL, ready));

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
          "Sets the threshold of the vmafhipcompare debug category, for "
          "every instance (as GST_DEBUG=vmafhipcompare:LEVEL)",
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
   * GstVmafHipCompare:stats:
   *
   * The run so far, as the vmaf-summary message gives it at end of stream
   * (structure "vmaf-stats": scored, skipped, unpaired and dropped frames,
   * pooled values per output), plus "dispatch" (which feature runs where,
   * "adm: hip, cambi: cpu, ..."). NULL while the element is not running.
   * Lets an application watch a live run that never ends.
   */
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics",
          "Frames scored, unpaired and dropped, pooled values and feature "
          "dispatch of the run so far (as the vmaf-summary message)",
          GST_TYPE_STRUCTURE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

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
