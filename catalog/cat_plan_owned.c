/*
 * cat_plan_owned.c: REASSIGN OWNED BY roles TO role and DROP OWNED BY roles,
 * as PostgreSQL 15's shdepReassignOwned and shdepDropOwned do them for the
 * objects eddy has. The caller checked that the user has the privileges of
 * every role named. Objects of other databases are left alone; databases
 * (shared objects) are reassigned and lose the roles' privileges, but are
 * never dropped.
 *
 * REASSIGN OWNED changes owners through the ALTER OWNER routines without
 * their checks, but a schema's (AlterSchemaOwner_internal keeps them: a
 * non-superuser needs CREATE on the database); default privileges stay.
 *
 * DROP OWNED first revokes every privilege the roles hold, on objects that
 * mention them in their ACLs, as REVOKE ALL ... FROM role CASCADE run by the
 * user (RemoveRoleFromObjectACL: its grantor and its warnings are the user's),
 * and in other roles' default privileges; then it drops the relations,
 * schemas and default privileges the roles own as one deletion
 * (performMultipleDeletions, newest first), with RESTRICT or CASCADE.
 */
#include "catalog/cat_int.h"

#include <stdlib.h>
#include <string.h>

static bool pinned(const cat_snap_t *s, const cat_search_t *search, cat_id_t role, const char *what, cm_err_t *err)
{
    if (role != CAT_ROLE_BOOTSTRAP)
        return false;
    char buf[32];
    cm_err_set(err, CAT__ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST,
               "cannot %s owned by role %s because they are required by the database system", what,
               cat_role_id_name(s, search, role, buf));
    return true;
}

static const cat_database_t *current_db(const cat_snap_t *s, const cat_search_t *search)
{
    return search && search->database ? cat_snap_database(s, search->database) : NULL;
}

/* One object a role owns or has privileges on, with its OID for ordering. */
typedef struct owned {
    cat_class_t cls;
    const void *obj;
    uint32_t oid;
} owned_t;

static int owned_cmp_desc(const void *a, const void *b)
{
    const owned_t *x = a, *y = b;
    return x->oid > y->oid ? -1 : x->oid < y->oid;
}

static int owned_cmp_asc(const void *a, const void *b)
{
    return owned_cmp_desc(b, a);
}

/* The objects of the current database (and the databases) whose owner is
 * `role` (mentioned false) or whose ACL names it (mentioned true), by OID. */
static size_t collect(const cat_snap_t *s, const cat_database_t *cur, cat_id_t role, bool mentioned,
                      cm_arena_t *a, owned_t **out)
{
    size_t cap = cat_snap_item_count(s) + 16, n = 0;
    for (size_t i = 0; cat_snap_schema_at(s, i); i++)
        cap++;
    for (size_t i = 0; cat_snap_database_at(s, i); i++)
        cap++;
    owned_t *v = cm_arena_alloc(a, cap * sizeof(owned_t));
#define OWNED_TAKE(acl_, cls_, obj_, oid_)                                                                           \
    do {                                                                                                             \
        const cat_acl_t *acl = (acl_);                                                                               \
        bool take = !mentioned && acl->owner == role;                                                                \
        for (uint32_t k = 0; mentioned && acl->owner != role && acl->set && k < acl->n && !take; k++)                \
            take = acl->items[k].grantee == role || acl->items[k].grantor == role;                                   \
        if (take && n < cap)                                                                                         \
            v[n++] = (owned_t){(cls_), (obj_), (oid_)};                                                              \
    } while (0)
    const cat_database_t *db;
    for (size_t i = 0; (db = cat_snap_database_at(s, i)); i++)
        OWNED_TAKE(&db->acl, CAT_CLASS_DATABASE, db, db->oid);
    const cat_schema_t *sc;
    for (size_t i = 0; (sc = cat_snap_schema_at(s, i)); i++)
        if (sc->database && sc->database == cur)
            OWNED_TAKE(&sc->acl, CAT_CLASS_SCHEMA, sc, sc->oid);
    const cat_item_t *it;
    for (size_t i = 0; (it = cat_snap_item_at(s, i)); i++)
        if (it->schema->database && it->schema->database == cur && it->kind != CAT_ITEM_INDEX) {
            size_t before = n;
            OWNED_TAKE(&it->acl, CAT_CLASS_ITEM, it, it->oid);
            /* Privileges on its columns name the role too (pg_shdepend rows with an objsubid). */
            for (uint32_t c = 0; mentioned && n == before && it->acl.owner != role && c < it->ncolumns; c++) {
                cat_acl_t col = {.owner = it->acl.owner, .set = true, .items = it->columns[c].acl,
                                 .n = it->columns[c].nacl};
                OWNED_TAKE(&col, CAT_CLASS_ITEM, it, it->oid);
            }
        }
#undef OWNED_TAKE
    if (n > 1)
        qsort(v, n, sizeof(owned_t), owned_cmp_asc);
    *out = v;
    return n;
}

