/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "vh-gst-check.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

/* --- Test runner --------------------------------------------------------- */

void
vh_gst_test_init (int *argc, char ***argv)
{
  gst_init (argc, argv);
  g_test_init (argc, argv, NULL);
  g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
}

gboolean
vh_gst_skip_live (void)
{
  if (!g_getenv ("VH_SKIP_LIVE"))
    return FALSE;
  g_test_skip ("VH_SKIP_LIVE is set: no real time here");
  return TRUE;
}

/* --- Temporary files ----------------------------------------------------- */

static gchar *tmp_dir;
static GPtrArray *tmp_files;
static pid_t tmp_owner;

static void
remove_tmp (void)
{
  /* A test that forks: only the process that made the directory cleans up. */
  if (!tmp_dir || getpid () != tmp_owner)
    return;
  for (guint i = 0; i < tmp_files->len; i++)
    g_unlink (g_ptr_array_index (tmp_files, i));
  g_rmdir (tmp_dir);
}

gchar *
vh_gst_tmp_path (const gchar * basename)
{
  static guint counter;
  gchar *path;

  if (!tmp_dir || getpid () != tmp_owner) {
    tmp_dir = g_dir_make_tmp ("vmafhip-gst-XXXXXX", NULL);
    vh_assert_msg (tmp_dir != NULL, "cannot make a temporary directory");
    tmp_files = g_ptr_array_new_with_free_func (g_free);
    tmp_owner = getpid ();
    atexit (remove_tmp);
  }
  path = g_strdup_printf ("%s/%u-%s", tmp_dir, counter++, basename);
  g_ptr_array_add (tmp_files, g_strdup (path));
  return path;
}

void
vh_gst_run_score (const gchar * const *args)
{
  const gchar *score = g_getenv ("VH_SCORE");
  GPtrArray *argv = g_ptr_array_new ();
  gchar *err_text = NULL;
  gint status;
  GError *err = NULL;

  vh_assert_msg (score != NULL, "VH_SCORE names no vmafhip-score");
  g_ptr_array_add (argv, (gpointer) score);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_spawn_sync (NULL, (gchar **) argv->pdata, NULL,
      G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err_text, &status, &err);
  g_assert_no_error (err);
  vh_assert_msg (g_spawn_check_wait_status (status, NULL),
      "vmafhip-score failed: %s", err_text);
  g_free (err_text);
  g_ptr_array_unref (argv);
}

/* --- Golden pairs -------------------------------------------------------- */

const VhGoldenPair *
vh_gst_golden_pair (const gchar * name)
{
  static GPtrArray *pairs;

  if (!pairs)
    pairs = vh_golden_pairs ();
  return vh_golden_pair_find (pairs, name);
}

/* Planar 16-bit 4:2:0 to P016_LE: the luma plane, then U and V
 * interleaved. */
static gchar *
convert_to_p016 (const VhGoldenPair * pair, gboolean ref)
{
  const gchar *src = ref ? pair->ref_path : pair->dist_path;
  gchar *base = g_path_get_basename (src);
  gchar *dst = vh_gst_tmp_path (base);
  guint cw = (pair->width + 1) / 2, ch = (pair->height + 1) / 2;
  gsize ysize = (gsize) pair->width * pair->height * 2;
  gsize csize = (gsize) cw * ch * 2;
  gchar *in = NULL;
  gsize len = 0, frame = ysize + 2 * csize;
  GByteArray *out = g_byte_array_new ();

  vh_assert_msg (g_file_get_contents (src, &in, &len, NULL), "cannot read %s",
      src);
  for (gsize off = 0; off + frame <= len; off += frame) {
    const guint8 *u = (const guint8 *) in + off + ysize;
    const guint8 *v = u + csize;

    g_byte_array_append (out, (const guint8 *) in + off, ysize);
    for (gsize i = 0; i < (gsize) cw * ch; i++) {
      g_byte_array_append (out, u + 2 * i, 2);
      g_byte_array_append (out, v + 2 * i, 2);
    }
  }
  vh_assert_msg (g_file_set_contents (dst, (const gchar *) out->data, out->len,
      NULL), "cannot write %s", dst);
  g_byte_array_unref (out);
  g_free (in);
  g_free (base);
  return dst;
}

