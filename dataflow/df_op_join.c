/*
 * df_op_join.c: JOIN (inner, LEFT, RIGHT, FULL) and PRODUCT (CROSS JOIN)
 * maintained by the delta rule (DESIGN §6). The conjuncts of ON that equate
 * an expression of the left row with one of the right row (= or IS NOT
 * DISTINCT FROM of one keyable type) are the join key; each side's delta is
 * keyed by the key's encoding (df__key_encode: equal bytes exactly when SQL
 * finds the values equal) and goes, in one exchange round for both sides,
 * to the worker hash(key) % N, where each side is arranged (a spine keyed by
 * the join key, values the side's rows with their multiplicities). A step
 * produces d(L join R) = dL join R_old + L_new join dR: only the keys the
 * step touched are read, never the whole of either side. Without equality
 * conjuncts the key is empty and every row meets on one worker (the owner of
 * the empty key): correct, but a cross join, or a join on a condition of
 * another shape, is not spread over the workers.
 *
 * Every pair of equal keys is decided by the whole ON condition, unless the
 * condition is the key equalities alone. A row of a preserved side (LEFT:
 * the left) appears NULL-extended while it has no match: a step retracts,
 * for each touched key where the other side changed, the NULL-extended rows
 * as they were and adds them as they are now (with the key's match counts,
 * so a key whose other side stays non-empty costs nothing); where only the
 * preserved side changed, its delta's own rows are the change. A row whose
 * key is NULL under = matches nothing: it is dropped, or NULL-extended on
 * the spot for a preserved side. A pair whose ON condition fails (1/0) is
 * an error of the view with the pair's multiplicity, and no match.
 */
#include "dataflow/df_flow.h"

#include <stdlib.h>
#include <string.h>

#define DF_JOIN_KEYS_MAX 16

struct df_join {
    bool keep[2];                /* a side whose unmatched rows appear NULL-extended (0 left, 1 right) */
    int w[2];                    /* each side's columns */
    const ty_oid_t *types[2];
    int nkeys;
    ty_expr_t *key[2][DF_JOIN_KEYS_MAX];   /* over each side's own row */
    bool null_eq[DF_JOIN_KEYS_MAX];        /* IS NOT DISTINCT FROM: NULL is a value that matches NULL */
    df_keycol_t kcols[DF_JOIN_KEYS_MAX];
    ty_expr_t *pred;             /* ON; NULL: true */
    bool residual;               /* pairs of equal keys are decided by pred (else: by the keys alone) */
    df_spine_t side[2];
};

/* Whether c is "left expr = right expr" (or IS NOT DISTINCT FROM) of one keyable type; adds it as a key. */
static bool df__join_key(df_graph_t *g, df_join_t *j, const ty_expr_t *c)
{
    bool equal = c->kind == TY_EXPR_CALL && c->func != NULL && strcmp(c->func->name, "=") == 0;
    bool not_distinct = c->kind == TY_EXPR_IS_DISTINCT && c->negated;
    if (!(equal || not_distinct) || c->nargs != 2 || j->nkeys == DF_JOIN_KEYS_MAX)
        return false;
    ty_expr_t *a = c->args[0], *b = c->args[1];
    if (a->type != b->type)
        return false;
    int alo, ahi, blo, bhi, lw = j->w[0];
    plan_expr_cols(a, &alo, &ahi);
    plan_expr_cols(b, &blo, &bhi);
    if (alo > ahi || blo > bhi)
        return false;   /* a constant side: a filter, not a key */
    if (alo >= lw && bhi < lw) {
        ty_expr_t *t = a;
        a = b;
        b = t;
        int tl = alo, th = ahi;
        alo = blo, ahi = bhi;
        blo = tl, bhi = th;
    }
    if (ahi >= lw || blo < lw)
        return false;
    cm_err_t err = {0};
    if (!df__key_type_check(a->type, &err)) {
        cm_err_clear(&err);
        return false;
    }
    int k = j->nkeys++;
    j->key[0][k] = a;
    j->key[1][k] = plan_expr_shift(&g->arena, b, -lw);
    j->null_eq[k] = not_distinct;
    j->kcols[k] = (df_keycol_t){.col = k, .type = a->type};
    return true;
}

static bool df__join_keys(df_graph_t *g, df_join_t *j, const ty_expr_t *c)
{
    if (c->kind == TY_EXPR_AND) {
        bool all = true;
        for (int i = 0; i < c->nargs; i++)
            all &= df__join_keys(g, j, c->args[i]);
        return all;
    }
    return df__join_key(g, j, c);
}

