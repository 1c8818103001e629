/*
 * cat_plan_grant.c: GRANT / REVOKE privileges ON tables, schemas and
 * databases, as PostgreSQL 15's aclchk.c and acl.c do it: the grantor is
 * the best role the user acts for (select_best_grantor: the owner for the
 * owner, a member of the owning role and a superuser), what it may grant is
 * what it holds grant options for (restrict_and_check_grant, with its 42501
 * and its warnings), and the ACL changes entry by entry (aclupdate, keyed by
 * grantee and grantor, empty entries removed), lost grant options taking
 * what was granted through them (recursive_revoke: 2BP01 unless CASCADE).
 * The object is redefined in place with its new ACL.
 */
#include "catalog/cat_int.h"

#include <stdlib.h>
#include <string.h>

void cat__acl_work_init(cat__acl_work_t *w, cm_arena_t *a, const cat_acl_t *acl, char kind)
{
    cat_aclitem_t def[2];
    const cat_aclitem_t *it;
    uint32_t n = cat_acl_items(acl, kind, def, &it);
    w->arena = a;
    w->cap = n + 8;
    w->v = cm_arena_alloc(a, w->cap * sizeof(cat_aclitem_t));
    if (n)
        memcpy(w->v, it, n * sizeof(cat_aclitem_t));
    w->n = n;
}

static uint32_t popcount(uint32_t x)
{
    uint32_t n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

/* aclmask_direct for grant options: entries naming the role itself; the owner has them all. */
static uint32_t goptions_direct(const cat__acl_work_t *w, cat_id_t role, cat_id_t owner, uint32_t needed)
{
    if (role == owner)
        return needed;
    uint32_t got = 0;
    for (uint32_t i = 0; i < w->n; i++)
        if (w->v[i].grantee == role)
            got |= w->v[i].grant & needed;
    return got;
}

/* The roles whose privileges `r` has, itself first, breadth first (roles_is_member_of). */
static size_t privs_roles(const cat_snap_t *s, const cat_role_t *r, const cat_role_t **out, size_t max)
{
    size_t n = 0;
    out[n++] = r;
    for (size_t i = 0; i < n; i++) {
        if (!(out[i]->flags & CAT_ROLE_INHERIT))
            continue;
        for (uint32_t k = 0; k < out[i]->nmember_of; k++) {
            const cat_role_t *p = cat_snap_role_by_id(s, out[i]->member_of[k]);
            bool seen = p == NULL;
            for (size_t j = 0; j < n && !seen; j++)
                seen = out[j] == p;
            if (!seen && n < max)
                out[n++] = p;
        }
    }
    return n;
}

void cat__best_grantor(const cat_snap_t *s, const cat_role_t *me, const cat__acl_work_t *w, cat_id_t owner,
                       const cat_database_t *db, uint32_t needed, cat_id_t *grantor, uint32_t *goptions)
{
    if (cat_role_is_superuser(me) || me->id == owner) {
        *grantor = owner;
        *goptions = needed;
        return;
    }
    const cat_role_t *roles[64];
    size_t n = privs_roles(s, me, roles, 63);
    /* roles_is_member_of: the database's owner is a member of pg_database_owner. */
    if (cat_role_has_privs_of_in(s, me, CAT_ROLE_DATABASE_OWNER, db))
        roles[n++] = cat_role_database_owner();
    *grantor = me->id;
    *goptions = 0;
    uint32_t best = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t got = goptions_direct(w, roles[i]->id, owner, needed);
        if (got == needed) {
            *grantor = roles[i]->id;
            *goptions = got;
            return;
        }
        if (got && popcount(got) > best) {
            *grantor = roles[i]->id;
            *goptions = got;
            best = popcount(got);
        }
    }
}

static bool dependent_privileges(cm_err_t *err)
{
    cm_err_set(err, CAT__ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST, "dependent privileges exist");
    cm_err_set_hint(err, "Use CASCADE to revoke them too.");
    return false;
}


