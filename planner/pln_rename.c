/*
 * pln_rename.c: ALTER {TABLE | VIEW | MATERIALIZED VIEW | SOURCE | INDEX}
 * [IF EXISTS] x RENAME TO y as a catalog change. The item keeps its ID and
 * OID. ALTER ... RENAME COLUMN, ALTER SCHEMA ... RENAME TO and ALTER
 * DATABASE ... RENAME TO too. The checks and PostgreSQL's errors are here;
 * the stored SQL of the renamed object and of everything naming it is
 * rewritten in the same change by pln_rewrite.c, so SHOW CREATE and EXPLAIN
 * VIEW stay true and the commit is one atomic catalog entry.
 */
#include "planner/pln_internal.h"

#include <string.h>

/* ALTER {TABLE | VIEW | MATERIALIZED VIEW} r RENAME [COLUMN] a TO b: PostgreSQL's renameatt. */
static bool plan_rename_column(pln_binder_t *b, const sql_alter_rename_t *r, const cat_item_t *it, cat_change_t *out)
{
    if (it->kind == CAT_ITEM_INDEX || it->kind == CAT_ITEM_SOURCE)
        return pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "cannot rename columns of %s \"%s\"",
                          it->kind == CAT_ITEM_INDEX ? "index" : "source", it->name);
    bool found = false;
    for (uint32_t i = 0; i < it->ncolumns; i++)
        found |= strcmp(it->columns[i].name, r->column) == 0;
    if (!found)
        return pln__error(b, -1, CM_ERRCODE_UNDEFINED_COLUMN, "column \"%s\" does not exist", r->column);
    for (uint32_t i = 0; i < it->ncolumns; i++)
        if (strcmp(it->columns[i].name, r->new_name) == 0)
            return pln__error(b, -1, "42701", "column \"%s\" of relation \"%s\" already exists", r->new_name,
                              it->name);
    pln_renames_t rn = {.col_item = it->id, .col_old = r->column, .col_new = r->new_name};
    return pln__rewrite_renamed(b, &rn, out);
}

static bool plan_rename_schema(pln_binder_t *b, const sql_alter_rename_t *r, cat_change_t *out)
{
    cat_qname_t qn;
    if (!pln__qname(b, r->name->names, r->name->pos, &qn))
        return false;
    const cat_snap_t *snap = b->cat->snap;
    const char *dbname = qn.schema ? qn.schema : b->cat->search.database;
    const cat_database_t *db = dbname ? cat_snap_database(snap, dbname) : NULL;
    if (!db)
        return pln__error(b, -1, CM_ERRCODE_INVALID_CATALOG_NAME, "database \"%s\" does not exist",
                          dbname ? dbname : "");
    const cat_schema_t *sc = cat_snap_schema(snap, db, qn.name);
    if (!sc)
        return pln__error(b, -1, "3F000", "schema \"%s\" does not exist", qn.name);
    if (!cat_plan_rename_schema(snap, &b->cat->search, sc, r->new_name, out, b->err))
        return false;
    pln_renames_t rn = {.schema = sc->id, .schema_name = r->new_name};
    return pln__rewrite_renamed(b, &rn, out);
}

static bool plan_rename_database(pln_binder_t *b, const sql_alter_rename_t *r, cat_change_t *out)
{
    const char *name = r->name->names->items[r->name->names->count - 1];
    if (r->name->names->count > 1)
        return pln__error(b, r->name->pos, CM_ERRCODE_SYNTAX_ERROR, "syntax error at or near \".\"");
    const cat_snap_t *snap = b->cat->snap;
    if (!cat_plan_rename_database(snap, &b->cat->search, name, r->new_name, out, b->err))
        return false;
    pln_renames_t rn = {.db = cat_snap_database(snap, name)->id, .db_name = r->new_name};
    return pln__rewrite_renamed(b, &rn, out);
}

/*
 * The relation an ALTER names, as RangeVarCallbackForAlterRelation finds it:
 * it must exist (IF EXISTS: only the notice, *skipped), be owned by the user
 * and not be a system catalog.
 */
