/*
 * ty_func_misc.c: session and system functions (version, current_database,
 * current_schema, current_user, session_user, user, pg_backend_pid) and
 * gen_random_uuid.
 */
#include "types/ty_internal.h"

#include <openssl/rand.h>
#include <string.h>

static bool ty__str_or_null(ty_ctx_t *c, const char *s, ty_datum_t *o)
{
    if (s == NULL) {
        o->isnull = true;
        return true;
    }
    *o = ty_text_datum(c->arena, s, strlen(s));
    return true;
}

static bool ty__version(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o) { return ty__str_or_null(c, c->version, o); }
static bool ty__database(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o) { return ty__str_or_null(c, c->database, o); }
/* current_schema(): the first existing schema of search_path when the catalog can tell. */
static bool ty__schema(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    if (c->catalog_fn != NULL)
        return c->catalog_fn(c->catalog_arg, TY_CATFN_CURRENT_SCHEMA, NULL, 0, c, o);
    return ty__str_or_null(c, c->schema, o);
}
static bool ty__user(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o) { return ty__str_or_null(c, c->user, o); }
static bool ty__session_user(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    return ty__str_or_null(c, c->session_user ? c->session_user : c->user, o);
}

/* The process id of the session as BackendKeyData told it (the key a CancelRequest names);
 * sessions share one process here, so each gets a number of its own. */
static bool ty__backend_pid(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.i = c->backend_pid;
    return true;
}

static bool ty__gen_uuid(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    if (RAND_bytes(o->v.uuid, 16) != 1)
        return cm_err_set(c->err, CM_ERRCODE_INTERNAL_ERROR, "could not generate random values");
    o->v.uuid[6] = (uint8_t)((o->v.uuid[6] & 0x0f) | 0x40);   /* version 4 */
    o->v.uuid[8] = (uint8_t)((o->v.uuid[8] & 0x3f) | 0x80);   /* RFC 4122 variant */
    return true;
}

static const ty_func_t ty__misc[] = {
    {"version", 0, {0}, TY_TEXT, 0, ty__version, 89},
    {"current_database", 0, {0}, TY_NAME, 0, ty__database, 861},
    {"current_schema", 0, {0}, TY_NAME, 0, ty__schema, 1402},
    {"current_user", 0, {0}, TY_NAME, 0, ty__user, 745},
    {"session_user", 0, {0}, TY_NAME, 0, ty__session_user, 746},
    {"user", 0, {0}, TY_NAME, 0, ty__user, 745},
    {"current_role", 0, {0}, TY_NAME, 0, ty__user, 745},
    {"pg_backend_pid", 0, {0}, TY_INT4, 0, ty__backend_pid, 2026},
    {"gen_random_uuid", 0, {0}, TY_UUID, TY_FN_VOLATILE, ty__gen_uuid, 3432},
};

const ty_func_table_t ty_funcs_misc = {ty__misc, CM_ARRAY_LEN(ty__misc)};