/* recursive_revoke: what `grantee` granted through options it lost goes too. */
static bool recursive_revoke(const cat_snap_t *s, cat__acl_work_t *w, cat_id_t grantee, uint32_t lost, cat_id_t owner,
                             bool cascade, char kind, cm_err_t *err)
{
    if (grantee == owner)
        return true;
    const cat_role_t *r = cat_snap_role_by_id(s, grantee);
    if (r) {
        cat_acl_t now = {.owner = owner, .set = true, .items = w->v, .n = w->n};
        lost &= ~cat_acl_privs(s, &now, kind, r, true);
    }
    for (uint32_t i = 0; lost && i < w->n; i++) {
        if (w->v[i].grantor != grantee || !(w->v[i].privs & lost))
            continue;
        if (!cascade)
            return dependent_privileges(err);
        cat_aclitem_t mod = {w->v[i].grantee, grantee, lost, lost};
        if (!cat__aclupdate(s, w, mod, false, owner, cascade, kind, err))
            return false;
        i = (uint32_t)-1;   /* the list changed: start again, as PostgreSQL's restart */
    }
    return true;
}

bool cat__aclupdate(const cat_snap_t *s, cat__acl_work_t *w, cat_aclitem_t mod, bool add, cat_id_t owner, bool cascade,
                    char kind, cm_err_t *err)
{
    uint32_t d = 0;
    while (d < w->n && !(w->v[d].grantee == mod.grantee && w->v[d].grantor == mod.grantor))
        d++;
    if (d == w->n) {
        if (w->n == w->cap) {
            cat_aclitem_t *v = cm_arena_alloc(w->arena, (w->cap *= 2) * sizeof(cat_aclitem_t));
            memcpy(v, w->v, w->n * sizeof(cat_aclitem_t));
            w->v = v;
        }
        w->v[w->n++] = (cat_aclitem_t){mod.grantee, mod.grantor, 0, 0};
    }
    uint32_t old_grant = w->v[d].grant;
    if (add) {
        w->v[d].privs |= mod.privs;
        w->v[d].grant |= mod.grant;
    } else {
        w->v[d].privs &= ~mod.privs;
        w->v[d].grant &= ~mod.grant;
    }
    uint32_t new_grant = w->v[d].grant;
    if (w->v[d].privs == 0 && w->v[d].grant == 0) {
        memmove(&w->v[d], &w->v[d + 1], (w->n - d - 1) * sizeof(cat_aclitem_t));
        w->n--;
    }
    if (old_grant & ~new_grant)
        return recursive_revoke(s, w, mod.grantee, old_grant & ~new_grant, owner, cascade, kind, err);
    return true;
}

/* What kind of object an ACL is on: acldefault's letter, all its privileges, its noun for errors. */
typedef struct grant_obj {
    const cat_acl_t *acl;
    char kind;
    uint32_t all;
    const char *noun;
    const char *name;
} grant_obj_t;

