/*
 * df_op_reduce.c: GROUP BY, aggregates without GROUP BY, and DISTINCT
 * (DESIGN §6). The input delta is keyed by the group key's encoding and
 * exchanged so that each group lives on worker hash(key) % N; there the
 * group's input rows are arranged (a spine keyed by group, values the input
 * rows with their multiplicities), and a group touched at a step is
 * recomputed from its arrangement after the delta with the plan's own
 * aggregate kernels (plan_agg_step / plan_agg_finish), so every aggregate
 * means exactly what it means in a one-shot query: the output delta
 * retracts the group's row as it was, which the operator keeps arranged by
 * group (so a change costs one pass over its group, not two), and adds the
 * new one. A group whose rows all
 * went disappears; the one group of an aggregate without GROUP BY is there
 * from the start, over no rows (count 0, sum NULL), as in PostgreSQL.
 * DISTINCT is a reduce keyed by the whole row without aggregates.
 */
#include "dataflow/df_flow.h"

#include <stdlib.h>
#include <string.h>

df_reduce_t *df__reduce_new(df_graph_t *g, df_node_t *n, cm_err_t *err)
{
    const plan_rel_t *r = n->rel;
    df_reduce_t *rd = cm_calloc(1, sizeof *rd);
    df__spine_init(&rd->input);
    df__spine_init(&rd->output);
    df__spine_init(&rd->failed);
    if (r->kind == PLAN_REL_DISTINCT) {
        rd->nkeys = r->ncols;
        rd->keys = cm_arena_alloc(&g->arena, sizeof(ty_expr_t *) * (size_t)(r->ncols ? r->ncols : 1));
        for (int i = 0; i < r->ncols; i++)
            rd->keys[i] = plan_expr_column(&g->arena, i, r->types[i]);
    } else {
        rd->nkeys = r->nkeys;
        rd->keys = r->keys;
        rd->naggs = r->naggs;
    }
    rd->kcols = cm_arena_zalloc(&g->arena, sizeof(df_keycol_t) * (size_t)(rd->nkeys ? rd->nkeys : 1));
    for (int i = 0; i < rd->nkeys; i++) {
        rd->kcols[i] = (df_keycol_t){.col = i, .type = rd->keys[i]->type};
        if (!df__key_type_check(rd->keys[i]->type, err)) {
            df__reduce_free(rd);
            return NULL;
        }
    }
    rd->aggs = cm_arena_zalloc(&g->arena, sizeof(df__agg_t) * (size_t)(rd->naggs ? rd->naggs : 1));
    for (int i = 0; i < rd->naggs; i++) {
        const plan_agg_t *a = r->aggs[i];
        df__agg_t *x = &rd->aggs[i];
        x->a = a;
        ty_expr_t **es = cm_arena_alloc(&g->arena, sizeof(ty_expr_t *) * (size_t)(plan_agg_nexprs(a) + 1));
        int ne = plan_agg_exprs(a, es);
        x->filter = a->filter;
        x->es = a->filter ? es + 1 : es;
        x->nes = a->filter ? ne - 1 : ne;
    }
    rd->accum = true;
    for (int i = 0; i < rd->naggs; i++)
        rd->accum &= plan_agg_accumulates(r->aggs[i]);
    if (rd->accum)
        df__accum_init(rd, n);
    else {
        rd->minmax = df__minmax_applies(rd);
        n->arranged[0] = &rd->input;
        n->arranged[1] = &rd->output;
    }
    return rd;
}

void df__reduce_free(df_reduce_t *r)
{
    if (!r)
        return;
    df__spine_free(&r->input);
    df__spine_free(&r->output);
    df__spine_free(&r->failed);
    df__accum_free(r);
    free(r);
}

bool df__eval_keys(df_step_t *s, df_reduce_t *rd, const ty_datum_t *row, ty_datum_t *kv)
{
    for (int i = 0; i < rd->nkeys; i++) {
        memset(&kv[i], 0, sizeof kv[i]);
        if (!ty_expr_eval(rd->keys[i], &s->ctx, row, NULL, &kv[i]))
            return false;
    }
    return true;
}

bool df__agg_filter(df_step_t *s, const df__agg_t *x, const ty_datum_t *row, bool *in)
{
    *in = true;
    if (x->filter == NULL)
        return true;
    ty_datum_t f;
    memset(&f, 0, sizeof f);
    if (!ty_expr_eval(x->filter, &s->ctx, row, NULL, &f))
        return false;
    *in = !f.isnull && f.v.b;
    return true;
}

