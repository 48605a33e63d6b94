/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#include "backend-choice.h"
#include "errors.h"

static const gchar *const choice_names[] = { "auto", "cpu", "hip" };

gboolean
vh_backend_choice_from_string (const gchar * str, VhBackendChoice * choice)
{
  for (guint i = 0; str && i < G_N_ELEMENTS (choice_names); i++) {
    if (!g_ascii_strcasecmp (str, choice_names[i])) {
      *choice = (VhBackendChoice) i;
      return TRUE;
    }
  }
  return FALSE;
}

const gchar *
vh_backend_choice_to_string (VhBackendChoice choice)
{
  return (guint) choice < G_N_ELEMENTS (choice_names) ?
      choice_names[choice] : "?";
}

void
vh_backend_choice_set_parse_error (GError ** error, const gchar * what,
    const gchar * str)
{
  g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
      "%s '%s': expected auto, cpu or hip", what, str ? str : "");
}

gboolean
vh_backend_choice_wants_gpu (VhBackendChoice choice)
{
  return choice != VH_BACKEND_CHOICE_CPU;
}

gboolean
vh_backend_choice_resolve (VhBackendChoice choice, const GError * gpu_error,
    VhBackend * backends, gboolean * gpu_fallback, gchar ** reason,
    GError ** error)
{
  *backends = VH_BACKEND_CPU;
  *gpu_fallback = FALSE;
  if (reason)
    *reason = NULL;
  if (choice == VH_BACKEND_CHOICE_CPU)
    return TRUE;
  if (!gpu_error) {
    *backends = VH_BACKEND_HIP | VH_BACKEND_CPU;
    *gpu_fallback = choice == VH_BACKEND_CHOICE_AUTO;
    return TRUE;
  }
  if (choice == VH_BACKEND_CHOICE_HIP) {
    g_set_error (error, VH_ERROR, VH_ERROR_BACKEND, "backend hip: %s",
        gpu_error->message);
    return FALSE;
  }
  if (reason)
    *reason = g_strdup_printf ("features run on the CPU: %s",
        gpu_error->message);
  return TRUE;
}
