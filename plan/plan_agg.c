/*
 * plan_agg.c: running aggregates over the rows of one group, as
 * PostgreSQL's transition and final functions do: NULL inputs are skipped
 * (count(*) counts rows), sum and avg add in their state type (bigint for
 * small integers, numeric for bigint, double precision for avg(real)) with
 * the types module's operators, avg divides by the count at the end, and
 * an aggregate that saw no value gives NULL (count gives 0). DISTINCT
 * keeps a set of the argument values already seen. With ORDER BY inside the
 * call the group's inputs are kept and fed in that order (stable, as
 * PostgreSQL's sort of equal keys keeps no promise but input order is the
 * natural choice) when the group finishes.
 */
#include "plan/plan.h"

#include <string.h>

struct plan_aggstate {
    int64_t count;
    bool have;
    ty_datum_t acc;
    char *buf;                    /* string_agg */
    size_t len, cap;
    plan_rowset_t *seen;           /* DISTINCT */
    ty_datum_t *items;            /* array_agg: the values so far */
    int nitems, items_cap;
    ty_datum_t **pending;         /* ORDER BY: inputs (arguments, then order values) not fed yet */
    int npending, pending_cap;
};

int plan_agg_nexprs(const plan_agg_t *a)
{
    return (a->filter ? 1 : 0) + a->nargs + a->norder;
}

int plan_agg_exprs(const plan_agg_t *a, ty_expr_t **es)
{
    int n = 0;
    if (a->filter)
        es[n++] = a->filter;
    for (int i = 0; i < a->nargs; i++)
        es[n++] = a->args[i];
    for (int i = 0; i < a->norder; i++)
        es[n++] = a->order[i];
    return n;
}

plan_aggstate_t *plan_agg_start(const plan_agg_t *a, ty_ctx_t *ctx)
{
    plan_aggstate_t *st = cm_arena_zalloc(ctx->arena, sizeof(*st));
    if (a->distinct && a->nargs > 0) {
        ty_oid_t types[2] = {a->args[0]->type, a->nargs > 1 ? a->args[1]->type : TY_INVALID};
        st->seen = plan_rowset_new(ctx->arena, a->nargs, types);
    }
    return st;
}

static void plan__append(ty_ctx_t *ctx, plan_aggstate_t *st, const char *p, size_t n)
{
    if (st->len + n > st->cap) {
        size_t cap = (st->len + n) * 2 + 16;
        char *b = cm_arena_alloc(ctx->arena, cap);
        if (st->len)
            memcpy(b, st->buf, st->len);
        st->buf = b;
        st->cap = cap;
    }
    if (n)
        memcpy(st->buf + st->len, p, n);
    st->len += n;
}

static bool plan__add_value(const plan_agg_t *a, plan_aggstate_t *st, const ty_datum_t *v, ty_ctx_t *ctx)
{
    ty_datum_t c = *v;
    ty_oid_t from = a->args[0]->type;
    if (from != a->state && !ty_cast_datum(from, a->state, -1, v, ctx, &c))
        return false;
    st->count++;
    if (!st->have) {
        st->acc = c;
        st->have = true;
        return true;
    }
    ty_datum_t pair[2] = {st->acc, c}, out;
    memset(&out, 0, sizeof(out));
    if (!a->add->impl(ctx, pair, 2, &out))
        return false;
    st->acc = out;
    return true;
}

