/*
 * ty_tz.c: time zones. Reads the system's TZif files (RFC 8536, version 1
 * to 4) under /usr/share/zoneinfo, parses POSIX TZ strings (both for the
 * TZif footer that governs times after the last transition and for names
 * such as "EST5EDT" or "UTC+3"), and accepts plain hour offsets.
 *
 * Zones are immutable once built and cached for the life of the process,
 * so any thread may use a ty_tz_t without locking; only the cache itself
 * is behind a mutex.
 */
#include "types/ty_internal.h"

#include <ctype.h>
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TY_TZDIR "/usr/share/zoneinfo"

/* One half of a POSIX rule: when DST starts or ends. */
typedef struct ty_tz_rule_date {
    char kind;     /* 'J' Julian day 1..365 without Feb 29, 'D' zero-based day, 'M' month.week.day */
    int day, week, mon;
    int secs;      /* local time of the change, seconds after midnight */
} ty_tz_rule_date_t;

typedef struct ty_tz_posix {
    bool valid;
    char std_name[16], dst_name[16];
    int std_off, dst_off;      /* seconds east of UTC */
    bool has_dst;
    ty_tz_rule_date_t start, end;
} ty_tz_posix_t;

typedef struct ty_tz_type {
    int32_t utoff;
    bool isdst;
    char abbr[16];
} ty_tz_type_t;

struct ty_tz {
    char *name;              /* as SHOW TimeZone prints it */
    char *key;               /* the spelling it was looked up by (cache key) */
    int ntrans;
    int64_t *trans;          /* UTC seconds since the Unix epoch */
    uint8_t *trans_type;
    int ntypes;
    ty_tz_type_t *types;
    ty_tz_posix_t posix;     /* after the last transition, or the whole zone */
    struct ty_tz *next;      /* cache chain */
};

static pthread_mutex_t ty__tz_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ty_tz *ty__tz_cache;
static struct ty_tz ty__tz_utc_zone = {
    .name = "UTC",
    .key = "UTC",
    .posix = {.valid = true, .std_name = "UTC"},
};

const ty_tz_t *ty_tz_utc(void)
{
    return &ty__tz_utc_zone;
}

const char *ty_tz_name(const ty_tz_t *tz)
{
    return tz->name;
}

/* ===== POSIX TZ strings ===== */

static const char *ty__posix_name(const char *p, char *out, size_t cap)
{
    size_t n = 0;
    if (*p == '<') {
        p++;
        while (*p && *p != '>') {
            if (n < cap - 1)
                out[n++] = *p;
            p++;
        }
        if (*p != '>')
            return NULL;
        p++;
    } else {
        while (isalpha((unsigned char)*p)) {
            if (n < cap - 1)
                out[n++] = *p;
            p++;
        }
        if (n < 3)
            return NULL;
    }
    out[n] = 0;
    return p;
}

/* [+-]hh[:mm[:ss]] -> seconds; POSIX offsets are west-positive, the caller negates. */
static const char *ty__posix_secs(const char *p, int *out, int max_hours)
{
    int sign = 1;
    if (*p == '+' || *p == '-') {
        sign = *p == '-' ? -1 : 1;
        p++;
    }
    if (!isdigit((unsigned char)*p))
        return NULL;
    int h = 0, m = 0, s = 0;
    while (isdigit((unsigned char)*p))
        h = h * 10 + (*p++ - '0');
    if (h > max_hours)
        return NULL;
    if (*p == ':') {
        p++;
        if (!isdigit((unsigned char)*p))
            return NULL;
        while (isdigit((unsigned char)*p))
            m = m * 10 + (*p++ - '0');
        if (*p == ':') {
            p++;
            if (!isdigit((unsigned char)*p))
                return NULL;
            while (isdigit((unsigned char)*p))
                s = s * 10 + (*p++ - '0');
        }
    }
    if (m > 59 || s > 59)
        return NULL;
    *out = sign * (h * 3600 + m * 60 + s);
    return p;
}

static const char *ty__posix_date(const char *p, ty_tz_rule_date_t *d)
{
    d->secs = 7200;
    if (*p == 'M') {
        d->kind = 'M';
        if (sscanf(p + 1, "%d.%d.%d", &d->mon, &d->week, &d->day) != 3)
            return NULL;
        p++;
        while (*p && (isdigit((unsigned char)*p) || *p == '.'))
            p++;
        if (d->mon < 1 || d->mon > 12 || d->week < 1 || d->week > 5 || d->day < 0 || d->day > 6)
            return NULL;
    } else if (*p == 'J' || isdigit((unsigned char)*p)) {
        d->kind = *p == 'J' ? 'J' : 'D';
        if (*p == 'J')
            p++;
        d->day = 0;
        while (isdigit((unsigned char)*p))
            d->day = d->day * 10 + (*p++ - '0');
    } else {
        return NULL;
    }
    if (*p == '/') {
        p = ty__posix_secs(p + 1, &d->secs, 167);
        if (p == NULL)
            return NULL;
    }
    return p;
}

