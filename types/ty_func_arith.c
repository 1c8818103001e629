/*
 * ty_func_arith.c: the arithmetic operators + - * / % ^ and unary - on
 * int2, int4, int8, float4, float8 and numeric, with PostgreSQL's overflow
 * and division-by-zero errors.
 */
#include "types/ty_internal.h"

#include <math.h>

#define S TY_FN_STRICT
#define OP (TY_FN_STRICT | TY_FN_OPERATOR)

/* ===== integers ===== */

static bool ty__int_result(ty_ctx_t *ctx, ty_oid_t t, bool overflow, int64_t v, ty_datum_t *out)
{
    if (overflow || !((t == TY_INT2 && v >= INT16_MIN && v <= INT16_MAX) ||
                      (t == TY_INT4 && v >= INT32_MIN && v <= INT32_MAX) || t == TY_INT8))
        return cm_err_set(ctx->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "%s", ty_int_range_msg(t));
    out->v.i = v;
    return true;
}

#define TY_INT_OPS(T, TYPE)                                                                                  \
    static bool ty__##T##_pl(ty_ctx_t *ctx, const ty_datum_t *a, int n, ty_datum_t *out)                     \
    {                                                                                                        \
        int64_t r;                                                                                           \
        bool o = __builtin_add_overflow(a[0].v.i, a[1].v.i, &r);                                             \
        return ty__int_result(ctx, TYPE, o, r, out);                                                         \
    }                                                                                                        \
    static bool ty__##T##_mi(ty_ctx_t *ctx, const ty_datum_t *a, int n, ty_datum_t *out)                     \
    {                                                                                                        \
        int64_t r;                                                                                           \
        bool o = __builtin_sub_overflow(a[0].v.i, a[1].v.i, &r);                                             \
        return ty__int_result(ctx, TYPE, o, r, out);                                                         \
    }                                                                                                        \
    static bool ty__##T##_mul(ty_ctx_t *ctx, const ty_datum_t *a, int n, ty_datum_t *out)                    \
    {                                                                                                        \
        int64_t r;                                                                                           \
        bool o = __builtin_mul_overflow(a[0].v.i, a[1].v.i, &r);                                             \
        return ty__int_result(ctx, TYPE, o, r, out);                                                         \
    }                                                                                                        \
    static bool ty__##T##_div(ty_ctx_t *ctx, const ty_datum_t *a, int n, ty_datum_t *out)                    \
    {                                                                                                        \
        if (a[1].v.i == 0)                                                                                   \
            return ty_err_div0(ctx);                                                                         \
        if (a[1].v.i == -1)                                                                                  \
            return ty__int_result(ctx, TYPE, a[0].v.i == INT64_MIN, a[0].v.i == INT64_MIN ? 0 : -a[0].v.i, out); \
        out->v.i = a[0].v.i / a[1].v.i;                                                                      \
        return true;                                                                                         \
    }                                                                                                        \
    static bool ty__##T##_mod(ty_ctx_t *ctx, const ty_datum_t *a, int n, ty_datum_t *out)                    \
    {                                                                                                        \
        if (a[1].v.i == 0)                                                                                   \
            return ty_err_div0(ctx);                                                                         \
        out->v.i = a[1].v.i == -1 ? 0 : a[0].v.i % a[1].v.i;                                                 \
        return true;                                                                                         \
    }                                                                                                        \
    static bool ty__##T##_um(ty_ctx_t *ctx, const ty_datum_t *a, int n, ty_datum_t *out)                     \
    {                                                                                                        \
        return ty__int_result(ctx, TYPE, a[0].v.i == INT64_MIN, a[0].v.i == INT64_MIN ? 0 : -a[0].v.i, out); \
    }

TY_INT_OPS(int2, TY_INT2)
TY_INT_OPS(int4, TY_INT4)
TY_INT_OPS(int8, TY_INT8)

/* ===== floats ===== */