static bool plan__step(const plan_agg_t *a, plan_aggstate_t *st, const ty_datum_t *args, ty_ctx_t *ctx)
{
    if (st->seen) {
        bool added;
        plan_rowset_find(st->seen, args, true, &added);
        if (!added)
            return true;
    }
    if (a->op == PLAN_AGG_COUNT_STAR) {
        st->count++;
        return true;
    }
    if (a->op == PLAN_AGG_SINGLE) {
        if (st->count++ > 0)
            return cm_err_set(ctx->err, CM_ERRCODE_CARDINALITY_VIOLATION,
                              "more than one row returned by a subquery used as an expression");
        st->acc = args[0];
        st->have = !args[0].isnull;
        return true;
    }
    if (a->op == PLAN_AGG_ARRAY_AGG) {
        if (st->nitems == st->items_cap) {
            int cap = st->items_cap ? st->items_cap * 2 : 16;
            ty_datum_t *n = cm_arena_alloc(ctx->arena, sizeof(ty_datum_t) * (size_t)cap);
            if (st->nitems)
                memcpy(n, st->items, sizeof(ty_datum_t) * (size_t)st->nitems);
            st->items = n;
            st->items_cap = cap;
        }
        st->items[st->nitems++] = args[0];
        return true;
    }
    if (args[0].isnull)
        return true;   /* every other aggregate here is strict in its first argument */
    switch (a->op) {
    case PLAN_AGG_COUNT:
        st->count++;
        return true;
    case PLAN_AGG_SUM:
    case PLAN_AGG_AVG:
        return plan__add_value(a, st, &args[0], ctx);
    case PLAN_AGG_MIN:
    case PLAN_AGG_MAX: {
        int c = st->have ? ty_datum_compare(a->type, &args[0], &st->acc) : 0;
        if (!st->have || (a->op == PLAN_AGG_MIN ? c < 0 : c > 0))
            st->acc = args[0];
        st->have = true;
        return true;
    }
    case PLAN_AGG_BOOL_AND:
    case PLAN_AGG_BOOL_OR:
        if (!st->have)
            st->acc = args[0];
        else if (a->op == PLAN_AGG_BOOL_AND)
            st->acc.v.b = st->acc.v.b && args[0].v.b;
        else
            st->acc.v.b = st->acc.v.b || args[0].v.b;
        st->have = true;
        return true;
    case PLAN_AGG_STRING_AGG:
        /* The delimiter goes before every value but the first; a NULL delimiter is empty. */
        if (st->have && !args[1].isnull)
            plan__append(ctx, st, args[1].v.s.p, args[1].v.s.len);
        plan__append(ctx, st, args[0].v.s.p, args[0].v.s.len);
        st->have = true;
        return true;
    case PLAN_AGG_COUNT_STAR:
    case PLAN_AGG_ARRAY_AGG:
    case PLAN_AGG_SINGLE:
        break;
    }
    return true;
}

/* DISTINCT without ORDER BY hands values over sorted, as PostgreSQL's sort for DISTINCT does (NULLs last). */
static void plan__sort_items(ty_oid_t type, ty_datum_t *v, ty_datum_t *tmp, int n)
{
    if (n < 2)
        return;
    int h = n / 2;
    plan__sort_items(type, v, tmp, h);
    plan__sort_items(type, v + h, tmp, n - h);
    int i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = ty_datum_compare(type, &v[j], &v[i]) < 0 ? v[j++] : v[i++];
    while (i < h)
        tmp[k++] = v[i++];
    while (j < n)
        tmp[k++] = v[j++];
    memcpy(v, tmp, sizeof(*v) * (size_t)n);
}

/*
 * An array of n values of type elem (array_agg's result, ARRAY(subquery)'s
 * value): type is elem's array type, or elem itself when the values are
 * arrays, which then stack into one more dimension as PostgreSQL's
 * accumArrayResultArr does (no NULL or empty ones, all of one shape).
 */
bool plan_array_of(ty_ctx_t *ctx, ty_oid_t elem, ty_oid_t type, const ty_datum_t *items, int n, ty_datum_t *out)
{
    if (elem != type) {
        *out = ty_array_make(ctx->arena, elem, items, n);
        return true;
    }
    /* Arrays of arrays: an ARRAY[...] of the values builds the next dimension and checks their shapes. */
    ty_expr_t *arr = ty_expr_new(ctx->arena, TY_EXPR_ARRAY, type, n);
    for (int i = 0; i < n; i++) {
        if (items[i].isnull)
            return cm_err_set(ctx->err, CM_ERRCODE_NULL_VALUE_NOT_ALLOWED, "cannot accumulate null arrays");
        const ty_array_t *x = ty_array_get(&items[i]), *first = ty_array_get(&items[0]);
        if (x->ndim == 0)
            return cm_err_set(ctx->err, "2202E", "cannot accumulate empty arrays");
        if (x->ndim != first->ndim || memcmp(x->dims, first->dims, sizeof(int) * (size_t)x->ndim) != 0)
            return cm_err_set(ctx->err, "2202E", "cannot accumulate arrays of different dimensionality");
        arr->args[i] = ty_expr_const(ctx->arena, type, -1, items[i]);
    }
    return ty_expr_eval(arr, ctx, NULL, NULL, out);
}

