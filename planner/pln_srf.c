/*
 * pln_srf.c: functions in FROM, as PostgreSQL's transformRangeFunction,
 * set-returning functions in the select list (ProjectSet, at the end of this
 * file), and the FLATMAP operator that runs both.
 *
 * A function in FROM is a FLATMAP over the rows it reads: its arguments are
 * expressions over that row, and each row of the function (a
 * set-returning one such as generate_series, unnest or jsonb_each, or any
 * scalar function, which gives one row) is the input row followed by the
 * function's columns. A function whose arguments read no column runs over
 * one empty row and is joined like any FROM item; one that reads earlier
 * FROM items (LATERAL, implicit for functions as in PostgreSQL) is placed
 * over them: in a comma list over everything before it, in CROSS and INNER
 * JOIN over the join's left side (the condition a filter above), in LEFT
 * JOIN likewise with the condition inside, keeping a left row none of
 * whose function rows met it once with NULLs. unnest(a, b, ...) in FROM is one function
 * per array, zipped as PostgreSQL's ROWS FROM: a row while any function
 * still has one, NULLs for those that ran out. WITH ORDINALITY adds a
 * bigint counting each input row's rows from 1.
 *
 * Column names are PostgreSQL's: a function of one column is named after
 * the alias if there is one, else after the function; one of several
 * columns (jsonb_each: key, value) keeps its names; the alias's column list
 * renames them in order.
 */
#include "planner/pln_internal.h"

#include <string.h>

/* ============================================================ binding */

static bool is_srf_name(const char *name)
{
    const ty_func_t *c[1];
    return ty_srf_candidates(name, c, 1) > 0;
}

const char *pln__func_name(const sql_expr_t *e, bool *hidden)
{
    int n = e->names->count;
    const char *name = e->names->items[n - 1];
    bool info_name = strncmp(name, "_pg_", 4) == 0;   /* PostgreSQL's information_schema helpers */
    bool info = n == 2 && strcmp(e->names->items[0], "information_schema") == 0;
    *hidden = info_name && !info;
    if (n > 2 || (n == 2 && !info && strcmp(e->names->items[0], "pg_catalog") != 0) || (info && !info_name))
        return NULL;
    return name;
}

/* The function's name when e is a plain call f(args) of a function that exists, else NULL. */
static const char *call_name(const sql_expr_t *e)
{
    if (e->kind != SQL_EXPR_FUNC || e->syntax != SQL_FUNC_PLAIN || e->over || e->star || e->distinct ||
        e->agg_order || e->agg_filter)
        return NULL;
    bool hidden;
    const char *name = pln__func_name(e, &hidden);
    return hidden ? NULL : name;
}

/* Resolves name(args) among the set-returning functions: coerces args in place. */
static const ty_srf_t *resolve_srf(pln_binder_t *b, const char *name, ty_expr_t **args, int nargs, int pos)
{
    const ty_func_t *c[128];
    size_t n = ty_srf_candidates(name, c, CM_ARRAY_LEN(c));
    const ty_func_t *f = pln__resolve_in(b, name, false, c, (int)n, args, nargs, pos, true);
    return f ? ty_srf_of(f) : NULL;
}

static ty_expr_t **bind_args(pln_binder_t *b, const sql_list_t *l, int *n)
{
    *n = sql_list_len(l);
    ty_expr_t **args = cm_arena_alloc(b->arena, sizeof(ty_expr_t *) * (size_t)(*n ? *n : 1));
    for (int i = 0; i < *n; i++)
        if (!(args[i] = pln__bind_expr(b, l->items[i])))
            return NULL;
    return args;
}

static plan_srfcall_t *srf_call(pln_binder_t *b, const ty_srf_t *srf, ty_expr_t **args, int nargs, int pos)
{
    plan_srfcall_t *c = cm_arena_zalloc(b->arena, sizeof(*c));
    c->srf = srf;
    c->args = args;
    c->nargs = nargs;
    c->ncols = srf->ncols;
    c->location = pos;
    return c;
}

