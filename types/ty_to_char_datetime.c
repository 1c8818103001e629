/*
 * ty_to_char_datetime.c: to_char(timestamp, text), to_char(timestamptz,
 * text) and to_char(interval, text) with PostgreSQL 15's template patterns
 * (HH24, YYYY, Month, IW, TZ, ...), the FM and TM prefixes, the TH/th
 * suffixes, "quoted" literals and backslash escapes.
 *
 * The template is rendered in one pass: a pattern is found by trying the
 * keyword table in order (longest spelling first, case-sensitive, as
 * PostgreSQL does), and anything that is not a pattern is copied. The
 * server runs in the C locale, so TM (translation mode) prints English names.
 */
#include "types/ty_to_char.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The broken-down value a template is rendered from. For intervals the
 * fields carry the interval's (possibly negative) parts and hour may be huge. */
typedef struct ty__dtm {
    int year, mon, mday, min, sec;
    int64_t hour;
    int32_t usec;
    int wday, yday;
    int gmtoff;
    const char *zone;     /* abbreviation for TZ, NULL when there is none */
    bool interval;
} ty__dtm_t;

/* Order matters: the first entry that prefixes the template wins, so
 * longer spellings come before their prefixes ("DDD" before "DD" before "D"). */
static const ty_dch_kw_t ty__dch_kws[] = {
    {"A.D.", DCH_A_D}, {"A.M.", DCH_A_M}, {"AD", DCH_AD}, {"AM", DCH_AM},
    {"B.C.", DCH_B_C}, {"BC", DCH_BC}, {"CC", DCH_CC},
    {"DAY", DCH_DAY}, {"DDD", DCH_DDD}, {"DD", DCH_DD}, {"DY", DCH_DY}, {"Day", DCH_Day}, {"Dy", DCH_Dy},
    {"D", DCH_D},
    {"FF1", DCH_FF1}, {"FF2", DCH_FF2}, {"FF3", DCH_FF3}, {"FF4", DCH_FF4}, {"FF5", DCH_FF5},
    {"FF6", DCH_FF6}, {"FX", DCH_FX},
    {"HH24", DCH_HH24}, {"HH12", DCH_HH12}, {"HH", DCH_HH},
    {"IDDD", DCH_IDDD}, {"ID", DCH_ID}, {"IW", DCH_IW}, {"IYYY", DCH_IYYY}, {"IYY", DCH_IYY},
    {"IY", DCH_IY}, {"I", DCH_I}, {"J", DCH_J},
    {"MI", DCH_MI}, {"MM", DCH_MM}, {"MONTH", DCH_MONTH}, {"MON", DCH_MON}, {"MS", DCH_MS},
    {"Month", DCH_Month}, {"Mon", DCH_Mon}, {"OF", DCH_OF},
    {"P.M.", DCH_P_M}, {"PM", DCH_PM}, {"Q", DCH_Q}, {"RM", DCH_RM},
    {"SSSSS", DCH_SSSS}, {"SSSS", DCH_SSSS}, {"SS", DCH_SS},
    {"TZH", DCH_TZH}, {"TZM", DCH_TZM}, {"TZ", DCH_TZ}, {"US", DCH_US}, {"WW", DCH_WW}, {"W", DCH_W},
    {"Y,YYY", DCH_Y_YYY}, {"YYYY", DCH_YYYY}, {"YYY", DCH_YYY}, {"YY", DCH_YY}, {"Y", DCH_Y},
    {"a.d.", DCH_a_d}, {"a.m.", DCH_a_m}, {"ad", DCH_ad}, {"am", DCH_am},
    {"b.c.", DCH_b_c}, {"bc", DCH_bc}, {"cc", DCH_CC},
    {"day", DCH_day}, {"ddd", DCH_DDD}, {"dd", DCH_DD}, {"dy", DCH_dy}, {"d", DCH_D},
    {"ff1", DCH_FF1}, {"ff2", DCH_FF2}, {"ff3", DCH_FF3}, {"ff4", DCH_FF4}, {"ff5", DCH_FF5},
    {"ff6", DCH_FF6}, {"fx", DCH_FX},
    {"hh24", DCH_HH24}, {"hh12", DCH_HH12}, {"hh", DCH_HH},
    {"iddd", DCH_IDDD}, {"id", DCH_ID}, {"iw", DCH_IW}, {"iyyy", DCH_IYYY}, {"iyy", DCH_IYY},
    {"iy", DCH_IY}, {"i", DCH_I}, {"j", DCH_J},
    {"mi", DCH_MI}, {"mm", DCH_MM}, {"month", DCH_month}, {"mon", DCH_mon}, {"ms", DCH_MS},
    {"of", DCH_OF}, {"p.m.", DCH_p_m}, {"pm", DCH_pm}, {"q", DCH_Q}, {"rm", DCH_rm},
    {"sssss", DCH_SSSS}, {"ssss", DCH_SSSS}, {"ss", DCH_SS},
    {"tzh", DCH_TZH}, {"tzm", DCH_TZM}, {"tz", DCH_tz}, {"us", DCH_US}, {"ww", DCH_WW}, {"w", DCH_W},
    {"y,yyy", DCH_Y_YYY}, {"yyyy", DCH_YYYY}, {"yyy", DCH_YYY}, {"yy", DCH_YY}, {"y", DCH_Y},
};

