/*
 * ty_datetime_in.c: text input of date, time, timestamp, timestamptz and
 * interval. A smaller cousin of PostgreSQL's ParseDateTime/DecodeDateTime:
 * the input is split into fields (numbers, dates like 2020-01-02 or
 * 01/02/2020, times like 10:20:30.5, words, signed offsets) and the fields
 * are then interpreted. It covers ISO 8601, the DateStyle orders, month
 * names, BC, time zones (offsets, abbreviations, IANA names) and the
 * special words (epoch, infinity, now, today, tomorrow, yesterday,
 * allballs); interval input covers the postgres, verbose ("@ ... ago"),
 * SQL-standard and ISO 8601 forms.
 */
#include "types/ty_internal.h"

#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

enum { F_NUM, F_DATE, F_TIME, F_WORD, F_SIGNED, F_SIGNED_WORD };

typedef struct ty_field {
    int kind;
    char text[64];
} ty_field_t;

#define TY_MAX_FIELDS 24

static bool ty__in_set(char c, const char *set)
{
    return c != 0 && strchr(set, c) != NULL;
}

/* Splits lower-cased input into fields; false on characters that fit nothing. */
static bool ty__split(const char *s, ty_field_t *f, int *nf)
{
    int n = 0;
    size_t i = 0;
    while (s[i]) {
        char c = s[i];
        if (isspace((unsigned char)c) || c == ',') {
            i++;
            continue;
        }
        if (n >= TY_MAX_FIELDS)
            return false;
        size_t start = i;
        int kind;
        if (isdigit((unsigned char)c)) {
            while (isdigit((unsigned char)s[i]))
                i++;
            if (s[i] == ':') {
                kind = F_TIME;
                while (ty__in_set(s[i], "0123456789:."))
                    i++;
            } else if (s[i] == '-' || s[i] == '/') {
                kind = F_DATE;
                while (ty__in_set(s[i], "0123456789-/.abcdefghijklmnopqrstuvwxyz")) {
                    /* "2020-01-02t10:00": the t starts the time */
                    if (s[i] == 't' && isdigit((unsigned char)s[i + 1]) && i > start &&
                        isdigit((unsigned char)s[i - 1]))
                        break;
                    i++;
                }
            } else if (s[i] == '.') {
                size_t j = i + 1;
                while (isdigit((unsigned char)s[j]))
                    j++;
                if (s[j] == '.') {
                    kind = F_DATE;
                    while (ty__in_set(s[j], "0123456789."))
                        j++;
                } else {
                    kind = F_NUM;
                }
                i = j;
            } else {
                kind = F_NUM;
            }
        } else if (isalpha((unsigned char)c)) {
            while (isalpha((unsigned char)s[i]) || s[i] == '_' || s[i] == '/')
                i++;
            bool has_slash = memchr(s + start, '/', i - start) != NULL;
            if (has_slash)
                while (isalnum((unsigned char)s[i]) || ty__in_set(s[i], "/_+-"))
                    i++;
            kind = F_WORD;
            /* "jan-08-1999" is a date */
            if (!has_slash && (s[i] == '-' || s[i] == '/') && isalnum((unsigned char)s[i + 1])) {
                kind = F_DATE;
                while (ty__in_set(s[i], "0123456789-/.abcdefghijklmnopqrstuvwxyz"))
                    i++;
            }
            /* "t10:00" after a date: drop the t */
            if (i - start == 1 && c == 't' && isdigit((unsigned char)s[i]))
                continue;
        } else if (c == '+' || c == '-') {
            i++;
            if (isalpha((unsigned char)s[i])) {
                kind = F_SIGNED_WORD;
                while (isalpha((unsigned char)s[i]))
                    i++;
            } else if (isdigit((unsigned char)s[i]) || s[i] == '.') {
                kind = F_SIGNED;
                while (ty__in_set(s[i], "0123456789:."))
                    i++;
            } else {
                return false;
            }
        } else if (c == '@' || c == '(' || c == ')') {
            i++;
            continue;
        } else if (c == '.' && isdigit((unsigned char)s[i + 1])) {
            i++;
            while (isdigit((unsigned char)s[i]))
                i++;
            kind = F_NUM;
        } else {
            return false;
        }
        size_t len = i - start;
        if (len >= sizeof(f[n].text))
            return false;
        memcpy(f[n].text, s + start, len);
        f[n].text[len] = 0;
        f[n].kind = kind;
        n++;
    }
    *nf = n;
    return true;
}