static bool grant_acl(const cat_snap_t *s, const cat_search_t *search, const cat_grant_t *g, const grant_obj_t *o,
                      cat_change_t *out, cat_acl_t *result, cm_err_t *err)
{
    cm_arena_t *a = &out->arena;
    cat__acl_work_t w;
    cat__acl_work_init(&w, a, o->acl, o->kind);
    const cat_role_t *me = cat_search_role(s, search);
    uint32_t privileges = g->all_privs ? o->all : g->privs;
    cat_id_t grantor;
    uint32_t avail;
    cat__best_grantor(s, me, &w, o->acl->owner, o->acl->in_db, privileges, &grantor, &avail);
    if (avail == 0) {
        /* restrict_and_check_grant: holding any privilege at all on it gets one past here. */
        const cat_role_t *as = grantor == CAT_ROLE_BOOTSTRAP ? NULL : cat_snap_role_by_id(s, grantor);
        if (!(cat_acl_privs(s, o->acl, o->kind, as, false) & o->all) &&
            !(cat_acl_privs(s, o->acl, o->kind, as, true) & o->all))
            return cm_err_set(err, CAT__ERRCODE_INSUFFICIENT_PRIVILEGE, "permission denied for %s %s", o->noun,
                              o->name);
    }
    uint32_t this = privileges & avail;
    cm_err_t *warn = NULL;
    if (g->is_grant) {
        if (this == 0)
            warn = cat__change_notice(out, "01007", "no privileges were granted for \"%s\"", o->name);
        else if (!g->all_privs && this != privileges)
            warn = cat__change_notice(out, "01007", "not all privileges were granted for \"%s\"", o->name);
    } else {
        if (this == 0)
            warn = cat__change_notice(out, "01006", "no privileges could be revoked for \"%s\"", o->name);
        else if (!g->all_privs && this != privileges)
            warn = cat__change_notice(out, "01006", "not all privileges could be revoked for \"%s\"", o->name);
    }
    if (warn)
        warn->severity = CM_SEV_WARNING;
    for (uint32_t i = 0; this && i < g->ngrantees; i++) {
        if (g->is_grant && g->grant_option && g->grantees[i] == CAT_ROLE_PUBLIC)
            return cm_err_set(err, CAT__ERRCODE_INVALID_GRANT_OPERATION, "grant options can only be granted to roles");
        /* GRANT ... WITH GRANT OPTION gives both; REVOKE takes both, REVOKE GRANT OPTION FOR the option. */
        cat_aclitem_t mod = {g->grantees[i], grantor, (g->is_grant || !g->grant_option) ? this : 0,
                             (!g->is_grant || g->grant_option) ? this : 0};
        if (!cat__aclupdate(s, &w, mod, g->is_grant, o->acl->owner, g->cascade, o->kind, err))
            return false;
    }
    *result = (cat_acl_t){.owner = o->acl->owner, .set = true, .in_db = o->acl->in_db, .items = w.v, .n = w.n,
                          .defacls = o->acl->defacls, .ndefacls = o->acl->ndefacls};
    return true;
}

bool cat_plan_grant_item(const cat_snap_t *s, const cat_search_t *search, const cat_grant_t *g, const cat_item_t *it,
                         cat_change_t *out, cm_err_t *err)
{
    cat__change_base(out, s);
    if (it->kind == CAT_ITEM_INDEX)
        return cm_err_set(err, CAT__ERRCODE_WRONG_OBJECT_TYPE, "\"%s\" is an index", it->name);
    /* USAGE is a sequence's; PostgreSQL names no object here, as its combined check did not. */
    if (!g->all_privs && (g->privs & ~CAT_PRIVS_RELATION))
        return cm_err_set(err, CAT__ERRCODE_INVALID_GRANT_OPERATION, "invalid privilege type %s for table", "USAGE");
    if (cat_id_is_system(it->id) || !it->schema->database)
        return cm_err_set(err, CAT__ERRCODE_INSUFFICIENT_PRIVILEGE, "permission denied: \"%s\" is a system catalog",
                          it->name);
    /* An earlier object of the same statement may have changed it already (GRANT ON t, t). */
    const cat_acl_t *acl = &it->acl;
    for (size_t i = 0; i < out->nops; i++)
        if (out->ops[i].kind == CAT_OP_RENAME && out->ops[i].obj.cls == CAT_CLASS_ITEM && out->ops[i].obj.id == it->id)
            acl = &out->ops[i].obj.acl;
    const cat_column_t *cols = it->columns;
    for (size_t i = 0; i < out->nops; i++)
        if (out->ops[i].kind == CAT_OP_RENAME && out->ops[i].obj.cls == CAT_CLASS_ITEM && out->ops[i].obj.id == it->id)
            cols = out->ops[i].obj.columns;
    grant_obj_t o = {acl, 'r', CAT_PRIVS_RELATION, cat_item_owner_noun(it), it->name};
    /* Relation-level privileges only when some were named (GRANT SELECT (a) ON t names none). */
    cat_acl_t result = *acl;
    if ((g->all_privs || g->privs) && !grant_acl(s, search, g, &o, out, &result, err))
        return false;
    cat_column_t *new_cols = NULL;
    if (!cat__grant_columns(s, search, g, it, acl, cols, out, &new_cols, err))
        return false;
    cat_item_def_t def = {.kind = it->kind};
    if (!cat_plan_alter_item(s, it, &def, out, err))
        return false;
    for (size_t i = 0; i < out->nops; i++)
        if (out->ops[i].kind == CAT_OP_RENAME && out->ops[i].obj.cls == CAT_CLASS_ITEM && out->ops[i].obj.id == it->id) {
            out->ops[i].obj.acl = result;
            if (new_cols)
                out->ops[i].obj.columns = new_cols;
        }
    return true;
}

