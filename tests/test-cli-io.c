/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* vmafhip-score's input and output streams: pipes and FIFOs, output paths
 * such as /dev/stdout, and SIGTERM keeping the frames scored so far. */

#include "cli-test.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <stdlib.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct
{
  const gchar *fifo;
  const gchar *data;
  gsize len;
} FifoFeed;

/* Opening for writing waits for the reader; closing ends its input. */
static gpointer
feed_fifo (gpointer data)
{
  FifoFeed *f = data;
  gint fd = open (f->fifo, O_WRONLY);

  g_assert_cmpint (fd, >=, 0);
  if (f->len)
    g_assert_cmpint (write (fd, f->data, f->len), ==, (gssize) f->len);
  close (fd);
  return NULL;
}

/* Raw frames through a pipe score as from the file (the bytes read to
 * tell Y4M from raw are put back: they were lost, shifting every frame),
 * a pipe that closes at once is said to be empty, and Y4M from a pipe is
 * told by its header. */
void
test_pipes (void)
{
  g_autofree gchar *y4m = write_y4m ("pipe.y4m", 64, 64, 8, 3);
  g_autofree gchar *raw = g_build_filename (tmpdir, "pipe.yuv", NULL);
  g_autofree gchar *fifo = g_build_filename (tmpdir, "raw-fifo", NULL);
  g_autofree gchar *from_file = g_build_filename (tmpdir, "file.csv", NULL);
  g_autofree gchar *from_pipe = g_build_filename (tmpdir, "pipe.csv", NULL);
  g_autofree gchar *data = NULL, *a = NULL, *b = NULL;
  gsize header, frame = 64 * 64 * 3 / 2;
  GString *frames_only = g_string_new (NULL);
  const gchar *is_empty[] = { "raw-fifo is empty", NULL };
  FifoFeed feed;
  GThread *thread;
  gsize len;
  Result r;

  /* The raw file is the Y4M file without its header and FRAME lines. */
  g_assert_true (g_file_get_contents (y4m, &data, &len, NULL));
  header = strchr (data, '\n') - data + 1;
  for (guint i = 0; i < 3; i++)
    g_string_append_len (frames_only, data + header + i * (6 + frame) + 6,
        frame);
  g_assert_true (g_file_set_contents (raw, frames_only->str,
          frames_only->len, NULL));
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  feed = (FifoFeed) { fifo, frames_only->str, frames_only->len };
  thread = g_thread_new ("feed", feed_fifo, &feed);
  r = run_score ("-r", raw, "-d", fifo, "-w", "64", "-h", "64", "-p", "420",
      "-b", "8", "-q", "--feature", "psnr", "--csv", "-o", from_pipe, NULL);
  g_thread_join (thread);
  g_assert_true (exited_with (&r, 0));
  result_clear (&r);
  r = run_score ("-r", raw, "-d", raw, "-w", "64", "-h", "64", "-p", "420",
      "-b", "8", "-q", "--feature", "psnr", "--csv", "-o", from_file, NULL);
  g_assert_true (exited_with (&r, 0));
  result_clear (&r);
  g_assert_true (g_file_get_contents (from_pipe, &a, NULL, NULL));
  g_assert_true (g_file_get_contents (from_file, &b, NULL, NULL));
  g_assert_nonnull (strstr (a, "\n2,"));
  g_assert_cmpstr (a, ==, b);

  feed = (FifoFeed) { fifo, NULL, 0 };
  thread = g_thread_new ("feed", feed_fifo, &feed);
  r = run_score ("-r", fifo, "-d", raw, "-w", "64", "-h", "64", "-p", "420",
      "-b", "8", "-q", NULL);
  g_thread_join (thread);
  expect_error (r, is_empty);
  g_string_free (frames_only, TRUE);

  /* Y4M through a pipe whose name says nothing (as from ffmpeg through
   * "-d <(ffmpeg ... -f yuv4mpegpipe -)"): told by its header, with no
   * geometry options, and scored as the file is. */
  feed = (FifoFeed) { fifo, data, len };
  thread = g_thread_new ("feed", feed_fifo, &feed);
  r = run_score ("-r", y4m, "-d", fifo, "-q", "--feature", "psnr", "--csv",
      "-o", from_pipe, NULL);
  g_thread_join (thread);
  g_assert_true (exited_with (&r, 0));
  result_clear (&r);
  g_free (a);
  a = NULL;
  g_assert_true (g_file_get_contents (from_pipe, &a, NULL, NULL));
  g_assert_cmpstr (a, ==, b);
}

/* Runs vmafhip-score with @path on its standard input: through a pipe
 * (cat PATH | vmafhip-score ...) when @pipe, else redirected from the
 * file. Arguments up to NULL. */
