/*
 * ty_numeric_math.c: sqrt, exp, ln, log and power of numeric.
 *
 * Results are computed in fixed point with guard digits well beyond the
 * result scale and then rounded to the scale PostgreSQL 15 chooses for each
 * function (its rscale rules are reproduced here), so the printed digits
 * match. Integer powers are computed exactly when the exact value is small.
 */
#include "types/ty_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int ty__clamp_scale(int rscale)
{
    if (rscale < 0)
        rscale = 0;
    if (rscale > TY_NUMERIC_MAX_DISPLAY_SCALE)
        rscale = TY_NUMERIC_MAX_DISPLAY_SCALE;
    return rscale;
}

/* Decimal exponent of the leading digit: x = d.ddd * 10^e. */
static int ty__dec_exp(const ty_numeric_t *x)
{
    return ty_bn_dec_digits(x->mag) - 1 - x->dscale;
}

/* PostgreSQL's base-10000 weight of the leading digit. */
static int ty__pg_weight(const ty_numeric_t *x)
{
    if (x->mag.n == 0)
        return 0;
    int e = ty__dec_exp(x);
    return e >= 0 ? e / 4 : -((-e + 3) / 4);
}

/* ln(|x|) in double, even when x is beyond double's range. */
static double ty__approx_ln(const ty_numeric_t *x, cm_arena_t *ar)
{
    int len;
    char *dec = ty_bn_to_dec(ar, x->mag, &len);
    double lead = 0;
    int take = len < 17 ? len : 17;
    for (int i = 0; i < take; i++)
        lead = lead * 10 + (dec[i] - '0');
    int exp10 = len - take - x->dscale;
    return log(lead) + exp10 * M_LN10;
}

/* PostgreSQL's estimate_ln_dweight. */
static int ty__ln_dweight(const ty_numeric_t *x, ty_ctx_t *ctx)
{
    if (x->neg || x->mag.n == 0)
        return 0;
    ty_numeric_t *lo = ty_num_make(ctx->arena, false, ty_bn_from_u64(ctx->arena, 9), 1);
    ty_numeric_t *hi = ty_num_make(ctx->arena, false, ty_bn_from_u64(ctx->arena, 11), 1);
    if (ty_num_cmp(x, lo) >= 0 && ty_num_cmp(x, hi) <= 0) {
        ty_numeric_t *one = ty_num_from_int64(ctx->arena, 1), *d;
        ty_num_sub(ctx, x, one, &d);
        if (d->mag.n == 0)
            return 0;
        return ty__dec_exp(d);
    }
    double l = ty__approx_ln(x, ctx->arena);
    return (int)log10(fabs(l));
}

/* sqrt(x) rounded to scale w; x >= 0 finite. */
static ty_numeric_t *ty__fx_sqrt(ty_ctx_t *ctx, const ty_numeric_t *x, int w)
{
    cm_arena_t *ar = ctx->arena;
    /* round(sqrt(x) * 10^w) = (isqrt(x * 10^(2w + 2)) + 5) / 10. */
    int k = 2 * w + 2 - x->dscale;
    ty_bn_t n = k >= 0 ? ty_bn_mul_pow10(ar, x->mag, k) : ty_bn_div_pow10(ar, x->mag, -k, 0, NULL);
    ty_bn_t q = ty_bn_isqrt(ar, n, ctx);
    return ty_num_make(ar, false, ty_bn_div_pow10(ar, q, 1, 1, NULL), w);
}

static ty_numeric_t *ty__fx_mul(ty_ctx_t *ctx, const ty_numeric_t *a, const ty_numeric_t *b, int w)
{
    ty_numeric_t *r;
    ty_num_mul(ctx, a, b, &r);
    return ty_num_round(ctx->arena, r, w);
}

