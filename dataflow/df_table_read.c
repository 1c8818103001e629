/*
 * df_table_read.c: a read of one table's shard from a snapshot, as a
 * Peek's answer part (df_peek_part_*): every row, or a lookup's. A table
 * with a key is looked up by seeking each lookup key this shard owns
 * (hash % workers), so a read by key costs its answer, not the table; one
 * without a key ships the rows whose fixed columns match
 * (df_peek_match.c). The worker reads its spine's snapshot this way at the
 * Peek's step; a reader on another thread reads the one the worker
 * published (df_publish.c), with the worker's number in place of its own.
 */
#include "dataflow/df_flow.h"

#include <stdlib.h>
#include <string.h>

static uint32_t df__table_all(df_snap_t *snap, cm_buf_t *out)
{
    df_scur_t cur;
    df__scur_init(&cur, snap);
    uint32_t rows = 0;
    for (; df__scur_key_valid(&cur); df__scur_key_next(&cur))
        for (; df__scur_val_valid(&cur); df__scur_val_next(&cur)) {
            size_t len;
            const uint8_t *v = df__scur_val(&cur, &len);
            df_peek_part_row(out, v, len, df__scur_diff(&cur));
            rows++;
        }
    df__scur_free(&cur);
    return rows;
}

static int df__key_cmp(const void *a, const void *b)
{
    const cm_buf_t *x = a, *y = b;
    return df__bytes_cmp(x->data, x->len, y->data, y->len);
}

/* The rows whose key is one of the lookup's that shard w owns; keys sorted and distinct, each read once. */
static bool df__table_keys(const df_readtable_t *t, int w, int nw, const df_peek_lookup_t *l, cm_buf_t *out,
                           ty_ctx_t *ctx, uint32_t *rows)
{
    if (l->ncols != (uint32_t)t->ncols)
        return cm_err_set(ctx->err, CM_ERRCODE_INTERNAL_ERROR, "a lookup of %u columns in a table of %d", l->ncols,
                          t->ncols);
    cm_buf_t *keys = cm_arena_zalloc(ctx->arena, sizeof *keys * (l->nrows ? l->nrows : 1));
    ty_datum_t *vals = cm_arena_alloc(ctx->arena, sizeof(ty_datum_t) * (size_t)(t->ncols ? t->ncols : 1));
    uint32_t nk = 0;
    bool ok = true;
    for (uint32_t i = 0; i < l->nrows && ok; i++) {
        cm_buf_t *k = &keys[nk];
        cm_buf_init(k, 0);
        ok = df__row_decode(t->types, t->ncols, l->rows[i], l->lens[i], DF_ROW_BORROW, ctx, vals) &&
             df__key_encode(t->keys, t->nkeys, vals, ctx, k);
        if (ok && df__hash(k->data, k->len) % (uint64_t)nw == (uint64_t)w)
            nk++;
        else
            cm_buf_free(k);
    }
    qsort(keys, nk, sizeof *keys, df__key_cmp);
    df_scur_t cur;
    if (ok && nk)
        df__scur_init(&cur, t->snap);
    for (uint32_t i = 0; ok && i < nk; i++) {
        if ((i == 0 || df__key_cmp(&keys[i - 1], &keys[i]) != 0) && df__scur_seek(&cur, keys[i].data, keys[i].len))
            for (; df__scur_val_valid(&cur); df__scur_val_next(&cur)) {
                size_t len;
                const uint8_t *v = df__scur_val(&cur, &len);
                df_peek_part_row(out, v, len, df__scur_diff(&cur));
                (*rows)++;
            }
    }
    if (ok && nk)
        df__scur_free(&cur);
    for (uint32_t i = 0; i < nk; i++)
        cm_buf_free(&keys[i]);
    return ok;
}

bool df__readtable_peek(const df_readtable_t *t, uint64_t id, int w, int nw, const df_peek_lookup_t *l, cm_buf_t *out,
                        ty_ctx_t *ctx, uint32_t *rows)
{
    size_t at = df_peek_part_begin(out, id);
    *rows = 0;
    bool ok = true;
    if (l == NULL)
        *rows = df__table_all(t->snap, out);
    else if (!t->has_key)
        ok = df__peek_match(t->types, t->ncols, t->snap, false, l, out, ctx, rows);
    else
        ok = df__table_keys(t, w, nw, l, out, ctx, rows);
    if (ok)
        df_peek_part_end(out, at, *rows);
    return ok;
}
