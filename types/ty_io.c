/*
 * ty_io.c: text and binary input/output of every supported type, dispatched
 * on the type OID (PostgreSQL's typinput/typoutput/typreceive/typsend).
 * Date and time formats live in ty_datetime*.c, numeric in ty_numeric_io.c.
 */
#include "types/ty_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ===== helpers ===== */

static bool ty__isspace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Length of the UTF-8 sequence that starts with byte c, 0 if c cannot start one. */
static int ty__utf8_seqlen(unsigned char c)
{
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        return 2;
    if (c >= 0xE0 && c <= 0xEF)
        return 3;
    if (c >= 0xF0 && c <= 0xF4)
        return 4;
    return 0;
}

/* Text must be valid UTF-8 without NUL; the message names the bad bytes as
 * PostgreSQL's report_invalid_encoding does. */
static bool ty__check_utf8(ty_ctx_t *ctx, const char *p, size_t len)
{
    if (cm_utf8_valid(p, len))
        return true;
    size_t i = 0;
    while (i < len) {
        int n = ty__utf8_seqlen((unsigned char)p[i]);
        if (n > 0 && (size_t)n <= len - i && p[i] != 0 && cm_utf8_valid(p + i, (size_t)n)) {
            i += (size_t)n;
            continue;
        }
        if (n == 0)
            n = 1;
        char hex[32];
        size_t h = 0;
        for (int k = 0; k < n && i + (size_t)k < len; k++)
            h += (size_t)snprintf(hex + h, sizeof(hex) - h, "%s0x%02x", k ? " " : "", (unsigned char)p[i + (size_t)k]);
        if (p[i] != 0 && (size_t)n > len - i)
            return cm_err_set(ctx->err, CM_ERRCODE_CHARACTER_NOT_IN_REPERTOIRE,
                              "incomplete multibyte character for encoding \"UTF8\": %s", hex);
        return cm_err_set(ctx->err, CM_ERRCODE_CHARACTER_NOT_IN_REPERTOIRE,
                          "invalid byte sequence for encoding \"UTF8\": %s", hex);
    }
    return true;
}

static bool ty__bool_in(const char *p, size_t len, ty_ctx_t *ctx, bool *out)
{
    const char *orig = p;
    size_t olen = len;
    while (len > 0 && ty__isspace(*p)) {
        p++;
        len--;
    }
    while (len > 0 && ty__isspace(p[len - 1]))
        len--;
    if (len > 0) {
        switch (p[0] | 0x20) {
        case 't':
            if (cm_strncasecmp(p, "true", len) == 0 && len <= 4)
                return *out = true, true;
            break;
        case 'f':
            if (cm_strncasecmp(p, "false", len) == 0 && len <= 5)
                return *out = false, true;
            break;
        case 'y':
            if (cm_strncasecmp(p, "yes", len) == 0 && len <= 3)
                return *out = true, true;
            break;
        case 'n':
            if (cm_strncasecmp(p, "no", len) == 0 && len <= 2)
                return *out = false, true;
            break;
        case 'o':
            /* "o" alone is ambiguous between on and off. */
            if (len >= 2 && cm_strncasecmp(p, "on", len) == 0 && len <= 2)
                return *out = true, true;
            if (len >= 2 && cm_strncasecmp(p, "off", len) == 0 && len <= 3)
                return *out = false, true;
            break;
        case '1' | 0x20:
            if (len == 1 && p[0] == '1')
                return *out = true, true;
            break;
        case '0' | 0x20:
            if (len == 1 && p[0] == '0')
                return *out = false, true;
            break;
        default: break;
        }
    }
    return ty_err_syntax(ctx, "boolean", orig, olen);
}

