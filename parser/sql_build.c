/*
 * sql_build.c: the node builders that grammar actions call. Each allocates
 * in the statement arena and records the byte position PostgreSQL would
 * point an error at (the operator for binary expressions, the keyword for
 * IS/BETWEEN/IN tests, the first name for column references and calls).
 * Builders never fail; the only parse-time check here is nesting depth.
 */
#include "parser/sql_int.h"

#include <string.h>

/* =========================================================== lists */

sql_list_t *sql__list_new(sql_pctx_t *ctx)
{
    return cm_arena_zalloc(ctx->arena, sizeof(sql_list_t));
}

sql_list_t *sql__list_add(sql_pctx_t *ctx, sql_list_t *l, void *item)
{
    if (!l)
        l = sql__list_new(ctx);
    if (l->count == l->cap) {
        int cap = l->cap ? l->cap * 2 : 4;
        void **items = cm_arena_alloc(ctx->arena, sizeof(void *) * (size_t)cap);
        if (l->count)
            memcpy(items, l->items, sizeof(void *) * (size_t)l->count);
        l->items = items;
        l->cap = cap;
    }
    l->items[l->count++] = item;
    return l;
}

sql_list_t *sql__list1(sql_pctx_t *ctx, void *item)
{
    return sql__list_add(ctx, NULL, item);
}

sql_list_t *sql__list_prepend(sql_pctx_t *ctx, sql_list_t *l, void *item)
{
    l = sql__list_add(ctx, l, item);
    memmove(l->items + 1, l->items, sizeof(void *) * (size_t)(l->count - 1));
    l->items[0] = item;
    return l;
}

sql_list_t *sql__list4(sql_pctx_t *ctx, void *a, void *b, void *c, void *d)
{
    void *v[4] = {a, b, c, d};
    sql_list_t *l = sql__list_new(ctx);
    for (int i = 0; i < 4 && v[i]; i++)
        sql__list_add(ctx, l, v[i]);
    return l;
}

const char *sql__dotted(sql_pctx_t *ctx, const char *prefix, const char *name)
{
    return cm_arena_printf(ctx->arena, "%s.%s", prefix, name);
}

/* ====================================================== statements */

sql_stmt_t *sql__stmt_new(sql_pctx_t *ctx, sql_stmt_kind_t kind)
{
    sql_stmt_t *s = cm_arena_zalloc(ctx->arena, sizeof(*s));
    s->kind = kind;
    s->modes.read_only = -1;
    s->modes.deferrable = -1;
    return s;
}

/* Called when a statement is reduced, i.e. when its ';' or the end is the lookahead. */
void sql__stmt_add(sql_pctx_t *ctx, sql_stmt_t *s)
{
    s->pos = ctx->stmt_pos;
    s->len = ctx->cur_pos - ctx->stmt_pos;
    while (s->len > 0 && (ctx->text[s->pos + s->len - 1] == ' ' || ctx->text[s->pos + s->len - 1] == '\n' ||
                          ctx->text[s->pos + s->len - 1] == '\t' || ctx->text[s->pos + s->len - 1] == '\r'))
        s->len--;
    ctx->stmts = sql__list_add(ctx, ctx->stmts, s);
}

sql_stmt_t *sql__stmt_select(sql_pctx_t *ctx, sql_select_t *sel)
{
    sql_stmt_t *s = sql__stmt_new(ctx, SQL_STMT_SELECT);
    s->select = sel;
    return s;
}

sql_stmt_t *sql__stmt_unsupported(sql_pctx_t *ctx, const sql_token_t *t)
{
    sql_stmt_t *s = sql__stmt_new(ctx, SQL_STMT_UNSUPPORTED);
    s->unsupported = t->str;
    return s;
}

sql_stmt_t *sql__stmt_set(sql_pctx_t *ctx, const char *name, sql_list_t *values)
{
    sql_stmt_t *s = sql__stmt_new(ctx, SQL_STMT_SET);
    s->var_name = name;
    s->var_values = values;
    s->set_default = values == NULL;
    return s;
}

sql_stmt_t *sql__stmt_set_local(sql_pctx_t *ctx, sql_stmt_t *s)
{
    s->set_local = true;
    return s;
}

sql_stmt_t *sql__stmt_set_txn(sql_pctx_t *ctx, sql_txn_modes_t *m, bool session)
{
    sql_stmt_t *s = sql__stmt_new(ctx, SQL_STMT_SET_TRANSACTION);
    s->modes = *m;
    s->session_chars = session;
    return s;
}

sql_stmt_t *sql__stmt_show(sql_pctx_t *ctx, const char *name)
{
    sql_stmt_t *s = sql__stmt_new(ctx, SQL_STMT_SHOW);
    s->var_name = name;
    return s;
}