static int ty__month(const char *w)
{
    static const char *full[] = {"january", "february", "march",     "april",   "may",      "june",
                                 "july",    "august",   "september", "october", "november", "december"};
    size_t n = strlen(w);
    if (n < 3)
        return 0;
    for (int m = 0; m < 12; m++)
        if (strncmp(full[m], w, n) == 0 && n <= strlen(full[m]))
            return m + 1;
    if (strcmp(w, "sept") == 0)
        return 9;
    return 0;
}

static bool ty__weekday(const char *w)
{
    static const char *full[] = {"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"};
    size_t n = strlen(w);
    if (n < 3)
        return false;
    for (int d = 0; d < 7; d++)
        if (strncmp(full[d], w, n) == 0)
            return true;
    return strcmp(w, "tues") == 0 || strcmp(w, "thur") == 0 || strcmp(w, "thurs") == 0;
}

/* Parses digits with an optional fraction: integer part and microseconds of fraction. */
static bool ty__parse_frac(const char *s, int64_t *ip, int64_t *frac_us, const char **end)
{
    if (!isdigit((unsigned char)*s) && *s != '.')
        return false;
    int64_t v = 0;
    while (isdigit((unsigned char)*s)) {
        if (v > INT64_MAX / 10 - 10)
            return false;
        v = v * 10 + (*s++ - '0');
    }
    double f = 0;
    if (*s == '.') {
        const char *fs = s;
        s++;
        while (isdigit((unsigned char)*s))
            s++;
        f = strtod(fs, NULL);
    }
    *ip = v;
    *frac_us = (int64_t)llrint(f * 1e6);
    *end = s;
    return true;
}

/* h:m[:s[.f]] into microseconds; hours may exceed 24 for intervals. */
static bool ty__parse_time(const char *s, bool interval, int64_t *us)
{
    int64_t h, m = 0, sec = 0, fr = 0, dummy;
    const char *e;
    if (!ty__parse_frac(s, &h, &dummy, &e) || *e != ':' || dummy != 0)
        return false;
    s = e + 1;
    if (!ty__parse_frac(s, &m, &fr, &e))
        return false;
    if (*e == ':') {
        if (fr != 0)
            return false;
        s = e + 1;
        if (!ty__parse_frac(s, &sec, &fr, &e))
            return false;
    } else if (fr != 0 && !interval) {
        return false;
    } else if (fr != 0) {
        /* "mm:ss.f" in an interval means minutes:seconds. */
        sec = m;
        m = h;
        h = 0;
    }
    if (*e != 0)
        return false;
    if (m > 59 || sec > 60 || (!interval && (h > 24)))
        return false;
    *us = ((h * 60 + m) * 60 + sec) * TY_USECS_PER_SEC + fr;
    return true;
}

/* Offsets "+05", "-0530", "+05:30", "+5:30:15": seconds east of UTC. */
static bool ty__parse_offset(const char *s, int *secs)
{
    int sign = s[0] == '-' ? -1 : 1;
    s++;
    int h = 0, m = 0, sec = 0;
    size_t nd = strspn(s, "0123456789");
    if (nd == 0)
        return false;
    if (s[nd] == ':') {
        h = atoi(s);
        s += nd + 1;
        m = atoi(s);
        nd = strspn(s, "0123456789");
        if (nd == 0)
            return false;
        s += nd;
        if (*s == ':') {
            sec = atoi(s + 1);
            s += 1 + strspn(s + 1, "0123456789");
        }
    } else if (nd <= 2) {
        h = atoi(s);
        s += nd;
    } else if (nd == 4) {
        h = (s[0] - '0') * 10 + (s[1] - '0');
        m = atoi(s + 2);
        s += nd;
    } else if (nd == 6) {
        h = (s[0] - '0') * 10 + (s[1] - '0');
        m = (s[2] - '0') * 10 + (s[3] - '0');
        sec = atoi(s + 4);
        s += nd;
    } else {
        return false;
    }
    if (*s != 0 || h > 15 || m > 59 || sec > 59)
        return false;
    *secs = sign * (h * 3600 + m * 60 + sec);
    return true;
}

