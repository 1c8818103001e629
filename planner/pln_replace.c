/*
 * pln_replace.c: CREATE OR REPLACE [MATERIALIZED] VIEW as a redefinition of
 * the existing item (same ID and OID, so whatever reads it keeps reading
 * it). PostgreSQL's checkViewColumns decides what may change: the old
 * columns stay, in order, with their names, types and modifiers (42P16);
 * new columns may only be added at the end. A definition that reads the
 * view itself, or anything that reads it, would make a dependency cycle:
 * PostgreSQL accepts it and fails at every later read (42P17 "infinite
 * recursion detected in rules"); eddy refuses it when it is created, with
 * the same error, because its catalog keeps dependencies acyclic.
 *
 * PostgreSQL has no CREATE OR REPLACE MATERIALIZED VIEW; Materialize has.
 * eddy takes it with the same column rules as a view: readers of a
 * materialized view see its old columns unchanged while the dataflow behind
 * it is rebuilt from the new query.
 */
#include "planner/pln_internal.h"

#include <stdlib.h>
#include <string.h>

/* True if `target` is the item or reads it, directly or through others. */
static bool reaches(const cat_snap_t *snap, const cat_item_t *item, cat_id_t target, int depth)
{
    if (item->id == target)
        return true;
    if (depth > 10000)
        return true;   /* deeper than any sane chain: treat as a cycle rather than recurse on */
    const cat_item_t *deps[64];
    size_t n = cat_snap_dependents(snap, item->id, deps, 64);
    if (n > 64) {
        const cat_item_t **all = cm_malloc(n * sizeof(*all));
        cat_snap_dependents(snap, item->id, all, n);
        bool hit = false;
        for (size_t i = 0; i < n && !hit; i++)
            hit = reaches(snap, all[i], target, depth + 1);
        free(all);
        return hit;
    }
    for (size_t i = 0; i < n; i++)
        if (reaches(snap, deps[i], target, depth + 1))
            return true;
    return false;
}

static const char *type_name(pln_binder_t *b, ty_oid_t type, int32_t typmod)
{
    cm_buf_t buf;
    cm_buf_init(&buf, 0);
    ty_format_type(type, typmod, &buf);
    const char *s = cm_arena_strndup(b->arena, buf.len ? (const char *)buf.data : "", buf.len);
    cm_buf_free(&buf);
    return s;
}

bool pln__plan_replace_view(pln_binder_t *b, const cat_item_t *old, const cat_item_def_t *def, cat_change_t *out)
{
    bool mat = def->kind == CAT_ITEM_MATVIEW;
    /* RangeVarGetAndCheckCreationNamespace: CREATE on the schema, then ownership of what is replaced. */
    const cat_snap_t *snap = b->cat->snap;
    const cat_search_t *search = &b->cat->search;
    if (!(cat_acl_privs(snap, &old->schema->acl, 'n', cat_search_role(snap, search), false) & CAT_PRIV_CREATE))
        return pln__error(b, -1, "42501", "permission denied for schema %s", old->schema->name);
    if (!cat_check_owner(snap, search, &old->acl, cat_item_owner_noun(old), old->name, b->err))
        return false;
    if (old->kind != def->kind)
        return pln__error(b, -1, "42809", "\"%s\" is not a %s", old->name, mat ? "materialized view" : "view");
    if (def->ncolumns < old->ncolumns)
        return pln__error(b, -1, "42P16", "cannot drop columns from view");
    for (uint32_t i = 0; i < old->ncolumns; i++) {
        const cat_column_t *o = &old->columns[i], *n = &def->columns[i];
        if (strcmp(o->name, n->name) != 0) {
            pln__error(b, -1, "42P16", "cannot change name of view column \"%s\" to \"%s\"", o->name, n->name);
            cm_err_set_hint(b->err, "Use ALTER VIEW ... RENAME COLUMN ... to change name of view column instead.");
            return false;
        }
        if (o->type != n->type || o->typmod != n->typmod)
            return pln__error(b, -1, "42P16", "cannot change data type of view column \"%s\" from %s to %s", o->name,
                              type_name(b, o->type, o->typmod), type_name(b, n->type, n->typmod));
    }
    for (uint32_t i = 0; i < def->ndeps; i++) {
        const cat_item_t *dep = cat_snap_item_by_id(b->cat->snap, def->deps[i]);
        if (dep && reaches(b->cat->snap, old, dep->id, 0))
            return pln__error(b, -1, "42P17", "infinite recursion detected in rules for relation \"%s\"", old->name);
    }
    /* The columns it keeps keep their privileges (their pg_attribute rows stay). */
    cat_item_def_t kept = *def;
    cat_column_t *cols = cm_arena_alloc(b->arena, sizeof(cat_column_t) * (def->ncolumns ? def->ncolumns : 1));
    memcpy(cols, def->columns, sizeof(cat_column_t) * def->ncolumns);
    for (uint32_t i = 0; i < old->ncolumns; i++) {
        cols[i].acl = old->columns[i].acl;
        cols[i].nacl = old->columns[i].nacl;
    }
    kept.columns = cols;
    return cat_plan_alter_item(b->cat->snap, old, &kept, out, b->err);
}