/* Whether cur, moved to key (forward only), stands on exactly key. */
static bool df__scur_on(df_scur_t *cur, const uint8_t *key, size_t klen)
{
    size_t ck;
    if (!df__scur_seek(cur, key, klen))
        return false;
    const uint8_t *at = df__scur_key(cur, &ck);
    return ck == klen && memcmp(at, key, klen) == 0;
}

/*
 * The output row of the group at key in a snapshot (through cur, moving forward
 * only), added to bl and to kept (the operator's own record of its output)
 * with diff sign; a group that fails counts as an error of the view with that
 * sign instead, and goes to failed.
 */
static void df__group_out(df_step_t *s, df_node_t *n, df_scur_t *cur, const uint8_t *key, size_t klen, int64_t sign,
                          df_builder_t *bl, df_builder_t *kept, df_builder_t *failed, cm_buf_t *enc)
{
    df_reduce_t *rd = n->reduce;
    const ty_oid_t *intypes = n->in[0]->types;
    int incols = n->in[0]->ncols;
    ty_datum_t *kv = cm_arena_alloc(&s->rowa, sizeof(ty_datum_t) * (size_t)(rd->nkeys + 1));
    plan_aggstate_t **states = cm_arena_alloc(&s->rowa, sizeof *states * (size_t)(rd->naggs + 1));
    for (int i = 0; i < rd->naggs; i++)
        states[i] = plan_agg_start(rd->aggs[i].a, &s->ctx);
    ty_datum_t *vals = cm_arena_alloc(&s->rowa, sizeof(ty_datum_t) * (size_t)(incols ? incols : 1));
    ty_datum_t args[TY_FUNC_ARGS_MAX + 64];
    int64_t count = 0;
    bool ok = true;
    if (rd->minmax) {
        bool exists;
        ok = df__minmax_group(s, n, cur, key, klen, kv, states, &exists);
        count = exists;
    }
    for (bool on = !rd->minmax && df__scur_on(cur, key, klen); ok && on && df__scur_val_valid(cur);
         df__scur_val_next(cur)) {
        size_t len;
        const uint8_t *v = df__scur_val(cur, &len);
        int64_t m = df__scur_diff(cur);
        if (m <= 0)
            continue;   /* a group never holds fewer than no copies of a row */
        ok = df__row_decode(intypes, incols, v, len, DF_ROW_BORROW, &s->ctx, vals);
        if (ok && count == 0)
            ok = df__eval_keys(s, rd, vals, kv);
        count += m;
        for (int i = 0; ok && i < rd->naggs; i++) {
            df__agg_t *x = &rd->aggs[i];
            bool in;
            if (!(ok = df__agg_filter(s, x, vals, &in)))
                break;
            if (!in)
                continue;
            int ne = x->nes < (int)(sizeof args / sizeof args[0]) ? x->nes : 0;
            for (int e = 0; ok && e < ne; e++) {
                memset(&args[e], 0, sizeof args[e]);
                ok = ty_expr_eval(x->es[e], &s->ctx, vals, NULL, &args[e]);
            }
            for (int64_t k = 0; ok && k < m; k++)
                ok = plan_agg_step(x->a, states[i], args, &s->ctx);
        }
    }
    if (ok && count == 0 && rd->nkeys > 0)
        return;   /* no such group */
    int ncols = n->ncols;
    ty_datum_t *out = cm_arena_alloc(&s->rowa, sizeof(ty_datum_t) * (size_t)(ncols ? ncols : 1));
    for (int i = 0; ok && i < rd->nkeys && i < ncols; i++)
        out[i] = kv[i];
    for (int i = 0; ok && i < rd->naggs; i++) {
        memset(&out[rd->nkeys + i], 0, sizeof out[0]);
        ok = plan_agg_finish(rd->aggs[i].a, states[i], &s->ctx, &out[rd->nkeys + i]);
    }
    cm_buf_reset(enc);
    if (ok && df__row_encode(n->types, ncols, out, &s->ctx, enc)) {
        df__builder_add(bl, key, klen, enc->data, enc->len, sign);
        df__builder_add(kept, key, klen, enc->data, enc->len, sign);
    } else {
        /* Kept as its SQLSTATE and message: the view's errors are counted by those. */
        cm_buf_reset(enc);
        cm_buf_put(enc, s->err.set ? s->err.sqlstate : CM_ERRCODE_INTERNAL_ERROR, 5);
        if (s->err.message)
            cm_buf_put(enc, s->err.message, strlen(s->err.message));
        df__builder_add(failed, key, klen, enc->data, enc->len, sign);
        df__graph_error(s, sign);
    }
}

