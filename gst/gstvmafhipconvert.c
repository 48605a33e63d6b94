/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The distorted frames in the reference's format (convert property). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvmafhipconvert.h"
#include "errors.h"

static const GEnumValue convert_mode_values[] = {
  {GST_VMAF_HIP_CONVERT_NONE,
      "Score the frames as they come: both inputs need the same format",
      "none"},
  {GST_VMAF_HIP_CONVERT_REFERENCE_FORMAT,
        "Convert the distorted frames to the reference's pixel format (bit "
        "depth, chroma subsampling) on the CPU, as ffmpeg's format filter "
        "does before libvmaf", "reference-format"},
  {0, NULL, NULL},
};

GType
gst_vmaf_hip_convert_mode_get_type (void)
{
  static gsize id = 0;

  if (g_once_init_enter (&id)) {
    GType t = g_enum_register_static ("GstVmafHipConvertMode",
        convert_mode_values);
    g_once_init_leave (&id, t);
  }
  return (GType) id;
}

struct _GstVmafHipConvert
{
  GstVideoConverter *converter;
  GstVideoInfo in, out;
};

GstVmafHipConvert *
gst_vmaf_hip_convert_new (void)
{
  return g_new0 (GstVmafHipConvert, 1);
}

void
gst_vmaf_hip_convert_free (GstVmafHipConvert * convert)
{
  if (!convert)
    return;
  g_clear_pointer (&convert->converter, gst_video_converter_free);
  g_free (convert);
}

/* A converter from @in to @ref's format at @in's size and colorimetry,
 * with videoconvert's default options (so that a pipeline with
 * videoconvert in front of the pad gives the same frames). */
static gboolean
prepare (GstVmafHipConvert * convert, const GstVideoInfo * in,
    const GstVideoFormat format)
{
  GstVideoInfo out;

  if (convert->converter && gst_video_info_is_equal (&convert->in, in) &&
      GST_VIDEO_INFO_FORMAT (&convert->out) == format)
    return TRUE;
  g_clear_pointer (&convert->converter, gst_video_converter_free);
  gst_video_info_set_interlaced_format (&out, format,
      GST_VIDEO_INFO_INTERLACE_MODE (in), GST_VIDEO_INFO_WIDTH (in),
      GST_VIDEO_INFO_HEIGHT (in));
  out.fps_n = in->fps_n;
  out.fps_d = in->fps_d;
  out.par_n = in->par_n;
  out.par_d = in->par_d;
  out.colorimetry = in->colorimetry;
  out.chroma_site = in->chroma_site;
  convert->converter = gst_video_converter_new ((GstVideoInfo *) in, &out,
      gst_structure_new ("options",
          GST_VIDEO_CONVERTER_OPT_CHROMA_RESAMPLER_METHOD,
          GST_TYPE_VIDEO_RESAMPLER_METHOD, GST_VIDEO_RESAMPLER_METHOD_LINEAR,
          GST_VIDEO_CONVERTER_OPT_DITHER_METHOD, GST_TYPE_VIDEO_DITHER_METHOD,
          GST_VIDEO_DITHER_BAYER, GST_VIDEO_CONVERTER_OPT_THREADS,
          G_TYPE_UINT, 1, NULL));
  if (!convert->converter)
    return FALSE;
  convert->in = *in;
  convert->out = out;
  return TRUE;
}

gboolean
gst_vmaf_hip_convert_to_reference (GstVmafHipConvert * convert,
    const GstVideoInfo * ref, GstVmafHipFrame * dist, GError ** error)
{
  GstVideoFormat format = GST_VIDEO_INFO_FORMAT (ref);
  GstVideoFrame in, out;
  GstBuffer *converted;

  if (GST_VIDEO_INFO_FORMAT (&dist->info) == format)
    return TRUE;
  if (!prepare (convert, &dist->info, format)) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "convert=reference-format: no conversion from %s to %s",
        gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (&dist->info)),
        gst_video_format_to_string (format));
    return FALSE;
  }
  if (!gst_video_frame_map (&in, &dist->info, dist->buffer, GST_MAP_READ)) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "convert=reference-format: a distorted frame cannot be read on the "
        "CPU (GPU memory without a host mapping): put a download element "
        "and videoconvert before dist_sink instead");
    return FALSE;
  }
  converted = gst_buffer_new_allocate (NULL, convert->out.size, NULL);
  gst_buffer_copy_into (converted, dist->buffer, GST_BUFFER_COPY_METADATA,
      0, -1);
  if (!gst_video_frame_map (&out, &convert->out, converted, GST_MAP_WRITE)) {
    gst_video_frame_unmap (&in);
    gst_buffer_unref (converted);
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "convert=reference-format: cannot map a new frame");
    return FALSE;
  }
  gst_video_converter_frame (convert->converter, &in, &out);
  gst_video_frame_unmap (&out);
  gst_video_frame_unmap (&in);
  gst_buffer_unref (dist->buffer);
  dist->buffer = converted;
  dist->info = convert->out;
  return TRUE;
}