typedef struct ty_dt_parse {
    int year, mon, mday;
    bool have_date, have_time, bc, have_tz, year2;
    int64_t time_us;
    int tz_off;
    const ty_tz_t *tz_zone;   /* a named zone whose offset depends on the date */
    int ampm;                 /* 0 none, 1 am, 2 pm */
    int special;              /* 0, or one of the words below */
    int nums[3];
    int num_digits[3];
    int nnums;
    int julian;
} ty_dt_parse_t;

enum { SP_NONE, SP_EPOCH, SP_INF, SP_NINF, SP_NOW, SP_TODAY, SP_TOMORROW, SP_YESTERDAY };

static int ty__fix_year(int y, int digits)
{
    if (digits <= 2)
        return y < 70 ? y + 2000 : y + 1900;
    return y;
}

/* A date field: parts split by - / . with numbers and maybe a month name. */
static bool ty__parse_date_field(const char *s, ty_dt_parse_t *p, ty_dateorder_t order)
{
    char buf[64];
    snprintf(buf, sizeof(buf), "%s", s);
    char *parts[4];
    int np = 0;
    char *save, *tok = strtok_r(buf, "-/.", &save);
    while (tok && np < 4) {
        parts[np++] = tok;
        tok = strtok_r(NULL, "-/.", &save);
    }
    if (np != 3 || tok != NULL)
        return false;
    int monpos = -1;
    for (int i = 0; i < 3; i++) {
        if (isalpha((unsigned char)parts[i][0])) {
            if (monpos >= 0 || (p->mon = ty__month(parts[i])) == 0)
                return false;
            monpos = i;
        } else if (strspn(parts[i], "0123456789") != strlen(parts[i])) {
            return false;
        }
    }
    int v[3], d[3];
    for (int i = 0; i < 3; i++) {
        v[i] = monpos == i ? 0 : atoi(parts[i]);
        d[i] = (int)strlen(parts[i]);
    }
    int y, m, dd, yd;
    if (monpos == 0) {
        m = p->mon, dd = v[1], y = v[2], yd = d[2];
    } else if (monpos == 1) {
        m = p->mon;
        if (d[0] >= 3 || order == TY_DATEORDER_YMD)
            y = v[0], yd = d[0], dd = v[2];
        else
            dd = v[0], y = v[2], yd = d[2];
    } else if (monpos == 2) {
        return false;
    } else if (d[0] >= 3) {
        y = v[0], yd = d[0], m = v[1], dd = v[2];
    } else if (order == TY_DATEORDER_DMY) {
        dd = v[0], m = v[1], y = v[2], yd = d[2];
    } else if (order == TY_DATEORDER_YMD) {
        y = v[0], yd = d[0], m = v[1], dd = v[2];
    } else {
        m = v[0], dd = v[1], y = v[2], yd = d[2];
    }
    p->year = ty__fix_year(y, yd);
    p->mon = m;
    p->mday = dd;
    p->have_date = true;
    return true;
}

/*
 * The default settings for a context without any. pgwire loops and dataflow
 * workers parse dates at once, so they are filled in exactly once under
 * pthread_once and only read afterwards.
 */
static ty_settings_t ty__default_settings;
static pthread_once_t ty__default_settings_once = PTHREAD_ONCE_INIT;

static void ty__default_settings_init(void)
{
    ty_settings_default(&ty__default_settings);
}

static const ty_settings_t *ty__st(ty_ctx_t *ctx)
{
    if (ctx->settings)
        return ctx->settings;
    pthread_once(&ty__default_settings_once, ty__default_settings_init);
    return &ty__default_settings;
}

