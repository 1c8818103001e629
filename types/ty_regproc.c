/*
 * ty_regproc.c: the functions pg_type names for each type eddy has (its
 * input, output, receive, send, typmod and subscript functions) with
 * PostgreSQL 15's OIDs and names, and regproc's text input and output over
 * them. Drivers compare pg_type.typinput with 'array_in'::regproc to tell
 * arrays apart (pgJDBC's TypeInfoCache), so both sides must be PostgreSQL's.
 *
 * These are the only functions regproc can name: eddy's pg_proc is empty
 * (no user functions), and a name outside this table is 42883 as for a
 * function PostgreSQL does not have.
 */
#include "types/ty_internal.h"

#include <ctype.h>
#include <string.h>

static const struct {
    uint32_t oid;
    const char *name;
} ty__procs[] = {
    {31, "byteaout"}, {33, "charout"}, {34, "namein"}, {35, "nameout"}, {38, "int2in"}, {39, "int2out"},
    {42, "int4in"}, {43, "int4out"}, {44, "regprocin"}, {45, "regprocout"}, {46, "textin"}, {47, "textout"},
    {109, "unknownin"}, {110, "unknownout"}, {200, "float4in"}, {201, "float4out"}, {214, "float8in"},
    {215, "float8out"}, {321, "json_in"}, {322, "json_out"}, {323, "json_recv"}, {324, "json_send"},
    {460, "int8in"}, {461, "int8out"}, {750, "array_in"}, {751, "array_out"}, {1044, "bpcharin"},
    {1045, "bpcharout"}, {1046, "varcharin"}, {1047, "varcharout"}, {1084, "date_in"}, {1085, "date_out"},
    {1143, "time_in"}, {1144, "time_out"}, {1150, "timestamptz_in"}, {1151, "timestamptz_out"},
    {1160, "interval_in"}, {1161, "interval_out"}, {1242, "boolin"}, {1243, "boolout"}, {1244, "byteain"},
    {1245, "charin"}, {1312, "timestamp_in"}, {1313, "timestamp_out"}, {1701, "numeric_in"},
    {1702, "numeric_out"}, {1798, "oidin"}, {1799, "oidout"}, {2218, "regclassin"}, {2219, "regclassout"},
    {2220, "regtypein"}, {2221, "regtypeout"}, {2290, "record_in"}, {2291, "record_out"}, {2298, "void_in"},
    {2299, "void_out"}, {2400, "array_recv"}, {2401, "array_send"}, {2402, "record_recv"}, {2403, "record_send"},
    {2404, "int2recv"}, {2405, "int2send"}, {2406, "int4recv"}, {2407, "int4send"}, {2408, "int8recv"},
    {2409, "int8send"}, {2412, "bytearecv"}, {2413, "byteasend"}, {2414, "textrecv"}, {2415, "textsend"},
    {2416, "unknownrecv"}, {2417, "unknownsend"}, {2418, "oidrecv"}, {2419, "oidsend"}, {2422, "namerecv"},
    {2423, "namesend"}, {2424, "float4recv"}, {2425, "float4send"}, {2426, "float8recv"}, {2427, "float8send"},
    {2430, "bpcharrecv"}, {2431, "bpcharsend"}, {2432, "varcharrecv"}, {2433, "varcharsend"},
    {2434, "charrecv"}, {2435, "charsend"}, {2436, "boolrecv"}, {2437, "boolsend"}, {2444, "regprocrecv"},
    {2445, "regprocsend"}, {2452, "regclassrecv"}, {2453, "regclasssend"}, {2454, "regtyperecv"},
    {2455, "regtypesend"}, {2460, "numeric_recv"}, {2461, "numeric_send"}, {2468, "date_recv"},
    {2469, "date_send"}, {2470, "time_recv"}, {2471, "time_send"}, {2474, "timestamp_recv"},
    {2475, "timestamp_send"}, {2476, "timestamptz_recv"}, {2477, "timestamptz_send"}, {2478, "interval_recv"},
    {2479, "interval_send"}, {2903, "intervaltypmodin"}, {2904, "intervaltypmodout"},
    {2905, "timestamptypmodin"}, {2906, "timestamptypmodout"}, {2907, "timestamptztypmodin"},
    {2908, "timestamptztypmodout"}, {2909, "timetypmodin"}, {2910, "timetypmodout"}, {2913, "bpchartypmodin"},
    {2914, "bpchartypmodout"}, {2915, "varchartypmodin"}, {2916, "varchartypmodout"}, {2917, "numerictypmodin"},
    {2918, "numerictypmodout"}, {2952, "uuid_in"}, {2953, "uuid_out"}, {2961, "uuid_recv"}, {2962, "uuid_send"},
    {3120, "void_recv"}, {3121, "void_send"}, {3803, "jsonb_send"}, {3804, "jsonb_out"}, {3805, "jsonb_recv"},
    {3806, "jsonb_in"}, {3816, "array_typanalyze"}, {4084, "regnamespacein"}, {4085, "regnamespaceout"},
    {4087, "regnamespacerecv"}, {4088, "regnamespacesend"}, {6098, "jsonb_subscript_handler"},
    {6179, "array_subscript_handler"}, {6180, "raw_array_subscript_handler"},
};

