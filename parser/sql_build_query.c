/*
 * sql_build_query.c: builders for the query forms beyond the basic SELECT:
 * WITH [RECURSIVE] common table expressions, TABLE name, table functions
 * in FROM (with ORDINALITY, LATERAL), window functions and WINDOW clauses
 * with their frames, FETCH FIRST, OPERATOR(schema.op) and DEFAULT as a
 * value. The frame checks are PostgreSQL's grammar checks, with its
 * messages and positions (42P20).
 */
#include "parser/sql_int.h"

#include <string.h>

#define SQL_ERRCODE_WINDOWING_ERROR "42P20"

static sql_expr_t *new_expr(sql_pctx_t *ctx, sql_expr_kind_t kind, int pos)
{
    sql_expr_t *e = cm_arena_zalloc(ctx->arena, sizeof(*e));
    e->kind = kind;
    e->pos = pos;
    e->depth = 1;
    e->precision = -1;
    return e;
}

/* ============================================================= WITH */

sql_select_t *sql__with(sql_pctx_t *ctx, const sql_token_t *kw, bool recursive, sql_list_t *ctes)
{
    sql_select_t *w = cm_arena_zalloc(ctx->arena, sizeof(*w));
    w->pos = kw->pos;
    w->paren_pos = -1;
    w->with = ctes;
    w->with_recursive = recursive;
    return w;
}

sql_select_t *sql__select_with(sql_pctx_t *ctx, sql_select_t *s, sql_select_t *with)
{
    if (s->with) {
        /* (WITH a AS ... SELECT ...) under another WITH: PostgreSQL allows one per query level. */
        sql__error_at(ctx, with->pos, CM_ERRCODE_SYNTAX_ERROR, "multiple WITH clauses not allowed");
        return s;
    }
    s->with = with->with;
    s->with_recursive = with->with_recursive;
    s->with_pos = with->pos;
    return s;
}

sql_cte_t *sql__cte(sql_pctx_t *ctx, const sql_token_t *name, sql_list_t *cols, int materialized, sql_select_t *q)
{
    sql_cte_t *c = cm_arena_zalloc(ctx->arena, sizeof(*c));
    c->pos = name->pos;
    c->name = name->str;
    c->columns = cols;
    c->materialized = materialized;
    c->query = q;
    return c;
}

sql_cte_t *sql__cte_dml(sql_pctx_t *ctx, const sql_token_t *name, sql_list_t *cols, int materialized, sql_stmt_t *dml)
{
    sql_cte_t *c = sql__cte(ctx, name, cols, materialized, NULL);
    c->dml = dml;
    return c;
}

/* ========================================================== FROM */

/* TABLE name is SELECT * FROM name, as PostgreSQL's grammar expands it. */
sql_select_t *sql__table_select(sql_pctx_t *ctx, const sql_token_t *kw, sql_expr_t *name)
{
    sql_expr_t *star = sql__star(ctx, kw);
    sql_from_t *from = sql__from_relation(ctx, name, NULL);
    return sql__select(ctx, kw, NULL, sql__list1(ctx, sql__target(ctx, star, NULL)), sql__list1(ctx, from), NULL,
                       NULL, NULL);
}

sql_from_t *sql__func_table(sql_pctx_t *ctx, sql_expr_t *func, bool ordinality)
{
    sql_from_t *f = cm_arena_zalloc(ctx->arena, sizeof(*f));
    f->kind = SQL_FROM_FUNCTION;
    f->pos = func->pos;
    f->func = func;
    f->ordinality = ordinality;
    return f;
}

sql_from_t *sql__from_function(sql_pctx_t *ctx, sql_from_t *f, sql_from_t *alias, bool lateral)
{
    f->lateral = lateral;
    if (alias) {
        f->alias = alias->alias;
        f->col_aliases = alias->col_aliases;
    }
    return f;
}

/* FETCH FIRST ROW ONLY: a count of one, placed at FETCH. */
sql_expr_t *sql__int_one(sql_pctx_t *ctx, const sql_token_t *kw)
{
    sql_expr_t *e = new_expr(ctx, SQL_EXPR_CONST, kw->pos);
    e->const_kind = SQL_CONST_INTEGER;
    e->ival = 1;
    e->str = "1";
    e->len = 1;
    return e;
}

/* ======================================================== windows */

static sql_window_t *new_window(sql_pctx_t *ctx, int pos)
{
    sql_window_t *w = cm_arena_zalloc(ctx->arena, sizeof(*w));
    w->pos = pos;
    return w;
}

