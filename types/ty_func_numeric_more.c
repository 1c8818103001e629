/*
 * ty_func_numeric_more.c: gcd and lcm (int4, int8, numeric), div,
 * factorial, scale, min_scale, trim_scale and width_bucket (float8,
 * numeric), with PostgreSQL 15's results and errors.
 */
#include "types/ty_internal.h"

#include <math.h>
#include <string.h>

#define S TY_FN_STRICT
#define NU TY_NUMERIC
#define ERR_WIDTH_BUCKET "2201G"

/* ===== integers ===== */

static uint64_t ty__ugcd(uint64_t a, uint64_t b)
{
    while (b != 0) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static uint64_t ty__uabs(int64_t v)
{
    return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
}

/* The result must fit the type: gcd(INT_MIN, 0) is 2^31, which does not. */
static bool ty__int_fit(ty_ctx_t *c, ty_oid_t t, uint64_t u, ty_datum_t *o)
{
    uint64_t max = t == TY_INT4 ? INT32_MAX : INT64_MAX;
    if (u > max)
        return cm_err_set(c->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "%s", ty_int_range_msg(t));
    o->v.i = (int64_t)u;
    return true;
}

static bool ty__int_gcd(ty_ctx_t *c, const ty_datum_t *a, ty_datum_t *o, ty_oid_t t)
{
    return ty__int_fit(c, t, ty__ugcd(ty__uabs(a[0].v.i), ty__uabs(a[1].v.i)), o);
}

static bool ty__int_lcm(ty_ctx_t *c, const ty_datum_t *a, ty_datum_t *o, ty_oid_t t)
{
    uint64_t x = ty__uabs(a[0].v.i), y = ty__uabs(a[1].v.i);
    if (x == 0 || y == 0) {
        o->v.i = 0;
        return true;
    }
    uint64_t r;
    if (__builtin_mul_overflow(x / ty__ugcd(x, y), y, &r))
        return cm_err_set(c->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "%s", ty_int_range_msg(t));
    return ty__int_fit(c, t, r, o);
}

static bool ty__int4_gcd(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o) { return ty__int_gcd(c, a, o, TY_INT4); }
static bool ty__int8_gcd(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o) { return ty__int_gcd(c, a, o, TY_INT8); }
static bool ty__int4_lcm(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o) { return ty__int_lcm(c, a, o, TY_INT4); }
static bool ty__int8_lcm(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o) { return ty__int_lcm(c, a, o, TY_INT8); }

/* ===== numeric gcd / lcm ===== */

static ty_bn_t ty__bn_copy(cm_arena_t *ar, ty_bn_t a)
{
    ty_bn_t c = {cm_arena_alloc(ar, sizeof(uint32_t) * (size_t)(a.n ? a.n : 1)), a.n};
    if (a.n > 0)
        memcpy(c.d, a.d, sizeof(uint32_t) * (size_t)a.n);
    return c;
}

/*
 * Euclid's steps on numbers of up to 131072 digits are tens of thousands of
 * divisions: each step's values go to a scratch arena that is started anew
 * (with the two live values copied over) every 64 steps, so the memory stays
 * that of a few values, and cancel and statement_timeout are seen there.
 */
static bool ty__bn_gcd(ty_ctx_t *c, ty_bn_t a, ty_bn_t b, ty_bn_t *out)
{
    cm_arena_t scratch[2];
    cm_arena_init(&scratch[0], 1 << 16);
    cm_arena_init(&scratch[1], 1 << 16);
    int cur = 0;
    bool ok = true;
    for (uint64_t step = 1; b.n != 0; step++) {
        ty_bn_t q, r;
        ty_bn_divmod(&scratch[cur], a, b, &q, &r);
        a = b;
        b = r;
        if ((step & 63) == 0) {
            if (!(ok = ty_ctx_check_interrupt(c)))
                break;
            int next = 1 - cur;
            cm_arena_free(&scratch[next]);
            cm_arena_init(&scratch[next], 1 << 16);
            a = ty__bn_copy(&scratch[next], a);
            b = ty__bn_copy(&scratch[next], b);
            cm_arena_free(&scratch[cur]);
            cm_arena_init(&scratch[cur], 1 << 16);
            cur = next;
        }
    }
    if (ok)
        *out = ty__bn_copy(c->arena, a);
    cm_arena_free(&scratch[0]);
    cm_arena_free(&scratch[1]);
    return ok;
}

/* Both at the larger display scale, as integers; the result keeps that scale. */
static bool ty__num_gcd_lcm(ty_ctx_t *c, const ty_datum_t *a, ty_datum_t *o, bool lcm)
{
    const ty_numeric_t *x = a[0].v.n, *y = a[1].v.n;
    if (x->kind != TY_NUM_FINITE || y->kind != TY_NUM_FINITE) {
        o->v.n = ty_num_special(c->arena, TY_NUM_NAN);
        return true;
    }
    int s = x->dscale > y->dscale ? x->dscale : y->dscale;
    ty_bn_t mx = ty_bn_mul_pow10(c->arena, x->mag, s - x->dscale);
    ty_bn_t my = ty_bn_mul_pow10(c->arena, y->mag, s - y->dscale);
    ty_bn_t g;
    if (!ty__bn_gcd(c, mx, my, &g))
        return false;
    if (!lcm) {
        o->v.n = ty_num_make(c->arena, false, g, s);
        return true;
    }
    if (mx.n == 0 || my.n == 0) {
        o->v.n = ty_num_make(c->arena, false, mx.n == 0 ? mx : my, s);
        return true;
    }
    ty_bn_t q, r;
    ty_bn_divmod_ck(c->arena, mx, g, &q, &r, c);
    o->v.n = ty_num_make(c->arena, false, ty_bn_mul_ck(c->arena, q, my, c), s);
    return c->err == NULL || !c->err->set;   /* false: interrupted */
}

static bool ty__num_gcd(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o) { return ty__num_gcd_lcm(c, a, o, false); }
static bool ty__num_lcm(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o) { return ty__num_gcd_lcm(c, a, o, true); }

static bool ty__num_div(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    return ty_num_div_trunc(c, a[0].v.n, a[1].v.n, &o->v.n);
}

/*
 * factorial: multiplied in place in one limb array sized up front, because
 * building a new big integer per factor would put gigabytes in the arena for
 * the largest accepted argument.
 */
static bool ty__factorial(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    int64_t k = a[0].v.i;
    if (k < 0)
        return cm_err_set(c->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "factorial of a negative number is undefined");
    if (k <= 1) {
        o->v.n = ty_num_from_int64(c->arena, 1);
        return true;
    }
    /* PostgreSQL fails here before computing: 32178! has more digits than numeric holds. */
    if (k > 32177)
        return cm_err_set(c->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "value overflows numeric format");
    int cap = (int)(lgamma((double)k + 1) / log(10) / 9) + 3;
    uint32_t *d = cm_arena_alloc(c->arena, sizeof(uint32_t) * (size_t)cap);
    int len = 1;
    d[0] = 1;
    for (int64_t f = 2; f <= k; f++) {
        uint64_t carry = 0;
        for (int i = 0; i < len; i++) {
            uint64_t v = (uint64_t)d[i] * (uint64_t)f + carry;
            d[i] = (uint32_t)(v % TY_BN_BASE);
            carry = v / TY_BN_BASE;
        }
        while (carry != 0) {
            CM_ASSERT(len < cap);
            d[len++] = (uint32_t)(carry % TY_BN_BASE);
            carry /= TY_BN_BASE;
        }
        if ((f & 7) == 0 && !ty_ctx_check_interrupt(c))
            return false;
    }
    ty_bn_t m = {d, len};
    o->v.n = ty_num_make(c->arena, false, m, 0);
    return true;
}

/* ===== scale ===== */

/* Trailing decimal zeros of the fraction (at most dscale of them). */
static int ty__trailing_zeros(cm_arena_t *ar, const ty_numeric_t *x)
{
    if (x->mag.n == 0)
        return x->dscale;
    int z = 0;
    ty_bn_t m = x->mag;
    while (z < x->dscale) {
        ty_bn_t q;
        if (ty_bn_divmod_small(ar, m, 10, &q) != 0)
            break;
        m = q;
        z++;
    }
    return z;
}

static bool ty__scale(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    if (a[0].v.n->kind != TY_NUM_FINITE) {
        o->isnull = true;
        return true;
    }
    o->v.i = a[0].v.n->dscale;
    return true;
}

static bool ty__min_scale(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    const ty_numeric_t *x = a[0].v.n;
    if (x->kind != TY_NUM_FINITE) {
        o->isnull = true;
        return true;
    }
    o->v.i = x->dscale - ty__trailing_zeros(c->arena, x);
    return true;
}

static bool ty__trim_scale(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    const ty_numeric_t *x = a[0].v.n;
    if (x->kind != TY_NUM_FINITE) {
        o->v.n = (ty_numeric_t *)x;
        return true;
    }
    int z = ty__trailing_zeros(c->arena, x);
    bool inexact = false;
    ty_bn_t m = ty_bn_div_pow10(c->arena, x->mag, z, 0, &inexact);
    o->v.n = ty_num_make(c->arena, x->neg, m, x->dscale - z);
    return true;
}

/* ===== width_bucket ===== */

static bool ty__wb_count_err(ty_ctx_t *c)
{
    return cm_err_set(c->err, ERR_WIDTH_BUCKET, "count must be greater than zero");
}

static bool ty__wb_f8(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    double x = a[0].v.f, lo = a[1].v.f, hi = a[2].v.f;
    int64_t count = a[3].v.i;
    if (count <= 0)
        return ty__wb_count_err(c);
    if (x != x || lo != lo || hi != hi)
        return cm_err_set(c->err, ERR_WIDTH_BUCKET, "operand, lower bound, and upper bound cannot be NaN");
    if (isinf(lo) || isinf(hi))
        return cm_err_set(c->err, ERR_WIDTH_BUCKET, "lower and upper bounds must be finite");
    if (lo == hi)
        return cm_err_set(c->err, ERR_WIDTH_BUCKET, "lower bound cannot equal upper bound");
    int64_t r;
    if (lo < hi) {
        if (x < lo)
            r = 0;
        else if (x >= hi)
            r = count + 1;
        else
            r = (int64_t)((double)count * (x - lo) / (hi - lo)) + 1;
    } else {
        if (x > lo)
            r = 0;
        else if (x <= hi)
            r = count + 1;
        else
            r = (int64_t)((double)count * (lo - x) / (lo - hi)) + 1;
    }
    if (r > INT32_MAX)
        return cm_err_set(c->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "integer out of range");
    o->v.i = r;
    return true;
}

static bool ty__wb_num(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    const ty_numeric_t *x = a[0].v.n, *lo = a[1].v.n, *hi = a[2].v.n;
    int64_t count = a[3].v.i;
    if (count <= 0)
        return ty__wb_count_err(c);
    if (x->kind == TY_NUM_NAN || lo->kind == TY_NUM_NAN || hi->kind == TY_NUM_NAN)
        return cm_err_set(c->err, ERR_WIDTH_BUCKET, "operand, lower bound, and upper bound cannot be NaN");
    if (lo->kind != TY_NUM_FINITE || hi->kind != TY_NUM_FINITE)
        return cm_err_set(c->err, ERR_WIDTH_BUCKET, "lower and upper bounds must be finite");
    int dir = ty_num_cmp(lo, hi);
    if (dir == 0)
        return cm_err_set(c->err, ERR_WIDTH_BUCKET, "lower bound cannot equal upper bound");
    int64_t r;
    int below = ty_num_cmp(x, lo), above = ty_num_cmp(x, hi);
    if (dir < 0 ? below < 0 : below > 0) {
        r = 0;
    } else if (dir < 0 ? above >= 0 : above <= 0) {
        r = count + 1;
    } else {
        /* Exact: floor(count * (x - lo) / (hi - lo)) + 1, mirrored when lo > hi. */
        ty_numeric_t *num, *den, *scaled, *q;
        if (!(dir < 0 ? ty_num_sub(c, x, lo, &num) : ty_num_sub(c, lo, x, &num)) ||
            !(dir < 0 ? ty_num_sub(c, hi, lo, &den) : ty_num_sub(c, lo, hi, &den)) ||
            !ty_num_mul(c, num, ty_num_from_int64(c->arena, count), &scaled) || !ty_num_div_trunc(c, scaled, den, &q))
            return false;
        if (!ty_numeric_to_int64(q, &r))
            r = INT64_MAX;
        r++;
    }
    if (r > INT32_MAX)
        return cm_err_set(c->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "integer out of range");
    o->v.i = r;
    return true;
}

#define I4 TY_INT4
#define I8 TY_INT8

static const ty_func_t ty__numeric_more[] = {
    {"gcd", 2, {I4, I4}, I4, S, ty__int4_gcd, 5044},
    {"gcd", 2, {I8, I8}, I8, S, ty__int8_gcd, 5045},
    {"gcd", 2, {NU, NU}, NU, S | TY_FN_BLOCKING, ty__num_gcd, 5048},
    {"lcm", 2, {I4, I4}, I4, S, ty__int4_lcm, 5046},
    {"lcm", 2, {I8, I8}, I8, S, ty__int8_lcm, 5047},
    {"lcm", 2, {NU, NU}, NU, S | TY_FN_BLOCKING, ty__num_lcm, 5049},
    {"div", 2, {NU, NU}, NU, S, ty__num_div, 1973},
    {"factorial", 1, {I8}, NU, S | TY_FN_BLOCKING, ty__factorial, 1376},
    {"scale", 1, {NU}, I4, S, ty__scale, 3281},
    {"min_scale", 1, {NU}, I4, S, ty__min_scale, 5042},
    {"trim_scale", 1, {NU}, NU, S, ty__trim_scale, 5043},
    {"width_bucket", 4, {TY_FLOAT8, TY_FLOAT8, TY_FLOAT8, I4}, I4, S, ty__wb_f8, 320},
    {"width_bucket", 4, {NU, NU, NU, I4}, I4, S, ty__wb_num, 2170},
};

const ty_func_table_t ty_funcs_numeric_more = {ty__numeric_more, CM_ARRAY_LEN(ty__numeric_more)};
