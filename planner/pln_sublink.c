/*
 * pln_sublink.c: subqueries used as expressions: (SELECT ...), EXISTS
 * (...), ARRAY(SELECT ...) and x [NOT] IN (SELECT ...). Binding leaves a
 * placeholder (a PARAM with a negative index) in the expression. One that
 * reads the enclosing query's columns is planned as a join
 * (pln_correlate.c); the others run at most once per execution, as
 * PostgreSQL's initplans do: at run time ex__instantiate replaces the
 * placeholder by the result, computed when an expression that holds it is
 * first evaluated. A scalar subquery gives NULL when empty and fails with
 * 21000 on a second row; ARRAY gives an array of its values in the
 * subquery's order (empty, not NULL, for no rows); IN becomes an IN list of
 * the subquery's values (false when it is empty), and x op ANY/ALL (SELECT
 * ...) the same operator over an array of them.
 */
#include "planner/pln_internal.h"

#include <string.h>

static int add_sublink(pln_binder_t *b, const pln_sublink_t *s)
{
    if (b->nsublinks == b->sublinks_cap) {
        int cap = b->sublinks_cap ? b->sublinks_cap * 2 : 4;
        pln_sublink_t *n = cm_arena_alloc(b->arena, sizeof(*n) * (size_t)cap);
        if (b->nsublinks)
            memcpy(n, b->sublinks, sizeof(*n) * (size_t)b->nsublinks);
        b->sublinks = n;
        b->sublinks_cap = cap;
    }
    b->sublinks[b->nsublinks] = *s;
    return b->nsublinks++;
}

static ty_expr_t *placeholder(pln_binder_t *b, int k, ty_oid_t type, int32_t typmod, int pos)
{
    ty_expr_t *p = ty_expr_new(b->arena, TY_EXPR_PARAM, type, 0);
    p->index = PLAN_SUBLINK_PARAM(k);
    p->typmod = typmod;
    p->location = pos;
    return p;
}

/*
 * EXISTS asks only whether a row comes: as PostgreSQL's simplify_EXISTS_query, its ORDER BY goes
 * and so does DISTINCT (rows come from it iff they come into it); its targets are not computed
 * (EXISTS (SELECT 1/x ...) is no division), unless they decide the rows: aggregates, HAVING,
 * window functions, set-returning functions. A LIMIT of a positive or NULL constant goes too
 * (some row comes iff one comes); any other LIMIT, or an OFFSET, keeps all of it.
 */
/* A LIMIT that lets some row through if one comes: a constant (the integer literal LIMIT n is
 * one cast to bigint) that is NULL (no limit) or positive. */
static bool limit_lets_rows_through(const ty_expr_t *e)
{
    if (e && e->kind == TY_EXPR_CAST && e->nargs == 1)
        e = e->args[0];
    if (!e || e->kind != TY_EXPR_CONST)
        return false;
    if (e->value.isnull)
        return true;
    return (e->type == TY_INT8 || e->type == TY_INT4 || e->type == TY_INT2) && e->value.v.i > 0;
}

static plan_rel_t *exists_rows_only(pln_binder_t *b, plan_rel_t *r, bool *targets_kept)
{
    *targets_kept = false;
    for (;;) {
        if (r->kind == PLAN_REL_SORT || r->kind == PLAN_REL_DISTINCT)
            r = r->input;
        else if (r->kind == PLAN_REL_LIMIT && !r->offset && limit_lets_rows_through(r->limit))
            r = r->input;
        else
            break;
    }
    if (r->kind != PLAN_REL_PROJECT)
        return r;
    const plan_rel_t *in = r->input;
    if (in->kind == PLAN_REL_WINDOW || in->kind == PLAN_REL_FLATMAP || (in->kind == PLAN_REL_REDUCE && in->naggs > 0) ||
        (in->kind == PLAN_REL_FILTER && in->input->kind == PLAN_REL_REDUCE)) {
        *targets_kept = true;
        return r;
    }
    plan_rel_t *p = cm_arena_zalloc(b->arena, sizeof(*p));
    *p = *r;
    p->ncols = 1;
    p->exprs = cm_arena_alloc(b->arena, sizeof(ty_expr_t *));
    p->exprs[0] = ty_expr_const(b->arena, TY_BOOL, -1, (ty_datum_t){.v.b = true});
    p->types = cm_arena_alloc(b->arena, sizeof(ty_oid_t));
    p->types[0] = TY_BOOL;
    return p;
}