enum { TY__SFX_FM = 1, TY__SFX_TM = 2, TY__SFX_TH = 4, TY__SFX_th = 8 };

static const char *const ty__month_names[] = {"January", "February", "March", "April", "May", "June",
                                              "July", "August", "September", "October", "November",
                                              "December"};
static const char *const ty__day_names[] = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday",
                                            "Friday", "Saturday"};
/* December first: the index is counted back from the end of the year. */
static const char *const ty__rm_upper[] = {"XII", "XI", "X", "IX", "VIII", "VII", "VI", "V", "IV", "III",
                                           "II", "I"};
static const char *const ty__rm_lower[] = {"xii", "xi", "x", "ix", "viii", "vii", "vi", "v", "iv", "iii",
                                           "ii", "i"};

const ty_dch_kw_t *ty_dch_find(const char *p, size_t left)
{
    for (size_t i = 0; i < CM_ARRAY_LEN(ty__dch_kws); i++) {
        size_t n = strlen(ty__dch_kws[i].name);
        if (n <= left && memcmp(p, ty__dch_kws[i].name, n) == 0)
            return &ty__dch_kws[i];
    }
    return NULL;
}

const char *ty_to_char_ordinal(const char *num, bool upper)
{
    size_t len = strlen(num);
    char last = len ? num[len - 1] : '0';
    if (len > 1 && num[len - 2] == '1')
        last = '0';
    switch (last) {
    case '1': return upper ? "ST" : "st";
    case '2': return upper ? "ND" : "nd";
    case '3': return upper ? "RD" : "rd";
    default: return upper ? "TH" : "th";
    }
}

/* PostgreSQL's calendar arithmetic as it applies to intervals too: month 0
 * or negative fields must give the same (odd) Julian days as there, and
 * huge interval years overflow int there and wrap (it is built with
 * -fwrapv). Sums are taken in 64 bits and wrapped to 32 to match. */
static int ty__wrap(int64_t v)
{
    return (int)(int32_t)(uint32_t)(uint64_t)v;
}

static int ty__pg_date2j(int year, int mon, int mday)
{
    int64_t y = year, m = mon;
    if (m > 2) {
        m += 1;
        y += 4800;
    } else {
        m += 13;
        y += 4799;
    }
    int64_t cent = y / 100;
    return ty__wrap(y * 365 - 32167 + y / 4 - cent + cent / 4 + 7834 * m / 256 + mday);
}

