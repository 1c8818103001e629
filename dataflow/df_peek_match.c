/*
 * df_peek_match.c: a read of a relation without a key (a materialized
 * view's result, a table without a key) under a filter that fixes some of
 * its columns with "=" or IN (srv_read_lookup.c): each worker answers only
 * its rows whose fixed columns equal those of one of the lookup's rows (the
 * columns a lookup row holds a value in; it holds NULL in the others),
 * instead of every row. Without an index it still reads all of its share,
 * but ships, and the server decodes and filters, only the matches; a view
 * with an index whose columns every lookup row fixes is read by seeking its
 * index (df_index.c) at each lookup value instead. Equality is that of the
 * key encoding's bytes, which the server allows only for types where it is
 * SQL's "=".
 */
#include "dataflow/df_flow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct df__want {
    df_keycol_t *cols;           /* the columns the lookup row fixes */
    int ncols;
    cm_buf_t key;                /* their key encoding */
} df__want_t;

static bool df__same_cols(const df__want_t *a, const df__want_t *b)
{
    if (a->ncols != b->ncols)
        return false;
    for (int i = 0; i < a->ncols; i++)
        if (a->cols[i].col != b->cols[i].col)
            return false;
    return true;
}

/* Each lookup row's fixed columns and their key encoding (want, l->nrows of them). */
static bool df__wants(const ty_oid_t *types, int ncols, const df_peek_lookup_t *l, ty_ctx_t *ctx, ty_datum_t *vals,
                      df__want_t *want)
{
    bool ok = true;
    for (uint32_t i = 0; i < l->nrows && ok; i++) {
        df__want_t *w = &want[i];
        cm_buf_init(&w->key, 0);
        w->cols = cm_arena_alloc(ctx->arena, sizeof *w->cols * (size_t)(ncols ? ncols : 1));
        ok = df__row_decode(types, ncols, l->rows[i], l->lens[i], DF_ROW_BORROW, ctx, vals);
        for (int c = 0; ok && c < ncols; c++)
            if (!vals[c].isnull)
                w->cols[w->ncols++] = (df_keycol_t){.col = c, .type = types[c]};
        if (ok && w->ncols == 0)
            ok = cm_err_set(ctx->err, CM_ERRCODE_INTERNAL_ERROR, "a lookup row that fixes no column");
        ok = ok && df__key_encode(w->cols, w->ncols, vals, ctx, &w->key);
    }
    return ok;
}

static void df__wants_free(df__want_t *want, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        cm_buf_free(&want[i].key);
}

/* Whether the decoded row vals matches one of want[0..n) (key: scratch). */
static bool df__matches(const df__want_t *want, uint32_t n, const ty_datum_t *vals, ty_ctx_t *ctx, cm_buf_t *key,
                        bool *ok)
{
    const df__want_t *encoded = NULL;   /* whose columns key holds now */
    for (uint32_t i = 0; *ok && i < n; i++) {
        if (encoded == NULL || !df__same_cols(encoded, &want[i])) {
            cm_buf_reset(key);
            *ok = df__key_encode(want[i].cols, want[i].ncols, vals, ctx, key);
            encoded = &want[i];
        }
        if (*ok && key->len == want[i].key.len && memcmp(key->data, want[i].key.data, key->len) == 0)
            return true;
    }
    return false;
}

bool df__peek_match(const ty_oid_t *types, int ncols, df_snap_t *snap, bool rows_in_keys, const df_peek_lookup_t *l,
                    cm_buf_t *out, ty_ctx_t *ctx, uint32_t *rows)
{
    *rows = 0;
    if (l->ncols != (uint32_t)ncols)
        return cm_err_set(ctx->err, CM_ERRCODE_INTERNAL_ERROR, "a lookup of %u columns in a relation of %d", l->ncols,
                          ncols);
    ty_datum_t *vals = cm_arena_alloc(ctx->arena, sizeof(ty_datum_t) * (size_t)(ncols ? ncols : 1));
    df__want_t *want = cm_arena_zalloc(ctx->arena, sizeof *want * (l->nrows ? l->nrows : 1));
    bool ok = df__wants(types, ncols, l, ctx, vals, want);
    cm_buf_t key;
    cm_buf_init(&key, 0);
    if (ok && l->nrows > 0) {
        df_scur_t cur;
        df__scur_init(&cur, snap);
        for (; ok && df__scur_key_valid(&cur); df__scur_key_next(&cur))
            for (; ok && df__scur_val_valid(&cur); df__scur_val_next(&cur)) {
                size_t len;
                const uint8_t *row = rows_in_keys ? df__scur_key(&cur, &len) : df__scur_val(&cur, &len);
                ok = df__row_decode(types, ncols, row, len, DF_ROW_BORROW, ctx, vals);
                if (ok && df__matches(want, l->nrows, vals, ctx, &key, &ok)) {
                    df_peek_part_row(out, row, len, df__scur_diff(&cur));
                    (*rows)++;
                }
            }
        df__scur_free(&cur);
    }
    cm_buf_free(&key);
    df__wants_free(want, l->nrows);
    return ok;
}

