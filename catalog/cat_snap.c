/*
 * cat_snap.c: the in-memory catalog at one log index.
 *
 * A snapshot is the effect of log entries 1..index on top of the built-in
 * objects. Entries are applied whole or not at all: every op is checked
 * against the snapshot plus what earlier ops of the same entry did before
 * anything changes, because a half-applied entry would leave this process's
 * catalog different from every other's. Each object owns a small arena, so
 * a drop frees exactly what the object held.
 */
#include "catalog/cat_int.h"

#include <stdlib.h>
#include <string.h>

#define CAT__OBJ_ARENA 512

static uint64_t cat__clsbits(cat_class_t cls)
{
    return cls == CAT_CLASS_ROLE ? 0 : cls == CAT_CLASS_DATABASE ? 1 : cls == CAT_CLASS_SCHEMA ? 2 : 3;
}

uint32_t cat__oid_for(uint64_t index, cat_class_t cls)
{
    uint64_t slot = cls == CAT_CLASS_ITEM ? 0 : cls == CAT_CLASS_ROLE ? 1 : cls == CAT_CLASS_SCHEMA ? 2 : 3;
    return (uint32_t)(CAT_OID_FIRST_USER + 4 * (index - 1) + slot);
}

cat_id_t cat__txn_id(uint64_t index, uint32_t k)
{
    return index + ((cat_id_t)k << CAT__TXN_SHIFT);
}

uint32_t cat__txn_oid(uint64_t index, uint32_t k, cat_class_t cls)
{
    if (k == 0)
        return cat__oid_for(index, cls);
    uint64_t slot = cls == CAT_CLASS_ITEM ? 0 : cls == CAT_CLASS_ROLE ? 1 : cls == CAT_CLASS_SCHEMA ? 2 : 3;
    return (uint32_t)(CAT__OID_TXN_BASE + 4 * ((index - 1) * CAT__TXN_STMTS_MAX + (k - 1)) + slot);
}

const char *cat_item_kind_name(cat_item_kind_t kind)
{
    switch (kind) {
    case CAT_ITEM_TABLE: return "table";
    case CAT_ITEM_SOURCE: return "source";
    case CAT_ITEM_VIEW: return "view";
    case CAT_ITEM_MATVIEW: return "materialized view";
    case CAT_ITEM_INDEX: return "index";
    }
    return "?";
}

char cat_item_kind_relkind(cat_item_kind_t kind)
{
    switch (kind) {
    case CAT_ITEM_TABLE: return 'r';
    case CAT_ITEM_SOURCE: return 'f';
    case CAT_ITEM_VIEW: return 'v';
    case CAT_ITEM_MATVIEW: return 'm';
    case CAT_ITEM_INDEX: return 'i';
    }
    return '?';
}

/* ------------------------------------------------------------- life */

static void cat__snap_init(cat_snap_t *s)
{
    memset(s, 0, sizeof(*s));
    cat__map_init(&s->role_by_id);
    cat__map_init(&s->role_by_name);
    cat__map_init(&s->db_by_id);
    cat__map_init(&s->db_by_name);
    cat__map_init(&s->schema_by_id);
    cat__map_init(&s->schema_by_name);
    cat__map_init(&s->item_by_id);
    cat__map_init(&s->item_by_oid);
    cat__map_init(&s->item_by_name);
}

cat_snap_t *cat_snap_new(void)
{
    cat_snap_t *s = cm_malloc(sizeof(*s));
    cat__snap_init(s);
    cat__builtin_install(s);
    return s;
}

static void cat__snap_clear(cat_snap_t *s)
{
    size_t i = 0;
    void *v;
    while (cat__map_next(&s->role_by_id, &i, NULL, NULL, &v)) {
        cat__role_t *r = v;
        cm_arena_free(&r->arena);
        free(r);
    }
    cat__map_free(&s->role_by_id);
    cat__map_free(&s->role_by_name);
    cat__vec_free(&s->roles);
    i = 0;
    while (cat__map_next(&s->item_by_id, &i, NULL, NULL, &v)) {
        cat__item_t *it = v;
        cat__vec_free(&it->dependents);
        cm_arena_free(&it->arena);
        free(it);
    }
    i = 0;
    while (cat__map_next(&s->schema_by_id, &i, NULL, NULL, &v)) {
        cat__schema_t *sc = v;
        cat__vec_free(&sc->items);
        cm_arena_free(&sc->arena);
        free(sc);
    }
    i = 0;
    while (cat__map_next(&s->db_by_id, &i, NULL, NULL, &v)) {
        cat__db_t *d = v;
        cat__vec_free(&d->schemas);
        cm_arena_free(&d->arena);
        free(d);
    }
    cat__map_free(&s->db_by_id);
    cat__map_free(&s->db_by_name);
    cat__map_free(&s->schema_by_id);
    cat__map_free(&s->schema_by_name);
    cat__map_free(&s->item_by_id);
    cat__map_free(&s->item_by_oid);
    cat__map_free(&s->item_by_name);
    cat__vec_free(&s->dbs);
    cat__vec_free(&s->schemas);
    cat__vec_free(&s->items);
    cat__vec_free(&s->sys_schemas);
    cat__vec_free(&s->sys_items);
}

void cat_snap_free(cat_snap_t *s)
{
    if (!s)
        return;
    cat__snap_clear(s);
    free(s);
}

uint64_t cat_snap_index(const cat_snap_t *s)
{
    return s->index;
}

/* ------------------------------------------------------------- lookups */

const cat_database_t *cat_snap_database(const cat_snap_t *s, const char *name)
{
    return cat__map_get(&s->db_by_name, 0, name);
}

const cat_database_t *cat_snap_database_by_id(const cat_snap_t *s, cat_id_t id)
{
    return cat__map_get(&s->db_by_id, id, NULL);
}

