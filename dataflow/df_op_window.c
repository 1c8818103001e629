/*
 * df_op_window.c: window functions of a view (DESIGN §6), maintained by
 * partition. Each input row is keyed by the key encoding of its PARTITION
 * BY values (equal bytes exactly when the values are equal, NULLs together,
 * as PostgreSQL partitions) and routed to the worker owning that key in one
 * exchange round; there the rows are arranged by it. For every partition a
 * step touches, the window is run (plan_window.c, the kernel the pull
 * executor runs too, so a function means the same in a view and in a query)
 * over the partition's rows before the delta and after it: the old output
 * rows are retracted and the new ones added, equal ones cancelling. A
 * partition is read in the arrangement's order (its rows' encoded bytes)
 * and the kernel sorts stably, so rows tied on the ORDER BY are numbered
 * one fixed way, a function of the rows, as PostgreSQL leaves ties to any
 * order. A change costs the size of the partitions it touches; a window
 * without PARTITION BY is one partition, recomputed whole on the owner of
 * the empty key. A partition whose run fails (1/0 in an argument) has no
 * output rows and is an error of the view until its rows change so that it
 * runs again; a NULL frame offset or a negative ROWS / GROUPS one, checked
 * once, puts the view in error for good, as PostgreSQL's query fails even
 * over no rows (a negative RANGE offset fails the runs of partitions with
 * rows to compare, as PostgreSQL's in_range does).
 */
#include "dataflow/df_flow.h"

#include <stdlib.h>
#include <string.h>

typedef struct df__window {
    plan_window_exprs_t ex;      /* the plan's own expressions (a view has no subqueries left) */
    df_keycol_t *pcols;          /* over the PARTITION BY values */
    int npart;
    bool checked, failed;        /* frame offsets checked; failed: the view is in error for good */
    df_spine_t input;            /* key: the partition key; value: an input row */
} df__window_t;

static void df__window_free(void *p)
{
    df__window_t *wd = p;
    if (!wd)
        return;
    df__spine_free(&wd->input);
    free(wd);
}

static bool df__window_idle(void *p, int64_t *fuel)
{
    return df__spine_idle_spend(&((df__window_t *)p)->input, fuel);
}

bool df__window_new(df_graph_t *g, df_node_t *n, cm_err_t *err)
{
    const plan_window_t *w = n->rel->window;
    df__window_t *wd = cm_calloc(1, sizeof *wd);
    df__spine_init(&wd->input);
    n->state = wd;
    n->arranged[0] = &wd->input;
    n->state_free = df__window_free;
    n->state_idle = df__window_idle;
    wd->npart = w->npart;
    wd->pcols = cm_arena_zalloc(&g->arena, sizeof(df_keycol_t) * (size_t)(w->npart ? w->npart : 1));
    for (int i = 0; i < w->npart; i++)
        wd->pcols[i] = (df_keycol_t){.col = i, .type = w->part[i]->type};
    return df__key_check(wd->pcols, wd->npart, err) && plan_window_exprs(w, &g->arena, NULL, NULL, &wd->ex);
}

/*
 * The output rows of the partition at key pk in a snapshot (through cur,
 * moving forward only), added with sign; a failed run is an error of the
 * view with that sign, so the run before the partition's next change takes
 * it back.
 */
static void df__window_part(df_step_t *s, df_node_t *n, df_scur_t *cur, const uint8_t *pk, size_t pl, int64_t sign,
                            df_builder_t *out, cm_buf_t *enc)
{
    df__window_t *wd = n->state;
    const df_node_t *in = n->in[0];
    if (!df__scur_seek(cur, pk, pl))
        return;   /* no rows: no partition */
    int cap = 16, nrows = 0;
    ty_datum_t **rows = cm_arena_alloc(&s->rowa, sizeof *rows * (size_t)cap);
    bool ok = true;
    for (; ok && df__scur_val_valid(cur); df__scur_val_next(cur)) {
        int64_t m = df__scur_diff(cur);
        if (m <= 0)
            continue;
        size_t vl;
        const uint8_t *v = df__scur_val(cur, &vl);
        ty_datum_t *row = cm_arena_alloc(&s->rowa, sizeof(ty_datum_t) * (size_t)(in->ncols ? in->ncols : 1));
        if (!(ok = df__row_decode(in->types, in->ncols, v, vl, DF_ROW_BORROW, &s->ctx, row)))
            break;
        for (int64_t c = 0; c < m; c++) {
            if (nrows == cap) {
                ty_datum_t **more = cm_arena_alloc(&s->rowa, sizeof *more * (size_t)cap * 2);
                memcpy(more, rows, sizeof *rows * (size_t)nrows);
                rows = more;
                cap *= 2;
            }
            rows[nrows++] = row;   /* copies of a row are rows of their own to the window */
        }
    }
    /* Every output row is encoded before any is added: a failed partition shows none. */
    ty_datum_t **res = NULL;
    size_t *ends = NULL;
    ok = ok && plan_window_run(n->rel, &wd->ex, rows, nrows, NULL, &s->ctx, &res);
    if (ok) {
        cm_buf_reset(enc);
        ends = cm_arena_alloc(&s->rowa, sizeof *ends * (size_t)(nrows ? nrows : 1));
        for (int i = 0; ok && i < nrows; i++)
            if ((ok = df__row_encode(n->types, n->ncols, res[i], &s->ctx, enc)))
                ends[i] = enc->len;
    }
    for (int i = 0; ok && i < nrows; i++) {
        size_t at = i ? ends[i - 1] : 0;
        df__builder_add(out, "", 0, enc->data + at, ends[i] - at, sign);
    }
    if (!ok)
        df__graph_error(s, sign);
    cm_arena_reset(&s->rowa);
}

