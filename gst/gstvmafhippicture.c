/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvmafhippicture.h"
#include "errors.h"

#ifdef VH_HAVE_HIP
#include "gstvmafhipmemory.h"
#endif

gboolean
gst_vmaf_hip_picture_info_from_video (const GstVideoInfo * vinfo,
    VhPictureInfo * info)
{
  const GstVideoFormatInfo *finfo = vinfo->finfo;
  VhPixFmt pix_fmt;
  guint bpc;

  if (!finfo || GST_VIDEO_INFO_FORMAT (vinfo) == GST_VIDEO_FORMAT_UNKNOWN)
    return FALSE;
  if (GST_VIDEO_FORMAT_INFO_IS_GRAY (finfo) &&
      GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo) == 1) {
    pix_fmt = VH_PIX_FMT_YUV400;
  } else if (GST_VIDEO_FORMAT_INFO_IS_YUV (finfo) &&
      GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo) == 3) {
    guint ssx = GST_VIDEO_FORMAT_INFO_W_SUB (finfo, 1);
    guint ssy = GST_VIDEO_FORMAT_INFO_H_SUB (finfo, 1);

    if (ssx == 1 && ssy == 1)
      pix_fmt = VH_PIX_FMT_YUV420;
    else if (ssx == 1 && ssy == 0)
      pix_fmt = VH_PIX_FMT_YUV422;
    else if (ssx == 0 && ssy == 0)
      pix_fmt = VH_PIX_FMT_YUV444;
    else
      return FALSE;
  } else {
    return FALSE;
  }
  bpc = GST_VIDEO_FORMAT_INFO_DEPTH (finfo, 0);
  return vh_picture_info_init (info, pix_fmt, bpc,
      GST_VIDEO_INFO_WIDTH (vinfo), GST_VIDEO_INFO_HEIGHT (vinfo), NULL);
}

gboolean
gst_vmaf_hip_buffer_is_system_memory (GstBuffer * buffer)
{
  guint n = gst_buffer_n_memory (buffer);

  for (guint i = 0; i < n; i++) {
    if (!gst_memory_is_type (gst_buffer_peek_memory (buffer, i),
            GST_ALLOCATOR_SYSMEM))
      return FALSE;
  }
  return n > 0;
}

gchar *
gst_vmaf_hip_describe_video (const GstVideoInfo * vinfo)
{
  VhPictureInfo info;

  if (!gst_vmaf_hip_picture_info_from_video (vinfo, &info))
    return g_strdup_printf ("%dx%d %s (not supported)",
        GST_VIDEO_INFO_WIDTH (vinfo), GST_VIDEO_INFO_HEIGHT (vinfo),
        gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (vinfo)));
  return g_strdup_printf ("%ux%u %s (%s, %u-bit)", info.width, info.height,
      gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (vinfo)),
      vh_pix_fmt_to_string (info.pix_fmt), info.bpc);
}

/* The engine reads native-endian samples aligned to bit 0. */
static gboolean
needs_copy (const GstVideoFormatInfo * finfo)
{
  for (guint c = 0; c < GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo); c++) {
    if (GST_VIDEO_FORMAT_INFO_SHIFT (finfo, c) != 0)
      return TRUE;
  }
#if G_BYTE_ORDER == G_BIG_ENDIAN
  if (GST_VIDEO_FORMAT_INFO_DEPTH (finfo, 0) > 8)
    return TRUE;
#endif
  return FALSE;
}

/* Where component @c of @frame starts, its row stride and the bytes from
 * one sample to the next. The chroma plane of NV12-style formats holds
 * both components; GStreamer's per-component offsets of the 16-bit ones
 * count samples rather than bytes, so the order is spelled out here. */
static void
component_layout (GstVideoFrame * frame, guint c, guint bps, guint8 ** ptr,
    gint * stride, gint * pstride)
{
  const GstVideoFormatInfo *finfo = frame->info.finfo;

  if (c > 0 && GST_VIDEO_FORMAT_INFO_N_PLANES (finfo) == 2) {
    gboolean v_first = GST_VIDEO_FRAME_FORMAT (frame) == GST_VIDEO_FORMAT_NV21;
    guint8 *uv = GST_VIDEO_FRAME_PLANE_DATA (frame, 1);

    *ptr = uv + (((c == 2) != v_first) ? bps : 0);
    *stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, 1);
    *pstride = 2 * bps;
    return;
  }
  *ptr = GST_VIDEO_FRAME_COMP_DATA (frame, c);
  *stride = GST_VIDEO_FRAME_COMP_STRIDE (frame, c);
  *pstride = GST_VIDEO_FRAME_COMP_PSTRIDE (frame, c);
}

typedef struct
{
  GstVideoFrame frame;
} MappedFrame;

static void
mapped_frame_free (gpointer data)
{
  MappedFrame *m = data;

  gst_video_frame_unmap (&m->frame);
  g_free (m);
}

/* Planar, native-endian, bit-0-aligned copy of @frame's 16-bit samples. */
static VhPicture *
copy_frame (const VhPictureInfo * info, GstVideoFrame * frame)
{
  VhPicture *pic = vh_picture_new (info);
  const GstVideoFormatInfo *finfo = frame->info.finfo;

  for (guint c = 0; c < pic->n_planes; c++) {
    guint shift = GST_VIDEO_FORMAT_INFO_SHIFT (finfo, c);
    guint8 *src;
    gint src_stride, pstride;

    component_layout (frame, c, 2, &src, &src_stride, &pstride);
    for (guint y = 0; y < pic->height[c]; y++) {
      const guint8 *s = src + (gsize) y * src_stride;
      guint16 *d = vh_picture_row (pic, c, y);

      for (guint x = 0; x < pic->width[c]; x++)
        d[x] = GST_READ_UINT16_LE (s + (gsize) x * pstride) >> shift;
    }
  }
  return pic;
}