df_join_t *df__join_new(df_graph_t *g, df_node_t *n)
{
    /* A FILTER over a PRODUCT (WHERE over FROM a, b) is compiled as one join whose ON is the filter's. */
    const plan_rel_t *f = n->rel->kind == PLAN_REL_FILTER ? n->rel : NULL, *r = f ? f->input : n->rel;
    df_join_t *j = cm_calloc(1, sizeof *j);
    plan_join_t kind = r->kind == PLAN_REL_JOIN ? r->join : PLAN_JOIN_INNER;
    j->keep[0] = kind == PLAN_JOIN_LEFT || kind == PLAN_JOIN_FULL;
    j->keep[1] = kind == PLAN_JOIN_RIGHT || kind == PLAN_JOIN_FULL;
    for (int s = 0; s < 2; s++) {
        j->w[s] = n->in[s]->ncols;
        j->types[s] = n->in[s]->types;
        df__spine_init(&j->side[s]);
        n->arranged[s] = &j->side[s];
    }
    j->pred = f ? f->pred : r->kind == PLAN_REL_JOIN ? r->pred : NULL;
    /* Only conjuncts that all became keys leave no residual. */
    j->residual = j->pred && !df__join_keys(g, j, j->pred);
    return j;
}

void df__join_free(df_join_t *j)
{
    if (!j)
        return;
    df__spine_free(&j->side[0]);
    df__spine_free(&j->side[1]);
    free(j);
}

/* ------------------------------------------------------------ rows */

/* The rows of one key of one side: a range of a delta, or a snapshot cursor standing at the key. */
typedef struct df__grp {
    const df_batch_t *b;
    uint64_t lo, hi, at;
    df_scur_t *c;                /* NULL with b NULL: no rows */
} df__grp_t;

static void df__grp_rewind(df__grp_t *g)
{
    if (g->b)
        g->at = g->lo;
    else if (g->c)
        df__scur_val_rewind(g->c);
}

static bool df__grp_valid(const df__grp_t *g)
{
    return g->b ? g->at < g->hi : g->c ? df__scur_val_valid(g->c) : false;
}

static const uint8_t *df__grp_val(const df__grp_t *g, size_t *len, int64_t *diff)
{
    if (g->b) {
        *diff = df__batch_diff(g->b, g->at);
        return df__batch_val(g->b, g->at, len);
    }
    *diff = df__scur_diff(g->c);
    return df__scur_val(g->c, len);
}

static void df__grp_next(df__grp_t *g)
{
    if (g->b)
        g->at++;
    else
        df__scur_val_next(g->c);
}

static df__grp_t df__grp_of_batch(const df_batch_t *b, int64_t k)
{
    if (!b || k < 0)
        return (df__grp_t){0};
    uint64_t lo = df__batch_vals_lo(b, (uint64_t)k);
    uint64_t hi = (uint64_t)k + 1 < b->nkeys ? df__batch_vals_lo(b, (uint64_t)k + 1) : b->nvals;
    return (df__grp_t){.b = b, .lo = lo, .hi = hi, .at = lo};
}

/* What a step works with: the operator's scratch and its output. */
typedef struct df__jstep {
    df_step_t *s;
    df_node_t *n;
    df_join_t *j;
    df_builder_t out;
    cm_buf_t enc;
    ty_datum_t *row;             /* the output row: the left's columns, then the right's */
    cm_arena_t outer;            /* the outer loop's decoded row, kept while the inner loop resets rowa */
    ty_ctx_t octx;
} df__jstep_t;

/* Decodes side s's row into its place in x->row (NULL: NULLs there); false: corrupt (counted). */
static bool df__jdecode(df__jstep_t *x, int s, const uint8_t *v, size_t len, ty_ctx_t *ctx, int64_t diff)
{
    ty_datum_t *at = x->row + (s ? x->j->w[0] : 0);
    if (!v) {
        for (int c = 0; c < x->j->w[s]; c++)
            at[c] = (ty_datum_t){.isnull = true};
        return true;
    }
    if (df__row_decode(x->j->types[s], x->j->w[s], v, len, DF_ROW_BORROW, ctx, at))
        return true;
    df__graph_error(x->s, diff);   /* ctx shares the step's err */
    return false;
}

/* Adds x->row to the output with diff; a row that cannot be encoded is an error with diff. */
static void df__jemit(df__jstep_t *x, int64_t diff)
{
    cm_buf_reset(&x->enc);
    if (df__row_encode(x->n->types, x->n->ncols, x->row, &x->s->ctx, &x->enc))
        df__builder_add(&x->out, "", 0, x->enc.data, x->enc.len, diff);
    else
        df__graph_error(x->s, diff);
}

