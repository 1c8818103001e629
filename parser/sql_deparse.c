/*
 * sql_deparse.c: AST -> canonical SQL text. Every compound expression is
 * parenthesised, keywords are upper case and identifiers are quoted only
 * where PostgreSQL's quote_identifier would quote them, so the output both
 * shows the tree's structure (the parser golden files rely on it) and parses
 * back to the same tree (view definitions will be stored this way).
 */
#include "parser/sql_int.h"

#include <string.h>

static void dp_expr(const sql_expr_t *e, cm_buf_t *out);

void sql_deparse_ident(const char *name, cm_buf_t *out)
{
    bool safe = name[0] != '\0' && ((name[0] >= 'a' && name[0] <= 'z') || name[0] == '_');
    for (const char *p = name; safe && *p; p++)
        safe = (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_';
    sql_kw_category_t cat;
    if (safe && sql_keyword_lookup(name, strlen(name), &cat) && cat != SQL_KW_UNRESERVED)
        safe = false;
    if (safe) {
        cm_buf_put_str(out, name);
        return;
    }
    cm_buf_put_u8(out, '"');
    for (const char *p = name; *p; p++) {
        if (*p == '"')
            cm_buf_put_u8(out, '"');
        cm_buf_put_u8(out, (uint8_t)*p);
    }
    cm_buf_put_u8(out, '"');
}

static void dp_names(const sql_list_t *names, cm_buf_t *out)
{
    for (int i = 0; i < sql_list_len(names); i++) {
        const char *n = names->items[i];
        if (i)
            cm_buf_put_u8(out, '.');
        if (strcmp(n, "*") == 0)
            cm_buf_put_u8(out, '*');
        else
            sql_deparse_ident(n, out);
    }
}

static void dp_string(const char *s, size_t len, cm_buf_t *out)
{
    cm_buf_put_u8(out, '\'');
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '\'')
            cm_buf_put_u8(out, '\'');
        cm_buf_put_u8(out, (uint8_t)s[i]);
    }
    cm_buf_put_u8(out, '\'');
}

static void dp_list(const sql_list_t *l, cm_buf_t *out)
{
    for (int i = 0; i < sql_list_len(l); i++) {
        if (i)
            cm_buf_put_str(out, ", ");
        dp_expr(l->items[i], out);
    }
}

void sql_deparse_typename(const sql_typename_t *t, cm_buf_t *out)
{
    if (!t->names)
        ;   /* only the interval fields are wanted */
    else if (t->system)
        cm_buf_put_str(out, (const char *)t->names->items[0]);   /* internal names need no quoting */
    else
        dp_names(t->names, out);
    /* INTERVAL(p) without fields; with fields, p belongs to SECOND(p), the only place the grammar takes it. */
    if (t->interval_precision >= 0 && !t->interval_fields && t->names)
        cm_buf_printf(out, "(%d)", t->interval_precision);
    if (t->interval_fields) {
        static const struct { int bit; const char *name; } f[] = {
            {SQL_INTERVAL_YEAR, "YEAR"}, {SQL_INTERVAL_MONTH, "MONTH"}, {SQL_INTERVAL_DAY, "DAY"},
            {SQL_INTERVAL_HOUR, "HOUR"}, {SQL_INTERVAL_MINUTE, "MINUTE"}, {SQL_INTERVAL_SECOND, "SECOND"},
        };
        int first = -1, last = -1;
        for (int i = 0; i < (int)CM_ARRAY_LEN(f); i++)
            if (t->interval_fields & f[i].bit) {
                if (first < 0)
                    first = i;
                last = i;
            }
        cm_buf_printf(out, " %s", f[first].name);
        if (last != first)
            cm_buf_printf(out, " TO %s", f[last].name);
        if (t->interval_precision >= 0 && (t->interval_fields & SQL_INTERVAL_SECOND))
            cm_buf_printf(out, "(%d)", t->interval_precision);
    }
    if (sql_list_len(t->typmods)) {
        cm_buf_put_u8(out, '(');
        dp_list(t->typmods, out);
        cm_buf_put_u8(out, ')');
    }
    for (int i = 0; i < t->array_bounds; i++)
        cm_buf_put_str(out, "[]");
}

