/*
 * ty_to_timestamp.c: to_date(text, text) and to_timestamp(text, text), the
 * inverses of to_char, with PostgreSQL 15's reading of a template.
 *
 * Users feed these functions loosely formatted input and compare results
 * (and error messages) with PostgreSQL's, so this follows the structure of
 * PostgreSQL's DCH_from_char and do_to_timestamp closely: the template is
 * split into pattern, space, separator and character nodes; a walk over the
 * nodes reads fields into a set of "seen" values (0 meaning unset, as
 * there), skipping blanks and separators the lenient way PostgreSQL does
 * outside FX mode; then the values are combined (12-hour clock, century,
 * Julian day, ISO weeks, day of year) and range-checked. The patterns are
 * the ones to_char knows (ty_dch_find). The server runs in the C locale, so
 * TM reads English names.
 */
#include "types/ty_to_char.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TY__N_END, TY__N_ACTION, TY__N_CHAR, TY__N_SPACE, TY__N_SEPARATOR };
enum { TY__SFX_FM = 1, TY__SFX_TM = 2, TY__SFX_THth = 4 };
enum { TY__MODE_NONE, TY__MODE_GREGORIAN, TY__MODE_ISOWEEK };

typedef struct ty__fnode {
    int type;
    const ty_dch_kw_t *kw;     /* ACTION */
    unsigned sfx;
    const char *ch;            /* the other kinds: one (UTF-8) character */
    size_t chlen;
} ty__fnode_t;

/* The fields read from the input; 0 means "not given", as in PostgreSQL. */
typedef struct ty__tmfc {
    int mode, hh, pm, mi, ss, ssss, d, dd, ddd, mm, ms, year, bc, ww, w, cc, j, us, yysz, ff;
    bool clock12;
    int tzsign, tzh, tzm;
} ty__tmfc_t;

/* ---------------------------------------------------------- the template */

/* Whether a pattern reads digits: a number ahead of one is read at its
 * fixed width instead of as many digits as there are. */
static bool ty__is_digit(ty_dch_t id)
{
    switch (id) {
    case DCH_CC: case DCH_DDD: case DCH_DD: case DCH_D: case DCH_HH24: case DCH_HH12: case DCH_HH:
    case DCH_FF1: case DCH_FF2: case DCH_FF3: case DCH_FF4: case DCH_FF5: case DCH_FF6:
    case DCH_IDDD: case DCH_ID: case DCH_IW: case DCH_IYYY: case DCH_IYY: case DCH_IY: case DCH_I:
    case DCH_J: case DCH_MI: case DCH_MM: case DCH_MS: case DCH_Q: case DCH_SSSS: case DCH_SS:
    case DCH_TZM: case DCH_US: case DCH_WW: case DCH_W: case DCH_Y_YYY: case DCH_YYYY: case DCH_YYY:
    case DCH_YY: case DCH_Y:
        return true;
    default:
        return false;
    }
}

/* Which calendar a pattern belongs to: Gregorian and ISO week fields do not mix. */
static int ty__date_mode(ty_dch_t id)
{
    switch (id) {
    case DCH_DDD: case DCH_DD: case DCH_D: case DCH_MM: case DCH_MONTH: case DCH_MON: case DCH_Month:
    case DCH_Mon: case DCH_month: case DCH_mon: case DCH_RM: case DCH_rm: case DCH_WW: case DCH_W:
    case DCH_Y_YYY: case DCH_YYYY: case DCH_YYY: case DCH_YY: case DCH_Y:
        return TY__MODE_GREGORIAN;
    case DCH_IDDD: case DCH_ID: case DCH_IW: case DCH_IYYY: case DCH_IYY: case DCH_IY: case DCH_I:
        return TY__MODE_ISOWEEK;
    default:
        return TY__MODE_NONE;
    }
}

/* PostgreSQL's separators: printable ASCII that is neither a letter nor a digit. */
static bool ty__is_separator(const char *s)
{
    unsigned char c = (unsigned char)*s;
    return c > 0x20 && c < 0x7F && !isalnum(c);
}

