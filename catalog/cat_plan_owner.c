/*
 * cat_plan_owner.c: ALTER {TABLE | VIEW | ... | SCHEMA | DATABASE} x OWNER
 * TO r, with PostgreSQL 15's rules (ATExecChangeOwner,
 * AlterSchemaOwner_internal, AlterDatabaseOwner): nothing to do when r owns
 * it already; else a superuser, or the owner who is a member of r and
 * (relation) whose new owner may create in the schema, (schema) who may
 * create in the database, (database) who has CREATEDB. The object is
 * redefined in place with its ACL moved to the new owner (aclnewowner).
 * REASSIGN OWNED takes the steps without the checks (cat__owner_*_op), as
 * PostgreSQL's shdepReassignOwned calls its ALTER OWNER routines.
 */
#include "catalog/cat_int.h"

#include <string.h>

/* aclnewowner: every mention of the old owner becomes the new one, entries that then coincide merged. */
static cat_acl_t acl_newowner(cm_arena_t *a, const cat_acl_t *acl, cat_id_t to)
{
    cat_acl_t r = {.owner = to, .set = acl->set, .defacls = acl->defacls, .ndefacls = acl->ndefacls};
    if (!acl->set)
        return r;
    cat_aclitem_t *v = acl->n ? cm_arena_alloc(a, acl->n * sizeof(cat_aclitem_t)) : NULL;
    uint32_t n = 0;
    for (uint32_t i = 0; i < acl->n; i++) {
        cat_aclitem_t it = acl->items[i];
        if (it.grantee == acl->owner)
            it.grantee = to;
        if (it.grantor == acl->owner)
            it.grantor = to;
        uint32_t j = 0;
        while (j < n && !(v[j].grantee == it.grantee && v[j].grantor == it.grantor))
            j++;
        if (j < n) {
            v[j].privs |= it.privs;
            v[j].grant |= it.grant;
        } else {
            v[n++] = it;
        }
    }
    r.items = v;
    r.n = n;
    return r;
}

/* The checks every kind shares; *noop when `to` owns it already. */
static bool may_give(const cat_snap_t *s, const cat_search_t *search, const cat_acl_t *acl, cat_id_t to,
                     const char *noun, const char *name, bool *noop, cm_err_t *err)
{
    *noop = acl->owner == to;
    if (*noop)
        return true;
    const cat_role_t *me = cat_search_role(s, search);
    if (cat_role_is_superuser(me))
        return true;
    if (!cat_check_owner(s, search, acl, noun, name, err))
        return false;
    const cat_role_t *r = cat_snap_role_by_id(s, to);
    if (!r || !cat_role_is_member(s, me, r)) {
        char buf[32];
        return cm_err_set(err, CAT__ERRCODE_INSUFFICIENT_PRIVILEGE, "must be member of role \"%s\"",
                          cat_role_id_name(s, search, to, buf));
    }
    return true;
}

/* A role that is no catalog role (the bootstrap superuser) has every privilege. */
static const cat_role_t *role_or_super(const cat_snap_t *s, cat_id_t id)
{
    return id == CAT_ROLE_BOOTSTRAP ? NULL : cat_snap_role_by_id(s, id);
}

bool cat__owner_item_op(const cat_snap_t *s, const cat_item_t *it, cat_id_t to, cat_change_t *out, cm_err_t *err)
{
    if (it->acl.owner == to)
        return true;
    cat_item_def_t def = {.kind = it->kind};
    if (!cat_plan_alter_item(s, it, &def, out, err))
        return false;
    for (size_t i = 0; i < out->nops; i++) {
        cat__op_t *op = &out->ops[i];
        if (op->kind != CAT_OP_RENAME || op->obj.cls != CAT_CLASS_ITEM || op->obj.id != it->id)
            continue;
        op->obj.acl = acl_newowner(&out->arena, &it->acl, to);
        /* change_owner_fix_column_acls: the columns' privileges move to the new owner too. */
        for (uint32_t c = 0; c < op->obj.ncolumns; c++) {
            cat_column_t *col = &op->obj.columns[c];
            if (col->nacl == 0)
                continue;
            cat_acl_t was = {.owner = it->acl.owner, .set = true, .items = col->acl, .n = col->nacl};
            cat_acl_t now = acl_newowner(&out->arena, &was, to);
            col->acl = now.items;
            col->nacl = now.n;
        }
    }
    return true;
}