#define TY_FLOAT_OPS(T, IS4)                                                                                 \
    static bool ty__##T##_pl(ty_ctx_t *ctx, const ty_datum_t *a, int n, ty_datum_t *out)                     \
    {                                                                                                        \
        double r = IS4 ? (double)((float)a[0].v.f + (float)a[1].v.f) : a[0].v.f + a[1].v.f;                  \
        out->v.f = r;                                                                                        \
        return ty_float_check(ctx, r, isinf(a[0].v.f) || isinf(a[1].v.f), true, IS4);                        \
    }                                                                                                        \
    static bool ty__##T##_mi(ty_ctx_t *ctx, const ty_datum_t *a, int n, ty_datum_t *out)                     \
    {                                                                                                        \
        double r = IS4 ? (double)((float)a[0].v.f - (float)a[1].v.f) : a[0].v.f - a[1].v.f;                  \
        out->v.f = r;                                                                                        \
        return ty_float_check(ctx, r, isinf(a[0].v.f) || isinf(a[1].v.f), true, IS4);                        \
    }                                                                                                        \
    static bool ty__##T##_mul(ty_ctx_t *ctx, const ty_datum_t *a, int n, ty_datum_t *out)                    \
    {                                                                                                        \
        double r = IS4 ? (double)((float)a[0].v.f * (float)a[1].v.f) : a[0].v.f * a[1].v.f;                  \
        out->v.f = r;                                                                                        \
        return ty_float_check(ctx, r, isinf(a[0].v.f) || isinf(a[1].v.f), a[0].v.f == 0 || a[1].v.f == 0,    \
                              IS4);                                                                          \
    }                                                                                                        \
    static bool ty__##T##_div(ty_ctx_t *ctx, const ty_datum_t *a, int n, ty_datum_t *out)                    \
    {                                                                                                        \
        if (a[1].v.f == 0 && a[0].v.f == a[0].v.f)                                                           \
            return ty_err_div0(ctx);                                                                         \
        double r = IS4 ? (double)((float)a[0].v.f / (float)a[1].v.f) : a[0].v.f / a[1].v.f;                  \
        out->v.f = r;                                                                                        \
        return ty_float_check(ctx, r, isinf(a[0].v.f), a[0].v.f == 0 || isinf(a[1].v.f), IS4);               \
    }                                                                                                        \
    static bool ty__##T##_um(ty_ctx_t *ctx, const ty_datum_t *a, int n, ty_datum_t *out)                     \
    {                                                                                                        \
        out->v.f = -a[0].v.f;                                                                                \
        return true;                                                                                         \
    }

TY_FLOAT_OPS(float4, true)
TY_FLOAT_OPS(float8, false)

/* PostgreSQL's dpow: its special cases, then pow() with range errors. */
bool ty_float8_pow(ty_ctx_t *ctx, double x, double y, double *out);
bool ty_float8_pow(ty_ctx_t *ctx, double x, double y, double *out)
{
    if (x != x || y != y) {
        if (x != x && y == 0) {
            *out = 1;
            return true;
        }
        if (y != y && x == 1) {
            *out = 1;
            return true;
        }
        *out = NAN;
        return true;
    }
    if (x == 0 && y < 0)
        return cm_err_set(ctx->err, CM_ERRCODE_INVALID_ARGUMENT_FOR_POWER_FUNCTION,
                          "zero raised to a negative power is undefined");
    if (x < 0 && floor(y) != y && !isinf(y))
        return cm_err_set(ctx->err, CM_ERRCODE_INVALID_ARGUMENT_FOR_POWER_FUNCTION,
                          "a negative number raised to a non-integer power yields a complex result");
    double r = pow(x, y);
    if (isinf(r) && !isinf(x) && !isinf(y))
        return cm_err_set(ctx->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "value out of range: overflow");
    if (r == 0 && x != 0 && !isinf(y) && !isinf(x))
        return cm_err_set(ctx->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "value out of range: underflow");
    *out = r;
    return true;
}

static bool ty__float8_pow(ty_ctx_t *ctx, const ty_datum_t *a, int n, ty_datum_t *out)
{
    return ty_float8_pow(ctx, a[0].v.f, a[1].v.f, &out->v.f);
}

/* ===== numeric ===== */

#define TY_NUM_BIN(NAME, FN)                                                                                 \
    static bool ty__num_##NAME(ty_ctx_t *ctx, const ty_datum_t *a, int n, ty_datum_t *out)                   \
    {                                                                                                        \
        return FN(ctx, a[0].v.n, a[1].v.n, &out->v.n);                                                       \
    }