/* Whether the pair in x->row matches. count_errors: a failing condition is an error with diff (else no match). */
static bool df__jmatch(df__jstep_t *x, bool count_errors, int64_t diff)
{
    if (!x->j->residual)
        return true;
    ty_datum_t d;
    memset(&d, 0, sizeof d);
    if (ty_expr_eval(x->j->pred, &x->s->ctx, x->row, NULL, &d))
        return !d.isnull && d.v.b;
    if (count_errors)
        df__graph_error(x->s, diff);
    else
        cm_err_clear(&x->s->err);
    return false;
}

/* Every pair of outer (side so) and inner (the other side), multiplicities multiplied. */
static void df__jpairs(df__jstep_t *x, int so, df__grp_t *outer, df__grp_t *inner)
{
    df_step_t *s = x->s;
    for (df__grp_rewind(outer); df__grp_valid(outer); df__grp_next(outer)) {
        size_t ol;
        int64_t od;
        const uint8_t *ov = df__grp_val(outer, &ol, &od);
        cm_arena_reset(&x->outer);
        if (!df__jdecode(x, so, ov, ol, &x->octx, od))
            continue;
        for (df__grp_rewind(inner); df__grp_valid(inner); df__grp_next(inner)) {
            size_t il;
            int64_t id;
            const uint8_t *iv = df__grp_val(inner, &il, &id);
            int64_t diff = od * id;
            if (df__jdecode(x, 1 - so, iv, il, &s->ctx, diff) && df__jmatch(x, true, diff))
                df__jemit(x, diff);
            cm_arena_reset(&s->rowa);
        }
    }
}

/* The multiplicity of the rows of other that match the row of side so now in x->row. */
static int64_t df__jmatches(df__jstep_t *x, int so, df__grp_t *other)
{
    int64_t m = 0;
    for (df__grp_rewind(other); df__grp_valid(other); df__grp_next(other)) {
        size_t il;
        int64_t id;
        const uint8_t *iv = df__grp_val(other, &il, &id);
        /* A corrupt row is counted where the pairs are made; here it is no match. */
        if (df__row_decode(x->j->types[1 - so], x->j->w[1 - so], iv, il, DF_ROW_BORROW, &x->s->ctx,
                           x->row + (so ? 0 : x->j->w[0])) &&
            df__jmatch(x, false, 0))
            m += id;
        cm_err_clear(&x->s->err);
        cm_arena_reset(&x->s->rowa);
    }
    return m;
}

static int64_t df__grp_total(df__grp_t *g)
{
    int64_t m = 0;
    for (df__grp_rewind(g); df__grp_valid(g); df__grp_next(g)) {
        size_t l;
        int64_t d;
        df__grp_val(g, &l, &d);
        m += d;
    }
    return m;
}

/*
 * The rows of mine (side so) that have no match in other, NULL-extended,
 * each with its multiplicity times sign.
 */
static void df__junmatched(df__jstep_t *x, int so, df__grp_t *mine, df__grp_t *other, int64_t sign)
{
    if (!x->j->residual && df__grp_total(other) != 0)
        return;   /* every row of the key matches every row of the other side: none is unmatched */
    for (df__grp_rewind(mine); df__grp_valid(mine); df__grp_next(mine)) {
        size_t ol;
        int64_t od;
        const uint8_t *ov = df__grp_val(mine, &ol, &od);
        cm_arena_reset(&x->outer);
        if (!df__jdecode(x, so, ov, ol, &x->octx, od * sign))
            continue;
        if (x->j->residual && df__jmatches(x, so, other) != 0)
            continue;
        df__jdecode(x, 1 - so, NULL, 0, NULL, 0);
        df__jemit(x, od * sign);
    }
}

/* ------------------------------------------------------------ the step */

static int df__join_owner(const df_step_t *s, const uint8_t *key, size_t len)
{
    return (int)(df__hash(key, len) % (uint64_t)s->st->nworkers);
}

/*
 * Keys each side's delta and sends it to the keys' owners (one round, both
 * sides: a key's first byte says which); d[side] gets this worker's part.
 * A row whose key is NULL under = is dealt with here.
 */
