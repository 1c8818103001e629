/*
 * ty_func_math.c: mathematical functions (abs, round, trunc, ceil, floor,
 * sign, mod, power, sqrt, cbrt, exp, ln, log, random, pi, degrees,
 * radians) for the integer, float8 and numeric types.
 */
#include "types/ty_internal.h"

#include <math.h>
#include <stdlib.h>

#define S TY_FN_STRICT

bool ty_float8_pow(ty_ctx_t *ctx, double x, double y, double *out);

static bool ty__int_abs(ty_ctx_t *ctx, const ty_datum_t *a, int n, ty_datum_t *o, ty_oid_t t)
{
    if (a[0].v.i == INT64_MIN)
        return cm_err_set(ctx->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "%s", ty_int_range_msg(t));
    o->v.i = a[0].v.i < 0 ? -a[0].v.i : a[0].v.i;
    return ty_int_range_check(ctx, t, o->v.i);
}
static bool ty__int2_abs(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o) { return ty__int_abs(c, a, n, o, TY_INT2); }
static bool ty__int4_abs(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o) { return ty__int_abs(c, a, n, o, TY_INT4); }
static bool ty__int8_abs(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o) { return ty__int_abs(c, a, n, o, TY_INT8); }

static bool ty__int_mod(ty_ctx_t *ctx, const ty_datum_t *a, int n, ty_datum_t *o)
{
    if (a[1].v.i == 0)
        return ty_err_div0(ctx);
    o->v.i = a[1].v.i == -1 ? 0 : a[0].v.i % a[1].v.i;
    return true;
}

#define F1(NAME, EXPR)                                                                                       \
    static bool ty__f8_##NAME(ty_ctx_t *ctx, const ty_datum_t *a, int n, ty_datum_t *o)                      \
    {                                                                                                        \
        double x = a[0].v.f;                                                                                 \
        o->v.f = (EXPR);                                                                                     \
        return true;                                                                                         \
    }

F1(abs, fabs(x))
F1(round, rint(x))
F1(trunc, trunc(x))
F1(ceil, ceil(x))
F1(floor, floor(x))
F1(sign, x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0)
F1(cbrt, cbrt(x))
F1(degrees, x * (180.0 / M_PI))
F1(radians, x * (M_PI / 180.0))
F1(f4abs, (double)fabsf((float)x))

static bool ty__f8_sqrt(ty_ctx_t *ctx, const ty_datum_t *a, int n, ty_datum_t *o)
{
    if (a[0].v.f < 0)
        return cm_err_set(ctx->err, CM_ERRCODE_INVALID_ARGUMENT_FOR_POWER_FUNCTION,
                          "cannot take square root of a negative number");
    o->v.f = sqrt(a[0].v.f);
    return true;
}

static bool ty__f8_exp(ty_ctx_t *ctx, const ty_datum_t *a, int n, ty_datum_t *o)
{
    double x = a[0].v.f;
    o->v.f = exp(x);
    return ty_float_check(ctx, o->v.f, isinf(x), isinf(x) || x != x, false);
}

static bool ty__f8_log_common(ty_ctx_t *ctx, double x, bool base10, ty_datum_t *o)
{
    if (x == 0)
        return cm_err_set(ctx->err, CM_ERRCODE_INVALID_ARGUMENT_FOR_LOG, "cannot take logarithm of zero");
    if (x < 0)
        return cm_err_set(ctx->err, CM_ERRCODE_INVALID_ARGUMENT_FOR_LOG, "cannot take logarithm of a negative number");
    o->v.f = base10 ? log10(x) : log(x);
    return true;
}
static bool ty__f8_ln(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o) { return ty__f8_log_common(c, a[0].v.f, false, o); }
static bool ty__f8_log10(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o) { return ty__f8_log_common(c, a[0].v.f, true, o); }

static bool ty__f8_pow(ty_ctx_t *ctx, const ty_datum_t *a, int n, ty_datum_t *o)
{
    return ty_float8_pow(ctx, a[0].v.f, a[1].v.f, &o->v.f);
}

static bool ty__random(ty_ctx_t *ctx, const ty_datum_t *a, int n, ty_datum_t *o)
{
    /* drand48 keeps per-process state; quality is adequate for random(). */
    static __thread unsigned short seed[3];
    static __thread bool seeded;
    if (!seeded) {
        int64_t t = cm_now_mono_us() ^ (int64_t)(uintptr_t)&seeded;
        seed[0] = (unsigned short)t;
        seed[1] = (unsigned short)(t >> 16);
        seed[2] = (unsigned short)(t >> 32);
        seeded = true;
    }
    o->v.f = erand48(seed);
    return true;
}

static bool ty__pi(ty_ctx_t *ctx, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.f = M_PI;
    return true;
}

/* ===== numeric ===== */

#define N1(NAME, EXPR)                                                                                       \
    static bool ty__n_##NAME(ty_ctx_t *ctx, const ty_datum_t *a, int n, ty_datum_t *o)                       \
    {                                                                                                        \
        const ty_numeric_t *x = a[0].v.n;                                                                    \
        o->v.n = (EXPR);                                                                                     \
        return true;                                                                                         \
    }

N1(abs, ty_num_abs(ctx->arena, x))
N1(round, ty_num_round(ctx->arena, x, 0))
N1(trunc, ty_num_trunc(ctx->arena, x, 0))
N1(ceil, ty_num_ceil(ctx->arena, x))
N1(floor, ty_num_floor(ctx->arena, x))
N1(sign, ty_num_sign(ctx->arena, x))

static bool ty__n_round2(ty_ctx_t *ctx, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.n = ty_num_round(ctx->arena, a[0].v.n, (int)a[1].v.i);
    return true;
}

