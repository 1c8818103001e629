/*
 * pln_grant.c: GRANT / REVOKE privileges ON {[TABLE] t | ALL TABLES IN
 * SCHEMA s | SCHEMA s | DATABASE d} as a catalog change, in the order
 * PostgreSQL 15's ExecuteGrantStmt raises its errors: the objects (42P01,
 * 3F000, 3D000, USAGE on a schema named), the grantees (42704), the
 * privilege words (42601 unknown, 0LP01 not for this kind of object); then
 * each object's ACL is changed by the catalog (cat_plan_grant.c).
 */
#include "planner/pln_internal.h"

#include <string.h>

static const struct {
    const char *word;
    uint32_t priv;
    const char *name;   /* privilege_to_string */
} priv_words[] = {
    {"insert", CAT_PRIV_INSERT, "INSERT"},         {"select", CAT_PRIV_SELECT, "SELECT"},
    {"update", CAT_PRIV_UPDATE, "UPDATE"},         {"delete", CAT_PRIV_DELETE, "DELETE"},
    {"truncate", CAT_PRIV_TRUNCATE, "TRUNCATE"},   {"references", CAT_PRIV_REFERENCES, "REFERENCES"},
    {"trigger", CAT_PRIV_TRIGGER, "TRIGGER"},      {"execute", CAT_PRIV_EXECUTE, "EXECUTE"},
    {"usage", CAT_PRIV_USAGE, "USAGE"},            {"create", CAT_PRIV_CREATE, "CREATE"},
    {"temporary", CAT_PRIV_TEMPORARY, "TEMP"},     {"temp", CAT_PRIV_TEMPORARY, "TEMP"},
    {"connect", CAT_PRIV_CONNECT, "CONNECT"},
};

/* string_to_privilege without a check: false for a word that names nothing ("rule" names no bit). */
static bool privilege_bit(const char *word, uint32_t *out)
{
    for (size_t i = 0; i < CM_ARRAY_LEN(priv_words); i++)
        if (strcmp(word, priv_words[i].word) == 0) {
            *out = priv_words[i].priv;
            return true;
        }
    *out = 0;
    return strcmp(word, "rule") == 0;
}

/* string_to_privilege, checked against what the target takes; false with err. */
bool pln__privilege_word(pln_binder_t *b, const char *word, uint32_t allowed, const char *target, uint32_t *out)
{
    for (size_t i = 0; i < CM_ARRAY_LEN(priv_words); i++) {
        if (strcmp(word, priv_words[i].word) != 0)
            continue;
        if (!(priv_words[i].priv & allowed))
            return pln__error(b, -1, "0LP01", "invalid privilege type %s for %s", priv_words[i].name, target);
        *out |= priv_words[i].priv;
        return true;
    }
    /* "rule" is accepted and means nothing, as in PostgreSQL. */
    if (strcmp(word, "rule") == 0)
        return true;
    return pln__error(b, -1, CM_ERRCODE_SYNTAX_ERROR, "unrecognized privilege type \"%s\"", word);
}

/* Grantees as role IDs: PUBLIC, or a role as pln__rolespec_id finds it. */
bool pln__grantee_ids(pln_binder_t *b, const sql_list_t *grantees, cat_id_t **ids)
{
    int n = sql_list_len(grantees);
    *ids = cm_arena_alloc(b->arena, (size_t)(n ? n : 1) * sizeof(cat_id_t));
    for (int i = 0; i < n; i++) {
        const sql_rolespec_t *rs = grantees->items[i];
        if (rs->kind == SQL_ROLESPEC_PUBLIC)
            (*ids)[i] = CAT_ROLE_PUBLIC;
        else if (!pln__rolespec_id(b, rs, &(*ids)[i]))
            return false;
    }
    return true;
}

/* A schema named outright: LookupExplicitNamespace (3F000, 42501 without USAGE). */
static const cat_schema_t *named_schema(pln_binder_t *b, const char *name, bool need_usage)
{
    const cat_snap_t *snap = b->cat->snap;
    const char *dbname = b->cat->search.database;
    const cat_database_t *db = dbname ? cat_snap_database(snap, dbname) : NULL;
    const cat_schema_t *sc = cat_snap_schema(snap, db, name);
    if (!sc) {
        pln__error(b, -1, "3F000", "schema \"%s\" does not exist", name);
        return NULL;
    }
    if (need_usage && !cat_schema_usable(snap, &b->cat->search, sc)) {
        pln__error(b, -1, "42501", "permission denied for schema %s", name);
        return NULL;
    }
    return sc;
}