static int ty__hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static bool ty__bytea_in(const char *p, size_t len, ty_ctx_t *ctx, ty_datum_t *out)
{
    if (len >= 2 && p[0] == '\\' && p[1] == 'x') {
        char *o = cm_arena_alloc(ctx->arena, len / 2 + 1);
        size_t n = 0;
        for (size_t i = 2; i < len;) {
            if (ty__isspace(p[i])) {
                i++;
                continue;
            }
            int hi = ty__hexval(p[i]);
            if (hi < 0)
                return cm_err_set(ctx->err, CM_ERRCODE_INVALID_TEXT_REPRESENTATION, "invalid hexadecimal digit: \"%c\"",
                                  p[i]);
            if (i + 1 >= len)
                return cm_err_set(ctx->err, CM_ERRCODE_INVALID_TEXT_REPRESENTATION,
                                  "invalid hexadecimal data: odd number of digits");
            int lo = ty__hexval(p[i + 1]);
            if (lo < 0)
                return cm_err_set(ctx->err, CM_ERRCODE_INVALID_TEXT_REPRESENTATION, "invalid hexadecimal digit: \"%c\"",
                                  p[i + 1]);
            o[n++] = (char)(hi << 4 | lo);
            i += 2;
        }
        out->v.s.p = o;
        out->v.s.len = (uint32_t)n;
        return true;
    }
    /* The escape format: \\ and \ooo; any other backslash is an error. */
    char *o = cm_arena_alloc(ctx->arena, len + 1);
    size_t n = 0;
    for (size_t i = 0; i < len;) {
        if (p[i] != '\\') {
            o[n++] = p[i++];
        } else if (i + 1 < len && p[i + 1] == '\\') {
            o[n++] = '\\';
            i += 2;
        } else if (i + 3 < len + 0 && p[i + 1] >= '0' && p[i + 1] <= '3' && p[i + 2] >= '0' && p[i + 2] <= '7' &&
                   p[i + 3] >= '0' && p[i + 3] <= '7') {
            o[n++] = (char)((p[i + 1] - '0') << 6 | (p[i + 2] - '0') << 3 | (p[i + 3] - '0'));
            i += 4;
        } else {
            return cm_err_set(ctx->err, CM_ERRCODE_INVALID_TEXT_REPRESENTATION, "invalid input syntax for type bytea");
        }
    }
    out->v.s.p = o;
    out->v.s.len = (uint32_t)n;
    return true;
}

static void ty__bytea_out(const ty_datum_t *d, bool escape, cm_buf_t *out)
{
    const unsigned char *p = (const unsigned char *)d->v.s.p;
    static const char hex[] = "0123456789abcdef";
    if (!escape) {
        cm_buf_put_str(out, "\\x");
        for (uint32_t i = 0; i < d->v.s.len; i++) {
            cm_buf_put_u8(out, (uint8_t)hex[p[i] >> 4]);
            cm_buf_put_u8(out, (uint8_t)hex[p[i] & 15]);
        }
        return;
    }
    for (uint32_t i = 0; i < d->v.s.len; i++) {
        if (p[i] == '\\')
            cm_buf_put_str(out, "\\\\");
        else if (p[i] < 0x20 || p[i] > 0x7e)
            cm_buf_printf(out, "\\%03o", p[i]);
        else
            cm_buf_put_u8(out, p[i]);
    }
}

static bool ty__uuid_in(const char *p, size_t len, ty_ctx_t *ctx, uint8_t *out)
{
    size_t i = 0, end = len;
    bool brace = len > 0 && p[0] == '{';
    if (brace) {
        i = 1;
        if (len < 2 || p[len - 1] != '}')
            return ty_err_syntax(ctx, "uuid", p, len);
        end = len - 1;
    }
    for (int b = 0; b < 16; b++) {
        if (i + 2 > end)
            return ty_err_syntax(ctx, "uuid", p, len);
        int hi = ty__hexval(p[i]), lo = ty__hexval(p[i + 1]);
        if (hi < 0 || lo < 0)
            return ty_err_syntax(ctx, "uuid", p, len);
        out[b] = (uint8_t)(hi << 4 | lo);
        i += 2;
        /* A hyphen may follow any group of four hex digits. */
        if (i < end && p[i] == '-' && b % 2 == 1 && b < 15)
            i++;
    }
    if (i != end)
        return ty_err_syntax(ctx, "uuid", p, len);
    return true;
}

static void ty__uuid_out(const uint8_t *u, cm_buf_t *out)
{
    static const char hex[] = "0123456789abcdef";
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            cm_buf_put_u8(out, '-');
        cm_buf_put_u8(out, (uint8_t)hex[u[i] >> 4]);
        cm_buf_put_u8(out, (uint8_t)hex[u[i] & 15]);
    }
}

/* name is truncated to NAMEDATALEN - 1 bytes on a character boundary. */
static uint32_t ty__name_len(const char *p, uint32_t len)
{
    if (len <= 63)
        return len;
    uint32_t cut = 63;
    while (cut > 0 && ((unsigned char)p[cut] & 0xC0) == 0x80)
        cut--;
    return cut;
}

/* ===== text input ===== */

