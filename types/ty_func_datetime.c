/*
 * ty_func_datetime.c: date/time operators (date ± int, date - date,
 * timestamp ± interval, timestamp - timestamp, interval arithmetic) and
 * functions (now() and its relatives, date_trunc, extract, date_part,
 * to_timestamp, make_date).
 */
#include "types/ty_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define S TY_FN_STRICT
#define OP (TY_FN_STRICT | TY_FN_OPERATOR)

static const ty_tz_t *ty__tz(ty_ctx_t *ctx)
{
    return ctx->settings && ctx->settings->tz ? ctx->settings->tz : ty_tz_utc();
}

static bool ty__date_err(ty_ctx_t *ctx)
{
    return cm_err_set(ctx->err, CM_ERRCODE_DATETIME_FIELD_OVERFLOW, "date out of range");
}

static bool ty__date_pli(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    if (a[0].v.i == TY_DATE_NOBEGIN || a[0].v.i == TY_DATE_NOEND) {
        o->v.i = a[0].v.i;
        return true;
    }
    o->v.i = a[0].v.i + a[1].v.i;
    return ty_date_in_range(o->v.i) ? true : ty__date_err(c);
}

static bool ty__int_pl_date(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    ty_datum_t s[2] = {a[1], a[0]};
    return ty__date_pli(c, s, n, o);
}

static bool ty__date_mii(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    ty_datum_t s[2] = {a[0], a[1]};
    s[1].v.i = -a[1].v.i;
    return ty__date_pli(c, s, n, o);
}

static bool ty__date_mi(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    if (a[0].v.i == TY_DATE_NOBEGIN || a[0].v.i == TY_DATE_NOEND || a[1].v.i == TY_DATE_NOBEGIN ||
        a[1].v.i == TY_DATE_NOEND)
        return cm_err_set(c->err, CM_ERRCODE_DATETIME_FIELD_OVERFLOW, "cannot subtract infinite dates");
    o->v.i = a[0].v.i - a[1].v.i;
    return true;
}

static bool ty__ts_pl_iv(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    return ty_ts_add_interval(c, a[0].v.i, &a[1].v.iv, false, false, &o->v.i);
}
static bool ty__ts_mi_iv(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    return ty_ts_add_interval(c, a[0].v.i, &a[1].v.iv, false, true, &o->v.i);
}
static bool ty__iv_pl_ts(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    return ty_ts_add_interval(c, a[1].v.i, &a[0].v.iv, false, false, &o->v.i);
}
static bool ty__tstz_pl_iv(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    return ty_ts_add_interval(c, a[0].v.i, &a[1].v.iv, true, false, &o->v.i);
}
static bool ty__tstz_mi_iv(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    return ty_ts_add_interval(c, a[0].v.i, &a[1].v.iv, true, true, &o->v.i);
}
static bool ty__iv_pl_tstz(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    return ty_ts_add_interval(c, a[1].v.i, &a[0].v.iv, true, false, &o->v.i);
}

static bool ty__date_pl_iv(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    int64_t ts;
    return ty_date_to_ts(c, a[0].v.i, false, &ts) && ty_ts_add_interval(c, ts, &a[1].v.iv, false, false, &o->v.i);
}
static bool ty__date_mi_iv(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    int64_t ts;
    return ty_date_to_ts(c, a[0].v.i, false, &ts) && ty_ts_add_interval(c, ts, &a[1].v.iv, false, true, &o->v.i);
}

static bool ty__date_pl_time(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    int64_t ts;
    if (!ty_date_to_ts(c, a[0].v.i, false, &ts))
        return false;
    if (ts != TY_DT_NOBEGIN && ts != TY_DT_NOEND)
        ts += a[1].v.i;
    o->v.i = ts;
    return ty_ts_in_range(ts) || ts == TY_DT_NOBEGIN || ts == TY_DT_NOEND ? true : ty_ts_err_range(c);
}

/* timestamp - timestamp: whole days split off the microseconds (justify_hours). */
static bool ty__ts_mi(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    int64_t x = a[0].v.i, y = a[1].v.i, d;
    if (x == TY_DT_NOBEGIN || x == TY_DT_NOEND || y == TY_DT_NOBEGIN || y == TY_DT_NOEND)
        return cm_err_set(c->err, CM_ERRCODE_DATETIME_FIELD_OVERFLOW, "cannot subtract infinite timestamps");
    if (__builtin_sub_overflow(x, y, &d))
        return cm_err_set(c->err, CM_ERRCODE_DATETIME_FIELD_OVERFLOW, "interval out of range");
    o->v.iv.months = 0;
    o->v.iv.days = (int32_t)(d / TY_USECS_PER_DAY);
    o->v.iv.us = d % TY_USECS_PER_DAY;
    return true;
}

