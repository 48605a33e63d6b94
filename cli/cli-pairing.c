/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* vmafhip-score's pairing of frames: frame rates and --align. */

#include "cli-pairing.h"
#include "align.h"
#include "errors.h"
#include "video-reader.h"
#include "y4m.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* --align_window's default: 10 s at 25 fps. */
#define DEFAULT_ALIGN_WINDOW 250

gboolean
vh_cli_y4m_frame_rate (const gchar * path, guint * num, guint * den)
{
  GStatBuf st;
  gchar line[1024] = "";
  g_auto (GStrv) tokens = NULL;
  FILE *file;
  gboolean found = FALSE;

  /* A pipe cannot be read twice: its rate is not known here. */
  if (g_stat (path, &st) != 0 || !S_ISREG (st.st_mode))
    return FALSE;
  file = g_fopen (path, "rb");
  if (!file)
    return FALSE;
  if (!fgets (line, sizeof (line), file))
    line[0] = '\0';
  fclose (file);
  if (!g_str_has_prefix (line, VH_Y4M_SIGNATURE " "))
    return FALSE;
  g_strchomp (line);
  tokens = g_strsplit (line, " ", -1);
  for (guint i = 1; tokens[i] && !found; i++) {
    guint64 n, d;
    gchar **parts;

    if (tokens[i][0] != 'F')
      continue;
    parts = g_strsplit (tokens[i] + 1, ":", 2);
    found = parts[0] && parts[1] &&
        g_ascii_string_to_unsigned (parts[0], 10, 1, G_MAXUINT32, &n, NULL)
        && g_ascii_string_to_unsigned (parts[1], 10, 1, G_MAXUINT32, &d,
        NULL);
    g_strfreev (parts);
    if (found) {
      *num = (guint) n;
      *den = (guint) d;
    }
  }
  return found;
}

/* Frame-rate steps: 1 and 1 for equal rates (or a rate not known), k for
 * the input k times faster. */
static gboolean
decide_steps (VhCliPairing * p, const VhCliSettings * s,
    const gchar * dist_path, GError ** error)
{
  guint rn, rd, dn, dd;
  guint64 ref_rate, dist_rate;  /* cross-multiplied: comparable */

  p->ref_step = p->dist_step = 1;
  if (!vh_cli_y4m_frame_rate (s->ref_path, &rn, &rd) ||
      !vh_cli_y4m_frame_rate (dist_path, &dn, &dd))
    return TRUE;
  ref_rate = (guint64) rn * dd;
  dist_rate = (guint64) dn * rd;
  if (ref_rate == dist_rate)
    return TRUE;
  if (ref_rate % dist_rate == 0) {
    p->ref_step = (guint) (ref_rate / dist_rate);
  } else if (dist_rate % ref_rate == 0) {
    p->dist_step = (guint) (dist_rate / ref_rate);
  } else {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "frame rates differ: the reference is %.6g fps (F%u:%u) and the "
        "distorted %.6g fps (F%u:%u), and neither is a whole multiple of "
        "the other, so frames cannot be paired; convert one to the "
        "other's rate first, e.g. ffmpeg -i \"%s\" -vf fps=%u/%u "
        "-f yuv4mpegpipe converted.y4m", (gdouble) rn / rd, rn, rd,
        (gdouble) dn / dd, dn, dd, dist_path, rn, rd);
    return FALSE;
  }
  /* with several -d, which one */
  if (!s->quiet)
    g_printerr ("vmafhip-score: %s%sframe rates differ: the reference is "
        "%.6g fps and the distorted %.6g fps; every %s frame of the %s is "
        "scored\n", vh_cli_settings_n_dist (s) > 1 ? dist_path : "",
        vh_cli_settings_n_dist (s) > 1 ? ": " : "", (gdouble) rn / rd,
        (gdouble) dn / dd,
        p->ref_step == 2 ? "second" : p->ref_step == 3 ? "third" :
        p->dist_step == 2 ? "second" : p->dist_step == 3 ? "third" :
        "k-th", p->ref_step > 1 ? "reference" : "distorted");
  return TRUE;
}