static Result
run_score_fed (const gchar * path, gboolean pipe, const gchar * first, ...)
{
  g_autofree gchar *quoted_path = g_shell_quote (path);
  g_autofree gchar *score = g_shell_quote (g_getenv ("VH_SCORE"));
  GString *cmd = g_string_new (NULL);
  const gchar *argv[] = { "/bin/sh", "-c", NULL, NULL };
  GError *error = NULL;
  Result r = { 0 };
  va_list ap;

  if (pipe)
    g_string_append_printf (cmd, "cat %s | %s", quoted_path, score);
  else
    g_string_append_printf (cmd, "exec %s", score);
  va_start (ap, first);
  for (const gchar * a = first; a; a = va_arg (ap, const gchar *)) {
    g_autofree gchar *q = g_shell_quote (a);
    g_string_append_printf (cmd, " %s", q);
  }
  va_end (ap);
  if (!pipe)
    g_string_append_printf (cmd, " < %s", quoted_path);
  argv[2] = cmd->str;
  g_assert_true (g_spawn_sync (NULL, (gchar **) argv, NULL, 0, NULL, NULL,
          &r.out, &r.err, &r.status, &error));
  g_assert_no_error (error);
  g_string_free (cmd, TRUE);
  return r;
}

/* The standard input, as "/dev/stdin" or "-", from a pipe (never seeked:
 * the bytes read to tell Y4M are pushed back) or redirected from a file:
 * Y4M told by its header scores as the file does; raw bytes on it still
 * need -w -h -p -b and say so; one standard input cannot feed both
 * inputs. */
void
test_stdin (void)
{
  g_autofree gchar *y4m = write_y4m ("stdin.y4m", 64, 64, 8, 4);
  g_autofree gchar *dist = write_y4m ("stdin-dist.y4m", 64, 64, 8, 4);
  g_autofree gchar *raw = g_build_filename (tmpdir, "stdin.yuv", NULL);
  g_autofree gchar *expected_path = g_build_filename (tmpdir,
      "stdin-file.csv", NULL);
  g_autofree gchar *got_path = g_build_filename (tmpdir, "stdin-fed.csv",
      NULL);
  g_autofree gchar *expected = NULL;
  const gchar *raw_needs[] = { "no Y4M header", "-w, -h, -p and -b", NULL };
  const gchar *twice[] = { "standard input", "both", NULL };
  const gchar *names[] = { "/dev/stdin", "-" };
  Result r;

  /* A distorted different from the reference, so that a frame read a few
   * bytes off would change the scores. */
  {
    g_autofree gchar *data = NULL;
    gsize len;

    gsize header, frame = 64 * 64 * 3 / 2;
    GString *samples = g_string_new (NULL);

    g_assert_true (g_file_get_contents (dist, &data, &len, NULL));
    header = strchr (data, '\n') - data + 1;
    for (guint f = 0; f < 4; f++) {
      gchar *first = data + header + f * (6 + frame) + 6;

      for (gsize i = 0; i < frame; i += 5)
        first[i] ^= 0x1f;
      g_string_append_len (samples, first, frame);
    }
    g_assert_true (g_file_set_contents (dist, data, len, NULL));
    g_assert_true (g_file_set_contents (raw, samples->str, samples->len,
            NULL));
    g_string_free (samples, TRUE);
  }
  r = run_score ("-r", y4m, "-d", dist, "-q", "--feature", "psnr", "--csv",
      "-o", expected_path, NULL);
  g_assert_true (exited_with (&r, 0));
  result_clear (&r);
  g_assert_true (g_file_get_contents (expected_path, &expected, NULL, NULL));
  g_assert_nonnull (strstr (expected, "\n3,"));

  for (guint n = 0; n < G_N_ELEMENTS (names); n++) {
    for (gint pipe = 0; pipe < 2; pipe++) {
      g_autofree gchar *got = NULL;

      g_remove (got_path);
      r = run_score_fed (dist, pipe, "-r", y4m, "-d", names[n], "-q",
          "--feature", "psnr", "--csv", "-o", got_path, NULL);
      if (!exited_with (&r, 0))
        g_error ("-d %s (%s): status %d: %s", names[n], pipe ? "pipe" :
            "file", r.status, r.err);
      result_clear (&r);
      g_assert_true (g_file_get_contents (got_path, &got, NULL, NULL));
      g_assert_cmpstr (got, ==, expected);
    }
  }
  /* The reference on the standard input works the same. */
  {
    g_autofree gchar *got = NULL;

    g_remove (got_path);
    r = run_score_fed (y4m, TRUE, "-r", "-", "-d", dist, "-q", "--feature",
        "psnr", "--csv", "-o", got_path, NULL);
    g_assert_true (exited_with (&r, 0));
    result_clear (&r);
    g_assert_true (g_file_get_contents (got_path, &got, NULL, NULL));
    g_assert_cmpstr (got, ==, expected);
  }
  expect_error (run_score_fed (raw, TRUE, "-r", y4m, "-d", "-", "-q", NULL),
      raw_needs);
  expect_error (run_score_fed (y4m, TRUE, "-r", "-", "-d", "/dev/stdin",
          "-q", NULL), twice);
}

/* Output paths as libvmaf's tool takes them: /dev/stdout (here a pipe to
 * the test) gets exactly one complete JSON log, /dev/null takes it, and a
 * FIFO that nobody reads is an error at once instead of a hang. */
