/*
 * ty_to_char_number.c: to_char(int4|int8|float4|float8|numeric, text).
 *
 * Each type prints its value the way PostgreSQL's int4_to_char and friends
 * do (integers exactly, floats with at most FLT_DIG or DBL_DIG digits,
 * numerics rounded half away from zero to the template's scale, or in
 * scientific notation for EEEE, or as a roman numeral for RN), pads it to
 * the template or fills it with '#' when it does not fit, and hands the
 * digit string to the template renderer (ty_to_char_numfmt.c).
 */
#include "types/ty_to_char.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The digit string for a value in a fixed-point template. */
typedef struct ty__num_str {
    char *s;
    int sign;
    int out_pre_spaces;
} ty__num_str_t;

/* Pads to the template or, when the integer part does not fit, fills with '#'. */
static void ty__num_fit(cm_arena_t *a, ty_numfmt_desc_t *d, ty__num_str_t *ns)
{
    const char *dot = strchr(ns->s, '.');
    int pre_len = dot ? (int)(dot - ns->s) : (int)strlen(ns->s);
    if (pre_len < d->pre) {
        ns->out_pre_spaces = d->pre - pre_len;
    } else if (pre_len > d->pre) {
        char *h = cm_arena_alloc(a, (size_t)d->pre + (size_t)d->post + 2);
        memset(h, '#', (size_t)d->pre + (size_t)d->post + 1);
        h[d->pre] = '.';
        h[d->pre + d->post + 1] = 0;
        ns->s = h;
    }
}

static char *ty__roman(cm_arena_t *a, int64_t v)
{
    static const char *const r100[] = {"C", "CC", "CCC", "CD", "D", "DC", "DCC", "DCCC", "CM"};
    static const char *const r10[] = {"X", "XX", "XXX", "XL", "L", "LX", "LXX", "LXXX", "XC"};
    static const char *const r1[] = {"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"};
    if (v < 1 || v > 3999)
        return cm_arena_strdup(a, "###############");
    cm_buf_t b;
    cm_buf_init(&b, 0);
    for (int64_t m = v / 1000; m > 0; m--)
        cm_buf_put_u8(&b, 'M');
    int h = (int)(v / 100 % 10), t = (int)(v / 10 % 10), o = (int)(v % 10);
    if (h)
        cm_buf_put_str(&b, r100[h - 1]);
    if (t)
        cm_buf_put_str(&b, r10[t - 1]);
    if (o)
        cm_buf_put_str(&b, r1[o - 1]);
    char *s = cm_arena_strndup(a, (const char *)b.data, b.len);
    cm_buf_free(&b);
    return s;
}

/* printf's %.*f or %+.*e, except that NaN and the infinities print as
 * PostgreSQL's own snprintf prints them. */
static char *ty__fmt_double(cm_arena_t *a, double v, int prec, bool sci)
{
    if (isnan(v))
        return cm_arena_strdup(a, "NaN");
    if (isinf(v))
        return cm_arena_strdup(a, v < 0 ? "-Infinity" : sci ? "+Infinity" : "Infinity");
    return sci ? cm_arena_printf(a, "%+.*e", prec, v) : cm_arena_printf(a, "%.*f", prec, v);
}

/* A numeric in scientific notation with `scale` digits after the point;
 * rounding may carry the significand to 10 ("10.0e+00"), as PostgreSQL's does. */
static char *ty__numeric_sci(cm_arena_t *a, const ty_numeric_t *n, int scale)
{
    if (n->kind == TY_NUM_NAN)
        return cm_arena_strdup(a, "NaN");
    if (n->kind != TY_NUM_FINITE)
        return cm_arena_strdup(a, n->kind == TY_NUM_PINF ? "Infinity" : "-Infinity");
    if (scale < 0)
        scale = 0;
    int exp10 = n->mag.n == 0 ? 0 : ty_bn_dec_digits(n->mag) - 1 - n->dscale;
    int k = scale - n->dscale - exp10;
    ty_bn_t m = k >= 0 ? ty_bn_mul_pow10(a, n->mag, k) : ty_bn_div_pow10(a, n->mag, -k, 1, NULL);
    cm_buf_t b;
    cm_buf_init(&b, 0);
    ty_num_to_text(ty_num_make(a, n->neg, m, scale), a, &b);
    cm_buf_printf(&b, "e%+03d", exp10);
    char *s = cm_arena_strndup(a, (const char *)b.data, b.len);
    cm_buf_free(&b);
    return s;
}

