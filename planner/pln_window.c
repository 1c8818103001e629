/*
 * pln_window.c: window functions at bind time, as PostgreSQL's
 * transformWindowFuncCall and transformWindowDefinitions: where they may
 * appear (the targets and ORDER BY of a query level, not nested, not inside
 * an aggregate), the window each call uses (OVER w, OVER (w ORDER BY ...),
 * an inline specification, the WINDOW clause's named ones with their
 * override rules), frames with their offsets, and the plan: one WINDOW
 * operator per distinct window above the grouping (window functions see
 * grouped rows, so sum(count(*)) OVER () works), appending its functions'
 * results to its input's columns. pln_window_exec.c runs it.
 */
#include "planner/pln_internal.h"

#include <string.h>

#define WINDOWING_ERROR "42P20"

typedef struct wcall {
    plan_wfunc_t *f;
    int def;                      /* index into defs */
    int col;                      /* output column once planned */
} wcall_t;

typedef struct wdef {
    const sql_window_t *w;
    plan_window_t *bound;          /* NULL until bound */
    int same;                     /* the first def with an identical bound window */
} wdef_t;

struct pln_winctx {
    const sql_select_t *s;
    bool inside;                  /* binding a window function's arguments */
    int ncalls, calls_cap;
    wcall_t *calls;
    int nnamed;                   /* defs[0 .. nnamed) are the WINDOW clause's */
    int ndefs, defs_cap;
    wdef_t *defs;
};

/* ============================================================ calls */

/* The window-only functions, as PostgreSQL declares them (TY_INVALID: any type). */
static const ty_func_t wfuncs[] = {
    {"row_number", 0, {0}, TY_INT8, 0, NULL, 3100},
    {"rank", 0, {0}, TY_INT8, 0, NULL, 3101},
    {"dense_rank", 0, {0}, TY_INT8, 0, NULL, 3102},
    {"percent_rank", 0, {0}, TY_FLOAT8, 0, NULL, 3103},
    {"cume_dist", 0, {0}, TY_FLOAT8, 0, NULL, 3104},
    {"ntile", 1, {TY_INT4}, TY_INT4, 0, NULL, 3105},
    {"lag", 1, {TY_INVALID}, TY_INVALID, 0, NULL, 3106},
    {"lag", 2, {TY_INVALID, TY_INT4}, TY_INVALID, 0, NULL, 3107},
    {"lag", 3, {TY_INVALID, TY_INT4, TY_INVALID}, TY_INVALID, 0, NULL, 3108},
    {"lead", 1, {TY_INVALID}, TY_INVALID, 0, NULL, 3109},
    {"lead", 2, {TY_INVALID, TY_INT4}, TY_INVALID, 0, NULL, 3110},
    {"lead", 3, {TY_INVALID, TY_INT4, TY_INVALID}, TY_INVALID, 0, NULL, 3111},
    {"first_value", 1, {TY_INVALID}, TY_INVALID, 0, NULL, 3112},
    {"last_value", 1, {TY_INVALID}, TY_INVALID, 0, NULL, 3113},
    {"nth_value", 2, {TY_INVALID, TY_INT4}, TY_INVALID, 0, NULL, 3114},
};

static const struct {
    const char *name;
    plan_wfunc_kind_t kind;
} wkinds[] = {
    {"row_number", PLAN_WF_ROW_NUMBER}, {"rank", PLAN_WF_RANK}, {"dense_rank", PLAN_WF_DENSE_RANK},
    {"percent_rank", PLAN_WF_PERCENT_RANK}, {"cume_dist", PLAN_WF_CUME_DIST}, {"ntile", PLAN_WF_NTILE},
    {"lag", PLAN_WF_LAG}, {"lead", PLAN_WF_LEAD}, {"first_value", PLAN_WF_FIRST_VALUE},
    {"last_value", PLAN_WF_LAST_VALUE}, {"nth_value", PLAN_WF_NTH_VALUE},
};

