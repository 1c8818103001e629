/*
 * pln_copy.c: COPY t [(cols)] FROM STDIN and TRUNCATE, PostgreSQL's utility
 * writes. PostgreSQL checks them only when they run (Parse and Describe of
 * one always succeed), in this order for COPY: the relation (42P01, an
 * index), the column list (42703, 42701), the options (ProcessCopyOptions:
 * each option read in order, then their combinations checked), the FORCE_*
 * column lists, and last what the relation is (a view, a materialized view,
 * a foreign table). eddy binds them the same way and keeps the first error
 * in plan_write_t.error, raised when the statement runs.
 */
#include "planner/pln_internal.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* Keeps the error binding raised in a write of kind, to be raised when it runs. */
static bool kept_in(pln_binder_t *b, plan_write_t *w, pln_stmt_t *st)
{
    w->error = plan_error_keep(b->arena, b->err);
    st->write = w;
    return true;
}

/* The columns named by list (CopyGetAttnums): each once; NULL list: every column. */
static bool copy_attnums(pln_binder_t *b, const plan_write_t *w, const sql_list_t *names, int **cols, int *n)
{
    int k = names ? names->count : w->ncols;
    int *c = cm_arena_alloc(b->arena, sizeof(int) * (size_t)(k ? k : 1));
    for (int i = 0; i < k; i++) {
        if (!names) {
            c[i] = i;
            continue;
        }
        const char *name = names->items[i];
        int at = pln__write_column(w, name);
        if (at < 0)
            return pln__no_write_column(b, w, name, -1);
        for (int j = 0; j < i; j++)
            if (c[j] == at)
                return pln__error(b, -1, "42701", "column \"%s\" specified more than once", name);
        c[i] = at;
    }
    *cols = c;
    *n = k;
    return true;
}

/* ------------------------------------------------------------ option values (PostgreSQL's define.c) */

/* defGetString: the value as text; "%s requires a parameter" without one. */
static bool opt_string(pln_binder_t *b, const sql_option_t *o, const char **out)
{
    if (o->names || o->star) {
        *out = o->star ? "*" : o->names->count ? o->names->items[0] : "";
        return true;
    }
    if (!o->value)
        return pln__error(b, -1, CM_ERRCODE_SYNTAX_ERROR, "%s requires a parameter", o->name);
    const sql_expr_t *v = o->value;
    if (v->kind == SQL_EXPR_CONST && v->const_kind == SQL_CONST_BOOL)
        *out = v->boolval ? "true" : "false";
    else
        *out = v->str ? v->str : "";
    return true;
}

static bool is_int(const sql_option_t *o, int64_t *v)
{
    if (o->value && o->value->kind == SQL_EXPR_CONST && o->value->const_kind == SQL_CONST_INTEGER) {
        *v = o->value->ival;
        return true;
    }
    return false;
}

/* defGetBoolean: no value is true; 0 and 1; true / false / on / off in any case. */
bool pln__option_bool(pln_binder_t *b, const sql_option_t *o, bool *out)
{
    int64_t i;
    if (!o->value && !o->names && !o->star) {
        *out = true;
        return true;
    }
    if (is_int(o, &i)) {
        if (i == 0 || i == 1) {
            *out = i == 1;
            return true;
        }
    } else if (o->value && o->value->kind == SQL_EXPR_CONST && o->value->const_kind == SQL_CONST_BOOL) {
        *out = o->value->boolval;
        return true;
    } else {
        const char *s;
        if (!opt_string(b, o, &s))
            return false;
        if (strcasecmp(s, "true") == 0 || strcasecmp(s, "on") == 0) {
            *out = true;
            return true;
        }
        if (strcasecmp(s, "false") == 0 || strcasecmp(s, "off") == 0) {
            *out = false;
            return true;
        }
    }
    return pln__error(b, -1, CM_ERRCODE_SYNTAX_ERROR, "%s requires a Boolean value", o->name);
}

