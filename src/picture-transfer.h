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
 * HIP layer: the layer, once it has a device, installs the two functions
 * that move a picture across, and the engine calls them through
 * vh_picture_get_in_memory(), in one place (the context's dispatch).
 */
typedef struct
{
  /* A new host picture with the samples of device picture @pic. */
  VhPicture *(*download) (const VhPicture * pic, gpointer user_data,
      GError ** error);
  /* A new device picture with the samples of host picture @pic. */
  VhPicture *(*upload) (const VhPicture * pic, gpointer user_data,
      GError ** error);
} VhPictureTransferFuncs;

/* Installs @funcs (copied) for the whole process, replacing any before;
 * NULL removes them. @notify frees @user_data when they are replaced. */
void         vh_picture_set_transfer_funcs (const VhPictureTransferFuncs * funcs,
                                            gpointer user_data,
                                            GDestroyNotify notify);

/* A new picture with @pic's samples in host memory: a reference to @pic
 * when it is there already. VH_ERROR_BACKEND when nothing can move it. */
VhPicture   *vh_picture_download           (VhPicture * pic,
                                            GError ** error);

/* The same towards HIP device memory. */
VhPicture   *vh_picture_upload             (VhPicture * pic,
                                            GError ** error);

/* @pic's samples in @mem_type memory: @pic itself, or a copy made on the
 * first request and kept with @pic (so that every extractor of a frame
 * shares one transfer). The result lives as long as @pic. Thread-safe. */
const VhPicture *vh_picture_get_in_memory  (VhPicture * pic,
                                            VhMemoryType mem_type,
                                            GError ** error);

G_END_DECLS

#endif /* __VH_PICTURE_TRANSFER_H__ */
