/*
 * df_op_recursive.c: WITH RECURSIVE in a materialized view (DESIGN §6),
 * iterated to a fixed point inside each step, on deltas.
 *
 * The recursive term's operators that read the worktable (the "loop",
 * marked at compile) are linear in its rows (plan_maintain.c refuses the
 * rest), so the query's rows X are the fixed point of X = D + R(X) (UNION
 * ALL; with UNION, each row once while it has a derivation), D the
 * non-recursive term and R the recursive one. Each row is counted on the
 * worker owning its key (the whole row's key encoding): how many times D
 * gives it and how many times R derived it; with UNION, also whether it
 * is shown (present) and as which row. A step:
 *
 *  1. Iteration 0 runs the loop once with no worktable rows, so its joins
 *     meet the other relations' changes with the rows as they were; what
 *     R gives then, with D's change, is routed to the owners and counted.
 *  2. Each change of X there (UNION ALL: the change itself; UNION: a row
 *     absent whose count is above 0 now, or present whose count is not) is
 *     the next worktable, and runs the loop again; R's output is routed
 *     and counted again, and so on until no worker routed anything
 *     (semi-naive evaluation: an insert costs the derivations it adds).
 *
 * UNION ALL is exact under retractions too, by linearity. With UNION a
 * retraction could leave rows that only derive one another (a cycle of
 * paths after its edge into the cycle went), so a step in which D or a
 * relation the loop joins lost a row (on any worker: one exchange round
 * decides) deletes and rederives (DRed): first only the removals flow,
 * and every present row that loses a derivation is taken out (with what
 * it derived, transitively: the overdeletion); then each row taken out
 * that still has a derivation comes back, together with the step's
 * additions, as insertions. Such a step costs the rows that depended on
 * what went, not the whole query.
 *
 * Every worker iterates in step: an iteration's exchange round (the
 * routing) also tells every worker whether any routed a row. More than
 * st->recursion_max iterations in one step put the view in error (54000,
 * as a query's max_recursive_iterations); the worktable of the last one
 * goes through the loop, so the joins hold exactly the rows shown, and
 * later steps recompute the query whole (every row back through the loop
 * negated, the derivations dropped, the iteration again from D's rows)
 * until the recursion ends again.
 */
#include "dataflow/df_flow.h"

#include <stdlib.h>
#include <string.h>

/* The first byte of a value: routed (DEF, DERIVED, MARK) and arranged (DEF, DERIVED, PRESENT). */
enum { DF_REC_DEF = 0, DF_REC_DERIVED = 1, DF_REC_MARK = 2, DF_REC_PRESENT = 3 };

/* How routed counts settle with UNION: rows come and go by their counts, or rows losing a derivation go. */
typedef enum df__settle { DF_SETTLE_COUNT, DF_SETTLE_OVERDELETE } df__settle_t;

typedef struct df__rec {
    df_keycol_t *kcols;          /* every column, in order */
    bool distinct;               /* UNION: each row once */
    df_spine_t rows;             /* key: the row's key; value: an origin byte, then the row */
    df_node_t *work;
    df_node_t **loop;            /* in order; the worktable not among them */
    int nloop;
    df_node_t **bound;           /* not in the loop but read by it: their deltas meet iteration 0 only */
    int nbound;
    bool diverged;               /* the last step stopped at the limit: the view is in error */
} df__rec_t;

static void df__rec_free(void *p)
{
    df__rec_t *rc = p;
    if (!rc)
        return;
    df__spine_free(&rc->rows);
    free(rc);
}

static bool df__rec_idle(void *p, int64_t *fuel)
{
    return df__spine_idle_spend(&((df__rec_t *)p)->rows, fuel);
}

static bool df__rec_same_types(const df_node_t *a, const df_node_t *b)
{
    return a->ncols == b->ncols && memcmp(a->types, b->types, sizeof(ty_oid_t) * (size_t)a->ncols) == 0;
}