/* A scalar type's functions: input, output, receive, send, typmodin, typmodout, subscript. */
static const struct {
    ty_oid_t type;
    uint32_t in, out, recv, send, modin, modout, subscript;
} ty__type_procs[] = {
    {TY_BOOL, 1242, 1243, 2436, 2437, 0, 0, 0},
    {TY_BYTEA, 1244, 31, 2412, 2413, 0, 0, 0},
    {TY_CHAR, 1245, 33, 2434, 2435, 0, 0, 0},
    {TY_NAME, 34, 35, 2422, 2423, 0, 0, 6180},
    {TY_INT8, 460, 461, 2408, 2409, 0, 0, 0},
    {TY_INT2, 38, 39, 2404, 2405, 0, 0, 0},
    {TY_INT4, 42, 43, 2406, 2407, 0, 0, 0},
    {TY_REGPROC, 44, 45, 2444, 2445, 0, 0, 0},
    {TY_TEXT, 46, 47, 2414, 2415, 0, 0, 0},
    {TY_OID, 1798, 1799, 2418, 2419, 0, 0, 0},
    {TY_JSON, 321, 322, 323, 324, 0, 0, 0},
    {TY_FLOAT4, 200, 201, 2424, 2425, 0, 0, 0},
    {TY_FLOAT8, 214, 215, 2426, 2427, 0, 0, 0},
    {TY_UNKNOWN, 109, 110, 2416, 2417, 0, 0, 0},
    {TY_BPCHAR, 1044, 1045, 2430, 2431, 2913, 2914, 0},
    {TY_VARCHAR, 1046, 1047, 2432, 2433, 2915, 2916, 0},
    {TY_DATE, 1084, 1085, 2468, 2469, 0, 0, 0},
    {TY_TIME, 1143, 1144, 2470, 2471, 2909, 2910, 0},
    {TY_TIMESTAMP, 1312, 1313, 2474, 2475, 2905, 2906, 0},
    {TY_TIMESTAMPTZ, 1150, 1151, 2476, 2477, 2907, 2908, 0},
    {TY_INTERVAL, 1160, 1161, 2478, 2479, 2903, 2904, 0},
    {TY_NUMERIC, 1701, 1702, 2460, 2461, 2917, 2918, 0},
    {TY_REGCLASS, 2218, 2219, 2452, 2453, 0, 0, 0},
    {TY_REGTYPE, 2220, 2221, 2454, 2455, 0, 0, 0},
    {TY_REGNAMESPACE, 4084, 4085, 4087, 4088, 0, 0, 0},
    {TY_RECORD, 2290, 2291, 2402, 2403, 0, 0, 0},
    {TY_VOID, 2298, 2299, 3120, 3121, 0, 0, 0},
    {TY_UUID, 2952, 2953, 2961, 2962, 0, 0, 0},
    {TY_JSONB, 3806, 3804, 3805, 3803, 0, 0, 6098},
};

bool ty_type_procs(ty_oid_t type, ty_type_procs_t *out)
{
    memset(out, 0, sizeof(*out));
    ty_oid_t elem = ty_array_elem_type(type);
    ty_oid_t base = elem != TY_INVALID ? elem : type;
    for (size_t i = 0; i < CM_ARRAY_LEN(ty__type_procs); i++) {
        if (ty__type_procs[i].type != base)
            continue;
        /* An array type reads and writes through array_in & co. and keeps its element's typmod functions. */
        out->input = elem ? 750 : ty__type_procs[i].in;
        out->output = elem ? 751 : ty__type_procs[i].out;
        out->receive = elem ? 2400 : ty__type_procs[i].recv;
        out->send = elem ? 2401 : ty__type_procs[i].send;
        out->modin = ty__type_procs[i].modin;
        out->modout = ty__type_procs[i].modout;
        out->analyze = elem ? 3816 : 0;
        out->subscript = elem ? 6179 : ty__type_procs[i].subscript;
        return true;
    }
    return false;
}