static int ty__pg_j2day(int jd)
{
    int d = (int)(((int64_t)jd + 1) % 7);
    return d < 0 ? d + 7 : d;
}

/* The Julian day of Monday of ISO week 1 of `year`. */
static int ty__iso_week1(int year)
{
    int day4 = ty__pg_date2j(year, 1, 4);
    return ty__wrap((int64_t)day4 - ty__pg_j2day(ty__wrap((int64_t)day4 - 1)));
}

/* Whole weeks from `start` to `day`, truncated as C division does. */
static int ty__weeks(int day, int start)
{
    return ty__wrap((int64_t)day - start) / 7;
}

static int ty__iso_year(int year, int mon, int mday)
{
    int dayn = ty__pg_date2j(year, mon, mday);
    int start = ty__iso_week1(year);
    if (dayn < start) {
        year--;
        start = ty__iso_week1(year);
    }
    if (ty__weeks(dayn, start) + 1 >= 52 && dayn >= ty__iso_week1(year + 1))
        year++;
    return year;
}

static int ty__iso_week(int year, int mon, int mday)
{
    int dayn = ty__pg_date2j(year, mon, mday);
    int start = ty__iso_week1(year);
    if (dayn < start)
        start = ty__iso_week1(year - 1);
    int week = ty__weeks(dayn, start) + 1;
    if (week >= 52) {
        int next = ty__iso_week1(year + 1);
        if (dayn >= next)
            week = ty__weeks(dayn, next) + 1;
    }
    return week;
}

static int ty__iso_yday(int year, int mon, int mday)
{
    return ty__wrap((int64_t)ty__pg_date2j(year, mon, mday) - ty__iso_week1(ty__iso_year(year, mon, mday)) + 1);
}

/* Years print without sign for timestamps (BC is a separate pattern); an
 * interval's year count prints as it is. */
static int ty__adjust_year(int year, bool interval)
{
    return interval ? year : year <= 0 ? 1 - year : year;
}

static void ty__put_num(cm_buf_t *out, int width, long long v, unsigned sfx)
{
    char buf[48];
    snprintf(buf, sizeof(buf), "%0*lld", (sfx & TY__SFX_FM) ? 0 : width, v);
    cm_buf_put_str(out, buf);
    if (sfx & (TY__SFX_TH | TY__SFX_th))
        cm_buf_put_str(out, ty_to_char_ordinal(buf, (sfx & TY__SFX_TH) != 0));
}

/* Full month and day names: padded to 9 characters unless FM or TM. */
static void ty__put_name(cm_buf_t *out, const char *name, char casing, unsigned sfx, bool full)
{
    char buf[16];
    size_t n = strlen(name);
    if (!full)
        n = 3;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (casing == 'U' || (casing == 'I' && i == 0))
            c = (char)(c >= 'a' && c <= 'z' ? c - 32 : c);
        else
            c = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
        buf[i] = c;
    }
    buf[n] = 0;
    if (full && !(sfx & (TY__SFX_FM | TY__SFX_TM)))
        cm_buf_printf(out, "%-9s", buf);
    else
        cm_buf_put_str(out, buf);
}

static bool ty__interval_err(ty_ctx_t *ctx)
{
    cm_err_set(ctx->err, CM_ERRCODE_INVALID_DATETIME_FORMAT, "invalid format specification for an interval value");
    cm_err_set_hint(ctx->err, "Intervals are not tied to specific calendar dates.");
    return false;
}

static bool ty__dch_for_interval_ok(ty_dch_t id)
{
    switch (id) {
    case DCH_TZ: case DCH_tz: case DCH_TZH: case DCH_TZM: case DCH_OF:
    case DCH_A_D: case DCH_B_C: case DCH_AD: case DCH_BC: case DCH_a_d: case DCH_b_c: case DCH_ad: case DCH_bc:
    case DCH_MONTH: case DCH_Month: case DCH_month: case DCH_MON: case DCH_Mon: case DCH_mon:
    case DCH_DAY: case DCH_Day: case DCH_day: case DCH_DY: case DCH_Dy: case DCH_dy:
    case DCH_D: case DCH_ID:
        return false;
    default:
        return true;
    }
}

