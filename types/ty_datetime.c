/*
 * ty_datetime.c: the calendar (Julian day numbers), breakdown of timestamps,
 * text output of date, time, timestamp, timestamptz and interval in every
 * DateStyle and IntervalStyle, typmod rounding and timestamp arithmetic.
 *
 * Values are PostgreSQL's: microseconds (or days) since 2000-01-01, with
 * INT64_MIN/INT64_MAX (INT32_MIN/INT32_MAX for date) as -infinity/infinity.
 */
#include "types/ty_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* PostgreSQL's limits: 4714-11-24 BC to 294276-12-31 (timestamp), 5874897-12-31 (date). */
#define TY_MIN_TIMESTAMP INT64_C(-211813488000000000)
#define TY_END_TIMESTAMP INT64_C(9223371331200000000)
#define TY_DATE_MIN_DAYS (-TY_POSTGRES_EPOCH_JDATE)
#define TY_DATE_END_DAYS (2147483494 - TY_POSTGRES_EPOCH_JDATE)

static const char *const ty__months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                         "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
static const char *const ty__days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};

/* ===== calendar ===== */

static int64_t ty__fdiv(int64_t a, int64_t b)
{
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        q--;
    return q;
}

int ty_date2j(int year, int mon, int mday)
{
    /* Fliegel and Van Flandern's conversion for the proleptic Gregorian calendar. */
    int64_t a = (14 - mon) / 12;
    int64_t y = (int64_t)year + 4800 - a;
    int64_t m = mon + 12 * a - 3;
    return (int)(mday + (153 * m + 2) / 5 + 365 * y + ty__fdiv(y, 4) - ty__fdiv(y, 100) + ty__fdiv(y, 400) - 32045);
}

void ty_j2date(int jd, int *year, int *mon, int *mday)
{
    int64_t a = (int64_t)jd + 32044;
    int64_t b = ty__fdiv(4 * a + 3, 146097);
    int64_t c = a - ty__fdiv(146097 * b, 4);
    int64_t d = ty__fdiv(4 * c + 3, 1461);
    int64_t e = c - ty__fdiv(1461 * d, 4);
    int64_t m = ty__fdiv(5 * e + 2, 153);
    *mday = (int)(e - ty__fdiv(153 * m + 2, 5) + 1);
    *mon = (int)(m + 3 - 12 * (m / 10));
    *year = (int)(100 * b + d - 4800 + m / 10);
}

int ty_j2day(int jd)
{
    int d = (jd + 1) % 7;
    return d < 0 ? d + 7 : d;
}

bool ty_is_leap(int year)
{
    return (year % 4 == 0) && ((year % 100 != 0) || (year % 400 == 0));
}