static bool ty__posix_parse(const char *s, ty_tz_posix_t *pz)
{
    memset(pz, 0, sizeof(*pz));
    const char *p = ty__posix_name(s, pz->std_name, sizeof(pz->std_name));
    if (p == NULL)
        return false;
    int off;
    p = ty__posix_secs(p, &off, 24);
    if (p == NULL)
        return false;
    pz->std_off = -off;
    if (*p) {
        p = ty__posix_name(p, pz->dst_name, sizeof(pz->dst_name));
        if (p == NULL)
            return false;
        pz->has_dst = true;
        pz->dst_off = pz->std_off + 3600;
        if (*p && *p != ',') {
            p = ty__posix_secs(p, &off, 24);
            if (p == NULL)
                return false;
            pz->dst_off = -off;
        }
        if (*p == ',') {
            p = ty__posix_date(p + 1, &pz->start);
            if (p == NULL || *p != ',')
                return false;
            p = ty__posix_date(p + 1, &pz->end);
            if (p == NULL)
                return false;
        } else {
            /* No rule: the US rules PostgreSQL assumes ("M3.2.0,M11.1.0"). */
            pz->start = (ty_tz_rule_date_t){'M', 0, 2, 3, 7200};
            pz->end = (ty_tz_rule_date_t){'M', 0, 1, 11, 7200};
        }
        if (*p)
            return false;
    }
    pz->valid = true;
    return true;
}

/* Seconds since the Unix epoch of the start of local day for a rule in a year. */
static int64_t ty__rule_day(int year, const ty_tz_rule_date_t *d)
{
    int jd_jan1 = ty_date2j(year, 1, 1);
    int day;
    switch (d->kind) {
    case 'J':
        day = d->day - 1;
        if (ty_is_leap(year) && d->day >= 60)
            day++;
        break;
    case 'D': day = d->day; break;
    default: {
        int jd1 = ty_date2j(year, d->mon, 1);
        int wd = ty_j2day(jd1);
        int first = (d->day - wd + 7) % 7;   /* first such weekday, 0-based day of month */
        int mday = first + (d->week - 1) * 7;
        int dim = ty_days_in_month(year, d->mon);
        while (mday >= dim)
            mday -= 7;
        day = ty_date2j(year, d->mon, 1) - jd_jan1 + mday;
        break;
    }
    }
    return (int64_t)(jd_jan1 + day - TY_UNIX_EPOCH_JDATE) * 86400;
}

static int ty__posix_offset(const ty_tz_posix_t *pz, int64_t t, const char **abbr, bool *isdst)
{
    if (!pz->has_dst) {
        *abbr = pz->std_name;
        *isdst = false;
        return pz->std_off;
    }
    /* Year of t in standard time is close enough to pick the rule year. */
    int64_t local = t + pz->std_off;
    int64_t days = local >= 0 ? local / 86400 : -((-local + 86399) / 86400);
    int y, m, d;
    ty_j2date((int)(days + TY_UNIX_EPOCH_JDATE), &y, &m, &d);
    /* The start rule is in standard local time, the end rule in DST local time. */
    int64_t start = ty__rule_day(y, &pz->start) + pz->start.secs - pz->std_off;
    int64_t end = ty__rule_day(y, &pz->end) + pz->end.secs - pz->dst_off;
    bool dst = start < end ? (t >= start && t < end) : !(t >= end && t < start);
    *isdst = dst;
    *abbr = dst ? pz->dst_name : pz->std_name;
    return dst ? pz->dst_off : pz->std_off;
}

/* ===== TZif ===== */

static int64_t ty__rd(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v = v << 8 | p[i];
    if (n == 4)
        return (int32_t)(uint32_t)v;
    return (int64_t)v;
}

