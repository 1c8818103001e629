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
 * gives it and how many times R derived it. A step:
 *
 *  1. Iteration 0 runs the loop once with no worktable rows, so its joins
 *     meet the other relations' changes with the rows as they were; what
 *     R gives then, with D's change, is routed to the owners and counted.
 *  2. Each change of X there (UNION ALL: the change itself; UNION: a row
 *     whose count leaves or reaches 0) is the next worktable, and runs the
 *     loop again; R's output is routed and counted again, and so on until
 *     no worker routed anything (semi-naive evaluation: an insert costs
 *     the derivations it adds, not the whole result).
 *
 * UNION ALL is exact under retractions too, by linearity. With UNION a
 * retraction could leave rows that only derive one another (a cycle of
 * paths after its edge into the cycle went), so a step in which D or a
 * relation the loop joins lost a row (on any worker: one exchange round
 * decides) recomputes the query instead: every row of X goes back through
 * the loop negated (the joins forget them), every derived count is
 * dropped, and the iteration starts again from D's rows. The cost of such
 * a step is the whole query's.
 *
 * Every worker iterates in step: an iteration's exchange round (the
 * routing) also tells every worker whether any routed a row. More than
 * st->recursion_max iterations in one step put the view in error (54000,
 * as a query's max_recursive_iterations); the worktable of the last one
 * goes through the loop, so the joins hold exactly the rows shown, and
 * later steps recompute until the recursion ends again.
 */
#include "dataflow/df_flow.h"

#include <stdlib.h>
#include <string.h>

enum { DF_REC_DEF = 0, DF_REC_DERIVED = 1, DF_REC_MARK = 2 };   /* the first byte of a routed value */

typedef struct df__rec {
    df_keycol_t *kcols;          /* every column, in order */
    bool distinct;               /* UNION: each row once */
    df_spine_t rows;             /* key: the row's key; value: DF_REC_DEF or DF_REC_DERIVED, then the row */
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
    df_builder_t bl;
    df__builder_init(&bl);
    for (uint64_t k = 0; got && k < got->nkeys; k++) {
        size_t kl;
        const uint8_t *kp = df__batch_key(got, k, &kl);
        uint64_t hi = k + 1 < got->nkeys ? df__batch_vals_lo(got, k + 1) : got->nvals;
        for (uint64_t j = df__batch_vals_lo(got, k); j < hi; j++) {
            size_t vl;
            const uint8_t *vp = df__batch_val(got, j, &vl);
            if (!df__rec_is_mark(vp, vl))
                df__builder_add(&bl, kp, kl, vp, vl, df__batch_diff(got, j));
        }
    }
    df__batch_unref(got);
    df_batch_t *d = df__finish(&bl, s->seq);
    df__builder_free(&bl);
    for (int w = 0; w < nw; w++)
        df__builder_free(&bls[w]);
    free(bls);
    return d;
}

/* With UNION: the row a key shows (its smallest counted value's row) while its count is above 0. */
static void df__rec_shown(void *out, df_scur_t *cur, const uint8_t *key, size_t klen, int64_t sign)
{
    int64_t count = 0;
    const uint8_t *shown = NULL;
    size_t shown_len = 0;
    if (df__scur_seek(cur, key, klen))
        for (; df__scur_val_valid(cur); df__scur_val_next(cur)) {
            size_t len;
            const uint8_t *v = df__scur_val(cur, &len);
            int64_t m = df__scur_diff(cur);
            count += m;
            if (!shown && m > 0 && len > 0) {
                shown = v + 1;
                shown_len = len - 1;
            }
        }
    if (count > 0 && shown)
        df__builder_add(out, "", 0, shown, shown_len, sign);
}

/* Counts the routed rows d (taken); returns how the query's rows changed here (the next worktable). */
static df_batch_t *df__rec_apply(df_step_t *s, df__rec_t *rc, df_batch_t *d)
{
    if (!d)
        return NULL;
    df_builder_t ob;
    df__builder_init(&ob);
    if (!rc->distinct) {
        for (uint64_t j = 0; j < d->nvals; j++) {
            size_t len;
            const uint8_t *v = df__batch_val(d, j, &len);
            df__builder_add(&ob, "", 0, v + 1, len - 1, df__batch_diff(d, j));
        }
        df__spine_insert(&rc->rows, d);
    } else {
        df__arrange_touched(&rc->rows, d, d, df__rec_shown, &ob);
    }
    df_batch_t *w = df__finish(&ob, s->seq);
    df__builder_free(&ob);
    return w;
}

/*
 * This worker's rows of the query with diffs times sign (NULL: none); with
 * drop_derived, the derived counts are also taken out of the arrangement.
 */
static df_batch_t *df__rec_contents(df_step_t *s, df__rec_t *rc, int64_t sign, bool drop_derived)
{
    df_builder_t ob, drop;
    df__builder_init(&ob);
    df__builder_init(&drop);
    df_snap_t *snap = df__spine_snapshot(&rc->rows);
    df_scur_t cur;
    df__scur_init(&cur, snap);
    for (; df__scur_key_valid(&cur); df__scur_key_next(&cur)) {
        size_t kl;
        const uint8_t *kp = df__scur_key(&cur, &kl);
        if (rc->distinct) {
            df__rec_shown(&ob, &cur, kp, kl, sign);
            df__scur_val_rewind(&cur);
        }
        for (; df__scur_val_valid(&cur); df__scur_val_next(&cur)) {
            size_t len;
            const uint8_t *v = df__scur_val(&cur, &len);
            if (len == 0)
                continue;
            if (!rc->distinct)
                df__builder_add(&ob, "", 0, v + 1, len - 1, sign * df__scur_diff(&cur));
            if (drop_derived && v[0] == DF_REC_DERIVED)
                df__builder_add(&drop, kp, kl, v, len, -df__scur_diff(&cur));
        }
    }
    df__scur_free(&cur);
    df__snap_unref(snap);
    df_batch_t *gone = df__finish(&drop, s->seq);
    if (gone)
        df__spine_insert(&rc->rows, gone);
    df__builder_free(&drop);
    df_batch_t *w = df__finish(&ob, s->seq);
    df__builder_free(&ob);
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

bool df__op_recurse(df_step_t *s, df_node_t *n)
{
    df__rec_t *rc = n->state;
    df_node_t *def = n->in[0], *rec = n->in[1];
    bool recompute = rc->diverged;
    if (!recompute && rc->distinct) {
        bool lost = df__rec_negative(def->out);
        for (int i = 0; i < rc->nbound && !lost; i++)
            lost = df__rec_negative(rc->bound[i]->out);
        recompute = df__rec_any(s, n, lost);
    }
    df_builder_t ob;
    df__builder_init(&ob);
    /* Iteration 0: the other relations' changes meet the rows as they were, or all of them taken back. */
    df__rec_iterate(s, rc, recompute ? df__rec_contents(s, rc, -1, true) : NULL, &ob);
    bool any;
    df_batch_t *d = df__rec_route(s, n, def->out, recompute ? NULL : rec->out, false, &any);
    df_batch_t *w;
    if (recompute) {
        if (d)
            df__spine_insert(&rc->rows, d);
        w = df__rec_contents(s, rc, +1, false);
    } else {
        w = df__rec_apply(s, rc, d);
    }
    /* Later iterations see only the worktable change: the other relations' are in the joins now. */
    df_batch_t **saved = cm_malloc(sizeof *saved * (size_t)(rc->nbound ? rc->nbound : 1));
    for (int i = 0; i < rc->nbound; i++) {
        saved[i] = rc->bound[i]->out;
        rc->bound[i]->out = NULL;
    }
    bool more = recompute || any, over = false;
    for (int64_t iterations = 1; more; iterations++) {
        over = iterations > s->st->recursion_max;
        df__rec_iterate(s, rc, w, &ob);
        if (over)
            break;   /* the joins took the last worktable; what it derived is dropped */
        d = df__rec_route(s, n, NULL, rec->out, false, &any);
        w = df__rec_apply(s, rc, d);
        more = any;
    }
    for (int i = 0; i < rc->nbound; i++) {
        df__batch_unref(rc->bound[i]->out);
        rc->bound[i]->out = saved[i];
    }
    free(saved);
    if (over != rc->diverged) {
        rc->diverged = over;
        df__rec_limit_error(s, n, over ? 1 : -1);
    }
    n->out = df__finish(&ob, s->seq);
    df__builder_free(&ob);
    return true;
}
