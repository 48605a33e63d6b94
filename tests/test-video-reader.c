/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* vmafhip-score's reader: frames read by several threads at computed
 * offsets, or the luma alone, come out in order with the file's bytes,
 * and end as reading in sequence (from a pipe) ends, with the same error
 * for a short or malformed frame. */

#include "video-reader.h"
#include "vh-test.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static gchar *tmpdir;

/* A clip as written: its bytes and where each frame's samples start. */
typedef struct
{
  VhPictureInfo info;
  GByteArray *bytes;
  GArray *starts;               /* gsize */
} Clip;

static void
clip_free (Clip * c)
{
  g_byte_array_unref (c->bytes);
  g_array_unref (c->starts);
  g_free (c);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Clip, clip_free)

static gsize
plane_row (const VhPictureInfo * info, guint p, guint * height)
{
  guint ssx, ssy;

  vh_pix_fmt_subsampling (info->pix_fmt, &ssx, &ssy);
  *height = p ? (info->height + ssy) >> ssy : info->height;
  return (gsize) (p ? (info->width + ssx) >> ssx : info->width) *
      (info->bpc > 8 ? 2 : 1);
}

static gsize
frame_size (const VhPictureInfo * info)
{
  gsize total = 0;

  for (guint p = 0; p < vh_pix_fmt_n_planes (info->pix_fmt); p++) {
    guint h;
    total += plane_row (info, p, &h) * h;
  }
  return total;
}

static Clip *
clip_new (VhPixFmt fmt, guint bpc, guint w, guint h)
{
  Clip *c = g_new0 (Clip, 1);

  g_assert_true (vh_picture_info_init (&c->info, fmt, bpc, w, h, NULL));
  c->bytes = g_byte_array_new ();
  c->starts = g_array_new (FALSE, FALSE, sizeof (gsize));
  return c;
}

static void
clip_append (Clip * c, const gchar * text)
{
  g_byte_array_append (c->bytes, (const guint8 *) text, strlen (text));
}

/* A frame of noise, after @line (a Y4M FRAME line, or NULL for raw). */
static void
clip_add_frame (Clip * c, const gchar * line, GRand * rand)
{
  gsize n = frame_size (&c->info), start;

  if (line)
    clip_append (c, line);
  start = c->bytes->len;
  g_array_append_val (c->starts, start);
  g_byte_array_set_size (c->bytes, start + n);
  for (gsize i = 0; i < n; i++)
    c->bytes->data[start + i] = g_rand_int (rand);
}

static const gchar *
y4m_colour (const VhPictureInfo * info)
{
  static const gchar *const names[] = { "mono", "420", "422", "444" };
  static gchar tag[16];

  g_snprintf (tag, sizeof (tag), "%s%s", names[info->pix_fmt],
      info->bpc > 8 ? (info->bpc == 10 ? "p10" : info->bpc == 12 ? "p12" :
          "p16") : "");
  return tag;
}

/* A Y4M clip of @n frames; frame i's FRAME line is lines[i % n_lines]. */
static Clip *
y4m_clip_new (VhPixFmt fmt, guint bpc, guint w, guint h, guint n,
    const gchar * const *lines, GRand * rand)
{
  Clip *c = clip_new (fmt, bpc, w, h);
  g_autofree gchar *header = g_strdup_printf ("YUV4MPEG2 W%u H%u F25:1 Ip "
      "A1:1 C%s\n", w, h, y4m_colour (&c->info));
  guint n_lines = g_strv_length ((gchar **) lines);

  clip_append (c, header);
  for (guint f = 0; f < n; f++)
    clip_add_frame (c, lines[f % n_lines], rand);
  return c;
}

static Clip *
raw_clip_new (VhPixFmt fmt, guint bpc, guint w, guint h, guint n,
    GRand * rand)
{
  Clip *c = clip_new (fmt, bpc, w, h);

  for (guint f = 0; f < n; f++)
    clip_add_frame (c, NULL, rand);
  return c;
}

static gchar *
clip_write (const Clip * c, const gchar * name)
{
  gchar *path = g_build_filename (tmpdir, name, NULL);

  g_assert_true (g_file_set_contents (path, (const gchar *) c->bytes->data,
          c->bytes->len, NULL));
  return path;
}

