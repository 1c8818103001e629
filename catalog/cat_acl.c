/*
 * cat_acl.c: owners and privileges as PostgreSQL 15 has them (acl.c,
 * aclchk.c): who a session acts as, whose privileges a role has
 * (has_privs_of_role, which follows INHERIT), an object's ACL or its
 * kind's default (acldefault), the privileges a role holds on an object
 * (aclmask), the "must be owner" check, and aclitem's text form
 * ("alice=arwdDxt/alice", PUBLIC as an empty grantee).
 */
#include "catalog/cat_int.h"

#include <stdio.h>
#include <string.h>

/* The name OID 10 shows when the session's user is a catalog role itself. */
#define CAT__BOOTSTRAP_NAME "eddy"

const cat_role_t *cat_search_role(const cat_snap_t *s, const cat_search_t *search)
{
    return search ? cat_snap_role(s, search->user) : NULL;
}

const char *cat_bootstrap_name(const cat_snap_t *s, const cat_search_t *search)
{
    const char *su = search ? (search->session_user ? search->session_user : search->user) : NULL;
    if (su && !cat_snap_role(s, su))
        return su;
    return CAT__BOOTSTRAP_NAME;
}

bool cat_role_is_superuser(const cat_role_t *r)
{
    return r == NULL || (r->flags & CAT_ROLE_SUPERUSER) != 0;
}

uint32_t cat_role_id_oid(const cat_snap_t *s, cat_id_t id)
{
    if (id == CAT_ROLE_BOOTSTRAP)
        return CAT_BOOTSTRAP_OID;
    if (id == CAT_ROLE_PUBLIC)
        return 0;
    const cat_role_t *r = cat_snap_role_by_id(s, id);
    return r ? r->oid : 0;
}

const char *cat_role_id_name(const cat_snap_t *s, const cat_search_t *search, cat_id_t id, char buf[32])
{
    if (id == CAT_ROLE_BOOTSTRAP)
        return cat_bootstrap_name(s, search);
    if (id == CAT_ROLE_PUBLIC)
        return "public";
    const cat_role_t *r = cat_snap_role_by_id(s, id);
    if (r)
        return r->name;
    snprintf(buf, 32, "%llu", (unsigned long long)id);
    return buf;
}

/* roles_is_member_of(ROLERECURSE_PRIVS): a role without INHERIT has only its own privileges. */
static bool privs_walk(const cat_snap_t *s, const cat_role_t *r, cat_id_t of, cat__map_t *seen)
{
    if (r->id == of)
        return true;
    if (cat__map_get(seen, r->id, NULL) || !(r->flags & CAT_ROLE_INHERIT))
        return false;
    cat__map_put(seen, r->id, NULL, (void *)1);
    for (uint32_t i = 0; i < r->nmember_of; i++) {
        const cat_role_t *p = cat_snap_role_by_id(s, r->member_of[i]);
        if (p && privs_walk(s, p, of, seen))
            return true;
    }
    return false;
}

bool cat_role_has_privs_of(const cat_snap_t *s, const cat_role_t *role, cat_id_t of)
{
    if (cat_role_is_superuser(role))
        return true;
    cat__map_t seen;
    cat__map_init(&seen);
    bool r = privs_walk(s, role, of, &seen);
    cat__map_free(&seen);
    return r;
}

bool cat_role_has_privs_of_in(const cat_snap_t *s, const cat_role_t *role, cat_id_t of, const cat_database_t *db)
{
    if (of == CAT_ROLE_DATABASE_OWNER && role && role->id != of && !cat_role_is_superuser(role))
        return db && db->acl.owner != CAT_ROLE_DATABASE_OWNER && cat_role_has_privs_of(s, role, db->acl.owner);
    return cat_role_has_privs_of(s, role, of);
}

uint32_t cat_acl_default(char objkind, cat_id_t owner, cat_aclitem_t out[2])
{
    switch (objkind) {
    case 'r':
        out[0] = (cat_aclitem_t){owner, owner, CAT_PRIVS_RELATION, 0};
        return 1;
    case 'S':
        out[0] = (cat_aclitem_t){owner, owner, CAT_PRIV_SELECT | CAT_PRIV_UPDATE | CAT_PRIV_USAGE, 0};
        return 1;
    case 'f':
        out[0] = (cat_aclitem_t){CAT_ROLE_PUBLIC, owner, CAT_PRIV_EXECUTE, 0};
        out[1] = (cat_aclitem_t){owner, owner, CAT_PRIV_EXECUTE, 0};
        return 2;
    case 'T':
        out[0] = (cat_aclitem_t){CAT_ROLE_PUBLIC, owner, CAT_PRIV_USAGE, 0};
        out[1] = (cat_aclitem_t){owner, owner, CAT_PRIV_USAGE, 0};
        return 2;
    case 'n':
        out[0] = (cat_aclitem_t){owner, owner, CAT_PRIVS_SCHEMA, 0};
        return 1;
    case 'd':
        out[0] = (cat_aclitem_t){CAT_ROLE_PUBLIC, owner, CAT_PRIV_TEMPORARY | CAT_PRIV_CONNECT, 0};
        out[1] = (cat_aclitem_t){owner, owner, CAT_PRIVS_DATABASE, 0};
        return 2;
    }
    return 0;
}