static void df__rec_bound_add(df_graph_t *g, df__rec_t *rc, df_node_t *b)
{
    for (int i = 0; i < rc->nbound; i++)
        if (rc->bound[i] == b)
            return;
    df_node_t **more = cm_arena_alloc(&g->arena, sizeof *more * (size_t)(rc->nbound + 1));
    if (rc->nbound)
        memcpy(more, rc->bound, sizeof *more * (size_t)rc->nbound);
    more[rc->nbound++] = b;
    rc->bound = more;
}

bool df__recurse_new(df_graph_t *g, df_node_t *n, df_node_t *work, int first, cm_err_t *err)
{
    if (!df__rec_same_types(n, n->in[0]) || !df__rec_same_types(n, n->in[1]))
        return cm_err_set(err, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                          "the dataflow engine cannot maintain a recursive query whose terms have other types");
    df_keycol_t *kcols = cm_arena_zalloc(&g->arena, sizeof *kcols * (size_t)(n->ncols ? n->ncols : 1));
    for (int i = 0; i < n->ncols; i++) {
        kcols[i] = (df_keycol_t){.col = i, .type = n->types[i]};
        if (!df__key_type_check(n->types[i], err))
            return false;
    }
    df__rec_t *rc = cm_calloc(1, sizeof *rc);
    rc->kcols = kcols;
    rc->distinct = !n->cte->all;
    rc->work = work;
    df__spine_init(&rc->rows);
    n->state = rc;
    n->arranged[0] = &rc->rows;
    n->state_free = df__rec_free;
    n->state_idle = df__rec_idle;
    /* The loop: what reads the worktable, directly or through another node of the loop. */
    rc->loop = cm_arena_alloc(&g->arena, sizeof *rc->loop * (size_t)(g->nnodes - first + 1));
    for (int i = first; i < g->nnodes; i++) {
        df_node_t *m = g->nodes[i];
        for (int k = 0; k < 2; k++)
            m->loop |= m->in[k] != NULL && m->in[k]->loop;
        if (m->loop)
            rc->loop[rc->nloop++] = m;
    }
    for (int i = 0; i < rc->nloop; i++)
        for (int k = 0; k < 2; k++)
            if (rc->loop[i]->in[k] && !rc->loop[i]->in[k]->loop)
                df__rec_bound_add(g, rc, rc->loop[i]->in[k]);
    if (!n->in[1]->loop)
        df__rec_bound_add(g, rc, n->in[1]);   /* a term the optimizer left without its worktable */
    return true;
}

static bool df__rec_negative(const df_batch_t *b)
{
    for (uint64_t j = 0; b && j < b->nvals; j++)
        if (df__batch_diff(b, j) < 0)
            return true;
    return false;
}

static bool df__rec_is_mark(const uint8_t *v, size_t len)
{
    return len == 1 && v[0] == DF_REC_MARK;
}

/* The records of b with diffs of one sign (sign -1, +1), or (sign 0) those that are not marks; NULL: none. */
static df_batch_t *df__rec_half(const df_batch_t *b, int sign, uint64_t seq)
{
    if (!b)
        return NULL;
    df_builder_t bl;
    df__builder_init(&bl);
    for (uint64_t k = 0; k < b->nkeys; k++) {
        size_t kl;
        const uint8_t *kp = df__batch_key(b, k, &kl);
        uint64_t hi = k + 1 < b->nkeys ? df__batch_vals_lo(b, k + 1) : b->nvals;
        for (uint64_t j = df__batch_vals_lo(b, k); j < hi; j++) {
            size_t vl;
            const uint8_t *vp = df__batch_val(b, j, &vl);
            int64_t m = df__batch_diff(b, j);
            if (sign == 0 ? !df__rec_is_mark(vp, vl) : (m < 0) == (sign < 0))
                df__builder_add(&bl, kp, kl, vp, vl, m);
        }
    }
    df_batch_t *h = df__finish(&bl, seq);
    df__builder_free(&bl);
    return h;
}