gchar *
vh_gst_pair_source (const VhGoldenPair * pair, gboolean ref)
{
  guint w = pair->width, h = pair->height;
  guint bps = pair->bpc > 8 ? 2 : 1;
  guint cw = (w + 1) / 2, ch = (h + 1) / 2;
  gsize ysize = (gsize) w * h * bps;
  gchar *path, *desc;

  if (pair->bpc == 16) {
    path = convert_to_p016 (pair, ref);
    desc = g_strdup_printf ("filesrc location=\"%s\" ! rawvideoparse "
        "width=%u height=%u format=p016-le framerate=25/1 "
        "plane-strides=\"<%u,%u>\" plane-offsets=\"<0,%" G_GSIZE_FORMAT
        ">\" frame-size=%" G_GSIZE_FORMAT, path, w, h, w * 2, cw * 4, ysize,
        ysize + (gsize) cw * ch * 4);
    g_free (path);
    return desc;
  }
  return g_strdup_printf ("filesrc location=\"%s\" ! rawvideoparse "
      "width=%u height=%u format=%s framerate=25/1 "
      "plane-strides=\"<%u,%u,%u>\" plane-offsets=\"<0,%" G_GSIZE_FORMAT
      ",%" G_GSIZE_FORMAT ">\" frame-size=%" G_GSIZE_FORMAT,
      ref ? pair->ref_path : pair->dist_path, w, h,
      pair->bpc == 8 ? "i420" : pair->bpc == 10 ? "i420-10le" : "i420-12le",
      w * bps, cw * bps, cw * bps, ysize, ysize + (gsize) cw * ch * bps,
      ysize + 2 * (gsize) cw * ch * bps);
}

gchar *
vh_gst_pair_pipeline (const VhGoldenPair * pair, const gchar * props,
    const gchar * sink)
{
  gchar *ref = vh_gst_pair_source (pair, TRUE);
  gchar *dist = vh_gst_pair_source (pair, FALSE);
  gchar *desc = g_strdup_printf ("%s ! c.ref_sink %s ! c.dist_sink "
      "vmafhipcompare name=c %s ! %s", ref, dist, props ? props : "",
      sink ? sink : "fakesink");

  g_free (ref);
  g_free (dist);
  return desc;
}

/* --- Running pipelines --------------------------------------------------- */

/* One thread of a gdb backtrace on one line: "thread N: f0 < f1 < ...",
 * its innermost functions first. */
static void
print_condensed_backtrace (const gchar * text)
{
  gchar **lines = g_strsplit (text, "\n", -1);
  GString *line = g_string_new (NULL);
  guint frames = 0;

  for (guint i = 0; lines[i]; i++) {
    const gchar *l = lines[i], *name, *end;

    if (g_str_has_prefix (l, "Thread ")) {
      if (line->len)
        g_printerr ("# %s\n", line->str);
      name = strchr (l, '"');
      end = name ? strchr (name + 1, '"') : NULL;
      g_string_printf (line, "thread %u %.*s:", (guint) g_ascii_strtoull (l +
              7, NULL, 10), (int) (end ? end - name + 1 : 0), name);
      frames = 0;
      continue;
    }
    if (!line->len || l[0] != '#' || frames >= 10)
      continue;
    name = strchr (l, ' ');
    if (!name)
      continue;
    while (*name == ' ')
      name++;
    if (g_str_has_prefix (name, "0x") && strstr (name, " in "))
      name = strstr (name, " in ") + 4;
    end = strchr (name, ' ');
    if (end == name || g_str_has_prefix (name, "??"))
      continue;                 /* a function without symbols */
    g_string_append_printf (line, "%s %.*s", frames ? " <" : "",
        (int) (end ? end - name : (gssize) strlen (name)), name);
    frames++;
  }
  if (line->len)
    g_printerr ("# %s\n", line->str);
  g_string_free (line, TRUE);
  g_strfreev (lines);
}

/* A pipeline that hangs: where each thread of this process waits, from
 * gdb where it is installed, so that a CI log shows the deadlock. */