static const cat_item_t *alter_target(pln_binder_t *b, const sql_alter_rename_t *r, const cat_qname_t *qn,
                                      cat_change_t *out, bool *skipped)
{
    const cat_snap_t *snap = b->cat->snap;
    *skipped = false;
    const cat_item_t *it = r->if_exists ? cat_resolve_item(snap, &b->cat->search, qn, b->err)
                                        : cat_resolve_relation(snap, &b->cat->search, qn, b->err);
    if (!it) {
        if (r->if_exists && strcmp(b->err->sqlstate, CM_ERRCODE_UNDEFINED_TABLE) == 0) {
            cm_err_clear(b->err);
            cat_plan_rename_missing(snap, qn->name, out);
            *skipped = true;
        }
        return NULL;
    }
    if (!cat_check_owner(snap, &b->cat->search, &cat_item_owner_acl(snap, it)->acl, cat_item_owner_noun(it), qn->name,
                         b->err))
        return NULL;
    if (cat_id_is_system(it->id) || !it->schema->database) {
        pln__error(b, -1, "42501", "permission denied: \"%s\" is a system catalog", it->name);
        return NULL;
    }
    return it;
}

/* A RoleSpec as a role ID: a catalog role, or the bootstrap superuser for
 * a session whose user is none (and for that user's name). */
bool pln__rolespec_id(pln_binder_t *b, const sql_rolespec_t *rs, cat_id_t *id)
{
    const cat_snap_t *snap = b->cat->snap;
    const cat_search_t *search = &b->cat->search;
    const char *name = rs->kind == SQL_ROLESPEC_NAME           ? rs->name
                       : rs->kind == SQL_ROLESPEC_CURRENT_USER ? search->user
                       : rs->kind == SQL_ROLESPEC_SESSION_USER
                           ? (search->session_user ? search->session_user : search->user)
                           : "public";
    const cat_role_t *r = rs->kind == SQL_ROLESPEC_PUBLIC ? NULL : cat_snap_role(snap, name);
    if (r) {
        *id = r->id;
        return true;
    }
    if (rs->kind != SQL_ROLESPEC_PUBLIC && name && strcmp(name, cat_bootstrap_name(snap, search)) == 0) {
        *id = CAT_ROLE_BOOTSTRAP;
        return true;
    }
    return pln__error(b, -1, "42704", "role \"%s\" does not exist", name ? name : "");
}

static bool plan_owner(pln_binder_t *b, const sql_alter_rename_t *r, cat_change_t *out)
{
    const cat_snap_t *snap = b->cat->snap;
    const cat_search_t *search = &b->cat->search;
    cat_qname_t qn;
    if (r->object == SQL_OBJ_DATABASE) {
        if (r->name->names->count > 1)
            return pln__error(b, r->name->pos, CM_ERRCODE_SYNTAX_ERROR, "syntax error at or near \".\"");
        const char *name = r->name->names->items[0];
        const cat_database_t *db = cat_snap_database(snap, name);
        if (!db)
            return pln__error(b, -1, CM_ERRCODE_INVALID_CATALOG_NAME, "database \"%s\" does not exist", name);
        cat_id_t to;
        return pln__rolespec_id(b, r->owner, &to) && cat_plan_owner_database(snap, search, db, to, out, b->err);
    }
    if (!pln__qname(b, r->name->names, r->name->pos, &qn))
        return false;
    if (r->object == SQL_OBJ_SCHEMA) {
        const char *dbname = qn.schema ? qn.schema : search->database;
        const cat_database_t *db = dbname ? cat_snap_database(snap, dbname) : NULL;
        const cat_schema_t *sc = db ? cat_snap_schema(snap, db, qn.name) : NULL;
        if (!sc)
            return pln__error(b, -1, "3F000", "schema \"%s\" does not exist", qn.name);
        cat_id_t to;
        return pln__rolespec_id(b, r->owner, &to) && cat_plan_owner_schema(snap, search, sc, to, out, b->err);
    }
    static const cat_item_kind_t kinds[] = {CAT_ITEM_TABLE, CAT_ITEM_SOURCE, CAT_ITEM_VIEW, CAT_ITEM_MATVIEW,
                                            CAT_ITEM_INDEX};
    bool skipped;
    const cat_item_t *it = alter_target(b, r, &qn, out, &skipped);
    if (!it)
        return skipped;
    if (r->object != SQL_OBJ_TABLE && r->object != SQL_OBJ_INDEX && it->kind != kinds[r->object])
        return pln__error(b, -1, "42809", "\"%s\" is not a %s", it->name, cat_item_kind_name(kinds[r->object]));
    cat_id_t to;
    if (!pln__rolespec_id(b, r->owner, &to))
        return false;
    if (it->kind == CAT_ITEM_INDEX) {
        /* ATExecChangeOwner: an index belongs to its relation's owner; giving it to another is refused. */
        if (cat_item_owner_acl(snap, it)->acl.owner == to)
            return true;
        cm_err_t *w = cat_plan_notice(snap, out, "01000", "cannot change owner of index \"%s\"", it->name);
        w->severity = CM_SEV_WARNING;
        cm_err_set_hint(w, "Change the ownership of the index's table, instead.");
        return true;
    }
    return cat_plan_owner_item(snap, search, it, to, out, b->err);
}

