/*
 * ty_numeric_io.c: numeric text and binary formats, and conversions between
 * numeric and the integer and float types, as PostgreSQL 15 does them.
 */
#include "types/ty_internal.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool ty__ci_eq(const char *p, size_t len, const char *word)
{
    return strlen(word) == len && cm_strncasecmp(p, word, len) == 0;
}

bool ty_numeric_from_text(const char *p, size_t len, ty_ctx_t *ctx, ty_numeric_t **out)
{
    const char *orig = p;
    size_t orig_len = len;
    while (len > 0 && (*p == ' ' || (*p >= '\t' && *p <= '\r'))) {
        p++;
        len--;
    }
    while (len > 0 && (p[len - 1] == ' ' || (p[len - 1] >= '\t' && p[len - 1] <= '\r')))
        len--;
    if (ty__ci_eq(p, len, "nan")) {
        *out = ty_num_special(ctx->arena, TY_NUM_NAN);
        return true;
    }
    bool neg = false;
    const char *q = p;
    size_t ql = len;
    if (ql > 0 && (*q == '+' || *q == '-')) {
        neg = *q == '-';
        q++;
        ql--;
    }
    if (ty__ci_eq(q, ql, "infinity") || ty__ci_eq(q, ql, "inf")) {
        *out = ty_num_special(ctx->arena, neg ? TY_NUM_NINF : TY_NUM_PINF);
        return true;
    }
    char *digits = cm_arena_alloc(ctx->arena, ql + 1);
    int nd = 0, frac = 0;
    bool seen_digit = false, seen_point = false;
    size_t i = 0;
    for (; i < ql; i++) {
        char c = q[i];
        if (c >= '0' && c <= '9') {
            seen_digit = true;
            if (nd > 0 || c != '0')
                digits[nd++] = c;
            if (seen_point)
                frac++;
        } else if (c == '.' && !seen_point) {
            seen_point = true;
        } else {
            break;
        }
    }
    if (!seen_digit)
        return ty_err_syntax(ctx, "numeric", orig, orig_len);
    long exponent = 0;
    if (i < ql && (q[i] == 'e' || q[i] == 'E')) {
        i++;
        bool eneg = false;
        if (i < ql && (q[i] == '+' || q[i] == '-')) {
            eneg = q[i] == '-';
            i++;
        }
        if (i >= ql || q[i] < '0' || q[i] > '9')
            return ty_err_syntax(ctx, "numeric", orig, orig_len);
        for (; i < ql && q[i] >= '0' && q[i] <= '9'; i++) {
            exponent = exponent * 10 + (q[i] - '0');
            if (exponent > 1000000)
                break;
        }
        /* PostgreSQL refuses exponents beyond NUMERIC_MAX_PRECISION (1000). */
        if (exponent > 1000)
            return cm_err_set(ctx->err, CM_ERRCODE_INVALID_TEXT_REPRESENTATION,
                              "invalid input syntax for type numeric: \"%.*s\"", (int)orig_len, orig);
        if (eneg)
            exponent = -exponent;
    }
    if (i != ql)
        return ty_err_syntax(ctx, "numeric", orig, orig_len);
    long dscale = frac - exponent;
    if (dscale < 0)
        dscale = 0;
    /* value = digits * 10^(exponent - frac); bring it to dscale. */
    ty_bn_t mag = ty_bn_from_dec(ctx->arena, digits, nd);
    long shift = dscale - (frac - exponent);
    mag = ty_bn_mul_pow10(ctx->arena, mag, (int)shift);
    *out = ty_num_make(ctx->arena, neg, mag, (int)dscale);
    if (dscale > 16383 || (nd > 0 && nd - frac + exponent > 131072))
        return cm_err_set(ctx->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "value overflows numeric format");
    return true;
}

void ty_num_to_text(const ty_numeric_t *n, cm_arena_t *a, cm_buf_t *out)
{
    switch (n->kind) {
    case TY_NUM_NAN: cm_buf_put_str(out, "NaN"); return;
    case TY_NUM_PINF: cm_buf_put_str(out, "Infinity"); return;
    case TY_NUM_NINF: cm_buf_put_str(out, "-Infinity"); return;
    default: break;
    }
    int len;
    char *dec = ty_bn_to_dec(a, n->mag, &len);
    if (n->neg)
        cm_buf_put_u8(out, '-');
    int s = n->dscale;
    if (len > s) {
        cm_buf_put(out, dec, (size_t)(len - s));
    } else {
        cm_buf_put_u8(out, '0');
    }
    if (s > 0) {
        cm_buf_put_u8(out, '.');
        for (int i = len; i < s; i++)
            cm_buf_put_u8(out, '0');
        int from = len > s ? len - s : 0;
        cm_buf_put(out, dec + from, (size_t)(len - from));
    }
}