static void
print_threads (void)
{
  gchar *gdb = g_find_program_in_path ("gdb");
  gchar *pid = g_strdup_printf ("%d", (int) getpid ());
  gchar *out = NULL;
  gchar *argv[] = { gdb, (gchar *) "-nx", (gchar *) "-batch",
    (gchar *) "-p", pid, (gchar *) "-ex", (gchar *) "thread apply all bt",
    NULL
  };

  if (!gdb) {
    g_printerr ("# no gdb: no backtraces of the hanging threads\n");
    g_free (pid);
    return;
  }
#ifdef __linux__
  /* Yama lets only a tracer we name attach to us */
  prctl (PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
#endif
  if (g_spawn_sync (NULL, argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
          &out, NULL, NULL, NULL) && out && strstr (out, "\nThread "))
    print_condensed_backtrace (out);
  else
    g_printerr ("# gdb could not read this process's threads\n");
  g_free (out);
  g_free (pid);
  g_free (gdb);
}

GList *
vh_gst_run (GstElement * pipeline, GstClockTime timeout)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstClockTime deadline = gst_util_get_timestamp () + timeout;
  GQueue q = G_QUEUE_INIT;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  for (;;) {
    GstClockTime now = gst_util_get_timestamp ();
    GstMessage *msg = gst_bus_timed_pop (bus, now < deadline ?
        deadline - now : 0);

    if (!msg)
      print_threads ();
    vh_assert_msg (msg != NULL,
        "the pipeline did not finish within %" GST_TIME_FORMAT,
        GST_TIME_ARGS (timeout));
    g_queue_push_tail (&q, msg);
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS ||
        GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
      break;
  }
  g_assert_true (gst_element_set_state (pipeline, GST_STATE_NULL) ==
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (bus);
  return q.head;
}

GList *
vh_gst_run_launch (const gchar * description, GstClockTime timeout)
{
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (description, &err);
  GList *msgs;

  vh_assert_msg (pipeline != NULL, "cannot parse \"%s\": %s", description,
      err ? err->message : "?");
  g_clear_error (&err);
  msgs = vh_gst_run (pipeline, timeout);
  gst_object_unref (pipeline);
  return msgs;
}

GPtrArray *
vh_gst_structures (GList * msgs, const gchar * name)
{
  GPtrArray *out = g_ptr_array_new ();

  for (GList * l = msgs; l; l = l->next) {
    GstMessage *msg = l->data;
    const GstStructure *s = gst_message_get_structure (msg);

    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT && s &&
        gst_structure_has_name (s, name))
      g_ptr_array_add (out, (gpointer) s);
  }
  return out;
}

guint
vh_gst_count (GList * msgs, const gchar * name)
{
  GPtrArray *all = vh_gst_structures (msgs, name);
  guint n = all->len;

  g_ptr_array_unref (all);
  return n;
}

gint
vh_gst_find_type (GList * msgs, GstMessageType type)
{
  gint i = 0;

  for (GList * l = msgs; l; l = l->next, i++) {
    if (GST_MESSAGE_TYPE (l->data) == type)
      return i;
  }
  return -1;
}

gint
vh_gst_find_element_message (GList * msgs, const gchar * name)
{
  gint i = 0;

  for (GList * l = msgs; l; l = l->next, i++) {
    const GstStructure *s = gst_message_get_structure (l->data);
    if (GST_MESSAGE_TYPE (l->data) == GST_MESSAGE_ELEMENT && s &&
        gst_structure_has_name (s, name))
      return i;
  }
  return -1;
}

GError *
vh_gst_first_error (GList * msgs, GstMessageType type)
{
  for (GList * l = msgs; l; l = l->next) {
    GError *err = NULL;

    if (GST_MESSAGE_TYPE (l->data) != type)
      continue;
    if (type == GST_MESSAGE_ERROR)
      gst_message_parse_error (l->data, &err, NULL);
    else
      gst_message_parse_warning (l->data, &err, NULL);
    return err;
  }
  return NULL;
}

guint
vh_gst_count_warnings (GList * msgs, const gchar * text)
{
  guint n = 0;

  for (GList * l = msgs; l; l = l->next) {
    GError *err = NULL;

    if (GST_MESSAGE_TYPE (l->data) != GST_MESSAGE_WARNING)
      continue;
    gst_message_parse_warning (l->data, &err, NULL);
    n += strstr (err->message, text) != NULL;
    g_error_free (err);
  }
  return n;
}

gdouble
vh_gst_get_double (const GstStructure * s, const gchar * field)
{
  gdouble v = NAN;

  vh_assert_msg (gst_structure_get_double (s, field, &v),
      "no double field %s in %" GST_PTR_FORMAT, field, s);
  return v;
}

guint64
vh_gst_get_uint64 (const GstStructure * s, const gchar * field)
{
  guint64 v = 0;

  vh_assert_msg (gst_structure_get_uint64 (s, field, &v),
      "no guint64 field %s in %" GST_PTR_FORMAT, field, s);
  return v;
}