static struct ty_tz *ty__tzif_parse(const uint8_t *buf, size_t len)
{
    if (len < 44 || memcmp(buf, "TZif", 4) != 0)
        return NULL;
    int version = buf[4];
    const uint8_t *p = buf;
    int tsize = 4;
    for (int pass = 0; pass < 2; pass++) {
        if ((size_t)(p - buf) + 44 > len)
            return NULL;
        int64_t isutcnt = ty__rd(p + 20, 4), isstdcnt = ty__rd(p + 24, 4), leapcnt = ty__rd(p + 28, 4);
        int64_t timecnt = ty__rd(p + 32, 4), typecnt = ty__rd(p + 36, 4), charcnt = ty__rd(p + 40, 4);
        if (timecnt < 0 || typecnt <= 0 || typecnt > 256 || charcnt < 0 || leapcnt < 0 || isutcnt < 0 || isstdcnt < 0)
            return NULL;
        size_t body = (size_t)(timecnt * tsize + timecnt + typecnt * 6 + charcnt + leapcnt * (tsize + 4) + isstdcnt +
                               isutcnt);
        const uint8_t *b = p + 44;
        if ((size_t)(b - buf) + body > len)
            return NULL;
        if (pass == 0 && version >= '2') {
            /* Skip the 32-bit data and read the 64-bit block that follows. */
            p = b + body;
            tsize = 8;
            continue;
        }
        struct ty_tz *tz = cm_calloc(1, sizeof(*tz));
        tz->ntrans = (int)timecnt;
        tz->trans = cm_malloc(sizeof(int64_t) * (size_t)(timecnt + 1));
        tz->trans_type = cm_malloc((size_t)timecnt + 1);
        for (int64_t i = 0; i < timecnt; i++)
            tz->trans[i] = ty__rd(b + i * tsize, tsize);
        const uint8_t *ti = b + timecnt * tsize;
        for (int64_t i = 0; i < timecnt; i++) {
            tz->trans_type[i] = ti[i];
            if (ti[i] >= typecnt) {
                free(tz->trans);
                free(tz->trans_type);
                free(tz);
                return NULL;
            }
        }
        const uint8_t *tt = ti + timecnt;
        const char *chars = (const char *)(tt + typecnt * 6);
        tz->ntypes = (int)typecnt;
        tz->types = cm_calloc((size_t)typecnt, sizeof(ty_tz_type_t));
        for (int64_t i = 0; i < typecnt; i++) {
            tz->types[i].utoff = (int32_t)ty__rd(tt + i * 6, 4);
            tz->types[i].isdst = tt[i * 6 + 4] != 0;
            int ai = tt[i * 6 + 5];
            if (ai < charcnt)
                snprintf(tz->types[i].abbr, sizeof(tz->types[i].abbr), "%.*s", (int)(charcnt - ai), chars + ai);
        }
        if (tsize == 8) {
            /* Footer: "\n<POSIX TZ>\n". */
            const uint8_t *f = b + body;
            if ((size_t)(f - buf) < len && *f == '\n') {
                const uint8_t *e = memchr(f + 1, '\n', len - (size_t)(f + 1 - buf));
                if (e != NULL && e > f + 1) {
                    char s[128];
                    snprintf(s, sizeof(s), "%.*s", (int)(e - f - 1), (const char *)f + 1);
                    ty__posix_parse(s, &tz->posix);
                }
            }
        }
        return tz;
    }
    return NULL;
}

/* Finds path components case-insensitively, as PostgreSQL does, and returns
 * the name spelled as on disk. */
static bool ty__tz_find_file(const char *name, char *path, size_t cap, char *canon, size_t ccap)
{
    if (name[0] == 0 || name[0] == '/' || strstr(name, "..") != NULL || strlen(name) > 200)
        return false;
    snprintf(path, cap, "%s", TY_TZDIR);
    canon[0] = 0;
    const char *p = name;
    while (*p) {
        const char *slash = strchr(p, '/');
        size_t n = slash ? (size_t)(slash - p) : strlen(p);
        if (n == 0 || n > 100)
            return false;
        DIR *d = opendir(path);
        if (d == NULL)
            return false;
        struct dirent *de;
        bool found = false;
        while ((de = readdir(d)) != NULL) {
            if (strlen(de->d_name) == n && cm_strncasecmp(de->d_name, p, n) == 0) {
                /* n <= 100 and the name is at most 200 bytes, so both fit. */
                size_t pl = strlen(path), cl = strlen(canon);
                if (pl + n + 2 > cap || cl + n + 2 > ccap)
                    break;
                path[pl] = '/';
                memcpy(path + pl + 1, de->d_name, n + 1);
                if (cl)
                    canon[cl++] = '/';
                memcpy(canon + cl, de->d_name, n + 1);
                found = true;
                break;
            }
        }
        closedir(d);
        if (!found)
            return false;
        p += n;
        if (*p == '/')
            p++;
    }
    return true;
}

