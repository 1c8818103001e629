/*
 * ty_cast.c: casts between the supported types, as pg_cast lists them, plus
 * PostgreSQL's automatic I/O conversion casts (anything to a string type in
 * assignment context, a string type to anything explicitly).
 *
 * ty_cast_datum behaves like an explicit cast (varchar(n) truncates);
 * ty_cast_datum_assign like an assignment cast (too long is 22001).
 */
#include "types/ty_internal.h"

#include <math.h>
#include <string.h>

typedef struct ty_cast_rule {
    ty_oid_t from, to;
    char ctx;
} ty_cast_rule_t;

static const ty_cast_rule_t ty__casts[] = {
    {TY_INT2, TY_INT4, 'i'}, {TY_INT2, TY_INT8, 'i'}, {TY_INT4, TY_INT8, 'i'},
    {TY_INT4, TY_INT2, 'a'}, {TY_INT8, TY_INT2, 'a'}, {TY_INT8, TY_INT4, 'a'},
    {TY_INT2, TY_FLOAT4, 'i'}, {TY_INT2, TY_FLOAT8, 'i'}, {TY_INT2, TY_NUMERIC, 'i'},
    {TY_INT4, TY_FLOAT4, 'i'}, {TY_INT4, TY_FLOAT8, 'i'}, {TY_INT4, TY_NUMERIC, 'i'},
    {TY_INT8, TY_FLOAT4, 'i'}, {TY_INT8, TY_FLOAT8, 'i'}, {TY_INT8, TY_NUMERIC, 'i'},
    {TY_FLOAT4, TY_FLOAT8, 'i'}, {TY_FLOAT8, TY_FLOAT4, 'a'},
    {TY_FLOAT4, TY_INT2, 'a'}, {TY_FLOAT4, TY_INT4, 'a'}, {TY_FLOAT4, TY_INT8, 'a'},
    {TY_FLOAT8, TY_INT2, 'a'}, {TY_FLOAT8, TY_INT4, 'a'}, {TY_FLOAT8, TY_INT8, 'a'},
    {TY_FLOAT4, TY_NUMERIC, 'a'}, {TY_FLOAT8, TY_NUMERIC, 'a'},
    {TY_NUMERIC, TY_INT2, 'a'}, {TY_NUMERIC, TY_INT4, 'a'}, {TY_NUMERIC, TY_INT8, 'a'},
    {TY_NUMERIC, TY_FLOAT4, 'i'}, {TY_NUMERIC, TY_FLOAT8, 'i'},
    {TY_INT4, TY_BOOL, 'e'}, {TY_BOOL, TY_INT4, 'e'},
    {TY_INT2, TY_OID, 'i'}, {TY_INT4, TY_OID, 'i'}, {TY_INT8, TY_OID, 'i'},
    {TY_OID, TY_INT4, 'a'}, {TY_OID, TY_INT8, 'a'},
    {TY_OID, TY_REGCLASS, 'i'}, {TY_REGCLASS, TY_OID, 'i'}, {TY_OID, TY_REGTYPE, 'i'}, {TY_REGTYPE, TY_OID, 'i'},
    {TY_OID, TY_REGPROC, 'i'}, {TY_REGPROC, TY_OID, 'i'},
    {TY_OID, TY_REGNAMESPACE, 'i'}, {TY_REGNAMESPACE, TY_OID, 'i'}, {TY_INT4, TY_REGNAMESPACE, 'i'},
    {TY_INT8, TY_REGNAMESPACE, 'i'}, {TY_INT2, TY_REGNAMESPACE, 'i'}, {TY_REGNAMESPACE, TY_INT4, 'a'},
    {TY_REGNAMESPACE, TY_INT8, 'a'},
    {TY_INT4, TY_REGCLASS, 'i'}, {TY_INT4, TY_REGTYPE, 'i'}, {TY_INT4, TY_REGPROC, 'i'}, {TY_INT8, TY_REGCLASS, 'i'},
    {TY_INT4, TY_CHAR, 'e'}, {TY_CHAR, TY_INT4, 'e'},
    {TY_TEXT, TY_VARCHAR, 'i'}, {TY_VARCHAR, TY_TEXT, 'i'}, {TY_TEXT, TY_BPCHAR, 'i'},
    {TY_BPCHAR, TY_TEXT, 'i'}, {TY_BPCHAR, TY_VARCHAR, 'i'}, {TY_VARCHAR, TY_BPCHAR, 'i'},
    {TY_TEXT, TY_NAME, 'i'}, {TY_NAME, TY_TEXT, 'i'}, {TY_VARCHAR, TY_NAME, 'i'},
    {TY_BPCHAR, TY_NAME, 'i'}, {TY_NAME, TY_VARCHAR, 'a'}, {TY_NAME, TY_BPCHAR, 'a'},
    {TY_CHAR, TY_TEXT, 'i'}, {TY_CHAR, TY_BPCHAR, 'a'}, {TY_CHAR, TY_VARCHAR, 'a'},
    {TY_TEXT, TY_CHAR, 'a'}, {TY_BPCHAR, TY_CHAR, 'a'}, {TY_VARCHAR, TY_CHAR, 'a'},
    {TY_DATE, TY_TIMESTAMP, 'i'}, {TY_DATE, TY_TIMESTAMPTZ, 'i'},
    {TY_TIMESTAMP, TY_DATE, 'a'}, {TY_TIMESTAMPTZ, TY_DATE, 'a'},
    {TY_TIMESTAMP, TY_TIMESTAMPTZ, 'i'}, {TY_TIMESTAMPTZ, TY_TIMESTAMP, 'a'},
    {TY_TIMESTAMP, TY_TIME, 'a'}, {TY_TIMESTAMPTZ, TY_TIME, 'a'},
    {TY_TIME, TY_INTERVAL, 'i'}, {TY_INTERVAL, TY_TIME, 'a'},
    {TY_JSON, TY_JSONB, 'a'}, {TY_JSONB, TY_JSON, 'a'},
};