static bool df__join_route(df__jstep_t *x, df_batch_t **d)
{
    df_step_t *s = x->s;
    df_join_t *j = x->j;
    int nw = s->st->nworkers;
    df_builder_t *bls = cm_calloc((size_t)nw, sizeof *bls);
    df_batch_t **out = cm_calloc((size_t)nw, sizeof *out), **got = cm_calloc((size_t)nw, sizeof *got);
    for (int w = 0; w < nw; w++)
        df__builder_init(&bls[w]);
    cm_buf_t key;
    cm_buf_init(&key, 0);
    ty_datum_t kv[DF_JOIN_KEYS_MAX];
    for (int side = 0; side < 2; side++) {
        const df_batch_t *in = x->n->in[side]->out;
        for (uint64_t i = 0; in && i < in->nvals; i++) {
            size_t len;
            const uint8_t *v = df__batch_val(in, i, &len);
            int64_t diff = df__batch_diff(in, i);
            if (!df__jdecode(x, side, v, len, &s->ctx, diff)) {
                cm_arena_reset(&s->rowa);
                continue;
            }
            const ty_datum_t *row = x->row + (side ? j->w[0] : 0);
            bool ok = true, null = false;
            for (int k = 0; ok && k < j->nkeys; k++) {
                memset(&kv[k], 0, sizeof kv[k]);
                ok = ty_expr_eval(j->key[side][k], &s->ctx, row, NULL, &kv[k]);
                null |= ok && kv[k].isnull && !j->null_eq[k];
            }
            cm_buf_reset(&key);
            cm_buf_put_u8(&key, (uint8_t)side);
            if (!ok || (!null && !df__key_encode(j->kcols, j->nkeys, kv, &s->ctx, &key))) {
                df__graph_error(s, diff);
            } else if (null) {
                if (j->keep[side]) {
                    df__jdecode(x, 1 - side, NULL, 0, NULL, 0);
                    df__jemit(x, diff);
                }
            } else {
                int owner = df__join_owner(s, key.data + 1, key.len - 1);
                df__builder_add(&bls[owner], key.data, key.len, v, len, diff);
            }
            cm_arena_reset(&s->rowa);
        }
    }
    for (int w = 0; w < nw; w++)
        out[w] = df__finish(&bls[w], s->seq);
    bool ok = df__xchg_round(s->st->exchange, s->st->worker, out, got);
    df_builder_t bl[2];
    df__builder_init(&bl[0]);
    df__builder_init(&bl[1]);
    for (int w = 0; w < nw; w++) {
        for (uint64_t k = 0; ok && got[w] && k < got[w]->nkeys; k++) {
            size_t kl;
            const uint8_t *kp = df__batch_key(got[w], k, &kl);
            df__grp_t g = df__grp_of_batch(got[w], (int64_t)k);
            for (; df__grp_valid(&g); df__grp_next(&g)) {
                size_t vl;
                int64_t diff;
                const uint8_t *vp = df__grp_val(&g, &vl, &diff);
                df__builder_add(&bl[kp[0] & 1], kp + 1, kl - 1, vp, vl, diff);
            }
        }
        df__batch_unref(got[w]);
    }
    for (int side = 0; side < 2; side++) {
        d[side] = df__finish(&bl[side], s->seq);
        df__builder_free(&bl[side]);
    }
    for (int w = 0; w < nw; w++)
        df__builder_free(&bls[w]);
    free(bls);
    free(out);
    free(got);
    cm_buf_free(&key);
    return ok;
}

/* A key touched at this step: its index in each side's delta (-1: not there). */
typedef struct df__jkey {
    const uint8_t *key;
    size_t len;
    int64_t at[2];
} df__jkey_t;

static df__jkey_t *df__join_touched(df_batch_t *const *d, size_t *n)
{
    uint64_t nl = d[0] ? d[0]->nkeys : 0, nr = d[1] ? d[1]->nkeys : 0;
    df__jkey_t *t = cm_malloc(sizeof *t * (size_t)(nl + nr + 1));
    uint64_t i = 0, k = 0;
    *n = 0;
    while (i < nl || k < nr) {
        size_t ll = 0, rl = 0;
        const uint8_t *lp = i < nl ? df__batch_key(d[0], i, &ll) : NULL;
        const uint8_t *rp = k < nr ? df__batch_key(d[1], k, &rl) : NULL;
        int cmp = !lp ? 1 : !rp ? -1 : df__bytes_cmp(lp, ll, rp, rl);
        df__jkey_t *e = &t[(*n)++];
        e->at[0] = cmp <= 0 ? (int64_t)i++ : -1;
        e->at[1] = cmp >= 0 ? (int64_t)k++ : -1;
        e->key = cmp <= 0 ? lp : rp;
        e->len = cmp <= 0 ? ll : rl;
    }
    return t;
}

/* A cursor over a side's arrangement as it is now. */
typedef struct df__jarr {
    df_snap_t *snap;
    df_scur_t cur;
} df__jarr_t;