/* How a clip is read. */
typedef struct
{
  gboolean luma_only;
  guint n_threads;              /* 0: automatic */
  gboolean pipe;                /* through a pipe: in sequence */
  guint max_frames;             /* 0: the default */
  guint hold;                   /* pictures held before releasing the oldest */
} ReadHow;

typedef struct
{
  const GByteArray *bytes;
  gint fd;
} PipeFeed;

static gpointer
pipe_feed (gpointer data)
{
  PipeFeed *feed = data;
  const guint8 *p = feed->bytes->data;
  gsize left = feed->bytes->len;

  /* Stops where the reader closed its end early (EPIPE). */
  while (left > 0) {
    ssize_t n = write (feed->fd, p, left);
    if (n <= 0)
      break;
    p += n;
    left -= n;
  }
  close (feed->fd);
  return NULL;
}

/* Demands that @pic holds frame @f of @c, its luma alone when @luma_only
 * (and then no chroma at all). */
static void
check_frame (const Clip * c, const VhPicture * pic, guint f,
    gboolean luma_only)
{
  const guint8 *src = c->bytes->data + g_array_index (c->starts, gsize, f);
  guint n_planes = vh_pix_fmt_n_planes (c->info.pix_fmt);

  g_assert_true (vh_picture_info_equal (&pic->info, &c->info));
  if (luma_only) {
    g_assert_cmpuint (pic->n_planes, ==, 1);
    g_assert_null (pic->data[1]);
    g_assert_null (pic->data[2]);
    g_assert_true (vh_picture_is_luma_only (pic) == (n_planes > 1));
  } else {
    g_assert_cmpuint (pic->n_planes, ==, n_planes);
    g_assert_false (vh_picture_is_luma_only (pic));
  }
  for (guint p = 0; p < pic->n_planes; p++) {
    guint h;
    gsize row = plane_row (&c->info, p, &h);
    g_assert_cmpuint (pic->height[p], ==, h);
    for (guint y = 0; y < h; y++, src += row)
      g_assert_true (memcmp (vh_picture_row (pic, p, y), src, row) == 0);
  }
}

/* Reads @path (holding @c) as @how says, checking every frame; returns the
 * frames read, and the error that ended them (or NULL) in @message. */
static guint
read_clip (const Clip * c, const gchar * path, const ReadHow * how,
    gchar ** message)
{
  g_autofree gchar *pipe_path = NULL;
  GQueue held = G_QUEUE_INIT;
  PipeFeed feed = { c->bytes, -1 };
  GThread *feeder = NULL;
  gint fds[2] = { -1, -1 };
  VhVideoReader *reader;
  GError *error = NULL;
  const VhPictureInfo *raw = path && g_str_has_suffix (path, ".y4m") ?
      NULL : &c->info;
  VhPicture *pic;
  guint n = 0;

  if (how->pipe) {
    g_assert_cmpint (pipe (fds), ==, 0);
    feed.fd = fds[1];
    feeder = g_thread_new ("feed", pipe_feed, &feed);
    pipe_path = g_strdup_printf ("/proc/self/fd/%d", fds[0]);
    raw = c->bytes->len > 9 && !memcmp (c->bytes->data, "YUV4MPEG2", 9) ?
        NULL : &c->info;
  }
  reader = vh_video_reader_open (how->pipe ? pipe_path : path, raw, &error);
  g_assert_no_error (error);
  vh_video_reader_set_luma_only (reader, how->luma_only);
  vh_video_reader_set_threads (reader, how->n_threads);
  if (how->max_frames)
    vh_video_reader_set_memory (reader, how->max_frames, NULL, NULL, NULL);
  if (how->pipe)
    g_assert_cmpuint (vh_video_reader_get_threads (reader), ==, 1);
  while ((pic = vh_video_reader_read (reader, &error))) {
    g_assert_cmpuint (n, <, c->starts->len);
    check_frame (c, pic, n++, how->luma_only);
    g_queue_push_tail (&held, pic);
    if (g_queue_get_length (&held) > how->hold)
      vh_picture_unref (g_queue_pop_head (&held));
  }
  g_assert_cmpuint (vh_video_reader_n_read (reader), ==, n);
  /* After the end, the end again, with no error. */
  g_assert_null (vh_video_reader_read (reader, NULL));
  g_queue_clear_full (&held, (GDestroyNotify) vh_picture_unref);
  *message = error ? g_strdup (error->message) : NULL;
  g_clear_error (&error);
  vh_video_reader_free (reader);
  if (feeder) {
    close (fds[0]);
    g_thread_join (feeder);
  }
  return n;
}