static void ty__put_rm(cm_buf_t *out, const ty__dtm_t *tm, bool upper, unsigned sfx)
{
    if (tm->mon == 0 && tm->year == 0)
        return;
    int idx;
    if (tm->mon == 0)
        idx = tm->year >= 0 ? 0 : 11;      /* whole years of an interval */
    else if (tm->mon < 0)
        idx = -(tm->mon + 1);              /* -1 is December */
    else
        idx = 12 - tm->mon;
    const char *s = (upper ? ty__rm_upper : ty__rm_lower)[idx];
    if (sfx & TY__SFX_FM)
        cm_buf_put_str(out, s);
    else
        cm_buf_printf(out, "%-4s", s);
}

static void ty__dch_one(cm_buf_t *out, ty_dch_t id, unsigned sfx, const ty__dtm_t *tm)
{
    bool pm = tm->hour % 24 >= 12;
    bool bc = tm->year <= 0;
    int year = ty__adjust_year(tm->year, tm->interval);
    int w2 = tm->hour >= 0 ? 2 : 3;
    switch (id) {
    case DCH_A_M: case DCH_P_M: cm_buf_put_str(out, pm ? "P.M." : "A.M."); break;
    case DCH_AM: case DCH_PM: cm_buf_put_str(out, pm ? "PM" : "AM"); break;
    case DCH_a_m: case DCH_p_m: cm_buf_put_str(out, pm ? "p.m." : "a.m."); break;
    case DCH_am: case DCH_pm: cm_buf_put_str(out, pm ? "pm" : "am"); break;
    case DCH_HH: case DCH_HH12:
        /* A 12-hour clock, intervals included. */
        ty__put_num(out, w2, tm->hour % 12 == 0 ? 12 : (long long)(tm->hour % 12), sfx);
        break;
    case DCH_HH24: ty__put_num(out, w2, (long long)tm->hour, sfx); break;
    case DCH_MI: ty__put_num(out, tm->min >= 0 ? 2 : 3, tm->min, sfx); break;
    case DCH_SS: ty__put_num(out, tm->sec >= 0 ? 2 : 3, tm->sec, sfx); break;
    /* Fractions ignore FM: PostgreSQL always prints their full width. */
    case DCH_FF1: ty__put_num(out, 1, tm->usec / 100000, sfx & ~TY__SFX_FM); break;
    case DCH_FF2: ty__put_num(out, 2, tm->usec / 10000, sfx & ~TY__SFX_FM); break;
    case DCH_FF3: case DCH_MS: ty__put_num(out, 3, tm->usec / 1000, sfx & ~TY__SFX_FM); break;
    case DCH_FF4: ty__put_num(out, 4, tm->usec / 100, sfx & ~TY__SFX_FM); break;
    case DCH_FF5: ty__put_num(out, 5, tm->usec / 10, sfx & ~TY__SFX_FM); break;
    case DCH_FF6: case DCH_US: ty__put_num(out, 6, tm->usec, sfx & ~TY__SFX_FM); break;
    case DCH_SSSS:
        ty__put_num(out, 0, (long long)(tm->hour * 3600 + tm->min * 60 + tm->sec), sfx);
        break;
    case DCH_tz:
    case DCH_TZ:
        if (tm->zone) {
            for (const char *z = tm->zone; *z; z++) {
                char c = *z;
                if (id == DCH_tz && c >= 'A' && c <= 'Z')
                    c = (char)(c + 32);
                cm_buf_put_u8(out, (uint8_t)c);
            }
        }
        break;
    case DCH_TZH: cm_buf_printf(out, "%c%02d", tm->gmtoff >= 0 ? '+' : '-', abs(tm->gmtoff) / 3600); break;
    case DCH_TZM: cm_buf_printf(out, "%02d", abs(tm->gmtoff) % 3600 / 60); break;
    case DCH_OF:
        cm_buf_printf(out, "%c%0*d", tm->gmtoff >= 0 ? '+' : '-', (sfx & TY__SFX_FM) ? 0 : 2,
                      abs(tm->gmtoff) / 3600);
        if (abs(tm->gmtoff) % 3600 != 0)
            cm_buf_printf(out, ":%02d", abs(tm->gmtoff) % 3600 / 60);
        break;
    case DCH_A_D: case DCH_B_C: cm_buf_put_str(out, bc ? "B.C." : "A.D."); break;
    case DCH_AD: case DCH_BC: cm_buf_put_str(out, bc ? "BC" : "AD"); break;
    case DCH_a_d: case DCH_b_c: cm_buf_put_str(out, bc ? "b.c." : "a.d."); break;
    case DCH_ad: case DCH_bc: cm_buf_put_str(out, bc ? "bc" : "ad"); break;
    case DCH_MONTH: case DCH_Month: case DCH_month:
    case DCH_MON: case DCH_Mon: case DCH_mon:
        if (tm->mon < 1 || tm->mon > 12)
            break;
        ty__put_name(out, ty__month_names[tm->mon - 1],
                     id == DCH_MONTH || id == DCH_MON ? 'U' : id == DCH_Month || id == DCH_Mon ? 'I' : 'L', sfx,
                     id == DCH_MONTH || id == DCH_Month || id == DCH_month);
        break;
    case DCH_DAY: case DCH_Day: case DCH_day:
    case DCH_DY: case DCH_Dy: case DCH_dy:
        ty__put_name(out, ty__day_names[tm->wday],
                     id == DCH_DAY || id == DCH_DY ? 'U' : id == DCH_Day || id == DCH_Dy ? 'I' : 'L', sfx,
                     id == DCH_DAY || id == DCH_Day || id == DCH_day);
        break;
    case DCH_MM: ty__put_num(out, tm->mon >= 0 ? 2 : 3, tm->mon, sfx); break;
    case DCH_DDD: ty__put_num(out, 3, tm->yday, sfx); break;
    case DCH_IDDD: ty__put_num(out, 3, ty__iso_yday(tm->year, tm->mon, tm->mday), sfx); break;
    case DCH_DD: ty__put_num(out, 2, tm->mday, sfx); break;
    case DCH_D: ty__put_num(out, 0, tm->wday + 1, sfx); break;
    case DCH_ID: ty__put_num(out, 0, tm->wday == 0 ? 7 : tm->wday, sfx); break;
    case DCH_WW: ty__put_num(out, 2, ty__wrap((int64_t)tm->yday - 1) / 7 + 1, sfx); break;
    case DCH_IW: ty__put_num(out, 2, ty__iso_week(tm->year, tm->mon, tm->mday), sfx); break;
    case DCH_Q:
        if (tm->mon != 0)
            ty__put_num(out, 0, (tm->mon - 1) / 3 + 1, sfx);
        break;
    case DCH_CC: {
        /* Century 20 is 1901-2000; century -6 is 600-501 BC. */
        int cc = tm->interval ? tm->year / 100 : tm->year > 0 ? (tm->year - 1) / 100 + 1 : tm->year / 100 - 1;
        ty__put_num(out, cc <= 99 && cc >= -99 ? (cc >= 0 ? 2 : 3) : 0, cc, sfx);
        break;
    }
    case DCH_Y_YYY: {
        char buf[48];
        int th = year / 1000;
        snprintf(buf, sizeof(buf), "%d,%03d", th, year - th * 1000);
        cm_buf_put_str(out, buf);
        if (sfx & (TY__SFX_TH | TY__SFX_th))
            cm_buf_put_str(out, ty_to_char_ordinal(buf, (sfx & TY__SFX_TH) != 0));
        break;
    }
    case DCH_YYYY: case DCH_IYYY:
    case DCH_YYY: case DCH_IYY:
    case DCH_YY: case DCH_IY:
    case DCH_Y: case DCH_I: {
        bool iso = id == DCH_IYYY || id == DCH_IYY || id == DCH_IY || id == DCH_I;
        int y = iso ? ty__adjust_year(ty__iso_year(tm->year, tm->mon, tm->mday), tm->interval) : year;
        /* The width's sign test looks at the calendar year, as PostgreSQL does. */
        int neg = year >= 0 ? 0 : 1;
        if (id == DCH_YYYY || id == DCH_IYYY)
            ty__put_num(out, 4 + neg, y, sfx);
        else if (id == DCH_YYY || id == DCH_IYY)
            ty__put_num(out, 3 + neg, y % 1000, sfx);
        else if (id == DCH_YY || id == DCH_IY)
            ty__put_num(out, 2 + neg, y % 100, sfx);
        else
            ty__put_num(out, 1, y % 10, sfx & ~TY__SFX_FM);
        break;
    }
    case DCH_RM: case DCH_rm: ty__put_rm(out, tm, id == DCH_RM, sfx); break;
    case DCH_W: ty__put_num(out, 0, ty__wrap((int64_t)tm->mday - 1) / 7 + 1, sfx); break;
    case DCH_J: ty__put_num(out, 0, ty__pg_date2j(tm->year, tm->mon, tm->mday), sfx); break;
    case DCH_FX:
        break;
    }
}