static bool plan__array_agg_finish(const plan_agg_t *a, plan_aggstate_t *st, ty_ctx_t *ctx, ty_datum_t *out)
{
    ty_oid_t in = a->args[0]->type;
    if (a->distinct && a->norder == 0)
        plan__sort_items(in, st->items, cm_arena_alloc(ctx->arena, sizeof(ty_datum_t) * (size_t)st->nitems), st->nitems);
    return plan_array_of(ctx, in, a->type, st->items, st->nitems, out);
}

bool plan_agg_step(const plan_agg_t *a, plan_aggstate_t *st, const ty_datum_t *vals, ty_ctx_t *ctx)
{
    if (a->norder == 0)
        return plan__step(a, st, vals, ctx);
    if (st->npending == st->pending_cap) {
        int cap = st->pending_cap ? st->pending_cap * 2 : 16;
        ty_datum_t **p = cm_arena_alloc(ctx->arena, sizeof(*p) * (size_t)cap);
        if (st->npending)
            memcpy(p, st->pending, sizeof(*p) * (size_t)st->npending);
        st->pending = p;
        st->pending_cap = cap;
    }
    int n = a->nargs + a->norder;
    ty_datum_t *row = cm_arena_alloc(ctx->arena, sizeof(ty_datum_t) * (size_t)n);
    memcpy(row, vals, sizeof(ty_datum_t) * (size_t)n);
    st->pending[st->npending++] = row;
    return true;
}

bool plan_agg_finish(const plan_agg_t *a, plan_aggstate_t *st, ty_ctx_t *ctx, ty_datum_t *out)
{
    if (st->npending) {
        ty_datum_t **tmp = cm_arena_alloc(ctx->arena, sizeof(*tmp) * (size_t)st->npending);
        plan_rows_sort(a->keys, a->norder, st->pending, tmp, st->npending);
        for (int i = 0; i < st->npending; i++)
            if (!plan__step(a, st, st->pending[i], ctx))
                return false;
        st->npending = 0;
    }
    memset(out, 0, sizeof(*out));
    switch (a->op) {
    case PLAN_AGG_COUNT_STAR:
    case PLAN_AGG_COUNT:
        out->v.i = st->count;
        return true;
    case PLAN_AGG_AVG: {
        if (!st->have)
            break;
        ty_datum_t n = {.v.i = st->count}, d;
        ty_oid_t divisor = a->state == TY_INTERVAL ? TY_FLOAT8 : a->state;
        if (!ty_cast_datum(TY_INT8, divisor, -1, &n, ctx, &d))
            return false;
        ty_datum_t pair[2] = {st->acc, d};
        return a->div->impl(ctx, pair, 2, out);
    }
    case PLAN_AGG_ARRAY_AGG:
        if (st->nitems == 0)
            break;
        return plan__array_agg_finish(a, st, ctx, out);
    case PLAN_AGG_STRING_AGG:
        if (!st->have)
            break;
        out->v.s.p = st->buf ? st->buf : "";
        out->v.s.len = (uint32_t)st->len;
        return true;
    default:
        if (!st->have)
            break;
        *out = st->acc;
        return true;
    }
    out->isnull = true;
    return true;
}

/* ------------------------------------------------------------ retractable accumulation
 * count, sum and avg kept as a count and a sum that rows may leave again (a materialized
 * view's groups): exact where the state type makes retraction exact (integer and interval
 * sums); sums of floats and numerics are recomputed from their rows instead (a float's sum
 * depends on the order, a numeric sum's display scale on the rows left). */

bool plan_agg_accumulates(const plan_agg_t *a)
{
    if (a->distinct || a->norder > 0)
        return false;
    if (a->op == PLAN_AGG_COUNT_STAR || a->op == PLAN_AGG_COUNT)
        return true;
    if (a->op != PLAN_AGG_SUM && a->op != PLAN_AGG_AVG)
        return false;
    ty_oid_t in = a->args[0]->type;
    return in == TY_INT2 || in == TY_INT4 || in == TY_INT8 || in == TY_INTERVAL;
}

static const ty_func_t *plan__exact_op(const char *name, ty_oid_t l, ty_oid_t r)
{
    const ty_func_t *c[64];
    size_t n = ty_func_candidates(name, true, c, 64);
    for (size_t i = 0; i < n; i++)
        if (c[i]->nargs == 2 && c[i]->args[0] == l && c[i]->args[1] == r)
            return c[i];
    return NULL;
}