static const ReadHow parallel_ways[] = {
  {FALSE, 1}, {FALSE, 2}, {FALSE, 3}, {TRUE, 1}, {TRUE, 2}, {TRUE, 4},
  /* Fewer pictures than threads could want, some held by the caller. */
  {FALSE, 3, FALSE, 5, 2}, {TRUE, 4, FALSE, 6, 1},
};

/* Reads @c every way; each must give @n_frames frames and end as the
 * sequential reader does, with the same error, which must mention
 * @error_part (NULL: no error). */
static void
check_every_way (const Clip * c, const gchar * path, guint n_frames,
    const gchar * error_part)
{
  for (gboolean luma = FALSE; luma <= TRUE; luma++) {
    ReadHow how = { luma, 0, TRUE };
    g_autofree gchar *want = NULL;

    g_assert_cmpuint (read_clip (c, path, &how, &want), ==, n_frames);
    if (error_part)
      g_assert_nonnull (strstr (want, error_part));
    else
      g_assert_null (want);
    for (guint i = 0; i < G_N_ELEMENTS (parallel_ways); i++) {
      g_autofree gchar *got = NULL;
      if (parallel_ways[i].luma_only != luma)
        continue;
      g_assert_cmpuint (read_clip (c, path, &parallel_ways[i], &got), ==,
          n_frames);
      /* The pipe's name is in the sequential message: compare the rest. */
      if (error_part) {
        g_assert_nonnull (got);
        g_assert_cmpstr (strstr (got, error_part), ==, strstr (want,
                error_part));
      } else
        g_assert_null (got);
    }
  }
}

typedef struct
{
  VhPixFmt fmt;
  guint bpc, w, h;
} Layout;

/* Direct reads (rows a multiple of 64 bytes) and packed ones (odd sizes),
 * every chroma layout, depths above 8 bits. */
static const Layout layouts[] = {
  {VH_PIX_FMT_YUV420, 8, 128, 48}, {VH_PIX_FMT_YUV420, 8, 33, 17},
  {VH_PIX_FMT_YUV420, 10, 35, 19}, {VH_PIX_FMT_YUV420, 10, 64, 8},
  {VH_PIX_FMT_YUV422, 8, 31, 9}, {VH_PIX_FMT_YUV444, 12, 17, 5},
  {VH_PIX_FMT_YUV400, 16, 19, 7},
};

static void
test_raw_layouts (void)
{
  GRand *rand = g_rand_new_with_seed (1);

  for (guint i = 0; i < G_N_ELEMENTS (layouts); i++) {
    const Layout *l = &layouts[i];
    g_autoptr (Clip) c = raw_clip_new (l->fmt, l->bpc, l->w, l->h, 9, rand);
    g_autofree gchar *path = clip_write (c, "layout.yuv");
    check_every_way (c, path, 9, NULL);
  }
  g_rand_free (rand);
}

static void
test_y4m_layouts (void)
{
  static const gchar *const plain[] = { "FRAME\n", NULL };
  /* Parameters of one length: still read at computed offsets. */
  static const gchar *const params[] = { "FRAME Ip\n", "FRAME It\n", NULL };
  GRand *rand = g_rand_new_with_seed (2);

  for (guint i = 0; i < G_N_ELEMENTS (layouts); i++) {
    const Layout *l = &layouts[i];
    for (guint k = 0; k < 2; k++) {
      g_autoptr (Clip) c = y4m_clip_new (l->fmt, l->bpc, l->w, l->h, 7,
          k ? params : plain, rand);
      g_autofree gchar *path = clip_write (c, "layout.y4m");
      check_every_way (c, path, 7, NULL);
    }
  }
  g_rand_free (rand);
}