/* defGetCopyHeaderChoice: a Boolean or "match". */
static bool opt_header(pln_binder_t *b, const sql_option_t *o, plan_copy_header_t *out)
{
    int64_t i;
    if (!o->value && !o->names && !o->star) {
        *out = PLAN_COPY_HEADER_SKIP;
        return true;
    }
    if (is_int(o, &i)) {
        if (i == 0 || i == 1) {
            *out = i ? PLAN_COPY_HEADER_SKIP : PLAN_COPY_HEADER_NONE;
            return true;
        }
    } else if (o->value && o->value->kind == SQL_EXPR_CONST && o->value->const_kind == SQL_CONST_BOOL) {
        *out = o->value->boolval ? PLAN_COPY_HEADER_SKIP : PLAN_COPY_HEADER_NONE;
        return true;
    } else {
        const char *s;
        if (!opt_string(b, o, &s))
            return false;
        if (strcasecmp(s, "true") == 0 || strcasecmp(s, "on") == 0) {
            *out = PLAN_COPY_HEADER_SKIP;
            return true;
        }
        if (strcasecmp(s, "false") == 0 || strcasecmp(s, "off") == 0) {
            *out = PLAN_COPY_HEADER_NONE;
            return true;
        }
        if (strcasecmp(s, "match") == 0) {
            *out = PLAN_COPY_HEADER_MATCH;
            return true;
        }
    }
    return pln__error(b, -1, CM_ERRCODE_SYNTAX_ERROR, "%s requires a Boolean value or \"match\"", o->name);
}

/* A column name list (FORCE_NOT_NULL (a, b)); anything else is PostgreSQL's 22023 at the option. */
static bool opt_names(pln_binder_t *b, const sql_option_t *o, const sql_list_t **out)
{
    if (!o->names)
        return pln__error(b, o->pos, CM_ERRCODE_INVALID_PARAMETER_VALUE,
                          "argument to option \"%s\" must be a list of column names", o->name);
    *out = o->names;
    return true;
}

/* PostgreSQL's encoding names, as pg_char_to_encoding compares them: lower case, letters and digits only. */
static bool encoding_known(const char *name, bool *utf8)
{
    static const char *const names[] = {
        "sqlascii", "eucjp", "euccn", "euckr", "euctw", "eucjis2004", "utf8", "unicode", "muleinternal", "latin1",
        "latin2", "latin3", "latin4", "latin5", "latin6", "latin7", "latin8", "latin9", "latin10", "win1256",
        "win1258", "win866", "win874", "koi8r", "koi8", "win1251", "win1252", "iso88595", "iso88596", "iso88597",
        "iso88598", "win1250", "win1253", "win1254", "win1255", "win1257", "koi8u", "sjis", "big5", "gbk", "uhc",
        "gb18030", "johab", "shiftjis2004", "iso88591", "iso88592", "iso88593", "iso88594", "iso88599", "iso885910",
        "iso885913", "iso885914", "iso885915", "iso885916", "mskanji", "shiftjis", "windows1252", "windows1251",
        "windows1250", "windows866", "alt", "win", "tcvn", "tcvn5712", "vscii", "abc", "cp1252", "cp1251", NULL,
    };
    char clean[64];
    size_t n = 0;
    for (const char *p = name; *p && n + 1 < sizeof clean; p++)
        if (isalnum((unsigned char)*p))
            clean[n++] = (char)tolower((unsigned char)*p);
    clean[n] = '\0';
    *utf8 = strcmp(clean, "utf8") == 0 || strcmp(clean, "unicode") == 0 || strcmp(clean, "sqlascii") == 0;
    for (int i = 0; names[i]; i++)
        if (strcmp(clean, names[i]) == 0)
            return true;
    return false;
}

static bool conflicting(pln_binder_t *b, const sql_option_t *o)
{
    return pln__error(b, o->pos, CM_ERRCODE_SYNTAX_ERROR, "conflicting or redundant options");
}

/* ------------------------------------------------------------ COPY */