/* The FROM function's calls: one, or one per array of unnest(a, b, ...). */
static bool bind_calls(pln_binder_t *b, const sql_from_t *f, plan_srfcall_t ***calls, int *ncalls)
{
    const sql_expr_t *e = f->func;
    const char *name = call_name(e);
    *calls = cm_arena_alloc(b->arena, sizeof(plan_srfcall_t *) * (size_t)(sql_list_len(e->args) + 1));
    *ncalls = 0;
    if (!name || !is_srf_name(name)) {
        /* Any other function gives one row of its value. */
        ty_expr_t *x = pln__bind_expr(b, e);
        if (!x || !(x = pln__resolve_unknown(b, x)))
            return false;
        plan_srfcall_t *c = cm_arena_zalloc(b->arena, sizeof(*c));
        c->expr = x;
        c->ncols = 1;
        c->location = e->pos;
        (*calls)[(*ncalls)++] = c;
        return true;
    }
    int nargs;
    ty_expr_t **args = bind_args(b, e->args, &nargs);
    if (!args)
        return false;
    if (strcmp(name, "unnest") == 0 && nargs > 1) {
        /* PostgreSQL expands it into ROWS FROM (unnest(a), unnest(b), ...). */
        for (int i = 0; i < nargs; i++) {
            const sql_expr_t *a = e->args->items[i];
            const ty_srf_t *s = resolve_srf(b, name, &args[i], 1, a->pos);
            if (!s)
                return false;
            (*calls)[(*ncalls)++] = srf_call(b, s, &args[i], 1, a->pos);
        }
        return true;
    }
    const ty_srf_t *s = resolve_srf(b, name, args, nargs, e->pos);
    if (!s)
        return false;
    (*calls)[(*ncalls)++] = srf_call(b, s, args, nargs, e->pos);
    return true;
}

static bool reads_columns(const ty_expr_t *e)
{
    if (!e)
        return false;
    if (e->kind == TY_EXPR_COLUMN && e->index >= 0 && e->index < PLN_AGG_BASE)
        return true;   /* a column of this query's FROM row (outer references are decorrelated later) */
    for (int i = 0; i < e->nargs; i++)
        if (reads_columns(e->args[i]))
            return true;
    return false;
}

static bool calls_read_columns(plan_srfcall_t *const *calls, int n)
{
    for (int i = 0; i < n; i++) {
        if (reads_columns(calls[i]->expr))
            return true;
        for (int k = 0; k < calls[i]->nargs; k++)
            if (reads_columns(calls[i]->args[k]))
                return true;
    }
    return false;
}

/* The FLATMAP's columns after its input's: each call's, then ordinality. */
static void set_types(plan_rel_t *fm, const plan_rel_t *in, ty_oid_t *own)
{
    int nin = in ? in->ncols : 0;
    memcpy(fm->types + nin, own, sizeof(ty_oid_t) * (size_t)(fm->ncols - nin));
    if (in)
        memcpy(fm->types, in->types, sizeof(ty_oid_t) * (size_t)nin);
}