const cat_schema_t *cat_snap_schema(const cat_snap_t *s, const cat_database_t *db, const char *name)
{
    const cat_schema_t *sc = cat__map_get(&s->schema_by_name, 0, name);
    if (!sc && db)
        sc = cat__map_get(&s->schema_by_name, db->id, name);
    return sc;
}

const cat_schema_t *cat_snap_schema_by_id(const cat_snap_t *s, cat_id_t id)
{
    return cat__map_get(&s->schema_by_id, id, NULL);
}

const cat_item_t *cat_snap_item(const cat_snap_t *s, const cat_schema_t *schema, const char *name)
{
    return schema ? cat__map_get(&s->item_by_name, schema->id, name) : NULL;
}

const cat_item_t *cat_snap_item_by_id(const cat_snap_t *s, cat_id_t id)
{
    return cat__map_get(&s->item_by_id, id, NULL);
}

const cat_item_t *cat_snap_item_by_oid(const cat_snap_t *s, uint32_t oid)
{
    return cat__map_get(&s->item_by_oid, oid, NULL);
}

size_t cat_snap_dependents(const cat_snap_t *s, cat_id_t id, const cat_item_t **out, size_t max)
{
    const cat__item_t *it = cat__map_get(&s->item_by_id, id, NULL);
    size_t n = 0;
    for (size_t i = 0; it && i < it->dependents.n; i++) {
        const cat__item_t *d = it->dependents.v[i];
        if (d->pub.kind == CAT_ITEM_INDEX)
            continue;
        if (n < max)
            out[n] = &d->pub;
        n++;
    }
    return n;
}

const cat_database_t *cat_snap_database_at(const cat_snap_t *s, size_t i)
{
    return i < s->dbs.n ? s->dbs.v[i] : NULL;
}

const cat_schema_t *cat_snap_schema_at(const cat_snap_t *s, size_t i)
{
    if (i < s->schemas.n)
        return s->schemas.v[i];
    i -= s->schemas.n;
    return i < s->sys_schemas.n ? s->sys_schemas.v[i] : NULL;
}

const cat_item_t *cat_snap_item_at(const cat_snap_t *s, size_t i)
{
    if (i < s->items.n)
        return s->items.v[i];
    i -= s->items.n;
    return i < s->sys_items.n ? s->sys_items.v[i] : NULL;
}

size_t cat_snap_item_count(const cat_snap_t *s)
{
    return s->items.n + s->sys_items.n;
}

static const cat_role_t cat__database_owner = {.id = CAT_ROLE_DATABASE_OWNER, .oid = CAT_DATABASE_OWNER_OID,
                                                .name = "pg_database_owner", .flags = CAT_ROLE_INHERIT,
                                                .conn_limit = -1};

const cat_role_t *cat_role_database_owner(void)
{
    return &cat__database_owner;
}

const cat_role_t *cat_snap_role(const cat_snap_t *s, const char *name)
{
    if (name && strcmp(name, cat__database_owner.name) == 0)
        return &cat__database_owner;
    return name ? cat__map_get(&s->role_by_name, 0, name) : NULL;
}

const cat_role_t *cat_snap_role_by_id(const cat_snap_t *s, cat_id_t id)
{
    if (id == CAT_ROLE_DATABASE_OWNER)
        return &cat__database_owner;
    return cat__map_get(&s->role_by_id, id, NULL);
}

const cat_role_t *cat_snap_role_by_oid(const cat_snap_t *s, uint32_t oid)
{
    if (oid == CAT_DATABASE_OWNER_OID)
        return &cat__database_owner;
    for (size_t i = 0; i < s->roles.n; i++)
        if (((const cat_role_t *)s->roles.v[i])->oid == oid)
            return s->roles.v[i];
    return NULL;
}

const cat_role_t *cat_snap_role_at(const cat_snap_t *s, size_t i)
{
    return i < s->roles.n ? s->roles.v[i] : NULL;
}

size_t cat_snap_role_count(const cat_snap_t *s)
{
    return s->roles.n;
}

/* Depth-first over member_of; `seen` guards against a cycle a corrupt catalog could hold. */
static bool cat__member_walk(const cat_snap_t *s, const cat_role_t *r, const cat_role_t *of, cat__map_t *seen)
{
    if (r == of)
        return true;
    if (cat__map_get(seen, r->id, NULL))
        return false;
    cat__map_put(seen, r->id, NULL, (void *)1);
    for (uint32_t i = 0; i < r->nmember_of; i++) {
        const cat_role_t *p = cat_snap_role_by_id(s, r->member_of[i]);
        if (p && cat__member_walk(s, p, of, seen))
            return true;
    }
    return false;
}

bool cat_role_is_member(const cat_snap_t *s, const cat_role_t *role, const cat_role_t *of)
{
    if (!role || !of)
        return false;
    cat__map_t seen;
    cat__map_init(&seen);
    bool r = cat__member_walk(s, role, of, &seen);
    cat__map_free(&seen);
    return r;
}

/* ------------------------------------------------------------- insert */

/* Keeps a vector of objects ascending by ID; new objects almost always have
 * the highest ID, so the search starts at the end. */
static void cat__vec_insert_sorted(cat__vec_t *v, void *p, cat_id_t id)
{
    cat__vec_push(v, p);
    size_t i = v->n - 1;
    /* Every node type starts with its public struct, whose first field is the ID. */
    while (i > 0 && *(const cat_id_t *)v->v[i - 1] > id) {
        v->v[i] = v->v[i - 1];
        i--;
    }
    v->v[i] = p;
}

static bool cat__bad(cm_err_t *err, const char *what, cat_id_t id)
{
    return cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR, "catalog object %llu does not fit the catalog: %s",
                      (unsigned long long)id, what);
}

