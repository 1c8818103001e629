/*
 * ty_internal.h: declarations shared by the files of the types module only.
 *
 * Other modules include types/types.h; this header exposes the numeric
 * representation, the big-integer helpers, date/time breakdowns and the
 * function registry's pieces that the module's files share.
 */
#ifndef EDDY_TY_INTERNAL_H
#define EDDY_TY_INTERNAL_H

#include "types/types.h"

/* ===== big unsigned integers (ty_bignum.c) ===== */

#define TY_BN_BASE 1000000000u

typedef struct ty_bn {
    uint32_t *d;   /* limbs, least significant first; no leading zero limbs */
    int n;         /* number of limbs; 0 is zero */
} ty_bn_t;

ty_bn_t ty_bn_from_u64(cm_arena_t *a, uint64_t v);
bool ty_bn_to_u64(ty_bn_t a, uint64_t *out);
int ty_bn_cmp(ty_bn_t a, ty_bn_t b);
ty_bn_t ty_bn_add(cm_arena_t *ar, ty_bn_t a, ty_bn_t b);
ty_bn_t ty_bn_sub(cm_arena_t *ar, ty_bn_t a, ty_bn_t b);
ty_bn_t ty_bn_mul(cm_arena_t *ar, ty_bn_t a, ty_bn_t b);
/* The _ck forms look at ctx (may be NULL) for interrupts every few milliseconds of work;
 * interrupted, the result is not the answer and ctx->err says why. */
ty_bn_t ty_bn_mul_ck(cm_arena_t *ar, ty_bn_t a, ty_bn_t b, ty_ctx_t *ctx);
ty_bn_t ty_bn_mul_small(cm_arena_t *ar, ty_bn_t a, uint32_t m, uint32_t add);
uint32_t ty_bn_divmod_small(cm_arena_t *ar, ty_bn_t a, uint32_t m, ty_bn_t *q);
ty_bn_t ty_bn_mul_pow10(cm_arena_t *ar, ty_bn_t a, int k);
ty_bn_t ty_bn_div_pow10(cm_arena_t *ar, ty_bn_t a, int k, int mode, bool *inexact);
void ty_bn_divmod(cm_arena_t *ar, ty_bn_t a, ty_bn_t b, ty_bn_t *q, ty_bn_t *r);
void ty_bn_divmod_ck(cm_arena_t *ar, ty_bn_t a, ty_bn_t b, ty_bn_t *q, ty_bn_t *r, ty_ctx_t *ctx);
int ty_bn_dec_digits(ty_bn_t a);
char *ty_bn_to_dec(cm_arena_t *ar, ty_bn_t a, int *len);
ty_bn_t ty_bn_from_dec(cm_arena_t *ar, const char *s, int len);
/* ctx (may be NULL) is checked for interrupts between Newton steps; interrupted, the result is
 * not the root and ctx->err says why. */
ty_bn_t ty_bn_isqrt(cm_arena_t *ar, ty_bn_t a, ty_ctx_t *ctx);

/* ===== numeric (ty_numeric*.c) ===== */

enum { TY_NUM_FINITE = 0, TY_NUM_NAN, TY_NUM_PINF, TY_NUM_NINF };

/* value = (neg ? -1 : 1) * mag * 10^-dscale; immutable once built. */
struct ty_numeric {
    uint8_t kind;       /* TY_NUM_* */
    bool neg;           /* never set for zero */
    int32_t dscale;     /* display scale: digits after the decimal point */
    ty_bn_t mag;
};

#define TY_NUMERIC_MAX_DISPLAY_SCALE 1000
#define TY_NUMERIC_MIN_SIG_DIGITS 16

