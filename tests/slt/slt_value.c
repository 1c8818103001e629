/*
 * slt_value.c: result values as sqllogictest writes them. The reference
 * runner's ODBC driver (the one the corpus's postgresql results come from)
 * fetches an I column as a C long, an R column as a double printed with
 * "%.3f", and a T column as text with NULL as "NULL", the empty string as
 * "(empty)" and every byte outside ' '..'~' as '@'. Here the server's text
 * form is converted the same way: an integer as is, a decimal or float
 * truncated toward zero for I, a non-numeric string by its leading integer
 * (0 when it has none, as atol would), a boolean as 1 or 0.
 */
#include <errno.h>
#include <math.h>
#include <openssl/evp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slt.h"

void slt_vals_push(slt_vals_t *v, const char *s)
{
    if (v->n == v->cap) {
        v->cap = v->cap ? v->cap * 2 : 64;
        char **nv = realloc(v->vals, sizeof(char *) * (size_t)v->cap);
        if (!nv) {
            fprintf(stderr, "slt: out of memory\n");
            exit(2);
        }
        v->vals = nv;
    }
    v->vals[v->n++] = (char *)s;
}

void slt_vals_clear(slt_vals_t *v)
{
    for (int i = 0; i < v->n; i++)
        free(v->vals[i]);
    v->n = 0;
}

static char *slt__dup(const char *s)
{
    char *d = strdup(s);
    if (!d) {
        fprintf(stderr, "slt: out of memory\n");
        exit(2);
    }
    return d;
}

/* A whole-string parse: only surrounding spaces may be left over. */
static bool slt__rest_blank(const char *e)
{
    while (*e == ' ' || *e == '\t' || *e == '\n')
        e++;
    return *e == 0;
}

static long long slt__to_int(const char *s)
{
    char *e;
    errno = 0;
    long long ll = strtoll(s, &e, 10);
    if (e != s && errno == 0 && slt__rest_blank(e))
        return ll;
    double d = strtod(s, &e);
    if (e != s && slt__rest_blank(e)) {
        if (isnan(d))
            return 0;
        if (d >= 9.2233720368547758e18)
            return INT64_MAX;
        if (d <= -9.2233720368547758e18)
            return INT64_MIN;
        return (long long)d;          /* truncates toward zero */
    }
    errno = 0;
    ll = strtoll(s, &e, 10);          /* the leading integer, as atol reads it */
    return e == s ? 0 : ll;
}

char *slt_value_format(char type, const char *text, bool isnull, bool is_bool)
{
    char buf[64];
    if (isnull)
        return slt__dup("NULL");
    switch (type) {
    case 'I':
        if (is_bool)
            return slt__dup(text[0] == 't' ? "1" : "0");
        snprintf(buf, sizeof buf, "%lld", slt__to_int(text));
        return slt__dup(buf);
    case 'R': {
        double d = is_bool ? (text[0] == 't') : strtod(text, NULL);
        snprintf(buf, sizeof buf, "%.3f", d);
        return slt__dup(buf);
    }
    default: {
        if (!text[0])
            return slt__dup("(empty)");
        char *d = slt__dup(text);
        for (unsigned char *p = (unsigned char *)d; *p; p++)
            if (*p < ' ' || *p > '~')
                *p = '@';
        return d;
    }
    }
}

static int slt__ncols;

static int slt__row_cmp(const void *a, const void *b)
{
    char *const *x = a, *const *y = b;
    for (int i = 0; i < slt__ncols; i++) {
        int c = strcmp(x[i], y[i]);
        if (c)
            return c;
    }
    return 0;
}

void slt_vals_sort(slt_vals_t *v, slt_sort_t sort, int ncols)
{
    if (sort == SLT_SORT_NONE || v->n == 0)
        return;
    slt__ncols = sort == SLT_SORT_ROW ? ncols : 1;
    if (slt__ncols <= 0 || v->n % slt__ncols)
        return;
    qsort(v->vals, (size_t)(v->n / slt__ncols), sizeof(char *) * (size_t)slt__ncols, slt__row_cmp);
}

void slt_vals_md5(char *const *vals, int n, char out[33])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int mdlen = 0;
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    if (!c || !EVP_DigestInit_ex(c, EVP_md5(), NULL)) {
        fprintf(stderr, "slt: MD5 unavailable\n");
        exit(2);
    }
    for (int i = 0; i < n; i++) {
        EVP_DigestUpdate(c, vals[i], strlen(vals[i]));
        EVP_DigestUpdate(c, "\n", 1);
    }
    EVP_DigestFinal_ex(c, md, &mdlen);
    EVP_MD_CTX_free(c);
    for (unsigned int i = 0; i < mdlen && i < 16; i++)
        snprintf(out + 2 * i, 3, "%02x", md[i]);
    out[32] = 0;
}
