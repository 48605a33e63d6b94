/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_PICTURE_TRANSFER_H__
#define __VH_PICTURE_TRANSFER_H__

#include "picture.h"

G_BEGIN_DECLS

/*
 * Pictures live in host memory or in HIP device memory (VhPicture.mem_type)
 * and each extractor declares which it reads. The engine does not link the
 * HIP layer: a scoring context is handed a VhPictureTransfer, made by the
 * layer for one device, and moves pictures with it in one place (the
 * context's dispatch, vh_picture_get_in_memory()). Nothing here is global:
 * two contexts on two devices each have their own.
 */
typedef struct
{
  /* A new host picture with the samples of device picture @pic. */
  VhPicture *(*download) (const VhPicture * pic, gpointer user_data,
      GError ** error);
  /* A new device picture with the samples of host picture @pic's first
   * @n_planes planes (at most its own); the planes left out have NULL
   * data. */
  VhPicture *(*upload) (const VhPicture * pic, guint n_planes,
      gpointer user_data, GError ** error);
} VhPictureTransferFuncs;

typedef struct _VhPictureTransfer VhPictureTransfer;

/* A transfer to and from @device (an opaque handle that the context hands
 * to the extractors that read device memory) through @funcs (copied),
 * called with @user_data; @notify frees @user_data with the last
 * reference. */
VhPictureTransfer *vh_picture_transfer_new (const VhPictureTransferFuncs * funcs,
                                            gpointer device,
                                            gpointer user_data,
                                            GDestroyNotify notify);

VhPictureTransfer *vh_picture_transfer_ref (VhPictureTransfer * transfer);

void         vh_picture_transfer_unref     (VhPictureTransfer * transfer);

gpointer     vh_picture_transfer_get_device (const VhPictureTransfer * transfer);

/* @pic's samples in @mem_type memory: @pic itself, or a copy made by
 * @transfer on the first request and kept with @pic (so that every
 * extractor of a frame shares one transfer). The result lives as long as
 * @pic. A copy made by another transfer (another context's device) is not
 * reused: that is an error. Thread-safe. */
const VhPicture *vh_picture_get_in_memory  (VhPicture * pic,
                                            VhMemoryType mem_type,
                                            const VhPictureTransfer * transfer,
                                            GError ** error);

/* The same, for a reader of the first @n_planes planes only (1: the luma):
 * a device copy made for it carries those alone. Every reader of one
 * picture must ask for the same planes: a copy without planes a later
 * reader asks for is an error. */
const VhPicture *vh_picture_get_planes_in_memory (VhPicture * pic,
                                            VhMemoryType mem_type,
                                            guint n_planes,
                                            const VhPictureTransfer * transfer,
                                            GError ** error);

/* Hands host picture @pic's memory back to its owner now, not at its last
 * reference, once its device copy exists and is its own (staged, not
 * read from @pic's memory by a copy still in flight): for engines where
 * nothing reads the host samples after the upload. Its planes are gone
 * after (NULL data); the device copy stays. FALSE, and nothing done, when
 * there is no such copy yet or the memory went back already. */
gboolean     vh_picture_release_host_memory (VhPicture * pic);

G_END_DECLS

#endif /* __VH_PICTURE_TRANSFER_H__ */
