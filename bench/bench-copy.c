/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The yardstick for vmafhipupload: the rate of a plain host-to-device copy of
 * the frames of a raw file, straight from the page cache (the file mapped,
 * each frame copied with one synchronous copy from pageable memory, as a
 * program without staging would), and, for comparison, through one
 * page-locked buffer (memcpy into it, then the copy).
 *
 *   bench/bench-copy FILE FRAME_BYTES [FRAMES]
 *
 * Prints one line per method: frames, seconds, frames per second, GB/s.
 * Exits 77 where no GPU can be opened. */

#include "vhhip.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static void
report (const gchar * method, guint n, gsize frame_bytes, gint64 usec)
{
  gdouble s = usec / 1e6;

  printf ("%-26s %5u frames %8.3f s %9.1f fps %6.2f GB/s\n", method, n, s,
      n / s, n * (gdouble) frame_bytes / s / 1e9);
}

int
main (int argc, char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (VhHipDevice) device = NULL;
  gsize frame_bytes, file_bytes;
  guint n, max_frames;
  gpointer dst = NULL, pinned = NULL;
  const guint8 *map;
  struct stat st;
  gint64 t0;
  gint fd;

  if (argc < 3) {
    g_printerr ("usage: %s FILE FRAME_BYTES [FRAMES]\n", argv[0]);
    return 2;
  }
  frame_bytes = g_ascii_strtoull (argv[2], NULL, 10);
  max_frames = argc > 3 ? (guint) atoi (argv[3]) : G_MAXUINT;
  fd = open (argv[1], O_RDONLY);
  if (fd < 0 || fstat (fd, &st) != 0 || frame_bytes == 0) {
    g_printerr ("cannot read %s, or frame size 0\n", argv[1]);
    return 2;
  }
  file_bytes = st.st_size;
  n = MIN (file_bytes / frame_bytes, max_frames);
  map = mmap (NULL, file_bytes, PROT_READ, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED || n == 0) {
    g_printerr ("%s: cannot map it, or shorter than one frame\n", argv[1]);
    return 2;
  }

  device = vh_hip_device_open (VH_HIP_VENDOR_UNKNOWN, 0, &error);
  if (!device) {
    g_printerr ("SKIP: no GPU: %s\n", error->message);
    return 77;
  }
  if (!vh_hip_malloc (device, frame_bytes, &dst, &error) ||
      !vh_hip_host_alloc (device, frame_bytes, &pinned, &error))
    goto fail;
  /* One copy first: the first touches of the device and the mapping. */
  if (!vh_hip_memcpy_2d (device, VH_HIP_COPY_HOST_TO_DEVICE, dst,
          frame_bytes, map, frame_bytes, frame_bytes, 1, &error))
    goto fail;

  t0 = g_get_monotonic_time ();
  for (guint i = 0; i < n; i++) {
    if (!vh_hip_memcpy_2d (device, VH_HIP_COPY_HOST_TO_DEVICE, dst,
            frame_bytes, map + (gsize) i * frame_bytes, frame_bytes,
            frame_bytes, 1, &error))
      goto fail;
  }
  report ("pageable copy", n, frame_bytes, g_get_monotonic_time () - t0);

  t0 = g_get_monotonic_time ();
  for (guint i = 0; i < n; i++) {
    memcpy (pinned, map + (gsize) i * frame_bytes, frame_bytes);
    if (!vh_hip_memcpy_2d (device, VH_HIP_COPY_HOST_TO_DEVICE, dst,
            frame_bytes, pinned, frame_bytes, frame_bytes, 1, &error))
      goto fail;
  }
  report ("memcpy + page-locked copy", n, frame_bytes,
      g_get_monotonic_time () - t0);

  vh_hip_free (device, dst);
  vh_hip_host_free (device, pinned);
  munmap ((gpointer) map, file_bytes);
  close (fd);
  return 0;

fail:
  g_printerr ("error: %s\n", error->message);
  return 1;
}