bool pln__is_window_func(const char *name)
{
    for (size_t i = 0; i < CM_ARRAY_LEN(wkinds); i++)
        if (strcmp(wkinds[i].name, name) == 0)
            return true;
    return false;
}

pln_winctx_t *pln__window_ctx(pln_binder_t *b, const sql_select_t *s)
{
    pln_winctx_t *w = cm_arena_zalloc(b->arena, sizeof(*w));
    w->s = s;
    int n = sql_list_len(s->windows);
    w->defs_cap = n + 4;
    w->defs = cm_arena_zalloc(b->arena, sizeof(wdef_t) * (size_t)w->defs_cap);
    for (int i = 0; i < n; i++)
        w->defs[i].w = s->windows->items[i];
    w->nnamed = w->ndefs = n;
    return w;
}

static int add_def(pln_binder_t *b, pln_winctx_t *w, const sql_window_t *win)
{
    if (w->ndefs == w->defs_cap) {
        int cap = w->defs_cap * 2 + 4;
        wdef_t *d = cm_arena_zalloc(b->arena, sizeof(*d) * (size_t)cap);
        memcpy(d, w->defs, sizeof(*d) * (size_t)w->ndefs);
        w->defs = d;
        w->defs_cap = cap;
    }
    w->defs[w->ndefs].w = win;
    return w->ndefs++;
}

static int add_call(pln_binder_t *b, pln_winctx_t *w, plan_wfunc_t *f, int def)
{
    if (w->ncalls == w->calls_cap) {
        int cap = w->calls_cap * 2 + 4;
        wcall_t *c = cm_arena_zalloc(b->arena, sizeof(*c) * (size_t)cap);
        if (w->ncalls)
            memcpy(c, w->calls, sizeof(*c) * (size_t)w->ncalls);
        w->calls = c;
        w->calls_cap = cap;
    }
    w->calls[w->ncalls] = (wcall_t){f, def, -1};
    return w->ncalls++;
}

/* A window function's own arguments: resolved against PostgreSQL's signatures. */
static bool bind_wfunc(pln_binder_t *b, const sql_expr_t *e, const char *name, plan_wfunc_t *f)
{
    int n = sql_list_len(e->args);
    if (n > 3) {
        pln__error(b, e->pos, CM_ERRCODE_UNDEFINED_FUNCTION, "function %s with %d arguments does not exist", name, n);
        return false;
    }
    for (int i = 0; i < n; i++)
        if (!(f->args[i] = pln__bind_expr(b, e->args->items[i])))
            return false;
    f->nargs = n;
    if (e->star || e->distinct) {
        pln__error(b, e->pos, "42809", "%s specified, but %s is not an aggregate function",
                   e->star ? "*" : "DISTINCT", name);
        return false;
    }
    if (e->agg_order) {
        pln__error(b, e->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "aggregate ORDER BY is not implemented for window functions");
        return false;
    }
    if (e->agg_filter) {
        pln__error(b, e->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                   "FILTER is not implemented for non-aggregate window functions");
        return false;
    }
    /* The value's type (lag's default shares it: anycompatible), which untyped literals cannot decide. */
    bool unknown = n > 0 && f->args[0]->type == TY_UNKNOWN && (n < 3 || f->args[2]->type == TY_UNKNOWN);
    const ty_func_t *cands[CM_ARRAY_LEN(wfuncs)];
    int nc = 0;
    for (size_t i = 0; i < CM_ARRAY_LEN(wfuncs); i++)
        if (strcmp(wfuncs[i].name, name) == 0)
            cands[nc++] = &wfuncs[i];
    const ty_func_t *sig = pln__resolve_in(b, name, false, cands, nc, f->args, n, e->pos, true);
    if (!sig)
        return false;
    for (size_t i = 0; i < CM_ARRAY_LEN(wkinds); i++)
        if (strcmp(wkinds[i].name, name) == 0)
            f->kind = wkinds[i].kind;
    f->type = sig->ret;
    f->typmod = -1;
    if (sig->ret != TY_INVALID)
        return true;
    if (unknown) {
        pln__error(b, -1, CM_ERRCODE_DATATYPE_MISMATCH,   /* PostgreSQL gives no position */
                   "could not determine polymorphic type because input has type unknown");
        return false;
    }
    if (n == 3) {
        int pos[2] = {((const sql_expr_t *)e->args->items[0])->pos, ((const sql_expr_t *)e->args->items[2])->pos};
        ty_expr_t *pair[2] = {f->args[0], f->args[2]};
        ty_oid_t type;
        int32_t typmod;
        if (!pln__common_type(b, pair, 2, pos, name, &type, &typmod) || !pln__coerce_all(b, pair, 2, type, typmod, name))
            return false;
        f->args[0] = pair[0];
        f->args[2] = pair[1];
    }
    if (!(f->args[0] = pln__resolve_unknown(b, f->args[0])))
        return false;
    f->type = f->args[0]->type;
    return true;
}