typedef struct copy_opts {
    bool csv, binary, freeze, format_set, freeze_set, header_set, encoding_set;
    plan_copy_header_t header;
    const char *delim, *null_print, *quote, *escape;
    const sql_list_t *force_quote, *force_not_null, *force_null;
    bool force_quote_all;
} copy_opts_t;

/* ProcessCopyOptions' first pass: each option in the order written, its value checked alone. */
static bool read_options(pln_binder_t *b, const sql_list_t *options, copy_opts_t *o)
{
    for (int i = 0; i < sql_list_len(options); i++) {
        const sql_option_t *d = options->items[i];
        const char *s;
        if (strcmp(d->name, "format") == 0) {
            if (!opt_string(b, d, &s))
                return false;
            if (o->format_set)
                return conflicting(b, d);
            o->format_set = true;
            if (strcmp(s, "csv") == 0)
                o->csv = true;
            else if (strcmp(s, "binary") == 0)
                o->binary = true;
            else if (strcmp(s, "text") != 0)
                return pln__error(b, d->pos, CM_ERRCODE_INVALID_PARAMETER_VALUE, "COPY format \"%s\" not recognized", s);
        } else if (strcmp(d->name, "freeze") == 0) {
            if (o->freeze_set)
                return conflicting(b, d);
            o->freeze_set = true;
            if (!pln__option_bool(b, d, &o->freeze))
                return false;
        } else if (strcmp(d->name, "delimiter") == 0) {
            if (o->delim)
                return conflicting(b, d);
            if (!opt_string(b, d, &o->delim))
                return false;
        } else if (strcmp(d->name, "null") == 0) {
            if (o->null_print)
                return conflicting(b, d);
            if (!opt_string(b, d, &o->null_print))
                return false;
        } else if (strcmp(d->name, "header") == 0) {
            if (o->header_set)
                return conflicting(b, d);
            o->header_set = true;
            if (!opt_header(b, d, &o->header))
                return false;
        } else if (strcmp(d->name, "quote") == 0) {
            if (o->quote)
                return conflicting(b, d);
            if (!opt_string(b, d, &o->quote))
                return false;
        } else if (strcmp(d->name, "escape") == 0) {
            if (o->escape)
                return conflicting(b, d);
            if (!opt_string(b, d, &o->escape))
                return false;
        } else if (strcmp(d->name, "force_quote") == 0) {
            if (o->force_quote || o->force_quote_all)
                return conflicting(b, d);
            if (d->star)
                o->force_quote_all = true;
            else if (!opt_names(b, d, &o->force_quote))
                return false;
        } else if (strcmp(d->name, "force_not_null") == 0) {
            if (o->force_not_null)
                return conflicting(b, d);
            if (!opt_names(b, d, &o->force_not_null))
                return false;
        } else if (strcmp(d->name, "force_null") == 0) {
            if (o->force_null)
                return conflicting(b, d);
            if (!opt_names(b, d, &o->force_null))
                return false;
        } else if (strcmp(d->name, "encoding") == 0) {
            if (o->encoding_set)
                return conflicting(b, d);
            o->encoding_set = true;
            bool utf8;
            if (!opt_string(b, d, &s))
                return false;
            if (!encoding_known(s, &utf8))
                return pln__error(b, d->pos, CM_ERRCODE_INVALID_PARAMETER_VALUE,
                                  "argument to option \"%s\" must be a valid encoding name", d->name);
            if (!utf8)
                return pln__error(b, d->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                                  "COPY with an encoding other than UTF8 is not supported yet");
        } else {
            return pln__error(b, d->pos, CM_ERRCODE_SYNTAX_ERROR, "option \"%s\" not recognized", d->name);
        }
    }
    return true;
}