TY_NUM_BIN(pl, ty_num_add)
TY_NUM_BIN(mi, ty_num_sub)
TY_NUM_BIN(mul, ty_num_mul)
TY_NUM_BIN(div, ty_num_div)
TY_NUM_BIN(mod, ty_num_mod)
TY_NUM_BIN(pow, ty_num_power)

static bool ty__num_um(ty_ctx_t *ctx, const ty_datum_t *a, int n, ty_datum_t *out)
{
    out->v.n = ty_num_neg(ctx->arena, a[0].v.n);
    return true;
}

static bool ty__identity(ty_ctx_t *ctx, const ty_datum_t *a, int n, ty_datum_t *out)
{
    *out = a[0];
    return true;
}

#define BIN(SYM, T, F, ID) {SYM, 2, {T, T}, T, OP, F, ID}
#define UN(SYM, T, F, ID) {SYM, 1, {T}, T, OP, F, ID}

static const ty_func_t ty__arith[] = {
    BIN("+", TY_INT2, ty__int2_pl, 176), BIN("-", TY_INT2, ty__int2_mi, 180), BIN("*", TY_INT2, ty__int2_mul, 152),
    BIN("/", TY_INT2, ty__int2_div, 153), BIN("%", TY_INT2, ty__int2_mod, 940), UN("-", TY_INT2, ty__int2_um, 213),
    BIN("+", TY_INT4, ty__int4_pl, 177), BIN("-", TY_INT4, ty__int4_mi, 181), BIN("*", TY_INT4, ty__int4_mul, 141),
    BIN("/", TY_INT4, ty__int4_div, 154), BIN("%", TY_INT4, ty__int4_mod, 941), UN("-", TY_INT4, ty__int4_um, 212),
    BIN("+", TY_INT8, ty__int8_pl, 463), BIN("-", TY_INT8, ty__int8_mi, 464), BIN("*", TY_INT8, ty__int8_mul, 465),
    BIN("/", TY_INT8, ty__int8_div, 466), BIN("%", TY_INT8, ty__int8_mod, 945), UN("-", TY_INT8, ty__int8_um, 462),
    BIN("+", TY_FLOAT4, ty__float4_pl, 204), BIN("-", TY_FLOAT4, ty__float4_mi, 205),
    BIN("*", TY_FLOAT4, ty__float4_mul, 202), BIN("/", TY_FLOAT4, ty__float4_div, 203),
    UN("-", TY_FLOAT4, ty__float4_um, 206),
    BIN("+", TY_FLOAT8, ty__float8_pl, 218), BIN("-", TY_FLOAT8, ty__float8_mi, 219),
    BIN("*", TY_FLOAT8, ty__float8_mul, 216), BIN("/", TY_FLOAT8, ty__float8_div, 217),
    UN("-", TY_FLOAT8, ty__float8_um, 220), BIN("^", TY_FLOAT8, ty__float8_pow, 232),
    BIN("+", TY_NUMERIC, ty__num_pl, 1724), BIN("-", TY_NUMERIC, ty__num_mi, 1725),
    BIN("*", TY_NUMERIC, ty__num_mul, 1726), BIN("/", TY_NUMERIC, ty__num_div, 1727),
    BIN("%", TY_NUMERIC, ty__num_mod, 1729), UN("-", TY_NUMERIC, ty__num_um, 1771),
    {"^", 2, {TY_NUMERIC, TY_NUMERIC}, TY_NUMERIC, OP | TY_FN_BLOCKING, ty__num_pow, 1739},
    UN("+", TY_INT2, ty__identity, 1911), UN("+", TY_INT4, ty__identity, 1912), UN("+", TY_INT8, ty__identity, 1910),
    UN("+", TY_FLOAT4, ty__identity, 1913), UN("+", TY_FLOAT8, ty__identity, 1914),
    UN("+", TY_NUMERIC, ty__identity, 1915),
};

const ty_func_table_t ty_funcs_arith = {ty__arith, CM_ARRAY_LEN(ty__arith)};