bool pln__plan_rename(pln_binder_t *b, const sql_stmt_t *s, cat_change_t *out)
{
    const sql_alter_rename_t *r = s->alter_rename;
    if (r->owner)
        return plan_owner(b, r, out);
    static const cat_item_kind_t kinds[] = {CAT_ITEM_TABLE, CAT_ITEM_SOURCE, CAT_ITEM_VIEW, CAT_ITEM_MATVIEW,
                                            CAT_ITEM_INDEX};
    if ((r->column && (r->object == SQL_OBJ_INDEX || r->object > SQL_OBJ_MATERIALIZED_VIEW)) ||
        (r->if_exists && r->object > SQL_OBJ_INDEX))
        return pln__error(b, -1, CM_ERRCODE_SYNTAX_ERROR, "syntax error at or near \"%s\"",
                          r->column ? "COLUMN" : "EXISTS");
    if (r->object == SQL_OBJ_SCHEMA)
        return plan_rename_schema(b, r, out);
    if (r->object == SQL_OBJ_DATABASE)
        return plan_rename_database(b, r, out);
    if (r->object > SQL_OBJ_INDEX)
        return pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "%s ... RENAME is not supported yet",
                          sql_stmt_name(s));
    cat_qname_t qn;
    if (!pln__qname(b, r->name->names, r->name->pos, &qn))
        return false;
    const cat_snap_t *snap = b->cat->snap;
    /* Ownership, then system catalogs (alter_target), then (a rename) CREATE on
     * the schema, then the kind the ALTER names. */
    bool skipped;
    const cat_item_t *it = alter_target(b, r, &qn, out, &skipped);
    if (!it)
        return skipped;
    if (r->column)   /* PostgreSQL's renameatt takes any relation whatever the ALTER says */
        return plan_rename_column(b, r, it, out);
    if (!(cat_acl_privs(snap, &it->schema->acl, 'n', cat_search_role(snap, &b->cat->search), false) & CAT_PRIV_CREATE))
        return pln__error(b, -1, "42501", "permission denied for schema %s", it->schema->name);
    /* PostgreSQL 15's RenameRelation: ALTER TABLE and ALTER INDEX take any
     * relation; ALTER VIEW / MATERIALIZED VIEW (and eddy's SOURCE) only their own kind. */
    if (r->object != SQL_OBJ_TABLE && r->object != SQL_OBJ_INDEX && it->kind != kinds[r->object])
        return pln__error(b, -1, "42809", "\"%s\" is not %s %s", it->name, r->object == SQL_OBJ_INDEX ? "an" : "a",
                          cat_item_kind_name(kinds[r->object]));
    if (cat_snap_item(snap, it->schema, r->new_name))
        return pln__error(b, -1, "42P07", "relation \"%s\" already exists", r->new_name);
    pln_renames_t rn = {.item = it->id, .item_name = r->new_name};
    return pln__rewrite_renamed(b, &rn, out);
}