/* ORDER BY items, of a query or inside an aggregate's parentheses. */
static void dp_sort(const sql_list_t *order, const char *intro, cm_buf_t *out)
{
    for (int i = 0; i < sql_list_len(order); i++) {
        const sql_sort_t *o = order->items[i];
        cm_buf_put_str(out, i ? ", " : intro);
        dp_expr(o->expr, out);
        if (o->dir != SQL_SORT_DEFAULT)
            cm_buf_put_str(out, o->dir == SQL_SORT_ASC ? " ASC" : " DESC");
        if (o->nulls != SQL_NULLS_DEFAULT)
            cm_buf_put_str(out, o->nulls == SQL_NULLS_FIRST ? " NULLS FIRST" : " NULLS LAST");
    }
}

static const char *const svf_names[] = {
    [SQL_SVF_CURRENT_DATE] = "CURRENT_DATE", [SQL_SVF_CURRENT_TIME] = "CURRENT_TIME",
    [SQL_SVF_CURRENT_TIMESTAMP] = "CURRENT_TIMESTAMP", [SQL_SVF_LOCALTIME] = "LOCALTIME",
    [SQL_SVF_LOCALTIMESTAMP] = "LOCALTIMESTAMP", [SQL_SVF_CURRENT_ROLE] = "CURRENT_ROLE",
    [SQL_SVF_CURRENT_USER] = "CURRENT_USER", [SQL_SVF_USER] = "USER", [SQL_SVF_SESSION_USER] = "SESSION_USER",
    [SQL_SVF_CURRENT_CATALOG] = "CURRENT_CATALOG", [SQL_SVF_CURRENT_SCHEMA] = "CURRENT_SCHEMA",
};

static void dp_func(const sql_expr_t *e, cm_buf_t *out)
{
    const sql_list_t *a = e->args;
    switch (e->syntax) {
    case SQL_FUNC_SUBSTRING:
        cm_buf_put_str(out, "SUBSTRING(");
        dp_expr(a->items[0], out);
        cm_buf_put_str(out, " FROM ");
        dp_expr(a->items[1], out);
        if (a->count > 2) {
            cm_buf_put_str(out, " FOR ");
            dp_expr(a->items[2], out);
        }
        cm_buf_put_u8(out, ')');
        return;
    case SQL_FUNC_POSITION:
        cm_buf_put_str(out, "POSITION(");
        dp_expr(a->items[1], out);
        cm_buf_put_str(out, " IN ");
        dp_expr(a->items[0], out);
        cm_buf_put_u8(out, ')');
        return;
    case SQL_FUNC_TRIM: {
        const char *name = e->names->items[0];
        cm_buf_printf(out, "TRIM(%s ", strcmp(name, "ltrim") == 0   ? "LEADING"
                                       : strcmp(name, "rtrim") == 0 ? "TRAILING"
                                                                    : "BOTH");
        if (a->count > 1) {
            dp_expr(a->items[1], out);
            cm_buf_put_u8(out, ' ');
        }
        cm_buf_put_str(out, "FROM ");
        dp_expr(a->items[0], out);
        cm_buf_put_u8(out, ')');
        return;
    }
    case SQL_FUNC_EXTRACT: {
        const sql_expr_t *f = a->items[0];
        cm_buf_put_str(out, "EXTRACT(");
        sql_deparse_ident(f->str, out);
        cm_buf_put_str(out, " FROM ");
        dp_expr(a->items[1], out);
        cm_buf_put_u8(out, ')');
        return;
    }
    case SQL_FUNC_OVERLAY:
        cm_buf_put_str(out, "OVERLAY(");
        dp_expr(a->items[0], out);
        cm_buf_put_str(out, " PLACING ");
        dp_expr(a->items[1], out);
        cm_buf_put_str(out, " FROM ");
        dp_expr(a->items[2], out);
        if (a->count > 3) {
            cm_buf_put_str(out, " FOR ");
            dp_expr(a->items[3], out);
        }
        cm_buf_put_u8(out, ')');
        return;
    case SQL_FUNC_AT_TIME_ZONE:
        cm_buf_put_u8(out, '(');
        dp_expr(a->items[1], out);
        cm_buf_put_str(out, " AT TIME ZONE ");
        dp_expr(a->items[0], out);
        cm_buf_put_u8(out, ')');
        return;
    case SQL_FUNC_OVERLAPS:
        cm_buf_put_str(out, "((");
        dp_expr(a->items[0], out);
        cm_buf_put_str(out, ", ");
        dp_expr(a->items[1], out);
        cm_buf_put_str(out, ") OVERLAPS (");
        dp_expr(a->items[2], out);
        cm_buf_put_str(out, ", ");
        dp_expr(a->items[3], out);
        cm_buf_put_str(out, "))");
        return;
    case SQL_FUNC_PLAIN:
        break;
    }
    dp_names(e->names, out);
    cm_buf_put_u8(out, '(');
    if (e->star)
        cm_buf_put_u8(out, '*');
    if (e->distinct)
        cm_buf_put_str(out, "DISTINCT ");
    dp_list(e->args, out);
    if (!e->within_group)
        dp_sort(e->agg_order, " ORDER BY ", out);
    cm_buf_put_u8(out, ')');
    if (e->within_group) {
        dp_sort(e->agg_order, " WITHIN GROUP (ORDER BY ", out);
        cm_buf_put_u8(out, ')');
    }
    if (e->agg_filter) {
        cm_buf_put_str(out, " FILTER (WHERE ");
        dp_expr(e->agg_filter, out);
        cm_buf_put_u8(out, ')');
    }
    if (e->over) {
        cm_buf_put_str(out, " OVER ");
        sql__dp_window(e->over, out);
    }
}

