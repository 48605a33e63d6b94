/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#include "fuzz-input-file.h"

#include <sys/mman.h>
#include <unistd.h>

void
vh_fuzz_read_file (const uint8_t * data, size_t size,
    const VhPictureInfo * raw_info)
{
  /* An in-memory file: the reader opens it by name like any other. */
  gint fd = memfd_create ("vmafhip-fuzz", 0);
  gchar *path;
  VhVideoReader *reader;

  g_assert (fd >= 0);
  g_assert (write (fd, data, size) == (ssize_t) size);
  path = g_strdup_printf ("/proc/self/fd/%d", fd);
  /* Read whole by one thread, then the luma alone by three. */
  for (guint mode = 0; mode < 2; mode++) {
    reader = vh_video_reader_open (path, raw_info, NULL);
    if (!reader)
      break;
    vh_video_reader_set_luma_only (reader, mode == 1);
    vh_video_reader_set_threads (reader, mode == 1 ? 3 : 1);
    for (guint i = 0; i < 4; i++) {
      GError *error = NULL;
      VhPicture *pic = vh_video_reader_read (reader, &error);

      g_clear_error (&error);
      if (!pic)
        break;
      vh_picture_unref (pic);
    }
    vh_video_reader_free (reader);
  }
  g_free (path);
  close (fd);
}