/* True when the text is an OID as a number (spaces around it allowed), not a name. */
static bool ty__all_digits(const char *p, size_t len)
{
    while (len && ty__isspace(*p))
        p++, len--;
    while (len && ty__isspace(p[len - 1]))
        len--;
    if (len == 0)
        return false;
    for (size_t i = 0; i < len; i++)
        if ((p[i] < '0' || p[i] > '9') && !(i == 0 && (p[i] == '-' || p[i] == '+')))
            return false;
    return true;
}

bool ty_datum_from_text(ty_oid_t type, int32_t typmod, const char *p, size_t len, ty_ctx_t *ctx, ty_datum_t *out)
{
    memset(out, 0, sizeof(*out));
    switch (type) {
    case TY_BOOL: return ty__bool_in(p, len, ctx, &out->v.b);
    case TY_INT2:
    case TY_INT4:
    case TY_INT8:
    case TY_OID:
    case TY_REGCLASS:
    case TY_REGNAMESPACE:
        if ((type == TY_REGCLASS || type == TY_REGNAMESPACE) && ctx->catalog_fn != NULL && !ty__all_digits(p, len)) {
            /* A name: the catalog resolves it as regclassin / regnamespacein do (42P01, 3F000 when missing). */
            ty_datum_t name = ty_text_datum(ctx->arena, p, len);
            return ctx->catalog_fn(ctx->catalog_arg, type == TY_REGCLASS ? TY_CATFN_REGCLASS_IN : TY_CATFN_REGNAMESPACE_IN,
                                   &name, 1, ctx, out);
        }
        return ty_int_parse(p, len, type == TY_INT2 || type == TY_INT4 || type == TY_INT8 ? type : TY_OID, ctx,
                            &out->v.i);
    case TY_REGTYPE: return ty__regtype_in(p, len, ctx, &out->v.i);
    case TY_REGPROC: return ty__regproc_in(p, len, ctx, &out->v.i);
    case TY_FLOAT4:
    case TY_FLOAT8: return ty_float_parse(p, len, type, ctx, &out->v.f);
    case TY_NUMERIC: {
        ty_numeric_t *n;
        if (!ty_numeric_from_text(p, len, ctx, &n) || !ty_num_apply_typmod(ctx, n, typmod, &n))
            return false;
        out->v.n = n;
        return true;
    }
    case TY_TEXT:
    case TY_VARCHAR:
    case TY_BPCHAR:
    case TY_NAME:
    case TY_UNKNOWN:
    case TY_JSON:
    case TY_JSONB:
        if (!ty__check_utf8(ctx, p, len))
            return false;
        if (type == TY_JSON)
            return ty_json_in(ctx, p, len, out);
        if (type == TY_JSONB)
            return ty_jsonb_in(ctx, p, len, out);
        *out = ty_text_datum(ctx->arena, p, type == TY_NAME ? ty__name_len(p, (uint32_t)len) : len);
        return ty_string_apply_typmod(ctx, type, typmod, false, out);
    case TY_CHAR: {
        char c = len > 0 ? p[0] : 0;
        if (len == 4 && p[0] == '\\' && p[1] >= '0' && p[1] <= '3' && p[2] >= '0' && p[2] <= '7' && p[3] >= '0' &&
            p[3] <= '7')
            c = (char)((p[1] - '0') << 6 | (p[2] - '0') << 3 | (p[3] - '0'));
        *out = ty_text_datum(ctx->arena, &c, c ? 1 : 0);
        return true;
    }
    case TY_BYTEA: return ty__bytea_in(p, len, ctx, out);
    case TY_UUID: return ty__uuid_in(p, len, ctx, out->v.uuid);
    case TY_DATE: return ty_date_in(p, len, ctx, &out->v.i);
    case TY_TIME:
        return ty_time_in(p, len, ctx, &out->v.i) && (typmod < 0 || ty_timestamp_round(ctx, &out->v.i, typmod));
    case TY_TIMESTAMP:
    case TY_TIMESTAMPTZ:
        return ty_timestamp_in(p, len, type == TY_TIMESTAMPTZ, ctx, &out->v.i) &&
               ty_timestamp_round(ctx, &out->v.i, typmod);
    case TY_INTERVAL:
        return ty_interval_in_range(p, len, ty_interval_typmod_range(typmod), ctx, &out->v.iv) &&
               ty_interval_apply_typmod(ctx, &out->v.iv, typmod);
    case TY_VOID: return true;
    case TY_RECORD:
        /* Without a declared row type there are no column types to read with. */
        return cm_err_set(ctx->err, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                          "input of anonymous composite types is not implemented");
    default: {
        if (ty_is_array_type(type))
            return ty_array_in(type, typmod, p, len, ctx, out);
        const ty_info_t *ti = ty_info(type);
        return cm_err_set(ctx->err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "input of type %s is not supported",
                          ti ? ti->sql_name : "unknown");
    }
    }
}