/* Rounds half away from zero like numeric_int8. */
bool ty_numeric_to_int64(const ty_numeric_t *n, int64_t *out)
{
    if (n->kind != TY_NUM_FINITE)
        return false;
    cm_arena_t tmp;
    cm_arena_init(&tmp, 1024);
    ty_bn_t m = ty_bn_div_pow10(&tmp, n->mag, n->dscale, 1, NULL);
    uint64_t u;
    bool ok = ty_bn_to_u64(m, &u);
    cm_arena_free(&tmp);
    if (!ok)
        return false;
    if (n->neg) {
        if (u > (uint64_t)INT64_MAX + 1)
            return false;
        *out = (int64_t)(0 - u);
    } else {
        if (u > (uint64_t)INT64_MAX)
            return false;
        *out = (int64_t)u;
    }
    return true;
}

/* float -> numeric goes through the %g text of DBL_DIG / FLT_DIG digits, as PostgreSQL does. */
bool ty_num_from_double(cm_arena_t *a, double d, bool is_float4, ty_numeric_t **out)
{
    if (d != d) {
        *out = ty_num_special(a, TY_NUM_NAN);
        return true;
    }
    if (d > DBL_MAX || d < -DBL_MAX) {
        *out = ty_num_special(a, d > 0 ? TY_NUM_PINF : TY_NUM_NINF);
        return true;
    }
    char buf[64];
    int n = snprintf(buf, sizeof(buf), "%.*g", is_float4 ? FLT_DIG : DBL_DIG, d);
    cm_err_t err = {0};
    ty_ctx_t ctx = {.arena = a, .err = &err};
    bool ok = ty_numeric_from_text(buf, (size_t)n, &ctx, out);
    cm_err_clear(&err);
    return ok;
}

double ty_num_to_double(const ty_numeric_t *n, cm_arena_t *a)
{
    switch (n->kind) {
    case TY_NUM_NAN: return (double)NAN;
    case TY_NUM_PINF: return (double)INFINITY;
    case TY_NUM_NINF: return -(double)INFINITY;
    default: break;
    }
    cm_buf_t b;
    cm_buf_init(&b, 0);
    ty_num_to_text(n, a, &b);
    cm_buf_put_u8(&b, 0);
    double d = strtod((const char *)b.data, NULL);
    cm_buf_free(&b);
    return d;
}

/*
 * PostgreSQL's layout: base-10000 digits aligned on the decimal point,
 * weight = index of the first digit's power of 10000, zeros stripped at
 * both ends.
 */
void ty_num_pg_layout(const ty_numeric_t *n, cm_arena_t *a, int *weight, int *ndigits, int16_t **digits)
{
    *weight = 0;
    *ndigits = 0;
    *digits = NULL;
    if (n->kind != TY_NUM_FINITE || n->mag.n == 0)
        return;
    int len;
    char *dec = ty_bn_to_dec(a, n->mag, &len);
    int s = n->dscale;
    int intlen = len - s;   /* may be <= 0 */
    int lead = intlen > 0 ? (4 - intlen % 4) % 4 : 0;
    int ngroups_int = intlen > 0 ? (intlen + lead) / 4 : 0;
    int fraclen = s;
    int ngroups_frac = (fraclen + 3) / 4;
    int total = ngroups_int + ngroups_frac;
    int16_t *g = cm_arena_zalloc(a, sizeof(int16_t) * (size_t)(total > 0 ? total : 1));
    /* Decimal position p (0 = first digit of the padded integer part). */
    for (int gi = 0; gi < total; gi++) {
        int v = 0;
        for (int k = 0; k < 4; k++) {
            int pos;   /* index into dec, or out of range for a padding zero */
            if (gi < ngroups_int)
                pos = gi * 4 + k - lead;
            else
                pos = intlen + (gi - ngroups_int) * 4 + k;
            int d = (pos >= 0 && pos < len) ? dec[pos] - '0' : 0;
            v = v * 10 + d;
        }
        g[gi] = (int16_t)v;
    }
    int w = ngroups_int - 1;
    int start = 0, end = total;
    while (start < end && g[start] == 0) {
        start++;
        w--;
    }
    while (end > start && g[end - 1] == 0)
        end--;
    *weight = w;
    *ndigits = end - start;
    *digits = g + start;
}

