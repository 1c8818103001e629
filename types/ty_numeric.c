/*
 * ty_numeric.c: arithmetic of the numeric type with PostgreSQL's rules.
 *
 * A finite numeric is sign * magnitude * 10^-dscale, so every result is
 * computed exactly on integers and then rounded to the result scale that
 * PostgreSQL would choose (select_div_scale and friends), which makes the
 * printed digits agree with PostgreSQL 15. NaN and the infinities follow
 * PostgreSQL 14+ semantics.
 */
#include "types/ty_internal.h"

#include <math.h>
#include <string.h>

/* Limits of PostgreSQL's on-disk numeric format. */
#define TY_NUM_WEIGHT_MAX 32767
#define TY_NUM_DSCALE_MAX 16383

ty_numeric_t *ty_num_make(cm_arena_t *a, bool neg, ty_bn_t mag, int dscale)
{
    ty_numeric_t *n = cm_arena_alloc(a, sizeof(*n));
    n->kind = TY_NUM_FINITE;
    n->neg = neg && mag.n > 0;
    n->dscale = dscale;
    n->mag = mag;
    return n;
}

ty_numeric_t *ty_num_special(cm_arena_t *a, int kind)
{
    ty_numeric_t *n = cm_arena_zalloc(a, sizeof(*n));
    n->kind = (uint8_t)kind;
    return n;
}

ty_numeric_t *ty_num_from_int64(cm_arena_t *a, int64_t v)
{
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    return ty_num_make(a, v < 0, ty_bn_from_u64(a, u), 0);
}

bool ty_num_is_zero(const ty_numeric_t *n)
{
    return n->kind == TY_NUM_FINITE && n->mag.n == 0;
}

/* Brings both magnitudes to the larger scale. */
static int ty__num_align(cm_arena_t *ar, const ty_numeric_t *a, const ty_numeric_t *b, ty_bn_t *ma, ty_bn_t *mb)
{
    int s = a->dscale > b->dscale ? a->dscale : b->dscale;
    *ma = ty_bn_mul_pow10(ar, a->mag, s - a->dscale);
    *mb = ty_bn_mul_pow10(ar, b->mag, s - b->dscale);
    return s;
}

/* Ordering of PostgreSQL: -Infinity < finite < Infinity < NaN. */
static int ty__num_class(const ty_numeric_t *n)
{
    switch (n->kind) {
    case TY_NUM_NINF: return 0;
    case TY_NUM_FINITE: return 1;
    case TY_NUM_PINF: return 2;
    default: return 3;
    }
}

int ty_num_cmp(const ty_numeric_t *a, const ty_numeric_t *b)
{
    int ca = ty__num_class(a), cb = ty__num_class(b);
    if (ca != cb || ca != 1)
        return ca < cb ? -1 : ca > cb;
    if (a->neg != b->neg)
        return a->neg ? -1 : 1;
    /* Compare magnitudes at a common scale without allocating much: use a
     * small stack arena. */
    cm_arena_t tmp;
    cm_arena_init(&tmp, 4096);
    ty_bn_t ma, mb;
    ty__num_align(&tmp, a, b, &ma, &mb);
    int c = ty_bn_cmp(ma, mb);
    cm_arena_free(&tmp);
    return a->neg ? -c : c;
}

/* The weight of the leading digit in PostgreSQL's base-10000 layout, and
 * that digit, as select_div_scale needs them. */
static void ty__num_lead(const ty_numeric_t *n, cm_arena_t *ar, int *weight, int *first)
{
    if (n->mag.n == 0) {
        *weight = 0;
        *first = 0;
        return;
    }
    int len;
    char *dec = ty_bn_to_dec(ar, n->mag, &len);
    int e = len - 1 - n->dscale;   /* decimal exponent of the leading digit */
    int w = e >= 0 ? e / 4 : -((-e + 3) / 4);
    int ndig = e - 4 * w + 1;      /* 1..4 decimal digits in the leading group */
    int v = 0;
    for (int i = 0; i < ndig; i++)
        v = v * 10 + (i < len ? dec[i] - '0' : 0);
    *weight = w;
    *first = v;
}

