/*
 * df_op_topk.c: ORDER BY ... LIMIT / OFFSET of a view and DISTINCT ON
 * (DESIGN §6), one operator: the rows of each group (DISTINCT ON: of equal
 * DISTINCT ON values; LIMIT: one group of every row), in the order of the
 * sort below it, from the OFFSET-th on, LIMIT of them (DISTINCT ON: the
 * first). Each input row is keyed by its group key, routed to the group's
 * owner in one exchange round (every row of a LIMIT goes to one worker),
 * and arranged there by its group key followed by its ORDER BY key: the key
 * encoding orders as ty_datum_compare does, DESC and NULLS FIRST / LAST
 * included, which is the order plan_rows_compare (plan_sort.c) gives a
 * query, so a group's rows are a run of the arrangement in ORDER BY order
 * (rows equal on it by their encoded bytes: a tie at the limit is broken
 * one fixed way, as PostgreSQL breaks it some way). A group touched at a
 * step is read before and after the delta up to OFFSET + LIMIT rows, and
 * the delta is the old rows retracted and the new ones added; a change
 * costs OFFSET + LIMIT rows per touched group, whatever the group's size.
 */
#include "dataflow/df_flow.h"

#include <stdlib.h>
#include <string.h>

typedef struct df__topk {
    df_keycol_t *gcols, *ocols;  /* group key, then ORDER BY key, over the input row */
    int ngcols, nocols;
    bool bounds_done, failed;    /* LIMIT / OFFSET evaluated; failed: the view is in error for good */
    int64_t limit, offset;       /* limit < 0: none */
    df_spine_t input;            /* key: group key ++ ORDER BY key; value: the row */
} df__topk_t;

static void df__topk_free(void *p)
{
    df__topk_t *tk = p;
    if (!tk)
        return;
    df__spine_free(&tk->input);
    free(tk);
}

static bool df__topk_idle(void *p, int64_t *fuel)
{
    return df__spine_idle_spend(&((df__topk_t *)p)->input, fuel);
}

bool df__topk_new(df_graph_t *g, df_node_t *n, cm_err_t *err)
{
    const plan_rel_t *r = n->rel, *sort = n->in[0]->rel;
    df__topk_t *tk = cm_calloc(1, sizeof *tk);
    df__spine_init(&tk->input);
    n->state = tk;
    n->arranged[0] = &tk->input;
    n->state_free = df__topk_free;
    n->state_idle = df__topk_idle;
    tk->limit = -1;
    if (r->kind == PLAN_REL_DISTINCT) {
        tk->ngcols = r->nsort;
        tk->gcols = cm_arena_zalloc(&g->arena, sizeof(df_keycol_t) * (size_t)(r->nsort ? r->nsort : 1));
        for (int i = 0; i < r->nsort; i++)
            tk->gcols[i] = (df_keycol_t){.col = r->sort[i].col, .type = r->sort[i].type};
    }
    if (sort->kind == PLAN_REL_SORT) {
        tk->nocols = sort->nsort;
        tk->ocols = cm_arena_zalloc(&g->arena, sizeof(df_keycol_t) * (size_t)(sort->nsort ? sort->nsort : 1));
        for (int i = 0; i < sort->nsort; i++) {
            const plan_sortkey_t *k = &sort->sort[i];
            tk->ocols[i] = (df_keycol_t){.col = k->col, .type = k->type, .desc = k->desc, .nulls_first = k->nulls_first};
        }
    }
    return df__key_check(tk->gcols, tk->ngcols, err) && df__key_check(tk->ocols, tk->nocols, err);
}

/* LIMIT and OFFSET, once (they are constants): PostgreSQL's errors, NULL meaning none. */
static void df__topk_bounds(df_step_t *s, df_node_t *n, df__topk_t *tk)
{
    const plan_rel_t *r = n->rel;
    tk->bounds_done = true;
    if (r->kind == PLAN_REL_DISTINCT) {
        tk->limit = 1;
        return;
    }
    ty_expr_t *es[2] = {r->offset, r->limit};
    for (int i = 0; i < 2 && !tk->failed; i++) {
        ty_datum_t d;
        memset(&d, 0, sizeof d);
        if (!es[i] || (ty_expr_eval(es[i], &s->ctx, NULL, NULL, &d) && d.isnull))
            continue;
        if (s->err.set || d.v.i < 0) {
            if (!s->err.set)
                cm_err_set(&s->err, i ? "2201W" : "2201X", "%s must not be negative", i ? "LIMIT" : "OFFSET");
            tk->failed = true;
            df__graph_error(s, 1);
        } else if (i) {
            tk->limit = d.v.i;
        } else {
            tk->offset = d.v.i;
        }
    }
}