ty_expr_t *pln__bind_sublink(pln_binder_t *b, const sql_expr_t *e)
{
    if (b->sublink_forbidden) {
        pln__error(b, e->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "cannot use subquery in %s", b->sublink_forbidden);
        return NULL;
    }
    /* The subquery has its own aggregates: the outer query's context does not reach inside. */
    pln_aggctx_t *saved = b->aggs;
    const char *saved_what = b->agg_forbidden;
    b->aggs = NULL;
    /* Outer references made while binding it name it; those to levels outside it make it correlated. */
    int serial = ++b->nserials, first_ref = b->norefs, first_scope = b->nscopes + 1;
    pln_scope_t around = b->scope ? *b->scope : (pln_scope_t){0};
    if (b->scope) {
        /* An aggregate of only this level's columns inside it is this level's (PostgreSQL's agglevelsup). */
        b->scope->open_sublink = serial;
        b->scope->sub_aggs = saved;
        b->scope->sub_agg_forbidden = saved_what;
    }
    pln_bound_t q;
    bool ok = pln__bind_select(b, e->select, &q);
    if (b->scope) {
        b->scope->open_sublink = around.open_sublink;
        b->scope->sub_aggs = around.sub_aggs;
        b->scope->sub_agg_forbidden = around.sub_agg_forbidden;
    }
    b->aggs = saved;
    b->agg_forbidden = saved_what;
    if (!ok)
        return NULL;
    pln_sublink_t s = {.kind = pln__sublink_of(e->sublink), .rel = q.rel, .location = e->pos, .serial = serial};
    for (int i = first_ref; i < b->norefs; i++)
        s.correlated |= b->orefs[i].owner < first_scope;
    bool targets_kept = false;
    if (e->sublink == SQL_SUBLINK_EXISTS)
        s.rel = exists_rows_only(b, s.rel, &targets_kept);
    /* Joined, an uncorrelated EXISTS whose targets must run would lose them (nothing reads
     * them once it is a marker column); run on its own, the view is refused instead. */
    s.correlated |= b->join_sublinks && b->scope && !targets_kept;
    switch (e->sublink) {
    case SQL_SUBLINK_EXISTS:
        s.type = TY_BOOL;
        s.typmod = -1;
        return placeholder(b, add_sublink(b, &s), TY_BOOL, -1, e->pos);
    case SQL_SUBLINK_EXPR:
        if (q.ncols != 1) {
            pln__error(b, e->pos, CM_ERRCODE_SYNTAX_ERROR, "subquery must return only one column");
            return NULL;
        }
        s.type = q.cols[0].type;
        s.typmod = q.cols[0].typmod;
        return placeholder(b, add_sublink(b, &s), s.type, s.typmod, e->pos);
    case SQL_SUBLINK_IN:
    case SQL_SUBLINK_ANY:
    case SQL_SUBLINK_ALL: {
        /* A row constructor on the left is a list of values, one per subquery column, as in
         * PostgreSQL; anything else is one value (a record too) against one column. */
        const sql_expr_t *left = e->arg;
        int nleft = left->kind == SQL_EXPR_ROW ? sql_list_len(left->args) : 1;
        if (q.ncols != nleft) {
            pln__error(b, e->pos, CM_ERRCODE_SYNTAX_ERROR,
                       q.ncols > nleft ? "subquery has too many columns" : "subquery has too few columns");
            return NULL;
        }
        if (left->kind == SQL_EXPR_ROW && nleft > 1) {
            pln__error(b, e->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                       "a row compared with a subquery of several columns is not supported yet");
            return NULL;
        }
        if (left->kind == SQL_EXPR_ROW)
            left = left->args->items[0];
        ty_expr_t *lhs = pln__bind_expr(b, left);
        if (!lhs)
            return NULL;
        /* The operator is chosen between the left side and the subquery's column as for any operator. */
        const char *op = e->sublink == SQL_SUBLINK_IN ? "=" : e->str;
        ty_expr_t *args[2] = {lhs, placeholder(b, 0, q.cols[0].type, q.cols[0].typmod, e->pos)};
        const ty_func_t *eq = pln__resolve(b, op, true, args, 2, e->pos, true);
        if (!eq)
            return NULL;
        if (eq->ret != TY_BOOL) {
            pln__error(b, e->pos, CM_ERRCODE_DATATYPE_MISMATCH, "operator %s must return type boolean, not type %s",
                       op, pln__type_name(b, eq->ret));
            return NULL;
        }
        if (e->sublink != SQL_SUBLINK_IN) {
            /* Instantiated as op ANY/ALL over an array of the subquery's values (ex__instantiate). */
            s.type = eq->args[1] != TY_INVALID ? eq->args[1] : q.cols[0].type;
            s.typmod = -1;
            int k = add_sublink(b, &s);
            ty_expr_t *any = ty_expr_new(b->arena, e->sublink == SQL_SUBLINK_ALL ? TY_EXPR_ALL : TY_EXPR_ANY, TY_BOOL, 2);
            any->args[0] = args[0];
            any->args[1] = placeholder(b, k, q.cols[0].type, q.cols[0].typmod, e->pos);
            any->func = eq;
            any->location = e->pos;
            return any;
        }
        s.type = eq->args[1];
        s.typmod = -1;
        s.rel = q.rel;
        /* Column type of the values, before the cast to the operator's type. */
        s.location = e->pos;
        int k = add_sublink(b, &s);
        ty_expr_t *in = ty_expr_new(b->arena, TY_EXPR_IN_LIST, TY_BOOL, 2);
        in->args[0] = args[0];
        in->args[1] = placeholder(b, k, q.cols[0].type, q.cols[0].typmod, e->pos);
        in->func = eq;
        in->negated = e->negated;
        in->location = e->pos;
        return in;
    }
    case SQL_SUBLINK_ARRAY: {
        if (q.ncols != 1) {
            pln__error(b, e->pos, CM_ERRCODE_SYNTAX_ERROR, "subquery must return only one column");
            return NULL;
        }
        /* Values that are arrays stack into one more dimension of the same array type. */
        ty_oid_t elem = q.cols[0].type;
        s.type = ty_array_elem_type(elem) != TY_INVALID ? elem : ty_array_type_of(elem);
        if (s.type == TY_INVALID) {
            pln__error(b, -1, CM_ERRCODE_UNDEFINED_OBJECT, "could not find array type for data type %s",
                       pln__type_name(b, elem));
            return NULL;
        }
        s.typmod = q.cols[0].typmod;   /* as PostgreSQL's exprTypmod: the column's */
        return placeholder(b, add_sublink(b, &s), s.type, s.typmod, e->pos);
    }
    }
    pln__error(b, e->pos, CM_ERRCODE_INTERNAL_ERROR, "unexpected sublink");
    return NULL;
}

/* ============================================================ run time */

plan_sublink_t *pln__plan_sublinks(pln_binder_t *b)
{
    plan_sublink_t *p = cm_arena_zalloc(b->arena, sizeof(*p) * (size_t)(b->nsublinks ? b->nsublinks : 1));
    for (int i = 0; i < b->nsublinks; i++) {
        const pln_sublink_t *s = &b->sublinks[i];
        p[i] = (plan_sublink_t){.kind = s->kind, .rel = s->rel, .type = s->type, .typmod = s->typmod,
                                .location = s->location, .joined = s->joined};
    }
    return p;
}
