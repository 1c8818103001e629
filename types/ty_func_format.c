/*
 * ty_func_format.c: format(formatstr, VARIADIC "any") with PostgreSQL's
 * specifiers %s %I %L and %%, argument positions (%2$s), the "-" flag and
 * widths, fixed (%10s) or taken from an argument (%*s, %*2$s), and
 * PostgreSQL's error messages for malformed specifiers.
 *
 * Arguments declared "any" arrive as their text output (ty_expr.c), which is
 * what PostgreSQL formats too; a width argument is parsed back as an int.
 */
#include "types/ty_internal.h"

#include <stdlib.h>
#include <string.h>

#define LEFT_JUSTIFY 1

static bool ty__fmt_err(ty_ctx_t *c, const char *msg)
{
    return cm_err_set(c->err, CM_ERRCODE_INVALID_PARAMETER_VALUE, "%s", msg);
}

static bool ty__unterminated(ty_ctx_t *c)
{
    cm_err_set(c->err, CM_ERRCODE_INVALID_PARAMETER_VALUE, "unterminated format() type specifier");
    cm_err_set_hint(c->err, "For a single \"%%\" use \"%%%%\".");
    return false;
}

/* Digits at *p; false if there are none. 22003-like overflow is PostgreSQL's 22023 "number is out of range". */
static bool ty__digits(ty_ctx_t *c, const char **p, const char *end, int *n, bool *found)
{
    *found = false;
    int64_t v = 0;
    while (*p < end && **p >= '0' && **p <= '9') {
        v = v * 10 + (**p - '0');
        if (v > INT32_MAX)
            return ty__fmt_err(c, "number is out of range");
        (*p)++;
        *found = true;
        if (*p >= end)
            return ty__unterminated(c);
    }
    *n = (int)v;
    return true;
}

static bool ty__parse_spec(ty_ctx_t *c, const char **pp, const char *end, int *argpos, int *widthpos, int *flags,
                           int *width)
{
    const char *p = *pp;
    int n;
    bool found;
    *argpos = -1;
    *widthpos = -1;
    *flags = 0;
    *width = 0;
    if (!ty__digits(c, &p, end, &n, &found))
        return false;
    if (found) {
        if (*p == '$') {
            if (n == 0)
                return ty__fmt_err(c, "format specifies argument 0, but arguments are numbered from 1");
            *argpos = n;
            if (++p >= end)
                return ty__unterminated(c);
        } else {
            /* Digits without '$' were the width. */
            *width = n;
            *pp = p;
            return true;
        }
    }
    while (*p == '-') {
        *flags |= LEFT_JUSTIFY;
        if (++p >= end)
            return ty__unterminated(c);
    }
    if (*p == '*') {
        if (++p >= end)
            return ty__unterminated(c);
        if (!ty__digits(c, &p, end, &n, &found))
            return false;
        if (found) {
            if (*p != '$')
                return ty__fmt_err(c, "width argument position must be ended by \"$\"");
            if (n == 0)
                return ty__fmt_err(c, "format specifies argument 0, but arguments are numbered from 1");
            *widthpos = n;
            if (++p >= end)
                return ty__unterminated(c);
        } else {
            *widthpos = 0;
        }
    } else {
        if (!ty__digits(c, &p, end, &n, &found))
            return false;
        if (found)
            *width = n;
    }
    *pp = p;
    return true;
}

static void ty__append_padded(cm_buf_t *out, const char *s, size_t len, int flags, int width)
{
    int chars = width > 0 ? ty_text_chars(s, len) : 0;
    if (width > chars && !(flags & LEFT_JUSTIFY))
        for (int i = chars; i < width; i++)
            cm_buf_put_u8(out, ' ');
    cm_buf_put(out, s, len);
    if (width > chars && (flags & LEFT_JUSTIFY))
        for (int i = chars; i < width; i++)
            cm_buf_put_u8(out, ' ');
}