/* ProcessCopyOptions' second pass: the combinations, with the defaults filled in, in PostgreSQL's order. */
static bool check_options(pln_binder_t *b, copy_opts_t *o, bool is_from)
{
    if (o->binary && o->delim)
        return pln__error(b, -1, CM_ERRCODE_SYNTAX_ERROR, "cannot specify DELIMITER in BINARY mode");
    if (o->binary && o->null_print)
        return pln__error(b, -1, CM_ERRCODE_SYNTAX_ERROR, "cannot specify NULL in BINARY mode");
    if (!o->delim)
        o->delim = o->csv ? "," : "\t";
    if (!o->null_print)
        o->null_print = o->csv ? "" : "\\N";
    if (o->csv) {
        if (!o->quote)
            o->quote = "\"";
        if (!o->escape)
            o->escape = o->quote;
    }
    if (strlen(o->delim) != 1)
        return pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "COPY delimiter must be a single one-byte character");
    if (strchr(o->delim, '\r') || strchr(o->delim, '\n'))
        return pln__error(b, -1, CM_ERRCODE_INVALID_PARAMETER_VALUE, "COPY delimiter cannot be newline or carriage return");
    if (strchr(o->null_print, '\r') || strchr(o->null_print, '\n'))
        return pln__error(b, -1, CM_ERRCODE_INVALID_PARAMETER_VALUE,
                          "COPY null representation cannot use newline or carriage return");
    /* Outside CSV a delimiter that backslash escapes could mean is ambiguous (PostgreSQL forbids all of these). */
    if (!o->csv && strchr("\\.abcdefghijklmnopqrstuvwxyz0123456789", o->delim[0]))
        return pln__error(b, -1, CM_ERRCODE_INVALID_PARAMETER_VALUE, "COPY delimiter cannot be \"%s\"", o->delim);
    if (o->binary && o->header != PLAN_COPY_HEADER_NONE)
        return pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "cannot specify HEADER in BINARY mode");
    if (!is_from && o->header == PLAN_COPY_HEADER_MATCH)
        return pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "cannot use \"%s\" with HEADER in COPY TO", "match");
    if (!o->csv && o->quote)
        return pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "COPY quote available only in CSV mode");
    if (o->csv && strlen(o->quote) != 1)
        return pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "COPY quote must be a single one-byte character");
    if (o->csv && o->delim[0] == o->quote[0])
        return pln__error(b, -1, CM_ERRCODE_INVALID_PARAMETER_VALUE, "COPY delimiter and quote must be different");
    if (!o->csv && o->escape)
        return pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "COPY escape available only in CSV mode");
    if (o->csv && strlen(o->escape) != 1)
        return pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "COPY escape must be a single one-byte character");
    if (!o->csv && (o->force_quote || o->force_quote_all))
        return pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "COPY force quote available only in CSV mode");
    if ((o->force_quote || o->force_quote_all) && is_from)
        return pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "COPY force quote only available using COPY TO");
    if (!o->csv && o->force_not_null)
        return pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "COPY force not null available only in CSV mode");
    if (o->force_not_null && !is_from)
        return pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "COPY force not null only available using COPY FROM");
    if (!o->csv && o->force_null)
        return pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "COPY force null available only in CSV mode");
    if (o->force_null && !is_from)
        return pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "COPY force null only available using COPY FROM");
    if (strchr(o->null_print, o->delim[0]))
        return pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "COPY delimiter must not appear in the NULL specification");
    if (o->csv && strchr(o->null_print, o->quote[0]))
        return pln__error(b, -1, CM_ERRCODE_INVALID_PARAMETER_VALUE,
                          "CSV quote character must not appear in the NULL specification");
    return true;
}

/* FORCE_NOT_NULL / FORCE_NULL (list): columns of the table, each one of COPY's, as flags per input field. */
static bool force_flags(pln_binder_t *b, const plan_write_t *w, const sql_list_t *list, const char *what,
                        const int *cols, int ncols, const bool **out)
{
    *out = NULL;
    if (!list)
        return true;
    int *named, n;
    if (!copy_attnums(b, w, list, &named, &n))
        return false;
    bool *flags = cm_arena_zalloc(b->arena, sizeof(bool) * (size_t)(ncols ? ncols : 1));
    for (int i = 0; i < n; i++) {
        int at = -1;
        for (int k = 0; k < ncols && at < 0; k++)
            if (cols[k] == named[i])
                at = k;
        if (at < 0)
            return pln__error(b, -1, "42P10", "%s column \"%s\" not referenced by COPY", what, w->cols[named[i]].name);
        flags[at] = true;
    }
    *out = flags;
    return true;
}

