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
    const cat_item_t *item;
    uint32_t required;            /* CAT_PRIV_* */
    const cat_role_t *as;         /* checked with this role's rights (NULL: a superuser) */
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

int pln__check_privilege(pln_binder_t *b, const cat_item_t *item, uint32_t priv)
{
    if (b->skip_privileges || !b->cat || !b->cat->snap || cat_id_is_system(item->id))
        return 0;
    const cat_role_t *as;
    if (!checked_as(b, &as) || cat_role_is_superuser(as))
        return 0;
    if (b->nperms == b->perms_cap) {
        int cap = b->perms_cap ? 2 * b->perms_cap : 8;
        pln_perm_t *v = cm_arena_alloc(b->arena, sizeof(*v) * (size_t)cap);
        if (b->nperms)
            memcpy(v, b->perms, sizeof(*v) * (size_t)b->nperms);
        b->perms = v;
        b->perms_cap = cap;
    }
    b->perms[b->nperms] = (pln_perm_t){.item = item, .required = priv, .as = as,
                                       .cols = cm_arena_zalloc(b->arena, item->ncolumns + 1)};
    return ++b->nperms;
}

void pln__perm_mark(pln_binder_t *b, int perm, int attnum, uint32_t priv)
{
    if (perm <= 0 || perm > b->nperms)
        return;
    pln_perm_t *p = &b->perms[perm - 1];
    if (attnum < 1 || (uint32_t)attnum > p->item->ncolumns)
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
static bool column_has(const pln_binder_t *b, const cat_item_t *it, uint32_t c, const cat_role_t *as, uint32_t priv)
{
    const cat_column_t *col = &it->columns[c - 1];
    cat_acl_t acl = {.owner = it->acl.owner, .set = true, .items = col->acl, .n = col->nacl};
    return (cat_acl_privs(b->cat->snap, &acl, 'c', as, false) & priv) != 0;
}

/* ExecCheckRTEPermsModified and the SELECT part of ExecCheckRTEPerms: every column used has
 * the privilege; none used, any column has it (pg_attribute_aclcheck_all, ACLMASK_ANY). */
static bool columns_allowed(const pln_binder_t *b, const pln_perm_t *p, uint32_t priv)
{
    bool any_used = false, any_has = false;
    for (uint32_t c = 1; c <= p->item->ncolumns; c++) {
        bool has = column_has(b, p->item, c, p->as, priv);
        any_has |= has;
        if (p->cols[c] & priv) {
            any_used = true;
            if (!has)
                return false;
        }
    }
    return any_used || any_has;
}

static bool perm_allowed(const pln_binder_t *b, const pln_perm_t *p)
{
    uint32_t rel = cat_acl_privs(b->cat->snap, &p->item->acl, 'r', p->as, false);
    uint32_t remaining = p->required & ~rel;
    if (remaining == 0)
        return true;
    if (remaining & ~(CAT_PRIV_SELECT | CAT_PRIV_INSERT | CAT_PRIV_UPDATE))
        return false;
    static const uint32_t col_privs[] = {CAT_PRIV_SELECT, CAT_PRIV_INSERT, CAT_PRIV_UPDATE};
    for (size_t i = 0; i < CM_ARRAY_LEN(col_privs); i++)
        if ((remaining & col_privs[i]) && !columns_allowed(b, p, col_privs[i]))
            return false;
    return true;
}

bool pln__raise_denied(pln_binder_t *b)
{
    if (b->denied) {
        cm_err_set(b->err, "42501", "%s", b->denied);
        return false;
    }
    for (int i = 0; i < b->nperms; i++) {
        const pln_perm_t *p = &b->perms[i];
        if (!perm_allowed(b, p)) {
            cm_err_set(b->err, "42501", "permission denied for %s %s", cat_item_owner_noun(p->item), p->item->name);
            return false;
        }
    }
    return true;
}