sql_stmt_t *sql__stmt_reset(sql_pctx_t *ctx, const char *name)
{
    sql_stmt_t *s = sql__stmt_new(ctx, SQL_STMT_RESET);
    s->var_name = name;
    return s;
}

sql_stmt_t *sql__stmt_txn(sql_pctx_t *ctx, sql_stmt_kind_t kind, sql_txn_modes_t *m, bool start)
{
    sql_stmt_t *s = sql__stmt_new(ctx, kind);
    s->modes = *m;
    s->start_transaction = start;
    return s;
}

sql_stmt_t *sql__stmt_txn_end(sql_pctx_t *ctx, sql_stmt_kind_t kind, int chain)
{
    sql_stmt_t *s = sql__stmt_new(ctx, kind);
    s->chain = chain != 0;
    return s;
}

sql_stmt_t *sql__stmt_discard(sql_pctx_t *ctx, sql_discard_t what)
{
    sql_stmt_t *s = sql__stmt_new(ctx, SQL_STMT_DISCARD);
    s->discard = what;
    return s;
}

sql_txn_modes_t *sql__txn_modes(sql_pctx_t *ctx)
{
    sql_txn_modes_t *m = cm_arena_zalloc(ctx->arena, sizeof(*m));
    m->read_only = -1;
    m->deferrable = -1;
    return m;
}

/* Items are coded by the grammar: 1..4 isolation levels, 10/11 read write/only, 20/21 deferrable. */
sql_txn_modes_t *sql__txn_modes_add(sql_pctx_t *ctx, sql_txn_modes_t *m, int item)
{
    static const char *const levels[] = {NULL, "read uncommitted", "read committed", "repeatable read",
                                         "serializable"};
    if (item >= 1 && item <= 4)
        m->isolation = levels[item];
    else if (item == 10 || item == 11)
        m->read_only = item - 10;
    else if (item == 20 || item == 21)
        m->deferrable = item - 20;
    return m;
}

/* ========================================================= queries */

static sql_select_t *sql__select_new(sql_pctx_t *ctx, int pos)
{
    sql_select_t *s = cm_arena_zalloc(ctx->arena, sizeof(*s));
    s->pos = pos;
    s->paren_pos = -1;
    return s;
}

sql_select_t *sql__select(sql_pctx_t *ctx, const sql_token_t *kw, sql_list_t *distinct, sql_list_t *targets,
                          sql_list_t *from, sql_expr_t *where, sql_list_t *group, sql_expr_t *having)
{
    sql_select_t *s = sql__select_new(ctx, kw->pos);
    if (distinct) {
        s->distinct = true;
        s->distinct_on = distinct->count ? distinct : NULL;
    }
    s->targets = targets ? targets : sql__list_new(ctx);
    s->from = from;
    s->where = where;
    s->group_by = group;
    s->having = having;
    return s;
}

sql_select_t *sql__values(sql_pctx_t *ctx, const sql_token_t *kw, sql_list_t *row)
{
    sql_select_t *s = sql__select_new(ctx, kw->pos);
    s->values = sql__list1(ctx, row);
    return s;
}

sql_select_t *sql__values_add(sql_pctx_t *ctx, sql_select_t *v, sql_list_t *row)
{
    sql__list_add(ctx, v->values, row);
    return v;
}

sql_select_t *sql__setop(sql_pctx_t *ctx, sql_setop_t op, int all, sql_select_t *l, sql_select_t *r)
{
    sql_select_t *s = sql__select_new(ctx, l->pos);
    s->op = op;
    s->set_all = all != 0;
    s->larg = l;
    s->rarg = r;
    return s;
}

sql_select_t *sql__limit(sql_pctx_t *ctx, sql_expr_t *limit, sql_expr_t *offset)
{
    sql_select_t *s = sql__select_new(ctx, -1);
    s->limit = limit;
    s->offset = offset;
    return s;
}

sql_select_t *sql__limit_merge(sql_pctx_t *ctx, sql_select_t *l, sql_select_t *o)
{
    l->offset = o->offset;
    return l;
}

sql_select_t *sql__limit_comma(sql_pctx_t *ctx, const sql_token_t *kw)
{
    sql__error_at(ctx, kw->pos, CM_ERRCODE_SYNTAX_ERROR, "LIMIT #,# syntax is not supported");
    cm_err_set_hint(ctx->err, "Use separate LIMIT and OFFSET clauses.");
    return sql__limit(ctx, NULL, NULL);
}