bool pln__bind_from_function(pln_binder_t *b, const sql_from_t *f, pln_scope_t *sc, plan_rel_t **rel)
{
    /* Arguments see the FROM items before this one (LATERAL is implicit for functions). */
    const char *saved_forbidden = b->agg_forbidden;
    pln_aggctx_t *saved_aggs = b->aggs;
    struct pln_srfctx *saved_srfs = b->srfs;
    b->aggs = NULL;
    b->srfs = NULL;
    b->agg_forbidden = "functions in FROM";
    plan_srfcall_t **calls;
    int ncalls;
    bool ok = bind_calls(b, f, &calls, &ncalls);
    b->agg_forbidden = saved_forbidden;
    b->aggs = saved_aggs;
    b->srfs = saved_srfs;
    if (!ok)
        return false;
    /* The function's own columns and their names. */
    int ncols = 0;
    for (int i = 0; i < ncalls; i++)
        ncols += calls[i]->ncols;
    ncols += f->ordinality;
    plan_column_t *cols = cm_arena_zalloc(b->arena, sizeof(plan_column_t) * (size_t)ncols);
    ty_oid_t *types = cm_arena_alloc(b->arena, sizeof(ty_oid_t) * (size_t)ncols);
    const char *fname = call_name(f->func);
    int at = 0;
    for (int i = 0; i < ncalls; i++) {
        const plan_srfcall_t *c = calls[i];
        if (!c->srf) {
            cols[at] = (plan_column_t){pln__colname(f->func), c->expr->type, c->expr->typmod};
            if (f->alias && ncalls == 1)
                cols[at].name = f->alias;
            types[at++] = c->expr->type;
            continue;
        }
        for (int k = 0; k < c->ncols; k++, at++) {
            bool one = c->ncols == 1;
            ty_oid_t t = one ? c->srf->fn.ret : c->srf->coltypes[k];
            /* PostgreSQL's chooseScalarFunctionAlias: an OUT parameter's name, else the alias, else the function. */
            const char *name = c->srf->colnames[k]                ? c->srf->colnames[k]
                               : one && f->alias && ncalls == 1 ? f->alias
                                                                : c->srf->fn.name;
            /* Like PostgreSQL, a typmod of the argument carries to unnest's elements only through the type. */
            cols[at] = (plan_column_t){name, t, -1};
            types[at] = t;
        }
    }
    if (f->ordinality) {
        cols[at] = (plan_column_t){"ordinality", TY_INT8, -1};
        types[at++] = TY_INT8;
    }
    const char *alias = f->alias ? f->alias : fname ? fname : cols[0].name;
    int naliases = sql_list_len(f->col_aliases);
    if (naliases > ncols)
        return pln__error(b, -1, "42P10", "table \"%s\" has %d columns available but %d columns specified", alias,
                          ncols, naliases);
    for (int i = 0; i < naliases; i++)
        cols[i].name = f->col_aliases->items[i];
    plan_rel_t *fm = pln__rel_new(b, PLAN_REL_FLATMAP, NULL, ncols);
    fm->nfuncs = ncalls;
    fm->funcs = calls;
    fm->ordinality = f->ordinality;
    memcpy(fm->types, types, sizeof(ty_oid_t) * (size_t)ncols);
    if (!calls_read_columns(calls, ncalls)) {
        /* Independent of the FROM items before it: over one empty row. */
        plan_rel_t *one = pln__rel_new(b, PLAN_REL_VALUES, NULL, 0);
        one->nrows = 1;
        one->rows = cm_arena_zalloc(b->arena, sizeof(ty_expr_t **));
        fm->input = one;
    }
    /* else: lateral; pln__srf_lateral places it over the items it reads. */
    *rel = fm;
    return pln__add_rte(b, sc, alias, ncols, cols);
}

bool pln__srf_is_lateral(const plan_rel_t *r)
{
    return r->kind == PLAN_REL_FLATMAP && r->input == NULL;
}

/* A copy of e with its columns moved by `by`: in place, a subexpression that binding shares
 * (a BETWEEN's operand) would move once per use. */
static ty_expr_t *shift(pln_binder_t *b, const ty_expr_t *e, int by)
{
    if (!e)
        return NULL;
    ty_expr_t *c = cm_arena_alloc(b->arena, sizeof(*c));
    *c = *e;
    if (c->kind == TY_EXPR_COLUMN && c->index >= 0 && c->index < PLN_AGG_BASE)
        c->index += by;
    if (e->nargs > 0) {
        c->args = cm_arena_alloc(b->arena, sizeof(ty_expr_t *) * (size_t)e->nargs);
        for (int i = 0; i < e->nargs; i++)
            c->args[i] = shift(b, e->args[i], by);
    }
    return c;
}

