/*
 * plan_window.c: one WINDOW operator over a set of rows, PostgreSQL's
 * WindowAgg semantics, for every executor of a plan (the pull executor's
 * ex_window.c over all of its input, a materialized view's df_op_window.c
 * over the partitions a change touches). Rows are sorted by the partition
 * values (ascending, NULLs last) and the window's ORDER BY, stably, so rows
 * equal on both keep the order they came in; each row gets its input
 * columns followed by one value per window function. Rows with equal
 * ORDER BY values are peers; the frame (ROWS, RANGE or GROUPS between two
 * bounds, minus an EXCLUDE) is plan_frame.c's. Aggregates over a frame that
 * always starts at the partition's start are computed incrementally; others
 * are recomputed per distinct frame. Frame offsets are evaluated once per
 * run and checked as PostgreSQL does (not NULL, not negative). The caller
 * gives the expressions to evaluate (the plan's, or its own copies with
 * subqueries replaced) and its parameters.
 */
#include "plan/plan.h"

#include <string.h>

/* A row with its sort values: partition values, ORDER BY values, then the RANGE value and input index. */
typedef struct wrow {
    ty_datum_t *key;
    ty_datum_t rv;                /* RANGE with offset: the ORDER BY value in the bound's type */
    ty_datum_t sb, eb;            /* RANGE with offset: this row's start and end bound values */
    int index;                    /* in the input */
} wrow_t;

typedef struct wrun {
    ty_ctx_t *ctx;
    const ty_datum_t *params;
    const plan_window_t *w;
    const plan_window_exprs_t *e;
    int64_t soff, eoff;           /* ROWS / GROUPS offsets */
    ty_datum_t **in;
    wrow_t *rows;                 /* sorted */
    int *group;                   /* per sorted row: its peer group number in the partition */
    int *gstart, *gend;           /* per peer group: first and last row (inclusive) */
    plan_frame_rows_t fr;         /* the sorted rows as the frame arithmetic sees them */
} wrun_t;

/* The value of e over row (NULL: none) with the run's parameters. */
static bool plan__w_eval(const wrun_t *r, ty_expr_t *e, const ty_datum_t *row, ty_datum_t *out)
{
    memset(out, 0, sizeof(*out));
    return ty_expr_eval(e, r->ctx, row, r->params, out);
}

static int plan__w_cmp_key(const plan_sortkey_t *k, const ty_datum_t *p, const ty_datum_t *q)
{
    if (p->isnull || q->isnull) {
        if (p->isnull && q->isnull)
            return 0;
        return p->isnull ? (k->nulls_first ? -1 : 1) : (k->nulls_first ? 1 : -1);
    }
    int c = ty_datum_compare(k->type, p, q);
    return k->desc ? -c : c;
}

/* Equal on keys [from, to) of the window's sort (partition keys come first). */
static bool plan__w_same_keys(const plan_sortkey_t *keys, int from, int to, const wrow_t *a, const wrow_t *b)
{
    for (int i = from; i < to; i++)
        if (plan__w_cmp_key(&keys[i], &a->key[keys[i].col], &b->key[keys[i].col]) != 0)
            return false;
    return true;
}

/* A frame offset (var-free, the plan's expression e as the caller gives it in i), checked as PostgreSQL does. */
static bool plan__w_offset_value(const wrun_t *r, const ty_expr_t *e, ty_expr_t *i, bool start, bool range, ty_datum_t *out,
                                 bool *range_negative)
{
    if (!plan__w_eval(r, i, NULL, out))
        return false;
    if (out->isnull)
        return cm_err_set(r->ctx->err, CM_ERRCODE_NULL_VALUE_NOT_ALLOWED, "frame %s offset must not be null",
                          start ? "starting" : "ending");
    bool negative;
    switch (e->type) {
    case TY_FLOAT8:
        negative = out->v.f < 0;
        break;
    case TY_NUMERIC:
    case TY_INTERVAL: {
        ty_datum_t zero;
        memset(&zero, 0, sizeof(zero));
        if (e->type == TY_NUMERIC && !ty_numeric_from_text("0", 1, r->ctx, &zero.v.n))
            return false;
        negative = ty_datum_compare(e->type, out, &zero) < 0;
        break;
    }
    default:
        negative = out->v.i < 0;
        break;
    }
    if (negative) {
        /* PostgreSQL's in_range functions refuse it, so only once a row is compared with another. */
        if (range)
            return *range_negative = true, true;
        return cm_err_set(r->ctx->err, "22013", "frame %s offset must not be negative", start ? "starting" : "ending");
    }
    return true;
}