ty_numeric_t *ty_num_make(cm_arena_t *a, bool neg, ty_bn_t mag, int dscale);
ty_numeric_t *ty_num_special(cm_arena_t *a, int kind);
ty_numeric_t *ty_num_from_int64(cm_arena_t *a, int64_t v);
bool ty_num_from_double(cm_arena_t *a, double d, bool is_float4, ty_numeric_t **out);
double ty_num_to_double(const ty_numeric_t *n, cm_arena_t *a);
bool ty_num_is_zero(const ty_numeric_t *n);
int ty_num_cmp(const ty_numeric_t *a, const ty_numeric_t *b);
void ty_num_to_text(const ty_numeric_t *n, cm_arena_t *a, cm_buf_t *out);
ty_numeric_t *ty_num_round(cm_arena_t *a, const ty_numeric_t *n, int scale);
ty_numeric_t *ty_num_trunc(cm_arena_t *a, const ty_numeric_t *n, int scale);
bool ty_num_apply_typmod(ty_ctx_t *ctx, const ty_numeric_t *n, int32_t typmod, ty_numeric_t **out);
/* Arithmetic; errors (division by zero, overflow) go to ctx->err. */
bool ty_num_add(ty_ctx_t *ctx, const ty_numeric_t *a, const ty_numeric_t *b, ty_numeric_t **out);
bool ty_num_sub(ty_ctx_t *ctx, const ty_numeric_t *a, const ty_numeric_t *b, ty_numeric_t **out);
bool ty_num_mul(ty_ctx_t *ctx, const ty_numeric_t *a, const ty_numeric_t *b, ty_numeric_t **out);
bool ty_num_div(ty_ctx_t *ctx, const ty_numeric_t *a, const ty_numeric_t *b, ty_numeric_t **out);
/* a / b rounded to rscale; both finite, b nonzero. */
ty_numeric_t *ty_num_div_rscale(cm_arena_t *ar, const ty_numeric_t *a, const ty_numeric_t *b, int rscale);
/* The same, looking at ctx for interrupts during a long division (then the result is not
 * the quotient and ctx->err says why). */
ty_numeric_t *ty_num_div_rscale_ck(ty_ctx_t *ctx, const ty_numeric_t *a, const ty_numeric_t *b, int rscale);
bool ty_num_div_trunc(ty_ctx_t *ctx, const ty_numeric_t *a, const ty_numeric_t *b, ty_numeric_t **out);
bool ty_num_mod(ty_ctx_t *ctx, const ty_numeric_t *a, const ty_numeric_t *b, ty_numeric_t **out);
ty_numeric_t *ty_num_neg(cm_arena_t *a, const ty_numeric_t *n);
ty_numeric_t *ty_num_abs(cm_arena_t *a, const ty_numeric_t *n);
ty_numeric_t *ty_num_ceil(cm_arena_t *a, const ty_numeric_t *n);
ty_numeric_t *ty_num_floor(cm_arena_t *a, const ty_numeric_t *n);
ty_numeric_t *ty_num_sign(cm_arena_t *a, const ty_numeric_t *n);
bool ty_num_sqrt(ty_ctx_t *ctx, const ty_numeric_t *n, ty_numeric_t **out);
bool ty_num_power(ty_ctx_t *ctx, const ty_numeric_t *b, const ty_numeric_t *e, ty_numeric_t **out);
bool ty_num_exp(ty_ctx_t *ctx, const ty_numeric_t *n, ty_numeric_t **out);
bool ty_num_ln(ty_ctx_t *ctx, const ty_numeric_t *n, ty_numeric_t **out);
bool ty_num_log10(ty_ctx_t *ctx, const ty_numeric_t *n, ty_numeric_t **out);
bool ty_num_log(ty_ctx_t *ctx, const ty_numeric_t *base, const ty_numeric_t *n, ty_numeric_t **out);
/* PostgreSQL's base-10000 weight and the number of base-10000 digits. */
void ty_num_pg_layout(const ty_numeric_t *n, cm_arena_t *a, int *weight, int *ndigits, int16_t **digits);
bool ty_num_recv(ty_ctx_t *ctx, const uint8_t *p, size_t len, ty_numeric_t **out);
void ty_num_send(const ty_numeric_t *n, cm_arena_t *a, cm_buf_t *out);
uint64_t ty_num_hash(const ty_numeric_t *n);

/* ===== integers and floats (ty_int.c, ty_float.c) ===== */

bool ty_int_parse(const char *p, size_t len, ty_oid_t type, ty_ctx_t *ctx, int64_t *out);
bool ty_int_range_check(ty_ctx_t *ctx, ty_oid_t type, int64_t v);
const char *ty_int_range_msg(ty_oid_t type);
bool ty_float_parse(const char *p, size_t len, ty_oid_t type, ty_ctx_t *ctx, double *out);
void ty_float_out(double v, bool is_float4, int extra_float_digits, cm_buf_t *out);
bool ty_float_check(ty_ctx_t *ctx, double r, bool inf_ok, bool zero_ok, bool is_float4);

/* ===== date and time (ty_datetime*.c, ty_tz.c) ===== */