ty_expr_t *pln__bind_window_call(pln_binder_t *b, const sql_expr_t *e)
{
    const char *name = e->names->items[e->names->count - 1];
    pln_winctx_t *w = b->wins;
    /* The arguments first, as PostgreSQL: a window function among them is nested. */
    bool saved_inside = w ? w->inside : false;
    if (w)
        w->inside = true;
    plan_wfunc_t *f = cm_arena_zalloc(b->arena, sizeof(*f));
    f->name = name;
    bool ok;
    if (pln__is_aggregate(name)) {
        if (e->distinct) {
            if (w)
                w->inside = saved_inside;
            pln__error(b, e->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "DISTINCT is not implemented for window functions");
            return NULL;
        }
        if (e->agg_order) {
            if (w)
                w->inside = saved_inside;
            pln__error(b, e->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                       "aggregate ORDER BY is not implemented for window functions");
            return NULL;
        }
        pln_winctx_t *saved_wins = b->wins;
        ok = (f->agg = pln__bind_agg_over(b, e)) != NULL;
        b->wins = saved_wins;
        if (ok) {
            f->kind = PLAN_WF_AGG;
            f->type = f->agg->type;
            f->typmod = -1;
        }
    } else if (pln__is_window_func(name)) {
        ok = bind_wfunc(b, e, name, f);
    } else {
        /* Not a window function: PostgreSQL looks the function up first, then refuses OVER. */
        int n = sql_list_len(e->args);
        ty_expr_t **args = cm_arena_zalloc(b->arena, sizeof(ty_expr_t *) * (size_t)(n ? n : 1));
        ok = true;
        for (int i = 0; i < n && ok; i++)
            ok = (args[i] = pln__bind_expr(b, e->args->items[i])) != NULL;
        if (ok && pln__make_call(b, name, args, n, e->pos))
            pln__error(b, e->pos, "42809", "OVER specified, but %s is not a window function nor an aggregate function",
                       name);
        ok = false;
    }
    if (w)
        w->inside = saved_inside;
    if (!ok)
        return NULL;
    if (b->aggs && b->aggs->inside) {
        pln__error(b, e->pos, CM_ERRCODE_GROUPING_ERROR, "aggregate function calls cannot contain window function calls");
        return NULL;
    }
    if (w && w->inside) {
        pln__error(b, e->pos, WINDOWING_ERROR, "window function calls cannot be nested");
        return NULL;
    }
    if (!w) {
        pln__error(b, e->pos, WINDOWING_ERROR, "window functions are not allowed in %s",
                   b->win_forbidden ? b->win_forbidden : b->agg_forbidden ? b->agg_forbidden : "this context");
        return NULL;
    }
    const sql_window_t *over = e->over;
    int def = -1;
    if (over->name && !over->spec) {
        for (int i = 0; i < w->nnamed && def < 0; i++)
            if (strcmp(w->defs[i].w->name, over->name) == 0)
                def = i;
        if (def < 0) {
            pln__error(b, over->pos, CM_ERRCODE_UNDEFINED_OBJECT, "window \"%s\" does not exist", over->name);
            return NULL;
        }
    } else {
        def = add_def(b, w, over);
    }
    int k = add_call(b, w, f, def);
    ty_expr_t *c = ty_expr_new(b->arena, TY_EXPR_COLUMN, f->type, 0);
    c->typmod = f->typmod;
    c->index = PLN_WIN_BASE + k;
    c->location = e->pos;
    return c;
}

