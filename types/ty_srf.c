/*
 * ty_srf.c: the set-returning functions and their table: generate_series
 * (int4, int8, numeric, timestamp and timestamptz with an interval step),
 * unnest and generate_subscripts (declared once per array type, as the
 * scalar array functions are), string_to_table and pg_options_to_table. The JSON ones are in
 * ty_srf_json.c, the regular expression ones in ty_srf_regex.c. Each yields its rows one at a time from a state it keeps
 * in the context's arena (types.h), so LIMIT over generate_series(1, 10^9)
 * makes only the rows it reads. Errors are PostgreSQL 15's.
 */
#include "types/ty_internal.h"

#include <string.h>

#define S TY_FN_STRICT
#define INVALID_PARAMETER "22023"

/* ------------------------------------------------------- generate_series */

typedef struct series {
    int64_t cur, stop, step;
    bool over;                    /* the next value would overflow: the last one was given */
} series_t;

static bool series_int(ty_ctx_t *ctx, const ty_datum_t *a, int n, void **state, ty_datum_t *out, bool *done,
                       int64_t lo, int64_t hi)
{
    series_t *s = *state;
    if (!s) {
        s = cm_arena_zalloc(ctx->arena, sizeof(*s));
        s->cur = a[0].v.i;
        s->stop = a[1].v.i;
        s->step = n > 2 ? a[2].v.i : 1;
        if (s->step == 0)
            return cm_err_set(ctx->err, INVALID_PARAMETER, "step size cannot equal zero");
        *state = s;
    }
    if (s->over || (s->step > 0 ? s->cur > s->stop : s->cur < s->stop)) {
        *done = true;
        return true;
    }
    out->isnull = false;
    out->v.i = s->cur;
    int64_t next;
    if (__builtin_add_overflow(s->cur, s->step, &next) || next < lo || next > hi)
        s->over = true;   /* as PostgreSQL: the series ends instead of wrapping around */
    else
        s->cur = next;
    return true;
}

static bool series_int4(ty_ctx_t *ctx, const ty_datum_t *a, int n, void **state, ty_datum_t *out, bool *done)
{
    return series_int(ctx, a, n, state, out, done, INT32_MIN, INT32_MAX);
}

static bool series_int8(ty_ctx_t *ctx, const ty_datum_t *a, int n, void **state, ty_datum_t *out, bool *done)
{
    return series_int(ctx, a, n, state, out, done, INT64_MIN, INT64_MAX);
}

typedef struct series_num {
    ty_numeric_t *cur, *stop, *step;
    int dir;                      /* the step's sign */
} series_num_t;

static bool num_finite(ty_ctx_t *ctx, const ty_numeric_t *v, const char *what)
{
    if (v->kind == TY_NUM_NAN)
        return cm_err_set(ctx->err, INVALID_PARAMETER, "%s cannot be NaN", what);
    if (v->kind != TY_NUM_FINITE)
        return cm_err_set(ctx->err, INVALID_PARAMETER, "%s cannot be infinity", what);
    return true;
}

static bool series_numeric(ty_ctx_t *ctx, const ty_datum_t *a, int n, void **state, ty_datum_t *out, bool *done)
{
    series_num_t *s = *state;
    if (!s) {
        s = cm_arena_zalloc(ctx->arena, sizeof(*s));
        s->cur = a[0].v.n;
        s->stop = a[1].v.n;
        s->step = n > 2 ? a[2].v.n : ty_num_from_int64(ctx->arena, 1);
        if (!num_finite(ctx, s->cur, "start value") || !num_finite(ctx, s->stop, "stop value") ||
            !num_finite(ctx, s->step, "step size"))
            return false;
        if (ty_num_is_zero(s->step))
            return cm_err_set(ctx->err, INVALID_PARAMETER, "step size cannot equal zero");
        s->dir = s->step->neg ? -1 : 1;
        *state = s;
    }
    if (ty_num_cmp(s->cur, s->stop) * s->dir > 0) {
        *done = true;
        return true;
    }
    out->isnull = false;
    out->v.n = s->cur;
    return ty_num_add(ctx, s->cur, s->step, &s->cur);
}

typedef struct series_ts {
    int64_t cur, stop;
    ty_interval_t step;
    int dir;
    bool over;
} series_ts_t;