/* ORDER BY / LIMIT may be given once per query level, as in PostgreSQL. */
sql_select_t *sql__select_options(sql_pctx_t *ctx, sql_select_t *s, sql_list_t *order, sql_select_t *limit)
{
    if (order) {
        if (s->order_by) {
            sql_expr_t *e = ((sql_sort_t *)order->items[0])->expr;
            sql__error_at(ctx, e->pos, CM_ERRCODE_SYNTAX_ERROR, "multiple ORDER BY clauses not allowed");
        }
        s->order_by = order;
    }
    if (limit) {
        if ((s->limit || s->offset) && (limit->limit || limit->offset)) {
            sql_expr_t *e = limit->limit ? limit->limit : limit->offset;
            sql__error_at(ctx, e->pos, CM_ERRCODE_SYNTAX_ERROR,
                          limit->limit ? "multiple LIMIT clauses not allowed" : "multiple OFFSET clauses not allowed");
        }
        s->limit = limit->limit;
        s->offset = limit->offset;
    }
    return s;
}

sql_target_t *sql__target(sql_pctx_t *ctx, sql_expr_t *e, const char *alias)
{
    sql_target_t *t = cm_arena_zalloc(ctx->arena, sizeof(*t));
    t->expr = e;
    t->pos = e->pos;
    t->alias = alias;
    return t;
}

sql_sort_t *sql__sortby(sql_pctx_t *ctx, sql_expr_t *e, int dir, int nulls)
{
    sql_sort_t *s = cm_arena_zalloc(ctx->arena, sizeof(*s));
    s->expr = e;
    s->dir = (sql_sort_dir_t)dir;
    s->nulls = (sql_sort_nulls_t)nulls;
    return s;
}

static sql_from_t *sql__from_new(sql_pctx_t *ctx, sql_from_kind_t kind, int pos)
{
    sql_from_t *f = cm_arena_zalloc(ctx->arena, sizeof(*f));
    f->kind = kind;
    f->pos = pos;
    return f;
}

sql_from_t *sql__from_relation(sql_pctx_t *ctx, sql_expr_t *name, sql_from_t *alias)
{
    sql_from_t *f = sql__from_new(ctx, SQL_FROM_RELATION, name->pos);
    f->names = name->names;
    if (name->star)
        sql__error_at(ctx, name->pos, CM_ERRCODE_SYNTAX_ERROR, "improper qualified name (too many dotted names): %s",
                      (const char *)name->names->items[0]);
    if (alias) {
        f->alias = alias->alias;
        f->col_aliases = alias->col_aliases;
    }
    return f;
}

sql_from_t *sql__from_subquery(sql_pctx_t *ctx, sql_select_t *s, sql_from_t *alias)
{
    sql_from_t *f = sql__from_new(ctx, SQL_FROM_SUBQUERY, s->paren_pos >= 0 ? s->paren_pos : s->pos);
    f->select = s;
    if (alias) {
        f->alias = alias->alias;
        f->col_aliases = alias->col_aliases;
    }
    return f;
}

sql_from_t *sql__from_join(sql_pctx_t *ctx, sql_join_kind_t kind, bool natural, sql_from_t *l, sql_from_t *r,
                           sql_from_t *qual)
{
    sql_from_t *f = sql__from_new(ctx, SQL_FROM_JOIN, l->pos);
    f->join = kind;
    f->natural = natural;
    f->larg = l;
    f->rarg = r;
    if (qual) {
        f->on = qual->on;
        f->using_cols = qual->using_cols;
    }
    return f;
}

sql_from_t *sql__from_join_alias(sql_pctx_t *ctx, sql_from_t *join, sql_from_t *alias)
{
    join->alias = alias->alias;
    join->col_aliases = alias->col_aliases;
    return join;
}

sql_from_t *sql__join_using(sql_pctx_t *ctx, sql_list_t *cols)
{
    sql_from_t *f = sql__from_new(ctx, SQL_FROM_JOIN, -1);
    f->using_cols = cols;
    return f;
}

sql_from_t *sql__join_on(sql_pctx_t *ctx, sql_expr_t *e)
{
    sql_from_t *f = sql__from_new(ctx, SQL_FROM_JOIN, -1);
    f->on = e;
    return f;
}

sql_from_t *sql__alias(sql_pctx_t *ctx, const char *name, sql_list_t *cols)
{
    sql_from_t *f = sql__from_new(ctx, SQL_FROM_RELATION, -1);
    f->alias = name;
    f->col_aliases = cols;
    return f;
}

/* ===================================================== expressions */

static sql_expr_t *sql__expr(sql_pctx_t *ctx, sql_expr_kind_t kind, int pos)
{
    sql_expr_t *e = cm_arena_zalloc(ctx->arena, sizeof(*e));
    e->kind = kind;
    e->pos = pos;
    e->depth = 1;
    e->precision = -1;
    return e;
}