/* ===== text output ===== */

/*
 * Decimal digits of an integer without printf: integer output is on the hot
 * path of every result row (SELECT 1 spends a quarter of its user time in
 * vsnprintf otherwise).
 */
static void ty__put_int64(cm_buf_t *out, int64_t v)
{
    char tmp[24];
    char *p = tmp + sizeof(tmp);
    /* Work on the unsigned magnitude so INT64_MIN needs no special case. */
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u != 0);
    if (v < 0)
        *--p = '-';
    cm_buf_put(out, p, (size_t)(tmp + sizeof(tmp) - p));
}

bool ty_datum_to_text(ty_oid_t type, const ty_datum_t *d, ty_ctx_t *ctx, cm_buf_t *out)
{
    const ty_settings_t *st = ctx->settings;
    ty_settings_t def;
    if (st == NULL) {
        ty_settings_default(&def);
        st = &def;
    }
    switch (type) {
    case TY_BOOL: cm_buf_put_u8(out, d->v.b ? 't' : 'f'); return true;
    case TY_INT2:
    case TY_INT4:
    case TY_INT8: ty__put_int64(out, d->v.i); return true;
    case TY_REGCLASS:
    case TY_REGNAMESPACE:
        if (ctx != NULL && ctx->catalog_fn != NULL) {
            /* The object's name where the catalog has it, as regclassout / regnamespaceout; else the number. */
            ty_datum_t name = {0};
            if (!ctx->catalog_fn(ctx->catalog_arg,
                                 type == TY_REGCLASS ? TY_CATFN_REGCLASS_OUT : TY_CATFN_REGNAMESPACE_OUT, d, 1, ctx,
                                 &name))
                return false;
            if (!name.isnull) {
                cm_buf_put(out, name.v.s.p, name.v.s.len);
                return true;
            }
        }
        cm_buf_printf(out, "%u", (unsigned)d->v.i);
        return true;
    case TY_REGPROC: return ty__regproc_out(d, out);
    case TY_OID: cm_buf_printf(out, "%u", (unsigned)d->v.i); return true;
    case TY_REGTYPE: return ty__regtype_out(d, out);
    case TY_FLOAT4: ty_float_out(d->v.f, true, st->extra_float_digits, out); return true;
    case TY_FLOAT8: ty_float_out(d->v.f, false, st->extra_float_digits, out); return true;
    case TY_NUMERIC: ty_num_to_text(d->v.n, ctx->arena, out); return true;
    case TY_TEXT:
    case TY_VARCHAR:
    case TY_BPCHAR:
    case TY_NAME:
    case TY_UNKNOWN:
    case TY_JSON:
    case TY_JSONB: cm_buf_put(out, d->v.s.p, d->v.s.len); return true;
    case TY_CHAR: {
        unsigned char c = d->v.s.len ? (unsigned char)d->v.s.p[0] : 0;
        if (c >= 0x80)
            cm_buf_printf(out, "\\%03o", c);
        else if (c)
            cm_buf_put_u8(out, c);
        return true;
    }
    case TY_BYTEA: ty__bytea_out(d, st->bytea_output_escape, out); return true;
    case TY_UUID: ty__uuid_out(d->v.uuid, out); return true;
    case TY_DATE: ty_date_out(d->v.i, st, out); return true;
    case TY_TIME: ty_time_out(d->v.i, out); return true;
    case TY_TIMESTAMP: ty_timestamp_out(d->v.i, false, st, out); return true;
    case TY_TIMESTAMPTZ: ty_timestamp_out(d->v.i, true, st, out); return true;
    case TY_INTERVAL: ty_interval_out(&d->v.iv, st, out); return true;
    case TY_VOID: return true;
    case TY_RECORD: return ty_record_out(d, ctx, out);
    default: {
        if (ty_is_array_type(type))
            return ty_array_out(type, d, ctx, out);
        const ty_info_t *ti = ty_info(type);
        return cm_err_set(ctx->err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "output of type %s is not supported",
                          ti ? ti->sql_name : "unknown");
    }
    }
}

/* ===== binary ===== */

