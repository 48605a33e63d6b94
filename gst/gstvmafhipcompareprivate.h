/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* What the element's source files share: the instance, the internal calls. */

#ifndef __GST_VMAF_HIP_COMPARE_PRIVATE_H__
#define __GST_VMAF_HIP_COMPARE_PRIVATE_H__

#include "gstvmafhipcompare.h"
#include "gstvmafhipconfig.h"
#include "gstvmafhipenums.h"
#include "gstvmafhippairing.h"
#include "gstvmafhipreport.h"

#ifdef VH_HAVE_HIP
#include "gstvmafhipdevice.h"
#endif

G_BEGIN_DECLS

GST_DEBUG_CATEGORY_EXTERN (gst_vmaf_hip_compare_debug);
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
  /* Where features run, decided once at start
   * (gst_vmaf_hip_compare_open_hip_device()), and the context's own
   * transfer to and from the device (NULL for the CPU). */
  VhBackend backends;
  VhPictureTransfer *transfer;
  gchar *dispatch;              /* "adm: hip, ...", logged once; set
                                 * under the object lock */
  gboolean hip_input;           /* some feature reads device pictures */
};

/* gstvmafhipcompare.c */
G_GNUC_INTERNAL
guint gst_vmaf_hip_compare_frames_within_latency (GstVmafHipCompare * self);

/* gstvmafhipcompareinput.c */
G_GNUC_INTERNAL
SideCount   *gst_vmaf_hip_compare_side_count (GstVmafHipCompare * self,
                                            gboolean ref_side);

G_GNUC_INTERNAL
guint64      gst_vmaf_hip_compare_count_dropped (GstVmafHipCompare * self,
                                            gboolean ref_side);

G_GNUC_INTERNAL
void         gst_vmaf_hip_compare_side_reset (GstVmafHipCompare * self,
                                            gboolean ref_side);

G_GNUC_INTERNAL
GstPadProbeReturn gst_vmaf_hip_compare_pad_probe (GstPad * pad,
                                            GstPadProbeInfo * info,
                                            gpointer user_data);

/* gstvmafhipcomparedevice.c */
G_GNUC_INTERNAL
gboolean     gst_vmaf_hip_compare_open_hip_device (GstVmafHipCompare * self);

G_GNUC_INTERNAL
void         gst_vmaf_hip_compare_close_hip_device (GstVmafHipCompare * self);

#ifdef VH_HAVE_HIP
G_GNUC_INTERNAL
void         gst_vmaf_hip_compare_start_upload (GstVmafHipCompare * self,
                                            GstBuffer * buf);

G_GNUC_INTERNAL
GstVmafHipDevice *gst_vmaf_hip_compare_device_for_cuda (GstVmafHipCompare * self);
#endif

G_GNUC_INTERNAL
VhPicture   *gst_vmaf_hip_compare_wrap_input (GstVmafHipCompare * self,
                                            const GstVideoInfo * vinfo,
                                            GstBuffer * buf, GError ** error);

G_GNUC_INTERNAL
gboolean     gst_vmaf_hip_compare_propose_allocation (GstAggregator * agg,
                                            GstAggregatorPad * pad,
                                            GstQuery * decide_query,
                                            GstQuery * query);

G_GNUC_INTERNAL
void         gst_vmaf_hip_compare_preload_kernels (GstVmafHipCompare * self);

/* gstvmafhipcompareprops.c */
G_GNUC_INTERNAL
void gst_vmaf_hip_compare_install_properties (GObjectClass * gobject_class);

G_GNUC_INTERNAL
void         gst_vmaf_hip_compare_set_property (GObject * object,
                                            guint prop_id,
                                            const GValue * value,
                                            GParamSpec * pspec);

G_GNUC_INTERNAL
void         gst_vmaf_hip_compare_get_property (GObject * object,
                                            guint prop_id, GValue * value,
                                            GParamSpec * pspec);

G_END_DECLS

#endif /* __GST_VMAF_HIP_COMPARE_PRIVATE_H__ */