static bool ty__num_check(ty_ctx_t *ctx, ty_numeric_t *r)
{
    if (r->kind != TY_NUM_FINITE || r->mag.n == 0)
        return true;
    int digits = ty_bn_dec_digits(r->mag);
    int e = digits - 1 - r->dscale;
    if ((e >= 0 && e / 4 > TY_NUM_WEIGHT_MAX) || r->dscale > TY_NUM_DSCALE_MAX)
        return cm_err_set(ctx->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "value overflows numeric format");
    return true;
}

static ty_numeric_t *ty__num_addsub(cm_arena_t *ar, const ty_numeric_t *a, const ty_numeric_t *b, bool negate_b)
{
    ty_bn_t ma, mb;
    int s = ty__num_align(ar, a, b, &ma, &mb);
    bool nb = negate_b ? !b->neg : b->neg;
    if (a->neg == nb)
        return ty_num_make(ar, a->neg, ty_bn_add(ar, ma, mb), s);
    if (ty_bn_cmp(ma, mb) >= 0)
        return ty_num_make(ar, a->neg, ty_bn_sub(ar, ma, mb), s);
    return ty_num_make(ar, nb, ty_bn_sub(ar, mb, ma), s);
}

static int ty__inf_sign(const ty_numeric_t *n)
{
    if (n->kind == TY_NUM_PINF)
        return 1;
    if (n->kind == TY_NUM_NINF)
        return -1;
    return 0;
}

static int ty__num_signum(const ty_numeric_t *n)
{
    if (n->kind != TY_NUM_FINITE)
        return ty__inf_sign(n);
    return n->mag.n == 0 ? 0 : n->neg ? -1 : 1;
}

static ty_numeric_t *ty__inf(cm_arena_t *a, int sign)
{
    return ty_num_special(a, sign > 0 ? TY_NUM_PINF : TY_NUM_NINF);
}

bool ty_num_add(ty_ctx_t *ctx, const ty_numeric_t *a, const ty_numeric_t *b, ty_numeric_t **out)
{
    if (a->kind == TY_NUM_NAN || b->kind == TY_NUM_NAN) {
        *out = ty_num_special(ctx->arena, TY_NUM_NAN);
        return true;
    }
    int ia = ty__inf_sign(a), ib = ty__inf_sign(b);
    if (ia || ib) {
        *out = (ia && ib && ia != ib) ? ty_num_special(ctx->arena, TY_NUM_NAN) : ty__inf(ctx->arena, ia ? ia : ib);
        return true;
    }
    *out = ty__num_addsub(ctx->arena, a, b, false);
    return ty__num_check(ctx, *out);
}

bool ty_num_sub(ty_ctx_t *ctx, const ty_numeric_t *a, const ty_numeric_t *b, ty_numeric_t **out)
{
    if (a->kind == TY_NUM_NAN || b->kind == TY_NUM_NAN) {
        *out = ty_num_special(ctx->arena, TY_NUM_NAN);
        return true;
    }
    int ia = ty__inf_sign(a), ib = -ty__inf_sign(b);
    if (ia || ib) {
        *out = (ia && ib && ia != ib) ? ty_num_special(ctx->arena, TY_NUM_NAN) : ty__inf(ctx->arena, ia ? ia : ib);
        return true;
    }
    *out = ty__num_addsub(ctx->arena, a, b, true);
    return ty__num_check(ctx, *out);
}

bool ty_num_mul(ty_ctx_t *ctx, const ty_numeric_t *a, const ty_numeric_t *b, ty_numeric_t **out)
{
    if (a->kind == TY_NUM_NAN || b->kind == TY_NUM_NAN) {
        *out = ty_num_special(ctx->arena, TY_NUM_NAN);
        return true;
    }
    if (a->kind != TY_NUM_FINITE || b->kind != TY_NUM_FINITE) {
        int s = ty__num_signum(a) * ty__num_signum(b);
        *out = s == 0 ? ty_num_special(ctx->arena, TY_NUM_NAN) : ty__inf(ctx->arena, s);
        return true;
    }
    *out = ty_num_make(ctx->arena, a->neg != b->neg, ty_bn_mul_ck(ctx->arena, a->mag, b->mag, ctx),
                       a->dscale + b->dscale);
    if (ctx->err != NULL && ctx->err->set)
        return false;   /* interrupted */
    return ty__num_check(ctx, *out);
}