/* A role's attributes from an object (a new arena's worth: redefinitions are rare). */
static void cat__role_set(cat__role_t *r, const cat_object_t *o)
{
    cm_arena_t *a = &r->arena;
    r->pub.name = cm_arena_strdup(a, o->name);
    r->pub.flags = o->role_flags;
    r->pub.conn_limit = o->conn_limit;
    r->pub.password = o->password ? cm_arena_strdup(a, o->password) : NULL;
    r->pub.has_valid_until = o->has_valid_until;
    r->pub.valid_until = o->valid_until;
    cat_id_t *m = o->ndeps ? cm_arena_alloc(a, o->ndeps * sizeof(cat_id_t)) : NULL;
    if (o->ndeps)
        memcpy(m, o->deps, o->ndeps * sizeof(cat_id_t));
    r->pub.member_of = m;
    r->pub.nmember_of = o->ndeps;
    const char **st = o->nsettings ? cm_arena_alloc(a, o->nsettings * sizeof(char *)) : NULL;
    for (uint32_t i = 0; i < o->nsettings; i++)
        st[i] = cm_arena_strdup(a, o->settings[i]);
    r->pub.settings = st;
    r->pub.nsettings = o->nsettings;
}

bool cat__snap_can_insert(const cat_snap_t *s, const cat_object_t *o, cm_err_t *err)
{
    switch (o->cls) {
    case CAT_CLASS_ROLE:
        if (cat__map_get(&s->role_by_id, o->id, NULL))
            return cat__bad(err, "the role exists", o->id);
        if (cat__map_get(&s->role_by_name, 0, o->name))
            return cat__bad(err, "the role name is taken", o->id);
        return true;
    case CAT_CLASS_DATABASE:
        if (cat__map_get(&s->db_by_id, o->id, NULL))
            return cat__bad(err, "the database exists", o->id);
        if (cat__map_get(&s->db_by_name, 0, o->name))
            return cat__bad(err, "the database name is taken", o->id);
        return true;
    case CAT_CLASS_SCHEMA: {
        if (cat__map_get(&s->schema_by_id, o->id, NULL))
            return cat__bad(err, "the schema exists", o->id);
        bool system = o->parent == 0;
        if (system != cat_id_is_system(o->id))
            return cat__bad(err, "a system schema must have no database", o->id);
        if (!system && !cat__map_get(&s->db_by_id, o->parent, NULL))
            return cat__bad(err, "its database does not exist", o->id);
        if (cat__map_get(&s->schema_by_name, o->parent, o->name) || cat__map_get(&s->schema_by_name, 0, o->name))
            return cat__bad(err, "the schema name is taken", o->id);
        return true;
    }
    case CAT_CLASS_ITEM:
        if (cat__map_get(&s->item_by_id, o->id, NULL) || cat__map_get(&s->item_by_oid, o->oid, NULL))
            return cat__bad(err, "the item or its OID exists", o->id);
        if (!cat__map_get(&s->schema_by_id, o->parent, NULL))
            return cat__bad(err, "its schema does not exist", o->id);
        if (cat__map_get(&s->item_by_name, o->parent, o->name))
            return cat__bad(err, "the name is taken", o->id);
        for (uint32_t i = 0; i < o->ndeps; i++)
            if (!cat__map_get(&s->item_by_id, o->deps[i], NULL))
                return cat__bad(err, "a dependency does not exist", o->id);
        return true;
    }
    return cat__bad(err, "unknown class", o->id);
}

