/*
 * df_peek_match.c: a read of a relation without a key (a materialized
 * view's result, a table without a key) under a filter that fixes some of
 * its columns with "=" or IN (srv_read_lookup.c): each worker answers only
 * its rows whose fixed columns equal those of one of the lookup's rows (the
 * columns a lookup row holds a value in; it holds NULL in the others),
 * instead of every row. It still reads all of its share, as nothing
 * arranges those rows by those columns, but ships, and the server decodes
 * and filters, only the matches. Equality is that of the key encoding's
 * bytes, which the server allows only for types where it is SQL's "=".
 */
#include "dataflow/df_flow.h"

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

bool df__peek_match(const ty_oid_t *types, int ncols, df_spine_t *sp, bool rows_in_keys, const df_peek_lookup_t *l,
                    cm_buf_t *out, ty_ctx_t *ctx, uint32_t *rows)
{
    *rows = 0;
    if (l->ncols != (uint32_t)ncols)
        return cm_err_set(ctx->err, CM_ERRCODE_INTERNAL_ERROR, "a lookup of %u columns in a relation of %d", l->ncols,
                          ncols);
    ty_datum_t *vals = cm_arena_alloc(ctx->arena, sizeof(ty_datum_t) * (size_t)(ncols ? ncols : 1));
    df__want_t *want = cm_arena_zalloc(ctx->arena, sizeof *want * (l->nrows ? l->nrows : 1));
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
    cm_buf_t key;
    cm_buf_init(&key, 0);
    df_snap_t *snap = ok && l->nrows > 0 ? df__spine_snapshot(sp) : NULL;
    if (snap != NULL) {
        df_scur_t cur;
        df__scur_init(&cur, snap);
        for (; ok && df__scur_key_valid(&cur); df__scur_key_next(&cur))
            for (; ok && df__scur_val_valid(&cur); df__scur_val_next(&cur)) {
                size_t len;
                const uint8_t *row = rows_in_keys ? df__scur_key(&cur, &len) : df__scur_val(&cur, &len);
                ok = df__row_decode(types, ncols, row, len, DF_ROW_BORROW, ctx, vals);
                const df__want_t *encoded = NULL;   /* whose columns key holds now */
                for (uint32_t i = 0; ok && i < l->nrows; i++) {
                    if (encoded == NULL || !df__same_cols(encoded, &want[i])) {
                        cm_buf_reset(&key);
                        ok = df__key_encode(want[i].cols, want[i].ncols, vals, ctx, &key);
                        encoded = &want[i];
                    }
                    if (ok && key.len == want[i].key.len && memcmp(key.data, want[i].key.data, key.len) == 0) {
                        df_peek_part_row(out, row, len, df__scur_diff(&cur));
                        (*rows)++;
                        break;
                    }
                }
            }
        df__scur_free(&cur);
        df__snap_unref(snap);
    }
    cm_buf_free(&key);
    for (uint32_t i = 0; i < l->nrows; i++)
        cm_buf_free(&want[i].key);
    return ok;
}
