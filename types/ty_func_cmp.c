/*
 * ty_func_cmp.c: the comparison operators = <> < <= > >= of every supported
 * type (same-type pairs, as the planner applies implicit casts first), and
 * the pattern operators: || on text, LIKE (~~, !~~, ~~*, !~~*) and regular
 * expressions (~, ~*, !~, !~*).
 */
#include "types/ty_internal.h"

#include <string.h>

#define OP (TY_FN_STRICT | TY_FN_OPERATOR)

#define TY_CMP_SET(T, TYPE)                                                                                  \
    static bool ty__##T##_eq(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)                         \
    {                                                                                                        \
        o->v.b = ty_datum_compare(TYPE, &a[0], &a[1]) == 0;                                                  \
        return true;                                                                                         \
    }                                                                                                        \
    static bool ty__##T##_ne(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)                         \
    {                                                                                                        \
        o->v.b = ty_datum_compare(TYPE, &a[0], &a[1]) != 0;                                                  \
        return true;                                                                                         \
    }                                                                                                        \
    static bool ty__##T##_lt(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)                         \
    {                                                                                                        \
        o->v.b = ty_datum_compare(TYPE, &a[0], &a[1]) < 0;                                                   \
        return true;                                                                                         \
    }                                                                                                        \
    static bool ty__##T##_le(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)                         \
    {                                                                                                        \
        o->v.b = ty_datum_compare(TYPE, &a[0], &a[1]) <= 0;                                                  \
        return true;                                                                                         \
    }                                                                                                        \
    static bool ty__##T##_gt(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)                         \
    {                                                                                                        \
        o->v.b = ty_datum_compare(TYPE, &a[0], &a[1]) > 0;                                                   \
        return true;                                                                                         \
    }                                                                                                        \
    static bool ty__##T##_ge(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)                         \
    {                                                                                                        \
        o->v.b = ty_datum_compare(TYPE, &a[0], &a[1]) >= 0;                                                  \
        return true;                                                                                         \
    }

TY_CMP_SET(int, TY_INT8)
TY_CMP_SET(float, TY_FLOAT8)
TY_CMP_SET(num, TY_NUMERIC)
TY_CMP_SET(bool, TY_BOOL)
TY_CMP_SET(text, TY_TEXT)
TY_CMP_SET(bpchar, TY_BPCHAR)
TY_CMP_SET(uuid, TY_UUID)
TY_CMP_SET(interval, TY_INTERVAL)
TY_CMP_SET(oid, TY_OID)

