/*
 * pln_catfn_colpriv.c: the column part of has_column_privilege and
 * has_any_column_privilege, as PostgreSQL 15's acl.c: a column named that
 * the relation lacks is 42703 (but NULL when the relation itself is not
 * there), one by number that it lacks is NULL; a system column (ctid ...
 * tableoid, -1 ... -6) exists on a table and has no privileges of its own.
 * The column's own ACL is asked first, then the relation's; "any column"
 * asks the relation first, then each column.
 */
#include "planner/pln_internal.h"

#include <string.h>

/* Their attnums are -1 ... -6 in this order. */
static const char *const system_columns[] = {"ctid", "xmin", "cmin", "xmax", "cmax", "tableoid"};

static bool has_system_columns(const cat_item_t *it)
{
    return it->kind != CAT_ITEM_VIEW;
}

bool pln__priv_column(ty_ctx_t *ctx, const cat_item_t *it, bool readable_view, bool by_attnum, const ty_datum_t *col,
                      int *attnum)
{
    if (by_attnum) {
        *attnum = (int)col->v.i;
        return true;
    }
    *attnum = 0;
    if (!it) {
        *attnum = readable_view ? 1 : 0;   /* pg_catalog's views: their columns are not listed here */
        return true;
    }
    const char *name = cm_arena_strndup(ctx->arena, col->v.s.p, col->v.s.len);
    for (uint32_t i = 0; i < it->ncolumns; i++)
        if (strcmp(it->columns[i].name, name) == 0) {
            *attnum = (int)i + 1;
            return true;
        }
    for (size_t i = 0; has_system_columns(it) && i < CM_ARRAY_LEN(system_columns); i++)
        if (strcmp(system_columns[i], name) == 0) {
            *attnum = -(int)i - 1;
            return true;
        }
    return cm_err_set(ctx->err, CM_ERRCODE_UNDEFINED_COLUMN, "column \"%s\" of relation \"%s\" does not exist", name,
                      it->name);
}

/* pg_attribute_aclmask's answer for `role` (a system column has no ACL). */
static bool column_has(const cat_snap_t *snap, const cat_role_t *role, const cat_item_t *it, int attnum,
                       uint32_t privs, uint32_t grants)
{
    if (attnum < 1)
        return false;
    const cat_column_t *c = &it->columns[attnum - 1];
    cat_acl_t acl = {.owner = it->acl.owner, .set = true, .items = c->acl, .n = c->nacl};
    return (cat_acl_privs(snap, &acl, 'c', role, false) & privs) != 0 ||
           (cat_acl_privs(snap, &acl, 'c', role, true) & grants) != 0;
}

bool pln__column_privilege(const cat_snap_t *snap, const cat_role_t *role, const cat_item_t *it, const cat_acl_t *acl,
                           bool readable_view, int attnum, uint32_t privs, uint32_t grants, ty_datum_t *out)
{
    if (readable_view && attnum != 0) {
        out->v.b = (privs & CAT_PRIV_SELECT) != 0;
        return true;
    }
    bool exists = it && (attnum == PLN_PRIV_ANY_COLUMN ? true
                         : attnum > 0 ? (uint32_t)attnum <= it->ncolumns
                                      : has_system_columns(it) && attnum < 0 &&
                                            attnum >= -(int)CM_ARRAY_LEN(system_columns));
    if (!exists) {
        out->isnull = true;
        return true;
    }
    bool rel = cat_role_is_superuser(role) || (cat_acl_privs(snap, acl, 'r', role, false) & privs) != 0 ||
               (cat_acl_privs(snap, acl, 'r', role, true) & grants) != 0;
    if (attnum != PLN_PRIV_ANY_COLUMN) {
        out->v.b = column_has(snap, role, it, attnum, privs, grants) || rel;
        return true;
    }
    out->v.b = rel;
    for (uint32_t c = 1; !out->v.b && c <= it->ncolumns; c++)
        out->v.b = column_has(snap, role, it, (int)c, privs, grants);
    return true;
}
