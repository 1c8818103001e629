/*
 * ty_like.c: LIKE / ILIKE matching (regular expressions are in ty_regex.c).
 *
 * LIKE works on UTF-8 characters with PostgreSQL's default escape "\".
 */
#include "types/ty_internal.h"

#include <string.h>

static size_t ty__utf8_len(const char *p, size_t avail)
{
    unsigned char c = (unsigned char)p[0];
    size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    return n > avail ? avail : n;
}

/* Decodes one UTF-8 character (no validation beyond lengths; input is valid text). */
static uint32_t ty__utf8_dec(const char *p, size_t n)
{
    const unsigned char *u = (const unsigned char *)p;
    switch (n) {
    case 1: return u[0];
    case 2: return (uint32_t)(u[0] & 0x1F) << 6 | (u[1] & 0x3F);
    case 3: return (uint32_t)(u[0] & 0x0F) << 12 | (uint32_t)(u[1] & 0x3F) << 6 | (u[2] & 0x3F);
    default: return (uint32_t)(u[0] & 0x07) << 18 | (uint32_t)(u[1] & 0x3F) << 12 | (uint32_t)(u[2] & 0x3F) << 6 | (u[3] & 0x3F);
    }
}

static bool ty__chr_eq(const char *a, size_t an, const char *b, size_t bn, bool icase)
{
    if (!icase)
        return an == bn && memcmp(a, b, an) == 0;
    /* PostgreSQL lower-cases both sides with the database's ctype (C.UTF-8). */
    return ty_uni_lower(ty__utf8_dec(a, an)) == ty_uni_lower(ty__utf8_dec(b, bn));
}

/* Returns 1 match, 0 no match, -1 bad pattern (trailing escape). */
static int ty__like(const char *s, size_t sl, const char *p, size_t pl, bool icase)
{
    size_t si = 0, pi = 0;
    size_t star_p = SIZE_MAX, star_s = 0;
    while (si < sl) {
        if (pi < pl && p[pi] == '%') {
            while (pi < pl && p[pi] == '%')
                pi++;
            if (pi == pl) {
                /* A trailing % matches the rest; still check the pattern is sane. */
                return 1;
            }
            star_p = pi;
            star_s = si;
            continue;
        }
        if (pi < pl) {
            size_t cn = ty__utf8_len(s + si, sl - si);
            if (p[pi] == '_') {
                si += cn;
                pi++;
                continue;
            }
            size_t pp = pi;
            if (p[pp] == '\\') {
                pp++;
                if (pp >= pl)
                    return -1;
            }
            size_t pn = ty__utf8_len(p + pp, pl - pp);
            if (ty__chr_eq(s + si, cn, p + pp, pn, icase)) {
                si += cn;
                pi = pp + pn;
                continue;
            }
        }
        if (star_p == SIZE_MAX)
            return 0;
        /* Backtrack: let the last % absorb one more character. */
        star_s += ty__utf8_len(s + star_s, sl - star_s);
        si = star_s;
        pi = star_p;
    }
    while (pi < pl && p[pi] == '%')
        pi++;
    if (pi < pl && p[pi] == '\\' && pi + 1 >= pl)
        return -1;
    return pi == pl;
}

bool ty_like_match(ty_ctx_t *ctx, const char *s, size_t slen, const char *p, size_t plen, bool icase, bool *out)
{
    int r = ty__like(s, slen, p, plen, icase);
    if (r < 0)
        return cm_err_set(ctx->err, CM_ERRCODE_INVALID_ESCAPE_SEQUENCE, "LIKE pattern must not end with escape character");
    *out = r == 1;
    return true;
}