bool cat_plan_reassign_owned(const cat_snap_t *s, const cat_search_t *search, const cat_id_t *roles, size_t nroles,
                             cat_id_t to, cat_change_t *out, cm_err_t *err)
{
    cat__change_base(out, s);
    const cat_database_t *cur = current_db(s, search);
    cm_arena_t a;
    cm_arena_init(&a, 1024);
    bool ok = true;
    for (size_t r = 0; ok && r < nroles; r++) {
        if (pinned(s, search, roles[r], "reassign ownership of objects", err)) {
            ok = false;
            break;
        }
        owned_t *v;
        size_t n = collect(s, cur, roles[r], false, &a, &v);
        for (size_t i = 0; ok && i < n; i++) {
            if (v[i].cls == CAT_CLASS_DATABASE)
                cat__owner_database_op(v[i].obj, to, out);
            else if (v[i].cls == CAT_CLASS_SCHEMA)
                ok = cat_plan_owner_schema(s, search, v[i].obj, to, out, err);
            else
                ok = cat__owner_item_op(s, v[i].obj, to, out, err);
        }
    }
    cm_arena_free(&a);
    return ok;
}

/* The op that redefines a schema or database in this change, made if none is yet. */
static cat__op_t *redefine_op(cat_change_t *out, cat_class_t cls, cat_id_t id, const cat_acl_t *now,
                              const cat_acl_t **acl)
{
    for (size_t i = 0; i < out->nops; i++)
        if (out->ops[i].kind == CAT_OP_RENAME && out->ops[i].obj.cls == cls && out->ops[i].obj.id == id) {
            *acl = &out->ops[i].obj.acl;
            return &out->ops[i];
        }
    *acl = now;
    return cat__change_op(out, CAT_OP_RENAME);
}

/* Removes `role`'s own default privileges of a schema (sc) or database (db); true if it had some. */
static bool drop_defacl(cat_id_t role, const cat_schema_t *sc, const cat_database_t *db, cat_change_t *out)
{
    const cat_acl_t *snap_acl = sc ? &sc->acl : &db->acl;
    const cat_acl_t *now = snap_acl;
    for (size_t i = 0; i < out->nops; i++)
        if (out->ops[i].kind == CAT_OP_RENAME && out->ops[i].obj.cls == (sc ? CAT_CLASS_SCHEMA : CAT_CLASS_DATABASE) &&
            out->ops[i].obj.id == (sc ? sc->id : db->id))
            now = &out->ops[i].obj.acl;
    bool has = false;
    for (uint32_t i = 0; i < now->ndefacls; i++)
        has = has || now->defacls[i].role == role;
    if (!has)
        return false;
    const cat_acl_t *cur;
    cat__op_t *op = redefine_op(out, sc ? CAT_CLASS_SCHEMA : CAT_CLASS_DATABASE, sc ? sc->id : db->id, snap_acl, &cur);
    cat_acl_t acl = *cur;
    cat_defacl_t *d = cm_arena_alloc(&out->arena, (cur->ndefacls ? cur->ndefacls : 1) * sizeof(cat_defacl_t));
    uint32_t nd = 0;
    for (uint32_t i = 0; i < cur->ndefacls; i++)
        if (cur->defacls[i].role != role)
            d[nd++] = cur->defacls[i];
    acl.defacls = d;
    acl.ndefacls = nd;
    cat__redefine_acl_holder(op, sc, db, &acl, &out->arena);
    return true;
}

