/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_HIP_TYPE_H__
#define __GST_HIP_TYPE_H__

#include <glib-object.h>

G_BEGIN_DECLS

/*
 * GStreamer 1.28 has HIP types of its own (GstHipDevice, GstHipUpload, ...)
 * in libgsthip and its hip plugin. Ours keep the same C names, element
 * names, caps feature, allocator name and context type, so that whoever
 * knows one knows the other, but register their GTypes under "GstVh..."
 * names, so that both can be loaded in one process (gst-inspect-1.0 loads
 * every plugin) without a type clash.
 *
 * GST_HIP_DEFINE_TYPE (GstHipDevice, gst_hip_device, GST_TYPE_OBJECT,
 * "GstVhHipDevice") is G_DEFINE_TYPE with that type name.
 */
#define GST_HIP_DEFINE_TYPE(TN, t_n, T_P, type_name)                       \
  GST_HIP_DEFINE_TYPE_WITH_FLAGS (TN, t_n, T_P, type_name, 0)

#define GST_HIP_DEFINE_TYPE_WITH_FLAGS(TN, t_n, T_P, type_name, flags)     \
static void t_n##_init (TN * self);                                          \
static void t_n##_class_init (TN##Class * klass);                            \
static gpointer t_n##_parent_class = NULL;                                   \
static void                                                                  \
t_n##_class_intern_init (gpointer klass, gpointer data)                      \
{                                                                            \
  t_n##_parent_class = g_type_class_peek_parent (klass);                     \
  t_n##_class_init ((TN##Class *) klass);                                    \
}                                                                            \
static void                                                                  \
t_n##_instance_intern_init (GTypeInstance * instance, gpointer klass)        \
{                                                                            \
  t_n##_init ((TN *) instance);                                              \
}                                                                            \
GType                                                                        \
t_n##_get_type (void)                                                        \
{                                                                            \
  static gsize type_id = 0;                                                  \
  if (g_once_init_enter (&type_id)) {                                        \
    GType id = g_type_register_static_simple (T_P,                           \
        g_intern_static_string (type_name), sizeof (TN##Class),              \
        t_n##_class_intern_init, sizeof (TN),                                \
        t_n##_instance_intern_init, (GTypeFlags) (flags));                   \
    g_once_init_leave (&type_id, id);                                        \
  }                                                                          \
  return type_id;                                                            \
}

G_END_DECLS

#endif /* __GST_HIP_TYPE_H__ */
