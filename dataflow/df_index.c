/*
 * df_index.c: CREATE INDEX on a materialized view (DESIGN §6). The index is
 * a dataflow of its own (plan bytes "EIX1": the view's ID and the key
 * columns' positions and types, df_index_plan_encode) whose arrangement
 * lives with the view's graph on each worker: a spine keyed by the key
 * columns' encoding, values the view's rows, built from the view's result
 * when either of them is installed and kept up to date from the view's
 * delta at every step (df__mview_apply). A read that fixes the index's
 * columns with "=" or IN seeks it (df_peek_match.c) instead of reading
 * every row. Dropping the index, or the view, frees it.
 */
#include "dataflow/df_flow.h"

#include <stdlib.h>
#include <string.h>

#define DF__INDEX_MAGIC "EIX1"

void df_index_plan_encode(uint64_t view, int ncols, const uint32_t *pos, const ty_oid_t *types, cm_buf_t *out)
{
    cm_buf_put(out, DF__INDEX_MAGIC, 4);
    cm_buf_put_be64(out, view);
    cm_buf_put_be32(out, (uint32_t)ncols);
    for (int i = 0; i < ncols; i++) {
        cm_buf_put_be32(out, pos[i]);
        cm_buf_put_be32(out, types[i]);
    }
}

static uint32_t df__be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

bool df__index_plan_decode(df_dataflow_t *f, const uint8_t *p, size_t n)
{
    if (n < 16 || memcmp(p, DF__INDEX_MAGIC, 4) != 0)
        return false;
    uint64_t view = (uint64_t)df__be32(p + 4) << 32 | df__be32(p + 8);
    uint32_t ncols = df__be32(p + 12);
    if (view == 0 || ncols == 0 || ncols > 64 || n != 16 + (size_t)ncols * 8)
        return false;
    f->index_of = view;
    f->index_ncols = (int)ncols;
    f->index_pos = cm_arena_alloc(&f->arena, sizeof *f->index_pos * ncols);
    f->index_types = cm_arena_alloc(&f->arena, sizeof *f->index_types * ncols);
    for (uint32_t i = 0; i < ncols; i++) {
        f->index_pos[i] = df__be32(p + 16 + (size_t)i * 8);
        f->index_types[i] = df__be32(p + 20 + (size_t)i * 8);
    }
    return true;
}

/* The rows of batch (values, or keys when rows_in_keys) keyed by ix's columns into bl. */
static void df__index_rows(const df_graph_t *g, const df_index_t *ix, const df_batch_t *b, bool rows_in_keys,
                           df_builder_t *bl)
{
    cm_arena_t a;
    cm_arena_init(&a, 0);
    cm_err_t err = {0};
    ty_ctx_t ctx = {.arena = &a, .err = &err};
    int ncols = g->plan->ncols;
    ty_datum_t *vals = cm_arena_alloc(&a, sizeof(ty_datum_t) * (size_t)(ncols ? ncols : 1));
    cm_buf_t key;
    cm_buf_init(&key, 0);
    for (uint64_t k = 0; k < b->nkeys; k++) {
        uint64_t hi = k + 1 < b->nkeys ? df__batch_vals_lo(b, k + 1) : b->nvals;
        for (uint64_t j = df__batch_vals_lo(b, k); j < hi; j++) {
            size_t len;
            const uint8_t *row = rows_in_keys ? df__batch_key(b, k, &len) : df__batch_val(b, j, &len);
            cm_buf_reset(&key);
            /* The view's rows decode with its types: a failure here is a bug, and leaves the row
             * out of the index only (reads through the index would miss it, so it is logged). */
            if (df__row_decode(g->plan->root->types, ncols, row, len, DF_ROW_BORROW, &ctx, vals) &&
                df__key_encode(ix->cols, ix->ncols, vals, &ctx, &key))
                df__builder_add(bl, key.data, key.len, row, len, df__batch_diff(b, j));
            else
                cm_log_error("index %llu of view %llu: a row does not key: %s", (unsigned long long)ix->id,
                             (unsigned long long)g->id, err.message ? err.message : "");
            cm_err_clear(&err);
            cm_arena_reset(&a);
            vals = cm_arena_alloc(&a, sizeof(ty_datum_t) * (size_t)(ncols ? ncols : 1));
        }
    }
    cm_buf_free(&key);
    cm_arena_free(&a);
}