static struct ty_tz *ty__tz_load_file(const char *name)
{
    char path[512], canon[256];
    if (!ty__tz_find_file(name, path, sizeof(path), canon, sizeof(canon)))
        return NULL;
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    uint8_t *buf = cm_malloc(cap);
    size_t r;
    while ((r = fread(buf + len, 1, cap - len, f)) > 0) {
        len += r;
        if (len == cap) {
            if (cap >= (1u << 22))
                break;
            cap *= 2;
            buf = cm_realloc(buf, cap);
        }
    }
    fclose(f);
    struct ty_tz *tz = ty__tzif_parse(buf, len);
    free(buf);
    if (tz != NULL)
        tz->name = cm_strdup(canon);
    return tz;
}

/* A plain number of hours east: "5", "+3", "-5.5". */
static bool ty__tz_numeric(const char *name, int *secs)
{
    char *end;
    double h = strtod(name, &end);
    if (end == name || *end != 0 || h < -24 || h > 24 || h != h)
        return false;
    for (const char *c = name; *c; c++)
        if (!(isdigit((unsigned char)*c) || *c == '.' || *c == '+' || *c == '-' || *c == ' '))
            return false;
    *secs = (int)(h * 3600 + (h < 0 ? -0.5 : 0.5));
    return true;
}

static struct ty_tz *ty__tz_fixed(int secs, const char *name)
{
    struct ty_tz *tz = cm_calloc(1, sizeof(*tz));
    tz->posix.valid = true;
    tz->posix.std_off = secs;
    int a = secs < 0 ? -secs : secs;
    char abbr[16];
    if (a % 3600 == 0)
        snprintf(abbr, sizeof(abbr), "%c%02d", secs < 0 ? '-' : '+', a / 3600);
    else
        snprintf(abbr, sizeof(abbr), "%c%02d:%02d", secs < 0 ? '-' : '+', a / 3600, a / 60 % 60);
    snprintf(tz->posix.std_name, sizeof(tz->posix.std_name), "%s", abbr);
    if (name != NULL) {
        tz->name = cm_strdup(name);
    } else {
        /* PostgreSQL shows a numeric zone as a POSIX string: <+05>-05. */
        char buf[64];
        snprintf(buf, sizeof(buf), "<%s>%c%s", abbr, secs < 0 ? '+' : '-', abbr + 1);
        tz->name = cm_strdup(buf);
    }
    return tz;
}

const ty_tz_t *ty_tz_lookup(const char *name, cm_err_t *err)
{
    if (name == NULL)
        name = "";
    if (cm_strcasecmp(name, "UTC") == 0)
        return &ty__tz_utc_zone;
    pthread_mutex_lock(&ty__tz_lock);
    for (struct ty_tz *z = ty__tz_cache; z; z = z->next) {
        if (strcmp(z->key, name) == 0) {
            pthread_mutex_unlock(&ty__tz_lock);
            return z;
        }
    }
    struct ty_tz *tz = NULL;
    int secs;
    if (ty__tz_numeric(name, &secs)) {
        tz = ty__tz_fixed(secs, NULL);
    } else {
        tz = ty__tz_load_file(name);
        if (tz == NULL) {
            /* A POSIX string ("EST5EDT", "UTC+3") or a bare POSIX offset
             * ("-05:30"), both with POSIX's west-positive sign. */
            ty_tz_posix_t pz;
            bool ok = ty__posix_parse(name, &pz);
            if (!ok) {
                const char *e = ty__posix_secs(name, &secs, 24);
                if (e != NULL && *e == 0) {
                    memset(&pz, 0, sizeof(pz));
                    pz.valid = true;
                    pz.std_off = -secs;
                    snprintf(pz.std_name, sizeof(pz.std_name), "%s", name);
                    ok = true;
                }
            }
            if (ok) {
                tz = cm_calloc(1, sizeof(*tz));
                tz->posix = pz;
                tz->name = cm_strdup(name);
            }
        }
    }
    if (tz == NULL) {
        pthread_mutex_unlock(&ty__tz_lock);
        cm_err_set(err, CM_ERRCODE_INVALID_PARAMETER_VALUE, "invalid value for parameter \"TimeZone\": \"%s\"", name);
        return NULL;
    }
    tz->key = cm_strdup(name);
    tz->next = ty__tz_cache;
    ty__tz_cache = tz;
    pthread_mutex_unlock(&ty__tz_lock);
    return tz;
}