#define TY_USECS_PER_SEC INT64_C(1000000)
#define TY_USECS_PER_MIN INT64_C(60000000)
#define TY_USECS_PER_HOUR INT64_C(3600000000)
#define TY_USECS_PER_DAY INT64_C(86400000000)
#define TY_DT_NOBEGIN INT64_MIN
#define TY_DT_NOEND INT64_MAX
#define TY_DATE_NOBEGIN INT32_MIN
#define TY_DATE_NOEND INT32_MAX
/* 2000-01-01 as a Julian day number, and the Unix epoch in PostgreSQL days. */
#define TY_POSTGRES_EPOCH_JDATE 2451545
#define TY_UNIX_EPOCH_JDATE 2440588

/* A broken-down timestamp. Years are astronomical: 1 BC is year 0, 2 BC is -1. */
typedef struct ty_tm {
    int year, mon, mday, hour, min, sec;
    int32_t usec;
    int wday, yday;         /* 0 = Sunday; 1-based day of year */
    int gmtoff;             /* seconds east of UTC */
    const char *zone;       /* abbreviation, NULL if none */
} ty_tm_t;

int ty_date2j(int year, int mon, int mday);
void ty_j2date(int jd, int *year, int *mon, int *mday);
int ty_j2day(int jd);   /* 0 = Sunday */
bool ty_days_in_month_ok(int year, int mon, int mday);
int ty_days_in_month(int year, int mon);
bool ty_is_leap(int year);
void ty_ts2tm(int64_t ts, ty_tm_t *tm);   /* UTC breakdown, no zone */
bool ty_tm2ts(const ty_tm_t *tm, int64_t *ts);
bool ty_ts_in_range(int64_t ts);
bool ty_date_in_range(int64_t d);

/* Zone offset in seconds east of UTC for a UTC instant, and the abbreviation. */
int ty_tz_offset_utc(const ty_tz_t *tz, int64_t utc_secs, const char **abbrev, bool *isdst);
/* Offset for a local wall-clock time (PostgreSQL's choice in DST gaps and overlaps). */
int ty_tz_offset_local(const ty_tz_t *tz, int64_t local_secs);
/* Looks a zone abbreviation such as "PST" or "CEST" up: offset seconds east. */
bool ty_tz_abbrev(const char *name, int *gmtoff);

void ty_timestamptz_to_tm(int64_t ts, const ty_tz_t *tz, ty_tm_t *tm);
bool ty_date_in(const char *s, size_t len, ty_ctx_t *ctx, int64_t *out);
bool ty_time_in(const char *s, size_t len, ty_ctx_t *ctx, int64_t *out);
bool ty_timestamp_in(const char *s, size_t len, bool with_tz, ty_ctx_t *ctx, int64_t *out);
bool ty_interval_in(const char *s, size_t len, ty_ctx_t *ctx, ty_interval_t *out);
void ty_date_out(int64_t d, const ty_settings_t *st, cm_buf_t *out);
void ty_time_out(int64_t t, cm_buf_t *out);
void ty_timestamp_out(int64_t ts, bool with_tz, const ty_settings_t *st, cm_buf_t *out);
void ty_interval_out(const ty_interval_t *iv, const ty_settings_t *st, cm_buf_t *out);
bool ty_timestamp_round(ty_ctx_t *ctx, int64_t *ts, int32_t typmod);
bool ty_interval_apply_typmod(ty_ctx_t *ctx, ty_interval_t *iv, int32_t typmod);
int ty_interval_cmp(const ty_interval_t *a, const ty_interval_t *b);
bool ty_ts_add_interval(ty_ctx_t *ctx, int64_t ts, const ty_interval_t *iv, bool with_tz, bool sub, int64_t *out);
bool ty_ts_err_range(ty_ctx_t *ctx);
bool ty_date_to_ts(ty_ctx_t *ctx, int64_t d, bool with_tz, int64_t *out);
int64_t ty_ts_to_date(int64_t ts, bool with_tz, const ty_tz_t *tz);
int64_t ty_timestamp_to_tz(int64_t ts, const ty_tz_t *tz);     /* local wall time -> UTC */
int64_t ty_timestamptz_to_local(int64_t ts, const ty_tz_t *tz); /* UTC -> local wall time */
/* A unit of extract/date_part (for_extract) or date_trunc by its canonical name
 * ("microseconds", "day", "julian", ...); NULL if PostgreSQL does not know the
 * spelling. *low is the lower-cased input, which error messages quote. */