static bool ty__time_mi(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.iv = (ty_interval_t){a[0].v.i - a[1].v.i, 0, 0};
    return true;
}

static bool ty__iv_err(ty_ctx_t *c)
{
    return cm_err_set(c->err, CM_ERRCODE_DATETIME_FIELD_OVERFLOW, "interval out of range");
}

static bool ty__iv_pl(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    if (__builtin_add_overflow(a[0].v.iv.months, a[1].v.iv.months, &o->v.iv.months) ||
        __builtin_add_overflow(a[0].v.iv.days, a[1].v.iv.days, &o->v.iv.days) ||
        __builtin_add_overflow(a[0].v.iv.us, a[1].v.iv.us, &o->v.iv.us))
        return ty__iv_err(c);
    return true;
}

static bool ty__iv_mi(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    if (__builtin_sub_overflow(a[0].v.iv.months, a[1].v.iv.months, &o->v.iv.months) ||
        __builtin_sub_overflow(a[0].v.iv.days, a[1].v.iv.days, &o->v.iv.days) ||
        __builtin_sub_overflow(a[0].v.iv.us, a[1].v.iv.us, &o->v.iv.us))
        return ty__iv_err(c);
    return true;
}

static bool ty__iv_um(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    if (a[0].v.iv.months == INT32_MIN || a[0].v.iv.days == INT32_MIN || a[0].v.iv.us == INT64_MIN)
        return ty__iv_err(c);
    o->v.iv = (ty_interval_t){-a[0].v.iv.us, -a[0].v.iv.days, -a[0].v.iv.months};
    return true;
}

/* PostgreSQL's interval_mul: fractional months spill into days, fractional
 * days into time, using 30-day months. */
static bool ty__iv_scale(ty_ctx_t *c, const ty_interval_t *iv, double f, ty_interval_t *out)
{
    if (f != f)
        return cm_err_set(c->err, CM_ERRCODE_DATETIME_FIELD_OVERFLOW, "interval out of range");
    double m = iv->months * f, d = iv->days * f;
    if (fabs(m) > INT32_MAX || fabs(d) > INT32_MAX)
        return ty__iv_err(c);
    int32_t mi = (int32_t)m, di = (int32_t)d;
    double mfrac = m - mi, dfrac = d - di;
    double sec_remainder = mfrac * 30 - trunc(mfrac * 30);
    di += (int32_t)trunc(mfrac * 30);
    double us = (double)iv->us * f + rint((sec_remainder + dfrac) * (double)TY_USECS_PER_DAY);
    if (fabs(us) > 9.2e18)
        return ty__iv_err(c);
    out->months = mi;
    out->days = di;
    out->us = (int64_t)rint(us);
    return true;
}

static bool ty__iv_mul(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    return ty__iv_scale(c, &a[0].v.iv, a[1].v.f, &o->v.iv);
}
static bool ty__mul_iv(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    return ty__iv_scale(c, &a[1].v.iv, a[0].v.f, &o->v.iv);
}
static bool ty__iv_div(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    if (a[1].v.f == 0)
        return ty_err_div0(c);
    return ty__iv_scale(c, &a[0].v.iv, 1.0 / a[1].v.f, &o->v.iv);
}

/* ===== now() and friends ===== */

static int64_t ty__wall_now(void)
{
    return cm_now_wall_us() - (int64_t)(TY_POSTGRES_EPOCH_JDATE - TY_UNIX_EPOCH_JDATE) * TY_USECS_PER_DAY;
}

static bool ty__now(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.i = c->xact_ts ? c->xact_ts : ty__wall_now();
    return true;
}
static bool ty__stmt_ts(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.i = c->stmt_ts ? c->stmt_ts : ty__wall_now();
    return true;
}
static bool ty__clock_ts(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.i = ty__wall_now();
    return true;
}
static bool ty__current_date(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.i = ty_ts_to_date(c->xact_ts ? c->xact_ts : ty__wall_now(), true, ty__tz(c));
    return true;
}
static bool ty__localtimestamp(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.i = ty_timestamptz_to_local(c->xact_ts ? c->xact_ts : ty__wall_now(), ty__tz(c));
    return true;
}
static bool ty__localtime(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    int64_t t = ty_timestamptz_to_local(c->xact_ts ? c->xact_ts : ty__wall_now(), ty__tz(c)) % TY_USECS_PER_DAY;
    o->v.i = t < 0 ? t + TY_USECS_PER_DAY : t;
    return true;
}

