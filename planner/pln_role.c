/*
 * pln_role.c: CREATE / ALTER / DROP ROLE and role membership as catalog
 * changes (cat_plan_role.c validates them). The role running the statement
 * is the session's current user, looked up in the same snapshot; a password
 * is turned into a SCRAM-SHA-256 verifier here, by the hasher the server
 * installs (the planner does not link the server's SCRAM code), unless it
 * already is one, which is stored as given, as PostgreSQL does.
 */
#include "planner/pln_internal.h"

#include <stdlib.h>
#include <string.h>

static pln_password_hasher_fn pln__hasher;
static pln_setting_check_fn pln__setting_check;

void pln_set_password_hasher(pln_password_hasher_fn fn)
{
    pln__hasher = fn;
}

void pln_set_setting_checker(pln_setting_check_fn fn)
{
    pln__setting_check = fn;
}

/* ALTER ROLE r SET name {TO|=} value | DEFAULT, RESET name, RESET ALL. */
static bool plan_role_setting(pln_binder_t *b, const cat_role_t *actor, const cat_role_t *role,
                              const sql_stmt_t *set, cat_change_t *out)
{
    const char *name = NULL, *value = NULL;
    if (set->kind == SQL_STMT_SET) {
        name = set->var_name;
        value = set->set_default ? NULL : pln__set_value(b, set->var_values);
    } else {
        name = set->var_name;   /* NULL: RESET ALL */
    }
    if (name) {
        char *lower = cm_arena_strdup(b->arena, name);
        cm_str_lower(lower);
        name = lower;
        if (pln__setting_check && !pln__setting_check(&name, value, b->err))
            return false;
    }
    return cat_plan_alter_role_setting(b->cat->snap, actor, role, name, value, out, b->err);
}

bool pln__is_role_stmt(const sql_stmt_t *s)
{
    switch (s->kind) {
    case SQL_STMT_CREATE_ROLE:
    case SQL_STMT_ALTER_ROLE:
    case SQL_STMT_DROP_ROLE:
    case SQL_STMT_GRANT_ROLE:
    case SQL_STMT_REVOKE_ROLE:
    case SQL_STMT_REASSIGN_OWNED:
    case SQL_STMT_DROP_OWNED:
        return true;
    default:
        return false;
    }
}

static const char *verifier(pln_binder_t *b, const char *password)
{
    if (!password)
        return NULL;
    if (strncmp(password, "SCRAM-SHA-256$", 14) == 0)
        return password;
    if (!pln__hasher) {
        cm_err_set(b->err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "passwords cannot be stored here");
        return NULL;
    }
    char *v = pln__hasher(password);
    if (!v) {
        cm_err_set(b->err, CM_ERRCODE_INTERNAL_ERROR, "could not build a SCRAM verifier");
        return NULL;
    }
    const char *copy = cm_arena_strdup(b->arena, v);
    free(v);
    return copy;
}

static bool role_def(pln_binder_t *b, const sql_role_t *r, cat_role_def_t *def)
{
    *def = (cat_role_def_t){.name = r->name, .flags = r->flags & 0xffu, .conn_limit = -1};
    if (r->set & SQL_ROLE_CONN_LIMIT) {
        if (r->conn_limit < INT32_MIN || r->conn_limit > INT32_MAX)
            return cm_err_set(b->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "value out of range for type integer");
        def->conn_limit = (int32_t)r->conn_limit;
    }
    if ((r->set & SQL_ROLE_PASSWORD) && r->password) {
        /* PostgreSQL ignores an empty password, with a notice (the role then has none). */
        if (r->password[0] != 0) {
            def->password = verifier(b, r->password);
            if (!def->password)
                return false;
        }
    }
    if (r->set & SQL_ROLE_VALID_UNTIL) {
        ty_datum_t d;
        if (!ty_datum_from_text(TY_TIMESTAMPTZ, -1, r->valid_until, strlen(r->valid_until), &b->ctx, &d))
            return false;
        def->has_valid_until = !d.isnull;
        def->valid_until = d.v.i;
    }
    return true;
}

/*
 * REASSIGN OWNED BY roles TO role, DROP OWNED BY roles (ReassignOwnedObjects,
 * DropOwnedObjects): the roles are looked up first (42704), then the user
 * must have the privileges of each, and of the new owner once it is found.
 */
