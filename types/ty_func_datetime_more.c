/*
 * ty_func_datetime_more.c: isfinite, justify_days/hours/interval,
 * make_time, make_timestamp, make_timestamptz, make_interval, and
 * timezone(zone, value), which is what AT TIME ZONE becomes.
 *
 * make_interval's seven parameters all default to 0 in PostgreSQL. The
 * function table has no defaults, so the function is registered once per
 * arity (0 to 7 arguments), which gives positional calls the same meaning.
 */
#include "types/ty_internal.h"

#include <math.h>
#include <string.h>

#define S TY_FN_STRICT
#define I4 TY_INT4
#define F8 TY_FLOAT8
#define T TY_TEXT
#define IV TY_INTERVAL
#define TS TY_TIMESTAMP
#define TZ TY_TIMESTAMPTZ

static const ty_tz_t *ty__session_tz(ty_ctx_t *c)
{
    return c->settings && c->settings->tz ? c->settings->tz : ty_tz_utc();
}

static bool ty__iv_range(ty_ctx_t *c)
{
    return cm_err_set(c->err, CM_ERRCODE_DATETIME_FIELD_OVERFLOW, "interval out of range");
}

/* ===== isfinite ===== */

static bool ty__isfinite_date(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.b = a[0].v.i != TY_DATE_NOBEGIN && a[0].v.i != TY_DATE_NOEND;
    return true;
}

static bool ty__isfinite_ts(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.b = a[0].v.i != TY_DT_NOBEGIN && a[0].v.i != TY_DT_NOEND;
    return true;
}

/* PostgreSQL 15 has no infinite intervals. */
static bool ty__isfinite_iv(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.b = true;
    return true;
}

/* ===== justify_* (30-day months, 24-hour days, signs made consistent) ===== */

static bool ty__split_days(ty_ctx_t *c, ty_interval_t *r)
{
    int64_t whole = r->us / TY_USECS_PER_DAY;
    r->us -= whole * TY_USECS_PER_DAY;
    int64_t d = (int64_t)r->days + whole;
    if (d < INT32_MIN || d > INT32_MAX)
        return ty__iv_range(c);
    r->days = (int32_t)d;
    return true;
}

static bool ty__split_months(ty_ctx_t *c, ty_interval_t *r)
{
    int32_t whole = r->days / 30;
    r->days -= whole * 30;
    if (__builtin_add_overflow(r->months, whole, &r->months))
        return ty__iv_range(c);
    return true;
}

static void ty__fix_day_sign(ty_interval_t *r)
{
    if (r->days > 0 && r->us < 0) {
        r->us += TY_USECS_PER_DAY;
        r->days--;
    } else if (r->days < 0 && r->us > 0) {
        r->us -= TY_USECS_PER_DAY;
        r->days++;
    }
}

static bool ty__justify_days(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    ty_interval_t r = a[0].v.iv;
    if (!ty__split_months(c, &r))
        return false;
    if (r.months > 0 && r.days < 0) {
        r.days += 30;
        r.months--;
    } else if (r.months < 0 && r.days > 0) {
        r.days -= 30;
        r.months++;
    }
    o->v.iv = r;
    return true;
}

static bool ty__justify_hours(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    ty_interval_t r = a[0].v.iv;
    if (!ty__split_days(c, &r))
        return false;
    ty__fix_day_sign(&r);
    o->v.iv = r;
    return true;
}

static bool ty__justify_interval(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    ty_interval_t r = a[0].v.iv;
    if (!ty__split_days(c, &r) || !ty__split_months(c, &r))
        return false;
    if (r.months > 0 && (r.days < 0 || (r.days == 0 && r.us < 0))) {
        r.days += 30;
        r.months--;
    } else if (r.months < 0 && (r.days > 0 || (r.days == 0 && r.us > 0))) {
        r.days -= 30;
        r.months++;
    }
    ty__fix_day_sign(&r);
    o->v.iv = r;
    return true;
}

/* ===== make_* ===== */

