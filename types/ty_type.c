/*
 * ty_type.c: the table of supported types with PostgreSQL's OIDs and
 * pg_type attributes, the SQL spellings of type names, and format_type().
 */
#include "types/ty_internal.h"

#include <string.h>

static const ty_info_t ty__types[] = {
    {TY_BOOL, "bool", "boolean", 1, TY_CAT_BOOL, true, 1000},
    {TY_BYTEA, "bytea", "bytea", -1, TY_CAT_USER, false, 1001},
    {TY_CHAR, "char", "\"char\"", 1, 'Z', false, 1002},
    {TY_NAME, "name", "name", 64, TY_CAT_STRING, false, 1003},
    {TY_INT8, "int8", "bigint", 8, TY_CAT_NUMERIC, false, 1016},
    {TY_INT2, "int2", "smallint", 2, TY_CAT_NUMERIC, false, 1005},
    {TY_INT4, "int4", "integer", 4, TY_CAT_NUMERIC, false, 1007},
    {TY_REGPROC, "regproc", "regproc", 4, TY_CAT_NUMERIC, false, 1008},
    {TY_TEXT, "text", "text", -1, TY_CAT_STRING, true, 1009},
    {TY_OID, "oid", "oid", 4, TY_CAT_NUMERIC, true, 1028},
    {TY_JSON, "json", "json", -1, TY_CAT_USER, false, 199},
    {TY_FLOAT4, "float4", "real", 4, TY_CAT_NUMERIC, false, 1021},
    {TY_FLOAT8, "float8", "double precision", 8, TY_CAT_NUMERIC, true, 1022},
    {TY_UNKNOWN, "unknown", "unknown", -2, TY_CAT_UNKNOWN, false, 0},
    {TY_BPCHAR, "bpchar", "character", -1, TY_CAT_STRING, false, 1014},
    {TY_VARCHAR, "varchar", "character varying", -1, TY_CAT_STRING, false, 1015},
    {TY_DATE, "date", "date", 4, TY_CAT_DATETIME, false, 1182},
    {TY_TIME, "time", "time without time zone", 8, TY_CAT_DATETIME, false, 1183},
    {TY_TIMESTAMP, "timestamp", "timestamp without time zone", 8, TY_CAT_DATETIME, false, 1115},
    {TY_TIMESTAMPTZ, "timestamptz", "timestamp with time zone", 8, TY_CAT_DATETIME, true, 1185},
    {TY_INTERVAL, "interval", "interval", 16, TY_CAT_TIMESPAN, true, 1187},
    {TY_NUMERIC, "numeric", "numeric", -1, TY_CAT_NUMERIC, false, 1231},
    {TY_REGCLASS, "regclass", "regclass", 4, TY_CAT_NUMERIC, false, 2210},
    {TY_REGTYPE, "regtype", "regtype", 4, TY_CAT_NUMERIC, false, 2211},
    {TY_REGNAMESPACE, "regnamespace", "regnamespace", 4, TY_CAT_NUMERIC, false, 4090},
    {TY_RECORD, "record", "record", -1, TY_CAT_PSEUDO, false, 2287},
    {TY_VOID, "void", "void", 4, TY_CAT_PSEUDO, false, 0},
    {TY_UUID, "uuid", "uuid", 16, TY_CAT_USER, false, 2951},
    {TY_JSONB, "jsonb", "jsonb", -1, TY_CAT_USER, false, 3807},
    /* Array types: array_oid 0; ty_array_elem_type() finds the element type. */
    {TY_BOOL_ARRAY, "_bool", "boolean[]", -1, TY_CAT_ARRAY, false, 0},
    {TY_BYTEA_ARRAY, "_bytea", "bytea[]", -1, TY_CAT_ARRAY, false, 0},
    {TY_CHAR_ARRAY, "_char", "\"char\"[]", -1, TY_CAT_ARRAY, false, 0},
    {TY_NAME_ARRAY, "_name", "name[]", -1, TY_CAT_ARRAY, false, 0},
    {TY_INT2_ARRAY, "_int2", "smallint[]", -1, TY_CAT_ARRAY, false, 0},
    {TY_INT4_ARRAY, "_int4", "integer[]", -1, TY_CAT_ARRAY, false, 0},
    {TY_TEXT_ARRAY, "_text", "text[]", -1, TY_CAT_ARRAY, false, 0},
    {TY_BPCHAR_ARRAY, "_bpchar", "character[]", -1, TY_CAT_ARRAY, false, 0},
    {TY_VARCHAR_ARRAY, "_varchar", "character varying[]", -1, TY_CAT_ARRAY, false, 0},
    {TY_INT8_ARRAY, "_int8", "bigint[]", -1, TY_CAT_ARRAY, false, 0},
    {TY_FLOAT4_ARRAY, "_float4", "real[]", -1, TY_CAT_ARRAY, false, 0},
    {TY_FLOAT8_ARRAY, "_float8", "double precision[]", -1, TY_CAT_ARRAY, false, 0},
    {TY_OID_ARRAY, "_oid", "oid[]", -1, TY_CAT_ARRAY, false, 0},
    {TY_TIMESTAMP_ARRAY, "_timestamp", "timestamp without time zone[]", -1, TY_CAT_ARRAY, false, 0},
    {TY_DATE_ARRAY, "_date", "date[]", -1, TY_CAT_ARRAY, false, 0},
    {TY_TIME_ARRAY, "_time", "time without time zone[]", -1, TY_CAT_ARRAY, false, 0},
    {TY_TIMESTAMPTZ_ARRAY, "_timestamptz", "timestamp with time zone[]", -1, TY_CAT_ARRAY, false, 0},
    {TY_INTERVAL_ARRAY, "_interval", "interval[]", -1, TY_CAT_ARRAY, false, 0},
    {TY_NUMERIC_ARRAY, "_numeric", "numeric[]", -1, TY_CAT_ARRAY, false, 0},
    {TY_REGTYPE_ARRAY, "_regtype", "regtype[]", -1, TY_CAT_ARRAY, false, 0},
    {TY_UUID_ARRAY, "_uuid", "uuid[]", -1, TY_CAT_ARRAY, false, 0},
    {TY_JSON_ARRAY, "_json", "json[]", -1, TY_CAT_ARRAY, false, 0},
    {TY_JSONB_ARRAY, "_jsonb", "jsonb[]", -1, TY_CAT_ARRAY, false, 0},
};