/* FRAME lines of other lengths from frame 3 on (longer, then shorter than
 * frame 0's): read in sequence from there, every frame still right. */
static void
test_y4m_frame_lines_differ (void)
{
  static const gchar *const lines[] = { "FRAME Ip\n", "FRAME Ip\n",
    "FRAME Ip\n", "FRAME Ip Xlonger=1\n", "FRAME\n", NULL
  };
  GRand *rand = g_rand_new_with_seed (3);
  g_autoptr (Clip) c = y4m_clip_new (VH_PIX_FMT_YUV420, 8, 64, 16, 11,
      lines, rand);
  g_autofree gchar *path = clip_write (c, "lines.y4m");

  check_every_way (c, path, 11, NULL);
  g_rand_free (rand);
}

/* A shorter FRAME line whose frame's third byte is an end of line: read
 * with frame 0's length, it ends in one as a right line does. */
static void
test_y4m_frame_line_shorter (void)
{
  static const gchar *const lines[] = { "FRAME Ip\n", "FRAME Ip\n",
    "FRAME\n", "FRAME Ip\n", NULL
  };
  GRand *rand = g_rand_new_with_seed (8);
  g_autoptr (Clip) c = y4m_clip_new (VH_PIX_FMT_YUV420, 8, 64, 16, 4,
      lines, rand);
  g_autofree gchar *path = NULL;

  c->bytes->data[g_array_index (c->starts, gsize, 2) + 2] = '\n';
  path = clip_write (c, "shorter.y4m");
  check_every_way (c, path, 4, NULL);
  g_rand_free (rand);
}

static void
test_raw_short_last_frame (void)
{
  GRand *rand = g_rand_new_with_seed (4);

  for (guint i = 0; i < G_N_ELEMENTS (layouts); i++) {
    const Layout *l = &layouts[i];
    g_autoptr (Clip) c = raw_clip_new (l->fmt, l->bpc, l->w, l->h, 6, rand);
    g_autofree gchar *path = NULL;

    /* Frame 5 loses its last bytes: its chroma, or part of its luma. */
    g_byte_array_set_size (c->bytes, c->bytes->len - 7);
    g_array_set_size (c->starts, 5);
    path = clip_write (c, "short.yuv");
    check_every_way (c, path, 5, "ends in the middle of frame 5");
  }
  g_rand_free (rand);
}

/* A Y4M clip cut at @cut bytes from its end, or with frame 4's FRAME line
 * replaced by @bad_line: frames 0-3 (or 0-4), then the sequential
 * reader's error. */
static void
check_y4m_broken (gsize cut, const gchar * bad_line, guint n_good,
    const gchar * error_part)
{
  static const gchar *const lines[] = { "FRAME\n", NULL };
  const gchar *const bad[] = { "FRAME\n", "FRAME\n", "FRAME\n", "FRAME\n",
    bad_line, "FRAME\n", NULL
  };
  GRand *rand = g_rand_new_with_seed (5);
  g_autoptr (Clip) c = y4m_clip_new (VH_PIX_FMT_YUV420, 10, 35, 19, 6,
      bad_line ? bad : lines, rand);
  g_autofree gchar *path = NULL;

  g_byte_array_set_size (c->bytes, c->bytes->len - cut);
  path = clip_write (c, "broken.y4m");
  check_every_way (c, path, n_good, error_part);
  g_rand_free (rand);
}

static void
test_y4m_broken (void)
{
  gsize frame = 35 * 19 * 2 + 2 * 18 * 10 * 2;

  /* The last frame's chroma cut short, then its luma. */
  check_y4m_broken (3, NULL, 5, "ends in the middle of frame 5");
  check_y4m_broken (frame - 100, NULL, 5, "ends in the middle of frame 5");
  /* Its FRAME line cut short. */
  check_y4m_broken (frame + 1, NULL, 5, "the FRAME line of frame 5 is cut "
      "short by the end of the file");
  /* Frame 4's FRAME line wrong. */
  check_y4m_broken (0, "FRAMX\n", 4, "frame 4 has no FRAME marker");
  check_y4m_broken (0, "FRAME Ip\n", 6, NULL);
}

