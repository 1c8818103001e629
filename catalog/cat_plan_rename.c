/*
 * cat_plan_rename.c: validation of ALTER ... RENAME and of redefinitions of
 * an item (its columns renamed, CREATE OR REPLACE VIEW, the stored SQL of a
 * dependent rewritten). A redefinition keeps the item's ID, OID, kind and
 * schema (whatever refers to it by ID stays valid) and carries the whole new
 * definition, so the stored object and its create_sql change in the same
 * commit as the name index. Schemas and databases are renamed the same way:
 * one CAT_OP_RENAME of the object; the commit moves the name keys of
 * everything inside it, and the planner rewrites the stored SQL that names it.
 */
#include "catalog/cat_int.h"

#include <string.h>

static bool system_item(const cat_item_t *item, cm_err_t *err)
{
    if (cat_id_is_system(item->id) || !item->schema->database) {
        cm_err_set(err, CAT__ERRCODE_INSUFFICIENT_PRIVILEGE, "permission denied: \"%s\" is a system catalog",
                   item->name);
        return true;
    }
    return false;
}

/* The op that redefines an item in this change, if one was planned already. */
static cat__op_t *item_op(cat_change_t *out, cat_id_t id)
{
    for (size_t i = 0; i < out->nops; i++)
        if (out->ops[i].kind == CAT_OP_RENAME && out->ops[i].obj.cls == CAT_CLASS_ITEM && out->ops[i].obj.id == id)
            return &out->ops[i];
    return NULL;
}

bool cat_plan_alter_item(const cat_snap_t *s, const cat_item_t *item, const cat_item_def_t *def, cat_change_t *out,
                         cm_err_t *err)
{
    cat__change_base(out, s);
    if (system_item(item, err))
        return false;
    const char *name = def->name.name ? def->name.name : item->name;
    if (strcmp(name, item->name) != 0 && cat_snap_item(s, item->schema, name))
        return cm_err_set(err, CAT__ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists", name);
    for (uint32_t i = 0; def->columns && i < def->ndeps; i++)
        if (!cat_snap_item_by_id(s, def->deps[i]))
            return cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR, "dependency %llu of \"%s\" does not exist",
                              (unsigned long long)def->deps[i], item->name);
    cm_arena_t *a = &out->arena;
    /* One op per item: a later redefinition in the same statement replaces an earlier one. */
    cat__op_t *op = item_op(out, item->id);
    if (!op)
        op = cat__change_op(out, CAT_OP_RENAME);
    cat_object_t *o = &op->obj;
    o->cls = CAT_CLASS_ITEM;
    o->id = item->id;
    o->oid = item->oid;
    o->parent = item->schema->id;
    o->name = cm_arena_strdup(a, name);
    o->kind = item->kind;
    o->create_sql = cm_arena_strdup(a, def->create_sql ? def->create_sql : item->create_sql);
    cat_acl_copy(a, &o->acl, &item->acl);
    /* Copied: the snapshot may move on before the change is committed. */
    const cat_column_t *cols = def->columns ? def->columns : item->columns;
    uint32_t ncols = def->columns ? def->ncolumns : item->ncolumns;
    o->ncolumns = ncols;
    o->columns = ncols ? cm_arena_alloc(a, ncols * sizeof(cat_column_t)) : NULL;
    for (uint32_t i = 0; i < ncols; i++) {
        cat__column_copy(a, &o->columns[i], &cols[i]);
    }
    const cat_id_t *deps = def->columns ? def->deps : item->deps;
    uint32_t ndeps = def->columns ? def->ndeps : item->ndeps;
    o->ndeps = ndeps;
    o->deps = ndeps ? cm_arena_alloc(a, ndeps * sizeof(cat_id_t)) : NULL;
    if (ndeps)
        memcpy(o->deps, deps, ndeps * sizeof(cat_id_t));
    return true;
}