static bool ty__n_trunc2(ty_ctx_t *ctx, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.n = ty_num_trunc(ctx->arena, a[0].v.n, (int)a[1].v.i);
    return true;
}

#define NFN1(NAME, FN)                                                                                       \
    static bool ty__n_##NAME(ty_ctx_t *ctx, const ty_datum_t *a, int n, ty_datum_t *o)                       \
    {                                                                                                        \
        return FN(ctx, a[0].v.n, &o->v.n);                                                                   \
    }
#define NFN2(NAME, FN)                                                                                       \
    static bool ty__n_##NAME(ty_ctx_t *ctx, const ty_datum_t *a, int n, ty_datum_t *o)                       \
    {                                                                                                        \
        return FN(ctx, a[0].v.n, a[1].v.n, &o->v.n);                                                         \
    }

NFN1(sqrt, ty_num_sqrt)
NFN1(exp, ty_num_exp)
NFN1(ln, ty_num_ln)
NFN1(log10, ty_num_log10)
NFN2(log, ty_num_log)
NFN2(mod, ty_num_mod)
NFN2(pow, ty_num_power)

#define FN1(NAME, T, R, F, ID) {NAME, 1, {T}, R, S, F, ID}
#define FN2(NAME, T1, T2, R, F, ID) {NAME, 2, {T1, T2}, R, S, F, ID}
#define F8 TY_FLOAT8
#define NU TY_NUMERIC

static const ty_func_t ty__math[] = {
    FN1("abs", TY_INT2, TY_INT2, ty__int2_abs, 1395), FN1("abs", TY_INT4, TY_INT4, ty__int4_abs, 1397),
    FN1("abs", TY_INT8, TY_INT8, ty__int8_abs, 1396), FN1("abs", TY_FLOAT4, TY_FLOAT4, ty__f8_f4abs, 1394),
    FN1("abs", F8, F8, ty__f8_abs, 1395), FN1("abs", NU, NU, ty__n_abs, 1705),
    FN1("round", F8, F8, ty__f8_round, 228), FN1("round", NU, NU, ty__n_round, 1708),
    FN2("round", NU, TY_INT4, NU, ty__n_round2, 1707),
    FN1("trunc", F8, F8, ty__f8_trunc, 229), FN1("trunc", NU, NU, ty__n_trunc, 1710),
    FN2("trunc", NU, TY_INT4, NU, ty__n_trunc2, 1709),
    FN1("ceil", F8, F8, ty__f8_ceil, 2308), FN1("ceil", NU, NU, ty__n_ceil, 1711),
    FN1("ceiling", F8, F8, ty__f8_ceil, 2320), FN1("ceiling", NU, NU, ty__n_ceil, 2167),
    FN1("floor", F8, F8, ty__f8_floor, 2309), FN1("floor", NU, NU, ty__n_floor, 1712),
    FN1("sign", F8, F8, ty__f8_sign, 2310), FN1("sign", NU, NU, ty__n_sign, 1706),
    FN2("mod", TY_INT2, TY_INT2, TY_INT2, ty__int_mod, 940), FN2("mod", TY_INT4, TY_INT4, TY_INT4, ty__int_mod, 941),
    FN2("mod", TY_INT8, TY_INT8, TY_INT8, ty__int_mod, 947), FN2("mod", NU, NU, NU, ty__n_mod, 1728),
    FN2("power", F8, F8, F8, ty__f8_pow, 1368), {"power", 2, {NU, NU}, NU, S | TY_FN_BLOCKING, ty__n_pow, 2169},
    FN2("pow", F8, F8, F8, ty__f8_pow, 1346), {"pow", 2, {NU, NU}, NU, S | TY_FN_BLOCKING, ty__n_pow, 1738},
    FN1("sqrt", F8, F8, ty__f8_sqrt, 230), FN1("sqrt", NU, NU, ty__n_sqrt, 1730),
    FN1("cbrt", F8, F8, ty__f8_cbrt, 231),
    FN1("exp", F8, F8, ty__f8_exp, 233), FN1("exp", NU, NU, ty__n_exp, 1732),
    FN1("ln", F8, F8, ty__f8_ln, 234), FN1("ln", NU, NU, ty__n_ln, 1734),
    FN1("log", F8, F8, ty__f8_log10, 1340), FN1("log", NU, NU, ty__n_log10, 1741),
    FN2("log", NU, NU, NU, ty__n_log, 1736), FN1("log10", F8, F8, ty__f8_log10, 1194),
    FN1("log10", NU, NU, ty__n_log10, 1481),
    FN1("degrees", F8, F8, ty__f8_degrees, 1608), FN1("radians", F8, F8, ty__f8_radians, 1609),
    {"random", 0, {0}, F8, TY_FN_VOLATILE, ty__random, 1598},
    {"pi", 0, {0}, F8, 0, ty__pi, 1610},
    {"|/", 1, {F8}, F8, S | TY_FN_OPERATOR, ty__f8_sqrt, 596},
    {"||/", 1, {F8}, F8, S | TY_FN_OPERATOR, ty__f8_cbrt, 597},
    {"@", 1, {F8}, F8, S | TY_FN_OPERATOR, ty__f8_abs, 595},
    {"@", 1, {NU}, NU, S | TY_FN_OPERATOR, ty__n_abs, 1763},
    {"@", 1, {TY_INT4}, TY_INT4, S | TY_FN_OPERATOR, ty__int4_abs, 773},
    {"@", 1, {TY_INT8}, TY_INT8, S | TY_FN_OPERATOR, ty__int8_abs, 473},
};

const ty_func_table_t ty_funcs_math = {ty__math, CM_ARRAY_LEN(ty__math)};