/* Integers: digits, then zeros for the template's fraction. */
static void ty__num_from_int(cm_arena_t *a, ty_numfmt_desc_t *d, int64_t v, ty__num_str_t *ns)
{
    char *s = cm_arena_printf(a, "%lld", (long long)v);
    ns->sign = '+';
    if (*s == '-') {
        ns->sign = '-';
        s++;
    }
    if (d->post) {
        size_t l = strlen(s);
        char *f = cm_arena_alloc(a, l + (size_t)d->post + 2);
        memcpy(f, s, l);
        f[l] = '.';
        memset(f + l + 1, '0', (size_t)d->post);
        f[l + 1 + (size_t)d->post] = 0;
        s = f;
    }
    ns->s = s;
    ns->out_pre_spaces = 0;
    ty__num_fit(a, d, ns);
}

static bool ty__num_finish(ty_ctx_t *c, ty_numfmt_t *t, const ty__num_str_t *ns, ty_datum_t *o)
{
    cm_buf_t b;
    cm_buf_init(&b, 0);
    bool ok = ty_numfmt_render(c, t, ns->s, ns->out_pre_spaces, ns->sign, &b);
    if (ok)
        *o = ty_buf_datum(c->arena, &b);
    cm_buf_free(&b);
    return ok;
}

/* An empty template gives an empty string (not NULL, unlike the date/time to_char). */
static bool ty__num_begin(ty_ctx_t *c, const ty_datum_t *fmt, ty_numfmt_t *t, ty_datum_t *o, bool *done)
{
    *done = false;
    if (fmt->v.s.len == 0) {
        *o = ty_text_datum(c->arena, "", 0);
        *done = true;
        return true;
    }
    return ty_numfmt_parse(c, fmt->v.s.p, fmt->v.s.len, t);
}

static bool ty__to_char_int(ty_ctx_t *c, const ty_datum_t *a, ty_datum_t *o, bool is_int8)
{
    ty_numfmt_t t;
    bool done;
    if (!ty__num_begin(c, &a[1], &t, o, &done))
        return false;
    if (done)
        return true;
    int64_t v = a[0].v.i;
    ty__num_str_t ns = {NULL, 0, 0};
    if (t.d.flag & TY_NF_ROMAN) {
        if (is_int8 && (v > INT32_MAX || v < INT32_MIN))
            return cm_err_set(c->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "integer out of range");
        ns.s = ty__roman(c->arena, v);
    } else if (t.d.flag & TY_NF_EEEE) {
        if (is_int8) {
            /* Through numeric, so that no digit of a large bigint is lost. */
            char *s = ty__numeric_sci(c->arena, ty_num_from_int64(c->arena, v), t.d.post);
            ns.s = *s == '-' ? s : cm_arena_printf(c->arena, " %s", s);
        } else {
            ns.s = ty__fmt_double(c->arena, (double)v, t.d.post, true);
            if (*ns.s == '+')
                *ns.s = ' ';
        }
    } else {
        if (t.d.flag & TY_NF_MULTI) {
            double p = pow(10.0, (double)t.d.multi);
            if (is_int8) {
                if (!(p < 9223372036854775808.0) || __builtin_mul_overflow(v, (int64_t)p, &v))
                    return cm_err_set(c->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "bigint out of range");
            } else {
                /* int4 arithmetic wraps here in PostgreSQL, and a too large
                 * power converts to INT_MIN on x86; both are kept. */
                int32_t m = p < 2147483648.0 ? (int32_t)p : INT32_MIN;
                v = (int32_t)((uint32_t)(int32_t)v * (uint32_t)m);
            }
            t.d.pre += t.d.multi;
        }
        ty__num_from_int(c->arena, &t.d, v, &ns);
    }
    return ty__num_finish(c, &t, &ns, o);
}

static bool ty__to_char_int4(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    return ty__to_char_int(c, a, o, false);
}

static bool ty__to_char_int8(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    return ty__to_char_int(c, a, o, true);
}

/* NaN and the infinities in scientific notation: '#' in the shape of the template. */
static char *ty__sci_hashes(cm_arena_t *a, const ty_numfmt_desc_t *d)
{
    size_t n = (size_t)d->pre + (size_t)d->post + 6;
    char *s = cm_arena_alloc(a, n + 1);
    memset(s, '#', n);
    s[n] = 0;
    s[0] = ' ';
    s[d->pre + 1] = '.';
    return s;
}