int ty_tz_offset_utc(const ty_tz_t *tz, int64_t t, const char **abbrev, bool *isdst)
{
    const char *ab;
    bool dst;
    int off;
    if (tz->ntrans == 0 || t >= tz->trans[tz->ntrans - 1]) {
        if (tz->posix.valid) {
            off = ty__posix_offset(&tz->posix, t, &ab, &dst);
        } else if (tz->ntypes > 0) {
            const ty_tz_type_t *ty = &tz->types[tz->ntrans ? tz->trans_type[tz->ntrans - 1] : 0];
            off = ty->utoff;
            ab = ty->abbr;
            dst = ty->isdst;
        } else {
            off = 0;
            ab = "UTC";
            dst = false;
        }
    } else if (t < tz->trans[0]) {
        off = tz->types[0].utoff;
        ab = tz->types[0].abbr;
        dst = tz->types[0].isdst;
    } else {
        int lo = 0, hi = tz->ntrans - 1;   /* trans[lo] <= t < trans[hi] */
        while (hi - lo > 1) {
            int mid = (lo + hi) / 2;
            if (tz->trans[mid] <= t)
                lo = mid;
            else
                hi = mid;
        }
        const ty_tz_type_t *ty = &tz->types[tz->trans_type[lo]];
        off = ty->utoff;
        ab = ty->abbr;
        dst = ty->isdst;
    }
    if (abbrev)
        *abbrev = ab;
    if (isdst)
        *isdst = dst;
    return off;
}

/*
 * PostgreSQL's DetermineTimeZoneOffset: a local time in a spring-forward gap
 * takes the offset from before the transition, one in a fall-back overlap
 * the offset from after it.
 */
int ty_tz_offset_local(const ty_tz_t *tz, int64_t local)
{
    int before = ty_tz_offset_utc(tz, local - 2 * 86400, NULL, NULL);
    int after = ty_tz_offset_utc(tz, local + 2 * 86400, NULL, NULL);
    if (before == after) {
        int o = ty_tz_offset_utc(tz, local - before, NULL, NULL);
        if (o == before)
            return o;
        /* Two transitions close together: settle on a consistent offset. */
        return ty_tz_offset_utc(tz, local - o, NULL, NULL);
    }
    /* Find the transition instant (UTC) between the two. */
    int64_t lo = local - 2 * 86400, hi = local + 2 * 86400;
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        if (ty_tz_offset_utc(tz, mid, NULL, NULL) == before)
            lo = mid;
        else
            hi = mid;
    }
    int64_t boundary = hi;
    before = ty_tz_offset_utc(tz, lo, NULL, NULL);
    after = ty_tz_offset_utc(tz, hi, NULL, NULL);
    int64_t beforetime = local - before, aftertime = local - after;
    if (beforetime < boundary && aftertime < boundary)
        return before;
    if (beforetime >= boundary && aftertime >= boundary)
        return after;
    return beforetime > aftertime ? before : after;
}

/* Common abbreviations from PostgreSQL's "Default" set. */
static const struct {
    const char *name;
    int off;
} ty__abbrevs[] = {
    {"utc", 0}, {"gmt", 0}, {"z", 0}, {"zulu", 0}, {"ut", 0}, {"wet", 0}, {"west", 3600},
    {"bst", 3600}, {"cet", 3600}, {"cest", 7200}, {"met", 3600}, {"mest", 7200}, {"eet", 7200},
    {"eest", 10800}, {"msk", 10800}, {"ist", 7200}, {"jst", 32400}, {"kst", 32400},
    {"hkt", 28800}, {"awst", 28800}, {"acst", 34200}, {"aest", 36000}, {"aedt", 39600},
    {"nzst", 43200}, {"nzdt", 46800}, {"est", -18000}, {"edt", -14400}, {"cst", -21600},
    {"cdt", -18000}, {"mst", -25200}, {"mdt", -21600}, {"pst", -28800}, {"pdt", -25200},
    {"akst", -32400}, {"akdt", -28800}, {"hst", -36000}, {"ast", -14400}, {"adt", -10800},
    {"nst", -12600}, {"ndt", -9000},
};

bool ty_tz_abbrev(const char *name, int *gmtoff)
{
    for (size_t i = 0; i < CM_ARRAY_LEN(ty__abbrevs); i++) {
        if (cm_strcasecmp(ty__abbrevs[i].name, name) == 0) {
            *gmtoff = ty__abbrevs[i].off;
            return true;
        }
    }
    return false;
}