bool cat__snap_insert(cat_snap_t *s, const cat_object_t *o, cm_err_t *err)
{
    if (!cat__snap_can_insert(s, o, err))
        return false;
    switch (o->cls) {
    case CAT_CLASS_ROLE: {
        cat__role_t *r = cm_calloc(1, sizeof(*r));
        cm_arena_init(&r->arena, 256);
        r->pub.id = o->id;
        r->pub.oid = o->oid;
        cat__role_set(r, o);
        cat__map_put(&s->role_by_id, o->id, NULL, r);
        cat__map_put(&s->role_by_name, 0, r->pub.name, r);
        cat__vec_insert_sorted(&s->roles, r, o->id);
        return true;
    }
    case CAT_CLASS_DATABASE: {
        cat__db_t *d = cm_calloc(1, sizeof(*d));
        cm_arena_init(&d->arena, 128);
        d->pub.id = o->id;
        d->pub.oid = o->oid;
        d->pub.name = cm_arena_strdup(&d->arena, o->name);
        cat_acl_copy(&d->arena, &d->pub.acl, &o->acl);
        d->pub.acl.in_db = &d->pub;
        cat__map_put(&s->db_by_id, o->id, NULL, d);
        cat__map_put(&s->db_by_name, 0, d->pub.name, d);
        cat__vec_insert_sorted(&s->dbs, d, o->id);
        return true;
    }
    case CAT_CLASS_SCHEMA: {
        cat__schema_t *sc = cm_calloc(1, sizeof(*sc));
        cm_arena_init(&sc->arena, 128);
        sc->pub.id = o->id;
        sc->pub.oid = o->oid;
        sc->pub.name = cm_arena_strdup(&sc->arena, o->name);
        cat_acl_copy(&sc->arena, &sc->pub.acl, &o->acl);
        if (!o->acl.set && strcmp(o->name, "public") == 0) {
            /* A public schema from a catalog older than privileges: PostgreSQL 15's grants. */
            cat_aclitem_t *v = cm_arena_alloc(&sc->arena, 2 * sizeof(cat_aclitem_t));
            v[0] = (cat_aclitem_t){o->acl.owner, o->acl.owner, CAT_PRIVS_SCHEMA, 0};
            v[1] = (cat_aclitem_t){CAT_ROLE_PUBLIC, o->acl.owner, CAT_PRIV_USAGE, 0};
            sc->pub.acl = (cat_acl_t){.owner = o->acl.owner, .set = true, .items = v, .n = 2};
        }
        cat__db_t *d = o->parent ? cat__map_get(&s->db_by_id, o->parent, NULL) : NULL;
        sc->pub.database = d ? &d->pub : NULL;
        sc->pub.acl.in_db = sc->pub.database;
        cat__map_put(&s->schema_by_id, o->id, NULL, sc);
        cat__map_put(&s->schema_by_name, o->parent, sc->pub.name, sc);
        if (d) {
            cat__vec_insert_sorted(&d->schemas, sc, o->id);
            cat__vec_insert_sorted(&s->schemas, sc, o->id);
        } else {
            cat__vec_insert_sorted(&s->sys_schemas, sc, o->id);
        }
        return true;
    }
    case CAT_CLASS_ITEM: {
        cat__item_t *it = cm_calloc(1, sizeof(*it));
        cm_arena_init(&it->arena, CAT__OBJ_ARENA);
        cm_arena_t *a = &it->arena;
        cat_item_t *p = &it->pub;
        p->id = o->id;
        p->oid = o->oid;
        p->kind = o->kind;
        cat__schema_t *sc = cat__map_get(&s->schema_by_id, o->parent, NULL);
        p->schema = &sc->pub;
        p->name = cm_arena_strdup(a, o->name);
        p->create_sql = cm_arena_strdup(a, o->create_sql ? o->create_sql : "");
        cat_acl_copy(a, &p->acl, &o->acl);
        p->acl.in_db = sc->pub.database;
        p->ncolumns = o->ncolumns;
        cat_column_t *cols = o->ncolumns ? cm_arena_alloc(a, o->ncolumns * sizeof(cat_column_t)) : NULL;
        for (uint32_t i = 0; i < o->ncolumns; i++) {
            cat__column_copy(a, &cols[i], &o->columns[i]);
        }
        p->columns = cols;
        p->ndeps = o->ndeps;
        cat_id_t *deps = o->ndeps ? cm_arena_alloc(a, o->ndeps * sizeof(cat_id_t)) : NULL;
        if (o->ndeps)
            memcpy(deps, o->deps, o->ndeps * sizeof(cat_id_t));
        p->deps = deps;
        for (uint32_t i = 0; i < o->ndeps; i++) {
            cat__item_t *d = cat__map_get(&s->item_by_id, o->deps[i], NULL);
            bool seen = false;   /* a view reading one relation twice depends on it once */
            for (uint32_t j = 0; j < i; j++)
                seen = seen || o->deps[j] == o->deps[i];
            if (!seen)
                cat__vec_insert_sorted(&d->dependents, it, o->id);
        }
        cat__map_put(&s->item_by_id, o->id, NULL, it);
        cat__map_put(&s->item_by_oid, o->oid, NULL, it);
        cat__map_put(&s->item_by_name, o->parent, p->name, it);
        cat__vec_insert_sorted(&sc->items, it, o->id);
        cat__vec_insert_sorted(cat_id_is_system(o->id) ? &s->sys_items : &s->items, it, o->id);
        return true;
    }
    }
    return false;
}

bool cat__snap_remove(cat_snap_t *s, cat_class_t cls, cat_id_t id, cm_err_t *err)
{
    switch (cls) {
    case CAT_CLASS_ROLE: {
        cat__role_t *r = cat__map_get(&s->role_by_id, id, NULL);
        if (!r)
            return cat__bad(err, "cannot drop the role", id);
        cat__map_del(&s->role_by_id, id, NULL);
        cat__map_del(&s->role_by_name, 0, r->pub.name);
        cat__vec_remove(&s->roles, r);
        cm_arena_free(&r->arena);
        free(r);
        return true;
    }
    case CAT_CLASS_DATABASE: {
        cat__db_t *d = cat__map_get(&s->db_by_id, id, NULL);
        if (!d || d->schemas.n)
            return cat__bad(err, "cannot drop the database", id);
        cat__map_del(&s->db_by_id, id, NULL);
        cat__map_del(&s->db_by_name, 0, d->pub.name);
        cat__vec_remove(&s->dbs, d);
        cat__vec_free(&d->schemas);
        cm_arena_free(&d->arena);
        free(d);
        return true;
    }
    case CAT_CLASS_SCHEMA: {
        cat__schema_t *sc = cat__map_get(&s->schema_by_id, id, NULL);
        if (!sc || sc->items.n || !sc->pub.database)
            return cat__bad(err, "cannot drop the schema", id);
        cat__db_t *d = (cat__db_t *)sc->pub.database;
        cat__map_del(&s->schema_by_id, id, NULL);
        cat__map_del(&s->schema_by_name, d->pub.id, sc->pub.name);
        cat__vec_remove(&d->schemas, sc);
        cat__vec_remove(&s->schemas, sc);
        cat__vec_free(&sc->items);
        cm_arena_free(&sc->arena);
        free(sc);
        return true;
    }
    case CAT_CLASS_ITEM: {
        cat__item_t *it = cat__map_get(&s->item_by_id, id, NULL);
        if (!it || it->dependents.n || cat_id_is_system(id))
            return cat__bad(err, "cannot drop the item", id);
        for (uint32_t i = 0; i < it->pub.ndeps; i++) {
            cat__item_t *d = cat__map_get(&s->item_by_id, it->pub.deps[i], NULL);
            if (d)
                cat__vec_remove(&d->dependents, it);
        }
        cat__schema_t *sc = (cat__schema_t *)it->pub.schema;
        cat__map_del(&s->item_by_id, id, NULL);
        cat__map_del(&s->item_by_oid, it->pub.oid, NULL);
        cat__map_del(&s->item_by_name, sc->pub.id, it->pub.name);
        cat__vec_remove(&sc->items, it);
        cat__vec_remove(&s->items, it);
        cat__vec_free(&it->dependents);
        cm_arena_free(&it->arena);
        free(it);
        return true;
    }
    }
    return false;
}

/* ------------------------------------------------------------- entries */

