/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_PICTURE_H__
#define __VH_PICTURE_H__

#include <glib.h>

G_BEGIN_DECLS

/* Chroma layout of a picture. Luma-only pictures have one plane. */
typedef enum
{
  VH_PIX_FMT_YUV400 = 0,
  VH_PIX_FMT_YUV420,
  VH_PIX_FMT_YUV422,
  VH_PIX_FMT_YUV444,
} VhPixFmt;

/* Where the samples live. Extractors declare which one they accept and the
 * context converts in one place (vh_picture_get_in_memory()). */
typedef enum
{
  VH_MEMORY_HOST = 0,
  VH_MEMORY_HIP_DEVICE = 1,
} VhMemoryType;

/* Geometry shared by every picture of a stream. */
typedef struct
{
  VhPixFmt pix_fmt;
  guint bpc;                    /* bits per component: 8, 10, 12 or 16 */
  guint width;                  /* luma width */
  guint height;                 /* luma height */
} VhPictureInfo;

typedef struct _VhPicture VhPicture;

/**
 * VhPicture:
 *
 * One frame of planar (or semi-planar) YUV. Samples are guint8 when bpc is 8
 * and native-endian guint16 otherwise. Chroma planes have ceil(W / 2^ssx) x
 * ceil(H / 2^ssy) samples. @step is the distance in samples between two
 * horizontally adjacent samples of a plane: 1 for planar data, 2 for the
 * interleaved chroma of NV12-style input, which is read in place.
 */
struct _VhPicture
{
  VhPictureInfo info;
  guint n_planes;
  guint width[3];
  guint height[3];
  gsize stride[3];              /* bytes from one row to the next */
  guint step[3];                /* samples from one column to the next */
  gpointer data[3];
  VhMemoryType mem_type;
  /* Host memory that is page-locked for the GPU in use (set by whoever
   * wraps such memory): uploads copy from it without staging. */
  gboolean page_locked;
  /* Device pictures whose samples are still being copied in (an upload
   * queued without waiting): the VhHipEvent that the copy records, for the
   * GPU work that reads them to wait on; NULL when they are in place.
   * Owned by whoever wrapped the picture. */
  gpointer ready;
  /* Device pictures copied straight from their host twin's memory: waits
   * until the copy has read it, called before that memory goes back to its
   * owner (the host twin's release); NULL otherwise. */
  void (*wait_source_read) (VhPicture * pic);

  /*< private >*/
  gint ref_count;
  GDestroyNotify notify;
  gpointer user_data;
  gpointer allocation;
  VhPicture *twin;              /* the copy in the other memory, if made */
  gconstpointer twin_transfer;  /* the VhPictureTransfer that made it */
  gint twin_lock;               /* see picture-transfer.c */
};

gboolean     vh_picture_info_init       (VhPictureInfo * info, VhPixFmt pix_fmt,
                                         guint bpc, guint width, guint height,
                                         GError ** error);

gboolean     vh_picture_info_equal      (const VhPictureInfo * a,
                                         const VhPictureInfo * b);

const gchar *vh_pix_fmt_to_string       (VhPixFmt pix_fmt);

guint        vh_pix_fmt_n_planes        (VhPixFmt pix_fmt);

void         vh_pix_fmt_subsampling     (VhPixFmt pix_fmt, guint * ssx,
                                         guint * ssy);

VhPicture   *vh_picture_new             (const VhPictureInfo * info);

VhPicture   *vh_picture_new_wrapped     (const VhPictureInfo * info,
                                         gpointer const data[3],
                                         const gsize stride[3],
                                         const guint step[3],
                                         VhMemoryType mem_type,
                                         gpointer user_data,
                                         GDestroyNotify notify);

VhPicture   *vh_picture_ref             (VhPicture * pic);

void         vh_picture_unref           (VhPicture * pic);

gsize        vh_picture_bytes_per_sample (const VhPicture * pic);

/* Leaves @pic's chroma out: planes 1 and 2 of a stream that has them
 * become absent (NULL data, no size) and @n_planes 1, while @info keeps
 * the stream's format. For engines whose extractors all read the luma
 * only (vh_context_reads_chroma()): what loops over the planes sees the
 * luma alone, and a reader of chroma fails at once instead of reading
 * stale samples. */
void         vh_picture_drop_chroma     (VhPicture * pic);

/* Whether @pic's format has chroma that @pic does not carry. */
gboolean     vh_picture_is_luma_only    (const VhPicture * pic);

/* Row @y of plane @p, for host pictures. */
static inline gpointer
vh_picture_row (const VhPicture * pic, guint p, guint y)
{
  return (guint8 *) pic->data[p] + (gsize) y * pic->stride[p];
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VhPicture, vh_picture_unref)

G_END_DECLS

#endif /* __VH_PICTURE_H__ */