/* Other roles' default privileges that grant `role` something lose it (SetDefaultACL, REVOKE ALL ... CASCADE). */
static bool revoke_defacls(const cat_snap_t *s, const cat_search_t *search, const cat_grant_t *g, cat_id_t role,
                           const cat_schema_t *sc, const cat_database_t *db, cat_change_t *out, cm_err_t *err)
{
    const cat_acl_t *acl = sc ? &sc->acl : &db->acl;
    for (uint32_t i = 0; i < acl->ndefacls; i++) {
        const cat_defacl_t *d = &acl->defacls[i];
        bool named = false;
        for (uint32_t k = 0; d->role != role && k < d->n; k++)
            named = named || d->items[k].grantee == role;
        if (named && !cat_plan_default_privileges(s, search, g, d->role, d->objtype, sc, db, out, err))
            return false;
    }
    return true;
}

bool cat_plan_drop_owned(const cat_snap_t *s, const cat_search_t *search, const cat_id_t *roles, size_t nroles,
                         bool cascade, cat_change_t *out, cm_err_t *err)
{
    cat__change_base(out, s);
    const cat_database_t *cur = current_db(s, search);
    cm_arena_t a;
    cm_arena_init(&a, 1024);
    size_t cap = 16, ndrop = 0, ndefacls = 0;
    owned_t *drop = cm_malloc(cap * sizeof(owned_t));
    bool ok = true;
    for (size_t r = 0; ok && r < nroles; r++) {
        if (pinned(s, search, roles[r], "drop objects", err)) {
            ok = false;
            break;
        }
        cat_grant_t g = {.is_grant = false, .all_privs = true, .cascade = true, .grantees = &roles[r], .ngrantees = 1};
        owned_t *v;
        size_t n = collect(s, cur, roles[r], true, &a, &v);
        for (size_t i = 0; ok && i < n; i++)
            ok = v[i].cls == CAT_CLASS_DATABASE ? cat_plan_grant_database(s, search, &g, v[i].obj, out, err)
                 : v[i].cls == CAT_CLASS_SCHEMA ? cat_plan_grant_schema(s, search, &g, v[i].obj, out, err)
                                                : cat_plan_grant_item(s, search, &g, v[i].obj, out, err);
        if (ok && cur)
            ok = revoke_defacls(s, search, &g, roles[r], NULL, cur, out, err);
        const cat_schema_t *sc;
        for (size_t i = 0; ok && cur && (sc = cat_snap_schema_at(s, i)); i++)
            if (sc->database == cur)
                ok = revoke_defacls(s, search, &g, roles[r], sc, cur, out, err);
        n = collect(s, cur, roles[r], false, &a, &v);
        for (size_t i = 0; i < n; i++) {
            if (v[i].cls == CAT_CLASS_DATABASE)
                continue;
            bool twice = false;
            for (size_t k = 0; k < ndrop && !twice; k++)
                twice = drop[k].obj == v[i].obj;
            if (twice)
                continue;
            if (ndrop == cap)
                drop = cm_realloc(drop, (cap *= 2) * sizeof(owned_t));
            drop[ndrop++] = v[i];
        }
    }
    /* The roles' own default privileges are objects of the same deletion. */
    for (size_t r = 0; ok && cur && r < nroles; r++) {
        ndefacls += drop_defacl(roles[r], NULL, cur, out);
        const cat_schema_t *sc;
        for (size_t i = 0; (sc = cat_snap_schema_at(s, i)); i++)
            if (sc->database == cur)
                ndefacls += drop_defacl(roles[r], sc, NULL, out);
    }
    if (ok) {
        if (ndrop > 1)
            qsort(drop, ndrop, sizeof(owned_t), owned_cmp_desc);
        cat_class_t *cls = cm_arena_alloc(&a, (ndrop ? ndrop : 1) * sizeof(cat_class_t));
        const void **objs = cm_arena_alloc(&a, (ndrop ? ndrop : 1) * sizeof(void *));
        for (size_t i = 0; i < ndrop; i++) {
            cls[i] = drop[i].cls;
            objs[i] = drop[i].obj;
        }
        size_t before = out->nops;
        ok = cat__drop_objects(s, search, cls, objs, ndrop, ndefacls, cascade, out, err);
        /* A dropped object needs no redefinition (the commit applies drops first). */
        size_t keep = 0;
        for (size_t i = 0; ok && i < out->nops; i++) {
            const cat__op_t *op = &out->ops[i];
            if (i < before && op->kind == CAT_OP_RENAME && cat__change_drops(out, op->obj.cls, op->obj.id))
                continue;
            out->ops[keep++] = *op;
        }
        if (ok)
            out->nops = keep;
    }
    free(drop);
    cm_arena_free(&a);
    return ok;
}
