/*
 * ty_func_mixed.c: PostgreSQL's cross-type operators: int2 with int4, int2
 * with int8 and int4 with int8 (int24pl, int48eq, ...) and float4 with
 * float8 (float48pl, float84lt, ...), for + - * / and the six comparisons.
 *
 * Casting one side first would compute the same values, but PostgreSQL
 * resolves these operators directly, and having the same candidates keeps
 * overload resolution (and so result types and errors) identical to it.
 */
#include "types/ty_internal.h"

#include <math.h>

#define OP (TY_FN_STRICT | TY_FN_OPERATOR)

/* ===== integers: computed in 64 bits, checked against the result type ===== */

static bool ty__iresult(ty_ctx_t *c, ty_oid_t t, bool overflow, int64_t v, ty_datum_t *o)
{
    if (overflow || !ty_int_range_check(c, t, v)) {
        cm_err_clear(c->err);
        return cm_err_set(c->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "%s", ty_int_range_msg(t));
    }
    o->v.i = v;
    return true;
}

#define TY_MIXED_INT(R, TYPE)                                                                                \
    static bool ty__i##R##_pl(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)                        \
    {                                                                                                        \
        int64_t r;                                                                                           \
        bool ov = __builtin_add_overflow(a[0].v.i, a[1].v.i, &r);                                            \
        return ty__iresult(c, TYPE, ov, r, o);                                                               \
    }                                                                                                        \
    static bool ty__i##R##_mi(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)                        \
    {                                                                                                        \
        int64_t r;                                                                                           \
        bool ov = __builtin_sub_overflow(a[0].v.i, a[1].v.i, &r);                                            \
        return ty__iresult(c, TYPE, ov, r, o);                                                               \
    }                                                                                                        \
    static bool ty__i##R##_mul(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)                       \
    {                                                                                                        \
        int64_t r;                                                                                           \
        bool ov = __builtin_mul_overflow(a[0].v.i, a[1].v.i, &r);                                            \
        return ty__iresult(c, TYPE, ov, r, o);                                                               \
    }                                                                                                        \
    static bool ty__i##R##_div(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)                       \
    {                                                                                                        \
        if (a[1].v.i == 0)                                                                                   \
            return ty_err_div0(c);                                                                           \
        if (a[1].v.i == -1)                                                                                  \
            return ty__iresult(c, TYPE, a[0].v.i == INT64_MIN, a[0].v.i == INT64_MIN ? 0 : -a[0].v.i, o);    \
        o->v.i = a[0].v.i / a[1].v.i;                                                                        \
        return true;                                                                                         \
    }

TY_MIXED_INT(4, TY_INT4)
TY_MIXED_INT(8, TY_INT8)

#define TY_CMP(NAME, EXPR)                                                                                   \
    static bool ty__i_##NAME(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)                         \
    {                                                                                                        \
        int64_t x = a[0].v.i, y = a[1].v.i;                                                                  \
        o->v.b = (EXPR);                                                                                     \
        return true;                                                                                         \
    }                                                                                                        \
    static bool ty__f_##NAME(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)                         \
    {                                                                                                        \
        ty_datum_t l = a[0], r = a[1];                                                                       \
        int k = ty_datum_compare(TY_FLOAT8, &l, &r);                                                         \
        int64_t x = k, y = 0;                                                                                \
        o->v.b = (EXPR);                                                                                     \
        return true;                                                                                         \
    }

TY_CMP(eq, x == y)
TY_CMP(ne, x != y)
TY_CMP(lt, x < y)
TY_CMP(le, x <= y)
TY_CMP(gt, x > y)
TY_CMP(ge, x >= y)

/* ===== floats: the float4 side widened, the arithmetic done in float8 ===== */

static bool ty__f_pl(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.f = a[0].v.f + a[1].v.f;
    return ty_float_check(c, o->v.f, isinf(a[0].v.f) || isinf(a[1].v.f), true, false);
}

static bool ty__f_mi(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.f = a[0].v.f - a[1].v.f;
    return ty_float_check(c, o->v.f, isinf(a[0].v.f) || isinf(a[1].v.f), true, false);
}

static bool ty__f_mul(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.f = a[0].v.f * a[1].v.f;
    return ty_float_check(c, o->v.f, isinf(a[0].v.f) || isinf(a[1].v.f), a[0].v.f == 0 || a[1].v.f == 0, false);
}

static bool ty__f_div(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    if (a[1].v.f == 0 && a[0].v.f == a[0].v.f)
        return ty_err_div0(c);
    o->v.f = a[0].v.f / a[1].v.f;
    return ty_float_check(c, o->v.f, isinf(a[0].v.f), a[0].v.f == 0 || isinf(a[1].v.f), false);
}

#define ARITH(A, B, R, P, ID_PL, ID_MI, ID_MUL, ID_DIV)                                                      \
    {"+", 2, {A, B}, R, OP, ty__##P##_pl, ID_PL}, {"-", 2, {A, B}, R, OP, ty__##P##_mi, ID_MI},              \
        {"*", 2, {A, B}, R, OP, ty__##P##_mul, ID_MUL}, {"/", 2, {A, B}, R, OP, ty__##P##_div, ID_DIV}
#define CMPS(A, B, P, EQ, NE, LT, LE, GT, GE)                                                                \
    {"=", 2, {A, B}, TY_BOOL, OP, ty__##P##_eq, EQ}, {"<>", 2, {A, B}, TY_BOOL, OP, ty__##P##_ne, NE},       \
        {"<", 2, {A, B}, TY_BOOL, OP, ty__##P##_lt, LT}, {"<=", 2, {A, B}, TY_BOOL, OP, ty__##P##_le, LE},   \
        {">", 2, {A, B}, TY_BOOL, OP, ty__##P##_gt, GT}, {">=", 2, {A, B}, TY_BOOL, OP, ty__##P##_ge, GE}

#define I2 TY_INT2
#define I4 TY_INT4
#define I8 TY_INT8
#define F4 TY_FLOAT4
#define F8 TY_FLOAT8

static const ty_func_t ty__mixed[] = {
    ARITH(I2, I4, I4, i4, 178, 182, 170, 172), CMPS(I2, I4, i, 158, 164, 160, 166, 162, 168),
    ARITH(I4, I2, I4, i4, 179, 183, 171, 173), CMPS(I4, I2, i, 159, 165, 161, 167, 163, 169),
    ARITH(I2, I8, I8, i8, 841, 942, 943, 948), CMPS(I2, I8, i, 1850, 1851, 1852, 1854, 1853, 1855),
    ARITH(I8, I2, I8, i8, 837, 838, 839, 840), CMPS(I8, I2, i, 1856, 1857, 1858, 1860, 1859, 1861),
    ARITH(I4, I8, I8, i8, 1278, 1279, 1280, 1281), CMPS(I4, I8, i, 852, 853, 854, 856, 855, 857),
    ARITH(I8, I4, I8, i8, 1274, 1275, 1276, 1277), CMPS(I8, I4, i, 474, 475, 476, 478, 477, 479),
    ARITH(F4, F8, F8, f, 281, 282, 279, 280), CMPS(F4, F8, f, 299, 300, 301, 302, 303, 304),
    ARITH(F8, F4, F8, f, 285, 286, 283, 284), CMPS(F8, F4, f, 305, 306, 307, 308, 309, 310),
};

const ty_func_table_t ty_funcs_mixed = {ty__mixed, CM_ARRAY_LEN(ty__mixed)};
