/*
 * pln_dml_insert.c: INSERT bound as PostgreSQL 15's transformInsertStmt:
 * the target, its column list (42703, 42701), then the source, one of
 *   DEFAULT VALUES          one row of every column's DEFAULT;
 *   VALUES (one row)        its expressions over no relation, set-returning
 *                           functions allowed (as a select list);
 *   VALUES (several rows)   each row bound, counted and coerced before the next;
 *   any other query         bound with its unknown literals kept, each output
 *                           coerced to its column;
 * each checked against the target columns' count (42601, with PostgreSQL's
 * positions) and coerced by assignment (42804), then RETURNING over the new
 * row. The plan's rows are the table's columns in order (the unlisted ones
 * take their DEFAULT), then RETURNING's values.
 */
#include "planner/pln_internal.h"

#include <string.h>

/* A value of the source for one target column: an expression, or DEFAULT. */
typedef struct src_val {
    ty_expr_t *x;                 /* NULL: DEFAULT */
    int pos;                      /* where PostgreSQL points at it */
    const sql_expr_t *ast;        /* as written (VALUES), for the row-expression hint; NULL otherwise */
} src_val_t;

typedef struct targets {
    int n;                        /* target columns: the list's, or every column */
    int *col;                     /* their table column */
    int *pos;                     /* where each was named (-1: no list) */
    const char **field;           /* (a.f): the field named; NULL otherwise */
    bool listed;                  /* a column list was written */
} targets_t;

static plan_rel_t *one_empty_row(pln_binder_t *b)
{
    plan_rel_t *v = pln__rel_new(b, PLAN_REL_VALUES, NULL, 0);
    v->nrows = 1;
    v->rows = cm_arena_zalloc(b->arena, sizeof(ty_expr_t **));
    return v;
}

static plan_rel_t *project(pln_binder_t *b, plan_rel_t *input, ty_expr_t **exprs, int n)
{
    plan_rel_t *p = pln__rel_new(b, PLAN_REL_PROJECT, input, n);
    p->exprs = exprs;
    for (int i = 0; i < n; i++)
        p->types[i] = exprs[i]->type;
    return p;
}

/* checkInsertTargets: the listed columns exist and are named once; no list is every column. */
static bool insert_targets(pln_binder_t *b, const sql_insert_t *ins, const plan_write_t *w, targets_t *t)
{
    int n = ins->columns ? ins->columns->count : w->ncols;
    t->n = n;
    t->listed = ins->columns != NULL;
    t->col = cm_arena_alloc(b->arena, sizeof(int) * (size_t)(n ? n : 1));
    t->pos = cm_arena_alloc(b->arena, sizeof(int) * (size_t)(n ? n : 1));
    t->field = cm_arena_zalloc(b->arena, sizeof(char *) * (size_t)(n ? n : 1));
    bool *seen = cm_arena_zalloc(b->arena, sizeof(bool) * (size_t)(w->ncols ? w->ncols : 1));
    for (int k = 0; k < n; k++) {
        if (!t->listed) {
            t->col[k] = k;
            t->pos[k] = -1;
            continue;
        }
        const sql_assign_t *a = ins->columns->items[k];
        int c = pln__write_column(w, a->column);
        if (c < 0)
            return pln__no_write_column(b, w, a->column, a->pos);
        if (seen[c])
            return pln__error(b, a->pos, "42701", "column \"%s\" specified more than once", a->column);
        seen[c] = true;
        t->col[k] = c;
        t->pos[k] = a->pos;
        t->field[k] = a->field;
    }
    return true;
}

/*
 * transformInsertRow: no more values than target columns; fewer only
 * without a column list (the others take their DEFAULT); each value
 * coerced to its column. out gets the table's row in column order.
 */
static bool insert_row(pln_binder_t *b, const pln_target_t *tg, const targets_t *t, src_val_t *v, int nv,
                       ty_expr_t **out)
{
    const plan_write_t *w = tg->w;
    if (nv > t->n)
        return pln__error(b, v[t->n].pos, CM_ERRCODE_SYNTAX_ERROR, "INSERT has more expressions than target columns");
    if (t->listed && nv < t->n) {
        pln__error(b, t->pos[nv], CM_ERRCODE_SYNTAX_ERROR, "INSERT has more target columns than expressions");
        /* INSERT ... (a, b) SELECT (1, 2): one row expression of as many columns as the targets. */
        if (nv == 1 && v[0].ast && v[0].ast->kind == SQL_EXPR_ROW && sql_list_len(v[0].ast->args) == t->n)
            cm_err_set_hint(b->err, "The insertion source is a row expression containing the same number of columns "
                                    "expected by the INSERT. Did you accidentally use extra parentheses?");
        return false;
    }
    for (int i = 0; i < w->ncols; i++)
        out[i] = NULL;
    for (int k = 0; k < nv; k++) {
        int c = t->col[k];
        pln__perm_mark(b, tg->perm, c + 1, CAT_PRIV_INSERT);   /* transformInsertRow's insertedCols */
        if (t->field[k]) {
            pln__error(b, t->pos[k], CM_ERRCODE_DATATYPE_MISMATCH,
                       "cannot assign to field \"%s\" of column \"%s\" because its type %s is not a composite type",
                       t->field[k], w->cols[c].name, pln__type_name(b, w->cols[c].type));
            return false;
        }
        if (v[k].x && !(out[c] = pln__assign(b, w, c, v[k].x, v[k].pos)))
            return false;
    }
    for (int i = 0; i < w->ncols; i++)
        if (!out[i])
            out[i] = pln__column_default(b, w, i);
    return true;
}