/*
 * One exchange round: the rows of each batch (with its origin byte) to the
 * owners of their keys, and a mark to every worker if this one sent any.
 * Returns what came here, marks left out; *any: some worker sent rows.
 */
static df_batch_t *df__rec_route(df_step_t *s, df_node_t *n, const df_batch_t *def, const df_batch_t *derived,
                                 bool mine, bool *any)
{
    df__rec_t *rc = n->state;
    int nw = s->st->nworkers;
    df_builder_t *bls = cm_calloc((size_t)nw, sizeof *bls);
    for (int w = 0; w < nw; w++)
        df__builder_init(&bls[w]);
    mine |= df__route_rows(s, n, rc->kcols, def, DF_REC_DEF, bls);
    mine |= df__route_rows(s, n, rc->kcols, derived, DF_REC_DERIVED, bls);
    if (mine) {
        uint8_t mark = DF_REC_MARK;
        for (int w = 0; w < nw; w++)
            df__builder_add(&bls[w], "", 0, &mark, 1, 1);
    }
    bool ok;
    df_batch_t *got = df__route(s, bls, &ok);
    *any = got != NULL;
    df_batch_t *d = df__rec_half(got, 0, s->seq);
    df__batch_unref(got);
    for (int w = 0; w < nw; w++)
        df__builder_free(&bls[w]);
    free(bls);
    return d;
}

/* With UNION, one key's arranged values: its derivations, the row shown (present) and the row it would show. */
typedef struct df__keystate {
    int64_t count;
    const uint8_t *present, *candidate;
    size_t present_len, candidate_len;
} df__keystate_t;

static void df__rec_keystate(df_scur_t *cur, df__keystate_t *ks)
{
    memset(ks, 0, sizeof *ks);
    for (; df__scur_val_valid(cur); df__scur_val_next(cur)) {
        size_t len;
        const uint8_t *v = df__scur_val(cur, &len);
        int64_t m = df__scur_diff(cur);
        if (len == 0)
            continue;
        if (v[0] == DF_REC_PRESENT) {
            if (m > 0 && !ks->present) {
                ks->present = v + 1;
                ks->present_len = len - 1;
            }
            continue;
        }
        ks->count += m;
        if (m > 0 && !ks->candidate) {
            ks->candidate = v + 1;
            ks->candidate_len = len - 1;
        }
    }
}

/*
 * With UNION: the routed counts d (taken; NULL: none) join the arrangement,
 * then each key of keys settles: a row shown that lost a derivation goes
 * (OVERDELETE, its key into over), or rows come and go by their counts
 * (COUNT). Returns the rows that came (+1) and went (-1) here.
 */
static df_batch_t *df__rec_settle(df_step_t *s, df__rec_t *rc, df_batch_t *d, const df_batch_t *keys,
                                  df__settle_t how, df_builder_t *over)
{
    if (!keys) {
        if (d)
            df__spine_insert(&rc->rows, d);
        return NULL;
    }
    df__batch_ref((df_batch_t *)keys);
    if (d)
        df__spine_insert(&rc->rows, d);
    df_builder_t ob, pres;
    df__builder_init(&ob);
    df__builder_init(&pres);
    cm_buf_t val;
    cm_buf_init(&val, 0);
    df_snap_t *snap = df__spine_snapshot(&rc->rows);
    df_scur_t cur;
    df__scur_init(&cur, snap);
    for (uint64_t k = 0; k < keys->nkeys; k++) {
        size_t kl;
        const uint8_t *kp = df__batch_key(keys, k, &kl);
        df__keystate_t ks;
        if (!df__scur_seek(&cur, kp, kl))
            continue;
        df__rec_keystate(&cur, &ks);
        const uint8_t *row = NULL;
        size_t len = 0;
        int64_t sign = 0;
        if (ks.present && (how == DF_SETTLE_OVERDELETE || ks.count <= 0)) {
            row = ks.present, len = ks.present_len, sign = -1;
            if (over)
                df__builder_add(over, kp, kl, "", 0, 1);
        } else if (!ks.present && how == DF_SETTLE_COUNT && ks.count > 0 && ks.candidate) {
            row = ks.candidate, len = ks.candidate_len, sign = +1;
        }
        if (!sign)
            continue;
        df__builder_add(&ob, "", 0, row, len, sign);
        cm_buf_reset(&val);
        cm_buf_put_u8(&val, DF_REC_PRESENT);
        cm_buf_put(&val, row, len);
        df__builder_add(&pres, kp, kl, val.data, val.len, sign);
    }
    df__scur_free(&cur);
    df__snap_unref(snap);
    df_batch_t *p = df__finish(&pres, s->seq);
    if (p)
        df__spine_insert(&rc->rows, p);
    df__builder_free(&pres);
    cm_buf_free(&val);
    df__batch_unref((df_batch_t *)keys);
    df_batch_t *w = df__finish(&ob, s->seq);
    df__builder_free(&ob);
    return w;
}