/* Retracts what the group at key produced last (its row, or its failure), through cursors on
 * the kept output and failures (moving forward only). */
static void df__group_retract(df_step_t *s, df_scur_t *rows, df_scur_t *fails, const uint8_t *key, size_t klen,
                              df_builder_t *bl, df_builder_t *kept, df_builder_t *failed)
{
    for (bool on = df__scur_on(rows, key, klen); on && df__scur_val_valid(rows); df__scur_val_next(rows)) {
        size_t len;
        const uint8_t *v = df__scur_val(rows, &len);
        int64_t m = df__scur_diff(rows);
        if (m == 0)
            continue;
        df__builder_add(bl, key, klen, v, len, -m);
        df__builder_add(kept, key, klen, v, len, -m);
    }
    for (bool on = df__scur_on(fails, key, klen); on && df__scur_val_valid(fails); df__scur_val_next(fails)) {
        size_t len;
        const uint8_t *v = df__scur_val(fails, &len);
        int64_t m = df__scur_diff(fails);
        if (m == 0 || len < 5)
            continue;
        char state[6];
        memcpy(state, v, 5);
        state[5] = 0;
        cm_err_set(&s->err, state, "%.*s", (int)(len - 5), (const char *)v + 5);
        df__graph_error(s, -m);
        df__builder_add(failed, key, klen, v, len, -m);
    }
}

/* The group key of d's key k, or NULL when key k - 1 had the same one (min/max: a group's
 * arranged keys are its key followed by a tag, adjacent). */
static const uint8_t *df__touched_group(const df_reduce_t *rd, const df_batch_t *d, uint64_t k, size_t *len)
{
    const uint8_t *kp = df__batch_key(d, k, len);
    *len = df__minmax_group_key(rd, *len);
    if (rd->minmax && k > 0) {
        size_t pl;
        const uint8_t *pp = df__batch_key(d, k - 1, &pl);
        if (df__minmax_group_key(rd, pl) == *len && memcmp(pp, kp, *len) == 0)
            return NULL;
    }
    return kp;
}

/* The kept output's (or failures') change at this step into its spine. */
static void df__keep(df_spine_t *sp, df_builder_t *bl, uint64_t seq)
{
    df_batch_t *b = df__finish(bl, seq);
    if (b)
        df__spine_insert(sp, b);
}

