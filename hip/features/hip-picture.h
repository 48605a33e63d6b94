/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_HIP_PICTURE_H__
#define __VH_HIP_PICTURE_H__

#include "vhhip.h"
#include "picture.h"
#include "picture-transfer.h"

G_BEGIN_DECLS

/* A new picture in @device's memory with @pic's samples (@pic in host
 * memory). Each plane gets its own pitched allocation; the stride and step
 * of @pic are kept, so interleaved chroma stays interleaved. */
VhPicture   *vh_hip_picture_upload       (VhHipDevice * device,
                                          const VhPicture * pic,
                                          GError ** error);

/* A new host picture with the samples of device picture @pic. */
VhPicture   *vh_hip_picture_download     (VhHipDevice * device,
                                          const VhPicture * pic,
                                          GError ** error);

/* A scoring context's transfer to and from @device (for
 * VhContextConfig.transfer; its device handle is @device). Its uploads go
 * through page-locked staging, a stream for each upload in progress, into
 * device planes recycled from the transfer's own pool (allocating is slow
 * and freeing waits for the device); when the last reference goes the pool
 * is emptied, and pictures freed later free their planes. */
VhPictureTransfer *vh_hip_picture_transfer_new (VhHipDevice * device);

G_END_DECLS

#endif /* __VH_HIP_PICTURE_H__ */