static void df__index_insert(df_index_t *ix, df_builder_t *bl, uint64_t lower, uint64_t upper)
{
    df_batch_t *d = df__builder_finish(bl, lower, upper);
    if (d->nvals > 0)
        df__spine_insert(&ix->spine, d);
    else
        df__batch_unref(d);
}

void df__index_apply(df_graph_t *g, const df_batch_t *delta, uint64_t seq)
{
    for (int i = 0; i < g->nindexes; i++) {
        df_builder_t bl;
        df__builder_init(&bl);
        df__index_rows(g, &g->indexes[i], delta, false, &bl);
        df__index_insert(&g->indexes[i], &bl, seq, seq + 1);
        df__builder_free(&bl);
    }
}

/* Index flow f on graph g, built from what the view holds now (if g has it not already). */
static void df__index_build(df_state_t *st, df_graph_t *g, const df_dataflow_t *f)
{
    if (g->plan == NULL)
        return;
    for (int i = 0; i < g->nindexes; i++)
        if (g->indexes[i].id == f->id)
            return;
    cm_err_t err = {0};
    for (int i = 0; i < f->index_ncols; i++)
        if (f->index_pos[i] >= (uint32_t)g->plan->ncols || g->plan->root->types[f->index_pos[i]] != f->index_types[i] ||
            !df__key_type_check(f->index_types[i], &err)) {
            cm_log_warn("worker %d: index %llu (%s) does not fit view %llu: not arranged", st->worker,
                        (unsigned long long)f->id, f->name, (unsigned long long)g->id);
            cm_err_clear(&err);
            return;
        }
    g->indexes = cm_realloc(g->indexes, sizeof *g->indexes * (size_t)(g->nindexes + 1));
    df_index_t *ix = &g->indexes[g->nindexes++];
    memset(ix, 0, sizeof *ix);
    ix->id = f->id;
    ix->ncols = f->index_ncols;
    ix->cols = cm_calloc((size_t)ix->ncols, sizeof *ix->cols);
    for (int i = 0; i < ix->ncols; i++)
        ix->cols[i] = (df_keycol_t){.col = (int)f->index_pos[i], .type = f->index_types[i]};
    df__spine_init(&ix->spine);
    df_snap_t *snap = df__spine_snapshot(&g->result);
    df_builder_t bl;
    df__builder_init(&bl);
    uint64_t upper = 1;
    for (uint32_t i = 0; i < snap->nbatches; i++) {
        df__index_rows(g, ix, snap->batches[i], true, &bl);
        if (snap->batches[i]->upper > upper)
            upper = snap->batches[i]->upper;
    }
    df__index_insert(ix, &bl, 0, upper);
    df__builder_free(&bl);
    df__snap_unref(snap);
}

void df__index_attach(df_state_t *st, const df_dataflow_t *f)
{
    df_graph_t *g = f->index_of ? df__graph_find(st, f->index_of) : NULL;
    if (g != NULL) {
        df__index_build(st, g, f);
        df__pub_mark(st, g->id);
    }
}

void df__index_attach_all(df_state_t *st, df_graph_t *g)
{
    for (size_t i = 0; i < st->nflows; i++)
        if (st->flows[i].index_of == g->id)
            df__index_build(st, g, &st->flows[i]);
}

static void df__index_free(df_index_t *ix)
{
    df__spine_free(&ix->spine);
    free(ix->cols);
}

void df__index_detach(df_state_t *st, const df_dataflow_t *f)
{
    df_graph_t *g = f->index_of ? df__graph_find(st, f->index_of) : NULL;
    if (g != NULL)
        df__pub_mark(st, g->id);
    for (int i = 0; g != NULL && i < g->nindexes; i++)
        if (g->indexes[i].id == f->id) {
            df__index_free(&g->indexes[i]);
            g->indexes[i] = g->indexes[--g->nindexes];
            return;
        }
}

void df__index_free_all(df_graph_t *g)
{
    for (int i = 0; i < g->nindexes; i++)
        df__index_free(&g->indexes[i]);
    free(g->indexes);
    g->indexes = NULL;
    g->nindexes = 0;
}

bool df__index_idle(df_graph_t *g, int64_t *fuel)
{
    bool more = false;
    for (int i = 0; i < g->nindexes; i++)
        more |= df__spine_idle_spend(&g->indexes[i].spine, fuel);
    return more;
}