/* The op that redefines a schema or database in this change, made if none is yet. */
void cat__redefine_acl_holder(cat__op_t *op, const cat_schema_t *sc, const cat_database_t *db, const cat_acl_t *acl,
                              cm_arena_t *a)
{
    op->obj.cls = sc ? CAT_CLASS_SCHEMA : CAT_CLASS_DATABASE;
    op->obj.id = sc ? sc->id : db->id;
    op->obj.oid = sc ? sc->oid : db->oid;
    op->obj.parent = sc ? sc->database->id : 0;
    op->obj.name = cm_arena_strdup(a, sc ? sc->name : db->name);
    cat_acl_copy(a, &op->obj.acl, acl);
}

static cat__op_t *redefine_op(cat_change_t *out, cat_class_t cls, cat_id_t id, bool *fresh)
{
    for (size_t i = 0; i < out->nops; i++)
        if (out->ops[i].kind == CAT_OP_RENAME && out->ops[i].obj.cls == cls && out->ops[i].obj.id == id) {
            *fresh = false;
            return &out->ops[i];
        }
    *fresh = true;
    return cat__change_op(out, CAT_OP_RENAME);
}

bool cat_plan_grant_schema(const cat_snap_t *s, const cat_search_t *search, const cat_grant_t *g,
                           const cat_schema_t *sc, cat_change_t *out, cm_err_t *err)
{
    cat__change_base(out, s);
    if (!sc->database)
        return cm_err_set(err, CAT__ERRCODE_INSUFFICIENT_PRIVILEGE, "permission denied: \"%s\" is a system schema",
                          sc->name);
    bool fresh;
    cat__op_t *op = redefine_op(out, CAT_CLASS_SCHEMA, sc->id, &fresh);
    grant_obj_t o = {fresh ? &sc->acl : &op->obj.acl, 'n', CAT_PRIVS_SCHEMA, "schema", sc->name};
    cat_acl_t result;
    if (!grant_acl(s, search, g, &o, out, &result, err)) {
        if (fresh)
            out->nops--;
        return false;
    }
    op->obj.cls = CAT_CLASS_SCHEMA;
    op->obj.id = sc->id;
    op->obj.oid = sc->oid;
    op->obj.parent = sc->database->id;
    op->obj.name = cm_arena_strdup(&out->arena, sc->name);
    op->obj.acl = result;
    return true;
}

bool cat_plan_grant_database(const cat_snap_t *s, const cat_search_t *search, const cat_grant_t *g,
                             const cat_database_t *db, cat_change_t *out, cm_err_t *err)
{
    cat__change_base(out, s);
    bool fresh;
    cat__op_t *op = redefine_op(out, CAT_CLASS_DATABASE, db->id, &fresh);
    grant_obj_t o = {fresh ? &db->acl : &op->obj.acl, 'd', CAT_PRIVS_DATABASE, "database", db->name};
    cat_acl_t result;
    if (!grant_acl(s, search, g, &o, out, &result, err)) {
        if (fresh)
            out->nops--;
        return false;
    }
    op->obj.cls = CAT_CLASS_DATABASE;
    op->obj.id = db->id;
    op->obj.oid = db->oid;
    op->obj.name = cm_arena_strdup(&out->arena, db->name);
    op->obj.acl = result;
    return true;
}