/* Renders a template; false (with ctx->err set) for a pattern that an
 * interval cannot show. */
static bool ty__dch_render(ty_ctx_t *ctx, const char *p, size_t len, const ty__dtm_t *tm, cm_buf_t *out)
{
    size_t i = 0;
    while (i < len) {
        unsigned sfx = 0;
        if (i + 1 < len && (memcmp(p + i, "FM", 2) == 0 || memcmp(p + i, "fm", 2) == 0)) {
            sfx |= TY__SFX_FM;
            i += 2;
        } else if (i + 1 < len && (memcmp(p + i, "TM", 2) == 0 || memcmp(p + i, "tm", 2) == 0)) {
            sfx |= TY__SFX_TM;
            i += 2;
        }
        const ty_dch_kw_t *kw = i < len ? ty_dch_find(p + i, len - i) : NULL;
        if (kw) {
            i += strlen(kw->name);
            /* One postfix: TH, th, or SP (spell mode, which PostgreSQL accepts and ignores). */
            if (i + 1 < len && memcmp(p + i, "TH", 2) == 0)
                sfx |= TY__SFX_TH, i += 2;
            else if (i + 1 < len && memcmp(p + i, "th", 2) == 0)
                sfx |= TY__SFX_th, i += 2;
            else if (i + 1 < len && memcmp(p + i, "SP", 2) == 0)
                i += 2;
            if (tm->interval && !ty__dch_for_interval_ok(kw->id))
                return ty__interval_err(ctx);
            ty__dch_one(out, kw->id, sfx, tm);
            continue;
        }
        if (i >= len)
            break;
        if (p[i] == '"') {
            /* A quoted literal; inside it a backslash takes the next byte as is. */
            for (i++; i < len; i++) {
                if (p[i] == '"') {
                    i++;
                    break;
                }
                if (p[i] == '\\' && i + 1 < len)
                    i++;
                cm_buf_put_u8(out, (uint8_t)p[i]);
            }
            continue;
        }
        /* Outside quotes a backslash only escapes a double quote. */
        if (p[i] == '\\' && i + 1 < len && p[i + 1] == '"')
            i++;
        cm_buf_put_u8(out, (uint8_t)p[i]);
        i++;
    }
    return true;
}

