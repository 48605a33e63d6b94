/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_SVM_H__
#define __VH_SVM_H__

#include <glib.h>

G_BEGIN_DECLS

/* A support vector regression model in libsvm's text format (as VMAF model
 * files embed it): epsilon- or nu-SVR with an RBF kernel. */
typedef struct _VhSvm VhSvm;

/* Errors are VH_ERROR_MODEL_PARSE; the message says what is wrong without
 * naming the file (the caller prefixes that). */
VhSvm       *vh_svm_parse       (const gchar * text, gsize len,
                                 GError ** error);

void         vh_svm_free        (VhSvm * svm);

/* The largest attribute number of any support vector (0 without any). */
guint        vh_svm_max_attribute (const VhSvm * svm);

/* @x holds the values of attributes 1..@n. */
gdouble      vh_svm_predict     (const VhSvm * svm, const gdouble * x,
                                 guint n);

G_END_DECLS

#endif /* __VH_SVM_H__ */