/* ln(m) for 1 <= m <= 10 at scale w (plus internal guard digits). */
static ty_numeric_t *ty__ln_small(ty_ctx_t *ctx, const ty_numeric_t *m, int w)
{
    int wg = w + 8;
    ty_numeric_t *limit = ty_num_make(ctx->arena, false, ty_bn_from_u64(ctx->arena, 101), 2);
    ty_numeric_t *one = ty_num_from_int64(ctx->arena, 1);
    int r = 0;
    m = ty_num_round(ctx->arena, m, wg);
    while (ty_num_cmp(m, limit) > 0 && ty_ctx_check_interrupt(ctx)) {
        m = ty__fx_sqrt(ctx, m, wg);
        r++;
    }
    /* ln(m) = 2 atanh(t), t = (m - 1) / (m + 1), with |t| < 0.005. */
    ty_numeric_t *num, *den, *t, *t2, *sum, *term;
    ty_num_sub(ctx, m, one, &num);
    ty_num_add(ctx, m, one, &den);
    t = ty_num_div_rscale_ck(ctx, num, den, wg);
    t2 = ty__fx_mul(ctx, t, t, wg);
    sum = t;
    term = t;
    for (int k = 3; term->mag.n != 0; k += 2) {
        if (!ty_ctx_check_interrupt(ctx))
            break;   /* the caller sees ctx->err */
        term = ty__fx_mul(ctx, term, t2, wg);
        ty_numeric_t *q = ty_num_div_rscale_ck(ctx, term, ty_num_from_int64(ctx->arena, k), wg);
        if (q->mag.n == 0)
            break;
        ty_num_add(ctx, sum, q, &sum);
    }
    ty_numeric_t *f = ty_num_from_int64(ctx->arena, (int64_t)2 << r);
    ty_num_mul(ctx, sum, f, &sum);
    return sum;
}

/* ln(x) for x > 0 at about scale w. */
static ty_numeric_t *ty__fx_ln(ty_ctx_t *ctx, const ty_numeric_t *x, int w)
{
    int e = ty__dec_exp(x);
    ty_numeric_t *m = ty_num_make(ctx->arena, false, x->mag, x->dscale + e);
    ty_numeric_t *r = ty__ln_small(ctx, m, w + 4);
    if (e != 0) {
        ty_numeric_t *ten = ty_num_from_int64(ctx->arena, 10);
        int ew = w + 4 + (int)log10(abs(e) + 1) + 1;
        ty_numeric_t *ln10 = ty__ln_small(ctx, ten, ew);
        ty_numeric_t *p;
        ty_num_mul(ctx, ln10, ty_num_from_int64(ctx->arena, e), &p);
        ty_num_add(ctx, r, p, &r);
    }
    return ty_num_round(ctx->arena, r, w);
}

/* exp(x) at scale w; the caller adds guard digits for the result's size. */
static ty_numeric_t *ty__fx_exp(ty_ctx_t *ctx, const ty_numeric_t *x, int w)
{
    ty_numeric_t *small = ty_num_make(ctx->arena, false, ty_bn_from_u64(ctx->arena, 1), 2);
    ty_numeric_t *half = ty_num_make(ctx->arena, false, ty_bn_from_u64(ctx->arena, 5), 1);
    int r = 0;
    int wg = w + 10;
    while (ty_num_cmp(ty_num_abs(ctx->arena, x), small) > 0 && ty_ctx_check_interrupt(ctx)) {
        x = ty__fx_mul(ctx, x, half, wg + r);
        r++;
    }
    wg += r / 3 + 1;
    ty_numeric_t *sum = ty_num_from_int64(ctx->arena, 1), *term = sum;
    for (int k = 1; ty_ctx_check_interrupt(ctx); k++) {
        term = ty__fx_mul(ctx, term, x, wg);
        term = ty_num_div_rscale_ck(ctx, term, ty_num_from_int64(ctx->arena, k), wg);
        if (term->mag.n == 0)
            break;
        ty_num_add(ctx, sum, term, &sum);
    }
    for (int i = 0; i < r && ty_ctx_check_interrupt(ctx); i++)
        sum = ty__fx_mul(ctx, sum, sum, wg);
    return sum;
}

bool ty_num_sqrt(ty_ctx_t *ctx, const ty_numeric_t *n, ty_numeric_t **out)
{
    if (n->kind == TY_NUM_NAN || n->kind == TY_NUM_PINF) {
        *out = (ty_numeric_t *)n;
        return true;
    }
    if (n->kind == TY_NUM_NINF || n->neg)
        return cm_err_set(ctx->err, CM_ERRCODE_INVALID_ARGUMENT_FOR_POWER_FUNCTION,
                          "cannot take square root of a negative number");
    int sweight = (ty__pg_weight(n) + 1) * 4 / 2 - 1;
    int rscale = TY_NUMERIC_MIN_SIG_DIGITS - sweight;
    if (rscale < n->dscale)
        rscale = n->dscale;
    rscale = ty__clamp_scale(rscale);
    *out = ty__fx_sqrt(ctx, n, rscale);
    if (ctx->err != NULL && ctx->err->set)
        return false;   /* interrupted */
    return true;
}

