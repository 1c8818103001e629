/*
 * ty_similar.c: the pattern rewrites behind LIKE ... ESCAPE and SIMILAR TO.
 *
 * PostgreSQL does not give LIKE an escape argument: `a LIKE p ESCAPE e`
 * becomes `a ~~ like_escape(p, e)`, which rewrites p so that backslash is its
 * escape. SIMILAR TO becomes `a ~ similar_to_escape(p [, e])`, which turns
 * the SQL-standard regular expression into a POSIX one anchored at both
 * ends. Both functions are callable by name as well, so their results must
 * be PostgreSQL 15's byte for byte (like_escape in like_match.c,
 * similar_escape_internal in regexp.c).
 */
#include "types/ty_internal.h"

#include <string.h>

#define S TY_FN_STRICT
#define T TY_TEXT

/* Bytes of the UTF-8 character at p (1 for a stray byte). */
static size_t ty__charlen(const char *p, size_t avail)
{
    uint32_t cp;
    size_t n = ty_utf8_decode(p, avail, &cp);
    return n ? n : 1;
}

static bool ty__bad_escape(ty_ctx_t *c)
{
    cm_err_set(c->err, CM_ERRCODE_INVALID_ESCAPE_SEQUENCE, "invalid escape string");
    cm_err_set_hint(c->err, "Escape string must be empty or one character.");
    return false;
}

/* like_escape(pattern, escape): the pattern with backslash as its escape character. */
static bool ty__like_escape(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *out)
{
    const char *p = a[0].v.s.p, *e = a[1].v.s.p;
    size_t plen = a[0].v.s.len, elen = a[1].v.s.len;
    cm_buf_t r;
    cm_buf_init(&r, plen * 2 + 1);
    if (elen == 0) {
        /* No escape at all: backslashes become ordinary characters. */
        for (size_t i = 0; i < plen; i++) {
            if (p[i] == '\\')
                cm_buf_put_u8(&r, '\\');
            cm_buf_put_u8(&r, (uint8_t)p[i]);
        }
    } else {
        size_t el = ty__charlen(e, elen);
        if (el != elen) {
            cm_buf_free(&r);
            return ty__bad_escape(c);
        }
        if (e[0] == '\\') {
            cm_buf_put(&r, p, plen);
        } else {
            /* The escape becomes '\'; a '\' is doubled unless the escape precedes it. */
            bool after = false;
            for (size_t i = 0; i < plen;) {
                size_t cl = ty__charlen(p + i, plen - i);
                if (!after && cl == el && memcmp(p + i, e, el) == 0) {
                    cm_buf_put_u8(&r, '\\');
                    after = true;
                } else if (p[i] == '\\') {
                    cm_buf_put_u8(&r, '\\');
                    if (!after)
                        cm_buf_put_u8(&r, '\\');
                    after = false;
                } else {
                    cm_buf_put(&r, p + i, cl);
                    after = false;
                }
                i += cl;
            }
        }
    }
    *out = ty_buf_datum(c->arena, &r);
    cm_buf_free(&r);
    return true;
}

/*
 * The SQL regular expression as PostgreSQL's similar_escape_internal writes
 * it: ^(?: ... )$ around it, % and _ as .* and ., ( as (?:, the escape
 * character's next character escaped, and up to two escape-double-quotes
 * splitting it into ^(?:part1){1,1}?(part2){1,1}(?:part3)$ for SUBSTRING.
 * esc NULL means the default escape, backslash; an empty one means none.
 */
static bool ty__similar(ty_ctx_t *c, const ty_datum_t *pat, const ty_datum_t *esc, ty_datum_t *out)
{
    const char *p = pat->v.s.p, *e = "\\";
    size_t plen = pat->v.s.len, elen = 1;
    if (esc) {
        e = esc->v.s.p;
        elen = esc->v.s.len;
        if (elen == 0)
            e = NULL;
        else if (elen > 1 && ty__charlen(e, elen) != elen)
            return ty__bad_escape(c);
    }
    cm_buf_t r;
    cm_buf_init(&r, 23 + 3 * plen);
    cm_buf_put_str(&r, "^(?:");
    bool after = false, inclass = false;
    int nquotes = 0;
    while (plen > 0) {
        char ch = *p;
        if (elen > 1) {
            /* A multi-byte escape is compared with whole characters. */
            size_t ml = ty__charlen(p, plen);
            if (ml > 1) {
                if (after) {
                    cm_buf_put_u8(&r, '\\');
                    cm_buf_put(&r, p, ml);
                    after = false;
                } else if (e && elen == ml && memcmp(e, p, ml) == 0) {
                    after = true;
                } else {
                    cm_buf_put(&r, p, ml);
                }
                p += ml;
                plen -= ml;
                continue;
            }
        }
        if (after) {
            if (ch == '"' && !inclass) {
                if (nquotes == 0) {
                    cm_buf_put_str(&r, "){1,1}?(");
                } else if (nquotes == 1) {
                    cm_buf_put_str(&r, "){1,1}(?:");
                } else {
                    cm_buf_free(&r);
                    return cm_err_set(c->err, "2200C",
                                      "SQL regular expression may not contain more than two escape-double-quote "
                                      "separators");
                }
                nquotes++;
            } else {
                cm_buf_put_u8(&r, '\\');
                cm_buf_put_u8(&r, (uint8_t)ch);
            }
            after = false;
        } else if (e && ch == *e) {
            after = true;   /* the escape itself is not copied */
        } else if (inclass) {
            if (ch == '\\')
                cm_buf_put_u8(&r, '\\');
            cm_buf_put_u8(&r, (uint8_t)ch);
            if (ch == ']')
                inclass = false;
        } else if (ch == '[') {
            cm_buf_put_u8(&r, '[');
            inclass = true;
        } else if (ch == '%') {
            cm_buf_put_str(&r, ".*");
        } else if (ch == '_') {
            cm_buf_put_u8(&r, '.');
        } else if (ch == '(') {
            cm_buf_put_str(&r, "(?:");
        } else if (ch == '\\' || ch == '.' || ch == '^' || ch == '$') {
            cm_buf_put_u8(&r, '\\');
            cm_buf_put_u8(&r, (uint8_t)ch);
        } else {
            cm_buf_put_u8(&r, (uint8_t)ch);
        }
        p++;
        plen--;
    }
    cm_buf_put_str(&r, ")$");
    *out = ty_buf_datum(c->arena, &r);
    cm_buf_free(&r);
    return true;
}

static bool ty__similar_to_escape(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *out)
{
    return ty__similar(c, &a[0], n > 1 ? &a[1] : NULL, out);
}

static const ty_func_t ty__similar_funcs[] = {
    {"like_escape", 2, {T, T}, T, S, ty__like_escape, 1637},
    {"similar_to_escape", 2, {T, T}, T, S, ty__similar_to_escape, 1986},
    {"similar_to_escape", 1, {T}, T, S, ty__similar_to_escape, 1987},
};

const ty_func_table_t ty_funcs_similar = {ty__similar_funcs, CM_ARRAY_LEN(ty__similar_funcs)};