bool pln__bind_copy(pln_binder_t *b, const sql_stmt_t *s, pln_stmt_t *st)
{
    const sql_copy_t *c = s->copy;
    pln_target_t t;
    if (!pln__write_target(b, PLAN_WRITE_COPY, c->table, NULL, &t)) {
        plan_write_t *w = cm_arena_zalloc(b->arena, sizeof(*w));
        w->kind = PLAN_WRITE_COPY;
        return kept_in(b, w, st);
    }
    plan_write_t *w = t.w;
    plan_copy_t *pc = cm_arena_zalloc(b->arena, sizeof(*pc));
    w->copy = pc;
    st->write = w;
    int *cols, ncols;
    if (!copy_attnums(b, w, c->columns, &cols, &ncols))
        return kept_in(b, w, st);
    for (int i = 0; i < ncols; i++)
        pln__perm_mark(b, t.perm, cols[i] + 1, CAT_PRIV_INSERT);   /* DoCopy's insertedCols */
    pc->cols = cols;
    pc->ncols = ncols;
    copy_opts_t o = {0};
    if (!read_options(b, c->options, &o) || !check_options(b, &o, true))
        return kept_in(b, w, st);
    if (!force_flags(b, w, o.force_not_null, "FORCE_NOT_NULL", cols, ncols, &pc->force_not_null) ||
        !force_flags(b, w, o.force_null, "FORCE_NULL", cols, ncols, &pc->force_null))
        return kept_in(b, w, st);
    pc->format = o.binary ? PLAN_COPY_BINARY : o.csv ? PLAN_COPY_CSV : PLAN_COPY_TEXT;
    pc->header = o.header;
    pc->freeze = o.freeze;
    if (!o.binary) {
        pc->delimiter = o.delim[0];
        pc->null_string = o.null_print;
    }
    if (o.csv) {
        pc->quote = o.quote[0];
        pc->escape = o.escape[0];
    }
    /* What the relation is, last: PostgreSQL refuses a view or a materialized view as it starts copying. */
    w->error = t.run_error;
    return true;
}

/* ------------------------------------------------------------ COPY ... TO STDOUT */

bool pln__item_named(pln_binder_t *b, const sql_list_t *names, int pos, const cat_item_t **out)
{
    cat_qname_t qn;
    *out = NULL;
    if (!pln__qname(b, names, pos, &qn))
        return false;
    if (b->cat && b->cat->snap) {
        cm_err_t e = {0};
        *out = cat_resolve_item(b->cat->snap, &b->cat->search, &qn, &e);
        cm_err_clear(&e);
    }
    return true;
}

bool pln__select_from(pln_binder_t *b, const sql_list_t *names, const sql_list_t *columns, const sql_select_t **out)
{
    cm_buf_t q;
    cm_buf_init(&q, 0);
    cm_buf_put_str(&q, "SELECT ");
    if (sql_list_len(columns) == 0)
        cm_buf_put_str(&q, "*");
    for (int i = 0; i < sql_list_len(columns); i++) {
        if (i > 0)
            cm_buf_put_str(&q, ", ");
        cat_quote_ident(columns->items[i], &q);
    }
    cm_buf_put_str(&q, " FROM ");
    for (int i = 0; i < names->count; i++) {
        if (i > 0)
            cm_buf_put_str(&q, ".");
        cat_quote_ident(names->items[i], &q);
    }
    const char *sql = cm_arena_strndup(b->arena, (const char *)q.data, q.len);
    size_t len = q.len;
    cm_buf_free(&q);
    pln_raw_list_t list;
    if (!pln_parse(b->arena, sql, len, &list, b->err))
        return false;
    if (list.count != 1 || list.items[0]->stmt == NULL || list.items[0]->stmt->kind != SQL_STMT_SELECT)
        return pln__error(b, -1, CM_ERRCODE_INTERNAL_ERROR, "no query could be made of relation \"%s\"",
                          (const char *)names->items[names->count - 1]);
    *out = list.items[0]->stmt->select;
    return true;
}