bool ty_cast_exists(ty_oid_t from, ty_oid_t to, ty_cast_context_t *context)
{
    ty_cast_context_t dummy;
    if (context == NULL)
        context = &dummy;
    if (from == to) {
        *context = TY_CAST_IMPLICIT;
        return true;
    }
    for (size_t i = 0; i < CM_ARRAY_LEN(ty__casts); i++) {
        if (ty__casts[i].from == from && ty__casts[i].to == to) {
            *context = (ty_cast_context_t)ty__casts[i].ctx;
            return true;
        }
    }
    /* A record converts only to the string types, through its output (ROW(1, 2)::text). */
    bool to_string = to == TY_TEXT || to == TY_VARCHAR || to == TY_BPCHAR || to == TY_NAME;
    if (ty_info(from) == NULL || ty_info(to) == NULL || from == TY_VOID || to == TY_VOID ||
        (from == TY_RECORD && !to_string) || to == TY_RECORD)
        return false;
    /* Between array types: as the elements cast, in the same contexts. */
    if (ty_is_array_type(from) && ty_is_array_type(to))
        return ty_cast_exists(ty_array_elem_type(from), ty_array_elem_type(to), context);
    /* An untyped literal becomes any type through its input function. */
    if (from == TY_UNKNOWN) {
        *context = TY_CAST_IMPLICIT;
        return true;
    }
    if (to_string) {
        *context = TY_CAST_ASSIGNMENT;
        return true;
    }
    if (ty_is_string_type(from)) {
        *context = TY_CAST_EXPLICIT;
        return true;
    }
    return false;
}

static bool ty__float_to_int(ty_ctx_t *ctx, double f, ty_oid_t to, int64_t *out)
{
    /* PostgreSQL rounds to nearest even (rint) and then range-checks. */
    double r = rint(f);
    bool ok;
    switch (to) {
    case TY_INT2: ok = r >= -32768.0 && r < 32768.0; break;
    case TY_INT4: ok = r >= -2147483648.0 && r < 2147483648.0; break;
    default: ok = r >= -9223372036854775808.0 && r < 9223372036854775808.0; break;
    }
    if (f != f || !ok)
        return cm_err_set(ctx->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "%s", ty_int_range_msg(to));
    *out = (int64_t)r;
    return true;
}