/* pg_sleep: sleeps in slices of at most 10 ms so cancel and statement_timeout apply. */
static bool ty__pg_sleep(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    double secs = a[0].v.f;
    int64_t end = cm_now_mono_us() + (secs > 0 ? (int64_t)(secs * 1e6) : 0);
    for (;;) {
        if (!ty_ctx_check_interrupt(c))
            return false;
        int64_t left = end - cm_now_mono_us();
        if (left <= 0)
            break;
        if (left > 10000)
            left = 10000;
        struct timespec ts = {0, (long)left * 1000};
        nanosleep(&ts, NULL);
    }
    o->isnull = false;
    return true;
}

/* ===== date_trunc, extract, date_part ===== */

static bool ty__trunc_tm(const char *u, ty_tm_t *tm)
{
    if (strcmp(u, "microseconds") == 0)
        return true;
    if (strcmp(u, "milliseconds") == 0) {
        tm->usec = tm->usec / 1000 * 1000;
        return true;
    }
    int level;
    static const char *units[] = {"second", "minute", "hour", "day", "week", "month", "quarter", "year",
                                  "decade", "century", "millennium"};
    for (level = 0; level < 11; level++)
        if (strcmp(u, units[level]) == 0)
            break;
    if (level == 11)
        return false;
    tm->usec = 0;
    if (level >= 1)
        tm->sec = 0;
    if (level >= 2)
        tm->min = 0;
    if (level >= 3)
        tm->hour = 0;
    if (level == 4) {
        /* ISO weeks start on Monday. */
        int jd = ty_date2j(tm->year, tm->mon, tm->mday);
        int back = (ty_j2day(jd) + 6) % 7;
        ty_j2date(jd - back, &tm->year, &tm->mon, &tm->mday);
        return true;
    }
    if (level >= 5)
        tm->mday = 1;
    if (level == 6)
        tm->mon = (tm->mon - 1) / 3 * 3 + 1;
    if (level >= 7)
        tm->mon = 1;
    if (level == 8)
        tm->year = tm->year > 0 ? tm->year / 10 * 10 : -((8 - (tm->year - 1)) / 10) * 10;
    if (level == 9)
        tm->year = tm->year > 0 ? (tm->year + 99) / 100 * 100 - 99 : -((99 - (tm->year - 1)) / 100) * 100 + 1;
    if (level == 10)
        tm->year = tm->year > 0 ? (tm->year + 999) / 1000 * 1000 - 999 : -((999 - (tm->year - 1)) / 1000) * 1000 + 1;
    return true;
}

static bool ty__date_trunc_impl(ty_ctx_t *c, const ty_datum_t *a, ty_datum_t *o, bool with_tz)
{
    const char *low, *u = ty_dt_unit(c->arena, &a[0], false, &low);
    const char *tname = with_tz ? "timestamp with time zone" : "timestamp without time zone";
    if (u == NULL)
        return ty_dt_unit_unrecognized(c, low, tname);
    int64_t ts = a[1].v.i;
    if (ts == TY_DT_NOBEGIN || ts == TY_DT_NOEND) {
        o->v.i = ts;
        return true;
    }
    int64_t local = with_tz ? ty_timestamptz_to_local(ts, ty__tz(c)) : ts;
    ty_tm_t tm;
    ty_ts2tm(local, &tm);
    if (!ty__trunc_tm(u, &tm))
        return ty_dt_unit_unsupported(c, low, tname);
    if (!ty_tm2ts(&tm, &local))
        return ty_ts_err_range(c);
    o->v.i = with_tz ? ty_timestamp_to_tz(local, ty__tz(c)) : local;
    return true;
}
static bool ty__date_trunc_ts(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    return ty__date_trunc_impl(c, a, o, false);
}
static bool ty__date_trunc_tstz(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    return ty__date_trunc_impl(c, a, o, true);
}