/* Records a child's depth; deeper trees than SQL_EXPR_DEPTH_MAX fail as PostgreSQL's stack check does. */
static void sql__child(sql_pctx_t *ctx, sql_expr_t *parent, const sql_expr_t *child)
{
    if (!child || child->depth < parent->depth)
        return;
    parent->depth = child->depth + 1;
    if (parent->depth > SQL_EXPR_DEPTH_MAX && !ctx->failed) {
        sql__error_at(ctx, parent->pos >= 0 ? parent->pos : 0, CM_ERRCODE_STATEMENT_TOO_COMPLEX,
                      "stack depth limit exceeded");
        cm_err_set_hint(ctx->err, "The expression nests more than %d levels deep.", SQL_EXPR_DEPTH_MAX);
        ctx->err->position = 0;
    }
}

static void sql__children(sql_pctx_t *ctx, sql_expr_t *parent, const sql_list_t *l)
{
    for (int i = 0; i < sql_list_len(l); i++)
        sql__child(ctx, parent, l->items[i]);
}

sql_expr_t *sql__const_number(sql_pctx_t *ctx, const sql_token_t *t)
{
    sql_expr_t *e = sql__expr(ctx, SQL_EXPR_CONST, t->pos);
    e->const_kind = t->type == SQL_TOK_ICONST ? SQL_CONST_INTEGER : SQL_CONST_NUMERIC;
    e->ival = t->ival;
    e->str = t->str;
    e->len = t->slen;
    return e;
}

sql_expr_t *sql__const_string(sql_pctx_t *ctx, const sql_token_t *t)
{
    sql_expr_t *e = sql__expr(ctx, SQL_EXPR_CONST, t->pos);
    e->const_kind = SQL_CONST_STRING;
    e->str = t->str;
    e->len = t->slen;
    return e;
}

/* A word used as a value (SET x TO on, extract(year ...)): a string constant. */
sql_expr_t *sql__const_word(sql_pctx_t *ctx, const sql_token_t *t, const char *word)
{
    sql_expr_t *e = sql__const_string(ctx, t);
    if (word) {
        e->str = word;
        e->len = strlen(word);
    }
    return e;
}

sql_expr_t *sql__const_bits(sql_pctx_t *ctx, const sql_token_t *t)
{
    sql_expr_t *e = sql__const_string(ctx, t);
    e->const_kind = SQL_CONST_BITSTRING;
    return e;
}

sql_expr_t *sql__const_bool(sql_pctx_t *ctx, const sql_token_t *t, bool v)
{
    sql_expr_t *e = sql__expr(ctx, SQL_EXPR_CONST, t->pos);
    e->const_kind = SQL_CONST_BOOL;
    e->boolval = v;
    return e;
}

sql_expr_t *sql__const_null(sql_pctx_t *ctx, const sql_token_t *t)
{
    sql_expr_t *e = sql__expr(ctx, SQL_EXPR_CONST, t->pos);
    e->const_kind = SQL_CONST_NULL;
    return e;
}

/* type 'literal': a cast whose error position is the literal's, as PostgreSQL reports it. */
sql_expr_t *sql__typed_literal(sql_pctx_t *ctx, sql_typename_t *type, const sql_token_t *t)
{
    sql_expr_t *e = sql__expr(ctx, SQL_EXPR_CAST, type->pos);
    e->arg = sql__const_string(ctx, t);
    e->type = type;
    e->cast_form = SQL_CAST_LITERAL;
    sql__child(ctx, e, e->arg);
    return e;
}

sql_expr_t *sql__param(sql_pctx_t *ctx, const sql_token_t *t)
{
    sql_expr_t *e = sql__expr(ctx, SQL_EXPR_PARAM, t->pos);
    e->ival = t->ival;
    return e;
}

sql_expr_t *sql__column(sql_pctx_t *ctx, const sql_token_t *first, sql_list_t *rest)
{
    sql_expr_t *e = sql__expr(ctx, SQL_EXPR_COLUMN, first->pos);
    e->names = sql__list_prepend(ctx, rest, (void *)first->str);
    const char *last = e->names->items[e->names->count - 1];
    e->star = strcmp(last, "*") == 0;
    return e;
}

sql_expr_t *sql__star(sql_pctx_t *ctx, const sql_token_t *t)
{
    return sql__expr(ctx, SQL_EXPR_STAR, t->pos);
}

sql_expr_t *sql__paren(sql_pctx_t *ctx, const sql_token_t *t, sql_expr_t *e)
{
    return e;   /* parentheses leave no node, as in PostgreSQL's raw trees */
}