/* 0 ok, 1 syntax error, 2 field out of range. */
static int ty__parse_dt(const char *in, size_t len, ty_ctx_t *ctx, ty_dt_parse_t *p)
{
    memset(p, 0, sizeof(*p));
    char s[256];
    if (len >= sizeof(s))
        return 1;
    for (size_t i = 0; i < len; i++)
        s[i] = (char)tolower((unsigned char)in[i]);
    s[len] = 0;
    ty_field_t f[TY_MAX_FIELDS];
    int nf;
    if (!ty__split(s, f, &nf) || nf == 0)
        return 1;
    const ty_settings_t *st = ty__st(ctx);
    for (int i = 0; i < nf; i++) {
        const char *t = f[i].text;
        switch (f[i].kind) {
        case F_DATE:
            if (p->have_date || !ty__parse_date_field(t, p, st->dateorder))
                return 1;
            break;
        case F_TIME:
            if (p->have_time || !ty__parse_time(t, false, &p->time_us))
                return 2;
            p->have_time = true;
            break;
        case F_NUM: {
            size_t nd = strspn(t, "0123456789");
            if (t[nd] == '.' && p->have_time)
                return 1;
            if (p->julian == 1) {
                p->julian = 2;
                int jy, jm, jd;
                ty_j2date(atoi(t), &jy, &jm, &jd);
                p->year = jy, p->mon = jm, p->mday = jd;
                p->have_date = true;
            } else if (!p->have_date && p->nnums == 0 && p->mon == 0 && (nd == 8 || nd == 6) && t[nd] == 0) {
                int v = atoi(t);
                if (nd == 8) {
                    p->year = v / 10000;
                } else {
                    p->year = ty__fix_year(v / 10000, 2);
                }
                p->mon = v / 100 % 100;
                p->mday = v % 100;
                p->have_date = true;
            } else if (p->have_date && !p->have_time && (nd == 6 || nd == 4) && t[nd] == 0 && i > 0) {
                int v = atoi(t);
                p->time_us = nd == 6 ? ((int64_t)(v / 10000) * 3600 + (v / 100 % 100) * 60 + v % 100) * TY_USECS_PER_SEC
                                     : ((int64_t)(v / 100) * 3600 + (v % 100) * 60) * TY_USECS_PER_SEC;
                p->have_time = true;
            } else {
                if (p->nnums >= 3 || t[nd] != 0)
                    return 1;
                p->nums[p->nnums] = atoi(t);
                p->num_digits[p->nnums] = (int)nd;
                p->nnums++;
            }
            break;
        }
        case F_SIGNED: {
            int off;
            if (!ty__parse_offset(t, &off))
                return 1;
            p->have_tz = true;
            p->tz_off = off;
            p->tz_zone = NULL;
            break;
        }
        case F_SIGNED_WORD:
            if (strcmp(t, "-infinity") == 0)
                p->special = SP_NINF;
            else if (strcmp(t, "+infinity") == 0)
                p->special = SP_INF;
            else
                return 1;
            break;
        case F_WORD: {
            int m, off;
            if ((m = ty__month(t)) != 0 && !p->have_date && p->mon == 0) {
                p->mon = m;
            } else if (ty__weekday(t) || strcmp(t, "at") == 0 || strcmp(t, "on") == 0) {
                /* ignored, as PostgreSQL does */
            } else if (strcmp(t, "am") == 0 || strcmp(t, "a.m.") == 0) {
                p->ampm = 1;
            } else if (strcmp(t, "pm") == 0) {
                p->ampm = 2;
            } else if (strcmp(t, "bc") == 0) {
                p->bc = true;
            } else if (strcmp(t, "ad") == 0) {
                p->bc = false;
            } else if (strcmp(t, "j") == 0 || strcmp(t, "julian") == 0) {
                p->julian = 1;
            } else if (strcmp(t, "epoch") == 0) {
                p->special = SP_EPOCH;
            } else if (strcmp(t, "infinity") == 0) {
                p->special = SP_INF;
            } else if (strcmp(t, "now") == 0) {
                p->special = SP_NOW;
            } else if (strcmp(t, "today") == 0) {
                p->special = SP_TODAY;
            } else if (strcmp(t, "tomorrow") == 0) {
                p->special = SP_TOMORROW;
            } else if (strcmp(t, "yesterday") == 0) {
                p->special = SP_YESTERDAY;
            } else if (strcmp(t, "allballs") == 0) {
                p->have_time = true;
                p->time_us = 0;
                p->have_tz = true;
                p->tz_off = 0;
            } else if (ty_tz_abbrev(t, &off)) {
                p->have_tz = true;
                p->tz_off = off;
                p->tz_zone = NULL;
                /* "UTC+3" style suffix on an abbreviation is not supported. */
            } else {
                cm_err_t e = {0};
                const ty_tz_t *z = ty_tz_lookup(f[i].text, &e);
                cm_err_clear(&e);
                if (z == NULL) {
                    /* Retry with the original capitalisation. */
                    return 1;
                }
                p->have_tz = true;
                p->tz_zone = z;
            }
            break;
        }
        default: return 1;
        }
    }
    /* Loose numbers: with a month name they are day and year; alone, three
     * of them follow the DateStyle order. */
    if (p->nnums > 0) {
        if (p->have_date)
            return 1;
        if (p->mon != 0) {
            if (p->nnums != 2)
                return 1;
            int a = 0, b = 1;
            if (p->num_digits[0] >= 3 || p->nums[0] > 31) {
                a = 1;
                b = 0;
            }
            p->mday = p->nums[a];
            p->year = ty__fix_year(p->nums[b], p->num_digits[b]);
        } else {
            return 1;
        }
        p->have_date = true;
    } else if (p->mon != 0 && !p->have_date) {
        return 1;
    }
    if (p->bc) {
        if (!p->have_date || p->year <= 0)
            return 2;
        p->year = 1 - p->year;
    }
    if (p->ampm) {
        int64_t h = p->time_us / TY_USECS_PER_HOUR;
        if (h > 12)
            return 2;
        if (p->ampm == 1 && h == 12)
            p->time_us -= 12 * TY_USECS_PER_HOUR;
        else if (p->ampm == 2 && h != 12)
            p->time_us += 12 * TY_USECS_PER_HOUR;
    }
    if (p->have_date && !ty_days_in_month_ok(p->year, p->mon, p->mday))
        return 2;
    if (p->have_time && p->time_us > TY_USECS_PER_DAY)
        return 2;
    return 0;
}

