/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The portable ADM kernel table. */

#include "adm-kernels-body.h"

static void
dwt0_vert_8_c (const guint8 * r0, const guint8 * r1, const guint8 * r2,
    const guint8 * r3, gint16 * lo, gint16 * hi, gint w)
{
  body_dwt0_vert_8 (r0, r1, r2, r3, lo, hi, w);
}

static void
dwt0_vert_16_c (const guint16 * r0, const guint16 * r1, const guint16 * r2,
    const guint16 * r3, gint16 * lo, gint16 * hi, gint w, gint bpc)
{
  body_dwt0_vert_16 (r0, r1, r2, r3, lo, hi, w, bpc);
}

static void
dwt0_horz_c (const gint16 * src, gint16 * lo, gint16 * hi, gint wi)
{
  body_dwt0_horz (src, lo, hi, wi);
}

static guint64
den0_row_c (const gint16 * b, gint x0, gint x1)
{
  return body_den0_row (b, x0, x1);
}

static void
decouple0_row_c (const VhAdmScale * sc, const VhAdmDecouple * dc,
    const gint16 * const ref[3], const gint16 * const dis[3],
    const VhAdmRows * out, gint x0, gint x1)
{
  body_decouple0_row (sc, dc, ref, dis, out, x0, x1);
}

static gint64
cm_row_c (const VhAdmScale * sc, gint band, const gint32 * x,
    const gint32 * thr, gint x0, gint x1)
{
  return body_cm_row (sc, band, x, thr, x0, x1);
}

static void
dwt_vert_s123_c (const gint32 * r0, const gint32 * r1, const gint32 * r2,
    const gint32 * r3, gint32 * lo, gint32 * hi, gint w, gint64 add,
    gint shift, gboolean narrow)
{
  body_dwt_vert_s123 (r0, r1, r2, r3, lo, hi, w, add, shift, narrow);
}

static void
dwt_horz_s123_c (const gint32 * src, gint32 * lo, gint32 * hi, gint wi,
    gint64 add, gint shift)
{
  body_dwt_horz_s123 (src, lo, hi, wi, add, shift);
}

static guint64
den_row_s123_c (const VhAdmScale * sc, const gint32 * b, gint x0, gint x1)
{
  return body_den_row_s123 (sc, b, x0, x1);
}

static void
decouple_s123_row_c (const VhAdmScale * sc, const VhAdmDecouple * dc,
    const gint32 * const ref[3], const gint32 * const dis[3],
    const VhAdmRows64 * out, gint y, gint x0, gint x1)
{
  body_decouple_s123_row (sc, dc, ref, dis, out, y, x0, x1);
}

static gint64
cm_row_s123_c (const VhAdmScale * sc, const gint64 * x, const gint64 * thr,
    gint y, gint x0, gint x1)
{
  return body_cm_row_s123 (sc, x, thr, y, x0, x1);
}

void
vh_adm_kernels_init_c (VhAdmKernels * k)
{
  k->dwt0_vert_8 = dwt0_vert_8_c;
  k->dwt0_vert_16 = dwt0_vert_16_c;
  k->dwt0_horz = dwt0_horz_c;
  k->den0_row = den0_row_c;
  k->decouple0_row = decouple0_row_c;
  k->cm_row = cm_row_c;
  k->dwt_vert_s123 = dwt_vert_s123_c;
  k->dwt_horz_s123 = dwt_horz_s123_c;
  k->den_row_s123 = den_row_s123_c;
  k->decouple_s123_row = decouple_s123_row_c;
  k->cm_row_s123 = cm_row_s123_c;
}