static int min_column(const ty_expr_t *e, int lo)
{
    if (!e)
        return lo;
    if (e->kind == TY_EXPR_COLUMN && e->index >= 0 && e->index < PLN_AGG_BASE && e->index < lo)
        lo = e->index;
    for (int i = 0; i < e->nargs; i++)
        lo = min_column(e->args[i], lo);
    return lo;
}

bool pln__srf_lateral(pln_binder_t *b, plan_rel_t *fm, plan_rel_t *left, int base, int pos)
{
    int lo = PLN_AGG_BASE;
    for (int i = 0; i < fm->nfuncs; i++) {
        lo = min_column(fm->funcs[i]->expr, lo);
        for (int k = 0; k < fm->funcs[i]->nargs; k++)
            lo = min_column(fm->funcs[i]->args[k], lo);
    }
    if (!left || lo < base)
        return pln__error(b, pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                          "a function in FROM that reads FROM items outside its join is not supported yet");
    for (int i = 0; i < fm->nfuncs && base; i++) {
        fm->funcs[i]->expr = shift(b, fm->funcs[i]->expr, -base);
        for (int k = 0; k < fm->funcs[i]->nargs; k++)
            fm->funcs[i]->args[k] = shift(b, fm->funcs[i]->args[k], -base);
    }
    int own = fm->ncols;
    ty_oid_t *types = fm->types;
    fm->input = left;
    fm->ncols = left->ncols + own;
    fm->types = cm_arena_alloc(b->arena, sizeof(ty_oid_t) * (size_t)fm->ncols);
    set_types(fm, left, types);
    return true;
}

/* ============================================================ the select list */

/*
 * Set-returning functions in the select list, with PostgreSQL 10's
 * ProjectSet semantics: the calls of one nesting level run in lockstep
 * over each row (as many rows as the longest, NULLs for those that ran
 * out; none when all give none), and a call in another call's arguments
 * runs at the level below it. Each call binds to a placeholder (a PARAM
 * of index PLN_SRF_PARAM + column) that survives regrouping; once the
 * query's grouping and windows are planned, each level is a FLATMAP over
 * the rows below and the placeholders become its columns.
 */
#define PLN_SRF_PARAM (1 << 28)

struct pln_srfctx {
    int n, cap;
    plan_srfcall_t **calls;
    int *level;                   /* 1 + the deepest level among its arguments' calls */
    int *first;                   /* its first placeholder column */
    int ncols;
};

static bool is_placeholder(const ty_expr_t *e)
{
    return e && e->kind == TY_EXPR_PARAM && e->index >= PLN_SRF_PARAM;
}

/* The call owning placeholder column c. */
static int call_of(const struct pln_srfctx *s, int c)
{
    int k = 0;
    while (k + 1 < s->n && s->first[k + 1] <= c)
        k++;
    return k;
}

static int deepest(const struct pln_srfctx *s, const ty_expr_t *e)
{
    if (!e)
        return 0;
    int d = is_placeholder(e) ? s->level[call_of(s, e->index - PLN_SRF_PARAM)] : 0;
    for (int i = 0; i < e->nargs; i++) {
        int k = deepest(s, e->args[i]);
        if (k > d)
            d = k;
    }
    return d;
}

bool pln__is_srf_call(const char *name)
{
    const ty_func_t *c[1];
    return is_srf_name(name) && ty_func_candidates(name, false, c, 1) == 0;
}