/* ------------------------------------------------------------- functions */

/* The value of expression e (instantiated) over sorted row j. */
static bool plan__w_value_at(const wrun_t *r, ty_expr_t *e, int j, ty_datum_t *out)
{
    return plan__w_eval(r, e, r->in[r->rows[j].index], out);
}

/* An aggregate over each row's frame of the partition [ps, pe); results into out[i]. */
static bool plan__w_agg_partition(const wrun_t *r, const plan_agg_t *a, ty_expr_t **es, int nes, int ps, int pe, ty_datum_t *out)
{
    /* The aggregate's inputs of each row, evaluated once. */
    ty_datum_t **vals = cm_arena_alloc(r->ctx->arena, sizeof(ty_datum_t *) * (size_t)(pe - ps));
    bool *skip = cm_arena_zalloc(r->ctx->arena, sizeof(bool) * (size_t)(pe - ps));
    for (int j = ps; j < pe; j++) {
        ty_datum_t *v = cm_arena_zalloc(r->ctx->arena, sizeof(ty_datum_t) * (size_t)(nes + 1));
        int nv = 0;
        for (int k = 0; k < nes; k++) {
            ty_datum_t d;
            if (!plan__w_value_at(r, es[k], j, &d))
                return false;
            if (a->filter && k == 0) {
                skip[j - ps] = d.isnull || !d.v.b;
                if (skip[j - ps])
                    break;
            } else {
                v[nv++] = d;
            }
        }
        vals[j - ps] = v;
    }
    const plan_frame_t *f = &r->w->frame;
    bool incremental = f->start == PLAN_BOUND_UNBOUNDED_PRECEDING && f->exclude == PLAN_EXCLUDE_DEFAULT;
    plan_aggstate_t *st = NULL;
    int done = ps - 1, pfs = -1, pfe = -2;
    ty_datum_t prev = {.isnull = true};
    for (int i = ps; i < pe; i++) {
        int fs, fe;
        plan_frame_of(&r->fr, ps, pe, i, &fs, &fe);
        if (incremental && fe >= done) {
            /* The frame grew from the previous row's: only its new rows are added. */
            if (!st)
                st = plan_agg_start(a, r->ctx);
            for (int j = done + 1; j <= fe; j++)
                if (!skip[j - ps] && !plan_agg_step(a, st, vals[j - ps], r->ctx))
                    return false;
            if (fe > done)
                done = fe;
            if (!plan_agg_finish(a, st, r->ctx, &out[i]))
                return false;
            continue;
        }
        if (f->exclude == PLAN_EXCLUDE_DEFAULT && fs == pfs && fe == pfe) {
            out[i] = prev;
            continue;
        }
        plan_aggstate_t *one = plan_agg_start(a, r->ctx);
        for (int j = fs; j <= fe; j++)
            if (!skip[j - ps] && !plan_frame_excluded(&r->fr, i, j) && !plan_agg_step(a, one, vals[j - ps], r->ctx))
                return false;
        if (!plan_agg_finish(a, one, r->ctx, &out[i]))
            return false;
        prev = out[i];
        pfs = fs;
        pfe = fe;
    }
    return true;
}

static bool plan__w_int_arg(const wrun_t *r, ty_expr_t *e, int i, ty_datum_t *out)
{
    return plan__w_value_at(r, e, i, out);
}