static void df__jarr_open(df__jarr_t *a, df_spine_t *sp)
{
    a->snap = df__spine_snapshot(sp);
    df__scur_init(&a->cur, a->snap);
}

static void df__jarr_close(df__jarr_t *a)
{
    df__scur_free(&a->cur);
    df__snap_unref(a->snap);
}

/* The arrangement's rows of key (keys asked in ascending order). */
static df__grp_t df__jarr_rows(df__jarr_t *a, const df__jkey_t *t)
{
    if (!df__scur_seek(&a->cur, t->key, t->len))
        return (df__grp_t){0};
    return (df__grp_t){.c = &a->cur};
}

static void df__join_insert(df_spine_t *sp, df_batch_t *d)
{
    if (d) {
        df__batch_ref(d);
        df__spine_insert(sp, d);
    }
}

bool df__op_join(df_step_t *s, df_node_t *n)
{
    df__jstep_t x = {.s = s, .n = n, .j = n->join};
    df_join_t *j = x.j;
    df__builder_init(&x.out);
    cm_buf_init(&x.enc, 0);
    cm_arena_init(&x.outer, 0);
    x.octx = s->ctx;
    x.octx.arena = &x.outer;
    x.row = cm_calloc((size_t)(n->ncols ? n->ncols : 1), sizeof *x.row);
    df_batch_t *d[2] = {NULL, NULL};
    bool ok = df__join_route(&x, d);
    size_t nt = 0;
    df__jkey_t *t = ok && (d[0] || d[1]) ? df__join_touched(d, &nt) : NULL;
    if (nt > 0) {
        df__jarr_t a[2];
        /* Before: dL with R as it was; the preserved sides' unmatched rows where they may change. */
        df__jarr_open(&a[0], &j->side[0]);
        df__jarr_open(&a[1], &j->side[1]);
        for (size_t i = 0; i < nt; i++) {
            df__grp_t old[2] = {df__jarr_rows(&a[0], &t[i]), df__jarr_rows(&a[1], &t[i])};
            df__grp_t dg[2] = {df__grp_of_batch(d[0], t[i].at[0]), df__grp_of_batch(d[1], t[i].at[1])};
            if (t[i].at[0] >= 0)
                df__jpairs(&x, 0, &dg[0], &old[1]);
            for (int so = 0; so < 2; so++) {
                if (!j->keep[so])
                    continue;
                if (t[i].at[1 - so] >= 0)
                    df__junmatched(&x, so, &old[so], &old[1 - so], -1);   /* added back below, as they are now */
                else if (t[i].at[so] >= 0)
                    df__junmatched(&x, so, &dg[so], &old[1 - so], +1);    /* the other side did not change */
            }
        }
        df__jarr_close(&a[0]);
        df__jarr_close(&a[1]);
        df__join_insert(&j->side[0], d[0]);
        /* Then L as it is now with dR. */
        df__jarr_open(&a[0], &j->side[0]);
        for (size_t i = 0; i < nt; i++) {
            if (t[i].at[1] < 0)
                continue;
            df__grp_t now = df__jarr_rows(&a[0], &t[i]), dg = df__grp_of_batch(d[1], t[i].at[1]);
            df__jpairs(&x, 1, &dg, &now);
        }
        df__jarr_close(&a[0]);
        df__join_insert(&j->side[1], d[1]);
        /* After: the unmatched rows retracted above, as they are now. */
        if (j->keep[0] || j->keep[1]) {
            df__jarr_open(&a[0], &j->side[0]);
            df__jarr_open(&a[1], &j->side[1]);
            for (size_t i = 0; i < nt; i++) {
                df__grp_t now[2] = {df__jarr_rows(&a[0], &t[i]), df__jarr_rows(&a[1], &t[i])};
                for (int so = 0; so < 2; so++)
                    if (j->keep[so] && t[i].at[1 - so] >= 0)
                        df__junmatched(&x, so, &now[so], &now[1 - so], +1);
            }
            df__jarr_close(&a[0]);
            df__jarr_close(&a[1]);
        }
    }
    free(t);
    df__batch_unref(d[0]);
    df__batch_unref(d[1]);
    n->out = df__finish(&x.out, s->seq);
    df__builder_free(&x.out);
    cm_buf_free(&x.enc);
    cm_arena_free(&x.outer);
    free(x.row);
    cm_arena_reset(&s->rowa);
    return ok;
}

bool df__join_idle_work(df_join_t *j, int64_t *fuel)
{
    bool more = df__spine_idle_spend(&j->side[0], fuel);
    return df__spine_idle_spend(&j->side[1], fuel) || more;
}