int ty_days_in_month(int year, int mon)
{
    static const int dim[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (mon == 2 && ty_is_leap(year))
        return 29;
    return dim[mon - 1];
}

bool ty_days_in_month_ok(int year, int mon, int mday)
{
    return mon >= 1 && mon <= 12 && mday >= 1 && mday <= ty_days_in_month(year, mon);
}

bool ty_ts_in_range(int64_t ts)
{
    return ts >= TY_MIN_TIMESTAMP && ts < TY_END_TIMESTAMP;
}

bool ty_date_in_range(int64_t d)
{
    return d >= TY_DATE_MIN_DAYS && d < TY_DATE_END_DAYS;
}

void ty_ts2tm(int64_t ts, ty_tm_t *tm)
{
    int64_t days = ty__fdiv(ts, TY_USECS_PER_DAY);
    int64_t t = ts - days * TY_USECS_PER_DAY;
    int jd = (int)(days + TY_POSTGRES_EPOCH_JDATE);
    memset(tm, 0, sizeof(*tm));
    ty_j2date(jd, &tm->year, &tm->mon, &tm->mday);
    tm->hour = (int)(t / TY_USECS_PER_HOUR);
    t -= tm->hour * TY_USECS_PER_HOUR;
    tm->min = (int)(t / TY_USECS_PER_MIN);
    t -= tm->min * TY_USECS_PER_MIN;
    tm->sec = (int)(t / TY_USECS_PER_SEC);
    tm->usec = (int32_t)(t - tm->sec * TY_USECS_PER_SEC);
    tm->wday = ty_j2day(jd);
    tm->yday = jd - ty_date2j(tm->year, 1, 1) + 1;
}

bool ty_tm2ts(const ty_tm_t *tm, int64_t *ts)
{
    int64_t days = (int64_t)ty_date2j(tm->year, tm->mon, tm->mday) - TY_POSTGRES_EPOCH_JDATE;
    int64_t t = ((int64_t)tm->hour * 60 + tm->min) * 60 + tm->sec;
    t = t * TY_USECS_PER_SEC + tm->usec;
    if (days > INT64_MAX / TY_USECS_PER_DAY || days < INT64_MIN / TY_USECS_PER_DAY)
        return false;
    int64_t r = days * TY_USECS_PER_DAY;
    if (__builtin_add_overflow(r, t, &r))
        return false;
    *ts = r;
    return ty_ts_in_range(r);
}

int64_t ty_timestamptz_to_local(int64_t ts, const ty_tz_t *tz)
{
    int64_t secs = ty__fdiv(ts, TY_USECS_PER_SEC) + (int64_t)(TY_POSTGRES_EPOCH_JDATE - TY_UNIX_EPOCH_JDATE) * 86400;
    int off = ty_tz_offset_utc(tz, secs, NULL, NULL);
    return ts + off * TY_USECS_PER_SEC;
}

int64_t ty_timestamp_to_tz(int64_t local, const ty_tz_t *tz)
{
    int64_t secs = ty__fdiv(local, TY_USECS_PER_SEC) + (int64_t)(TY_POSTGRES_EPOCH_JDATE - TY_UNIX_EPOCH_JDATE) * 86400;
    int off = ty_tz_offset_local(tz, secs);
    return local - off * TY_USECS_PER_SEC;
}

void ty_timestamptz_to_tm(int64_t ts, const ty_tz_t *tz, ty_tm_t *tm)
{
    int64_t secs = ty__fdiv(ts, TY_USECS_PER_SEC) + (int64_t)(TY_POSTGRES_EPOCH_JDATE - TY_UNIX_EPOCH_JDATE) * 86400;
    const char *abbr;
    bool dst;
    int off = ty_tz_offset_utc(tz, secs, &abbr, &dst);
    ty_ts2tm(ts + off * TY_USECS_PER_SEC, tm);
    tm->gmtoff = off;
    tm->zone = abbr;
}

/* ===== output ===== */

static void ty__put_year(cm_buf_t *out, int year)
{
    cm_buf_printf(out, "%04d", year > 0 ? year : 1 - year);
}

static void ty__put_bc(cm_buf_t *out, int year)
{
    if (year <= 0)
        cm_buf_put_str(out, " BC");
}

static void ty__put_seconds(cm_buf_t *out, int sec, int32_t usec, bool fill)
{
    cm_buf_printf(out, fill ? "%02d" : "%d", sec);
    if (usec != 0) {
        char f[8];
        snprintf(f, sizeof(f), "%06d", usec);
        int n = 6;
        while (n > 0 && f[n - 1] == '0')
            n--;
        cm_buf_printf(out, ".%.*s", n, f);
    }
}

static void ty__put_offset(cm_buf_t *out, int off)
{
    int a = off < 0 ? -off : off;
    cm_buf_printf(out, "%c%02d", off < 0 ? '-' : '+', a / 3600);
    if (a % 3600 != 0) {
        cm_buf_printf(out, ":%02d", a / 60 % 60);
        if (a % 60 != 0)
            cm_buf_printf(out, ":%02d", a % 60);
    }
}

static void ty__put_date_part(cm_buf_t *out, const ty_tm_t *tm, const ty_settings_t *st)
{
    switch (st->datestyle) {
    case TY_DATESTYLE_SQL:
        if (st->dateorder == TY_DATEORDER_DMY)
            cm_buf_printf(out, "%02d/%02d/", tm->mday, tm->mon);
        else
            cm_buf_printf(out, "%02d/%02d/", tm->mon, tm->mday);
        ty__put_year(out, tm->year);
        break;
    case TY_DATESTYLE_GERMAN:
        cm_buf_printf(out, "%02d.%02d.", tm->mday, tm->mon);
        ty__put_year(out, tm->year);
        break;
    case TY_DATESTYLE_POSTGRES:
        if (st->dateorder == TY_DATEORDER_DMY)
            cm_buf_printf(out, "%02d-%02d-", tm->mday, tm->mon);
        else
            cm_buf_printf(out, "%02d-%02d-", tm->mon, tm->mday);
        ty__put_year(out, tm->year);
        break;
    default:
        ty__put_year(out, tm->year);
        cm_buf_printf(out, "-%02d-%02d", tm->mon, tm->mday);
        break;
    }
}

void ty_date_out(int64_t d, const ty_settings_t *st, cm_buf_t *out)
{
    if (d == TY_DATE_NOBEGIN) {
        cm_buf_put_str(out, "-infinity");
        return;
    }
    if (d == TY_DATE_NOEND) {
        cm_buf_put_str(out, "infinity");
        return;
    }
    /* From the Julian day directly: dates reach 5874897 AD, whose microseconds overflow int64. */
    ty_tm_t tm = {0};
    int jd = (int)(d + TY_POSTGRES_EPOCH_JDATE);
    ty_j2date(jd, &tm.year, &tm.mon, &tm.mday);
    tm.wday = ty_j2day(jd);
    ty__put_date_part(out, &tm, st);
    ty__put_bc(out, tm.year);
}

void ty_time_out(int64_t t, cm_buf_t *out)
{
    int h = (int)(t / TY_USECS_PER_HOUR);
    t -= h * TY_USECS_PER_HOUR;
    int m = (int)(t / TY_USECS_PER_MIN);
    t -= m * TY_USECS_PER_MIN;
    cm_buf_printf(out, "%02d:%02d:", h, m);
    ty__put_seconds(out, (int)(t / TY_USECS_PER_SEC), (int32_t)(t % TY_USECS_PER_SEC), true);
}

void ty_timestamp_out(int64_t ts, bool with_tz, const ty_settings_t *st, cm_buf_t *out)
{
    if (ts == TY_DT_NOBEGIN) {
        cm_buf_put_str(out, "-infinity");
        return;
    }
    if (ts == TY_DT_NOEND) {
        cm_buf_put_str(out, "infinity");
        return;
    }
    ty_tm_t tm;
    if (with_tz)
        ty_timestamptz_to_tm(ts, st->tz ? st->tz : ty_tz_utc(), &tm);
    else
        ty_ts2tm(ts, &tm);
    if (st->datestyle == TY_DATESTYLE_POSTGRES) {
        cm_buf_printf(out, "%s ", ty__days[tm.wday]);
        if (st->dateorder == TY_DATEORDER_DMY)
            cm_buf_printf(out, "%02d %s", tm.mday, ty__months[tm.mon - 1]);
        else
            cm_buf_printf(out, "%s %02d", ty__months[tm.mon - 1], tm.mday);
        cm_buf_printf(out, " %02d:%02d:", tm.hour, tm.min);
        ty__put_seconds(out, tm.sec, tm.usec, true);
        cm_buf_put_u8(out, ' ');
        ty__put_year(out, tm.year);
        if (with_tz) {
            cm_buf_put_u8(out, ' ');
            if (tm.zone && tm.zone[0])
                cm_buf_put_str(out, tm.zone);
            else
                ty__put_offset(out, tm.gmtoff);
        }
        ty__put_bc(out, tm.year);
        return;
    }
    ty__put_date_part(out, &tm, st);
    cm_buf_printf(out, " %02d:%02d:", tm.hour, tm.min);
    ty__put_seconds(out, tm.sec, tm.usec, true);
    if (with_tz) {
        if (st->datestyle == TY_DATESTYLE_ISO) {
            ty__put_offset(out, tm.gmtoff);
        } else {
            cm_buf_put_u8(out, ' ');
            if (tm.zone && tm.zone[0])
                cm_buf_put_str(out, tm.zone);
            else
                ty__put_offset(out, tm.gmtoff);
        }
    }
    ty__put_bc(out, tm.year);
}

static void ty__pg_int_part(cm_buf_t *out, int64_t value, const char *units, bool *is_zero, bool *is_before)
{
    if (value == 0)
        return;
    cm_buf_printf(out, "%s%s%lld %s%s", *is_zero ? "" : " ", (*is_before && value > 0) ? "+" : "", (long long)value,
                  units, value != 1 ? "s" : "");
    *is_before = value < 0;
    *is_zero = false;
}

static void ty__verbose_part(cm_buf_t *out, int64_t value, const char *units, bool *is_zero, bool *is_before)
{
    if (value == 0)
        return;
    if (*is_zero) {
        *is_before = value < 0;
        value = llabs(value);
    } else if (*is_before) {
        value = -value;
    }
    cm_buf_printf(out, " %lld %s%s", (long long)value, units, value == 1 ? "" : "s");
    *is_zero = false;
}

void ty_interval_out(const ty_interval_t *iv, const ty_settings_t *st, cm_buf_t *out)
{
    int64_t year = iv->months / 12, mon = iv->months % 12, mday = iv->days;
    int64_t t = iv->us;
    int64_t hour = t / TY_USECS_PER_HOUR;
    t -= hour * TY_USECS_PER_HOUR;
    int64_t min = t / TY_USECS_PER_MIN;
    t -= min * TY_USECS_PER_MIN;
    int64_t sec = t / TY_USECS_PER_SEC;
    int32_t fsec = (int32_t)(t - sec * TY_USECS_PER_SEC);
    bool is_zero = true, is_before = false;
    switch (st->intervalstyle) {
    case TY_INTERVALSTYLE_ISO_8601:
        if (!year && !mon && !mday && !hour && !min && !sec && !fsec) {
            cm_buf_put_str(out, "PT0S");
            return;
        }
        cm_buf_put_u8(out, 'P');
        if (year)
            cm_buf_printf(out, "%lldY", (long long)year);
        if (mon)
            cm_buf_printf(out, "%lldM", (long long)mon);
        if (mday)
            cm_buf_printf(out, "%lldD", (long long)mday);
        if (hour || min || sec || fsec)
            cm_buf_put_u8(out, 'T');
        if (hour)
            cm_buf_printf(out, "%lldH", (long long)hour);
        if (min)
            cm_buf_printf(out, "%lldM", (long long)min);
        if (sec || fsec) {
            if (sec < 0 || fsec < 0)
                cm_buf_put_u8(out, '-');
            ty__put_seconds(out, (int)llabs(sec), abs(fsec), false);
            cm_buf_put_u8(out, 'S');
        }
        return;
    case TY_INTERVALSTYLE_POSTGRES_VERBOSE:
        cm_buf_put_u8(out, '@');
        ty__verbose_part(out, year, "year", &is_zero, &is_before);
        ty__verbose_part(out, mon, "mon", &is_zero, &is_before);
        ty__verbose_part(out, mday, "day", &is_zero, &is_before);
        ty__verbose_part(out, hour, "hour", &is_zero, &is_before);
        ty__verbose_part(out, min, "min", &is_zero, &is_before);
        if (sec || fsec) {
            cm_buf_put_u8(out, ' ');
            if (sec < 0 || (sec == 0 && fsec < 0)) {
                if (is_zero)
                    is_before = true;
                else if (!is_before)
                    cm_buf_put_u8(out, '-');
            } else if (is_before) {
                cm_buf_put_u8(out, '-');
            }
            ty__put_seconds(out, (int)llabs(sec), abs(fsec), false);
            cm_buf_printf(out, " sec%s", (llabs(sec) != 1 || fsec != 0) ? "s" : "");
            is_zero = false;
        }
        if (is_zero)
            cm_buf_put_str(out, " 0");
        if (is_before)
            cm_buf_put_str(out, " ago");
        return;
    case TY_INTERVALSTYLE_SQL_STANDARD: {
        bool neg = year < 0 || mon < 0 || mday < 0 || hour < 0 || min < 0 || sec < 0 || fsec < 0;
        bool pos = year > 0 || mon > 0 || mday > 0 || hour > 0 || min > 0 || sec > 0 || fsec > 0;
        bool ym = year != 0 || mon != 0;
        bool dt = mday != 0 || hour != 0 || min != 0 || sec != 0 || fsec != 0;
        bool std = !(neg && pos) && !(ym && dt);
        if (neg && std) {
            cm_buf_put_u8(out, '-');
            year = -year, mon = -mon, mday = -mday, hour = -hour, min = -min, sec = -sec, fsec = -fsec;
        }
        if (!neg && !pos) {
            cm_buf_put_u8(out, '0');
        } else if (!std) {
            char ys = (year < 0 || mon < 0) ? '-' : '+';
            char ds = mday < 0 ? '-' : '+';
            char ss = (hour < 0 || min < 0 || sec < 0 || fsec < 0) ? '-' : '+';
            cm_buf_printf(out, "%c%lld-%lld %c%lld %c%lld:%02lld:", ys, llabs(year), llabs(mon), ds, llabs(mday), ss,
                          llabs(hour), llabs(min));
            ty__put_seconds(out, (int)llabs(sec), abs(fsec), true);
        } else if (ym) {
            cm_buf_printf(out, "%lld-%lld", (long long)year, (long long)mon);
        } else if (mday) {
            cm_buf_printf(out, "%lld %lld:%02lld:", (long long)mday, (long long)hour, (long long)min);
            ty__put_seconds(out, (int)llabs(sec), abs(fsec), true);
        } else {
            cm_buf_printf(out, "%lld:%02lld:", (long long)hour, (long long)min);
            ty__put_seconds(out, (int)llabs(sec), abs(fsec), true);
        }
        return;
    }
    default:
        ty__pg_int_part(out, year, "year", &is_zero, &is_before);
        ty__pg_int_part(out, mon, "mon", &is_zero, &is_before);
        ty__pg_int_part(out, mday, "day", &is_zero, &is_before);
        if (is_zero || hour != 0 || min != 0 || sec != 0 || fsec != 0) {
            bool minus = hour < 0 || min < 0 || sec < 0 || fsec < 0;
            cm_buf_printf(out, "%s%s%02lld:%02lld:", is_zero ? "" : " ", minus ? "-" : is_before ? "+" : "",
                          llabs(hour), llabs(min));
            ty__put_seconds(out, (int)llabs(sec), abs(fsec), true);
        }
        return;
    }
}

/* ===== typmods ===== */

static const int64_t ty__scales[7] = {1000000, 100000, 10000, 1000, 100, 10, 1};

static int64_t ty__round_us(int64_t t, int32_t typmod)
{
    int64_t s = ty__scales[typmod];
    int64_t off = s / 2;
    if (t >= 0)
        return ((t + off) / s) * s;
    return -((((-t) + off) / s) * s);
}

bool ty_timestamp_round(ty_ctx_t *ctx, int64_t *ts, int32_t typmod)
{
    if (typmod < 0 || typmod >= 6 || *ts == TY_DT_NOBEGIN || *ts == TY_DT_NOEND)
        return true;
    *ts = ty__round_us(*ts, typmod);
    return true;
}

/* ===== comparison and arithmetic ===== */

int ty_interval_cmp(const ty_interval_t *a, const ty_interval_t *b)
{
    __int128 x = (__int128)a->us + ((__int128)a->days + (__int128)a->months * 30) * TY_USECS_PER_DAY;
    __int128 y = (__int128)b->us + ((__int128)b->days + (__int128)b->months * 30) * TY_USECS_PER_DAY;
    return x < y ? -1 : x > y;
}

bool ty_ts_err_range(ty_ctx_t *ctx)
{
    return cm_err_set(ctx->err, CM_ERRCODE_DATETIME_FIELD_OVERFLOW, "timestamp out of range");
}

bool ty_ts_add_interval(ty_ctx_t *ctx, int64_t ts, const ty_interval_t *iv0, bool with_tz, bool sub, int64_t *out)
{
    if (ts == TY_DT_NOBEGIN || ts == TY_DT_NOEND) {
        *out = ts;
        return true;
    }
    ty_interval_t iv = *iv0;
    if (sub) {
        iv.months = -iv.months;
        iv.days = -iv.days;
        iv.us = -iv.us;
    }
    const ty_tz_t *tz = ctx->settings && ctx->settings->tz ? ctx->settings->tz : ty_tz_utc();
    if (iv.months != 0 || iv.days != 0) {
        /* Months and days move the local calendar date; the clock time stays. */
        int64_t local = with_tz ? ty_timestamptz_to_local(ts, tz) : ts;
        ty_tm_t tm;
        ty_ts2tm(local, &tm);
        if (iv.months != 0) {
            int64_t m = (int64_t)tm.year * 12 + (tm.mon - 1) + iv.months;
            tm.year = (int)ty__fdiv(m, 12);
            tm.mon = (int)(m - (int64_t)tm.year * 12) + 1;
            int dim = ty_days_in_month(tm.year, tm.mon);
            if (tm.mday > dim)
                tm.mday = dim;
        }
        if (!ty_tm2ts(&tm, &local))
            return ty_ts_err_range(ctx);
        if (iv.days != 0) {
            int64_t d;
            if (__builtin_mul_overflow((int64_t)iv.days, TY_USECS_PER_DAY, &d) ||
                __builtin_add_overflow(local, d, &local) || !ty_ts_in_range(local))
                return ty_ts_err_range(ctx);
        }
        ts = with_tz ? ty_timestamp_to_tz(local, tz) : local;
    }
    if (__builtin_add_overflow(ts, iv.us, &ts) || !ty_ts_in_range(ts))
        return ty_ts_err_range(ctx);
    *out = ts;
    return true;
}

bool ty_date_to_ts(ty_ctx_t *ctx, int64_t d, bool with_tz, int64_t *out)
{
    if (d == TY_DATE_NOBEGIN) {
        *out = TY_DT_NOBEGIN;
        return true;
    }
    if (d == TY_DATE_NOEND) {
        *out = TY_DT_NOEND;
        return true;
    }
    int64_t ts;
    /* A date far past the timestamp range (year 966647) would overflow the product. */
    if (__builtin_mul_overflow(d, TY_USECS_PER_DAY, &ts) || !ty_ts_in_range(ts))
        return ty_ts_err_range(ctx);
    if (with_tz) {
        const ty_tz_t *tz = ctx->settings && ctx->settings->tz ? ctx->settings->tz : ty_tz_utc();
        ts = ty_timestamp_to_tz(ts, tz);
        if (!ty_ts_in_range(ts))
            return ty_ts_err_range(ctx);
    }
    *out = ts;
    return true;
}

int64_t ty_ts_to_date(int64_t ts, bool with_tz, const ty_tz_t *tz)
{
    if (ts == TY_DT_NOBEGIN)
        return TY_DATE_NOBEGIN;
    if (ts == TY_DT_NOEND)
        return TY_DATE_NOEND;
    if (with_tz)
        ts = ty_timestamptz_to_local(ts, tz);
    return ty__fdiv(ts, TY_USECS_PER_DAY);
}