static bool ty__dt_error(ty_ctx_t *ctx, int rc, const char *type, const char *p, size_t len)
{
    if (rc == 2)
        return cm_err_set(ctx->err, CM_ERRCODE_DATETIME_FIELD_OVERFLOW, "date/time field value out of range: \"%.*s\"",
                          (int)len, p);
    return cm_err_set(ctx->err, CM_ERRCODE_INVALID_DATETIME_FORMAT, "invalid input syntax for type %s: \"%.*s\"", type,
                      (int)len, p);
}

static const ty_tz_t *ty__session_tz(ty_ctx_t *ctx)
{
    return ty__st(ctx)->tz ? ty__st(ctx)->tz : ty_tz_utc();
}

/* The current instant for 'now' and friends: the transaction start. */
static int64_t ty__now(ty_ctx_t *ctx)
{
    if (ctx->xact_ts != 0)
        return ctx->xact_ts;
    return cm_now_wall_us() - (int64_t)(TY_POSTGRES_EPOCH_JDATE - TY_UNIX_EPOCH_JDATE) * TY_USECS_PER_DAY;
}

bool ty_timestamp_in(const char *s, size_t len, bool with_tz, ty_ctx_t *ctx, int64_t *out)
{
    const char *type = with_tz ? "timestamp with time zone" : "timestamp";
    ty_dt_parse_t p;
    int rc = ty__parse_dt(s, len, ctx, &p);
    if (rc != 0)
        return ty__dt_error(ctx, rc, type, s, len);
    const ty_tz_t *stz = ty__session_tz(ctx);
    switch (p.special) {
    case SP_INF: *out = TY_DT_NOEND; return true;
    case SP_NINF: *out = TY_DT_NOBEGIN; return true;
    case SP_EPOCH: *out = -(int64_t)(TY_POSTGRES_EPOCH_JDATE - TY_UNIX_EPOCH_JDATE) * TY_USECS_PER_DAY; return true;
    case SP_NOW: *out = with_tz ? ty__now(ctx) : ty_timestamptz_to_local(ty__now(ctx), stz); return true;
    case SP_TODAY:
    case SP_TOMORROW:
    case SP_YESTERDAY: {
        int64_t d = ty_ts_to_date(ty__now(ctx), true, stz) + (p.special == SP_TOMORROW) - (p.special == SP_YESTERDAY);
        int64_t local = d * TY_USECS_PER_DAY;
        *out = with_tz ? ty_timestamp_to_tz(local, stz) : local;
        return true;
    }
    default: break;
    }
    if (!p.have_date)
        return ty__dt_error(ctx, 1, type, s, len);
    ty_tm_t tm = {.year = p.year, .mon = p.mon, .mday = p.mday};
    int64_t local;
    if (!ty_tm2ts(&tm, &local) || __builtin_add_overflow(local, p.time_us, &local) || !ty_ts_in_range(local))
        return cm_err_set(ctx->err, CM_ERRCODE_DATETIME_FIELD_OVERFLOW, "timestamp out of range: \"%.*s\"", (int)len, s);
    if (!with_tz) {
        *out = local;
        return true;
    }
    int64_t utc;
    if (p.have_tz && p.tz_zone == NULL)
        utc = local - p.tz_off * TY_USECS_PER_SEC;
    else
        utc = ty_timestamp_to_tz(local, p.have_tz ? p.tz_zone : stz);
    if (!ty_ts_in_range(utc))
        return cm_err_set(ctx->err, CM_ERRCODE_DATETIME_FIELD_OVERFLOW, "timestamp out of range: \"%.*s\"", (int)len, s);
    *out = utc;
    return true;
}

