/*
 * pln_fold.c: constant folding at bind time, as PostgreSQL's
 * eval_const_expressions does while planning. A subtree whose inputs are
 * all constants and whose functions and casts are immutable is evaluated
 * once and replaced by its value, so `SELECT 1/0` fails before any
 * RowDescription (as in PostgreSQL) and prepared statements do the work
 * once. Stable functions (now(), current_user, anything that reads the
 * time zone) and volatile ones (random(), pg_sleep) stay, and so do $n
 * parameters. Errors raised while folding carry no position, as the
 * planner's do; literal coercions are PostgreSQL's parse-time conversions
 * and point at the literal.
 */
#include "planner/pln_internal.h"

#include <string.h>

/* Functions whose result depends on the session or the clock (provolatile 's'). */
static const char *const pln_stable_names[] = {
    "now", "transaction_timestamp", "current_timestamp", "statement_timestamp", "clock_timestamp",
    "current_date", "current_time", "localtimestamp", "localtime", "timeofday", "version",
    "current_database", "current_schema", "current_user", "session_user", "user", "current_role",
    "current_setting", "to_char", "age", "format", "concat", "concat_ws", "pg_backend_pid",
    "pg_typeof", "to_date", "to_number",
    /* They read the catalog (ty_func_catalog.c). */
    "pg_table_is_visible", "pg_get_indexdef", "pg_get_viewdef", "current_schemas", "pg_get_userbyid",
    "pg_get_constraintdef", "pg_relation_is_publishable",
};

static bool is_datetime_input(ty_oid_t t)
{
    /* Their text input reads DateStyle, TimeZone or IntervalStyle. */
    return t == TY_DATE || t == TY_TIME || t == TY_TIMESTAMP || t == TY_TIMESTAMPTZ || t == TY_INTERVAL;
}

static bool is_string(ty_oid_t t)
{
    const ty_info_t *i = ty_info(t);
    return t == TY_UNKNOWN || (i && i->category == TY_CAT_STRING);
}

/*
 * True if a call of f gives the same result for the same arguments whatever
 * the session does. Types marks only volatility, so the stable ones are
 * named here, and anything touching timestamptz counts as stable (it reads
 * the time zone) except comparisons, which PostgreSQL marks immutable.
 */
bool pln__func_immutable(const ty_func_t *f)
{
    if (f->flags & (TY_FN_VOLATILE | TY_FN_BLOCKING))
        return false;
    for (size_t i = 0; i < CM_ARRAY_LEN(pln_stable_names); i++)
        if (strcmp(f->name, pln_stable_names[i]) == 0)
            return false;
    bool tz = f->ret == TY_TIMESTAMPTZ && f->nargs > 0 && f->args[0] != TY_TIMESTAMPTZ;
    for (int i = 0; i < f->nargs && i < TY_FUNC_ARGS_MAX; i++) {
        if (f->args[i] == TY_INVALID)
            return false;   /* "any" is turned into text by its output function */
        tz |= f->args[i] == TY_TIMESTAMPTZ && (i == 0 || f->args[0] != TY_TIMESTAMPTZ);
    }
    if (!tz)
        return f->ret != TY_TIMESTAMPTZ || (f->flags & TY_FN_OPERATOR) ||
               (strcmp(f->name, "to_timestamp") == 0 && f->nargs == 1);   /* to_timestamp(text, text) reads the zone */
    /* Same-type comparisons and differences of timestamptz do not read the zone. */
    if ((f->flags & TY_FN_OPERATOR) && f->nargs == 2 && f->args[0] == f->args[1])
        return true;
    return strcmp(f->name, "timezone") == 0;
}

static bool cast_immutable(pln_binder_t *b, ty_oid_t from, ty_oid_t to)
{
    if (from == to)
        return true;
    if (from == TY_TIMESTAMPTZ || to == TY_TIMESTAMPTZ)
        return false;
    if ((is_string(from) && is_datetime_input(to)) || (is_datetime_input(from) && is_string(to)))
        return false;
    /* Output of floats and bytea reads extra_float_digits / bytea_output: only with the session's values. */
    if (is_string(to) && (from == TY_FLOAT4 || from == TY_FLOAT8 || from == TY_BYTEA))
        return b->settings_known;
    return true;
}

/* A literal's conversion may run now unless its input reads settings the binder does not know. */
static bool literal_foldable(pln_binder_t *b, const ty_expr_t *cast)
{
    return b->settings_known || !is_datetime_input(cast->type);
}

static bool is_const(const ty_expr_t *e)
{
    return e->kind == TY_EXPR_CONST;
}

static ty_expr_t *make_const(pln_binder_t *b, const ty_expr_t *like, ty_datum_t v)
{
    ty_expr_t *c = ty_expr_const(b->arena, like->type, like->typmod, v);
    c->location = like->location;
    return c;
}