const char *ty_dt_unit(cm_arena_t *a, const ty_datum_t *d, bool for_extract, const char **low);
bool ty_dt_unit_unrecognized(ty_ctx_t *c, const char *low, const char *type_name);   /* 22023 */
bool ty_dt_unit_unsupported(ty_ctx_t *c, const char *low, const char *type_name);    /* 0A000 */

/* ===== strings ===== */

bool ty_is_string_type(ty_oid_t t);
/* Character length of a string datum (UTF-8). */
int ty_text_chars(const char *p, size_t len);
/* Applies varchar(n) / bpchar(n): explicit truncates silently, otherwise 22001. */
bool ty_string_apply_typmod(ty_ctx_t *ctx, ty_oid_t type, int32_t typmod, bool explicit_cast, ty_datum_t *d);
ty_datum_t ty_text_datum(cm_arena_t *a, const char *p, size_t len);
ty_datum_t ty_buf_datum(cm_arena_t *a, const cm_buf_t *b);
char *ty_datum_cstr(cm_arena_t *a, const ty_datum_t *d);
/* Bytes of a bpchar without its trailing spaces (PostgreSQL ignores them). */
size_t ty_bpchar_len(const char *p, size_t len);

/* ===== functions ===== */

/* Each ty_func_*.c contributes a table; ty_func.c indexes them all. */
typedef struct ty_func_table {
    const ty_func_t *funcs;
    size_t n;
} ty_func_table_t;

extern const ty_func_table_t ty_funcs_arith;
extern const ty_func_table_t ty_funcs_cmp;
extern const ty_func_table_t ty_funcs_cmp_any;
extern const ty_func_table_t ty_funcs_math;
extern const ty_func_table_t ty_funcs_string;
extern const ty_func_table_t ty_funcs_datetime;
extern const ty_func_table_t ty_funcs_misc;
extern const ty_func_table_t ty_funcs_to_char_datetime;
extern const ty_func_table_t ty_funcs_to_char_number;
extern const ty_func_table_t ty_funcs_age;
extern const ty_func_table_t ty_funcs_intbits;
extern const ty_func_table_t ty_funcs_numeric_more;
extern const ty_func_table_t ty_funcs_trig;
extern const ty_func_table_t ty_funcs_mixed;
extern const ty_func_table_t ty_funcs_quote;
extern const ty_func_table_t ty_funcs_format;
extern const ty_func_table_t ty_funcs_text_more;
extern const ty_func_table_t ty_funcs_regex;
extern const ty_func_table_t ty_funcs_datetime_more;
extern const ty_func_table_t ty_funcs_json;
extern const ty_func_table_t ty_funcs_array;
extern const ty_func_table_t ty_funcs_array_ops;

/* quote_ident / quote_literal as PostgreSQL quotes (ty_func_quote.c). */
void ty_quote_ident(const char *p, size_t len, cm_buf_t *out);
void ty_quote_literal(const char *p, size_t len, cm_buf_t *out);

const ty_func_t *ty_func_lookup(const char *name, bool is_operator, int nargs, const ty_oid_t *args);

/* LIKE (ty_like.c) and regular expressions (ty_regex.c). */
bool ty_like_match(ty_ctx_t *ctx, const char *s, size_t slen, const char *p, size_t plen, bool icase, bool *out);
bool ty_regex_match(ty_ctx_t *ctx, const char *s, size_t slen, const char *p, size_t plen, bool icase, bool *out);
#include <regex.h>
/* Compiles with REG_EXTENDED | cflags under the UTF-8 locale; 2201B on a bad pattern. */
bool ty_regex_compile(ty_ctx_t *ctx, const char *p, size_t plen, int cflags, regex_t *re);
/* A compiled pattern: glibc's, and PCRE2's too where the pattern has back-references
 * (glibc cannot be interrupted and backtracks on those; ty_regex_pcre.c). nsub: the groups. */
typedef struct ty_re {
    regex_t posix;
    void *pcre;        /* pcre2_code *, or NULL: glibc matches */
    size_t pcre_len;   /* the translated pattern's length */
    size_t nsub;
} ty_re_t;
bool ty_re_compile(ty_ctx_t *ctx, const char *p, size_t plen, int cflags, ty_re_t *re);
void ty_re_free(ty_re_t *re);
/* ty_regex_pcre.c: whether p has a back-reference; its PCRE2 form in re (false: it does not
 * translate, glibc keeps it); the leftmost-longest match at or after start (1, in m[0..nm),
 * nm 0: whether any), 0 none, -1 cancel, statement_timeout or 54000 in ctx->err. */
