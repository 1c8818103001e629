/*
 * pln_catfn_priv.c: has_table_privilege, has_schema_privilege,
 * has_database_privilege, has_column_privilege and has_any_column_privilege
 * (their column part in pln_catfn_colpriv.c) over the catalog's ACLs, as
 * PostgreSQL 15's acl.c:
 * the role by name (42704; "public" means PUBLIC alone), by OID or the
 * current user; the object by name (42P01, 3F000, 3D000) or OID (NULL when
 * none); the privileges a comma-separated list, each optionally WITH GRANT
 * OPTION (22023 for an unknown one); true when the role holds any of them.
 */
#include "planner/pln_internal.h"

#include <strings.h>
#include <string.h>

static const struct {
    int kind;
    const char *name;
    uint32_t priv;
} priv_names[] = {
    {TY_PRIV_TABLE, "SELECT", CAT_PRIV_SELECT},         {TY_PRIV_TABLE, "INSERT", CAT_PRIV_INSERT},
    {TY_PRIV_TABLE, "UPDATE", CAT_PRIV_UPDATE},         {TY_PRIV_TABLE, "DELETE", CAT_PRIV_DELETE},
    {TY_PRIV_TABLE, "TRUNCATE", CAT_PRIV_TRUNCATE},     {TY_PRIV_TABLE, "REFERENCES", CAT_PRIV_REFERENCES},
    {TY_PRIV_TABLE, "TRIGGER", CAT_PRIV_TRIGGER},       {TY_PRIV_TABLE, "RULE", 0},
    {TY_PRIV_SCHEMA, "CREATE", CAT_PRIV_CREATE},        {TY_PRIV_SCHEMA, "USAGE", CAT_PRIV_USAGE},
    {TY_PRIV_DATABASE, "CREATE", CAT_PRIV_CREATE},      {TY_PRIV_DATABASE, "TEMPORARY", CAT_PRIV_TEMPORARY},
    {TY_PRIV_DATABASE, "TEMP", CAT_PRIV_TEMPORARY},     {TY_PRIV_DATABASE, "CONNECT", CAT_PRIV_CONNECT},
    {TY_PRIV_COLUMN, "SELECT", CAT_PRIV_SELECT},        {TY_PRIV_COLUMN, "INSERT", CAT_PRIV_INSERT},
    {TY_PRIV_COLUMN, "UPDATE", CAT_PRIV_UPDATE},        {TY_PRIV_COLUMN, "REFERENCES", CAT_PRIV_REFERENCES},
};

#define WITH_GRANT " WITH GRANT OPTION"

/* convert_any_priv_string: *privs and *grants from "select, insert WITH GRANT OPTION". */
static bool parse_privs(ty_ctx_t *ctx, int kind, const ty_datum_t *text, uint32_t *privs, uint32_t *grants)
{
    if (kind == TY_PRIV_ANY_COLUMN)
        kind = TY_PRIV_COLUMN;   /* convert_column_priv_string */
    char *copy = cm_arena_strndup(ctx->arena, text->v.s.p, text->v.s.len);
    *privs = *grants = 0;
    for (char *chunk = copy; chunk;) {
        char *next = strchr(chunk, ',');
        if (next)
            *next++ = '\0';
        while (*chunk == ' ' || *chunk == '\t' || *chunk == '\n' || *chunk == '\r' || *chunk == '\f' || *chunk == '\v')
            chunk++;
        size_t len = strlen(chunk);
        while (len > 0 && (chunk[len - 1] == ' ' || chunk[len - 1] == '\t' || chunk[len - 1] == '\n' ||
                           chunk[len - 1] == '\r' || chunk[len - 1] == '\f' || chunk[len - 1] == '\v'))
            len--;
        chunk[len] = '\0';
        bool grant = len > strlen(WITH_GRANT) && strcasecmp(chunk + len - strlen(WITH_GRANT), WITH_GRANT) == 0;
        size_t base = grant ? len - strlen(WITH_GRANT) : len;
        bool found = false;
        for (size_t i = 0; i < CM_ARRAY_LEN(priv_names) && !found; i++) {
            if (priv_names[i].kind != kind || strlen(priv_names[i].name) != base ||
                strncasecmp(priv_names[i].name, chunk, base) != 0)
                continue;
            found = true;
            *(grant ? grants : privs) |= priv_names[i].priv;
        }
        if (!found)
            return cm_err_set(ctx->err, "22023", "unrecognized privilege type: \"%s\"", chunk);
        chunk = next;
    }
    return true;
}

