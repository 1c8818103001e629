/*
 * ty_float.c: float4 and float8 input, output and overflow checks.
 *
 * With extra_float_digits > 0 (the default) PostgreSQL 15 prints the
 * shortest decimal that reads back as the same value (Ryu). We find that
 * decimal by trying precisions upward with snprintf/strtod, which gives the
 * same digits except in rare ties where Ryu picks a different shortest
 * candidate, and then lay it out as PostgreSQL does: plain notation for
 * decimal exponents in [-4, 15) (float4: [-4, 6)), otherwise d.ddde+XX.
 */
#include "types/ty_internal.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool ty__isspace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

bool ty_float_parse(const char *p, size_t len, ty_oid_t type, ty_ctx_t *ctx, double *out)
{
    const char *tname = type == TY_FLOAT4 ? "real" : "double precision";
    char buf[128];
    char *s = len < sizeof(buf) ? buf : cm_arena_alloc(ctx->arena, len + 1);
    memcpy(s, p, len);
    s[len] = 0;
    char *q = s;
    while (ty__isspace(*q))
        q++;
    if (*q == 0)
        return ty_err_syntax(ctx, tname, p, len);
    /* strtod already accepts NaN, Inf and Infinity with signs, case-insensitively,
     * but also hex floats and "nan(...)", which PostgreSQL does not. */
    const char *t = q;
    if (*t == '+' || *t == '-')
        t++;
    if ((t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) || (cm_strncasecmp(t, "nan(", 4) == 0))
        return ty_err_syntax(ctx, tname, p, len);
    errno = 0;
    char *end;
    double v;
    if (type == TY_FLOAT4) {
        float f = strtof(q, &end);
        v = f;
    } else {
        v = strtod(q, &end);
    }
    if (end == q)
        return ty_err_syntax(ctx, tname, p, len);
    /* "infinity" spelled fully is consumed by strtod; "inf" too. */
    while (ty__isspace(*end))
        end++;
    if (*end != 0)
        return ty_err_syntax(ctx, tname, p, len);
    if (errno == ERANGE) {
        /* Denormal results are fine; true overflow and underflow to zero are not. */
        if (v == 0.0 || isinf(v))
            return cm_err_set(ctx->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "\"%.*s\" is out of range for type %s",
                              (int)(end - q), q, tname);
    }
    *out = v;
    return true;
}

/* Shortest "%.*e" that reads back to v; digits (no point) and exponent. */
static void ty__shortest(double v, bool is_float4, char *digits, int *ndigits, int *exp10)
{
    char buf[64];
    int maxp = is_float4 ? 9 : 17;
    for (int prec = 1; prec <= maxp; prec++) {
        snprintf(buf, sizeof(buf), "%.*e", prec - 1, v);
        bool ok;
        if (is_float4)
            ok = strtof(buf, NULL) == (float)v;
        else
            ok = strtod(buf, NULL) == v;
        if (ok || prec == maxp)
            break;
    }
    /* buf is like "-1.2345e+17" */
    const char *b = buf;
    if (*b == '-')
        b++;
    int n = 0;
    for (; *b && *b != 'e'; b++)
        if (*b >= '0' && *b <= '9')
            digits[n++] = *b;
    while (n > 1 && digits[n - 1] == '0')
        n--;
    digits[n] = 0;
    *ndigits = n;
    *exp10 = atoi(b + 1);
}

void ty_float_out(double v, bool is_float4, int extra_float_digits, cm_buf_t *out)
{
    if (isnan(v)) {
        cm_buf_put_str(out, "NaN");
        return;
    }
    if (isinf(v)) {
        cm_buf_put_str(out, v > 0 ? "Infinity" : "-Infinity");
        return;
    }
    if (extra_float_digits <= 0) {
        int prec = (is_float4 ? FLT_DIG : DBL_DIG) + extra_float_digits;
        if (prec < 1)
            prec = 1;
        cm_buf_printf(out, "%.*g", prec, v);
        return;
    }
    if (v == 0) {
        cm_buf_put_str(out, signbit(v) ? "-0" : "0");
        return;
    }
    char digits[32];
    int nd, e;
    ty__shortest(v, is_float4, digits, &nd, &e);
    if (v < 0)
        cm_buf_put_u8(out, '-');
    int limit = is_float4 ? FLT_DIG : DBL_DIG;
    if (e < -4 || e >= limit) {
        cm_buf_put_u8(out, (uint8_t)digits[0]);
        if (nd > 1) {
            cm_buf_put_u8(out, '.');
            cm_buf_put(out, digits + 1, (size_t)nd - 1);
        }
        cm_buf_printf(out, "e%c%02d", e < 0 ? '-' : '+', e < 0 ? -e : e);
        return;
    }
    if (e < 0) {
        cm_buf_put_str(out, "0.");
        for (int i = 0; i < -e - 1; i++)
            cm_buf_put_u8(out, '0');
        cm_buf_put(out, digits, (size_t)nd);
        return;
    }
    /* e >= 0: integer part is digits[0..e], padded with zeros. */
    for (int i = 0; i <= e; i++)
        cm_buf_put_u8(out, (uint8_t)(i < nd ? digits[i] : '0'));
    if (nd > e + 1) {
        cm_buf_put_u8(out, '.');
        cm_buf_put(out, digits + e + 1, (size_t)(nd - e - 1));
    }
}

/* PostgreSQL's float_overflow_error / float_underflow_error checks. */
bool ty_float_check(ty_ctx_t *ctx, double r, bool inf_ok, bool zero_ok, bool is_float4)
{
    if (is_float4) {
        float f = (float)r;
        if (isinf(f) && !inf_ok)
            return cm_err_set(ctx->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "value out of range: overflow");
        if (f == 0.0f && !zero_ok)
            return cm_err_set(ctx->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "value out of range: underflow");
        return true;
    }
    if (isinf(r) && !inf_ok)
        return cm_err_set(ctx->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "value out of range: overflow");
    if (r == 0.0 && !zero_ok)
        return cm_err_set(ctx->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "value out of range: underflow");
    return true;
}