bool ty_has_binary(ty_oid_t type)
{
    switch (type) {
    case TY_BOOL: case TY_INT2: case TY_INT4: case TY_INT8: case TY_OID: case TY_REGPROC: case TY_REGCLASS:
    case TY_REGTYPE: case TY_REGNAMESPACE: case TY_FLOAT4: case TY_FLOAT8: case TY_NUMERIC: case TY_TEXT: case TY_VARCHAR: case TY_BPCHAR:
    case TY_NAME: case TY_UNKNOWN: case TY_BYTEA: case TY_CHAR: case TY_DATE: case TY_TIME: case TY_TIMESTAMP:
    case TY_TIMESTAMPTZ: case TY_INTERVAL: case TY_UUID: case TY_JSON: case TY_JSONB: case TY_VOID:
    case TY_RECORD:
        return true;
    default: return ty_is_array_type(type) && ty_has_binary(ty_array_elem_type(type));
    }
}

static uint64_t ty__be(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v = v << 8 | p[i];
    return v;
}

static bool ty__bin_err(ty_ctx_t *ctx)
{
    return cm_err_set(ctx->err, CM_ERRCODE_INVALID_BINARY_REPRESENTATION, "incorrect binary data format");
}

bool ty_datum_from_binary(ty_oid_t type, int32_t typmod, const uint8_t *p, size_t len, ty_ctx_t *ctx,
                          ty_datum_t *out)
{
    memset(out, 0, sizeof(*out));
    switch (type) {
    case TY_BOOL:
        if (len != 1)
            return ty__bin_err(ctx);
        out->v.b = p[0] != 0;
        return true;
    case TY_INT2:
        if (len != 2)
            return ty__bin_err(ctx);
        out->v.i = (int16_t)ty__be(p, 2);
        return true;
    case TY_INT4:
        if (len != 4)
            return ty__bin_err(ctx);
        out->v.i = (int32_t)ty__be(p, 4);
        return true;
    case TY_OID:
    case TY_REGPROC:
    case TY_REGCLASS:
    case TY_REGTYPE:
    case TY_REGNAMESPACE:
        if (len != 4)
            return ty__bin_err(ctx);
        out->v.i = (int64_t)(uint32_t)ty__be(p, 4);
        return true;
    case TY_INT8:
    case TY_TIME:
        if (len != 8)
            return ty__bin_err(ctx);
        out->v.i = (int64_t)ty__be(p, 8);
        if (type == TY_TIME && (out->v.i < 0 || out->v.i > TY_USECS_PER_DAY))
            return cm_err_set(ctx->err, CM_ERRCODE_INVALID_BINARY_REPRESENTATION, "time out of range");
        return type != TY_TIME || typmod < 0 || ty_timestamp_round(ctx, &out->v.i, typmod);
    case TY_TIMESTAMP:
    case TY_TIMESTAMPTZ:
        if (len != 8)
            return ty__bin_err(ctx);
        out->v.i = (int64_t)ty__be(p, 8);
        if (out->v.i != TY_DT_NOBEGIN && out->v.i != TY_DT_NOEND && !ty_ts_in_range(out->v.i))
            return cm_err_set(ctx->err, CM_ERRCODE_DATETIME_FIELD_OVERFLOW, "timestamp out of range");
        return ty_timestamp_round(ctx, &out->v.i, typmod);
    case TY_FLOAT4: {
        if (len != 4)
            return ty__bin_err(ctx);
        uint32_t u = (uint32_t)ty__be(p, 4);
        float f;
        memcpy(&f, &u, 4);
        out->v.f = f;
        return true;
    }
    case TY_FLOAT8: {
        if (len != 8)
            return ty__bin_err(ctx);
        uint64_t u = ty__be(p, 8);
        memcpy(&out->v.f, &u, 8);
        return true;
    }
    case TY_NUMERIC: {
        ty_numeric_t *n;
        if (!ty_num_recv(ctx, p, len, &n) || !ty_num_apply_typmod(ctx, n, typmod, &n))
            return false;
        out->v.n = n;
        return true;
    }
    case TY_TEXT:
    case TY_VARCHAR:
    case TY_BPCHAR:
    case TY_NAME:
    case TY_UNKNOWN:
    case TY_JSON:
        return ty_datum_from_text(type, typmod, (const char *)p, len, ctx, out);
    case TY_JSONB:
        /* jsonb_recv: a version byte (1) and the text. */
        if (len < 1 || p[0] != 1)
            return cm_err_set(ctx->err, CM_ERRCODE_INTERNAL_ERROR, "unsupported jsonb version number %d",
                              len < 1 ? 0 : p[0]);
        return ty_datum_from_text(type, typmod, (const char *)p + 1, len - 1, ctx, out);
    case TY_CHAR:
        if (len > 1)
            return ty__bin_err(ctx);
        *out = ty_text_datum(ctx->arena, (const char *)p, len == 1 && p[0] ? 1 : 0);
        return true;
    case TY_BYTEA: *out = ty_text_datum(ctx->arena, (const char *)p, len); return true;
    case TY_UUID:
        if (len != 16)
            return ty__bin_err(ctx);
        memcpy(out->v.uuid, p, 16);
        return true;
    case TY_DATE:
        if (len != 4)
            return ty__bin_err(ctx);
        out->v.i = (int32_t)ty__be(p, 4);
        if (out->v.i != TY_DATE_NOBEGIN && out->v.i != TY_DATE_NOEND && !ty_date_in_range(out->v.i))
            return cm_err_set(ctx->err, CM_ERRCODE_DATETIME_FIELD_OVERFLOW, "date out of range");
        return true;
    case TY_INTERVAL:
        if (len != 16)
            return ty__bin_err(ctx);
        out->v.iv.us = (int64_t)ty__be(p, 8);
        out->v.iv.days = (int32_t)ty__be(p + 8, 4);
        out->v.iv.months = (int32_t)ty__be(p + 12, 4);
        return ty_interval_apply_typmod(ctx, &out->v.iv, typmod);
    case TY_VOID: return true;
    case TY_RECORD:
        return cm_err_set(ctx->err, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                          "input of anonymous composite types is not implemented");
    default:
        if (ty_is_array_type(type))
            return ty_array_recv(type, typmod, p, len, ctx, out);
        return cm_err_set(ctx->err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "no binary input function available for type %s",
                          ty_info(type) ? ty_info(type)->sql_name : "unknown");
    }
}