/* The state an entry's earlier ops leave behind, for checking later ones. */
typedef struct cat__overlay {
    cat__map_t gone;      /* k = id << 2 | class bits */
    cat__map_t made;
    cat__map_t redefined; /* k = item id: its new definition (cat_object_t), from a RENAME op */
    cat__map_t names_gone;   /* k = parent << 2 | class bits, s = name */
    cat__map_t names_made;
} cat__overlay_t;

static uint64_t cat__ok(cat_class_t cls, cat_id_t id)
{
    return id << 2 | cat__clsbits(cls);
}

static bool cat__alive(const cat_snap_t *s, const cat__overlay_t *ov, cat_class_t cls, cat_id_t id)
{
    if (cat__map_get(&ov->made, cat__ok(cls, id), NULL))
        return true;
    if (cat__map_get(&ov->gone, cat__ok(cls, id), NULL))
        return false;
    switch (cls) {
    case CAT_CLASS_ROLE: return cat__map_get(&s->role_by_id, id, NULL) != NULL;
    case CAT_CLASS_DATABASE: return cat__map_get(&s->db_by_id, id, NULL) != NULL;
    case CAT_CLASS_SCHEMA: return cat__map_get(&s->schema_by_id, id, NULL) != NULL;
    case CAT_CLASS_ITEM: return cat__map_get(&s->item_by_id, id, NULL) != NULL;
    }
    return false;
}

static bool cat__check_drop(const cat_snap_t *s, cat__overlay_t *ov, const cat_object_t *o, cm_err_t *err)
{
    if (cat_id_is_system(o->id) || !cat__alive(s, ov, o->cls, o->id) ||
        cat__map_get(&ov->made, cat__ok(o->cls, o->id), NULL))
        return cat__bad(err, "the object to drop does not exist", o->id);
    const cat__vec_t *children;
    cat_class_t child_cls;
    const char *name;
    uint64_t parent;
    if (o->cls == CAT_CLASS_ROLE) {
        /* Memberships naming it are dropped with it (lookups skip a missing ID). */
        const cat__role_t *r = cat__map_get(&s->role_by_id, o->id, NULL);
        cat__map_put(&ov->gone, cat__ok(o->cls, o->id), NULL, (void *)1);
        cat__map_put(&ov->names_gone, cat__clsbits(o->cls), r->pub.name, (void *)1);
        return true;
    }
    if (o->cls == CAT_CLASS_DATABASE) {
        const cat__db_t *d = cat__map_get(&s->db_by_id, o->id, NULL);
        children = &d->schemas, child_cls = CAT_CLASS_SCHEMA, name = d->pub.name, parent = 0;
    } else if (o->cls == CAT_CLASS_SCHEMA) {
        const cat__schema_t *sc = cat__map_get(&s->schema_by_id, o->id, NULL);
        children = &sc->items, child_cls = CAT_CLASS_ITEM, name = sc->pub.name,
        parent = sc->pub.database ? sc->pub.database->id : 0;
    } else {
        const cat__item_t *it = cat__map_get(&s->item_by_id, o->id, NULL);
        children = &it->dependents, child_cls = CAT_CLASS_ITEM, name = it->pub.name, parent = it->pub.schema->id;
    }
    for (size_t i = 0; i < children->n; i++) {
        cat_id_t child = *(const cat_id_t *)children->v[i];
        if (cat__map_get(&ov->gone, cat__ok(child_cls, child), NULL))
            continue;
        /* A dependent redefined earlier in this entry may not read it any more. */
        const cat_object_t *now = child_cls == CAT_CLASS_ITEM && o->cls == CAT_CLASS_ITEM
                                      ? cat__map_get(&ov->redefined, child, NULL)
                                      : NULL;
        bool still = now == NULL;
        for (uint32_t d = 0; now && d < now->ndeps; d++)
            still = still || now->deps[d] == o->id;
        if (still)
            return cat__bad(err, "an object depending on it is not dropped first", o->id);
    }
    cat__map_put(&ov->gone, cat__ok(o->cls, o->id), NULL, (void *)1);
    cat__map_put(&ov->names_gone, parent << 2 | cat__clsbits(o->cls), name, (void *)1);
    return true;
}

static bool cat__check_create(const cat_snap_t *s, cat__overlay_t *ov, const cat_object_t *o, cm_err_t *err)
{
    if (cat_id_is_system(o->id) || cat__map_get(&ov->made, cat__ok(o->cls, o->id), NULL) ||
        cat__alive(s, ov, o->cls, o->id) || cat__map_get(&ov->gone, cat__ok(o->cls, o->id), NULL))
        return cat__bad(err, "the object to create exists", o->id);
    uint64_t parent = o->cls == CAT_CLASS_DATABASE || o->cls == CAT_CLASS_ROLE ? 0 : o->parent;
    for (uint32_t i = 0; o->cls == CAT_CLASS_ROLE && i < o->ndeps; i++)
        if (!cat__alive(s, ov, CAT_CLASS_ROLE, o->deps[i]))
            return cat__bad(err, "a role it is a member of does not exist", o->id);
    if (o->cls == CAT_CLASS_SCHEMA && !cat__alive(s, ov, CAT_CLASS_DATABASE, parent))
        return cat__bad(err, "its database does not exist", o->id);
    if (o->cls == CAT_CLASS_ITEM && !cat__alive(s, ov, CAT_CLASS_SCHEMA, parent))
        return cat__bad(err, "its schema does not exist", o->id);
    uint64_t nk = parent << 2 | cat__clsbits(o->cls);
    bool taken;
    if (o->cls == CAT_CLASS_ROLE)
        taken = cat__map_get(&s->role_by_name, 0, o->name) != NULL;
    else if (o->cls == CAT_CLASS_DATABASE)
        taken = cat__map_get(&s->db_by_name, 0, o->name) != NULL;
    else if (o->cls == CAT_CLASS_SCHEMA)
        taken = cat__map_get(&s->schema_by_name, parent, o->name) || cat__map_get(&s->schema_by_name, 0, o->name);
    else
        taken = cat__map_get(&s->item_by_name, parent, o->name) != NULL;
    if ((taken && !cat__map_get(&ov->names_gone, nk, o->name)) || cat__map_get(&ov->names_made, nk, o->name))
        return cat__bad(err, "the name is taken", o->id);
    if (o->cls == CAT_CLASS_ITEM && cat__map_get(&s->item_by_oid, o->oid, NULL))
        return cat__bad(err, "the OID is taken", o->id);
    for (uint32_t i = 0; o->cls == CAT_CLASS_ITEM && i < o->ndeps; i++)
        if (!cat__alive(s, ov, CAT_CLASS_ITEM, o->deps[i]))
            return cat__bad(err, "a dependency does not exist", o->id);
    cat__map_put(&ov->made, cat__ok(o->cls, o->id), NULL, (void *)1);
    cat__map_put(&ov->names_made, nk, o->name, (void *)1);
    return true;
}