void ty_num_send(const ty_numeric_t *n, cm_arena_t *a, cm_buf_t *out)
{
    int weight, nd;
    int16_t *dg;
    ty_num_pg_layout(n, a, &weight, &nd, &dg);
    uint16_t sign;
    switch (n->kind) {
    case TY_NUM_NAN: sign = 0xC000; break;
    case TY_NUM_PINF: sign = 0xD000; break;
    case TY_NUM_NINF: sign = 0xF000; break;
    default: sign = n->neg ? 0x4000 : 0x0000; break;
    }
    cm_buf_put_be16(out, (uint16_t)nd);
    cm_buf_put_be16(out, (uint16_t)(int16_t)weight);
    cm_buf_put_be16(out, sign);
    cm_buf_put_be16(out, (uint16_t)(n->kind == TY_NUM_FINITE ? n->dscale : 0));
    for (int i = 0; i < nd; i++)
        cm_buf_put_be16(out, (uint16_t)dg[i]);
}

static int16_t ty__be16(const uint8_t *p)
{
    return (int16_t)(((uint16_t)p[0] << 8) | p[1]);
}

bool ty_num_recv(ty_ctx_t *ctx, const uint8_t *p, size_t len, ty_numeric_t **out)
{
    if (len < 8)
        return cm_err_set(ctx->err, CM_ERRCODE_INVALID_BINARY_REPRESENTATION, "insufficient data left in message");
    int nd = (uint16_t)ty__be16(p);
    int weight = ty__be16(p + 2);
    uint16_t sign = (uint16_t)ty__be16(p + 4);
    int dscale = (uint16_t)ty__be16(p + 6);
    if (len != 8 + 2 * (size_t)nd)
        return cm_err_set(ctx->err, CM_ERRCODE_INVALID_BINARY_REPRESENTATION, "insufficient data left in message");
    if (sign == 0xC000 || sign == 0xD000 || sign == 0xF000) {
        *out = ty_num_special(ctx->arena, sign == 0xC000 ? TY_NUM_NAN : sign == 0xD000 ? TY_NUM_PINF : TY_NUM_NINF);
        return true;
    }
    if (sign != 0 && sign != 0x4000)
        return cm_err_set(ctx->err, CM_ERRCODE_INVALID_BINARY_REPRESENTATION,
                          "invalid sign in external \"numeric\" value");
    if (dscale > 0x3FFF)
        return cm_err_set(ctx->err, CM_ERRCODE_INVALID_BINARY_REPRESENTATION,
                          "invalid scale in external \"numeric\" value");
    /* Build the decimal digits, then truncate to dscale as PostgreSQL does. */
    int intgroups = weight + 1;
    int lowest = weight - nd + 1;   /* power of 10000 of the last digit */
    int fracdigits = lowest < 0 ? -lowest * 4 : 0;
    size_t cap = (size_t)nd * 4 + (lowest > 0 ? (size_t)lowest * 4 : 0) + 1;
    char *dec = cm_arena_alloc(ctx->arena, cap);
    size_t dl = 0;
    for (int i = 0; i < nd; i++) {
        int v = ty__be16(p + 8 + 2 * i);
        if (v < 0 || v >= 10000)
            return cm_err_set(ctx->err, CM_ERRCODE_INVALID_BINARY_REPRESENTATION,
                              "invalid digit in external \"numeric\" value");
        dec[dl++] = (char)('0' + v / 1000);
        dec[dl++] = (char)('0' + v / 100 % 10);
        dec[dl++] = (char)('0' + v / 10 % 10);
        dec[dl++] = (char)('0' + v % 10);
    }
    for (int i = 0; i < lowest; i++) {
        memcpy(dec + dl, "0000", 4);
        dl += 4;
    }
    (void)intgroups;
    ty_bn_t mag = ty_bn_from_dec(ctx->arena, dec, (int)dl);
    if (fracdigits > dscale)
        mag = ty_bn_div_pow10(ctx->arena, mag, fracdigits - dscale, 0, NULL);
    else
        mag = ty_bn_mul_pow10(ctx->arena, mag, dscale - fracdigits);
    *out = ty_num_make(ctx->arena, sign == 0x4000, mag, dscale);
    return true;
}