/* Bytes of the character at s (which is NUL-terminated). */
static size_t ty__mblen(const char *s)
{
    unsigned char c = (unsigned char)*s;
    size_t n = c < 0xC0 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    for (size_t i = 1; i < n; i++)
        if (s[i] == '\0')
            return i;
    return n;
}

static ty__fnode_t *ty__parse_template(cm_arena_t *a, const char *p)
{
    size_t len = strlen(p);
    ty__fnode_t *nodes = cm_arena_zalloc(a, (len + 1) * sizeof(*nodes)), *n = nodes;
    while (*p) {
        unsigned sfx = 0;
        /* A prefix is taken even when no pattern follows it, as in PostgreSQL. */
        if (strncmp(p, "FM", 2) == 0 || strncmp(p, "fm", 2) == 0)
            sfx = TY__SFX_FM, p += 2;
        else if (strncmp(p, "TM", 2) == 0 || strncmp(p, "tm", 2) == 0)
            sfx = TY__SFX_TM, p += 2;
        const ty_dch_kw_t *kw = *p ? ty_dch_find(p, strlen(p)) : NULL;
        if (kw) {
            n->type = TY__N_ACTION;
            n->kw = kw;
            n->sfx = sfx;
            p += strlen(kw->name);
            if (strncmp(p, "TH", 2) == 0 || strncmp(p, "th", 2) == 0)
                n->sfx |= TY__SFX_THth, p += 2;
            else if (strncmp(p, "SP", 2) == 0)
                p += 2;
            n++;
            continue;
        }
        if (!*p)
            break;
        if (*p == '"') {
            /* Quoted text: characters to skip; a backslash takes the next one as is. */
            for (p++; *p;) {
                if (*p == '"') {
                    p++;
                    break;
                }
                if (*p == '\\' && p[1])
                    p++;
                n->type = TY__N_CHAR;
                n->ch = p;
                n->chlen = ty__mblen(p);
                p += n->chlen;
                n++;
            }
            continue;
        }
        /* Outside quotes a backslash only escapes a double quote. */
        if (*p == '\\' && p[1] == '"')
            p++;
        n->type = ty__is_separator(p) ? TY__N_SEPARATOR : isspace((unsigned char)*p) ? TY__N_SPACE : TY__N_CHAR;
        n->ch = p;
        n->chlen = ty__mblen(p);
        p += n->chlen;
        n++;
    }
    n->type = TY__N_END;
    return nodes;
}

/* True if the input after node n cannot continue with digits, so a number may be read greedily. */
static bool ty__next_is_separator(const ty__fnode_t *n)
{
    if (n->type == TY__N_END)
        return false;
    if (n->type == TY__N_ACTION && (n->sfx & TY__SFX_THth))
        return true;
    n++;
    if (n->type == TY__N_END)
        return true;
    if (n->type == TY__N_ACTION)
        return !ty__is_digit(n->kw->id);
    return !(n->chlen == 1 && isdigit((unsigned char)n->ch[0]));
}

/* ------------------------------------------------------ reading fields */

typedef struct ty__reader {
    ty_ctx_t *ctx;
    const char *s;
    ty__tmfc_t *out;
} ty__reader_t;

