/*
 * cat_plan_column_grant.c: the column part of GRANT / REVOKE ON a relation,
 * as PostgreSQL 15's ExecGrant_Relation and ExecGrant_Attribute do it. The
 * privileges named with columns (GRANT SELECT (a, b)) are checked per
 * relation (42601 unknown word, 0LP01 not a column privilege, 42703 no such
 * column); a relation-level REVOKE of SELECT, INSERT, UPDATE or REFERENCES
 * revokes them from every column too (expand_all_col_privileges: the system
 * columns first, which eddy does not store, then the relation's own). Each
 * column's ACL (attacl, empty by default) then changes as a relation's
 * does, the grantor chosen over the relation's ACL and the column's
 * together, with restrict_and_check_grant's column messages.
 */
#include "catalog/cat_int.h"

#include <string.h>

/* privilege_to_string for one privilege bit. */
static const char *priv_name(uint32_t priv)
{
    static const char *const names[] = {"INSERT", "SELECT",  "UPDATE", "DELETE", "TRUNCATE", "REFERENCES",
                                        "TRIGGER", "EXECUTE", "USAGE",  "CREATE", "TEMP",     "CONNECT"};
    for (uint32_t b = 0; b < CM_ARRAY_LEN(names); b++)
        if (priv & (1u << b))
            return names[b];
    return "???";
}

static const char *const system_columns[] = {"tableoid", "cmax", "xmax", "cmin", "xmin", "ctid"};

/* One column (a system column has no ACL here): *items / *n its new ACL. */
static bool grant_attribute(const cat_snap_t *s, const cat_search_t *search, const cat_grant_t *g,
                            const cat_item_t *it, const char *colname, const cat_aclitem_t *old, uint32_t nold,
                            const cat_acl_t *rel_acl, uint32_t privileges, cat_change_t *out,
                            const cat_aclitem_t **items, uint32_t *n, cm_err_t *err)
{
    cm_arena_t *a = &out->arena;
    cat_id_t owner = rel_acl->owner;
    /* select_best_grantor over the relation's ACL followed by the column's (aclconcat). */
    cat__acl_work_t merged;
    cat__acl_work_init(&merged, a, rel_acl, 'r');
    if (nold) {
        cat_aclitem_t *v = cm_arena_alloc(a, (merged.n + nold) * sizeof(cat_aclitem_t));
        memcpy(v, merged.v, merged.n * sizeof(cat_aclitem_t));
        memcpy(v + merged.n, old, nold * sizeof(cat_aclitem_t));
        merged.v = v;
        merged.n += nold;
        merged.cap = merged.n;
    }
    cat_id_t grantor;
    uint32_t avail;
    cat__best_grantor(s, cat_search_role(s, search), &merged, owner, rel_acl->in_db, privileges, &grantor, &avail);
    cat_acl_t col_acl = {.owner = owner, .set = true, .items = old, .n = nold};
    if (avail == 0) {
        /* restrict_and_check_grant: any column privilege on the relation or the column will do. */
        const cat_role_t *as = grantor == CAT_ROLE_BOOTSTRAP ? NULL : cat_snap_role_by_id(s, grantor);
        uint32_t held = cat_acl_privs(s, rel_acl, 'r', as, false) | cat_acl_privs(s, rel_acl, 'r', as, true) |
                        cat_acl_privs(s, &col_acl, 'c', as, false) | cat_acl_privs(s, &col_acl, 'c', as, true);
        if (!(held & CAT_PRIVS_COLUMN))
            return cm_err_set(err, CAT__ERRCODE_INSUFFICIENT_PRIVILEGE,
                              "permission denied for column \"%s\" of relation \"%s\"", colname, it->name);
    }
    uint32_t this = privileges & avail;
    bool all = privileges == CAT_PRIVS_COLUMN;
    cm_err_t *warn = NULL;
    if (g->is_grant) {
        if (this == 0)
            warn = cat__change_notice(out, "01007", "no privileges were granted for column \"%s\" of relation \"%s\"",
                                      colname, it->name);
        else if (!all && this != privileges)
            warn = cat__change_notice(out, "01007",
                                      "not all privileges were granted for column \"%s\" of relation \"%s\"", colname,
                                      it->name);
    } else {
        if (this == 0)
            warn = cat__change_notice(out, "01006",
                                      "no privileges could be revoked for column \"%s\" of relation \"%s\"", colname,
                                      it->name);
        else if (!all && this != privileges)
            warn = cat__change_notice(out, "01006",
                                      "not all privileges could be revoked for column \"%s\" of relation \"%s\"",
                                      colname, it->name);
    }
    if (warn)
        warn->severity = CM_SEV_WARNING;
    /* merge_acl_with_grant on the column's own ACL. */
    cat__acl_work_t w;
    cat__acl_work_init(&w, a, &col_acl, 'c');
    for (uint32_t i = 0; this && i < g->ngrantees; i++) {
        if (g->is_grant && g->grant_option && g->grantees[i] == CAT_ROLE_PUBLIC)
            return cm_err_set(err, CAT__ERRCODE_INVALID_GRANT_OPERATION, "grant options can only be granted to roles");
        cat_aclitem_t mod = {g->grantees[i], grantor, (g->is_grant || !g->grant_option) ? this : 0,
                             (!g->is_grant || g->grant_option) ? this : 0};
        if (!cat__aclupdate(s, &w, mod, g->is_grant, owner, g->cascade, 'c', err))
            return false;
    }
    *items = w.v;
    *n = w.n;
    return true;
}