static bool ty__date_trunc_iv(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    const char *low, *u = ty_dt_unit(c->arena, &a[0], false, &low);
    if (u == NULL)
        return ty_dt_unit_unrecognized(c, low, "interval");
    if (strcmp(u, "week") == 0) {
        ty_dt_unit_unsupported(c, low, "interval");
        cm_err_set_detail(c->err, "Months usually have fractional weeks.");
        return false;
    }
    ty_interval_t iv = a[1].v.iv;
    int64_t t = iv.us;
    int64_t unit_us = 0;
    if (strcmp(u, "microseconds") == 0)
        unit_us = 1;
    else if (strcmp(u, "milliseconds") == 0)
        unit_us = 1000;
    else if (strcmp(u, "second") == 0)
        unit_us = TY_USECS_PER_SEC;
    else if (strcmp(u, "minute") == 0)
        unit_us = TY_USECS_PER_MIN;
    else if (strcmp(u, "hour") == 0)
        unit_us = TY_USECS_PER_HOUR;
    if (unit_us) {
        iv.us = t / unit_us * unit_us;
    } else if (strcmp(u, "day") == 0) {
        iv.us = 0;
    } else {
        int32_t div = strcmp(u, "month") == 0 ? 1 : strcmp(u, "quarter") == 0 ? 3 : strcmp(u, "year") == 0 ? 12
                    : strcmp(u, "decade") == 0 ? 120 : strcmp(u, "century") == 0 ? 1200
                    : strcmp(u, "millennium") == 0 ? 12000 : 0;
        if (div == 0)
            return ty_dt_unit_unsupported(c, low, "interval");
        iv.us = 0;
        iv.days = 0;
        iv.months = iv.months / div * div;
    }
    o->v.iv = iv;
    return true;
}

/* Extracted value as a decimal: integer part plus micro-units, so that
 * extract() can build an exact numeric and date_part a double. */
typedef struct ty_xval {
    int64_t whole;
    int64_t frac;   /* numerator over 10^scale */
    int scale;
    bool inf;
    bool null;
} ty_xval_t;

static int ty__iso_week(int y, int m, int d, int *isoyear)
{
    int jd = ty_date2j(y, m, d);
    int dow = (ty_j2day(jd) + 6) % 7;   /* Monday = 0 */
    int thursday = jd - dow + 3;
    int ty, tm, td;
    ty_j2date(thursday, &ty, &tm, &td);
    *isoyear = ty;
    return (thursday - ty_date2j(ty, 1, 1)) / 7 + 1;
}