static bool ty__to_char_result(ty_ctx_t *ctx, const ty_datum_t *fmt, const ty__dtm_t *tm, ty_datum_t *o)
{
    cm_buf_t b;
    cm_buf_init(&b, 0);
    bool ok = ty__dch_render(ctx, fmt->v.s.p, fmt->v.s.len, tm, &b);
    if (ok)
        *o = ty_buf_datum(ctx->arena, &b);
    cm_buf_free(&b);
    return ok;
}

static void ty__dtm_from_tm(const ty_tm_t *t, ty__dtm_t *tm)
{
    memset(tm, 0, sizeof(*tm));
    tm->year = t->year;
    tm->mon = t->mon;
    tm->mday = t->mday;
    tm->hour = t->hour;
    tm->min = t->min;
    tm->sec = t->sec;
    tm->usec = t->usec;
    tm->wday = t->wday;
    tm->yday = t->yday;
    tm->gmtoff = t->gmtoff;
    tm->zone = t->zone;
}

/* An empty template or an infinite timestamp gives NULL, as in PostgreSQL. */
static bool ty__to_char_ts_any(ty_ctx_t *c, const ty_datum_t *a, ty_datum_t *o, bool with_tz)
{
    int64_t ts = a[0].v.i;
    if (a[1].v.s.len == 0 || ts == TY_DT_NOBEGIN || ts == TY_DT_NOEND) {
        o->isnull = true;
        return true;
    }
    ty_tm_t t;
    if (with_tz) {
        const ty_tz_t *tz = c->settings && c->settings->tz ? c->settings->tz : ty_tz_utc();
        ty_timestamptz_to_tm(ts, tz, &t);
    } else {
        ty_ts2tm(ts, &t);
    }
    ty__dtm_t tm;
    ty__dtm_from_tm(&t, &tm);
    if (!with_tz) {
        tm.gmtoff = 0;
        tm.zone = NULL;
    }
    return ty__to_char_result(c, &a[1], &tm, o);
}

