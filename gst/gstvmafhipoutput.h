/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#ifndef __GST_VMAF_HIP_OUTPUT_H__
#define __GST_VMAF_HIP_OUTPUT_H__

#include <gst/gst.h>

G_BEGIN_DECLS

/* The src pad's buffer for the passed-through input frame @input: its
 * pixels, not copied, under a new header that the base class may stamp.
 *
 * A header that shared @input's memory (gst_buffer_copy()) would keep
 * that memory locked when the element drops @input, so its pool would
 * throw the buffer away and allocate another for every frame. So
 * @input's system memory is mapped and wrapped instead: @input goes back
 * to its pool, whole and reusable, once downstream is done with the
 * output. Other memory (HIP, CUDA), and buffers of no pool, get a header
 * that shares it. */
GstBuffer   *gst_vmaf_hip_output_buffer (GstBuffer * input);

G_END_DECLS

#endif /* __GST_VMAF_HIP_OUTPUT_H__ */
