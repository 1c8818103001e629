/*
 * ty_int.c: input and range checks of int2, int4 and int8 (and oid), with
 * PostgreSQL 15's messages: whitespace around an optionally signed run of
 * decimal digits, nothing else.
 */
#include "types/ty_internal.h"

#include <string.h>

static const char *ty__int_sql_name(ty_oid_t type)
{
    switch (type) {
    case TY_INT2: return "smallint";
    case TY_INT8: return "bigint";
    case TY_OID: return "oid";
    default: return "integer";
    }
}

const char *ty_int_range_msg(ty_oid_t type)
{
    switch (type) {
    case TY_INT2: return "smallint out of range";
    case TY_INT8: return "bigint out of range";
    case TY_OID: return "OID out of range";
    default: return "integer out of range";
    }
}

bool ty_int_range_check(ty_ctx_t *ctx, ty_oid_t type, int64_t v)
{
    bool ok;
    switch (type) {
    case TY_INT2: ok = v >= INT16_MIN && v <= INT16_MAX; break;
    case TY_INT4: ok = v >= INT32_MIN && v <= INT32_MAX; break;
    case TY_OID: ok = v >= 0 && v <= UINT32_MAX; break;
    default: ok = true; break;
    }
    if (!ok)
        return cm_err_set(ctx->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "%s", ty_int_range_msg(type));
    return true;
}

static bool ty__isspace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

bool ty_int_parse(const char *p, size_t len, ty_oid_t type, ty_ctx_t *ctx, int64_t *out)
{
    size_t i = 0;
    while (i < len && ty__isspace(p[i]))
        i++;
    bool neg = false;
    if (i < len && (p[i] == '+' || p[i] == '-')) {
        neg = p[i] == '-';
        i++;
    }
    if (i >= len || p[i] < '0' || p[i] > '9')
        return ty_err_syntax(ctx, ty__int_sql_name(type), p, len);
    uint64_t v = 0;
    bool overflow = false;
    for (; i < len && p[i] >= '0' && p[i] <= '9'; i++) {
        if (v > (UINT64_MAX - 9) / 10)
            overflow = true;
        else
            v = v * 10 + (uint64_t)(p[i] - '0');
    }
    while (i < len && ty__isspace(p[i]))
        i++;
    if (i != len)
        return ty_err_syntax(ctx, ty__int_sql_name(type), p, len);
    int64_t r = 0;
    if (!overflow) {
        if (neg) {
            if (v > (uint64_t)INT64_MAX + 1)
                overflow = true;
            else
                r = (int64_t)(0 - v);
        } else {
            if (v > (uint64_t)INT64_MAX)
                overflow = true;
            else
                r = (int64_t)v;
        }
    }
    if (type == TY_OID) {
        /* oidin accepts negative values that fit in 32 bits and wraps them. */
        if (!overflow && r >= -(int64_t)UINT32_MAX && r <= (int64_t)UINT32_MAX) {
            *out = (int64_t)(uint32_t)r;
            return true;
        }
        return cm_err_set(ctx->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "value \"%.*s\" is out of range for type oid",
                          (int)len, p);
    }
    if (!overflow) {
        if (type == TY_INT2 && (r < INT16_MIN || r > INT16_MAX))
            overflow = true;
        if (type == TY_INT4 && (r < INT32_MIN || r > INT32_MAX))
            overflow = true;
    }
    if (overflow)
        return cm_err_set(ctx->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "value \"%.*s\" is out of range for type %s",
                          (int)len, p, ty__int_sql_name(type));
    *out = r;
    return true;
}