sql_window_t *sql__window_ref(sql_pctx_t *ctx, const sql_token_t *name)
{
    sql_window_t *w = new_window(ctx, name->pos);
    w->name = name->str;
    return w;
}

sql_window_t *sql__window_spec(sql_pctx_t *ctx, const sql_token_t *lp, const char *refname, sql_list_t *partition,
                               sql_list_t *order, sql_window_t *frame)
{
    sql_window_t *w = new_window(ctx, lp->pos);
    w->spec = true;
    w->refname = refname;
    w->partition_by = partition;
    w->order_by = order;
    if (frame) {
        w->frame_mode = frame->frame_mode;
        w->start = frame->start;
        w->end = frame->end;
        w->start_offset = frame->start_offset;
        w->end_offset = frame->end_offset;
        w->exclude = frame->exclude;
    }
    return w;
}

sql_window_t *sql__frame_bound(sql_pctx_t *ctx, int pos, sql_frame_bound_t kind, sql_expr_t *offset)
{
    sql_window_t *b = new_window(ctx, pos);
    b->start = kind;
    b->start_offset = offset;
    return b;
}

/* PostgreSQL's frame_extent checks: the same cases, messages and positions. */
sql_window_t *sql__frame_extent(sql_pctx_t *ctx, sql_window_t *start, sql_window_t *end)
{
    if (!end) {
        if (start->start == SQL_BOUND_UNBOUNDED_FOLLOWING)
            sql__error_at(ctx, start->pos, SQL_ERRCODE_WINDOWING_ERROR, "frame start cannot be UNBOUNDED FOLLOWING");
        else if (start->start == SQL_BOUND_FOLLOWING)
            sql__error_at(ctx, start->pos, SQL_ERRCODE_WINDOWING_ERROR,
                          "frame starting from following row cannot end with current row");
        return start;
    }
    sql_frame_bound_t s = start->start, e = end->start;
    if (s == SQL_BOUND_UNBOUNDED_FOLLOWING)
        sql__error_at(ctx, start->pos, SQL_ERRCODE_WINDOWING_ERROR, "frame start cannot be UNBOUNDED FOLLOWING");
    else if (e == SQL_BOUND_UNBOUNDED_PRECEDING)
        sql__error_at(ctx, end->pos, SQL_ERRCODE_WINDOWING_ERROR, "frame end cannot be UNBOUNDED PRECEDING");
    else if (s == SQL_BOUND_CURRENT_ROW && e == SQL_BOUND_PRECEDING)
        sql__error_at(ctx, end->pos, SQL_ERRCODE_WINDOWING_ERROR,
                      "frame starting from current row cannot have preceding rows");
    else if (s == SQL_BOUND_FOLLOWING && (e == SQL_BOUND_PRECEDING || e == SQL_BOUND_CURRENT_ROW))
        sql__error_at(ctx, end->pos, SQL_ERRCODE_WINDOWING_ERROR,
                      "frame starting from following row cannot have preceding rows");
    start->end = e;
    start->end_offset = end->start_offset;
    return start;
}

sql_window_t *sql__frame(sql_pctx_t *ctx, sql_frame_mode_t mode, sql_window_t *extent, int exclude)
{
    extent->frame_mode = mode;
    extent->exclude = (sql_frame_exclude_t)exclude;
    return extent;
}

sql_expr_t *sql__func_over(sql_pctx_t *ctx, sql_expr_t *f, sql_window_t *over)
{
    f->over = over;
    return f;
}

sql_expr_t *sql__within_group(sql_pctx_t *ctx, const sql_token_t *kw, sql_expr_t *f, sql_list_t *order)
{
    if (f->agg_order) {
        /* f(x ORDER BY y) WITHIN GROUP (...): PostgreSQL's message, at WITHIN. */
        sql__error_at(ctx, kw->pos, CM_ERRCODE_SYNTAX_ERROR, "cannot use multiple ORDER BY clauses with WITHIN GROUP");
        return f;
    }
    f->agg_order = order;
    f->within_group = true;
    return f;
}

/* ============================================== operators, DEFAULT */

sql_expr_t *sql__qual_op(sql_pctx_t *ctx, const sql_token_t *kw, sql_list_t *names, sql_expr_t *l, sql_expr_t *r)
{
    sql_expr_t *e = sql__op(ctx, kw, names->items[names->count - 1], l, r);
    e->names = names;
    return e;
}

sql_expr_t *sql__default(sql_pctx_t *ctx, const sql_token_t *kw)
{
    return new_expr(ctx, SQL_EXPR_DEFAULT, kw->pos);
}