/* Evaluates e (all of whose arguments are constants) into a constant. */
static ty_expr_t *eval_now(pln_binder_t *b, ty_expr_t *e)
{
    ty_datum_t v;
    memset(&v, 0, sizeof(v));
    if (!ty_expr_eval(e, &b->ctx, NULL, NULL, &v)) {
        if (b->nlits_pending > 0) {
            /* A literal that must be converted at run time comes first there, as it would in PostgreSQL. */
            cm_err_clear(b->err);
            return e;
        }
        b->err->position = 0;   /* the planner's errors have no position */
        return NULL;
    }
    return make_const(b, e, v);
}

static ty_expr_t *fold(pln_binder_t *b, ty_expr_t *e);

static bool fold_args(pln_binder_t *b, ty_expr_t *e, bool *all_const)
{
    *all_const = true;
    for (int i = 0; i < e->nargs; i++) {
        if (!(e->args[i] = fold(b, e->args[i])))
            return false;
        *all_const &= is_const(e->args[i]);
    }
    return true;
}

/* CASE drops arms whose condition folds to false or NULL and stops at one that folds to true. */
static ty_expr_t *fold_case(pln_binder_t *b, ty_expr_t *e)
{
    int n = 0;
    ty_expr_t **args = cm_arena_alloc(b->arena, sizeof(ty_expr_t *) * (size_t)e->nargs);
    ty_expr_t *def = NULL;
    int i = 0;
    for (; i + 1 < e->nargs; i += 2) {
        ty_expr_t *w = fold(b, e->args[i]);
        if (!w)
            return NULL;
        if (is_const(w) && (w->value.isnull || !w->value.v.b))
            continue;
        ty_expr_t *t = fold(b, e->args[i + 1]);
        if (!t)
            return NULL;
        if (is_const(w)) {
            def = t;   /* always true: this is the result, later arms never run */
            break;
        }
        args[n++] = w;
        args[n++] = t;
    }
    if (!def && !(def = fold(b, e->args[e->nargs - 1])))
        return NULL;
    if (n == 0)
        return def;
    args[n++] = def;
    e->args = args;
    e->nargs = n;
    return e;
}

/* COALESCE drops NULL constants and everything after the first non-NULL constant. */
static ty_expr_t *fold_coalesce(pln_binder_t *b, ty_expr_t *e)
{
    int n = 0;
    for (int i = 0; i < e->nargs; i++) {
        ty_expr_t *a = fold(b, e->args[i]);
        if (!a)
            return NULL;
        if (is_const(a) && a->value.isnull)
            continue;
        e->args[n++] = a;
        if (is_const(a))
            break;
    }
    if (n == 0) {
        ty_datum_t null = {.isnull = true};
        return make_const(b, e, null);
    }
    if (n == 1 && is_const(e->args[0]))
        return make_const(b, e, e->args[0]->value);
    e->nargs = n;
    return e;
}

/* AND/OR stop at the first constant that decides them, leaving later arguments unevaluated. */
static ty_expr_t *fold_bool(pln_binder_t *b, ty_expr_t *e)
{
    bool is_and = e->kind == TY_EXPR_AND;
    bool all_const = true;
    for (int i = 0; i < e->nargs; i++) {
        ty_expr_t *a = fold(b, e->args[i]);
        if (!a)
            return NULL;
        e->args[i] = a;
        if (is_const(a) && !a->value.isnull && a->value.v.b != is_and) {
            ty_datum_t v = {.v.b = !is_and};
            return make_const(b, e, v);
        }
        all_const &= is_const(a);
    }
    return all_const ? eval_now(b, e) : e;
}