static bool plan_owned(pln_binder_t *b, const sql_stmt_t *s, cat_change_t *out)
{
    const cat_snap_t *snap = b->cat->snap;
    const cat_search_t *search = &b->cat->search;
    const sql_role_t *r = s->role;
    const cat_role_t *me = cat_search_role(snap, search);
    bool reassign = s->kind == SQL_STMT_REASSIGN_OWNED;
    const char *denied = reassign ? "permission denied to reassign objects" : "permission denied to drop objects";
    int n = sql_list_len(r->owners);
    cat_id_t *ids = cm_arena_alloc(b->arena, (size_t)(n ? n : 1) * sizeof(cat_id_t));
    for (int i = 0; i < n; i++)
        if (!pln__rolespec_id(b, r->owners->items[i], &ids[i]))
            return false;
    for (int i = 0; i < n; i++)
        if (!cat_role_has_privs_of(snap, me, ids[i]))
            return pln__error(b, -1, "42501", "%s", denied);
    if (!reassign)
        return cat_plan_drop_owned(snap, search, ids, (size_t)n, r->behavior == SQL_DROP_CASCADE, out, b->err);
    cat_id_t to;
    if (!pln__rolespec_id(b, r->new_owner, &to))
        return false;
    if (!cat_role_has_privs_of(snap, me, to))
        return pln__error(b, -1, "42501", "%s", denied);
    return cat_plan_reassign_owned(snap, search, ids, (size_t)n, to, out, b->err);
}

bool pln__plan_role(pln_binder_t *b, const sql_stmt_t *s, cat_change_t *out)
{
    const cat_snap_t *snap = b->cat->snap;
    const sql_role_t *r = s->role;
    const cat_role_t *actor = cat_snap_role(snap, b->cat->search.user);
    const char *session_name = b->cat->search.session_user ? b->cat->search.session_user : b->cat->search.user;
    const cat_role_t *session = cat_snap_role(snap, session_name);
    cat_role_def_t def;
    switch (s->kind) {
    case SQL_STMT_CREATE_ROLE:
        if (!role_def(b, r, &def))
            return false;
        /* CREATE USER logs in by default, CREATE ROLE not; both inherit. */
        if (!(r->set & SQL_ROLE_LOGIN) && r->is_user)
            def.flags |= CAT_ROLE_LOGIN;
        if (!(r->set & SQL_ROLE_INHERIT))
            def.flags |= CAT_ROLE_INHERIT;
        return cat_plan_create_role(snap, actor, &def, out, b->err);
    case SQL_STMT_ALTER_ROLE: {
        const cat_role_t *role = cat_snap_role(snap, r->name);
        if (!role)
            return cm_err_set(b->err, "42704", "role \"%s\" does not exist", r->name);
        if (r->setting)
            return plan_role_setting(b, actor, role, r->setting, out);
        if (!role_def(b, r, &def))
            return false;
        return cat_plan_alter_role(snap, actor, role, r->set, &def, out, b->err);
    }
    case SQL_STMT_DROP_ROLE: {
        int n = sql_list_len(r->names);
        return cat_plan_drop_roles(snap, &b->cat->search, actor, session, (const char *const *)r->names->items, (size_t)n, r->if_exists,
                                   out, b->err);
    }
    case SQL_STMT_GRANT_ROLE:
    case SQL_STMT_REVOKE_ROLE:
        if (r->with_columns)
            return pln__error(b, -1, "0LP01", "column names cannot be included in GRANT/REVOKE ROLE");
        return cat_plan_grant_roles(snap, actor, (const char *const *)r->names->items, (size_t)sql_list_len(r->names),
                                    (const char *const *)r->members->items, (size_t)sql_list_len(r->members),
                                    s->kind == SQL_STMT_REVOKE_ROLE, out, b->err);
    case SQL_STMT_REASSIGN_OWNED:
    case SQL_STMT_DROP_OWNED:
        return plan_owned(b, s, out);
    default:
        break;
    }
    return cm_err_set(b->err, CM_ERRCODE_INTERNAL_ERROR, "unexpected role statement %d", (int)s->kind);
}