/*
 * A rename or redefinition: the object exists, keeps its ID, OID (and an
 * item its kind and schema), the new name is free, and an item's
 * dependencies exist.
 */
static bool cat__check_rename(const cat_snap_t *s, cat__overlay_t *ov, const cat_object_t *o, cm_err_t *err)
{
    if (cat_id_is_system(o->id) || !cat__alive(s, ov, o->cls, o->id) ||
        cat__map_get(&ov->made, cat__ok(o->cls, o->id), NULL))
        return cat__bad(err, "the object to rename does not exist", o->id);
    uint64_t parent;
    const char *old_name;
    bool taken;
    if (o->cls == CAT_CLASS_ROLE) {
        const cat__role_t *r = cat__map_get(&s->role_by_id, o->id, NULL);
        if (!r || r->pub.oid != o->oid)
            return cat__bad(err, "a redefinition changes the role's OID", o->id);
        for (uint32_t i = 0; i < o->ndeps; i++)
            if (o->deps[i] == o->id || !cat__alive(s, ov, CAT_CLASS_ROLE, o->deps[i]))
                return cat__bad(err, "a role it is a member of does not exist", o->id);
        parent = 0, old_name = r->pub.name;
        taken = cat__map_get(&s->role_by_name, 0, o->name) != NULL;
    } else if (o->cls == CAT_CLASS_DATABASE) {
        const cat__db_t *d = cat__map_get(&s->db_by_id, o->id, NULL);
        if (!d || d->pub.oid != o->oid)
            return cat__bad(err, "a rename changes more than the name", o->id);
        parent = 0, old_name = d->pub.name;
        taken = cat__map_get(&s->db_by_name, 0, o->name) != NULL;
    } else if (o->cls == CAT_CLASS_SCHEMA) {
        const cat__schema_t *sc = cat__map_get(&s->schema_by_id, o->id, NULL);
        if (!sc || !sc->pub.database || sc->pub.oid != o->oid || sc->pub.database->id != o->parent)
            return cat__bad(err, "a rename changes more than the name", o->id);
        parent = o->parent, old_name = sc->pub.name;
        taken = cat__map_get(&s->schema_by_name, parent, o->name) || cat__map_get(&s->schema_by_name, 0, o->name);
    } else {
        const cat__item_t *it = cat__map_get(&s->item_by_id, o->id, NULL);
        if (!it || it->pub.oid != o->oid || it->pub.kind != o->kind || it->pub.schema->id != o->parent)
            return cat__bad(err, "a rename changes more than the name", o->id);
        for (uint32_t i = 0; i < o->ndeps; i++)
            if (o->deps[i] == o->id || !cat__alive(s, ov, CAT_CLASS_ITEM, o->deps[i]))
                return cat__bad(err, "a dependency does not exist", o->id);
        parent = o->parent, old_name = it->pub.name;
        taken = cat__map_get(&s->item_by_name, parent, o->name) != NULL;
        cat__map_put(&ov->redefined, o->id, NULL, (void *)o);
    }
    if (strcmp(old_name, o->name) == 0)
        return true;   /* redefined under its own name */
    uint64_t nk = parent << 2 | cat__clsbits(o->cls);
    if ((taken && !cat__map_get(&ov->names_gone, nk, o->name)) || cat__map_get(&ov->names_made, nk, o->name))
        return cat__bad(err, "the name is taken", o->id);
    cat__map_put(&ov->names_gone, nk, old_name, (void *)1);
    cat__map_put(&ov->names_made, nk, o->name, (void *)1);
    return true;
}

/* Renames and redefines in place, so the pointers others hold (dependents,
 * schema lists, an item's schema) stay valid. */