static bool ty__extract_ts(ty_ctx_t *c, const char *u, const char *low, int64_t ts, bool with_tz, bool is_date,
                           ty_xval_t *x)
{
    memset(x, 0, sizeof(*x));
    ty_tm_t tm;
    int64_t local = with_tz ? ty_timestamptz_to_local(ts, ty__tz(c)) : ts;
    if (is_date) {
        /* ts is days here: dates reach 5874897 AD, beyond timestamps' microseconds. */
        static const char *const time_units[] = {"microseconds", "milliseconds", "second", "minute", "hour",
                                                 "timezone", "timezone_hour", "timezone_minute"};
        for (size_t i = 0; i < CM_ARRAY_LEN(time_units); i++)
            if (strcmp(u, time_units[i]) == 0)
                return ty_dt_unit_unsupported(c, low, "date");
        memset(&tm, 0, sizeof(tm));
        int jd = (int)(ts + TY_POSTGRES_EPOCH_JDATE);
        ty_j2date(jd, &tm.year, &tm.mon, &tm.mday);
        tm.wday = ty_j2day(jd);
        tm.yday = jd - ty_date2j(tm.year, 1, 1) + 1;
        local = 0;
    } else {
        ty_ts2tm(local, &tm);
    }
    int64_t sec_us = tm.sec * TY_USECS_PER_SEC + tm.usec;
    int isoyear;
    if (strcmp(u, "microseconds") == 0 || strcmp(u, "microsecond") == 0 || strcmp(u, "us") == 0)
        x->whole = sec_us;
    else if (strcmp(u, "milliseconds") == 0 || strcmp(u, "millisecond") == 0 || strcmp(u, "ms") == 0)
        x->whole = sec_us / 1000, x->frac = sec_us % 1000, x->scale = 3;
    else if (strcmp(u, "second") == 0 || strcmp(u, "seconds") == 0 || strcmp(u, "sec") == 0)
        x->whole = tm.sec, x->frac = tm.usec, x->scale = 6;
    else if (strcmp(u, "minute") == 0 || strcmp(u, "minutes") == 0 || strcmp(u, "min") == 0)
        x->whole = tm.min;
    else if (strcmp(u, "hour") == 0 || strcmp(u, "hours") == 0 || strcmp(u, "h") == 0)
        x->whole = tm.hour;
    else if (strcmp(u, "day") == 0 || strcmp(u, "days") == 0)
        x->whole = tm.mday;
    else if (strcmp(u, "month") == 0 || strcmp(u, "mon") == 0 || strcmp(u, "months") == 0)
        x->whole = tm.mon;
    else if (strcmp(u, "quarter") == 0)
        x->whole = (tm.mon - 1) / 3 + 1;
    else if (strcmp(u, "year") == 0 || strcmp(u, "years") == 0)
        x->whole = tm.year > 0 ? tm.year : tm.year - 1;
    else if (strcmp(u, "decade") == 0)
        x->whole = tm.year >= 0 ? tm.year / 10 : -((8 - (tm.year - 1)) / 10);
    else if (strcmp(u, "century") == 0)
        x->whole = tm.year > 0 ? (tm.year + 99) / 100 : -((99 - (tm.year - 1)) / 100);
    else if (strcmp(u, "millennium") == 0)
        x->whole = tm.year > 0 ? (tm.year + 999) / 1000 : -((999 - (tm.year - 1)) / 1000);
    else if (strcmp(u, "dow") == 0)
        x->whole = tm.wday;
    else if (strcmp(u, "isodow") == 0)
        x->whole = tm.wday == 0 ? 7 : tm.wday;
    else if (strcmp(u, "doy") == 0)
        x->whole = tm.yday;
    else if (strcmp(u, "week") == 0)
        x->whole = ty__iso_week(tm.year, tm.mon, tm.mday, &isoyear);
    else if (strcmp(u, "isoyear") == 0) {
        ty__iso_week(tm.year, tm.mon, tm.mday, &isoyear);
        x->whole = isoyear > 0 ? isoyear : isoyear - 1;
    } else if (strcmp(u, "julian") == 0) {
        int64_t jd = ty_date2j(tm.year, tm.mon, tm.mday);
        int64_t t = is_date ? 0 : local - (jd - TY_POSTGRES_EPOCH_JDATE) * TY_USECS_PER_DAY;
        x->whole = jd;
        if (!is_date && t != 0) {
            /* The fraction of the day, as PostgreSQL computes it. */
            x->frac = t;
            x->scale = -1;
        }
    } else if (strcmp(u, "epoch") == 0) {
        if (is_date) {
            x->whole = (ts + TY_POSTGRES_EPOCH_JDATE - TY_UNIX_EPOCH_JDATE) * 86400;
        } else {
            int64_t e = ts + (int64_t)(TY_POSTGRES_EPOCH_JDATE - TY_UNIX_EPOCH_JDATE) * TY_USECS_PER_DAY;
            x->whole = e >= 0 ? e / TY_USECS_PER_SEC : -((-e) / TY_USECS_PER_SEC);
            x->frac = e % TY_USECS_PER_SEC;
            x->scale = 6;
        }
    } else if (with_tz && strcmp(u, "timezone") == 0) {
        ty_tm_t z;
        ty_timestamptz_to_tm(ts, ty__tz(c), &z);
        x->whole = z.gmtoff;
    } else if (with_tz && strcmp(u, "timezone_hour") == 0) {
        ty_tm_t z;
        ty_timestamptz_to_tm(ts, ty__tz(c), &z);
        x->whole = z.gmtoff / 3600;
    } else if (with_tz && strcmp(u, "timezone_minute") == 0) {
        ty_tm_t z;
        ty_timestamptz_to_tm(ts, ty__tz(c), &z);
        x->whole = z.gmtoff / 60 % 60;
    } else {
        return ty_dt_unit_unsupported(c, low,
                                      is_date   ? "date"
                                      : with_tz ? "timestamp with time zone"
                                                : "timestamp without time zone");
    }
    if (is_date && x->scale > 0) {
        x->frac = 0;
        x->scale = 0;
    }
    return true;
}