uint32_t cat_acl_items(const cat_acl_t *acl, char objkind, cat_aclitem_t def[2], const cat_aclitem_t **items)
{
    if (acl->set) {
        *items = acl->items;
        return acl->n;
    }
    *items = def;
    return cat_acl_default(objkind, acl->owner, def);
}

uint32_t cat_acl_privs(const cat_snap_t *s, const cat_acl_t *acl, char objkind, const cat_role_t *role, bool grant)
{
    if (cat_role_is_superuser(role))
        return ~0u;
    cat_aclitem_t def[2];
    const cat_aclitem_t *it;
    uint32_t n = cat_acl_items(acl, objkind, def, &it);
    uint32_t got = 0;
    for (uint32_t i = 0; i < n; i++) {
        bool mine = it[i].grantee == CAT_ROLE_PUBLIC ? !grant
                                                     : cat_role_has_privs_of_in(s, role, it[i].grantee, acl->in_db);
        if (mine)
            got |= grant ? it[i].grant : it[i].privs;
    }
    return got;
}

bool cat_is_owner(const cat_snap_t *s, const cat_search_t *search, const cat_acl_t *acl)
{
    const cat_role_t *me = cat_search_role(s, search);
    const cat_database_t *db = acl->in_db;
    if (!db && search && search->database)
        db = cat_snap_database(s, search->database);
    return cat_role_has_privs_of_in(s, me, acl->owner, db);
}

bool cat_check_owner(const cat_snap_t *s, const cat_search_t *search, const cat_acl_t *acl, const char *noun,
                     const char *name, cm_err_t *err)
{
    if (cat_is_owner(s, search, acl))
        return true;
    return cm_err_set(err, CAT__ERRCODE_INSUFFICIENT_PRIVILEGE, "must be owner of %s %s", noun, name);
}

bool cat_schema_usable(const cat_snap_t *s, const cat_search_t *search, const cat_schema_t *sc)
{
    const cat_role_t *me = cat_search_role(s, search);
    return cat_role_is_superuser(me) || (cat_acl_privs(s, &sc->acl, 'n', me, false) & CAT_PRIV_USAGE) != 0;
}

const cat_item_t *cat_item_owner_acl(const cat_snap_t *s, const cat_item_t *it)
{
    const cat_item_t *rel = it->kind == CAT_ITEM_INDEX && it->ndeps ? cat_snap_item_by_id(s, it->deps[0]) : NULL;
    return rel ? rel : it;
}

const char *cat_item_owner_noun(const cat_item_t *it)
{
    /* aclcheck_error's object types: a source is PostgreSQL's foreign table. */
    return it->kind == CAT_ITEM_SOURCE ? "foreign table" : cat_item_kind_name(it->kind);
}

/* putid: a name is quoted unless it is all ASCII letters, digits and underscores. */
static void put_id(const char *name, cm_buf_t *out)
{
    bool safe = name[0] != '\0';
    for (const char *p = name; *p && safe; p++)
        safe = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_';
    cat__put_quoted(name, safe, out);
}

void cat_aclitem_text(const cat_snap_t *s, const cat_search_t *search, const cat_aclitem_t *it, cm_buf_t *out)
{
    char buf[32];
    if (it->grantee != CAT_ROLE_PUBLIC)
        put_id(cat_role_id_name(s, search, it->grantee, buf), out);
    cm_buf_put_u8(out, '=');
    for (int b = 0; CAT_PRIV_LETTERS[b]; b++) {
        if (it->privs & (1u << b))
            cm_buf_put_u8(out, (uint8_t)CAT_PRIV_LETTERS[b]);
        if (it->grant & (1u << b))
            cm_buf_put_u8(out, '*');
    }
    cm_buf_put_u8(out, '/');
    put_id(cat_role_id_name(s, search, it->grantor, buf), out);
}

static const cat_aclitem_t *items_copy(cm_arena_t *a, const cat_aclitem_t *items, uint32_t n)
{
    cat_aclitem_t *v = n ? cm_arena_alloc(a, n * sizeof(cat_aclitem_t)) : NULL;
    if (n)
        memcpy(v, items, n * sizeof(cat_aclitem_t));
    return v;
}

void cat_acl_copy(cm_arena_t *a, cat_acl_t *dst, const cat_acl_t *src)
{
    *dst = *src;
    dst->items = items_copy(a, src->items, src->n);
    cat_defacl_t *d = src->ndefacls ? cm_arena_alloc(a, src->ndefacls * sizeof(cat_defacl_t)) : NULL;
    for (uint32_t i = 0; i < src->ndefacls; i++)
        d[i] = (cat_defacl_t){src->defacls[i].role, src->defacls[i].objtype,
                              items_copy(a, src->defacls[i].items, src->defacls[i].n), src->defacls[i].n,
                              src->defacls[i].created};
    dst->defacls = d;
}

void cat__column_copy(cm_arena_t *a, cat_column_t *dst, const cat_column_t *src)
{
    *dst = *src;
    dst->name = cm_arena_strdup(a, src->name);
    dst->default_sql = src->default_sql ? cm_arena_strdup(a, src->default_sql) : NULL;
    dst->acl = items_copy(a, src->acl, src->nacl);
}
