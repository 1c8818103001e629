/*
 * ty_regtype.c: text output of regtype, as PostgreSQL's regtypeout: the
 * type's format_type() name ("integer", "character varying", "unknown"),
 * or the bare number for an OID that names no type here. pg_typeof()
 * returns regtype, so this is what clients see of it. Written by the
 * planner's maintainer for pg_typeof; ty_io.c calls it.
 */
#include "types/ty_internal.h"

bool ty__regtype_out(const ty_datum_t *d, cm_buf_t *out);

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
