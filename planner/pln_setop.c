/*
 * pln_setop.c: UNION / INTERSECT / EXCEPT [ALL] as PostgreSQL's
 * transformSetOperationTree binds them: both sides must have as many
 * columns; each column's type is chosen across the two sides as for UNION
 * (select_common_type), an untyped literal in a leaf SELECT takes that type
 * at parse time (so `SELECT 1 UNION SELECT 'a'` fails on 'a', at 'a'), and
 * other columns are cast implicitly. The result is named after the left
 * side; its ORDER BY may name or number result columns only.
 */
#include "planner/pln_internal.h"

#include <string.h>

static const char *setop_name(sql_setop_t op)
{
    return op == SQL_SETOP_UNION ? "UNION" : op == SQL_SETOP_INTERSECT ? "INTERSECT" : "EXCEPT";
}

/* Where PostgreSQL points at a side: its first output expression. */
static int first_target_pos(const sql_select_t *s)
{
    while (s->op != SQL_SETOP_NONE)
        s = s->larg;
    if (sql_list_len(s->targets)) {
        const sql_target_t *t = s->targets->items[0];
        return t->expr->pos;
    }
    if (s->values && sql_list_len(s->values->items[0])) {
        const sql_expr_t *e = ((const sql_list_t *)s->values->items[0])->items[0];
        return e->pos;
    }
    return s->pos;
}

static ty_expr_t *column_of(pln_binder_t *b, const pln_bound_t *q, int i)
{
    if (q->targets && q->rel->kind == PLAN_REL_PROJECT && q->rel->exprs == q->targets)
        return q->targets[i];
    ty_expr_t *c = ty_expr_new(b->arena, TY_EXPR_COLUMN, q->cols[i].type, 0);
    c->typmod = q->cols[i].typmod;
    c->index = i;
    return c;
}

/* Casts one side's column i to type: in its own target list if it is a plain SELECT, else in a projection above. */
static bool coerce_side(pln_binder_t *b, pln_bound_t *q, int i, ty_oid_t type, int32_t typmod)
{
    if (q->cols[i].type == type && (typmod < 0 || q->cols[i].typmod == typmod))
        return true;
    if (!(q->targets && q->rel->kind == PLAN_REL_PROJECT && q->rel->exprs == q->targets)) {
        ty_expr_t **cols = cm_arena_alloc(b->arena, sizeof(ty_expr_t *) * (size_t)q->ncols);
        for (int c = 0; c < q->ncols; c++)
            cols[c] = column_of(b, q, c);
        plan_rel_t *p = pln__rel_new(b, PLAN_REL_PROJECT, q->rel, q->ncols);
        p->exprs = cols;
        memcpy(p->types, q->rel->types, sizeof(ty_oid_t) * (size_t)q->ncols);
        q->rel = p;
        q->targets = cols;
    }
    ty_expr_t *x = pln__coerce(b, q->targets[i], type, -1, PLN_CC_IMPLICIT, -1);
    if (!x)
        return false;
    q->targets[i] = x;
    q->rel->types[i] = type;
    q->cols[i].type = type;
    q->cols[i].typmod = typmod;
    return true;
}

/* The first SELECT with INTO among the arms of s, or NULL. */
static const sql_select_t *arm_with_into(const sql_select_t *s)
{
    if (!s)
        return NULL;
    if (s->op == SQL_SETOP_NONE)
        return s->into ? s : NULL;
    const sql_select_t *l = arm_with_into(s->larg);
    return l ? l : arm_with_into(s->rarg);
}

bool pln__bind_setop(pln_binder_t *b, const sql_select_t *s, pln_bound_t *out)
{
    const char *what = setop_name(s->op);
    /* The statement's first SELECT lost its INTO to CREATE TABLE AS; any other arm's is PostgreSQL's 42601. */
    const sql_select_t *into = arm_with_into(s->rarg);
    if (into)
        return pln__error(b, into->into->pos, CM_ERRCODE_SYNTAX_ERROR,
                          "INTO is only allowed on first SELECT of UNION/INTERSECT/EXCEPT");
    pln_bound_t l, r;
    b->setop_leaf = true;
    if (!pln__bind_select(b, s->larg, &l))
        return false;
    b->setop_leaf = true;
    if (!pln__bind_select(b, s->rarg, &r))
        return false;
    if (l.ncols != r.ncols)
        return pln__error(b, first_target_pos(s->rarg), CM_ERRCODE_SYNTAX_ERROR,
                          "each %s query must have the same number of columns", what);
    out->ncols = l.ncols;
    out->cols = cm_arena_zalloc(b->arena, sizeof(plan_column_t) * (size_t)(l.ncols ? l.ncols : 1));
    for (int i = 0; i < l.ncols; i++) {
        ty_expr_t *pair[2] = {column_of(b, &l, i), column_of(b, &r, i)};
        int pos[2] = {pair[0]->location, pair[1]->location};
        ty_oid_t type;
        int32_t typmod;
        if (!pln__common_type(b, pair, 2, pos, what, &type, &typmod))
            return false;
        if (l.cols[i].typmod != r.cols[i].typmod || l.cols[i].type != r.cols[i].type)
            typmod = -1;
        else
            typmod = l.cols[i].typmod;
        if (!coerce_side(b, &l, i, type, typmod) || !coerce_side(b, &r, i, type, typmod))
            return false;
        out->cols[i] = (plan_column_t){l.cols[i].name, type, typmod};
    }
    plan_rel_t *op = pln__rel_new(b, PLAN_REL_SETOP, l.rel, l.ncols);
    op->right = r.rel;
    op->setop = pln__setop_of(s->op);
    op->all = s->set_all;
    for (int i = 0; i < l.ncols; i++)
        op->types[i] = out->cols[i].type;
    out->rel = op;
    ty_expr_t **hidden;
    int nhidden;
    plan_sortkey_t *keys;
    if (!pln__bind_sort(b, s->order_by, out, true, &hidden, &nhidden, &keys))
        return false;
    pln__finish_sort(b, out, keys, sql_list_len(s->order_by));
    return pln__bind_limit(b, s, out);
}