static bool ty__numeric_to_int(ty_ctx_t *ctx, const ty_numeric_t *n, ty_oid_t to, int64_t *out)
{
    const char *tn = to == TY_INT2 ? "smallint" : to == TY_INT8 ? "bigint" : "integer";
    if (n->kind == TY_NUM_NAN)
        return cm_err_set(ctx->err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "cannot convert NaN to %s", tn);
    if (n->kind != TY_NUM_FINITE)
        return cm_err_set(ctx->err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "cannot convert infinity to %s", tn);
    if (!ty_numeric_to_int64(n, out))
        return cm_err_set(ctx->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "%s", ty_int_range_msg(to));
    return ty_int_range_check(ctx, to, *out);
}

static bool ty__is_int(ty_oid_t t)
{
    return t == TY_INT2 || t == TY_INT4 || t == TY_INT8;
}

static bool ty__is_oidish(ty_oid_t t)
{
    return t == TY_OID || t == TY_REGCLASS || t == TY_REGTYPE || t == TY_REGPROC || t == TY_REGNAMESPACE;
}

static const ty_tz_t *ty__tz(ty_ctx_t *ctx)
{
    return ctx->settings && ctx->settings->tz ? ctx->settings->tz : ty_tz_utc();
}

/* The conversion proper; typmod of the target is applied by the caller. */
static bool ty__convert(ty_oid_t from, ty_oid_t to, int32_t typmod, const ty_datum_t *in, ty_ctx_t *ctx,
                        ty_datum_t *out, bool explicit_cast)
{
    *out = *in;
    if (from == to)
        return true;
    if (ty_is_array_type(from) && ty_is_array_type(to))
        return ty_array_cast(from, to, typmod, explicit_cast, in, ctx, out);
    bool fs = ty_is_string_type(from) && from != TY_UNKNOWN, ts = ty_is_string_type(to);
    if ((fs || from == TY_UNKNOWN) && ts) {
        size_t len = in->v.s.len;
        if (from == TY_BPCHAR && to != TY_BPCHAR)
            len = ty_bpchar_len(in->v.s.p, len);
        if (to == TY_NAME && len > 63)
            len = 63;
        *out = ty_text_datum(ctx->arena, in->v.s.p, len);
        return true;
    }
    if (ty__is_int(from) || ty__is_oidish(from)) {
        if (ty__is_int(to) || ty__is_oidish(to)) {
            out->v.i = in->v.i;
            if (ty__is_oidish(to) && ty__is_int(from) && (in->v.i < 0 || in->v.i > UINT32_MAX)) {
                if (from == TY_INT8)
                    return cm_err_set(ctx->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "OID out of range");
                out->v.i = (uint32_t)in->v.i;
            }
            if (ty__is_oidish(from) && to == TY_INT4)
                out->v.i = (int32_t)(uint32_t)in->v.i;
            return ty_int_range_check(ctx, to, out->v.i);
        }
        if (to == TY_FLOAT4) {
            out->v.f = (float)in->v.i;
            return true;
        }
        if (to == TY_FLOAT8) {
            out->v.f = (double)in->v.i;
            return true;
        }
        if (to == TY_NUMERIC) {
            out->v.n = ty_num_from_int64(ctx->arena, in->v.i);
            return true;
        }
        if (to == TY_BOOL) {
            out->v.b = in->v.i != 0;
            return true;
        }
        if (to == TY_CHAR) {
            if (in->v.i < -128 || in->v.i > 127)
                return cm_err_set(ctx->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "\"char\" out of range");
            char c = (char)in->v.i;
            *out = ty_text_datum(ctx->arena, &c, c ? 1 : 0);
            return true;
        }
    }
    if (from == TY_FLOAT4 || from == TY_FLOAT8) {
        if (ty__is_int(to))
            return ty__float_to_int(ctx, in->v.f, to, &out->v.i);
        if (to == TY_FLOAT4) {
            out->v.f = (float)in->v.f;
            return ty_float_check(ctx, out->v.f, isinf(in->v.f), in->v.f == 0, true);
        }
        if (to == TY_FLOAT8) {
            out->v.f = in->v.f;
            return true;
        }
        if (to == TY_NUMERIC)
            return ty_num_from_double(ctx->arena, in->v.f, from == TY_FLOAT4, &out->v.n);
    }
    if (from == TY_NUMERIC) {
        if (ty__is_int(to))
            return ty__numeric_to_int(ctx, in->v.n, to, &out->v.i);
        if (to == TY_FLOAT4 || to == TY_FLOAT8) {
            double d = ty_num_to_double(in->v.n, ctx->arena);
            if (to == TY_FLOAT4)
                d = (float)d;
            if (isinf(d) && in->v.n->kind == TY_NUM_FINITE)
                return cm_err_set(ctx->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "value out of range: overflow");
            out->v.f = d;
            return true;
        }
    }
    if (from == TY_BOOL && to == TY_INT4) {
        out->v.i = in->v.b ? 1 : 0;
        return true;
    }
    if (from == TY_CHAR && to == TY_INT4) {
        out->v.i = in->v.s.len ? (signed char)in->v.s.p[0] : 0;
        return true;
    }
    /* pg_cast's bool -> text/varchar/bpchar is booltext ("true"); other string types
     * (name) take the I/O conversion below, whose boolout prints "t". */
    if (from == TY_BOOL && (to == TY_TEXT || to == TY_VARCHAR || to == TY_BPCHAR)) {
        *out = ty_text_datum(ctx->arena, in->v.b ? "true" : "false", in->v.b ? 4 : 5);
        return true;
    }
    if (from == TY_CHAR && ts) {
        *out = ty_text_datum(ctx->arena, in->v.s.p, in->v.s.len);
        return true;
    }
    if (fs && to == TY_CHAR) {
        *out = ty_text_datum(ctx->arena, in->v.s.p, in->v.s.len ? 1 : 0);
        return true;
    }
    switch (from) {
    case TY_DATE:
        if (to == TY_TIMESTAMP || to == TY_TIMESTAMPTZ)
            return ty_date_to_ts(ctx, in->v.i, to == TY_TIMESTAMPTZ, &out->v.i);
        break;
    case TY_TIMESTAMP:
    case TY_TIMESTAMPTZ: {
        bool tz = from == TY_TIMESTAMPTZ;
        if (to == TY_DATE) {
            out->v.i = ty_ts_to_date(in->v.i, tz, ty__tz(ctx));
            return true;
        }
        if (to == TY_TIMESTAMP || to == TY_TIMESTAMPTZ) {
            if (in->v.i == TY_DT_NOBEGIN || in->v.i == TY_DT_NOEND)
                return true;
            out->v.i = to == TY_TIMESTAMPTZ ? ty_timestamp_to_tz(in->v.i, ty__tz(ctx))
                                            : ty_timestamptz_to_local(in->v.i, ty__tz(ctx));
            if (!ty_ts_in_range(out->v.i))
                return ty_ts_err_range(ctx);
            return true;
        }
        if (to == TY_TIME) {
            if (in->v.i == TY_DT_NOBEGIN || in->v.i == TY_DT_NOEND)
                return cm_err_set(ctx->err, CM_ERRCODE_DATETIME_FIELD_OVERFLOW, "timestamp out of range");
            int64_t local = tz ? ty_timestamptz_to_local(in->v.i, ty__tz(ctx)) : in->v.i;
            int64_t t = local % TY_USECS_PER_DAY;
            out->v.i = t < 0 ? t + TY_USECS_PER_DAY : t;
            return true;
        }
        break;
    }
    case TY_TIME:
        if (to == TY_INTERVAL) {
            out->v.iv = (ty_interval_t){in->v.i, 0, 0};
            return true;
        }
        break;
    case TY_INTERVAL:
        if (to == TY_TIME) {
            int64_t t = in->v.iv.us % TY_USECS_PER_DAY;
            out->v.i = t < 0 ? t + TY_USECS_PER_DAY : t;
            return true;
        }
        break;
    case TY_JSON:
    case TY_JSONB:
        if (from == TY_JSON && to == TY_JSONB)
            return ty_jsonb_in(ctx, in->v.s.p, in->v.s.len, out);
        if (to == TY_JSON)
            return true;   /* jsonb's text is valid json */
        break;
    default: break;
    }
    /* I/O conversion: print, then read as the target type. */
    if (ts || fs || from == TY_UNKNOWN) {
        cm_buf_t b;
        cm_buf_init(&b, 0);
        bool ok = ty_datum_to_text(from, in, ctx, &b);
        if (ok) {
            if (ts) {
                *out = ty_buf_datum(ctx->arena, &b);
            } else {
                size_t len = b.len;
                if (from == TY_BPCHAR)
                    len = ty_bpchar_len((const char *)b.data, len);
                /* A literal's input sees the interval typmod, which decides what a
                 * bare number means (interval '1' day); other strings do not. */
                int32_t in_typmod = from == TY_UNKNOWN && to == TY_INTERVAL ? typmod : -1;
                ok = ty_datum_from_text(to, in_typmod, b.len ? (const char *)b.data : "", len, ctx, out);
            }
        }
        cm_buf_free(&b);
        return ok;
    }
    return cm_err_set(ctx->err, CM_ERRCODE_CANNOT_COERCE, "cannot cast type %s to %s",
                      ty_info(from) ? ty_info(from)->sql_name : "unknown", ty_info(to) ? ty_info(to)->sql_name : "unknown");
}