/* ============================================================ definitions */

static bool bind_sortkeys(pln_binder_t *b, const sql_list_t *order, int npart, plan_window_t *bw)
{
    int n = sql_list_len(order);
    bw->norder = 0;
    bw->order = cm_arena_zalloc(b->arena, sizeof(ty_expr_t *) * (size_t)(n + 1));
    bw->keys = cm_arena_zalloc(b->arena, sizeof(plan_sortkey_t) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) {
        const sql_sort_t *o = order->items[i];
        ty_expr_t *x = pln__bind_expr(b, o->expr);
        if (!x || !(x = pln__resolve_unknown(b, x)))
            return false;
        bool dup = false;
        for (int k = 0; k < bw->norder && !dup; k++)
            dup = pln__expr_equal(x, bw->order[k]);
        if (dup)
            continue;   /* a value sorted on already decides nothing more, as PostgreSQL drops it */
        int at = bw->norder++;
        bw->order[at] = x;
        plan_sortkey_t *k = &bw->keys[at];
        k->col = npart + at;
        k->type = x->type;
        k->desc = o->dir == SQL_SORT_DESC;
        k->nulls_first = o->nulls == SQL_NULLS_DEFAULT ? k->desc : o->nulls == SQL_NULLS_FIRST;
    }
    return true;
}

static const ty_expr_t *first_column(const ty_expr_t *e)
{
    if (e->kind == TY_EXPR_COLUMN)
        return e;
    for (int i = 0; i < e->nargs; i++) {
        const ty_expr_t *c = e->args[i] ? first_column(e->args[i]) : NULL;
        if (c)
            return c;
    }
    return NULL;
}

/* The type a RANGE offset has for an ORDER BY column of type t, and the type the bound is computed in. */
static bool range_types(ty_oid_t t, ty_oid_t *offset, ty_oid_t *base)
{
    switch (t) {
    case TY_INT2:
    case TY_INT4:
    case TY_INT8:
        *offset = TY_INVALID;   /* any integer type */
        *base = TY_NUMERIC;     /* so that value + offset never overflows, as in_range's */
        return true;
    case TY_NUMERIC:
        *offset = *base = TY_NUMERIC;
        return true;
    case TY_FLOAT4:
    case TY_FLOAT8:
        *offset = *base = TY_FLOAT8;
        return true;
    case TY_DATE:
    case TY_TIMESTAMP:
        *offset = TY_INTERVAL;
        *base = TY_TIMESTAMP;
        return true;
    case TY_TIMESTAMPTZ:
    case TY_TIME:
    case TY_INTERVAL:
        *offset = TY_INTERVAL;
        *base = t;
        return true;
    default:
        return false;
    }
}