/* A one-frame Y4M file of @w x @h with colour tag @tag, its samples
 * sized by @info (NULL: @extra bytes of samples instead). */
static gchar *
write_tagged_y4m (const gchar * name, guint w, guint h, const gchar * tag,
    const VhPictureInfo * info, gsize extra)
{
  gchar *path = g_build_filename (tmpdir, name, NULL);
  GString *s = g_string_new (NULL);
  gsize n = info ? frame_size (info) : extra;

  g_string_append_printf (s, "YUV4MPEG2 W%u H%u F25:1 Ip A1:1 C%s\nFRAME\n",
      w, h, tag);
  for (gsize i = 0; i < n; i++)
    g_string_append_c (s, (gchar) (i * 7));
  g_assert_true (g_file_set_contents (path, s->str, s->len, NULL));
  g_string_free (s, TRUE);
  return path;
}

/* Colour tags are matched whole: the ones libvmaf's tool reads open with
 * their layout and depth; one with more after it is refused by name
 * (read as its prefix, "444alpha" would put every plane one off). */
static void
test_y4m_tags (void)
{
  static const struct
  {
    const gchar *tag;
    VhPixFmt fmt;
    guint bpc;
  } good[] = {
    {"420", VH_PIX_FMT_YUV420, 8}, {"420jpeg", VH_PIX_FMT_YUV420, 8},
    {"420mpeg2", VH_PIX_FMT_YUV420, 8}, {"420paldv", VH_PIX_FMT_YUV420, 8},
    {"420p10", VH_PIX_FMT_YUV420, 10}, {"420p12", VH_PIX_FMT_YUV420, 12},
    {"420p16", VH_PIX_FMT_YUV420, 16}, {"422", VH_PIX_FMT_YUV422, 8},
    {"422jpeg", VH_PIX_FMT_YUV422, 8}, {"422p10", VH_PIX_FMT_YUV422, 10},
    {"444", VH_PIX_FMT_YUV444, 8}, {"444p12", VH_PIX_FMT_YUV444, 12},
    {"mono", VH_PIX_FMT_YUV400, 8}, {"mono16", VH_PIX_FMT_YUV400, 16},
    {"monop10", VH_PIX_FMT_YUV400, 10},
  };
  static const gchar *const bad[] = {
    "420xyz", "444alpha", "420p10x", "420p", "420jpegx", "422mpeg2",
    "444jpeg", "monox", "42", "",
  };

  for (guint i = 0; i < G_N_ELEMENTS (good); i++) {
    VhPictureInfo info;
    g_autofree gchar *path = NULL;
    g_autoptr (GError) err = NULL;
    g_autoptr (VhVideoReader) r = NULL;
    g_autoptr (VhPicture) pic = NULL;

    g_assert_true (vh_picture_info_init (&info, good[i].fmt, good[i].bpc, 6,
            4, NULL));
    path = write_tagged_y4m ("tag.y4m", 6, 4, good[i].tag, &info, 0);
    r = vh_video_reader_open (path, NULL, &err);
    g_assert_no_error (err);
    g_assert_cmpint (vh_video_reader_get_info (r)->pix_fmt, ==, good[i].fmt);
    g_assert_cmpuint (vh_video_reader_get_info (r)->bpc, ==, good[i].bpc);
    pic = vh_video_reader_read (r, &err);
    g_assert_no_error (err);
    g_assert_nonnull (pic);
  }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++) {
    g_autofree gchar *path = write_tagged_y4m ("bad-tag.y4m", 6, 4, bad[i],
        NULL, 200);
    g_autofree gchar *quoted = g_strdup_printf ("'%s'", bad[i]);
    g_autoptr (GError) err = NULL;

    g_assert_null (vh_video_reader_open (path, NULL, &err));
    g_assert_nonnull (err);
    g_assert_nonnull (strstr (err->message, "unsupported Y4M colour space"));
    g_assert_nonnull (strstr (err->message, quoted));
  }
}

/* A 4 KB file whose header says 32768x32768 fails at once, naming the
 * sizes, before any frame memory is allocated. */
