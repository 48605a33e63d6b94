/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* One channel: a vmafhipcompare pipeline from a reference and a distorted
 * source, restarted with exponential back-off when it fails, and what it
 * reports gathered for /metrics. Runs on the default main context. */

#ifndef __MONITOR_CHANNEL_H__
#define __MONITOR_CHANNEL_H__

#include <gst/gst.h>

#include "monitor-config.h"
#include "monitor-devices.h"
#include "monitor-events.h"
#include "monitor-scores.h"

G_BEGIN_DECLS

typedef struct _MonitorChannel MonitorChannel;

typedef enum
{
  MONITOR_CHANNEL_STOPPED,      /* not started, or stopped by the service */
  MONITOR_CHANNEL_STARTING,     /* going to PLAYING */
  MONITOR_CHANNEL_PLAYING,
  MONITOR_CHANNEL_RESTARTING,   /* failed or ended; waiting to restart */
  MONITOR_CHANNEL_ENDED,        /* end of stream, not restarted */
} MonitorChannelState;

#define MONITOR_CHANNEL_N_STATES (MONITOR_CHANNEL_ENDED + 1)

/* Frames counted by the element's stats (its "scored", "skipped",
 * "unpaired-reference", ...) over every run since the service started. */
typedef struct
{
  guint64 scored;
  guint64 skipped;              /* left out by subsample */
  guint64 unpaired_reference;
  guint64 unpaired_distorted;
  guint64 dropped_reference;
  guint64 dropped_distorted;
} MonitorFrameCounts;

/* A ladder's rendition (one distorted pad) at one moment: its latest
 * frame, its frame counters and the statistics of its per-frame values. */
typedef struct
{
  gchar *pad;                   /* dist_sink, dist_sink_1, ... */
  gchar *label;                 /* the configured label, else the pad */
  GstStructure *latest;         /* its last "vmaf" message; NULL: none yet */
  gdouble latest_time;          /* Unix seconds */
  MonitorFrameCounts frames;    /* its own pad's (the element's
                                 * "renditions" stats) */
  GPtrArray *scores;            /* MonitorScoreSnapshot* */
  GstStructure *pooled;         /* its stats in the channel's pooled
                                 * "renditions"; NULL: none */
} MonitorRenditionSnapshot;

/* What /metrics shows of a channel at one moment. Counters cover every run
 * since the service started; values are the element's own. */
typedef struct
{
  MonitorChannelState state;
  guint64 restarts;             /* after failures */
  guint64 eos_restarts;         /* after ends of stream (restart-on-eos) */
  guint64 cpu_fallbacks;        /* runs whose GPU failed and that went on on
                                 * the CPU (backend auto) */
  MonitorFrameCounts frames;    /* the element's stats: a ladder's are
                                 * dist_sink's, each rendition has its own */
  GstStructure *latest;         /* the last "vmaf" message; NULL: none yet */
  gdouble latest_time;          /* when it came, Unix seconds */
  GstStructure *pooled;         /* "vmaf-stats" of the current run, or of the
                                 * last one while the current has no frame */
  gchar *dispatch;              /* "adm: hip, vif: cpu": where the features of
                                 * that run go on now (after the element's
                                 * fall-back to the CPU: cpu); NULL: unknown */
  GPtrArray *scores;            /* MonitorScoreSnapshot* of each metric seen:
                                 * histograms, below-threshold counts and
                                 * the sliding minimum; a ladder: empty,
                                 * each rendition has its own */
  GPtrArray *renditions;        /* a ladder: MonitorRenditionSnapshot*, in
                                 * the order of its inputs; else NULL */
  GPtrArray *events;            /* MonitorEventCount* (vmaf-event) */
  guint64 lag_warnings;         /* the element's warnings that scoring fell
                                 * behind real time (its lag-warning) */
  gboolean has_lag;
  gdouble lag;                  /* seconds the latest frame was scored
                                 * behind the pipeline clock (the element's
                                 * "lag", else the monitor's own reading) */
  gboolean has_offset;
  gdouble offset;               /* the element's alignment offset, seconds */
  gboolean has_offset_frames;
  gint64 offset_frames;         /* the same in frames */
  gint align_locked;            /* the last vmaf-align: 1 locked, 0 not,
                                 * -1 none seen */
  GPtrArray *windows;           /* GstStructure*: the last vmaf-window of
                                 * each distorted pad */
} MonitorChannelSnapshot;

MonitorChannel *monitor_channel_new            (const MonitorChannelConfig * config,
                                                MonitorDevices * devices);

void            monitor_channel_free           (MonitorChannel * channel);

const MonitorChannelConfig *monitor_channel_get_config (MonitorChannel * channel);

/* The launch line the channel runs (its element is named "compare").
 * This and monitor_channel_build are in monitor-launch.c. */
gchar          *monitor_channel_describe       (const MonitorChannelConfig * config);

/* Builds the pipeline (for a configuration check); NULL + @error when the
 * launch line does not parse or an element is missing. */
GstElement     *monitor_channel_build          (const MonitorChannelConfig * config,
                                                GError ** error);

/* --check (monitor-check.c, as the next): the files the pipeline reads
 * (file:// URIs, filesrc locations) open for reading. */
gboolean        monitor_channel_check_inputs   (GstElement * pipeline,
                                                GError ** error);

/* --check: the channel's element scores two test frames with its settings
 * (model, features, backend, device): what it refuses only at start. */
gboolean        monitor_channel_check_scoring  (const MonitorChannelConfig * config,
                                                GError ** error);

void            monitor_channel_start          (MonitorChannel * channel);

/* Stops the pipeline for good (service shutdown). */
void            monitor_channel_stop           (MonitorChannel * channel);

void            monitor_channel_snapshot       (MonitorChannel * channel,
                                                MonitorChannelSnapshot * snap);

void            monitor_channel_snapshot_clear (MonitorChannelSnapshot * snap);

/* "stopped", "starting", "playing", "restarting", "ended". */
const gchar    *monitor_channel_state_name     (MonitorChannelState state);

G_END_DECLS

#endif /* __MONITOR_CHANNEL_H__ */
