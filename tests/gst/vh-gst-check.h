/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Shared helpers of the vmafhipcompare element tests (GLib's g_test). */

#ifndef __VH_GST_CHECK_H__
#define __VH_GST_CHECK_H__

#include <gst/gst.h>
#include <gst/video/video.h>

#include "golden.h"

G_BEGIN_DECLS

/* --- Test runner --------------------------------------------------------- */

/* Fails the running test when @cond is false, with a printf-style message
 * that may use GStreamer's GST_PTR_FORMAT and GST_TIME_FORMAT. */
#define vh_assert_msg(cond, ...)                                          \
  G_STMT_START {                                                          \
    if (G_UNLIKELY (!(cond))) {                                           \
      gchar *vh_msg_ = gst_info_strdup_printf (__VA_ARGS__);              \
      g_assertion_message (G_LOG_DOMAIN, __FILE__, __LINE__, G_STRFUNC,   \
          vh_msg_);                                                       \
      g_free (vh_msg_);                                                   \
    }                                                                     \
  } G_STMT_END

/* Skips the running test (and returns) when @pair is missing: the small
 * golden subset may lack it. */
#define VH_SKIP_WITHOUT(pair)                                             \
  G_STMT_START {                                                          \
    if (!(pair)) {                                                        \
      g_test_skip ("golden pair missing");                                \
      return;                                                             \
    }                                                                     \
  } G_STMT_END

/* gst_init() and g_test_init(), and GLib warnings and criticals made fatal
 * so that a test fails on them. */
void         vh_gst_test_init (int *argc, char ***argv);

/* TRUE, with the running test marked skipped, where VH_SKIP_LIVE is set
 * (the gstvalgrind setup: valgrind cannot keep real time). */
gboolean     vh_gst_skip_live (void);

/* --- Golden pairs through rawvideoparse --------------------------------- */

/* The golden pair called @name, or NULL (the test is then skipped by the
 * caller: the small subset may lack it). Owned by the helper. */
const VhGoldenPair *vh_gst_golden_pair (const gchar * name);

/* A launch-line fragment that reads one side of @pair as raw video:
 * "filesrc location=... ! rawvideoparse ...". 16-bit 4:2:0 clips, which
 * GStreamer has no planar format for, are first rewritten as P016_LE in a
 * temporary directory removed at exit. */
gchar       *vh_gst_pair_source (const VhGoldenPair * pair, gboolean ref);

/* "<ref source> ! c.ref_sink <dist source> ! c.dist_sink vmafhipcompare
 * name=c <props> ! <sink>" (@sink NULL: fakesink). */
gchar       *vh_gst_pair_pipeline (const VhGoldenPair * pair,
                                   const gchar * props, const gchar * sink);

/* A fresh temporary file name (the directory goes at exit). */
gchar       *vh_gst_tmp_path (const gchar * basename);

/* Runs vmafhip-score (the VH_SCORE environment variable) with @args
 * (NULL-terminated); fails the test, with its stderr, unless it exits 0. */
void         vh_gst_run_score (const gchar * const *args);

/* --- Running pipelines --------------------------------------------------- */

/* Sets @pipeline to PLAYING and gathers every bus message, in order, until
 * EOS or an error, or until @timeout (fails the test). Sets it to NULL
 * before returning. Free with g_list_free_full (list, gst_message_unref). */
GList       *vh_gst_run (GstElement * pipeline, GstClockTime timeout);

/* gst_parse_launch() + vh_gst_run() + unref. */
GList       *vh_gst_run_launch (const gchar * description,
                                GstClockTime timeout);

/* The structures of the element messages named @name, in order (borrowed
 * from @msgs). */
GPtrArray   *vh_gst_structures (GList * msgs, const gchar * name);

/* How many element messages named @name @msgs holds. */
guint        vh_gst_count (GList * msgs, const gchar * name);

/* Position of the first message of @type in @msgs, or -1. */
gint         vh_gst_find_type (GList * msgs, GstMessageType type);

/* Position in @msgs of the element message named @name, or -1. */
gint         vh_gst_find_element_message (GList * msgs, const gchar * name);

/* The first error (or warning) message's GError, or NULL. */
GError      *vh_gst_first_error (GList * msgs, GstMessageType type);

/* How many warning messages in @msgs have @text in their message. */
guint        vh_gst_count_warnings (GList * msgs, const gchar * text);

gdouble      vh_gst_get_double (const GstStructure * s, const gchar * field);

guint64      vh_gst_get_uint64 (const GstStructure * s, const gchar * field);

/* Frame by frame, every double field of @a's structures is in @b's and
 * equal (bit for bit); the arrays hold as many. Returns the fewest doubles
 * compared in one frame, for the caller to check the comparison had
 * something to compare. */
guint        vh_gst_assert_same_doubles (GPtrArray * a, GPtrArray * b);

/* --- Comparing with libvmaf ---------------------------------------------- */

/* Checks every per-frame metric of the golden log @file against the "vmaf"
 * messages @frames (frame n = the message with index n) within @tol, and
 * returns how many values were compared. Metrics for which @skip returns
 * TRUE are left out. */
guint        vh_gst_compare_frames (const VhGoldenPair * pair,
                                    const gchar * file, GPtrArray * frames,
                                    gdouble tol,
                                    gboolean (*skip) (const gchar * metric));

/* Same against a JSON results file; also checks the pooled values. */
guint        vh_gst_compare_results_json (const VhGoldenPair * pair,
                                          const gchar * file,
                                          const gchar * results_path,
                                          gdouble tol,
                                          gboolean (*skip) (const gchar *
                                              metric));

/* --- Synthetic video ----------------------------------------------------- */

/* Sample (@c, @x, @y) of synthetic frame @frame, @bpc bits, textured and
 * moving; @distort adds noise. The same numbers for every layout. */
guint        vh_gst_synth_sample (guint c, guint x, guint y, guint frame,
                                  guint bpc, gboolean distort);

/* A buffer of @format, @width x @height, holding synthetic frame @frame,
 * packed by hand from GStreamer's format definitions (not with the code
 * under test). PTS frame * 40 ms, duration 40 ms. */
GstBuffer   *vh_gst_synth_buffer (GstVideoFormat format, guint width,
                                  guint height, guint frame,
                                  gboolean distort);

G_END_DECLS

#endif /* __VH_GST_CHECK_H__ */