static void dp_const(const sql_expr_t *e, cm_buf_t *out)
{
    switch (e->const_kind) {
    case SQL_CONST_NULL: cm_buf_put_str(out, "NULL"); break;
    case SQL_CONST_BOOL: cm_buf_put_str(out, e->boolval ? "TRUE" : "FALSE"); break;
    case SQL_CONST_INTEGER:
    case SQL_CONST_NUMERIC: cm_buf_put_str(out, e->str); break;
    case SQL_CONST_STRING: dp_string(e->str, e->len, out); break;
    case SQL_CONST_BITSTRING:
        cm_buf_put_u8(out, e->str[0] == 'b' ? 'B' : 'X');
        dp_string(e->str + 1, e->len - 1, out);
        break;
    }
}

static void dp_expr(const sql_expr_t *e, cm_buf_t *out)
{
    static const char *const like_ops[] = {"LIKE", "ILIKE", "SIMILAR TO"};
    static const char *const tests[] = {"TRUE", "FALSE", "UNKNOWN"};
    switch (e->kind) {
    case SQL_EXPR_CONST:
        dp_const(e, out);
        break;
    case SQL_EXPR_PARAM:
        cm_buf_printf(out, "$%lld", (long long)e->ival);
        break;
    case SQL_EXPR_COLUMN:
        dp_names(e->names, out);
        break;
    case SQL_EXPR_STAR:
        cm_buf_put_u8(out, '*');
        break;
    case SQL_EXPR_DEFAULT:
        cm_buf_put_str(out, "DEFAULT");
        break;
    case SQL_EXPR_OP:
        cm_buf_put_u8(out, '(');
        if (e->left) {
            dp_expr(e->left, out);
            cm_buf_put_u8(out, ' ');
        }
        if (e->names) {   /* OPERATOR(schema.op): the operator itself is never quoted */
            cm_buf_put_str(out, "OPERATOR(");
            for (int i = 0; i + 1 < e->names->count; i++) {
                sql_deparse_ident(e->names->items[i], out);
                cm_buf_put_u8(out, '.');
            }
            cm_buf_printf(out, "%s) ", e->str);
        } else {
            cm_buf_printf(out, "%s ", e->str);
        }
        dp_expr(e->right, out);
        cm_buf_put_u8(out, ')');
        break;
    case SQL_EXPR_AND:
    case SQL_EXPR_OR:
        cm_buf_put_u8(out, '(');
        for (int i = 0; i < e->args->count; i++) {
            if (i)
                cm_buf_put_str(out, e->kind == SQL_EXPR_AND ? " AND " : " OR ");
            dp_expr(e->args->items[i], out);
        }
        cm_buf_put_u8(out, ')');
        break;
    case SQL_EXPR_NOT:
        cm_buf_put_str(out, "(NOT ");
        dp_expr(e->arg, out);
        cm_buf_put_u8(out, ')');
        break;
    case SQL_EXPR_FUNC:
        dp_func(e, out);
        break;
    case SQL_EXPR_CAST:
        if (e->cast_form == SQL_CAST_LITERAL && e->type->interval_fields) {
            /* INTERVAL 'x' YEAR TO MONTH: the fields follow the literal. */
            sql_typename_t t = *e->type;
            t.interval_fields = 0;
            t.interval_precision = -1;   /* it can only be SECOND(p), which follows the literal */
            sql_deparse_typename(&t, out);
            cm_buf_put_u8(out, ' ');
            dp_expr(e->arg, out);
            t = *e->type;
            t.names = NULL;
            sql_deparse_typename(&t, out);
        } else if (e->cast_form == SQL_CAST_LITERAL) {
            sql_deparse_typename(e->type, out);
            cm_buf_put_u8(out, ' ');
            dp_expr(e->arg, out);
        } else if (e->cast_form == SQL_CAST_FUNC) {
            cm_buf_put_str(out, "CAST(");
            dp_expr(e->arg, out);
            cm_buf_put_str(out, " AS ");
            sql_deparse_typename(e->type, out);
            cm_buf_put_u8(out, ')');
        } else {
            cm_buf_put_u8(out, '(');
            dp_expr(e->arg, out);
            cm_buf_put_str(out, ")::");
            sql_deparse_typename(e->type, out);
        }
        break;
    case SQL_EXPR_CASE:
        cm_buf_put_str(out, "CASE");
        if (e->arg) {
            cm_buf_put_u8(out, ' ');
            dp_expr(e->arg, out);
        }
        for (int i = 0; i + 1 < e->args->count; i += 2) {
            cm_buf_put_str(out, " WHEN ");
            dp_expr(e->args->items[i], out);
            cm_buf_put_str(out, " THEN ");
            dp_expr(e->args->items[i + 1], out);
        }
        if (e->def) {
            cm_buf_put_str(out, " ELSE ");
            dp_expr(e->def, out);
        }
        cm_buf_put_str(out, " END");
        break;
    case SQL_EXPR_COALESCE:
    case SQL_EXPR_GREATEST:
    case SQL_EXPR_LEAST:
    case SQL_EXPR_NULLIF:
        cm_buf_put_str(out, e->kind == SQL_EXPR_COALESCE   ? "COALESCE("
                            : e->kind == SQL_EXPR_GREATEST ? "GREATEST("
                            : e->kind == SQL_EXPR_LEAST    ? "LEAST("
                                                           : "NULLIF(");
        dp_list(e->args, out);
        cm_buf_put_u8(out, ')');
        break;
    case SQL_EXPR_NULL_TEST:
        cm_buf_put_u8(out, '(');
        dp_expr(e->arg, out);
        cm_buf_put_str(out, e->negated ? " IS NOT NULL)" : " IS NULL)");
        break;
    case SQL_EXPR_BOOL_TEST:
        cm_buf_put_u8(out, '(');
        dp_expr(e->arg, out);
        cm_buf_printf(out, " IS %s%s)", e->negated ? "NOT " : "", tests[e->bool_test]);
        break;
    case SQL_EXPR_DISTINCT:
        cm_buf_put_u8(out, '(');
        dp_expr(e->left, out);
        cm_buf_put_str(out, e->negated ? " IS NOT DISTINCT FROM " : " IS DISTINCT FROM ");
        dp_expr(e->right, out);
        cm_buf_put_u8(out, ')');
        break;
    case SQL_EXPR_BETWEEN:
        cm_buf_put_u8(out, '(');
        dp_expr(e->arg, out);
        cm_buf_printf(out, " %sBETWEEN %s", e->negated ? "NOT " : "", e->symmetric ? "SYMMETRIC " : "");
        dp_expr(e->args->items[0], out);
        cm_buf_put_str(out, " AND ");
        dp_expr(e->args->items[1], out);
        cm_buf_put_u8(out, ')');
        break;
    case SQL_EXPR_IN:
        cm_buf_put_u8(out, '(');
        dp_expr(e->arg, out);
        cm_buf_put_str(out, e->negated ? " NOT IN (" : " IN (");
        dp_list(e->args, out);
        cm_buf_put_str(out, "))");
        break;
    case SQL_EXPR_LIKE:
        cm_buf_put_u8(out, '(');
        dp_expr(e->left, out);
        cm_buf_printf(out, " %s%s ", e->negated ? "NOT " : "", like_ops[e->like_kind]);
        dp_expr(e->right, out);
        if (e->def) {
            cm_buf_put_str(out, " ESCAPE ");
            dp_expr(e->def, out);
        }
        cm_buf_put_u8(out, ')');
        break;
    case SQL_EXPR_SQLVALUE:
        cm_buf_put_str(out, svf_names[e->svf]);
        if (e->precision >= 0)
            cm_buf_printf(out, "(%d)", e->precision);
        break;
    case SQL_EXPR_SUBQUERY:
        if (e->sublink == SQL_SUBLINK_IN) {
            cm_buf_put_u8(out, '(');
            dp_expr(e->arg, out);
            cm_buf_put_str(out, e->negated ? " NOT IN " : " IN ");
        } else if (e->sublink == SQL_SUBLINK_EXISTS) {
            cm_buf_put_str(out, "EXISTS ");
        } else if (e->sublink == SQL_SUBLINK_ARRAY) {
            cm_buf_put_str(out, "ARRAY");
        } else if (e->sublink == SQL_SUBLINK_ANY || e->sublink == SQL_SUBLINK_ALL) {
            cm_buf_put_u8(out, '(');
            dp_expr(e->arg, out);
            cm_buf_printf(out, " %s %s ", e->str, e->sublink == SQL_SUBLINK_ALL ? "ALL" : "ANY");
        }
        cm_buf_put_u8(out, '(');
        sql_deparse_select(e->select, out);
        cm_buf_put_u8(out, ')');
        if (e->sublink == SQL_SUBLINK_IN || e->sublink == SQL_SUBLINK_ANY || e->sublink == SQL_SUBLINK_ALL)
            cm_buf_put_u8(out, ')');
        break;
    case SQL_EXPR_SUBSCRIPT:
        /* The base in parentheses: the grammar subscripts any primary expression written so. */
        cm_buf_put_u8(out, '(');
        dp_expr(e->arg, out);
        cm_buf_put_str(out, ")[");
        if (e->left)
            dp_expr(e->left, out);
        if (e->slice)
            cm_buf_put_u8(out, ':');
        if (e->right)
            dp_expr(e->right, out);
        cm_buf_put_u8(out, ']');
        break;
    case SQL_EXPR_FIELD:
        cm_buf_put_u8(out, '(');
        dp_expr(e->arg, out);
        cm_buf_put_str(out, ").");
        sql_deparse_ident(e->str, out);
        break;
    case SQL_EXPR_ARRAY_CMP:
        cm_buf_put_u8(out, '(');
        dp_expr(e->left, out);
        cm_buf_printf(out, " %s %s (", e->str, e->sublink == SQL_SUBLINK_ALL ? "ALL" : "ANY");
        dp_expr(e->right, out);
        cm_buf_put_str(out, "))");
        break;
    case SQL_EXPR_ROW:
        cm_buf_put_str(out, "ROW(");
        dp_list(e->args, out);
        cm_buf_put_u8(out, ')');
        break;
    case SQL_EXPR_ARRAY:
        cm_buf_put_str(out, "ARRAY[");
        dp_list(e->args, out);
        cm_buf_put_u8(out, ']');
        break;
    case SQL_EXPR_COLLATE:
        cm_buf_put_u8(out, '(');
        dp_expr(e->arg, out);
        cm_buf_put_str(out, " COLLATE ");
        dp_names(e->names, out);
        cm_buf_put_u8(out, ')');
        break;
    case SQL_EXPR_NAMED_ARG:
        sql_deparse_ident(e->str, out);
        cm_buf_put_str(out, " => ");
        dp_expr(e->arg, out);
        break;
    }
}