sql_expr_t *sql__op(sql_pctx_t *ctx, const sql_token_t *t, const char *name, sql_expr_t *l, sql_expr_t *r)
{
    sql_expr_t *e = sql__expr(ctx, SQL_EXPR_OP, t->pos);
    e->str = name ? name : t->str;
    e->left = l;
    e->right = r;
    sql__child(ctx, e, l);
    sql__child(ctx, e, r);
    return e;
}

/* Unary minus on a number folds into the constant (so -2147483648 is an int4). */
sql_expr_t *sql__negate(sql_pctx_t *ctx, const sql_token_t *t, sql_expr_t *e)
{
    if (e->kind == SQL_EXPR_CONST && (e->const_kind == SQL_CONST_INTEGER || e->const_kind == SQL_CONST_NUMERIC)) {
        e->pos = t->pos;
        if (e->str[0] == '-') {
            e->str++;
            e->len--;
        } else {
            e->str = cm_arena_printf(ctx->arena, "-%s", e->str);
            e->len++;
        }
        e->ival = -e->ival;
        return e;
    }
    return sql__op(ctx, t, "-", NULL, e);
}

sql_expr_t *sql__bool(sql_pctx_t *ctx, const sql_token_t *t, sql_expr_kind_t kind, sql_expr_t *l, sql_expr_t *r)
{
    /* a AND b AND c flattens into one node, as PostgreSQL's makeAndExpr does. */
    if (kind != SQL_EXPR_NOT && l->kind == kind) {
        sql__list_add(ctx, l->args, r);
        sql__child(ctx, l, r);
        return l;
    }
    sql_expr_t *e = sql__expr(ctx, kind, t->pos);
    if (kind == SQL_EXPR_NOT) {
        e->arg = l;
        sql__child(ctx, e, l);
    } else {
        e->args = sql__list_add(ctx, sql__list1(ctx, l), r);
        sql__children(ctx, e, e->args);
    }
    return e;
}

sql_expr_t *sql__like(sql_pctx_t *ctx, const sql_token_t *t, sql_like_kind_t kind, bool negated, sql_expr_t *l,
                      sql_expr_t *r, sql_expr_t *escape)
{
    sql_expr_t *e = sql__expr(ctx, SQL_EXPR_LIKE, t->pos);
    e->like_kind = kind;
    e->negated = negated;
    e->left = l;
    e->right = r;
    e->def = escape;
    sql__child(ctx, e, l);
    sql__child(ctx, e, r);
    sql__child(ctx, e, escape);
    return e;
}

sql_expr_t *sql__null_test(sql_pctx_t *ctx, const sql_token_t *t, sql_expr_t *arg, bool negated)
{
    sql_expr_t *e = sql__expr(ctx, SQL_EXPR_NULL_TEST, t->pos);
    e->arg = arg;
    e->negated = negated;
    sql__child(ctx, e, arg);
    return e;
}

sql_expr_t *sql__bool_test(sql_pctx_t *ctx, const sql_token_t *t, sql_expr_t *arg, sql_bool_test_t which,
                           bool negated)
{
    sql_expr_t *e = sql__expr(ctx, SQL_EXPR_BOOL_TEST, t->pos);
    e->arg = arg;
    e->bool_test = which;
    e->negated = negated;
    sql__child(ctx, e, arg);
    return e;
}

sql_expr_t *sql__distinct(sql_pctx_t *ctx, const sql_token_t *t, sql_expr_t *l, sql_expr_t *r, bool negated)
{
    sql_expr_t *e = sql__expr(ctx, SQL_EXPR_DISTINCT, t->pos);
    e->left = l;
    e->right = r;
    e->negated = negated;
    sql__child(ctx, e, l);
    sql__child(ctx, e, r);
    return e;
}

sql_expr_t *sql__between(sql_pctx_t *ctx, const sql_token_t *t, sql_expr_t *arg, sql_expr_t *lo, sql_expr_t *hi,
                         bool negated, bool symmetric)
{
    sql_expr_t *e = sql__expr(ctx, SQL_EXPR_BETWEEN, t->pos);
    e->arg = arg;
    e->args = sql__list_add(ctx, sql__list1(ctx, lo), hi);
    e->negated = negated;
    e->symmetric = symmetric;
    sql__child(ctx, e, arg);
    sql__children(ctx, e, e->args);
    return e;
}

sql_expr_t *sql__in_list(sql_pctx_t *ctx, const sql_token_t *t, sql_expr_t *arg, sql_list_t *l, bool negated)
{
    sql_expr_t *e = sql__expr(ctx, SQL_EXPR_IN, t->pos);
    e->arg = arg;
    e->args = l;
    e->negated = negated;
    sql__child(ctx, e, arg);
    sql__children(ctx, e, l);
    return e;
}