guint
vh_gst_assert_same_doubles (GPtrArray * a, GPtrArray * b)
{
  guint fewest = G_MAXUINT;

  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++) {
    const GstStructure *sa = g_ptr_array_index (a, i);
    const GstStructure *sb = g_ptr_array_index (b, i);
    guint compared = 0;

    for (gint f = 0; f < gst_structure_n_fields (sa); f++) {
      const gchar *name = gst_structure_nth_field_name (sa, f);
      gdouble va, vb;

      if (!gst_structure_get_double (sa, name, &va))
        continue;
      vh_assert_msg (gst_structure_get_double (sb, name, &vb), "frame %u: "
          "no %s in the second run", i, name);
      vh_assert_msg (va == vb, "frame %u, %s: %.17g != %.17g", i, name, va,
          vb);
      compared++;
    }
    fewest = MIN (fewest, compared);
  }
  return a->len ? fewest : 0;
}

/* --- Comparing with libvmaf ---------------------------------------------- */

guint
vh_gst_compare_frames (const VhGoldenPair * pair, const gchar * file,
    GPtrArray * frames, gdouble tol, gboolean (*skip) (const gchar * metric))
{
  VhGoldenScores *gs = vh_golden_scores_load (pair, file, NULL);
  guint compared = 0;

  if (!gs)
    return 0;
  g_assert_cmpint (frames->len, ==, vh_golden_scores_n_frames (gs));
  for (guint f = 0; f < frames->len; f++) {
    const GstStructure *s = g_ptr_array_index (frames, f);
    const gchar *const *metrics = vh_golden_scores_metrics (gs);

    g_assert_cmpuint (vh_gst_get_uint64 (s, "index"), ==, f);
    for (guint m = 0; metrics[m]; m++) {
      gdouble want, got;

      if ((skip && skip (metrics[m])) ||
          !vh_golden_scores_get (gs, f, metrics[m], &want))
        continue;
      got = vh_gst_get_double (s, metrics[m]);
      vh_assert_msg (fabs (got - want) <= tol,
          "%s/%s frame %u: %s = %.6f, libvmaf %.6f", pair->name, file, f,
          metrics[m], got, want);
      compared++;
    }
  }
  vh_golden_scores_free (gs);
  return compared;
}

static JsonObject *
json_member_object (JsonObject * o, const gchar * name)
{
  vh_assert_msg (json_object_has_member (o, name), "results lack \"%s\"", name);
  return json_object_get_object_member (o, name);
}

guint
vh_gst_compare_results_json (const VhGoldenPair * pair, const gchar * file,
    const gchar * results_path, gdouble tol,
    gboolean (*skip) (const gchar * metric))
{
  static const gchar *methods[] = { "min", "max", "mean", "harmonic_mean" };
  VhGoldenScores *gs = vh_golden_scores_load (pair, file, NULL);
  JsonParser *parser;
  JsonObject *root, *pooled;
  JsonArray *frames;
  GError *err = NULL;
  guint compared = 0;
  const gchar *const *metrics;

  if (!gs)
    return 0;
  parser = json_parser_new ();
  vh_assert_msg (json_parser_load_from_file (parser, results_path, &err),
      "cannot parse %s: %s", results_path, err ? err->message : "?");
  root = json_node_get_object (json_parser_get_root (parser));
  frames = json_object_get_array_member (root, "frames");
  pooled = json_member_object (root, "pooled_metrics");
  metrics = vh_golden_scores_metrics (gs);
  g_assert_cmpint (json_array_get_length (frames), ==,
      vh_golden_scores_n_frames (gs));

  for (guint f = 0; f < json_array_get_length (frames); f++) {
    JsonObject *fo = json_array_get_object_element (frames, f);
    JsonObject *values = json_member_object (fo, "metrics");

    g_assert_cmpint (json_object_get_int_member (fo, "frameNum"), ==, f);
    for (guint m = 0; metrics[m]; m++) {
      gdouble want, got;

      if ((skip && skip (metrics[m])) ||
          !vh_golden_scores_get (gs, f, metrics[m], &want))
        continue;
      vh_assert_msg (json_object_has_member (values, metrics[m]),
          "%s frame %u: %s missing from the results file", pair->name, f,
          metrics[m]);
      got = json_object_get_double_member (values, metrics[m]);
      vh_assert_msg (fabs (got - want) <= tol,
          "%s/%s frame %u: %s = %.6f, libvmaf %.6f", pair->name, file, f,
          metrics[m], got, want);
      compared++;
    }
  }
  for (guint m = 0; metrics[m]; m++) {
    if (skip && skip (metrics[m]))
      continue;
    for (guint k = 0; k < G_N_ELEMENTS (methods); k++) {
      gdouble want, got;

      if (!vh_golden_scores_get_pooled (gs, metrics[m], methods[k], &want))
        continue;
      got = json_object_get_double_member (json_member_object (pooled,
              metrics[m]), methods[k]);
      vh_assert_msg (fabs (got - want) <= tol,
          "%s/%s: pooled %s of %s = %.6f, libvmaf %.6f", pair->name, file,
          methods[k], metrics[m], got, want);
      compared++;
    }
  }
  g_object_unref (parser);
  vh_golden_scores_free (gs);
  return compared;
}