/* The output rows of the group gk in a snapshot (through cur, moving forward only), added with sign. */
static void df__topk_group(df__topk_t *tk, df_scur_t *cur, const uint8_t *gk, size_t gl, int64_t sign,
                           df_builder_t *out)
{
    int64_t skip = tk->offset, take = tk->limit;
    if (take == 0)
        return;
    df__scur_seek(cur, gk, gl);
    for (; df__scur_key_valid(cur); df__scur_key_next(cur)) {
        size_t kl;
        const uint8_t *k = df__scur_key(cur, &kl);
        if (kl < gl || memcmp(k, gk, gl) != 0)
            return;   /* the next group: keys are the group's key, then the ORDER BY key */
        for (; df__scur_val_valid(cur); df__scur_val_next(cur)) {
            int64_t m = df__scur_diff(cur);
            if (m <= 0)
                continue;
            int64_t skipped = m < skip ? m : skip;
            skip -= skipped;
            m -= skipped;
            if (take >= 0 && m > take)
                m = take;
            if (m == 0)
                continue;
            size_t vl;
            const uint8_t *v = df__scur_val(cur, &vl);
            df__builder_add(out, "", 0, v, vl, sign * m);
            if (take >= 0 && (take -= m) == 0)
                return;
        }
    }
}

bool df__op_topk(df_step_t *s, df_node_t *n)
{
    df__topk_t *tk = n->state;
    if (!tk->bounds_done)
        df__topk_bounds(s, n, tk);
    int nw = s->st->nworkers;
    df_builder_t *bls = cm_calloc((size_t)nw, sizeof *bls);
    for (int w = 0; w < nw; w++)
        df__builder_init(&bls[w]);
    cm_buf_t gk, val;
    cm_buf_init(&gk, 0);
    cm_buf_init(&val, 0);
    const df_batch_t *in = n->in[0]->out;
    ty_datum_t *vals = cm_malloc(sizeof(ty_datum_t) * (size_t)(n->ncols ? n->ncols : 1));
    for (uint64_t j = 0; in && !tk->failed && j < in->nvals; j++) {
        size_t len;
        const uint8_t *v = df__batch_val(in, j, &len);
        int64_t diff = df__batch_diff(in, j);
        cm_buf_reset(&gk);
        cm_buf_reset(&val);
        cm_buf_put_be32(&val, 0);
        if (df__row_decode(n->types, n->ncols, v, len, DF_ROW_BORROW, &s->ctx, vals) &&
            df__key_encode(tk->gcols, tk->ngcols, vals, &s->ctx, &gk) &&
            df__key_encode(tk->ocols, tk->nocols, vals, &s->ctx, &val)) {
            /* The value carries the ORDER BY key, its length first, then the row. */
            uint32_t ol = (uint32_t)(val.len - 4);
            val.data[0] = (uint8_t)(ol >> 24);
            val.data[1] = (uint8_t)(ol >> 16);
            val.data[2] = (uint8_t)(ol >> 8);
            val.data[3] = (uint8_t)ol;
            cm_buf_put(&val, v, len);
            df__builder_add(&bls[df__owner(s, gk.data, gk.len)], gk.data, gk.len, val.data, val.len, diff);
        } else {
            df__graph_error(s, diff);
        }
        cm_arena_reset(&s->rowa);
    }
    bool ok;
    df_batch_t *d = df__route(s, bls, &ok);
    if (d) {
        /* The arranged records: group key ++ ORDER BY key -> the row. */
        df_builder_t ab;
        df__builder_init(&ab);
        for (uint64_t k = 0; k < d->nkeys; k++) {
            size_t kl;
            const uint8_t *kp = df__batch_key(d, k, &kl);
            uint64_t hi = k + 1 < d->nkeys ? df__batch_vals_lo(d, k + 1) : d->nvals;
            for (uint64_t j = df__batch_vals_lo(d, k); j < hi; j++) {
                size_t vl;
                const uint8_t *vp = df__batch_val(d, j, &vl);
                uint32_t ol = (uint32_t)vp[0] << 24 | (uint32_t)vp[1] << 16 | (uint32_t)vp[2] << 8 | vp[3];
                cm_buf_reset(&gk);
                cm_buf_put(&gk, kp, kl);
                cm_buf_put(&gk, vp + 4, ol);
                df__builder_add(&ab, gk.data, gk.len, vp + 4 + ol, vl - 4 - ol, df__batch_diff(d, j));
            }
        }
        df_batch_t *arr = df__finish(&ab, s->seq);
        df__builder_free(&ab);
        df_builder_t ob;
        df__builder_init(&ob);
        df_snap_t *before = df__spine_snapshot(&tk->input);
        df_scur_t cur;
        df__scur_init(&cur, before);
        for (uint64_t k = 0; k < d->nkeys; k++) {
            size_t kl;
            const uint8_t *kp = df__batch_key(d, k, &kl);
            df__topk_group(tk, &cur, kp, kl, -1, &ob);
        }
        df__scur_free(&cur);
        df__snap_unref(before);
        if (arr)
            df__spine_insert(&tk->input, arr);
        df_snap_t *after = df__spine_snapshot(&tk->input);
        df__scur_init(&cur, after);
        for (uint64_t k = 0; k < d->nkeys; k++) {
            size_t kl;
            const uint8_t *kp = df__batch_key(d, k, &kl);
            df__topk_group(tk, &cur, kp, kl, +1, &ob);
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
    cm_buf_free(&gk);
    cm_buf_free(&val);
    return ok;
}