void
test_output_streams (void)
{
  g_autofree gchar *a = write_y4m ("streams.y4m", 64, 64, 8, 3);
  g_autofree gchar *fifo = g_build_filename (tmpdir, "unread-fifo", NULL);
  const gchar *no_reader[] = { "unread-fifo", "no reader", NULL };
  JsonParser *parser = json_parser_new ();
  GError *error = NULL;
  JsonObject *root;
  gint64 start;
  Result r;

  r = run_score ("-r", a, "-d", a, "--feature", "psnr", "--json", "-o",
      "/dev/stdout", "-q", NULL);
  g_assert_true (exited_with (&r, 0));
  g_assert_true (json_parser_load_from_data (parser, r.out, -1, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member
          (root, "frames")), ==, 3);
  g_assert_true (json_object_has_member (json_object_get_object_member (root,
              "pooled_metrics"), "psnr_y"));
  result_clear (&r);
  g_object_unref (parser);

  /* Without -q too: off a terminal a run prints nothing, and a machine
   * without a GPU is no notice worth (it goes to the info log). */
  r = run_score ("-r", a, "-d", a, "--json", "-o", "/dev/null", NULL);
  g_assert_true (exited_with (&r, 0));
  g_assert_null (strstr (r.err, "no usable GPU"));
  if (!g_getenv ("G_MESSAGES_DEBUG"))
    g_assert_cmpstr (r.err, ==, "");
  result_clear (&r);

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  start = g_get_monotonic_time ();
  expect_error (run_score ("-r", a, "-d", a, "--json", "-o", fifo, "-q",
          NULL), no_reader);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);
}

/* SIGTERM halfway: the frames scored until then are in a valid results
 * file, and the message says so. The input comes through pipes so that
 * the run is halfway for as long as the test wants. */
void
test_sigterm_keeps_results (void)
{
  g_autofree gchar *src = write_y4m ("src.y4m", 64, 64, 8, 12);
  g_autofree gchar *ref = g_build_filename (tmpdir, "ref-fifo.y4m", NULL);
  g_autofree gchar *dist = g_build_filename (tmpdir, "dist-fifo.y4m", NULL);
  g_autofree gchar *out = g_build_filename (tmpdir, "sig.json", NULL);
  g_autofree gchar *data = NULL;
  g_autofree gchar *err_text = NULL;
  const gchar *argv[] = { g_getenv ("VH_SCORE"), "-r", ref, "-d", dist,
    "--json", "-o", out, "-q", NULL
  };
  gsize len, header, frame = 6 + 64 * 64 * 3 / 2;
  gint err_fd, status, ref_w, dist_w;
  GPid pid;
  guint n_frames = 0;
  JsonParser *parser;

  g_assert_true (g_file_get_contents (src, &data, &len, NULL));
  header = strchr (data, '\n') - data + 1;
  g_assert_cmpint (mkfifo (ref, 0600), ==, 0);
  g_assert_cmpint (mkfifo (dist, 0600), ==, 0);
  g_assert_true (g_spawn_async_with_pipes (NULL, (gchar **) argv, NULL,
          G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid, NULL, NULL, &err_fd,
          NULL));
  /* Read-write: opening never waits for the reader. */
  ref_w = open (ref, O_RDWR);
  dist_w = open (dist, O_RDWR);
  /* Ten frames now, then one more after the first rewrite is due: the
   * file then shows the frames final by then (motion waits for the next). */
  g_assert_cmpint (write (ref_w, data, header + 10 * frame), >, 0);
  g_assert_cmpint (write (dist_w, data, header + 10 * frame), >, 0);
  g_usleep (2500 * G_TIME_SPAN_MILLISECOND);
  g_assert_cmpint (write (ref_w, data + header, frame), >, 0);
  g_assert_cmpint (write (dist_w, data + header, frame), >, 0);
  for (guint i = 0; i < 200 && n_frames < 5; i++) {
    g_autofree gchar *log = NULL;
    g_usleep (50 * G_TIME_SPAN_MILLISECOND);
    if (!g_file_get_contents (out, &log, NULL, NULL))
      continue;
    parser = json_parser_new ();
    g_assert_true (json_parser_load_from_data (parser, log, -1, NULL));
    n_frames = json_array_get_length (json_object_get_array_member
        (json_node_get_object (json_parser_get_root (parser)), "frames"));
    g_object_unref (parser);
  }
  g_assert_cmpuint (n_frames, >=, 5);
  kill (pid, SIGTERM);
  /* The reader may wait for input in its own thread: end the input too. */
  close (ref_w);
  close (dist_w);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  {
    GIOChannel *ch = g_io_channel_unix_new (err_fd);
    g_io_channel_read_to_end (ch, &err_text, NULL, NULL);
    g_io_channel_unref (ch);
    close (err_fd);
  }
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 1);
  g_assert_nonnull (strstr (err_text, "stopped by SIGTERM after 11 frames"));
  g_clear_pointer (&data, g_free);
  g_assert_true (g_file_get_contents (out, &data, NULL, NULL));
  parser = json_parser_new ();
  g_assert_true (json_parser_load_from_data (parser, data, -1, NULL));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member
          (json_node_get_object (json_parser_get_root (parser)), "frames")),
      ==, 11);
  g_object_unref (parser);
}
