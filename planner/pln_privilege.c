/*
 * pln_privilege.c: the privileges a statement needs on the relations it
 * reads and writes, as PostgreSQL 15's ExecCheckRTPerms asks for them.
 * Each relation the statement names (each range table entry) notes what it
 * needs: SELECT on what it reads, INSERT / UPDATE / DELETE / TRUNCATE on
 * what it writes, SELECT on a write target once one of its columns is read,
 * and the columns read, inserted and updated. They are checked once the
 * statement is bound, in the order the relations were met, so an analysis
 * error (a missing column) comes first, as in PostgreSQL, where the check
 * runs at executor start. Without the relation's privilege every column
 * used needs it on its own ACL (GRANT SELECT (a) ON t), none used (count(*))
 * needs it on any column. A view's reads are checked with its owner's
 * rights. eddy's own catalog relations are everyone's to read, except those
 * that hold password verifiers (pg_authid, eddy_catalog.roles): superusers
 * only, as PostgreSQL's pg_authid; pg_roles and pg_user show them masked.
 */
#include "planner/pln_internal.h"

#include <string.h>

/* One relation's needs: ExecCheckRTEPerms' view of a range table entry. */
typedef struct pln_perm {
    cat_id_t item_id;             /* looked up again when a prepared statement runs */
    uint32_t ncolumns;
    uint32_t required;            /* CAT_PRIV_* */
    bool as_owner;                /* read by a view: checked with its owner's rights, else the user's */
    cat_id_t owner;
    uint8_t *cols;                /* per column 1..n the CAT_PRIV_{SELECT,INSERT,UPDATE} it is used for */
} pln_perm_t;

/* Whose rights a read is checked with: the innermost view's owner, else the current user;
 * false when that is the bootstrap superuser (a view of a session that is no role). */
static bool checked_as(pln_binder_t *b, const cat_role_t **as)
{
    if (b->in_view) {
        if (b->view_owner == CAT_ROLE_BOOTSTRAP)
            return false;
        *as = cat_snap_role_by_id(b->cat->snap, b->view_owner);
    } else {
        *as = cat_search_role(b->cat->snap, &b->cat->search);
    }
    return true;
}

/* An entry is kept even for a superuser: a prepared statement may run as another user. */
int pln__check_privilege(pln_binder_t *b, const cat_item_t *item, uint32_t priv)
{
    if (b->skip_privileges || !b->cat || !b->cat->snap || cat_id_is_system(item->id))
        return 0;
    if (b->in_view && b->view_owner == CAT_ROLE_BOOTSTRAP)
        return 0;
    if (b->nperms == b->perms_cap) {
        int cap = b->perms_cap ? 2 * b->perms_cap : 8;
        pln_perm_t *v = cm_arena_alloc(b->arena, sizeof(*v) * (size_t)cap);
        if (b->nperms)
            memcpy(v, b->perms, sizeof(*v) * (size_t)b->nperms);
        b->perms = v;
        b->perms_cap = cap;
    }
    b->perms[b->nperms] = (pln_perm_t){.item_id = item->id, .ncolumns = item->ncolumns, .required = priv,
                                       .as_owner = b->in_view, .owner = b->view_owner,
                                       .cols = cm_arena_zalloc(b->arena, item->ncolumns + 1)};
    return ++b->nperms;
}

void pln__perm_mark(pln_binder_t *b, int perm, int attnum, uint32_t priv)
{
    if (perm <= 0 || perm > b->nperms)
        return;
    pln_perm_t *p = &b->perms[perm - 1];
    if (attnum < 1 || (uint32_t)attnum > p->ncolumns)
        return;
    p->cols[attnum] |= (uint8_t)priv;
    /* markVarForSelectPriv: reading a column of a write target needs SELECT on it. */
    if (priv == CAT_PRIV_SELECT)
        p->required |= CAT_PRIV_SELECT;
}

void pln__perm_mark_index(pln_binder_t *b, const pln_scope_t *sc, int index)
{
    for (int r = 0; sc && r < sc->nrtes; r++) {
        const pln_rte_t *t = &sc->rtes[r];
        if (t->perm && !t->index && index >= t->offset && index < t->offset + t->ncols) {
            pln__perm_mark(b, t->perm, index - t->offset + 1, CAT_PRIV_SELECT);
            return;
        }
    }
}

