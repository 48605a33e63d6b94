/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#ifndef __GST_VMAF_HIP_SELF_TEST_H__
#define __GST_VMAF_HIP_SELF_TEST_H__

#include <gst/gst.h>

#include "extractor-set.h"
#include "picture-transfer.h"

G_BEGIN_DECLS

/* self-test=true at start: every GPU twin on the device of @transfer
 * against its CPU twin (hip/features/hip-self-test.h), its verdict posted
 * as a "vmaf-self-test" element message (fields: device, passed, failed,
 * results), and a warning naming the twins that failed. Returns NULL when
 * none failed, else an extractor set without them, so that those features
 * run on the CPU. */
VhExtractorSet *gst_vmaf_hip_self_test   (GstElement * element,
                                          VhPictureTransfer * transfer);

/* self-test=true without a GPU to test (backend cpu, or auto without a
 * usable one): the message says so (passed TRUE, device "none: @why"). */
void         gst_vmaf_hip_self_test_no_gpu (GstElement * element,
                                          const gchar * why);

G_END_DECLS

#endif /* __GST_VMAF_HIP_SELF_TEST_H__ */