bool df__op_window(df_step_t *s, df_node_t *n)
{
    df__window_t *wd = n->state;
    const df_node_t *src = n->in[0];
    int nw = s->st->nworkers;
    df_builder_t *bls = cm_calloc((size_t)nw, sizeof *bls);
    for (int w = 0; w < nw; w++)
        df__builder_init(&bls[w]);
    cm_buf_t key;
    cm_buf_init(&key, 0);
    ty_datum_t *vals = cm_malloc(sizeof(ty_datum_t) * (size_t)(src->ncols ? src->ncols : 1));
    ty_datum_t *kv = cm_malloc(sizeof(ty_datum_t) * (size_t)(wd->npart ? wd->npart : 1));
    if (!wd->checked) {
        /* The frame offsets are constants PostgreSQL checks before any row, even over none
         * (a negative RANGE offset only once rows are compared: each partition's run fails). */
        int64_t so, eo;
        bool range_negative;
        wd->checked = true;
        if (!plan_window_offsets(n->rel->window, &wd->ex, NULL, &s->ctx, &so, &eo, &range_negative)) {
            wd->failed = true;
            df__graph_error(s, 1);
        }
        cm_arena_reset(&s->rowa);
    }
    const df_batch_t *in = wd->failed ? NULL : src->out;
    for (uint64_t j = 0; in && j < in->nvals; j++) {
        size_t len;
        const uint8_t *v = df__batch_val(in, j, &len);
        int64_t diff = df__batch_diff(in, j);
        cm_buf_reset(&key);
        bool ok = df__row_decode(src->types, src->ncols, v, len, DF_ROW_BORROW, &s->ctx, vals);
        for (int i = 0; ok && i < wd->npart; i++) {
            memset(&kv[i], 0, sizeof kv[i]);
            ok = ty_expr_eval(wd->ex.part[i], &s->ctx, vals, NULL, &kv[i]);
        }
        if (ok && df__key_encode(wd->pcols, wd->npart, kv, &s->ctx, &key))
            df__builder_add(&bls[df__owner(s, key.data, key.len)], key.data, key.len, v, len, diff);
        else
            df__graph_error(s, diff);   /* its PARTITION BY failed: a row of no partition */
        cm_arena_reset(&s->rowa);
    }
    bool ok;
    df_batch_t *d = df__route(s, bls, &ok);
    if (d) {
        df_builder_t ob;
        df__builder_init(&ob);
        df_snap_t *before = df__spine_snapshot(&wd->input);
        df_scur_t cur;
        df__scur_init(&cur, before);
        for (uint64_t k = 0; k < d->nkeys; k++) {
            size_t kl;
            const uint8_t *kp = df__batch_key(d, k, &kl);
            df__window_part(s, n, &cur, kp, kl, -1, &ob, &key);
        }
        df__scur_free(&cur);
        df__snap_unref(before);
        df__batch_ref(d);
        df__spine_insert(&wd->input, d);
        df_snap_t *after = df__spine_snapshot(&wd->input);
        df__scur_init(&cur, after);
        for (uint64_t k = 0; k < d->nkeys; k++) {
            size_t kl;
            const uint8_t *kp = df__batch_key(d, k, &kl);
            df__window_part(s, n, &cur, kp, kl, +1, &ob, &key);
        }
        df__scur_free(&cur);
        df__snap_unref(after);
        n->out = df__finish(&ob, s->seq);
        df__builder_free(&ob);
        df__batch_unref(d);
    }
    for (int w = 0; w < nw; w++)
        df__builder_free(&bls[w]);
    free(bls);
    free(vals);
    free(kv);
    cm_buf_free(&key);
    return ok;
}