/* Counts the routed rows d (taken); returns how the query's rows changed here (the next worktable). */
static df_batch_t *df__rec_apply(df_step_t *s, df__rec_t *rc, df_batch_t *d, df__settle_t how, df_builder_t *over)
{
    if (!d)
        return NULL;
    if (rc->distinct)
        return df__rec_settle(s, rc, d, d, how, over);
    df_builder_t ob;
    df__builder_init(&ob);
    for (uint64_t j = 0; j < d->nvals; j++) {
        size_t len;
        const uint8_t *v = df__batch_val(d, j, &len);
        df__builder_add(&ob, "", 0, v + 1, len - 1, df__batch_diff(d, j));
    }
    df__spine_insert(&rc->rows, d);
    df_batch_t *w = df__finish(&ob, s->seq);
    df__builder_free(&ob);
    return w;
}

/*
 * Walks the arrangement: rows gets each row of the query with its count
 * times sign (UNION: the rows shown), keys each key, drop each value not
 * of D negated; any may be NULL.
 */
static void df__rec_walk(df__rec_t *rc, int64_t sign, df_builder_t *rows, df_builder_t *keys, df_builder_t *drop)
{
    df_snap_t *snap = df__spine_snapshot(&rc->rows);
    df_scur_t cur;
    df__scur_init(&cur, snap);
    for (; df__scur_key_valid(&cur); df__scur_key_next(&cur)) {
        size_t kl;
        const uint8_t *kp = df__scur_key(&cur, &kl);
        if (keys)
            df__builder_add(keys, kp, kl, "", 0, 1);
        for (; df__scur_val_valid(&cur); df__scur_val_next(&cur)) {
            size_t len;
            const uint8_t *v = df__scur_val(&cur, &len);
            int64_t m = df__scur_diff(&cur);
            if (len == 0)
                continue;
            if (rows && (v[0] == DF_REC_PRESENT) == rc->distinct)
                df__builder_add(rows, "", 0, v + 1, len - 1, sign * m);
            if (drop && v[0] != DF_REC_DEF)
                df__builder_add(drop, kp, kl, v, len, -m);
        }
    }
    df__scur_free(&cur);
    df__snap_unref(snap);
}

/* This worker's rows taken back, and every arranged value but D's counts dropped: a recomputation's start. */
static df_batch_t *df__rec_take_back(df_step_t *s, df__rec_t *rc)
{
    df_builder_t ob, drop;
    df__builder_init(&ob);
    df__builder_init(&drop);
    df__rec_walk(rc, -1, &ob, NULL, &drop);
    df_batch_t *gone = df__finish(&drop, s->seq);
    if (gone)
        df__spine_insert(&rc->rows, gone);
    df__builder_free(&drop);
    df_batch_t *w = df__finish(&ob, s->seq);
    df__builder_free(&ob);
    return w;
}