ty_oid_t ty_array_type_of(ty_oid_t elem)
{
    const ty_info_t *ti = ty_info(elem);
    if (ti == NULL || ti->array_oid == 0 || ty_info(ti->array_oid) == NULL)
        return TY_INVALID;
    return ti->array_oid;
}

ty_oid_t ty_array_elem_type(ty_oid_t arr)
{
    const ty_info_t *ti = ty_info(arr);
    if (ti == NULL || ti->category != TY_CAT_ARRAY)
        return TY_INVALID;
    for (size_t i = 0; i < CM_ARRAY_LEN(ty__types); i++)
        if (ty__types[i].array_oid == arr)
            return ty__types[i].oid;
    return TY_INVALID;
}

bool ty_is_array_type(ty_oid_t t)
{
    const ty_info_t *ti = ty_info(t);
    return ti != NULL && ti->category == TY_CAT_ARRAY;
}

const ty_info_t *ty_info_at(size_t i)
{
    return i < CM_ARRAY_LEN(ty__types) ? &ty__types[i] : NULL;
}

const ty_info_t *ty_info(ty_oid_t oid)
{
    for (size_t i = 0; i < CM_ARRAY_LEN(ty__types); i++)
        if (ty__types[i].oid == oid)
            return &ty__types[i];
    return NULL;
}