static ty_expr_t *fold(pln_binder_t *b, ty_expr_t *e)
{
    bool all_const;
    switch (e->kind) {
    case TY_EXPR_CONST:
    case TY_EXPR_PARAM:
    case TY_EXPR_COLUMN:
        return e;
    case TY_EXPR_CASE:
        return fold_case(b, e);
    case TY_EXPR_COALESCE:
        return fold_coalesce(b, e);
    case TY_EXPR_AND:
    case TY_EXPR_OR:
        return fold_bool(b, e);
    case TY_EXPR_CAST:
        if (!fold_args(b, e, &all_const))
            return NULL;
        if (!all_const)
            return e;
        if (e->args[0]->type == TY_UNKNOWN && !literal_foldable(b, e))
            return e;
        if (e->args[0]->type != TY_UNKNOWN && !cast_immutable(b, e->args[0]->type, e->type))
            return e;
        return eval_now(b, e);
    case TY_EXPR_CALL:
        if (!fold_args(b, e, &all_const))
            return NULL;
        /* A strict function given a NULL constant is never called, so it is NULL even when its
         * other arguments are not constants (`x / 0 = NULL` reads no x and divides by nothing),
         * whatever its volatility, as PostgreSQL's simplify_function decides. */
        if (e->func->flags & TY_FN_STRICT) {
            for (int i = 0; i < e->nargs; i++) {
                if (is_const(e->args[i]) && e->args[i]->value.isnull) {
                    ty_datum_t null = {.isnull = true};
                    return make_const(b, e, null);
                }
            }
        }
        return all_const && pln__func_immutable(e->func) ? eval_now(b, e) : e;
    case TY_EXPR_NOT:
    case TY_EXPR_IS_NULL:
    case TY_EXPR_IS_BOOL:
    case TY_EXPR_ROW:
    case TY_EXPR_ROW_COMPARE:
    case TY_EXPR_FIELD:
        if (!fold_args(b, e, &all_const))
            return NULL;
        return all_const ? eval_now(b, e) : e;
    case TY_EXPR_GREATEST:
    case TY_EXPR_LEAST:
    case TY_EXPR_NULLIF:
    case TY_EXPR_IS_DISTINCT:
    case TY_EXPR_IN_LIST:
    case TY_EXPR_ARRAY:
    case TY_EXPR_ANY:
    case TY_EXPR_ALL:
        if (!fold_args(b, e, &all_const))
            return NULL;
        return all_const && (!e->func || pln__func_immutable(e->func)) ? eval_now(b, e) : e;
    }
    return e;
}

/* A literal's conversion (cast over an unknown constant) made into its value; false: its error. */
static bool fold_literal(pln_binder_t *b, ty_expr_t *c)
{
    ty_datum_t v;
    memset(&v, 0, sizeof(v));
    if (!ty_expr_eval(c, &b->ctx, NULL, NULL, &v)) {
        if (b->err->position == 0 && c->location >= 0)
            b->err->position = pln__char_pos(b->sql, c->location);
        return false;
    }
    /* The node becomes its value in place, so every tree that holds it sees the constant. */
    c->kind = TY_EXPR_CONST;
    c->value = v;
    c->nargs = 0;
    c->args = NULL;
    return true;
}

bool pln__fold_literal_now(pln_binder_t *b, ty_expr_t *cast)
{
    return !literal_foldable(b, cast) || fold_literal(b, cast);
}

bool pln__fold_literals(pln_binder_t *b)
{
    /* Parse-time conversions first, in the order they were written, each pointing at its literal. */
    int pending = 0;
    for (int i = 0; i < b->nlits; i++) {
        ty_expr_t *c = b->lits[i];
        if (c->kind != TY_EXPR_CAST)
            continue;   /* already folded */
        if (!literal_foldable(b, c)) {
            b->lits[pending++] = c;
            continue;
        }
        if (!fold_literal(b, c))
            return false;
    }
    b->nlits = pending;
    b->nlits_pending = pending;
    return true;
}

ty_expr_t *pln__fold(pln_binder_t *b, ty_expr_t *e)
{
    if (!e)
        return NULL;
    return fold(b, e);
}

static bool fold_list(pln_binder_t *b, ty_expr_t **es, int n)
{
    for (int i = 0; i < n; i++)
        if (es[i] && !(es[i] = fold(b, es[i])))
            return false;
    return true;
}

bool pln__fold_rel(pln_binder_t *b, plan_rel_t *r)
{
    if (!r)
        return true;
    if (!pln__fold_rel(b, r->input) || !pln__fold_rel(b, r->right))
        return false;
    for (int i = 0; i < r->nctes; i++)
        if (!pln__fold_rel(b, r->ctes[i]->def) || !pln__fold_rel(b, r->ctes[i]->rec))
            return false;
    for (int i = 0; i < r->nfuncs; i++)
        if (!fold_list(b, r->funcs[i]->args, r->funcs[i]->nargs) || !fold_list(b, &r->funcs[i]->expr, 1))
            return false;
    for (int i = 0; i < r->nrows; i++)
        if (!fold_list(b, r->rows[i], r->ncols))
            return false;
    if (r->kind == PLAN_REL_PROJECT && !fold_list(b, r->exprs, r->ncols))
        return false;
    if (!fold_list(b, &r->pred, 1) || !fold_list(b, r->keys, r->nkeys))
        return false;
    if (r->kind == PLAN_REL_WINDOW && !pln__window_fold(b, r))
        return false;
    for (int i = 0; i < r->naggs; i++)
        if (!fold_list(b, r->aggs[i]->args, r->aggs[i]->nargs) || !fold_list(b, &r->aggs[i]->filter, 1) ||
            !fold_list(b, r->aggs[i]->order, r->aggs[i]->norder))
            return false;
    return fold_list(b, &r->offset, 1) && fold_list(b, &r->limit, 1);
}
