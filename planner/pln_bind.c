/*
 * pln_bind.c: the planner's entry points for statements: pln_parse wraps
 * the parser's statements, pln_bind turns one into a pln_stmt_t: session
 * commands (SET/SHOW/RESET/transactions/DISCARD) pass their arguments
 * through, and queries without FROM (SELECT, VALUES) become rows of typed
 * expressions with PostgreSQL's column names, types and typmods, and with
 * the types of their $n parameters declared or inferred.
 */
#include "planner/pln_internal.h"

#include <string.h>

bool pln_parse(cm_arena_t *arena, const char *sql, size_t len, pln_raw_list_t *out, cm_err_t *err)
{
    sql_stmt_list_t list;
    if (!sql_parse(arena, sql, len, &list, err))
        return false;
    /* An empty string is one empty statement, so it can be prepared and executed too. */
    int n = list.count ? list.count : 1;
    out->count = n;
    out->items = cm_arena_alloc(arena, sizeof(pln_raw_t *) * (size_t)n);
    for (int i = 0; i < n; i++) {
        pln_raw_t *r = cm_arena_zalloc(arena, sizeof(*r));
        if (list.count) {
            r->stmt = list.items[i];
            r->offset = r->stmt->pos;
            r->length = r->stmt->len;
        }
        out->items[i] = r;
    }
    return true;
}

void pln_raw_span(const pln_raw_t *raw, int *offset, int *length)
{
    *offset = raw->offset;
    *length = raw->length;
}

/* ============================================================ queries */

static int find_output(const pln_column_t *cols, int ncols, const char *name)
{
    for (int i = 0; i < ncols; i++)
        if (strcmp(cols[i].name, name) == 0)
            return i;
    return -1;
}

/* Appends hidden per-row values (ORDER BY expressions that are not output columns). */
static int add_hidden(pln_binder_t *b, struct pln_query *q, ty_expr_t *e)
{
    int col = q->nvals;
    for (int r = 0; r < q->nrows; r++) {
        ty_expr_t **row = cm_arena_alloc(b->arena, sizeof(ty_expr_t *) * (size_t)(q->nvals + 1));
        memcpy(row, q->rows[r], sizeof(ty_expr_t *) * (size_t)q->nvals);
        row[q->nvals] = e;
        q->rows[r] = row;
    }
    q->nvals++;
    return col;
}

static bool bind_order(pln_binder_t *b, const sql_select_t *s, struct pln_query *q, pln_stmt_t *st)
{
    int n = sql_list_len(s->order_by);
    if (!n)
        return true;
    q->sort = cm_arena_zalloc(b->arena, sizeof(pln_sortkey_t) * (size_t)n);
    for (int i = 0; i < n; i++) {
        const sql_sort_t *o = s->order_by->items[i];
        const sql_expr_t *e = o->expr;
        pln_sortkey_t *k = &q->sort[q->nsort++];
        k->desc = o->dir == SQL_SORT_DESC;
        k->nulls_first = o->nulls == SQL_NULLS_DEFAULT ? k->desc : o->nulls == SQL_NULLS_FIRST;
        if (e->kind == SQL_EXPR_CONST && e->const_kind == SQL_CONST_INTEGER) {
            if (e->ival < 1 || e->ival > st->ncols)
                return pln__error(b, e->pos, "42P10", "ORDER BY position %lld is not in select list",
                                  (long long)e->ival);
            k->col = (int)e->ival - 1;
        } else if (e->kind == SQL_EXPR_COLUMN && e->names->count == 1 &&
                   find_output(st->cols, st->ncols, e->names->items[0]) >= 0) {
            k->col = find_output(st->cols, st->ncols, e->names->items[0]);
        } else {
            ty_expr_t *x = pln__bind_expr(b, e);
            if (!x || !(x = pln__resolve_unknown(b, x)))
                return false;
            k->col = add_hidden(b, q, x);
        }
        k->type = q->rows[0][k->col]->type;
    }
    return true;
}

