/*
 * ty_regtype.c: text output of regtype, as PostgreSQL's regtypeout: the
 * type's format_type() name ("integer", "character varying", "unknown"),
 * or the bare number for an OID that names no type here. pg_typeof()
 * returns regtype, so this is what clients see of it. Written by the
 * planner's maintainer for pg_typeof; ty_io.c calls it.
 *
 * Text input, as regtypein: a number is the OID itself; otherwise a type
 * name as SQL writes it ("integer", "character varying(10)", "int4[]",
 * "pg_catalog.text"), with modifiers ignored, or 42704 "type ... does not exist".
 */
#include "types/ty_internal.h"

#include <ctype.h>
#include <string.h>

bool ty__regtype_in(const char *p, size_t len, ty_ctx_t *ctx, int64_t *out)
{
    while (len && isspace((unsigned char)*p))
        p++, len--;
    while (len && isspace((unsigned char)p[len - 1]))
        len--;
    if (len && isdigit((unsigned char)*p))
        return ty_int_parse(p, len, TY_OID, ctx, out);
    /* Lower-case outside double quotes, drop (modifiers), count trailing []. */
    cm_buf_t name;
    cm_buf_init(&name, len + 1);
    bool quoted = false;
    int depth = 0, arrays = 0;
    for (size_t i = 0; i < len; i++) {
        char ch = p[i];
        if (ch == '"')
            quoted = !quoted;
        if (!quoted && ch == '(')
            depth++;
        else if (!quoted && ch == ')')
            depth--;
        else if (!quoted && ch == '[')
            arrays++;
        else if (depth == 0 && (quoted || ch != ']'))
            cm_buf_put_u8(&name, (uint8_t)(quoted ? ch : tolower((unsigned char)ch)));
    }
    while (name.len && name.data[name.len - 1] == ' ')
        name.len--;
    cm_buf_put_u8(&name, 0);
    const char *n = (const char *)name.data;
    /* A quoted name is exact ("char" is the one-byte type); otherwise the SQL spellings apply. */
    size_t nl = strlen(n);
    const ty_info_t *ti = NULL;
    const char *shown = NULL;   /* PostgreSQL names a quoted type without its quotes */
    if (nl >= 2 && n[0] == '"' && n[nl - 1] == '"' && strcmp(n, "\"char\"") != 0) {
        char *bare = cm_arena_alloc(ctx->arena, nl - 1);
        memcpy(bare, n + 1, nl - 2);
        bare[nl - 2] = '\0';
        ti = ty_info_by_name(bare);
        shown = bare;
        if (ti && strcmp(ti->name, bare) != 0)
            ti = NULL;   /* "integer" quoted is not a type name */
    } else {
        ti = ty_info_by_name(n);
    }
    ty_oid_t oid = ti ? ti->oid : TY_INVALID;
    if (oid != TY_INVALID && arrays > 0)
        oid = ty_array_type_of(oid);
    if (oid == TY_INVALID) {
        if (shown)
            cm_err_set(ctx->err, "42704", "type \"%s\" does not exist", shown);
        else
            cm_err_set(ctx->err, "42704", "type \"%.*s\" does not exist", (int)len, p);
        cm_buf_free(&name);
        return false;
    }
    cm_buf_free(&name);
    *out = oid;
    return true;
}

bool ty__regtype_out(const ty_datum_t *d, cm_buf_t *out)
{
    ty_oid_t oid = (ty_oid_t)d->v.i;
    if (oid == TY_UNKNOWN)
        cm_buf_put_str(out, "unknown");
    else if (oid != TY_INVALID && ty_info(oid))
        ty_format_type(oid, -1, out);
    else if (oid == TY_INVALID)
        cm_buf_put_u8(out, '-');   /* regtypeout prints InvalidOid as "-" */
    else
        cm_buf_printf(out, "%u", (unsigned)oid);
    return true;
}