/* Unmatched frames of one input, as ranges of one reason. */
typedef struct
{
  guint64 first, last;
  VhAlignReason reason;
} Unmatched;

typedef struct
{
  GArray *ranges;               /* Unmatched */
  guint counts[VH_ALIGN_REASON_ENDED + 1];
} UnmatchedList;

static void
unmatched_add (UnmatchedList * l, guint64 frame, VhAlignReason reason)
{
  Unmatched *last = l->ranges->len ? &g_array_index (l->ranges, Unmatched,
      l->ranges->len - 1) : NULL;

  l->counts[reason]++;
  if (last && last->reason == reason && last->last + 1 == frame) {
    last->last = frame;
  } else {
    Unmatched u = { frame, frame, reason };
    g_array_append_val (l->ranges, u);
  }
}

typedef struct
{
  guint64 dist;                 /* file frame number */
  gint64 offset;
  VhAlignDecisionType type;
  VhAlignReason reason;
} LockEvent;

typedef struct
{
  VhCliPairing *p;
  UnmatchedList ref, dist;
  GArray *events;               /* LockEvent */
} Collected;

static void
collect (VhAlign * align, Collected * c)
{
  VhAlignDecision d;
  guint rs = c->p->ref_step, ds = c->p->dist_step;

  while (vh_align_pop (align, &d)) {
    switch (d.type) {
      case VH_ALIGN_PAIR:{
        VhCliPair pair = { d.ref * rs, d.dist * ds };
        g_array_append_val (c->p->pairs, pair);
        break;
      }
      case VH_ALIGN_REF_UNMATCHED:
        unmatched_add (&c->ref, d.ref * rs, d.reason);
        break;
      case VH_ALIGN_DIST_UNMATCHED:
        unmatched_add (&c->dist, d.dist * ds, d.reason);
        break;
      default:{
        LockEvent e = { d.dist * ds, d.offset, d.type, d.reason };
        g_array_append_val (c->events, e);
        break;
      }
    }
  }
}

/* Reads and drops @n frames (--frame_skip_*). */
static gboolean
skip (VhVideoReader * reader, gint n, GError ** error)
{
  for (gint i = 0; i < n; i++) {
    VhPicture *pic = vh_video_reader_read (reader, error);
    if (!pic)
      return !(error && *error);
    vh_picture_unref (pic);
  }
  return TRUE;
}

/* The next frame of @reader that the engine sees (every @step-th) as a
 * signature; FALSE at the end, with @error set on a read error. */
static gboolean
next_signature (VhVideoReader * reader, guint step, VhAlignSignature * sig,
    gboolean * ended, GError ** error)
{
  for (guint k = 0; k < step; k++) {
    g_autoptr (VhPicture) pic = vh_video_reader_read (reader, error);

    if (!pic) {
      *ended = TRUE;
      return FALSE;
    }
    if (k == 0 && !vh_align_signature_compute (pic, sig, error))
      return FALSE;
  }
  return TRUE;
}

/* --align: @path must be a regular file. */
static gboolean
check_regular (const gchar * path, GError ** error)
{
  GStatBuf st;

  if (g_stat (path, &st) == 0 && S_ISREG (st.st_mode))
    return TRUE;
  g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
      "--align reads its inputs twice (once to align them, once to "
      "score), and \"%s\" is no regular file: write it to a file first",
      path);
  return FALSE;
}

gboolean
vh_cli_pairing_check_inputs (const VhCliSettings * s, GError ** error)
{
  if (!s->align)
    return TRUE;
  if (!check_regular (s->ref_path, error))
    return FALSE;
  for (guint i = 0; s->dist_paths && s->dist_paths[i]; i++) {
    if (!check_regular (s->dist_paths[i], error))
      return FALSE;
  }
  return TRUE;
}