static bool series_ts(ty_ctx_t *ctx, const ty_datum_t *a, void **state, ty_datum_t *out, bool *done, bool tz)
{
    series_ts_t *s = *state;
    if (!s) {
        s = cm_arena_zalloc(ctx->arena, sizeof(*s));
        s->cur = a[0].v.i;
        s->stop = a[1].v.i;
        s->step = a[2].v.iv;
        ty_interval_t zero = {0};
        s->dir = ty_interval_cmp(&s->step, &zero);
        if (s->dir == 0)
            return cm_err_set(ctx->err, INVALID_PARAMETER, "step size cannot equal zero");
        *state = s;
    }
    if (s->over || (s->dir > 0 ? s->cur > s->stop : s->cur < s->stop)) {
        *done = true;
        return true;
    }
    out->isnull = false;
    out->v.i = s->cur;
    /* timestamptz steps in the session's time zone (a day across a DST change), as PostgreSQL. */
    return ty_ts_add_interval(ctx, s->cur, &s->step, tz, false, &s->cur);
}

static bool series_timestamp(ty_ctx_t *ctx, const ty_datum_t *a, int n, void **state, ty_datum_t *out, bool *done)
{
    return series_ts(ctx, a, state, out, done, false);
}

static bool series_timestamptz(ty_ctx_t *ctx, const ty_datum_t *a, int n, void **state, ty_datum_t *out, bool *done)
{
    return series_ts(ctx, a, state, out, done, true);
}

/* ------------------------------------------------------ arrays */

typedef struct pos {
    int i;
} pos_t;

static pos_t *pos_of(ty_ctx_t *ctx, void **state)
{
    if (!*state)
        *state = cm_arena_zalloc(ctx->arena, sizeof(pos_t));
    return *state;
}

/* unnest(array): every element in storage order, whatever the dimensions. */
static bool unnest_next(ty_ctx_t *ctx, const ty_datum_t *a, int n, void **state, ty_datum_t *out, bool *done)
{
    pos_t *p = pos_of(ctx, state);
    const ty_array_t *arr = a[0].v.arr;
    if (p->i >= arr->nitems) {
        *done = true;
        return true;
    }
    *out = arr->items[p->i++];
    return true;
}

/* generate_subscripts(array, dim [, reverse]): the subscripts of one dimension. */
static bool subscripts_next(ty_ctx_t *ctx, const ty_datum_t *a, int n, void **state, ty_datum_t *out, bool *done)
{
    pos_t *p = pos_of(ctx, state);
    const ty_array_t *arr = a[0].v.arr;
    int64_t dim = a[1].v.i;
    if (dim < 1 || dim > arr->ndim || p->i >= arr->dims[dim - 1]) {
        *done = true;
        return true;
    }
    bool reverse = n > 2 && !a[2].isnull && a[2].v.b;
    int lo = arr->lbound[dim - 1], len = arr->dims[dim - 1];
    out->isnull = false;
    out->v.i = reverse ? lo + len - 1 - p->i : lo + p->i;
    p->i++;
    return true;
}

/* -------------------------------------------------- pg_options_to_table */

/* pg_options_to_table(text[]): each "name=value" split at its first '=' (none: a NULL value), as reloptions are. */
static bool options_next(ty_ctx_t *ctx, const ty_datum_t *a, int n, void **state, ty_datum_t *out, bool *done)
{
    pos_t *p = pos_of(ctx, state);
    const ty_array_t *arr = a[0].v.arr;
    if (arr->hasnull)
        return cm_err_set(ctx->err, CM_ERRCODE_NULL_VALUE_NOT_ALLOWED, "null array element not allowed in this context");
    if (p->i >= arr->nitems) {
        *done = true;
        return true;
    }
    const ty_datum_t *kv = &arr->items[p->i++];
    const char *eq = memchr(kv->v.s.p, '=', kv->v.s.len);
    size_t klen = eq ? (size_t)(eq - kv->v.s.p) : kv->v.s.len;
    out[0] = ty_text_datum(ctx->arena, kv->v.s.p, klen);
    if (eq)
        out[1] = ty_text_datum(ctx->arena, eq + 1, kv->v.s.len - klen - 1);
    else
        out[1] = (ty_datum_t){.isnull = true};
    return true;
}

/*
 * information_schema._pg_expandarray(array): (x, n) for each subscript s of
 * the first dimension: x = array[s] (NULL when the array has more dimensions,
 * as a one-subscript read of one gives), n = s - lower bound + 1. Drivers
 * expand pg_index.indkey with it (pgJDBC's getPrimaryKeys, getIndexInfo).
 */
static bool expandarray_next(ty_ctx_t *ctx, const ty_datum_t *a, int n, void **state, ty_datum_t *out, bool *done)
{
    pos_t *p = pos_of(ctx, state);
    const ty_array_t *arr = a[0].v.arr;
    if (arr->ndim == 0 || p->i >= arr->dims[0]) {
        *done = true;
        return true;
    }
    if (arr->ndim == 1)
        out[0] = arr->items[p->i];
    else
        out[0] = (ty_datum_t){.isnull = true};
    out[1] = (ty_datum_t){.v.i = ++p->i};
    return true;
}