static void
test_y4m_size_checked (void)
{
  g_autofree gchar *path = write_tagged_y4m ("huge.y4m", 32768, 32768,
      "420jpeg", NULL, 4000);
  g_autoptr (GError) err = NULL;
  gint64 start = g_get_monotonic_time ();

  g_assert_null (vh_video_reader_open (path, NULL, &err));
  g_assert_nonnull (err);
  g_assert_nonnull (strstr (err->message, "after its Y4M header"));
  g_assert_nonnull (strstr (err->message, "32768x32768"));
  g_assert_nonnull (strstr (err->message, "4006 bytes"));
  g_assert_cmpint (g_get_monotonic_time () - start, <, G_USEC_PER_SEC);
}

/* Pictures come from a fixed set, however many frames: allocations are
 * counted. */
static gpointer
counting_alloc (gsize size, gpointer user_data, GError ** error)
{
  g_atomic_int_inc ((gint *) user_data);
  return g_malloc (size);
}

static void
counting_free (gpointer mem, gpointer user_data)
{
  g_atomic_int_add ((gint *) user_data, 1000);
  g_free (mem);
}

static void
test_bounded_memory (void)
{
  static const VhVideoReaderMemoryFuncs funcs = {
    counting_alloc, counting_free, FALSE
  };
  GRand *rand = g_rand_new_with_seed (6);
  g_autoptr (Clip) c = raw_clip_new (VH_PIX_FMT_YUV420, 8, 64, 32, 40, rand);
  g_autofree gchar *path = clip_write (c, "many.yuv");
  VhVideoReader *reader = vh_video_reader_open (path, &c->info, NULL);
  GQueue held = G_QUEUE_INIT;
  gint count = 0;
  VhPicture *pic;
  guint n = 0;

  vh_video_reader_set_threads (reader, 3);
  vh_video_reader_set_memory (reader, 6, &funcs, &count, NULL);
  while ((pic = vh_video_reader_read (reader, NULL))) {
    check_frame (c, pic, n++, FALSE);
    g_queue_push_tail (&held, pic);
    if (g_queue_get_length (&held) > 2)
      vh_picture_unref (g_queue_pop_head (&held));
  }
  g_assert_cmpuint (n, ==, 40);
  g_assert_cmpint (count, <=, 6);
  g_queue_clear_full (&held, (GDestroyNotify) vh_picture_unref);
  vh_video_reader_free (reader);
  /* Every picture's memory freed, once. */
  g_assert_cmpint (count / 1000, ==, count % 1000);
  g_rand_free (rand);
}

/* Page-locked memory that runs out (a GPU lost in the middle of a run):
 * the slots made after it come from the heap, every frame is read, and
 * only the slots the funcs made are page-locked and given back to them. */
typedef struct
{
  gint made;                    /* by the funcs */
  gint freed;                   /* by the funcs */
  gint refused;
  GHashTable *mem;              /* what the funcs made */
  GMutex lock;
} Locked;

static gpointer
running_out_alloc (gsize size, gpointer user_data, GError ** error)
{
  Locked *l = user_data;
  gpointer mem = NULL;

  g_mutex_lock (&l->lock);
  if (l->made < 2) {
    l->made++;
    mem = g_malloc (size);
    g_hash_table_add (l->mem, mem);
  } else {
    l->refused++;
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOMEM, "device lost");
  }
  g_mutex_unlock (&l->lock);
  return mem;
}

static void
running_out_free (gpointer mem, gpointer user_data)
{
  Locked *l = user_data;

  g_mutex_lock (&l->lock);
  g_assert_true (g_hash_table_remove (l->mem, mem));
  l->freed++;
  g_mutex_unlock (&l->lock);
  g_free (mem);
}

