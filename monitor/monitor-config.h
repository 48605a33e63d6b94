/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* vmafhip-monitor's configuration: a key file with one [monitor] group
 * (where to listen, defaults for every channel) and one [channel NAME]
 * group per channel. */

#ifndef __MONITOR_CONFIG_H__
#define __MONITOR_CONFIG_H__

#include <glib.h>

G_BEGIN_DECLS

#define MONITOR_DEFAULT_LISTEN "127.0.0.1"
#define MONITOR_DEFAULT_PORT 9580
/* restart-delay and restart-delay-max: the shortest back-off, seconds. */
#define MONITOR_MIN_RESTART_DELAY 0.1
/* min-window: seconds of the sliding minimum, twice a 5 s scrape interval
 * so that no frame falls between two scrapes (one may be late or lost). */
#define MONITOR_DEFAULT_MIN_WINDOW 10.0

typedef struct
{
  gchar *name;                  /* the "channel" label */
  gchar *reference;             /* a URI or a launch-line fragment */
  gchar *distorted;
  gchar *distortion;            /* or the reference through this fragment */
  /* A ladder: the distorted inputs (or distortions), the value of either
   * key split at ';', in the order of the pads dist_sink, dist_sink_1, ...;
   * one for a plain channel. */
  gchar **inputs;
  gchar **labels;               /* one per input of a ladder; NULL: none */
  gchar *model;                 /* vmafhipcompare's model property */
  gchar *features;
  gchar *backend;               /* auto, cpu or hip */
  gint device;                  /* GPU number, -1: any */
  guint threads;
  guint subsample;
  guint latency_ms;             /* extra aggregator latency, live input */
  gdouble restart_delay;        /* seconds before the first restart */
  gdouble restart_delay_max;    /* the back-off stops doubling here */
  gboolean restart_on_eos;      /* a channel that ends is restarted */
  gboolean pace_realtime;       /* sources synchronised to the clock */
  gdouble stall_timeout;        /* no frame for this long: restart; 0: off */

  /* Statistics the monitor keeps from the per-frame values. */
  gchar **histogram_metrics;    /* metrics with a histogram, a sliding
                                 * minimum and below-threshold counts */
  gdouble *histogram_buckets;   /* upper bounds, ascending */
  guint n_histogram_buckets;
  gdouble *thresholds;          /* frames below each are counted */
  guint n_thresholds;
  gdouble min_window;           /* seconds of the sliding minimum */

  /* The element's windows and events, set only when given (and when the
   * element has the property): < 0 or 0 = not given. */
  gdouble low_score_threshold;  /* < 0: not given */
  gint64 low_score_min_frames;  /* 0: not given */
  gdouble black_threshold;      /* luma mean, 8-bit code values; < 0: not
                                 * given */
  gdouble black_spread;         /* luma deviation, the same; < 0: not given */
  gdouble black_min_duration;   /* seconds; < 0: not given */
  gdouble freeze_threshold;     /* luma difference, the same; < 0: not
                                 * given */
  gdouble freeze_min_duration;  /* seconds; < 0: not given */
  gint64 window_frames;         /* 0: not given */
  gchar *align;                 /* timestamps or content; NULL: not given */
  gdouble align_window;         /* seconds; < 0: not given */
} MonitorChannelConfig;

typedef struct
{
  gchar *listen;                /* address to serve /metrics on */
  guint port;                   /* 0: any free port */
  guint max_connections;        /* HTTP connections at once; 0: automatic */
  GPtrArray *channels;          /* MonitorChannelConfig* */
} MonitorConfig;

/* Reads @path. Unknown groups or keys, missing or bad values, duplicate
 * channel names, groups given twice and keys given twice in a group, a
 * channel name that is not UTF-8 and a listen value that is not an IP
 * address fail with a message that names the file, group and key. */
MonitorConfig *monitor_config_load        (const gchar * path,
                                           GError ** error);

void           monitor_config_free        (MonitorConfig * config);

gboolean       monitor_config_listen_is_address (const gchar * listen);

/* NULL-safe (a slot handed over to a reloaded configuration). */
void           monitor_channel_config_free (MonitorChannelConfig * c);

/* Every setting of the two channels is the same (a reload keeps it). */
gboolean       monitor_channel_config_equal (const MonitorChannelConfig * a,
                                             const MonitorChannelConfig * b);

/* Binds (and releases) @listen:@port, as the service will: fails when the
 * address is not this host's. A port taken now is not an error. */
gboolean       monitor_config_try_listen  (const gchar * listen, guint port,
                                           GError ** error);

/* More than one distorted input: the channel is a ladder, its per-frame
 * metrics labelled by pad and label. */
gboolean       monitor_channel_config_is_ladder (const MonitorChannelConfig * c);

/* The element's pad of input @i: dist_sink, dist_sink_1, ... (newly
 * allocated). */
gchar         *monitor_channel_config_pad_name (guint i);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MonitorConfig, monitor_config_free);

G_END_DECLS

#endif /* __MONITOR_CONFIG_H__ */