/*
 * The grantees (42704), then the privilege words (42601, 0LP01 "for <noun>"), as a catalog
 * grant. A privilege with columns is set aside for each relation (ExecGrant_Relation checks
 * its word); cols_refused is the 0LP01 for a target that has no columns.
 */
static bool grant_of(pln_binder_t *b, const sql_grant_t *g, uint32_t allowed, const char *noun,
                     const char *cols_refused, cat_grant_t *cg)
{
    *cg = (cat_grant_t){.is_grant = !g->revoke, .grant_option = g->grant_option, .all_privs = g->privs == NULL,
                        .cascade = g->behavior == SQL_DROP_CASCADE};
    cat_id_t *grantees;
    if (!pln__grantee_ids(b, g->grantees, &grantees))
        return false;
    cg->grantees = grantees;
    cg->ngrantees = (uint32_t)sql_list_len(g->grantees);
    int n = sql_list_len(g->privs);
    cat_col_grant_t *cols = cm_arena_zalloc(b->arena, sizeof(*cols) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        const sql_priv_t *p = g->privs->items[i];
        if (p->cols) {
            if (cols_refused)
                return pln__error(b, -1, "0LP01", "%s", cols_refused);
            cat_col_grant_t *c = &cols[cg->ncol_grants++];
            if (!p->name)
                c->privs = CAT_PRIVS_COLUMN;
            else if (!privilege_bit(p->name, &c->privs))
                c->unknown = p->name;
            c->cols = (const char *const *)p->cols->items;
            c->ncols = (uint32_t)sql_list_len(p->cols);
            continue;
        }
        if (!pln__privilege_word(b, p->name, allowed, noun, &cg->privs))
            return false;
    }
    cg->col_grants = cols;
    return true;
}

/*
 * ALTER DEFAULT PRIVILEGES ... ON TABLES, SEQUENCES, FUNCTIONS, TYPES or SCHEMAS
 * (ExecAlterDefaultPrivilegesStmt; eddy has relations and schemas, the others' entries are kept
 * and listed as PostgreSQL's are):
 * grantees, privilege words, then per role (42704; the user must be a member
 * of it) and per schema (3F000) the entry changes (SetDefaultACL).
 */
static bool plan_default_privileges(pln_binder_t *b, const sql_grant_t *g, cat_change_t *out)
{
    const cat_snap_t *snap = b->cat->snap;
    const cat_search_t *search = &b->cat->search;
    char objtype = g->defacl_objtype ? g->defacl_objtype : 'r';
    const char *noun = objtype == 'S' ? "sequence" : objtype == 'f' ? "function" : objtype == 'T' ? "type"
                       : objtype == 'n' ? "schema" : "relation";
    cat_grant_t cg;
    if (!grant_of(b, g, cat_defacl_privs(objtype), noun, "default privileges cannot be set for columns", &cg))
        return false;
    const cat_database_t *db = search->database ? cat_snap_database(snap, search->database) : NULL;
    if (!db)
        return pln__error(b, -1, CM_ERRCODE_INVALID_CATALOG_NAME, "database \"%s\" does not exist",
                          search->database ? search->database : "");
    const cat_role_t *me = cat_search_role(snap, search);
    int nroles = g->for_roles ? sql_list_len(g->for_roles) : 1;
    for (int r = 0; r < nroles; r++) {
        cat_id_t role = me ? me->id : CAT_ROLE_BOOTSTRAP;
        if (g->for_roles) {
            if (!pln__rolespec_id(b, g->for_roles->items[r], &role))
                return false;
            const cat_role_t *target = cat_snap_role_by_id(snap, role);
            if (!cat_role_is_superuser(me) && !cat_role_is_member(snap, me, target)) {
                char buf[32];
                return pln__error(b, -1, "42501", "must be member of role \"%s\"",
                                  cat_role_id_name(snap, search, role, buf));
            }
        }
        int nschemas = g->in_schemas ? sql_list_len(g->in_schemas) : 1;
        for (int k = 0; k < nschemas; k++) {
            const cat_schema_t *sc = NULL;
            if (g->in_schemas && !(sc = named_schema(b, g->in_schemas->items[k], false)))
                return false;
            if (!cat_plan_default_privileges(snap, search, &cg, role, objtype, sc, db, out, b->err))
                return false;
        }
    }
    return true;
}