/* --- Synthetic video ----------------------------------------------------- */

static guint32
hash4 (guint a, guint b, guint c, guint d)
{
  guint32 h = a * 73856093u ^ b * 19349663u ^ c * 83492791u ^ d * 2654435761u;

  h ^= h >> 13;
  h *= 0x5bd1e995u;
  h ^= h >> 15;
  return h;
}

guint
vh_gst_synth_sample (guint c, guint x, guint y, guint frame, guint bpc,
    gboolean distort)
{
  guint max = (1u << bpc) - 1;
  gdouble fx = x + frame * 2.0, fy = y + frame * 1.0;
  guint32 h = hash4 (x, y, frame, c);
  gdouble v;

  v = 0.5 + 0.25 * sin (fx * 0.21 + c) * cos (fy * 0.17) +
      0.12 * sin ((fx + fy) * 0.05 + 2.0 * c);
  v += ((h & 0xff) / 255.0 - 0.5) * 0.08;
  if (distort)
    v += (((h >> 8) & 0xff) / 255.0 - 0.5) * 0.12 + 0.03 * sin (fx * 0.9);
  v = CLAMP (v, 0.0, 1.0);
  return (guint) (v * max + 0.5);
}

typedef struct
{
  guint plane;
  guint offset;                 /* in samples */
  guint step;                   /* in samples */
} CompPlace;

/* Where each component lives, from GStreamer's format definitions. */
static void
comp_place (GstVideoFormat format, guint c, CompPlace * p)
{
  p->plane = c;
  p->offset = 0;
  p->step = 1;
  switch (format) {
    case GST_VIDEO_FORMAT_YV12:
      p->plane = c == 0 ? 0 : 3 - c;
      break;
    case GST_VIDEO_FORMAT_NV12:
    case GST_VIDEO_FORMAT_P010_10LE:
    case GST_VIDEO_FORMAT_P016_LE:
      if (c > 0) {
        p->plane = 1;
        p->offset = c - 1;
        p->step = 2;
      }
      break;
    case GST_VIDEO_FORMAT_NV21:
      if (c > 0) {
        p->plane = 1;
        p->offset = 2 - c;
        p->step = 2;
      }
      break;
    default:
      break;
  }
}

GstBuffer *
vh_gst_synth_buffer (GstVideoFormat format, guint width, guint height,
    guint frame, gboolean distort)
{
  const GstVideoFormatInfo *finfo = gst_video_format_get_info (format);
  guint n_comp = GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo);
  guint bpc = GST_VIDEO_FORMAT_INFO_DEPTH (finfo, 0);
  guint bps = bpc > 8 ? 2 : 1;
  guint shift = format == GST_VIDEO_FORMAT_P010_10LE ? 6 : 0;
  GstVideoInfo info;
  GstBuffer *buf;
  GstMapInfo map;

  gst_video_info_set_format (&info, format, width, height);
  buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  memset (map.data, 0, map.size);
  for (guint c = 0; c < n_comp; c++) {
    guint ssx = c ? GST_VIDEO_FORMAT_INFO_W_SUB (finfo, c) : 0;
    guint ssy = c ? GST_VIDEO_FORMAT_INFO_H_SUB (finfo, c) : 0;
    guint cw = (width + (1u << ssx) - 1) >> ssx;
    guint ch = (height + (1u << ssy) - 1) >> ssy;
    CompPlace p;
    guint8 *plane;
    gsize stride;

    comp_place (format, c, &p);
    plane = map.data + GST_VIDEO_INFO_PLANE_OFFSET (&info, p.plane);
    stride = GST_VIDEO_INFO_PLANE_STRIDE (&info, p.plane);
    for (guint y = 0; y < ch; y++) {
      for (guint x = 0; x < cw; x++) {
        guint v = vh_gst_synth_sample (c, x, y, frame, bpc, distort);
        guint8 *d = plane + y * stride + ((gsize) x * p.step + p.offset) * bps;

        if (bps == 1)
          *d = v;
        else
          GST_WRITE_UINT16_LE (d, v << shift);
      }
    }
  }
  gst_buffer_unmap (buf, &map);
  GST_BUFFER_PTS (buf) = frame * 40 * GST_MSECOND;
  GST_BUFFER_DURATION (buf) = 40 * GST_MSECOND;
  return buf;
}
