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
    dp_sort(e->agg_order, " ORDER BY ", out);
    cm_buf_put_u8(out, ')');
    if (e->agg_filter) {
        cm_buf_put_str(out, " FILTER (WHERE ");
        dp_expr(e->agg_filter, out);
        cm_buf_put_u8(out, ')');
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
    case SQL_EXPR_OP:
        cm_buf_put_u8(out, '(');
        if (e->left) {
            dp_expr(e->left, out);
            cm_buf_put_u8(out, ' ');
        }
        cm_buf_printf(out, "%s ", e->str);
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
    switch (f->kind) {
    case SQL_FROM_RELATION:
        dp_names(f->names, out);
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

void sql_deparse_select(const sql_select_t *s, cm_buf_t *out)
{
    static const char *const ops[] = {"", "UNION", "INTERSECT", "EXCEPT"};
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
        for (int i = 0; i < sql_list_len(s->targets); i++) {
            const sql_target_t *t = s->targets->items[i];
            cm_buf_put_str(out, i ? ", " : " ");
            dp_expr(t->expr, out);
            if (t->alias) {
                cm_buf_put_str(out, " AS ");
                sql_deparse_ident(t->alias, out);
            }
        }
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

static void dp_modes(const sql_txn_modes_t *m, cm_buf_t *out)
{
    const char *sep = " ";
    if (m->isolation) {
        cm_buf_printf(out, "%sISOLATION LEVEL ", sep);
        for (const char *p = m->isolation; *p; p++)
            cm_buf_put_u8(out, (uint8_t)((*p >= 'a' && *p <= 'z') ? *p - 32 : *p));
        sep = ", ";
    }
    if (m->read_only >= 0) {
        cm_buf_printf(out, "%s%s", sep, m->read_only ? "READ ONLY" : "READ WRITE");
        sep = ", ";
    }
    if (m->deferrable >= 0)
        cm_buf_printf(out, "%s%s", sep, m->deferrable ? "DEFERRABLE" : "NOT DEFERRABLE");
}

/* A setting's name, each dotted part quoted as needed so it reads back the same. */
static void dp_var_name(const char *name, cm_buf_t *out)
{
    if (strcmp(name, "all") == 0) {   /* SHOW ALL: the keyword reads better than "all" */
        cm_buf_put_str(out, "ALL");
        return;
    }
    const char *dot;
    while ((dot = strchr(name, '.')) != NULL) {
        char part[SQL_NAME_LEN_MAX * 4 + 1];
        size_t n = (size_t)(dot - name) < sizeof(part) - 1 ? (size_t)(dot - name) : sizeof(part) - 1;
        memcpy(part, name, n);
        part[n] = '\0';
        sql_deparse_ident(part, out);
        cm_buf_put_u8(out, '.');
        name = dot + 1;
    }
    sql_deparse_ident(name, out);
}

void sql_deparse_stmt(const sql_stmt_t *s, cm_buf_t *out)
{
    static const char *const discards[] = {"ALL", "PLANS", "SEQUENCES", "TEMP"};
    switch (s->kind) {
    case SQL_STMT_EMPTY:
        break;
    case SQL_STMT_SELECT:
        sql_deparse_select(s->select, out);
        break;
    case SQL_STMT_SET:
        cm_buf_printf(out, "SET %s", s->set_local ? "LOCAL " : "");
        dp_var_name(s->var_name, out);
        cm_buf_put_str(out, " TO ");
        if (s->set_default)
            cm_buf_put_str(out, "DEFAULT");
        else
            dp_list(s->var_values, out);
        break;
    case SQL_STMT_SET_TRANSACTION:
        cm_buf_put_str(out, s->session_chars ? "SET SESSION CHARACTERISTICS AS TRANSACTION" : "SET TRANSACTION");
        dp_modes(&s->modes, out);
        break;
    case SQL_STMT_SHOW:
        cm_buf_put_str(out, "SHOW ");
        dp_var_name(s->var_name, out);
        break;
    case SQL_STMT_RESET:
        cm_buf_put_str(out, "RESET ");
        if (s->var_name)
            dp_var_name(s->var_name, out);
        else
            cm_buf_put_str(out, "ALL");
        break;
    case SQL_STMT_BEGIN:
        cm_buf_put_str(out, s->start_transaction ? "START TRANSACTION" : "BEGIN");
        dp_modes(&s->modes, out);
        break;
    case SQL_STMT_COMMIT:
    case SQL_STMT_ROLLBACK:
        cm_buf_put_str(out, s->kind == SQL_STMT_COMMIT ? "COMMIT" : "ROLLBACK");
        if (s->chain)
            cm_buf_put_str(out, " AND CHAIN");
        break;
    case SQL_STMT_DISCARD:
        cm_buf_printf(out, "DISCARD %s", discards[s->discard]);
        break;
    case SQL_STMT_UNSUPPORTED:
        cm_buf_printf(out, "UNSUPPORTED %s", s->unsupported);
        break;
    }
}