bool df__op_reduce(df_step_t *s, df_node_t *n)
{
    df_reduce_t *rd = n->reduce;
    int nw = s->st->nworkers;
    const df_batch_t *in = n->in[0]->out;
    df_builder_t *bls = cm_calloc((size_t)nw, sizeof *bls);
    df_batch_t **out = cm_calloc((size_t)nw, sizeof *out), **got = cm_calloc((size_t)nw, sizeof *got);
    for (int w = 0; w < nw; w++)
        df__builder_init(&bls[w]);
    cm_buf_t key, enc;
    cm_buf_init(&key, 0);
    cm_buf_init(&enc, 0);
    /* Route each input row to its group's worker; accumulating, one partial state per group. */
    int incols = n->in[0]->ncols;
    if (rd->accum)
        df__accum_route(s, n, in, bls);
    else if (rd->minmax)
        df__minmax_route(s, n, in, bls);
    for (uint64_t j = 0; !rd->accum && !rd->minmax && in && j < in->nvals; j++) {
        size_t len;
        const uint8_t *v = df__batch_val(in, j, &len);
        int64_t diff = df__batch_diff(in, j);
        ty_datum_t *vals = cm_arena_alloc(&s->rowa, sizeof(ty_datum_t) * (size_t)(incols ? incols : 1));
        ty_datum_t *kv = cm_arena_alloc(&s->rowa, sizeof(ty_datum_t) * (size_t)(rd->nkeys + 1));
        cm_buf_reset(&key);
        if (df__row_decode(n->in[0]->types, incols, v, len, DF_ROW_BORROW, &s->ctx, vals) &&
            df__eval_keys(s, rd, vals, kv) && df__key_encode(rd->kcols, rd->nkeys, kv, &s->ctx, &key))
            df__builder_add(&bls[df__owner(s, key.data, key.len)], key.data, key.len, v, len, diff);
        else
            df__graph_error(s, diff);
        cm_arena_reset(&s->rowa);
    }
    for (int w = 0; w < nw; w++)
        out[w] = df__finish(&bls[w], s->seq);
    bool ok = df__xchg_round(s->st->exchange, s->st->worker, out, got);
    df_builder_t bl;
    df__builder_init(&bl);
    for (int w = 0; ok && w < nw; w++) {
        for (uint64_t k = 0; got[w] && k < got[w]->nkeys; k++) {
            size_t kl;
            const uint8_t *kp = df__batch_key(got[w], k, &kl);
            uint64_t hi = k + 1 < got[w]->nkeys ? df__batch_vals_lo(got[w], k + 1) : got[w]->nvals;
            for (uint64_t j = df__batch_vals_lo(got[w], k); j < hi; j++) {
                size_t vl;
                const uint8_t *vp = df__batch_val(got[w], j, &vl);
                df__builder_add(&bl, kp, kl, vp, vl, df__batch_diff(got[w], j));
            }
        }
        df__batch_unref(got[w]);
    }
    df_batch_t *d = df__finish(&bl, s->seq);
    bool global = ok && rd->nkeys == 0 && !rd->global_done && df__owner(s, (const uint8_t *)"", 0) == s->st->worker;
    if ((d || global) && rd->accum) {
        df_builder_t ob;
        df__builder_init(&ob);
        df__accum_step(s, n, d, global, &ob);
        if (global)
            rd->global_done = true;
        n->out = df__finish(&ob, s->seq);
        df__builder_free(&ob);
        df__batch_unref(d);
    } else if (d || global) {
        df_builder_t ob, kept, failed;
        df__builder_init(&ob);
        df__builder_init(&kept);
        df__builder_init(&failed);
        /* Before: the touched groups' rows as they were, as kept. */
        df_snap_t *rows = df__spine_snapshot(&rd->output), *fails = df__spine_snapshot(&rd->failed);
        df_scur_t rcur, fcur, cur;
        df__scur_init(&rcur, rows);
        df__scur_init(&fcur, fails);
        for (uint64_t k = 0; d && k < d->nkeys; k++) {
            size_t kl;
            const uint8_t *kp = df__touched_group(rd, d, k, &kl);
            if (kp)
                df__group_retract(s, &rcur, &fcur, kp, kl, &ob, &kept, &failed);
        }
        df__scur_free(&rcur);
        df__scur_free(&fcur);
        df__snap_unref(rows);
        df__snap_unref(fails);
        if (d) {
            df__batch_ref(d);
            df__spine_insert(&rd->input, d);
        }
        /* After: the same groups with the delta. */
        df_snap_t *after = df__spine_snapshot(&rd->input);
        df__scur_init(&cur, after);
        bool global_seen = false;
        for (uint64_t k = 0; d && k < d->nkeys; k++) {
            size_t kl;
            const uint8_t *kp = df__touched_group(rd, d, k, &kl);
            if (!kp)
                continue;
            global_seen |= kl == 0;
            df__group_out(s, n, &cur, kp, kl, +1, &ob, &kept, &failed, &enc);
            cm_arena_reset(&s->rowa);
        }
        if (global && !global_seen)
            df__group_out(s, n, &cur, (const uint8_t *)"", 0, +1, &ob, &kept, &failed, &enc);
        if (global)
            rd->global_done = true;
        df__scur_free(&cur);
        df__snap_unref(after);
        df__keep(&rd->output, &kept, s->seq);
        df__keep(&rd->failed, &failed, s->seq);
        n->out = df__finish(&ob, s->seq);
        df__builder_free(&ob);
        df__builder_free(&kept);
        df__builder_free(&failed);
        df__batch_unref(d);
    }
    df__builder_free(&bl);
    for (int w = 0; w < nw; w++)
        df__builder_free(&bls[w]);
    free(bls);
    free(out);
    free(got);
    cm_buf_free(&key);
    cm_buf_free(&enc);
    return ok;
}