/* After a take-back and D's change: the rows D gives, the first worktable of a recomputation. */
static df_batch_t *df__rec_restart(df_step_t *s, df__rec_t *rc)
{
    df_builder_t bl;
    df__builder_init(&bl);
    df__rec_walk(rc, +1, rc->distinct ? NULL : &bl, rc->distinct ? &bl : NULL, NULL);
    df_batch_t *b = df__finish(&bl, s->seq);
    df__builder_free(&bl);
    if (!rc->distinct || !b)
        return b;
    df_batch_t *w = df__rec_settle(s, rc, NULL, b, DF_SETTLE_COUNT, NULL);
    df__batch_unref(b);
    return w;
}


/* One iteration: the worktable holds w (taken) and every node of the loop runs once, in order. */
static void df__rec_iterate(df_step_t *s, df__rec_t *rc, df_batch_t *w, df_builder_t *out)
{
    for (uint64_t j = 0; w && j < w->nvals; j++) {
        size_t len;
        const uint8_t *v = df__batch_val(w, j, &len);
        df__builder_add(out, "", 0, v, len, df__batch_diff(w, j));
    }
    df__batch_unref(rc->work->out);
    rc->work->out = w;
    for (int i = 0; i < rc->nloop; i++)
        df__node_step(s, rc->loop[i]);
}

/* Whether any worker says yes (one exchange round). */
static bool df__rec_any(df_step_t *s, df_node_t *n, bool mine)
{
    bool any;
    df_batch_t *d = df__rec_route(s, n, NULL, NULL, mine, &any);
    df__batch_unref(d);
    return any;
}

static void df__rec_limit_error(df_step_t *s, const df_node_t *n, int64_t diff)
{
    cm_err_set(&s->err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED, "recursive query \"%s\" did not finish within %lld iterations",
               n->cte->name, (long long)s->st->recursion_max);
    df__graph_error(s, diff);
}

/* What the loop's nodes outside it show the next iteration: their deltas (sign 0), a half of them, or nothing. */
static void df__rec_bounds(df_step_t *s, df__rec_t *rc, df_batch_t **saved, int sign, bool none)
{
    for (int i = 0; i < rc->nbound; i++) {
        df__batch_unref(rc->bound[i]->out);
        rc->bound[i]->out = NULL;
        if (none)
            continue;
        if (sign == 0 && saved[i])
            df__batch_ref(saved[i]);
        rc->bound[i]->out = sign == 0 ? saved[i] : df__rec_half(saved[i], sign, s->seq);
    }
}

typedef struct df__recstep {
    df_step_t *s;
    df_node_t *n;
    df__rec_t *rc;
    df_builder_t out;            /* the view's change: every worktable */
    int64_t iterations;
    bool over;                   /* the limit was reached */
} df__recstep_t;

/* Iterations from worktable w (taken) while any worker routed rows; false: the limit was reached. */
static bool df__rec_loop(df__recstep_t *r, df_batch_t *w, bool more, df__settle_t how, df_builder_t *over)
{
    df_node_t *rec = r->n->in[1];
    while (more) {
        r->over = ++r->iterations > r->s->st->recursion_max;
        df__rec_iterate(r->s, r->rc, w, &r->out);
        if (r->over)
            return false;   /* the joins took the last worktable; what it derived is dropped */
        bool any;
        df_batch_t *d = df__rec_route(r->s, r->n, NULL, rec->out, false, &any);
        w = df__rec_apply(r->s, r->rc, d, how, over);
        more = any;
    }
    df__batch_unref(w);
    return true;
}