sql_expr_t *sql__in_select(sql_pctx_t *ctx, const sql_token_t *t, sql_expr_t *arg, sql_select_t *s, bool negated)
{
    sql_expr_t *e = sql__expr(ctx, SQL_EXPR_SUBQUERY, t->pos);
    e->sublink = SQL_SUBLINK_IN;
    e->arg = arg;
    e->select = s;
    e->negated = negated;
    sql__child(ctx, e, arg);
    return e;
}

sql_expr_t *sql__sublink(sql_pctx_t *ctx, const sql_token_t *t, sql_sublink_t kind, sql_select_t *s)
{
    sql_expr_t *e = sql__expr(ctx, SQL_EXPR_SUBQUERY, t ? t->pos : s->paren_pos >= 0 ? s->paren_pos : s->pos);
    e->sublink = kind;
    e->select = s;
    return e;
}

sql_expr_t *sql__array(sql_pctx_t *ctx, const sql_token_t *t, sql_list_t *l)
{
    sql_expr_t *e = sql__expr(ctx, SQL_EXPR_ARRAY, t->pos);
    e->args = l ? l : sql__list_new(ctx);
    sql__children(ctx, e, l);
    return e;
}

sql_expr_t *sql__subscript(sql_pctx_t *ctx, const sql_token_t *t, sql_expr_t *arg, sql_expr_t *lo, sql_expr_t *hi,
                           bool slice)
{
    sql_expr_t *e = sql__expr(ctx, SQL_EXPR_SUBSCRIPT, t->pos);
    e->arg = arg;
    e->left = lo;
    e->right = hi;
    e->slice = slice;
    sql__child(ctx, e, arg);
    sql__child(ctx, e, lo);
    sql__child(ctx, e, hi);
    return e;
}

/* PostgreSQL's exprLocation: the leftmost token of e ('a' of 'a'::text, not the ::). */
static int sql__leftmost(const sql_expr_t *e)
{
    int pos = e->pos;
    const sql_expr_t *first = e->kind == SQL_EXPR_OP ? e->left
                              : e->kind == SQL_EXPR_CAST || e->kind == SQL_EXPR_COLLATE ||
                                        e->kind == SQL_EXPR_SUBSCRIPT || e->kind == SQL_EXPR_FIELD
                                  ? e->arg
                                  : NULL;
    if (first) {
        int p = sql__leftmost(first);
        if (p < pos)
            pos = p;
    }
    return pos;
}

sql_expr_t *sql__field(sql_pctx_t *ctx, const sql_token_t *t, sql_expr_t *arg, sql_list_t *names)
{
    sql_expr_t *e = arg;
    int pos = sql__leftmost(arg);   /* PostgreSQL points at the value */
    for (int i = 0; i < names->count; i++) {
        sql_expr_t *f = sql__expr(ctx, SQL_EXPR_FIELD, pos);
        f->arg = e;
        f->str = names->items[i];
        sql__child(ctx, f, e);
        e = f;
    }
    return e;
}

sql_expr_t *sql__array_cmp(sql_pctx_t *ctx, const sql_token_t *op, int quantifier, sql_expr_t *l, sql_expr_t *r)
{
    sql_expr_t *e = sql__expr(ctx, SQL_EXPR_ARRAY_CMP, op->pos);
    e->str = op->str;
    e->sublink = (sql_sublink_t)quantifier;
    e->left = l;
    e->right = r;
    sql__child(ctx, e, l);
    sql__child(ctx, e, r);
    return e;
}

sql_expr_t *sql__quantified_select(sql_pctx_t *ctx, const sql_token_t *op, int quantifier, sql_expr_t *l,
                                   sql_select_t *s)
{
    sql_expr_t *e = sql__expr(ctx, SQL_EXPR_SUBQUERY, op->pos);
    e->sublink = (sql_sublink_t)quantifier;
    e->str = op->str;
    e->arg = l;
    e->select = s;
    sql__child(ctx, e, l);
    return e;
}

sql_expr_t *sql__row(sql_pctx_t *ctx, const sql_token_t *t, sql_list_t *l)
{
    sql_expr_t *e = sql__expr(ctx, SQL_EXPR_ROW, t->pos);
    e->args = l ? l : sql__list_new(ctx);
    sql__children(ctx, e, l);
    return e;
}

sql_expr_t *sql__case(sql_pctx_t *ctx, const sql_token_t *t, sql_expr_t *arg, sql_list_t *whens, sql_expr_t *def)
{
    sql_expr_t *e = sql__expr(ctx, SQL_EXPR_CASE, t->pos);
    e->arg = arg;
    e->args = whens;
    e->def = def;
    sql__child(ctx, e, arg);
    sql__children(ctx, e, whens);
    sql__child(ctx, e, def);
    return e;
}