/* n PRECEDING / FOLLOWING: var-free; ROWS and GROUPS count (bigint), RANGE offsets the ORDER BY value. */
static bool bind_offset(pln_binder_t *b, const sql_expr_t *e, plan_window_t *bw, bool preceding, bool start)
{
    static const char *const what[] = {[PLAN_FRAME_RANGE] = "RANGE", [PLAN_FRAME_ROWS] = "ROWS", [PLAN_FRAME_GROUPS] = "GROUPS"};
    plan_frame_mode_t mode = bw->frame.mode;
    if (mode == PLAN_FRAME_RANGE && bw->norder != 1)
        return pln__error(b, e->pos, WINDOWING_ERROR,
                          "RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column");
    const char *saved_forbidden = b->agg_forbidden;
    pln_aggctx_t *saved_aggs = b->aggs;
    b->aggs = NULL;
    b->agg_forbidden = mode == PLAN_FRAME_RANGE ? "window RANGE" : mode == PLAN_FRAME_ROWS ? "window ROWS" : "window GROUPS";
    ty_expr_t *x = pln__bind_expr(b, e);
    b->aggs = saved_aggs;
    b->agg_forbidden = saved_forbidden;
    if (!x)
        return false;
    const ty_expr_t *col = first_column(x);
    if (col)
        return pln__error(b, col->location, "42P10", "argument of %s must not contain variables", what[mode]);
    ty_expr_t **slot = start ? &bw->frame.start_offset : &bw->frame.end_offset;
    if (mode != PLAN_FRAME_RANGE) {
        if (x->type != TY_INT8 && x->type != TY_UNKNOWN && !pln__can_coerce(x->type, TY_INT8, PLN_CC_IMPLICIT))
            return pln__error(b, e->pos, CM_ERRCODE_DATATYPE_MISMATCH, "argument of %s must be type %s, not type %s",
                              what[mode], "bigint", pln__type_name(b, x->type));
        return (*slot = pln__coerce(b, x, TY_INT8, -1, PLN_CC_IMPLICIT, e->pos)) != NULL;
    }
    ty_oid_t t = bw->order[0]->type, off, base;
    if (!range_types(t, &off, &base))
        return pln__error(b, e->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                          "RANGE with offset PRECEDING/FOLLOWING is not supported for column type %s",
                          pln__type_name(b, t));
    if (off == TY_INVALID)
        off = x->type == TY_INT2 || x->type == TY_INT4 || x->type == TY_INT8 ? x->type : TY_INT8;
    if (x->type != off && (x->type == TY_UNKNOWN ? false : !pln__can_coerce(x->type, off, PLN_CC_IMPLICIT))) {
        pln__error(b, e->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                   "RANGE with offset PRECEDING/FOLLOWING is not supported for column type %s and offset type %s",
                   pln__type_name(b, t), pln__type_name(b, x->type));
        cm_err_set_hint(b->err, "Cast the offset value to an appropriate type.");
        return false;
    }
    if (!(x = pln__coerce(b, x, off, -1, PLN_CC_IMPLICIT, e->pos)))
        return false;
    *slot = x;
    /* The bound: the row's value moved toward the frame's side (descending order turns the sign). */
    ty_expr_t *v = pln__coerce(b, bw->order[0], base, -1, PLN_CC_IMPLICIT, -1);
    ty_expr_t *o = off == base || off == TY_INTERVAL ? x : pln__coerce(b, x, base, -1, PLN_CC_IMPLICIT, -1);
    if (!v || !o)
        return false;
    bool minus = preceding != bw->keys[0].desc;
    ty_expr_t *bound = pln__make_op(b, minus ? "-" : "+", v, o, e->pos);
    if (!bound)
        return false;
    if (start)
        bw->frame.start_bound = bound;
    else
        bw->frame.end_bound = bound;
    return true;
}