void sql_deparse_expr(const sql_expr_t *e, cm_buf_t *out)
{
    dp_expr(e, out);
}

static void dp_from(const sql_from_t *f, cm_buf_t *out)
{
    static const char *const joins[] = {"JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN", "CROSS JOIN"};
    if (f->lateral)
        cm_buf_put_str(out, "LATERAL ");
    switch (f->kind) {
    case SQL_FROM_RELATION:
        dp_names(f->names, out);
        break;
    case SQL_FROM_FUNCTION:
        dp_expr(f->func, out);
        if (f->ordinality)
            cm_buf_put_str(out, " WITH ORDINALITY");
        break;
    case SQL_FROM_SUBQUERY:
        cm_buf_put_u8(out, '(');
        sql_deparse_select(f->select, out);
        cm_buf_put_u8(out, ')');
        break;
    case SQL_FROM_JOIN:
        cm_buf_put_u8(out, '(');
        dp_from(f->larg, out);
        cm_buf_printf(out, " %s%s ", f->natural ? "NATURAL " : "", joins[f->join]);
        dp_from(f->rarg, out);
        if (f->on) {
            cm_buf_put_str(out, " ON ");
            dp_expr(f->on, out);
        }
        if (f->using_cols) {
            cm_buf_put_str(out, " USING (");
            for (int i = 0; i < f->using_cols->count; i++) {
                if (i)
                    cm_buf_put_str(out, ", ");
                sql_deparse_ident(f->using_cols->items[i], out);
            }
            cm_buf_put_u8(out, ')');
        }
        cm_buf_put_u8(out, ')');
        break;
    }
    if (f->alias) {
        cm_buf_put_str(out, " AS ");
        sql_deparse_ident(f->alias, out);
        if (f->col_aliases) {
            cm_buf_put_u8(out, '(');
            for (int i = 0; i < f->col_aliases->count; i++) {
                if (i)
                    cm_buf_put_str(out, ", ");
                sql_deparse_ident(f->col_aliases->items[i], out);
            }
            cm_buf_put_u8(out, ')');
        }
    }
}