#define CMP6(T, TYPE, B)                                                                                     \
    {"=", 2, {TYPE, TYPE}, TY_BOOL, OP, ty__##T##_eq, B}, {"<>", 2, {TYPE, TYPE}, TY_BOOL, OP, ty__##T##_ne, B + 1}, \
        {"<", 2, {TYPE, TYPE}, TY_BOOL, OP, ty__##T##_lt, B + 2},                                            \
        {"<=", 2, {TYPE, TYPE}, TY_BOOL, OP, ty__##T##_le, B + 3},                                           \
        {">", 2, {TYPE, TYPE}, TY_BOOL, OP, ty__##T##_gt, B + 4},                                            \
        {">=", 2, {TYPE, TYPE}, TY_BOOL, OP, ty__##T##_ge, B + 5}

/* ===== || ===== */

static bool ty__textcat(ty_ctx_t *ctx, const ty_datum_t *a, int n, ty_datum_t *out)
{
    size_t l0 = a[0].v.s.len, l1 = a[1].v.s.len;
    char *p = cm_arena_alloc(ctx->arena, l0 + l1 + 1);
    if (l0)
        memcpy(p, a[0].v.s.p, l0);
    if (l1)
        memcpy(p + l0, a[1].v.s.p, l1);
    p[l0 + l1] = 0;
    out->v.s.p = p;
    out->v.s.len = (uint32_t)(l0 + l1);
    return true;
}

static bool ty__byteacat(ty_ctx_t *ctx, const ty_datum_t *a, int n, ty_datum_t *out)
{
    return ty__textcat(ctx, a, n, out);
}

/* ===== LIKE and regular expressions ===== */

#define TY_PATTERN(NAME, FN, ICASE, NEG)                                                                     \
    static bool ty__##NAME(ty_ctx_t *ctx, const ty_datum_t *a, int n, ty_datum_t *out)                       \
    {                                                                                                        \
        bool m;                                                                                              \
        if (!FN(ctx, a[0].v.s.p, a[0].v.s.len, a[1].v.s.p, a[1].v.s.len, ICASE, &m))                         \
            return false;                                                                                    \
        out->v.b = NEG ? !m : m;                                                                             \
        return true;                                                                                         \
    }

TY_PATTERN(like, ty_like_match, false, false)
TY_PATTERN(notlike, ty_like_match, false, true)
TY_PATTERN(ilike, ty_like_match, true, false)
TY_PATTERN(notilike, ty_like_match, true, true)
TY_PATTERN(re, ty_regex_match, false, false)
TY_PATTERN(nre, ty_regex_match, false, true)
TY_PATTERN(rei, ty_regex_match, true, false)
TY_PATTERN(nrei, ty_regex_match, true, true)

/* bpchar LIKE ignores the padding, as the bpchar -> text cast would drop it. */
static bool ty__bplike(ty_ctx_t *ctx, const ty_datum_t *a, int n, ty_datum_t *out)
{
    ty_datum_t t[2] = {a[0], a[1]};
    t[0].v.s.len = (uint32_t)ty_bpchar_len(a[0].v.s.p, a[0].v.s.len);
    return ty__like(ctx, t, n, out);
}

#define PAT(SYM, T, F, ID) {SYM, 2, {T, T}, TY_BOOL, OP, F, ID}

static const ty_func_t ty__cmp[] = {
    CMP6(int, TY_INT2, 94), CMP6(int, TY_INT4, 96), CMP6(int, TY_INT8, 410),
    CMP6(float, TY_FLOAT4, 620), CMP6(float, TY_FLOAT8, 670), CMP6(num, TY_NUMERIC, 1752),
    CMP6(bool, TY_BOOL, 91), CMP6(text, TY_TEXT, 98), CMP6(bpchar, TY_BPCHAR, 1054),
    CMP6(text, TY_NAME, 93), CMP6(text, TY_BYTEA, 1955), CMP6(text, TY_CHAR, 92),
    CMP6(uuid, TY_UUID, 2972), CMP6(interval, TY_INTERVAL, 1330), CMP6(oid, TY_OID, 607),
    CMP6(int, TY_DATE, 1093), CMP6(int, TY_TIME, 1108), CMP6(int, TY_TIMESTAMP, 2060),
    CMP6(int, TY_TIMESTAMPTZ, 1320),
    {"||", 2, {TY_TEXT, TY_TEXT}, TY_TEXT, OP, ty__textcat, 654},
    {"||", 2, {TY_BYTEA, TY_BYTEA}, TY_BYTEA, OP, ty__byteacat, 2018},
    PAT("~~", TY_TEXT, ty__like, 1209), PAT("!~~", TY_TEXT, ty__notlike, 1210),
    PAT("~~*", TY_TEXT, ty__ilike, 1627), PAT("!~~*", TY_TEXT, ty__notilike, 1628),
    PAT("~~", TY_BPCHAR, ty__bplike, 1211), PAT("~~", TY_NAME, ty__like, 1207),
    PAT("~", TY_TEXT, ty__re, 641), PAT("!~", TY_TEXT, ty__nre, 642),
    PAT("~*", TY_TEXT, ty__rei, 1228), PAT("!~*", TY_TEXT, ty__nrei, 1229),
};

/* anynonarray || text and text || anynonarray: the planner casts the other
 * side to text (PostgreSQL's textanycat/anytextcat do the same through the
 * output function). */
static bool ty__anycat(ty_ctx_t *ctx, const ty_datum_t *a, int n, ty_datum_t *out)
{
    return ty__textcat(ctx, a, n, out);
}

static const ty_func_t ty__cmp_any[] = {
    {"||", 2, {TY_INVALID, TY_TEXT}, TY_TEXT, OP, ty__anycat, 2003},
    {"||", 2, {TY_TEXT, TY_INVALID}, TY_TEXT, OP, ty__anycat, 2004},
};

const ty_func_table_t ty_funcs_cmp = {ty__cmp, CM_ARRAY_LEN(ty__cmp)};
const ty_func_table_t ty_funcs_cmp_any = {ty__cmp_any, CM_ARRAY_LEN(ty__cmp_any)};
