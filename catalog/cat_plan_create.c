/*
 * cat_plan_create.c: validation of CREATE DATABASE, CREATE SCHEMA and the
 * CREATE of items, with PostgreSQL 15's error codes and wording.
 *
 * A create op carries the definition with ID 0: the ID and OID come from the
 * commit index, which is known only when the commit is built. A change may
 * create at most one object of each class, which keeps "ID = creating index"
 * true for every object.
 */
#include "catalog/cat_int.h"

#include <string.h>

static bool cat__creates(const cat_change_t *c, cat_class_t cls)
{
    for (size_t i = 0; i < c->nops; i++)
        if (c->ops[i].kind == CAT_OP_CREATE && c->ops[i].obj.cls == cls)
            return true;
    return false;
}

/* The owner of what the session creates: its current user, or the bootstrap superuser. */
static cat_id_t creator(const cat_snap_t *s, const cat_search_t *search)
{
    const cat_role_t *r = cat_search_role(s, search);
    return r ? r->id : CAT_ROLE_BOOTSTRAP;
}

/* aclcheck_error(ACLCHECK_NO_PRIV, ...): "permission denied for schema s". */
static bool no_priv(cm_err_t *err, const char *noun, const char *name)
{
    return cm_err_set(err, CAT__ERRCODE_INSUFFICIENT_PRIVILEGE, "permission denied for %s %s", noun, name);
}

bool cat_plan_create_database(const cat_snap_t *s, const cat_search_t *search, const char *name, bool if_not_exists,
                              cat_change_t *out, cm_err_t *err)
{
    cat__change_base(out, s);
    const cat_role_t *me = cat_search_role(s, search);
    if (!cat_role_is_superuser(me) && !(me->flags & CAT_ROLE_CREATEDB))
        return cm_err_set(err, CAT__ERRCODE_INSUFFICIENT_PRIVILEGE, "permission denied to create database");
    CM_ASSERT(!cat__creates(out, CAT_CLASS_DATABASE) && !cat__creates(out, CAT_CLASS_SCHEMA));
    if (cat_snap_database(s, name)) {
        if (if_not_exists) {
            cat__change_notice(out, CAT__ERRCODE_DUPLICATE_DATABASE, "database \"%s\" already exists, skipping", name);
            return true;
        }
        return cm_err_set(err, CAT__ERRCODE_DUPLICATE_DATABASE, "database \"%s\" already exists", name);
    }
    cat__op_t *op = cat__change_op(out, CAT_OP_CREATE);
    op->obj.cls = CAT_CLASS_DATABASE;
    op->obj.name = cm_arena_strdup(&out->arena, name);
    cat_id_t owner = creator(s, search);
    op->obj.acl.owner = owner;
    /* Every database starts with schema public, in the same entry: as
     * PostgreSQL 15's, owned by pg_database_owner (whoever owns the database
     * then), everyone may look names up in it and only its owner create there. */
    op = cat__change_op(out, CAT_OP_CREATE);
    op->obj.cls = CAT_CLASS_SCHEMA;
    op->obj.parent = 0;   /* the database this change creates */
    op->obj.name = "public";
    cat_id_t dbo = CAT_ROLE_DATABASE_OWNER;
    cat_aclitem_t *acl = cm_arena_alloc(&out->arena, 2 * sizeof(cat_aclitem_t));
    acl[0] = (cat_aclitem_t){dbo, dbo, CAT_PRIVS_SCHEMA, 0};
    acl[1] = (cat_aclitem_t){CAT_ROLE_PUBLIC, dbo, CAT_PRIV_USAGE, 0};
    op->obj.acl = (cat_acl_t){.owner = dbo, .set = true, .items = acl, .n = 2};
    return true;
}

bool cat_plan_create_schema(const cat_snap_t *s, const cat_search_t *search, const cat_qname_t *name,
                            bool if_not_exists, cat_change_t *out, cm_err_t *err)
{
    cat__change_base(out, s);
    CM_ASSERT(!cat__creates(out, CAT_CLASS_SCHEMA));
    const char *dbname = name->database ? name->database : search->database;
    const cat_database_t *db = dbname ? cat_snap_database(s, dbname) : NULL;
    if (!db)
        return cm_err_set(err, CM_ERRCODE_INVALID_CATALOG_NAME, "database \"%s\" does not exist",
                          dbname ? dbname : "");
    if (!(cat_acl_privs(s, &db->acl, 'd', cat_search_role(s, search), false) & CAT_PRIV_CREATE))
        return no_priv(err, "database", db->name);
    if (cat_snap_schema(s, db, name->schema)) {
        if (if_not_exists) {
            cat__change_notice(out, CAT__ERRCODE_DUPLICATE_SCHEMA, "schema \"%s\" already exists, skipping",
                               name->schema);
            return true;
        }
        return cm_err_set(err, CAT__ERRCODE_DUPLICATE_SCHEMA, "schema \"%s\" already exists", name->schema);
    }
    if (strncmp(name->schema, "pg_", 3) == 0) {
        cm_err_set(err, CAT__ERRCODE_RESERVED_NAME, "unacceptable schema name \"%s\"", name->schema);
        cm_err_set_detail(err, "The prefix \"pg_\" is reserved for system schemas.");
        return false;
    }
    cat__op_t *op = cat__change_op(out, CAT_OP_CREATE);
    op->obj.cls = CAT_CLASS_SCHEMA;
    op->obj.parent = db->id;
    op->obj.name = cm_arena_strdup(&out->arena, name->schema);
    /* NamespaceCreate: the owner's default privileges for new schemas, if any. */
    op->obj.acl = cat_acl_for_new_schema(s, db, creator(s, search), &out->arena);
    return true;
}