/* OVER name, or a parenthesised specification with PostgreSQL's frame words. */
void sql__dp_window(const sql_window_t *w, cm_buf_t *out)
{
    static const char *const modes[] = {"", "RANGE", "ROWS", "GROUPS"};
    static const char *const excludes[] = {"", " EXCLUDE CURRENT ROW", " EXCLUDE GROUP", " EXCLUDE TIES",
                                           " EXCLUDE NO OTHERS"};
    if (!w->spec) {
        sql_deparse_ident(w->name, out);
        return;
    }
    const char *sep = "";
    cm_buf_put_u8(out, '(');
    if (w->refname) {
        sql_deparse_ident(w->refname, out);
        sep = " ";
    }
    if (w->partition_by) {
        cm_buf_printf(out, "%sPARTITION BY ", sep);
        dp_list(w->partition_by, out);
        sep = " ";
    }
    if (w->order_by) {
        dp_sort(w->order_by, *sep ? " ORDER BY " : "ORDER BY ", out);
        sep = " ";
    }
    if (w->frame_mode != SQL_FRAME_DEFAULT) {
        cm_buf_printf(out, "%s%s %s", sep, modes[w->frame_mode], w->end != SQL_BOUND_NONE ? "BETWEEN " : "");
        for (int i = 0; i < 2; i++) {
            sql_frame_bound_t b = i ? w->end : w->start;
            const sql_expr_t *off = i ? w->end_offset : w->start_offset;
            if (i && b == SQL_BOUND_NONE)
                break;
            if (i)
                cm_buf_put_str(out, " AND ");
            if (off)
                dp_expr(off, out);
            cm_buf_put_str(out, b == SQL_BOUND_UNBOUNDED_PRECEDING   ? "UNBOUNDED PRECEDING"
                                : b == SQL_BOUND_UNBOUNDED_FOLLOWING ? "UNBOUNDED FOLLOWING"
                                : b == SQL_BOUND_CURRENT_ROW         ? "CURRENT ROW"
                                : b == SQL_BOUND_PRECEDING           ? " PRECEDING"
                                                                     : " FOLLOWING");
        }
        cm_buf_put_str(out, excludes[w->exclude]);
    }
    cm_buf_put_u8(out, ')');
}