/* --------------------------------------------------------- pg_get_keywords */

/*
 * pg_get_keywords(): the parser's keywords (PostgreSQL 15's), which only the
 * planner can read, so each row is asked of ty_ctx_t.catalog_fn
 * (TY_CATFN_KEYWORD); without it there are none.
 */
static bool keywords_next(ty_ctx_t *ctx, const ty_datum_t *a, int n, void **state, ty_datum_t *out, bool *done)
{
    static const char *const catdesc[] = {['U'] = "unreserved", ['C'] = "unreserved (cannot be function or type name)",
                                          ['T'] = "reserved (can be function or type name)", ['R'] = "reserved"};
    pos_t *p = pos_of(ctx, state);
    ty_datum_t i = {.v.i = p->i}, kw = {0};
    if (ctx->catalog_fn == NULL) {
        *done = true;
        return true;
    }
    if (!ctx->catalog_fn(ctx->catalog_arg, TY_CATFN_KEYWORD, &i, 1, ctx, &kw))
        return false;
    if (kw.isnull || kw.v.s.len < 3) {
        *done = true;
        return true;
    }
    p->i++;
    char code = kw.v.s.p[0];
    bool bare = kw.v.s.p[1] == 'B';
    const char *desc = (unsigned char)code < CM_ARRAY_LEN(catdesc) ? catdesc[(unsigned char)code] : NULL;
    out[0] = ty_text_datum(ctx->arena, kw.v.s.p + 2, kw.v.s.len - 2);
    out[1] = ty_text_datum(ctx->arena, &code, 1);
    out[2] = (ty_datum_t){.v.b = bare};
    out[3] = ty_text_datum(ctx->arena, desc ? desc : "", desc ? strlen(desc) : 0);
    out[4] = bare ? ty_text_datum(ctx->arena, "can be bare label", 17) : ty_text_datum(ctx->arena, "requires AS", 11);
    return true;
}

/* ------------------------------------------------------ string_to_table */

typedef struct split {
    size_t at;
    bool done;
} split_t;

/* One field of string_to_table(s, sep [, null]), as PostgreSQL's string_to_array splits. */
static bool string_to_table_next(ty_ctx_t *ctx, const ty_datum_t *a, int n, void **state, ty_datum_t *out, bool *done)
{
    const ty_datum_t *s = &a[0], *sep = &a[1];
    split_t *sp = *state;
    if (!sp) {
        sp = cm_arena_zalloc(ctx->arena, sizeof(*sp));
        *state = sp;
        if (s->isnull || s->v.s.len == 0)
            sp->done = true;   /* NULL or empty input: no rows */
    }
    if (sp->done) {
        *done = true;
        return true;
    }
    const char *p = s->v.s.p;
    size_t len = s->v.s.len, start = sp->at, end;
    if (sep->isnull) {
        /* A NULL separator splits into characters. */
        end = start + ty_utf8_decode(p + start, len - start, &(uint32_t){0});
        sp->at = end;
        sp->done = end >= len;
    } else if (sep->v.s.len == 0) {
        end = len;   /* an empty separator: the whole string is one field */
        sp->done = true;
    } else {
        const char *hit = NULL;
        for (size_t i = start; i + sep->v.s.len <= len && !hit; i++)
            if (memcmp(p + i, sep->v.s.p, sep->v.s.len) == 0)
                hit = p + i;
        end = hit ? (size_t)(hit - p) : len;
        sp->at = end + (hit ? sep->v.s.len : 0);
        sp->done = !hit;
    }
    if (n > 2 && !a[2].isnull && a[2].v.s.len == end - start && memcmp(p + start, a[2].v.s.p, end - start) == 0)
        out->isnull = true;
    else
        *out = ty_text_datum(ctx->arena, p + start, end - start);
    return true;
}

/* ------------------------------------------------------------ the table */

#define T TY_TEXT
/* One column of type RET; the argument types come last. */
#define ONE(NAME, RET, FLAGS, NEXT, OID, NARGS, ...) {{NAME, NARGS, {__VA_ARGS__}, RET, FLAGS, NULL, OID}, 1, {NULL}, {0}, NEXT}