bool ty_regex_has_backref(const char *p, size_t plen);
bool ty_regex_pcre_compile(const char *p, size_t plen, int cflags, ty_re_t *re);
void ty_regex_pcre_free(ty_re_t *re);
int ty_regex_pcre_search(ty_ctx_t *ctx, const ty_re_t *re, const char *s, size_t len, size_t start,
                         regmatch_t *m, size_t nm);
/* A regular expression function's option letters (g only where allow_g); 22023 for others. */
typedef struct ty_re_flags {
    int cflags;
    bool global;
} ty_re_flags_t;
bool ty_re_flags_parse(ty_ctx_t *c, const ty_datum_t *d, bool allow_g, ty_re_flags_t *f);
/* The next match at or after byte offset start of s (len bytes, NUL-terminated): 1 found,
 * 0 none, -1 interrupted or refused (ctx->err). */
int ty_re_next(ty_ctx_t *ctx, const ty_re_t *re, const char *s, size_t len, size_t start, regmatch_t *m, size_t nm);
/* regexec under the UTF-8 locale; s is NUL-terminated. */
int ty_regex_exec(const regex_t *re, const char *s, size_t nmatch, regmatch_t *m, int eflags);

/* Error helpers shared by many files. */
bool ty_err_div0(ty_ctx_t *ctx);
bool ty_err_syntax(ty_ctx_t *ctx, const char *type_sql_name, const char *p, size_t len);

/* ===== Unicode (ty_unicode.c) ===== */

#include <locale.h>

/* A UTF-8 LC_CTYPE locale shared by all threads ((locale_t)0 if none exists). */
locale_t ty_utf8_locale(void);
/* Decodes one character; returns its byte length (1 for a cut sequence). */
size_t ty_utf8_decode(const char *p, size_t avail, uint32_t *cp);
size_t ty_utf8_encode(uint32_t cp, char *out);   /* out holds 4 bytes */
uint32_t ty_uni_lower(uint32_t cp);
uint32_t ty_uni_upper(uint32_t cp);
bool ty_uni_isalnum(uint32_t cp);
/* lower ('l'), upper ('u') or initcap ('i') of UTF-8 text, as PostgreSQL under C.UTF-8. */
ty_datum_t ty_text_case(cm_arena_t *a, const char *p, size_t len, char mode);

/* ===== JSON (ty_json.c, ty_func_json.c) ===== */

/* Node kinds, numbered so that comparing them orders jsonb values of
 * different kinds as PostgreSQL does. */
enum { TY_JV_NULL = 0, TY_JV_STRING, TY_JV_NUMBER, TY_JV_BOOL, TY_JV_ARRAY = 0x10, TY_JV_OBJECT };

typedef struct ty_json {
    uint8_t kind;              /* TY_JV_* */
    bool b;                    /* BOOL */
    bool has_nul;              /* STRING held \u0000 (json only) */
    const char *src;           /* the value's text in the parsed input */
    uint32_t src_len;
    const char *str;           /* STRING: unescaped; NUMBER: its token */
    uint32_t str_len;
    ty_numeric_t *num;         /* NUMBER when parsed as jsonb */
    uint32_t nitems;           /* ARRAY: elements; OBJECT: 2 * pairs (key, value, ...) */
    struct ty_json **items;
} ty_json_t;

/* Parses JSON with PostgreSQL's error details; jsonb: numbers become numerics,
 * object keys are sorted and deduplicated and \u0000 is refused. */
bool ty_json_parse(ty_ctx_t *ctx, const char *p, size_t len, bool jsonb, ty_json_t **out);
void ty_json_print(const ty_json_t *n, cm_arena_t *a, cm_buf_t *out);   /* jsonb's canonical text */
void ty_json_escape(const char *p, size_t len, cm_buf_t *out);
bool ty_jsonb_in(ty_ctx_t *ctx, const char *p, size_t len, ty_datum_t *out);
bool ty_json_in(ty_ctx_t *ctx, const char *p, size_t len, ty_datum_t *out);
int ty_jsonb_cmp(const ty_datum_t *a, const ty_datum_t *b);
uint64_t ty_jsonb_hash(const ty_datum_t *d);

/* The JSON set-returning functions (ty_srf_json.c), for ty_srf_candidates. */
size_t ty_srf_json_candidates(const char *name, const ty_func_t **out, size_t max);
size_t ty_srf_regex_candidates(const char *name, const ty_func_t **out, size_t max);   /* ty_srf_regex.c */