bool ty_date_in(const char *s, size_t len, ty_ctx_t *ctx, int64_t *out)
{
    ty_dt_parse_t p;
    int rc = ty__parse_dt(s, len, ctx, &p);
    if (rc != 0)
        return ty__dt_error(ctx, rc, "date", s, len);
    const ty_tz_t *stz = ty__session_tz(ctx);
    switch (p.special) {
    case SP_INF: *out = TY_DATE_NOEND; return true;
    case SP_NINF: *out = TY_DATE_NOBEGIN; return true;
    case SP_EPOCH: *out = TY_UNIX_EPOCH_JDATE - TY_POSTGRES_EPOCH_JDATE; return true;
    case SP_NOW:
    case SP_TODAY:
    case SP_TOMORROW:
    case SP_YESTERDAY:
        *out = ty_ts_to_date(ty__now(ctx), true, stz) + (p.special == SP_TOMORROW) - (p.special == SP_YESTERDAY);
        return true;
    default: break;
    }
    if (!p.have_date)
        return ty__dt_error(ctx, 1, "date", s, len);
    int64_t d = (int64_t)ty_date2j(p.year, p.mon, p.mday) - TY_POSTGRES_EPOCH_JDATE;
    if (!ty_date_in_range(d))
        return cm_err_set(ctx->err, CM_ERRCODE_DATETIME_FIELD_OVERFLOW, "date out of range: \"%.*s\"", (int)len, s);
    *out = d;
    return true;
}

bool ty_time_in(const char *s, size_t len, ty_ctx_t *ctx, int64_t *out)
{
    ty_dt_parse_t p;
    int rc = ty__parse_dt(s, len, ctx, &p);
    if (rc != 0)
        return ty__dt_error(ctx, rc, "time", s, len);
    if (p.special == SP_NOW) {
        int64_t local = ty_timestamptz_to_local(ty__now(ctx), ty__session_tz(ctx));
        int64_t t = local % TY_USECS_PER_DAY;
        *out = t < 0 ? t + TY_USECS_PER_DAY : t;
        return true;
    }
    if (!p.have_time || p.special != SP_NONE)
        return ty__dt_error(ctx, 1, "time", s, len);
    *out = p.time_us;
    return true;
}

/* ===== interval ===== */

typedef struct ty_iv_acc {
    double months, days, us;   /* accumulated; fractions cascade down */
} ty_iv_acc_t;