static bool ty__extract_iv(ty_ctx_t *c, const char *u, const char *low, const char *tname, const ty_interval_t *iv,
                           ty_xval_t *x)
{
    memset(x, 0, sizeof(*x));
    int64_t t = iv->us;
    int64_t sec_us = t % TY_USECS_PER_MIN;
    if (strcmp(u, "microseconds") == 0)
        x->whole = sec_us;
    else if (strcmp(u, "milliseconds") == 0)
        x->whole = sec_us / 1000, x->frac = sec_us % 1000, x->scale = 3;
    else if (strcmp(u, "second") == 0)
        x->whole = sec_us / TY_USECS_PER_SEC, x->frac = sec_us % TY_USECS_PER_SEC, x->scale = 6;
    else if (strcmp(u, "minute") == 0)
        x->whole = t / TY_USECS_PER_MIN % 60;
    else if (strcmp(u, "hour") == 0)
        x->whole = t / TY_USECS_PER_HOUR;
    else if (strcmp(u, "day") == 0)
        x->whole = iv->days;
    else if (strcmp(u, "month") == 0)
        x->whole = iv->months % 12;
    else if (strcmp(u, "quarter") == 0)
        x->whole = (iv->months % 12) / 3 + 1;
    else if (strcmp(u, "year") == 0)
        x->whole = iv->months / 12;
    else if (strcmp(u, "decade") == 0)
        x->whole = iv->months / 120;
    else if (strcmp(u, "century") == 0)
        x->whole = iv->months / 1200;
    else if (strcmp(u, "millennium") == 0)
        x->whole = iv->months / 12000;
    else if (strcmp(u, "epoch") == 0) {
        /* 365.25-day years and 30-day months, as PostgreSQL does. */
        __int128 us = (__int128)iv->us + (__int128)iv->days * TY_USECS_PER_DAY +
                      (__int128)(iv->months / 12) * 31557600 * TY_USECS_PER_SEC +
                      (__int128)(iv->months % 12) * 30 * TY_USECS_PER_DAY;
        x->whole = (int64_t)(us / TY_USECS_PER_SEC);
        x->frac = (int64_t)(us % TY_USECS_PER_SEC);
        x->scale = 6;
    } else
        return ty_dt_unit_unsupported(c, low, tname);
    return true;
}

static const char *ty__type_sql_name(ty_oid_t t)
{
    switch (t) {
    case TY_INTERVAL: return "interval";
    case TY_TIME: return "time without time zone";
    case TY_DATE: return "date";
    case TY_TIMESTAMPTZ: return "timestamp with time zone";
    default: return "timestamp without time zone";
    }
}

/*
 * An infinite date or timestamp: the unit is checked as for a finite value;
 * the units that grow without bound give +-Infinity, the others NULL, as in
 * PostgreSQL's NonFiniteTimestampTzPart.
 */
static bool ty__extract_infinite(ty_ctx_t *c, const char *u, const char *low, ty_oid_t t, bool pos, ty_xval_t *x)
{
    if (!ty__extract_ts(c, u, low, 0, t == TY_TIMESTAMPTZ, t == TY_DATE, x))
        return false;
    static const char *const unbounded[] = {"year", "decade", "century", "millennium", "julian", "isoyear", "epoch"};
    memset(x, 0, sizeof(*x));
    x->null = true;
    for (size_t i = 0; i < CM_ARRAY_LEN(unbounded); i++) {
        if (strcmp(u, unbounded[i]) == 0) {
            x->null = false;
            x->inf = true;
            x->whole = pos ? 1 : -1;
        }
    }
    return true;
}

static bool ty__xval_get(ty_ctx_t *c, ty_oid_t t, const ty_datum_t *a, ty_xval_t *x)
{
    const char *low, *u = ty_dt_unit(c->arena, &a[0], true, &low);
    const char *tname = ty__type_sql_name(t);
    if (u == NULL)
        return ty_dt_unit_unrecognized(c, low, tname);
    switch (t) {
    case TY_INTERVAL: return ty__extract_iv(c, u, low, tname, &a[1].v.iv, x);
    case TY_TIME: {
        ty_interval_t iv = {a[1].v.i, 0, 0};
        if (strcmp(u, "hour") && strcmp(u, "minute") && strcmp(u, "second") && strcmp(u, "milliseconds") &&
            strcmp(u, "microseconds") && strcmp(u, "epoch"))
            return ty_dt_unit_unsupported(c, low, tname);
        return ty__extract_iv(c, u, low, tname, &iv, x);
    }
    case TY_DATE:
        if (a[1].v.i == TY_DATE_NOBEGIN || a[1].v.i == TY_DATE_NOEND)
            return ty__extract_infinite(c, u, low, t, a[1].v.i == TY_DATE_NOEND, x);
        return ty__extract_ts(c, u, low, a[1].v.i, false, true, x);
    default:
        if (a[1].v.i == TY_DT_NOBEGIN || a[1].v.i == TY_DT_NOEND)
            return ty__extract_infinite(c, u, low, t, a[1].v.i == TY_DT_NOEND, x);
        return ty__extract_ts(c, u, low, a[1].v.i, t == TY_TIMESTAMPTZ, false, x);
    }
}