const char *ty_proc_name(uint32_t oid)
{
    for (size_t i = 0; i < CM_ARRAY_LEN(ty__procs); i++)
        if (ty__procs[i].oid == oid)
            return ty__procs[i].name;
    return NULL;
}

/*
 * regprocin: digits are the OID itself and "-" is InvalidOid; otherwise a
 * function name as SQL writes it, optionally qualified (unquoted parts
 * fold to lower case). A name this table lacks, or one in a schema other
 * than pg_catalog, is 42883 "function ... does not exist" (PostgreSQL says
 * 3F000 first for a schema it does not have; these functions cannot see
 * the catalog's schemas).
 */
bool ty__regproc_in(const char *p, size_t len, ty_ctx_t *ctx, int64_t *out)
{
    size_t digits = 0;
    while (digits < len && isdigit((unsigned char)p[digits]))
        digits++;
    if (len > 0 && digits == len)
        return ty_int_parse(p, len, TY_OID, ctx, out);
    if (len == 1 && p[0] == '-') {
        *out = 0;
        return true;
    }
    /* Split at unquoted dots and fold unquoted letters: "pg_catalog".Array_In -> pg_catalog, array_in. */
    size_t part[4];
    int nparts = 0;
    cm_buf_t b;
    cm_buf_init(&b, len + 4);
    bool quoted = false, bad = false;
    size_t at = 0;
    size_t i = 0;
    while (i < len && isspace((unsigned char)p[i]))
        i++;
    for (; i <= len && !bad; i++) {
        char ch = i < len ? p[i] : '\0';
        if (quoted) {
            if (i == len)
                bad = true;
            else if (ch == '"' && i + 1 < len && p[i + 1] == '"')
                cm_buf_put_u8(&b, (uint8_t)p[++i]);
            else if (ch == '"')
                quoted = false;
            else
                cm_buf_put_u8(&b, (uint8_t)ch);
            continue;
        }
        if (ch == '"') {
            quoted = true;
        } else if (i == len || ch == '.') {
            if (b.len == at)
                bad = true;
            else if (nparts < 4)
                part[nparts] = at;
            nparts++;
            cm_buf_put_u8(&b, 0);
            at = b.len;
        } else if (isspace((unsigned char)ch)) {
            size_t j = i;
            while (j < len && isspace((unsigned char)p[j]))
                j++;
            if (j < len && p[j] != '.')
                bad = true;   /* a blank inside a name, not around it */
            i = j - 1;
        } else {
            cm_buf_put_u8(&b, (uint8_t)tolower((unsigned char)ch));
        }
    }
    if (bad || nparts == 0) {
        cm_buf_free(&b);
        return cm_err_set(ctx->err, "42602", "invalid name syntax");
    }
    if (nparts > 3) {
        cm_buf_free(&b);
        return cm_err_set(ctx->err, "42601", "improper qualified name (too many dotted names): %.*s", (int)len, p);
    }
    if (nparts == 3) {
        cm_buf_free(&b);
        return cm_err_set(ctx->err, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                          "cross-database references are not implemented: %.*s", (int)len, p);
    }
    const char *name = (const char *)b.data + part[nparts - 1];
    uint32_t oid = 0;
    if (nparts == 1 || strcmp((const char *)b.data, "pg_catalog") == 0)
        for (size_t k = 0; k < CM_ARRAY_LEN(ty__procs) && oid == 0; k++)
            if (strcmp(ty__procs[k].name, name) == 0)
                oid = ty__procs[k].oid;
    cm_buf_free(&b);
    if (oid == 0)
        return cm_err_set(ctx->err, "42883", "function \"%.*s\" does not exist", (int)len, p);
    *out = oid;
    return true;
}

/* regprocout: the name where this table has it (pg_catalog is always on the path), else the number. */
bool ty__regproc_out(const ty_datum_t *d, cm_buf_t *out)
{
    uint32_t oid = (uint32_t)d->v.i;
    const char *name = oid != 0 ? ty_proc_name(oid) : "-";
    if (name != NULL)
        cm_buf_put_str(out, name);
    else
        cm_buf_printf(out, "%u", (unsigned)oid);
    return true;
}