/* PostgreSQL's float_time_overflows: 24:00:00 is allowed, anything later is not. */
static bool ty__time_overflows(int64_t h, int64_t m, double sec)
{
    if (h < 0 || m < 0 || m > 59 || h > 24)
        return true;
    if (!(sec >= 0.0 && sec <= 60.0))
        return true;
    double us = rint(sec * 1e6) + (double)((h * 60 + m) * 60) * 1e6;
    return us < 0 || us > (double)TY_USECS_PER_DAY;
}

static bool ty__time_err(ty_ctx_t *c, int64_t h, int64_t m, double sec)
{
    return cm_err_set(c->err, CM_ERRCODE_DATETIME_FIELD_OVERFLOW, "time field value out of range: %d:%02d:%02g",
                      (int)h, (int)m, sec);
}

static int64_t ty__time_us(int64_t h, int64_t m, double sec)
{
    return ((h * 60 + m) * 60) * TY_USECS_PER_SEC + (int64_t)rint(sec * 1e6);
}

static bool ty__make_time(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    if (ty__time_overflows(a[0].v.i, a[1].v.i, a[2].v.f))
        return ty__time_err(c, a[0].v.i, a[1].v.i, a[2].v.f);
    o->v.i = ty__time_us(a[0].v.i, a[1].v.i, a[2].v.f);
    return true;
}

/* make_timestamp_internal: negative years are BC, there is no year 0. */
static bool ty__make_ts(ty_ctx_t *c, const ty_datum_t *a, int64_t *out)
{
    int64_t y = a[0].v.i, mo = a[1].v.i, d = a[2].v.i, h = a[3].v.i, mi = a[4].v.i;
    double sec = a[5].v.f;
    int64_t ay = y < 0 ? y + 1 : y;
    if (y == 0 || mo < 1 || mo > 12 || d < 1 || d > 31 || !ty_days_in_month_ok((int)ay, (int)mo, (int)d))
        return cm_err_set(c->err, CM_ERRCODE_DATETIME_FIELD_OVERFLOW, "date field value out of range: %d-%02d-%02d",
                          (int)y, (int)mo, (int)d);
    if (ay < -4713 || ay > 5874897)
        return cm_err_set(c->err, "22008", "date out of range: %d-%02d-%02d", (int)y, (int)mo, (int)d);
    int64_t date = (int64_t)ty_date2j((int)ay, (int)mo, (int)d) - TY_POSTGRES_EPOCH_JDATE;
    if (ty__time_overflows(h, mi, sec))
        return ty__time_err(c, h, mi, sec);
    int64_t time = ty__time_us(h, mi, sec), r;
    if (__builtin_mul_overflow(date, TY_USECS_PER_DAY, &r) || __builtin_add_overflow(r, time, &r) ||
        !ty_ts_in_range(r))
        return cm_err_set(c->err, CM_ERRCODE_DATETIME_FIELD_OVERFLOW, "timestamp out of range: %d-%02d-%02d %d:%02d:%02g",
                          (int)y, (int)mo, (int)d, (int)h, (int)mi, sec);
    *out = r;
    return true;
}

static bool ty__make_timestamp(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    return ty__make_ts(c, a, &o->v.i);
}

static bool ty__tstz_check(ty_ctx_t *c, int64_t v, ty_datum_t *o)
{
    if (!ty_ts_in_range(v))
        return ty_ts_err_range(c);
    o->v.i = v;
    return true;
}