static bool ty__iv_unit(const char *u, double v, ty_iv_acc_t *a)
{
    static const struct {
        const char *name;
        char kind;   /* M months, D days, U microseconds */
        double mult;
    } units[] = {
        {"microsecond", 'U', 1},      {"microseconds", 'U', 1},    {"usec", 'U', 1},        {"usecs", 'U', 1},
        {"us", 'U', 1},               {"millisecond", 'U', 1e3},   {"milliseconds", 'U', 1e3}, {"msec", 'U', 1e3},
        {"msecs", 'U', 1e3},          {"ms", 'U', 1e3},            {"second", 'U', 1e6},    {"seconds", 'U', 1e6},
        {"sec", 'U', 1e6},            {"secs", 'U', 1e6},          {"s", 'U', 1e6},         {"minute", 'U', 6e7},
        {"minutes", 'U', 6e7},        {"min", 'U', 6e7},           {"mins", 'U', 6e7},      {"m", 'U', 6e7},
        {"hour", 'U', 3.6e9},         {"hours", 'U', 3.6e9},       {"hr", 'U', 3.6e9},      {"hrs", 'U', 3.6e9},
        {"h", 'U', 3.6e9},            {"day", 'D', 1},             {"days", 'D', 1},        {"d", 'D', 1},
        {"week", 'D', 7},             {"weeks", 'D', 7},           {"w", 'D', 7},           {"month", 'M', 1},
        {"months", 'M', 1},           {"mon", 'M', 1},             {"mons", 'M', 1},        {"year", 'M', 12},
        {"years", 'M', 12},           {"yr", 'M', 12},             {"yrs", 'M', 12},        {"y", 'M', 12},
        {"decade", 'M', 120},         {"decades", 'M', 120},       {"century", 'M', 1200},  {"centuries", 'M', 1200},
        {"millennium", 'M', 12000},   {"millennia", 'M', 12000},   {"millenniums", 'M', 12000},
    };
    for (size_t i = 0; i < CM_ARRAY_LEN(units); i++) {
        if (strcmp(units[i].name, u) != 0)
            continue;
        double x = v * units[i].mult;
        if (units[i].kind == 'U') {
            a->us += x;
        } else if (units[i].kind == 'D') {
            double whole = trunc(x);
            a->days += whole;
            a->us += (x - whole) * (double)TY_USECS_PER_DAY;
        } else {
            double whole = trunc(x);
            a->months += whole;
            double fdays = (x - whole) * 30;
            double wd = trunc(fdays);
            a->days += wd;
            a->us += (fdays - wd) * (double)TY_USECS_PER_DAY;
        }
        return true;
    }
    return false;
}

static bool ty__iv_iso(const char *s, ty_iv_acc_t *a)
{
    /* P[nY][nM][nW][nD][T[nH][nM][nS]] */
    bool in_time = false;
    s++;
    if (*s == 0)
        return false;
    while (*s) {
        if (*s == 't') {
            in_time = true;
            s++;
            continue;
        }
        char *end;
        double v = strtod(s, &end);
        if (end == s || *end == 0)
            return false;
        const char *u;
        switch (*end) {
        case 'y': u = "year"; break;
        case 'm': u = in_time ? "minute" : "month"; break;
        case 'w': u = "week"; break;
        case 'd': u = "day"; break;
        case 'h': u = "hour"; break;
        case 's': u = "second"; break;
        default: return false;
        }
        ty__iv_unit(u, v, a);
        s = end + 1;
    }
    return true;
}

/* The unit of a bare trailing number under a typmod's field range, as
 * PostgreSQL's DecodeInterval picks the rightmost field. */
static const char *ty__iv_range_unit(int range)
{
    switch (range) {
    case TY_IVM_YEAR: return "year";
    case TY_IVM_MONTH:
    case TY_IVM_YEAR | TY_IVM_MONTH: return "month";
    case TY_IVM_DAY: return "day";
    case TY_IVM_HOUR:
    case TY_IVM_DAY | TY_IVM_HOUR: return "hour";
    case TY_IVM_MINUTE:
    case TY_IVM_HOUR | TY_IVM_MINUTE:
    case TY_IVM_DAY | TY_IVM_HOUR | TY_IVM_MINUTE: return "minute";
    default: return "second";
    }
}

/* Under MINUTE TO SECOND a plain "a:b" is minutes and seconds, not hours
 * and minutes: parse it as "0:a:b". */
static bool ty__iv_time(const char *t, int range, int64_t *us)
{
    if (range == (TY_IVM_MINUTE | TY_IVM_SECOND) && strchr(t, '.') == NULL) {
        const char *c = strchr(t, ':');
        if (c != NULL && strchr(c + 1, ':') == NULL) {
            char buf[96];
            if (strlen(t) + 3 > sizeof(buf))
                return false;
            snprintf(buf, sizeof(buf), "0:%s", t);
            return ty__parse_time(buf, true, us);
        }
    }
    return ty__parse_time(t, true, us);
}