static VhVideoReader *
open_for_signatures (const gchar * path, const VhPictureInfo * raw,
    gint n_skip, GError ** error)
{
  VhVideoReader *reader;

  reader = vh_video_reader_open (path, raw, error);
  if (!reader)
    return NULL;
  vh_video_reader_set_luma_only (reader, TRUE);
  if (!skip (reader, n_skip, error)) {
    vh_video_reader_free (reader);
    return NULL;
  }
  return reader;
}

static void
append_ranges (GString * text, GString * json, const UnmatchedList * l,
    const gchar * what)
{
  guint total = 0;

  g_string_append_printf (json, ", \"%s_unmatched\": [", what);
  for (guint i = 0; i < l->ranges->len; i++) {
    const Unmatched *u = &g_array_index (l->ranges, Unmatched, i);
    g_string_append_printf (json, "%s{\"first\": %" G_GUINT64_FORMAT
        ", \"last\": %" G_GUINT64_FORMAT ", \"reason\": \"%s\"}",
        i ? ", " : "", u->first, u->last,
        vh_align_reason_to_string (u->reason));
  }
  g_string_append_printf (json, "], \"%s_unmatched_counts\": {", what);
  for (guint r = 0; r < G_N_ELEMENTS (l->counts); r++) {
    if (!l->counts[r])
      continue;
    g_string_append_printf (json, "%s\"%s\": %u", total ? ", " : "",
        vh_align_reason_to_string (r), l->counts[r]);
    g_string_append_printf (text, "%s%u %s", total ? ", " :
        what[0] == 'r' ? "; reference frames unscored: " :
        "; distorted frames unscored: ", l->counts[r],
        vh_align_reason_to_string (r));
    total += l->counts[r];
  }
  g_string_append (json, "}");
  /* Which frames, for a few ranges. */
  if (total) {
    g_string_append (text, " (");
    for (guint i = 0; i < MIN (l->ranges->len, 6); i++) {
      const Unmatched *u = &g_array_index (l->ranges, Unmatched, i);
      if (u->first == u->last)
        g_string_append_printf (text, "%s%" G_GUINT64_FORMAT, i ? ", " : "",
            u->first);
      else
        g_string_append_printf (text, "%s%" G_GUINT64_FORMAT "-%"
            G_GUINT64_FORMAT, i ? ", " : "", u->first, u->last);
    }
    g_string_append (text, l->ranges->len > 6 ? ", ...)" : ")");
  }
}

static void
describe (Collected * c, guint window)
{
  GString *text = g_string_new (NULL), *json = g_string_new (NULL);

  g_string_append_printf (text, "aligned by content: %u pairs",
      c->p->pairs->len);
  g_string_append_printf (json, "{\"mode\": \"content\", \"window\": %u, "
      "\"pairs\": %u, \"offsets\": [", window, c->p->pairs->len);
  for (guint i = 0; i < c->events->len; i++) {
    const LockEvent *e = &g_array_index (c->events, LockEvent, i);
    const gchar *type = vh_align_decision_type_to_string (e->type);

    g_string_append_printf (json, "%s{\"distorted\": %" G_GUINT64_FORMAT
        ", \"event\": \"%s\"", i ? ", " : "", e->dist, type);
    if (e->type == VH_ALIGN_LOST) {
      g_string_append_printf (json, ", \"reason\": \"%s\"}",
          vh_align_reason_to_string (e->reason));
      g_string_append_printf (text, "; lost at distorted frame %"
          G_GUINT64_FORMAT " (%s)", e->dist,
          vh_align_reason_to_string (e->reason));
    } else {
      g_string_append_printf (json, ", \"offset\": %" G_GINT64_FORMAT "}",
          e->offset);
      g_string_append_printf (text, "; offset %+" G_GINT64_FORMAT
          " from distorted frame %" G_GUINT64_FORMAT, e->offset, e->dist);
    }
  }
  g_string_append (json, "]");
  if (c->events->len == 0)
    g_string_append (text, "; never locked: no offset fits clearly (still, "
        "flat or repetitive content, or no common frames within the "
        "window)");
  append_ranges (text, json, &c->ref, "reference");
  append_ranges (text, json, &c->dist, "distorted");
  g_string_append (json, "}");
  c->p->summary = g_string_free (text, FALSE);
  c->p->log_text = g_strdup (c->p->summary);
  c->p->log_json = g_string_free (json, FALSE);
}