void pln__check_superuser_read(pln_binder_t *b, const char *name)
{
    if (b->denied || b->skip_privileges || b->in_catview > 0 || !b->cat || !b->cat->snap)
        return;
    const cat_role_t *as;
    if (!checked_as(b, &as) || cat_role_is_superuser(as))
        return;
    b->denied = cm_arena_printf(b->arena, "permission denied for table %s", name);
}

/* pg_attribute_aclmask: the column's own ACL (none: no privileges). */
static bool column_has(const cat_snap_t *snap, const cat_item_t *it, uint32_t c, const cat_role_t *as, uint32_t priv)
{
    const cat_column_t *col = &it->columns[c - 1];
    cat_acl_t acl = {.owner = it->acl.owner, .set = true, .items = col->acl, .n = col->nacl};
    return (cat_acl_privs(snap, &acl, 'c', as, false) & priv) != 0;
}

/* ExecCheckRTEPermsModified and the SELECT part of ExecCheckRTEPerms: every column used has
 * the privilege; none used, any column has it (pg_attribute_aclcheck_all, ACLMASK_ANY). */
static bool columns_allowed(const cat_snap_t *snap, const pln_perm_t *p, const cat_item_t *it, const cat_role_t *as,
                            uint32_t priv)
{
    bool any_used = false, any_has = false;
    for (uint32_t c = 1; c <= it->ncolumns && c <= p->ncolumns; c++) {
        bool has = column_has(snap, it, c, as, priv);
        any_has |= has;
        if (p->cols[c] & priv) {
            any_used = true;
            if (!has)
                return false;
        }
    }
    return any_used || any_has;
}

static bool perm_allowed(const cat_snap_t *snap, const pln_perm_t *p, const cat_item_t *it, const cat_role_t *as)
{
    if (cat_role_is_superuser(as))
        return true;
    uint32_t rel = cat_acl_privs(snap, &it->acl, 'r', as, false);
    uint32_t remaining = p->required & ~rel;
    if (remaining == 0)
        return true;
    if (remaining & ~(CAT_PRIV_SELECT | CAT_PRIV_INSERT | CAT_PRIV_UPDATE))
        return false;
    static const uint32_t col_privs[] = {CAT_PRIV_SELECT, CAT_PRIV_INSERT, CAT_PRIV_UPDATE};
    for (size_t i = 0; i < CM_ARRAY_LEN(col_privs); i++)
        if ((remaining & col_privs[i]) && !columns_allowed(snap, p, it, as, col_privs[i]))
            return false;
    return true;
}

/* Each entry in order, as the current user of `search` (or the view owner); false with 42501. */
static bool perms_check(const cat_snap_t *snap, const cat_search_t *search, const pln_perm_t *perms, int n,
                        cm_err_t *err)
{
    const cat_role_t *user = cat_search_role(snap, search);
    for (int i = 0; i < n; i++) {
        const pln_perm_t *p = &perms[i];
        const cat_item_t *it = cat_snap_item_by_id(snap, p->item_id);
        if (!it)
            continue;   /* gone: the statement is bound again before it runs */
        const cat_role_t *as = p->as_owner ? cat_snap_role_by_id(snap, p->owner) : user;
        if (!perm_allowed(snap, p, it, as))
            return cm_err_set(err, "42501", "permission denied for %s %s", cat_item_owner_noun(it), it->name);
    }
    return true;
}

bool pln__raise_denied(pln_binder_t *b)
{
    if (b->denied) {
        cm_err_set(b->err, "42501", "%s", b->denied);
        return false;
    }
    if (!b->nperms)
        return true;
    return perms_check(b->cat->snap, &b->cat->search, b->perms, b->nperms, b->err);
}

bool pln_check_privileges(const pln_stmt_t *st, const pln_catalog_t *cat, cm_err_t *err)
{
    if (!st || !st->nperms || !cat || !cat->snap)
        return true;
    return perms_check(cat->snap, &cat->search, st->perms, st->nperms, err);
}