bool ty_num_exp(ty_ctx_t *ctx, const ty_numeric_t *n, ty_numeric_t **out)
{
    if (n->kind == TY_NUM_NAN || n->kind == TY_NUM_PINF) {
        *out = (ty_numeric_t *)n;
        return true;
    }
    if (n->kind == TY_NUM_NINF) {
        *out = ty_num_from_int64(ctx->arena, 0);
        return true;
    }
    double val = ty_num_to_double(n, ctx->arena) * 0.434294481903252;
    if (val > 2000)
        val = 2000;
    if (val < -2000)
        val = -2000;
    if (val > 131072.0 * 1.0 || ty__dec_exp(n) > 6)
        return cm_err_set(ctx->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "value overflows numeric format");
    int rscale = TY_NUMERIC_MIN_SIG_DIGITS - (int)val;
    if (rscale < n->dscale)
        rscale = n->dscale;
    rscale = ty__clamp_scale(rscale);
    int guard = val > 0 ? (int)val + 1 : 0;
    ty_numeric_t *r = ty__fx_exp(ctx, n, rscale + guard + 4);
    *out = ty_num_round(ctx->arena, r, rscale);
    return true;
}

static bool ty__ln_arg_check(ty_ctx_t *ctx, const ty_numeric_t *n)
{
    if (n->kind == TY_NUM_NINF || (n->kind == TY_NUM_FINITE && n->neg))
        return cm_err_set(ctx->err, CM_ERRCODE_INVALID_ARGUMENT_FOR_LOG, "cannot take logarithm of a negative number");
    if (ty_num_is_zero(n))
        return cm_err_set(ctx->err, CM_ERRCODE_INVALID_ARGUMENT_FOR_LOG, "cannot take logarithm of zero");
    return true;
}

bool ty_num_ln(ty_ctx_t *ctx, const ty_numeric_t *n, ty_numeric_t **out)
{
    if (n->kind == TY_NUM_NAN || n->kind == TY_NUM_PINF) {
        *out = (ty_numeric_t *)n;
        return true;
    }
    if (!ty__ln_arg_check(ctx, n))
        return false;
    int rscale = TY_NUMERIC_MIN_SIG_DIGITS - ty__ln_dweight(n, ctx);
    if (rscale < n->dscale)
        rscale = n->dscale;
    rscale = ty__clamp_scale(rscale);
    *out = ty_num_round(ctx->arena, ty__fx_ln(ctx, n, rscale + 4), rscale);
    return true;
}

bool ty_num_log(ty_ctx_t *ctx, const ty_numeric_t *base, const ty_numeric_t *n, ty_numeric_t **out)
{
    if (base->kind == TY_NUM_NAN || n->kind == TY_NUM_NAN) {
        *out = ty_num_special(ctx->arena, TY_NUM_NAN);
        return true;
    }
    if (!ty__ln_arg_check(ctx, base) || !ty__ln_arg_check(ctx, n))
        return false;
    if (base->kind != TY_NUM_FINITE || n->kind != TY_NUM_FINITE) {
        /* log(inf, x) = 0 for finite x, log(b, inf) = inf; inf/inf is NaN. */
        if (base->kind != TY_NUM_FINITE && n->kind != TY_NUM_FINITE)
            *out = ty_num_special(ctx->arena, TY_NUM_NAN);
        else if (base->kind != TY_NUM_FINITE)
            *out = ty_num_from_int64(ctx->arena, 0);
        else
            *out = ty_num_special(ctx->arena, TY_NUM_PINF);
        return true;
    }
    int dw = ty__ln_dweight(n, ctx) - ty__ln_dweight(base, ctx);
    int rscale = TY_NUMERIC_MIN_SIG_DIGITS - dw;
    if (rscale < base->dscale)
        rscale = base->dscale;
    if (rscale < n->dscale)
        rscale = n->dscale;
    rscale = ty__clamp_scale(rscale);
    int w = rscale + 8 + (dw < 0 ? -dw : dw);
    ty_numeric_t *lb = ty__fx_ln(ctx, base, w), *ln = ty__fx_ln(ctx, n, w);
    if (lb->mag.n == 0)
        return ty_err_div0(ctx);
    *out = ty_num_div_rscale_ck(ctx, ln, lb, rscale);
    return true;
}