static ty_expr_t *bind_limit(pln_binder_t *b, const sql_expr_t *e, const char *what)
{
    ty_expr_t *x = pln__bind_expr(b, e);
    if (!x)
        return NULL;
    if (x->type != TY_INT8 && x->type != TY_UNKNOWN && !pln__can_coerce(x->type, TY_INT8, PLN_CC_ASSIGNMENT)) {
        pln__error(b, e->pos, CM_ERRCODE_DATATYPE_MISMATCH, "argument of %s must be type %s, not type %s", what,
                   "bigint", pln__type_name(b, x->type));
        return NULL;
    }
    return pln__coerce(b, x, TY_INT8, -1, PLN_CC_ASSIGNMENT, -1);
}

static bool bind_values(pln_binder_t *b, const sql_select_t *s, struct pln_query *q, pln_stmt_t *st)
{
    int nrows = s->values->count;
    int ncols = sql_list_len(s->values->items[0]);
    q->nrows = nrows;
    q->ncols = q->nvals = ncols;
    q->rows = cm_arena_alloc(b->arena, sizeof(ty_expr_t **) * (size_t)nrows);
    for (int r = 0; r < nrows; r++) {
        const sql_list_t *row = s->values->items[r];
        if (row->count != ncols) {
            const sql_expr_t *first = row->items[0];
            return pln__error(b, first->pos, CM_ERRCODE_SYNTAX_ERROR, "VALUES lists must all be the same length");
        }
        q->rows[r] = cm_arena_alloc(b->arena, sizeof(ty_expr_t *) * (size_t)ncols);
        for (int c = 0; c < ncols; c++)
            if (!(q->rows[r][c] = pln__bind_expr(b, row->items[c])))
                return false;
    }
    /* Each column's rows share one type, chosen as for UNION. */
    st->ncols = ncols;
    st->cols = cm_arena_zalloc(b->arena, sizeof(pln_column_t) * (size_t)ncols);
    ty_expr_t **col = cm_arena_alloc(b->arena, sizeof(ty_expr_t *) * (size_t)nrows);
    int *pos = cm_arena_alloc(b->arena, sizeof(int) * (size_t)nrows);
    for (int c = 0; c < ncols; c++) {
        for (int r = 0; r < nrows; r++) {
            col[r] = q->rows[r][c];
            pos[r] = ((const sql_expr_t *)((const sql_list_t *)s->values->items[r])->items[c])->pos;
        }
        ty_oid_t type;
        int32_t typmod;
        if (!pln__common_type(b, col, nrows, pos, "VALUES", &type, &typmod) ||
            !pln__coerce_all(b, col, nrows, type, typmod, "VALUES"))
            return false;
        for (int r = 0; r < nrows; r++)
            q->rows[r][c] = col[r];
        st->cols[c].name = cm_arena_printf(b->arena, "column%d", c + 1);
        st->cols[c].type = type;
        st->cols[c].typmod = typmod;
    }
    return true;
}

static bool bind_targets(pln_binder_t *b, const sql_select_t *s, struct pln_query *q, pln_stmt_t *st)
{
    int n = sql_list_len(s->targets);
    q->nrows = 1;
    q->ncols = q->nvals = n;
    q->rows = cm_arena_alloc(b->arena, sizeof(ty_expr_t **));
    q->rows[0] = cm_arena_alloc(b->arena, sizeof(ty_expr_t *) * (size_t)(n ? n : 1));
    st->ncols = n;
    st->cols = cm_arena_zalloc(b->arena, sizeof(pln_column_t) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        const sql_target_t *t = s->targets->items[i];
        ty_expr_t *e = pln__bind_expr(b, t->expr);
        if (!e || !(e = pln__resolve_unknown(b, e)))
            return false;
        q->rows[0][i] = e;
        st->cols[i].name = t->alias ? t->alias : pln__colname(t->expr);
        st->cols[i].type = e->type;
        st->cols[i].typmod = e->typmod;
    }
    if (s->where) {
        ty_expr_t *w = pln__bind_expr(b, s->where);
        if (!w || !(q->where = pln__coerce_bool(b, w, "WHERE")))
            return false;
    }
    return true;
}

/* Literal conversions, then every expression, in the order PostgreSQL's planner folds them. */
static bool fold_query(pln_binder_t *b, struct pln_query *q)
{
    if (!pln__fold_literals(b))
        return false;
    for (int r = 0; r < q->nrows; r++)
        for (int c = 0; c < q->nvals; c++)
            if (!(q->rows[r][c] = pln__fold(b, q->rows[r][c])))
                return false;
    if (q->where && !(q->where = pln__fold(b, q->where)))
        return false;
    if (q->offset && !(q->offset = pln__fold(b, q->offset)))
        return false;
    if (q->limit && !(q->limit = pln__fold(b, q->limit)))
        return false;
    return true;
}