bool cat_plan_create_item(const cat_snap_t *s, const cat_search_t *search, const cat_item_def_t *def,
                          bool if_not_exists, cat_change_t *out, cm_err_t *err)
{
    cat__change_base(out, s);
    CM_ASSERT(!cat__creates(out, CAT_CLASS_ITEM));
    for (uint32_t i = 0; i < def->ndeps; i++) {
        /* The binder resolved these against the same snapshot. */
        if (!cat_snap_item_by_id(s, def->deps[i]))
            return cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR, "dependency %llu of a new item does not exist",
                              (unsigned long long)def->deps[i]);
    }
    const cat_schema_t *sc;
    if (def->kind == CAT_ITEM_INDEX) {
        /* As in PostgreSQL, an index lives in its relation's schema. */
        CM_ASSERT(def->ndeps >= 1);
        const cat_item_t *on = cat_snap_item_by_id(s, def->deps[0]);
        if (on->kind == CAT_ITEM_INDEX)
            return cm_err_set(err, CAT__ERRCODE_WRONG_OBJECT_TYPE, "cannot create index on index \"%s\"", on->name);
        if (!cat_check_owner(s, search, &on->acl, cat_item_owner_noun(on), on->name, err))
            return false;
        sc = on->schema;
    } else {
        sc = cat_resolve_schema(s, search, &def->name, err);
        if (!sc)
            return false;
    }
    if (!(cat_acl_privs(s, &sc->acl, 'n', cat_search_role(s, search), false) & CAT_PRIV_CREATE))
        return no_priv(err, "schema", sc->name);
    if (!sc->database) {
        cm_err_set(err, CAT__ERRCODE_INSUFFICIENT_PRIVILEGE, "permission denied to create \"%s.%s\"", sc->name,
                   def->name.name);
        cm_err_set_detail(err, "System catalog modifications are currently disallowed.");
        return false;
    }
    if (cat_snap_item(s, sc, def->name.name)) {
        if (if_not_exists) {
            cat__change_notice(out, CAT__ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists, skipping",
                               def->name.name);
            return true;
        }
        return cm_err_set(err, CAT__ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists", def->name.name);
    }
    if (def->ncolumns > CAT__COLUMNS_MAX)
        return cm_err_set(err, CAT__ERRCODE_TOO_MANY_COLUMNS, "tables can have at most %d columns",
                          CAT__COLUMNS_MAX);
    if (def->kind != CAT_ITEM_INDEX) {
        /* Index keys may repeat a column; relation columns may not. A hash
         * set keeps this linear for wide tables. */
        cat__map_t seen;
        cat__map_init(&seen);
        const char *dup = NULL;
        for (uint32_t i = 0; i < def->ncolumns && !dup; i++) {
            if (cat__map_get(&seen, 0, def->columns[i].name))
                dup = def->columns[i].name;
            cat__map_put(&seen, 0, def->columns[i].name, (void *)1);
        }
        cat__map_free(&seen);
        if (dup)
            return cm_err_set(err, CAT__ERRCODE_DUPLICATE_COLUMN, "column \"%s\" specified more than once", dup);
    }
    cm_arena_t *a = &out->arena;
    cat__op_t *op = cat__change_op(out, CAT_OP_CREATE);
    cat_object_t *o = &op->obj;
    o->cls = CAT_CLASS_ITEM;
    o->parent = sc->id;
    /* An index has no privileges of its own; a relation starts with its owner's default privileges. */
    o->acl = def->kind == CAT_ITEM_INDEX ? (cat_acl_t){.owner = creator(s, search)}
                                         : cat_acl_for_new(s, sc, creator(s, search), a);
    o->name = cm_arena_strdup(a, def->name.name);
    o->kind = def->kind;
    o->create_sql = cm_arena_strdup(a, def->create_sql ? def->create_sql : "");
    o->ncolumns = def->ncolumns;
    o->columns = def->ncolumns ? cm_arena_alloc(a, def->ncolumns * sizeof(cat_column_t)) : NULL;
    for (uint32_t i = 0; i < def->ncolumns; i++) {
        cat__column_copy(a, &o->columns[i], &def->columns[i]);
    }
    o->ndeps = def->ndeps;
    o->deps = def->ndeps ? cm_arena_alloc(a, def->ndeps * sizeof(cat_id_t)) : NULL;
    if (def->ndeps)
        memcpy(o->deps, def->deps, def->ndeps * sizeof(cat_id_t));
    return true;
}
