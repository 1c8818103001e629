/*
 * pln_default.c: a column default that is a literal, kept as the text
 * PostgreSQL's pg_get_expr prints for it, so pg_attrdef and
 * information_schema.columns.column_default read as they do there.
 *
 * PostgreSQL stores the default after coercion (cookDefault): an untyped
 * literal becomes a constant of the column's type, a number keeps its own
 * type (int4, int8 or numeric) under an implicit cast that ruleutils does
 * not print, and a NULL constant is no default at all. ruleutils then
 * prints a constant bare when it reads back as itself (a non-negative int4,
 * a numeric that looks like one with a point or exponent, true and false)
 * and quoted with its type otherwise ('x'::text, '-1'::integer,
 * '2020-01-01'::date). Other expressions keep eddy's canonical SQL, which
 * already agrees with PostgreSQL for calls and operators over column-free
 * arguments that are not literals (now(), CURRENT_TIMESTAMP, (1 + 2)).
 */
#include "planner/pln_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* get_const_expr: value is the type's text output; showtype false leaves the label to a cast around it. */
static void const_text(cm_buf_t *out, ty_oid_t type, int32_t typmod, const char *value, size_t len, bool showtype)
{
    bool label = true;
    if (type == TY_BOOL) {
        cm_buf_put_str(out, len > 0 && value[0] == 't' ? "true" : "false");
        return;
    }
    if ((type == TY_INT4 && len > 0 && value[0] != '-') ||
        (type == TY_NUMERIC && len > 0 && isdigit((unsigned char)value[0]) && memchr(value, '.', len) != NULL) ||
        (type == TY_NUMERIC && len > 0 && isdigit((unsigned char)value[0]) &&
         (memchr(value, 'e', len) != NULL || memchr(value, 'E', len) != NULL))) {
        cm_buf_put(out, value, len);
        label = type == TY_NUMERIC && typmod >= 0;
    } else {
        cm_buf_put_u8(out, '\'');
        for (size_t i = 0; i < len; i++) {
            if (value[i] == '\'')
                cm_buf_put_u8(out, '\'');
            cm_buf_put_u8(out, (uint8_t)value[i]);
        }
        cm_buf_put_u8(out, '\'');
    }
    if (label && showtype) {
        cm_buf_put_str(out, "::");
        ty_format_type(type, typmod, out);
    }
}

/* The literal's text converted to type with typmod and printed; false when it does not convert. */
static bool converted(pln_binder_t *b, cm_buf_t *out, ty_oid_t type, int32_t typmod, const char *p, size_t len,
                      bool showtype)
{
    cm_err_t err = {0};
    cm_err_t *saved = b->ctx.err;
    b->ctx.err = &err;
    ty_datum_t d = {0};
    cm_buf_t text;
    cm_buf_init(&text, 0);
    bool ok = ty_datum_from_text(type, typmod, p, len, &b->ctx, &d) && !d.isnull &&
              ty_datum_to_text(type, &d, &b->ctx, &text);
    b->ctx.err = saved;
    cm_err_clear(&err);
    if (ok)
        const_text(out, type, typmod, (const char *)text.data, text.len, showtype);
    cm_buf_free(&text);
    return ok;
}

/* A number as make_const types it: int4 when it fits, else int8, else numeric. */
static bool number_text(pln_binder_t *b, cm_buf_t *out, const char *s)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno == 0 && *s != '\0' && *end == '\0') {
        ty_oid_t type = v >= INT32_MIN && v <= INT32_MAX ? TY_INT4 : TY_INT8;
        char digits[32];
        int n = snprintf(digits, sizeof digits, "%lld", v);
        const_text(out, type, -1, digits, (size_t)n, true);
        return true;
    }
    return converted(b, out, TY_NUMERIC, -1, s, strlen(s), true);
}

bool pln__default_text(pln_binder_t *b, const sql_expr_t *e, ty_oid_t type, int32_t typmod, cm_buf_t *out,
                       bool *none)
{
    *none = false;
    if (e->kind == SQL_EXPR_CONST) {
        switch (e->const_kind) {
        case SQL_CONST_NULL:
            *none = true;
            return true;
        case SQL_CONST_BOOL:
            cm_buf_put_str(out, e->boolval ? "true" : "false");
            return true;
        case SQL_CONST_INTEGER:
        case SQL_CONST_NUMERIC:
            return number_text(b, out, e->str);
        case SQL_CONST_STRING:
            /* Input to the column's type; only interval's input takes the typmod (its fields). */
            return converted(b, out, type, type == TY_INTERVAL ? typmod : -1, e->str, e->len, true);
        default:
            return false;
        }
    }
    /* A typed literal ('x'::t, t 'x', CAST('x' AS t)); NULL::t is no default. */
    if (e->kind == SQL_EXPR_CAST && e->arg->kind == SQL_EXPR_CONST &&
        (e->arg->const_kind == SQL_CONST_STRING || e->arg->const_kind == SQL_CONST_NULL)) {
        ty_oid_t t;
        int32_t m;
        if (!pln__resolve_typename(b, e->type, &t, &m))   /* resolved once already, when the default was bound */
            return false;
        if (e->arg->const_kind == SQL_CONST_NULL) {
            *none = m < 0;
            return m < 0;
        }
        if (m < 0 || t == TY_INTERVAL)
            return converted(b, out, t, m, e->arg->str, e->arg->len, true);
        /* A length or precision is a cast around the constant: 'x'::character varying(3). */
        if (!converted(b, out, t, -1, e->arg->str, e->arg->len, false))
            return false;
        cm_buf_put_str(out, "::");
        ty_format_type(t, m, out);
        return true;
    }
    return false;
}