static gboolean
align_files (VhCliPairing * p, const VhCliSettings * s,
    const gchar * dist_path, const VhPictureInfo * raw,
    const VhPictureInfo * dist_raw, GError ** error)
{
  g_autoptr (VhVideoReader) ref = NULL;
  g_autoptr (VhVideoReader) dist = NULL;
  g_autoptr (VhAlign) align = NULL;
  VhAlignConfig config;
  Collected c = { p };
  gboolean ref_ended = FALSE, dist_ended = FALSE, ok = TRUE;
  guint window = s->align_window > 0 ? (guint) s->align_window :
      DEFAULT_ALIGN_WINDOW;

  ref = open_for_signatures (s->ref_path, raw, s->frame_skip_ref, error);
  if (!ref)
    return FALSE;
  dist = open_for_signatures (dist_path, dist_raw, s->frame_skip_dist,
      error);
  if (!dist)
    return FALSE;

  vh_align_config_init (&config, window);
  align = vh_align_new (&config);
  p->pairs = g_array_new (FALSE, FALSE, sizeof (VhCliPair));
  c.ref.ranges = g_array_new (FALSE, FALSE, sizeof (Unmatched));
  c.dist.ranges = g_array_new (FALSE, FALSE, sizeof (Unmatched));
  c.events = g_array_new (FALSE, FALSE, sizeof (LockEvent));

  while (ok && (!ref_ended || !dist_ended)) {
    VhAlignSignature sig;

    if (!ref_ended) {
      if (next_signature (ref, p->ref_step, &sig, &ref_ended, error))
        vh_align_push_reference (align, &sig);
      else if (error && *error)
        ok = FALSE;
      else
        vh_align_end_reference (align);
    }
    if (ok && !dist_ended) {
      if (next_signature (dist, p->dist_step, &sig, &dist_ended, error))
        vh_align_push_distorted (align, &sig);
      else if (error && *error)
        ok = FALSE;
      else
        vh_align_end_distorted (align);
    }
    collect (align, &c);
  }
  if (ok)
    describe (&c, window);
  g_array_unref (c.ref.ranges);
  g_array_unref (c.dist.ranges);
  g_array_unref (c.events);
  return ok;
}

gboolean
vh_cli_pairing_init (VhCliPairing * p, const VhCliSettings * s,
    const gchar * dist_path, const VhPictureInfo * raw,
    const VhPictureInfo * dist_raw, GError ** error)
{
  memset (p, 0, sizeof (*p));
  if (!decide_steps (p, s, dist_path, error))
    return FALSE;
  if (s->align && !align_files (p, s, dist_path, raw, dist_raw, error)) {
    g_prefix_error (error, "--align: ");
    return FALSE;
  }
  return TRUE;
}

gboolean
vh_cli_pairing_next (VhCliPairing * p, guint n_scored, guint64 * ref,
    guint64 * dist)
{
  if (p->pairs) {
    VhCliPair *pair;

    if (p->next >= p->pairs->len)
      return FALSE;
    pair = &g_array_index (p->pairs, VhCliPair, p->next);
    p->next++;
    *ref = pair->ref;
    *dist = pair->dist;
    return TRUE;
  }
  *ref = (guint64) n_scored * p->ref_step;
  *dist = (guint64) n_scored * p->dist_step;
  return TRUE;
}

void
vh_cli_pairing_clear (VhCliPairing * p)
{
  if (p->pairs)
    g_array_unref (p->pairs);
  g_free (p->summary);
  g_free (p->log_text);
  g_free (p->log_json);
  memset (p, 0, sizeof (*p));
}