bool ty_num_log10(ty_ctx_t *ctx, const ty_numeric_t *n, ty_numeric_t **out)
{
    return ty_num_log(ctx, ty_num_from_int64(ctx->arena, 10), n, out);
}

static bool ty__num_is_int(const ty_numeric_t *n)
{
    if (n->kind != TY_NUM_FINITE)
        return false;
    bool inexact;
    cm_arena_t tmp;
    cm_arena_init(&tmp, 1024);
    ty_bn_div_pow10(&tmp, n->mag, n->dscale, 0, &inexact);
    cm_arena_free(&tmp);
    return !inexact;
}

static bool ty__num_is_odd_int(const ty_numeric_t *n, cm_arena_t *ar)
{
    if (!ty__num_is_int(n))
        return false;
    ty_bn_t q = ty_bn_div_pow10(ar, n->mag, n->dscale, 0, NULL);
    return q.n > 0 && (q.d[0] & 1);
}

static bool ty__power_special(ty_ctx_t *ctx, const ty_numeric_t *x, const ty_numeric_t *y, ty_numeric_t **out)
{
    cm_arena_t *ar = ctx->arena;
    ty_numeric_t *one = ty_num_from_int64(ar, 1);
    if (x->kind == TY_NUM_NAN) {
        *out = (y->kind == TY_NUM_FINITE && y->mag.n == 0) ? one : (ty_numeric_t *)x;
        return true;
    }
    if (y->kind == TY_NUM_NAN) {
        *out = (x->kind == TY_NUM_FINITE && ty_num_cmp(x, one) == 0) ? one : (ty_numeric_t *)y;
        return true;
    }
    if (y->kind == TY_NUM_FINITE && y->mag.n == 0) {
        *out = one;
        return true;
    }
    if (x->kind == TY_NUM_FINITE && y->kind != TY_NUM_FINITE) {
        if (x->mag.n == 0) {
            if (y->kind == TY_NUM_NINF)
                return cm_err_set(ctx->err, CM_ERRCODE_INVALID_ARGUMENT_FOR_POWER_FUNCTION,
                                  "zero raised to a negative power is undefined");
            *out = ty_num_from_int64(ar, 0);
            return true;
        }
        int c = ty_num_cmp(ty_num_abs(ar, x), one);
        if (c == 0)
            *out = one;
        else if ((c > 0) == (y->kind == TY_NUM_PINF))
            *out = ty_num_special(ar, TY_NUM_PINF);
        else
            *out = ty_num_from_int64(ar, 0);
        return true;
    }
    /* x is infinite. */
    bool ypos = y->kind == TY_NUM_PINF || (y->kind == TY_NUM_FINITE && !y->neg);
    if (!ypos) {
        *out = ty_num_from_int64(ar, 0);
        return true;
    }
    if (x->kind == TY_NUM_NINF && y->kind == TY_NUM_FINITE) {
        if (!ty__num_is_int(y))
            return cm_err_set(ctx->err, CM_ERRCODE_INVALID_ARGUMENT_FOR_POWER_FUNCTION,
                              "a negative number raised to a non-integer power yields a complex result");
        *out = ty_num_special(ar, ty__num_is_odd_int(y, ar) ? TY_NUM_NINF : TY_NUM_PINF);
        return true;
    }
    *out = ty_num_special(ar, TY_NUM_PINF);
    return true;
}