/* name, element type, array type (as ty_func_array.c's list) */
#define TY_SRF_ARRAY_TYPES(X)                                                                               \
    X(TY_BOOL, TY_BOOL_ARRAY) X(TY_BYTEA, TY_BYTEA_ARRAY) X(TY_NAME, TY_NAME_ARRAY) X(TY_INT2, TY_INT2_ARRAY) \
    X(TY_INT4, TY_INT4_ARRAY) X(TY_TEXT, TY_TEXT_ARRAY) X(TY_BPCHAR, TY_BPCHAR_ARRAY)                       \
    X(TY_VARCHAR, TY_VARCHAR_ARRAY) X(TY_INT8, TY_INT8_ARRAY) X(TY_FLOAT4, TY_FLOAT4_ARRAY)                 \
    X(TY_FLOAT8, TY_FLOAT8_ARRAY) X(TY_OID, TY_OID_ARRAY) X(TY_TIMESTAMP, TY_TIMESTAMP_ARRAY)               \
    X(TY_DATE, TY_DATE_ARRAY) X(TY_TIME, TY_TIME_ARRAY) X(TY_TIMESTAMPTZ, TY_TIMESTAMPTZ_ARRAY)             \
    X(TY_INTERVAL, TY_INTERVAL_ARRAY) X(TY_NUMERIC, TY_NUMERIC_ARRAY) X(TY_UUID, TY_UUID_ARRAY)             \
    X(TY_JSON, TY_JSON_ARRAY) X(TY_JSONB, TY_JSONB_ARRAY) X(TY_REGTYPE, TY_REGTYPE_ARRAY) X(TY_CHAR, TY_CHAR_ARRAY)

#define UNNEST(ELEM, ARR) ONE("unnest", ELEM, S, unnest_next, 2331, 1, ARR),
/* information_schema's function: the binder finds names starting with _pg_ there only (pln_srf.c). */
#define EXPANDARRAY(ELEM, ARR) \
    {{"_pg_expandarray", 1, {ARR}, TY_RECORD, S, NULL, 13208}, 2, {"x", "n"}, {ELEM, TY_INT4}, expandarray_next},
#define SUBSCRIPTS(ELEM, ARR)                                                                \
    ONE("generate_subscripts", TY_INT4, S, subscripts_next, 1191, 2, ARR, TY_INT4),          \
    ONE("generate_subscripts", TY_INT4, S, subscripts_next, 1192, 3, ARR, TY_INT4, TY_BOOL),

static const ty_srf_t ty__srfs[] = {
    ONE("generate_series", TY_INT4, S, series_int4, 1067, 2, TY_INT4, TY_INT4),
    ONE("generate_series", TY_INT4, S, series_int4, 1066, 3, TY_INT4, TY_INT4, TY_INT4),
    ONE("generate_series", TY_INT8, S, series_int8, 1069, 2, TY_INT8, TY_INT8),
    ONE("generate_series", TY_INT8, S, series_int8, 1068, 3, TY_INT8, TY_INT8, TY_INT8),
    ONE("generate_series", TY_NUMERIC, S, series_numeric, 3260, 2, TY_NUMERIC, TY_NUMERIC),
    ONE("generate_series", TY_NUMERIC, S, series_numeric, 3259, 3, TY_NUMERIC, TY_NUMERIC, TY_NUMERIC),
    ONE("generate_series", TY_TIMESTAMP, S, series_timestamp, 938, 3, TY_TIMESTAMP, TY_TIMESTAMP, TY_INTERVAL),
    ONE("generate_series", TY_TIMESTAMPTZ, S, series_timestamptz, 939, 3, TY_TIMESTAMPTZ, TY_TIMESTAMPTZ, TY_INTERVAL),
    TY_SRF_ARRAY_TYPES(UNNEST)
    TY_SRF_ARRAY_TYPES(SUBSCRIPTS)
    TY_SRF_ARRAY_TYPES(EXPANDARRAY)
    ONE("string_to_table", T, 0, string_to_table_next, 6160, 2, T, T),
    ONE("string_to_table", T, 0, string_to_table_next, 6161, 3, T, T, T),
    {{"pg_options_to_table", 1, {TY_TEXT_ARRAY}, TY_RECORD, S, NULL, 2289}, 2, {"option_name", "option_value"},
     {T, T}, options_next},
    {{"pg_get_keywords", 0, {0}, TY_RECORD, 0, NULL, 1686}, 5, {"word", "catcode", "barelabel", "catdesc", "baredesc"},
     {T, TY_CHAR, TY_BOOL, T, T}, keywords_next},
};

size_t ty_srf_candidates(const char *name, const ty_func_t **out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < CM_ARRAY_LEN(ty__srfs) && n < max; i++)
        if (strcmp(ty__srfs[i].fn.name, name) == 0)
            out[n++] = &ty__srfs[i].fn;
    n += ty_srf_json_candidates(name, out + n, max - n);
    return n + ty_srf_regex_candidates(name, out + n, max - n);
}