/* ===== interval typmods (ty_interval_typmod.c) ===== */

/* PostgreSQL's INTERVAL_TYPMOD(precision, range): range is a mask of the
 * INTERVAL_MASK bits below (0x7FFF: all fields), precision 0..6 or 0xFFFF. */
enum {
    TY_IVM_MONTH = 1 << 1,
    TY_IVM_YEAR = 1 << 2,
    TY_IVM_DAY = 1 << 3,
    TY_IVM_HOUR = 1 << 10,
    TY_IVM_MINUTE = 1 << 11,
    TY_IVM_SECOND = 1 << 12,
    TY_IVM_FULL_RANGE = 0x7FFF,
    TY_IVM_FULL_PRECISION = 0xFFFF,
};
int ty_interval_typmod_range(int32_t typmod);       /* TY_IVM_FULL_RANGE for -1 */
void ty_interval_format_typmod(int32_t typmod, cm_buf_t *out);
/* Interval input reading a bare number as the typmod's last field ("1" DAY). */
bool ty_interval_in_range(const char *s, size_t len, int range, ty_ctx_t *ctx, ty_interval_t *out);

/* ===== arrays (ty_array*.c) ===== */

bool ty_is_array_type(ty_oid_t t);
bool ty_array_in(ty_oid_t arrtype, int32_t typmod, const char *p, size_t len, ty_ctx_t *ctx, ty_datum_t *out);
bool ty_array_out(ty_oid_t arrtype, const ty_datum_t *d, ty_ctx_t *ctx, cm_buf_t *out);
bool ty_array_recv(ty_oid_t arrtype, int32_t typmod, const uint8_t *p, size_t len, ty_ctx_t *ctx, ty_datum_t *out);
bool ty_array_send(ty_oid_t arrtype, const ty_datum_t *d, ty_ctx_t *ctx, cm_buf_t *out);
int ty_array_cmp(const ty_datum_t *a, const ty_datum_t *b);
uint64_t ty_array_hash(const ty_datum_t *d);
ty_datum_t ty_array_copy(const ty_datum_t *d, cm_arena_t *a);
/* Element-wise cast between array types (typmod applies to the elements). */
bool ty_array_cast(ty_oid_t from, ty_oid_t to, int32_t typmod, bool explicit_cast, const ty_datum_t *in,
                   ty_ctx_t *ctx, ty_datum_t *out);
/* Builds an array from element datums with the given shape (ndim 0: empty). */
ty_datum_t ty_array_build(cm_arena_t *a, ty_oid_t elem, int ndim, const int *dims, const int *lbound,
                          const ty_datum_t *items);
/* ARRAY[...] of sub-arrays: all must have the same shape (2202E otherwise). */
bool ty_array_nest(ty_ctx_t *ctx, ty_oid_t elem, const ty_datum_t *subs, int n, ty_datum_t *out);

/* ===== records (ty_record.c) ===== */

/* A record datum of n columns, copying types and items into the arena. */
ty_datum_t ty_record_make(cm_arena_t *a, int n, const ty_oid_t *types, const ty_datum_t *items);
bool ty_record_out(const ty_datum_t *d, ty_ctx_t *ctx, cm_buf_t *out);
bool ty_record_send(const ty_datum_t *d, ty_ctx_t *ctx, cm_buf_t *out);
int ty_record_cmp(const ty_datum_t *a, const ty_datum_t *b);
/* record_eq (eq) or record_cmp as operators run them: 42804 for records of different column
 * types or counts, 42883 for unknown-typed columns; *out is <0, 0 or >0. */
bool ty_record_compare(ty_ctx_t *ctx, const ty_datum_t *a, const ty_datum_t *b, bool eq, int *out);
uint64_t ty_record_hash(const ty_datum_t *d);
ty_datum_t ty_record_copy(const ty_datum_t *d, cm_arena_t *a);

/* ===== reg* types (ty_regtype.c, ty_regproc.c) ===== */

/* regtypein / regtypeout: a type name or number; the bare number for an unknown OID. */
bool ty__regtype_in(const char *p, size_t len, ty_ctx_t *ctx, int64_t *out);
bool ty__regtype_out(const ty_datum_t *d, cm_buf_t *out);
/* regprocin / regprocout over the I/O functions pg_type names (42883 for another name). */
bool ty__regproc_in(const char *p, size_t len, ty_ctx_t *ctx, int64_t *out);
bool ty__regproc_out(const ty_datum_t *d, cm_buf_t *out);

#endif
