/*
 * ty_string.c: helpers for the string types: datums over arena bytes,
 * UTF-8 character counting, and the varchar(n) / char(n) length rules.
 */
#include "types/ty_internal.h"

#include <string.h>

ty_datum_t ty_text_datum(cm_arena_t *a, const char *p, size_t len)
{
    ty_datum_t d = {0};
    char *c = cm_arena_alloc(a, len + 1);
    if (len)
        memcpy(c, p, len);
    c[len] = 0;
    d.v.s.p = c;
    d.v.s.len = (uint32_t)len;
    return d;
}

ty_datum_t ty_buf_datum(cm_arena_t *a, const cm_buf_t *b)
{
    return ty_text_datum(a, (const char *)b->data, b->len);
}

char *ty_datum_cstr(cm_arena_t *a, const ty_datum_t *d)
{
    return cm_arena_strndup(a, d->v.s.p ? d->v.s.p : "", d->v.s.len);
}

int ty_text_chars(const char *p, size_t len)
{
    return cm_utf8_chars(p, len);
}

size_t ty_bpchar_len(const char *p, size_t len)
{
    while (len > 0 && p[len - 1] == ' ')
        len--;
    return len;
}

/* Byte offset of the n-th character (or len if there are fewer). */
static size_t ty__char_offset(const char *p, size_t len, int n)
{
    size_t i = 0;
    int c = 0;
    while (i < len && c < n) {
        i++;
        while (i < len && ((unsigned char)p[i] & 0xC0) == 0x80)
            i++;
        c++;
    }
    return i;
}

bool ty_string_apply_typmod(ty_ctx_t *ctx, ty_oid_t type, int32_t typmod, bool explicit_cast, ty_datum_t *d)
{
    if (d->isnull || typmod < 4 || (type != TY_VARCHAR && type != TY_BPCHAR))
        return true;
    int maxlen = typmod - 4;
    const char *p = d->v.s.p;
    size_t len = d->v.s.len;
    int chars = ty_text_chars(p, len);
    if (chars > maxlen) {
        size_t cut = ty__char_offset(p, len, maxlen);
        if (!explicit_cast) {
            /* Only trailing spaces may be dropped silently. */
            for (size_t i = cut; i < len; i++) {
                if (p[i] != ' ')
                    return cm_err_set(ctx->err, CM_ERRCODE_STRING_DATA_RIGHT_TRUNCATION,
                                      "value too long for type %s(%d)",
                                      type == TY_VARCHAR ? "character varying" : "character", maxlen);
            }
        }
        d->v.s.len = (uint32_t)cut;
        chars = maxlen;
    }
    if (type == TY_BPCHAR && chars < maxlen) {
        size_t pad = (size_t)(maxlen - chars);
        char *n = cm_arena_alloc(ctx->arena, d->v.s.len + pad + 1);
        memcpy(n, d->v.s.p, d->v.s.len);
        memset(n + d->v.s.len, ' ', pad);
        n[d->v.s.len + pad] = 0;
        d->v.s.p = n;
        d->v.s.len += (uint32_t)pad;
    }
    return true;
}