bool pln__has_privilege(const pln_catalog_t *cat, ty_ctx_t *ctx, const ty_datum_t *args, ty_datum_t *out)
{
    const cat_snap_t *snap = cat->snap;
    int form = (int)args[0].v.i, kind = form % 256 / 16, rshape = form / 4 % 4, oshape = form % 4;
    bool by_attnum = (form & TY_PRIV_BY_ATTNUM) != 0;
    bool relation = kind == TY_PRIV_TABLE || kind == TY_PRIV_COLUMN || kind == TY_PRIV_ANY_COLUMN;
    if (!snap) {
        out->isnull = true;
        return true;
    }
    /* The role: a catalog role, NULL for a superuser, or one with no privileges but PUBLIC's. */
    static const cat_role_t nobody = {.id = CAT_ROLE_PUBLIC - 1};
    const cat_role_t *role = NULL;
    if (rshape == TY_PRIV_CURRENT) {
        role = cat_search_role(snap, &cat->search);
    } else if (rshape == TY_PRIV_BY_NAME) {
        const char *name = cm_arena_strndup(ctx->arena, args[1].v.s.p, args[1].v.s.len);
        role = cat_snap_role(snap, name);
        if (!role && strcmp(name, "public") == 0)
            role = &nobody;
        else if (!role && strcmp(name, cat_bootstrap_name(snap, &cat->search)) != 0)
            return cm_err_set(ctx->err, "42704", "role \"%s\" does not exist", name);
    } else {
        uint32_t oid = (uint32_t)args[1].v.i;
        role = oid == CAT_BOOTSTRAP_OID ? NULL : cat_snap_role_by_oid(snap, oid);
        if (!role && oid != CAT_BOOTSTRAP_OID)
            role = &nobody;
    }
    /* The object, by name (an error when missing) or OID (NULL when none, after the privileges parse). */
    const cat_acl_t *acl = NULL;
    cat_acl_t index_acl;
    bool readable_view = false;   /* pg_catalog's views: everyone may read them */
    uint32_t oid = (uint32_t)args[2].v.i;
    if (relation && oshape == TY_PRIV_BY_NAME) {
        ty_datum_t o = {0};
        if (!pln__regclass_in(cat, ctx, &args[2], &o))
            return false;
        oid = (uint32_t)o.v.i;
    }
    const char *name = oshape == TY_PRIV_BY_NAME ? cm_arena_strndup(ctx->arena, args[2].v.s.p, args[2].v.s.len) : NULL;
    const cat_item_t *it = NULL;
    if (relation) {
        it = cat_snap_item_by_oid(snap, oid);
        if (it && it->kind == CAT_ITEM_INDEX) {
            index_acl = (cat_acl_t){.owner = cat_item_owner_acl(snap, it)->acl.owner};
            acl = &index_acl;
        } else if (it) {
            acl = &it->acl;
        } else {
            readable_view = pln__catview_name(oid, NULL);
        }
    } else if (kind == TY_PRIV_SCHEMA) {
        const cat_schema_t *sc = NULL;
        if (name) {
            const cat_database_t *db = cat->search.database ? cat_snap_database(snap, cat->search.database) : NULL;
            sc = cat_snap_schema(snap, db, name);
            if (!sc)
                return cm_err_set(ctx->err, "3F000", "schema \"%s\" does not exist", name);
        } else {
            sc = pln__schema_by_oid(cat, oid);
        }
        acl = sc ? &sc->acl : NULL;
    } else {
        const cat_database_t *db = NULL;
        if (name) {
            db = cat_snap_database(snap, name);
            if (!db)
                return cm_err_set(ctx->err, "3D000", "database \"%s\" does not exist", name);
        } else {
            for (size_t i = 0; (db = cat_snap_database_at(snap, i)) && db->oid != oid; i++)
                ;
        }
        acl = db ? &db->acl : NULL;
    }
    int attnum = 0;
    if (kind == TY_PRIV_COLUMN && !pln__priv_column(ctx, it, readable_view, by_attnum, &args[4], &attnum))
        return false;
    uint32_t privs, grants;
    if (!parse_privs(ctx, kind, &args[3], &privs, &grants))
        return false;
    if (kind == TY_PRIV_COLUMN || kind == TY_PRIV_ANY_COLUMN)
        return pln__column_privilege(snap, role, it, acl, readable_view, kind == TY_PRIV_ANY_COLUMN ? PLN_PRIV_ANY_COLUMN : attnum,
                                     privs, grants, out);
    if (!acl && !readable_view) {
        out->isnull = true;
        return true;
    }
    if (cat_role_is_superuser(role)) {
        out->v.b = true;
        return true;
    }
    if (readable_view) {
        out->v.b = (privs & CAT_PRIV_SELECT) != 0;
        return true;
    }
    char objkind = kind == TY_PRIV_TABLE ? 'r' : kind == TY_PRIV_SCHEMA ? 'n' : 'd';
    out->v.b = (cat_acl_privs(snap, acl, objkind, role, false) & privs) != 0 ||
               (cat_acl_privs(snap, acl, objkind, role, true) & grants) != 0;
    return true;
}