/* ------------------------------------------------------------- default privileges */

/* aclitem_comparator over OIDs: grantee, grantor, then the privileges with their grant options. */
static int aclitem_cmp(const void *a, const void *b, void *arg)
{
    const cat_snap_t *sort_snap = arg;
    const cat_aclitem_t *x = a, *y = b;
    uint32_t gx = cat_role_id_oid(sort_snap, x->grantee), gy = cat_role_id_oid(sort_snap, y->grantee);
    if (gx != gy)
        return gx < gy ? -1 : 1;
    uint32_t rx = cat_role_id_oid(sort_snap, x->grantor), ry = cat_role_id_oid(sort_snap, y->grantor);
    if (rx != ry)
        return rx < ry ? -1 : 1;
    uint64_t px = (uint64_t)x->grant << 32 | x->privs, py = (uint64_t)y->grant << 32 | y->privs;
    return px < py ? -1 : px > py;
}

static void acl_sort(const cat_snap_t *s, cat_aclitem_t *v, uint32_t n)
{
    qsort_r(v, n, sizeof(cat_aclitem_t), aclitem_cmp, (void *)s);
}

static bool acl_equal(const cat_aclitem_t *a, uint32_t na, const cat_aclitem_t *b, uint32_t nb)
{
    return na == nb && (na == 0 || memcmp(a, b, na * sizeof(cat_aclitem_t)) == 0);
}

static const cat_defacl_t *defacl_of(const cat_acl_t *acl, cat_id_t role, char objtype)
{
    for (uint32_t i = 0; i < acl->ndefacls; i++)
        if (acl->defacls[i].role == role && acl->defacls[i].objtype == objtype)
            return &acl->defacls[i];
    return NULL;
}

uint32_t cat_defacl_privs(char objtype)
{
    switch (objtype) {
    case 'S': return CAT_PRIV_SELECT | CAT_PRIV_UPDATE | CAT_PRIV_USAGE;
    case 'f': return CAT_PRIV_EXECUTE;
    case 'T': return CAT_PRIV_USAGE;
    case 'n': return CAT_PRIVS_SCHEMA;
    default: return CAT_PRIVS_RELATION;
    }
}