static void
test_page_locked_runs_out (void)
{
  static const VhVideoReaderMemoryFuncs funcs = {
    running_out_alloc, running_out_free, TRUE
  };
  GRand *rand = g_rand_new_with_seed (8);
  g_autoptr (Clip) c = raw_clip_new (VH_PIX_FMT_YUV420, 8, 64, 32, 20, rand);
  g_autofree gchar *path = clip_write (c, "locked.yuv");
  Locked l = { 0 };

  l.mem = g_hash_table_new (NULL, NULL);
  g_mutex_init (&l.lock);
  for (guint threads = 1; threads <= 3; threads += 2) {
    VhVideoReader *reader = vh_video_reader_open (path, &c->info, NULL);
    GQueue held = G_QUEUE_INIT;
    guint n = 0, locked = 0;
    VhPicture *pic;

    l.made = l.freed = l.refused = 0;
    vh_video_reader_set_threads (reader, threads);
    vh_video_reader_set_memory (reader, 5, &funcs, &l, NULL);
    while ((pic = vh_video_reader_read (reader, NULL))) {
      check_frame (c, pic, n++, FALSE);
      /* a page-locked picture's memory is the funcs' */
      g_mutex_lock (&l.lock);
      g_assert_cmpint (pic->page_locked, ==,
          g_hash_table_contains (l.mem, pic->data[0]));
      g_mutex_unlock (&l.lock);
      locked += pic->page_locked;
      /* held, so that the reader makes every slot it may */
      g_queue_push_tail (&held, pic);
      if (g_queue_get_length (&held) > 2)
        vh_picture_unref (g_queue_pop_head (&held));
    }
    g_assert_cmpuint (n, ==, 20);
    g_assert_cmpint (l.made, ==, 2);
    g_assert_cmpint (l.refused, >, 0);
    g_assert_cmpuint (locked, >, 0);
    g_assert_cmpuint (locked, <, n);
    g_queue_clear_full (&held, (GDestroyNotify) vh_picture_unref);
    vh_video_reader_free (reader);
    g_assert_cmpint (l.freed, ==, 2);
  }
  g_hash_table_unref (l.mem);
  g_mutex_clear (&l.lock);
  g_rand_free (rand);
}

/* Freed while its threads read ahead, or hold pictures the caller still
 * has: nothing waits forever, nothing leaks. */
static void
test_free_early (void)
{
  GRand *rand = g_rand_new_with_seed (7);
  g_autoptr (Clip) c = raw_clip_new (VH_PIX_FMT_YUV420, 8, 64, 32, 40, rand);
  g_autofree gchar *path = clip_write (c, "early.yuv");

  for (guint luma = 0; luma < 2; luma++) {
    VhVideoReader *reader = vh_video_reader_open (path, &c->info, NULL);
    VhPicture *kept;

    vh_video_reader_set_luma_only (reader, luma);
    vh_video_reader_set_threads (reader, 4);
    vh_video_reader_set_memory (reader, 5, NULL, NULL, NULL);
    kept = vh_video_reader_read (reader, NULL);
    vh_picture_unref (vh_video_reader_read (reader, NULL));
    vh_video_reader_free (reader);
    /* The picture outlives its reader. */
    check_frame (c, kept, 0, luma);
    vh_picture_unref (kept);
  }
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  gint ret;

  g_test_init (&argc, &argv, NULL);
  /* A pipe's reader may close it before the whole clip went in. */
  signal (SIGPIPE, SIG_IGN);
  tmpdir = g_dir_make_tmp ("vh-reader-XXXXXX", NULL);
  g_test_add_func ("/video-reader/raw-layouts", test_raw_layouts);
  g_test_add_func ("/video-reader/y4m-layouts", test_y4m_layouts);
  g_test_add_func ("/video-reader/y4m-frame-lines-differ",
      test_y4m_frame_lines_differ);
  g_test_add_func ("/video-reader/y4m-frame-line-shorter",
      test_y4m_frame_line_shorter);
  g_test_add_func ("/video-reader/raw-short-last-frame",
      test_raw_short_last_frame);
  g_test_add_func ("/video-reader/y4m-broken", test_y4m_broken);
  g_test_add_func ("/video-reader/y4m-tags", test_y4m_tags);
  g_test_add_func ("/video-reader/y4m-size-checked", test_y4m_size_checked);
  g_test_add_func ("/video-reader/bounded-memory", test_bounded_memory);
  g_test_add_func ("/video-reader/page-locked-runs-out",
      test_page_locked_runs_out);
  g_test_add_func ("/video-reader/free-early", test_free_early);
  ret = g_test_run ();
  vh_test_remove_dir (tmpdir);
  g_free (tmpdir);
  return ret;
}