static bool bind_frame(pln_binder_t *b, const sql_window_t *win, plan_window_t *bw)
{
    plan_frame_t *f = &bw->frame;
    if (win->frame_mode == SQL_FRAME_DEFAULT) {
        f->mode = PLAN_FRAME_RANGE;
        f->start = PLAN_BOUND_UNBOUNDED_PRECEDING;
        f->end = PLAN_BOUND_CURRENT_ROW;
        return true;
    }
    f->mode = pln__frame_mode_of(win->frame_mode);
    f->start = pln__bound_of(win->start);
    f->end = win->end == SQL_BOUND_NONE ? PLAN_BOUND_CURRENT_ROW : pln__bound_of(win->end);
    f->exclude = win->exclude == SQL_EXCLUDE_NO_OTHERS ? PLAN_EXCLUDE_DEFAULT : pln__exclude_of(win->exclude);
    if (f->mode == PLAN_FRAME_GROUPS && bw->norder == 0)
        return pln__error(b, win->pos, WINDOWING_ERROR, "GROUPS mode requires an ORDER BY clause");
    bool offsets = f->start == PLAN_BOUND_PRECEDING || f->start == PLAN_BOUND_FOLLOWING ||
                   f->end == PLAN_BOUND_PRECEDING || f->end == PLAN_BOUND_FOLLOWING;
    if (f->mode == PLAN_FRAME_RANGE && offsets && bw->norder != 1)   /* at the window, as PostgreSQL */
        return pln__error(b, win->pos, WINDOWING_ERROR,
                          "RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column");
    if ((f->start == PLAN_BOUND_PRECEDING || f->start == PLAN_BOUND_FOLLOWING) &&
        !bind_offset(b, win->start_offset, bw, f->start == PLAN_BOUND_PRECEDING, true))
        return false;
    if ((f->end == PLAN_BOUND_PRECEDING || f->end == PLAN_BOUND_FOLLOWING) &&
        !bind_offset(b, win->end_offset, bw, f->end == PLAN_BOUND_PRECEDING, false))
        return false;
    return true;
}

static const wdef_t *find_named(const pln_winctx_t *w, int before, const char *name)
{
    for (int i = 0; i < before && i < w->nnamed; i++)
        if (w->defs[i].w->name && strcmp(w->defs[i].w->name, name) == 0)
            return &w->defs[i];
    return NULL;
}

static bool bind_def(pln_binder_t *b, pln_winctx_t *w, int i)
{
    const sql_window_t *win = w->defs[i].w;
    if (i < w->nnamed && find_named(w, i, win->name))
        return pln__error(b, win->pos, WINDOWING_ERROR, "window \"%s\" is already defined", win->name);
    const wdef_t *ref = NULL;
    if (win->refname && !(ref = find_named(w, i < w->nnamed ? i : w->nnamed, win->refname)))
        return pln__error(b, win->pos, CM_ERRCODE_UNDEFINED_OBJECT, "window \"%s\" does not exist", win->refname);
    plan_window_t *bw = cm_arena_zalloc(b->arena, sizeof(*bw));
    /* ORDER BY, then PARTITION BY, as PostgreSQL binds them. */
    plan_window_t order;
    memset(&order, 0, sizeof(order));
    int npart = sql_list_len(win->partition_by);
    if (!bind_sortkeys(b, win->order_by, 0, &order))
        return false;
    ty_expr_t **part = cm_arena_zalloc(b->arena, sizeof(ty_expr_t *) * (size_t)(npart + 1));
    for (int k = 0; k < npart; k++)
        if (!(part[k] = pln__bind_expr(b, win->partition_by->items[k])) || !(part[k] = pln__resolve_unknown(b, part[k])))
            return false;
    if (ref) {
        if (npart)
            return pln__error(b, win->pos, WINDOWING_ERROR, "cannot override PARTITION BY clause of window \"%s\"",
                              win->refname);
        if (order.norder && ref->bound->norder)
            return pln__error(b, win->pos, WINDOWING_ERROR, "cannot override ORDER BY clause of window \"%s\"",
                              win->refname);
        if (ref->w->frame_mode != SQL_FRAME_DEFAULT) {
            pln__error(b, win->pos, WINDOWING_ERROR, "cannot copy window \"%s\" because it has a frame clause",
                       win->refname);
            if (!win->name && !order.norder && win->frame_mode == SQL_FRAME_DEFAULT)
                cm_err_set_hint(b->err, "Omit the parentheses in this OVER clause.");
            return false;
        }
        npart = ref->bound->npart;
        part = ref->bound->part;
        if (!order.norder)
            order = *ref->bound;
    }
    bw->npart = npart;
    bw->part = part;
    bw->norder = order.norder;
    bw->order = order.order;
    bw->keys = cm_arena_zalloc(b->arena, sizeof(plan_sortkey_t) * (size_t)(order.norder + 1));
    for (int k = 0; k < order.norder; k++) {
        bw->keys[k] = order.keys[k];
        bw->keys[k].col = npart + k;
    }
    if (!bind_frame(b, win, bw))
        return false;
    w->defs[i].bound = bw;
    return true;
}