static bool bind_query(pln_binder_t *b, const sql_select_t *s, pln_stmt_t *st)
{
    if (s->op != SQL_SETOP_NONE)
        return pln__error(b, s->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "%s is not supported yet",
                          s->op == SQL_SETOP_UNION ? "UNION" : s->op == SQL_SETOP_INTERSECT ? "INTERSECT" : "EXCEPT");
    if (s->from) {
        const sql_from_t *f = s->from->items[0];
        return pln__error(b, f->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "SELECT ... FROM is not supported yet");
    }
    if (s->group_by || s->having)
        return pln__error(b, s->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "GROUP BY and HAVING are not supported yet");
    if (s->distinct_on)
        return pln__error(b, s->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "SELECT DISTINCT ON is not supported yet");
    struct pln_query *q = cm_arena_zalloc(b->arena, sizeof(*q));
    q->distinct = s->distinct;
    if (!(s->values ? bind_values(b, s, q, st) : bind_targets(b, s, q, st)))
        return false;
    if (!bind_order(b, s, q, st))
        return false;
    if (s->limit && !(q->limit = bind_limit(b, s->limit, "LIMIT")))
        return false;
    if (s->offset && !(q->offset = bind_limit(b, s->offset, "OFFSET")))
        return false;
    if (!fold_query(b, q))
        return false;
    q->nlits = b->nlits;
    q->lits = b->lits;
    st->query = q;
    st->kind = PLN_QUERY;
    st->tag = "SELECT";
    for (int r = 0; r < q->nrows; r++)
        for (int c = 0; c < q->nvals; c++)
            st->blocking |= ty_expr_has_flag(q->rows[r][c], TY_FN_BLOCKING);
    return true;
}

/* ============================================================ commands */

static const char *lower_dup(pln_binder_t *b, const char *s)
{
    char *c = cm_arena_strdup(b->arena, s);
    cm_str_lower(c);
    return c;
}

/* SET's value as text: list items joined with ", ", as PostgreSQL flattens them. */
static const char *set_value(pln_binder_t *b, const sql_list_t *values)
{
    cm_buf_t v;
    cm_buf_init(&v, 0);
    for (int i = 0; i < sql_list_len(values); i++) {
        const sql_expr_t *e = values->items[i];
        if (i)
            cm_buf_put_str(&v, ", ");
        cm_buf_put(&v, e->str, e->len);
    }
    const char *s = cm_arena_strndup(b->arena, v.len ? (const char *)v.data : "", v.len);
    cm_buf_free(&v);
    return s;
}

static void bind_modes(pln_stmt_t *st, const sql_txn_modes_t *m)
{
    st->isolation = m->isolation;
    st->read_only = m->read_only == 1;
}