static bool plan__w_func_partition(const wrun_t *r, const plan_wfunc_t *fn, ty_expr_t **args, int ps, int pe, ty_datum_t *out)
{
    int np = pe - ps;
    for (int i = ps; i < pe; i++) {
        ty_datum_t *o = &out[i];
        memset(o, 0, sizeof(*o));
        int g = r->group[i];
        switch (fn->kind) {
        case PLAN_WF_ROW_NUMBER:
            o->v.i = i - ps + 1;
            break;
        case PLAN_WF_RANK:
            o->v.i = r->gstart[g] - ps + 1;
            break;
        case PLAN_WF_DENSE_RANK:
            o->v.i = g + 1;
            break;
        case PLAN_WF_PERCENT_RANK:
            o->v.f = np > 1 ? (double)(r->gstart[g] - ps) / (double)(np - 1) : 0.0;
            break;
        case PLAN_WF_CUME_DIST:
            o->v.f = (double)(r->gend[g] - ps + 1) / (double)np;
            break;
        case PLAN_WF_NTILE: {
            /* The bucket count is read at the partition's first row, as PostgreSQL does. */
            ty_datum_t k;
            if (!plan__w_int_arg(r, args[0], ps, &k))
                return false;
            if (k.isnull) {
                o->isnull = true;
                break;
            }
            if (k.v.i <= 0)
                return cm_err_set(r->ctx->err, "22014", "argument of ntile must be greater than zero");
            /* The first np % k buckets hold one row more than the others. */
            int64_t per = np / k.v.i, extra = np % k.v.i, pos = i - ps;
            int64_t big = extra * (per + 1);
            o->v.i = pos < big ? pos / (per + 1) + 1 : extra + (pos - big) / (per ? per : 1) + 1;
            break;
        }
        case PLAN_WF_LAG:
        case PLAN_WF_LEAD: {
            int64_t off = 1;
            if (fn->nargs > 1) {
                ty_datum_t d;
                if (!plan__w_int_arg(r, args[1], i, &d))
                    return false;
                if (d.isnull) {
                    o->isnull = true;
                    break;
                }
                off = d.v.i;
            }
            int64_t j = fn->kind == PLAN_WF_LAG ? (int64_t)i - off : (int64_t)i + off;
            if (j >= ps && j < pe) {
                if (!plan__w_value_at(r, args[0], (int)j, o))
                    return false;
            } else if (fn->nargs > 2) {
                if (!plan__w_value_at(r, args[2], i, o))
                    return false;
            } else {
                o->isnull = true;
            }
            break;
        }
        case PLAN_WF_FIRST_VALUE:
        case PLAN_WF_LAST_VALUE:
        case PLAN_WF_NTH_VALUE: {
            int64_t n = 0;
            if (fn->kind == PLAN_WF_NTH_VALUE) {
                ty_datum_t d;
                if (!plan__w_int_arg(r, args[1], i, &d))
                    return false;
                if (d.isnull) {
                    o->isnull = true;
                    break;
                }
                if (d.v.i <= 0)
                    return cm_err_set(r->ctx->err, "22016", "argument of nth_value must be greater than zero");
                n = d.v.i - 1;
            }
            int fs, fe;
            plan_frame_of(&r->fr, ps, pe, i, &fs, &fe);
            int j = plan_frame_row(&r->fr, i, fs, fe, n, fn->kind == PLAN_WF_LAST_VALUE);
            if (j < 0)
                o->isnull = true;
            else if (!plan__w_value_at(r, args[0], j, o))
                return false;
            break;
        }
        case PLAN_WF_AGG:
            break;
        }
    }
    return true;
}

/* ------------------------------------------------------------- the run */

static void plan__w_sort_rows(const plan_sortkey_t *keys, int nkeys, wrow_t *rows, wrow_t *tmp, int n)
{
    if (n < 2)
        return;
    int h = n / 2;
    plan__w_sort_rows(keys, nkeys, rows, tmp, h);
    plan__w_sort_rows(keys, nkeys, rows + h, tmp, n - h);
    int i = 0, j = h, k = 0;
    while (i < h && j < n) {
        int c = 0;
        for (int q = 0; q < nkeys && c == 0; q++)
            c = plan__w_cmp_key(&keys[q], &rows[j].key[keys[q].col], &rows[i].key[keys[q].col]);
        tmp[k++] = c < 0 ? rows[j++] : rows[i++];
    }
    while (i < h)
        tmp[k++] = rows[i++];
    while (j < n)
        tmp[k++] = rows[j++];
    memcpy(rows, tmp, sizeof(*rows) * (size_t)n);
}

static bool plan__w_map_list(cm_arena_t *a, ty_expr_t *const *es, int n, ty_expr_t *(*map)(void *, ty_expr_t *),
                             void *arg, ty_expr_t ***out)
{
    *out = cm_arena_zalloc(a, sizeof(ty_expr_t *) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++)
        if (es[i] && !((*out)[i] = map ? map(arg, es[i]) : es[i]))
            return false;
    return true;
}