/* WITH [RECURSIVE] name [(cols)] AS [[NOT] MATERIALIZED] (query), ... */
void sql__dp_with(const sql_select_t *s, cm_buf_t *out)
{
    cm_buf_put_str(out, s->with_recursive ? "WITH RECURSIVE " : "WITH ");
    for (int i = 0; i < s->with->count; i++) {
        const sql_cte_t *c = s->with->items[i];
        if (i)
            cm_buf_put_str(out, ", ");
        sql_deparse_ident(c->name, out);
        if (c->columns) {
            cm_buf_put_u8(out, '(');
            sql__dp_ident_list(c->columns, out);
            cm_buf_put_u8(out, ')');
        }
        cm_buf_put_str(out, c->materialized < 0 ? " AS (" : c->materialized ? " AS MATERIALIZED (" : " AS NOT MATERIALIZED (");
        if (c->dml)
            sql_deparse_stmt(c->dml, out);
        else
            sql_deparse_select(c->query, out);
        cm_buf_put_u8(out, ')');
    }
    cm_buf_put_u8(out, ' ');
}

void sql_deparse_select(const sql_select_t *s, cm_buf_t *out)
{
    static const char *const ops[] = {"", "UNION", "INTERSECT", "EXCEPT"};
    if (s->with)
        sql__dp_with(s, out);
    if (s->op != SQL_SETOP_NONE) {
        cm_buf_put_u8(out, '(');
        sql_deparse_select(s->larg, out);
        cm_buf_printf(out, ") %s%s (", ops[s->op], s->set_all ? " ALL" : "");
        sql_deparse_select(s->rarg, out);
        cm_buf_put_u8(out, ')');
    } else if (s->values) {
        cm_buf_put_str(out, "VALUES ");
        for (int i = 0; i < s->values->count; i++) {
            cm_buf_put_str(out, i ? ", (" : "(");
            dp_list(s->values->items[i], out);
            cm_buf_put_u8(out, ')');
        }
    } else {
        cm_buf_put_str(out, "SELECT");
        if (s->distinct) {
            cm_buf_put_str(out, " DISTINCT");
            if (s->distinct_on) {
                cm_buf_put_str(out, " ON (");
                dp_list(s->distinct_on, out);
                cm_buf_put_u8(out, ')');
            }
        }
        if (sql_list_len(s->targets))
            cm_buf_put_u8(out, ' ');
        sql__dp_targets(s->targets, out);
        for (int i = 0; i < sql_list_len(s->from); i++) {
            cm_buf_put_str(out, i ? ", " : " FROM ");
            dp_from(s->from->items[i], out);
        }
        if (s->where) {
            cm_buf_put_str(out, " WHERE ");
            dp_expr(s->where, out);
        }
        if (s->group_by) {
            cm_buf_put_str(out, " GROUP BY ");
            dp_list(s->group_by, out);
        }
        if (s->having) {
            cm_buf_put_str(out, " HAVING ");
            dp_expr(s->having, out);
        }
        for (int i = 0; i < sql_list_len(s->windows); i++) {
            const sql_window_t *w = s->windows->items[i];
            cm_buf_put_str(out, i ? ", " : " WINDOW ");
            sql_deparse_ident(w->name, out);
            cm_buf_put_str(out, " AS ");
            sql_window_t spec = *w;
            spec.name = NULL;   /* the definition's own name goes before AS */
            sql__dp_window(&spec, out);
        }
    }
    dp_sort(s->order_by, " ORDER BY ", out);
    if (s->limit) {
        cm_buf_put_str(out, " LIMIT ");
        dp_expr(s->limit, out);
    }
    if (s->offset) {
        cm_buf_put_str(out, " OFFSET ");
        dp_expr(s->offset, out);
    }
}