static bool ty__format_run(ty_ctx_t *c, const ty_datum_t *a, int nargs, cm_buf_t *out)
{
    const char *p = a[0].v.s.p, *end = p + a[0].v.s.len;
    int arg = 0;
    while (p < end) {
        if (*p != '%') {
            cm_buf_put_u8(out, (uint8_t)*p++);
            continue;
        }
        if (++p >= end)
            return ty__unterminated(c);
        if (*p == '%') {
            cm_buf_put_u8(out, '%');
            p++;
            continue;
        }
        int argpos, widthpos, flags, width;
        if (!ty__parse_spec(c, &p, end, &argpos, &widthpos, &flags, &width))
            return false;
        if (strchr("sIL", *p) == NULL) {
            uint32_t cp;
            size_t cl = ty_utf8_decode(p, (size_t)(end - p), &cp);
            cm_err_set(c->err, CM_ERRCODE_INVALID_PARAMETER_VALUE, "unrecognized format() type specifier \"%.*s\"",
                       (int)cl, p);
            cm_err_set_hint(c->err, "For a single \"%%\" use \"%%%%\".");
            return false;
        }
        if (widthpos >= 0) {
            arg = widthpos > 0 ? widthpos : arg + 1;
            if (arg >= nargs)
                return ty__fmt_err(c, "too few arguments for format()");
            if (a[arg].isnull) {
                width = 0;
            } else {
                char *w = ty_datum_cstr(c->arena, &a[arg]);
                char *e;
                long long v = strtoll(w, &e, 10);
                if (*e != 0 || v < INT32_MIN || v > INT32_MAX)
                    return cm_err_set(c->err, CM_ERRCODE_INVALID_TEXT_REPRESENTATION,
                                      "invalid input syntax for type integer: \"%s\"", w);
                if (v < 0) {
                    if (v == INT32_MIN)
                        return ty__fmt_err(c, "number is out of range");
                    flags |= LEFT_JUSTIFY;
                    v = -v;
                }
                width = (int)v;
            }
        }
        arg = argpos > 0 ? argpos : arg + 1;
        if (arg >= nargs)
            return ty__fmt_err(c, "too few arguments for format()");
        const ty_datum_t *v = &a[arg];
        char type = *p++;
        if (v->isnull) {
            if (type == 'I')
                return cm_err_set(c->err, CM_ERRCODE_NULL_VALUE_NOT_ALLOWED,
                                  "null values cannot be formatted as an SQL identifier");
            if (type == 'L')
                ty__append_padded(out, "NULL", 4, flags, width);
            else
                ty__append_padded(out, "", 0, flags, width);
            continue;
        }
        if (type == 's') {
            ty__append_padded(out, v->v.s.p, v->v.s.len, flags, width);
            continue;
        }
        cm_buf_t q;
        cm_buf_init(&q, 0);
        if (type == 'I')
            ty_quote_ident(v->v.s.p, v->v.s.len, &q);
        else
            ty_quote_literal(v->v.s.p, v->v.s.len, &q);
        ty__append_padded(out, (const char *)q.data, q.len, flags, width);
        cm_buf_free(&q);
    }
    return true;
}

/* Not strict: a NULL format gives NULL, NULL arguments are formatted. */
static bool ty__format(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    if (a[0].isnull) {
        o->isnull = true;
        return true;
    }
    cm_buf_t b;
    cm_buf_init(&b, 0);
    bool ok = ty__format_run(c, a, n, &b);
    if (ok)
        *o = ty_buf_datum(c->arena, &b);
    cm_buf_free(&b);
    return ok;
}

/*
 * PostgreSQL also declares format(text) (oid 3540). The planner lets a
 * variadic function take zero variadic arguments, so the variadic entry
 * serves format('abc') too, and a second entry would make the call ambiguous.
 */
static const ty_func_t ty__format_funcs[] = {
    {"format", 2, {TY_TEXT, TY_INVALID}, TY_TEXT, TY_FN_VARIADIC, ty__format, 3539},
};

const ty_func_table_t ty_funcs_format = {ty__format_funcs, CM_ARRAY_LEN(ty__format_funcs)};
