/*
 * df_mview.c: a materialized view's result on one worker (DESIGN §6): an
 * arrangement (a spine) keyed by the encoded output row, into which the
 * root's delta goes at every step, so memory follows the rows the view holds
 * now. A Peek reads it at the Peek's step: every worker answers its rows in
 * the part format tables use (df_peek_part_*), or only those a lookup's
 * columns match (df_peek_match.c), and the server finishes the query. A view in error (a row of its input fails in it, or in a view it
 * reads) answers that error instead, until the row is retracted.
 */
#include "dataflow/df_flow.h"

#include <string.h>

void df__mview_apply(df_graph_t *g, const df_batch_t *delta, uint64_t seq)
{
    df_builder_t bl;
    df__builder_init(&bl);
    for (uint64_t j = 0; j < delta->nvals; j++) {
        size_t len;
        const uint8_t *v = df__batch_val(delta, j, &len);
        df__builder_add(&bl, v, len, "", 0, df__batch_diff(delta, j));
    }
    df_batch_t *b = df__finish(&bl, seq);
    df__builder_free(&bl);
    if (b)
        df__spine_insert(&g->result, b);
    if (g->nindexes > 0)
        df__index_apply(g, delta, seq);
}

df_batch_t *df__snap_rows(df_spine_t *sp, bool rows_in_keys, uint64_t seq)
{
    df_snap_t *snap = df__spine_snapshot(sp);
    df_batch_t *b = NULL;
    if (snap->nbatches == 1 && !rows_in_keys) {
        b = snap->batches[0];   /* one consolidated batch: its values are the rows already */
        df__batch_ref(b);
    } else {
        df_builder_t bl;
        df__builder_init(&bl);
        df_scur_t cur;
        df__scur_init(&cur, snap);
        for (; df__scur_key_valid(&cur); df__scur_key_next(&cur)) {
            size_t kl;
            const uint8_t *k = df__scur_key(&cur, &kl);
            for (; df__scur_val_valid(&cur); df__scur_val_next(&cur)) {
                size_t vl;
                const uint8_t *v = df__scur_val(&cur, &vl);
                if (rows_in_keys)
                    df__builder_add(&bl, "", 0, k, kl, df__scur_diff(&cur));
                else
                    df__builder_add(&bl, k, kl, v, vl, df__scur_diff(&cur));
            }
        }
        df__scur_free(&cur);
        /* The cursor gives the rows in order and consolidated already: no sort needed. */
        b = df__builder_finish_unsorted(&bl, seq, seq + 1);
        df__builder_free(&bl);
    }
    df__snap_unref(snap);
    if (b && b->nvals == 0) {
        df__batch_unref(b);
        b = NULL;
    }
    return b;
}

/* The first error of g or of a view it reads (depth bounds a cycle that cannot happen). */
const df_verr_t *df__mview_error(df_state_t *st, const df_graph_t *g, int depth)
{
    if (g->nerrs > 0)
        return &g->errs[0];
    for (int i = 0; i < g->nreads && depth < 64; i++) {
        const df_graph_t *in = df__graph_find(st, g->reads[i]);
        const df_verr_t *e = in ? df__mview_error(st, in, depth + 1) : NULL;
        if (e)
            return e;
    }
    return NULL;
}

bool df__readview_peek(const df_readview_t *v, uint64_t id, const df_peek_lookup_t *l, cm_buf_t *out, ty_ctx_t *ctx,
                       int64_t *rows)
{
    size_t at = df_peek_part_begin(out, id);
    uint32_t n = 0;
    bool ok = true;
    if (l != NULL && l->ncols == (uint32_t)v->ncols) {
        bool used = false;
        ok = df__peek_index(v, l, out, ctx, &n, &used);
        if (ok && !used)
            ok = df__peek_match(v->types, v->ncols, v->result, true, l, out, ctx, &n);
    } else {
        df_scur_t cur;
        df__scur_init(&cur, v->result);
        for (; df__scur_key_valid(&cur); df__scur_key_next(&cur))
            for (; df__scur_val_valid(&cur); df__scur_val_next(&cur)) {
                size_t kl;
                const uint8_t *k = df__scur_key(&cur, &kl);
                df_peek_part_row(out, k, kl, df__scur_diff(&cur));
                n++;
            }
        df__scur_free(&cur);
    }
    df_peek_part_end(out, at, n);
    *rows = n;
    return ok;
}

bool df__mview_peek(df_state_t *st, uint64_t id, const df_peek_lookup_t *l, cm_buf_t *out, ty_ctx_t *ctx,
                    int64_t *rows)
{
    df_graph_t *g = df__graph_find(st, id);
    if (!g || !g->plan)
        return cm_err_set(ctx->err, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                          "reading relation %llu needs the dataflow engine, which cannot read it yet",
                          (unsigned long long)id);
    const df_verr_t *e = df__mview_error(st, g, 0);
    if (e)
        return cm_err_set(ctx->err, e->sqlstate, "%s", e->message);
    df_readix_t ixs[DF_READ_INDEXES_MAX];
    df_readview_t v = {.ncols = g->plan->ncols, .types = g->plan->root->types,
                       .result = df__spine_snapshot(&g->result), .indexes = ixs};
    for (int i = 0; i < g->nindexes && v.nindexes < DF_READ_INDEXES_MAX; i++)
        ixs[v.nindexes++] = (df_readix_t){.ncols = g->indexes[i].ncols, .cols = g->indexes[i].cols,
                                          .snap = df__spine_snapshot(&g->indexes[i].spine)};
    bool ok = df__readview_peek(&v, id, l, out, ctx, rows);
    df__snap_unref(v.result);
    for (int i = 0; i < v.nindexes; i++)
        df__snap_unref(ixs[i].snap);
    return ok;
}