bool cat_plan_rename_item(const cat_snap_t *s, const cat_item_t *item, const char *new_name, const char *create_sql,
                          cat_change_t *out, cm_err_t *err)
{
    /* Its own name too, as PostgreSQL: ALTER TABLE t RENAME TO t is 42P07. */
    if (cat_snap_item(s, item->schema, new_name))
        return cm_err_set(err, CAT__ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists", new_name);
    cat_item_def_t def = {.kind = item->kind, .name = {.name = new_name}, .create_sql = create_sql};
    return cat_plan_alter_item(s, item, &def, out, err);
}

void cat_plan_rename_missing(const cat_snap_t *s, const char *name, cat_change_t *out)
{
    cat__change_base(out, s);
    /* PostgreSQL sends this NOTICE with SQLSTATE 00000, unlike DROP's skips. */
    cat__change_notice(out, "00000", "relation \"%s\" does not exist, skipping", name);
}

bool cat_plan_rename_schema(const cat_snap_t *s, const cat_search_t *search, const cat_schema_t *schema,
                            const char *new_name, cat_change_t *out, cm_err_t *err)
{
    cat__change_base(out, s);
    if (!schema->database || cat_id_is_system(schema->id)) {
        cm_err_set(err, CAT__ERRCODE_RESERVED_NAME, "unacceptable schema name \"%s\"", schema->name);
        cm_err_set_detail(err, "The prefix \"pg_\" is reserved for system schemas.");
        return false;
    }
    if (cat_snap_schema(s, schema->database, new_name))
        return cm_err_set(err, CAT__ERRCODE_DUPLICATE_SCHEMA, "schema \"%s\" already exists", new_name);
    if (!cat_check_owner(s, search, &schema->acl, "schema", schema->name, err))
        return false;
    if (!(cat_acl_privs(s, &schema->database->acl, 'd', cat_search_role(s, search), false) & CAT_PRIV_CREATE))
        return cm_err_set(err, CAT__ERRCODE_INSUFFICIENT_PRIVILEGE, "permission denied for database %s",
                          schema->database->name);
    if (strncmp(new_name, "pg_", 3) == 0) {
        cm_err_set(err, CAT__ERRCODE_RESERVED_NAME, "unacceptable schema name \"%s\"", new_name);
        cm_err_set_detail(err, "The prefix \"pg_\" is reserved for system schemas.");
        return false;
    }
    cat__op_t *op = cat__change_op(out, CAT_OP_RENAME);
    op->obj.cls = CAT_CLASS_SCHEMA;
    op->obj.id = schema->id;
    op->obj.oid = schema->oid;
    op->obj.parent = schema->database->id;
    op->obj.name = cm_arena_strdup(&out->arena, new_name);
    cat_acl_copy(&out->arena, &op->obj.acl, &schema->acl);
    return true;
}

bool cat_plan_rename_database(const cat_snap_t *s, const cat_search_t *search, const char *name,
                              const char *new_name, cat_change_t *out, cm_err_t *err)
{
    cat__change_base(out, s);
    const cat_database_t *db = cat_snap_database(s, name);
    if (!db)
        return cm_err_set(err, CM_ERRCODE_INVALID_CATALOG_NAME, "database \"%s\" does not exist", name);
    if (!cat_check_owner(s, search, &db->acl, "database", db->name, err))
        return false;
    const cat_role_t *me = cat_search_role(s, search);
    if (!cat_role_is_superuser(me) && !(me->flags & CAT_ROLE_CREATEDB))
        return cm_err_set(err, CAT__ERRCODE_INSUFFICIENT_PRIVILEGE, "permission denied to rename database");
    if (cat_snap_database(s, new_name))
        return cm_err_set(err, CAT__ERRCODE_DUPLICATE_DATABASE, "database \"%s\" already exists", new_name);
    /* PostgreSQL 15's RenameDatabase answers this with 0A000, not 55006. */
    if (search && search->database && strcmp(search->database, name) == 0)
        return cm_err_set(err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "current database cannot be renamed");
    cat__op_t *op = cat__change_op(out, CAT_OP_RENAME);
    op->obj.cls = CAT_CLASS_DATABASE;
    op->obj.id = db->id;
    op->obj.oid = db->oid;
    op->obj.name = cm_arena_strdup(&out->arena, new_name);
    cat_acl_copy(&out->arena, &op->obj.acl, &db->acl);
    return true;
}