/* PostgreSQL's words for a relation COPY TO cannot read; NULL: a table, which it can. */
static const char *copy_from_noun(cat_item_kind_t kind)
{
    switch (kind) {
    case CAT_ITEM_VIEW: return "view";
    case CAT_ITEM_MATVIEW: return "materialized view";
    case CAT_ITEM_SOURCE: return "foreign table";
    case CAT_ITEM_INDEX: return "index";
    default: return NULL;
    }
}

/* COPY t [(cols)] TO: the relation checked as PostgreSQL's DoCopy and BeginCopyTo check it, then
 * the query that reads it, SELECT "a", "b" FROM "s"."t", parsed from text. */
static bool table_query(pln_binder_t *b, const sql_copy_t *c, const cat_item_t **rel, const sql_select_t **out)
{
    const cat_item_t *it;
    if (!pln__item_named(b, c->table->names, -1, &it))
        return false;
    cat_qname_t qn;
    if (!it && b->cat && b->cat->snap && pln__qname(b, c->table->names, -1, &qn)) {
        /* table_openrv: a schema named that does not exist is said so. */
        cm_err_t e = {0};
        bool no_schema = !cat_resolve_relation(b->cat->snap, &b->cat->search, &qn, &e) && strcmp(e.sqlstate, "3F000") == 0;
        if (no_schema)
            pln__error(b, -1, "3F000", "%s", e.message);
        cm_err_clear(&e);
        if (no_schema)
            return false;
    }
    const char *noun = it ? copy_from_noun(it->kind) : NULL;
    if (noun != NULL) {
        pln__error(b, -1, "42809", "cannot copy from %s \"%s\"", noun, it->name);
        if (it->kind == CAT_ITEM_VIEW || it->kind == CAT_ITEM_MATVIEW)
            cm_err_set_hint(b->err, "Try the COPY (SELECT ...) TO variant.");
        return false;
    }
    *rel = it;
    for (int i = 0; it != NULL && i < sql_list_len(c->columns); i++) {
        const char *name = c->columns->items[i];
        uint32_t k = 0;
        while (k < it->ncolumns && strcmp(it->columns[k].name, name) != 0)
            k++;
        if (k == it->ncolumns)
            return pln__error(b, -1, CM_ERRCODE_UNDEFINED_COLUMN, "column \"%s\" of relation \"%s\" does not exist",
                              name, it->name);
        for (int j = 0; j < i; j++)
            if (strcmp(c->columns->items[j], name) == 0)
                return pln__error(b, -1, "42701", "column \"%s\" specified more than once", name);
    }
    return pln__select_from(b, c->table->names, c->columns, out);
}

/* FORCE_QUOTE (names, or * for all): per output column whether it is always quoted. A name is
 * first looked for among the relation's columns (rel; NULL for a query: its output's), as
 * PostgreSQL's CopyGetAttnums does, then among those COPY writes. */