/* Iteration 0 (no rows counted for it) with worktable w and D's change def, then the loop. */
static bool df__rec_phase(df__recstep_t *r, df_batch_t *w, const df_batch_t *def, bool restart, df__settle_t how,
                          df_builder_t *over)
{
    df_node_t *rec = r->n->in[1];
    df__rec_iterate(r->s, r->rc, w, &r->out);
    bool any;
    df_batch_t *d = df__rec_route(r->s, r->n, def, restart ? NULL : rec->out, false, &any);
    if (restart) {
        if (d)
            df__spine_insert(&r->rc->rows, d);
        w = df__rec_restart(r->s, r->rc);
        any = true;
    } else {
        w = df__rec_apply(r->s, r->rc, d, how, over);
    }
    df__rec_bounds(r->s, r->rc, NULL, 0, true);
    return df__rec_loop(r, w, any, how, over);
}

bool df__op_recurse(df_step_t *s, df_node_t *n)
{
    df__rec_t *rc = n->state;
    df_node_t *def = n->in[0];
    bool recompute = rc->diverged, dred = false;
    if (!recompute && rc->distinct) {
        bool lost = df__rec_negative(def->out);
        for (int i = 0; i < rc->nbound && !lost; i++)
            lost = df__rec_negative(rc->bound[i]->out);
        dred = df__rec_any(s, n, lost);
    }
    df__recstep_t r = {.s = s, .n = n, .rc = rc};
    df__builder_init(&r.out);
    /* D's change, held apart: D may be a node the loop reads too (a WITH query), whose delta is hidden. */
    df_batch_t *dd = def->out;
    if (dd)
        df__batch_ref(dd);
    df_batch_t **saved = cm_malloc(sizeof *saved * (size_t)(rc->nbound ? rc->nbound : 1));
    for (int i = 0; i < rc->nbound; i++) {
        saved[i] = rc->bound[i]->out;
        rc->bound[i]->out = NULL;
    }
    if (recompute) {
        /* Every row back through the loop negated (its joins forget them), then from D's rows again. */
        df__rec_bounds(s, rc, saved, 0, false);
        df__rec_phase(&r, df__rec_take_back(s, rc), dd, true, DF_SETTLE_COUNT, NULL);
    } else if (dred) {
        /* Removals alone: each row shown that loses a derivation goes, and what it derived. */
        df_builder_t over;
        df__builder_init(&over);
        df_batch_t *minus = df__rec_half(dd, -1, s->seq), *plus = df__rec_half(dd, +1, s->seq);
        df__rec_bounds(s, rc, saved, -1, false);
        bool ok = df__rec_phase(&r, NULL, minus, false, DF_SETTLE_OVERDELETE, &over);
        df_batch_t *gone = df__finish(&over, s->seq);
        df__rec_bounds(s, rc, saved, +1, false);
        if (ok) {
            /* Then the rows that went but have a derivation still, with the additions. */
            df_batch_t *back = df__rec_settle(s, rc, NULL, gone, DF_SETTLE_COUNT, NULL);
            df__rec_phase(&r, back, plus, false, DF_SETTLE_COUNT, NULL);
        } else {
            /* Cut short: the joins and D's counts still take the additions, which the recomputations
             * of the next steps start from; what they derive is dropped. */
            bool any;
            df__rec_iterate(s, rc, NULL, &r.out);
            df_batch_t *d = df__rec_route(s, n, plus, NULL, false, &any);
            if (d)
                df__spine_insert(&rc->rows, d);
        }
        df__batch_unref(gone);
        df__batch_unref(minus);
        df__batch_unref(plus);
        df__builder_free(&over);
    } else {
        df__rec_bounds(s, rc, saved, 0, false);
        df__rec_phase(&r, NULL, dd, false, DF_SETTLE_COUNT, NULL);
    }
    df__batch_unref(dd);
    for (int i = 0; i < rc->nbound; i++) {
        df__batch_unref(rc->bound[i]->out);
        rc->bound[i]->out = saved[i];
    }
    free(saved);
    if (r.over != rc->diverged) {
        rc->diverged = r.over;
        df__rec_limit_error(s, n, r.over ? 1 : -1);
    }
    n->out = df__finish(&r.out, s->seq);
    df__builder_free(&r.out);
    return true;
}