bool cat_plan_owner_item(const cat_snap_t *s, const cat_search_t *search, const cat_item_t *it, cat_id_t to,
                         cat_change_t *out, cm_err_t *err)
{
    cat__change_base(out, s);
    bool noop;
    if (!may_give(s, search, &it->acl, to, cat_item_owner_noun(it), it->name, &noop, err))
        return false;
    if (noop)
        return true;
    if (!cat_role_is_superuser(cat_search_role(s, search)) &&
        !(cat_acl_privs(s, &it->schema->acl, 'n', role_or_super(s, to), false) & CAT_PRIV_CREATE))
        return cm_err_set(err, CAT__ERRCODE_INSUFFICIENT_PRIVILEGE, "permission denied for schema %s",
                          it->schema->name);
    return cat__owner_item_op(s, it, to, out, err);
}

bool cat_plan_owner_schema(const cat_snap_t *s, const cat_search_t *search, const cat_schema_t *sc, cat_id_t to,
                           cat_change_t *out, cm_err_t *err)
{
    cat__change_base(out, s);
    bool noop;
    if (!may_give(s, search, &sc->acl, to, "schema", sc->name, &noop, err))
        return false;
    if (noop)
        return true;
    if (!sc->database)
        return cm_err_set(err, CAT__ERRCODE_INSUFFICIENT_PRIVILEGE, "permission denied: \"%s\" is a system schema",
                          sc->name);
    if (!(cat_acl_privs(s, &sc->database->acl, 'd', cat_search_role(s, search), false) & CAT_PRIV_CREATE))
        return cm_err_set(err, CAT__ERRCODE_INSUFFICIENT_PRIVILEGE, "permission denied for database %s",
                          sc->database->name);
    cat__op_t *op = cat__change_op(out, CAT_OP_RENAME);
    op->obj.cls = CAT_CLASS_SCHEMA;
    op->obj.id = sc->id;
    op->obj.oid = sc->oid;
    op->obj.parent = sc->database->id;
    op->obj.name = cm_arena_strdup(&out->arena, sc->name);
    op->obj.acl = acl_newowner(&out->arena, &sc->acl, to);
    return true;
}

void cat__owner_database_op(const cat_database_t *db, cat_id_t to, cat_change_t *out)
{
    if (db->acl.owner == to)
        return;
    cat__op_t *op = cat__change_op(out, CAT_OP_RENAME);
    op->obj.cls = CAT_CLASS_DATABASE;
    op->obj.id = db->id;
    op->obj.oid = db->oid;
    op->obj.name = cm_arena_strdup(&out->arena, db->name);
    op->obj.acl = acl_newowner(&out->arena, &db->acl, to);
}

bool cat_plan_owner_database(const cat_snap_t *s, const cat_search_t *search, const cat_database_t *db, cat_id_t to,
                             cat_change_t *out, cm_err_t *err)
{
    cat__change_base(out, s);
    bool noop;
    if (!may_give(s, search, &db->acl, to, "database", db->name, &noop, err))
        return false;
    if (noop)
        return true;
    const cat_role_t *me = cat_search_role(s, search);
    if (!cat_role_is_superuser(me) && !(me->flags & CAT_ROLE_CREATEDB))
        return cm_err_set(err, CAT__ERRCODE_INSUFFICIENT_PRIVILEGE, "permission denied to change owner of database");
    cat__owner_database_op(db, to, out);
    return true;
}