bool ty_interval_in(const char *in, size_t len, ty_ctx_t *ctx, ty_interval_t *out)
{
    return ty_interval_in_range(in, len, TY_IVM_FULL_RANGE, ctx, out);
}

bool ty_interval_in_range(const char *in, size_t len, int range, ty_ctx_t *ctx, ty_interval_t *out)
{
    char s[256];
    if (len >= sizeof(s))
        return ty__dt_error(ctx, 1, "interval", in, len);
    for (size_t i = 0; i < len; i++)
        s[i] = (char)tolower((unsigned char)in[i]);
    s[len] = 0;
    ty_iv_acc_t a = {0, 0, 0};
    char *q = s;
    while (isspace((unsigned char)*q))
        q++;
    if (*q == 'p') {
        char *e = q + strlen(q);
        while (e > q && isspace((unsigned char)e[-1]))
            *--e = 0;
        if (!ty__iv_iso(q, &a))
            return ty__dt_error(ctx, 1, "interval", in, len);
    } else {
        ty_field_t f[TY_MAX_FIELDS];
        int nf;
        if (!ty__split(s, f, &nf) || nf == 0)
            return ty__dt_error(ctx, 1, "interval", in, len);
        bool ago = false;
        for (int i = 0; i < nf; i++) {
            const char *t = f[i].text;
            switch (f[i].kind) {
            case F_NUM:
            case F_SIGNED: {
                bool neg = t[0] == '-';
                const char *num = (t[0] == '+' || t[0] == '-') ? t + 1 : t;
                if (strchr(num, ':') != NULL) {
                    int64_t us;
                    if (!ty__iv_time(num, range, &us))
                        return ty__dt_error(ctx, 2, "interval", in, len);
                    a.us += neg ? -(double)us : (double)us;
                    break;
                }
                char *end;
                double v = strtod(num, &end);
                if (*end != 0)
                    return ty__dt_error(ctx, 1, "interval", in, len);
                if (neg)
                    v = -v;
                if (i + 1 < nf && f[i + 1].kind == F_WORD && ty__iv_unit(f[i + 1].text, v, &a)) {
                    i++;
                } else if (i + 1 < nf && f[i + 1].kind == F_TIME) {
                    ty__iv_unit("day", v, &a);   /* "1 12:00:00": days then a time */
                } else if (i + 1 == nf) {
                    ty__iv_unit(ty__iv_range_unit(range), v, &a);
                } else if (i + 2 == nf && (f[i + 1].kind == F_NUM || f[i + 1].kind == F_SIGNED) &&
                           strchr(f[i + 1].text, ':') == NULL && strcmp(ty__iv_range_unit(range), "hour") == 0) {
                    ty__iv_unit("day", v, &a);   /* "1 2" DAY TO HOUR: a field of hours takes days before it */
                } else {
                    return ty__dt_error(ctx, 1, "interval", in, len);
                }
                break;
            }
            case F_TIME: {
                int64_t us;
                if (!ty__iv_time(t, range, &us))
                    return ty__dt_error(ctx, 2, "interval", in, len);
                a.us += (double)us;
                break;
            }
            case F_DATE: {
                /* SQL standard "years-months". */
                int y, m;
                char extra;
                if (sscanf(t, "%d-%d%c", &y, &m, &extra) != 2 || m > 11)
                    return ty__dt_error(ctx, 1, "interval", in, len);
                a.months += y * 12 + m;
                break;
            }
            case F_WORD:
                if (strcmp(t, "ago") == 0 && i == nf - 1)
                    ago = true;
                else
                    return ty__dt_error(ctx, 1, "interval", in, len);
                break;
            default: return ty__dt_error(ctx, 1, "interval", in, len);
            }
        }
        if (ago) {
            a.months = -a.months;
            a.days = -a.days;
            a.us = -a.us;
        }
    }
    if (fabs(a.months) > INT32_MAX || fabs(a.days) > INT32_MAX || fabs(a.us) > 9.2e18)
        return cm_err_set(ctx->err, CM_ERRCODE_DATETIME_FIELD_OVERFLOW, "interval field value out of range: \"%.*s\"",
                          (int)len, in);
    out->months = (int32_t)a.months;
    out->days = (int32_t)a.days;
    out->us = (int64_t)llrint(a.us);
    return true;
}
