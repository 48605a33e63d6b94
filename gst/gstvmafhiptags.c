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

#include <string.h>

#include "gstvmafhiptags.h"

static gpointer
register_tags (gpointer data)
{
  gst_tag_register (GST_TAG_VMAFHIP_SCORE, GST_TAG_FLAG_META, G_TYPE_DOUBLE,
      "VMAF score", "pooled VMAF score of the compared video (vmafhip)",
      gst_tag_merge_use_first);
  gst_tag_register (GST_TAG_VMAFHIP_PSNR_Y, GST_TAG_FLAG_META, G_TYPE_DOUBLE,
      "PSNR-Y", "pooled luma PSNR in dB of the compared video (vmafhip)",
      gst_tag_merge_use_first);
  gst_tag_register (GST_TAG_VMAFHIP_SSIM, GST_TAG_FLAG_META, G_TYPE_DOUBLE,
      "SSIM", "pooled SSIM of the compared video (vmafhip)",
      gst_tag_merge_use_first);
  gst_tag_register (GST_TAG_VMAFHIP_MS_SSIM, GST_TAG_FLAG_META, G_TYPE_DOUBLE,
      "MS-SSIM", "pooled MS-SSIM of the compared video (vmafhip)",
      gst_tag_merge_use_first);
  gst_tag_register (GST_TAG_VMAFHIP_FRAMES, GST_TAG_FLAG_META, G_TYPE_UINT,
      "VMAF frames", "number of frames the vmafhip tags are pooled over",
      gst_tag_merge_use_first);
  return NULL;
}

void
gst_vmaf_hip_tags_register (void)
{
  static GOnce once = G_ONCE_INIT;

  g_once (&once, register_tags, NULL);
}

const gchar *
gst_vmaf_hip_tag_for_output (const gchar * name)
{
  if (!strcmp (name, "psnr_y"))
    return GST_TAG_VMAFHIP_PSNR_Y;
  if (!strcmp (name, "float_ssim"))
    return GST_TAG_VMAFHIP_SSIM;
  if (!strcmp (name, "float_ms_ssim"))
    return GST_TAG_VMAFHIP_MS_SSIM;
  return NULL;
}
