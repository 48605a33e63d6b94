/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Opening a vendor runtime library and looking up its entry points: the
 * bottom of the runtime layer, used by the vendor files (hip-amd.c,
 * hip-nvidia.c), which the loader (hip-loader.c) calls. */

#include "hip-library-private.h"

#include <dlfcn.h>
#include <string.h>

G_DEFINE_QUARK (vh-hip-error-quark, vh_hip_error);

gpointer
vh_hip_dlopen_first (const gchar * env_var, const gchar * const *names,
    gchar ** loaded, GString * tried)
{
  const gchar *override = env_var ? g_getenv (env_var) : NULL;
  const gchar *one[2] = { override, NULL };

  if (override && *override)
    names = one;
  for (guint i = 0; names[i]; i++) {
    gpointer lib = dlopen (names[i], RTLD_NOW | RTLD_LOCAL);
    const gchar *why;

    if (lib) {
      *loaded = g_strdup (names[i]);
      return lib;
    }
    why = dlerror ();
    if (tried->len)
      g_string_append (tried, ", ");
    g_string_append (tried, names[i]);
    /* A library that exists but does not load deserves the loader's
     * reason; a missing one does not. */
    if (why && !strstr (why, "No such file"))
      g_string_append_printf (tried, " (%s)", why);
  }
  return NULL;
}

gboolean
vh_hip_dlsym_table (gpointer lib, const gchar * library,
    const gchar * const *names, gpointer * table, guint n,
    const gchar * const *optional, GError ** error)
{
  for (guint i = 0; i < n; i++) {
    table[i] = dlsym (lib, names[i]);
    if (!table[i] && !(optional && g_strv_contains (optional, names[i]))) {
      g_set_error (error, VH_HIP_ERROR, VH_HIP_ERROR_NO_RUNTIME,
          "%s lacks %s: the runtime is too old or not a GPU runtime",
          library, names[i]);
      return FALSE;
    }
  }
  return TRUE;
}
