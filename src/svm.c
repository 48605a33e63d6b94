/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#include "svm.h"
#include "errors.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct _VhSvm
{
  gdouble gamma;
  gdouble rho;
  guint n_sv;
  gdouble *coef;                /* one per support vector */
  guint *start;                 /* n_sv + 1 offsets into idx and val */
  gint *idx;                    /* attribute numbers, ascending per vector */
  gdouble *val;
};

typedef struct
{
  const gchar *p;
} Cursor;

static gboolean
is_space (gchar c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Next whitespace-separated word (caller frees), NULL at the end. */
static gchar *
next_word (Cursor * c)
{
  const gchar *start;

  while (*c->p && is_space (*c->p))
    c->p++;
  if (!*c->p)
    return NULL;
  start = c->p;
  while (*c->p && !is_space (*c->p))
    c->p++;
  return g_strndup (start, c->p - start);
}

static gboolean
read_double (Cursor * c, const gchar * what, gdouble * out, GError ** error)
{
  gchar *word = next_word (c);
  gchar *end = NULL;
  gboolean ok;

  ok = word != NULL;
  if (ok) {
    *out = g_ascii_strtod (word, &end);
    ok = end != word && *end == '\0' && isfinite (*out);
  }
  if (!ok)
    g_set_error (error, VH_ERROR, VH_ERROR_MODEL_PARSE,
        "libsvm model: '%s' needs a finite number, got '%s'", what,
        word ? word : "end of text");
  g_free (word);
  return ok;
}

static gboolean
read_int (Cursor * c, const gchar * what, gint64 * out, GError ** error)
{
  gdouble v;

  if (!read_double (c, what, &v, error))
    return FALSE;
  if (v != floor (v) || fabs (v) > G_MAXINT32) {
    g_set_error (error, VH_ERROR, VH_ERROR_MODEL_PARSE,
        "libsvm model: '%s' needs an integer, got %g", what, v);
    return FALSE;
  }
  *out = (gint64) v;
  return TRUE;
}

/* Reads @n numbers; only the first is kept when @out is not NULL. */
static gboolean
read_list (Cursor * c, const gchar * what, gint64 n, gdouble * out,
    GError ** error)
{
  for (gint64 i = 0; i < n; i++) {
    gdouble v;
    if (!read_double (c, what, &v, error))
      return FALSE;
    if (i == 0 && out)
      *out = v;
  }
  return TRUE;
}

typedef struct
{
  gboolean have_type, have_kernel, have_gamma, have_rho;
  gint64 nr_class;
  gint64 total_sv;
} Header;

static gboolean
parse_header (Cursor * c, VhSvm * svm, Header * h, GError ** error)
{
  for (;;) {
    g_autofree gchar *key = next_word (c);

    if (!key) {
      g_set_error (error, VH_ERROR, VH_ERROR_MODEL_PARSE,
          "libsvm model: no 'SV' line before the end of the text");
      return FALSE;
    }
    if (!strcmp (key, "SV"))
      return TRUE;

    if (!strcmp (key, "svm_type")) {
      g_autofree gchar *v = next_word (c);
      /* Both regression types predict with the same formula. */
      if (!v || (strcmp (v, "nu_svr") && strcmp (v, "epsilon_svr"))) {
        g_set_error (error, VH_ERROR, VH_ERROR_MODEL_PARSE,
            "libsvm model: svm_type '%s' is not supported (nu_svr, "
            "epsilon_svr)", v ? v : "");
        return FALSE;
      }
      h->have_type = TRUE;
    } else if (!strcmp (key, "kernel_type")) {
      g_autofree gchar *v = next_word (c);
      if (!v || strcmp (v, "rbf")) {
        g_set_error (error, VH_ERROR, VH_ERROR_MODEL_PARSE,
            "libsvm model: kernel_type '%s' is not supported (rbf)",
            v ? v : "");
        return FALSE;
      }
      h->have_kernel = TRUE;
    } else if (!strcmp (key, "gamma")) {
      if (!read_double (c, key, &svm->gamma, error))
        return FALSE;
      /* exp (-gamma * d2): 0 makes every vector alike, a negative one
       * overflows to infinities (NaN scores). */
      if (!(svm->gamma > 0.0)) {
        g_set_error (error, VH_ERROR, VH_ERROR_MODEL_PARSE,
            "libsvm model: gamma is %g, the RBF kernel needs gamma > 0",
            svm->gamma);
        return FALSE;
      }
      h->have_gamma = TRUE;
    } else if (!strcmp (key, "degree") || !strcmp (key, "coef0")) {
      gdouble unused;           /* parameters of other kernels */
      if (!read_double (c, key, &unused, error))
        return FALSE;
    } else if (!strcmp (key, "nr_class")) {
      if (!read_int (c, key, &h->nr_class, error))
        return FALSE;
      if (h->nr_class != 2) {
        g_set_error (error, VH_ERROR, VH_ERROR_MODEL_PARSE,
            "libsvm model: nr_class is %" G_GINT64_FORMAT
            ", regression models have 2", h->nr_class);
        return FALSE;
      }
    } else if (!strcmp (key, "total_sv")) {
      if (!read_int (c, key, &h->total_sv, error))
        return FALSE;
      if (h->total_sv < 0) {
        g_set_error (error, VH_ERROR, VH_ERROR_MODEL_PARSE,
            "libsvm model: negative total_sv");
        return FALSE;
      }
    } else if (!strcmp (key, "rho") || !strcmp (key, "probA") ||
        !strcmp (key, "probB") || !strcmp (key, "label") ||
        !strcmp (key, "nr_sv")) {
      gboolean per_pair = key[0] == 'r' || key[0] == 'p';
      if (!h->nr_class) {
        g_set_error (error, VH_ERROR, VH_ERROR_MODEL_PARSE,
            "libsvm model: '%s' comes before nr_class", key);
        return FALSE;
      }
      /* One value per class pair (1 for regression) or per class. */
      if (!read_list (c, key, per_pair ? 1 : h->nr_class,
              !strcmp (key, "rho") ? &svm->rho : NULL, error))
        return FALSE;
      h->have_rho |= !strcmp (key, "rho");
    } else {
      g_set_error (error, VH_ERROR, VH_ERROR_MODEL_PARSE,
          "libsvm model: unknown header word '%s'", key);
      return FALSE;
    }
  }
}

static gboolean
parse_vectors (Cursor * c, VhSvm * svm, guint n_sv, GError ** error)
{
  GArray *idx = g_array_new (FALSE, FALSE, sizeof (gint));
  GArray *val = g_array_new (FALSE, FALSE, sizeof (gdouble));
  gboolean ok = TRUE;

  svm->n_sv = n_sv;
  svm->coef = g_new0 (gdouble, MAX (n_sv, 1));
  svm->start = g_new0 (guint, n_sv + 1);

  /* The vectors start on the line after "SV". */
  while (*c->p && *c->p != '\n')
    c->p++;
  if (*c->p)
    c->p++;

  for (guint s = 0; ok && s < n_sv; s++) {
    gchar *end;
    gint last = 0;

    if (!*c->p) {
      g_set_error (error, VH_ERROR, VH_ERROR_MODEL_PARSE,
          "libsvm model: total_sv is %u but the text has %u support vectors",
          n_sv, s);
      ok = FALSE;
      break;
    }
    svm->start[s] = idx->len;
    svm->coef[s] = g_ascii_strtod (c->p, &end);
    if (end == c->p || !isfinite (svm->coef[s])) {
      g_set_error (error, VH_ERROR, VH_ERROR_MODEL_PARSE,
          "libsvm model: support vector %u does not start with a finite "
          "coefficient", s + 1);
      ok = FALSE;
      break;
    }
    c->p = end;
    for (;;) {
      gint64 index;
      gdouble v;

      while (*c->p == ' ' || *c->p == '\t' || *c->p == '\r')
        c->p++;
      if (!*c->p || *c->p == '\n')
        break;
      errno = 0;
      index = g_ascii_strtoll (c->p, &end, 10);
      if (end == c->p || *end != ':' || errno || index <= last ||
          index > G_MAXINT32) {
        g_set_error (error, VH_ERROR, VH_ERROR_MODEL_PARSE,
            "libsvm model: support vector %u: expected ascending "
            "'index:value' pairs", s + 1);
        ok = FALSE;
        break;
      }
      c->p = end + 1;
      v = g_ascii_strtod (c->p, &end);
      if (end == c->p || !isfinite (v)) {
        g_set_error (error, VH_ERROR, VH_ERROR_MODEL_PARSE,
            "libsvm model: support vector %u: attribute %" G_GINT64_FORMAT
            " has no finite value", s + 1, index);
        ok = FALSE;
        break;
      }
      c->p = end;
      last = (gint) index;
      g_array_append_val (idx, last);
      g_array_append_val (val, v);
    }
    if (*c->p == '\n')
      c->p++;
  }
  svm->start[n_sv] = idx->len;
  svm->idx = (gint *) g_array_free (idx, FALSE);
  svm->val = (gdouble *) g_array_free (val, FALSE);
  return ok;
}

VhSvm *
vh_svm_parse (const gchar * text, gsize len, GError ** error)
{
  g_autofree gchar *copy = g_strndup (text, len);       /* NUL-terminated */
  VhSvm *svm = g_new0 (VhSvm, 1);
  Header h = { 0 };
  Cursor c = { copy };
  const gchar *missing = NULL;

  if (!parse_header (&c, svm, &h, error))
    goto fail;
  if (!h.have_type)
    missing = "svm_type";
  else if (!h.have_kernel)
    missing = "kernel_type";
  else if (!h.have_gamma)
    missing = "gamma";
  else if (!h.nr_class)
    missing = "nr_class";
  else if (!h.have_rho)
    missing = "rho";
  if (missing) {
    g_set_error (error, VH_ERROR, VH_ERROR_MODEL_PARSE,
        "libsvm model: no '%s' in the header", missing);
    goto fail;
  }
  /* Each vector takes a line of at least two bytes: a larger count is a
   * lie, refused before it sizes an allocation. */
  if (h.total_sv > (gint64) strlen (c.p) / 2 + 1) {
    g_set_error (error, VH_ERROR, VH_ERROR_MODEL_PARSE,
        "libsvm model: total_sv is %" G_GINT64_FORMAT " but the text after "
        "'SV' has only %" G_GSIZE_FORMAT " bytes", h.total_sv, strlen (c.p));
    goto fail;
  }
  if (!parse_vectors (&c, svm, (guint) h.total_sv, error))
    goto fail;
  return svm;

fail:
  vh_svm_free (svm);
  return NULL;
}

void
vh_svm_free (VhSvm * svm)
{
  if (!svm)
    return;
  g_free (svm->coef);
  g_free (svm->start);
  g_free (svm->idx);
  g_free (svm->val);
  g_free (svm);
}

/* exp (-gamma |x - sv|^2). Both vectors are walked in attribute order and
 * the squares summed in that order, attributes missing from one side
 * counting as 0, as libsvm does: the order of the sum decides the last
 * bits. */
static gdouble
rbf (const VhSvm * svm, guint s, const gdouble * x, guint n)
{
  const gint *idx = svm->idx + svm->start[s];
  const gdouble *val = svm->val + svm->start[s];
  guint len = svm->start[s + 1] - svm->start[s];
  guint i = 0, j = 0;
  gdouble d2 = 0.0;

  while (i < n && j < len) {
    gint attr = (gint) i + 1;

    if (attr == idx[j]) {
      gdouble d = x[i] - val[j];
      d2 += d * d;
      i++;
      j++;
    } else if (attr > idx[j]) {
      d2 += val[j] * val[j];
      j++;
    } else {
      d2 += x[i] * x[i];
      i++;
    }
  }
  for (; i < n; i++)
    d2 += x[i] * x[i];
  for (; j < len; j++)
    d2 += val[j] * val[j];
  return exp (-svm->gamma * d2);
}

guint
vh_svm_max_attribute (const VhSvm * svm)
{
  guint max = 0;

  /* Attribute numbers ascend within each vector: its last is its largest. */
  for (guint s = 0; s < svm->n_sv; s++) {
    if (svm->start[s + 1] > svm->start[s])
      max = MAX (max, (guint) svm->idx[svm->start[s + 1] - 1]);
  }
  return max;
}

gdouble
vh_svm_predict (const VhSvm * svm, const gdouble * x, guint n)
{
  gdouble sum = 0.0;

  for (guint s = 0; s < svm->n_sv; s++)
    sum += svm->coef[s] * rbf (svm, s, x, n);
  return sum - svm->rho;
}