static bool ty__make_timestamptz(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    int64_t local;
    if (!ty__make_ts(c, a, &local))
        return false;
    if (n < 7)
        return ty__tstz_check(c, ty_timestamp_to_tz(local, ty__session_tz(c)), o);
    /* parse_sane_timezone: a leading digit is refused, +hh is ISO (east), then abbreviations, then zone names. */
    const char *z = ty_datum_cstr(c->arena, &a[6]);
    if (z[0] >= '0' && z[0] <= '9') {
        cm_err_set(c->err, CM_ERRCODE_INVALID_PARAMETER_VALUE, "invalid input syntax for type numeric time zone: \"%s\"", z);
        cm_err_set_hint(c->err, "Numeric time zones must have \"-\" or \"+\" as first character.");
        return false;
    }
    int gmtoff;
    char *low = cm_arena_strndup(c->arena, z, strlen(z));
    cm_str_lower(low);
    if (z[0] != '+' && z[0] != '-' && ty_tz_abbrev(low, &gmtoff))
        return ty__tstz_check(c, local - gmtoff * TY_USECS_PER_SEC, o);
    cm_err_t e = {0};
    const ty_tz_t *tz = ty_tz_lookup(z, &e);
    cm_err_clear(&e);
    if (tz == NULL)
        return cm_err_set(c->err, CM_ERRCODE_INVALID_PARAMETER_VALUE, "time zone \"%s\" not recognized", z);
    return ty__tstz_check(c, ty_timestamp_to_tz(local, tz), o);
}

static bool ty__make_interval(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    int64_t v[6] = {0};
    for (int i = 0; i < n && i < 6; i++)
        v[i] = a[i].v.i;
    double secs = n > 6 ? a[6].v.f : 0;
    if (isinf(secs) || secs != secs)
        return ty__iv_range(c);
    /* PostgreSQL 15 does not check the integer fields; they wrap as its C arithmetic does. */
    o->v.iv.months = (int32_t)(uint32_t)((uint64_t)v[0] * 12 + (uint64_t)v[1]);
    o->v.iv.days = (int32_t)(uint32_t)((uint64_t)v[2] * 7 + (uint64_t)v[3]);
    o->v.iv.us = (int64_t)((uint64_t)v[4] * (uint64_t)TY_USECS_PER_HOUR + (uint64_t)v[5] * (uint64_t)TY_USECS_PER_MIN +
                           (uint64_t)(int64_t)rint(secs * 1e6));
    return true;
}

/* ===== timezone(zone, value): AT TIME ZONE ===== */

/*
 * PostgreSQL tries an abbreviation first ("EST"), then a zone name, which
 * it reads as a POSIX TZ string: there "+05" means five hours west.
 */
static bool ty__zone(ty_ctx_t *c, const ty_datum_t *d, bool *fixed, int *gmtoff, const ty_tz_t **tz)
{
    const char *z = ty_datum_cstr(c->arena, d);
    char *low = cm_arena_strndup(c->arena, z, strlen(z));
    cm_str_lower(low);
    *fixed = ty_tz_abbrev(low, gmtoff);
    if (*fixed)
        return true;
    cm_err_t e = {0};
    const char *name = (z[0] == '+' || z[0] == '-') ? cm_arena_printf(c->arena, "UTC%s", z) : z;
    *tz = ty_tz_lookup(name, &e);
    cm_err_clear(&e);
    if (*tz == NULL)
        return cm_err_set(c->err, CM_ERRCODE_INVALID_PARAMETER_VALUE, "time zone \"%s\" not recognized", z);
    return true;
}

static bool ty__ts_result(ty_ctx_t *c, int64_t v, ty_datum_t *o)
{
    if (!ty_ts_in_range(v))
        return ty_ts_err_range(c);
    o->v.i = v;
    return true;
}

/* timestamptz -> wall-clock timestamp in the zone */
static bool ty__tz_tstz(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    bool fixed;
    int off;
    const ty_tz_t *tz;
    if (!ty__zone(c, &a[0], &fixed, &off, &tz))
        return false;
    int64_t ts = a[1].v.i;
    if (ts == TY_DT_NOBEGIN || ts == TY_DT_NOEND) {
        o->v.i = ts;
        return true;
    }
    return ty__ts_result(c, fixed ? ts + off * TY_USECS_PER_SEC : ty_timestamptz_to_local(ts, tz), o);
}

/* wall-clock timestamp in the zone -> timestamptz */
static bool ty__tz_ts(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    bool fixed;
    int off;
    const ty_tz_t *tz;
    if (!ty__zone(c, &a[0], &fixed, &off, &tz))
        return false;
    int64_t ts = a[1].v.i;
    if (ts == TY_DT_NOBEGIN || ts == TY_DT_NOEND) {
        o->v.i = ts;
        return true;
    }
    return ty__ts_result(c, fixed ? ts - off * TY_USECS_PER_SEC : ty_timestamp_to_tz(ts, tz), o);
}

