/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Helpers of the element tests that drive one vmafhipcompare through two
 * GstHarness (one per sink pad) or through videotestsrc pipelines. */

#ifndef __VH_GST_PADS_H__
#define __VH_GST_PADS_H__

#include <gst/check/gstharness.h>

#include "vh-gst-check.h"

G_BEGIN_DECLS

/* Two harnesses on one element. */
typedef struct
{
  GstElement *e;
  GstHarness *ref;
  GstHarness *dist;
  GstBus *bus;
} VhGstPads;

/* A vmafhipcompare with @props (NULL-terminated property, value pairs as
 * strings) and a harness on each sink pad; its bus is kept for messages. */
void         vh_gst_pads_setup (VhGstPads * t, const gchar * const *props);

/* The same raw video caps on both sinks, at 25 frames a second. */
void         vh_gst_pads_caps (VhGstPads * t, GstVideoFormat format,
                               guint width, guint height);

/* Synthetic frame @frame on both sinks (distorted on dist_sink), timed as
 * frame @pts_frame. */
void         vh_gst_pads_push_synth (VhGstPads * t, GstVideoFormat format,
                                     guint width, guint height, guint frame,
                                     guint pts_frame);

/* Sends EOS on both sinks, waits for it on the src pad and returns every
 * message the element posted (free with vh_gst_free_messages()). */
GList       *vh_gst_pads_finish (VhGstPads * t);

void         vh_gst_pads_teardown (VhGstPads * t);

/* The summary's frame counts: the pairs scored, and each side's frames
 * left unpaired and dropped. */
void         vh_gst_assert_summary_counts (const GstStructure * sum,
                                           guint64 scored,
                                           guint64 unpaired_ref,
                                           guint64 unpaired_dist,
                                           guint64 dropped_ref,
                                           guint64 dropped_dist);

void         vh_gst_free_messages (GList * msgs);

/* "videotestsrc num-buffers=@ref_n ! @ref_caps ! c.ref_sink videotestsrc
 * num-buffers=@dist_n pattern=ball ! @dist_caps ! c.dist_sink
 * vmafhipcompare name=c @props ! fakesink". */
gchar       *vh_gst_two_test_sources (const gchar * ref_caps,
                                      const gchar * dist_caps, guint ref_n,
                                      guint dist_n, const gchar * props);

/* Two videotestsrc branches, @frames each, into vmafhipcompare name=c
 * @props; @ref_caps and @dist_caps may be NULL (the source chooses). */
gchar       *vh_gst_test_sources (const gchar * ref_caps,
                                  const gchar * dist_caps, guint frames,
                                  const gchar * props);

/* vh_gst_test_sources() run to its end (two minutes at most). */
GList       *vh_gst_run_test_sources (const gchar * ref_caps,
                                      const gchar * dist_caps, guint frames,
                                      const gchar * props);

G_END_DECLS

#endif /* __VH_GST_PADS_H__ */
