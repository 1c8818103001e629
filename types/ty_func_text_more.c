/*
 * ty_func_text_more.c: more string functions: bit_length, translate, the
 * ^@ (starts with) operator and to_hex.
 */
#include "types/ty_internal.h"

#include <stdio.h>
#include <string.h>

#define S TY_FN_STRICT
#define T TY_TEXT

static bool ty__bit_length(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.i = (int64_t)a[0].v.s.len * 8;
    return true;
}

/* Each character found in `from` is replaced by the one at the same
 * position in `to`, or dropped when `to` is shorter; counted in characters. */
static bool ty__translate(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    const char *s = a[0].v.s.p, *from = a[1].v.s.p, *to = a[2].v.s.p;
    size_t sl = a[0].v.s.len, fl = a[1].v.s.len, tl = a[2].v.s.len;
    cm_buf_t b;
    cm_buf_init(&b, 0);
    for (size_t i = 0; i < sl;) {
        uint32_t ch;
        size_t cl = ty_utf8_decode(s + i, sl - i, &ch);
        int idx = -1, k = 0;
        for (size_t j = 0; j < fl; k++) {
            uint32_t fc;
            size_t fcl = ty_utf8_decode(from + j, fl - j, &fc);
            if (fcl == cl && memcmp(from + j, s + i, cl) == 0) {
                idx = k;
                break;
            }
            j += fcl;
        }
        if (idx < 0) {
            cm_buf_put(&b, s + i, cl);
        } else {
            size_t j = 0;
            for (int m = 0; m < idx && j < tl; m++) {
                uint32_t tc;
                j += ty_utf8_decode(to + j, tl - j, &tc);
            }
            if (j < tl) {
                uint32_t tc;
                cm_buf_put(&b, to + j, ty_utf8_decode(to + j, tl - j, &tc));
            }
        }
        i += cl;
    }
    *o = ty_buf_datum(c->arena, &b);
    cm_buf_free(&b);
    return true;
}

static bool ty__starts_with_op(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.b = a[0].v.s.len >= a[1].v.s.len && memcmp(a[0].v.s.p, a[1].v.s.p, a[1].v.s.len) == 0;
    return true;
}

/* Two's complement digits of the type's width, as PostgreSQL prints them. */
static bool ty__to_hex4(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    char buf[16];
    int len = snprintf(buf, sizeof(buf), "%x", (unsigned)(uint32_t)a[0].v.i);
    *o = ty_text_datum(c->arena, buf, (size_t)len);
    return true;
}

static bool ty__to_hex8(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    char buf[24];
    int len = snprintf(buf, sizeof(buf), "%llx", (unsigned long long)(uint64_t)a[0].v.i);
    *o = ty_text_datum(c->arena, buf, (size_t)len);
    return true;
}

static const ty_func_t ty__text_more[] = {
    {"bit_length", 1, {T}, TY_INT4, S, ty__bit_length, 1681},
    {"bit_length", 1, {TY_BYTEA}, TY_INT4, S, ty__bit_length, 1810},
    {"translate", 3, {T, T, T}, T, S, ty__translate, 878},
    {"^@", 2, {T, T}, TY_BOOL, S | TY_FN_OPERATOR, ty__starts_with_op, 3877},
    {"to_hex", 1, {TY_INT4}, T, S, ty__to_hex4, 2089},
    {"to_hex", 1, {TY_INT8}, T, S, ty__to_hex8, 2090},
};

const ty_func_table_t ty_funcs_text_more = {ty__text_more, CM_ARRAY_LEN(ty__text_more)};
