/*
 * ty_func_trig.c: trigonometric and hyperbolic functions on float8 (sin cos
 * tan cot asin acos atan atan2, their degree variants sind ... atan2d, sinh
 * cosh tanh asinh acosh atanh).
 *
 * The degree variants follow PostgreSQL's float.c step by step: the
 * argument is reduced to the first quadrant and the result is scaled by the
 * same function's value at 30, 45 or 60 degrees, so that sind(30) is exactly
 * 0.5 and cosd(60) exactly 0.5. Reproducing the steps gives the same last
 * bits as PostgreSQL, which its users (and the differential test) see.
 */
#include "types/ty_internal.h"

#include <math.h>

#define S TY_FN_STRICT
#define F8 TY_FLOAT8
#define RADIANS_PER_DEGREE 0.0174532925199432957692

static bool ty__range_err(ty_ctx_t *c)
{
    return cm_err_set(c->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "input is out of range");
}

static bool ty__overflow(ty_ctx_t *c)
{
    return cm_err_set(c->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "value out of range: overflow");
}

/* ===== radians ===== */

/*
 * The radian functions share PostgreSQL's argument checks: NaN passes
 * through, and an argument outside the domain (infinite for sin, cos, tan
 * and cot; outside [-1, 1] for asin and acos) is 22003.
 */
static bool ty__radian_call(ty_ctx_t *c, double x, double (*fn)(double), bool unit_domain, ty_datum_t *o)
{
    if (isnan(x)) {
        o->v.f = x;
        return true;
    }
    if (unit_domain ? (x < -1.0 || x > 1.0) : isinf(x))
        return ty__range_err(c);
    o->v.f = fn(x);
    return true;
}

static double ty__cot_of(double x)
{
    return 1.0 / tan(x);
}

static bool ty__sin(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o) { return ty__radian_call(c, a[0].v.f, sin, false, o); }
static bool ty__cos(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o) { return ty__radian_call(c, a[0].v.f, cos, false, o); }
static bool ty__tan(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o) { return ty__radian_call(c, a[0].v.f, tan, false, o); }
static bool ty__cot(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o) { return ty__radian_call(c, a[0].v.f, ty__cot_of, false, o); }
static bool ty__asin(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o) { return ty__radian_call(c, a[0].v.f, asin, true, o); }
static bool ty__acos(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o) { return ty__radian_call(c, a[0].v.f, acos, true, o); }

static bool ty__atan(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.f = atan(a[0].v.f);
    return true;
}

static bool ty__atan2(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.f = atan2(a[0].v.f, a[1].v.f);
    return true;
}

/* ===== degrees ===== */

static double ty__sin_30(void) { return sin(30.0 * RADIANS_PER_DEGREE); }
static double ty__one_minus_cos_60(void) { return 1.0 - cos(60.0 * RADIANS_PER_DEGREE); }

static double ty__sind_0_to_30(double x)
{
    volatile double sin_x = sin(x * RADIANS_PER_DEGREE);
    return (sin_x / ty__sin_30()) / 2.0;
}

static double ty__cosd_0_to_60(double x)
{
    volatile double one_minus_cos_x = 1.0 - cos(x * RADIANS_PER_DEGREE);
    return 1.0 - (one_minus_cos_x / ty__one_minus_cos_60()) / 2.0;
}

static double ty__sind_q1(double x)
{
    return x <= 30.0 ? ty__sind_0_to_30(x) : ty__cosd_0_to_60(90.0 - x);
}

static double ty__cosd_q1(double x)
{
    return x <= 60.0 ? ty__cosd_0_to_60(x) : ty__sind_0_to_30(90.0 - x);
}

/* NaN passes through; infinity is out of range. Returns false when done. */
static bool ty__deg_arg(ty_ctx_t *c, double x, ty_datum_t *o, bool *ok)
{
    *ok = true;
    if (x != x) {
        o->v.f = x;
        return false;
    }
    if (isinf(x)) {
        *ok = ty__range_err(c);
        return false;
    }
    return true;
}

static bool ty__sind(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    bool ok;
    if (!ty__deg_arg(c, a[0].v.f, o, &ok))
        return ok;
    double x = fmod(a[0].v.f, 360.0);
    int sign = 1;
    if (x < 0.0) {
        x = -x;
        sign = -sign;
    }
    if (x > 180.0) {
        x = 360.0 - x;
        sign = -sign;
    }
    if (x > 90.0)
        x = 180.0 - x;
    o->v.f = sign * ty__sind_q1(x);
    return isinf(o->v.f) ? ty__overflow(c) : true;
}

static bool ty__cosd(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    bool ok;
    if (!ty__deg_arg(c, a[0].v.f, o, &ok))
        return ok;
    double x = fmod(a[0].v.f, 360.0);
    int sign = 1;
    if (x < 0.0)
        x = -x;
    if (x > 180.0)
        x = 360.0 - x;
    if (x > 90.0) {
        x = 180.0 - x;
        sign = -sign;
    }
    o->v.f = sign * ty__cosd_q1(x);
    return isinf(o->v.f) ? ty__overflow(c) : true;
}