bool plan_window_exprs(const plan_window_t *w, cm_arena_t *a, ty_expr_t *(*map)(void *, ty_expr_t *), void *arg,
                       plan_window_exprs_t *out)
{
    memset(out, 0, sizeof(*out));
    const plan_frame_t *f = &w->frame;
    ty_expr_t *const fr[4] = {f->start_offset, f->end_offset, f->start_bound, f->end_bound};
    ty_expr_t **frm;
    if (!plan__w_map_list(a, w->part, w->npart, map, arg, &out->part) ||
        !plan__w_map_list(a, w->order, w->norder, map, arg, &out->order) ||
        !plan__w_map_list(a, fr, 4, map, arg, &frm))
        return false;
    out->start_offset = frm[0];
    out->end_offset = frm[1];
    out->start_bound = frm[2];
    out->end_bound = frm[3];
    int nfn = w->nfuncs;
    out->args = cm_arena_zalloc(a, sizeof(ty_expr_t **) * (size_t)(nfn ? nfn : 1));
    out->nargs = cm_arena_zalloc(a, sizeof(int) * (size_t)(nfn ? nfn : 1));
    for (int k = 0; k < nfn; k++) {
        const plan_wfunc_t *fn = w->funcs[k];
        if (fn->agg) {
            ty_expr_t **es = cm_arena_alloc(a, sizeof(ty_expr_t *) * (size_t)(plan_agg_nexprs(fn->agg) + 1));
            out->nargs[k] = plan_agg_exprs(fn->agg, es);
            if (!plan__w_map_list(a, es, out->nargs[k], map, arg, &out->args[k]))
                return false;
        } else {
            out->nargs[k] = fn->nargs;
            if (!plan__w_map_list(a, fn->args, fn->nargs, map, arg, &out->args[k]))
                return false;
        }
    }
    return true;
}

bool plan_window_offsets(const plan_window_t *w, const plan_window_exprs_t *e, const ty_datum_t *params, ty_ctx_t *ctx,
                         int64_t *soff, int64_t *eoff, bool *range_negative)
{
    wrun_t r = {.ctx = ctx, .params = params, .w = w, .e = e};
    const plan_frame_t *f = &w->frame;
    bool range = f->mode == PLAN_FRAME_RANGE;
    ty_datum_t d;
    *soff = *eoff = 0;
    *range_negative = false;
    if (f->start_offset) {
        if (!plan__w_offset_value(&r, f->start_offset, e->start_offset, true, range, &d, range_negative))
            return false;
        *soff = d.v.i;
    }
    if (f->end_offset) {
        if (!plan__w_offset_value(&r, f->end_offset, e->end_offset, false, range, &d, range_negative))
            return false;
        *eoff = d.v.i;
    }
    return true;
}

