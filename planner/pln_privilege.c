/*
 * pln_privilege.c: the privileges a statement needs on the relations it
 * reads and writes, as PostgreSQL 15's ExecCheckRTPerms asks for them:
 * SELECT on what it reads, INSERT / UPDATE / DELETE / TRUNCATE on what it
 * writes (and SELECT on a write target whose columns it reads), a view's
 * reads with the view owner's rights. The first failure is kept and raised
 * once the statement is bound, so an analysis error (a missing column)
 * comes first, as in PostgreSQL, where the check runs at executor start.
 * eddy's own catalog relations are everyone's to read.
 */
#include "planner/pln_internal.h"

#include <string.h>

void pln__check_privilege(pln_binder_t *b, const cat_item_t *item, uint32_t priv)
{
    if (b->denied || b->skip_privileges || !b->cat || !b->cat->snap || cat_id_is_system(item->id))
        return;
    const cat_snap_t *snap = b->cat->snap;
    const cat_role_t *as;
    if (b->in_view) {
        if (b->view_owner == CAT_ROLE_BOOTSTRAP)
            return;   /* the bootstrap superuser's view */
        as = cat_snap_role_by_id(snap, b->view_owner);
    } else {
        as = cat_search_role(snap, &b->cat->search);
    }
    if (cat_role_is_superuser(as) || (cat_acl_privs(snap, &item->acl, 'r', as, false) & priv) == priv)
        return;
    b->denied = cm_arena_printf(b->arena, "permission denied for %s %s", cat_item_owner_noun(item), item->name);
}

bool pln__raise_denied(pln_binder_t *b)
{
    if (!b->denied)
        return true;
    cm_err_set(b->err, "42501", "%s", b->denied);
    return false;
}