bool ty_datum_to_binary(ty_oid_t type, const ty_datum_t *d, ty_ctx_t *ctx, cm_buf_t *out)
{
    switch (type) {
    case TY_BOOL: cm_buf_put_u8(out, d->v.b ? 1 : 0); return true;
    case TY_INT2: cm_buf_put_be16(out, (uint16_t)d->v.i); return true;
    case TY_INT4:
    case TY_OID:
    case TY_REGPROC:
    case TY_REGCLASS:
    case TY_REGTYPE:
    case TY_REGNAMESPACE:
    case TY_DATE: cm_buf_put_be32(out, (uint32_t)d->v.i); return true;
    case TY_INT8:
    case TY_TIME:
    case TY_TIMESTAMP:
    case TY_TIMESTAMPTZ: cm_buf_put_be64(out, (uint64_t)d->v.i); return true;
    case TY_FLOAT4: {
        float f = (float)d->v.f;
        uint32_t u;
        memcpy(&u, &f, 4);
        cm_buf_put_be32(out, u);
        return true;
    }
    case TY_FLOAT8: {
        uint64_t u;
        memcpy(&u, &d->v.f, 8);
        cm_buf_put_be64(out, u);
        return true;
    }
    case TY_NUMERIC: ty_num_send(d->v.n, ctx->arena, out); return true;
    case TY_TEXT:
    case TY_VARCHAR:
    case TY_BPCHAR:
    case TY_NAME:
    case TY_UNKNOWN:
    case TY_JSON:
    case TY_CHAR:
    case TY_BYTEA: cm_buf_put(out, d->v.s.p, d->v.s.len); return true;
    case TY_JSONB:
        cm_buf_put_u8(out, 1);
        cm_buf_put(out, d->v.s.p, d->v.s.len);
        return true;
    case TY_UUID: cm_buf_put(out, d->v.uuid, 16); return true;
    case TY_INTERVAL:
        cm_buf_put_be64(out, (uint64_t)d->v.iv.us);
        cm_buf_put_be32(out, (uint32_t)d->v.iv.days);
        cm_buf_put_be32(out, (uint32_t)d->v.iv.months);
        return true;
    case TY_VOID: return true;
    case TY_RECORD: return ty_record_send(d, ctx, out);
    default:
        if (ty_is_array_type(type))
            return ty_array_send(type, d, ctx, out);
        return cm_err_set(ctx->err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "no binary output function available for type %s",
                          ty_info(type) ? ty_info(type)->sql_name : "unknown");
    }
}