sql_expr_t *sql__func(sql_pctx_t *ctx, sql_expr_t *name, sql_list_t *args, bool star, bool distinct,
                      sql_list_t *order)
{
    sql_expr_t *e = name;
    e->kind = SQL_EXPR_FUNC;
    e->star = star;
    e->distinct = distinct;
    e->args = args ? args : sql__list_new(ctx);
    e->syntax = SQL_FUNC_PLAIN;
    e->agg_order = order;
    sql__children(ctx, e, args);
    for (int i = 0; i < sql_list_len(order); i++)
        sql__child(ctx, e, ((sql_sort_t *)order->items[i])->expr);
    return e;
}

sql_expr_t *sql__func_filter(sql_pctx_t *ctx, sql_expr_t *f, sql_expr_t *filter)
{
    f->agg_filter = filter;
    sql__child(ctx, f, filter);
    return f;
}

sql_expr_t *sql__named_arg(sql_pctx_t *ctx, const sql_token_t *name, sql_expr_t *value)
{
    sql_expr_t *e = sql__expr(ctx, SQL_EXPR_NAMED_ARG, name->pos);
    e->str = name->str;
    e->arg = value;
    sql__child(ctx, e, value);
    return e;
}

sql_expr_t *sql__overlaps(sql_pctx_t *ctx, const sql_token_t *t, sql_expr_t *l, sql_expr_t *r)
{
    if (sql_list_len(l->args) != 2) {
        sql__error_at(ctx, l->pos, CM_ERRCODE_SYNTAX_ERROR, "wrong number of parameters on left side of OVERLAPS expression");
        return l;
    }
    if (sql_list_len(r->args) != 2) {
        sql__error_at(ctx, r->pos, CM_ERRCODE_SYNTAX_ERROR,
                      "wrong number of parameters on right side of OVERLAPS expression");
        return l;
    }
    sql_list_t *args = sql__list4(ctx, l->args->items[0], l->args->items[1], r->args->items[0], r->args->items[1]);
    return sql__func_sql(ctx, t, "overlaps", SQL_FUNC_OVERLAPS, args);
}

sql_expr_t *sql__func_sql(sql_pctx_t *ctx, const sql_token_t *t, const char *name, sql_func_syntax_t syntax,
                          sql_list_t *args)
{
    sql_expr_t *e = sql__expr(ctx, SQL_EXPR_FUNC, t->pos);
    e->names = sql__list1(ctx, (void *)name);
    e->syntax = syntax;
    e->args = args ? args : sql__list_new(ctx);
    sql__children(ctx, e, args);
    return e;
}

/* substring(x FOR n) means substring(x FROM 1 FOR n). */
sql_expr_t *sql__substring_for(sql_pctx_t *ctx, const sql_token_t *t, sql_expr_t *x, sql_expr_t *count)
{
    sql_expr_t *one = sql__expr(ctx, SQL_EXPR_CONST, -1);
    one->const_kind = SQL_CONST_INTEGER;
    one->ival = 1;
    one->str = "1";
    one->len = 1;
    return sql__func_sql(ctx, t, "substring", SQL_FUNC_SUBSTRING, sql__list4(ctx, x, one, count, NULL));
}

sql_expr_t *sql__varargs(sql_pctx_t *ctx, const sql_token_t *t, sql_expr_kind_t kind, sql_list_t *args)
{
    sql_expr_t *e = sql__expr(ctx, kind, t->pos);
    e->args = args;
    sql__children(ctx, e, args);
    return e;
}

sql_expr_t *sql__svf(sql_pctx_t *ctx, const sql_token_t *t, sql_svf_t svf, int precision)
{
    sql_expr_t *e = sql__expr(ctx, SQL_EXPR_SQLVALUE, t->pos);
    e->svf = svf;
    e->precision = precision;
    return e;
}

sql_expr_t *sql__cast(sql_pctx_t *ctx, const sql_token_t *t, sql_expr_t *arg, sql_typename_t *type,
                      sql_cast_form_t form)
{
    sql_expr_t *e = sql__expr(ctx, SQL_EXPR_CAST, t->pos);
    e->arg = arg;
    e->type = type;
    e->cast_form = form;
    sql__child(ctx, e, arg);
    return e;
}

sql_expr_t *sql__collate(sql_pctx_t *ctx, const sql_token_t *t, sql_expr_t *arg, sql_list_t *names)
{
    sql_expr_t *e = sql__expr(ctx, SQL_EXPR_COLLATE, t->pos);
    e->arg = arg;
    e->names = names;
    sql__child(ctx, e, arg);
    return e;
}