/* round_half_up(|a| / |b| * 10^rscale) computed exactly; mode 0 truncates. */
static ty_bn_t ty__num_divmag(cm_arena_t *ar, const ty_numeric_t *a, const ty_numeric_t *b, int rscale, int mode,
                              ty_ctx_t *ctx)
{
    /* |a|/|b| * 10^rscale = ma * 10^(rscale + sb - sa) / mb; one extra digit for rounding. */
    int k = rscale + b->dscale - a->dscale + (mode == 1 ? 1 : 0);
    ty_bn_t num = a->mag, den = b->mag;
    if (k >= 0)
        num = ty_bn_mul_pow10(ar, num, k);
    else
        den = ty_bn_mul_pow10(ar, den, -k);
    ty_bn_t q;
    ty_bn_divmod_ck(ar, num, den, &q, NULL, ctx);
    if (mode == 1)
        q = ty_bn_div_pow10(ar, q, 1, 1, NULL);
    return q;
}

static bool ty__num_div_special(ty_ctx_t *ctx, const ty_numeric_t *a, const ty_numeric_t *b, ty_numeric_t **out)
{
    if (a->kind == TY_NUM_NAN || b->kind == TY_NUM_NAN) {
        *out = ty_num_special(ctx->arena, TY_NUM_NAN);
        return true;
    }
    if (a->kind != TY_NUM_FINITE) {
        if (b->kind != TY_NUM_FINITE) {
            *out = ty_num_special(ctx->arena, TY_NUM_NAN);
            return true;
        }
        if (ty_num_is_zero(b))
            return ty_err_div0(ctx);
        *out = ty__inf(ctx->arena, ty__num_signum(a) * ty__num_signum(b));
        return true;
    }
    /* finite / infinity */
    *out = ty_num_make(ctx->arena, false, ty_bn_from_u64(ctx->arena, 0), 0);
    return true;
}

bool ty_num_div(ty_ctx_t *ctx, const ty_numeric_t *a, const ty_numeric_t *b, ty_numeric_t **out)
{
    if (a->kind != TY_NUM_FINITE || b->kind != TY_NUM_FINITE)
        return ty__num_div_special(ctx, a, b, out);
    if (b->mag.n == 0)
        return ty_err_div0(ctx);
    /* PostgreSQL's select_div_scale: about 16 significant digits, and never
     * fewer decimals than either input shows. */
    int w1, f1, w2, f2;
    ty__num_lead(a, ctx->arena, &w1, &f1);
    ty__num_lead(b, ctx->arena, &w2, &f2);
    int qweight = w1 - w2;
    if (f1 <= f2)
        qweight--;
    int rscale = TY_NUMERIC_MIN_SIG_DIGITS - qweight * 4;
    if (rscale < a->dscale)
        rscale = a->dscale;
    if (rscale < b->dscale)
        rscale = b->dscale;
    if (rscale < 0)
        rscale = 0;
    if (rscale > TY_NUMERIC_MAX_DISPLAY_SCALE)
        rscale = TY_NUMERIC_MAX_DISPLAY_SCALE;
    *out = ty_num_make(ctx->arena, a->neg != b->neg, ty__num_divmag(ctx->arena, a, b, rscale, 1, ctx), rscale);
    if (ctx->err != NULL && ctx->err->set)
        return false;   /* interrupted */
    return ty__num_check(ctx, *out);
}

ty_numeric_t *ty_num_div_rscale(cm_arena_t *ar, const ty_numeric_t *a, const ty_numeric_t *b, int rscale)
{
    return ty_num_make(ar, a->neg != b->neg, ty__num_divmag(ar, a, b, rscale, 1, NULL), rscale);
}