static bool bind_command(pln_binder_t *b, const sql_stmt_t *s, pln_stmt_t *st)
{
    static const char *const discard_tags[] = {"DISCARD ALL", "DISCARD PLANS", "DISCARD SEQUENCES", "DISCARD TEMP"};
    static const char *const discard_names[] = {"all", "plans", "sequences", "temp"};
    switch (s->kind) {
    case SQL_STMT_SET:
        st->kind = PLN_SET;
        st->tag = "SET";
        st->var_name = lower_dup(b, s->var_name);
        st->var_value = s->set_default ? NULL : set_value(b, s->var_values);
        st->set_local = s->set_local;
        return true;
    case SQL_STMT_SET_TRANSACTION:
        st->kind = PLN_SET_TRANSACTION;
        st->tag = "SET";
        st->var_name = s->session_chars ? "default_transaction_isolation" : "transaction_isolation";
        st->var_value = s->modes.isolation;
        bind_modes(st, &s->modes);
        return true;
    case SQL_STMT_SHOW:
        st->kind = PLN_SHOW;
        st->tag = "SHOW";
        st->var_name = lower_dup(b, s->var_name);
        if (strcmp(st->var_name, "all") == 0) {
            static const char *const names[] = {"name", "setting", "description"};
            st->ncols = 3;
            st->cols = cm_arena_zalloc(b->arena, sizeof(pln_column_t) * 3);
            for (int i = 0; i < 3; i++)
                st->cols[i] = (pln_column_t){names[i], TY_TEXT, -1};
        } else {
            st->ncols = 1;
            st->cols = cm_arena_zalloc(b->arena, sizeof(pln_column_t));
            st->cols[0] = (pln_column_t){st->var_name, TY_TEXT, -1};
        }
        return true;
    case SQL_STMT_RESET:
        st->kind = PLN_RESET;
        st->tag = "RESET";
        st->var_name = s->var_name ? lower_dup(b, s->var_name) : NULL;
        return true;
    case SQL_STMT_BEGIN:
        st->kind = PLN_BEGIN;
        st->tag = s->start_transaction ? "START TRANSACTION" : "BEGIN";
        bind_modes(st, &s->modes);
        return true;
    case SQL_STMT_COMMIT:
        st->kind = PLN_COMMIT;
        st->tag = "COMMIT";
        return true;
    case SQL_STMT_ROLLBACK:
        st->kind = PLN_ROLLBACK;
        st->tag = "ROLLBACK";
        return true;
    case SQL_STMT_DISCARD:
        st->kind = PLN_DISCARD;
        st->tag = discard_tags[s->discard];
        st->var_name = discard_names[s->discard];
        return true;
    case SQL_STMT_UNSUPPORTED:
        return pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "%s is not supported yet", s->unsupported);
    case SQL_STMT_EMPTY:
    case SQL_STMT_SELECT:
        break;
    }
    return pln__error(b, -1, CM_ERRCODE_INTERNAL_ERROR, "unexpected statement kind %d", (int)s->kind);
}

bool pln_bind(cm_arena_t *arena, const pln_raw_t *raw, const char *sql, const ty_oid_t *declared, int ndeclared,
              pln_stmt_t **out, cm_err_t *err)
{
    return pln_bind_session(arena, raw, sql, declared, ndeclared, NULL, out, err);
}

bool pln_bind_session(cm_arena_t *arena, const pln_raw_t *raw, const char *sql, const ty_oid_t *declared,
                      int ndeclared, const ty_settings_t *settings, pln_stmt_t **out, cm_err_t *err)
{
    pln_binder_t b = {.arena = arena, .sql = sql, .sql_len = sql ? strlen(sql) : 0, .err = err};
    if (settings) {
        b.settings = *settings;
        b.settings_known = true;
    } else {
        ty_settings_default(&b.settings);
    }
    b.ctx.arena = arena;
    b.ctx.settings = &b.settings;
    b.ctx.err = err;
    if (ndeclared > PLN_PARAMS_MAX)
        ndeclared = PLN_PARAMS_MAX;
    if (ndeclared > 0) {
        b.params_cap = ndeclared;
        b.nparams = ndeclared;
        b.param_types = cm_arena_zalloc(arena, sizeof(ty_oid_t) * (size_t)ndeclared);
        memcpy(b.param_types, declared, sizeof(ty_oid_t) * (size_t)ndeclared);
    }
    pln_stmt_t *st = cm_arena_zalloc(arena, sizeof(*st));
    *out = NULL;
    const sql_stmt_t *s = raw->stmt;
    bool ok;
    if (!s) {
        st->kind = PLN_EMPTY;
        st->tag = "";
        ok = true;
    } else if (s->kind == SQL_STMT_SELECT) {
        ok = bind_query(&b, s->select, st);
    } else {
        ok = bind_command(&b, s, st);
    }
    if (!ok)
        return false;
    /* Every parameter needs a type by now; references made before it was known take it. */
    for (int i = 0; i < b.nparams; i++) {
        if (b.param_types[i] == 0 || b.param_types[i] == TY_UNKNOWN) {
            int pos = -1;
            for (int k = 0; k < b.nparam_nodes; k++)
                if (b.param_nodes[k]->index == i) {
                    pos = b.param_nodes[k]->location;
                    break;
                }
            return pln__error(&b, pos, CM_ERRCODE_INDETERMINATE_DATATYPE,
                              "could not determine data type of parameter $%d", i + 1);
        }
    }
    for (int k = 0; k < b.nparam_nodes; k++)
        b.param_nodes[k]->type = b.param_types[b.param_nodes[k]->index];
    st->nparams = b.nparams;
    st->param_types = b.param_types;
    *out = st;
    return true;
}
