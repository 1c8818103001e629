/*
 * cat_plan_rename.c: validation of ALTER ... RENAME TO of an item. A rename
 * keeps the item's ID and OID (whatever refers to it by ID stays valid) and
 * carries the whole definition under the new name, so the stored object and
 * its create_sql change in the same commit as the name index (old name key
 * deleted, new one created).
 */
#include "catalog/cat_int.h"

#include <string.h>

bool cat_plan_rename_item(const cat_snap_t *s, const cat_item_t *item, const char *new_name, const char *create_sql,
                          cat_change_t *out, cm_err_t *err)
{
    cat__change_base(out, s);
    if (cat_id_is_system(item->id) || !item->schema->database) {
        cm_err_set(err, CAT__ERRCODE_INSUFFICIENT_PRIVILEGE, "permission denied: \"%s\" is a system catalog",
                   item->name);
        return false;
    }
    if (cat_snap_item(s, item->schema, new_name))
        return cm_err_set(err, CAT__ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists", new_name);
    cm_arena_t *a = &out->arena;
    cat__op_t *op = cat__change_op(out, CAT_OP_RENAME);
    cat_object_t *o = &op->obj;
    o->cls = CAT_CLASS_ITEM;
    o->id = item->id;
    o->oid = item->oid;
    o->parent = item->schema->id;
    o->name = cm_arena_strdup(a, new_name);
    o->kind = item->kind;
    o->create_sql = cm_arena_strdup(a, create_sql ? create_sql : "");
    /* Copied: the snapshot may move on before the change is committed. */
    o->ncolumns = item->ncolumns;
    o->columns = item->ncolumns ? cm_arena_alloc(a, item->ncolumns * sizeof(cat_column_t)) : NULL;
    for (uint32_t i = 0; i < item->ncolumns; i++) {
        o->columns[i] = item->columns[i];
        o->columns[i].name = cm_arena_strdup(a, item->columns[i].name);
        o->columns[i].default_sql = item->columns[i].default_sql ? cm_arena_strdup(a, item->columns[i].default_sql)
                                                                 : NULL;
    }
    o->ndeps = item->ndeps;
    o->deps = item->ndeps ? cm_arena_alloc(a, item->ndeps * sizeof(cat_id_t)) : NULL;
    if (item->ndeps)
        memcpy(o->deps, item->deps, item->ndeps * sizeof(cat_id_t));
    return true;
}

void cat_plan_rename_missing(const cat_snap_t *s, const char *name, cat_change_t *out)
{
    cat__change_base(out, s);
    /* PostgreSQL sends this NOTICE with SQLSTATE 00000, unlike DROP's skips. */
    cat__change_notice(out, "00000", "relation \"%s\" does not exist, skipping", name);
}