static bool force_quote_flags(pln_binder_t *b, const copy_opts_t *o, const cat_item_t *rel, const pln_stmt_t *st,
                              const bool **out)
{
    *out = NULL;
    if (!o->force_quote && !o->force_quote_all)
        return true;
    bool *flags = cm_arena_zalloc(b->arena, sizeof(bool) * (size_t)(st->ncols ? st->ncols : 1));
    for (int i = 0; i < st->ncols; i++)
        flags[i] = o->force_quote_all;
    for (int i = 0; o->force_quote && i < o->force_quote->count; i++) {
        const char *name = o->force_quote->items[i];
        bool known = rel == NULL;
        for (uint32_t k = 0; rel != NULL && k < rel->ncolumns && !known; k++)
            known = strcmp(rel->columns[k].name, name) == 0;
        if (!known)
            return pln__error(b, -1, CM_ERRCODE_UNDEFINED_COLUMN, "column \"%s\" of relation \"%s\" does not exist",
                              name, rel->name);
        int at = -1;
        for (int k = 0; k < st->ncols && at < 0; k++)
            if (strcmp(st->cols[k].name, name) == 0)
                at = k;
        if (at < 0 && rel == NULL)
            return pln__error(b, -1, CM_ERRCODE_UNDEFINED_COLUMN, "column \"%s\" does not exist", name);
        if (at < 0)
            return pln__error(b, -1, "42P10", "FORCE_QUOTE column \"%s\" not referenced by COPY", name);
        flags[at] = true;
    }
    *out = flags;
    return true;
}

bool pln__bind_copy_to(pln_binder_t *b, const sql_stmt_t *s, pln_stmt_t *st)
{
    const sql_copy_t *c = s->copy;
    const sql_select_t *q = c->query;
    const cat_item_t *rel = NULL;
    copy_opts_t o = {0};
    if (q == NULL && c->subscribe == NULL && !table_query(b, c, &rel, &q))
        return false;
    if (!read_options(b, c->options, &o) || !check_options(b, &o, false))
        return false;
    if (o.binary)
        return pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "COPY TO in binary format is not supported yet");
    if (c->subscribe != NULL ? !pln__bind_subscribe(b, c->subscribe, st) : !pln__bind_query_stmt(b, q, st)) {
        if (c->query == NULL)
            b->err->position = 0;   /* the query is ours, not the statement's text: PostgreSQL gives none */
        return false;
    }
    /* A utility statement takes no parameters in PostgreSQL: its query is analysed without them. */
    if (b->nparams > 0)
        return pln__error(b, b->nparam_nodes > 0 ? b->param_nodes[0]->location : -1, "42P02",
                          "there is no parameter $%d", b->nparam_nodes > 0 ? b->param_nodes[0]->index + 1 : 1);
    st->tag = c->subscribe != NULL ? "SUBSCRIBE" : "COPY";
    plan_copy_t *pc = cm_arena_zalloc(b->arena, sizeof(*pc));
    pc->format = o.csv ? PLAN_COPY_CSV : PLAN_COPY_TEXT;
    pc->header = o.header;
    pc->delimiter = o.delim[0];
    pc->null_string = o.null_print;
    if (o.csv) {
        pc->quote = o.quote[0];
        pc->escape = o.escape[0];
    }
    pc->ncols = st->ncols;
    if (!force_quote_flags(b, &o, rel, st, &pc->force_quote))
        return false;
    st->copy_to = pc;
    return true;
}

/* ------------------------------------------------------------ TRUNCATE */

bool pln__bind_truncate(pln_binder_t *b, const sql_stmt_t *s, pln_stmt_t *st)
{
    const sql_truncate_t *tr = s->truncate;
    plan_write_t *first = NULL, *last = NULL;
    /* PostgreSQL opens every relation before truncating any, so the first bad one is the error. */
    const plan_error_t *error = NULL;
    for (int i = 0; i < tr->tables->count; i++) {
        pln_target_t t;
        plan_write_t *w;
        if (pln__write_target(b, PLAN_WRITE_TRUNCATE, tr->tables->items[i], NULL, &t)) {
            w = t.w;
        } else {
            w = cm_arena_zalloc(b->arena, sizeof(*w));
            w->kind = PLAN_WRITE_TRUNCATE;
            if (!error)
                error = plan_error_keep(b->arena, b->err);
            else
                cm_err_clear(b->err);
        }
        if (last)
            last->next = w;
        else
            first = w;
        last = w;
    }
    first->error = error;
    st->write = first;
    return true;
}