/* Whether every lookup row fixes every column of ix. */
static bool df__index_fits(const df_readix_t *ix, const df__want_t *want, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        for (int c = 0; c < ix->ncols; c++) {
            bool fixed = false;
            for (int k = 0; k < want[i].ncols && !fixed; k++)
                fixed = want[i].cols[k].col == ix->cols[c].col;
            if (!fixed)
                return false;
        }
    return true;
}

typedef struct df__seek {
    cm_buf_t key;                /* the index columns' encoding of a lookup row */
} df__seek_t;

static int df__seek_cmp(const void *a, const void *b)
{
    const cm_buf_t *x = &((const df__seek_t *)a)->key, *y = &((const df__seek_t *)b)->key;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->data, y->data, n);
    return c != 0 ? c : (x->len > y->len) - (x->len < y->len);
}

bool df__peek_index(const df_readview_t *v, const df_peek_lookup_t *l, cm_buf_t *out, ty_ctx_t *ctx, uint32_t *rows,
                    bool *used)
{
    *rows = 0;
    *used = false;
    const ty_oid_t *types = v->types;
    int ncols = v->ncols;
    if (v->nindexes == 0 || l->ncols != (uint32_t)ncols || l->nrows == 0)
        return true;
    ty_datum_t *vals = cm_arena_alloc(ctx->arena, sizeof(ty_datum_t) * (size_t)(ncols ? ncols : 1));
    df__want_t *want = cm_arena_zalloc(ctx->arena, sizeof *want * l->nrows);
    bool ok = df__wants(types, ncols, l, ctx, vals, want);
    const df_readix_t *ix = NULL;
    for (int i = 0; ok && i < v->nindexes && ix == NULL; i++)
        if (df__index_fits(&v->indexes[i], want, l->nrows))
            ix = &v->indexes[i];
    if (!ok || ix == NULL) {
        df__wants_free(want, l->nrows);
        return ok;
    }
    *used = true;
    /* The lookup rows' index keys, sorted and without repeats: one cursor seeks forward through them. */
    df__seek_t *seeks = cm_arena_zalloc(ctx->arena, sizeof *seeks * l->nrows);
    uint32_t nseeks = 0;
    for (uint32_t i = 0; ok && i < l->nrows; i++) {
        cm_buf_init(&seeks[nseeks].key, 0);
        ok = df__row_decode(types, ncols, l->rows[i], l->lens[i], DF_ROW_BORROW, ctx, vals) &&
             df__key_encode(ix->cols, ix->ncols, vals, ctx, &seeks[nseeks].key);
        nseeks++;
    }
    if (ok)
        qsort(seeks, nseeks, sizeof *seeks, df__seek_cmp);
    cm_buf_t key;
    cm_buf_init(&key, 0);
    if (ok) {
        df_scur_t cur;
        df__scur_init(&cur, ix->snap);
        for (uint32_t s = 0; ok && s < nseeks; s++) {
            const cm_buf_t *k = &seeks[s].key;
            if (s > 0 && df__seek_cmp(&seeks[s - 1], &seeks[s]) == 0)
                continue;
            if (!df__scur_seek(&cur, k->data, k->len)) {
                if (!df__scur_key_valid(&cur))
                    break;   /* past the last key */
                continue;
            }
            for (; ok && df__scur_val_valid(&cur); df__scur_val_next(&cur)) {
                size_t len;
                const uint8_t *row = df__scur_val(&cur, &len);
                int64_t diff = df__scur_diff(&cur);
                if (diff == 0)
                    continue;
                ok = df__row_decode(types, ncols, row, len, DF_ROW_BORROW, ctx, vals);
                if (ok && df__matches(want, l->nrows, vals, ctx, &key, &ok)) {
                    df_peek_part_row(out, row, len, diff);
                    (*rows)++;
                }
            }
        }
        df__scur_free(&cur);
    }
    cm_buf_free(&key);
    for (uint32_t i = 0; i < nseeks; i++)
        cm_buf_free(&seeks[i].key);
    df__wants_free(want, l->nrows);
    return ok;
}
