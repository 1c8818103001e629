/*
 * pln_privilege.c: the privileges a statement needs on the relations it
 * reads and writes, as PostgreSQL 15's ExecCheckRTPerms asks for them:
 * SELECT on what it reads, INSERT / UPDATE / DELETE / TRUNCATE on what it
 * writes (and SELECT on a write target whose columns it reads), a view's
 * reads with the view owner's rights. The first failure is kept and raised
 * once the statement is bound, so an analysis error (a missing column)
 * comes first, as in PostgreSQL, where the check runs at executor start.
 * eddy's own catalog relations are everyone's to read, except those that
 * hold password verifiers (pg_authid, eddy_catalog.roles): superusers only,
 * as PostgreSQL's pg_authid; pg_roles and pg_user show them masked.
 */
#include "planner/pln_internal.h"

#include <string.h>

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

void pln__check_privilege(pln_binder_t *b, const cat_item_t *item, uint32_t priv)
{
    if (b->denied || b->skip_privileges || !b->cat || !b->cat->snap || cat_id_is_system(item->id))
        return;
    const cat_snap_t *snap = b->cat->snap;
    const cat_role_t *as;
    if (!checked_as(b, &as))
        return;
    if (cat_role_is_superuser(as) || (cat_acl_privs(snap, &item->acl, 'r', as, false) & priv) == priv)
        return;
    b->denied = cm_arena_printf(b->arena, "permission denied for %s %s", cat_item_owner_noun(item), item->name);
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

bool pln__raise_denied(pln_binder_t *b)
{
    if (!b->denied)
        return true;
    cm_err_set(b->err, "42501", "%s", b->denied);
    return false;
}