static bool ty__fmt_error(ty_ctx_t *ctx, const char *detail, bool hint_fm, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static bool ty__fmt_error(ty_ctx_t *ctx, const char *detail, bool hint_fm, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    cm_err_set(ctx->err, CM_ERRCODE_INVALID_DATETIME_FORMAT, "%s", msg);
    if (detail)
        cm_err_set_detail(ctx->err, "%s", detail);
    if (hint_fm)
        cm_err_set_hint(ctx->err, "If your source string is not fixed-width, try using the \"FM\" modifier.");
    return false;
}

static bool ty__set_int(ty__reader_t *r, int *dest, int value, const ty__fnode_t *n)
{
    if (*dest != 0 && *dest != value)
        return ty__fmt_error(r->ctx, "This value contradicts a previous setting for the same field type.", false,
                             "conflicting values for \"%s\" field in formatting string", n->kw->name);
    *dest = value;
    return true;
}

/*
 * Reads an integer of `width` characters, or as many digits as there are
 * when the pattern has FM or is followed by a non-digit; *used gets the
 * characters consumed, spaces included. dest NULL: read and drop (Q).
 */
static bool ty__parse_int_len(ty__reader_t *r, int *dest, int width, const ty__fnode_t *n, int *used_out)
{
    const char *init = r->s;
    while (*r->s && isspace((unsigned char)*r->s))
        r->s++;
    char copy[32];
    size_t avail = strlen(r->s);
    int used = (int)(avail < (size_t)width ? avail : (size_t)width);
    memcpy(copy, r->s, (size_t)used);
    copy[used] = '\0';
    long result;
    errno = 0;
    if ((n->sfx & TY__SFX_FM) || ty__next_is_separator(n)) {
        char *end;
        result = strtol(init, &end, 10);
        r->s = end;
    } else {
        if (used < width) {
            char detail[96];
            snprintf(detail, sizeof(detail), "Field requires %d characters, but only %d remain.", width, used);
            return ty__fmt_error(r->ctx, detail, true, "source string too short for \"%s\" formatting field",
                                 n->kw->name);
        }
        char *last;
        result = strtol(copy, &last, 10);
        used = (int)(last - copy);
        if (used > 0 && used < width) {
            char detail[96];
            snprintf(detail, sizeof(detail), "Field requires %d characters, but only %d could be parsed.", width,
                     used);
            return ty__fmt_error(r->ctx, detail, true, "invalid value \"%s\" for \"%s\"", copy, n->kw->name);
        }
        r->s += used;
    }
    if (r->s == init)
        return ty__fmt_error(r->ctx, "Value must be an integer.", false, "invalid value \"%s\" for \"%s\"", copy,
                             n->kw->name);
    if (errno == ERANGE || result < INT_MIN || result > INT_MAX) {
        cm_err_set(r->ctx->err, CM_ERRCODE_DATETIME_FIELD_OVERFLOW, "value for \"%s\" in source string is out of range",
                   n->kw->name);
        cm_err_set_detail(r->ctx->err, "Value must be in the range %d to %d.", INT_MIN, INT_MAX);
        return false;
    }
    if (dest && !ty__set_int(r, dest, (int)result, n))
        return false;
    if (used_out)
        *used_out = (int)(r->s - init);
    return true;
}

static bool ty__parse_int(ty__reader_t *r, int *dest, const ty__fnode_t *n, int *used)
{
    return ty__parse_int_len(r, dest, (int)strlen(n->kw->name), n, used);
}

/* The index of the word the input starts with, ignoring ASCII case (first match wins). */
static bool ty__seq_search(ty__reader_t *r, const char *const *words, const ty__fnode_t *n, int *index)
{
    const char *s = r->s;
    for (int i = 0; words[i]; i++) {
        size_t k = 0;
        while (words[i][k] && s[k] && tolower((unsigned char)words[i][k]) == tolower((unsigned char)s[k]))
            k++;
        if (words[i][k] == '\0') {
            r->s += k;
            *index = i;
            return true;
        }
    }
    /* The message quotes the input up to its next blank. */
    size_t k = 0;
    while (s[k] && !(s[k] == ' ' || s[k] == '\t' || s[k] == '\n' || s[k] == '\r' || s[k] == '\f'))
        k++;
    return ty__fmt_error(r->ctx, "The given value did not match any of the allowed values for this field.", false,
                         "invalid value \"%.*s\" for \"%s\"", (int)k, s, n->kw->name);
}

static const char *const ty__months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
                                         "Nov", "Dec", NULL};
static const char *const ty__months_full[] = {"January", "February", "March", "April", "May", "June", "July",
                                              "August", "September", "October", "November", "December", NULL};
static const char *const ty__days[] = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
                                       "Saturday", NULL};