static bool ty__extract_any(ty_ctx_t *c, const ty_datum_t *a, ty_datum_t *o, ty_oid_t t)
{
    ty_xval_t x;
    if (!ty__xval_get(c, t, a, &x))
        return false;
    if (x.null) {
        o->isnull = true;
        return true;
    }
    if (x.inf) {
        o->v.n = ty_num_special(c->arena, x.whole > 0 ? TY_NUM_PINF : TY_NUM_NINF);
        return true;
    }
    char buf[160];
    if (x.scale == -1) {
        /* julian with a time of day: whole + us / USECS_PER_DAY. */
        ty_numeric_t *w = ty_num_from_int64(c->arena, x.whole), *f, *r;
        f = ty_num_div_rscale(c->arena, ty_num_from_int64(c->arena, x.frac), ty_num_from_int64(c->arena, TY_USECS_PER_DAY), 20);
        ty_num_add(c, w, f, &r);
        o->v.n = r;
        return true;
    }
    int64_t w = x.whole, f = x.frac;
    bool neg = w < 0 || f < 0;
    if (x.scale > 0)
        snprintf(buf, sizeof(buf), "%s%lld.%0*lld", neg ? "-" : "", (long long)(w < 0 ? -w : w), x.scale & 7,
                 (long long)(f < 0 ? -f : f));
    else
        snprintf(buf, sizeof(buf), "%lld", (long long)w);
    return ty_numeric_from_text(buf, strlen(buf), c, &o->v.n);
}

static bool ty__date_part_any(ty_ctx_t *c, const ty_datum_t *a, ty_datum_t *o, ty_oid_t t)
{
    ty_xval_t x;
    if (!ty__xval_get(c, t, a, &x))
        return false;
    if (x.null) {
        o->isnull = true;
        return true;
    }
    if (x.inf) {
        o->v.f = x.whole > 0 ? INFINITY : -INFINITY;
        return true;
    }
    if (x.scale == -1)
        o->v.f = (double)x.whole + (double)x.frac / (double)TY_USECS_PER_DAY;
    else if (x.scale > 0)
        o->v.f = (double)x.whole + (double)x.frac / pow(10, x.scale);
    else
        o->v.f = (double)x.whole;
    return true;
}

#define TY_EXTRACT(T, TYPE)                                                                                  \
    static bool ty__xf_##T(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)                      \
    {                                                                                                        \
        return ty__extract_any(c, a, o, TYPE);                                                               \
    }                                                                                                        \
    static bool ty__date_part_##T(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)                    \
    {                                                                                                        \
        return ty__date_part_any(c, a, o, TYPE);                                                             \
    }

TY_EXTRACT(ts, TY_TIMESTAMP)
TY_EXTRACT(tstz, TY_TIMESTAMPTZ)
TY_EXTRACT(date, TY_DATE)
TY_EXTRACT(iv, TY_INTERVAL)
TY_EXTRACT(time, TY_TIME)

static bool ty__to_timestamp(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    double s = a[0].v.f;
    if (s != s)
        return cm_err_set(c->err, CM_ERRCODE_INVALID_PARAMETER_VALUE, "timestamp cannot be NaN");
    if (isinf(s)) {
        o->v.i = s > 0 ? TY_DT_NOEND : TY_DT_NOBEGIN;
        return true;
    }
    double us = rint(s * 1e6) - (double)(TY_POSTGRES_EPOCH_JDATE - TY_UNIX_EPOCH_JDATE) * 86400e6;
    if (us < -2.1181348800e17 || us >= 9.2233713312e18)
        return cm_err_set(c->err, CM_ERRCODE_DATETIME_FIELD_OVERFLOW, "timestamp out of range: \"%g\"", s);
    o->v.i = (int64_t)us;
    return true;
}

static bool ty__make_date(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    int64_t y = a[0].v.i, m = a[1].v.i, d = a[2].v.i;
    if (y < 0)
        y = y + 1;   /* negative years are BC */
    if (a[0].v.i == 0 || m < 1 || m > 12 || !ty_days_in_month_ok((int)y, (int)m, (int)d) || y > 5874897 || y < -4713)
        return cm_err_set(c->err, CM_ERRCODE_DATETIME_FIELD_OVERFLOW, "date field value out of range: %lld-%02lld-%02lld",
                          (long long)a[0].v.i, (long long)m, (long long)d);
    o->v.i = (int64_t)ty_date2j((int)y, (int)m, (int)d) - TY_POSTGRES_EPOCH_JDATE;
    return true;
}

#define D TY_DATE
#define TS TY_TIMESTAMP
#define TZ TY_TIMESTAMPTZ
#define IV TY_INTERVAL
#define F8 TY_FLOAT8
#define B2(SYM, A, B, R, F, ID) {SYM, 2, {A, B}, R, OP, F, ID}
#define V TY_FN_VOLATILE