ty_numeric_t *ty_num_div_rscale_ck(ty_ctx_t *ctx, const ty_numeric_t *a, const ty_numeric_t *b, int rscale)
{
    return ty_num_make(ctx->arena, a->neg != b->neg, ty__num_divmag(ctx->arena, a, b, rscale, 1, ctx), rscale);
}

bool ty_num_div_trunc(ty_ctx_t *ctx, const ty_numeric_t *a, const ty_numeric_t *b, ty_numeric_t **out)
{
    if (a->kind != TY_NUM_FINITE || b->kind != TY_NUM_FINITE)
        return ty__num_div_special(ctx, a, b, out);
    if (b->mag.n == 0)
        return ty_err_div0(ctx);
    *out = ty_num_make(ctx->arena, a->neg != b->neg, ty__num_divmag(ctx->arena, a, b, 0, 0, ctx), 0);
    return true;
}

bool ty_num_mod(ty_ctx_t *ctx, const ty_numeric_t *a, const ty_numeric_t *b, ty_numeric_t **out)
{
    if (a->kind == TY_NUM_NAN || b->kind == TY_NUM_NAN) {
        *out = ty_num_special(ctx->arena, TY_NUM_NAN);
        return true;
    }
    if (a->kind != TY_NUM_FINITE) {
        if (ty_num_is_zero(b))
            return ty_err_div0(ctx);
        *out = ty_num_special(ctx->arena, TY_NUM_NAN);
        return true;
    }
    if (b->kind != TY_NUM_FINITE) {
        *out = (ty_numeric_t *)a;
        return true;
    }
    if (b->mag.n == 0)
        return ty_err_div0(ctx);
    /* a - trunc(a/b)*b: the remainder of the aligned magnitudes, sign of a. */
    ty_bn_t ma, mb, r;
    int s = ty__num_align(ctx->arena, a, b, &ma, &mb);
    ty_bn_divmod(ctx->arena, ma, mb, NULL, &r);
    *out = ty_num_make(ctx->arena, a->neg, r, s);
    return true;
}

ty_numeric_t *ty_num_neg(cm_arena_t *a, const ty_numeric_t *n)
{
    if (n->kind == TY_NUM_PINF)
        return ty_num_special(a, TY_NUM_NINF);
    if (n->kind == TY_NUM_NINF)
        return ty_num_special(a, TY_NUM_PINF);
    if (n->kind == TY_NUM_NAN)
        return (ty_numeric_t *)n;
    return ty_num_make(a, !n->neg, n->mag, n->dscale);
}

ty_numeric_t *ty_num_abs(cm_arena_t *a, const ty_numeric_t *n)
{
    if (n->kind == TY_NUM_NINF)
        return ty_num_special(a, TY_NUM_PINF);
    if (n->kind != TY_NUM_FINITE)
        return (ty_numeric_t *)n;
    return ty_num_make(a, false, n->mag, n->dscale);
}

static ty_numeric_t *ty__num_rescale(cm_arena_t *a, const ty_numeric_t *n, int scale, int mode)
{
    if (n->kind != TY_NUM_FINITE)
        return (ty_numeric_t *)n;
    if (scale > TY_NUMERIC_MAX_DISPLAY_SCALE * 2)
        scale = TY_NUMERIC_MAX_DISPLAY_SCALE * 2;
    if (scale < -TY_NUMERIC_MAX_DISPLAY_SCALE * 2)
        scale = -TY_NUMERIC_MAX_DISPLAY_SCALE * 2;
    if (scale >= n->dscale)
        return ty_num_make(a, n->neg, ty_bn_mul_pow10(a, n->mag, scale - n->dscale), scale);
    ty_bn_t m = ty_bn_div_pow10(a, n->mag, n->dscale - scale, mode, NULL);
    if (scale < 0) {
        /* Negative scales round to tens, hundreds...; the display scale stays 0. */
        m = ty_bn_mul_pow10(a, m, -scale);
        scale = 0;
    }
    return ty_num_make(a, n->neg, m, scale);
}

ty_numeric_t *ty_num_round(cm_arena_t *a, const ty_numeric_t *n, int scale)
{
    return ty__num_rescale(a, n, scale, 1);
}

