/*
 * ty_func_age.c: age(timestamp, timestamp), age(timestamptz, timestamptz)
 * and the one-argument forms, which measure from midnight of current_date.
 *
 * age() is a symbolic difference, not a subtraction of instants: the fields
 * of the two broken-down times are subtracted one by one and borrows are
 * taken from the next larger field, a borrowed month being as long as the
 * month of the earlier value. For timestamptz both sides are broken down in
 * the session time zone and any difference of UTC offsets is ignored, as
 * PostgreSQL 15 does.
 */
#include "types/ty_internal.h"

#include <string.h>

static const ty_tz_t *ty__age_tz(ty_ctx_t *ctx)
{
    return ctx->settings && ctx->settings->tz ? ctx->settings->tz : ty_tz_utc();
}

/* PostgreSQL breaks infinity down as a date in year 294277 and refuses
 * -infinity (its Julian day is negative); the same happens here. */
static bool ty__age_breakdown(ty_ctx_t *ctx, int64_t ts, bool with_tz, ty_tm_t *tm)
{
    if (ts == TY_DT_NOBEGIN)
        return cm_err_set(ctx->err, CM_ERRCODE_DATETIME_FIELD_OVERFLOW, "timestamp out of range");
    if (!with_tz) {
        ty_ts2tm(ts, tm);
    } else if (ts != TY_DT_NOEND) {
        ty_timestamptz_to_tm(ts, ty__age_tz(ctx), tm);
    } else {
        /* Adding an east offset to infinity would overflow: break down a
         * day earlier and step the date forward again. */
        int64_t secs = ts / TY_USECS_PER_SEC + (int64_t)(TY_POSTGRES_EPOCH_JDATE - TY_UNIX_EPOCH_JDATE) * 86400;
        int off = ty_tz_offset_utc(ty__age_tz(ctx), secs, NULL, NULL);
        ty_ts2tm(ts - TY_USECS_PER_DAY + off * TY_USECS_PER_SEC, tm);
        ty_j2date(ty_date2j(tm->year, tm->mon, tm->mday) + 1, &tm->year, &tm->mon, &tm->mday);
    }
    return true;
}

static bool ty__age_impl(ty_ctx_t *ctx, int64_t t1, int64_t t2, bool with_tz, ty_interval_t *out)
{
    ty_tm_t a, b;
    if (!ty__age_breakdown(ctx, t1, with_tz, &a) || !ty__age_breakdown(ctx, t2, with_tz, &b))
        return false;
    /* Work on the later minus the earlier value so that borrows are positive. */
    bool flip = t1 < t2;
    const ty_tm_t *hi = flip ? &b : &a, *lo = flip ? &a : &b;
    int64_t usec = (int64_t)hi->usec - lo->usec;
    int64_t sec = hi->sec - lo->sec, min = hi->min - lo->min, hour = hi->hour - lo->hour;
    int64_t mday = hi->mday - lo->mday, mon = hi->mon - lo->mon, year = (int64_t)hi->year - lo->year;
    while (usec < 0)
        usec += TY_USECS_PER_SEC, sec--;
    while (sec < 0)
        sec += 60, min--;
    while (min < 0)
        min += 60, hour--;
    while (hour < 0)
        hour += 24, mday--;
    while (mday < 0)
        mday += ty_days_in_month(lo->year, lo->mon), mon--;   /* a month as long as the earlier value's */
    while (mon < 0)
        mon += 12, year--;
    int64_t sign = flip ? -1 : 1;
    int64_t months = sign * (year * 12 + mon);
    if (months > INT32_MAX || months < INT32_MIN)
        return cm_err_set(ctx->err, CM_ERRCODE_DATETIME_FIELD_OVERFLOW, "interval out of range");
    out->months = (int32_t)months;
    out->days = (int32_t)(sign * mday);
    out->us = sign * (((hour * 60 + min) * 60 + sec) * TY_USECS_PER_SEC + usec);
    return true;
}

static bool ty__age_ts(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    return ty__age_impl(c, a[0].v.i, a[1].v.i, false, &o->v.iv);
}

static bool ty__age_tstz(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    return ty__age_impl(c, a[0].v.i, a[1].v.i, true, &o->v.iv);
}

/* Midnight of current_date: the transaction's start in the session zone. */
static int64_t ty__age_today(ty_ctx_t *c, bool with_tz)
{
    int64_t now = c->xact_ts;
    if (now == 0)
        now = cm_now_wall_us() - (int64_t)(TY_POSTGRES_EPOCH_JDATE - TY_UNIX_EPOCH_JDATE) * TY_USECS_PER_DAY;
    int64_t midnight = ty_ts_to_date(now, true, ty__age_tz(c)) * TY_USECS_PER_DAY;
    return with_tz ? ty_timestamp_to_tz(midnight, ty__age_tz(c)) : midnight;
}

static bool ty__age1_ts(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    return ty__age_impl(c, ty__age_today(c, false), a[0].v.i, false, &o->v.iv);
}

static bool ty__age1_tstz(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    return ty__age_impl(c, ty__age_today(c, true), a[0].v.i, true, &o->v.iv);
}

static const ty_func_t ty__age[] = {
    {"age", 2, {TY_TIMESTAMP, TY_TIMESTAMP}, TY_INTERVAL, TY_FN_STRICT, ty__age_ts, 2058},
    {"age", 2, {TY_TIMESTAMPTZ, TY_TIMESTAMPTZ}, TY_INTERVAL, TY_FN_STRICT, ty__age_tstz, 1199},
    {"age", 1, {TY_TIMESTAMP}, TY_INTERVAL, TY_FN_STRICT, ty__age1_ts, 2059},
    {"age", 1, {TY_TIMESTAMPTZ}, TY_INTERVAL, TY_FN_STRICT, ty__age1_tstz, 1386},
};

const ty_func_table_t ty_funcs_age = {ty__age, CM_ARRAY_LEN(ty__age)};