/* One VALUES row's expressions, DEFAULT kept apart (transformExpressionList with allowDefault). */
static bool bind_values_row(pln_binder_t *b, const sql_list_t *row, src_val_t *v)
{
    for (int k = 0; k < row->count; k++) {
        const sql_expr_t *e = row->items[k];
        v[k].ast = e;
        v[k].pos = pln__leftmost(e);
        v[k].x = NULL;
        if (e->kind == SQL_EXPR_DEFAULT)
            continue;
        if (!(v[k].x = pln__bind_expr(b, e)))
            return false;
    }
    return true;
}

/* VALUES with a single row: a select list over no relation, so set-returning functions may appear. */
static bool source_single_row(pln_binder_t *b, const pln_target_t *tg, const targets_t *t, const sql_list_t *row,
                              plan_rel_t **rel)
{
    int nv = row->count, n = tg->w->ncols;
    src_val_t *v = cm_arena_zalloc(b->arena, sizeof(*v) * (size_t)(nv ? nv : 1));
    b->aggs = NULL;
    b->agg_forbidden = "VALUES";
    b->wins = NULL;
    b->win_forbidden = NULL;
    struct pln_srfctx *sctx = pln__srf_ctx(b);
    b->srfs = sctx;
    bool ok = bind_values_row(b, row, v);
    b->srfs = NULL;
    if (!ok)
        return false;
    ty_expr_t **bound = cm_arena_alloc(b->arena, sizeof(ty_expr_t *) * (size_t)(nv ? nv : 1));
    int nb = 0;
    for (int k = 0; k < nv; k++)
        if (v[k].x)
            bound[nb++] = v[k].x;
    if (!pln__srf_check(b, sctx, bound, nb))
        return false;
    ty_expr_t **out = cm_arena_alloc(b->arena, sizeof(ty_expr_t *) * (size_t)(n ? n : 1));
    if (!insert_row(b, tg, t, v, nv, out))
        return false;
    plan_rel_t *r = pln__srf_plan(b, sctx, one_empty_row(b), out, n, NULL, 0, false);
    if (!r)
        return false;
    *rel = project(b, r, out, n);
    return true;
}

/* VALUES with several rows: each bound, counted and coerced in turn, DEFAULT filled in per row. */
static bool source_rows(pln_binder_t *b, const pln_target_t *tg, const targets_t *t, const sql_list_t *rows,
                        plan_rel_t **rel)
{
    int n = tg->w->ncols, len = -1;
    plan_rel_t *vals = pln__rel_new(b, PLAN_REL_VALUES, NULL, n);
    vals->nrows = rows->count;
    vals->rows = cm_arena_alloc(b->arena, sizeof(ty_expr_t **) * (size_t)rows->count);
    b->aggs = NULL;
    b->agg_forbidden = "VALUES";
    b->wins = NULL;
    b->win_forbidden = NULL;
    b->srfs = NULL;
    for (int r = 0; r < rows->count; r++) {
        const sql_list_t *row = rows->items[r];
        src_val_t *v = cm_arena_zalloc(b->arena, sizeof(*v) * (size_t)(row->count ? row->count : 1));
        if (!bind_values_row(b, row, v))
            return false;
        if (len < 0)
            len = row->count;
        else if (len != row->count)
            return pln__error(b, v[0].pos, CM_ERRCODE_SYNTAX_ERROR, "VALUES lists must all be the same length");
        vals->rows[r] = cm_arena_alloc(b->arena, sizeof(ty_expr_t *) * (size_t)(n ? n : 1));
        if (!insert_row(b, tg, t, v, row->count, vals->rows[r]))
            return false;
    }
    for (int i = 0; i < n; i++)
        vals->types[i] = tg->w->cols[i].type;
    *rel = vals;
    return true;
}

/*
 * Any other query: bound as a query of its own, unknown literals left
 * unknown (p_resolve_unknowns off), each output coerced to its column. An
 * untyped literal or parameter output is coerced where it is, as
 * PostgreSQL takes the Const itself; any other output is read from the
 * query's row, and its errors point at the output's expression.
 */