static bool same_expr(const ty_expr_t *a, const ty_expr_t *b)
{
    return a == b || (a && b && pln__expr_equal(a, b));
}

static bool same_window(const plan_window_t *a, const plan_window_t *b)
{
    if (a->npart != b->npart || a->norder != b->norder || a->frame.mode != b->frame.mode ||
        a->frame.start != b->frame.start || a->frame.end != b->frame.end || a->frame.exclude != b->frame.exclude ||
        !same_expr(a->frame.start_offset, b->frame.start_offset) || !same_expr(a->frame.end_offset, b->frame.end_offset))
        return false;
    for (int i = 0; i < a->npart; i++)
        if (!pln__expr_equal(a->part[i], b->part[i]))
            return false;
    for (int i = 0; i < a->norder; i++)
        if (!pln__expr_equal(a->order[i], b->order[i]) || a->keys[i].desc != b->keys[i].desc ||
            a->keys[i].nulls_first != b->keys[i].nulls_first)
            return false;
    return true;
}

bool pln__window_bind_defs(pln_binder_t *b, pln_winctx_t *w)
{
    pln_winctx_t *saved = b->wins;
    const char *saved_forbidden = b->win_forbidden;
    b->wins = NULL;
    b->win_forbidden = "window definitions";
    bool ok = true;
    for (int i = 0; i < w->ndefs && ok; i++)
        ok = bind_def(b, w, i);
    b->wins = saved;
    b->win_forbidden = saved_forbidden;
    if (!ok)
        return false;
    for (int i = 0; i < w->ndefs; i++) {
        w->defs[i].same = i;
        for (int j = 0; j < i && w->defs[i].same == i; j++)
            if (w->defs[j].same == j && same_window(w->defs[i].bound, w->defs[j].bound))
                w->defs[i].same = j;
    }
    return true;
}

/* ============================================================ plan */

static bool regroup_list(pln_binder_t *b, ty_expr_t **es, int n, ty_expr_t **keys, int nkeys)
{
    for (int i = 0; i < n; i++)
        if (es[i] && !(es[i] = pln__regroup(b, es[i], keys, nkeys)))
            return false;
    return true;
}

bool pln__window_regroup(pln_binder_t *b, pln_winctx_t *w, ty_expr_t **keys, int nkeys)
{
    /* Partitions and orders first, as PostgreSQL checks grouping of the window clauses after the targets'. */
    for (int i = 0; i < w->ndefs; i++) {
        plan_window_t *bw = w->defs[i].bound;
        if (w->defs[i].same != i)
            continue;
        plan_window_t *c = cm_arena_alloc(b->arena, sizeof(*c));
        *c = *bw;
        c->part = cm_arena_alloc(b->arena, sizeof(ty_expr_t *) * (size_t)(c->npart + 1));
        c->order = cm_arena_alloc(b->arena, sizeof(ty_expr_t *) * (size_t)(c->norder + 1));
        memcpy(c->part, bw->part, sizeof(ty_expr_t *) * (size_t)c->npart);
        memcpy(c->order, bw->order, sizeof(ty_expr_t *) * (size_t)c->norder);
        if (!regroup_list(b, c->part, c->npart, keys, nkeys) || !regroup_list(b, c->order, c->norder, keys, nkeys) ||
            !regroup_list(b, &c->frame.start_bound, 1, keys, nkeys) || !regroup_list(b, &c->frame.end_bound, 1, keys, nkeys))
            return false;
        w->defs[i].bound = c;
    }
    for (int k = 0; k < w->ncalls; k++) {
        plan_wfunc_t *f = w->calls[k].f;
        if (!regroup_list(b, f->args, f->nargs, keys, nkeys))
            return false;
        if (f->agg && (!regroup_list(b, f->agg->args, f->agg->nargs, keys, nkeys) ||
                       !regroup_list(b, &f->agg->filter, 1, keys, nkeys)))
            return false;
    }
    return true;
}