static VhPicture *
wrap_mapped (const GstVideoInfo * vinfo, GstBuffer * buffer,
    GstMapFlags flags, GError ** error);

VhPicture *
gst_vmaf_hip_picture_wrap (const GstVideoInfo * vinfo, GstBuffer * buffer,
    GError ** error)
{
  return wrap_mapped (vinfo, buffer, GST_MAP_READ, error);
}

#ifdef VH_HAVE_HIP
VhPicture *
gst_vmaf_hip_picture_wrap_host_copy (const GstVideoInfo * vinfo,
    GstBuffer * buffer)
{
  if (needs_copy (vinfo->finfo))
    return NULL;
  return wrap_mapped (vinfo, buffer, GST_MAP_READ |
      GST_MAP_VMAF_HIP_UNORDERED, NULL);
}
#endif

static VhPicture *
wrap_mapped (const GstVideoInfo * vinfo, GstBuffer * buffer,
    GstMapFlags flags, GError ** error)
{
  VhPictureInfo info;
  MappedFrame *m;
  gpointer data[3] = { NULL, NULL, NULL };
  gsize stride[3] = { 0, 0, 0 };
  guint step[3] = { 1, 1, 1 };
  guint bps;

  if (!gst_vmaf_hip_picture_info_from_video (vinfo, &info)) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "unsupported video format %s",
        gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (vinfo)));
    return NULL;
  }
  m = g_new0 (MappedFrame, 1);
  if (!gst_video_frame_map (&m->frame, vinfo, buffer, flags)) {
    g_free (m);
    g_set_error (error, VH_ERROR, VH_ERROR_IO,
        "could not map a %" G_GSIZE_FORMAT "-byte buffer as %dx%d %s",
        gst_buffer_get_size (buffer), GST_VIDEO_INFO_WIDTH (vinfo),
        GST_VIDEO_INFO_HEIGHT (vinfo),
        gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (vinfo)));
    return NULL;
  }

  if (needs_copy (vinfo->finfo)) {
    VhPicture *pic = copy_frame (&info, &m->frame);
    mapped_frame_free (m);
    return pic;
  }

  bps = info.bpc > 8 ? 2 : 1;
  for (guint c = 0; c < vh_pix_fmt_n_planes (info.pix_fmt); c++) {
    guint8 *ptr;
    gint s, ps;

    component_layout (&m->frame, c, bps, &ptr, &s, &ps);
    if (s <= 0 || ps <= 0 || ps % bps) {
      mapped_frame_free (m);
      g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
          "unsupported layout (stride %d, pixel stride %d) for component %u",
          s, ps, c);
      return NULL;
    }
    data[c] = ptr;
    stride[c] = s;
    step[c] = ps / bps;
  }
  return vh_picture_new_wrapped (&info, data, stride, step, VH_MEMORY_HOST, m,
      mapped_frame_free);
}

#ifdef VH_HAVE_HIP
VhPicture *
gst_vmaf_hip_picture_wrap_device (const GstVideoInfo * vinfo,
    GstBuffer * buffer, VhHipEvent * ready, GError ** error)
{
  VhPicture *pic = gst_vmaf_hip_picture_wrap_device_mapped (vinfo, buffer,
      GST_MAP_READ_VMAF_HIP | GST_MAP_VMAF_HIP_UNORDERED, error);

  if (pic)
    pic->ready = ready;
  return pic;
}

VhPicture *
gst_vmaf_hip_picture_wrap_device_mapped (const GstVideoInfo * vinfo,
    GstBuffer * buffer, GstMapFlags flags, GError ** error)
{
  VhPictureInfo info;
  MappedFrame *m;
  gpointer data[3] = { NULL, NULL, NULL };
  gsize stride[3] = { 0, 0, 0 };
  guint step[3] = { 1, 1, 1 };
  guint bps;

  if (!gst_vmaf_hip_picture_info_from_video (vinfo, &info) ||
      needs_copy (vinfo->finfo))
    return NULL;
  m = g_new0 (MappedFrame, 1);
  /* GstVideoFrame only adds plane offsets to the mapped base, so the
   * device address works as well as a host one. */
  if (!gst_video_frame_map (&m->frame, vinfo, buffer, flags)) {
    g_free (m);
    g_set_error (error, VH_ERROR, VH_ERROR_IO,
        "could not map a %dx%d %s frame in device memory for the device",
        GST_VIDEO_INFO_WIDTH (vinfo), GST_VIDEO_INFO_HEIGHT (vinfo),
        gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (vinfo)));
    return NULL;
  }
  bps = info.bpc > 8 ? 2 : 1;
  for (guint c = 0; c < vh_pix_fmt_n_planes (info.pix_fmt); c++) {
    guint8 *ptr;
    gint st, ps;

    component_layout (&m->frame, c, bps, &ptr, &st, &ps);
    if (st <= 0 || ps <= 0 || ps % bps) {
      mapped_frame_free (m);
      return NULL;
    }
    data[c] = ptr;
    stride[c] = st;
    step[c] = ps / bps;
  }
  return vh_picture_new_wrapped (&info, data, stride, step,
      VH_MEMORY_HIP_DEVICE, m, mapped_frame_free);
}
#endif