/* Spellings the grammar accepts beyond pg_type.typname and format_type(). */
static const struct {
    const char *name;
    ty_oid_t oid;
} ty__aliases[] = {
    {"boolean", TY_BOOL},
    {"int", TY_INT4},
    {"integer", TY_INT4},
    {"smallint", TY_INT2},
    {"bigint", TY_INT8},
    {"real", TY_FLOAT4},
    {"float", TY_FLOAT8},
    {"double precision", TY_FLOAT8},
    {"double", TY_FLOAT8},
    {"decimal", TY_NUMERIC},
    {"dec", TY_NUMERIC},
    {"character varying", TY_VARCHAR},
    {"char varying", TY_VARCHAR},
    {"character", TY_BPCHAR},
    {"char", TY_BPCHAR},   /* SQL's char(n) is bpchar; the one-byte type is written "char" quoted */
    {"\"char\"", TY_CHAR},
    {"string", TY_TEXT},
    {"time without time zone", TY_TIME},
    {"timestamp without time zone", TY_TIMESTAMP},
    {"timestamp with time zone", TY_TIMESTAMPTZ},
    {"timestamptz", TY_TIMESTAMPTZ},
};

const ty_info_t *ty_info_by_name(const char *name)
{
    if (name == NULL)
        return NULL;
    /* Accept a pg_catalog. qualifier, as PostgreSQL does. */
    if (cm_strncasecmp(name, "pg_catalog.", 11) == 0)
        name += 11;
    for (size_t i = 0; i < CM_ARRAY_LEN(ty__aliases); i++)
        if (cm_strcasecmp(ty__aliases[i].name, name) == 0)
            return ty_info(ty__aliases[i].oid);
    for (size_t i = 0; i < CM_ARRAY_LEN(ty__types); i++)
        if (cm_strcasecmp(ty__types[i].name, name) == 0)
            return &ty__types[i];
    return NULL;
}

void ty_format_type(ty_oid_t oid, int32_t typmod, cm_buf_t *out)
{
    const ty_info_t *ti = ty_info(oid);
    if (ti == NULL) {
        cm_buf_put_str(out, "???");
        return;
    }
    switch (oid) {
    case TY_BPCHAR:
        if (typmod >= 4)
            cm_buf_printf(out, "character(%d)", typmod - 4);
        else
            cm_buf_put_str(out, "bpchar");
        return;
    case TY_VARCHAR:
        if (typmod >= 4)
            cm_buf_printf(out, "character varying(%d)", typmod - 4);
        else
            cm_buf_put_str(out, "character varying");
        return;
    case TY_NUMERIC:
        if (typmod >= 4) {
            int32_t tm = typmod - 4;
            cm_buf_printf(out, "numeric(%d,%d)", (tm >> 16) & 0xffff, ((tm & 0x7ff) ^ 1024) - 1024);
        } else {
            cm_buf_put_str(out, "numeric");
        }
        return;
    case TY_TIME:
    case TY_TIMESTAMP:
    case TY_TIMESTAMPTZ: {
        const char *base = oid == TY_TIME ? "time" : "timestamp";
        const char *suffix = oid == TY_TIMESTAMPTZ ? "with time zone" : "without time zone";
        if (typmod >= 0)
            cm_buf_printf(out, "%s(%d) %s", base, typmod, suffix);
        else
            cm_buf_printf(out, "%s %s", base, suffix);
        return;
    }
    case TY_INTERVAL:
        cm_buf_put_str(out, "interval");
        ty_interval_format_typmod(typmod, out);
        return;
    default:
        if (ti->category == TY_CAT_ARRAY) {
            /* The element's spelling with the typmod, then [] ("character varying(10)[]"). */
            ty_format_type(ty_array_elem_type(oid), typmod, out);
            cm_buf_put_str(out, "[]");
            return;
        }
        cm_buf_put_str(out, ti->sql_name);
        return;
    }
}

bool ty_is_string_type(ty_oid_t t)
{
    return t == TY_TEXT || t == TY_VARCHAR || t == TY_BPCHAR || t == TY_NAME || t == TY_UNKNOWN;
}