bool pln__plan_grant(pln_binder_t *b, const sql_stmt_t *s, cat_change_t *out)
{
    const sql_grant_t *g = s->grant;
    if (g->target == SQL_GRANT_DEFAULT_TABLES)
        return plan_default_privileges(b, g, out);
    const cat_snap_t *snap = b->cat->snap;
    const cat_search_t *search = &b->cat->search;
    int nobj = sql_list_len(g->objects);
    /* The objects first. */
    const void **objs = cm_arena_alloc(b->arena, (size_t)(nobj ? nobj : 1) * sizeof(void *));
    const void **items = NULL;
    size_t nitems = 0;
    for (int i = 0; i < nobj; i++) {
        switch (g->target) {
        case SQL_GRANT_TABLE: {
            const sql_qname_t *q = g->objects->items[i];
            cat_qname_t qn;
            if (!pln__qname(b, q->names, q->pos, &qn))
                return false;
            objs[i] = cat_resolve_relation(snap, search, &qn, b->err);
            if (!objs[i])
                return false;
            break;
        }
        case SQL_GRANT_ALL_TABLES: {
            const cat_schema_t *sc = named_schema(b, g->objects->items[i], true);
            if (!sc)
                return false;
            objs[i] = sc;
            break;
        }
        case SQL_GRANT_SCHEMA:
            if (!(objs[i] = named_schema(b, g->objects->items[i], false)))
                return false;
            break;
        case SQL_GRANT_DEFAULT_TABLES:
            break;
        case SQL_GRANT_DATABASE:
            objs[i] = cat_snap_database(snap, g->objects->items[i]);
            if (!objs[i])
                return pln__error(b, -1, CM_ERRCODE_INVALID_CATALOG_NAME, "database \"%s\" does not exist",
                                  (const char *)g->objects->items[i]);
            break;
        }
    }
    if (g->target == SQL_GRANT_ALL_TABLES) {
        /* objectsInSchemaToOids: every relation but indexes, in creation order. */
        size_t total = cat_snap_item_count(snap);
        items = cm_arena_alloc(b->arena, (total ? total : 1) * sizeof(void *));
        for (int i = 0; i < nobj; i++) {
            const cat_item_t *it;
            for (size_t k = 0; (it = cat_snap_item_at(snap, k)); k++)
                if (it->schema == objs[i] && it->kind != CAT_ITEM_INDEX)
                    items[nitems++] = it;
        }
    }
    /* TABLE takes a sequence's USAGE too at this point; ExecGrant_Relation refuses it per table. */
    uint32_t allowed = g->target == SQL_GRANT_SCHEMA     ? CAT_PRIVS_SCHEMA
                       : g->target == SQL_GRANT_DATABASE ? CAT_PRIVS_DATABASE
                                                         : CAT_PRIVS_RELATION | CAT_PRIV_USAGE;
    const char *noun = g->target == SQL_GRANT_SCHEMA ? "schema" : g->target == SQL_GRANT_DATABASE ? "database" : "relation";
    bool relations = g->target == SQL_GRANT_TABLE || g->target == SQL_GRANT_ALL_TABLES;
    cat_grant_t cg;
    if (!grant_of(b, g, allowed, noun, relations ? NULL : "column privileges are only valid for relations", &cg))
        return false;
    if (g->target == SQL_GRANT_ALL_TABLES) {
        for (size_t i = 0; i < nitems; i++)
            if (!cat_plan_grant_item(snap, search, &cg, items[i], out, b->err))
                return false;
        return true;
    }
    for (int i = 0; i < nobj; i++) {
        bool ok = g->target == SQL_GRANT_TABLE    ? cat_plan_grant_item(snap, search, &cg, objs[i], out, b->err)
                  : g->target == SQL_GRANT_SCHEMA ? cat_plan_grant_schema(snap, search, &cg, objs[i], out, b->err)
                                                  : cat_plan_grant_database(snap, search, &cg, objs[i], out, b->err);
        if (!ok)
            return false;
    }
    return true;
}