static const ty_func_t ty__datetime[] = {
    B2("+", D, TY_INT4, D, ty__date_pli, 1100), B2("+", TY_INT4, D, D, ty__int_pl_date, 1101),
    B2("-", D, TY_INT4, D, ty__date_mii, 1101), B2("-", D, D, TY_INT4, ty__date_mi, 1099),
    B2("+", D, IV, TS, ty__date_pl_iv, 2071), B2("-", D, IV, TS, ty__date_mi_iv, 2072),
    B2("+", D, TY_TIME, TS, ty__date_pl_time, 1360),
    B2("+", TS, IV, TS, ty__ts_pl_iv, 2066), B2("-", TS, IV, TS, ty__ts_mi_iv, 2068),
    B2("+", IV, TS, TS, ty__iv_pl_ts, 2553), B2("-", TS, TS, IV, ty__ts_mi, 2067),
    B2("+", TZ, IV, TZ, ty__tstz_pl_iv, 1327), B2("-", TZ, IV, TZ, ty__tstz_mi_iv, 1329),
    B2("+", IV, TZ, TZ, ty__iv_pl_tstz, 2548), B2("-", TZ, TZ, IV, ty__ts_mi, 1328),
    B2("-", TY_TIME, TY_TIME, IV, ty__time_mi, 1399),
    B2("+", IV, IV, IV, ty__iv_pl, 1337), B2("-", IV, IV, IV, ty__iv_mi, 1338),
    {"-", 1, {IV}, IV, OP, ty__iv_um, 1336},
    B2("*", IV, F8, IV, ty__iv_mul, 1583), B2("*", F8, IV, IV, ty__mul_iv, 1584),
    B2("/", IV, F8, IV, ty__iv_div, 1585),
    {"now", 0, {0}, TZ, 0, ty__now, 1299},
    {"transaction_timestamp", 0, {0}, TZ, 0, ty__now, 2647},
    {"current_timestamp", 0, {0}, TZ, 0, ty__now, 2648},
    {"statement_timestamp", 0, {0}, TZ, V, ty__stmt_ts, 2648},
    {"clock_timestamp", 0, {0}, TZ, V, ty__clock_ts, 2649},
    {"current_date", 0, {0}, D, 0, ty__current_date, 1140},
    {"localtimestamp", 0, {0}, TS, 0, ty__localtimestamp, 2043},
    {"localtime", 0, {0}, TY_TIME, 0, ty__localtime, 2044},
    {"pg_sleep", 1, {F8}, TY_VOID, S | V | TY_FN_BLOCKING, ty__pg_sleep, 2626},
    {"date_trunc", 2, {TY_TEXT, TS}, TS, S, ty__date_trunc_ts, 2020},
    {"date_trunc", 2, {TY_TEXT, TZ}, TZ, S, ty__date_trunc_tstz, 1217},
    {"date_trunc", 2, {TY_TEXT, IV}, IV, S, ty__date_trunc_iv, 1218},
    {"extract", 2, {TY_TEXT, TS}, TY_NUMERIC, S, ty__xf_ts, 6202},
    {"extract", 2, {TY_TEXT, TZ}, TY_NUMERIC, S, ty__xf_tstz, 6203},
    {"extract", 2, {TY_TEXT, D}, TY_NUMERIC, S, ty__xf_date, 6199},
    {"extract", 2, {TY_TEXT, IV}, TY_NUMERIC, S, ty__xf_iv, 6204},
    {"extract", 2, {TY_TEXT, TY_TIME}, TY_NUMERIC, S, ty__xf_time, 6200},
    {"date_part", 2, {TY_TEXT, TS}, F8, S, ty__date_part_ts, 2021},
    {"date_part", 2, {TY_TEXT, TZ}, F8, S, ty__date_part_tstz, 1171},
    {"date_part", 2, {TY_TEXT, D}, F8, S, ty__date_part_date, 1384},
    {"date_part", 2, {TY_TEXT, IV}, F8, S, ty__date_part_iv, 1172},
    {"date_part", 2, {TY_TEXT, TY_TIME}, F8, S, ty__date_part_time, 1385},
    {"to_timestamp", 1, {F8}, TZ, S, ty__to_timestamp, 1158},
    {"make_date", 3, {TY_INT4, TY_INT4, TY_INT4}, D, S, ty__make_date, 3846},
};

const ty_func_table_t ty_funcs_datetime = {ty__datetime, CM_ARRAY_LEN(ty__datetime)};