ty_numeric_t *ty_num_trunc(cm_arena_t *a, const ty_numeric_t *n, int scale)
{
    return ty__num_rescale(a, n, scale, 0);
}

static ty_numeric_t *ty__num_ceilfloor(cm_arena_t *a, const ty_numeric_t *n, bool ceil)
{
    if (n->kind != TY_NUM_FINITE)
        return (ty_numeric_t *)n;
    bool inexact;
    ty_bn_t m = ty_bn_div_pow10(a, n->mag, n->dscale, 0, &inexact);
    /* Truncation moved toward zero; step away from zero when that is the
     * requested direction. */
    if (inexact && (ceil ? !n->neg : n->neg))
        m = ty_bn_mul_small(a, m, 1, 1);
    return ty_num_make(a, n->neg, m, 0);
}

ty_numeric_t *ty_num_ceil(cm_arena_t *a, const ty_numeric_t *n)
{
    return ty__num_ceilfloor(a, n, true);
}

ty_numeric_t *ty_num_floor(cm_arena_t *a, const ty_numeric_t *n)
{
    return ty__num_ceilfloor(a, n, false);
}

ty_numeric_t *ty_num_sign(cm_arena_t *a, const ty_numeric_t *n)
{
    if (n->kind == TY_NUM_NAN)
        return (ty_numeric_t *)n;
    return ty_num_from_int64(a, ty__num_signum(n));
}

/*
 * numeric(p,s): round to s, then the integer part must fit p - s digits.
 * The typmod encodes ((p << 16) | (s & 0x7ff)) + 4, and s may be negative
 * in PostgreSQL 15.
 */
bool ty_num_apply_typmod(ty_ctx_t *ctx, const ty_numeric_t *n, int32_t typmod, ty_numeric_t **out)
{
    *out = (ty_numeric_t *)n;
    if (typmod < 4)
        return true;
    int32_t tm = typmod - 4;
    int precision = (tm >> 16) & 0xffff;
    int scale = ((tm & 0x7ff) ^ 1024) - 1024;
    if (n->kind == TY_NUM_NAN)
        return true;
    if (n->kind != TY_NUM_FINITE) {
        cm_err_set(ctx->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "numeric field overflow");
        cm_err_set_detail(ctx->err, "A field with precision %d, scale %d cannot hold an infinite value.", precision,
                          scale);
        return false;
    }
    ty_numeric_t *r = ty_num_round(ctx->arena, n, scale);
    int maxdigits = precision - scale;
    if (r->mag.n > 0) {
        int digits = ty_bn_dec_digits(r->mag);
        int intdigits = digits - r->dscale;   /* digits before the point */
        if (intdigits > maxdigits) {
            cm_err_set(ctx->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "numeric field overflow");
            cm_err_set_detail(ctx->err,
                              "A field with precision %d, scale %d must round to an absolute value less than %s%d.",
                              precision, scale, maxdigits ? "10^" : "", maxdigits ? maxdigits : 1);
            return false;
        }
    }
    *out = r;
    return true;
}

uint64_t ty_num_hash(const ty_numeric_t *n)
{
    if (n->kind != TY_NUM_FINITE)
        return 0x9e3779b97f4a7c15ull * (n->kind + 1);
    /* Equal values differ only in trailing zeros of the fraction, so hash the
     * significant decimal digits and the exponent of the last one. */
    cm_arena_t tmp;
    cm_arena_init(&tmp, 4096);
    int len;
    char *dec = ty_bn_to_dec(&tmp, n->mag, &len);
    int scale = n->dscale;
    while (len > 1 && dec[len - 1] == '0') {
        len--;
        scale--;
    }
    uint64_t h = 1469598103934665603ull ^ (uint64_t)n->neg;
    for (int i = 0; i < len; i++)
        h = (h ^ (uint8_t)dec[i]) * 1099511628211ull;
    if (n->mag.n > 0)
        h = (h ^ (uint64_t)(uint32_t)scale) * 1099511628211ull;
    cm_arena_free(&tmp);
    return h;
}