/* ------------------------------------------- helpers for sql_deparse_stmt.c */

void sql__dp_expr(const sql_expr_t *e, cm_buf_t *out) { dp_expr(e, out); }
void sql__dp_names(const sql_list_t *names, cm_buf_t *out) { dp_names(names, out); }
void sql__dp_string(const char *str, size_t len, cm_buf_t *out) { dp_string(str, len, out); }
void sql__dp_sort(const sql_list_t *order, const char *intro, cm_buf_t *out) { dp_sort(order, intro, out); }
void sql__dp_from(const sql_from_t *f, cm_buf_t *out) { dp_from(f, out); }

void sql__dp_targets(const sql_list_t *targets, cm_buf_t *out)
{
    for (int i = 0; i < sql_list_len(targets); i++) {
        const sql_target_t *t = targets->items[i];
        if (i)
            cm_buf_put_str(out, ", ");
        dp_expr(t->expr, out);
        if (t->alias) {
            cm_buf_put_str(out, " AS ");
            sql_deparse_ident(t->alias, out);
        }
    }
}

void sql__dp_ident_list(const sql_list_t *names, cm_buf_t *out)
{
    for (int i = 0; i < sql_list_len(names); i++) {
        if (i)
            cm_buf_put_str(out, ", ");
        sql_deparse_ident(names->items[i], out);
    }
}