ty_expr_t *pln__bind_srf_call(pln_binder_t *b, const sql_expr_t *e)
{
    static const char hint[] = "You might be able to move the set-returning function into a LATERAL FROM item.";
    const char *name = e->names->items[e->names->count - 1];
    if (b->aggs && b->aggs->inside) {
        pln__error(b, e->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                   "aggregate function calls cannot contain set-returning function calls");
        cm_err_set_hint(b->err, hint);
        return NULL;
    }
    struct pln_srfctx *s = b->srfs;
    if (!s) {
        const char *where = b->agg_forbidden ? b->agg_forbidden : b->win_forbidden;
        if (where && strcmp(where, "functions in FROM") == 0)
            pln__error(b, e->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "set-returning functions must appear at top level of FROM");
        else if (where && strcmp(where, "GROUP BY") != 0)
            pln__error(b, e->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "set-returning functions are not allowed in %s", where);
        else
            pln__error(b, e->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                       "set-returning functions are not supported here yet (only in FROM and the select list)");
        return NULL;
    }
    int nargs;
    ty_expr_t **args = bind_args(b, e->args, &nargs);
    if (!args)
        return NULL;
    const ty_srf_t *srf = resolve_srf(b, name, args, nargs, e->pos);
    if (!srf)
        return NULL;
    if (s->n == s->cap) {
        int cap = s->cap ? 2 * s->cap : 4;
        plan_srfcall_t **c = cm_arena_alloc(b->arena, sizeof(*c) * (size_t)cap);
        int *l = cm_arena_alloc(b->arena, sizeof(int) * (size_t)cap);
        int *f = cm_arena_alloc(b->arena, sizeof(int) * (size_t)cap);
        if (s->n) {
            memcpy(c, s->calls, sizeof(*c) * (size_t)s->n);
            memcpy(l, s->level, sizeof(int) * (size_t)s->n);
            memcpy(f, s->first, sizeof(int) * (size_t)s->n);
        }
        s->calls = c;
        s->level = l;
        s->first = f;
        s->cap = cap;
    }
    int d = 0;
    for (int i = 0; i < nargs; i++) {
        int a = deepest(s, args[i]);
        if (a > d)
            d = a;
    }
    int k = s->n++;
    s->calls[k] = srf_call(b, srf, args, nargs, e->pos);
    s->level[k] = d + 1;
    s->first[k] = s->ncols;
    s->ncols += srf->ncols;
    ty_expr_t *cols[TY_SRF_COLS_MAX];
    for (int c = 0; c < srf->ncols; c++) {
        cols[c] = ty_expr_new(b->arena, TY_EXPR_PARAM, srf->ncols == 1 ? srf->fn.ret : srf->coltypes[c], 0);
        cols[c]->index = PLN_SRF_PARAM + s->first[k] + c;
        cols[c]->location = e->pos;
    }
    if (srf->ncols == 1)
        return cols[0];
    /* Several columns: the call's value is the record of them, as PostgreSQL's. */
    ty_expr_t *row = ty_expr_new(b->arena, TY_EXPR_ROW, TY_RECORD, srf->ncols);
    for (int c = 0; c < srf->ncols; c++)
        row->args[c] = cols[c];
    row->location = e->pos;
    row->typmod = pln__rowtype(b, srf->ncols, srf->colnames, srf->coltypes, NULL);   /* (f(...)).x finds x */
    return row;
}

struct pln_srfctx *pln__srf_ctx(pln_binder_t *b)
{
    return cm_arena_zalloc(b->arena, sizeof(struct pln_srfctx));
}

/* A placeholder under CASE or COALESCE: PostgreSQL refuses it (the branch would decide the row count). */
static const ty_expr_t *in_conditional(const ty_expr_t *e, bool under)
{
    if (!e)
        return NULL;
    if (is_placeholder(e))
        return under ? e : NULL;
    bool cond = e->kind == TY_EXPR_CASE || e->kind == TY_EXPR_COALESCE;
    for (int i = 0; i < e->nargs; i++) {
        const ty_expr_t *p = in_conditional(e->args[i], under || cond);
        if (p)
            return p;
    }
    return NULL;
}