static bool ty__to_char_ts(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    return ty__to_char_ts_any(c, a, o, false);
}

static bool ty__to_char_tstz(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    return ty__to_char_ts_any(c, a, o, true);
}

static bool ty__to_char_iv(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    if (a[1].v.s.len == 0) {
        o->isnull = true;
        return true;
    }
    const ty_interval_t *iv = &a[0].v.iv;
    ty__dtm_t tm;
    memset(&tm, 0, sizeof(tm));
    tm.interval = true;
    tm.year = iv->months / 12;
    tm.mon = iv->months % 12;
    tm.mday = iv->days;
    int64_t t = iv->us;
    tm.hour = t / TY_USECS_PER_HOUR;
    t -= tm.hour * TY_USECS_PER_HOUR;
    tm.min = (int)(t / TY_USECS_PER_MIN);
    t -= tm.min * TY_USECS_PER_MIN;
    tm.sec = (int)(t / TY_USECS_PER_SEC);
    tm.usec = (int32_t)(t - tm.sec * TY_USECS_PER_SEC);
    /* The day of the year approximates the whole span in 30-day months. */
    tm.yday = (int)(int32_t)(uint32_t)(((int64_t)tm.year * 12 + tm.mon) * 30 + tm.mday);
    return ty__to_char_result(c, &a[1], &tm, o);
}

static const ty_func_t ty__to_char_dt[] = {
    {"to_char", 2, {TY_TIMESTAMP, TY_TEXT}, TY_TEXT, TY_FN_STRICT, ty__to_char_ts, 2049},
    {"to_char", 2, {TY_TIMESTAMPTZ, TY_TEXT}, TY_TEXT, TY_FN_STRICT, ty__to_char_tstz, 1770},
    {"to_char", 2, {TY_INTERVAL, TY_TEXT}, TY_TEXT, TY_FN_STRICT, ty__to_char_iv, 1768},
};

const ty_func_table_t ty_funcs_to_char_datetime = {ty__to_char_dt, CM_ARRAY_LEN(ty__to_char_dt)};