bool cat__grant_columns(const cat_snap_t *s, const cat_search_t *search, const cat_grant_t *g, const cat_item_t *it,
                        const cat_acl_t *rel_acl, const cat_column_t *cols, cat_change_t *out, cat_column_t **out_cols,
                        cm_err_t *err)
{
    *out_cols = NULL;
    uint32_t nsys = it->kind == CAT_ITEM_VIEW ? 0 : (uint32_t)CM_ARRAY_LEN(system_columns);
    uint32_t ncols = it->ncolumns;
    uint32_t *privs = cm_arena_zalloc(&out->arena, (nsys + ncols + 1) * sizeof(uint32_t));
    bool any = false;
    /* A relation-level REVOKE takes its column privileges from every column too. */
    uint32_t rel = (g->all_privs ? CAT_PRIVS_RELATION : g->privs) & CAT_PRIVS_COLUMN;
    if (!g->is_grant && rel) {
        for (uint32_t i = 0; i < nsys + ncols; i++)
            privs[i] = rel;
        any = true;
    }
    for (uint32_t k = 0; k < g->ncol_grants; k++) {
        const cat_col_grant_t *cg = &g->col_grants[k];
        if (cg->unknown)
            return cm_err_set(err, CM_ERRCODE_SYNTAX_ERROR, "unrecognized privilege type \"%s\"", cg->unknown);
        if (cg->privs & ~CAT_PRIVS_COLUMN)
            return cm_err_set(err, CAT__ERRCODE_INVALID_GRANT_OPERATION, "invalid privilege type %s for column",
                              priv_name(cg->privs));
        for (uint32_t c = 0; c < cg->ncols; c++) {
            uint32_t at = 0;
            while (at < ncols && strcmp(cols[at].name, cg->cols[c]) != 0)
                at++;
            if (at < ncols) {
                privs[nsys + at] |= cg->privs;
            } else {
                uint32_t sys = 0;
                while (sys < nsys && strcmp(system_columns[sys], cg->cols[c]) != 0)
                    sys++;
                if (sys == nsys)
                    return cm_err_set(err, CM_ERRCODE_UNDEFINED_COLUMN, "column \"%s\" of relation \"%s\" does not exist",
                                      cg->cols[c], it->name);
                privs[sys] |= cg->privs;
            }
        }
        any = true;
    }
    if (!any)
        return true;
    cat_column_t *next = cm_arena_alloc(&out->arena, (ncols ? ncols : 1) * sizeof(cat_column_t));
    memcpy(next, cols, ncols * sizeof(cat_column_t));
    for (uint32_t i = 0; i < nsys + ncols; i++) {
        if (privs[i] == 0)
            continue;
        bool sys = i < nsys;
        const char *name = sys ? system_columns[i] : cols[i - nsys].name;
        const cat_aclitem_t *items = NULL;
        uint32_t n = 0;
        if (!grant_attribute(s, search, g, it, name, sys ? NULL : cols[i - nsys].acl, sys ? 0 : cols[i - nsys].nacl,
                             rel_acl, privs[i], out, &items, &n, err))
            return false;
        if (!sys) {
            next[i - nsys].acl = items;
            next[i - nsys].nacl = n;
        }
    }
    *out_cols = next;
    return true;
}