bool pln__srf_check(pln_binder_t *b, struct pln_srfctx *s, ty_expr_t *const *targets, int n)
{
    static const char hint[] = "You might be able to move the set-returning function into a LATERAL FROM item.";
    for (int i = 0; s->n && i < n; i++) {
        /* The outermost CASE or COALESCE holding a placeholder names the error. */
        const ty_expr_t *stack[64];
        int depth = 0;
        stack[depth++] = targets[i];
        while (depth) {
            const ty_expr_t *e = stack[--depth];
            if (!e)
                continue;
            if (e->kind == TY_EXPR_CASE || e->kind == TY_EXPR_COALESCE) {
                const ty_expr_t *p = in_conditional(e, false);
                if (p) {
                    pln__error(b, s->calls[call_of(s, p->index - PLN_SRF_PARAM)]->location,
                               CM_ERRCODE_FEATURE_NOT_SUPPORTED, "set-returning functions are not allowed in %s",
                               e->kind == TY_EXPR_CASE ? "CASE" : "COALESCE");
                    cm_err_set_hint(b->err, hint);
                    return false;
                }
                continue;
            }
            for (int k = 0; k < e->nargs && depth < 64; k++)
                stack[depth++] = e->args[k];
        }
    }
    return true;
}

/* e with every placeholder replaced by its column (col[placeholder column]); copies what changes. */
static ty_expr_t *replace(pln_binder_t *b, ty_expr_t *e, const int *col)
{
    if (!e)
        return NULL;
    if (is_placeholder(e)) {
        int c = col[e->index - PLN_SRF_PARAM];
        ty_expr_t *x = ty_expr_new(b->arena, TY_EXPR_COLUMN, e->type, 0);
        x->index = c;
        x->location = e->location;
        return x;
    }
    if (e->nargs == 0)
        return e;
    ty_expr_t *c = cm_arena_alloc(b->arena, sizeof(*c));
    *c = *e;
    c->args = cm_arena_alloc(b->arena, sizeof(ty_expr_t *) * (size_t)e->nargs);
    for (int i = 0; i < e->nargs; i++)
        c->args[i] = replace(b, e->args[i], col);
    return c;
}

plan_rel_t *pln__srf_plan(pln_binder_t *b, struct pln_srfctx *s, plan_rel_t *rel, ty_expr_t **exprs, int n,
                         ty_expr_t **keys, int nkeys, bool grouped)
{
    if (!s->n)
        return rel;
    int *col = cm_arena_alloc(b->arena, sizeof(int) * (size_t)s->ncols);
    int maxlevel = 0;
    for (int k = 0; k < s->n; k++) {
        if (s->level[k] > maxlevel)
            maxlevel = s->level[k];
        for (int a = 0; grouped && a < s->calls[k]->nargs; a++)
            if (!(s->calls[k]->args[a] = pln__regroup(b, s->calls[k]->args[a], keys, nkeys)))
                return NULL;
    }
    for (int level = 1; level <= maxlevel; level++) {
        int nf = 0, own = 0;
        for (int k = 0; k < s->n; k++)
            if (s->level[k] == level) {
                nf++;
                own += s->calls[k]->ncols;
            }
        plan_rel_t *fm = pln__rel_new(b, PLAN_REL_FLATMAP, rel, rel->ncols + own);
        memcpy(fm->types, rel->types, sizeof(ty_oid_t) * (size_t)rel->ncols);
        fm->funcs = cm_arena_alloc(b->arena, sizeof(plan_srfcall_t *) * (size_t)nf);
        int at = rel->ncols;
        for (int k = 0; k < s->n; k++) {
            if (s->level[k] != level)
                continue;
            plan_srfcall_t *c = s->calls[k];
            for (int a = 0; a < c->nargs; a++)
                c->args[a] = replace(b, c->args[a], col);   /* lower levels' columns are below */
            for (int i = 0; i < c->ncols; i++, at++) {
                col[s->first[k] + i] = at;
                fm->types[at] = c->ncols == 1 ? c->srf->fn.ret : c->srf->coltypes[i];
            }
            fm->funcs[fm->nfuncs++] = c;
        }
        rel = fm;
    }
    for (int i = 0; i < n; i++)
        exprs[i] = replace(b, exprs[i], col);
    return rel;
}