/* tand and cotd share the reduction; tand(90) is Infinity, not an error. */
static bool ty__tancot_d(ty_ctx_t *c, const ty_datum_t *a, ty_datum_t *o, bool cot)
{
    bool ok;
    if (!ty__deg_arg(c, a[0].v.f, o, &ok))
        return ok;
    double x = fmod(a[0].v.f, 360.0);
    int sign = 1;
    if (x < 0.0) {
        x = -x;
        sign = -sign;
    }
    if (x > 180.0) {
        x = 360.0 - x;
        sign = -sign;
    }
    if (x > 90.0) {
        x = 180.0 - x;
        sign = -sign;
    }
    double tan_45 = ty__sind_q1(45.0) / ty__cosd_q1(45.0);
    double cot_45 = ty__cosd_q1(45.0) / ty__sind_q1(45.0);
    double r = cot ? ty__cosd_q1(x) / ty__sind_q1(x) : ty__sind_q1(x) / ty__cosd_q1(x);
    r = sign * (r / (cot ? cot_45 : tan_45));
    /* PostgreSQL forces minus zero to plain zero here. */
    o->v.f = r == 0.0 ? 0.0 : r;
    return true;
}

static bool ty__tand(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o) { return ty__tancot_d(c, a, o, false); }
static bool ty__cotd(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o) { return ty__tancot_d(c, a, o, true); }

static double ty__asind_q1(double x)
{
    if (x <= 0.5) {
        volatile double asin_x = asin(x);
        return (asin_x / asin(0.5)) * 30.0;
    }
    volatile double acos_x = acos(x);
    return 90.0 - (acos_x / acos(0.5)) * 60.0;
}

static double ty__acosd_q1(double x)
{
    if (x <= 0.5) {
        volatile double asin_x = asin(x);
        return 90.0 - (asin_x / asin(0.5)) * 30.0;
    }
    volatile double acos_x = acos(x);
    return (acos_x / acos(0.5)) * 60.0;
}

static bool ty__asind(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    double x = a[0].v.f;
    if (x != x) {
        o->v.f = x;
        return true;
    }
    if (x < -1.0 || x > 1.0)
        return ty__range_err(c);
    o->v.f = x >= 0.0 ? ty__asind_q1(x) : -ty__asind_q1(-x);
    return true;
}

static bool ty__acosd(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    double x = a[0].v.f;
    if (x != x) {
        o->v.f = x;
        return true;
    }
    if (x < -1.0 || x > 1.0)
        return ty__range_err(c);
    o->v.f = x >= 0.0 ? ty__acosd_q1(x) : 90.0 + ty__asind_q1(-x);
    return true;
}

static bool ty__atand(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    double x = a[0].v.f;
    if (x != x) {
        o->v.f = x;
        return true;
    }
    volatile double atan_x = atan(x);
    o->v.f = (atan_x / atan(1.0)) * 45.0;
    return true;
}

static bool ty__atan2d(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    double y = a[0].v.f, x = a[1].v.f;
    if (y != y || x != x) {
        o->v.f = NAN;
        return true;
    }
    volatile double r = atan2(y, x);
    o->v.f = (r / atan(1.0)) * 45.0;
    return true;
}

/* ===== hyperbolic ===== */

static bool ty__sinh(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.f = sinh(a[0].v.f);
    return true;
}

static bool ty__cosh(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.f = cosh(a[0].v.f);
    return true;
}

static bool ty__tanh(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.f = tanh(a[0].v.f);
    return true;
}

static bool ty__asinh(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.f = asinh(a[0].v.f);
    return true;
}

static bool ty__acosh(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    if (a[0].v.f < 1.0)
        return ty__range_err(c);
    o->v.f = acosh(a[0].v.f);
    return true;
}

static bool ty__atanh(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    double x = a[0].v.f;
    if (x < -1.0 || x > 1.0)
        return ty__range_err(c);
    o->v.f = x == -1.0 ? -INFINITY : x == 1.0 ? INFINITY : atanh(x);
    return true;
}

#define T1(NAME, F, ID) {NAME, 1, {F8}, F8, S, F, ID}
#define T2(NAME, F, ID) {NAME, 2, {F8, F8}, F8, S, F, ID}

static const ty_func_t ty__trig[] = {
    T1("sin", ty__sin, 1604), T1("cos", ty__cos, 1605), T1("tan", ty__tan, 1606), T1("cot", ty__cot, 1607),
    T1("asin", ty__asin, 1600), T1("acos", ty__acos, 1601), T1("atan", ty__atan, 1602),
    T2("atan2", ty__atan2, 1603),
    T1("sind", ty__sind, 2731), T1("cosd", ty__cosd, 2732), T1("tand", ty__tand, 2733), T1("cotd", ty__cotd, 2734),
    T1("asind", ty__asind, 2735), T1("acosd", ty__acosd, 2736), T1("atand", ty__atand, 2737),
    T2("atan2d", ty__atan2d, 2738),
    T1("sinh", ty__sinh, 2462), T1("cosh", ty__cosh, 2463), T1("tanh", ty__tanh, 2464),
    T1("asinh", ty__asinh, 2465), T1("acosh", ty__acosh, 2466), T1("atanh", ty__atanh, 2467),
};

const ty_func_table_t ty_funcs_trig = {ty__trig, CM_ARRAY_LEN(ty__trig)};