bool plan_window_run(const plan_rel_t *rel, const plan_window_exprs_t *e, ty_datum_t **in, int n,
                     const ty_datum_t *params, ty_ctx_t *ctx, ty_datum_t ***out)
{
    const plan_window_t *w = rel->window;
    wrun_t r = {.ctx = ctx, .params = params, .w = w, .e = e, .in = in};
    bool range_negative;
    if (!plan_window_offsets(w, e, params, ctx, &r.soff, &r.eoff, &range_negative))
        return false;
    cm_arena_t *a = ctx->arena;
    int nk = w->npart + w->norder;
    plan_sortkey_t *keys = cm_arena_zalloc(a, sizeof(plan_sortkey_t) * (size_t)(nk + 1));
    for (int i = 0; i < w->npart; i++)
        keys[i] = (plan_sortkey_t){.col = i, .type = w->part[i]->type};
    for (int i = 0; i < w->norder; i++)
        keys[w->npart + i] = w->keys[i];
    ty_expr_t *sbound = e->start_bound, *ebound = e->end_bound;
    ty_oid_t btype = sbound ? sbound->type : ebound ? ebound->type : TY_INVALID;
    r.rows = cm_arena_zalloc(a, sizeof(wrow_t) * (size_t)(n + 1));
    for (int j = 0; j < n; j++) {
        if (!ty_ctx_check_interrupt(ctx))
            return false;
        wrow_t *wr = &r.rows[j];
        wr->index = j;
        wr->key = cm_arena_zalloc(a, sizeof(ty_datum_t) * (size_t)(nk + 1));
        for (int i = 0; i < w->npart; i++)
            if (!plan__w_eval(&r, e->part[i], in[j], &wr->key[i]))
                return false;
        for (int i = 0; i < w->norder; i++)
            if (!plan__w_eval(&r, e->order[i], in[j], &wr->key[w->npart + i]))
                return false;
        if (btype != TY_INVALID) {
            /* RANGE with offset: this row's value in the bound's type, and its own bounds. */
            ty_datum_t *v = &wr->key[w->npart];
            wr->rv = *v;
            if (!v->isnull && w->order[0]->type != btype && !ty_cast_datum(w->order[0]->type, btype, -1, v, ctx, &wr->rv))
                return false;
            wr->sb.isnull = wr->eb.isnull = true;
            if (!v->isnull && sbound && !plan__w_eval(&r, sbound, in[j], &wr->sb))
                return false;
            if (!v->isnull && ebound && !plan__w_eval(&r, ebound, in[j], &wr->eb))
                return false;
        } else if (w->norder == 1) {
            wr->rv = wr->key[w->npart];
        }
        if (range_negative && !wr->key[w->npart].isnull)
            return cm_err_set(ctx->err, "22013", "invalid preceding or following size in window function");
    }
    plan__w_sort_rows(keys, nk, r.rows, cm_arena_alloc(a, sizeof(wrow_t) * (size_t)(n + 1)), n);
    /* Peer groups, numbered from 0 in each partition. */
    r.group = cm_arena_zalloc(a, sizeof(int) * (size_t)(n + 1));
    r.gstart = cm_arena_zalloc(a, sizeof(int) * (size_t)(n + 1));
    r.gend = cm_arena_zalloc(a, sizeof(int) * (size_t)(n + 1));
    ty_datum_t *rv = cm_arena_zalloc(a, sizeof(ty_datum_t) * (size_t)(3 * n + 3));
    ty_datum_t *sb = rv + n + 1, *eb = sb + n + 1;
    for (int j = 0; j < n; j++) {
        rv[j] = r.rows[j].rv;
        sb[j] = r.rows[j].sb;
        eb[j] = r.rows[j].eb;
    }
    r.fr = (plan_frame_rows_t){.w = w, .bound_type = btype, .soff = r.soff, .eoff = r.eoff, .rv = rv, .sb = sb,
                               .eb = eb, .group = r.group, .gstart = r.gstart, .gend = r.gend};
    int nfn = w->nfuncs;
    ty_datum_t **vals = cm_arena_alloc(a, sizeof(ty_datum_t *) * (size_t)(nfn ? nfn : 1));
    for (int k = 0; k < nfn; k++)
        vals[k] = cm_arena_zalloc(a, sizeof(ty_datum_t) * (size_t)(n + 1));
    for (int ps = 0; ps < n;) {
        int pe = ps + 1;
        while (pe < n && plan__w_same_keys(keys, 0, w->npart, &r.rows[ps], &r.rows[pe]))
            pe++;
        int g = 0;
        r.gstart[0] = ps;
        for (int i = ps; i < pe; i++) {
            if (i > ps && !plan__w_same_keys(keys, w->npart, nk, &r.rows[i - 1], &r.rows[i])) {
                r.gend[g] = i - 1;
                r.gstart[++g] = i;
            }
            r.group[i] = g;
        }
        r.gend[g] = pe - 1;
        for (int k = 0; k < nfn; k++) {
            const plan_wfunc_t *fn = w->funcs[k];
            bool ok = fn->agg ? plan__w_agg_partition(&r, fn->agg, e->args[k], e->nargs[k], ps, pe, vals[k])
                              : plan__w_func_partition(&r, fn, e->args[k], ps, pe, vals[k]);
            if (!ok)
                return false;
        }
        ps = pe;
    }
    int m = rel->input->ncols;
    *out = cm_arena_alloc(a, sizeof(ty_datum_t *) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) {
        ty_datum_t *row = cm_arena_alloc(a, sizeof(ty_datum_t) * (size_t)(rel->ncols ? rel->ncols : 1));
        memcpy(row, in[r.rows[i].index], sizeof(ty_datum_t) * (size_t)m);
        for (int k = 0; k < nfn; k++)
            row[m + k] = vals[k][i];
        (*out)[i] = row;
    }
    return true;
}