static void cat__snap_rename(cat_snap_t *s, const cat_object_t *o)
{
    if (o->cls == CAT_CLASS_ROLE) {
        cat__role_t *r = cat__map_get(&s->role_by_id, o->id, NULL);
        cat__map_del(&s->role_by_name, 0, r->pub.name);
        cat__role_set(r, o);
        cat__map_put(&s->role_by_name, 0, r->pub.name, r);
        return;
    }
    if (o->cls == CAT_CLASS_DATABASE) {
        cat__db_t *d = cat__map_get(&s->db_by_id, o->id, NULL);
        cat__map_del(&s->db_by_name, 0, d->pub.name);
        d->pub.name = cm_arena_strdup(&d->arena, o->name);
        cat_acl_copy(&d->arena, &d->pub.acl, &o->acl);
        d->pub.acl.in_db = &d->pub;
        cat__map_put(&s->db_by_name, 0, d->pub.name, d);
        return;
    }
    if (o->cls == CAT_CLASS_SCHEMA) {
        cat__schema_t *sc = cat__map_get(&s->schema_by_id, o->id, NULL);
        cat__map_del(&s->schema_by_name, o->parent, sc->pub.name);
        sc->pub.name = cm_arena_strdup(&sc->arena, o->name);
        cat_acl_copy(&sc->arena, &sc->pub.acl, &o->acl);
        sc->pub.acl.in_db = sc->pub.database;
        cat__map_put(&s->schema_by_name, o->parent, sc->pub.name, sc);
        return;
    }
    cat__item_t *it = cat__map_get(&s->item_by_id, o->id, NULL);
    cat__map_del(&s->item_by_name, o->parent, it->pub.name);
    cm_arena_t *a = &it->arena;
    it->pub.name = cm_arena_strdup(a, o->name);
    it->pub.create_sql = cm_arena_strdup(a, o->create_sql ? o->create_sql : "");
    cat_acl_copy(a, &it->pub.acl, &o->acl);
    it->pub.acl.in_db = it->pub.schema->database;
    cat__map_put(&s->item_by_name, o->parent, it->pub.name, it);
    /* The old strings stay in the item's arena until it is dropped: redefinitions are rare. */
    cat_column_t *cols = o->ncolumns ? cm_arena_alloc(a, o->ncolumns * sizeof(cat_column_t)) : NULL;
    for (uint32_t i = 0; i < o->ncolumns; i++) {
        cat__column_copy(a, &cols[i], &o->columns[i]);
    }
    it->pub.columns = cols;
    it->pub.ncolumns = o->ncolumns;
    for (uint32_t i = 0; i < it->pub.ndeps; i++) {
        cat__item_t *d = cat__map_get(&s->item_by_id, it->pub.deps[i], NULL);
        if (d)
            cat__vec_remove(&d->dependents, it);
    }
    cat_id_t *deps = o->ndeps ? cm_arena_alloc(a, o->ndeps * sizeof(cat_id_t)) : NULL;
    if (o->ndeps)
        memcpy(deps, o->deps, o->ndeps * sizeof(cat_id_t));
    it->pub.deps = deps;
    it->pub.ndeps = o->ndeps;
    for (uint32_t i = 0; i < o->ndeps; i++) {
        cat__item_t *d = cat__map_get(&s->item_by_id, o->deps[i], NULL);
        bool seen = false;
        for (uint32_t j = 0; j < i; j++)
            seen = seen || o->deps[j] == o->deps[i];
        if (!seen && d)
            cat__vec_insert_sorted(&d->dependents, it, o->id);
    }
}

bool cat_snap_apply(cat_snap_t *s, const uint8_t *data, size_t len, cm_err_t *err)
{
    cm_arena_t a;
    cm_arena_init(&a, 4096);
    cat_entry_t e;
    bool ok = cat_entry_decode(data, len, &a, &e, err);
    if (ok && e.index != s->index + 1)
        ok = cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR, "catalog log entry %llu does not follow index %llu",
                        (unsigned long long)e.index, (unsigned long long)s->index);
    cat__overlay_t ov;
    cat__map_init(&ov.gone);
    cat__map_init(&ov.made);
    cat__map_init(&ov.names_gone);
    cat__map_init(&ov.names_made);
    cat__map_init(&ov.redefined);
    for (uint32_t i = 0; ok && i < e.nops; i++)
        ok = e.ops[i].kind == CAT_OP_DROP     ? cat__check_drop(s, &ov, &e.ops[i].obj, err)
             : e.ops[i].kind == CAT_OP_RENAME ? cat__check_rename(s, &ov, &e.ops[i].obj, err)
                                              : cat__check_create(s, &ov, &e.ops[i].obj, err);
    cat__map_free(&ov.gone);
    cat__map_free(&ov.made);
    cat__map_free(&ov.names_gone);
    cat__map_free(&ov.names_made);
    cat__map_free(&ov.redefined);
    for (uint32_t i = 0; ok && i < e.nops; i++) {
        /* The checks above make every step succeed; a failure here is a bug. */
        cm_err_t bug = {0};
        if (e.ops[i].kind == CAT_OP_RENAME) {
            cat__snap_rename(s, &e.ops[i].obj);
            continue;
        }
        bool done = e.ops[i].kind == CAT_OP_DROP ? cat__snap_remove(s, e.ops[i].obj.cls, e.ops[i].obj.id, &bug)
                                                 : cat__snap_insert(s, &e.ops[i].obj, &bug);
        if (!done)
            cm_panic(__FILE__, __LINE__, "catalog entry passed its check but did not apply: %s", bug.message);
    }
    if (ok)
        s->index = e.index;
    cm_arena_free(&a);
    return ok;
}

static int cat__obj_cmp(const void *a, const void *b)
{
    /* Databases, then schemas, then items: a transaction's later statements create objects
     * with IDs above later entries' (cat__txn_id), so ID order alone may put a child first. */
    const cat_object_t *x = a, *y = b;
    if (x->cls != y->cls)
        return (int)cat__clsbits(x->cls) - (int)cat__clsbits(y->cls);
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return 0;
}