/* x AT TIME ZONE z is timezone(z, x), positioned at AT. */
sql_expr_t *sql__at_time_zone(sql_pctx_t *ctx, const sql_token_t *t, sql_expr_t *x, sql_expr_t *zone)
{
    return sql__func_sql(ctx, t, "timezone", SQL_FUNC_AT_TIME_ZONE, sql__list_add(ctx, sql__list1(ctx, zone), x));
}

/* ====================================================== type names */

static sql_typename_t *sql__typename_new(sql_pctx_t *ctx, int pos)
{
    sql_typename_t *t = cm_arena_zalloc(ctx->arena, sizeof(*t));
    t->pos = pos;
    t->interval_precision = -1;
    return t;
}

sql_typename_t *sql__typename_generic(sql_pctx_t *ctx, int pos, sql_list_t *names, sql_list_t *mods)
{
    sql_typename_t *t = sql__typename_new(ctx, pos);
    t->names = names;
    t->typmods = mods;
    return t;
}

sql_typename_t *sql__typename_sys(sql_pctx_t *ctx, const sql_token_t *kw, const char *name, sql_list_t *mods)
{
    sql_typename_t *t = sql__typename_new(ctx, kw->pos);
    t->names = sql__list1(ctx, (void *)name);
    t->typmods = mods;
    t->system = true;
    return t;
}

static sql_expr_t *sql__int_const(sql_pctx_t *ctx, int pos, int64_t v)
{
    sql_expr_t *e = sql__expr(ctx, SQL_EXPR_CONST, pos);
    e->const_kind = SQL_CONST_INTEGER;
    e->ival = v;
    e->str = cm_arena_printf(ctx->arena, "%lld", (long long)v);
    e->len = strlen(e->str);
    return e;
}

/* FLOAT(p): PostgreSQL picks float4 up to 24 bits of precision and float8 up to 53. */
sql_typename_t *sql__typename_float(sql_pctx_t *ctx, const sql_token_t *kw, const sql_token_t *prec)
{
    if (prec->ival < 1)
        sql__error_at(ctx, prec->pos, CM_ERRCODE_INVALID_PARAMETER_VALUE, "precision for type float must be at least 1 bit");
    else if (prec->ival > 53)
        sql__error_at(ctx, prec->pos, CM_ERRCODE_INVALID_PARAMETER_VALUE, "precision for type float must be less than 54 bits");
    return sql__typename_sys(ctx, kw, prec->ival <= 24 ? "float4" : "float8", NULL);
}

sql_typename_t *sql__typename_char(sql_pctx_t *ctx, sql_typename_t *t, const sql_token_t *len)
{
    t->typmods = sql__list1(ctx, sql__int_const(ctx, len->pos, len->ival));
    return t;
}

/* CHAR without a length means CHAR(1) in a column or cast, but not in a typed literal; the type
 * named bpchar (an identifier, not the keyword) has no length limit, as in PostgreSQL. */
sql_typename_t *sql__typename_char_default(sql_pctx_t *ctx, sql_typename_t *t)
{
    if (!t->typmods && t->system && strcmp(t->names->items[0], "bpchar") == 0)
        t->typmods = sql__list1(ctx, sql__int_const(ctx, -1, 1));
    return t;
}

sql_typename_t *sql__typename_datetime(sql_pctx_t *ctx, const sql_token_t *kw, const char *name,
                                       const sql_token_t *prec)
{
    sql_typename_t *t = sql__typename_sys(ctx, kw, name, NULL);
    if (prec)
        t->typmods = sql__list1(ctx, sql__int_const(ctx, prec->pos, prec->ival));
    return t;
}

int sql__interval_prec(int64_t p)
{
    /* Anything above 6 means 6 to PostgreSQL (with a warning); cap it so the shift cannot overflow. */
    return (int)((p > 1000 ? 1000 : p) + 1) << SQL_INTERVAL_PREC_SHIFT;
}

sql_typename_t *sql__typename_interval(sql_pctx_t *ctx, const sql_token_t *kw, int fields, int precision)
{
    sql_typename_t *t = sql__typename_sys(ctx, kw, "interval", NULL);
    t->interval_fields = fields & ((1 << SQL_INTERVAL_PREC_SHIFT) - 1);
    t->interval_precision = (fields >> SQL_INTERVAL_PREC_SHIFT) ? (fields >> SQL_INTERVAL_PREC_SHIFT) - 1 : precision;
    return t;
}

sql_typename_t *sql__typename_array(sql_pctx_t *ctx, sql_typename_t *t, int bounds)
{
    t->array_bounds = bounds;
    return t;
}