bool cat_plan_default_privileges(const cat_snap_t *s, const cat_search_t *search, const cat_grant_t *g, cat_id_t role,
                                 char objtype, const cat_schema_t *sc, const cat_database_t *db, cat_change_t *out,
                                 cm_err_t *err)
{
    cat__change_base(out, s);
    cm_arena_t *a = &out->arena;
    if (objtype == 'n' && sc)
        return cm_err_set(err, CAT__ERRCODE_INVALID_GRANT_OPERATION,
                          "cannot use IN SCHEMA clause when using GRANT/REVOKE ON SCHEMAS");
    bool fresh;
    cat__op_t *op = sc ? redefine_op(out, CAT_CLASS_SCHEMA, sc->id, &fresh) : redefine_op(out, CAT_CLASS_DATABASE, db->id, &fresh);
    const cat_acl_t *now = fresh ? (sc ? &sc->acl : &db->acl) : &op->obj.acl;
    /* A database's entry replaces the built-in default; a schema's adds to it. */
    cat_aclitem_t def[2];
    uint32_t ndef = sc ? 0 : cat_acl_default(objtype, role, def);
    const cat_defacl_t *old = defacl_of(now, role, objtype);
    cat_acl_t start = {.owner = role, .set = true, .items = old ? old->items : def, .n = old ? old->n : ndef};
    cat__acl_work_t w;
    cat__acl_work_init(&w, a, &start, 'r');
    uint32_t this = g->all_privs ? cat_defacl_privs(objtype) : g->privs;
    for (uint32_t i = 0; this && i < g->ngrantees; i++) {
        if (g->is_grant && g->grant_option && g->grantees[i] == CAT_ROLE_PUBLIC) {
            if (fresh)
                out->nops--;
            return cm_err_set(err, CAT__ERRCODE_INVALID_GRANT_OPERATION, "grant options can only be granted to roles");
        }
        cat_aclitem_t mod = {g->grantees[i], role, (g->is_grant || !g->grant_option) ? this : 0,
                             (!g->is_grant || g->grant_option) ? this : 0};
        if (!cat__aclupdate(s, &w, mod, g->is_grant, role, g->cascade, 'r', err)) {
            if (fresh)
                out->nops--;
            return false;
        }
    }
    acl_sort(s, w.v, w.n);
    acl_sort(s, def, ndef);
    bool drop = acl_equal(w.v, w.n, def, ndef);
    /* The object's entries with this role's replaced (or removed). */
    cat_defacl_t *d = cm_arena_alloc(a, (now->ndefacls + 1) * sizeof(cat_defacl_t));
    uint32_t nd = 0;
    for (uint32_t i = 0; i < now->ndefacls; i++)
        if (now->defacls[i].role != role || now->defacls[i].objtype != objtype)
            d[nd++] = now->defacls[i];
    /* A new entry is made by the entry this change commits as (a transaction's later statements
     * share its index, which keeps their order among objects). */
    if (!drop)
        d[nd++] = (cat_defacl_t){role, objtype, w.v, w.n, old ? old->created : cat_snap_index(s) + 1};
    cat_acl_t acl = *now;
    acl.defacls = d;
    acl.ndefacls = nd;
    cat__redefine_acl_holder(op, sc, db, &acl, a);
    (void)search;
    return true;
}

cat_acl_t cat_acl_for_new(const cat_snap_t *s, const cat_schema_t *sc, cat_id_t owner, cm_arena_t *a)
{
    cat_acl_t none = {.owner = owner};
    const cat_defacl_t *glob = sc->database ? defacl_of(&sc->database->acl, owner, 'r') : NULL;
    const cat_defacl_t *mine = defacl_of(&sc->acl, owner, 'r');
    if (!glob && !mine)
        return none;
    cat_aclitem_t def[2];
    uint32_t ndef = cat_acl_default('r', owner, def);
    cat_acl_t start = {.owner = owner, .set = true, .items = glob ? glob->items : def, .n = glob ? glob->n : ndef};
    cat__acl_work_t w;
    cat__acl_work_init(&w, a, &start, 'r');
    cm_err_t ignore = {0};
    for (uint32_t i = 0; mine && i < mine->n; i++)
        cat__aclupdate(s, &w, mine->items[i], true, owner, false, 'r', &ignore);
    cm_err_clear(&ignore);
    acl_sort(s, w.v, w.n);
    acl_sort(s, def, ndef);
    if (acl_equal(w.v, w.n, def, ndef))
        return none;
    return (cat_acl_t){.owner = owner, .set = true, .items = w.v, .n = w.n};
}

cat_acl_t cat_acl_for_new_schema(const cat_snap_t *s, const cat_database_t *db, cat_id_t owner, cm_arena_t *a)
{
    cat_acl_t none = {.owner = owner};
    const cat_defacl_t *glob = db ? defacl_of(&db->acl, owner, 'n') : NULL;
    if (!glob)
        return none;
    cat_aclitem_t *v = glob->n ? cm_arena_alloc(a, glob->n * sizeof(cat_aclitem_t)) : NULL;
    if (glob->n)
        memcpy(v, glob->items, glob->n * sizeof(cat_aclitem_t));
    (void)s;
    return (cat_acl_t){.owner = owner, .set = true, .items = v, .n = glob->n};
}
