/*
 * ty_func_regex.c: regular-expression functions that return scalars:
 * regexp_replace (with flags), substring(text, pattern), regexp_like,
 * regexp_count, regexp_instr and regexp_substr (their two- and
 * three-argument forms). Forms returning arrays or sets (regexp_match,
 * regexp_matches, regexp_split_*) need array types and are not here.
 *
 * Matching runs over the whole string with REG_STARTEND, so that ^ and word
 * boundaries see the text before a later search start, as in PostgreSQL.
 * After an empty match the search moves on by one character, which gives
 * PostgreSQL's results for patterns such as 'a*'.
 */
#include "types/ty_internal.h"

#include <string.h>

#define S TY_FN_STRICT
#define T TY_TEXT
#define NSUB 10

/* PostgreSQL's option letters that the POSIX engine can honour. */
bool ty_re_flags_parse(ty_ctx_t *c, const ty_datum_t *d, bool allow_g, ty_re_flags_t *f)
{
    f->cflags = 0;
    f->global = false;
    if (d == NULL)
        return true;
    for (uint32_t i = 0; i < d->v.s.len;) {
        uint32_t ch;
        size_t cl = ty_utf8_decode(d->v.s.p + i, d->v.s.len - i, &ch);
        switch (ch) {
        case 'g':
            if (!allow_g)
                goto bad;
            f->global = true;
            break;
        case 'i': f->cflags |= REG_ICASE; break;
        case 'c': f->cflags &= ~REG_ICASE; break;
        case 'n':
        case 'm':
        case 'w': f->cflags |= REG_NEWLINE; break;
        case 's':
        case 'p': f->cflags &= ~REG_NEWLINE; break;
        default:
            goto bad;
        }
        i += (uint32_t)cl;
        continue;
    bad:
        return cm_err_set(c->err, CM_ERRCODE_INVALID_PARAMETER_VALUE, "invalid regular expression option: \"%.*s\"",
                          (int)cl, d->v.s.p + i);
    }
    return true;
}

/* Next match at or after `start` (a byte offset); false when there is none. */
int ty_re_next(ty_ctx_t *ctx, const ty_re_t *re, const char *s, size_t len, size_t start, regmatch_t *m, size_t nm)
{
    if (start > len)
        return 0;
    if (re->pcre != NULL)
        return ty_regex_pcre_search(ctx, re, s, len, start, m, nm);
    m[0].rm_so = (regoff_t)start;
    m[0].rm_eo = (regoff_t)len;
    return ty_regex_exec(&re->posix, s, nm, m, REG_STARTEND) == 0;
}

/* Where the search after match m continues: past an empty match by one character. */
static size_t ty__re_advance(const char *s, size_t len, const regmatch_t *m)
{
    size_t e = (size_t)m[0].rm_eo;
    if (m[0].rm_so == m[0].rm_eo) {
        if (e >= len)
            return len + 1;
        uint32_t ch;
        e += ty_utf8_decode(s + e, len - e, &ch);
    }
    return e;
}

/* \1..\9 a group, \& the whole match, \\ one backslash; any other backslash is literal. */
static void ty__re_subst(cm_buf_t *b, const char *s, const regmatch_t *m, const char *r, size_t rl)
{
    for (size_t i = 0; i < rl; i++) {
        if (r[i] != '\\' || i + 1 >= rl) {
            cm_buf_put_u8(b, (uint8_t)r[i]);
            continue;
        }
        char nx = r[i + 1];
        int g = nx >= '1' && nx <= '9' ? nx - '0' : nx == '&' ? 0 : -1;
        if (g >= 0) {
            if (m[g].rm_so >= 0 && m[g].rm_eo >= m[g].rm_so)
                cm_buf_put(b, s + m[g].rm_so, (size_t)(m[g].rm_eo - m[g].rm_so));
            i++;
        } else if (nx == '\\') {
            cm_buf_put_u8(b, '\\');
            i++;
        } else {
            cm_buf_put_u8(b, '\\');
        }
    }
}

static bool ty__regexp_replace(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    ty_re_flags_t f;
    if (!ty_re_flags_parse(c, n > 3 ? &a[3] : NULL, true, &f))
        return false;
    ty_re_t re;
    if (!ty_re_compile(c, a[1].v.s.p, a[1].v.s.len, f.cflags, &re))
        return false;
    const char *s = ty_datum_cstr(c->arena, &a[0]);
    size_t len = a[0].v.s.len, pos = 0, start = 0;
    regmatch_t m[NSUB];
    cm_buf_t b;
    cm_buf_init(&b, 0);
    int rc;
    while ((rc = ty_re_next(c, &re, s, len, start, m, NSUB)) > 0) {
        cm_buf_put(&b, s + pos, (size_t)m[0].rm_so - pos);
        ty__re_subst(&b, s, m, a[2].v.s.p, a[2].v.s.len);
        pos = (size_t)m[0].rm_eo;
        if (!f.global)
            break;
        start = ty__re_advance(s, len, m);
    }
    ty_re_free(&re);
    if (rc < 0) {
        cm_buf_free(&b);
        return false;
    }
    cm_buf_put(&b, s + pos, len - pos);
    *o = ty_buf_datum(c->arena, &b);
    cm_buf_free(&b);
    return true;
}