bool cat_snap_load(cat_snap_t *s, uint64_t index, const cat_kv_t *objects, size_t n, cm_err_t *err)
{
    cm_arena_t a;
    cm_arena_init(&a, 65536);
    cat_object_t *objs = n ? cm_malloc(n * sizeof(cat_object_t)) : NULL;
    bool ok = true;
    for (size_t i = 0; ok && i < n; i++) {
        ok = cat_object_decode(objects[i].data, objects[i].len, &a, &objs[i], err);
        cat_class_t cls;
        cat_id_t id;
        if (ok && (!cat_object_key_parse(objects[i].key, &cls, &id) || cls != objs[i].cls || id != objs[i].id))
            ok = cat__corrupt(err, "object key does not match its record");
        if (ok && (cat__id_index(objs[i].id) > index || cat_id_is_system(objs[i].id)))
            ok = cat__corrupt(err, "object newer than the snapshot's head");
    }
    /* An object's parent was created before it, so in ID order (databases
     * before schemas before items of one entry) parents come first. Its
     * dependencies usually did too, but a redefined view (CREATE OR REPLACE)
     * may read an item newer than itself: such items wait until what they
     * read is in, pass after pass (the dependency graph has no cycles). */
    if (ok && n)
        qsort(objs, n, sizeof(cat_object_t), cat__obj_cmp);
    cat_snap_t *fresh = cat_snap_new();
    size_t npending = 0;
    for (size_t i = 0; ok && i < n; i++) {
        bool ready = true;
        for (uint32_t d = 0; objs[i].cls == CAT_CLASS_ITEM && d < objs[i].ndeps && ready; d++)
            ready = cat__map_get(&fresh->item_by_id, objs[i].deps[d], NULL) != NULL;
        if (ready)
            ok = cat__snap_insert(fresh, &objs[i], err);
        else
            objs[npending++] = objs[i];   /* npending <= i: the slot was read already */
    }
    while (ok && npending > 0) {
        size_t left = 0;
        for (size_t i = 0; ok && i < npending; i++) {
            bool ready = true;
            for (uint32_t d = 0; d < objs[i].ndeps && ready; d++)
                ready = cat__map_get(&fresh->item_by_id, objs[i].deps[d], NULL) != NULL;
            if (ready)
                ok = cat__snap_insert(fresh, &objs[i], err);
            else
                objs[left++] = objs[i];
        }
        if (ok && left == npending)
            ok = cat__corrupt(err, "an item depends on an item that does not exist");
        npending = left;
    }
    if (ok) {
        fresh->index = index;
        cat__snap_clear(s);
        *s = *fresh;
        free(fresh);
    } else {
        cat_snap_free(fresh);
    }
    free(objs);
    cm_arena_free(&a);
    return ok;
}

static void dump_acl(const cat_acl_t *acl, cm_buf_t *out)
{
    if (acl->owner != CAT_ROLE_BOOTSTRAP)
        cm_buf_printf(out, " owner %llu", (unsigned long long)acl->owner);
    if (acl->set)
        cm_buf_printf(out, " acl");
    for (uint32_t i = 0; acl->set && i < acl->n; i++)
        cm_buf_printf(out, " %llx=%x*%x/%llx", (unsigned long long)acl->items[i].grantee, acl->items[i].privs,
                      acl->items[i].grant, (unsigned long long)acl->items[i].grantor);
    for (uint32_t d = 0; d < acl->ndefacls; d++) {
        cm_buf_printf(out, " default for %llu:", (unsigned long long)acl->defacls[d].role);
        for (uint32_t i = 0; i < acl->defacls[d].n; i++)
            cm_buf_printf(out, " %llx=%x*%x/%llx", (unsigned long long)acl->defacls[d].items[i].grantee,
                          acl->defacls[d].items[i].privs, acl->defacls[d].items[i].grant,
                          (unsigned long long)acl->defacls[d].items[i].grantor);
    }
}

void cat_snap_dump(const cat_snap_t *s, cm_buf_t *out)
{
    cm_buf_printf(out, "index %llu\n", (unsigned long long)s->index);
    for (size_t i = 0; i < s->roles.n; i++) {
        const cat_role_t *r = s->roles.v[i];
        cm_buf_printf(out, "role %llu oid %u %s flags %u connlimit %d%s%s", (unsigned long long)r->id, r->oid, r->name,
                      r->flags, r->conn_limit, r->password ? " password " : "", r->password ? r->password : "");
        if (r->has_valid_until)
            cm_buf_printf(out, " valid until %lld", (long long)r->valid_until);
        for (uint32_t m = 0; m < r->nmember_of; m++)
            cm_buf_printf(out, " member of %llu", (unsigned long long)r->member_of[m]);
        for (uint32_t k = 0; k < r->nsettings; k++)
            cm_buf_printf(out, " set %s", r->settings[k]);
        cm_buf_printf(out, "\n");
    }
    for (size_t i = 0; i < s->dbs.n; i++) {
        const cat_database_t *d = s->dbs.v[i];
        cm_buf_printf(out, "database %llu oid %u %s", (unsigned long long)d->id, d->oid, d->name);
        dump_acl(&d->acl, out);
        cm_buf_printf(out, "\n");
    }
    for (size_t i = 0; i < s->schemas.n; i++) {
        const cat_schema_t *sc = s->schemas.v[i];
        cm_buf_printf(out, "schema %llu oid %u db %llu %s", (unsigned long long)sc->id, sc->oid,
                      (unsigned long long)sc->database->id, sc->name);
        dump_acl(&sc->acl, out);
        cm_buf_printf(out, "\n");
    }
    for (size_t i = 0; i < s->items.n; i++) {
        const cat_item_t *it = s->items.v[i];
        cm_buf_printf(out, "item %llu oid %u %s schema %llu %s:", (unsigned long long)it->id, it->oid,
                      cat_item_kind_name(it->kind), (unsigned long long)it->schema->id, it->name);
        dump_acl(&it->acl, out);
        cm_buf_printf(out, " %s\n", it->create_sql);
        for (uint32_t c = 0; c < it->ncolumns; c++) {
            const cat_column_t *col = &it->columns[c];
            cm_buf_printf(out, "  column %s type %u typmod %d%s%s%s\n", col->name, col->type, col->typmod,
                          col->not_null ? " not null" : "", col->default_sql ? " default " : "",
                          col->default_sql ? col->default_sql : "");
        }
        for (uint32_t d = 0; d < it->ndeps; d++)
            cm_buf_printf(out, "  dep %llu\n", (unsigned long long)it->deps[d]);
        const cat__item_t *node = s->items.v[i];
        for (size_t d = 0; d < node->dependents.n; d++)
            cm_buf_printf(out, "  dependent %llu\n", (unsigned long long)*(const cat_id_t *)node->dependents.v[d]);
    }
}