static bool ty__to_char_float(ty_ctx_t *c, const ty_datum_t *a, ty_datum_t *o, bool is_float4)
{
    ty_numfmt_t t;
    bool done;
    if (!ty__num_begin(c, &a[1], &t, o, &done))
        return false;
    if (done)
        return true;
    double v = a[0].v.f;
    ty__num_str_t ns = {NULL, 0, 0};
    if (t.d.flag & TY_NF_ROMAN) {
        double r = rint(v);
        /* (int) of an out-of-range double is INT_MIN on x86, which prints as '#'. */
        ns.s = ty__roman(c->arena, r >= -2147483648.0 && r < 2147483648.0 ? (int64_t)r : INT32_MIN);
    } else if (t.d.flag & TY_NF_EEEE) {
        if (isnan(v) || isinf(v)) {
            ns.s = ty__sci_hashes(c->arena, &t.d);
        } else {
            ns.s = ty__fmt_double(c->arena, v, t.d.post, true);
            if (*ns.s == '+')
                *ns.s = ' ';
        }
    } else {
        double val = v;
        if (t.d.flag & TY_NF_MULTI) {
            if (is_float4)
                val = (float)((float)v * (float)pow(10.0, (double)t.d.multi));
            else
                val = v * pow(10.0, (double)t.d.multi);
            t.d.pre += t.d.multi;
        }
        /* Only as many digits as the type holds (FLT_DIG or DBL_DIG) are shown. */
        int max_dig = is_float4 ? FLT_DIG : DBL_DIG;
        int pre_len = (int)strlen(ty__fmt_double(c->arena, fabs(val), 0, false));
        if (pre_len >= max_dig)
            t.d.post = 0;
        else if (pre_len + t.d.post > max_dig)
            t.d.post = max_dig - pre_len;
        char *s = ty__fmt_double(c->arena, val, t.d.post, false);
        ns.sign = '+';
        if (*s == '-') {
            ns.sign = '-';
            s++;
        }
        ns.s = s;
        ty__num_fit(c->arena, &t.d, &ns);
    }
    return ty__num_finish(c, &t, &ns, o);
}

static bool ty__to_char_float4(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    return ty__to_char_float(c, a, o, true);
}

static bool ty__to_char_float8(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    return ty__to_char_float(c, a, o, false);
}

static bool ty__to_char_numeric(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    ty_numfmt_t t;
    bool done;
    if (!ty__num_begin(c, &a[1], &t, o, &done))
        return false;
    if (done)
        return true;
    const ty_numeric_t *v = a[0].v.n;
    ty__num_str_t ns = {NULL, 0, 0};
    if (t.d.flag & TY_NF_ROMAN) {
        int64_t i;
        if (v->kind != TY_NUM_FINITE)
            return cm_err_set(c->err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "cannot convert %s to integer",
                              v->kind == TY_NUM_NAN ? "NaN" : "infinity");
        if (!ty_numeric_to_int64(ty_num_round(c->arena, v, 0), &i) || i > INT32_MAX || i < INT32_MIN)
            return cm_err_set(c->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "integer out of range");
        ns.s = ty__roman(c->arena, i);
    } else if (t.d.flag & TY_NF_EEEE) {
        char *s = ty__numeric_sci(c->arena, v, t.d.post);
        if (v->kind != TY_NUM_FINITE)
            ns.s = ty__sci_hashes(c->arena, &t.d);
        else
            ns.s = *s == '-' ? s : cm_arena_printf(c->arena, " %s", s);
    } else {
        if ((t.d.flag & TY_NF_MULTI) && v->kind == TY_NUM_FINITE) {
            v = ty_num_make(c->arena, v->neg, ty_bn_mul_pow10(c->arena, v->mag, t.d.multi), v->dscale);
            t.d.pre += t.d.multi;
        } else if (t.d.flag & TY_NF_MULTI) {
            t.d.pre += t.d.multi;
        }
        cm_buf_t b;
        cm_buf_init(&b, 0);
        ty_num_to_text(ty_num_round(c->arena, v, t.d.post), c->arena, &b);
        char *s = cm_arena_strndup(c->arena, (const char *)b.data, b.len);
        cm_buf_free(&b);
        ns.sign = '+';
        if (*s == '-') {
            ns.sign = '-';
            s++;
        }
        ns.s = s;
        ty__num_fit(c->arena, &t.d, &ns);
    }
    return ty__num_finish(c, &t, &ns, o);
}

static const ty_func_t ty__to_char_num[] = {
    {"to_char", 2, {TY_INT4, TY_TEXT}, TY_TEXT, TY_FN_STRICT, ty__to_char_int4, 1773},
    {"to_char", 2, {TY_INT8, TY_TEXT}, TY_TEXT, TY_FN_STRICT, ty__to_char_int8, 1774},
    {"to_char", 2, {TY_FLOAT4, TY_TEXT}, TY_TEXT, TY_FN_STRICT, ty__to_char_float4, 1775},
    {"to_char", 2, {TY_FLOAT8, TY_TEXT}, TY_TEXT, TY_FN_STRICT, ty__to_char_float8, 1776},
    {"to_char", 2, {TY_NUMERIC, TY_TEXT}, TY_TEXT, TY_FN_STRICT, ty__to_char_numeric, 1772},
};

const ty_func_table_t ty_funcs_to_char_number = {ty__to_char_num, CM_ARRAY_LEN(ty__to_char_num)};