static bool ty__apply_typmod(ty_oid_t to, int32_t typmod, ty_ctx_t *ctx, ty_datum_t *out, bool explicit_cast)
{
    if (typmod < 0)
        return true;
    switch (to) {
    case TY_NUMERIC: return ty_num_apply_typmod(ctx, out->v.n, typmod, &out->v.n);
    case TY_VARCHAR:
    case TY_BPCHAR: return ty_string_apply_typmod(ctx, to, typmod, explicit_cast, out);
    case TY_TIMESTAMP:
    case TY_TIMESTAMPTZ:
    case TY_TIME: return ty_timestamp_round(ctx, &out->v.i, typmod);
    case TY_INTERVAL: return ty_interval_apply_typmod(ctx, &out->v.iv, typmod);
    default:
        /* An array's typmod belongs to its elements. */
        if (ty_is_array_type(to))
            return ty_array_cast(to, to, typmod, explicit_cast, out, ctx, out);
        return true;
    }
}

static bool ty__cast(ty_oid_t from, ty_oid_t to, int32_t typmod, const ty_datum_t *in, ty_ctx_t *ctx, ty_datum_t *out,
                     bool explicit_cast)
{
    if (in->isnull) {
        memset(out, 0, sizeof(*out));
        out->isnull = true;
        return true;
    }
    ty_datum_t tmp;
    if (!ty__convert(from, to, typmod, in, ctx, &tmp, explicit_cast))
        return false;
    tmp.isnull = false;
    if (!ty__apply_typmod(to, typmod, ctx, &tmp, explicit_cast))
        return false;
    *out = tmp;
    return true;
}

bool ty_cast_datum(ty_oid_t from, ty_oid_t to, int32_t typmod, const ty_datum_t *in, ty_ctx_t *ctx, ty_datum_t *out)
{
    return ty__cast(from, to, typmod, in, ctx, out, true);
}

bool ty_cast_datum_assign(ty_oid_t from, ty_oid_t to, int32_t typmod, const ty_datum_t *in, ty_ctx_t *ctx,
                          ty_datum_t *out)
{
    return ty__cast(from, to, typmod, in, ctx, out, false);
}