static bool source_query(pln_binder_t *b, const pln_target_t *tg, const targets_t *t, const sql_select_t *q,
                         plan_rel_t **rel)
{
    int n = tg->w->ncols;
    pln_scope_t *saved = b->scope;
    b->scope = NULL;
    b->setop_leaf = true;
    pln_bound_t qb;
    bool ok = pln__bind_select(b, q, &qb);
    b->setop_leaf = false;
    b->scope = saved;
    if (!ok)
        return false;
    src_val_t *v = cm_arena_zalloc(b->arena, sizeof(*v) * (size_t)(qb.ncols ? qb.ncols : 1));
    for (int k = 0; k < qb.ncols; k++) {
        ty_expr_t *out = qb.targets ? qb.targets[k] : NULL;
        v[k].pos = pln__expr_leftmost(out);
        if (out && out->type == TY_UNKNOWN && (out->kind == TY_EXPR_CONST || out->kind == TY_EXPR_PARAM)) {
            v[k].x = out;
            continue;
        }
        ty_expr_t *c = ty_expr_new(b->arena, TY_EXPR_COLUMN, qb.cols[k].type, 0);
        c->typmod = qb.cols[k].typmod;
        c->index = k;
        c->location = v[k].pos;
        v[k].x = c;
    }
    ty_expr_t **row = cm_arena_alloc(b->arena, sizeof(ty_expr_t *) * (size_t)(n ? n : 1));
    if (!insert_row(b, tg, t, v, qb.ncols, row))
        return false;
    *rel = project(b, qb.rel, row, n);
    return true;
}

bool pln__bind_insert(pln_binder_t *b, const sql_stmt_t *s, pln_target_t *tg, pln_stmt_t *st)
{
    const sql_insert_t *ins = s->insert;
    plan_write_t *w = tg->w;
    int n = w->ncols;
    targets_t t;
    if (!insert_targets(b, ins, w, &t))
        return false;
    /* The values see no relation; the target is there only for PostgreSQL's hints
     * ("There is a column named a in table t, but it cannot be referenced ..."). */
    pln_scope_t *values_scope = cm_arena_zalloc(b->arena, sizeof(*values_scope));
    values_scope->id = ++b->nscopes;
    values_scope->open_sublink = -1;
    if (!pln__target_rte(b, tg, values_scope, true))
        return false;
    b->scope = values_scope;
    const sql_select_t *q = ins->query;
    plan_rel_t *rel = NULL;
    bool ok;
    if (!q) {
        ty_expr_t **row = cm_arena_alloc(b->arena, sizeof(ty_expr_t *) * (size_t)(n ? n : 1));
        for (int i = 0; i < n; i++)
            row[i] = pln__column_default(b, w, i);
        rel = project(b, one_empty_row(b), row, n);
        ok = true;
    } else if (q->values && q->op == SQL_SETOP_NONE && !q->order_by && !q->limit && !q->offset && !q->with) {
        ok = q->values->count == 1 ? source_single_row(b, tg, &t, q->values->items[0], &rel)
                                   : source_rows(b, tg, &t, q->values, &rel);
    } else {
        ok = source_query(b, tg, &t, q, &rel);
    }
    b->scope = NULL;
    if (!ok)
        return false;
    /* RETURNING reads the new row under the target's name. */
    ty_expr_t **ret = NULL;
    plan_column_t *rcols = NULL;
    int nret = 0;
    if (ins->returning) {
        pln_scope_t *rscope = cm_arena_zalloc(b->arena, sizeof(*rscope));
        rscope->id = ++b->nscopes;
        rscope->open_sublink = -1;
        if (!pln__target_rte(b, tg, rscope, false))
            return false;
        b->scope = rscope;
        ok = pln__bind_returning(b, ins->returning, &ret, &rcols, &nret);
        b->scope = NULL;
        if (!ok)
            return false;
    }
    ty_expr_t **exprs = cm_arena_alloc(b->arena, sizeof(ty_expr_t *) * (size_t)(n + nret ? n + nret : 1));
    plan_column_t *cols = cm_arena_zalloc(b->arena, sizeof(plan_column_t) * (size_t)(n + nret ? n + nret : 1));
    for (int i = 0; i < n; i++) {
        exprs[i] = ty_expr_new(b->arena, TY_EXPR_COLUMN, w->cols[i].type, 0);
        exprs[i]->typmod = w->cols[i].typmod;
        exprs[i]->index = i;
        cols[i] = w->cols[i];
    }
    for (int i = 0; i < nret; i++) {
        exprs[n + i] = ret[i];
        cols[n + i] = rcols[i];
    }
    if (nret)
        rel = project(b, rel, exprs, n + nret);
    w->nreturning = nret;
    w->returning = rcols;
    st->ncols = nret;
    st->cols = rcols;
    return pln__write_plan(b, tg, rel, n + nret, cols, st);
}