bool ty_num_power(ty_ctx_t *ctx, const ty_numeric_t *x, const ty_numeric_t *y, ty_numeric_t **out)
{
    cm_arena_t *ar = ctx->arena;
    if (x->kind != TY_NUM_FINITE || y->kind != TY_NUM_FINITE)
        return ty__power_special(ctx, x, y, out);
    bool yint = ty__num_is_int(y);
    if (x->mag.n == 0 && y->neg)
        return cm_err_set(ctx->err, CM_ERRCODE_INVALID_ARGUMENT_FOR_POWER_FUNCTION,
                          "zero raised to a negative power is undefined");
    if (x->neg && !yint)
        return cm_err_set(ctx->err, CM_ERRCODE_INVALID_ARGUMENT_FOR_POWER_FUNCTION,
                          "a negative number raised to a non-integer power yields a complex result");
    int64_t yi = 0;
    if (yint && ty_numeric_to_int64(y, &yi) && yi >= INT32_MIN && yi <= INT32_MAX) {
        int rscale = ty__clamp_scale(x->dscale > TY_NUMERIC_MIN_SIG_DIGITS ? x->dscale : TY_NUMERIC_MIN_SIG_DIGITS);
        if (x->mag.n == 0) {
            *out = ty_num_make(ar, false, x->mag, rscale);
            return true;
        }
        uint64_t ay = yi < 0 ? (uint64_t)(-yi) : (uint64_t)yi;
        double dweight = (double)ay * ty__approx_ln(x, ar) / M_LN10;
        if (yi < 0)
            dweight = -dweight;
        if (dweight > 131071)
            return cm_err_set(ctx->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "value overflows numeric format");
        if (dweight < -(double)rscale - 2) {
            *out = ty_num_make(ar, false, ty_bn_from_u64(ar, 0), rscale);
            return true;
        }
        bool neg = x->neg && (ay & 1);
        double exact_digits = (double)ay * ty_bn_dec_digits(x->mag);
        if (exact_digits < 150000) {
            /* Square and multiply on the exact magnitude: far cheaper than exp(y * ln(x)) at
             * the tens of thousands of digits such a result has; each multiplication of
             * at most 8000 limbs takes milliseconds, so interrupts are seen between them. */
            ty_bn_t acc = ty_bn_from_u64(ar, 1), b = x->mag;
            for (uint64_t e = ay; e > 0; e >>= 1) {
                if (!ty_ctx_check_interrupt(ctx))
                    return false;
                if (e & 1)
                    acc = ty_bn_mul_ck(ar, acc, b, ctx);
                if (e > 1)
                    b = ty_bn_mul_ck(ar, b, b, ctx);
            }
            if (ctx->err != NULL && ctx->err->set)
                return false;   /* interrupted in a multiplication */
            ty_numeric_t *p = ty_num_make(ar, neg, acc, (int)(x->dscale * (int64_t)ay));
            if (yi >= 0) {
                *out = ty_num_round(ar, p, rscale);
            } else {
                *out = ty_num_div_rscale_ck(ctx, ty_num_from_int64(ar, 1), p, rscale);
                if (ctx->err != NULL && ctx->err->set)
                    return false;   /* interrupted in the division */
            }
            return true;
        }
        /* Too large to do exactly: fall through to exp(y * ln(x)). */
        ty_numeric_t *ax = ty_num_abs(ar, x);
        int guard = dweight > 0 ? (int)dweight + 1 : 0;
        int w = rscale + guard + 10 + (int)log10((double)ay + 1);
        ty_numeric_t *l = ty__fx_ln(ctx, ax, w), *z;
        ty_num_mul(ctx, l, y, &z);
        ty_numeric_t *r = ty__fx_exp(ctx, ty_num_round(ar, z, w), rscale + guard + 4);
        if (ctx->err != NULL && ctx->err->set)
            return false;   /* interrupted in the series */
        r = ty_num_round(ar, r, rscale);
        *out = neg ? ty_num_neg(ar, r) : r;
        return true;
    }
    /* General case: exp(y * ln(x)), scale chosen as PostgreSQL's power_var. */
    if (x->mag.n == 0) {
        *out = ty_num_make(ar, false, x->mag, TY_NUMERIC_MIN_SIG_DIGITS);
        return true;
    }
    double lnx = ty__approx_ln(x, ar);
    double val = lnx * ty_num_to_double(y, ar) * 0.434294481903252;
    if (val > 131071)
        return cm_err_set(ctx->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "value overflows numeric format");
    if (val < -2000)
        val = -2000;
    int rscale = TY_NUMERIC_MIN_SIG_DIGITS - (int)val;
    if (rscale < x->dscale)
        rscale = x->dscale;
    if (rscale < y->dscale)
        rscale = y->dscale;
    rscale = ty__clamp_scale(rscale);
    int guard = val > 0 ? (int)val + 1 : 0;
    int ydig = ty__dec_exp(y) > 0 ? ty__dec_exp(y) + 1 : 0;
    int w = rscale + guard + ydig + 10;
    ty_numeric_t *l = ty__fx_ln(ctx, x, w), *z;
    ty_num_mul(ctx, l, y, &z);
    ty_numeric_t *r = ty__fx_exp(ctx, ty_num_round(ar, z, w), rscale + guard + 4);
    if (ctx->err != NULL && ctx->err->set)
        return false;   /* interrupted in the series */
    *out = ty_num_round(ar, r, rscale);
    return true;
}