static const char *const ty__days_short[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", NULL};
/* Even indexes are the first word (am, ad), odd the second (pm, bc). */
static const char *const ty__ampm[] = {"am", "pm", "AM", "PM", NULL};
static const char *const ty__ampm_long[] = {"a.m.", "p.m.", "A.M.", "P.M.", NULL};
static const char *const ty__adbc[] = {"ad", "bc", "AD", "BC", NULL};
static const char *const ty__adbc_long[] = {"a.d.", "b.c.", "A.D.", "B.C.", NULL};
static const char *const ty__rm[] = {"xii", "xi", "x", "ix", "viii", "vii", "vi", "v", "iv", "iii", "ii", "i", NULL};

/* Two-digit (or three) years: 0-69 are 20xx, 70-99 19xx, 100-519 2xxx, 520-999 1xxx. */
static int ty__year_to_2020(int year)
{
    if (year < 70)
        return year + 2000;
    if (year < 100)
        return year + 1900;
    if (year < 520)
        return year + 2000;
    if (year < 1000)
        return year + 1000;
    return year;
}

static void ty__skip_th(ty__reader_t *r, const ty__fnode_t *n)
{
    if (!(n->sfx & TY__SFX_THth))
        return;
    for (int k = 0; k < 2 && *r->s; k++)
        r->s += ty__mblen(r->s);
}

/* One pattern node: reads its field from the input. */
static bool ty__read_field(ty__reader_t *r, const ty__fnode_t *n, bool *fx_mode, int extra_skip, const char *in)
{
    ty__tmfc_t *o = r->out;
    int mode = ty__date_mode(n->kw->id), value, len;
    if (mode != TY__MODE_NONE) {
        if (o->mode == TY__MODE_NONE) {
            o->mode = mode;
        } else if (o->mode != mode) {
            cm_err_set(r->ctx->err, CM_ERRCODE_INVALID_DATETIME_FORMAT, "invalid combination of date conventions");
            cm_err_set_hint(r->ctx->err,
                            "Do not mix Gregorian and ISO week date conventions in a formatting template.");
            return false;
        }
    }
    switch (n->kw->id) {
    case DCH_FX: *fx_mode = true; return true;
    case DCH_A_M: case DCH_P_M: case DCH_a_m: case DCH_p_m:
        if (!ty__seq_search(r, ty__ampm_long, n, &value) || !ty__set_int(r, &o->pm, value % 2, n))
            return false;
        o->clock12 = true;
        return true;
    case DCH_AM: case DCH_PM: case DCH_am: case DCH_pm:
        if (!ty__seq_search(r, ty__ampm, n, &value) || !ty__set_int(r, &o->pm, value % 2, n))
            return false;
        o->clock12 = true;
        return true;
    case DCH_HH: case DCH_HH12:
        if (!ty__parse_int_len(r, &o->hh, 2, n, NULL))
            return false;
        o->clock12 = true;
        break;
    case DCH_HH24:
        if (!ty__parse_int_len(r, &o->hh, 2, n, NULL))
            return false;
        break;
    case DCH_MI: if (!ty__parse_int(r, &o->mi, n, NULL)) return false; break;
    case DCH_SS: if (!ty__parse_int(r, &o->ss, n, NULL)) return false; break;
    case DCH_MS:
        if (!ty__parse_int_len(r, &o->ms, 3, n, &len))
            return false;
        /* 25 is 0.25 s as 250 is; 025 is 0.025 s. */
        o->ms *= len == 1 ? 100 : len == 2 ? 10 : 1;
        break;
    case DCH_FF1: case DCH_FF2: case DCH_FF3: case DCH_FF4: case DCH_FF5: case DCH_FF6:
    case DCH_US: {
        int width = 6;
        if (n->kw->id != DCH_US)
            o->ff = width = (int)(n->kw->id - DCH_FF1) + 1;
        if (!ty__parse_int_len(r, &o->us, width, n, &len))
            return false;
        static const int scale[] = {1, 100000, 10000, 1000, 100, 10};
        o->us *= len >= 1 && len <= 5 ? scale[len] : 1;
        break;
    }
    case DCH_SSSS: if (!ty__parse_int(r, &o->ssss, n, NULL)) return false; break;
    case DCH_tz: case DCH_TZ: case DCH_OF:
        return cm_err_set(r->ctx->err, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                          "formatting field \"%s\" is only supported in to_char", n->kw->name);
    case DCH_TZH:
        /* A minus skipped as a separator just before is the offset's sign. */
        if (*r->s == '+' || *r->s == '-' || *r->s == ' ') {
            o->tzsign = *r->s == '-' ? -1 : 1;
            r->s++;
        } else {
            o->tzsign = extra_skip > 0 && r->s > in && r->s[-1] == '-' ? -1 : 1;
        }
        return ty__parse_int_len(r, &o->tzh, 2, n, NULL);
    case DCH_TZM:
        if (!o->tzsign)
            o->tzsign = 1;
        return ty__parse_int_len(r, &o->tzm, 2, n, NULL);
    case DCH_A_D: case DCH_B_C: case DCH_a_d: case DCH_b_c:
        return ty__seq_search(r, ty__adbc_long, n, &value) && ty__set_int(r, &o->bc, value % 2, n);
    case DCH_AD: case DCH_BC: case DCH_ad: case DCH_bc:
        return ty__seq_search(r, ty__adbc, n, &value) && ty__set_int(r, &o->bc, value % 2, n);
    case DCH_MONTH: case DCH_Month: case DCH_month:
        return ty__seq_search(r, ty__months_full, n, &value) && ty__set_int(r, &o->mm, value + 1, n);
    case DCH_MON: case DCH_Mon: case DCH_mon:
        return ty__seq_search(r, ty__months, n, &value) && ty__set_int(r, &o->mm, value + 1, n);
    case DCH_MM: if (!ty__parse_int(r, &o->mm, n, NULL)) return false; break;
    case DCH_DAY: case DCH_Day: case DCH_day:
        if (!ty__seq_search(r, ty__days, n, &value) || !ty__set_int(r, &o->d, value, n))
            return false;
        o->d++;
        return true;
    case DCH_DY: case DCH_Dy: case DCH_dy:
        if (!ty__seq_search(r, ty__days_short, n, &value) || !ty__set_int(r, &o->d, value, n))
            return false;
        o->d++;
        return true;
    case DCH_DDD: if (!ty__parse_int(r, &o->ddd, n, NULL)) return false; break;
    case DCH_IDDD: if (!ty__parse_int_len(r, &o->ddd, 3, n, NULL)) return false; break;
    case DCH_DD: if (!ty__parse_int(r, &o->dd, n, NULL)) return false; break;
    case DCH_D: if (!ty__parse_int(r, &o->d, n, NULL)) return false; break;
    case DCH_ID:
        if (!ty__parse_int_len(r, &o->d, 1, n, NULL))
            return false;
        /* ISO numbers Monday 1 .. Sunday 7; the Gregorian D field has Sunday 1. */
        if (++o->d > 7)
            o->d = 1;
        break;
    case DCH_WW: case DCH_IW: if (!ty__parse_int(r, &o->ww, n, NULL)) return false; break;
    case DCH_Q:
        /* Read and ignored: which day of the quarter would it be? */
        if (!ty__parse_int(r, NULL, n, NULL))
            return false;
        break;
    case DCH_CC: if (!ty__parse_int(r, &o->cc, n, NULL)) return false; break;
    case DCH_Y_YYY: {
        int millennia, years, nch;
        if (sscanf(r->s, "%d,%03d%n", &millennia, &years, &nch) < 2)
            return ty__fmt_error(r->ctx, NULL, false, "invalid input string for \"Y,YYY\"");
        if (!ty__set_int(r, &o->year, years + millennia * 1000, n))
            return false;
        o->yysz = 4;
        r->s += nch;
        break;
    }
    case DCH_YYYY: case DCH_IYYY:
        if (!ty__parse_int(r, &o->year, n, NULL))
            return false;
        o->yysz = 4;
        break;
    case DCH_YYY: case DCH_IYY: case DCH_YY: case DCH_IY: case DCH_Y: case DCH_I:
        if (!ty__parse_int(r, &o->year, n, &len))
            return false;
        if (len < 4)
            o->year = ty__year_to_2020(o->year);
        o->yysz = (int)strlen(n->kw->name);
        break;
    case DCH_RM: case DCH_rm:
        return ty__seq_search(r, ty__rm, n, &value) && ty__set_int(r, &o->mm, 12 - value, n);
    case DCH_W: if (!ty__parse_int(r, &o->w, n, NULL)) return false; break;
    case DCH_J: if (!ty__parse_int(r, &o->j, n, NULL)) return false; break;
    }
    ty__skip_th(r, n);
    return true;
}

/* PostgreSQL's DCH_from_char outside standard (jsonpath) mode. */
static bool ty__from_char(ty_ctx_t *ctx, const ty__fnode_t *nodes, const char *in, ty__tmfc_t *out)
{
    ty__reader_t r = {ctx, in, out};
    bool fx_mode = false;
    int extra_skip = 0;   /* blanks skipped beyond what the template asked for */
    for (const ty__fnode_t *n = nodes; n->type != TY__N_END && *r.s; n++) {
        if (!fx_mode && (n->type != TY__N_ACTION || n->kw->id != DCH_FX) && (n->type == TY__N_ACTION || n == nodes)) {
            while (*r.s && isspace((unsigned char)*r.s)) {
                r.s++;
                extra_skip++;
            }
        }
        if (n->type == TY__N_SPACE || n->type == TY__N_SEPARATOR) {
            if (!fx_mode) {
                /* One blank or separator of the template matches one of the input, or none. */
                extra_skip--;
                if (isspace((unsigned char)*r.s) || ty__is_separator(r.s)) {
                    r.s++;
                    extra_skip++;
                }
            } else {
                r.s += ty__mblen(r.s);
            }
            continue;
        }
        if (n->type != TY__N_ACTION) {
            /* Other text skips one input character, matching or not, unless
             * blanks skipped before already stood for it. */
            if (!fx_mode && extra_skip > 0)
                extra_skip--;
            else
                r.s += ty__mblen(r.s);
            continue;
        }
        if (!ty__read_field(&r, n, &fx_mode, extra_skip, in))
            return false;
        if (!fx_mode) {
            extra_skip = 0;
            while (*r.s && isspace((unsigned char)*r.s)) {
                r.s++;
                extra_skip++;
            }
        }
    }
    return true;
}

/* ------------------------------------------------ combining the fields */

typedef struct ty__parsed {
    int year, mon, mday, hour, min, sec;
    int64_t fsec;
    int fprec;
    bool has_tz;
    int tz_east;        /* seconds east of UTC when has_tz */
} ty__parsed_t;

static int ty__isoweek2j(int year, int week)
{
    int day4 = ty_date2j(year, 1, 4);
    int day0 = ty_j2day(day4 - 1);
    return (week - 1) * 7 + (day4 - day0);
}

static bool ty__field_overflow(ty_ctx_t *ctx, const char *in)
{
    return cm_err_set(ctx->err, CM_ERRCODE_DATETIME_FIELD_OVERFLOW, "date/time field value out of range: \"%s\"", in);
}

/* PostgreSQL's do_to_timestamp. */
static bool ty__do_to_timestamp(ty_ctx_t *ctx, const ty_datum_t *text, const ty_datum_t *fmt, ty__parsed_t *tm,
                                const char **in_out)
{
    const char *in = ty_datum_cstr(ctx->arena, text);
    *in_out = in;
    ty__tmfc_t f;
    memset(&f, 0, sizeof(f));
    memset(tm, 0, sizeof(*tm));
    tm->mon = tm->mday = 1;
    if (fmt->v.s.len > 0) {
        const ty__fnode_t *nodes = ty__parse_template(ctx->arena, ty_datum_cstr(ctx->arena, fmt));
        if (!ty__from_char(ctx, nodes, in, &f))
            return false;
    }
    enum { M_YEAR = 1, M_MONTH = 2, M_DAY = 4 };
    int fmask = 0;
    if (f.ssss) {
        tm->hour = f.ssss / 3600;
        tm->min = f.ssss % 3600 / 60;
        tm->sec = f.ssss % 60;
    }
    if (f.ss)
        tm->sec = f.ss;
    if (f.mi)
        tm->min = f.mi;
    if (f.hh)
        tm->hour = f.hh;
    if (f.clock12) {
        if (tm->hour < 1 || tm->hour > 12) {
            cm_err_set(ctx->err, CM_ERRCODE_INVALID_DATETIME_FORMAT, "hour \"%d\" is invalid for the 12-hour clock",
                       tm->hour);
            cm_err_set_hint(ctx->err, "Use the 24-hour clock, or give an hour between 1 and 12.");
            return false;
        }
        if (f.pm && tm->hour < 12)
            tm->hour += 12;
        else if (!f.pm && tm->hour == 12)
            tm->hour = 0;
    }
    if (f.year) {
        /* CC with YY: the two digits within that century (the 21st is 2001-2100). */
        if (f.cc && f.yysz <= 2) {
            if (f.bc)
                f.cc = -f.cc;
            tm->year = f.year % 100;
            if (tm->year)
                tm->year = f.cc >= 0 ? tm->year + (f.cc - 1) * 100 : (f.cc + 1) * 100 - tm->year + 1;
            else
                tm->year = f.cc * 100 + (f.cc >= 0 ? 0 : 1);
        } else {
            tm->year = f.bc ? -f.year : f.year;
            if (tm->year < 0)
                tm->year++;   /* 1 BC is year 0 */
        }
        fmask |= M_YEAR;
    } else if (f.cc) {
        if (f.bc)
            f.cc = -f.cc;
        tm->year = f.cc >= 0 ? (f.cc - 1) * 100 + 1 : f.cc * 100 + 1;
        fmask |= M_YEAR;
    }
    if (f.j) {
        ty_j2date(f.j, &tm->year, &tm->mon, &tm->mday);
        fmask |= M_YEAR | M_MONTH | M_DAY;
    }
    if (f.ww) {
        if (f.mode == TY__MODE_ISOWEEK) {
            /* Without a day of the week the date is the week's Monday. */
            int jd = ty__isoweek2j(tm->year, f.ww);
            if (f.d)
                jd += f.d > 1 ? f.d - 2 : 6;
            ty_j2date(jd, &tm->year, &tm->mon, &tm->mday);
            fmask |= M_YEAR | M_MONTH | M_DAY;
        } else {
            f.ddd = (f.ww - 1) * 7 + 1;
        }
    }
    if (f.w)
        f.dd = (f.w - 1) * 7 + 1;
    if (f.dd) {
        tm->mday = f.dd;
        fmask |= M_DAY;
    }
    if (f.mm) {
        tm->mon = f.mm;
        fmask |= M_MONTH;
    }
    if (f.ddd && (tm->mon <= 1 || tm->mday <= 1)) {
        if (!tm->year && !f.bc)
            return cm_err_set(ctx->err, CM_ERRCODE_INVALID_DATETIME_FORMAT,
                              "cannot calculate day of year without year information");
        if (f.mode == TY__MODE_ISOWEEK) {
            int j0 = ty__isoweek2j(tm->year, 1) - 1;
            ty_j2date(j0 + f.ddd, &tm->year, &tm->mon, &tm->mday);
            fmask |= M_YEAR | M_MONTH | M_DAY;
        } else {
            static const int ysum[2][13] = {{0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365},
                                            {0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335, 366}};
            const int *y = ysum[ty_is_leap(tm->year) ? 1 : 0];
            int i;
            for (i = 1; i <= 12; i++)
                if (f.ddd <= y[i])
                    break;
            if (tm->mon <= 1)
                tm->mon = i;
            if (tm->mday <= 1)
                tm->mday = f.ddd - y[i - 1];
            fmask |= M_MONTH | M_DAY;
        }
    }
    if (f.ms)
        tm->fsec += (int64_t)f.ms * 1000;
    if (f.us)
        tm->fsec += f.us;
    tm->fprec = f.ff;
    /* ValidateDate with the year taken as given. */
    if (((fmask & M_MONTH) && (tm->mon < 1 || tm->mon > 12)) || ((fmask & M_DAY) && (tm->mday < 1 || tm->mday > 31)) ||
        ((fmask & (M_YEAR | M_MONTH | M_DAY)) == (M_YEAR | M_MONTH | M_DAY) &&
         tm->mday > ty_days_in_month(tm->year, tm->mon)))
        return ty__field_overflow(ctx, in);
    if (tm->hour < 0 || tm->hour >= 24 || tm->min < 0 || tm->min >= 60 || tm->sec < 0 || tm->sec >= 60 ||
        tm->fsec < 0 || tm->fsec >= TY_USECS_PER_SEC)
        return ty__field_overflow(ctx, in);
    if (f.tzsign) {
        if (f.tzh < 0 || f.tzh > 15 || f.tzm < 0 || f.tzm >= 60)
            return cm_err_set(ctx->err, CM_ERRCODE_INVALID_TIME_ZONE_DISPLACEMENT_VALUE,
                              "time zone displacement out of range: \"%s\"", in);
        tm->has_tz = true;
        tm->tz_east = f.tzsign * (f.tzh * 3600 + f.tzm * 60);
    }
    return true;
}

/* PostgreSQL's IS_VALID_JULIAN: from 4714-11-24 BC to before 5874898-06-01. */
static bool ty__valid_julian(int y, int m)
{
    return (y > -4713 || (y == -4713 && m >= 11)) && (y < 5874898 || (y == 5874898 && m < 6));
}

static bool ty__to_date(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    ty__parsed_t tm;
    const char *in;
    if (!ty__do_to_timestamp(c, &a[0], &a[1], &tm, &in))
        return false;
    int64_t d = 0;
    if (ty__valid_julian(tm.year, tm.mon))
        d = (int64_t)ty_date2j(tm.year, tm.mon, tm.mday) - TY_POSTGRES_EPOCH_JDATE;
    if (!ty__valid_julian(tm.year, tm.mon) || !ty_date_in_range(d))
        return cm_err_set(c->err, CM_ERRCODE_DATETIME_FIELD_OVERFLOW, "date out of range: \"%s\"", in);
    o->v.i = d;
    return true;
}

static bool ty__to_timestamp(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    ty__parsed_t tm;
    const char *in;
    if (!ty__do_to_timestamp(c, &a[0], &a[1], &tm, &in))
        return false;
    int64_t local;
    bool ok = ty__valid_julian(tm.year, tm.mon);
    if (ok) {
        int64_t days = (int64_t)ty_date2j(tm.year, tm.mon, tm.mday) - TY_POSTGRES_EPOCH_JDATE;
        int64_t t = ((int64_t)tm.hour * 3600 + tm.min * 60 + tm.sec) * TY_USECS_PER_SEC + tm.fsec;
        ok = !__builtin_mul_overflow(days, TY_USECS_PER_DAY, &local) && !__builtin_add_overflow(local, t, &local);
    }
    int64_t ts = 0;
    if (ok) {
        if (tm.has_tz) {
            ok = !__builtin_sub_overflow(local, (int64_t)tm.tz_east * TY_USECS_PER_SEC, &ts);
        } else {
            const ty_tz_t *tz = c->settings && c->settings->tz ? c->settings->tz : ty_tz_utc();
            ts = ty_timestamp_to_tz(local, tz);
        }
    }
    if (!ok || !ty_ts_in_range(ts))
        return cm_err_set(c->err, CM_ERRCODE_DATETIME_FIELD_OVERFLOW, "timestamp out of range");
    /* FF1..FF6 round the result to that many digits. */
    if (tm.fprec && !ty_timestamp_round(c, &ts, tm.fprec))
        return false;
    o->v.i = ts;
    return true;
}

static const ty_func_t ty__to_timestamp_funcs[] = {
    {"to_date", 2, {TY_TEXT, TY_TEXT}, TY_DATE, TY_FN_STRICT, ty__to_date, 1780},
    {"to_timestamp", 2, {TY_TEXT, TY_TEXT}, TY_TIMESTAMPTZ, TY_FN_STRICT, ty__to_timestamp, 1778},
};

const ty_func_table_t ty_funcs_to_timestamp = {ty__to_timestamp_funcs, CM_ARRAY_LEN(ty__to_timestamp_funcs)};