/* The first parenthesized group if the pattern has one, else the whole match; NULL when none. */
static bool ty__substring_re(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    ty_re_t re;
    if (!ty_re_compile(c, a[1].v.s.p, a[1].v.s.len, 0, &re))
        return false;
    const char *s = ty_datum_cstr(c->arena, &a[0]);
    regmatch_t m[2];
    int found = ty_re_next(c, &re, s, a[0].v.s.len, 0, m, 2);
    int g = re.nsub > 0 ? 1 : 0;
    ty_re_free(&re);
    if (found < 0)
        return false;
    if (!found || m[g].rm_so < 0) {
        o->isnull = true;
        return true;
    }
    *o = ty_text_datum(c->arena, s + m[g].rm_so, (size_t)(m[g].rm_eo - m[g].rm_so));
    return true;
}

static bool ty__re_setup(ty_ctx_t *c, const ty_datum_t *a, int n, int flags_at, ty_re_t *re, const char **s)
{
    ty_re_flags_t f;
    if (!ty_re_flags_parse(c, n > flags_at ? &a[flags_at] : NULL, false, &f))
        return false;
    if (!ty_re_compile(c, a[1].v.s.p, a[1].v.s.len, f.cflags, re))
        return false;
    *s = ty_datum_cstr(c->arena, &a[0]);
    return true;
}

static bool ty__regexp_like(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    ty_re_t re;
    const char *s;
    if (!ty__re_setup(c, a, n, 2, &re, &s))
        return false;
    regmatch_t m[1];
    int found = ty_re_next(c, &re, s, a[0].v.s.len, 0, m, 1);
    ty_re_free(&re);
    o->v.b = found > 0;
    return found >= 0;
}

static bool ty__regexp_count(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    ty_re_t re;
    const char *s;
    if (!ty__re_setup(c, a, n, 3, &re, &s))
        return false;
    size_t len = a[0].v.s.len, start = 0;
    if (n > 2) {
        if (a[2].v.i <= 0) {
            ty_re_free(&re);
            return cm_err_set(c->err, CM_ERRCODE_INVALID_PARAMETER_VALUE,
                              "invalid value for parameter \"%s\": %lld", "start", (long long)a[2].v.i);
        }
        int64_t k = a[2].v.i - 1;
        while (k-- > 0 && start < len) {
            uint32_t ch;
            start += ty_utf8_decode(s + start, len - start, &ch);
        }
        if (a[2].v.i - 1 > ty_text_chars(s, len))
            start = len + 1;
    }
    regmatch_t m[1];
    int64_t count = 0;
    int rc;
    while ((rc = ty_re_next(c, &re, s, len, start, m, 1)) > 0) {
        count++;
        start = ty__re_advance(s, len, m);
    }
    ty_re_free(&re);
    o->v.i = count;
    return rc == 0;
}

static bool ty__regexp_instr(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    ty_re_t re;
    const char *s;
    if (!ty__re_setup(c, a, n, 99, &re, &s))
        return false;
    regmatch_t m[1];
    int found = ty_re_next(c, &re, s, a[0].v.s.len, 0, m, 1);
    ty_re_free(&re);
    if (found < 0)
        return false;
    o->v.i = found ? ty_text_chars(s, (size_t)m[0].rm_so) + 1 : 0;
    return true;
}

static bool ty__regexp_substr(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    ty_re_t re;
    const char *s;
    if (!ty__re_setup(c, a, n, 99, &re, &s))
        return false;
    regmatch_t m[1];
    int found = ty_re_next(c, &re, s, a[0].v.s.len, 0, m, 1);
    ty_re_free(&re);
    if (found < 0)
        return false;
    if (!found) {
        o->isnull = true;
        return true;
    }
    *o = ty_text_datum(c->arena, s + m[0].rm_so, (size_t)(m[0].rm_eo - m[0].rm_so));
    return true;
}

static const ty_func_t ty__regex_funcs[] = {
    {"regexp_replace", 3, {T, T, T}, T, S, ty__regexp_replace, 2284},
    {"regexp_replace", 4, {T, T, T, T}, T, S, ty__regexp_replace, 2285},
    {"substring", 2, {T, T}, T, S, ty__substring_re, 2073},
    {"regexp_like", 2, {T, T}, TY_BOOL, S, ty__regexp_like, 6263},
    {"regexp_like", 3, {T, T, T}, TY_BOOL, S, ty__regexp_like, 6264},
    {"regexp_count", 2, {T, T}, TY_INT4, S, ty__regexp_count, 6252},
    {"regexp_count", 3, {T, T, TY_INT4}, TY_INT4, S, ty__regexp_count, 6253},
    {"regexp_count", 4, {T, T, TY_INT4, T}, TY_INT4, S, ty__regexp_count, 6254},
    {"regexp_instr", 2, {T, T}, TY_INT4, S, ty__regexp_instr, 6255},
    {"regexp_substr", 2, {T, T}, T, S, ty__regexp_substr, 6262},
};

const ty_func_table_t ty_funcs_regex = {ty__regex_funcs, CM_ARRAY_LEN(ty__regex_funcs)};