static bool ty__izone_check(ty_ctx_t *c, const ty_datum_t *z)
{
    if (z->v.iv.months == 0 && z->v.iv.days == 0)
        return true;
    cm_buf_t b;
    cm_buf_init(&b, 0);
    ty_interval_out(&z->v.iv, c->settings, &b);
    cm_err_set(c->err, CM_ERRCODE_INVALID_PARAMETER_VALUE, "interval time zone \"%.*s\" must not include months or days",
               (int)b.len, (const char *)b.data);
    cm_buf_free(&b);
    return false;
}

/* The interval is the offset east of UTC, counted in whole seconds. */
static bool ty__izone_tstz(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    if (!ty__izone_check(c, &a[0]))
        return false;
    int64_t ts = a[1].v.i;
    if (ts == TY_DT_NOBEGIN || ts == TY_DT_NOEND) {
        o->v.i = ts;
        return true;
    }
    return ty__ts_result(c, ts + a[0].v.iv.us / TY_USECS_PER_SEC * TY_USECS_PER_SEC, o);
}

static bool ty__izone_ts(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    if (!ty__izone_check(c, &a[0]))
        return false;
    int64_t ts = a[1].v.i;
    if (ts == TY_DT_NOBEGIN || ts == TY_DT_NOEND) {
        o->v.i = ts;
        return true;
    }
    return ty__ts_result(c, ts - a[0].v.iv.us / TY_USECS_PER_SEC * TY_USECS_PER_SEC, o);
}

#define MKIV(N, ...) {"make_interval", N, {__VA_ARGS__}, IV, S, ty__make_interval, 3918}

static const ty_func_t ty__datetime_more[] = {
    {"isfinite", 1, {TY_DATE}, TY_BOOL, S, ty__isfinite_date, 1373},
    {"isfinite", 1, {TS}, TY_BOOL, S, ty__isfinite_ts, 2048},
    {"isfinite", 1, {TZ}, TY_BOOL, S, ty__isfinite_ts, 1389},
    {"isfinite", 1, {IV}, TY_BOOL, S, ty__isfinite_iv, 1390},
    {"justify_days", 1, {IV}, IV, S, ty__justify_days, 1295},
    {"justify_hours", 1, {IV}, IV, S, ty__justify_hours, 1175},
    {"justify_interval", 1, {IV}, IV, S, ty__justify_interval, 2711},
    {"make_time", 3, {I4, I4, F8}, TY_TIME, S, ty__make_time, 3846},
    {"make_timestamp", 6, {I4, I4, I4, I4, I4, F8}, TS, S, ty__make_timestamp, 3461},
    {"make_timestamptz", 6, {I4, I4, I4, I4, I4, F8}, TZ, S, ty__make_timestamptz, 3462},
    {"make_timestamptz", 7, {I4, I4, I4, I4, I4, F8, T}, TZ, S, ty__make_timestamptz, 3463},
    MKIV(0, 0), MKIV(1, I4), MKIV(2, I4, I4), MKIV(3, I4, I4, I4), MKIV(4, I4, I4, I4, I4),
    MKIV(5, I4, I4, I4, I4, I4), MKIV(6, I4, I4, I4, I4, I4, I4), MKIV(7, I4, I4, I4, I4, I4, I4, F8),
    {"timezone", 2, {T, TZ}, TS, S, ty__tz_tstz, 1159},
    {"timezone", 2, {T, TS}, TZ, S, ty__tz_ts, 2069},
    {"timezone", 2, {IV, TZ}, TS, S, ty__izone_tstz, 1026},
    {"timezone", 2, {IV, TS}, TZ, S, ty__izone_ts, 2070},
};

const ty_func_table_t ty_funcs_datetime_more = {ty__datetime_more, CM_ARRAY_LEN(ty__datetime_more)};
