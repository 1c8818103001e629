/*
 * ty_interval_typmod.c: interval type modifiers as PostgreSQL encodes them
 * (INTERVAL_TYPMOD(precision, range): the field range in the high 16 bits,
 * the fractional-second precision in the low 16), their format_type()
 * spelling, and AdjustIntervalForTypmod: truncation to the declared fields
 * and rounding to the declared precision.
 */
#include "types/ty_internal.h"

int ty_interval_typmod_range(int32_t typmod)
{
    return typmod < 0 ? TY_IVM_FULL_RANGE : (typmod >> 16) & 0x7FFF;
}

static int ty__precision(int32_t typmod)
{
    return typmod < 0 ? TY_IVM_FULL_PRECISION : typmod & 0xFFFF;
}

void ty_interval_format_typmod(int32_t typmod, cm_buf_t *out)
{
    static const struct {
        int range;
        const char *words;
    } names[] = {
        {TY_IVM_YEAR, " year"},
        {TY_IVM_MONTH, " month"},
        {TY_IVM_DAY, " day"},
        {TY_IVM_HOUR, " hour"},
        {TY_IVM_MINUTE, " minute"},
        {TY_IVM_SECOND, " second"},
        {TY_IVM_YEAR | TY_IVM_MONTH, " year to month"},
        {TY_IVM_DAY | TY_IVM_HOUR, " day to hour"},
        {TY_IVM_DAY | TY_IVM_HOUR | TY_IVM_MINUTE, " day to minute"},
        {TY_IVM_DAY | TY_IVM_HOUR | TY_IVM_MINUTE | TY_IVM_SECOND, " day to second"},
        {TY_IVM_HOUR | TY_IVM_MINUTE, " hour to minute"},
        {TY_IVM_HOUR | TY_IVM_MINUTE | TY_IVM_SECOND, " hour to second"},
        {TY_IVM_MINUTE | TY_IVM_SECOND, " minute to second"},
    };
    if (typmod < 0)
        return;
    int range = ty_interval_typmod_range(typmod), prec = ty__precision(typmod);
    for (size_t i = 0; i < CM_ARRAY_LEN(names); i++)
        if (names[i].range == range)
            cm_buf_put_str(out, names[i].words);
    if (prec != TY_IVM_FULL_PRECISION)
        cm_buf_printf(out, "(%d)", prec);
}

/* Truncation toward zero, as C division does in PostgreSQL's code. */
static int64_t ty__trunc_to(int64_t v, int64_t unit)
{
    return v / unit * unit;
}

bool ty_interval_apply_typmod(ty_ctx_t *ctx, ty_interval_t *iv, int32_t typmod)
{
    static const int64_t scales[7] = {1000000, 100000, 10000, 1000, 100, 10, 1};
    if (typmod < 0)
        return true;
    int range = ty_interval_typmod_range(typmod), prec = ty__precision(typmod);
    switch (range) {
    case TY_IVM_YEAR:
        iv->months = iv->months / 12 * 12;
        iv->days = 0;
        iv->us = 0;
        break;
    case TY_IVM_MONTH:
    case TY_IVM_YEAR | TY_IVM_MONTH:
        iv->days = 0;
        iv->us = 0;
        break;
    case TY_IVM_DAY: iv->us = 0; break;
    case TY_IVM_HOUR:
    case TY_IVM_DAY | TY_IVM_HOUR: iv->us = ty__trunc_to(iv->us, TY_USECS_PER_HOUR); break;
    case TY_IVM_MINUTE:
    case TY_IVM_DAY | TY_IVM_HOUR | TY_IVM_MINUTE:
    case TY_IVM_HOUR | TY_IVM_MINUTE: iv->us = ty__trunc_to(iv->us, TY_USECS_PER_MIN); break;
    default: break;   /* the full range and ranges ending in SECOND keep the time */
    }
    if (prec != TY_IVM_FULL_PRECISION) {
        if (prec < 0 || prec > 6)
            return cm_err_set(ctx->err, CM_ERRCODE_INVALID_PARAMETER_VALUE,
                              "interval(%d) precision must be between %d and %d", prec, 0, 6);
        int64_t s = scales[prec], off = s / 2;
        iv->us = iv->us >= 0 ? (iv->us + off) / s * s : -((-iv->us + off) / s * s);
    }
    return true;
}