bool plan_agg_acc_add(const plan_agg_t *a, plan_aggacc_t *s, const ty_datum_t *arg, int64_t diff, ty_ctx_t *ctx)
{
    if (a->op == PLAN_AGG_COUNT_STAR) {
        s->count += diff;
        return true;
    }
    if (arg->isnull)
        return true;
    ty_oid_t at = a->args[0]->type;
    if ((a->op == PLAN_AGG_SUM || a->op == PLAN_AGG_AVG) && a->state == TY_INT8 && diff == 1 &&
        (at == TY_INT2 || at == TY_INT4 || at == TY_INT8)) {
        /* One more integer into a bigint sum, the usual case, without a cast and a call; an
         * overflow takes the general way below, which words the error. */
        int64_t sum;
        if (!s->has_sum) {
            s->sum = (ty_datum_t){.v.i = arg->v.i};
            s->has_sum = true;
            s->count += diff;
            return true;
        }
        if (!__builtin_add_overflow(s->sum.v.i, arg->v.i, &sum)) {
            s->sum.v.i = sum;
            s->count += diff;
            return true;
        }
    }
    if (a->op == PLAN_AGG_SUM || a->op == PLAN_AGG_AVG) {
        ty_datum_t v = *arg;
        if (a->args[0]->type != a->state && !ty_cast_datum(a->args[0]->type, a->state, -1, arg, ctx, &v))
            return false;
        if (diff != 1) {
            ty_oid_t ft = a->state == TY_INTERVAL ? TY_FLOAT8 : a->state;
            const ty_func_t *mul = plan__exact_op("*", a->state, ft);
            ty_datum_t n = {.v.i = diff}, f, pair[2], out;
            if (!mul)
                return cm_err_set(ctx->err, CM_ERRCODE_INTERNAL_ERROR, "no operator * for the state of %s",
                                  plan_aggdef_at((size_t)a->fn)->sig.name);
            if (ft == TY_FLOAT8)
                n.v.f = (double)diff;
            if (ft == TY_FLOAT8 || ft == TY_INT8)
                f = n;
            else if (!ty_cast_datum(TY_INT8, ft, -1, &n, ctx, &f))
                return false;
            pair[0] = v;
            pair[1] = f;
            memset(&out, 0, sizeof(out));
            if (!mul->impl(ctx, pair, 2, &out))
                return false;
            v = out;
        }
        if (!s->has_sum) {
            s->sum = v;
            s->has_sum = true;
        } else {
            ty_datum_t pair[2] = {s->sum, v}, out;
            memset(&out, 0, sizeof(out));
            if (!a->add->impl(ctx, pair, 2, &out))
                return false;
            s->sum = out;
        }
    }
    s->count += diff;
    return true;
}

bool plan_agg_acc_merge(const plan_agg_t *a, plan_aggacc_t *s, const plan_aggacc_t *p, ty_ctx_t *ctx)
{
    if (p->has_sum && !s->has_sum) {
        s->sum = p->sum;
        s->has_sum = true;
    } else if (p->has_sum) {
        ty_datum_t pair[2] = {s->sum, p->sum}, out;
        memset(&out, 0, sizeof(out));
        if (!a->add->impl(ctx, pair, 2, &out))
            return false;
        s->sum = out;
    }
    s->count += p->count;
    return true;
}

bool plan_agg_acc_result(const plan_agg_t *a, const plan_aggacc_t *s, ty_ctx_t *ctx, ty_datum_t *out)
{
    memset(out, 0, sizeof(*out));
    if (a->op == PLAN_AGG_COUNT_STAR || a->op == PLAN_AGG_COUNT) {
        out->v.i = s->count;
        return true;
    }
    if (s->count <= 0) {
        out->isnull = true;
        return true;
    }
    if (a->op == PLAN_AGG_SUM) {
        *out = s->sum;
        return true;
    }
    ty_datum_t n = {.v.i = s->count}, d;
    ty_oid_t divisor = a->state == TY_INTERVAL ? TY_FLOAT8 : a->state;
    if (!ty_cast_datum(TY_INT8, divisor, -1, &n, ctx, &d))
        return false;
    ty_datum_t pair[2] = {s->sum, d};
    return a->div->impl(ctx, pair, 2, out);
}