static void remap(ty_expr_t *e, const pln_winctx_t *w)
{
    /* Outer references are numbered above the window functions and stay until decorrelated. */
    if (e->kind == TY_EXPR_COLUMN && e->index >= PLN_WIN_BASE && e->index < PLN_OUTER_BASE) {
        e->index = w->calls[e->index - PLN_WIN_BASE].col;
        return;
    }
    for (int i = 0; i < e->nargs; i++)
        if (e->args[i])
            remap(e->args[i], w);
}

plan_rel_t *pln__window_plan(pln_binder_t *b, pln_winctx_t *w, plan_rel_t *rel, ty_expr_t **exprs, int nexprs)
{
    if (w->ncalls == 0)
        return rel;
    for (int d = 0; d < w->ndefs; d++) {
        if (w->defs[d].same != d)
            continue;
        int nf = 0;
        for (int k = 0; k < w->ncalls; k++)
            nf += w->defs[w->calls[k].def].same == d;
        if (nf == 0)
            continue;
        plan_rel_t *r = pln__rel_new(b, PLAN_REL_WINDOW, rel, rel->ncols + nf);
        memcpy(r->types, rel->types, sizeof(ty_oid_t) * (size_t)rel->ncols);
        plan_window_t *bw = cm_arena_alloc(b->arena, sizeof(*bw));
        *bw = *w->defs[d].bound;
        bw->funcs = cm_arena_alloc(b->arena, sizeof(plan_wfunc_t *) * (size_t)nf);
        bw->nfuncs = 0;
        for (int k = 0; k < w->ncalls; k++) {
            if (w->defs[w->calls[k].def].same != d)
                continue;
            w->calls[k].col = rel->ncols + bw->nfuncs;
            r->types[w->calls[k].col] = w->calls[k].f->type;
            bw->funcs[bw->nfuncs++] = w->calls[k].f;
        }
        r->window = bw;
        rel = r;
    }
    for (int i = 0; i < nexprs; i++)
        remap(exprs[i], w);
    return rel;
}

/* ============================================================ fold */

static bool fold_list(pln_binder_t *b, ty_expr_t **es, int n)
{
    for (int i = 0; i < n; i++)
        if (es[i] && !(es[i] = pln__fold(b, es[i])))
            return false;
    return true;
}

bool pln__window_fold(pln_binder_t *b, plan_rel_t *r)
{
    plan_window_t *w = r->window;
    if (!fold_list(b, w->part, w->npart) || !fold_list(b, w->order, w->norder) ||
        !fold_list(b, &w->frame.start_offset, 1) || !fold_list(b, &w->frame.end_offset, 1) ||
        !fold_list(b, &w->frame.start_bound, 1) || !fold_list(b, &w->frame.end_bound, 1))
        return false;
    for (int i = 0; i < w->nfuncs; i++) {
        plan_wfunc_t *f = w->funcs[i];
        if (!fold_list(b, f->args, f->nargs))
            return false;
        if (f->agg && (!fold_list(b, f->agg->args, f->agg->nargs) || !fold_list(b, &f->agg->filter, 1)))
            return false;
    }
    return true;
}
